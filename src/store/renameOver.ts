// Renaming a new file over a big one without waiting for the old one to be freed.
//
// The rename that replaces a file frees the old file's pages and blocks when it takes its last
// name away: 17 ms for 60 MB on these machines, a tenth of an edit of such a file (and 9 ms for
// its 16 MB index). When the old file is big, it is first given a second name beside it, so that
// the rename only takes a name away; the second name is then removed on one of libuv's threads
// while rt goes on (the index, the history, the report), through a descriptor of the folder
// (/proc/self/fd/N/NAME): the folder the rename was made in, whatever its path or rt's working
// directory become meanwhile. The rename itself, and so what any reader sees, is unchanged.
//
// A process that ends waits for the removal, also with process.exit (a closed pipe): Node's exit
// lets libuv's threads finish the work queued to them. One killed leaves the second name, named
// as a temporary file of the target's (PID mark), for the target's next writer to remove (see
// removeLeftovers).

import fs from 'node:fs';
import path from 'node:path';

/** Below this, freeing the old file costs less than setting its removal aside. */
export const ASIDE_FROM = 1 << 20;

/** The sticky bit of a folder's mode (S_ISVTX). */
const STICKY = 0o1000;

/** Second names whose removal is under way. */
let pending = 0;
let proc: boolean | undefined;

/** Whether a folder's descriptor can name a file in it (Linux's /proc). */
function hasProc(): boolean {
  return (proc ??= fs.existsSync(`/proc/self/fd/`));
}

/**
 * Renames `from` over `to` (both in one folder: names relative to the working directory, or
 * paths). When `to` is a regular file of ASIDE_FROM bytes or more, it is first linked to `aside`
 * (a new name beside it, removed by the next writer if this process is killed), and that name
 * is removed after the rename without waiting for it. Throws what the rename throws.
 */
export function renameOver(from: string, to: string, aside: string): () => void {
  const second = linkAside(to, aside);
  try {
    fs.renameSync(from, to);
  } catch (error) {
    if (second) drop(second, true);
    throw error;
  }
  return second ? () => drop(second, false) : () => undefined;
}

/** Resolves once every removal set going has ended. */
export function asideRemoved(): Promise<void> {
  return new Promise((resolve) => {
    const check = () => (pending === 0 ? resolve() : setTimeout(check, 1));
    check();
  });
}

/** The old file's second name and its folder's descriptor, or undefined (small, not a file, no links, no /proc). */
function linkAside(to: string, aside: string): Second | undefined {
  if (!hasProc()) return undefined;
  const st = fs.lstatSync(to, { throwIfNoEntry: false });
  if (!st?.isFile() || st.size < ASIDE_FROM) return undefined;
  let dir: number;
  try {
    dir = fs.openSync(path.dirname(to), fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
  } catch {
    return undefined;
  }
  try {
    // In a sticky folder (as /tmp), only a file's owner may take its names away: a second name
    // of another user's file could not be removed (and the rename fails, EPERM).
    if (fs.fstatSync(dir).mode & STICKY && st.uid !== process.geteuid?.()) throw new Error('sticky');
    fs.linkSync(to, aside);
  } catch {
    // No hard links here (or not to this file, or that name is taken), or none to be removed: a plain rename.
    fs.closeSync(dir);
    return undefined;
  }
  return { proc: `/proc/self/fd/${dir}/${path.basename(aside)}`, abs: path.resolve(aside), dir };
}

interface Second {
  /** Its name through the folder's descriptor. */
  readonly proc: string;
  /** Its path as it was when it was made (the folder's, while rt was in it). */
  readonly abs: string;
  readonly dir: number;
}

function drop(second: Second, now: boolean): void {
  if (now) {
    for (const name of [second.proc, second.abs]) {
      try {
        fs.unlinkSync(name);
        break;
      } catch (error) {
        // Removed meanwhile (by a writer cleaning up after killed ones), or /proc refused it.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') break;
      }
    }
    fs.closeSync(second.dir);
    return;
  }
  pending++;
  const done = () => {
    pending--;
    fs.close(second.dir, () => undefined);
  };
  fs.unlink(second.proc, (error) => (error && error.code !== 'ENOENT' ? fs.unlink(second.abs, done) : done()));
}
