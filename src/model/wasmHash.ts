// A big file's lines found and fingerprinted in WebAssembly, a piece at a time: the piece is read
// straight into the module's memory, and each line's two hashes are taken there as hashLineAt
// takes them (src/model/hash.ts), one pass over its bytes. In JavaScript that pass, run once a
// process, was most of a first open's reading (hashLineAt inlined in the loop of scanFile). The
// module is src/model/wasm/scan.wat, which hashes two lines side by side (10% less time than one
// at a time on a 525 MB file's scan), assembled below (test/model/wasmAssembled.test.ts assembles
// it again and checks it is the same).

import { giveBack, instantiate, MOST, PAGE } from './wasmModule.js';

/** src/model/wasm/scan.wat, assembled (wabt, SIMD on), in base64. */
export const SCAN_WASM =
  'AGFzbQEAAAABJgVgAX8Bf2ACf38Bf2ADf39/AX9gCX9/f39/f39/fwF/YAN/f38AAg8BA2VudgZtZW1vcnkCAAEDBgUAAQIDBAcQAgRoYXNoAAMFcmFuZ2UABAqSBgU0ACAAIABBEHZzIQAgAEHrlK+veGwhACAAIABBDXZzIQAgAEG13MqVfGwhACAAIABBEHZzC2ECAXsBf0EK/Q8hAgJAA0AgAEEQaiABSw0BIAD9AAQAIAL9I/1kIQMgAwRAIAAgA2hqDwsgAEEQaiEADAALCwJAA0AgACABTw0BIAAtAABBCkYNASAAQQFqIQAMAAsLIAALLgAgASACSQRAIAEgAEsEQCABQQFrLQAAQQ1GBEAgASAAa0EBaw8LCwsgASAAawv7AwENfwJAA0AgCSAETw0BIAAgAU8NASAGIAlqIAdwRQRAIAggADYCACAIQQRqIQgLIAAgARABIQogACAKIAEQAiEMIApBAWohDiAJQQFqIARJIA4gAUlxIRVBACENIAohCyAVBEAgBiAJakEBaiAHcEUEQCAIIA42AgAgCEEEaiEICyAOIAEQASELIA4gCyABEAIhDQtBxbvyiHghD0GM5Z66eSERQcW78oh4IRBBjOWeunkhEiAMIA0gDCANSRshFEEAIRMCQANAIBMgFE8NASAPIAAgE2otAABzQZODgAhsIQ8gECAOIBNqLQAAc0GTg4AIbCEQIBEgD2ohESASIBBqIRIgE0EBaiETDAALCyATIRQCQANAIBMgDE8NASAPIAAgE2otAABzQZODgAhsIQ8gESAPaiERIBNBAWohEwwACwsgFCETAkADQCATIA1PDQEgECAOIBNqLQAAc0GTg4AIbCEQIBIgEGohEiATQQFqIRMMAAsLIAIgCUECdGogDyAMcxAANgIAIAMgCUECdGogESAMQZXTx94FbHMQADYCACAJQQFqIQkgCkEBaiEAIBUEQCACIAlBAnRqIBAgDXMQADYCACADIAlBAnRqIBIgDUGV08feBWxzEAA2AgAgCUEBaiEJIAtBAWohAAsMAAsLIAUgADYCACAJC00BAn8gAigCACEDIAIoAgQhBAJAA0AgACABTw0BIAMgAC0AAHNBk4OACGwhAyAEIANqIQQgAEEBaiEADAALCyACIAM2AgAgAiAENgIECw==';

interface Exports {
  hash(
    start: number,
    end: number,
    h1: number,
    h2: number,
    max: number,
    next: number,
    first: number,
    block: number,
    marks: number,
  ): number;
  range(start: number, end: number, state: number): void;
}

/**
 * Memory to read pieces of a file into (`bytes`) and fingerprint their lines, up to `most` lines
 * a call, noting where each line whose number is a multiple of `block` starts.
 */
export interface LineHasher {
  /** Room for a piece (`room` bytes); a view that `grow` replaces. */
  readonly bytes: Buffer;
  /** Room for `length` bytes, the bytes held kept: the new `bytes` (undefined when memory is refused). */
  grow(length: number): Buffer | undefined;
  /**
   * Fingerprints the lines of bytes from `start` (of `bytes`) on, to `end`, up to `max` of them
   * (at most `most`), into `h1` and `h2` from `at` (the file's line number of the first): how
   * many, and where the next starts (`next`). Where each of them numbered a multiple of `block`
   * starts (in `bytes`) is given to `mark`.
   */
  hash(
    start: number,
    end: number,
    max: number,
    h1: Uint32Array,
    h2: Uint32Array,
    at: number,
    mark: (start: number) => void,
  ): number;
  /** Where the line after the last one `hash` fingerprinted starts. */
  readonly next: number;
  /** Gives the memory back for the next module (see giveBack): nothing of this hasher is used after. */
  done(): void;
}

/** Memory for pieces of `room` bytes; undefined where WebAssembly cannot give it. */
export function lineHasher(room: number, most: number, block: number): LineHasher | undefined {
  const h1At = 0;
  const h2At = 4 * most;
  const marksAt = 8 * most;
  const marks = Math.ceil(most / block) + 1;
  const nextAt = marksAt + 4 * marks;
  const bytesAt = nextAt + 8;
  const instance = instantiate<Exports>(SCAN_WASM, bytesAt + room);
  if (!instance) return undefined;
  const { memory, exports } = instance;
  let next = 0;
  let bytes = Buffer.from(memory.buffer, bytesAt, room);
  return {
    get bytes() {
      return bytes;
    },
    grow(length) {
      const pages = Math.ceil((bytesAt + length - memory.buffer.byteLength) / PAGE);
      if (bytesAt + length > MOST) return undefined;
      try {
        if (pages > 0) memory.grow(pages);
      } catch {
        return undefined;
      }
      bytes = Buffer.from(memory.buffer, bytesAt, length);
      return bytes;
    },
    hash(start, end, max, h1, h2, at, mark) {
      const count = exports.hash(
        bytesAt + start,
        bytesAt + end,
        h1At,
        h2At,
        Math.min(max, most),
        nextAt,
        at,
        block,
        marksAt,
      );
      const words = new Uint32Array(memory.buffer, 0, nextAt / 4 + 1);
      h1.set(words.subarray(0, count), at);
      h2.set(words.subarray(most, most + count), at);
      for (let line = at + ((block - (at % block)) % block), m = marksAt / 4; line < at + count; line += block, m++)
        mark(words[m]! - bytesAt);
      next = words[nextAt / 4]! - bytesAt;
      return count;
    },
    get next() {
      return next;
    },
    done: () => giveBack(memory),
  };
}

/** Bytes of a long range copied into the module's memory and hashed a call (see hashLong). */
export const LONG_PIECE = 1 << 20;

/**
 * hashRange's chain (src/model/hash.ts) over bytes `start` to `end` of `bytes` in WebAssembly,
 * from the state `state` holds (FNV-1a's, then the sum of its states), written back there; a
 * piece of `piece` bytes at a time copied into the module's memory. False where WebAssembly
 * cannot be had (`state` untouched): the caller hashes them in JavaScript. For one long line,
 * whose one call JavaScript runs in code not yet optimised (some 4 ns a byte here, against 1.2).
 */
export function hashLong(
  bytes: Uint8Array,
  start: number,
  end: number,
  state: Int32Array,
  piece = LONG_PIECE,
): boolean {
  const room = Math.min(piece, end - start);
  const instance = instantiate<Exports>(SCAN_WASM, 8 + room);
  if (!instance) return false;
  const { memory, exports } = instance;
  const words = new Int32Array(memory.buffer, 0, 2);
  words.set(state.subarray(0, 2));
  const into = new Uint8Array(memory.buffer, 8, room);
  for (let p = start; p < end; p += room) {
    const to = Math.min(end, p + room);
    into.set(bytes.subarray(p, to));
    exports.range(8, 8 + to - p, 0);
  }
  state.set(words);
  giveBack(memory);
  return true;
}
