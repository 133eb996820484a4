// What grep and grep-file share: reading candidate files, matching, and printing hits with the
// LIDs `rt open` shows — computed only for the files that are printed.

import fs from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { looksBinary, SNIFF_BYTES } from '../model/binary.js';
import { printable, RtError, shellQuote } from '../model/errors.js';
import { hasBom, BOM } from '../model/lines.js';
import { lineContentRange } from '../model/lineScan.js';
import { LINEAR_LITERAL, type LineMatcher } from '../search/match.js';
import { statResolved } from '../store/indexedFile.js';
import {
  comparePaths,
  listedAmong,
  listFiles,
  NAME_ENDING,
  type ListOptions,
  type TrackedPaths,
} from '../search/listFiles.js';
import { READ_PLAIN } from '../store/plainFile.js';
import { readAt } from '../store/readAt.js';
import { resolveInRoot, type Root } from '../store/root.js';
import { OutOfTime, stepsInTime } from '../search/timeBudget.js';
import type { Context } from './context.js';

export const DEFAULT_MAX = 200;

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

export function maxOption(options: { readonly max: number | undefined }): number {
  return options.max ?? DEFAULT_MAX;
}

/** --hidden and --no-ignore, as the listing takes them. */
export function listOptions(options: { readonly hidden: boolean; readonly ignore: boolean }): ListOptions {
  return { hidden: options.hidden, noIgnore: !options.ignore };
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
export function listCandidates(ctx: Context, paths: readonly string[], list: ListOptions): Listed {
  const groups: Array<Listed['groups'][number]> = [];
  const undecodable: string[] = [];
  let filtered = false;
  for (const p of paths.length ? paths : ['.']) {
    const target = resolveInRoot(ctx.root, p);
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
    const listing = listFiles(target.abs, list, ctx.root.dir);
    filtered ||= !list.noIgnore || (!list.hidden && listing.skippedHidden > 0);
    groups.push({
      place: placeUnder(ctx.root, target.abs),
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
 * Says on stderr which files a listing or a search left out because their names are not valid
 * UTF-8 (`absPaths`, decoded): rt names files by strings, which reach the system as UTF-8, so it
 * cannot open them (see io/pathBytes.ts). Silence would read as "not there".
 */
export function noteUndecodable(ctx: Context, absPaths: Iterable<string>): void {
  const shown = [...new Set(absPaths)].map((abs) => printable(path.relative(ctx.cwd, abs).split(path.sep).join('/')));
  if (shown.length === 0) return;
  const one = shown.length === 1;
  ctx.warn(
    `left out ${shown.length} ${one ? 'file whose name is' : 'files whose names are'} not valid UTF-8, which rt cannot name: ${one ? shown[0] : `e.g. ${shown[0]}`}`,
  );
  ctx.warn(
    `rename ${one ? 'it' : 'them'} to read ${one ? 'it' : 'them'} with rt, or search ${one ? 'it' : 'them'} with rg`,
  );
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
  ctx: Context,
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
    const listed = listedAmong(dir, rels, tracked[i], list, ctx.root.dir);
    if (!listed) return undefined;
    // (Without a work tree, the files are checked against the walk.)
    groups.push({
      place: placeUnder(ctx.root, dir),
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
  ctx: Context,
  paths: readonly string[],
  list: ListOptions,
  globs: readonly string[],
): CandidateSet {
  return pickCandidates(listCandidates(ctx, paths, list), globs);
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

/** A file's bytes for searching, or undefined when it cannot be read, is a symbolic link, or is binary. */
export function readSearchable(abs: string): Buffer | undefined {
  const read = readText(abs, Infinity);
  return typeof read === 'string' ? undefined : read;
}

/** Whether a file can be searched (see readSearchable), reading only as much as tells. */
export function isSearchable(abs: string): boolean {
  return typeof readText(abs, SNIFF_BYTES) !== 'string';
}

/** Whether a file can be searched ('text'), or why not, reading only as much as tells. */
export function searchableKind(abs: string): 'text' | 'binary' | 'unreadable' {
  const read = readText(abs, SNIFF_BYTES);
  return typeof read === 'string' ? read : 'text';
}

/** Files named on the command line that cannot be searched, and why. */
export type Unsearchable = ReadonlyArray<{ readonly display: string; readonly kind: 'binary' | 'unreadable' }>;

/** What is wrong with `files` (see Unsearchable), in one phrase: "a.bin is a binary file and b.txt cannot be read". */
export function unsearchableText(files: Unsearchable): string {
  const named = (kind: 'binary' | 'unreadable') => files.filter((f) => f.kind === kind).map((f) => f.display);
  const join = (names: readonly string[]) =>
    names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  const binary = named('binary');
  const unreadable = named('unreadable');
  return [
    ...(binary.length ? [`${join(binary)} ${binary.length === 1 ? 'is a binary file' : 'are binary files'}`] : []),
    ...(unreadable.length ? [`${join(unreadable)} cannot be read`] : []),
  ].join(' and ');
}

/** Up to `limit` bytes of a file that is readable, regular and not binary; else why not. */
function readText(abs: string, limit: number): Buffer | 'binary' | 'unreadable' {
  let fd: number;
  try {
    // Never follow a symbolic link; never wait on a FIFO.
    fd = fs.openSync(abs, READ_PLAIN);
  } catch {
    return 'unreadable';
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.size >= 2 ** 32) return 'unreadable';
    const data = readAt(fd, 0, Math.min(st.size, limit));
    return looksBinary(data.subarray(0, SNIFF_BYTES)) ? 'binary' : data;
  } catch {
    return 'unreadable';
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The time a search may take in a file, beyond the 2 s of the whole search (MATCH_BASE_MS): 1 s
 * for every MiB of it (ms), room to read, index and print a big file's hits besides matching,
 * on a machine busy with other work.
 */
export function matchAllowanceMs(abs: string): number {
  let size = 0;
  try {
    size = fs.statSync(abs).size;
  } catch {
    // Gone: its step ends at once.
  }
  return Math.floor(size / (1024 * 1024)) * 1000;
}

/** The time a search's matching may take whatever its files (ms). */
export const MATCH_BASE_MS = 2000;

/**
 * Runs step(i) for each of `count` files (step i's is `fileOf(i)`), all within the time the
 * search may take (2 s and each file's allowance, see matchAllowanceMs and io/timeBudget): a
 * search that takes longer ends, as bad input (exit 2): a regular expression that backtracks
 * without end, in one file or in many. `ripgrep` is the command that searches in linear time
 * instead. The steps must write nothing (see stepsInTime). A `matcher` whose matching is
 * linear (LineMatcher.linear) runs them without a bound.
 */
export function matchInTime(
  count: number,
  step: (i: number) => void,
  fileOf: (i: number) => Candidate,
  ripgrep: string,
  matcher: Pick<LineMatcher, 'linear' | 'literal'>,
): void {
  if (matcher.linear) {
    // Nothing to bound: node:vm, its script and its timer's thread are not worth starting.
    for (let i = 0; i < count; i++) step(i);
    return;
  }
  try {
    stepsInTime(count, step, (i) => matchAllowanceMs(fileOf(i).abs), MATCH_BASE_MS);
  } catch (error) {
    if (!(error instanceof OutOfTime)) throw error;
    const stopped = `matching took more than ${error.budgetMs / 1000} s (stopped in ${fileOf(error.step).display})`;
    const withRipgrep = `or search with ripgrep, which matches in linear time (install it if need be): ${ripgrep}`;
    // A literal that long is found in time of each line × its length (see LINEAR_LITERAL).
    if (matcher.literal)
      throw new RtError(
        'usage',
        `${stopped}: a literal of more than ${LINEAR_LITERAL} characters takes time in proportion to a line's length × its own`,
        ['search for a shorter part of it (it then matches more lines; with -v, fewer)', withRipgrep],
      );
    throw new RtError(
      'usage',
      `${stopped}: the pattern backtracks too much (nested repetition such as (a+)+ takes exponential time on some lines)`,
      ['search for a literal string with -F, or write the pattern without nested repetition', withRipgrep],
    );
  }
}

/** How many matches the lines `lines` (0-based, ascending) of a file's bytes hold. */
export function countMatches(matcher: LineMatcher, bytes: Buffer, lines: readonly number[]): number {
  let count = 0;
  let line = 0;
  let start = bomLengthOf(bytes);
  for (const wanted of lines) {
    for (; line < wanted && start !== -1; line++) start = lineContentRange(bytes, start).next;
    if (start === -1) break;
    count += matcher.matchesIn(bytes.subarray(start, lineContentRange(bytes, start).contentEnd)).length;
  }
  return count;
}

export function bomLengthOf(bytes: Buffer): number {
  return hasBom(bytes) ? BOM.length : 0;
}

/** What the cap left out, for --json: counts and the command that shows everything. */
export interface JsonMore {
  hits?: number;
  files: number;
  command: string;
}

/**
 * The line saying how much the cap left out and how to see it: `what` is [singular, plural];
 * `narrow` says how the search could be narrowed instead.
 */
export function capNotice(
  what: readonly [string, string],
  more: number,
  moreFiles: number,
  command: string,
  narrow: string,
): string {
  const files = moreFiles > 0 ? ` in ${moreFiles} more ${moreFiles === 1 ? 'file' : 'files'}` : '';
  return `(${more} more ${more === 1 ? what[0] : what[1]}${files} not shown; see them with: ${command}${narrow ? `, or narrow the search with ${narrow}` : ''})\n`;
}

/** A command line for the user: options, then `--` before operands if one could be taken for an option. */
export function commandLine(command: string, options: readonly string[], operands: readonly string[]): string {
  const sep = operands.some((o) => o.startsWith('-')) ? ['--'] : [];
  return `rt ${command} ${[...options, ...sep, ...operands].map(shellQuote).join(' ')}`;
}
