// What rt never writes, removes or makes, whatever a command or a patch names: anything inside
// a repository's `.git` (the folder, or the `.git` file of a worktree or submodule, and any git
// folder such a file leads to) and inside rt's own `.rt/`. A prompt that reaches rt must not
// reach a repository's hooks or config through it. Reading them stays allowed.
//
// Paths are real paths (links and `..` resolved by the caller). The names are compared without
// regard to case, as git itself refuses `.GIT` in a tree on every system: on a file system that
// ignores case (macOS, Windows) `.Git/config` is the repository's config. (Other spellings those
// systems take for `.git` — NTFS's `GIT~1`, HFS+'s ignored code points — are not looked for.)

import fs from 'node:fs';
import path from 'node:path';
import { RtError } from '../model/errors.js';

const PROTECTED_NAMES = new Set(['.git', '.rt']);

/**
 * The protected folder or file that `abs` (a real, absolute path) lies in or is, or undefined:
 * a part of the path named `.git` or `.rt`, or a folder on the way up that is a git folder
 * itself (a `--separate-git-dir`, a worktree's folder, a bare repository). The way up ends at
 * the top of a work tree (a folder holding `.git`): its files are the work tree's even where it
 * lies inside a git folder (a worktree added inside a bare repository).
 */
export function protectedPlace(abs: string): string | undefined {
  const parts = abs.split(path.sep);
  const at = parts.findIndex((part) => PROTECTED_NAMES.has(part.toLowerCase()));
  if (at !== -1) return parts.slice(0, at + 1).join(path.sep);
  for (let dir = path.dirname(abs); ; dir = path.dirname(dir)) {
    if (isGitFolder(dir)) return dir;
    if (lstatOrNone(path.join(dir, '.git')) !== undefined) return undefined;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * Whether `dir` is a git folder as git tells one: a HEAD that reads as one, and objects and refs
 * beside it (or, for a worktree's folder, a commondir that leads to them). Not remembered: a
 * server's folder may become one.
 */
function isGitFolder(dir: string): boolean {
  const has = (name: string) => lstatOrNone(path.join(dir, name)) !== undefined;
  const head = lstatOrNone(path.join(dir, 'HEAD'));
  if (!head || !(has('commondir') || (has('objects') && has('refs')))) return false;
  if (!head.isFile()) return head.isSymbolicLink(); // a HEAD as old git made them; nothing else is read
  try {
    // As git reads a HEAD: a symbolic ref (any white space after "ref:"), or an object name of
    // SHA-1 or SHA-256.
    return /^(ref:\s*refs\/|[0-9a-f]{40})/.test(fs.readFileSync(path.join(dir, 'HEAD'), 'latin1').slice(0, 80));
  } catch {
    return false;
  }
}

/**
 * What is at `file` (not followed), or undefined when nothing can be there (missing, a file on the way, a name too
 * long).
 */
export function lstatOrNone(file: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** Refuses a write, removal or folder made at `abs` (a real path) inside a protected place; `display` names it. */
export function refuseProtectedWrite(abs: string, display: string): void {
  const place = protectedPlace(abs);
  if (place === undefined) return;
  const name = path.basename(place);
  const own = name.toLowerCase() === '.rt';
  const where = own
    ? `rt's own state folder (${name})`
    : name.toLowerCase() === '.git'
      ? `a repository's ${name}`
      : `a git folder (${name})`;
  const hint = own
    ? 'rt keeps .rt/ itself; delete .rt/ to reset it'
    : "change a repository's config, hooks and refs with git itself (git config, git commit …); " +
      'rt reads them (rt open) but never writes them';
  throw new RtError(
    'access',
    `${display} ${place === abs ? 'is' : 'is inside'} ${where}: rt never writes, removes or ` +
      `makes anything there; nothing was written`,
    [hint],
    { abs },
  );
}
