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
    const memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(size / PAGE)) });
    return { memory, exports: new WebAssembly.Instance(code, { env: { memory } }).exports as unknown as Exports };
  } catch {
    return undefined;
  }
}
