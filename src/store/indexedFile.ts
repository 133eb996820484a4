// A text file with its LIDs: loads the saved index when the file is unchanged (reading only the
// bytes a window needs), otherwise reads and fingerprints the whole file and reconciles the saved
// LIDs with what it holds now, then saves the result.

import fs from 'node:fs';
import path from 'node:path';
import { READ_PLAIN } from './plainFile.js';
import { looksBinary, SNIFF_BYTES } from '../model/binary.js';
import { ChunkCrcs, crc32Combine, crcOn } from '../model/crc32.js';
import { digestBytes } from '../model/digest.js';
import { RtError, quotePath } from '../model/errors.js';
import { hashBytes, hashLines, type LineHashes } from '../model/hash.js';
import { buildIndex, reconcileIndex, retiredLine, type LineIndex } from '../model/lineIndex.js';
import { BOM, hasBom, LF, lineContent, splitLines, type FileLines } from '../model/lines.js';
import { lineContentRange } from '../model/lineScan.js';
import { lineMemory, newlineCounter } from '../model/wasmLines.js';
import { zlib } from '../io/builtins.js';
import { readAt, readInto } from './readAt.js';
import type { ResolvedPath } from './root.js';
import {
  BLOCK,
  SavedIndex,
  saveIndexFile,
  type FileStamp,
  type IndexHead,
  type KeptRecords,
  type RecordsSource,
} from './savedIndex.js';
import { SCAN_PIECE, scanFile } from './scanFile.js';
import type { StateStore } from './state.js';

/** A file modified this recently may change again within its timestamp's granularity. */
const RACY_MS = 2000;
/** Files this big or bigger are first read a piece at a time (scanFile), unless just changed. */
const SCAN_AT = 8 << 20;
/**
 * Files this big or bigger are read whole into WebAssembly memory and split there (wasmLines.ts); under it, that gains
 * less than it costs to set up.
 */
const BIG_READ = 1 << 20;
/**
 * Bytes fs.readSync reads at most in one call (its length must be a 32-bit signed integer), and
 * the most fs.readFileSync reads: a file of this many bytes or more (room for a byte more is
 * read) is left to readFileSync, which reads up to this size and refuses a bigger one as before.
 */
const MOST_READ = 2 ** 31 - 1;
/**
 * Files up to this size get a content digest in JavaScript; bigger ones, zlib's CRC-32 (in C, several times faster in
 * bulk, but a module to load).
 */
export const SMALL_CONTENT = 1 << 20;

export interface IndexedFile {
  readonly path: ResolvedPath;
  /** Number of lines. */
  readonly total: number;
  /** Content bytes of lines from..to-1 (0-based). */
  contents(from: number, to: number): Buffer[];
  /** LID codes of lines from..to-1. */
  lids(from: number, to: number): Uint32Array;
  /** 0-based line now holding LID `code`, or -1. */
  lineOf(code: number): number;
  /** For an LID of this file since retired, where its line was right after it changed (1-based); else undefined. */
  retiredLine(code: number): number | undefined;
  /**
   * Saves the index if reading brought it up to date. Called once the command has succeeded. A
   * function of its own, called alone: a search keeps it, not the file read, until it prints.
   */
  readonly persist: () => void;
}

/**
 * Opens `file` (which must exist) as a text file with its LIDs. The updated index is saved by
 * `persist()`, so that a command refused later writes no state.
 */
export function openIndexed(store: StateStore, file: ResolvedPath): IndexedFile {
  const before = statFile(file);
  const saved = SavedIndex.open(store, file.rel);
  if (saved && trustworthy(saved.head, before)) return warmFile(store, file, saved);
  return coldFile(store, file, saved, before);
}

/** The size from which a file is refused as too big to read (see statFile). */
const FOUR_GIB = 2n ** 32n;

export function statFile(file: ResolvedPath): FileStamp {
  let st: fs.BigIntStats;
  try {
    // Not following a link: `abs` is a real path, so a link found there now was swapped in
    // since the path was checked, and may lead outside the root.
    st = fs.lstatSync(file.abs, { bigint: true });
  } catch (error) {
    throw accessError(file, error);
  }
  // The kind told by one number, not by the BigInt arithmetic of each of isSymbolicLink, isDirectory and isFile
  // (a search stats every file it found).
  const kind = Number(st.mode) & fs.constants.S_IFMT;
  if (kind === fs.constants.S_IFLNK) throw swappedForLink(file);
  if (kind === fs.constants.S_IFDIR) {
    throw new RtError('access', `${file.display} is a directory`, [
      `see its entries: rt open ${quotePath(file.display)}`,
    ]);
  }
  if (kind !== fs.constants.S_IFREG)
    throw new RtError('access', `${file.display} is not a regular file`, ['rt reads regular text files only']);
  if (st.size >= FOUR_GIB)
    throw new RtError('input', `${file.display} is larger than 4 GiB`, [
      'split it, or use a streaming tool such as sed',
    ]);
  return stampOf(st);
}

export function stampOf(st: fs.BigIntStats): FileStamp {
  return { size: Number(st.size), mtimeNs: String(st.mtimeNs), ctimeNs: String(st.ctimeNs), ino: String(st.ino) };
}

export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs && a.ino === b.ino;
}

/**
 * The file as its saved index describes it, reading only the byte ranges and the records asked
 * for. Should the index prove damaged, or be replaced by another rt meanwhile, the file is read
 * whole instead (against the index saved now, if any).
 */
function warmFile(store: StateStore, file: ResolvedPath, saved: SavedIndex): IndexedFile {
  const head = saved.head;
  let whole: IndexedFile | undefined;
  const cold = () => (whole ??= coldFile(store, file, SavedIndex.open(store, file.rel), statFile(file)));
  let all: Uint32Array | undefined;
  const fromDisk = linesFromDisk(file, head.checkpoints, head.file);
  return {
    path: file,
    get total() {
      return whole ? whole.total : head.lines;
    },
    contents: (from, to) => (whole ? whole.contents(from, to) : fromDisk(from, to)),
    lids: (from, to) => (whole ? undefined : saved.lids(from, to)) ?? cold().lids(from, to),
    lineOf(code) {
      if (!whole) all ??= saved.records()?.lids;
      return all && !whole ? all.indexOf(code) : cold().lineOf(code);
    },
    retiredLine(code) {
      const retired = whole ? undefined : saved.retired();
      return retired ? retiredLine(retired, code) : cold().retiredLine(code);
    },
    persist: () => whole?.persist(),
  };
}

/** A file's saved index found, when checked, to describe the file as it was then (see trustedIndex). */
export interface TrustedIndex {
  readonly saved: SavedIndex;
}

/**
 * The saved index of a file, when the file has the stamp the index was made from and that stamp
 * can be trusted alone: the file is then the very text file the index describes, and lines read
 * of it since can be checked against the index's fingerprints (see indexedLinesAsRead).
 * Undefined when there is no index, or the stamp cannot tell (the file is then to be read).
 */
export function trustedIndex(store: StateStore, file: ResolvedPath): TrustedIndex | undefined {
  // The index first: a file with none (the first search of a tree) costs no stat here.
  const saved = SavedIndex.open(store, file.rel);
  if (!saved) return undefined;
  let stamp: FileStamp;
  try {
    // (A link swapped in shows here, and is refused: nothing is read through the path anyway.)
    stamp = statFile(file);
  } catch {
    return undefined;
  }
  return trustworthy(saved.head, stamp) ? { saved } : undefined;
}

/**
 * The LIDs of lines that another reader of the file found (ripgrep or git grep, a search's hits),
 * from its saved index and without reading the file: when the file has the stamp the index was
 * made from, a stamp to be trusted alone (as openIndexed's warm path asks), and each line given
 * has the fingerprint the index holds at its number. A reading of the file now gives those lines
 * those contents (then given back), and `rt open` those LIDs. Undefined otherwise (a line read
 * from another version, a stamp that cannot tell, no index): the file is then to be read.
 *
 * `numbers`: 0-based, ascending; `read`: each one's bytes as the reader gave them, without the
 * \n (with a \r before it, and on line 0 a BOM).
 */
export function indexedLinesAsRead(
  store: StateStore,
  file: ResolvedPath,
  numbers: readonly number[],
  read: readonly Buffer[],
  checked: TrustedIndex | undefined = trustedIndex(store, file),
): { lids: Uint32Array; contents: Buffer[] } | undefined {
  if (!checked) return undefined;
  const { saved } = checked;
  const total = saved.head.lines;
  // Only the blocks holding the lines are read, each checked against its digest.
  const words = saved.wordsAt(numbers);
  if (!words) return undefined;
  const lids = new Uint32Array(numbers.length);
  const contents: Buffer[] = [];
  for (let k = 0; k < numbers.length; k++) {
    const content = contentAsIndexed(read[k]!, numbers[k]!, total, words[k * 3]!, words[k * 3 + 1]!);
    if (!content) return undefined;
    contents.push(content);
    lids[k] = words[k * 3 + 2]!;
  }
  return { lids, contents };
}

/**
 * The content of line `n` (of `total`) read as `line` (see indexedLinesAsRead), if it has the
 * fingerprint h1, h2. A \r ending it is its line ending's, but on the last line, which may lack
 * a \n: there the fingerprint tells.
 */
function contentAsIndexed(line: Buffer, n: number, total: number, h1: number, h2: number): Buffer | undefined {
  const bare = n === 0 && hasBom(line) ? line.subarray(BOM.length) : line;
  const fits = (content: Buffer) => {
    const [a, b] = hashBytes(content);
    return a === h1 && b === h2;
  };
  if (bare[bare.length - 1] !== 0x0d) return fits(bare) ? bare : undefined;
  const stripped = bare.subarray(0, -1);
  if (fits(stripped)) return stripped;
  return n === total - 1 && fits(bare) ? bare : undefined;
}

/**
 * Files this big or bigger with no saved index have an edit of a line never shown refused before
 * they are read whole (see unreadText): under it, reading them to say where the line is costs little.
 */
const UNREAD_REFUSAL_AT = 1 << 20;

/**
 * A text file rt has kept no index of (so no line of it can have been shown with state kept),
 * big enough that indexing it costs (see UNREAD_REFUSAL_AT): what an edit naming one of its lines
 * may be refused with at once. Undefined for a smaller, a binary or an indexed file: it is read
 * whole as usual. `linesUpTo(n)`: the file's line count, counted no further than n.
 */
export function unreadText(
  store: StateStore,
  file: ResolvedPath,
): { readonly linesUpTo: (most: number) => number } | undefined {
  const stamp = statFile(file);
  if (stamp.size < UNREAD_REFUSAL_AT || SavedIndex.open(store, file.rel)) return undefined;
  const head = withFile(file, (fd) => readAt(fd, 0, SNIFF_BYTES));
  if (looksBinary(head)) return undefined;
  return { linesUpTo: (most) => withFile(file, (fd) => countLinesUpTo(fd, most)) };
}

/** The lines of an open file (the last one may lack its newline), counted no further than `most`. */
function countLinesUpTo(fd: number, most: number): number {
  const counter = newlineCounter(SCAN_PIECE);
  const piece = counter?.bytes ?? Buffer.allocUnsafe(SCAN_PIECE);
  let lines = 0;
  let at = 0;
  let last = LF;
  for (;;) {
    const n = readInto(fd, piece, at);
    if (n === 0) return last === LF ? lines : lines + 1;
    at += n;
    if (counter) {
      const found = counter.newlines(n);
      // The count reached at the newline where the loop below would stop.
      if (found > 0 && lines + found >= most) return Math.max(most, lines + 1);
      lines += found;
    } else
      for (let nl = piece.indexOf(LF); nl !== -1 && nl < n; nl = piece.indexOf(LF, nl + 1))
        if (++lines >= most) return lines;
    last = piece[n - 1]!;
  }
}

/** `use` given the file opened for reading (not through a link); access errors as rt says them. */
function withFile<T>(file: ResolvedPath, use: (fd: number) => T): T {
  let fd: number;
  try {
    fd = fs.openSync(file.abs, READ_PLAIN);
  } catch (error) {
    throw accessError(file, error);
  }
  try {
    return use(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The contents of lines from..to-1 of the version `stamp` of the file, read from disk by the
 * blocks `checkpoints` (byte offsets of lines 0, BLOCK, …) locate; a file changed since is
 * refused (changedWhileRead).
 */
function linesFromDisk(
  file: ResolvedPath,
  checkpoints: readonly number[],
  stamp: FileStamp,
): (from: number, to: number) => Buffer[] {
  // The last blocks read: the hits of one block, printed apart, are cut from one reading.
  let lastRead: { start: number; end: number; chunk: Buffer } | undefined;
  return (from, to) => {
    if (from >= to) return [];
    const first = Math.floor(from / BLOCK);
    const last = Math.ceil(to / BLOCK);
    const start = checkpoints[first]!;
    const end = last < checkpoints.length ? checkpoints[last]! : stamp.size;
    if (lastRead?.start !== start || lastRead.end !== end)
      lastRead = { start, end, chunk: readRange(file, start, end, stamp) };
    const chunk = lastRead.chunk;
    // Only the lines asked for are cut out: the block's others are stepped over.
    let at = 0;
    for (let line = first * BLOCK; line < from; line++) {
      const nl = chunk.indexOf(0x0a, at);
      if (nl === -1) throw changedWhileRead(file);
      at = nl + 1;
    }
    const out: Buffer[] = [];
    for (let line = from; line < to; line++) {
      if (at >= chunk.length) throw changedWhileRead(file);
      const { contentEnd, next } = lineContentRange(chunk, at);
      out.push(chunk.subarray(at, contentEnd));
      at = next === -1 ? chunk.length : next;
    }
    return out;
  };
}

/**
 * Bytes start..end of the file, which must still be the version of `stamp` (the one its index
 * describes) before and after they are read: otherwise its LIDs would be shown beside another
 * version's lines.
 */
function readRange(file: ResolvedPath, start: number, end: number, stamp: FileStamp): Buffer {
  return withFile(file, (fd) => {
    if (!sameStamp(stampOf(fs.fstatSync(fd, { bigint: true })), stamp)) throw changedWhileRead(file);
    const bytes = readAt(fd, start, end);
    if (!sameStamp(stampOf(fs.fstatSync(fd, { bigint: true })), stamp)) throw changedWhileRead(file);
    return bytes;
  });
}

/** The file changed between two reads of one command; running it again reads it anew. */
function changedWhileRead(file: ResolvedPath): RtError {
  return new RtError('access', `${file.display} changed while it was read`, ['run the command again'], {
    changed: true,
  });
}

/**
 * Runs `read` (which opens files with openIndexed and reads them) again when a file changed
 * between its reads, up to three times in all: another process saving a file is no failure.
 */
export function retryOnChange<T>(read: () => T): T {
  for (let attempt = 1; ; attempt++) {
    try {
      return read();
    } catch (error) {
      if (attempt >= 3 || !(error instanceof RtError) || error.details.changed !== true) throw error;
    }
  }
}

/**
 * Small files a search read whole to tell they are text (see keepSniffed), by name and stamp (see
 * sniffedKey): the report of their hits takes their bytes rather than opening and reading them again.
 */
const sniffed = new Map<string, Buffer>();
let sniffedBytes = 0;
/** The most bytes kept so: a search capped by --max may never report the files it read. */
const SNIFFED_MAX = 32 << 20;
/**
 * How many more files may be kept: none unless a search says how many files its report may read
 * (keepSniffedUpTo), so a search that prints no lines (-l, -c) or few keeps no more than it reads.
 */
let sniffedAllowance = 0;

/** Lets the search now starting keep up to `files` files (see keepSniffed): its report reads no more. */
export function keepSniffedUpTo(files: number): void {
  sniffedAllowance = files;
}

/**
 * Keeps the bytes of the file at `abs`, read whole after `since` (ms) through a descriptor whose
 * stamp was `st`, and found to be text (looksBinary of its first SNIFF_BYTES said no), for the
 * next reading of it (readSnapshot, once, which does not look again). Only a file last changed a tick
 * of the clock or more before it was read: a write since then stamps it anew, so a reading that
 * finds the same stamp finds these very bytes (as an index's stamp is trusted, see isRacy).
 */
export function keepSniffed(abs: string, bytes: Buffer, st: fs.BigIntStats, since: number): void {
  const stamp = stampOf(st);
  if (sniffedAllowance <= 0 || Number(st.size) !== bytes.length || sniffedBytes + bytes.length > SNIFFED_MAX) return;
  const changed = BigInt(stamp.mtimeNs) > BigInt(stamp.ctimeNs) ? stamp.mtimeNs : stamp.ctimeNs;
  if (since - Number(BigInt(changed) / 1_000_000n) < RACY_MS) return;
  sniffed.set(sniffedKey(abs, stamp), bytes);
  sniffedBytes += bytes.length;
  sniffedAllowance--;
}

/**
 * A file kept by keepSniffed is looked for by its name (the last part of its path: the report reads
 * files by their names within their folder, entered once) and its stamp, inode included.
 */
function sniffedKey(file: string, stamp: FileStamp): string {
  return `${path.basename(file)}\0${stamp.ino}:${stamp.size}:${stamp.mtimeNs}:${stamp.ctimeNs}`;
}

/** Forgets every file keepSniffed kept: at a command's end (a server's next call reads its files anew). */
export function forgetSniffed(): void {
  sniffed.clear();
  sniffedBytes = 0;
  sniffedAllowance = 0;
}

/** The bytes keepSniffed kept of the file `file` whose stamp is now `now` (forgotten then), if any. */
function takeSniffed(file: string, now: FileStamp): Buffer | undefined {
  const key = sniffedKey(file, now);
  const kept = sniffed.get(key);
  if (!kept) return undefined;
  sniffed.delete(key);
  sniffedBytes -= kept.length;
  return kept;
}

/** A file read whole, with its LIDs brought up to date (not saved yet). */
export interface Snapshot {
  readonly file: ResolvedPath;
  readonly lines: FileLines;
  readonly index: LineIndex;
  /** The file's stamp when read. */
  readonly stamp: FileStamp;
  /** Whether the saved index differs from `index` (or its stamp from the file's). */
  readonly stale: boolean;
  /** When `index` is the saved index as it was read: its records' text and block digests (see KeptRecords). */
  readonly saved?: { readonly text: Buffer | RecordsSource; readonly blocks: string; readonly partial?: boolean };
}

/**
 * Reads the whole file and reconciles its saved LIDs with what it holds now; saves nothing. A
 * binary file is refused, unless `binary` (an undo or redo putting a step's text back over the
 * binary file the step replaced, its bytes compared whole).
 */
export function readSnapshot(
  store: StateStore,
  file: ResolvedPath,
  saved = SavedIndex.open(store, file.rel),
  before = statFile(file),
  binary = false,
): Snapshot {
  let read: WholeRead;
  const kept = takeSniffed(file.abs, before);
  if (kept) read = { bytes: kept, lines: (lines) => splitLines(kept, true, lines) };
  else
    try {
      const fd = fs.openSync(file.abs, READ_PLAIN);
      try {
        read = readWhole(fd, before.size, saved?.head.lines);
      } finally {
        fs.closeSync(fd);
      }
    } catch (error) {
      throw accessError(file, error);
    }
  // (Bytes kept from the search were found to be text there, by this very test: see keepSniffed.)
  if (!binary && !kept && looksBinary(read.bytes.subarray(0, SNIFF_BYTES))) throw binaryFile(file);
  // Bytes kept from the search were read before `before` was taken, under that very stamp: no change since to look for.
  const after = kept ? before : statFile(file);
  const head = saved?.head;
  const lines = read.lines(head?.lines);
  const { bytes } = lines;
  let index: LineIndex | undefined;
  let old: LineIndex | undefined;
  let records: Snapshot['saved'];
  const sameVersion = head && sameStamp(before, after) && lines.count === head.lines && sameStamp(head.file, after);
  if (saved && sameVersion && (!head.racy || (head.content !== null && head.content === contentDigest([bytes])))) {
    // The file is the version the index describes: its fingerprints need not be computed again.
    const known = savedIndex(saved);
    if (known) records = { text: known.text, blocks: saved.head.blocks };
    index = old = known?.index;
  }
  if (!index) ({ index, old } = fromSaved(saved, hashLines(lines)));
  // A file that changed while it was read gets a stamp that forces the next run to read it again.
  const stamp = sameStamp(before, after) ? after : { ...after, size: -1 };
  return {
    file,
    lines,
    index,
    stamp,
    stale: isStale(head, index !== old, stamp),
    ...(records ? { saved: records } : {}),
  };
}

/** A file read whole: its bytes, and its lines to be found (`expected`, their count if known). */
interface WholeRead {
  /** Not to be used once `lines` is called (it may move them): the lines' own `bytes` are. */
  readonly bytes: Buffer;
  lines(expected: number | undefined): FileLines;
}

/**
 * An open file of `size` bytes (and about `expected` lines), read whole. A big one is read
 * into WebAssembly memory, where its lines are then found (wasmLines.ts), with room for a byte
 * more than its size, so that the read finding its end finds it at once. A file grown since its
 * size was taken, or where WebAssembly cannot be had, is read into a buffer.
 */
function readWhole(fd: number, size: number, expected: number | undefined): WholeRead {
  const memory = size >= BIG_READ && size + 1 <= MOST_READ ? lineMemory(size + 1, expected) : undefined;
  if (memory) {
    const got = readInto(fd, memory.bytes, 0);
    if (got < memory.bytes.length)
      return { bytes: memory.bytes.subarray(0, got), lines: (lines) => memory.lines(got, true, lines) };
  }
  const bytes = fs.readFileSync(fd);
  return { bytes, lines: (lines) => splitLines(bytes, true, lines) };
}

/**
 * The LIDs the next reading of the file will give it, its lines' fingerprints being `hashes`:
 * what an edit shows when its own index could not be saved (state off, not writable, or the
 * save failed), for the next command reads those, not the edit's.
 */
export function nextReading(store: StateStore, rel: string, hashes: LineHashes): LineIndex {
  return fromSaved(SavedIndex.open(store, rel), hashes).index;
}

/**
 * The index of a file whose lines have fingerprints `hashes`, keeping what it can of the saved one (`old`, if there was
 * one to read).
 */
function fromSaved(
  saved: SavedIndex | undefined,
  hashes: LineHashes,
): { index: LineIndex; old: LineIndex | undefined } {
  const old = saved && savedIndex(saved)?.index;
  return { index: old ? reconcileIndex(old, hashes) : buildIndex(hashes), old };
}

/**
 * Whether the index saved (its head, if any) must be saved again for a file of `stamp`: none, or `changed` (its LIDs),
 * or its stamp is another, or it was racy and need be no longer.
 */
function isStale(head: IndexHead | undefined, changed: boolean, stamp: FileStamp): boolean {
  // A stamp trusted at once (ownWriteSettled) is not made racy again by a reading while it is recent.
  return !head || changed || !sameStamp(head.file, stamp) || (head.racy && !isRacy(stamp));
}

/** The whole saved index and its records' text, or undefined when part of it proved damaged (it is then set aside). */
function savedIndex(saved: SavedIndex): { index: LineIndex; text: Buffer | RecordsSource } | undefined {
  const records = saved.records();
  const retired = records && saved.retired();
  return records && retired
    ? { index: { h1: records.h1, h2: records.h2, lids: records.lids, retired }, text: records.text }
    : undefined;
}

/**
 * Saves the index of `lines` as the state of the file, whose stamp is `stamp`. After an edit,
 * `edit` holds the new file's bytes in consecutive parts (not joined in memory), when the index
 * edited was the saved one the records it kept, and when rt wrote those bytes and renamed them
 * into place itself, the time it began (`writtenSince`, see ownWriteSettled).
 */
export function saveIndex(
  store: StateStore,
  rel: string,
  lines: FileLines,
  index: LineIndex,
  stamp: FileStamp,
  edit?: {
    parts: readonly Buffer[];
    kept?: KeptRecords;
    writtenSince?: number;
    wrote?: { ino: string; mtimeNs: string; size: number };
  },
): boolean {
  return saveIndexOf(store, rel, lines.count, checkpointsOf(lines), edit?.parts ?? [lines.bytes], index, stamp, edit);
}

/** The byte offsets of lines 0, BLOCK, 2·BLOCK, … of `lines`. */
function checkpointsOf(lines: FileLines): number[] {
  const checkpoints = knownCheckpoints.get(lines)?.slice() ?? [];
  if (!knownCheckpoints.has(lines)) for (let i = 0; i < lines.count; i += BLOCK) checkpoints.push(lines.starts[i]!);
  return checkpoints;
}

/**
 * saveIndex, given of the file's lines only what it needs: their count, the checkpoints, and the
 * file's bytes in consecutive parts (digested only when the stamp is racy).
 */
function saveIndexOf(
  store: StateStore,
  rel: string,
  count: number,
  checkpoints: number[],
  parts: readonly Buffer[],
  index: LineIndex,
  stamp: FileStamp,
  edit?: { kept?: KeptRecords; writtenSince?: number; wrote?: { ino: string; mtimeNs: string; size: number } },
): boolean {
  const racy =
    isRacy(stamp) &&
    !(
      edit?.writtenSince !== undefined &&
      edit.wrote !== undefined &&
      ownWriteSettled(stamp, sizeOf(parts), edit.writtenSince, edit.wrote)
    );
  return saveIndexFile(
    store,
    rel,
    { file: stamp, racy, content: racy ? contentDigest(parts) : null, lines: count, checkpoints },
    index,
    edit?.kept,
  );
}

/**
 * A digest of a file's bytes (given in consecutive parts), named by its kind: a 64-bit one in
 * JavaScript for small files, CRC-32 for the rest. It only tells whether a file whose size and
 * times are unchanged within their granularity was rewritten meanwhile, a rare event to begin with.
 */
export function contentDigest(parts: readonly Buffer[]): string {
  const known = digests.get(parts) ?? (parts.length === 1 ? wholeDigests.get(parts[0]!) : undefined);
  if (known !== undefined) return known;
  // Parts whose bytes were partly never read (see Unread) have their digest from their writing only.
  if (unreadParts.has(parts)) throw new Error('the digest of an edit not read whole was asked before it was written');
  const size = sizeOf(parts);
  let digest: string;
  if (size < SMALL_CONTENT) digest = `d64:${digestBytes(parts.length === 1 ? parts[0]! : Buffer.concat(parts, size))}`;
  else digest = `crc32:${size}:${crc32Of(parts).toString(16)}`;
  digests.set(parts, digest);
  if (parts.length === 1) wholeDigests.set(parts[0]!, digest);
  return digest;
}

function sizeOf(parts: readonly Buffer[]): number {
  return parts.reduce((n, part) => n + part.length, 0);
}

/**
 * The CRC-32 of parts put together. A file read whole has its CRC taken a chunk at a time; the
 * parts of an edit of it that are ranges of its bytes (what comes before and after the lines
 * changed) then have theirs from its chunks', and only the bytes written and those at the ends
 * of the ranges are read (an edit's index and history step ask for the new file's digest).
 */
function crc32Of(parts: readonly Buffer[]): number {
  const { crc32 } = zlib();
  if (parts.length === 1) {
    const chunks = new ChunkCrcs(parts[0]!, crc32);
    chunksOf.set(parts[0]!.buffer, chunks);
    return chunks.whole;
  }
  let crc = 0;
  for (const part of parts) {
    const chunks = chunksOf.get(part.buffer);
    const range = part.length >= 2 * ChunkCrcs.CHUNK ? chunks?.rangeOf(part) : undefined;
    crc = range ? crc32Combine(crc, chunks!.range(range.from, range.to), part.length) : crcOn(crc32, part, crc);
  }
  return crc;
}

/** Takes `digest` as that of `parts`, worked out by the writer that wrote them (see Unread). */
export function knownDigest(parts: readonly Buffer[], digest: string): void {
  digests.set(parts, digest);
}

/** Marks `parts` as holding ranges never read (zeros where the file's bytes would be, see Unread). */
export function markUnread(parts: readonly Buffer[]): void {
  unreadParts.add(parts);
}

const unreadParts = new WeakSet<readonly Buffer[]>();

/**
 * Takes `checkpoints` as the starts of lines 0, BLOCK, 2·BLOCK, … of `lines`, whose starts are
 * known only around a big edit's change (see linesAfter in bigEdit.ts).
 */
export function markCheckpoints(lines: FileLines, checkpoints: readonly number[]): void {
  knownCheckpoints.set(lines, checkpoints);
}

const knownCheckpoints = new WeakMap<FileLines, readonly number[]>();

/** The chunks' CRCs of files read whole and digested, by the memory they were read into. */
const chunksOf = new WeakMap<ArrayBufferLike, ChunkCrcs>();

/** The digests taken of the parts of a file just written: its index and its history step ask for the same one. */
const digests = new WeakMap<readonly Buffer[], string>();
/** The same, of a file read whole: an undo's check and the index's racy check ask for the same one. */
const wholeDigests = new WeakMap<Buffer, string>();

/**
 * How far a file system's clock (the kernel's coarse one, a tick behind at most) may lag the
 * process's when rt's own write is stamped.
 */
const CLOCK_LAG_MS = 50;

/**
 * Whether the stamp of a file rt has just written (`size` bytes, from `since` on) and renamed
 * into place can be trusted alone though it is recent: its content was last changed (mtime)
 * before its last change of any kind (ctime: the rename, or the mode rt gave its temporary file)
 * in another tick of the clock. Any write after that, in place, stamps both times anew, so the
 * content time can no longer be the one recorded (it is at least the change time, which was
 * later); a write by rename brings another inode. A write between rt's rename and this stamp
 * leaves both times equal, unless the writer set the content time back (cp -p, touch -d): such
 * a time before rt began, or another size, is not trusted either. And the stamp must be the very
 * version rt wrote (`wrote`: its temporary file's inode and content time, which the rename keeps):
 * another program's save renamed in between rt's rename and this stamp brings its own. Otherwise
 * the stamp is racy and the content's digest is kept with it (see isRacy).
 */
function ownWriteSettled(
  stamp: FileStamp,
  size: number,
  since: number,
  wrote: { ino: string; mtimeNs: string; size: number },
): boolean {
  const modified = BigInt(stamp.mtimeNs);
  return (
    stamp.size === size &&
    wrote.size === size &&
    stamp.ino === wrote.ino &&
    stamp.mtimeNs === wrote.mtimeNs &&
    modified < BigInt(stamp.ctimeNs) &&
    modified >= BigInt(since - CLOCK_LAG_MS) * 1_000_000n
  );
}

/**
 * The stamp of a file just written or read cannot be trusted alone within its timestamp
 * granularity. Its change time counts too: a file given an old modification time (cp -p, tar,
 * touch -d) just now was still changed just now.
 */
function isRacy(stamp: FileStamp): boolean {
  const changed = BigInt(stamp.mtimeNs) > BigInt(stamp.ctimeNs) ? stamp.mtimeNs : stamp.ctimeNs;
  return stamp.size < 0 || Date.now() - Number(BigInt(changed) / 1_000_000n) < RACY_MS;
}

/** Reads the whole file, brings its LIDs up to date and saves them. */
function coldFile(
  store: StateStore,
  file: ResolvedPath,
  saved: SavedIndex | undefined,
  before: FileStamp,
): IndexedFile {
  const streamed = before.size >= SCAN_AT ? scannedFile(store, file, saved, before) : undefined;
  if (streamed) return streamed;
  const snap = readSnapshot(store, file, saved, before);
  const opened = inMemoryFile(file, snap.lines, snap.index);
  if (!snap.stale) return opened;
  // The save holds what it needs of the reading (a search holds thousands until it prints them):
  // not the lines' offsets, nor the reading's other objects.
  const { index, stamp } = snap;
  const { count, bytes } = snap.lines;
  const checkpoints = checkpointsOf(snap.lines);
  const rel = file.rel;
  return { ...opened, persist: () => void saveIndexOf(store, rel, count, checkpoints, [bytes], index, stamp) };
}

/**
 * A big file read a piece at a time (scanFile): its LIDs brought up to date from its lines'
 * fingerprints, and the lines shown read again from disk, by the blocks the scan located, as a
 * warm file's are. A change between the scan and those reads shows in the file's stamp; for a
 * file written moments ago (a racy stamp, which a change within the timestamp granularity may
 * leave as it was: what an agent opens right after a formatter or a checkout), the lines read
 * again must also have the fingerprints the scan took of them, or the file is read anew.
 * Undefined when the file changed while it was scanned, or its first piece holds fewer than a
 * block of lines (a window's block would be most of the file): it is then read whole.
 */
function scannedFile(
  store: StateStore,
  file: ResolvedPath,
  saved: SavedIndex | undefined,
  before: FileStamp,
): IndexedFile | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file.abs, READ_PLAIN);
  } catch (error) {
    throw accessError(file, error);
  }
  let scan: ReturnType<typeof scanFile>;
  try {
    if (!sameStamp(stampOf(fs.fstatSync(fd, { bigint: true })), before)) return undefined;
    scan = scanFile(fd, before.size, SCAN_PIECE, BLOCK);
    if (!sameStamp(stampOf(fs.fstatSync(fd, { bigint: true })), before)) return undefined;
  } finally {
    fs.closeSync(fd);
  }
  if (scan === 'binary') throw binaryFile(file);
  if (!scan) return undefined;
  const { index, old } = fromSaved(saved, scan);
  const stale = isStale(saved?.head, index !== old, before);
  const { count, checkpoints } = scan;
  const racy = isRacy(before);
  const fromDisk = linesFromDisk(file, checkpoints, before);
  return {
    path: file,
    total: count,
    contents: racy ? (from, to) => asScanned(file, fromDisk(from, to), from, scan) : fromDisk,
    lids: (from, to) => index.lids.subarray(from, to),
    lineOf: (code) => index.lids.indexOf(code),
    retiredLine: (code) => retiredLine(index.retired, code),
    persist: () =>
      stale && saveIndexFile(store, file.rel, { file: before, racy, content: null, lines: count, checkpoints }, index),
  };
}

/**
 * `lines`, from line `from`, if each has the fingerprint `scan` took of it; else the file changed since (refused, read
 * anew).
 */
function asScanned(file: ResolvedPath, lines: Buffer[], from: number, scan: LineHashes): Buffer[] {
  lines.forEach((line, i) => {
    const [h1, h2] = hashBytes(line);
    if (h1 !== scan.h1[from + i] || h2 !== scan.h2[from + i]) throw changedWhileRead(file);
  });
  return lines;
}

/**
 * Whether the index can stand in for reading the file: the file has the stamp the index was
 * made from, and that stamp was not taken within the file system's timestamp granularity of a
 * change.
 */
export function trustworthy(head: IndexHead, stamp: FileStamp): boolean {
  return !head.racy && sameStamp(head.file, stamp);
}

export function inMemoryFile(file: ResolvedPath, lines: FileLines, index: LineIndex): IndexedFile {
  return {
    path: file,
    total: lines.count,
    contents(from, to) {
      const out: Buffer[] = [];
      for (let i = from; i < to; i++) out.push(lineContent(lines, i));
      return out;
    },
    lids: (from, to) => index.lids.subarray(from, to),
    lineOf: (code) => index.lids.indexOf(code),
    retiredLine: (code) => retiredLine(index.retired, code),
    persist: () => undefined,
  };
}

function binaryFile(file: ResolvedPath): RtError {
  return new RtError('binary', `${file.display} looks like a binary file`, [
    'rt reads text files only; inspect it with a hex viewer such as xxd',
  ]);
}

function swappedForLink(file: ResolvedPath): RtError {
  return new RtError(
    'access',
    `${file.display} was replaced by a symbolic link while rt was using it; nothing was read through it`,
    [`check where it leads: ls -l ${file.display}; then run the command again`],
  );
}

/**
 * The stat (following links) of a path resolved moments ago: one gone or unreadable since is
 * refused as such (exit 4), never an internal error.
 */
export function statResolved(file: ResolvedPath): fs.Stats {
  try {
    return fs.statSync(file.abs);
  } catch (error) {
    throw accessError(file, error);
  }
}

export function accessError(file: ResolvedPath, error: unknown): RtError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ELOOP') return swappedForLink(file);
  if (code === 'ENOENT')
    return new RtError('not_found', `no such file: ${file.display}`, ['check the path; list files with: rt find NAME']);
  if (code === 'EACCES' || code === 'EPERM') {
    return new RtError('access', `permission denied: ${file.display}`, [
      `check its permissions: ls -l ${file.display}`,
    ]);
  }
  return new RtError('access', `cannot read ${file.display}: ${code ?? String(error)}`, [
    'check the file and try again',
  ]);
}
