// The WebAssembly modules rt carries (src/core/wasm/*.wat, assembled, in base64): compiled once
// a process, when first needed; undefined where WebAssembly cannot be had (a processor without
// SIMD, say), and the caller then does the same work in JavaScript.

const modules = new Map<string, WebAssembly.Module | null>();

export function compiled(base64: string): WebAssembly.Module | undefined {
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
