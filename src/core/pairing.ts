// Which old line is which new line, when a file changed outside rt (an editor, git, a
// formatter): the pairs LIDs are carried by. A pair is kept only when the bytes leave no doubt
// about it, so that an LID carried over names the very line it named before:
//
// 1. A line whose content occurs once in the old file and once in the new is the same line,
//    wherever it went (a moved line keeps its LID).
// 2. The other lines are paired by a longest common subsequence, as a line diff pairs them, but
//    only by the pairs that every longest common subsequence makes. Where the same change can be
//    read two ways (one `}` gone of `} } }`, a blank line moved past others, `a b` removed from
//    `a b a b`, `x` moved down past `y` or `y` up past `x`), the lines involved are left
//    unpaired and take new LIDs: their old LIDs are refused, never handed to another line.
//
// Only the zone between the files' common start and common end is looked at: the lines before
// and after it are the same lines, once that zone is widened to a line of content unique on
// both sides (or to the file's edge). A zone of more than SEGMENT_CELLS line pairs (a file
// rewritten throughout) is cut into segments by the unique lines that kept their place among
// all the others; pairs a unique line's move crosses are left out; and a segment still too large
// falls back to the line diff, its pairs undone where a run of equal lines lets the change slide
// (unpairAmbiguous). That path presumes which lines moved where several readings are as short:
// safe for any one change, close to it for a rewrite.

import { matchLines, unpairAmbiguous } from './diff.js';
import { FingerprintTable } from './fingerprintTable.js';
import type { LineHashes } from './hash.js';

/** Largest segment examined pair by pair (its old lines × new lines). */
const SEGMENT_CELLS = 1 << 20;

/** How many line pairs a zone, and then a segment, may have to be examined pair by pair (tests lower them to take the other paths). */
export interface PairingLimits {
  readonly zone: number;
  readonly segment: number;
}

/** match[j] = the old line that new line j is, or -1 for a line new to the file. */
export function pairLines(a: LineHashes, b: LineHashes, limits: PairingLimits = { zone: SEGMENT_CELLS, segment: SEGMENT_CELLS }): Int32Array {
  const n = a.h1.length;
  const m = b.h1.length;
  const match = new Int32Array(m).fill(-1);
  const same = (i: number, j: number) => a.h1[i] === b.h1[j] && a.h2[i] === b.h2[j];
  let prefix = 0;
  while (prefix < n && prefix < m && same(prefix, prefix)) prefix++;
  let suffix = 0;
  while (suffix < n - prefix && suffix < m - prefix && same(n - 1 - suffix, m - 1 - suffix)) suffix++;
  // The zone: old lo..n-hi, new lo..m-hi, widened until a line unique on both sides bounds it.
  let lo = prefix;
  let hi = suffix;
  let counts: ZoneCounts;
  for (let margin = 8; ; margin *= 4) {
    lo = Math.max(0, prefix - margin);
    hi = Math.max(0, suffix - margin);
    counts = new ZoneCounts(a, b, lo, n - hi, lo, m - hi);
    const top = firstUnique(counts, prefix - 1, lo, -1);
    const bottom = firstUnique(counts, suffix - 1, hi, -1, n, m);
    if ((top !== undefined || lo === 0) && (bottom !== undefined || hi === 0)) {
      lo = top ?? 0;
      hi = bottom ?? 0;
      break;
    }
  }
  for (let j = 0; j < lo; j++) match[j] = j;
  for (let t = 0; t < hi; t++) match[m - 1 - t] = n - 1 - t;
  pairZone(a, b, lo, n - hi, lo, m - hi, counts!, match, limits);
  return match;
}

/**
 * The distance, from `from` down to `to` (exclusive) in the common start (or, given n and m,
 * counted from the files' ends), of the first line unique on both sides; undefined if none.
 * Returned as a count of lines kept outside the zone: the unique line stays inside it.
 */
function firstUnique(counts: ZoneCounts, from: number, to: number, step: -1, n?: number, m?: number): number | undefined {
  for (let k = from; k >= to; k += step) {
    const i = n === undefined ? k : n - 1 - k;
    const j = m === undefined ? k : m - 1 - k;
    if (counts.uniqueBoth(i, j)) return k;
  }
  return undefined;
}

/** How often the contents of the lines of a zone occur in the whole old and new files (saturating at 2). */
class ZoneCounts {
  private readonly table: FingerprintTable;
  private readonly inOld: Uint8Array;
  private readonly inNew: Uint8Array;

  constructor(
    private readonly a: LineHashes,
    private readonly b: LineHashes,
    aLo: number,
    aHi: number,
    bLo: number,
    bHi: number,
  ) {
    this.table = new FingerprintTable(aHi - aLo + (bHi - bLo));
    // A bitmap of the first hashes lets most lines of a big file be passed over at one look.
    const filter = new Uint32Array(2048);
    const add = (h1: number, h2: number) => {
      this.table.slot(h1, h2);
      filter[(h1 >>> 5) & 2047]! |= 1 << (h1 & 31);
    };
    for (let i = aLo; i < aHi; i++) add(a.h1[i]!, a.h2[i]!);
    for (let j = bLo; j < bHi; j++) add(b.h1[j]!, b.h2[j]!);
    this.inOld = count(this.table, filter, a);
    this.inNew = count(this.table, filter, b);
  }

  /** Whether old line i (and new line j, the same content) occurs once in each file. */
  uniqueBoth(i: number, j: number): boolean {
    const slot = this.table.find(this.a.h1[i]!, this.a.h2[i]!);
    return slot >= 0 && this.inOld[slot] === 1 && this.inNew[slot] === 1 && this.b.h1[j] === this.a.h1[i] && this.b.h2[j] === this.a.h2[i];
  }

  /** The slot of a content counted, and whether it is unique on both sides. */
  slotOf(h1: number, h2: number): { slot: number; unique: boolean } {
    const slot = this.table.find(h1, h2);
    return { slot, unique: slot >= 0 && this.inOld[slot] === 1 && this.inNew[slot] === 1 };
  }

  get capacity(): number {
    return this.inOld.length;
  }
}

function count(table: FingerprintTable, filter: Uint32Array, lines: LineHashes): Uint8Array {
  const counts = new Uint8Array(table.capacity);
  const { h1, h2 } = lines;
  for (let i = 0; i < h1.length; i++) {
    const x = h1[i]!;
    if ((filter[(x >>> 5) & 2047]! & (1 << (x & 31))) === 0) continue;
    const slot = table.find(x, h2[i]!);
    if (slot >= 0 && counts[slot]! < 2) counts[slot]!++;
  }
  return counts;
}

/** Pairs the lines of the zone old aLo..aHi-1, new bLo..bHi-1 (see the top of this file). */
function pairZone(a: LineHashes, b: LineHashes, aLo: number, aHi: number, bLo: number, bHi: number, counts: ZoneCounts, match: Int32Array, limits: PairingLimits): void {
  // 1. Lines unique on both sides, by content.
  const oldOf = new Int32Array(counts.capacity).fill(-1);
  for (let i = aLo; i < aHi; i++) {
    const { slot, unique } = counts.slotOf(a.h1[i]!, a.h2[i]!);
    if (unique) oldOf[slot] = i;
  }
  const pairA: number[] = [];
  const pairB: number[] = [];
  for (let j = bLo; j < bHi; j++) {
    const { slot, unique } = counts.slotOf(b.h1[j]!, b.h2[j]!);
    if (unique && oldOf[slot]! >= 0) {
      pairA.push(oldOf[slot]!);
      pairB.push(j);
      match[j] = oldOf[slot]!;
    }
  }
  // A zone small enough is paired whole: the pairs every longest common subsequence of it makes
  // (its unique lines among the others, so that which of them moved is not presumed).
  if ((aHi - aLo) * (bHi - bLo) <= limits.zone) {
    const paired: Array<[number, number]> = [];
    pairSegment(a, b, range(aLo, aHi), range(bLo, bHi), paired, limits.zone);
    for (const [i, j] of paired) match[j] = i;
    return;
  }
  // 2. The segments between those that no other one crosses (each kept its place among all of
  // them); the others moved, and which did is a choice the bytes may not make (did `x` move down
  // past `y`, or `y` up past `x`?).
  const anchors = pairA.map((_, k) => k).sort((x, y) => pairA[x]! - pairA[y]!);
  const stable = stableAnchors(anchors.map((k) => pairB[k]!));
  const isAnchorOld = new Set<number>(pairA);
  const isAnchorNew = new Set<number>(pairB);
  let pa = aLo;
  let pb = bLo;
  const paired: Array<[number, number]> = [];
  const segment = (aEnd: number, bEnd: number) => {
    const oldLines: number[] = [];
    const newLines: number[] = [];
    for (let i = pa; i < aEnd; i++) if (!isAnchorOld.has(i)) oldLines.push(i);
    for (let j = pb; j < bEnd; j++) if (!isAnchorNew.has(j)) newLines.push(j);
    pairSegment(a, b, oldLines, newLines, paired, limits.segment);
  };
  anchors.forEach((k, rank) => {
    if (!stable[rank]) return;
    segment(pairA[k]!, pairB[k]!);
    pa = pairA[k]! + 1;
    pb = pairB[k]! + 1;
  });
  segment(aHi, bHi);
  // 3. A pair of repeated lines that a moved line's move crosses is not certain: left out.
  for (const [i, j] of withoutCrossings(paired, pairA, pairB, stable.includes(false))) match[j] = i;
}

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = from; i < to; i++) out.push(i);
  return out;
}

/** For anchors in old order, given their new positions: whether each crosses no other (all before it stay before, all after stay after). */
function stableAnchors(newAt: readonly number[]): boolean[] {
  const n = newAt.length;
  const suffixMin = new Int32Array(n + 1).fill(0x7fffffff);
  for (let k = n - 1; k >= 0; k--) suffixMin[k] = Math.min(suffixMin[k + 1]!, newAt[k]!);
  const out: boolean[] = [];
  let prefixMax = -1;
  for (let k = 0; k < n; k++) {
    out.push(prefixMax < newAt[k]! && newAt[k]! < suffixMin[k + 1]!);
    prefixMax = Math.max(prefixMax, newAt[k]!);
  }
  return out;
}

/** The pairs that lie on the same side of every anchor (unique line paired) in both files. */
function withoutCrossings(pairs: ReadonlyArray<[number, number]>, anchorsA: readonly number[], anchorsB: readonly number[], anyMoved: boolean): ReadonlyArray<[number, number]> {
  if (!anyMoved || pairs.length === 0) return pairs;
  // Anchors by old position; for each pair, the least new position of an anchor after it in
  // the old file and the greatest of one before it must leave it on the same side in the new.
  const order = anchorsA.map((_, k) => k).sort((x, y) => anchorsA[x]! - anchorsA[y]!);
  const u = order.map((k) => anchorsA[k]!);
  const v = order.map((k) => anchorsB[k]!);
  const prefixMax = new Int32Array(u.length);
  const suffixMin = new Int32Array(u.length);
  for (let k = 0; k < u.length; k++) prefixMax[k] = Math.max(k ? prefixMax[k - 1]! : -1, v[k]!);
  for (let k = u.length - 1; k >= 0; k--) suffixMin[k] = Math.min(k < u.length - 1 ? suffixMin[k + 1]! : 0x7fffffff, v[k]!);
  return pairs.filter(([i, j]) => {
    // First anchor after old line i.
    let lo = 0;
    let hi = u.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (u[mid]! < i) lo = mid + 1;
      else hi = mid;
    }
    const before = lo > 0 ? prefixMax[lo - 1]! : -1;
    const after = lo < u.length ? suffixMin[lo]! : 0x7fffffff;
    return before < j && j < after;
  });
}

/** Pairs old lines `oldLines` with new lines `newLines` (each ascending) where every longest common subsequence does; adds them to `pairs` as [old, new]. */
function pairSegment(a: LineHashes, b: LineHashes, oldLines: readonly number[], newLines: readonly number[], pairs: Array<[number, number]>, cells: number): void {
  const na = oldLines.length;
  const nb = newLines.length;
  if (na === 0 || nb === 0) return;
  const same = (p: number, q: number) => a.h1[oldLines[p]!] === b.h1[newLines[q]!] && a.h2[oldLines[p]!] === b.h2[newLines[q]!];
  if (na * nb > cells) {
    pairLargeSegment(a, b, oldLines, newLines, pairs);
    return;
  }
  const w = nb + 1;
  // fwd[p][q]: LCS of the first p old and q new lines; bwd[p][q]: of the old from p and new from q on.
  const fwd = new Int32Array((na + 1) * w);
  const bwd = new Int32Array((na + 1) * w);
  for (let p = 0; p < na; p++) {
    for (let q = 0; q < nb; q++) {
      fwd[(p + 1) * w + q + 1] = same(p, q) ? fwd[p * w + q]! + 1 : Math.max(fwd[p * w + q + 1]!, fwd[(p + 1) * w + q]!);
    }
  }
  for (let p = na - 1; p >= 0; p--) {
    for (let q = nb - 1; q >= 0; q--) {
      bwd[p * w + q] = same(p, q) ? bwd[(p + 1) * w + q + 1]! + 1 : Math.max(bwd[(p + 1) * w + q]!, bwd[p * w + q + 1]!);
    }
  }
  const total = fwd[na * w + nb]!;
  // The pairs on some longest common subsequence, by their rank in it: a rank held by one pair alone is held by that pair in all of them.
  const holders = new Int32Array(total).fill(-1);
  const shared = new Uint8Array(total);
  for (let p = 0; p < na; p++) {
    for (let q = 0; q < nb; q++) {
      if (!same(p, q)) continue;
      const rank = fwd[p * w + q]!;
      if (rank + 1 + bwd[(p + 1) * w + q + 1]! !== total) continue;
      if (holders[rank] === -1) holders[rank] = p * nb + q;
      else shared[rank] = 1;
    }
  }
  for (let rank = 0; rank < total; rank++) {
    if (shared[rank]) continue;
    const cell = holders[rank]!;
    pairs.push([oldLines[Math.floor(cell / nb)]!, newLines[cell % nb]!]);
  }
}

/** A segment too large for pairSegment: the line diff's pairs, less those a slide along equal lines makes doubtful. */
function pairLargeSegment(a: LineHashes, b: LineHashes, oldLines: readonly number[], newLines: readonly number[], pairs: Array<[number, number]>): void {
  const pick = (h: LineHashes, at: readonly number[]): LineHashes => ({ h1: Uint32Array.from(at, (i) => h.h1[i]!), h2: Uint32Array.from(at, (i) => h.h2[i]!) });
  const sa = pick(a, oldLines);
  const sb = pick(b, newLines);
  const local = matchLines(sa, sb);
  unpairAmbiguous(sa, sb, local);
  local.forEach((p, q) => {
    if (p >= 0) pairs.push([oldLines[p]!, newLines[q]!]);
  });
}

/**
 * Pairs old lines `oldFree` with new lines `newFree` (both left unpaired by an edit) that hold
 * the same content, when that content occurs once in the old file and once in the new: a line
 * moved unchanged (an import sort) keeps its LID. Pairs are [old, new].
 */
export function pairUniqueMoves(a: LineHashes, b: LineHashes, oldFree: readonly number[], newFree: readonly number[]): Array<[number, number]> {
  if (oldFree.length === 0 || newFree.length === 0) return [];
  const table = new FingerprintTable(newFree.length);
  const filter = new Uint32Array(2048);
  for (const j of newFree) {
    table.slot(b.h1[j]!, b.h2[j]!);
    filter[(b.h1[j]! >>> 5) & 2047]! |= 1 << (b.h1[j]! & 31);
  }
  const inNew = count(table, filter, b);
  const inOld = count(table, filter, a);
  const oldAt = new Int32Array(table.capacity).fill(-1);
  for (const i of oldFree) {
    const slot = table.find(a.h1[i]!, a.h2[i]!);
    if (slot >= 0) oldAt[slot] = i;
  }
  const pairs: Array<[number, number]> = [];
  for (const j of newFree) {
    const slot = table.find(b.h1[j]!, b.h2[j]!);
    if (inNew[slot] === 1 && inOld[slot] === 1 && oldAt[slot]! >= 0) pairs.push([oldAt[slot]!, j]);
  }
  return pairs;
}
