// Which old line is which new line, when a file changed outside rt (an editor, git, a
// formatter): the pairs LIDs are carried by. A pair is kept only when the bytes leave no doubt
// about it, so that an LID carried over names the very line it named before:
//
// 1. A line whose content occurs once in the old file and once in the new is the same line,
//    wherever it went (a moved line keeps its LID).
// 2. The line diff (Myers, bounded) finds the runs of lines removed and added (hunks). Around
//    each hunk, a window reaching out to a line of unique content on each side (or the file's
//    edge) is paired again by the pairs that every longest common subsequence of it makes:
//    where one change can be read two ways (one `}` gone of `} } }`, `a b` removed from
//    `a b a b`), the lines involved are left unpaired and take new LIDs. Their old LIDs are
//    refused, never handed to another line. Lines between windows are the same lines.
// 3. A window where a content was both removed and added (a line or block moved within it, or
//    cut and written again) holds a move, and moves of equal lines past each other are where
//    the bytes say least (did `c` move up past `a b`, or `a b` down past `c`?): every repeated
//    line of that window takes a new LID; lines of unique content keep theirs (1). A move from
//    one window to another (a unique line between) is read alike whichever lines moved: the
//    lines between are the same lines, the moved ones new (or kept, when unique).
//
// A window of more than WINDOW_CELLS line pairs (thousands of lines changed, with no unique line
// between) holding one change that is not a move keeps the line diff's pairs, less those a run
// of equal lines lets the change slide along (unpairAmbiguous), which is as exact; holding
// several, its repeated lines keep no pair.

import { unpairedRuns, matchLines, unpairAmbiguous, type UnpairedRun } from './diff.js';
import { ContentCounts, FingerprintTable } from './fingerprintTable.js';
import type { LineHashes } from './hash.js';

/** Largest window paired by every longest common subsequence (its old lines × new lines). */
const WINDOW_CELLS = 1 << 20;

/**
 * match[j] = the old line that new line j is, or -1 for a line new to the file. `cells`: see WINDOW_CELLS (tests lower
 * it).
 */
export function pairLines(a: LineHashes, b: LineHashes, cells = WINDOW_CELLS): Int32Array {
  const match = matchLines(a, b);
  const hunks = unpairedRuns(match, a.h1.length, b.h1.length);
  if (hunks.length === 0) return match;
  // Windows: each hunk widened to a line of unique content on each side, overlapping ones merged.
  const windows: UnpairedRun[] = [];
  for (const w of widen(a, b, hunks, match)) {
    const last = windows[windows.length - 1];
    if (last && w.a0 < last.a1)
      windows[windows.length - 1] = {
        a0: last.a0,
        a1: Math.max(last.a1, w.a1),
        b0: last.b0,
        b1: Math.max(last.b1, w.b1),
      };
    else windows.push(w);
  }
  for (const w of windows) {
    const inside = hunks.filter((h) => h.a0 >= w.a0 && h.a1 <= w.a1 && h.b0 >= w.b0 && h.b1 <= w.b1);
    const pairs: Array<[number, number]> = [];
    // A window where some content was both removed and added holds a move, or a cut and a paste:
    // its repeated lines are where the bytes say least (did `c` move up past `a b`, or `a b`
    // down past `c`?), and keep no pair. Unique lines bound it; beyond them, a move is read alike.
    if (isMoveLike(a, b, inside)) pairs.length = 0;
    else if ((w.a1 - w.a0) * (w.b1 - w.b0) <= cells) pairEveryLcs(a, b, w, pairs);
    // Too large for that: one change is read by the line diff, less its slides; changes in
    // several places among thousands of equal lines leave their repeated lines unpaired.
    else if (inside.length === 1) pairLargeWindow(a, b, w, match, pairs);
    for (let j = w.b0; j < w.b1; j++) match[j] = -1;
    for (const [i, j] of pairs) match[j] = i;
  }
  pairUnique(a, b, windows, match);
  return match;
}

/** Whether some content was both removed and added: a move, or a cut and a paste. */
function isMoveLike(a: LineHashes, b: LineHashes, hunks: readonly UnpairedRun[]): boolean {
  let removed = 0;
  for (const h of hunks) removed += h.a1 - h.a0;
  if (removed === 0) return false;
  const table = new FingerprintTable(removed);
  for (const h of hunks) for (let i = h.a0; i < h.a1; i++) table.slot(a.h1[i]!, a.h2[i]!);
  return hunks.some((h) => {
    for (let j = h.b0; j < h.b1; j++) if (table.find(b.h1[j]!, b.h2[j]!) >= 0) return true;
    return false;
  });
}

/**
 * Each hunk widened over the pairs around it to the nearest line on each side whose content
 * occurs once in each file and that the line diff paired (kept in the window as its bound: the
 * diff's pairs are in order, so the window is one stretch of each file), or to the file's edge. The contents
 * of the lines looked at are counted over both files, all hunks at once, a pass a round.
 */
function widen(a: LineHashes, b: LineHashes, hunks: readonly UnpairedRun[], match: Int32Array): UnpairedRun[] {
  const n = a.h1.length;
  const m = b.h1.length;
  const newOf = new Int32Array(n).fill(-1);
  match.forEach((i, j) => {
    if (i >= 0) newOf[i] = j;
  });
  const tops: Array<number | undefined> = hunks.map((h) => (h.a0 === 0 ? 0 : undefined));
  const bottoms: Array<number | undefined> = hunks.map((h) => (h.a1 === n ? n : undefined));
  for (
    let margin = 8, looked = 0;
    tops.includes(undefined) || bottoms.includes(undefined);
    looked = margin, margin *= 4
  ) {
    const lines: number[] = [];
    hunks.forEach((h, k) => {
      if (tops[k] === undefined) for (let d = looked + 1; d <= margin && h.a0 - d >= 0; d++) lines.push(h.a0 - d);
      if (bottoms[k] === undefined) for (let d = looked; d < margin && h.a1 + d < n; d++) lines.push(h.a1 + d);
    });
    const unique = uniqueOnBothSides(a, b, lines);
    hunks.forEach((h, k) => {
      if (tops[k] === undefined) {
        for (let d = looked + 1; d <= margin && tops[k] === undefined; d++) {
          if (h.a0 - d < 0) tops[k] = 0;
          else if (unique.has(h.a0 - d) && newOf[h.a0 - d]! >= 0) tops[k] = h.a0 - d;
        }
      }
      if (bottoms[k] === undefined) {
        for (let d = looked; d < margin && bottoms[k] === undefined; d++) {
          if (h.a1 + d >= n) bottoms[k] = n;
          else if (unique.has(h.a1 + d) && newOf[h.a1 + d]! >= 0) bottoms[k] = h.a1 + d + 1;
        }
      }
    });
  }
  return hunks.map((h, k) => {
    const top = tops[k]!;
    const bottom = bottoms[k]!;
    // A bound line is paired (unique on both sides, outside any hunk of a change that is not a move); else the hunk's
    // own edge.
    const b0 = top === 0 ? 0 : newOf[top]! >= 0 ? newOf[top]! : h.b0;
    const b1 = bottom === n ? m : newOf[bottom - 1]! >= 0 ? newOf[bottom - 1]! + 1 : h.b1;
    return { a0: top, a1: bottom, b0: Math.min(b0, h.b0), b1: Math.max(b1, h.b1) };
  });
}

/** Which of old lines `at` hold content occurring once in the old file and once in the new. */
function uniqueOnBothSides(a: LineHashes, b: LineHashes, at: readonly number[]): Set<number> {
  const contents = new ContentCounts(a, at, at.length);
  const inOld = contents.countIn(a);
  const inNew = contents.countIn(b);
  const unique = new Set<number>();
  for (const i of at) {
    const slot = contents.slotOf(a.h1[i]!, a.h2[i]!);
    if (inOld[slot] === 1 && inNew[slot] === 1) unique.add(i);
  }
  return unique;
}

/** Pairs the lines of `windows` left unpaired whose content occurs once in each file (a line moved, or kept). */
function pairUnique(a: LineHashes, b: LineHashes, windows: readonly UnpairedRun[], match: Int32Array): void {
  const paired = new Set<number>();
  const oldFree: number[] = [];
  const newFree: number[] = [];
  for (const w of windows) {
    for (let j = w.b0; j < w.b1; j++) {
      if (match[j]! >= 0) paired.add(match[j]!);
      else newFree.push(j);
    }
  }
  for (const w of windows) for (let i = w.a0; i < w.a1; i++) if (!paired.has(i)) oldFree.push(i);
  for (const [i, j] of pairUniqueMoves(a, b, oldFree, newFree)) match[j] = i;
}

/**
 * Pairs the lines of window `w` where every longest common subsequence of it does; adds them to `pairs` as [old, new].
 */
function pairEveryLcs(a: LineHashes, b: LineHashes, w: UnpairedRun, pairs: Array<[number, number]>): void {
  const na = w.a1 - w.a0;
  const nb = w.b1 - w.b0;
  if (na === 0 || nb === 0) return;
  const same = (p: number, q: number) => a.h1[w.a0 + p] === b.h1[w.b0 + q] && a.h2[w.a0 + p] === b.h2[w.b0 + q];
  const width = nb + 1;
  // fwd[p][q]: LCS of the first p old and q new lines; bwd[p][q]: of the old from p and new from q on.
  const fwd = new Int32Array((na + 1) * width);
  const bwd = new Int32Array((na + 1) * width);
  for (let p = 0; p < na; p++) {
    for (let q = 0; q < nb; q++) {
      fwd[(p + 1) * width + q + 1] = same(p, q)
        ? fwd[p * width + q]! + 1
        : Math.max(fwd[p * width + q + 1]!, fwd[(p + 1) * width + q]!);
    }
  }
  for (let p = na - 1; p >= 0; p--) {
    for (let q = nb - 1; q >= 0; q--) {
      bwd[p * width + q] = same(p, q)
        ? bwd[(p + 1) * width + q + 1]! + 1
        : Math.max(bwd[(p + 1) * width + q]!, bwd[p * width + q + 1]!);
    }
  }
  const total = fwd[na * width + nb]!;
  // The pairs on some longest common subsequence, by their rank in it: a rank held by one pair alone is held by that
  // pair in all of them.
  const holders = new Int32Array(total).fill(-1);
  const shared = new Uint8Array(total);
  for (let p = 0; p < na; p++) {
    for (let q = 0; q < nb; q++) {
      if (!same(p, q)) continue;
      const rank = fwd[p * width + q]!;
      if (rank + 1 + bwd[(p + 1) * width + q + 1]! !== total) continue;
      if (holders[rank] === -1) holders[rank] = p * nb + q;
      else shared[rank] = 1;
    }
  }
  for (let rank = 0; rank < total; rank++) {
    if (shared[rank]) continue;
    const cell = holders[rank]!;
    pairs.push([w.a0 + Math.floor(cell / nb), w.b0 + (cell % nb)]);
  }
}

/**
 * A window too large for pairEveryLcs: the line diff's pairs in it, less those a slide along equal lines makes
 * doubtful.
 */
function pairLargeWindow(
  a: LineHashes,
  b: LineHashes,
  w: UnpairedRun,
  match: Int32Array,
  pairs: Array<[number, number]>,
): void {
  const local = new Int32Array(w.b1 - w.b0);
  for (let j = w.b0; j < w.b1; j++) local[j - w.b0] = match[j]! >= 0 ? match[j]! - w.a0 : -1;
  unpairAmbiguous(
    { h1: a.h1.subarray(w.a0, w.a1), h2: a.h2.subarray(w.a0, w.a1) },
    { h1: b.h1.subarray(w.b0, w.b1), h2: b.h2.subarray(w.b0, w.b1) },
    local,
  );
  local.forEach((p, q) => {
    if (p >= 0) pairs.push([w.a0 + p, w.b0 + q]);
  });
}

/**
 * Pairs old lines `oldFree` with new lines `newFree` (both left unpaired) that hold the same
 * content, when that content occurs once in the old file and once in the new: a line moved
 * unchanged (an import sort) keeps its LID. Pairs are [old, new].
 */
export function pairUniqueMoves(
  a: LineHashes,
  b: LineHashes,
  oldFree: readonly number[],
  newFree: readonly number[],
): Array<[number, number]> {
  if (oldFree.length === 0 || newFree.length === 0) return [];
  const contents = new ContentCounts(b, newFree, newFree.length);
  const oldAt = new Int32Array(contents.capacity).fill(-1);
  let shared = false;
  for (const i of oldFree) {
    const slot = contents.slotOf(a.h1[i]!, a.h2[i]!);
    if (slot >= 0) oldAt[slot] = i;
    shared ||= slot >= 0;
  }
  // No unpaired old line holds a content of an unpaired new one (a line rewritten in place):
  // nothing to pair, and the two files need not be counted.
  if (!shared) return [];
  const inNew = contents.countIn(b);
  const inOld = contents.countIn(a);
  const pairs: Array<[number, number]> = [];
  for (const j of newFree) {
    const slot = contents.slotOf(b.h1[j]!, b.h2[j]!);
    if (inNew[slot] === 1 && inOld[slot] === 1 && oldAt[slot]! >= 0) pairs.push([oldAt[slot]!, j]);
  }
  return pairs;
}
