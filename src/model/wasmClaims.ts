// A big file's first claims of fresh LIDs (see freshLids.ts, firstClaims) in WebAssembly: each
// line's first two candidates with a letter, claimed in a bitmap of every code; the codes
// claimed again listed (few) and marked in a filter of their hashes, and the lines whose code
// held passes the filter. For a million lines this takes some 30 ms of CPU where the loop in
// JavaScript, run once a process, took 150 (with its lookup of every line's code in the table of
// those claimed again). 6-character LIDs stay in JavaScript, which sorts their claims by part: a
// bitmap of every code (128 MiB) and the sorted claims would stay in the memory until it goes,
// some 70 MB more at the peak of 10,000,000 lines for some 10% less time. The module is
// src/model/wasm/claims.wat, assembled below
// (test/model/wasmAssembled.test.ts assembles it again and checks it is the same).

import { CodeTable, type CodeSet } from './lid.js';
import { instantiate } from './wasmModule.js';

/** src/model/wasm/claims.wat, assembled (wabt, SIMD on), in base64. */
export const CLAIMS_WASM =
  'AGFzbQEAAAABIANgCX9/f39/f39/fwF/YAV/f39/fwBgBn9/f39/fwF/Ag8BA2VudgZtZW1vcnkCAAEDBAMAAQIHEwIFZmlyc3QAAAdwZW5kaW5nAAIKlAQD7AIBD39BASAEQQVsdEEBayEOIARBBGtBHnQhD0Hv+973ASAOcSERQcaxjOMAIA5xIRJBkIShiAIgDnEhEwJAA0AgCSADTw0BIAlBAnQhECAAIBBqKAIAIQogASAQaigCAEEBciELQQAhDCAKIA5xIQ0CQANAIBMgDSANIBFxIBJqcnENASAMQQFqIQwgCiAMIAtsaiAOcSENDAALCyACIBBqIA8gDXI2AgAgDUEFdkECdCEUQQEgDXQhFSAFIBRqKAIAIRYgFiAVcQRAIA8gDXIgBiAXIAcgCBABIBdBAWohFwUgBSAUaiAWIBVyNgIACwNAIAxBAWohDCAKIAwgC2xqIA5xIQ0gEyANIA0gEXEgEmpycUUNAAsgDUEFdkECdCEUQQEgDXQhFSAFIBRqKAIAIRYgFiAVcQRAIA8gDXIgBiAXIAcgCBABIBdBAWohFwUgBSAUaiAWIBVyNgIACyAJQQFqIQkMAAsLIBcLQQEBfyABIAJBAnRqIAA2AgAgAEGx893xeWwgBHYhBSADIAVBBXZBAnRqIAMgBUEFdkECdGooAgBBASAFdHI2AgALYgEDfyABIQYCQANAIAYgAk8NASAAIAZBAnRqKAIAQbHz3fF5bCAEdiEHIAMgB0EFdkECdGooAgBBASAHdHEEQCAFIAhBAnRqIAY2AgAgCEEBaiEICyAGQQFqIQYMAAsLIAgL';

interface Exports {
  first(
    k1: number,
    k2: number,
    lids: number,
    n: number,
    length: number,
    once: number,
    again: number,
    filter: number,
    shift: number,
  ): number;
  pending(lids: number, from: number, to: number, filter: number, shift: number, out: number): number;
}

/** Bits of the filter of the codes a round of clashes contests (see freshLids.ts, addHolders): 8 KiB. */
const HOLDERS_BITS = 16;
const HOLDERS_FILTER = 2 ** HOLDERS_BITS;

/** Lines a call (see wasmRecords.ts, TIERING_BLOCKS: the optimised code comes in between calls only). */
const CALL_LINES = 1 << 14;

/** A file's first claims: each line's code held, the codes claimed once and twice, the lines holding one twice. */
export interface FirstClaims {
  readonly lids: Uint32Array;
  readonly once: CodeSet;
  readonly twice: CodeSet;
  /** The lines whose code held is claimed twice, in file order. */
  readonly pending: number[];
  /** Adds to `into` each line (in file order) whose code in `lids` is one of `codes` (see addHolders). */
  holders?(lids: Uint32Array, codes: Set<number>, into: Set<number>): void;
}

/** Memory for the first claims of `n` lines' LIDs of `length` characters. */
export interface ClaimMemory {
  /** Room for the lines' keys, to be written there first: k1 of every line, then k2. */
  readonly keys: Uint32Array;
  /** The first claims of the keys written in `keys`, each line's code held written into `lids`. */
  firstClaims(lids: Uint32Array): FirstClaims;
}

/**
 * Memory for the first claims of `n` lines whose LIDs have `length` characters (4 or 5: see
 * above for 6); undefined where WebAssembly cannot give it.
 * The codes held pass through it a few lines at a time into an array of JavaScript's: the memory,
 * its keys and bitmaps, is garbage once the LIDs are settled, and they are not copied out whole.
 */
export function claimMemory(n: number, length: number): ClaimMemory | undefined {
  if (length > 5) return undefined;
  const valueBits = 5 * length;
  const mask = 2 ** valueBits - 1;
  const bitmapBytes = 2 ** valueBits / 8;
  // The filter of the codes claimed again: some 8 bits a line, up to 2^23 (1 MiB).
  let filterBits = 10;
  while (filterBits < 23 && 2 ** filterBits < 8 * n) filterBits++;
  const shift = 32 - filterBits;
  const onceAt = 8 * n;
  const filterAt = onceAt + bitmapBytes;
  const codesAt = filterAt + 2 ** filterBits / 8;
  const outAt = codesAt + 4 * CALL_LINES;
  const holdersAt = outAt + 8 * CALL_LINES;
  const instance = instantiate<Exports>(CLAIMS_WASM, holdersAt + HOLDERS_FILTER / 8);
  if (!instance) return undefined;
  const { memory, exports } = instance;
  const onceWords = new Uint32Array(memory.buffer, onceAt, bitmapBytes / 4);
  const once: CodeSet = {
    has: (code) => (onceWords[(code & mask) >>> 5]! & (1 << (code & 31))) !== 0,
    add: (code) => {
      onceWords[(code & mask) >>> 5]! |= 1 << (code & 31);
    },
  };
  const filter = new Uint32Array(memory.buffer, filterAt, 2 ** filterBits / 32);
  const bit = (code: number) => Math.imul(code, 0x9e3779b1) >>> shift;
  const table = new CodeTable();
  const twice: CodeSet = {
    has: (code) => (filter[bit(code) >>> 5]! & (1 << (bit(code) & 31))) !== 0 && table.has(code),
    add: (code) => {
      filter[bit(code) >>> 5]! |= 1 << (bit(code) & 31);
      table.add(code);
    },
  };
  /**
   * Gives `found` each line (in file order) whose code in `lids` has its bit (code·0x9e3779b1 >>
   * `shift`) set in the filter at `filter`, and is one `has` has.
   */
  const linesOf = (
    lids: Uint32Array,
    filter: number,
    shift: number,
    has: (code: number) => boolean,
    found: (line: number) => void,
  ) => {
    const codes = new Uint32Array(memory.buffer, codesAt, CALL_LINES);
    const out = new Uint32Array(memory.buffer, outAt, CALL_LINES);
    for (let from = 0; from < n; from += CALL_LINES) {
      const count = Math.min(CALL_LINES, n - from);
      codes.set(lids.subarray(from, from + count));
      const passed = exports.pending(codesAt, 0, count, filter, shift, outAt);
      for (let j = 0; j < passed; j++) if (has(codes[out[j]!]!)) found(from + out[j]!);
    }
  };
  return {
    keys: new Uint32Array(memory.buffer, 0, 2 * n),
    firstClaims(lids) {
      const codes = new Uint32Array(memory.buffer, codesAt, CALL_LINES);
      const out = new Uint32Array(memory.buffer, outAt, 2 * CALL_LINES);
      for (let from = 0; from < n; from += CALL_LINES) {
        const count = Math.min(CALL_LINES, n - from);
        const again = exports.first(4 * from, 4 * (n + from), codesAt, count, length, onceAt, outAt, filterAt, shift);
        lids.set(codes.subarray(0, count), from);
        for (let j = 0; j < again; j++) table.add(out[j]!);
      }
      const pending: number[] = [];
      linesOf(
        lids,
        filterAt,
        shift,
        (code) => table.has(code),
        (line) => pending.push(line),
      );
      const holders = (of: Uint32Array, held: Set<number>, into: Set<number>) => {
        const bits = new Uint32Array(memory.buffer, holdersAt, HOLDERS_FILTER / 32).fill(0);
        const bit = (code: number) => Math.imul(code, 0x9e3779b1) >>> (32 - HOLDERS_BITS);
        for (const code of held) bits[bit(code) >>> 5]! |= 1 << (bit(code) & 31);
        linesOf(
          of,
          holdersAt,
          32 - HOLDERS_BITS,
          (code) => held.has(code),
          (line) => into.add(line),
        );
      };
      return { lids, once, twice, pending, holders };
    },
  };
}
