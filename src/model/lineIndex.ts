// The LID index of one file: each line's fingerprint and LID, plus the LIDs retired from it.
//
// `buildIndex` gives LIDs with no history (deterministic, see freshLids.ts); `reconcileIndex`
// carries LIDs from an old index to the file's current content through the line diff: paired
// lines keep their LID, unpaired old lines retire theirs, new lines take fresh ones that are
// neither in use nor retired.

import { pairLines, pairUniqueMoves } from './pairing.js';
import { contextKeys, contextKeysOf, freshLids, lookupBudget, type LineKeys } from './freshLids.js';
import type { LineHashes } from './hash.js';
import { candidate, hasLetter, LidSet, lidLengthFor, ScannedCodes, type CodeSet } from './lid.js';

export interface Retired {
  /** LID codes no longer in the file, never to be handed to other content. */
  readonly lids: Uint32Array;
  /** Day (since 1970) each was retired, so old ones can expire. */
  readonly days: Uint16Array;
  /** Where its line was, 1-based, in the file right after the change that retired it. */
  readonly lines: Uint32Array;
}

export interface LineIndex extends LineHashes {
  readonly lids: Uint32Array;
  readonly retired: Retired;
}

/** Retired LIDs are forgotten after this many days (like unused state: see The store is a cache)… */
export const RETIRED_DAYS = 30;
/** …or, in a file rewritten many times over, beyond this many (oldest first). */
export const RETIRED_MIN_CAP = 65_536;

export const NO_RETIRED: Retired = { lids: new Uint32Array(0), days: new Uint16Array(0), lines: new Uint32Array(0) };

export function today(now = Date.now()): number {
  return Math.floor(now / 86_400_000);
}

/** LIDs for a file with no history: the same on every machine (see freshLids.ts). */
export function buildIndex(hashes: LineHashes): LineIndex {
  const lids = freshLids(hashes);
  return { h1: hashes.h1, h2: hashes.h2, lids, retired: NO_RETIRED };
}

/** Whether two fingerprint lists are the same lines in the same order. */
export function sameLines(a: LineHashes, b: LineHashes): boolean {
  if (a.h1.length !== b.h1.length) return false;
  for (let i = 0; i < a.h1.length; i++) if (a.h1[i] !== b.h1[i] || a.h2[i] !== b.h2[i]) return false;
  return true;
}

/**
 * The index for `hashes` (the file now), keeping every LID the line diff can carry over from `old` (see pairing.ts).
 */
export function reconcileIndex(old: LineIndex, hashes: LineHashes, day = today()): LineIndex {
  if (sameLines(old, hashes)) return old;
  return carryOver(old, hashes, pairLines(old, hashes), day);
}

/** The index for `hashes` given `match` (new line → old line or -1). */
export function carryOver(old: LineIndex, hashes: LineHashes, match: Int32Array, day = today()): LineIndex {
  const count = hashes.h1.length;
  const kept = new Uint8Array(old.lids.length);
  const lids = new Uint32Array(count);
  const fresh: number[] = [];
  for (let j = 0; j < count; j++) {
    const i = match[j]!;
    if (i >= 0) {
      lids[j] = old.lids[i]!;
      kept[i] = 1;
    } else fresh.push(j);
  }
  assignFresh(old, hashes, lids, fresh);
  // Where each old line went: a kept line to its new place; a gone one to the place after the
  // last kept line before it, which is what stands where it was.
  const newOf = new Int32Array(old.lids.length).fill(-1);
  for (let j = 0; j < count; j++) if (match[j]! >= 0) newOf[match[j]!] = j;
  const gone: Array<{ lid: number; line: number }> = [];
  let lastNew = -1;
  for (let i = 0; i < old.lids.length; i++) {
    if (kept[i]) lastNew = newOf[i]!;
    else gone.push({ lid: old.lids[i]!, line: Math.min(lastNew + 2, Math.max(count, 1)) });
  }
  return { h1: hashes.h1, h2: hashes.h2, lids, retired: retire(old.retired, gone, day, count) };
}

/**
 * The index after an edit replaced old lines start..start+deleteCount-1 with new ones (`hashes`
 * is the whole new file): the lines before and after keep their LIDs; so do the first and last
 * lines of the region that the edit gave the same content (a replacement often repeats the
 * lines around its change), and a line of the region whose content occurs once in the file
 * before and after, which the edit moved. Every line is looked at no more than to copy it
 * (and, for a replacement, to count a few contents).
 */
export function spliceIndex(
  old: LineIndex,
  hashes: LineHashes,
  start: number,
  deleteCount: number,
  day = today(),
): LineIndex {
  const count = hashes.h1.length;
  const end = start + deleteCount;
  const inserted = count - (old.lids.length - deleteCount);
  const { head, tail } = unchangedEnds(
    deleteCount,
    inserted,
    (i, j) => old.h1[start + i] === hashes.h1[start + j] && old.h2[start + i] === hashes.h2[start + j],
  );
  const lids = new Uint32Array(count);
  lids.set(old.lids.subarray(0, start + head));
  lids.set(old.lids.subarray(end - tail), start + inserted - tail);
  // The rest of the region: old lines from..oldTo-1 replaced by new lines from..newTo-1.
  const from = start + head;
  const oldTo = end - tail;
  const newTo = start + inserted - tail;
  const moved = pairUniqueMoves(old, hashes, range(from, oldTo), range(from, newTo));
  const keptOld = new Set<number>();
  for (const [i, j] of moved) {
    lids[j] = old.lids[i]!;
    keptOld.add(i);
  }
  const movedNew = new Set(moved.map(([, j]) => j));
  const fresh: number[] = [];
  for (let j = from; j < newTo; j++) if (!movedNew.has(j)) fresh.push(j);
  assignFresh(old, hashes, lids, fresh);
  // A removed line's place is the one after the last kept line before it.
  const gone: Array<{ lid: number; line: number }> = [];
  for (let i = from; i < oldTo; i++)
    if (!keptOld.has(i)) gone.push({ lid: old.lids[i]!, line: Math.min(from + 1, Math.max(count, 1)) });
  return { h1: hashes.h1, h2: hashes.h2, lids, retired: retire(old.retired, gone, day, count) };
}

/**
 * How many of the first and of the last lines of a region of `deleteCount` lines replaced by
 * `inserted` new ones the edit gave the same content; `same(i, j)`: whether old line i of the
 * region has the content of new line j.
 */
export function unchangedEnds(
  deleteCount: number,
  inserted: number,
  same: (i: number, j: number) => boolean,
): { head: number; tail: number } {
  let head = 0;
  while (head < deleteCount && head < inserted && same(head, head)) head++;
  let tail = 0;
  while (tail < deleteCount - head && tail < inserted - head && same(deleteCount - 1 - tail, inserted - 1 - tail))
    tail++;
  return { head, tail };
}

export function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = from; i < to; i++) out.push(i);
  return out;
}

/**
 * Gives the new lines at `fresh` (ascending) LIDs: each the first candidate of its fresh key
 * (what a reading with no history would key it by) that is neither in use in `old` nor
 * retired, so that a line new to the file takes the LID a fresh reading would give it whenever
 * history allows. Up to `few` new lines (an edit's, mostly) scan the old codes for each lookup;
 * more build a set first. Both give the same LIDs. `inUse`: the old codes, in lists that hold
 * every one of them (a 0, no LID, may stand for none).
 */
export function assignFresh(
  old: LineIndex,
  hashes: LineHashes,
  lids: Uint32Array,
  fresh: readonly number[],
  few = 8,
  inUse: readonly Uint32Array[] = [old.lids],
): void {
  if (fresh.length === 0) return;
  const length = freshLength(old.retired, hashes.h1.length);
  let used: CodeSet;
  if (fresh.length <= few) used = new ScannedCodes([...inUse, old.retired.lids]);
  else {
    const set = new LidSet();
    for (const list of inUse) set.addAll(list);
    set.addAll(old.retired.lids);
    used = set;
  }
  const keys = keysOf(hashes, fresh);
  fresh.forEach((j, f) => {
    const a = keys.h1[f]!;
    const b = keys.h2[f]!;
    for (let k = 0; ; k++) {
      const code = candidate(a, b, k, length);
      if (hasLetter(code, length) && !used.has(code)) {
        used.add(code);
        lids[j] = code;
        return;
      }
    }
  });
}

/** The fresh keys of lines `at` (ascending): counted around them when they are a few runs, else for the whole file. */
function keysOf(hashes: LineHashes, at: readonly number[]): LineKeys {
  const runs: Array<[number, number]> = [];
  for (const j of at) {
    const last = runs[runs.length - 1];
    if (last && last[1] === j) last[1] = j + 1;
    else runs.push([j, j + 1]);
  }
  const k1 = new Uint32Array(at.length);
  const k2 = new Uint32Array(at.length);
  if (runs.length > 4 || at.length * 8 > hashes.h1.length) {
    const all = contextKeys(hashes);
    at.forEach((j, f) => {
      k1[f] = all.h1[j]!;
      k2[f] = all.h2[j]!;
    });
    return { h1: k1, h2: k2 };
  }
  let f = 0;
  const budget = lookupBudget();
  for (const [from, to] of runs) {
    const keys = contextKeysOf(hashes, from, to, budget);
    k1.set(keys.h1, f);
    k2.set(keys.h2, f);
    f += to - from;
  }
  return { h1: k1, h2: k2 };
}

/**
 * A retired entry that is no LID but a mark: codes of its length (and shorter) were dropped from
 * the list by its cap before they expired, so fresh LIDs of the file are made longer until its
 * day expires too (see freshLength). Its value, 0, has no letter: it is never an LID.
 */
function isDroppedMark(code: number): boolean {
  return (code & 0x3fffffff) === 0;
}

/** The length of a code (4, 5 or 6). */
function codeLength(code: number): number {
  return 4 + (code >>> 30);
}

/** The mark of dropped codes (see retire) that covers `mark` and also `code`, dropped on `day`. */
function widened(
  mark: { length: number; day: number } | undefined,
  code: number,
  day: number,
): { length: number; day: number } {
  return { length: Math.max(mark?.length ?? 0, codeLength(code)), day: Math.max(mark?.day ?? 0, day) };
}

/**
 * Adds `gone` to the retired list, dropping expired entries and the oldest beyond the cap. Codes
 * dropped by the cap, before their 30 days, could be handed to other content (LIDs are never
 * reused: an agent may still hold one): a mark says up to which length they were, and lives as long
 * as they would have; fresh LIDs are made longer meanwhile.
 */
export function retire(
  retired: Retired,
  gone: ReadonlyArray<{ lid: number; line: number }>,
  day: number,
  lineCount: number,
): Retired {
  const cap = Math.max(RETIRED_MIN_CAP, 2 * lineCount);
  const lids: number[] = [];
  const days: number[] = [];
  const lines: number[] = [];
  let mark: { length: number; day: number } | undefined;
  for (let i = 0; i < retired.lids.length; i++) {
    if (day - retired.days[i]! > RETIRED_DAYS) continue;
    if (isDroppedMark(retired.lids[i]!)) {
      mark = widened(mark, retired.lids[i]!, retired.days[i]!);
      continue;
    }
    lids.push(retired.lids[i]!);
    days.push(retired.days[i]!);
    lines.push(retired.lines[i]!);
  }
  for (const g of gone) {
    lids.push(g.lid);
    days.push(day);
    lines.push(g.line);
  }
  const from = Math.max(0, lids.length - cap);
  for (let i = 0; i < from; i++) mark = widened(mark, lids[i]!, days[i]!);
  const marks = mark ? 1 : 0;
  const wasMarked = retired.lids.some(isDroppedMark);
  if (from === 0 && gone.length === 0 && lids.length + marks === retired.lids.length && marks === (wasMarked ? 1 : 0))
    return retired;
  const kept = lids.length - from;
  const out = {
    lids: new Uint32Array(marks + kept),
    days: new Uint16Array(marks + kept),
    lines: new Uint32Array(marks + kept),
  };
  if (mark) {
    out.lids[0] = ((mark.length - 4) << 30) >>> 0;
    out.days[0] = mark.day;
  }
  out.lids.set(lids.slice(from), marks);
  out.days.set(days.slice(from), marks);
  out.lines.set(lines.slice(from), marks);
  return out;
}

/**
 * The length of the fresh LIDs of a file of `lineCount` lines with `retired`: lidLengthFor's,
 * or one more than the codes its cap dropped (see retire), up to 6.
 */
export function freshLength(retired: Retired, lineCount: number): number {
  let length = lidLengthFor(lineCount);
  for (const code of retired.lids)
    if (isDroppedMark(code)) length = Math.max(length, Math.min(6, codeLength(code) + 1));
  return length;
}

/** Where the line of a retired LID was right after it changed (1-based), or undefined if `code` was never retired. */
export function retiredLine(retired: Retired, code: number): number | undefined {
  const at = retired.lids.lastIndexOf(code);
  return at === -1 ? undefined : retired.lines[at]!;
}

/** One line given new content, the line count unchanged: its 0-based number and its new fingerprint. */
export interface LineSwap {
  readonly line: number;
  readonly h1: number;
  readonly h2: number;
}

/**
 * The index after `swaps` (ascending lines, none twice): what spliceIndex gives them made one
 * after the other, one line replaced by one each time (test/model/swapIndex.test.ts checks it),
 * in one pass rather than a copy of the index a line. Undefined where that could differ: when the
 * retired list could reach its cap meanwhile (the first splice drops what expired; none after
 * it does, on the same day).
 */
export function swapIndex(index: LineIndex, swaps: readonly LineSwap[], day = today()): LineIndex | undefined {
  const n = index.lids.length;
  if (index.retired.lids.length + swaps.length > Math.max(RETIRED_MIN_CAP, 2 * n)) return undefined;
  const h1 = index.h1.slice();
  const h2 = index.h2.slice();
  const lids = index.lids.slice();
  const hashes = { h1, h2 };
  let retired = index.retired;
  const gone: Array<{ lid: number; line: number }> = [];
  let used: LidSet | undefined;
  let length = 0;
  swaps.forEach((s, k) => {
    const i = s.line;
    const same = h1[i] === s.h1 && h2[i] === s.h2;
    if (!same) {
      h1[i] = s.h1;
      h2[i] = s.h2;
      const old = lids[i]!;
      if (k === 0) assignFresh(index, hashes, lids, [i]);
      else {
        // From the second splice on: the codes in use are the file's and the retired ones, which
        // only grow (a replaced line's LID is retired); the length is the same for each.
        if (!used) {
          used = new LidSet();
          used.addAll(lids);
          used.addAll(retired.lids);
          length = freshLength(retired, n);
        }
        const keys = keysOf(hashes, [i]);
        for (let c = 0; ; c++) {
          const code = candidate(keys.h1[0]!, keys.h2[0]!, c, length);
          if (hasLetter(code, length) && !used.has(code)) {
            used.add(code);
            lids[i] = code;
            break;
          }
        }
      }
      gone.push({ lid: old, line: i + 1 });
    }
    // The first splice drops the retired LIDs that expired, whatever it changed.
    if (k === 0) retired = retire(index.retired, gone.splice(0), day, n);
  });
  return { h1, h2, lids, retired: retire(retired, gone, day, n) };
}

/** One line replaced by `rows` lines (their fingerprints), as rt replace rewrites it. */
export interface LineRewrite {
  readonly line: number;
  readonly h1: readonly number[];
  readonly h2: readonly number[];
}

/**
 * The index after `rewrites` (ascending lines, none twice), taken as one edit of the file: a row
 * whose content is that of the line it replaces (the first, else the last) keeps its LID; every
 * other row takes a fresh LID keyed in the file as it is after all of them (in time linear in the
 * file); every line not rewritten keeps its LID; the LIDs of the lines replaced and not kept are
 * retired, at the place of their first row.
 */
export function rewrittenIndex(index: LineIndex, rewrites: readonly LineRewrite[], day = today()): LineIndex {
  const n = index.lids.length;
  const count = rewrites.reduce((c, r) => c + r.h1.length - 1, n);
  const h1 = new Uint32Array(count);
  const h2 = new Uint32Array(count);
  const lids = new Uint32Array(count);
  const fresh: number[] = [];
  const gone: Array<{ lid: number; line: number }> = [];
  let from = 0;
  let to = 0;
  const copy = (until: number) => {
    h1.set(index.h1.subarray(from, until), to);
    h2.set(index.h2.subarray(from, until), to);
    lids.set(index.lids.subarray(from, until), to);
    to += until - from;
    from = until;
  };
  for (const r of rewrites) {
    copy(r.line);
    const rows = r.h1.length;
    const same = (k: number) => r.h1[k] === index.h1[r.line] && r.h2[k] === index.h2[r.line];
    const kept = rows === 0 ? -1 : same(0) ? 0 : same(rows - 1) ? rows - 1 : -1;
    for (let k = 0; k < rows; k++) {
      h1[to + k] = r.h1[k]!;
      h2[to + k] = r.h2[k]!;
      if (k === kept) lids[to + k] = index.lids[r.line]!;
      else fresh.push(to + k);
    }
    if (kept === -1) gone.push({ lid: index.lids[r.line]!, line: Math.min(to + 1, Math.max(count, 1)) });
    to += rows;
    from = r.line + 1;
  }
  copy(n);
  assignFresh(index, { h1, h2 }, lids, fresh);
  return { h1, h2, lids, retired: retire(index.retired, gone, day, count) };
}
