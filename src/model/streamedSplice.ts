// The index after an edit of one run of lines of a big file, without holding the index before it
// whole: a big file's edit (src/store/bigEdit.ts) reads the records of the lines around the change,
// and passes over the rest a piece at a time. It gives the LIDs spliceIndex gives
// (test/model/streamedSplice.test.ts checks it): the lines kept keep theirs; a fresh line's key
// depends on whether the contents around it repeat in the file (counted in one pass over the
// records), and its candidates are taken in order, skipping every code in use (checked in another).
// What it cannot do without the old index whole (a line of the region moved within it, see
// pairUniqueMoves) it leaves to spliceIndex.

import { keysWithin } from './freshLids.js';
import { freshLength, type LineIndex, retire, type Retired, today } from './lineIndex.js';
import { candidate, hasLetter } from './lid.js';
import { changedRun, type RunEdit } from './spliceInPlace.js';

/** The index before an edit, read only where asked. */
export interface StreamedIndex {
  /** Its arrays, of the file's line count, filled in only where `load` put lines (elsewhere zeros). */
  readonly h1: Uint32Array;
  readonly h2: Uint32Array;
  readonly lids: Uint32Array;
  readonly retired: Retired;
  /** Fills lines from..to-1 of the arrays in from the records (those filled already are left as they are). */
  load(from: number, to: number): void;
  /** Gives every line's fingerprints and LID in order, a piece at a time (`from`: the piece's first line). */
  pieces(visit: (from: number, h1: Uint32Array, h2: Uint32Array, lids: Uint32Array) => void): void;
}

/** Lines looked at beside new repeated ones for their keys (widened fourfold while a stretch reaches an edge). */
const MARGIN = 16;
/**
 * Values up to which a pass looks each up in a piece with indexOf, which V8 runs over a typed
 * array with SIMD, rather than looking each line up in a table: a loop over a million lines in
 * JavaScript, run once, takes some 50 ms before V8 has optimised it.
 */
const FEW = 64;
/** Candidates of each new line checked at once: one taken by another line of a million is a chance of some 3%. */
const CANDIDATES = 4;

/**
 * The index after `edit` of `old`: arrays of the new line count filled in only for lines
 * `fill[0]..fill[1]-1` (new numbering; the new lines are always filled), and its retired LIDs.
 * Undefined when a line may have moved within the region (as spliceInPlace declines).
 */
export function spliceStreamed(
  old: StreamedIndex,
  edit: RunEdit,
  fill: readonly [number, number],
  day = today(),
): LineIndex | undefined {
  const { start, deleteCount, insert } = edit;
  const n = old.lids.length;
  const end = start + deleteCount;
  const inserted = insert.length;
  const shift = inserted - deleteCount;
  const count = n + shift;
  old.load(Math.max(0, start - 1), Math.min(n, end + 1));
  const run = changedRun(old, edit);
  if (!run) return undefined;
  const { n1, n2, from, oldTo, newTo } = run;
  const head = from - start;

  // Zero-filled memory of the new line count: pages never written are never made resident.
  const h1 = new Uint32Array(count);
  const h2 = new Uint32Array(count);
  const lids = new Uint32Array(count);
  const filled = { from: Math.min(from, count), to: Math.min(from, count) };
  /** Fills new lines lo..hi-1: those before the edit and after it from the old lines, the new ones from `insert`. */
  const fillNew = (lo: number, hi: number) => {
    lo = Math.max(0, lo);
    hi = Math.min(count, hi);
    const put = (a: number, b: number) => {
      if (a >= b) return;
      const oldFrom = Math.min(a, start);
      const oldTo = Math.min(b, start);
      if (oldFrom < oldTo) old.load(oldFrom, oldTo);
      const afterFrom = Math.max(a, start + inserted);
      if (afterFrom < b) old.load(afterFrom - shift, b - shift);
      for (let i = a; i < b; i++) {
        if (i < start) [h1[i], h2[i]] = [old.h1[i]!, old.h2[i]!];
        else if (i < start + inserted) [h1[i], h2[i]] = [n1[i - start]!, n2[i - start]!];
        else [h1[i], h2[i]] = [old.h1[i - shift]!, old.h2[i - shift]!];
        lids[i] = i < from ? old.lids[i]! : i >= newTo ? old.lids[i - shift]! : 0;
      }
    };
    if (filled.from === filled.to) {
      put(lo, hi);
      [filled.from, filled.to] = [lo, hi];
      return;
    }
    put(lo, Math.min(hi, filled.from));
    put(Math.max(lo, filled.to), hi);
    filled.from = Math.min(filled.from, lo);
    filled.to = Math.max(filled.to, hi);
  };
  fillNew(Math.min(fill[0], from), Math.max(fill[1], newTo));
  const fresh = newTo - from;
  if (fresh > 0) {
    const length = freshLength(old.retired, count);
    // A new line whose content the file holds once is keyed by its content: its candidates are
    // looked for in the pass that counts the contents, which most edits then need alone.
    const used = new Map<number, boolean>();
    const guess = new PairTable(fresh * CANDIDATES);
    for (let f = 0; f < fresh; f++) {
      for (let k = 0, got = 0; got < CANDIDATES; k++) {
        const code = candidate(n1[head + f]!, n2[head + f]!, k, length);
        if (hasLetter(code, length)) got += guess.add(code, 0) >= 0 ? 1 : 0;
      }
    }
    const seen = new Uint8Array(fresh * CANDIDATES);
    const region = { start, end, from, newTo, shift, n1, n2 };
    const keys = freshKeys(old, { h1, h2 }, region, fillNew, (l) => markIn(guess, l, seen));
    markIn(guess, old.retired.lids, seen);
    guess.a.forEach((code, s) => used.set(code, seen[s] === 1));
    assignCodes(old, keys, lids, from, length, used);
  }
  const gone: Array<{ lid: number; line: number }> = [];
  const line = Math.min(from + 1, Math.max(count, 1));
  for (let i = from; i < oldTo; i++) gone.push({ lid: old.lids[i]!, line });
  return { h1, h2, lids, retired: retire(old.retired, gone, day, count) };
}

interface Region {
  readonly start: number;
  readonly end: number;
  readonly from: number;
  readonly newTo: number;
  readonly shift: number;
  readonly n1: Uint32Array;
  readonly n2: Uint32Array;
}

/**
 * The keys of new lines region.from..newTo-1 as contextKeys gives them in the new file (`hashes`,
 * filled in by `fillNew`): the contents of the lines around them counted over the whole file in a
 * pass over the old records, widened until their stretches end inside the lines looked at.
 */
function freshKeys(
  old: StreamedIndex,
  hashes: { h1: Uint32Array; h2: Uint32Array },
  r: Region,
  fillNew: (lo: number, hi: number) => void,
  also: (lids: Uint32Array) => void,
): { k1: Uint32Array; k2: Uint32Array } {
  const count = hashes.h1.length;
  const { from, newTo } = r;
  // The new lines' own contents counted first: where none repeats (most edits), each is keyed by its content.
  const own = countContents(old, hashes, from, newTo, r, also);
  if (own.every((c) => c <= 1)) return { k1: hashes.h1.slice(from, newTo), k2: hashes.h2.slice(from, newTo) };
  for (let margin = MARGIN; ; margin *= 4) {
    const lo = Math.max(0, from - margin);
    const hi = Math.min(count, newTo + margin);
    fillNew(lo, hi);
    const counts = countContents(old, hashes, lo, hi, r, undefined);
    const k1 = new Uint32Array(newTo - from);
    const k2 = new Uint32Array(newTo - from);
    if (keysWithin(hashes, { from, to: newTo, lo, hi }, (i) => counts[i - lo]! > 1, k1, k2)) return { k1, k2 };
  }
}

/** An open-addressing table of a few 64-bit values (two words each), giving each a slot; -1 for any other. */
class PairTable {
  private readonly slots: Int32Array;
  private readonly mask: number;
  readonly a: number[] = [];
  readonly b: number[] = [];

  constructor(size: number) {
    let capacity = 64;
    while (capacity < size * 4) capacity *= 2;
    this.slots = new Int32Array(capacity);
    this.mask = capacity - 1;
  }

  /** The slot of (a, b), added if new. */
  add(a: number, b: number): number {
    for (let s = this.home(a); ; s = (s + 1) & this.mask) {
      const k = this.slots[s]! - 1;
      if (k === -1) {
        this.a.push(a);
        this.b.push(b);
        this.slots[s] = this.a.length;
        return this.a.length - 1;
      }
      if (this.a[k] === a && this.b[k] === b) return k;
    }
  }

  /** The slot of (a, b), or -1. */
  find(a: number, b: number): number {
    for (let s = this.home(a); ; s = (s + 1) & this.mask) {
      const k = this.slots[s]! - 1;
      if (k === -1) return -1;
      if (this.a[k] === a && this.b[k] === b) return k;
    }
  }

  private home(a: number): number {
    const h = Math.imul(a ^ (a >>> 16), 0x45d9f3b);
    return (h ^ (h >>> 16)) & this.mask;
  }
}

/** How many lines of the new file hold the content of each new line lo..hi-1. */
function countContents(
  old: StreamedIndex,
  hashes: { h1: Uint32Array; h2: Uint32Array },
  lo: number,
  hi: number,
  r: Region,
  also: ((lids: Uint32Array) => void) | undefined,
): Uint32Array {
  const table = new PairTable(hi - lo);
  const slotOf = new Int32Array(hi - lo);
  for (let i = lo; i < hi; i++) slotOf[i - lo] = table.add(hashes.h1[i]!, hashes.h2[i]!);
  const found = new Uint32Array(table.a.length);
  // The new file: the old lines but those the edit replaced, and the new ones.
  const few = table.a.length <= FEW;
  old.pieces((at, h1, h2, lids) => {
    also?.(lids);
    const counted = (k: number) => at + k < r.start || at + k >= r.end;
    if (few) {
      table.a.forEach((a, s) => {
        const b = table.b[s]!;
        for (let k = h1.indexOf(a); k !== -1; k = h1.indexOf(a, k + 1)) if (h2[k] === b && counted(k)) found[s]!++;
      });
      return;
    }
    for (let k = 0; k < h1.length; k++) {
      if (!counted(k)) continue;
      const s = table.find(h1[k]!, h2[k]!);
      if (s >= 0) found[s]!++;
    }
  });
  for (let j = 0; j < r.n1.length; j++) {
    const s = table.find(r.n1[j]!, r.n2[j]!);
    if (s >= 0) found[s]!++;
  }
  return Uint32Array.from(slotOf, (s) => found[s]!);
}

/**
 * Gives new lines from.. (their keys `k1`, `k2`) the LIDs assignFresh gives: each its first
 * candidate (with a letter) that no line of the old file holds, none of its retired LIDs is, and
 * no earlier new line took. The codes in use are looked for in passes over the old records, a few
 * candidates of each line at a time.
 */
function assignCodes(
  old: StreamedIndex,
  keys: { k1: Uint32Array; k2: Uint32Array },
  lids: Uint32Array,
  from: number,
  length: number,
  used: Map<number, boolean>,
): void {
  const fresh = keys.k1.length;
  // Each line's candidates so far; `used`: which codes asked for (or known before) are in use.
  const tried: number[][] = Array.from({ length: fresh }, () => []);
  const next = new Uint32Array(fresh);
  const more = (f: number, howMany: number, ask: PairTable) => {
    for (let got = 0; got < howMany; next[f]!++) {
      const code = candidate(keys.k1[f]!, keys.k2[f]!, next[f]!, length);
      if (!hasLetter(code, length)) continue;
      tried[f]!.push(code);
      if (!used.has(code)) ask.add(code, 0);
      got++;
    }
  };
  let ask = new PairTable(fresh * CANDIDATES);
  for (let f = 0; f < fresh; f++) more(f, CANDIDATES, ask);
  for (;;) {
    if (ask.a.length > 0) inUse(old, ask, used);
    // The lines in order, each taking its first candidate free; one that runs out of candidates asks for more.
    const taken = new Set<number>();
    const short: number[] = [];
    for (let f = 0; f < fresh; f++) {
      const code = tried[f]!.find((c) => !used.get(c) && !taken.has(c));
      if (code === undefined) {
        short.push(f);
        break;
      }
      taken.add(code);
      lids[from + f] = code;
    }
    if (short.length === 0) return;
    ask = new PairTable(fresh * CANDIDATES);
    for (let f = short[0]!; f < fresh; f++) more(f, CANDIDATES, ask);
  }
}

/** Records in `used` whether each code of `ask` is in use: an LID of a line of the old file, or retired from it. */
function inUse(old: StreamedIndex, ask: PairTable, used: Map<number, boolean>): void {
  const hit = new Uint8Array(ask.a.length);
  old.pieces((_, _h1, _h2, lids) => markIn(ask, lids, hit));
  markIn(ask, old.retired.lids, hit);
  ask.a.forEach((code, s) => used.set(code, hit[s] === 1));
}

/** Marks in `hit` the codes of `ask` that `lids` holds. */
function markIn(ask: PairTable, lids: Uint32Array, hit: Uint8Array): void {
  if (ask.a.length <= FEW) {
    ask.a.forEach((code, s) => {
      if (!hit[s] && lids.includes(code)) hit[s] = 1;
    });
    return;
  }
  for (let k = 0; k < lids.length; k++) {
    const s = ask.find(lids[k]!, 0);
    if (s >= 0) hit[s] = 1;
  }
}
