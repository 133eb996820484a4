// digestText of a long ASCII text taken over its bytes in WebAssembly: a pack's table (20,000
// entries, 1.28 MB) is checked by every command in its root, and the JavaScript loop over the
// decoded text took 10-15 ms of it, once a process, before it was ever compiled well. Likewise
// digestBytes of many ranges of one buffer (the lines of the history's log, each checked by its
// own). The module is src/model/wasm/digest.wat, assembled below (test/model/wasmAssembled.test.ts
// assembles it again and checks it is the same).

import { bytesSeedOf, digestOfLanes, TEXT_A, TEXT_B, WORDS_A, WORDS_B } from './digest.js';
import { instantiate } from './wasmModule.js';

/** src/model/wasm/digest.wat, assembled (wabt, SIMD on), in base64. */
export const DIGEST_WASM =
  'AGFzbQEAAAABEgJgBX9/f39/AX9gBX9/f39/AAIPAQNlbnYGbWVtb3J5AgABAwMCAAEHEQIFbGFuZXMAAAV3b3JkcwABCvACAsUBAQN/AkADQCAAQQFqIAFPDQEgAC0AACEFIAAtAAEhBiAHIAUgBnJyIQcgBUHR2vjkfGxBD3dBk+uc3AFsIQUgAiAFc0ENd0EFbEHk1tGyfmohAiAGQeuUr694bEEQd0G13MqVfGwhBiADIAZzQRF3QQVsQZua87AFaiEDIABBAmohAAwACwsgACABSQRAIAAtAAAhBSAHIAVyIQcgAiAFQdHa+OR8bEEPd0GT65zcAWxzIQILIAQgAjYCACAEIAM2AgQgBwumAQECfwJAA0AgAEEIaiABSw0BIAAoAgBB0dr45HxsQQ93QZPrnNwBbCEFIAIgBXNBDXdBBWxB5NbRsn5qIQIgACgCBEHrlK+veGxBEHdBtdzKlXxsIQYgAyAGc0ERd0EFbEGbmvOwBWohAyAAQQhqIQAMAAsLIAAgAUkEQCACIAAoAgBB0dr45HxsQQ93QZPrnNwBbHMhAgsgBCACNgIAIAQgAzYCBAs=';

interface Exports {
  lanes(p: number, end: number, a: number, b: number, out: number): number;
  words(p: number, end: number, a: number, b: number, out: number): void;
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
  const module = holding(bytes);
  if (!module) return undefined;
  const { exports, lanes } = module;
  let a = TEXT_A;
  let b = TEXT_B;
  let or = 0;
  // By the piece: a call runs the code it was compiled to at its start, and the first (quickly
  // compiled) code is no faster than JavaScript; the optimised code, compiled meanwhile, serves the
  // later calls. (A piece is even, so that the lanes take turns as over the whole.)
  for (let p = 0; p < bytes.length; p += PIECE) {
    or |= exports.lanes(AT + p, AT + Math.min(bytes.length, p + PIECE), a, b, 0);
    a = lanes[0]!;
    b = lanes[1]!;
  }
  if (or & 0x80) return undefined;
  return digestOfLanes(a, b, bytes.length);
}

/** Where the bytes lie in the module's memory: its lanes are written before them. */
const AT = 8;

/**
 * The module instantiated with `bytes` copied into its memory at AT, and its lanes' words; undefined where it cannot
 * be had.
 */
function holding(bytes: Uint8Array): { exports: Exports; lanes: Int32Array } | undefined {
  const instance = instantiate<Exports>(DIGEST_WASM, AT + bytes.length);
  if (!instance) return undefined;
  new Uint8Array(instance.memory.buffer, AT, bytes.length).set(bytes);
  return { exports: instance.exports, lanes: new Int32Array(instance.memory.buffer, 0, 2) };
}

/** Bytes a call of the module takes. */
const PIECE = 4096;

/** Whether this machine keeps words little-endian, as WebAssembly reads them (digestBytes reads them in its order). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * digestBytes of a range of `bytes`, taken over one copy of them, as each is asked for (a damaged log is read no
 * further than its first damaged line); undefined where WebAssembly cannot be had, or the machine is not
 * little-endian: the caller then takes digestBytes of each.
 */
export function bytesDigester(bytes: Uint8Array): ((start: number, end: number) => string) | undefined {
  const module = LITTLE_ENDIAN ? holding(bytes) : undefined;
  if (!module) return undefined;
  const { exports, lanes } = module;
  return (start, end) => {
    const whole = (end - start) >>> 2;
    const seed = bytesSeedOf(bytes, start, end);
    exports.words(AT + start, AT + start + whole * 4, seed ^ WORDS_A, seed ^ WORDS_B, 0);
    return digestOfLanes(lanes[0]!, lanes[1]!, whole);
  };
}
