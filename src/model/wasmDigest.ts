// digestText of a long ASCII text taken over its bytes in WebAssembly: a pack's table (20,000
// entries, 1.28 MB) is checked by every command in its root, and the JavaScript loop over the
// decoded text took 10-15 ms of it, once a process, before it was ever compiled well. The module is
// src/model/wasm/digest.wat, assembled below (test/model/wasmAssembled.test.ts assembles it again
// and checks it is the same).

import { digestOfLanes, TEXT_A, TEXT_B } from './digest.js';
import { instantiate } from './wasmModule.js';

/** src/model/wasm/digest.wat, assembled (wabt, SIMD on), in base64. */
export const DIGEST_WASM =
  'AGFzbQEAAAABCgFgBX9/f39/AX8CDwEDZW52Bm1lbW9yeQIAAQMCAQAHCQEFbGFuZXMAAArIAQHFAQEDfwJAA0AgAEEBaiABTw0BIAAtAAAhBSAALQABIQYgByAFIAZyciEHIAVB0dr45HxsQQ93QZPrnNwBbCEFIAIgBXNBDXdBBWxB5NbRsn5qIQIgBkHrlK+veGxBEHdBtdzKlXxsIQYgAyAGc0ERd0EFbEGbmvOwBWohAyAAQQJqIQAMAAsLIAAgAUkEQCAALQAAIQUgByAFciEHIAIgBUHR2vjkfGxBD3dBk+uc3AFscyECCyAEIAI2AgAgBCADNgIEIAcL';

interface Exports {
  lanes(p: number, end: number, a: number, b: number, out: number): number;
}

/**
 * Bytes from which the module pays for its compiling and instantiation (about 1 ms in all, once a
 * process): below, digestText of the decoded text is as quick (measured crossing at 3-4 KB).
 */
export const WASM_DIGEST_FROM = 8 << 10;

/**
 * digestText of the text whose UTF-8 bytes are `bytes`, when they are all ASCII (the text's code
 * units are then its bytes); undefined when one is not, or WebAssembly cannot be had: the caller
 * then takes digestText of the decoded text.
 */
export function digestAscii(bytes: Uint8Array): string | undefined {
  const at = 8;
  const instance = instantiate<Exports>(DIGEST_WASM, at + bytes.length);
  if (!instance) return undefined;
  const { memory, exports } = instance;
  new Uint8Array(memory.buffer, at, bytes.length).set(bytes);
  const lanes = new Int32Array(memory.buffer, 0, 2);
  let a = TEXT_A;
  let b = TEXT_B;
  let or = 0;
  // By the piece: a call runs the code it was compiled to at its start, and the first (quickly
  // compiled) code is no faster than JavaScript; the optimised code, compiled meanwhile, serves the
  // later calls. (A piece is even, so that the lanes take turns as over the whole.)
  for (let p = 0; p < bytes.length; p += PIECE) {
    or |= exports.lanes(at + p, at + Math.min(bytes.length, p + PIECE), a, b, 0);
    a = lanes[0]!;
    b = lanes[1]!;
  }
  if (or & 0x80) return undefined;
  return digestOfLanes(a, b, bytes.length);
}

/** Bytes a call of the module takes. */
const PIECE = 4096;
