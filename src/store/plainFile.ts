// Reading small files rt does not own (lock files, ignore files) as regular files only: a link
// in their place is not followed (it may lead out of the root), a FIFO is not waited on, and a
// file larger than expected is not read whole (a link to /dev/zero, or a planted giant).

import fs from 'node:fs';
import { readAt } from './readAt.js';

/** Opens for reading without following a link in the last part of the path, nor waiting on a FIFO. */
export const READ_PLAIN = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;

/**
 * `read` of `file` opened as a regular file (see READ_PLAIN), with its size; undefined when it is
 * missing, unreadable, a link, anything but a regular file, or `read` throws. It is closed after.
 */
export function withPlainFile<T>(file: string, read: (fd: number, size: number) => T | undefined): T | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, READ_PLAIN);
  } catch {
    return undefined;
  }
  try {
    const st = fs.fstatSync(fd);
    return st.isFile() ? read(fd, st.size) : undefined;
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The bytes of `file` if it is a regular file of at most `limit` bytes; undefined when it is
 * missing, unreadable, a link, anything but a regular file, or larger (with `partial`, the first
 * `limit` bytes of a larger one).
 */
export function readPlainFile(file: string, limit: number, partial = false): Buffer | undefined {
  return withPlainFile(file, (fd, size) =>
    size > limit && !partial ? undefined : readAt(fd, 0, Math.min(size, limit)),
  );
}
