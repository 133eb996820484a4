// The records of a big saved index (src/store/savedIndex.ts) decoded and checked in WebAssembly:
// its text is read straight into the module's memory, decoded there 16 characters (a line's
// record) at a time (SIMD), and each block's digest taken there too. For a million lines this
// takes some 13 ms where decodeWords, digestWords and splitWords take 30: a latin-1 string of
// the whole text, Node's base64 decoder, then two passes of JavaScript that a process calling it
// once runs before V8 has optimised them. A big index saved whole has its records encoded there
// too, with their digests (digestRecords). The module is src/model/wasm/records.wat, assembled
// below (test/model/wasmAssembled.test.ts assembles it again and checks it is the same).

import type { LineIndex } from './lineIndex.js';
import { giveBack, instantiate } from './wasmModule.js';

/** src/model/wasm/records.wat, assembled (wabt, SIMD on), in base64. */
export const RECORDS_WASM =
  'AGFzbQEAAAABJgVgBX9/f39/AX9gBX9/f39/AGACf38Bf2ABfwF/YAZ/f39/f38AAg8BA2VudgZtZW1vcnkCAAEDBwYAAQICAwQHHQMGZGVjb2RlAAAGZW5jb2RlAAEHZGlnZXN0cwAFCtUOBooDAgJ/F3tBwQD9DyEPQdoA/Q8hEEHhAP0PIRFB+gD9DyESQTD9DyETQTn9DyEUQSv9DyEVQS/9DyEWQb9//Q8hF0G5f/0PIRhBBP0PIRlBE/0PIRpBEP0PIRtB/wH9ECEcQf//A/0RIR0CQANAIAUgAU8NASAAIAVBBHRq/QAEACEHIAcgD/0sIAcgEP0q/U4hCiAHIBH9LCAHIBL9Kv1OIQsgByAT/SwgByAU/Sr9TiEMIAcgFf0jIQ0gByAW/SMhDiAJIAogC/1QIAwgDf1QIA79UP1Q/U39UCEJIAcgCiAX/U4gCyAY/U79UCAMIBn9TiANIBr9TiAOIBv9Tv1Q/VD9UP1uIQggCCAc/U5BBv2LASAIQQj9jQH9UCEIIAggHf1OQQz9qwEgCEEQ/a0B/VAhCCAIIAj9DQIBAAYFBAoJCA4NDAMHCw8hCCAFQQJ0IQYgAiAGaiAI/RsANgIAIAMgBmogCP0bATYCACAEIAZqIAj9GwI2AgAgBUEBaiEFDAALCyAJ/VNFC8UGAgN/CntB/x/9ESEMQT/9ECENQRr9DyEOQTP9DyEPQQ39DyEQ/QxH/Pz8/Pz8/Pz8/O3wQQAAIRECQANAIAVBBGogA0sNASAFQQJ0IQYgBCAFQQR0aiEHIAAgBmr9AAQAIQkgASAGav0ABAAhCiACIAZq/QAEACELIAkgCv0NAAECAxAREhMAAAAAAAAAACAL/Q0CAQAABQQDAxAHBgYTEhERIQggCEEM/a0BIAz9TiAIIAz9TkEQ/asB/VAhCCAIQQb9jQEgDf1OIAggDf1OQQj9iwH9UCEIIAggESAIIA/9cyAIIA79JiAQ/U79UP0O/W4hCCAHIAj9CwQAIAkgCv0NBAUGBxQVFhcAAAAAAAAAACAL/Q0CAQAABQQDAxQHBgYXFhUVIQggCEEM/a0BIAz9TiAIIAz9TkEQ/asB/VAhCCAIQQb9jQEgDf1OIAggDf1OQQj9iwH9UCEIIAggESAIIA/9cyAIIA79JiAQ/U79UP0O/W4hCCAHIAj9CwQQIAkgCv0NCAkKCxgZGhsAAAAAAAAAACAL/Q0CAQAABQQDAxgHBgYbGhkZIQggCEEM/a0BIAz9TiAIIAz9TkEQ/asB/VAhCCAIQQb9jQEgDf1OIAggDf1OQQj9iwH9UCEIIAggESAIIA/9cyAIIA79JiAQ/U79UP0O/W4hCCAHIAj9CwQgIAkgCv0NDA0ODxwdHh8AAAAAAAAAACAL/Q0CAQAABQQDAxwHBgYfHh0dIQggCEEM/a0BIAz9TiAIIAz9TkEQ/asB/VAhCCAIQQb9jQEgDf1OIAggDf1OQQj9iwH9UCEIIAggESAIIA/9cyAIIA79JiAQ/U79UP0O/W4hCCAHIAj9CwQwIAVBBGohBQwACwsCQANAIAUgA08NASAFQQJ0IQYgACAGaigCAP0RIAEgBmooAgD9HAEgAiAGaigCAP0cAiAJ/Q0CAQAABQQDAwgHBgYLCgkJIQggCEEM/a0BIAz9TiAIIAz9TkEQ/asB/VAhCCAIQQb9jQEgDf1OIAggDf1OQQj9iwH9UCEIIAggESAIIA/9cyAIIA79JiAQ/U79UP0O/W4hCCAEIAVBBHRqIAj9CwQAIAVBAWohBQwACwsLJQAgACABQdHa+OR8bEEPd0GT65zcAWxzQQ13QQVsQeTW0bJ+agslACAAIAFB65Svr3hsQRB3QbXcypV8bHNBEXdBBWxBm5rzsAVqCzQAIAAgAEEQdnMhACAAQeuUr694bCEAIAAgAEENdnMhACAAQbXcypV8bCEAIAAgAEEQdnML/gMBB38CQANAIAYgA08NASAGIARqIQcgByADSwRAIAMhBwtB8ua74wMhCkGZmoPfBSELIAYhCAJAA0AgCEECaiAHSw0BIAhBAnQhCSAKIAAgCWooAgBB0dr45HxsQQ93QZPrnNwBbHNBDXdBBWxB5NbRsn5qIQogCyABIAlqKAIAQeuUr694bEEQd0G13MqVfGxzQRF3QQVsQZua87AFaiELIAogAiAJaigCAEHR2vjkfGxBD3dBk+uc3AFsc0ENd0EFbEHk1tGyfmohCiALIAAgCWooAgRB65Svr3hsQRB3QbXcypV8bHNBEXdBBWxBm5rzsAVqIQsgCiABIAlqKAIEQdHa+OR8bEEPd0GT65zcAWxzQQ13QQVsQeTW0bJ+aiEKIAsgAiAJaigCBEHrlK+veGxBEHdBtdzKlXxsc0ERd0EFbEGbmvOwBWohCyAIQQJqIQgMAAsLIAggB0kEQCAIQQJ0IQkgCiAAIAlqKAIAEAIhCiALIAEgCWooAgAQAyELIAogAiAJaigCAEHR2vjkfGxBD3dBk+uc3AFscyEKCyAHIAZrQQNsIQwgCiAMcyEKIAsgDHMhCyAKIAtqIQogCyAKaiELIAoQBCEKIAsQBCELIAogC2ohCiALIApqIQsgBSAKNgIAIAUgCzYCBCAFQQhqIQUgByEGDAALCws=';

/** Blocks digested a call (see digests). */
const TIERING_BLOCKS = 16;

interface Exports {
  decode(text: number, n: number, h1: number, h2: number, lids: number): number;
  digests(h1: number, h2: number, lids: number, n: number, block: number, out: number): void;
  encode(h1: number, h2: number, lids: number, n: number, text: number): void;
}

/** Memory for the records of `lines` lines: read into `text` (whole, or a piece at a time), then decoded. */
export interface RecordMemory {
  /** Room for the records' text (16 characters a line): of every line, or of `pieceLines` lines at a time. */
  readonly text: Buffer;
  /**
   * The records decoded, or undefined when the text holds a character that is not base64's.
   * The arrays are views of the memory, as `text` stays.
   */
  decode(): Pick<LineIndex, 'h1' | 'h2' | 'lids'> | undefined;
  /** Decodes the first `n` records of `text` as those of lines at..at+n-1; false for a character not base64's. */
  decodeAt(at: number, n: number): boolean;
  /**
   * The arrays decoded into (views of the memory), of `length` lines: up to the lines asked for
   * and the `room` after them, which an edit of the index may grow into (never touched before,
   * those pages are not even made resident).
   */
  words(length: number): Pick<LineIndex, 'h1' | 'h2' | 'lids'>;
  /**
   * The digest (as digestWords gives it) of each block of `block` lines in turn, their hex run together (call after
   * decode).
   */
  digests(): string;
  /** Hands the memory on to the next module made (see giveBack): no view of it may be used after. */
  done(): undefined;
}

/**
 * Memory for the records of `lines` lines, in blocks of `block`; undefined where WebAssembly cannot give it. With
 * `pieceLines`, `text` holds that many lines' records at a time (see decodeAt), not all; `room` lines more may be
 * decoded into (see words).
 */
export function recordMemory(lines: number, block: number, pieceLines = lines, room = 0): RecordMemory | undefined {
  const capacity = lines + room;
  const h1At = 0;
  const h2At = h1At + 4 * capacity;
  const lidsAt = h2At + 4 * capacity;
  const outAt = lidsAt + 4 * capacity;
  const blocks = Math.ceil(lines / block);
  const textAt = outAt + 8 * blocks;
  const textLines = Math.min(lines, pieceLines);
  const instance = instantiate<Exports>(RECORDS_WASM, textAt + 16 * textLines);
  if (!instance) return undefined;
  const { memory, exports } = instance;
  const view = (at: number, n: number) => new Uint32Array(memory.buffer, at, n);
  const words = (length: number) => {
    if (length > capacity) throw new Error(`no room for ${length} lines' records`);
    return { h1: view(h1At, length), h2: view(h2At, length), lids: view(lidsAt, length) };
  };
  const decodeAt = (at: number, n: number) =>
    n <= textLines &&
    at + n <= capacity &&
    exports.decode(textAt, n, h1At + 4 * at, h2At + 4 * at, lidsAt + 4 * at) === 1;
  return {
    text: Buffer.from(memory.buffer, textAt, 16 * textLines),
    decode: () => (decodeAt(0, lines) ? words(lines) : undefined),
    done: () => {
      giveBack(memory);
      return undefined;
    },
    decodeAt,
    words,
    digests() {
      // A few blocks a call: V8 runs a module's function first as its baseline compiler made
      // it, some ten times slower here than optimised, and swaps in the optimised one (made
      // meanwhile on another thread) between calls only.
      const step = TIERING_BLOCKS * block;
      for (let from = 0; from < lines; from += step) {
        exports.digests(
          h1At + 4 * from,
          h2At + 4 * from,
          lidsAt + 4 * from,
          Math.min(step, lines - from),
          block,
          outAt + 8 * (from / block),
        );
      }
      const out = view(outAt, 2 * blocks);
      let hex = '';
      for (const lane of out) hex += lane.toString(16).padStart(8, '0');
      return hex;
    },
  };
}

/**
 * The digests (as digestWords gives them, their hex run together) of the records of lines 0..n-1
 * of `index`, by blocks of `block` lines: copied into a small memory a few blocks at a time and
 * digested there, some seven times as fast as digestWords for a million lines. With `encoded`,
 * the records are also encoded there as encodeWords encodes them (in base64, 16 characters a
 * line), and each few blocks' text handed to it in turn, a view of the memory that the next
 * replaces: no string is made of them, nor are their words interleaved in JavaScript. Undefined,
 * nothing handed on, where WebAssembly cannot be had.
 */
export function digestRecords(
  index: Pick<LineIndex, 'h1' | 'h2' | 'lids'>,
  n: number,
  block: number,
  encoded?: (text: Buffer) => void,
): string | undefined {
  const piece = TIERING_BLOCKS * block;
  const lines = Math.min(n, piece);
  const outAt = 12 * lines;
  const textAt = outAt + 8 * TIERING_BLOCKS;
  const instance = instantiate<Exports>(RECORDS_WASM, textAt + (encoded ? 16 * lines : 0));
  if (!instance) return undefined;
  const { memory, exports } = instance;
  const h1 = new Uint32Array(memory.buffer, 0, lines);
  const h2 = new Uint32Array(memory.buffer, 4 * lines, lines);
  const lids = new Uint32Array(memory.buffer, 8 * lines, lines);
  const out = new Uint32Array(memory.buffer, outAt, 2 * TIERING_BLOCKS);
  let hex = '';
  for (let from = 0; from < n; from += piece) {
    const count = Math.min(piece, n - from);
    h1.set(index.h1.subarray(from, from + count));
    h2.set(index.h2.subarray(from, from + count));
    lids.set(index.lids.subarray(from, from + count));
    exports.digests(0, 4 * lines, 8 * lines, count, block, outAt);
    for (const lane of out.subarray(0, 2 * Math.ceil(count / block))) hex += lane.toString(16).padStart(8, '0');
    if (encoded) {
      exports.encode(0, 4 * lines, 8 * lines, count, textAt);
      encoded(Buffer.from(memory.buffer, textAt, 16 * count));
    }
  }
  // Its memory is the next module's: a big edit that moves the blocks after its change by part of
  // one digests them a piece at a time (movedDigests in savedIndex.ts), a memory each call, every
  // one held until V8 collected it (some 8 MiB more at the peak of an insert in 1,000,000 lines, 46 MiB
  // in 10,000,000).
  giveBack(memory);
  return hex;
}
