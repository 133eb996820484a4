// The index after an edit of one run of lines, made in the arrays of the index before it: a big
// file's edit (src/store/bigEdit.ts) holds one index of the file's size, not two. It gives the
// LIDs spliceIndex gives (test/model/spliceInPlace.test.ts checks it); what it cannot do without
// the old index whole (a line of the region moved within it, see pairUniqueMoves) it leaves to
// spliceIndex.

import { hashBytes } from './hash.js';
import { assignFresh, type LineIndex, range, retire, today, unchangedEnds } from './lineIndex.js';

/** An edit of one run of lines: old lines start..start+deleteCount-1 replaced by `insert`. */
export interface RunEdit {
  readonly start: number;
  readonly deleteCount: number;
  readonly insert: readonly Uint8Array[];
}

/** The lines an edit changes: its ends left as they were are taken off (see unchangedEnds). */
export interface ChangedRun {
  /** The fingerprints of the new lines, all of them. */
  readonly n1: Uint32Array;
  readonly n2: Uint32Array;
  /** Old lines from..oldTo-1 became new lines from..newTo-1. */
  readonly from: number;
  readonly oldTo: number;
  readonly newTo: number;
}

/**
 * The run of lines `edit` changes in an index whose fingerprints of the lines it replaces (and
 * nothing else) are read; undefined when a content is both among the old lines of the run and
 * the new ones: spliceIndex may pair them as moved, which only the whole index can tell.
 */
export function changedRun(old: Pick<LineIndex, 'h1' | 'h2'>, edit: RunEdit): ChangedRun | undefined {
  const { start, deleteCount, insert } = edit;
  const inserted = insert.length;
  const n1 = new Uint32Array(inserted);
  const n2 = new Uint32Array(inserted);
  insert.forEach((content, i) => {
    [n1[i], n2[i]] = hashBytes(content);
  });
  const { head, tail } = unchangedEnds(
    deleteCount,
    inserted,
    (i, j) => old.h1[start + i] === n1[j] && old.h2[start + i] === n2[j],
  );
  const from = start + head;
  const oldTo = start + deleteCount - tail;
  const newTo = start + inserted - tail;
  const left = new Set<string>();
  for (let i = from; i < oldTo; i++) left.add(`${old.h1[i]}:${old.h2[i]}`);
  for (let j = head; j < inserted - tail; j++) if (left.has(`${n1[j]}:${n2[j]}`)) return undefined;
  return { n1, n2, from, oldTo, newTo };
}

/**
 * The index after `edit`, made in `index`'s own arrays, which must have room for `room` more
 * lines after their end in their buffer (see Records.room). Gives also what the index held of the
 * lines the edit replaced and of the line on each side of them (`before`: its arrays are of the
 * old line count, but only those lines are filled in; the rest are zeros, memory never touched),
 * for what looks at them after (the history step, which keeps a line on each side). Undefined,
 * having changed nothing, when a line may have moved within the region (a content of an old line
 * of the region is that of a new one, but for those the edit left at its ends), or when there is
 * not room.
 */
export function spliceInPlace(
  index: LineIndex,
  room: number,
  edit: RunEdit,
  day = today(),
): { after: LineIndex; before: LineIndex } | undefined {
  const { start, deleteCount, insert } = edit;
  const n = index.lids.length;
  const end = start + deleteCount;
  const inserted = insert.length;
  const count = n - deleteCount + inserted;
  if (count > n + room) return undefined;
  const run = changedRun(index, edit);
  if (!run) return undefined;
  const { n1, n2, from, oldTo, newTo } = run;
  // What the old index held of the region, kept apart before it is written over.
  const before: LineIndex = {
    h1: new Uint32Array(n),
    h2: new Uint32Array(n),
    lids: new Uint32Array(n),
    retired: index.retired,
  };
  // The region and a line on each side: what a history step keeps of the side before (its hunks
  // are widened by a line, see hunksOf).
  const [kf, kt] = [Math.max(0, start - 1), Math.min(n, end + 1)];
  before.h1.set(index.h1.subarray(kf, kt), kf);
  before.h2.set(index.h2.subarray(kf, kt), kf);
  before.lids.set(index.lids.subarray(kf, kt), kf);
  const gone = index.lids.slice(from, oldTo);
  const grown = (a: Uint32Array) => new Uint32Array(a.buffer, a.byteOffset, Math.max(n, count));
  const [h1, h2, lids] = [grown(index.h1), grown(index.h2), grown(index.lids)];
  h1.copyWithin(start + inserted, end, n);
  h2.copyWithin(start + inserted, end, n);
  h1.set(n1, start);
  h2.set(n2, start);
  lids.copyWithin(newTo, oldTo, n);
  // The new lines' places hold no LID while they are given theirs: the LIDs in use are the
  // others, and those of the lines replaced.
  lids.fill(0, from, newTo);
  const hashes = { h1: h1.subarray(0, count), h2: h2.subarray(0, count) };
  const after = { ...hashes, lids: lids.subarray(0, count) };
  assignFresh({ ...after, retired: index.retired }, hashes, after.lids, range(from, newTo), 8, [after.lids, gone]);
  // A removed line's place is the one after the last kept line before it.
  const line = Math.min(from + 1, Math.max(count, 1));
  const retired = retire(
    index.retired,
    Array.from(gone, (lid) => ({ lid, line })),
    day,
    count,
  );
  return { after: { ...after, retired }, before };
}
