// Fresh LIDs: what a file's lines are called with no history (no saved state), the same on any
// machine. They come from each line's key:
//
// - a line whose content occurs once in the file is keyed by its content alone, so it keeps its
//   LID wherever it moves (an import sort);
// - a line whose content occurs more than once (a blank line, `}`) is keyed by its content, its
//   **stretch** and its offset in it. The stretch is the run of such repeated lines it stands
//   in, with the line just above it and the line just below it, whose contents occur once in
//   the file (or the start and the end of the file). Those two bound it: a line's surroundings
//   are widened until they reach a line that tells it apart from every other line of the file,
//   on both sides, and no further.
//
// Why the whole stretch, both sides: in `x } } } y`, deleting one `}` leaves bytes that say
// nothing of which one went, so no reading of them may give any of the two left the LID of one
// of the three. With every line of the stretch in every key of the stretch, a line deleted,
// inserted or changed in it gives all its lines new keys (their old LIDs are refused, never
// handed on), while edits anywhere else leave them alone. Only a line standing in the same
// stretch, at the same offset, with the same content — indistinguishable from it by text and
// surroundings — could take a line's LID.
//
// Keys become LIDs by their candidates (see lid.ts; those without a letter are skipped), in an
// order that depends on no line's rank: a line takes its first candidate when no other line of
// the file claims it; lines whose candidates clash all move on to their next, and so on, each
// line reserving its next candidate too (assignByKeys). Had the first line of a clash kept its
// candidate, deleting it would hand that very LID to the second in the next fresh reading; had a
// first claim beaten a later one, or a line gone back to its first candidate freed the second, a
// line added to the file would take the LID of a line still there.

import { ContentCounts } from './fingerprintTable.js';
import { IntMap } from './intMap.js';
import { fmix32, type LineHashes } from './hash.js';
import { candidate, CodeTable, hasLetter, lidLengthFor, type CodeSet } from './lid.js';
import { letterTest, MAX_LEVELS, settleClashes } from './clashRounds.js';
import { claimMemory } from './wasmClaims.js';
import { dropSpareMemory } from './wasmModule.js';

/** Fingerprint that stands for the start and the end of the file around a stretch. */
const EDGE_1 = 0x6a09e667;
const EDGE_2 = 0xbb67ae85;

/** Each line's key (see above): `k1`/`k2` as the two halves of a 64-bit value. */
export interface LineKeys {
  readonly h1: Uint32Array;
  readonly h2: Uint32Array;
}

/** Bits of the sieve of repeatedLines handled at once: two bitmaps of 512 KiB, which the processor's cache holds. */
const SIEVE_PART_BITS = 22;

/**
 * Whether each line's content occurs more than once in the file (1) or once (0). Its working
 * arrays take `scratch`, two words a line (contextKeys then writes the keys there).
 */
export function repeatedLines(
  hashes: LineHashes,
  scratch: Uint32Array = new Uint32Array(2 * hashes.h1.length),
): Uint8Array {
  const n = hashes.h1.length;
  const { h1, h2 } = hashes;
  const repeated = new Uint8Array(n);
  // First a sieve on some bits of the first hash (23, or more for a file of over a million
  // lines, some 8 a line: with fewer, most lines of 10 million share a bucket): a line alone in
  // its bucket is unique. Two bitmaps are looked up far faster than a table of every line; only
  // the lines sharing a bucket (repeated ones, and a few by chance) go to the exact table after.
  // A sieve bigger than the processor's cache costs a miss a line (some 100 ns, where memory is
  // virtual): the lines are first sorted by its part their bucket lies in (equal lines share
  // one), with their fingerprints, and each part is sieved alone.
  // (A small file's sieve is as small: a search prints thousands of files, and zeroing two
  // megabytes for each cost more than all else; only the exact table decides, whatever the size.)
  let bits = n >= 1 << 20 ? 23 : 10;
  while (bits < 29 && 1 << bits < 8 * n) bits++;
  const partBits = Math.max(0, bits - SIEVE_PART_BITS);
  const localBits = bits - partBits;
  const part = (a: number) => (a & ((1 << bits) - 1)) >>> localBits;
  const starts = new Uint32Array((1 << partBits) + 1);
  for (let i = 0; i < n; i++) starts[part(h1[i]!) + 1]!++;
  for (let p = 1; p < starts.length; p++) starts[p]! += starts[p - 1]!;
  const at = starts.slice();
  // (Only the few lines sharing a bucket need their second fingerprint: it is gathered for them.)
  const a1 = scratch.subarray(0, n);
  const line = scratch.subarray(n, 2 * n);
  for (let i = 0; i < n; i++) {
    const e = at[part(h1[i]!)]!++;
    a1[e] = h1[i]!;
    line[e] = i;
  }
  // A small file's bitmaps and gathered fingerprints are the process's scratch, zeroed (a search
  // reads thousands of small files: arrays made for each were most of their keys' cost).
  const words = 1 << (localBits - 5);
  const small = words <= SMALL_SIEVE_WORDS;
  const once = small ? sieveScratch.subarray(0, words) : new Uint32Array(words);
  const twice = small ? sieveScratch.subarray(words, 2 * words) : new Uint32Array(words);
  const local = (1 << localBits) - 1;
  let second = small ? gatheredScratch : new Uint32Array(1024);
  for (let p = 0; p + 1 < starts.length; p++) {
    const from = starts[p]!;
    const to = starts[p + 1]!;
    if (p > 0 || small) {
      once.fill(0);
      twice.fill(0);
    }
    for (let e = from; e < to; e++) {
      const x = a1[e]! & local;
      const word = x >>> 5;
      const bit = 1 << (x & 31);
      if (once[word]! & bit) twice[word]! |= bit;
      else once[word]! |= bit;
    }
    // The entries sharing a bucket are gathered at the start of the part, in place (no list of them is made).
    let shared = from;
    for (let e = from; e < to; e++) {
      const x = a1[e]! & local;
      if (twice[x >>> 5]! & (1 << (x & 31))) {
        a1[shared] = a1[e]!;
        line[shared++] = line[e]!;
      }
    }
    // Their second fingerprints, gathered in a loop of loads that wait on nothing (looked up as
    // the table probed, each waited on a miss in a big file's h2): 0.2 s of 10,000,000 lines.
    if (second.length < shared - from) {
      second = new Uint32Array(Math.max(2 * second.length, shared - from));
      if (small && second.length <= SMALL_GATHERED) gatheredScratch = second;
    }
    for (let e = from; e < shared; e++) second[e - from] = h2[line[e]!]!;
    markRepeated(a1, second, line, from, shared, repeated);
  }
  return repeated;
}

/** Words of the sieve's two bitmaps a small file's take from sieveScratch (files of up to 1,024 lines). */
const SMALL_SIEVE_WORDS = 1 << 8;
const sieveScratch = new Uint32Array(2 * SMALL_SIEVE_WORDS);
/** The most second fingerprints kept in gatheredScratch between calls. */
const SMALL_GATHERED = 1 << 12;
let gatheredScratch = new Uint32Array(64);
/** markRepeated's table, when this small: the process's, zeroed. */
const SMALL_SLOTS = 1 << 12;
const slotsScratch = new Int32Array(SMALL_SLOTS);

/**
 * Marks in `repeated` the lines of entries from..to-1 (of a1 and line; entry e's second
 * fingerprint at b2[e - from]) whose fingerprints another of them has.
 */
function markRepeated(
  a1: Uint32Array,
  b2: Uint32Array,
  line: Uint32Array,
  from: number,
  to: number,
  repeated: Uint8Array,
): void {
  // Open addressing over entries: a slot holds the first entry of a content (+1).
  let capacity = 64;
  while (capacity < (to - from) * 2) capacity *= 2;
  const mask = capacity - 1;
  const slots = capacity <= SMALL_SLOTS ? slotsScratch.fill(0, 0, capacity) : new Int32Array(capacity);
  for (let e = from; e < to; e++) {
    const a = a1[e]!;
    const b = b2[e - from]!;
    let s = (a ^ Math.imul(b, 0x9e3779b1)) & mask;
    for (;;) {
      const first = slots[s]! - 1;
      if (first === -1) {
        slots[s] = e + 1;
        break;
      }
      if (a1[first] === a && b2[first - from] === b) {
        repeated[line[first]!] = 1;
        repeated[line[e]!] = 1;
        break;
      }
      s = (s + 1) & mask;
    }
  }
}

/**
 * The keys of every line of a file, written over the sieve's working arrays once it is done
 * with them: a big file's first reading holds one set of such arrays, not both. `scratch`, two
 * words a line, holds them (k1 of every line, then k2).
 */
export function contextKeys(
  hashes: LineHashes,
  scratch: Uint32Array = new Uint32Array(2 * hashes.h1.length),
): LineKeys {
  const n = hashes.h1.length;
  const repeated = repeatedLines(hashes, scratch);
  const k1 = scratch.subarray(0, n);
  const k2 = scratch.subarray(n, 2 * n);
  // A line whose content occurs once is keyed by its fingerprint: all are copied at once, and
  // the stretches' keys written over them (a copy a line, in the loop, took a third more time
  // of 10,000,000 lines).
  k1.set(hashes.h1);
  k2.set(hashes.h2);
  for (let i = 0; i < n; ) {
    if (!repeated[i]) {
      i++;
      continue;
    }
    let end = i;
    while (end < n && repeated[end]) end++;
    keyStretch(hashes, i, end, k1, k2, 0);
    i = end;
  }
  return { h1: k1, h2: k2 };
}

/**
 * What is left of the lookups (see keysByLookingUp) a few calls of contextKeysOf share: an edit's runs of new lines.
 */
export interface LookupBudget {
  lookups: number;
}

/** A budget of lookups for the runs of new lines of one edit. */
export function lookupBudget(): LookupBudget {
  return { lookups: LOOKUPS };
}

/**
 * The keys of lines `from..to-1` alone, as contextKeys gives them, counting over the whole file
 * only the contents of the lines around them (a few edited lines of a big file need not have
 * every content counted). Calls for one edit's runs share `budget`: once it is spent, each
 * counts at once, so lookups that end in counting anyway are wasted once an edit, not once a run.
 */
export function contextKeysOf(
  hashes: LineHashes,
  from: number,
  to: number,
  budget: LookupBudget = lookupBudget(),
): LineKeys {
  const n = hashes.h1.length;
  const k1 = new Uint32Array(to - from);
  const k2 = new Uint32Array(to - from);
  if (from >= to) return { h1: k1, h2: k2 };
  if (keysByLookingUp(hashes, from, to, k1, k2, budget)) return { h1: k1, h2: k2 };
  // Widened until the stretches of the first and last lines asked for end inside the region
  // looked at (or at the file's edges).
  for (let margin = 16; ; margin *= 4) {
    const lo = Math.max(0, from - margin);
    const hi = Math.min(n, to + margin);
    const repeated = repeatedAmong(hashes, lo, hi);
    if (keysWithin(hashes, { from, to, lo, hi }, (i) => repeated[i - lo] === 1, k1, k2)) return { h1: k1, h2: k2 };
  }
}

/**
 * The keys of lines `from..to-1` (into `k1`, `k2` from 0), as contextKeys gives them, when only
 * lines `lo..hi-1` around them were counted: `isRepeated(i)` tells whether line i's content
 * repeats in the file. False, having decided nothing, when the stretch of the first or last
 * line may reach past the lines counted: the region must be widened.
 */
export function keysWithin(
  hashes: LineHashes,
  region: { readonly from: number; readonly to: number; readonly lo: number; readonly hi: number },
  isRepeated: (line: number) => boolean,
  k1: Uint32Array,
  k2: Uint32Array,
): boolean {
  const { from, to, lo, hi } = region;
  const n = hashes.h1.length;
  let start = from;
  if (isRepeated(from)) while (start > lo && isRepeated(start - 1)) start--;
  let end = to;
  if (isRepeated(to - 1)) while (end < hi && isRepeated(end)) end++;
  if ((start === lo && lo > 0 && isRepeated(lo)) || (end === hi && hi < n && isRepeated(hi - 1))) return false;
  for (let i = from; i < to; ) {
    if (!isRepeated(i)) {
      k1[i - from] = hashes.h1[i]!;
      k2[i - from] = hashes.h2[i]!;
      i++;
      continue;
    }
    let s = i;
    while (s > lo && isRepeated(s - 1)) s--;
    let e = i;
    while (e < hi && isRepeated(e)) e++;
    const stretch1 = new Uint32Array(e - s);
    const stretch2 = new Uint32Array(e - s);
    keyStretch(hashes, s, e, stretch1, stretch2, s);
    const last = Math.min(e, to);
    for (let j = i; j < last; j++) {
      k1[j - from] = stretch1[j - s]!;
      k2[j - from] = stretch2[j - s]!;
    }
    i = last;
  }
  return true;
}

/**
 * Lines of an edit's few whose repeats keysByLookingUp looks for, each a search of the file at most (for all its runs).
 */
const LOOKUPS = 12;

/**
 * contextKeysOf's keys of lines from..to-1 (written into k1, k2) for a few lines: each line's
 * content looked for in the file with indexOf, which V8 runs over a typed array with SIMD (a
 * quarter of a millisecond for a million lines), as far out from them as their stretches reach.
 * One pass over every line in JavaScript, as contextKeysOf counts otherwise, takes some 6 ms
 * for a million lines in a process that runs it once, before V8 has optimised it. False,
 * having written nothing, when that would take more lookups than `budget` has left (those
 * tried spend all of it: the calls after count at once).
 */
function keysByLookingUp(
  hashes: LineHashes,
  from: number,
  to: number,
  k1: Uint32Array,
  k2: Uint32Array,
  budget: LookupBudget,
): boolean {
  if (to - from > budget.lookups) return false;
  const { h1, h2 } = hashes;
  const n = h1.length;
  const known = new Map<number, boolean>();
  let lookups = 0;
  const isRepeated = (i: number): boolean => {
    let repeated = known.get(i);
    if (repeated === undefined) {
      if (++lookups > budget.lookups) throw TOO_MANY;
      repeated = occursElsewhere(h1, h2, i);
      known.set(i, repeated);
    }
    return repeated;
  };
  const keys: Array<[number, number, number]> = [];
  try {
    for (let i = from; i < to; ) {
      if (!isRepeated(i)) {
        keys.push([i, h1[i]!, h2[i]!]);
        i++;
        continue;
      }
      let start = i;
      while (start > 0 && isRepeated(start - 1)) start--;
      let end = i + 1;
      while (end < n && isRepeated(end)) end++;
      const stretch1 = new Uint32Array(end - start);
      const stretch2 = new Uint32Array(end - start);
      keyStretch(hashes, start, end, stretch1, stretch2, start);
      for (let j = i; j < Math.min(end, to); j++) keys.push([j, stretch1[j - start]!, stretch2[j - start]!]);
      i = Math.min(end, to);
    }
  } catch (error) {
    if (error !== TOO_MANY) throw error;
    budget.lookups = 0;
    return false;
  }
  budget.lookups -= lookups;
  for (const [i, a, b] of keys) {
    k1[i - from] = a;
    k2[i - from] = b;
  }
  return true;
}

const TOO_MANY = new Error('too many lookups');

/** Whether another line than line i holds its content (fingerprint). */
function occursElsewhere(h1: Uint32Array, h2: Uint32Array, i: number): boolean {
  const a = h1[i]!;
  const b = h2[i]!;
  for (let j = h1.indexOf(a); j !== -1; j = h1.indexOf(a, j + 1)) if (j !== i && h2[j] === b) return true;
  return false;
}

/** Whether each line of lo..hi-1 has content occurring more than once in the whole file. */
function repeatedAmong(hashes: LineHashes, lo: number, hi: number): Uint8Array {
  const contents = new ContentCounts(
    hashes,
    Array.from({ length: hi - lo }, (_, k) => lo + k),
    hi - lo,
  );
  const counts = contents.countIn(hashes);
  const repeated = new Uint8Array(hi - lo);
  for (let i = lo; i < hi; i++) repeated[i - lo] = counts[contents.slotOf(hashes.h1[i]!, hashes.h2[i]!)]! > 1 ? 1 : 0;
  return repeated;
}

/**
 * Keys lines start..end-1, a stretch of repeated lines, into k1/k2 at `i - offset`: a digest of
 * the stretch with its bounding lines (or the file's edges), then each line's content and
 * offset in it.
 */
export function keyStretch(
  hashes: LineHashes,
  start: number,
  end: number,
  k1: Uint32Array,
  k2: Uint32Array,
  offset: number,
): void {
  const { h1, h2 } = hashes;
  const n = h1.length;
  let a = start > 0 ? h1[start - 1]! : EDGE_1;
  let b = start > 0 ? h2[start - 1]! : EDGE_2;
  for (let i = start; i < end; i++) {
    a = mixIn(a, h1[i]!);
    b = mixIn(b, h2[i]!);
  }
  a = mixIn(a, end < n ? h1[end]! : EDGE_2);
  b = mixIn(b, end < n ? h2[end]! : EDGE_1);
  a = fmix32(a ^ (end - start));
  b = fmix32(b ^ Math.imul(end - start, 0x5bd1e995));
  for (let i = start; i < end; i++) {
    const d = i - start + 1;
    k1[i - offset] = fmix32(mixIn(mixIn(a ^ Math.imul(d, 0x27d4eb2f), h1[i]!), b)) >>> 0;
    k2[i - offset] = fmix32(mixIn(mixIn(b + Math.imul(d, 0x165667b1), h2[i]!), a)) >>> 0;
  }
}

/** One step of MurmurHash3's word mixing. */
function mixIn(h: number, word: number): number {
  let k = Math.imul(word, 0xcc9e2d51);
  k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
  h ^= k;
  return (Math.imul((h << 13) | (h >>> 19), 5) + 0xe6546b64) | 0;
}

/** Lines from which a file's first claims are taken in WebAssembly (see wasmClaims.ts). */
export const CLAIMS_IN_WASM = 1 << 16;

/**
 * The fresh LIDs of a file's lines (see the top of this file): assignByKeys of their
 * contextKeys. A file of `wasmFrom` lines or more has its keys made (as contextKeys makes them,
 * see wasmClaims.ts, writeKeys), its first claims taken and its clashes settled in WebAssembly's
 * memory (see wasmClaims.ts, clashRounds.ts), or, where
 * that cannot be had (6-character LIDs, or no WebAssembly), its clashes settled in the same rounds (settledByKeys):
 * both give the LIDs assignByKeys gives.
 */
export function freshLids(hashes: LineHashes, wasmFrom = CLAIMS_IN_WASM): Uint32Array {
  const n = hashes.h1.length;
  const length = lidLengthFor(n);
  const memory = n >= wasmFrom ? claimMemory(n, length) : undefined;
  if (!memory) {
    // A big file's scan gave its memory back for these claims (see wasmModule.ts, giveBack): it
    // is not held through JavaScript's.
    dropSpareMemory();
    // (A small file's keys are written over the process's scratch: they are done with before this returns.)
    const keys = contextKeys(hashes, 2 * n <= KEYS_SCRATCH ? keysScratch.subarray(0, 2 * n) : undefined);
    return n >= wasmFrom ? settledByKeys(keys, length) : assignByKeys(keys, length);
  }
  memory.writeKeys(hashes);
  return memory.lidsOf(new Uint32Array(n));
}

/** Words of keysScratch: the keys of files of up to 2,048 lines. */
const KEYS_SCRATCH = 1 << 12;
const keysScratch = new Uint32Array(KEYS_SCRATCH);

/** A file's first claims: each line's code held, the codes claimed once and twice, the lines holding one twice. */
interface FirstClaims {
  readonly lids: Uint32Array;
  readonly once: CodeSet;
  readonly twice: CodeSet;
  /** The lines whose code held is claimed twice, in file order. */
  readonly pending: number[];
}

/**
 * The index, from `from` on, of the first of a key's candidates that contains a letter (the
 * others are never LIDs). (An index, not a pair with the code: tens of thousands of lines that
 * clash each take a few, and the pairs were garbage.)
 */
function letterAt(k1: number, k2: number, from: number, length: number): number {
  let k = from;
  while (!hasLetter(candidate(k1, k2, k, length), length)) k++;
  return k;
}

/**
 * The fresh LIDs of lines with keys `keys`, each `length` characters (see the top of this file).
 * Every line claims its candidates (those with a letter) one after another: the one it holds,
 * and the next as a reserve. A line keeps the code it holds when no other line claims it, held,
 * reserved or passed; otherwise it moves on to its reserve and reserves the next, in rounds,
 * until every line holds a code no other line claims. So a code two lines could take is
 * neither's; a line added to the file never takes the code a line there holds (both move on);
 * and a line that went back to an earlier code, the clash that moved it gone, still reserves the
 * code it held, which no line new to the file can then take.
 */
export function assignByKeys(keys: LineKeys, length: number): Uint32Array {
  const { h1: k1, h2: k2 } = keys;
  const first = firstClaimsOf(keys, length);
  const { lids } = first;
  let pending = first.pending;
  if (pending.length === 0) return lids;
  /**
   * Index, among its key's candidates, of each moving line's reserve (found again when it first moves: few lines do).
   */
  const reserveAt = new IntMap(pending.length);
  const reserveOf = (i: number) => {
    let at = reserveAt.get(i);
    if (at === undefined) at = letterAt(k1[i]!, k2[i]!, letterAt(k1[i]!, k2[i]!, 0, length) + 1, length);
    return at;
  };
  // Later claims, counted, and the line holding each code held at a later round.
  const later = new IntMap(2 * pending.length);
  const holder = new IntMap(pending.length);
  const claims = (code: number) => (first.twice.has(code) ? 2 : first.once.has(code) ? 1 : 0) + (later.get(code) ?? 0);
  for (let round = 1; pending.length > 0; round++) {
    if (round > MAX_LEVELS) {
      // Only lines of one key clash this long: the first code nobody claims, in file order, settles them.
      for (const i of pending.sort((x, y) => x - y)) {
        let k = letterAt(k1[i]!, k2[i]!, reserveOf(i) + 1, length);
        let code = candidate(k1[i]!, k2[i]!, k, length);
        while (claims(code) > 0) {
          k = letterAt(k1[i]!, k2[i]!, k + 1, length);
          code = candidate(k1[i]!, k2[i]!, k, length);
        }
        later.set(code, 1);
        lids[i] = code;
      }
      return lids;
    }
    const claimed: number[] = [];
    for (const i of pending) {
      const at = reserveOf(i);
      const r = letterAt(k1[i]!, k2[i]!, at + 1, length);
      const reserve = candidate(k1[i]!, k2[i]!, r, length);
      lids[i] = candidate(k1[i]!, k2[i]!, at, length);
      reserveAt.set(i, r);
      later.set(reserve, (later.get(reserve) ?? 0) + 1);
      claimed.push(reserve);
    }
    const next = new Set<number>();
    for (const i of pending) {
      if (claims(lids[i]!) > 1) next.add(i);
      else holder.set(lids[i]!, i);
    }
    // A code newly reserved that a settled line holds: that line is contested too, and moves on.
    const contestedFirst = new Set<number>();
    for (const code of claimed) {
      const line = holder.get(code);
      if (line !== undefined && lids[line] === code) next.add(line);
      if (first.once.has(code)) contestedFirst.add(code);
    }
    if (contestedFirst.size > 0) addHolders(lids, contestedFirst, next);
    pending = [...next];
  }
  return lids;
}

/**
 * The LIDs assignByKeys gives, its clashes settled over its first claims' two sets, as a big
 * file's are in WebAssembly (see clashRounds.ts): for a big file whose claims are taken in
 * JavaScript (6-character LIDs, or no WebAssembly).
 */
export function settledByKeys(keys: LineKeys, length: number): Uint32Array {
  const first = firstClaimsOf(keys, length);
  const { lids, twice } = first;
  const holdersOf = (codes: Uint32Array) => {
    const filter = new Uint32Array(FILTER_WORDS);
    for (const code of codes) filter[filterBit(code) >>> 5]! |= 1 << (filterBit(code) & 31);
    return linesHolding(lids, filter, twice);
  };
  settleClashes(keys.h1, keys.h2, lids, length, first, Uint32Array.from(first.pending), holdersOf);
  return lids;
}

/** The lines (in file order) whose code passes `filter` (see filterBit) and is in `codes`. */
function linesHolding(lids: Uint32Array, filter: Uint32Array, codes: CodeSet): Uint32Array {
  const found: number[] = [];
  for (let i = 0; i < lids.length; i++) {
    const bit = filterBit(lids[i]!);
    if (filter[bit >>> 5]! & (1 << (bit & 31)) && codes.has(lids[i]!)) found.push(i);
  }
  return Uint32Array.from(found);
}

/** The first claims of every line (see assignByKeys), in JavaScript. */
function firstClaimsOf(keys: LineKeys, length: number): FirstClaims {
  const n = keys.h1.length;
  const lids = new Uint32Array(n);
  const { once, twice } = n < SMALL_FILE ? smallFirstClaims(keys, length, lids) : firstClaims(keys, length, lids);
  const pending = twice.linesIn(lids);
  return { lids, once, twice, pending };
}

/** Words of the filter of the codes a round contests (see assignByKeys): 8 KiB. */
const FILTER_WORDS = 1 << 11;

/** A code's bit in that filter. */
function filterBit(code: number): number {
  return Math.imul(code, 0x9e3779b1) >>> 16;
}

/**
 * Adds to `into` every line (in file order) whose code is one of `codes`. Every line is looked at
 * (a function of its own: V8 optimises this loop apart from the big one that calls it), a filter
 * of a few KiB answering most at once, the set the rest.
 */
function addHolders(lids: Uint32Array, codes: Set<number>, into: Set<number>): void {
  const filter = new Uint32Array(FILTER_WORDS);
  for (const code of codes) filter[filterBit(code) >>> 5]! |= 1 << (filterBit(code) & 31);
  for (let i = 0; i < lids.length; i++) {
    const bit = filterBit(lids[i]!);
    if (filter[bit >>> 5]! & (1 << (bit & 31)) && codes.has(lids[i]!)) into.add(i);
  }
}

/** Files of fewer lines take their first claims in tables of their few codes (see smallFirstClaims). */
const SMALL_FILE = 1 << 12;

/**
 * firstClaims for a small file: the same two sets, as tables of its few codes, where a bitmap of
 * every code (128 KiB for 4 characters) would cost more to zero than the file to read.
 */
function smallFirstClaims(keys: LineKeys, length: number, lids: Uint32Array): { once: CodeSet; twice: FewCodes } {
  const { h1: k1, h2: k2 } = keys;
  const n = k1.length;
  // The process's two sets, emptied: a search reads thousands of small files, and their sets are
  // done with before the file's LIDs are returned (see assignByKeys, settledByKeys).
  const once = smallOnce.reset(2 * n);
  const twice = smallTwice.reset(n);
  for (let i = 0; i < n; i++) {
    const k = letterAt(k1[i]!, k2[i]!, 0, length);
    lids[i] = candidate(k1[i]!, k2[i]!, k, length);
    claimIn(once, twice, lids[i]!);
    claimIn(once, twice, candidate(k1[i]!, k2[i]!, letterAt(k1[i]!, k2[i]!, k + 1, length), length));
  }
  return { once, twice };
}

/** A code claimed: into `once` the first time, into `twice` after. */
function claimIn(once: FewCodes, twice: FewCodes, code: number): void {
  if (once.has(code)) twice.add(code);
  else once.add(code);
}

/** Bits of a code's value looked up together (a bitmap of 512 KiB, which the processor's cache holds). */
const BUCKET_BITS = 22;

/**
 * Bits of the biggest code values whose bitmap is filled in file order (4 MiB, 5 characters):
 * the processor's last-level cache holds it, and sorting the claims first saved no time there,
 * but cost three words a line.
 */
const FILE_ORDER_BITS = 25;

/**
 * The first claims of all lines (held and reserved), in two sets: claimed once, a bitmap of every
 * code of the length (128 MiB for 6 characters, far cheaper than a table of 20 million claims),
 * and claimed again (few). Each line's held code goes into `lids`. A bitmap bigger than the
 * processor's cache is filled a part at a time, the claims sorted first by its parts: set in
 * file order, it costs a miss a claim (some 200 ns, where memory is virtual).
 */
function firstClaims(keys: LineKeys, length: number, lids: Uint32Array): { once: CodeSet; twice: FewCodes } {
  const { h1: k1, h2: k2 } = keys;
  const n = k1.length;
  const valueBits = 5 * length;
  const mask = valueBits === 30 ? 0x3fffffff : (1 << valueBits) - 1;
  const shift = Math.min(valueBits, BUCKET_BITS);
  const kind = ((length - 4) << 30) >>> 0;
  const inFileOrder = valueBits <= FILE_ORDER_BITS;
  const lettered = letterTest(length);
  // (Made after the claims are sorted, when they are: the arrays sorting them are then its only company.)
  let bits = new Uint32Array(inFileOrder ? (mask >>> 5) + 1 : 0);
  const twice = fewCodes();
  const claim = (code: number) => {
    const value = code & mask;
    const bit = 1 << (value & 31);
    if (bits[value >>> 5]! & bit) twice.add(code);
    else bits[value >>> 5]! |= bit;
  };
  const reserves = new Uint32Array(inFileOrder ? 0 : n);
  const starts = new Uint32Array((1 << (valueBits - shift)) + 1);
  for (let i = 0; i < n; i++) {
    // letterAt's first two candidates, unrolled: this loop runs for every line.
    const a = k1[i]!;
    const step = k2[i]! | 1;
    let k = 0;
    let value = a & mask;
    while (!lettered(value)) value = (a + Math.imul(++k, step)) & mask;
    lids[i] = (kind | value) >>> 0;
    if (inFileOrder) claim(lids[i]!);
    else starts[(value >>> shift) + 1]!++;
    do value = (a + Math.imul(++k, step)) & mask;
    while (!lettered(value));
    if (inFileOrder) claim((kind | value) >>> 0);
    else {
      reserves[i] = (kind | value) >>> 0;
      starts[(value >>> shift) + 1]!++;
    }
  }
  if (!inFileOrder) {
    for (let b = 1; b < starts.length; b++) starts[b]! += starts[b - 1]!;
    const sorted = new Uint32Array(2 * n);
    for (let i = 0; i < n; i++) {
      sorted[starts[(lids[i]! & mask) >>> shift]!++] = lids[i]!;
      sorted[starts[(reserves[i]! & mask) >>> shift]!++] = reserves[i]!;
    }
    bits = new Uint32Array((mask >>> 5) + 1);
    for (let j = 0; j < sorted.length; j++) claim(sorted[j]!);
  }
  const once: CodeSet = {
    has: (code) => (bits[(code & mask) >>> 5]! & (1 << (code & 31))) !== 0,
    add: (code) => {
      bits[(code & mask) >>> 5]! |= 1 << (code & 31);
    },
  };
  return { once, twice };
}

/**
 * A set of few codes: those claimed twice (some 60,000 of a million lines' two million claims).
 * A table of them (CodeTable), behind a bitmap of 2^23 bits of their hashes that answers most
 * lookups (of codes not in it) at one look: some 1.5 MiB where a bitmap of every 5-character
 * code takes 4.
 */
function fewCodes(n = 1 << 20): FewCodes {
  return new FewCodeSet().reset(n);
}

/** See fewCodes: emptied by reset, for another file's claims. */
class FewCodeSet implements FewCodes {
  private table = new CodeTable(1);
  private filter = new Uint32Array(1);
  private bits = 10;

  /** Empties the set, sized for about `n` codes (it grows past them). */
  reset(n: number): this {
    // 2^23 bits for a big file, fewer for a small one (whose table is small too): some 8 a code.
    let bits = 10;
    while (bits < 23 && 1 << bits < n * 8) bits++;
    this.bits = bits;
    const words = Math.max(1, (1 << bits) >>> 5);
    if (this.filter.length === words) this.filter.fill(0);
    else this.filter = new Uint32Array(words);
    if (!this.table.reuse(n)) this.table = new CodeTable(n);
    return this;
  }

  has(code: number): boolean {
    const b = Math.imul(code, 0x9e3779b1) >>> (32 - this.bits);
    return (this.filter[b >>> 5]! & (1 << (b & 31))) !== 0 && this.table.has(code);
  }

  add(code: number): void {
    const b = Math.imul(code, 0x9e3779b1) >>> (32 - this.bits);
    this.filter[b >>> 5]! |= 1 << (b & 31);
    this.table.add(code);
  }

  linesIn(lids: Uint32Array): number[] {
    // (The filter's test written out, its values in locals: this loop runs over every line.)
    const shift = 32 - this.bits;
    const words = this.filter;
    const table = this.table;
    const found: number[] = [];
    for (let i = 0; i < lids.length; i++) {
      const b = Math.imul(lids[i]!, 0x9e3779b1) >>> shift;
      if (words[b >>> 5]! & (1 << (b & 31)) && table.has(lids[i]!)) found.push(i);
    }
    return found;
  }
}

/** The sets of a small file's first claims (see smallFirstClaims). */
const smallOnce = new FewCodeSet();
const smallTwice = new FewCodeSet();

/** A set of few codes (see fewCodes). */
interface FewCodes extends CodeSet {
  /** The lines (in file order) whose code in `lids` it holds. */
  linesIn(lids: Uint32Array): number[];
}
