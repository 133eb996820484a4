// A big file's lines found in WebAssembly, 16 bytes at a time (SIMD): the file is read straight
// into the module's memory, and the same FileLines as splitLines would give are views of it. For
// a million lines this takes some 10 ms where splitLines takes 20-25, most of it a call into
// Node for each line's `\n`. The module is src/model/wasm/lines.wat, assembled below
// (test/model/wasmAssembled.test.ts assembles it again and checks it is the same). Where
// WebAssembly cannot be had (see wasmModule.ts; or memory is refused), callers use splitLines.

import { BOM, hasBom, splitLines, type FileLines } from './lines.js';
import { instantiate, MOST, PAGE } from './wasmModule.js';

/** src/model/wasm/lines.wat, assembled (wabt, SIMD on), in base64. */
export const LINES_WASM =
  'AGFzbQEAAAABEAJgAn9/AX9gBX9/f39/AX8CDwEDZW52Bm1lbW9yeQIAAQMDAgABBxECBWNvdW50AAAFc3BsaXQAAQrgAwKCAQICfwF7IAAhAkEK/Q8hBAJAA0AgAkEQaiABSw0BIAMgAv0ABAAgBP0j/WRpaiEDIAJBEGohAgwACwsCQANAIAIgAU8NASACLQAAQQpGBEAgA0EBaiEDCyACQQFqIQIMAAsLIAEgAEsEQCABQQFrLQAAQQpHBEAgA0EBaiEDCwsgAwvZAgIGfwF7IAAhCSAAIQVBCv0PIQsCQANAIAVBEGogAUsNASAF/QAEACAL/SP9ZCEHAkADQCAHRQ0BIAUgB2hqIQggBiAETwRAQX8PCyACIAZBAnRqIAk2AgAgCCEKIAggCUsEQCAIQQFrLQAAQQ1GBEAgCEEBayEKCwsgAyAGQQJ0aiAKNgIAIAZBAWohBiAIQQFqIQkgByAHQQFrcSEHDAALCyAFQRBqIQUMAAsLAkADQCAFIAFPDQEgBS0AAEEKRgRAIAYgBE8EQEF/DwsgAiAGQQJ0aiAJNgIAIAUhCiAFIAlLBEAgBUEBay0AAEENRgRAIAVBAWshCgsLIAMgBkECdGogCjYCACAGQQFqIQYgBUEBaiEJCyAFQQFqIQUMAAsLIAkgAUkEQCAGIARPBEBBfw8LIAIgBkECdGogCTYCACADIAZBAnRqIAE2AgAgBkEBaiEGCyAGCw==';

interface Exports {
  count(from: number, len: number): number;
  split(from: number, len: number, starts: number, ends: number, cap: number): number;
}

/** Memory to read a file into (`bytes`), then to split it (`lines`). */
export interface LineMemory {
  /** Room for the file's bytes, read from offset 0. */
  readonly bytes: Buffer;
  /**
   * The first `length` bytes read as lines, as splitLines(bytes, skipBom, expected) gives them;
   * `expected`, the line count if known, spares counting them first. `bytes` is not to be used
   * after (the memory may have moved): the result's own `bytes` is.
   */
  lines(length: number, skipBom: boolean, expected?: number): FileLines;
}

/**
 * Memory for a file of up to `room` bytes with about `expected` lines, or undefined where
 * WebAssembly cannot give it (splitLines is then used).
 */
export function lineMemory(room: number, expected = 0): LineMemory | undefined {
  const arraysAt = (length: number) => Math.ceil(length / 4) * 4;
  const sizeFor = (length: number, cap: number) => arraysAt(length) + 8 * (cap + 1);
  const instance = instantiate<Exports>(LINES_WASM, sizeFor(room, expected));
  if (!instance) return undefined;
  const { memory, exports } = instance;
  /** Room for `cap` lines' arrays after `length` bytes: false when the memory cannot have it. */
  const fit = (length: number, cap: number): boolean => {
    const size = sizeFor(length, cap);
    if (size > MOST) return false;
    const pages = Math.ceil(size / PAGE) - memory.buffer.byteLength / PAGE;
    try {
      if (pages > 0) memory.grow(pages);
    } catch {
      return false;
    }
    return true;
  };
  return {
    bytes: Buffer.from(memory.buffer, 0, room),
    lines(length, skipBom, expected) {
      if (length > room) throw new Error(`lineMemory: ${length} bytes read into room for ${room}`);
      const bomLength = skipBom && hasBom(Buffer.from(memory.buffer, 0, Math.min(length, BOM.length))) ? BOM.length : 0;
      const startsAt = arraysAt(length);
      const split = (cap: number) =>
        fit(length, cap) ? exports.split(bomLength, length, startsAt, startsAt + 4 * (cap + 1), cap) : -1;
      let cap = expected ?? exports.count(bomLength, length);
      let count = split(cap);
      if (count < 0 && expected !== undefined) {
        // More lines than expected: counted, and split again.
        cap = exports.count(bomLength, length);
        count = split(cap);
      }
      // Lines the memory cannot hold beside the bytes: split in JavaScript.
      if (count < 0) return splitLines(Buffer.from(memory.buffer, 0, length), skipBom, cap);
      const buffer = memory.buffer;
      const starts = new Uint32Array(buffer, startsAt, count + 1);
      starts[count] = length;
      return {
        bytes: Buffer.from(buffer, 0, length),
        bomLength,
        count,
        starts,
        contentEnds: new Uint32Array(buffer, startsAt + 4 * (cap + 1), count),
      };
    },
  };
}

/**
 * Memory to count the newlines of a file in, `size` bytes at a time (16 at a time, SIMD: some
 * ten times as fast as looking for each with indexOf); undefined where WebAssembly cannot be had.
 */
export function newlineCounter(size: number): { readonly bytes: Buffer; newlines(length: number): number } | undefined {
  const instance = instantiate<Exports>(LINES_WASM, size);
  if (!instance) return undefined;
  const bytes = Buffer.from(instance.memory.buffer, 0, size);
  // count() counts a last line without its newline too.
  const newlines = (length: number) =>
    length === 0 ? 0 : instance.exports.count(0, length) - (bytes[length - 1] === 0x0a ? 0 : 1);
  return { bytes, newlines };
}
