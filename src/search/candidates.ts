// The files a search reads: listed under each PATH as git (or the walk) lists them, chosen by
// globs, narrowed to those an engine found, sorted as a tree is read, and placed (absolute path,
// path shown).

import fs from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { printable, RtError } from '../model/errors.js';
import { statResolved } from '../store/indexedFile.js';
import { resolveInRoot, type Root } from '../store/root.js';
import { comparePaths, listedAmong, listFiles, NAME_ENDING, type ListOptions, type TrackedPaths } from './listFiles.js';

/** A file to search: its absolute path and how it is shown. */
export interface Candidate {
  readonly abs: string;
  readonly display: string;
}

export interface CandidateSet {
  readonly files: Candidate[];
  /** Whether ignore rules or the hidden rule left files out (for the "nothing found" note). */
  readonly filtered: boolean;
  /** Absolute paths (decoded) of files left out for names that are not valid UTF-8 (see noteUndecodable). */
  readonly undecodable?: readonly string[];
}

/** The files found under each path searched, before globs and sorting. */
export interface Listed {
  /**
   * `walked`: the paths come from a walk (or were checked against one), which follows no link: none goes through one.
   */
  readonly groups: ReadonlyArray<{
    readonly place: (rel: string) => Candidate;
    readonly absPrefix: string;
    readonly rels: readonly string[];
    readonly named: boolean;
    readonly walked?: boolean;
  }>;
  readonly filtered: boolean;
  /** Absolute paths (decoded) of files left out for names that are not valid UTF-8. */
  readonly undecodable?: readonly string[];
}

/**
 * The files under `paths` (files and folders, resolved inside the root): a folder's as git (or
 * the walk) lists them; a file named on the command line whatever the ignore rules say, as
 * ripgrep does. FIFOs, sockets and devices are left out.
 */
export function listCandidates(root: Root, paths: readonly string[], list: ListOptions): Listed {
  const groups: Array<Listed['groups'][number]> = [];
  const undecodable: string[] = [];
  let filtered = false;
  for (const p of paths.length ? paths : ['.']) {
    const target = resolveInRoot(root, p);
    const st = statResolved(target);
    if (!st.isDirectory() && !st.isFile())
      throw new RtError('access', `${target.display} is not a regular file or a folder`, [
        'grep searches regular files (and the files of folders); it never waits on a FIFO or reads a device',
      ]);
    if (!st.isDirectory()) {
      groups.push({
        place: () => ({ abs: target.abs, display: target.display }),
        absPrefix: '',
        rels: [target.abs],
        named: true,
      });
      continue;
    }
    const listing = listFiles(target.abs, list, root.dir);
    filtered ||= !list.noIgnore || (!list.hidden && listing.skippedHidden > 0);
    groups.push({
      place: placeUnder(root, target.abs),
      absPrefix: absPrefixOf(target.abs),
      rels: listing.files,
      named: false,
      walked: listing.walked,
    });
    for (const rel of listing.undecodable) undecodable.push(path.join(target.abs, rel));
  }
  return { groups, filtered, undecodable };
}

/**
 * The listed files that `globs` let through (ripgrep's -g: a glob without "/" matches the file
 * name at any depth, with "/" the path from the folder searched; "!" excludes) and, when `only`
 * is given, that are in it (absolute paths); sorted as a tree is read.
 */
export function pickCandidates(listed: Listed, globs: readonly string[], only?: ReadonlySet<string>): CandidateSet {
  const empty = globs.find((g) => g === '' || g === '!');
  if (empty !== undefined)
    throw new RtError('usage', `the glob ${JSON.stringify(empty)} names no file`, [
      "give -g a pattern, e.g. -g '*.ts' to search only TypeScript files or -g '!*.min.js' to leave files out",
    ]);
  const include = globs.filter((g) => !g.startsWith('!')).map(globMatcher);
  const exclude = globs.filter((g) => g.startsWith('!')).map((g) => globMatcher(g.slice(1)));
  const wanted = (rel: string) => (include.length === 0 || include.some((m) => m(rel))) && !exclude.some((m) => m(rel));
  const throughLink = throughLinkedFolder();
  const files = new Map<string, Candidate>();
  for (const group of listed.groups) {
    if (group.named) {
      const file = group.place('');
      if (wanted(path.posix.basename(file.display))) files.set(file.abs, file);
      continue;
    }
    for (const rel of group.rels) {
      if (only && !only.has(group.absPrefix + rel)) continue;
      if (!wanted(rel) || (!group.walked && throughLink(group.absPrefix, rel))) continue;
      const file = group.place(rel);
      files.set(file.abs, file);
    }
  }
  return {
    files: [...files.values()].sort((a, b) => comparePaths(a.display, b.display)),
    filtered: listed.filtered,
    ...(listed.undecodable ? { undecodable: listed.undecodable } : {}),
  };
}

/**
 * Whether a listed path (relative to a folder resolved inside the root, whose absolute path with
 * a final separator is `absPrefix`) goes through a symbolic link to a folder: git lists a tracked
 * file whose folder was since replaced by a link (to elsewhere in the root, or out of it), and
 * rt follows no link, as ripgrep does not (printing it would refuse it, once it had counted).
 * One lstat per folder met, only for the paths asked about.
 */
export function throughLinkedFolder(): (absPrefix: string, rel: string) => boolean {
  const linked = new Map<string, boolean>();
  const check = (absPrefix: string, relDir: string): boolean => {
    if (relDir === '') return false;
    const key = absPrefix + relDir;
    let known = linked.get(key);
    if (known === undefined) {
      const slash = relDir.lastIndexOf('/');
      known = check(absPrefix, slash < 0 ? '' : relDir.slice(0, slash)) || isLink(key);
      linked.set(key, known);
    }
    return known;
  };
  // Listings come folder by folder: the last folder's answer serves the paths that follow in it.
  let last: { absPrefix: string; dir: string; linked: boolean } | undefined;
  return (absPrefix, rel) => {
    const cut = Math.max(0, rel.lastIndexOf('/'));
    if (last && last.absPrefix === absPrefix && last.dir.length === cut && rel.startsWith(last.dir)) return last.linked;
    const dir = rel.slice(0, cut);
    last = { absPrefix, dir, linked: check(absPrefix, dir) };
    return last.linked;
  };
}

/** Whether `abs` is a symbolic link (false when it cannot be told: gone, or no folder on the way). */
function isLink(abs: string): boolean {
  try {
    return fs.lstatSync(abs).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * The files among `found` (absolute paths, e.g. those ripgrep found) under the folders `dirs`,
 * as listCandidates and pickCandidates would choose them, but asking git about these files alone
 * (listedAmong); `tracked[i]` is trackedFiles(dirs[i]). Undefined when that cannot tell: list
 * the folders instead.
 */
export function candidatesAmong(
  root: Root,
  dirs: readonly string[],
  tracked: ReadonlyArray<TrackedPaths | undefined>,
  found: ReadonlySet<string>,
  list: ListOptions,
  globs: readonly string[],
): CandidateSet | undefined {
  const groups: Array<Listed['groups'][number]> = [];
  for (const [i, dir] of dirs.entries()) {
    const absPrefix = absPrefixOf(dir);
    const rels: string[] = [];
    for (const abs of found)
      if (abs.startsWith(absPrefix))
        rels.push(
          path.sep === '/' ? abs.slice(absPrefix.length) : abs.slice(absPrefix.length).split(path.sep).join('/'),
        );
    const listed = listedAmong(dir, rels, tracked[i], list, root.dir);
    if (!listed) return undefined;
    // (Without a work tree, the files are checked against the walk.)
    groups.push({
      place: placeUnder(root, dir),
      absPrefix,
      rels: listed,
      named: false,
      walked: !list.noIgnore && !tracked[i],
    });
  }
  // Whether ignore rules or the hidden rule could have left files out, for the "nothing found" note.
  return pickCandidates({ groups, filtered: !list.noIgnore || !list.hidden }, globs);
}

/** The files under `paths` that `globs` let through (listCandidates, then pickCandidates). */
export function candidates(
  root: Root,
  paths: readonly string[],
  list: ListOptions,
  globs: readonly string[],
): CandidateSet {
  return pickCandidates(listCandidates(root, paths, list), globs);
}

/**
 * Turns paths relative to `dir` into absolute paths and paths shown relative to the working
 * directory. Joined by hand: path.join and path.relative per file cost more than searching many.
 */
export function placeUnder(root: Root, dir: string): (rel: string) => Candidate {
  const absPrefix = absPrefixOf(dir);
  const shown = path.relative(root.cwd, dir).split(path.sep).join('/');
  const displayPrefix = shown === '' ? '' : `${shown}/`;
  return (rel) => ({
    abs: absPrefix + (path.sep === '/' ? rel : rel.split('/').join(path.sep)),
    display: printable(displayPrefix + rel),
  });
}

/** The prefix that makes a listed path (relative, with "/") absolute, as placeUnder does. */
export function absPrefixOf(dir: string): string {
  return dir.endsWith(path.sep) ? dir : dir + path.sep;
}

/**
 * A glob's test of a listed path: without "/" it matches the file name at any depth, with "/"
 * the whole path (dot files included either way). The name is cut off here, once, rather than
 * by picomatch's basename option, which costs more per path than the match itself.
 */
export function globMatcher(glob: string): (rel: string) => boolean {
  if (glob.includes('/')) return picomatch(glob, { dot: true });
  const re = picomatch.makeRe(glob, { dot: true });
  // A name the glob matches ends with its literal ending (".ts" of "*.ts"): most paths are
  // turned away by that alone.
  const ending = nameEnding(glob);
  return (rel) => rel.endsWith(ending) && re.test(rel.slice(rel.lastIndexOf('/') + 1));
}

/**
 * What every file name a glob without "/" matches ends with, for a glob of plain characters and
 * the wildcards * and ? only (e.g. ".test.ts" for "*.test.ts"); "" when it tells nothing or the
 * glob holds anything else (brackets, braces, a leading "!", an extglob, an escape).
 */
export function nameEnding(glob: string): string {
  if (glob.includes('/') || !/^[\w.\- *?]+$/.test(glob)) return '';
  const ending = glob.slice(Math.max(glob.lastIndexOf('*'), glob.lastIndexOf('?')) + 1);
  return NAME_ENDING.test(ending) ? ending : '';
}
