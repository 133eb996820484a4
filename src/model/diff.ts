// The line diff that carries LIDs across changes made by anything (an editor, git, a formatter).
//
// It pairs old lines with new lines that have the same fingerprint, in order, so that duplicate
// lines keep their own LIDs by position. Common prefix and suffix are matched first (a few
// changed lines in a 1,000,000-line file cost one linear pass); the rest is Myers' O(ND) diff,
// bounded in work. When a region changed too much for that bound, lines that occur exactly once
// on both sides split it (as patience diff does) and each part is diffed again. A line the diff
// cannot pair gets a new LID: an LID is lost in a pathological rewrite, never given to other text.

import { FingerprintTable } from './fingerprintTable.js';
import type { LineHashes } from './hash.js';

/** Work bound for one Myers run, in steps along diagonals. */
const MYERS_BUDGET = 20_000_000;
/** Myers' trace grows with D²: beyond this many differences, split the region first. */
const MYERS_MAX_D = 2000;

/** match[j] = index of the old line paired with new line j, or -1 for a new line. */
export function matchLines(oldLines: LineHashes, newLines: LineHashes): Int32Array {
  const match = new Int32Array(newLines.h1.length).fill(-1);
  const differ = new Differ(oldLines, newLines, match);
  differ.region(0, oldLines.h1.length, 0, newLines.h1.length);
  return match;
}

class Differ {
  constructor(
    private readonly a: LineHashes,
    private readonly b: LineHashes,
    private readonly match: Int32Array,
  ) {}

  private same(i: number, j: number): boolean {
    return this.a.h1[i] === this.b.h1[j] && this.a.h2[i] === this.b.h2[j];
  }

  region(aLo: number, aHi: number, bLo: number, bHi: number): void {
    while (aLo < aHi && bLo < bHi && this.same(aLo, bLo)) this.match[bLo++] = aLo++;
    while (aLo < aHi && bLo < bHi && this.same(aHi - 1, bHi - 1)) this.match[--bHi] = --aHi;
    if (aLo === aHi || bLo === bHi) return;
    // Few differences (the usual case, even in a huge file) cost Myers little; when it gives up,
    // unique lines split the region into parts it can finish.
    if (this.myers(aLo, aHi, bLo, bHi)) return;
    this.splitOnUniqueLines(aLo, aHi, bLo, bHi);
  }

  /** Myers' greedy diff with a trace for backtracking; false when the work bound is hit. */
  private myers(aLo: number, aHi: number, bLo: number, bHi: number): boolean {
    const n = aHi - aLo;
    const m = bHi - bLo;
    const maxD = Math.min(n + m, MYERS_MAX_D);
    const offset = maxD + 1;
    const v = new Int32Array(2 * maxD + 3);
    const trace: Int32Array[] = [];
    let work = 0;
    for (let d = 0; d <= maxD; d++) {
      for (let k = -d; k <= d; k += 2) {
        let x =
          k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!)
            ? v[offset + k + 1]!
            : v[offset + k - 1]! + 1;
        let y = x - k;
        const x0 = x;
        while (x < n && y < m && this.same(aLo + x, bLo + y)) {
          x++;
          y++;
        }
        work += x - x0 + 1;
        v[offset + k] = x;
        if (x >= n && y >= m) {
          trace.push(v.slice(offset - d, offset + d + 1));
          this.backtrack(trace, aLo, bLo, n, m);
          return true;
        }
      }
      if (work > MYERS_BUDGET) return false;
      trace.push(v.slice(offset - d, offset + d + 1));
    }
    return false;
  }

  private backtrack(trace: Int32Array[], aLo: number, bLo: number, n: number, m: number): void {
    let x = n;
    let y = m;
    for (let d = trace.length - 1; d > 0; d--) {
      const prev = trace[d - 1]!; // V after step d-1, indexed by k + (d - 1)
      const k = x - y;
      const at = (kk: number) => prev[kk + d - 1]!;
      const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
      const prevK = down ? k + 1 : k - 1;
      const prevX = at(prevK);
      const prevY = prevX - prevK;
      const snakeX = down ? prevX : prevX + 1;
      while (x > snakeX) this.match[bLo + --y] = aLo + --x;
      x = prevX;
      y = prevY;
    }
    while (x > 0) this.match[bLo + --y] = aLo + --x;
  }

  /**
   * Pairs lines unique on both sides in their longest common order, then diffs between them.
   * False when no line is unique on both sides (nothing was paired).
   */
  private splitOnUniqueLines(aLo: number, aHi: number, bLo: number, bHi: number): boolean {
    const table = new UniqueLineTable(aHi - aLo + (bHi - bLo));
    for (let i = aLo; i < aHi; i++) table.add(this.a.h1[i]!, this.a.h2[i]!, i, 0);
    for (let j = bLo; j < bHi; j++) table.add(this.b.h1[j]!, this.b.h2[j]!, j, 1);
    const pairA: number[] = [];
    const pairB: number[] = [];
    for (let j = bLo; j < bHi; j++) {
      const i = table.uniquePartner(this.b.h1[j]!, this.b.h2[j]!);
      if (i >= 0) {
        pairA.push(i);
        pairB.push(j);
      }
    }
    const anchors = longestIncreasing(pairA);
    if (anchors.length === 0) return false;
    let pa = aLo;
    let pb = bLo;
    for (const p of anchors) {
      const ai = pairA[p]!;
      const bj = pairB[p]!;
      this.match[bj] = ai;
      this.region(pa, ai, pb, bj);
      pa = ai + 1;
      pb = bj + 1;
    }
    this.region(pa, aHi, pb, bHi);
    return true;
  }
}

/** Counts each fingerprint on both sides (saturating at 2) and remembers its old position. */
class UniqueLineTable {
  private readonly table: FingerprintTable;
  private readonly counts: Uint8Array; // low nibble: old side, high nibble: new side
  private readonly positions: Int32Array;

  constructor(entries: number) {
    this.table = new FingerprintTable(entries);
    this.counts = new Uint8Array(this.table.capacity);
    this.positions = new Int32Array(this.table.capacity);
  }

  add(h1: number, h2: number, position: number, side: 0 | 1): void {
    const slot = this.table.slot(h1, h2);
    const c = this.counts[slot]!;
    const shift = side * 4;
    if (((c >> shift) & 0xf) < 2) this.counts[slot] = c + (1 << shift);
    if (side === 0) this.positions[slot] = position;
  }

  /** The old position of a line occurring exactly once on each side, else -1. */
  uniquePartner(h1: number, h2: number): number {
    const slot = this.table.find(h1, h2);
    return slot >= 0 && this.counts[slot] === 0x11 ? this.positions[slot]! : -1;
  }
}

/** Indexes of a longest strictly increasing subsequence of `values` (patience sorting). */
function longestIncreasing(values: number[]): number[] {
  const tails: number[] = [];
  const prev = new Int32Array(values.length).fill(-1);
  for (let p = 0; p < values.length; p++) {
    const value = values[p]!;
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (values[tails[mid]!]! < value) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[p] = tails[lo - 1]!;
    tails[lo] = p;
  }
  const out: number[] = [];
  for (let p = tails.length ? tails[tails.length - 1]! : -1; p !== -1; p = prev[p]!) out.push(p);
  return out.reverse();
}

/** Old lines a0..a1-1 against new lines b0..b1-1. */
export interface UnpairedRun {
  readonly a0: number;
  readonly a1: number;
  readonly b0: number;
  readonly b1: number;
}

/** The runs of unpaired lines of a monotonic pairing, with the pairs around them. */
export function unpairedRuns(match: Int32Array, n: number, m: number): UnpairedRun[] {
  const oldPaired = new Uint8Array(n);
  for (const i of match) if (i >= 0) oldPaired[i] = 1;
  const hunks: UnpairedRun[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && match[j] === i) {
      i++;
      j++;
      continue;
    }
    const a0 = i;
    const b0 = j;
    while (i < n && !oldPaired[i]) i++;
    while (j < m && match[j] === -1) j++;
    if (i === a0 && j === b0) {
      // Not the diff's monotonic pairing: nothing here can be judged, so nothing is kept.
      return [{ a0: 0, a1: n, b0: 0, b1: m }];
    }
    hunks.push({ a0, a1: i, b0, b1: j });
  }
  return hunks;
}

/**
 * Unpairs the lines a change could have been aligned to otherwise: a run of removed or added
 * lines beside lines equal to its own (one `}` gone of `} } }`, a blank line added next to
 * another, `a b` removed from `a b a b`) slides along them, and the bytes do not say which of
 * the equal lines went or came. The diff picks one; a line it paired there may be another
 * than the one shown under that LID, so those pairs are undone: their lines take new LIDs
 * (the old ones are refused, never handed to the wrong line). `match` must be monotonic.
 */
export function unpairAmbiguous(a: LineHashes, b: LineHashes, match: Int32Array): void {
  const n = a.h1.length;
  const m = b.h1.length;
  const sameA = (x: number, y: number) => a.h1[x] === a.h1[y] && a.h2[x] === a.h2[y];
  const sameB = (x: number, y: number) => b.h1[x] === b.h1[y] && b.h2[x] === b.h2[y];
  const paired = (i: number, j: number) => match[j] === i;
  const ambiguous: number[] = [];
  for (const { a0, a1, b0, b1 } of unpairedRuns(match, n, m)) {
    // Down: the pair after the hunk could be its first lines instead, while those are equal.
    for (let t = 0; a1 + t < n && b1 + t < m && paired(a1 + t, b1 + t); t++) {
      if ((a0 < a1 && !sameA(a0 + t, a1 + t)) || (b0 < b1 && !sameB(b0 + t, b1 + t))) break;
      ambiguous.push(b1 + t);
    }
    // Up: the pair before the hunk could be its last lines instead.
    for (let t = 0; a0 - 1 - t >= 0 && b0 - 1 - t >= 0 && paired(a0 - 1 - t, b0 - 1 - t); t++) {
      if ((a0 < a1 && !sameA(a1 - 1 - t, a0 - 1 - t)) || (b0 < b1 && !sameB(b1 - 1 - t, b0 - 1 - t))) break;
      ambiguous.push(b0 - 1 - t);
    }
  }
  for (const k of ambiguous) match[k] = -1;
}
