// Positional reads: bytes start..end of an open file (fewer if the file is shorter); and a write
// of all of some bytes, however few each call of the system writes.

import fs from 'node:fs';

export function readAt(fd: number, start: number, end: number): Buffer {
  const buf = Buffer.allocUnsafe(Math.max(0, end - start));
  return buf.subarray(0, readInto(fd, buf, start));
}

/** Fills `into` with the bytes of an open file from `start` on; returns how many it read (fewer at the file's end). */
export function readInto(fd: number, into: Uint8Array, start: number): number {
  let got = 0;
  while (got < into.length) {
    const n = fs.readSync(fd, into, got, into.length - got, start + got);
    if (n === 0) break;
    got += n;
  }
  return got;
}

/** Writes all of `bytes` to `fd` at its position, a call of the system after another while each writes fewer. */
export function writeAll(fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length; ) done += fs.writeSync(fd, bytes, done, bytes.length - done);
}
