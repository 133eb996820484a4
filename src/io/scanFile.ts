// A big file's first reading, a piece at a time: its lines' fingerprints and the byte offsets
// of every BLOCK-th line, without ever holding all its bytes (SPEC's memory target: a first
// open of a 46 MB file held the file, its line table and its index at once).

import fs from 'node:fs';
import { looksBinary, SNIFF_BYTES } from '../core/binary.js';
import { hashLines, type LineHashes } from '../core/hash.js';
import { splitLines } from '../core/lines.js';
import { readAt } from './readAt.js';
import { BLOCK } from './savedIndex.js';

/** Bytes read at a time. */
export const SCAN_PIECE = 4 << 20;

export interface ScannedFile extends LineHashes {
  readonly count: number;
  /** Byte offset of line 0, BLOCK, 2·BLOCK, … (line 0 starts after a BOM). */
  readonly checkpoints: number[];
}

/**
 * Fingerprints the lines of the `size` bytes of `fd`, as hashLines(splitLines(bytes)) would;
 * 'binary' when the file looks binary, undefined when a line is too long to be read a piece at
 * a time (several pieces) or the file ended early (it changed: the caller's check of its stamp
 * tells).
 */
export function scanFile(fd: number, size: number, piece = SCAN_PIECE): ScannedFile | 'binary' | undefined {
  if (looksBinary(readAt(fd, 0, Math.min(size, SNIFF_BYTES)))) return 'binary';
  let h1: Uint32Array = new Uint32Array(1024);
  let h2: Uint32Array = new Uint32Array(1024);
  const checkpoints: number[] = [];
  let count = 0;
  const buffer = Buffer.allocUnsafe(piece);
  // Bytes of an unfinished line, carried over to the next piece.
  let carry = Buffer.alloc(0);
  let read = 0;
  while (read < size) {
    const n = fs.readSync(fd, buffer, 0, Math.min(piece, size - read), read);
    if (n === 0) return undefined;
    read += n;
    const bytes = carry.length ? Buffer.concat([carry, buffer.subarray(0, n)]) : buffer.subarray(0, n);
    // Whole lines only, but for the last piece: the file's last line may lack its newline.
    const end = read < size ? bytes.lastIndexOf(0x0a) + 1 : bytes.length;
    const at = read - bytes.length; // offset in the file of `bytes`
    const lines = splitLines(bytes.subarray(0, end), at === 0);
    const hashes = hashLines(lines);
    if (count + lines.count > h1.length) {
      // Made, after the first piece, the size its lines suggest the file holds (and a little
      // more): the arrays are then seldom grown, each growth a copy beside the old ones.
      const estimate = count === 0 && end > 0 ? Math.ceil((lines.count * size * 1.05) / end) : 0;
      const grown = Math.max(h1.length * 2, count + lines.count, estimate);
      h1 = grow(h1, grown);
      h2 = grow(h2, grown);
    }
    h1.set(hashes.h1, count);
    h2.set(hashes.h2, count);
    for (let i = (BLOCK - (count % BLOCK)) % BLOCK; i < lines.count; i += BLOCK) checkpoints.push(at + lines.starts[i]!);
    count += lines.count;
    carry = Buffer.from(bytes.subarray(end)); // a copy: `buffer` is read into again
    if (carry.length > 4 * piece) return undefined;
  }
  return { h1: h1.subarray(0, count), h2: h2.subarray(0, count), count, checkpoints };
}

function grow(array: Uint32Array, length: number): Uint32Array {
  const bigger = new Uint32Array(length);
  bigger.set(array);
  return bigger;
}
