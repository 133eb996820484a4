// Reading small files rt does not own (lock files, ignore files) as regular files only: a link
// in their place is not followed (it may lead out of the root), a FIFO is not waited on, and a
// file larger than expected is not read whole (a link to /dev/zero, or a planted giant).

import fs from 'node:fs';
import { readAt } from './readAt.js';

/** Opens for reading without following a link in the last part of the path, nor waiting on a FIFO. */
export const READ_PLAIN = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;

/**
 * The bytes of `file` if it is a regular file of at most `limit` bytes; undefined when it is
 * missing, unreadable, a link, anything but a regular file, or larger (with `partial`, the first
 * `limit` bytes of a larger one).
 */
export function readPlainFile(file: string, limit: number, partial = false): Buffer | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, READ_PLAIN);
  } catch {
    return undefined;
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || (st.size > limit && !partial)) return undefined;
    return readAt(fd, 0, Math.min(st.size, limit));
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}
