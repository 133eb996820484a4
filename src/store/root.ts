// The root and its sandbox (see One write path): every path rt touches must resolve inside the root.

import fs from 'node:fs';
import path from 'node:path';
import { printable, RtError, shellQuote } from '../model/errors.js';
import { below, isInside } from './inside.js';
import { suggestPaths } from './suggest.js';

export { isInside };

export interface ResolvedPath {
  /** Absolute real path (symbolic links resolved). */
  readonly abs: string;
  /**
   * The folder whose `.rt/` holds the file's state: the nearest ancestor of the file (not of
   * the working directory) holding `.git` or `.rt`, inside the root, else the root. A
   * nested repository or a submodule keeps its own, whichever folder rt runs from.
   */
  readonly stateRoot: string;
  /** Path relative to `stateRoot`, with `/` separators: the key of its state. */
  readonly rel: string;
  /** Path as shown to the user: relative to the working directory. */
  readonly display: string;
}

export interface Root {
  /** The root's real path. */
  readonly dir: string;
  readonly cwd: string;
  /**
   * Told of each other state root (a nested repository's) the first time a path resolves into
   * it, before anything of it is read: what a killed batch left there is finished then.
   */
  readonly onStateRoot?: (dir: string) => void;
}

/** Per root, the state root found for each folder asked about (a search asks for hundreds of files in few folders). */
const stateRoots = new WeakMap<Root, Map<string, string>>();
/** Per root, the other state roots onStateRoot was told of. */
const toldStateRoots = new WeakMap<Root, Set<string>>();

/** The root: `override` (--root or RT_ROOT), else the nearest ancestor holding .git or .rt, else cwd. */
export function findRoot(cwd: string, override: string | undefined): Root {
  const realCwd = realpathOr(cwd);
  if (override) {
    const dir = path.resolve(cwd, override);
    let real: string;
    try {
      real = fs.realpathSync.native(dir);
      if (!fs.statSync(real).isDirectory()) throw new Error('not a directory');
    } catch {
      throw new RtError('usage', `root ${printable(override)} is not a directory`, [
        'give --root (or RT_ROOT) an existing directory',
      ]);
    }
    return { dir: real, cwd: realCwd };
  }
  for (let dir = realCwd; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, '.git')) || fs.existsSync(path.join(dir, '.rt'))) return { dir, cwd: realCwd };
    if (path.dirname(dir) === dir) return { dir: realCwd, cwd: realCwd };
  }
}

/**
 * Resolves a user's path against the working directory, follows symbolic links, and refuses
 * it unless it lies inside the root. A missing path is refused with the closest existing paths,
 * unless `allowMissing` (for files about to be created).
 */
export function resolveInRoot(root: Root, userPath: string, allowMissing = false): ResolvedPath {
  if (userPath === '') throw new RtError('usage', 'empty path', ['name a file, e.g. rt open README.md']);
  const lexical = path.resolve(root.cwd, userPath);
  const real = realpathAllowingMissing(lexical, (abs) => displayPath(root, abs));
  relInRoot(root, real.path, userPath);
  if (real.missing && !allowMissing) {
    const near = suggestPaths(root, lexical);
    const hints = near.length
      ? [`closest existing: ${near.map(shellQuote).join(', ')}`]
      : ['list files with: rt find NAME'];
    throw new RtError('not_found', `no such file: ${printable(userPath)}`, hints, { suggestions: near });
  }
  // A final separator names a folder (as the system reads it: `cat FILE/` fails), which path.resolve would drop.
  if (
    endsWithSeparator(userPath) &&
    !real.missing &&
    !fs.statSync(real.path, { throwIfNoEntry: false })?.isDirectory()
  ) {
    throw new RtError('access', `${printable(userPath)} is not a folder (a final ${path.sep} names one)`, [
      `name the file without it: ${shellQuote(withoutFinalSeparators(userPath))}`,
    ]);
  }
  const key = stateKeyOf(root, real.path);
  // A folder named (to search or list) may be a nested root itself: told before anything in it is read.
  const folder =
    root.onStateRoot &&
    !real.missing &&
    real.path !== root.dir &&
    fs.statSync(real.path, { throwIfNoEntry: false })?.isDirectory();
  if (folder) stateRootOf(root, real.path);
  // Shown as the user named it (a symbolic link by its own name), relative to the working directory.
  return { abs: real.path, ...key, display: displayPath(root, lexical) };
}

/**
 * A path a listing found under a folder resolveInRoot resolved, taken as it is, without
 * resolving it again (for the hundreds of files a search prints): git and the walk list no path
 * through a symbolic link to a folder, and a reader enters its folder with withFolderOf, which
 * checks that the folder is still that real path, then never follows a link in its last part.
 * Refused as resolveInRoot refuses a path outside the root or in rt's state folder.
 */
export function listedPath(root: Root, abs: string, display: string): ResolvedPath {
  relInRoot(root, abs, display);
  return { abs, ...stateKeyOf(root, abs), display };
}

/** Where the state of the file at real path `abs` (inside the root) lives, and its key there. */
export function stateKeyOf(root: Root, abs: string): { stateRoot: string; rel: string } {
  const stateRoot = stateRootOf(root, path.dirname(abs));
  return { stateRoot, rel: toPosix(below(stateRoot, abs) ?? path.relative(stateRoot, abs)) };
}

/** The nearest folder from `dir` up to the root holding `.git` or `.rt`; the root if none does. */
function stateRootOf(root: Root, dir: string): string {
  let known = stateRoots.get(root);
  if (!known) stateRoots.set(root, (known = new Map()));
  const found = known.get(dir);
  if (found !== undefined) return found;
  let answer: string;
  if (dir === root.dir || !isInside(root.dir, dir)) answer = root.dir;
  else if (fs.existsSync(path.join(dir, '.git')) || fs.existsSync(path.join(dir, '.rt'))) answer = dir;
  else answer = stateRootOf(root, path.dirname(dir));
  known.set(dir, answer);
  if (answer !== root.dir && root.onStateRoot) {
    let told = toldStateRoots.get(root);
    if (!told) toldStateRoots.set(root, (told = new Set()));
    if (!told.has(answer)) {
      told.add(answer);
      root.onStateRoot(answer);
    }
  }
  return answer;
}

/**
 * The path relative to the root (with "/") of a real path, refused when outside the root or in a state folder (the
 * root's or a nested root's).
 */
function relInRoot(root: Root, real: string, userPath: string): string {
  // (The listed paths of a search lie below the root, and are taken by slicing: see below.)
  const sliced = below(root.dir, real);
  if (sliced === undefined && !isInside(root.dir, real)) {
    throw new RtError('outside_root', `${printable(userPath)} is outside the root ${printable(root.dir)}`, [
      `work inside ${root.dir}, or choose another root with --root DIR (or RT_ROOT)`,
    ]);
  }
  const rel = toPosix(sliced ?? path.relative(root.dir, real));
  if (inStateFolder(rel)) {
    throw new RtError('outside_root', `${printable(userPath)} is rt's own state folder`, [
      'rt does not read or edit its state; delete .rt/ to reset it',
    ]);
  }
  return rel;
}

/** Whether a relative POSIX path has a part ".rt". */
function inStateFolder(rel: string): boolean {
  return rel === '.rt' || rel.startsWith('.rt/') || rel.endsWith('/.rt') || rel.includes('/.rt/');
}

/** A path's final separators: "/" (and, on Windows, "\\"; a POSIX file name may end in a backslash). */
const FINAL_SEPARATORS = path.sep === '\\' ? /[\\/]+$/ : /\/+$/;

/** Whether a path names a folder by its last character (see FINAL_SEPARATORS). */
export function endsWithSeparator(userPath: string): boolean {
  return FINAL_SEPARATORS.test(userPath);
}

/** The path without its final separators. */
export function withoutFinalSeparators(userPath: string): string {
  return userPath.replace(FINAL_SEPARATORS, '');
}

export function displayPath(root: Root, abs: string): string {
  const rel = path.relative(root.cwd, abs);
  return printable(toPosix(rel === '' ? '.' : rel));
}

function toPosix(p: string): string {
  return path.sep === '/' ? p : p.split(path.sep).join('/');
}

function realpathOr(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return path.resolve(p);
  }
}

/**
 * Real path of `p`; for a path that does not exist, the real path of its nearest existing ancestor
 * joined with the rest. `shown`: how a refusal names a path (a dangling link on the way).
 */
export function realpathAllowingMissing(
  p: string,
  shown: (abs: string) => string = printable,
): { path: string; missing: boolean } {
  const rest: string[] = [];
  let current = p;
  for (;;) {
    try {
      const real = fs.realpathSync.native(current);
      return { path: rest.length ? path.join(real, ...rest.reverse()) : real, missing: rest.length > 0 };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        throw new RtError('access', `cannot resolve ${printable(p)}: ${code ?? String(error)}`, [
          'check the path and its permissions',
        ]);
      }
      // A dangling symbolic link must not be followed to wherever it points later.
      if (isSymlink(current)) {
        // The link itself is named (it may be a folder on the way), as the commands that fix it take it.
        const link = shown(current);
        throw new RtError('not_found', `${link} is a symbolic link to a missing file`, [
          `remove the link (rm ${shellQuote(link)}), or point it at a file inside the root (ln -sfn ` +
            `FILE ${shellQuote(link)})`,
        ]);
      }
      const parent = path.dirname(current);
      if (parent === current) return { path: p, missing: true };
      rest.push(path.basename(current));
      current = parent;
    }
  }
}

function isSymlink(p: string): boolean {
  try {
    return fs.lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}
