// An edit of a big file whose saved index still describes it, without reading the file whole:
// its changes are planned against the saved index; only the blocks of lines around them are read
// (with the first lines, whose endings tell the line ending new lines take, and the last block,
// which tells whether the file ends with a newline), each line checked against its fingerprint in
// the index; a change of the line count (but by whole blocks) has the rest of the file scanned for
// where its checkpoints now fall; the rest of the file is copied from it as bytes while the new content is written
// (see Unread in writeFile.ts). The edit then takes the one write path as any other: the same
// transaction, stale check, history step and index save.
//
// The file's lines are held as a FileLines of the file's size whose bytes and line starts are
// those of the file only where they were read (elsewhere zeros, never written: the memory is not
// even touched). Whatever reads them (the splice, the report, the history step) reads only lines
// around the change; the parts written name the ranges never read (markUnread), whose bytes come
// from the file.

import { constants } from 'node:buffer';
import fs from 'node:fs';
import { looksBinary, SNIFF_BYTES } from '../model/binary.js';
import { hashBytes } from '../model/hash.js';
import type { LineIndex } from '../model/lineIndex.js';
import { splitLines, type FileLines } from '../model/lines.js';
import { applyChanges, type AppliedChanges, type PlannedChange } from '../model/patch/plan.js';
import { markUnread, sameStamp, SMALL_CONTENT, stampOf, statFile, trustworthy, type Snapshot } from './indexedFile.js';
import { readInto } from './readAt.js';
import type { ResolvedPath } from './root.js';
import { BLOCK, SavedIndex, type FileStamp } from './savedIndex.js';
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

/**
 * The edit `plan` makes of `file` (pinned in its folder), read only around its change: undefined
 * when the file is smaller than BIG_EDIT_AT, its saved index cannot stand in for reading it
 * (none, or a stamp that cannot be trusted alone), its change is not one run of lines, a line
 * read is not the one the index describes, or the edit changes nothing: the file is then read
 * whole as usual. `plan` is given the file's lines (only their count may be looked at) and its
 * index, and refuses as it would for a file read whole.
 */
export function editAround(
  store: StateStore,
  file: ResolvedPath,
  version: FileVersion,
  plan: (lines: FileLines, index: LineIndex) => readonly PlannedChange[],
): BigEdit | undefined {
  const stamp = statFile(file);
  if (stamp.size < BIG_EDIT_AT || stamp.size > constants.MAX_LENGTH || stamp.size !== version.size) return undefined;
  const saved = SavedIndex.open(store, file.rel);
  if (!saved || !trustworthy(saved.head, stamp)) return undefined;
  const records = saved.records();
  const retired = records && saved.retired();
  if (!records || !retired) return undefined;
  const head = saved.head;
  const index: LineIndex = { h1: records.h1, h2: records.h2, lids: records.lids, retired };
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
  const changes = plan(lines, index);
  const change = changes.length === 1 ? changes[0]! : undefined;
  if (!change) return undefined;
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
  head.checkpoints.forEach((at, b) => {
    lines.starts[b * BLOCK] = at;
  });
  // A change of the line count by whole blocks leaves the checkpoints after it on lines the saved
  // ones locate; any other, on lines of the rest of the file found by scanning it.
  const shift = change.insert.length - change.deleteCount;
  const scan = shift % BLOCK === 0 || to >= blocks ? undefined : { from: to, shift };
  const read = readBlocks(file, stamp, head.checkpoints, count, lines, index, ranges, scan);
  if (!read) return undefined;
  lines.bomLength = read.bomLength;
  lines.starts[count] = stamp.size;
  if (looksBinary(lines.bytes.subarray(0, Math.min(SNIFF_BYTES, read.firstEnd)))) return undefined;
  const applied = applyChanges(lines, index, changes);
  // An edit giving the same bytes writes nothing: its parts would never be digested as written.
  if (applied.unchanged) return undefined;
  // The blocks read around the change (with any read next to them): the rest is copied from the file.
  const [readFrom, readTo] = ranges.find(([f, t]) => f <= from && from < t)!;
  const windowStart = blockStart(head.checkpoints, readFrom);
  const windowEnd = readTo < blocks ? head.checkpoints[readTo]! : stamp.size;
  const size = applied.parts.reduce((n, part) => n + part.length, 0);
  const tailAt = size - (stamp.size - windowEnd);
  // The first bytes of the new content, which tell a binary file, must be bytes read.
  if (size < BIG_EDIT_AT || (tailAt < SNIFF_BYTES && windowEnd < stamp.size)) return undefined;
  markUnread(applied.parts);
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
    index,
    stamp,
    stale: false,
    saved: { text: records.text, blocks: head.blocks },
  };
  return { snapshot, applied, unread };
}

/** Where block `b` starts in the file: its checkpoint, but the first block with the BOM before its first line. */
function blockStart(checkpoints: readonly number[], b: number): number {
  return b === 0 ? 0 : checkpoints[b]!;
}

/** Block ranges [from, to) sorted and joined where they meet. */
function mergeRanges(ranges: Array<[number, number]>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const [from, to] of ranges.filter(([f, t]) => f < t).sort((a, b) => a[0] - b[0])) {
    const last = out[out.length - 1];
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
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
  scan: { readonly from: number; readonly shift: number } | undefined,
): { bomLength: number; firstEnd: number } | undefined {
  const fd = fs.openSync(file.abs, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
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
      for (let i = 0; i < part.count; i++) {
        const [h1, h2] = hashBytes(bytes.subarray(part.starts[i]!, part.contentEnds[i]!));
        if (h1 !== index.h1[first + i] || h2 !== index.h2[first + i]) return undefined;
        lines.starts[first + i] = start + part.starts[i]!;
        lines.contentEnds[first + i] = start + part.contentEnds[i]!;
      }
    }
    if (scan && !startsAfter(fd, checkpoints[scan.from]!, scan.from * BLOCK, stamp.size, count, scan.shift, lines))
      return undefined;
    return same() ? { bomLength, firstEnd } : undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** Bytes of the file scanned at a time for its line starts (startsAfter). */
const SCAN_PIECE = 1 << 20;

/**
 * Fills in the starts of the lines from `line` on (the one at byte `at`) to the file's end (of
 * `size` bytes and `count` lines) that will be checkpoints once `shift` lines are added before
 * them: those whose number plus `shift` is a multiple of BLOCK. False when the file does not have
 * `count` lines (it changed meanwhile).
 */
function startsAfter(
  fd: number,
  at: number,
  line: number,
  size: number,
  count: number,
  shift: number,
  lines: FileLines,
): boolean {
  const piece = Buffer.allocUnsafe(SCAN_PIECE);
  const wanted = (n: number) => (((n + shift) % BLOCK) + BLOCK) % BLOCK === 0;
  let n = line;
  if (wanted(n)) lines.starts[n] = at;
  for (let offset = at; offset < size; ) {
    const got = readInto(fd, piece.subarray(0, Math.min(SCAN_PIECE, size - offset)), offset);
    if (got === 0) return false;
    for (let nl = piece.indexOf(0x0a); nl !== -1 && nl < got; nl = piece.indexOf(0x0a, nl + 1)) {
      // A newline ending the file starts no line.
      if (offset + nl + 1 >= size) break;
      n++;
      if (n >= count) return false;
      if (wanted(n)) lines.starts[n] = offset + nl + 1;
    }
    offset += got;
  }
  return n === count - 1;
}
