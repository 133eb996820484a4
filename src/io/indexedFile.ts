// A text file with its LIDs: loads the saved index when the file is unchanged (reading only the
// bytes a window needs), otherwise reads and fingerprints the whole file and reconciles the saved
// LIDs with what it holds now, then saves the result.

import fs from 'node:fs';
import { sha256 } from './builtins.js';
import { looksBinary, SNIFF_BYTES } from '../core/binary.js';
import { RtError } from '../core/errors.js';
import { hashLines } from '../core/hash.js';
import { decodeLidRange, decodeRecords, decodeRetired, encodeRecordRange, encodeRetired } from '../core/indexCodec.js';
import { buildIndex, reconcileIndex, retiredLine, type LineIndex, type Retired } from '../core/lineIndex.js';
import { lineContent, splitLines, type FileLines } from '../core/lines.js';
import type { ResolvedPath } from './root.js';
import type { StateDoc, StateStore } from './state.js';

export const INDEX_FORMAT = 'rt-index';
export const INDEX_VERSION = 4;
/** A checkpoint (byte offset of a line start) is kept every this many lines. */
const CHECKPOINT_EVERY = 1024;
/** A file modified this recently may change again within its timestamp's granularity. */
const RACY_MS = 2000;

/** What identifies a file's version without reading it. */
export interface FileStamp {
  size: number;
  mtimeNs: string;
  ctimeNs: string;
  ino: string;
}

interface IndexDoc extends StateDoc {
  file: FileStamp;
  /** The file was indexed so soon after it changed that its stamp cannot be trusted alone. */
  racy: boolean;
  /** For a racy stamp, a digest of the file's bytes: checking it is cheaper than fingerprinting every line. */
  content: string | null;
  lines: number;
  records: string;
  retired: string;
  checkpoints: number[];
  /** Digest of the fields above: a damaged index is never trusted. */
  check: string;
}

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
  /** Saves the index if reading brought it up to date. Called once the command has succeeded. */
  persist(): void;
}

/**
 * Opens `file` (which must exist) as a text file with its LIDs. The updated index is saved by
 * `persist()`, so that a command refused later writes no state.
 */
export function openIndexed(store: StateStore, file: ResolvedPath): IndexedFile {
  const before = statFile(file);
  const doc = loadIndexDoc(store, file.rel);
  if (doc && trustworthy(doc, before)) {
    const warm = warmFile(file, doc);
    if (warm) return warm;
  }
  return coldFile(store, file, doc, before);
}

export function statFile(file: ResolvedPath): FileStamp {
  let st: fs.BigIntStats;
  try {
    st = fs.statSync(file.abs, { bigint: true });
  } catch (error) {
    throw accessError(file, error);
  }
  if (st.isDirectory()) {
    throw new RtError('access', `${file.display} is a directory`, [`open a file in it; list its files with: rt find '' ${file.display}`]);
  }
  if (!st.isFile()) throw new RtError('access', `${file.display} is not a regular file`, ['rt reads regular text files only']);
  if (st.size >= 2n ** 32n) throw new RtError('input', `${file.display} is larger than 4 GiB`, ['split it, or use a streaming tool such as sed']);
  return { size: Number(st.size), mtimeNs: String(st.mtimeNs), ctimeNs: String(st.ctimeNs), ino: String(st.ino) };
}

function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs && a.ino === b.ino;
}

/** The file as its saved index describes it, reading only the byte ranges asked for. */
function warmFile(file: ResolvedPath, doc: IndexDoc): IndexedFile | undefined {
  if (doc.checkpoints.length !== Math.ceil(doc.lines / CHECKPOINT_EVERY) || doc.records.length !== doc.lines * 16) return undefined;
  let all: Uint32Array | undefined;
  const allLids = () => (all ??= decodeLidRange(doc.records, 0, doc.lines));
  let retired: Retired | undefined;
  return {
    path: file,
    total: doc.lines,
    contents(from, to) {
      if (from >= to) return [];
      const first = Math.floor(from / CHECKPOINT_EVERY);
      const last = Math.ceil(to / CHECKPOINT_EVERY);
      const start = doc.checkpoints[first]!;
      const end = last < doc.checkpoints.length ? doc.checkpoints[last]! : doc.file.size;
      const chunk = readRange(file, start, end);
      const lines = splitLines(chunk, false);
      const base = first * CHECKPOINT_EVERY;
      if (lines.count < to - base) {
        throw new RtError('access', `${file.display} changed while it was read`, ['run the command again']);
      }
      const out: Buffer[] = [];
      for (let i = from; i < to; i++) out.push(lineContent(lines, i - base));
      return out;
    },
    lids: (from, to) => decodeLidRange(doc.records, from, to),
    lineOf: (code) => allLids().indexOf(code),
    retiredLine: (code) => retiredLine((retired ??= decodeRetired(doc.retired)), code),
    persist: () => undefined,
  };
}

function readRange(file: ResolvedPath, start: number, end: number): Buffer {
  const fd = fs.openSync(file.abs, 'r');
  try {
    const buf = Buffer.allocUnsafe(end - start);
    let got = 0;
    while (got < buf.length) {
      const n = fs.readSync(fd, buf, got, buf.length - got, start + got);
      if (n === 0) break;
      got += n;
    }
    return buf.subarray(0, got);
  } finally {
    fs.closeSync(fd);
  }
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
}

/** Reads the whole file and reconciles its saved LIDs with what it holds now; saves nothing. */
export function readSnapshot(store: StateStore, file: ResolvedPath, doc = loadIndexDoc(store, file.rel), before = statFile(file)): Snapshot {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file.abs);
  } catch (error) {
    throw accessError(file, error);
  }
  if (looksBinary(bytes.subarray(0, SNIFF_BYTES))) {
    throw new RtError('binary', `${file.display} looks like a binary file`, ['rt reads text files only; inspect it with a hex viewer such as xxd']);
  }
  const after = statFile(file);
  const lines = splitLines(bytes);
  let index: LineIndex | undefined;
  let old: LineIndex | undefined;
  const sameVersion = doc && sameStamp(before, after) && lines.count === doc.lines && sameStamp(doc.file, after);
  if (doc && sameVersion && (!doc.racy || (doc.content !== null && doc.content === contentDigest(bytes)))) {
    // The file is the version the index describes: its fingerprints need not be computed again.
    index = old = decodeDoc(store, file, doc);
  }
  if (!index) {
    const hashes = hashLines(lines);
    old = doc ? decodeDoc(store, file, doc) : undefined;
    index = old ? reconcileIndex(old, hashes) : buildIndex(hashes);
  }
  // A file that changed while it was read gets a stamp that forces the next run to read it again.
  const stamp = sameStamp(before, after) ? after : { ...after, size: -1 };
  return { file, lines, index, stamp, stale: !doc || index !== old || !sameStamp(doc.file, stamp) || doc.racy !== isRacy(stamp) };
}

/** Saves the index of `lines` as the state of the file, whose stamp is `stamp`. */
export function saveIndex(store: StateStore, rel: string, lines: FileLines, index: LineIndex, stamp: FileStamp): void {
  const racy = isRacy(stamp);
  const checkpoints: number[] = [];
  for (let i = 0; i < lines.count; i += CHECKPOINT_EVERY) checkpoints.push(lines.starts[i]!);
  const meta: Omit<IndexDoc, 'records' | 'check'> = {
    format: INDEX_FORMAT,
    version: INDEX_VERSION,
    path: rel,
    touched: Date.now(),
    file: stamp,
    racy,
    content: racy ? contentDigest(lines.bytes) : null,
    lines: lines.count,
    retired: encodeRetired(index.retired),
    checkpoints,
  };
  // The records (16 characters a line) are written in slices, the digest taken as they go.
  store.saveText('index', rel, (write) => {
    const hash = sha256().update(digestPrefix(meta));
    write(`${JSON.stringify(meta).slice(0, -1)},"records":"`);
    for (let from = 0; from < lines.count; from += RECORD_SLICE) {
      const slice = encodeRecordRange(index, from, Math.min(lines.count, from + RECORD_SLICE));
      hash.update(slice);
      write(slice);
    }
    write(`","check":${JSON.stringify(hash.digest('base64'))}}`);
  });
}

/** Lines whose records are encoded and written at a time. */
const RECORD_SLICE = 65_536;

function contentDigest(bytes: Buffer): string {
  return sha256().update(bytes).digest('base64');
}

/** The stamp of a file just written or read cannot be trusted alone within its timestamp granularity. */
function isRacy(stamp: FileStamp): boolean {
  return stamp.size < 0 || Date.now() - Number(BigInt(stamp.mtimeNs) / 1_000_000n) < RACY_MS;
}

/** Reads the whole file, brings its LIDs up to date and saves them. */
function coldFile(store: StateStore, file: ResolvedPath, doc: IndexDoc | undefined, before: FileStamp): IndexedFile {
  const snap = readSnapshot(store, file, doc, before);
  const opened = inMemoryFile(file, snap.lines, snap.index);
  return { ...opened, persist: () => snap.stale && saveIndex(store, file.rel, snap.lines, snap.index, snap.stamp) };
}

function decodeDoc(store: StateStore, file: ResolvedPath, doc: IndexDoc): LineIndex | undefined {
  try {
    return { ...decodeRecords(doc.records, doc.lines), retired: decodeRetired(doc.retired) };
  } catch (error) {
    store.problem(`saved index of ${file.display} is damaged (${(error as Error).message}); rebuilding it`);
    return undefined;
  }
}

/** The shape a saved index must have before any field of it is used. */
function isIndexDoc(doc: unknown): doc is IndexDoc {
  const d = doc as Partial<IndexDoc>;
  const f = d.file as Partial<FileStamp> | undefined;
  return (
    Number.isSafeInteger(d.lines) &&
    d.lines! >= 0 &&
    typeof d.records === 'string' &&
    typeof d.retired === 'string' &&
    typeof d.racy === 'boolean' &&
    (d.content === null || typeof d.content === 'string') &&
    Array.isArray(d.checkpoints) &&
    d.checkpoints.every((c) => Number.isSafeInteger(c) && c >= 0) &&
    typeof f === 'object' &&
    f !== null &&
    typeof f.size === 'number' &&
    typeof f.mtimeNs === 'string' &&
    typeof f.ctimeNs === 'string' &&
    typeof f.ino === 'string' &&
    typeof d.check === 'string' &&
    d.check === digest(d as IndexDoc)
  );
}

/**
 * Whether the index can stand in for reading the file: the file has the stamp the index was
 * made from, that stamp was not taken within the file system's timestamp granularity of a
 * change. (An index whose digest does not match is never loaded.)
 */
function trustworthy(doc: IndexDoc, stamp: FileStamp): boolean {
  return !doc.racy && sameStamp(doc.file, stamp);
}

function digest(doc: Omit<IndexDoc, 'check'>): string {
  return sha256().update(digestPrefix(doc)).update(doc.records).digest('base64');
}

/** What the digest covers before the records. */
function digestPrefix(doc: Omit<IndexDoc, 'check' | 'records'>): string {
  const f = doc.file;
  return `${doc.path}|${doc.lines}|${f.size}|${f.mtimeNs}|${f.ctimeNs}|${f.ino}|${doc.racy}|${doc.content}|${doc.checkpoints.join(',')}|${doc.retired}|`;
}

export function loadIndexDoc(store: StateStore, rel: string): IndexDoc | undefined {
  return store.load<IndexDoc>('index', rel, INDEX_FORMAT, INDEX_VERSION, isIndexDoc);
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

function accessError(file: ResolvedPath, error: unknown): RtError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new RtError('not_found', `no such file: ${file.display}`, ['check the path; list files with: rt find NAME']);
  if (code === 'EACCES' || code === 'EPERM') {
    return new RtError('access', `permission denied: ${file.display}`, [`check its permissions: ls -l ${file.display}`]);
  }
  return new RtError('access', `cannot read ${file.display}: ${code ?? String(error)}`, ['check the file and try again']);
}
