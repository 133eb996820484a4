// Safe replacement of a user's file (see All or nothing, Byte fidelity): the new content goes to
// a temporary file beside the target, is flushed to disk and given the target's mode, and is renamed over the target
// only if the target is still the version that was read. Killed at any instant, this leaves the
// old file or the new one, whole; a temporary file left by a killed process is removed by the
// next run (cleanStaleTemps).

import fs from 'node:fs';
import { READ_PLAIN } from './plainFile.js';
import { writeAll } from './readAt.js';
import path from 'node:path';
import { crcOn } from '../model/crc32.js';
import { RtError } from '../model/errors.js';
import { zlib } from '../io/builtins.js';
import { knownDigest, SMALL_CONTENT } from './indexedFile.js';
import { removeLockLeftovers } from './lock.js';
import { inFolder } from './pinnedFolder.js';
import { tempMark } from '../io/processes.js';
import { renameOver } from './renameOver.js';

const TEMP_MARK = '.rt-tmp-';

/**
 * What tells a file's version: its ctime too, which every write moves and no one can set (a
 * same-size rewrite in place that keeps the mtime, as `cp --preserve=timestamps` does, keeps
 * size, mtime and inode).
 */
export interface FileVersion {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly ino: number;
  /** Its permission bits (not part of what tells a version; what a file made again gets back). */
  readonly mode?: number;
}

/**
 * Bytes of a new content that were never read into memory (an edit of a big file, see bigEdit.ts):
 * each range is copied from the file being replaced, which must still be the version `version`
 * read, while the new content is written.
 */
export interface Unread {
  readonly version: FileVersion;
  /** `length` bytes at `at` in the new content are those at `from` in the file. */
  readonly ranges: ReadonlyArray<{ readonly at: number; readonly from: number; readonly length: number }>;
}

/**
 * Bytes copied at a time from the file replaced (see Unread): the piece is resident at a big edit's
 * peak, and copies no slower than one of 1 MiB.
 */
const COPY_PIECE = 1 << 18;

export function versionOf(st: fs.Stats): FileVersion {
  return { size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino, mode: st.mode & 0o7777 };
}

function tempName(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}${TEMP_MARK}${tempMark()}`);
}

/**
 * Writes `data` (or its parts, one after the other) to `target` atomically. `expected` is the
 * version that was read (undefined for a new file, which must then still not exist unless
 * `overwrite`); a target changed since is refused.
 */
export function replaceFile(
  target: string,
  data: Buffer | readonly Buffer[],
  expected: FileVersion | undefined,
  display: string,
  overwrite = false,
  newMode?: number,
  unread?: Unread,
): void {
  const tmp = writeTemp(target, Buffer.isBuffer(data) ? [data] : data, display, tempName(target), newMode, unread);
  try {
    checkUnchanged(target, expected, display, overwrite);
    moveIntoPlace(tmp, target, true, expected === undefined && !overwrite);
  } catch (error) {
    fs.rmSync(tmp, { force: true });
    throw error;
  }
}

/**
 * Makes, where nothing is, the symbolic link `target` holding `text` (an undo restoring a link removed): made beside
 * it, then linked into place.
 */
export function placeLink(target: string, text: string, display: string): void {
  const tmp = linkTemp(target, text, display, tempName(target));
  try {
    checkUnchanged(target, undefined, display, false);
    moveIntoPlace(tmp, target, true, true);
  } catch (error) {
    fs.rmSync(tmp, { force: true });
    throw error;
  }
}

/** Makes the symbolic link `temp` beside `target`, holding `text`; returns `temp`. */
export function linkTemp(target: string, text: string, display: string, temp: string): string {
  inFolder(path.dirname(target), display, () => {
    try {
      fs.symlinkSync(text, path.basename(temp));
    } catch (error) {
      throw writeError(error, display);
    }
  });
  return temp;
}

/**
 * Writes `parts` to the new file `temp` beside `target`, with the target's mode and owner (or
 * the mode a new file gets), flushed to disk; returns `temp`. Inside the target's folder,
 * entered and checked (see inFolder): a folder swapped for a link meanwhile is refused.
 */
/**
 * The version of each file this process wrote (its temporary file's inode, content time and size,
 * which a rename into place keeps), by its path: a stamp found there later is rt's own write only
 * if it is that version (see ownWriteSettled), not another program's save renamed in meanwhile.
 */
const writtenHere = new Map<string, { ino: string; mtimeNs: string; size: number }>();

/** The version this process last wrote at `abs` (see writtenHere), if any. */
export function writtenVersion(abs: string): { ino: string; mtimeNs: string; size: number } | undefined {
  return writtenHere.get(abs);
}

export function writeTemp(
  target: string,
  parts: readonly Buffer[],
  display: string,
  temp: string,
  newMode?: number,
  unread?: Unread,
): string {
  return inFolder(path.dirname(target), display, () => {
    const name = path.basename(target);
    // A new file gets `newMode` (a file an undo makes again: its own), else what the umask leaves.
    let mode = newMode ?? 0o666 & ~process.umask();
    let owner: { uid: number; gid: number } | undefined;
    let st: fs.Stats | undefined;
    try {
      // `target` is a real path: a symbolic link there now was swapped in since it was checked.
      st = fs.lstatSync(name);
    } catch {
      // a new file
    }
    if (st) {
      if (st.isSymbolicLink())
        throw new RtError(
          'access',
          `${display} was replaced by a symbolic link while rt was editing it; nothing was written`,
          [`check where it leads: ls -l ${display}; then run the command again`],
        );
      if (!st.isFile())
        throw new RtError('access', `${display} is not a regular file`, ['rt writes regular files only']);
      mode = st.mode & 0o7777;
      owner = { uid: st.uid, gid: st.gid };
      // Renaming over a file needs only the folder to be writable: the file's own permission
      // must be honoured too, as an editor saving in place would.
      try {
        fs.accessSync(name, fs.constants.W_OK);
      } catch {
        throw new RtError('access', `permission denied: ${display} is not writable`, [
          `check its permissions: ls -l ${display}`,
        ]);
      }
    }
    const tmp = path.basename(temp);
    let fd: number | undefined;
    try {
      fd = fs.openSync(tmp, 'wx', mode);
      if (unread) writeWithUnread(fd, name, parts, unread, display);
      else {
        for (const part of parts) writeAll(fd, part);
      }
      // Owner first: changing the owner clears the setuid and setgid bits that chmod then restores.
      if (owner && process.getuid?.() === 0) fs.fchownSync(fd, owner.uid, owner.gid);
      fs.fchmodSync(fd, mode);
      fs.fsyncSync(fd);
      const own = fs.fstatSync(fd, { bigint: true });
      writtenHere.set(target, { ino: String(own.ino), mtimeNs: String(own.mtimeNs), size: Number(own.size) });
      fs.closeSync(fd);
      fd = undefined;
    } catch (error) {
      if (fd !== undefined) fs.closeSync(fd);
      fs.rmSync(tmp, { force: true });
      throw writeError(error, display);
    }
    return temp;
  });
}

/**
 * Writes `parts` to `fd`, the ranges `unread` names copied from the file `name` (in the folder
 * entered) a piece at a time, that file checked to be the version read before and after; the
 * CRC of all of it is taken on the way, as the digest of those parts (see contentDigest), which
 * the index and the history ask for and which only reading the file again could give otherwise.
 */
function writeWithUnread(fd: number, name: string, parts: readonly Buffer[], unread: Unread, display: string): void {
  const { crc32 } = zlib();
  const source = fs.openSync(name, READ_PLAIN);
  try {
    const check = () => {
      if (!sameVersion(fs.fstatSync(source), unread.version)) throw changedWhileEdited(display);
    };
    check();
    const piece = Buffer.allocUnsafe(COPY_PIECE);
    let crc = 0;
    let size = 0;
    const copy = (from: number, length: number) => {
      for (let done = 0; done < length; ) {
        const n = fs.readSync(source, piece, 0, Math.min(COPY_PIECE, length - done), from + done);
        if (n === 0) throw changedWhileEdited(display);
        writeAll(fd, piece.subarray(0, n));
        crc = crcOn(crc32, piece.subarray(0, n), crc);
        done += n;
      }
    };
    for (const part of parts) {
      for (let p = 0; p < part.length; ) {
        const at = size + p;
        const range = unread.ranges.find((r) => at >= r.at && at < r.at + r.length);
        if (range) {
          const n = Math.min(range.at + range.length - at, part.length - p);
          copy(range.from + (at - range.at), n);
          p += n;
          continue;
        }
        const next = Math.min(...unread.ranges.filter((r) => r.at > at).map((r) => r.at), at + part.length - p);
        const bytes = part.subarray(p, p + (next - at));
        writeAll(fd, bytes);
        crc = crcOn(crc32, bytes, crc);
        p += bytes.length;
      }
      size += part.length;
    }
    check();
    // The digest contentDigest gives a file this big (a smaller one's is of another kind).
    if (size >= SMALL_CONTENT) knownDigest(parts, `crc32:${size}:${crc.toString(16)}`);
  } finally {
    fs.closeSync(source);
  }
}

function sameVersion(now: fs.Stats, expected: FileVersion): boolean {
  return (
    now.size === expected.size &&
    now.mtimeMs === expected.mtimeMs &&
    now.ctimeMs === expected.ctimeMs &&
    now.ino === expected.ino
  );
}

function changedWhileEdited(display: string): RtError {
  return new RtError('stale', `${display} changed while it was being edited; nothing was written`, [
    `run the command again (its anchors are checked against the new content)`,
  ]);
}

/**
 * Renames `temp` over `target` (both in one folder, entered and checked), then flushes the
 * folder unless `sync` is false. With `exclusive` (a new file), a file made at `target` by
 * anyone meanwhile is never replaced: the new file is linked into place, which fails if one is
 * there (EEXIST, refused as 'exists'), then its temporary name removed; where links are not
 * to be had, renamed after a last check. With `aside`, a big file replaced is freed off the main
 * thread (see renameOver); a batch's renames go without: the second name moves the old file's
 * ctime, and a batch killed between that link and the rename would find its file changed by
 * someone else when finished (see finish in journal.ts), and leave it unwritten.
 */
export function moveIntoPlace(temp: string, target: string, sync = true, exclusive = false, aside = true): void {
  const display = path.basename(target);
  let dropOld: () => void = () => undefined;
  inFolder(path.dirname(target), display, () => {
    const from = path.basename(temp);
    const to = path.basename(target);
    try {
      if (exclusive && placeExclusively(from, to)) return;
      if (aside) dropOld = renameOver(from, to, tempName(to));
      else fs.renameSync(from, to);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST')
        throw new RtError('exists', `${display} appeared while it was being created; it was left as it is`, [
          `look at it: rt open ${display}`,
        ]);
      throw writeError(error, display);
    }
  });
  try {
    if (sync) syncDir(path.dirname(target));
  } finally {
    dropOld(); // the old file, given a second name by renameOver if big: removed off the main thread
  }
}

/**
 * Links `from` to the new name `to` and drops `from`; false where the file system has no links (then nothing was done).
 */
function placeExclusively(from: string, to: string): boolean {
  try {
    fs.linkSync(from, to);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS') {
      if (fs.lstatSync(to, { throwIfNoEntry: false })) throw Object.assign(new Error('exists'), { code: 'EEXIST' });
      return false;
    }
    throw error;
  }
  fs.unlinkSync(from);
  return true;
}

/**
 * Refuses (naming the file in `details.abs`) a write that permissions would stop: the file's
 * folder must be writable (for the temporary file and the rename, or the removal), and an
 * existing file too when it is `replaced` (as an editor saving in place would need).
 */
export function checkWritable(abs: string, display: string, replaced: boolean): void {
  const dir = path.dirname(abs);
  try {
    fs.accessSync(dir, fs.constants.W_OK);
  } catch {
    throw new RtError(
      'access',
      `permission denied: the folder of ${display} is not writable; nothing was written`,
      [`check its permissions: ls -ld ${path.dirname(display) || '.'}`],
      { abs },
    );
  }
  if (!replaced) return;
  try {
    if (fs.lstatSync(abs, { throwIfNoEntry: false })?.isFile()) fs.accessSync(abs, fs.constants.W_OK);
  } catch {
    throw new RtError(
      'access',
      `permission denied: ${display} is not writable; nothing was written`,
      [`check its permissions: ls -l ${display}`],
      { abs },
    );
  }
}

function writeError(error: unknown, display: string): RtError {
  if (error instanceof RtError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  return new RtError('access', `cannot write ${display}: ${code ?? String(error)}`, [
    code === 'EACCES' || code === 'EPERM'
      ? `check the permissions of ${path.dirname(display) || '.'}`
      : 'check the disk and try again',
  ]);
}

export function checkUnchanged(
  target: string,
  expected: FileVersion | undefined,
  display: string,
  overwrite: boolean,
): void {
  let now: fs.Stats | undefined;
  try {
    now = fs.lstatSync(target);
  } catch {
    now = undefined;
  }
  if (expected === undefined) {
    if (now && !overwrite)
      throw new RtError('exists', `${display} appeared while it was being created`, [`look at it: rt open ${display}`]);
    return;
  }
  if (!now || !sameVersion(now, expected)) throw changedWhileEdited(display);
}

export function syncDir(dir: string): void {
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // Not every file system lets a directory be synced; the rename is atomic regardless.
  }
}

/**
 * Removes temporary files of `target` left by rt processes that are gone (see removeLeftovers): its
 * `.NAME.rt-tmp-PID-…` files, and what a kill left of its lock (see removeLockLeftovers).
 */
export function cleanStaleTemps(target: string): void {
  removeLockLeftovers(path.join(path.dirname(target), `.${path.basename(target)}.rt-lock`), [
    `.${path.basename(target)}${TEMP_MARK}`,
  ]);
}
