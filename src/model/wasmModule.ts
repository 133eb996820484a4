// The WebAssembly modules rt carries (src/model/wasm/*.wat, assembled, in base64): compiled once
// a process, when first needed; undefined where WebAssembly cannot be had (a processor without
// SIMD, say), and the caller then does the same work in JavaScript.

const modules = new Map<string, WebAssembly.Module | null>();

function compiled(base64: string): WebAssembly.Module | undefined {
  let module = modules.get(base64);
  if (module === undefined) {
    try {
      module = new WebAssembly.Module(Buffer.from(base64, 'base64'));
    } catch {
      module = null;
    }
    modules.set(base64, module);
  }
  return module ?? undefined;
}

/** Bytes of a WebAssembly page. */
export const PAGE = 1 << 16;
/** The most memory a module's memory may have (4 GiB of 32-bit addresses, less a page). */
export const MOST = 2 ** 32 - PAGE;

/**
 * The module `base64`, instantiated with a memory of `size` bytes at least (its `env.memory`),
 * or undefined where it cannot be had (no WebAssembly, or no such memory).
 */
export function instantiate<Exports>(
  base64: string,
  size: number,
): { memory: WebAssembly.Memory; exports: Exports } | undefined {
  const code = compiled(base64);
  if (!code || size > MOST) return undefined;
  try {
    const memory = spareMemory(size) ?? new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(size / PAGE)) });
    return { memory, exports: new WebAssembly.Instance(code, { env: { memory } }).exports as unknown as Exports };
  } catch {
    return undefined;
  }
}

/** A memory given back (see giveBack), for the next module instantiated. */
let spare: WebAssembly.Memory | undefined;

/**
 * Gives back a memory its module is done with: the next module instantiated takes it (zeroed, as a
 * new one is) rather than a new one. A first open of a big file reads it into one memory, then
 * counts its LIDs' claims in another; a memory is not freed until V8 collects it, so both were
 * held at once (4 MiB more at the peak).
 */
export function giveBack(memory: WebAssembly.Memory): void {
  // (Not one grown for a long line: zeroing it would cost more than a new one.)
  if (memory.buffer.byteLength <= SPARE_MOST) spare = memory;
}

/** The biggest memory given back. */
const SPARE_MOST = 16 << 20;

/**
 * The memory given back, zeroed and grown to `size` bytes, or undefined (none given back, or it
 * could not grow: a new memory is tried then, which may fit where growing this one did not).
 */
function spareMemory(size: number): WebAssembly.Memory | undefined {
  const memory = spare;
  spare = undefined;
  if (!memory) return undefined;
  const used = memory.buffer.byteLength;
  const pages = Math.ceil(size / PAGE) - used / PAGE;
  try {
    if (pages > 0) memory.grow(pages);
  } catch {
    return undefined;
  }
  // (The pages it grew by come zeroed.)
  new Uint8Array(memory.buffer, 0, used).fill(0);
  return memory;
}

/**
 * Lets go of the memory given back, if no module took it: at the end of a command, so that a
 * server (rt mcp) does not hold it between calls.
 */
export function dropSpareMemory(): void {
  spare = undefined;
}
