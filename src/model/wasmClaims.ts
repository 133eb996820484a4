// A big file's keys (see freshLids.ts, contextKeys: writeKeys below, over its fingerprints in
// place) and first claims of fresh LIDs (see freshLids.ts, firstClaims) in WebAssembly: each
// line's first two candidates with a letter, claimed in a bitmap of every code; the codes
// claimed again listed (few), marked in a bitmap of every code and in a filter of their hashes,
// and the lines whose code held passes the filter. For a million lines this takes some 30 ms of
// CPU where the loop in JavaScript, run once a process, took 150 (with its lookup of every line's
// code in the table of those claimed again). The clashes are then settled over the two bitmaps
// (clashRounds.ts): for a million lines some 100 ms of CPU where the rounds over maps and sets
// took 200 (on a loaded machine), and a peak some 6 MB lower (their heap, less the 4 MiB bitmap).
// Each round's moves are made here too (moveOn below), with the lines a few thousand at a time.
// 6-character LIDs stay in JavaScript, which sorts their claims by part: a bitmap of every code
// (128 MiB) and the sorted claims would stay in the memory until it goes, some 70 MB more at the
// peak of 10,000,000 lines for some 10% less time. The module is src/model/wasm/claims.wat,
// assembled below (test/model/wasmAssembled.test.ts assembles it again and checks it is the same).

import { settleClashes } from './clashRounds.js';
import type { LineHashes } from './hash.js';
import { instantiate } from './wasmModule.js';

/** src/model/wasm/claims.wat, assembled (wabt, SIMD on), in base64. */
export const CLAIMS_WASM =
  'AGFzbQEAAAABSwhgCX9/f39/f39/fwF/YAV/f39/fwBgCH9/f39/f39/AGAGf39/f39/AX9gAn9/AX9gAX8Bf2AGf39/f39/AGAJf39/f39/f39/AAIPAQNlbnYGbWVtb3J5AgABAw0MAAEAAgMDBAUGAwcDB08JBWZpcnN0AAAHcGVuZGluZwACB3Jlc2VydmUAAwVjbGFpbQAEBHN0YXkABQVzaWV2ZQAICmNhbmRpZGF0ZXMACQRtYXJrAAoEa2V5cwALCrMQDOwCAQ9/QQEgBEEFbHRBAWshDiAEQQRrQR50IQ9B7/ve9wEgDnEhEUHGsYzjACAOcSESQZCEoYgCIA5xIRMCQANAIAkgA08NASAJQQJ0IRAgACAQaigCACEKIAEgEGooAgBBAXIhC0EAIQwgCiAOcSENAkADQCATIA0gDSARcSASanJxDQEgDEEBaiEMIAogDCALbGogDnEhDQwACwsgAiAQaiAPIA1yNgIAIA1BBXZBAnQhFEEBIA10IRUgBSAUaigCACEWIBYgFXEEQCAPIA1yIAYgFyAHIAgQASAXQQFqIRcFIAUgFGogFiAVcjYCAAsDQCAMQQFqIQwgCiAMIAtsaiAOcSENIBMgDSANIBFxIBJqcnFFDQALIA1BBXZBAnQhFEEBIA10IRUgBSAUaigCACEWIBYgFXEEQCAPIA1yIAYgFyAHIAgQASAXQQFqIRcFIAUgFGogFiAVcjYCAAsgCUEBaiEJDAALCyAXC0EBAX8gASACQQJ0aiAANgIAIABBsfPd8XlsIAR2IQUgAyAFQQV2QQJ0aiADIAVBBXZBAnRqKAIAQQEgBXRyNgIAC4cBAQR/IAEhCQJAA0AgCSACTw0BIAAgCUECdGooAgAhDCAMQbHz3fF5bCAEdiEKIAMgCkEFdkECdGooAgBBASAKdHEEQCAMIAVxIQwgBiAMQQV2QQJ0aigCAEEBIAx0cQRAIAggC0ECdGogByAJajYCACALQQFqIQsLCyAJQQFqIQkMAAsLIAsLxQIBDH9BASAFQQVsdEEBayEPIAVBBGtBHnQhEEHv+973ASAPcSERQcaxjOMAIA9xIRJBkIShiAIgD3EhEwJAA0AgCCAETw0BIAIgCEECdGooAgBBAnQhCSAAIAlqKAIAIQogASAJaigCAEEBciELIAMgCEECdGooAgAgD3EhDkEAIQwgCiAPcSENAkADQCANIA5GDQEgDEEBaiEMIAogDCALbGogD3EhDQwACwsDQCAMQQFqIQwgCiAMIAtsaiAPcSENIBMgDSANIBFxIBJqcnFFDQALIAMgCEECdGogECANcjYCAANAIAxBAWohDCAKIAwgC2xqIA9xIQ0gEyANIA0gEXEgEmpycUUNAAsgByAIQQJ0aiAQIA1yQYCAgIB4QQAgBiANQQV2QQJ0aigCAEEBIA10cRtyNgIAIAhBAWohCAwACwsLqQEBBn8CQANAIAYgAU8NASAAIAZBAnRqKAIAIQcgByACcSEIIAhBBXZBAnQhCUEBIAh0IQogAyAJaigCACAKcUUEQCADIAlqIAMgCWooAgAgCnI2AgAFIAQgCWooAgAgCnFFBEAgBCAJaiAEIAlqKAIAIApyNgIAIAdBAEgEQCAFIAtBAnRqIAdB/////wdxNgIAIAtBAWohCwsLCyAGQQFqIQYMAAsLIAsLYAEDfwJAA0AgBiACTw0BIAEgBkECdGooAgAgA3EhByAEIAdBBXZBAnRqKAIAQQEgB3RxBEAgBSAIQQJ0aiAAIAZBAnRqKAIANgIAIAhBAWohCAsgBkEBaiEGDAALCyAICykAIAFB0dr45HxsQQ93QZPrnNwBbCEBIAAgAXNBDXdBBWxB5NbRsn5qCywAIAAgAEEQdnNB65Svr3hsIQAgACAAQQ12c0G13MqVfGwhACAAIABBEHZzC3IBBX8gASEGAkADQCAGIAJPDQEgACAGQQJ0aigCACADcSEHIAdBBXZBAnQhCEEBIAd0IQkgBCAIaigCACEKIAogCXEEQCAFIAhqIAUgCGooAgAgCXI2AgAFIAQgCGogCiAJcjYCAAsgBkEBaiEGDAALCwtYAQN/IAEhBgJAA0AgBiACTw0BIAAgBkECdGooAgAgA3EhByAEIAdBBXZBAnRqKAIAQQEgB3RxBEAgBSAGakEBOgAAIAhBAWohCAsgBkEBaiEGDAALCyAIC90BAQV/IAIhCQJAA0AgCSADTw0BIAQgCWotAABBAEcgACAJQQJ0aigCACAHcSAIRnEEQCAAIAlBAnRqKAIAIQogASAJQQJ0aigCACELIAogC0Gx893xeWxzIAZxIQwCQANAIAUgDEECdGooAgAhDSANRQRAIAUgDEECdGogCUEBajYCAAwCCyANQQFrIQ0gACANQQJ0aigCACAKRiABIA1BAnRqKAIAIAtGcQRAIAQgDWpBAjoAACAEIAlqQQI6AAAMAgsgDEEBaiAGcSEMDAALCwsgCUEBaiEJDAALCwuiAwEHfyADIQYCQANAIAYgBE8NASAFIAZqLQAAQQJHBEAgBkEBaiEGDAELIAYhByAGIQgCQANAIAggAk8NASAFIAhqLQAAQQJHDQEgCEEBaiEIDAALCyAHBEAgB0EBa0ECdCELIAAgC2ooAgAhCSABIAtqKAIAIQoFQefMp9AGIQlBhd2e23shCgsgByEGAkADQCAGIAhPDQEgBkECdCELIAkgACALaigCABAGIQkgCiABIAtqKAIAEAYhCiAGQQFqIQYMAAsLIAggAkkEQCAIQQJ0IQsgCSAAIAtqKAIAEAYhCSAKIAEgC2ooAgAQBiEKBSAJQYXdntt7EAYhCSAKQefMp9AGEAYhCgsgCSAIIAdrcxAHIQkgCiAIIAdrQZXTx94FbHMQByEKIAchBgJAA0AgBiAITw0BIAZBAnQhCyAGIAdrQQFqIQwgACALaiAJIAxBr9bTvgJscyAAIAtqKAIAEAYgChAGEAc2AgAgASALaiAKIAxBsc/ZsgFsaiABIAtqKAIAEAYgCRAGEAc2AgAgBkEBaiEGDAALCwwACwsgBgs=';

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
  pending(
    lids: number,
    from: number,
    to: number,
    filter: number,
    shift: number,
    mask: number,
    twice: number,
    base: number,
    out: number,
  ): number;
  reserve(
    k1: number,
    k2: number,
    moving: number,
    held: number,
    m: number,
    length: number,
    once: number,
    reserves: number,
  ): void;
  claim(reserves: number, m: number, mask: number, once: number, twice: number, contested: number): number;
  stay(moving: number, held: number, m: number, mask: number, twice: number, out: number): number;
  sieve(h1: number, from: number, to: number, mask: number, once: number, twice: number): void;
  candidates(h1: number, from: number, to: number, mask: number, twice: number, flags: number): number;
  mark(
    h1: number,
    h2: number,
    from: number,
    to: number,
    flags: number,
    table: number,
    tmask: number,
    partMask: number,
    part: number,
  ): void;
  keys(h1: number, h2: number, n: number, from: number, to: number, flags: number): number;
}

/** Bits of the filter of the codes a round of clashes contests (see clashRounds.ts): 8 KiB. */
const HOLDERS_BITS = 16;
const HOLDERS_FILTER = 2 ** HOLDERS_BITS;

/** Lines a call (see wasmRecords.ts, TIERING_BLOCKS: the optimised code comes in between calls only). */
export const CALL_LINES = 1 << 14;

/** At most 2 ** this many parts of the exact table (see writeKeys). */
const MAX_PART_BITS = 6;

/** Slots of the table of `count` lines whose content may repeat (see writeKeys): half of them at most filled. */
function tableSlots(count: number): number {
  let slots = 64;
  while (slots < 2 * count) slots *= 2;
  return slots;
}

/** Memory for the fresh LIDs of `n` lines of `length` characters. */
export interface ClaimMemory {
  /** Room for the lines' keys, to be written there first (or by writeKeys): k1 of every line, then k2. */
  readonly keys: Uint32Array;
  /** Writes into `keys` the keys of the lines of `hashes` (`n` of them), as contextKeys gives them. */
  writeKeys(hashes: LineHashes): void;
  /** The fresh LIDs of the keys written in `keys` (see freshLids.ts, assignByKeys), written into `lids`. */
  lidsOf(lids: Uint32Array): Uint32Array;
}

/**
 * Memory for the fresh LIDs of `n` lines whose LIDs have `length` characters (4 or 5: see
 * above for 6); undefined where WebAssembly cannot give it. The first claims are taken there, and
 * the clashes settled over its bitmaps of every code claimed once and twice (clashRounds.ts).
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
  const twiceAt = onceAt + bitmapBytes;
  const filterAt = twiceAt + bitmapBytes;
  const codesAt = filterAt + 2 ** filterBits / 8;
  const outAt = codesAt + 4 * CALL_LINES;
  const holdersAt = outAt + 8 * CALL_LINES;
  const roundAt = holdersAt + HOLDERS_FILTER / 8;
  // The keys' working room (see writeKeys): a byte a line; the sieve's two bitmaps (some 8 bits a
  // line) are the claims' two, zeroed after, and its table of the lines the sieve lets through is
  // the first of them once sieved, where it fits (else past the flags: as big as all the lines
  // would need, its pages beyond those a file's few need never the process's).
  const flagsAt = roundAt + 12 * CALL_LINES;
  let sieveBits = 10;
  while (sieveBits < valueBits && 2 ** sieveBits < 8 * n) sieveBits++;
  const tableAt = flagsAt + 8 * Math.ceil(n / 8);
  const instance = instantiate<Exports>(CLAIMS_WASM, tableAt + 4 * tableSlots(n));
  if (!instance) return undefined;
  const { memory, exports } = instance;
  const onceWords = new Uint32Array(memory.buffer, onceAt, bitmapBytes / 4);
  const twiceWords = new Uint32Array(memory.buffer, twiceAt, bitmapBytes / 4);
  const claimedTwice = (code: number) => (twiceWords[(code & mask) >>> 5]! & (1 << (code & 31))) !== 0;
  const claims = {
    once: {
      has: (code: number) => (onceWords[(code & mask) >>> 5]! & (1 << (code & 31))) !== 0,
      add: (code: number) => {
        onceWords[(code & mask) >>> 5]! |= 1 << (code & 31);
      },
    },
    twice: {
      has: claimedTwice,
      add: (code: number) => {
        twiceWords[(code & mask) >>> 5]! |= 1 << (code & 31);
      },
    },
  };
  /**
   * The lines (in file order) whose code in `lids` has its bit (code·0x9e3779b1 >> `shift`) set
   * in the filter at `filter`, and is claimed twice.
   */
  const linesOf = (lids: Uint32Array, filter: number, shift: number): Uint32Array => {
    const codes = new Uint32Array(memory.buffer, codesAt, CALL_LINES);
    const out = new Uint32Array(memory.buffer, outAt, CALL_LINES);
    let found = new Uint32Array(64);
    let count = 0;
    for (let from = 0; from < n; from += CALL_LINES) {
      const size = Math.min(CALL_LINES, n - from);
      codes.set(lids.subarray(from, from + size));
      const passed = exports.pending(codesAt, 0, size, filter, shift, mask, twiceAt, from, outAt);
      if (count + passed > found.length) {
        const more = new Uint32Array(Math.max(2 * found.length, count + passed));
        more.set(found.subarray(0, count));
        found = more;
      }
      found.set(out.subarray(0, passed), count);
      count += passed;
    }
    return found.slice(0, count);
  };
  /**
   * A round's moves (see clashRounds.ts, MoveOn) in WebAssembly, a few thousand lines a call: in
   * JavaScript, a loop a process runs a few times before V8 has optimised it, the first round of
   * a million lines (some 60,000 moving) took 35 to 65 ms of CPU.
   */
  const moveOn = (lids: Uint32Array, moving: Uint32Array) => {
    const m = moving.length;
    const lines = new Uint32Array(memory.buffer, roundAt, CALL_LINES);
    const held = new Uint32Array(memory.buffer, roundAt + 4 * CALL_LINES, CALL_LINES);
    const out = new Uint32Array(memory.buffer, roundAt + 8 * CALL_LINES, CALL_LINES);
    const reserves = new Uint32Array(m);
    for (let from = 0; from < m; from += CALL_LINES) {
      const size = Math.min(CALL_LINES, m - from);
      for (let j = 0; j < size; j++) held[j] = lids[moving[from + j]!]!;
      lines.set(moving.subarray(from, from + size));
      exports.reserve(0, 4 * n, roundAt, roundAt + 4 * CALL_LINES, size, length, onceAt, roundAt + 8 * CALL_LINES);
      for (let j = 0; j < size; j++) lids[moving[from + j]!] = held[j]!;
      reserves.set(out.subarray(0, size), from);
    }
    const contested = new Uint32Array(m);
    let count = 0;
    for (let from = 0; from < m; from += CALL_LINES) {
      const size = Math.min(CALL_LINES, m - from);
      out.set(reserves.subarray(from, from + size));
      const claimed = exports.claim(roundAt + 8 * CALL_LINES, size, mask, onceAt, twiceAt, roundAt);
      contested.set(lines.subarray(0, claimed), count);
      count += claimed;
    }
    const staying = new Uint32Array(m);
    let stay = 0;
    for (let from = 0; from < m; from += CALL_LINES) {
      const size = Math.min(CALL_LINES, m - from);
      lines.set(moving.subarray(from, from + size));
      for (let j = 0; j < size; j++) held[j] = lids[moving[from + j]!]!;
      const stayed = exports.stay(roundAt, roundAt + 4 * CALL_LINES, size, mask, twiceAt, roundAt + 8 * CALL_LINES);
      staying.set(out.subarray(0, stayed), stay);
      stay += stayed;
    }
    return { contested: contested.subarray(0, count), staying: staying.slice(0, stay) };
  };
  const keys = new Uint32Array(memory.buffer, 0, 2 * n);
  // The room past the flags (a table too big for the bitmap: one content filling a part, as a file
  // of blank lines) is zero until a table uses it, the memory being new or zeroed: only a later use
  // zeroes it, so the pages a table never reaches are never made resident.
  let roomUsed = false;
  /**
   * contextKeys (see freshLids.ts) in WebAssembly, over the fingerprints copied into `keys`: in
   * JavaScript, loops a process runs once, mostly before V8 has optimised them, its sieve, table
   * and stretches took some 60 ms of a million lines' first reading.
   */
  const writeKeys = (hashes: LineHashes) => {
    keys.set(hashes.h1, 0);
    keys.set(hashes.h2, n);
    const h2At = 4 * n;
    const sieveMask = 2 ** sieveBits - 1;
    for (let from = 0; from < n; from += CALL_LINES)
      exports.sieve(0, from, Math.min(n, from + CALL_LINES), sieveMask, onceAt, twiceAt);
    let count = 0;
    for (let from = 0; from < n; from += CALL_LINES)
      count += exports.candidates(0, from, Math.min(n, from + CALL_LINES), sieveMask, twiceAt, flagsAt);
    // The exact table is made a part of the candidates at a time, parts by h1's top bits (equal
    // contents share h1, so they meet in one part): as many parts as bring each part's table into
    // the sieve's first bitmap, which is resident already. Sized by every candidate at once, its own
    // room past the flags (zeroed, so made resident) added up to 32 MiB to the peak of a file of
    // 3,000,000 lines where most lines repeat; repeatedLines, the JavaScript reference, parts too.
    let partBits = 0;
    while (partBits < MAX_PART_BITS && 4 * tableSlots(Math.ceil((count / 2 ** partBits) * 1.25)) > bitmapBytes)
      partBits++;
    const parts = 2 ** partBits;
    const shift = 32 - partBits;
    const partMask = partBits === 0 ? 0 : ((parts - 1) << shift) | 0;
    const perPart = new Uint32Array(parts);
    if (partBits === 0) perPart[0] = count;
    else {
      const flags = new Uint8Array(memory.buffer, flagsAt, n);
      for (let i = 0; i < n; i++) if (flags[i]) perPart[keys[i]! >>> shift]!++;
    }
    for (let part = 0; part < parts; part++) {
      if (perPart[part] === 0) continue;
      const slots = tableSlots(perPart[part]!);
      const inBitmap = 4 * slots <= bitmapBytes;
      const table = inBitmap ? onceAt : tableAt;
      if (inBitmap || roomUsed) new Uint8Array(memory.buffer, table, 4 * slots).fill(0);
      if (!inBitmap) roomUsed = true;
      const partValue = partBits === 0 ? 0 : (part << shift) | 0;
      for (let from = 0; from < n; from += CALL_LINES)
        exports.mark(0, h2At, from, Math.min(n, from + CALL_LINES), flagsAt, table, slots - 1, partMask, partValue);
    }
    new Uint8Array(memory.buffer, onceAt, 2 * bitmapBytes).fill(0);
    for (let from = 0; from < n; ) from = exports.keys(0, h2At, n, from, Math.min(n, from + CALL_LINES), flagsAt);
  };
  return {
    keys,
    writeKeys,
    lidsOf(lids) {
      const codes = new Uint32Array(memory.buffer, codesAt, CALL_LINES);
      const out = new Uint32Array(memory.buffer, outAt, 2 * CALL_LINES);
      for (let from = 0; from < n; from += CALL_LINES) {
        const count = Math.min(CALL_LINES, n - from);
        const again = exports.first(4 * from, 4 * (n + from), codesAt, count, length, onceAt, outAt, filterAt, shift);
        lids.set(codes.subarray(0, count), from);
        for (let j = 0; j < again; j++) claims.twice.add(out[j]!);
      }
      const holdersOf = (contested: Uint32Array) => {
        const filter = new Uint32Array(memory.buffer, holdersAt, HOLDERS_FILTER / 32).fill(0);
        const bit = (code: number) => Math.imul(code, 0x9e3779b1) >>> (32 - HOLDERS_BITS);
        for (const code of contested) filter[bit(code) >>> 5]! |= 1 << (bit(code) & 31);
        return linesOf(lids, holdersAt, 32 - HOLDERS_BITS);
      };
      settleClashes(
        keys.subarray(0, n),
        keys.subarray(n),
        lids,
        length,
        claims,
        linesOf(lids, filterAt, shift),
        holdersOf,
        (moving) => moveOn(lids, moving),
      );
      return lids;
    },
  };
}
