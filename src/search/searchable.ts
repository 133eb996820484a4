// Whether a file can be searched (a regular text file rt can read, reached through no link of its
// own), and its bytes when it can.

import fs from 'node:fs';
import { looksBinary, SNIFF_BYTES } from '../model/binary.js';
import { BOM, hasBom } from '../model/lines.js';
import { lineContentRange } from '../model/lineScan.js';
import { READ_PLAIN } from '../store/plainFile.js';
import { keepSniffed } from '../store/indexedFile.js';
import { readAt } from '../store/readAt.js';
import type { LineMatcher } from './match.js';

/** A file's bytes for searching, or undefined when it cannot be read, is a symbolic link, or is binary. */
export function readSearchable(abs: string): Buffer | undefined {
  const read = readText(abs, Infinity);
  return typeof read === 'string' ? undefined : read;
}

/** Whether a file can be searched (see readSearchable), reading only as much as tells. */
export function isSearchable(abs: string): boolean {
  return typeof readText(abs, SNIFF_BYTES, true) !== 'string';
}

/** Whether a file can be searched ('text'), or why not, reading only as much as tells. */
export function searchableKind(abs: string): 'text' | 'binary' | 'unreadable' {
  const read = readText(abs, SNIFF_BYTES);
  return typeof read === 'string' ? read : 'text';
}

/** Files named on the command line that cannot be searched, and why. */
export type Unsearchable = ReadonlyArray<{ readonly display: string; readonly kind: 'binary' | 'unreadable' }>;

/** What is wrong with `files` (see Unsearchable), in one phrase: "a.bin is a binary file and b.txt cannot be read". */
export function unsearchableText(files: Unsearchable): string {
  const named = (kind: 'binary' | 'unreadable') => files.filter((f) => f.kind === kind).map((f) => f.display);
  const join = (names: readonly string[]) =>
    names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  const binary = named('binary');
  const unreadable = named('unreadable');
  return [
    ...(binary.length ? [`${join(binary)} ${binary.length === 1 ? 'is a binary file' : 'are binary files'}`] : []),
    ...(unreadable.length ? [`${join(unreadable)} cannot be read`] : []),
  ].join(' and ');
}

/**
 * Up to `limit` bytes of a file that is readable, regular and not binary; else why not. `keep`: a
 * file read whole is kept for the report of its hits (see keepSniffed).
 */
function readText(abs: string, limit: number, keep = false): Buffer | 'binary' | 'unreadable' {
  const since = Date.now();
  let fd: number;
  try {
    // Never follow a symbolic link; never wait on a FIFO.
    fd = fs.openSync(abs, READ_PLAIN);
  } catch {
    return 'unreadable';
  }
  try {
    const st = fs.fstatSync(fd, { bigint: true });
    const size = Number(st.size);
    if (!st.isFile() || size >= 2 ** 32) return 'unreadable';
    const data = readAt(fd, 0, Math.min(size, limit));
    if (looksBinary(data.subarray(0, SNIFF_BYTES))) return 'binary';
    if (keep && data.length === size) keepSniffed(abs, data, st, since);
    return data;
  } catch {
    return 'unreadable';
  } finally {
    fs.closeSync(fd);
  }
}

/** How many matches the lines `lines` (0-based, ascending) of a file's bytes hold. */
export function countMatches(matcher: LineMatcher, bytes: Buffer, lines: readonly number[]): number {
  let count = 0;
  let line = 0;
  let start = bomLengthOf(bytes);
  for (const wanted of lines) {
    for (; line < wanted && start !== -1; line++) start = lineContentRange(bytes, start).next;
    if (start === -1) break;
    count += matcher.matchesIn(bytes.subarray(start, lineContentRange(bytes, start).contentEnd)).length;
  }
  return count;
}

export function bomLengthOf(bytes: Buffer): number {
  return hasBom(bytes) ? BOM.length : 0;
}

/** A file's size in bytes (0 when it cannot be told). */
export function sizeOf(abs: string): number {
  try {
    return fs.statSync(abs).size;
  } catch {
    return 0;
  }
}

/** Whether a file's last byte is `byte` (true when that cannot be told). */
export function lastByteIs(abs: string, byte: number): boolean {
  let fd: number | undefined;
  try {
    fd = fs.openSync(abs, READ_PLAIN);
    const size = fs.fstatSync(fd).size;
    const last = Buffer.alloc(1);
    return size === 0 || fs.readSync(fd, last, 0, 1, size - 1) !== 1 || last[0] === byte;
  } catch {
    return true;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Whether `abs` is a regular file (not through a link of its own); false when that cannot be told (gone, unreadable
 * folder, a file where a folder was).
 */
export function isPlainFile(abs: string): boolean {
  try {
    return fs.lstatSync(abs).isFile();
  } catch {
    return false;
  }
}

/** Whether `abs` is a regular file, not followed if a link (gone: false; any other failure is thrown). */
export function isFileNotFollowed(abs: string): boolean {
  return fs.lstatSync(abs, { throwIfNoEntry: false })?.isFile() === true;
}
