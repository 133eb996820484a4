// A big file's first reading, a piece at a time: its lines' fingerprints and the byte offsets
// of every BLOCK-th line, without ever holding all its bytes (the memory target: a first
// open of a 46 MB file held the file, its line table and its index at once).

import fs from 'node:fs';
import { looksBinary, SNIFF_BYTES } from '../model/binary.js';
import { hashLineAt, type LineHashes } from '../model/hash.js';
import { BOM, grow, hasBom } from '../model/lines.js';
import { type LineHasher, lineHasher } from '../model/wasmHash.js';
import { readAt } from './readAt.js';
import { BLOCK } from './savedIndex.js';

/**
 * Lines fingerprinted a call into WebAssembly (each call costs some microseconds; between calls V8
 * swaps in the optimised code, see wasmRecords.ts).
 */
const HASH_LINES = 16 * BLOCK;

/** Bytes read at a time. */
export const SCAN_PIECE = 4 << 20;

export interface ScannedFile extends LineHashes {
  readonly count: number;
  /** Byte offset of line 0, BLOCK, 2·BLOCK, … (line 0 starts after a BOM). */
  readonly checkpoints: number[];
}

/**
 * Fingerprints the lines of the `size` bytes of `fd`, as hashLines(splitLines(bytes)) would;
 * 'binary' when the file looks binary, undefined when the file ended early (it changed: the
 * caller's check of its stamp tells) or its first piece holds fewer than `minLines` lines (its
 * lines are long: its blocks of lines, read whole to show a window, would be most of the file).
 * The pieces are read into WebAssembly's memory and fingerprinted there (see wasmHash.ts), a
 * block of lines a call, unless `wasm` is false or WebAssembly cannot be had.
 */
export function scanFile(
  fd: number,
  size: number,
  piece = SCAN_PIECE,
  minLines = 0,
  wasm = true,
): ScannedFile | 'binary' | undefined {
  if (looksBinary(readAt(fd, 0, Math.min(size, SNIFF_BYTES)))) return 'binary';
  const hasher = wasm ? lineHasher(Math.min(piece, size), HASH_LINES, BLOCK) : undefined;
  try {
    return scanPieces(fd, size, piece, minLines, hasher);
  } finally {
    hasher?.done();
  }
}

/** scanFile's reading, once it knows the file for text: with `hasher`, its lines are fingerprinted in it. */
function scanPieces(
  fd: number,
  size: number,
  piece: number,
  minLines: number,
  hasher: LineHasher | undefined,
): ScannedFile | undefined {
  let h1: Uint32Array = new Uint32Array(FIRST_LENGTH);
  let h2: Uint32Array = new Uint32Array(FIRST_LENGTH);
  const checkpoints: number[] = [];
  let count = 0;
  // Pieces are read after the unfinished line the last one ended with (`carried` bytes at the
  // start), into the rest of the buffer: it is grown only when that line fills half of it (a
  // line longer than half a piece), never for the few bytes most pieces carry over (each
  // growth was a copy beside the old buffer, twice the size).
  let buffer = hasher ? hasher.bytes : Buffer.allocUnsafe(Math.min(piece, size));
  let carried = 0;
  let read = 0;
  while (read < size) {
    if (2 * carried > buffer.length) {
      const length = Math.max(buffer.length * 2, carried + piece);
      const grown = hasher ? hasher.grow(length) : Buffer.concat([buffer.subarray(0, carried)], length);
      if (!grown) throw new RangeError(`no memory for a line of ${carried} bytes`);
      buffer = grown;
    }
    const n = fs.readSync(fd, buffer, carried, Math.min(buffer.length - carried, size - read), read);
    if (n === 0) return undefined;
    read += n;
    const at = read - carried - n; // offset in the file of the buffer's first byte
    // Whole lines only (a newline is looked for in the bytes just read), but at the end: the
    // file's last line may lack its newline.
    const nl = buffer.subarray(carried, carried + n).lastIndexOf(0x0a);
    const end = read === size ? carried + n : nl === -1 ? 0 : carried + nl + 1;
    if (end === 0) {
      if (at === 0 && minLines > 0) return undefined; // not one whole line in the first piece
      carried += n;
      continue;
    }
    // The piece's lines are fingerprinted where they lie, straight into h1 and h2: no table of
    // them is made (each piece's, some 1.5 MB, was garbage that outlived many pieces).
    let start = at === 0 && hasBom(buffer.subarray(0, end)) ? BOM.length : 0;
    if (at === 0 && minLines > 0 && read < size && !holdsLines(buffer, start, end, minLines)) return undefined;
    while (start < end) {
      if (count === h1.length) {
        // Doubled; through the first piece, until its lines are counted (see below).
        h1 = grow(h1, h1.length * 2);
        h2 = grow(h2, h2.length * 2);
      }
      if (hasher) {
        count += hasher.hash(start, end, h1.length - count, h1, h2, count, (s) => checkpoints.push(at + s));
        start = hasher.next;
        continue;
      }
      if (count % BLOCK === 0) checkpoints.push(at + start);
      const nl = hashLineAt(buffer, start, end, h1, h2, count);
      count++;
      start = nl + 1;
    }
    // A first piece that held more lines than the arrays' first length (counted by their
    // fingerprinting, not by a pass of their own): the arrays are made the size its lines suggest
    // the file holds (and a little more, but never more than the file's bytes): they are then
    // seldom grown, each growth a copy beside the old ones.
    if (at === 0 && count > FIRST_LENGTH) {
      const estimate = Math.max(FIRST_LENGTH * 2, Math.min(size + 1, Math.ceil((count * size * 1.05) / end)));
      h1 = resized(h1, count, estimate);
      h2 = resized(h2, count, estimate);
    }
    buffer.copyWithin(0, end, carried + n);
    carried = carried + n - end;
  }
  return { h1: h1.subarray(0, count), h2: h2.subarray(0, count), count, checkpoints };
}

/** Length of the fingerprints' arrays before the first piece is read. */
const FIRST_LENGTH = 1024;

/** The first `count` words of `array` in an array of `length` (`array` itself when that long). */
function resized(array: Uint32Array, count: number, length: number): Uint32Array {
  if (array.length === length) return array;
  const copy = new Uint32Array(length);
  copy.set(array.subarray(0, count));
  return copy;
}

/**
 * Whether bytes start..end-1 hold `lines` whole lines at least; only those lines' newlines are looked
 * for (a file of long lines gives up before a piece of it is fingerprinted).
 */
function holdsLines(bytes: Buffer, start: number, end: number, lines: number): boolean {
  let at = start;
  for (let k = 0; k < lines; k++) {
    const nl = bytes.indexOf(0x0a, at);
    if (nl === -1 || nl >= end) return false;
    at = nl + 1;
  }
  return true;
}
