// The lines of one file holding a literal, found the way ripgrep finds them: the bytes are read a
// piece at a time into one buffer (which stays in the processor's cache; a buffer the size of the
// file costs more to fill than the search) and searched for the literal before any line is split;
// the lines before a hit are counted 16 bytes at a time in WebAssembly (src/model/wasm/lines.wat),
// and only until the hits to print are found: past them each hit's line is only counted as one.

import fs from 'node:fs';
import { BOM, hasBom } from '../model/lines.js';
import { LINES_WASM } from '../model/wasmLines.js';
import { instantiate } from '../model/wasmModule.js';
import { withPlainFile } from '../store/plainFile.js';
import { readAt } from '../store/readAt.js';

/** Bytes read at a time: big enough that reading costs little a byte, small enough to stay in the cache. */
const PIECE = 256 * 1024;

/** The hit lines of a literal in a file. */
export interface LiteralLines {
  /** The first hit lines, 0-based, ascending: `limit` of them, or all when fewer. */
  readonly lines: number[];
  /** How many lines hold the literal. */
  readonly total: number;
  /**
   * Each of `lines` as read, by 1-based number: its bytes without the \n (with a \r before it,
   * and on line 1 a BOM), as a prefilter gives them (see hitLinesAsFound); only lines of at most
   * `keep` bytes.
   */
  readonly found: Map<number, Buffer>;
}

/**
 * The lines of the file `abs` whose content holds `needle` (bytes that hold no \n, so a match
 * lies within a line; not empty), the first `limit` of them by number, each kept as read when
 * at most `keep` bytes long. For a needle without \r these are the lines rt's literal matcher
 * finds (see bytesMatcher in match.ts); with one, some may hold it only with their line ending.
 * Undefined when the file cannot be read (as a regular file, not through a link).
 */
export function literalLines(abs: string, needle: Buffer, limit: number, keep: number): LiteralLines | undefined {
  return withPlainFile(abs, (fd, size) => {
    const { lines, total, ranges } = scan(fd, size, needle, limit);
    const found = new Map<number, Buffer>();
    for (const [i, [from, to]] of ranges.entries())
      if (to - from <= keep) found.set(lines[i]! + 1, readAt(fd, from, to));
    return { lines, total, found };
  });
}

function scan(
  fd: number,
  size: number,
  needle: Buffer,
  limit: number,
): { lines: number[]; total: number; ranges: Array<[number, number]> } {
  const counter = newlineCounter(PIECE + needle.length);
  const buf = counter.buffer;
  const overlap = needle.length - 1;
  const lines: number[] = [];
  /** The bytes of each of `lines` (absolute, without the \n). */
  const ranges: Array<[number, number]> = [];
  let total = 0;
  /** Lines before `counted` (absolute), while lines are still numbered. */
  let line = 0;
  let counted = 0;
  /** Where the search for the literal goes on (absolute); within a line hit, the search is for its end. */
  let searchFrom = 0;
  let inHitLine = false;
  /** Where the line holding the piece's first byte starts (absolute). */
  let lineStart = 0;
  for (let start = 0; start < size; ) {
    const length = readPiece(fd, buf, Math.min(PIECE + overlap, size - start), start);
    if (length === 0) break; // the file shrank
    const end = start + length;
    // (Bytes past `length` are an earlier piece's.)
    const piece = buf.subarray(0, length);
    if (start === 0 && hasBom(piece)) searchFrom = counted = BOM.length;
    const numbering = () => lines.length < limit;
    for (;;) {
      if (inHitLine) {
        const nl = piece.indexOf(0x0a, searchFrom - start);
        if (nl === -1) {
          searchFrom = counted = end;
          break;
        }
        inHitLine = false;
        searchFrom = counted = start + nl + 1;
        const last = ranges[ranges.length - 1];
        if (last?.[1] === -1) last[1] = start + nl;
        line++;
      }
      const at = piece.indexOf(needle, searchFrom - start);
      if (at === -1) break;
      total++;
      if (numbering()) {
        line += counter.count(counted - start, at);
        lines.push(line);
        const before = at === 0 ? -1 : piece.lastIndexOf(0x0a, at - 1);
        ranges.push([before === -1 ? lineStart : start + before + 1, -1]);
      }
      counted = searchFrom = start + at;
      inHitLine = true;
    }
    if (end >= size) break;
    // The next piece starts `overlap` bytes back, so that a literal across the two is found.
    const next = Math.max(end - overlap, start + 1);
    if (!inHitLine) {
      if (numbering() && counted < next) line += counter.count(counted - start, next - start);
      counted = Math.max(counted, next);
      searchFrom = Math.max(searchFrom, next);
    }
    const nl = piece.lastIndexOf(0x0a, next - start - 1);
    if (nl !== -1) lineStart = start + nl + 1;
    start = next;
  }
  // (The last line hit may have no \n.)
  for (const range of ranges) if (range[1] === -1) range[1] = size;
  return { lines, total, ranges };
}

function readPiece(fd: number, buf: Buffer, length: number, position: number): number {
  let read = 0;
  while (read < length) {
    const n = fs.readSync(fd, buf, read, length - read, position + read);
    if (n === 0) break;
    read += n;
  }
  return read;
}

/** A buffer of `size` bytes and a count of the \n among bytes from..to-1 of it. */
function newlineCounter(size: number): { buffer: Buffer; count(from: number, to: number): number } {
  const wasm = instantiate<{ count(from: number, end: number): number }>(LINES_WASM, size);
  if (!wasm) {
    const buffer = Buffer.allocUnsafe(size);
    return {
      buffer,
      count(from, to) {
        let n = 0;
        for (let at = buffer.indexOf(0x0a, from); at !== -1 && at < to; at = buffer.indexOf(0x0a, at + 1)) n++;
        return n;
      },
    };
  }
  const buffer = Buffer.from(wasm.memory.buffer, 0, size);
  return {
    buffer,
    // (The module's count takes bytes after the last \n for one more line.)
    count: (from, to) => wasm.exports.count(from, to) - (to > from && buffer[to - 1] !== 0x0a ? 1 : 0),
  };
}
