// Reading and editing inside a folder that cannot be swapped away (nothing outside the
// root is read or written). A path checked inside the root can be redirected before it is used: a folder of it
// replaced by a symbolic link to elsewhere between the check and the write. Node has no
// openat/renameat, but the working directory is bound to a folder itself, not to its path: once
// rt has entered the file's folder and checked that it is the one it resolved, every name it
// uses relative to it (the lock, the temporary file, the rename) stays in that folder, whatever
// is done to the path meanwhile.

import fs from 'node:fs';
import path from 'node:path';
import { RtError } from '../model/errors.js';
import type { ResolvedPath } from './root.js';

/** The longest path Linux resolves, in bytes (with its final NUL). */
const PATH_MAX = 4096;

export interface PinnedFile {
  /** The file, its `abs` now its bare name in the folder entered. */
  readonly file: ResolvedPath;
  /** Returns to the working directory rt started in. */
  leave(): void;
  /** The folders made for it (with `create`), outermost first, as absolute paths. */
  readonly made: readonly string[];
}

/**
 * Enters the folder of `file` (made first, folder by folder, when `create`), checking at each
 * step that the folder entered is the one resolved inside the root.
 */
export function enterFolderOf(file: ResolvedPath, create = false): PinnedFile {
  // Past PATH_MAX the system cannot name the folder (realpath, getcwd): refused at once, as a
  // recursive mkdir would be, instead of made folder by folder, each checked ever more slowly.
  if (Buffer.byteLength(file.abs) >= PATH_MAX) {
    throw new RtError('access', `the path of ${file.display} is too long (ENAMETOOLONG)`, ['choose a shorter path']);
  }
  const startedIn = process.cwd();
  const dir = path.dirname(file.abs);
  const missing: string[] = [];
  let base = dir;
  if (create) {
    while (!fs.existsSync(base) && path.dirname(base) !== base) {
      missing.unshift(path.basename(base));
      base = path.dirname(base);
    }
    if (!fs.statSync(base, { throwIfNoEntry: false })?.isDirectory()) {
      const shown = path.relative(process.cwd(), base) || '.';
      throw new RtError('access', `${shown} is not a folder: ${file.display} cannot be made in it`, [
        'choose a path whose folders are folders',
      ]);
    }
  }
  const leave = () => {
    try {
      process.chdir(startedIn);
    } catch {
      // The folder rt started in is gone: nothing after an edit needs it.
    }
  };
  const made: string[] = [];
  try {
    enter(base, base, file);
    let at = base;
    for (const name of missing) {
      at = path.join(at, name);
      try {
        fs.mkdirSync(name);
        made.push(at);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
          throw new RtError(
            'access',
            `cannot make the folder of ${file.display}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
            ['check the path and its permissions'],
          );
        }
      }
      enter(name, at, file);
    }
  } catch (error) {
    leave();
    throw error;
  }
  return { file: { ...file, abs: path.basename(file.abs) }, leave, made };
}

/** Enters `to` and checks that the folder entered is really `expected`. */
function enter(to: string, expected: string, file: ResolvedPath): void {
  let real: string;
  try {
    process.chdir(to);
    // The working directory as the kernel names it: a path without links (the same answer as
    // realpath('.'), which would read every folder of it as a possible link).
    real = process.cwd();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw swapped(file);
    throw new RtError('access', `cannot enter the folder of ${file.display}: ${code ?? String(error)}`, [
      'check the permissions of its folder',
    ]);
  }
  if (real !== expected) throw swapped(file);
}

function swapped(file: Pick<ResolvedPath, 'display'>): RtError {
  return new RtError(
    'access',
    `the folder of ${file.display} was moved or replaced after rt checked it; nothing was read or written through it`,
    [`check what is at ${path.dirname(file.display) || '.'} now, then run the command again`],
  );
}

/** Runs `use` with `file` named within its folder, entered (see enterFolderOf), then leaves it. */
export function withFolderOf<T>(file: ResolvedPath, use: (file: ResolvedPath) => T): T {
  const pinned = enterFolderOf(file);
  try {
    return use(pinned.file);
  } finally {
    pinned.leave();
  }
}

/**
 * Files read one after another, many of them in the same folder (a search's hits): each folder
 * is entered and checked once for a run of its files (see enterFolderOf), and left for the next
 * folder, or at `done`, which must follow. Only reads: every file of the run is read in the
 * folder checked to be inside the root when entered, whatever is done to its path meanwhile
 * (moved out of the root, or a link put in its place), as a file read a moment after the check
 * always was; a write enters its folder itself (see The flow of a write).
 */
export class FolderRun {
  private pinned: { readonly dir: string; leave(): void } | undefined;

  /** Runs `use` with `file` named within its folder, entered (or still entered, for the file before it). */
  in<T>(file: ResolvedPath, use: (file: ResolvedPath) => T): T {
    const dir = path.dirname(file.abs);
    if (this.pinned?.dir !== dir) {
      this.done();
      const entered = enterFolderOf(file);
      this.pinned = { dir, leave: entered.leave };
      return use(entered.file);
    }
    return use({ ...file, abs: path.basename(file.abs) });
  }

  /**
   * The working directory was set back to the one rt started in by another (a search's step
   * stopped in time, see timeBudget.ts): the folder is no longer entered.
   */
  forget(): void {
    this.pinned = undefined;
  }

  /** Returns to the working directory rt started in. */
  done(): void {
    this.pinned?.leave();
    this.pinned = undefined;
  }
}

/**
 * Runs `use` inside the folder `dir` (a real path), entered and checked to be that folder: the
 * names `use` gives relative to it stay in it, whatever is done to the path meanwhile.
 */
export function inFolder<T>(dir: string, display: string, use: () => T): T {
  const startedIn = process.cwd();
  if (startedIn === dir) return use();
  const file: ResolvedPath = { abs: path.join(dir, display), stateRoot: dir, rel: display, display };
  enter(dir, dir, file);
  try {
    return use();
  } finally {
    try {
      process.chdir(startedIn);
    } catch {
      // The folder rt started in is gone: nothing after a write needs it.
    }
  }
}
