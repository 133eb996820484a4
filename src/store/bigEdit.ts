// An edit of a big file whose saved index still describes it, without reading the file whole:
// its change is planned against the saved index; only the blocks of lines around it are read
// (with the first lines, whose endings tell the line ending new lines take, and the last block,
// which tells whether the file ends with a newline), each line checked against its fingerprint
// in the index, and the change is made on those lines; a change of the line count (but by whole
// blocks) has the rest of the file scanned for where its checkpoints now fall. The rest of the
// file is copied from it as bytes while the new content is written (see Unread in writeFile.ts).
// The edit then takes the one write path as any other: the same transaction, stale check,
// history step and index save.
//
// The file's lines before and after are FileLines of the file's size whose line starts are
// known only where lines were read (and at the checkpoints after), and whose bytes are the
// file's only there (elsewhere zeros, never written: that memory is not even touched; the
// lines after have no bytes at all). What reads them (the report, the history step, the index)
// reads only lines around the change and the checkpoints; the parts written name the ranges
// never read (markUnread), whose bytes come from the file.

import { constants } from 'node:buffer';
import fs from 'node:fs';
import { READ_PLAIN } from './plainFile.js';
import { looksBinary, SNIFF_BYTES } from '../model/binary.js';
import { hashLines } from '../model/hash.js';
import type { LineIndex } from '../model/lineIndex.js';
import { applySplice, splicedIndex, type EditedFile } from '../model/edit.js';
import { EditSet } from '../model/editSet.js';
import { type RunEdit, spliceInPlace } from '../model/spliceInPlace.js';
import { spliceStreamed, type StreamedIndex } from '../model/streamedSplice.js';
import { RtError } from '../model/errors.js';
import { dominantEol, splitLines, type FileLines } from '../model/lines.js';
import { mergeRanges } from '../model/window.js';
import type { AppliedChanges, PlannedChange } from '../model/patch/plan.js';
import {
  markCheckpoints,
  markUnread,
  sameStamp,
  SMALL_CONTENT,
  stampOf,
  statFile,
  trustworthy,
  type Snapshot,
} from './indexedFile.js';
import { readInto } from './readAt.js';
import type { ResolvedPath } from './root.js';
import { BLOCK, type RecordsSource, SavedIndex, type FileStamp, UnreadIndex } from './savedIndex.js';
import type { StateStore } from './state.js';
import type { FileVersion, Unread } from './writeFile.js';

/** Files this big or bigger are edited without being read whole, when their saved index allows. */
export const BIG_EDIT_AT = SMALL_CONTENT;
/** The first lines read: dominantEol looks at the endings of the first 10,000. */
const FIRST_BLOCKS = Math.ceil(10_000 / BLOCK);
/** Lines read on each side of a change: the report's context (3) and the line before it that a splice looks at. */
const AROUND = 4;

/** An edit of a big file planned without reading it whole: the file as read, its change, and what was not read. */
export interface BigEdit {
  readonly snapshot: Snapshot;
  readonly applied: AppliedChanges;
  readonly unread: Unread;
}

/** How a big edit's planning finds lines by LID where the index is read only around the change (see LidLookup). */
export interface LidLookup {
  /** 0-based line holding LID `code`, or -1; `hints`: lines (1-based) where it was shown, looked at first. */
  lineOf(code: number, hints: readonly number[]): number;
  /** LID code of 0-based line i. */
  lidCodeAt(i: number): number;
}

/**
 * The plan of a big edit: given the file's lines (only their count may be looked at), its index,
 * and with an index read only around the change, how to find lines by LID in it.
 */
export type BigPlan = (lines: FileLines, index: LineIndex, lookup?: LidLookup) => readonly PlannedChange[];

/** Indexes of this many lines or more are read only around an edit's change (see spliceStreamed). */
export const STREAM_LINES = 64 * BLOCK;

/**
 * The edit `plan` makes of `file` (pinned in its folder), read only around its change: undefined
 * when the file is smaller than BIG_EDIT_AT, its saved index cannot stand in for reading it
 * (none, or a stamp that cannot be trusted alone), its change is not one run of lines, a line
 * read is not the one the index describes, or the edit changes nothing: the file is then read
 * whole as usual. `plan` is given the file's lines (only their count may be looked at) and its
 * index, and refuses as it would for a file read whole. A big index is read only around the
 * change too (spliceStreamed); where that cannot be (a line moved within the region, a refusal,
 * a line named far from the others), the whole index is read as before.
 */
export function editAround(
  store: StateStore,
  file: ResolvedPath,
  version: FileVersion,
  plan: BigPlan,
): BigEdit | undefined {
  const stamp = statFile(file);
  if (stamp.size < BIG_EDIT_AT || stamp.size > constants.MAX_LENGTH || stamp.size !== version.size) return undefined;
  const saved = SavedIndex.open(store, file.rel);
  if (!saved || !trustworthy(saved.head, stamp)) return undefined;
  if (saved.head.lines >= STREAM_LINES) {
    const streamed = streamedReading(saved);
    if (streamed) {
      try {
        const edit = editWith(file, version, stamp, saved, streamed, plan);
        if (edit !== FALL_BACK) return edit;
      } catch (error) {
        // An index that proved damaged was set aside: the file is read whole, as for none.
        if (error instanceof UnreadIndex) return undefined;
        // A refusal is made again with the whole index, which says it whole.
        if (!(error instanceof RtError)) throw error;
      }
    }
  }
  const whole = wholeReading(saved);
  if (!whole) return undefined;
  const edit = editWith(file, version, stamp, saved, whole, plan);
  return edit === FALL_BACK ? undefined : edit;
}

/** Said by editWith when the index as read cannot make the edit: the whole index is read instead. */
const FALL_BACK = Symbol('fall back');

/** A saved index as an edit reads it: whole, or only around the change. */
interface Reading {
  /** The index before; when partial, its arrays are filled in only where `load` put lines. */
  readonly index: LineIndex;
  readonly partial: boolean;
  load(from: number, to: number): void;
  readonly lookup?: LidLookup & { covers(from: number, to: number): boolean };
  /**
   * The index after `change`, filled in at least for lines `fill` (new numbering), and what the
   * history keeps of the one before.
   */
  after(change: PlannedChange, fill: readonly [number, number]): { after: LineIndex; before: LineIndex } | undefined;
  readonly text: Buffer | RecordsSource;
}

/** The whole index read, as a big edit read it before it could read it by the piece. */
function wholeReading(saved: SavedIndex): Reading | undefined {
  const records = saved.records();
  const retired = records && saved.retired();
  if (!records || !retired) return undefined;
  const index: LineIndex = { h1: records.h1, h2: records.h2, lids: records.lids, retired };
  return {
    index,
    partial: false,
    load: () => {},
    // The index after the change, made in the arrays of the one before when it can be: one index of
    // the file's size is held, not two.
    after: (change: PlannedChange) => {
      const inPlace = spliceInPlace(index, records.room, change);
      return inPlace ?? { after: splicedIndex(index, change), before: index };
    },
    text: records.text,
  };
}

/** The index read only where the edit needs it (see spliceStreamed), and lines found by LID a block at a time. */
function streamedReading(saved: SavedIndex): Reading | undefined {
  const old = saved.streamed();
  if (!old) return undefined;
  const index: LineIndex = { h1: old.h1, h2: old.h2, lids: old.lids, retired: old.retired };
  const lines = old.lids.length;
  // The blocks the planning looked at, one run: every line between two it named is read.
  let span: [number, number] | undefined;
  const touch = (i: number) => {
    const b = Math.floor(i / BLOCK);
    span = span ? [Math.min(span[0], b), Math.max(span[1], b + 1)] : [b, b + 1];
    old.load(span[0] * BLOCK, Math.min(lines, span[1] * BLOCK));
  };
  const found = new Map<number, number>();
  const lookup = {
    lineOf(code: number, hints: readonly number[]) {
      for (const hint of hints) {
        const i = hint - 1;
        if (i < 0 || i >= lines) continue;
        old.load(i, i + 1);
        if (old.lids[i] === code) {
          touch(i);
          return i;
        }
      }
      let at = found.get(code);
      if (at === undefined) {
        at = -1;
        old.pieces((from, _h1, _h2, lids) => {
          const k = at === -1 ? lids.indexOf(code) : -1;
          if (k >= 0) at = from + k;
        });
        found.set(code, at);
      }
      if (at >= 0) touch(at);
      return at;
    },
    lidCodeAt(i: number) {
      touch(i);
      return old.lids[i]!;
    },
    covers: (from: number, to: number) =>
      from >= to || (span !== undefined && span[0] * BLOCK <= from && to <= Math.min(lines, span[1] * BLOCK)),
  };
  return {
    index,
    partial: true,
    load: (from, to) => old.load(from, to),
    lookup,
    after: (change, fill) => {
      const after = spliceStreamed(old, change, fill);
      if (!after) return undefined;
      // The records kept are copied, and the digests of blocks they fill re-taken from them, as read:
      // every block is checked first, here when no pass over them was made (a pure deletion).
      old.check();
      partialIndexes.set(after, () => wholeAfter(old, change, after));
      return { after, before: index };
    },
    text: saved.recordsText(),
  };
}

/** Indexes made only around a big edit's change, and how to have each whole (see wholeIndex). */
const partialIndexes = new WeakMap<LineIndex, () => LineIndex>();

/**
 * `index` whole: the index a big edit made only around its change (see spliceStreamed) completed
 * from the saved records, read again; any other, as it is. Only what cannot do with the lines
 * around the change asks for it (a reading of the file that reconciles with it whole).
 */
export function wholeIndex(index: LineIndex): LineIndex {
  return partialIndexes.get(index)?.() ?? index;
}

/** The index `after` (of `change` of `old`, filled in around it) with every line filled in. */
function wholeAfter(old: StreamedIndex, change: RunEdit, after: LineIndex): LineIndex {
  const h1 = after.h1.slice();
  const h2 = after.h2.slice();
  const lids = after.lids.slice();
  const { start, deleteCount, insert } = change;
  const shift = insert.length - deleteCount;
  old.pieces((from, a1, a2, l) => {
    for (let k = 0; k < a1.length; k++) {
      const i = from + k;
      if (i >= start && i < start + deleteCount) continue;
      const j = i < start ? i : i + shift;
      if (lids[j] !== 0) continue;
      [h1[j], h2[j], lids[j]] = [a1[k]!, a2[k]!, l[k]!];
    }
  });
  return { h1, h2, lids, retired: after.retired };
}

/** The edit `plan` makes of `file`, read only around its change, with its index as `reading` reads it. */
function editWith(
  file: ResolvedPath,
  version: FileVersion,
  stamp: FileStamp,
  saved: SavedIndex,
  reading: Reading,
  plan: BigPlan,
): BigEdit | undefined | typeof FALL_BACK {
  const head = saved.head;
  const index = reading.index;
  const retired = index.retired;
  const count = head.lines;
  const blocks = head.checkpoints.length;
  // Zero-filled memory of the file's size: pages never written are never made resident.
  const lines = {
    bytes: Buffer.alloc(stamp.size),
    bomLength: 0,
    count,
    starts: new Uint32Array(count + 1),
    contentEnds: new Uint32Array(count),
  };
  const changes = plan(lines, index, reading.lookup);
  const change = changes.length === 1 ? changes[0]! : undefined;
  if (!change) return undefined;
  // A line the planning read where the index was not read: made again with the whole index.
  if (reading.lookup && !reading.lookup.covers(change.start, change.start + change.deleteCount)) return FALL_BACK;
  const from = Math.floor(Math.max(0, change.start - AROUND) / BLOCK);
  const to = Math.ceil(Math.min(count, change.start + change.deleteCount + AROUND) / BLOCK);
  // The first lines, and at least the bytes a binary file is told by.
  let first = Math.min(blocks, FIRST_BLOCKS);
  while (first < blocks && head.checkpoints[first]! < SNIFF_BYTES) first++;
  const ranges = mergeRanges([
    [0, first],
    [from, Math.max(to, from + 1)],
    [Math.max(0, blocks - 1), blocks],
  ]);
  for (const [f, t] of ranges) reading.load(f * BLOCK, Math.min(count, t * BLOCK));
  const shift = change.insert.length - change.deleteCount;
  // The blocks read around the change (with any read next to them): the rest is copied from the file.
  const [readFrom, readTo] = ranges.find(([f, t]) => f <= from && from < t)!;
  // A change of the line count (but by whole blocks) moves the checkpoints after it onto lines
  // that the rest of the file is scanned for.
  const moved = new Map<number, number>();
  const scan =
    shift % BLOCK === 0 || readTo >= blocks
      ? undefined
      : { from: readTo, shift, found: (line: number, at: number) => moved.set(line, at) };
  const read = readBlocks(file, stamp, head.checkpoints, count, lines, index, ranges, scan);
  if (!read) return undefined;
  lines.bomLength = read.bomLength;
  lines.starts[count] = stamp.size;
  if (looksBinary(lines.bytes.subarray(0, Math.min(SNIFF_BYTES, read.firstEnd)))) return undefined;
  // The change made on the lines read (with the file's own line ending), its index on the whole file's.
  const windowStart = blockStart(head.checkpoints, readFrom);
  const windowEnd = readTo < blocks ? head.checkpoints[readTo]! : stamp.size;
  const firstLine = readFrom * BLOCK;
  const lineCount = Math.min(count, readTo * BLOCK) - firstLine;
  const window = splitLines(lines.bytes.subarray(windowStart, windowEnd), readFrom === 0, lineCount);
  const part = (a: Uint32Array) => a.subarray(firstLine, firstLine + lineCount);
  const edited = applySplice(
    window,
    { h1: part(index.h1), h2: part(index.h2), lids: part(index.lids), retired },
    { start: change.start - firstLine, deleteCount: change.deleteCount, insert: change.insert },
    dominantEol(lines),
  );
  // An edit giving the same bytes writes nothing: its parts would never be digested as written.
  if (edited.unchanged) return undefined;
  const parts = [lines.bytes.subarray(0, windowStart), ...edited.parts, lines.bytes.subarray(windowEnd)];
  const size = parts.reduce((n, p) => n + p.length, 0);
  const tailAt = size - (stamp.size - windowEnd);
  // The first bytes of the new content, which tell a binary file, must be bytes read.
  if (size < BIG_EDIT_AT || (tailAt < SNIFF_BYTES && windowEnd < stamp.size)) return undefined;
  // Where checkpoint line k of the new content starts: before the change, where it did; after it,
  // where the old line now there did, moved by the change in size; -1 when not known.
  const checkpoint = (k: number) => {
    if (k < firstLine) return head.checkpoints[k / BLOCK]!;
    const old = k - shift;
    const was = old % BLOCK === 0 ? head.checkpoints[old / BLOCK] : moved.get(old);
    return was === undefined ? -1 : was + size - stamp.size;
  };
  const placed = { first: firstLine, at: windowStart, total: count + shift, size, bomLength: lines.bomLength };
  const after = linesAfter(edited, placed, checkpoint, reading.partial);
  if (!after) return undefined;
  // The index after the change: at least the lines read, and the blocks whose digests the change makes anew.
  const fill = [
    Math.min(firstLine, Math.floor(change.start / BLOCK) * BLOCK),
    Math.max(firstLine + edited.lines.count, Math.ceil((change.start + change.insert.length) / BLOCK) * BLOCK),
  ] as const;
  const made = reading.after(change, fill);
  if (!made) return FALL_BACK;
  markUnread(parts);
  const applied: AppliedChanges = {
    lines: after,
    parts,
    index: made.after,
    unchanged: false,
    content: (i) => {
      if (i < firstLine || i >= firstLine + edited.lines.count)
        throw new Error(`line ${i + 1} of ${file.display} was not read`);
      return edited.content(i - firstLine);
    },
    edits: EditSet.of([change]),
    lenient: [],
  };
  const unread: Unread = {
    version,
    ranges: [
      { at: 0, from: 0, length: windowStart },
      { at: tailAt, from: windowEnd, length: stamp.size - windowEnd },
    ],
  };
  const snapshot: Snapshot = {
    file,
    lines,
    index: made.before,
    stamp,
    stale: false,
    saved: { text: reading.text, blocks: head.blocks, ...(reading.partial ? { partial: true } : {}) },
  };
  return { snapshot, applied, unread };
}

/**
 * The lines of the file after the change: `total` lines, of `size` bytes, those of `edited` (the
 * lines read, changed) from line `first` on, at byte `at`; of the others, only the starts of
 * checkpoint lines (`checkpoint`, negative when not known), which is what the index keeps.
 * Undefined when one is not known (the scan did not find it).
 */
function linesAfter(
  edited: EditedFile,
  placed: { first: number; at: number; total: number; size: number; bomLength: number },
  checkpoint: (line: number) => number,
  sparse: boolean,
): FileLines | undefined {
  const { first, at, total, size } = placed;
  const starts = new Uint32Array(total + 1);
  const contentEnds = new Uint32Array(total);
  const read = edited.lines;
  for (let i = 0; i < read.count; i++) {
    starts[first + i] = at + read.starts[i]!;
    contentEnds[first + i] = at + read.contentEnds[i]!;
  }
  // The checkpoints apart, when sparse: one in the line starts would touch every page of them.
  const checkpoints: number[] = [];
  for (let k = 0; k < total; k += BLOCK) {
    const start = k >= first && k < first + read.count ? starts[k]! : checkpoint(k);
    if (!(start >= 0)) return undefined;
    if (sparse) checkpoints.push(start);
    else starts[k] = start;
  }
  starts[total] = size;
  const lines = {
    get bytes(): Buffer {
      throw new Error('the lines of a big file edited around its change were not read whole');
    },
    bomLength: placed.bomLength,
    count: total,
    starts,
    contentEnds,
  };
  if (sparse) markCheckpoints(lines, checkpoints);
  return lines;
}

/** Where block `b` starts in the file: its checkpoint, but the first block with the BOM before its first line. */
function blockStart(checkpoints: readonly number[], b: number): number {
  return b === 0 ? 0 : checkpoints[b]!;
}

/**
 * Reads the blocks `ranges` of the file (still the version `stamp`) into `lines` at their
 * places, and fills in their lines' starts and content ends; undefined when a line read is not
 * the one `index` describes there, or the file changed meanwhile. Also: the BOM's length, and
 * where the first range read ends.
 */
function readBlocks(
  file: ResolvedPath,
  stamp: FileStamp,
  checkpoints: readonly number[],
  count: number,
  lines: FileLines,
  index: LineIndex,
  ranges: ReadonlyArray<[number, number]>,
  scan: { readonly from: number; readonly shift: number; found(line: number, at: number): void } | undefined,
): { bomLength: number; firstEnd: number } | undefined {
  const fd = fs.openSync(file.abs, READ_PLAIN);
  try {
    const same = () => sameStamp(stampOf(fs.fstatSync(fd, { bigint: true })), stamp);
    if (!same()) return undefined;
    let bomLength = 0;
    let firstEnd = 0;
    for (const [from, to] of ranges) {
      const start = blockStart(checkpoints, from);
      const end = to < checkpoints.length ? checkpoints[to]! : stamp.size;
      const bytes = lines.bytes.subarray(start, end);
      if (readInto(fd, bytes, start) !== bytes.length) return undefined;
      const first = from * BLOCK;
      const expected = Math.min(count, to * BLOCK) - first;
      const part = splitLines(bytes, start === 0, expected);
      if (part.count !== expected) return undefined;
      if (start === 0) {
        bomLength = part.bomLength;
        firstEnd = end;
      }
      const hashes = hashLines(part);
      for (let i = 0; i < part.count; i++) {
        if (hashes.h1[i] !== index.h1[first + i] || hashes.h2[i] !== index.h2[first + i]) return undefined;
        lines.starts[first + i] = start + part.starts[i]!;
        lines.contentEnds[first + i] = start + part.contentEnds[i]!;
      }
    }
    if (scan && !startsAfter(fd, checkpoints[scan.from]!, scan.from * BLOCK, { size: stamp.size, count }, scan))
      return undefined;
    return same() ? { bomLength, firstEnd } : undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** Bytes of the file scanned at a time for its line starts (startsAfter); resident at the edit's peak. */
const SCAN_PIECE = 1 << 18;

/**
 * Finds the starts of the lines from `line` on (the one at byte `at`) to the file's end that will
 * be checkpoints once `shift` lines are added before them (those whose number plus `shift` is a
 * multiple of BLOCK), and gives each to `found`. False when the file (of `size` bytes) does not
 * have `count` lines (it changed meanwhile).
 */
function startsAfter(
  fd: number,
  at: number,
  line: number,
  file: { readonly size: number; readonly count: number },
  scan: { readonly shift: number; found(line: number, at: number): void },
): boolean {
  const { size, count } = file;
  const piece = Buffer.allocUnsafe(SCAN_PIECE);
  const wanted = (n: number) => (((n + scan.shift) % BLOCK) + BLOCK) % BLOCK === 0;
  let n = line;
  if (wanted(n)) scan.found(n, at);
  for (let offset = at; offset < size; ) {
    const got = readInto(fd, piece.subarray(0, Math.min(SCAN_PIECE, size - offset)), offset);
    if (got === 0) return false;
    for (let nl = piece.indexOf(0x0a); nl !== -1 && nl < got; nl = piece.indexOf(0x0a, nl + 1)) {
      // A newline ending the file starts no line.
      if (offset + nl + 1 >= size) break;
      n++;
      if (n >= count) return false;
      if (wanted(n)) scan.found(n, offset + nl + 1);
    }
    offset += got;
  }
  return n === count - 1;
}
