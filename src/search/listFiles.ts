// Which files a search looks at: exactly the files git would show. In a git work tree that is
// `git ls-files --cached --others --exclude-standard` (every ignore source git honours) less
// what `.ignore` files exclude; elsewhere, a walk
// honouring `.gitignore` and `.ignore` files. Ignore files of the folders above the one listed
// (up to the root) apply too. Hidden files (a path component starting with ".") are left out
// unless asked for; `.git` and `.rt` always are.

import fs from 'node:fs';
import { childProcess } from '../io/builtins.js';
import { childOutput } from '../io/childOutput.js';
import { outsideGit } from './gitDiscovery.js';
import { isUtf8 } from 'node:buffer';
import { nulSeparatedPaths } from './pathBytes.js';
import { readPlainFile } from '../store/plainFile.js';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

export interface ListOptions {
  readonly hidden: boolean;
  readonly noIgnore: boolean;
}

export interface Listing {
  /** Paths relative to the listed directory, with `/`, in no particular order. */
  readonly files: string[];
  /** Hidden files left out. */
  readonly skippedHidden: number;
  /** Files left out for names that are not valid UTF-8 (see pathBytes.ts), decoded for showing. */
  readonly undecodable: string[];
  /** Whether the files come from a walk (not git's listing): then no path goes through a symbolic link. */
  readonly walked?: boolean;
}

const ALWAYS_SKIPPED = new Set(['.git', '.rt']);

/**
 * One ignore file's rules. Its folder covers the paths under `under` (relative to the listed
 * folder; "" for the listed folder, or for a folder above it, which then sees paths through
 * `prefix`, the way down from it to the listed folder). `order`: shallow files first.
 */
interface Rules {
  readonly under: string;
  readonly prefix: string;
  readonly order: number;
  readonly matcher: Ignore;
}

function below(under: string, matcher: Ignore): Rules {
  return { under, prefix: '', order: under === '' ? 0 : under.split('/').length, matcher };
}

/**
 * Lists the files under `dir`; `top` is the root, the highest folder whose ignore files apply.
 * With `nameEndsWith`, git is asked only for the files whose name ends so (and the .ignore files,
 * which rt applies), for a caller that wants no others: a tree of tens of thousands of files
 * costs less to print and to read. A walk lists them all.
 */
export function listFiles(dir: string, options: ListOptions, top: string = dir, nameEndsWith = ''): Listing {
  // (No .git in any folder up to the system's root: git would find no work tree, and is not asked.)
  if (!options.noIgnore && !outsideGit(dir)) {
    const undecodable: string[] = [];
    const listed = gitListing(dir, nameEndsWith, undecodable);
    if (listed)
      return { ...filterGitListing(dir, listed, options, inheritedRules(dir, top, ['.ignore'])), undecodable };
  }
  return walk(dir, options, options.noIgnore ? [] : inheritedRules(dir, top, ['.gitignore', '.ignore']));
}

/**
 * Files git shows under `dir` (tracked, and untracked but not ignored), in one run (one reading
 * of its index), or null outside a work tree. A tracked file deleted from the work tree is still
 * listed (asking git to check costs a stat of every file): readers skip what they cannot open,
 * and `find` checks what it prints. With `nameEndsWith`, only the names ending so, and the .ignore
 * files; the ending is given as a glob pathspec, so it must hold no character special to one.
 */
function gitListing(dir: string, nameEndsWith: string, undecodable: string[]): string[] | null {
  const args = ['--cached', '--others', '--exclude-standard', '--deduplicate'];
  if (!nameEndsWith) return gitLs(dir, args, true, undecodable);
  if (!NAME_ENDING.test(nameEndsWith)) throw new Error(`not a plain name ending: ${nameEndsWith}`);
  // Glob pathspecs: **/ is any folder, the top one included.
  return gitLs(dir, [...args, '--', `:(glob)**/*${nameEndsWith}`, ':(glob)**/.ignore'], false, undecodable);
}

/**
 * `git ls-files` in `dir` with `args`: the paths it printed, or null when git failed. Pathspecs
 * are taken literally unless `literal` is false (then they carry their own magic, and a
 * GIT_LITERAL_PATHSPECS from the user's environment, which would make them match nothing, is
 * dropped). Paths that are not valid UTF-8 go to `undecodable`.
 */
function gitLs(dir: string, args: readonly string[], literal = true, undecodable: string[] = []): string[] | null {
  const env = gitEnv();
  if (!literal) delete env.GIT_LITERAL_PATHSPECS;
  const command = [...(literal ? GIT_LS : GIT_LS.filter((a) => a !== '--literal-pathspecs')), ...args];
  const result = childProcess().spawnSync('git', command, { cwd: dir, encoding: 'buffer', maxBuffer: 1 << 30, env });
  if (result.status !== 0 || result.error) return null;
  return filesOf(result.stdout, undecodable);
}

const GIT_LS = ['-c', 'core.quotePath=off', '--literal-pathspecs', 'ls-files', '-z'];
const gitEnv = (): NodeJS.ProcessEnv => ({ ...process.env, GIT_OPTIONAL_LOCKS: '0' });

/** The paths of `git ls-files -z` output; a path ending in "/" is a nested repository, not a file. */
function filesOf(out: Buffer, undecodable: string[] = []): string[] {
  return nulSeparatedPaths(out, undecodable).filter((p) => !p.endsWith('/'));
}

/** Whether git tracks a path (relative to the folder listed, with "/"). */
export interface TrackedPaths {
  has(rel: string): boolean;
}

/**
 * The files git tracks under `dir`, from its index alone (no look at the work tree, so it costs
 * little on a large tree); undefined outside a work tree (told without git where no .git is
 * found: see gitDiscovery.ts). Started without waiting, to run beside a search: listedAmong
 * takes it.
 */
export function trackedFiles(dir: string): Promise<TrackedPaths | undefined> {
  if (outsideGit(dir)) return Promise.resolve(undefined);
  return childOutput('git', [...GIT_LS, '--cached'], { cwd: dir, env: gitEnv() }).then((r) =>
    r && r.status === 0 ? sortedPaths(r.stdout) : undefined,
  );
}

/**
 * Paths as `git ls-files -z --cached` prints them: in the index's order, by their bytes. A path
 * is looked up by halving, in the output itself: a search asks about a few files of a tree of
 * tens of thousands, and splitting the output into strings would cost more than the search
 * (and, while ripgrep runs, take a core from it). A path not found so is looked for from end to
 * end as well, so that an order other than the one expected could only cost time. The output is
 * searched as a Latin-1 string, one character a byte (so that strings compare as bytes do):
 * string methods cost less than Buffer's, whose arguments are checked in JavaScript at each call.
 */
export function sortedPaths(out: Buffer): TrackedPaths {
  let bytes: string | undefined;
  let asked = 0;
  let all: Set<string> | undefined;
  return {
    has(rel) {
      bytes ??= out.toString('latin1');
      // (A path in ASCII is its own Latin-1 spelling.)
      const wanted = Buffer.byteLength(rel) === rel.length ? rel : Buffer.from(rel, 'utf8').toString('latin1');
      // Past a few hundred questions (a search printing hits of thousands of files), one split
      // costs less than halving for each.
      if (all === undefined && ++asked > SPLIT_AFTER) all = new Set(bytes.split('\0'));
      if (all !== undefined) return wanted !== '' && all.has(wanted);
      return halvingFinds(bytes, wanted) || bytes.startsWith(`${wanted}\0`) || bytes.includes(`\0${wanted}\0`);
    },
  };
}

/** Questions to a listing answered by halving before it is split into a set. */
const SPLIT_AFTER = 256;

/**
 * Whether `wanted` is one of the NUL-ended entries of `out`, taken to be in byte order: by
 * halving. Both are bytes as Latin-1 strings.
 */
export function halvingFinds(out: string, wanted: string): boolean {
  let lo = 0;
  let hi = out.length;
  while (lo < hi) {
    // The entry around the middle byte.
    const mid = (lo + hi) >>> 1;
    const start = mid === 0 ? 0 : out.lastIndexOf('\0', mid - 1) + 1;
    const nul = out.indexOf('\0', start);
    const end = nul === -1 ? out.length : nul;
    const entry = out.slice(start, end);
    if (entry === wanted && end > start) return true;
    if (entry < wanted) lo = end + 1;
    else hi = start;
  }
  return false;
}

/**
 * The files git lists under `paths` (absolute, inside `dir`: folders or files): tracked ones,
 * ignored or not, and untracked ones no ignore rule excludes, as absolute paths; undefined
 * outside a work tree, or when git failed. git walks only the folders of `paths`.
 */
export async function listedUnder(dir: string, paths: readonly string[]): Promise<string[] | undefined> {
  const specs = paths.map((p) => path.relative(dir, p) || '.');
  const r = await childOutput(
    'git',
    [...GIT_LS, '--cached', '--others', '--exclude-standard', '--deduplicate', '--', ...specs],
    { cwd: dir, env: gitEnv() },
  );
  return r && r.status === 0 ? filesOf(r.stdout).map((rel) => path.join(dir, rel)) : undefined;
}

/** A name ending that can be given to git as is inside a glob pathspec: no wildcard, bracket, backslash or magic. */
export const NAME_ENDING = /^[\w.\- ]+$/;

/** Beyond this many paths to ask git about, listing the whole tree costs less than asking. */
const MAX_ASKED = 1000;

/**
 * Which of `rels` (distinct files under `dir`, relative with "/", e.g. those a search found) a listing of
 * `dir` gives: the same answer as filtering listFiles(dir, options, top).files, but git is asked
 * about these paths alone. `tracked` is what trackedFiles(dir) gave (undefined: not a work
 * tree). Undefined when asking would cost more than listing, or git failed: list instead.
 */
export function listedAmong(
  dir: string,
  rels: readonly string[],
  tracked: TrackedPaths | undefined,
  options: ListOptions,
  top: string = dir,
): string[] | undefined {
  if (options.noIgnore) {
    // The walk lists every file but those under .git and .rt (and hidden ones unless asked).
    return rels.filter(
      (rel) => !rel.split('/').some((part) => ALWAYS_SKIPPED.has(part)) && (options.hidden || !isHidden(rel)),
    );
  }
  if (!tracked) return walkedAmong(dir, rels, options, top);
  // The .ignore files that can apply to these paths: those of their folders (git must list
  // them too, as it lists those that apply to a whole listing).
  const ignoreFiles: string[] = [];
  const folders = new Set<string>();
  for (const rel of rels) {
    for (let folder = path.posix.dirname(rel); !folders.has(folder); folder = path.posix.dirname(folder)) {
      folders.add(folder);
      const file = folder === '.' ? '.ignore' : `${folder}/.ignore`;
      if (fs.existsSync(path.join(dir, file))) ignoreFiles.push(file);
      if (folder === '.') break;
    }
  }
  // (The paths found are distinct: with no .ignore file to add, they are asked as they are, and all
  // that is listed of them is wanted. A search narrows thousands so.)
  const asked = ignoreFiles.length ? [...new Set([...rels, ...ignoreFiles])] : rels;
  const unknown: string[] = [];
  for (const p of asked) if (!tracked.has(p)) unknown.push(p);
  if (unknown.length > MAX_ASKED) return undefined;
  const others = unknown.length ? gitLs(dir, ['--others', '--exclude-standard', '--', ...unknown]) : [];
  if (!others) return undefined;
  const untracked = new Set(others);
  const present = unknown.length ? asked.filter((p) => tracked.has(p) || untracked.has(p)) : asked;
  const listed = filterGitListing(dir, present, options, inheritedRules(dir, top, ['.ignore'])).files;
  if (!ignoreFiles.length) return listed;
  const wanted = new Set(rels);
  return listed.filter((p) => wanted.has(p));
}

/**
 * Which of `rels` the walk of `dir` lists (see walk), checking their folders alone: each folder on
 * the way must be one the walk enters (not hidden unless asked, nor .git or .rt, and no ignore
 * rule of the folders above it excluding it), and the file one it lists. The rules of each
 * folder are read once. For a listing that would walk: `tracked` undefined, git failed.
 */
function walkedAmong(dir: string, rels: readonly string[], options: ListOptions, top: string): string[] {
  const withOwn = (rules: Rules[], folder: string) =>
    withFolderRules(dir, folder, rules, (name) => isRegularFile(path.join(dir, folder, name)));
  // Each folder's answer: the rules its entries are decided by, or null when the walk skips it.
  const folders = new Map<string, Rules[] | null>([
    ['', withOwn(inheritedRules(dir, top, ['.gitignore', '.ignore']), '')],
  ]);
  const rulesFor = (folder: string): Rules[] | null => {
    const known = folders.get(folder);
    if (known !== undefined) return known;
    const slash = folder.lastIndexOf('/');
    const parent = rulesFor(slash === -1 ? '' : folder.slice(0, slash));
    const name = folder.slice(slash + 1);
    const entered =
      parent &&
      !ALWAYS_SKIPPED.has(name) &&
      (options.hidden || !name.startsWith('.')) &&
      !(parent.length && decide(parent, folder, true));
    const rules = entered ? withOwn(parent, folder) : null;
    folders.set(folder, rules);
    return rules;
  };
  return rels.filter((rel) => {
    const slash = rel.lastIndexOf('/');
    const rules = rulesFor(slash === -1 ? '' : rel.slice(0, slash));
    const name = rel.slice(slash + 1);
    if (!rules || ALWAYS_SKIPPED.has(name) || (!options.hidden && name.startsWith('.'))) return false;
    return !(rules.length && decide(rules, rel, false));
  });
}

/** Applies what git does not know: `.ignore` files (here and above) and the hidden rule. */
function filterGitListing(dir: string, files: readonly string[], options: ListOptions, inherited: Rules[]): Listing {
  const rules = [...inherited];
  for (const f of files) {
    if (f === '.ignore' || f.endsWith('/.ignore')) {
      const matcher = loadIgnore(path.join(dir, f));
      const folder = path.posix.dirname(f);
      if (matcher) rules.push(below(folder === '.' ? '' : folder, matcher));
    }
  }
  // Shallow rules first, so a deeper file's negation can re-include what a shallower one excluded.
  rules.sort((a, b) => a.order - b.order);
  let skippedHidden = 0;
  const kept = files.filter((f) => {
    // A file of rt's state (git may track one, added by force) is never listed, as in a walk.
    if (f.includes('.rt') && f.split('/').includes('.rt')) return false;
    if (!options.hidden && isHidden(f)) {
      skippedHidden++;
      return false;
    }
    return rules.length === 0 || !isIgnored(rules, f, false);
  });
  return { files: kept, skippedHidden, undecodable: [] };
}

/**
 * Whether `rel` (relative to the listed folder) is ignored: each ancestor folder is checked
 * first (nothing under an ignored folder comes back), then the path itself; within one path,
 * the deepest rule that matches decides.
 */
function isIgnored(rules: readonly Rules[], rel: string, isDir: boolean): boolean {
  const parts = rel.split('/');
  for (let i = 1; i < parts.length; i++) {
    if (decide(rules, parts.slice(0, i).join('/'), true)) return true;
  }
  return decide(rules, rel, isDir);
}

function decide(rules: readonly Rules[], rel: string, isDir: boolean): boolean {
  let ignored = false;
  for (const { under, prefix, matcher } of rules) {
    if (under !== '' && !rel.startsWith(`${under}/`)) continue;
    const inner = under === '' ? rel : rel.slice(under.length + 1);
    const local = prefix ? `${prefix}/${inner}` : inner;
    const verdict = matcher.test(isDir ? `${local}/` : local);
    if (verdict.ignored) ignored = true;
    else if (verdict.unignored) ignored = false;
  }
  return ignored;
}

/** The ignore files (of the given names) in the folders from `top` down to `dir`'s parent. */
function inheritedRules(dir: string, top: string, names: readonly string[]): Rules[] {
  const rel = path.relative(top, dir);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return [];
  const parts = rel.split(path.sep);
  const rules: Rules[] = [];
  for (let i = 0; i < parts.length; i++) {
    const folder = path.join(top, ...parts.slice(0, i));
    for (const name of names) {
      const matcher = loadIgnoreFile(path.join(folder, name));
      if (matcher) rules.push({ under: '', prefix: parts.slice(i).join('/'), order: i - parts.length, matcher });
    }
  }
  return rules;
}

function isHidden(rel: string): boolean {
  return rel.startsWith('.') || rel.includes('/.');
}

/** An ignore file larger than this is not read (git reads none over 100 MiB). */
const IGNORE_FILE_LIMIT = 100 << 20;

/**
 * The rules of an ignore file, read as a regular file only: as git does since 2.32 for its
 * .gitignore, a link in its place is not followed (it may lead out of the root), nor a FIFO
 * waited on.
 */
function loadIgnore(file: string): Ignore | undefined {
  const bytes = readPlainFile(file, IGNORE_FILE_LIMIT);
  try {
    // Case matters, as it does to git on this system's file names.
    return bytes && ignore({ ignorecase: false }).add(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * `rules`, and those of the ignore files of folder `rel` of `dir` (.gitignore, then .ignore) that
 * `present` says are there, as the walk enters the folder.
 */
function withFolderRules(dir: string, rel: string, rules: Rules[], present: (name: string) => boolean): Rules[] {
  for (const name of ['.gitignore', '.ignore']) {
    const matcher = present(name) ? loadIgnore(path.join(dir, rel, name)) : undefined;
    if (matcher) rules = [...rules, below(rel, matcher)];
  }
  return rules;
}

/**
 * loadIgnore for a path that is most often not there: a failed open costs an exception, which
 * costs more than the lstat that tells (a folder's .gitignore and .ignore, for each folder met).
 */
function loadIgnoreFile(file: string): Ignore | undefined {
  return isRegularFile(file) ? loadIgnore(file) : undefined;
}

/** Whether `file` is a regular file (not followed if a link), told without an exception when it is not there. */
function isRegularFile(file: string): boolean {
  return fs.lstatSync(file, { throwIfNoEntry: false })?.isFile() === true;
}

/**
 * A walk of `dir` honouring nested .gitignore and .ignore files (unless noIgnore). Symbolic
 * links are listed as files and never followed.
 */
function walk(dir: string, options: ListOptions, inherited: Rules[]): Listing {
  const files: string[] = [];
  const undecodable: string[] = [];
  let skippedHidden = 0;
  const stack: Array<{ rel: string; rules: Rules[] }> = [{ rel: '', rules: inherited }];
  while (stack.length) {
    const { rel, rules: outer } = stack.pop()!;
    const folder = rel ? path.join(dir, rel) : dir;
    let entries: Entry[];
    try {
      entries = readEntries(folder);
    } catch {
      continue;
    }
    const rules = options.noIgnore
      ? outer
      : withFolderRules(dir, rel, outer, (name) => entries.some((e) => e.name === name && e.isFile()));
    for (const entry of entries) {
      if (ALWAYS_SKIPPED.has(entry.name)) continue;
      if (!options.hidden && entry.name.startsWith('.')) {
        skippedHidden++;
        continue;
      }
      const isDir = entry.isDirectory();
      if (!isDir && !entry.isFile() && !entry.isSymbolicLink()) continue; // sockets, devices, FIFOs
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.raw) {
        // Named, never listed; a folder's files too (no ignore rule applied to them).
        if (isDir)
          filesUnder(Buffer.concat([Buffer.from(folder + path.sep), entry.raw]), childRel, options.hidden, undecodable);
        else undecodable.push(childRel);
        continue;
      }
      // Ancestors were checked on the way down: only the entry itself is decided here.
      if (rules.length && decide(rules, childRel, isDir)) continue;
      if (isDir) stack.push({ rel: childRel, rules });
      else files.push(childRel);
    }
  }
  return { files, skippedHidden, undecodable, walked: true };
}

/** A folder's entry: its name (decoded), and its bytes when they are not valid UTF-8. */
interface Entry {
  readonly name: string;
  readonly raw?: Buffer;
  isDirectory(): boolean;
  isFile(): boolean;
  isSymbolicLink(): boolean;
}

/**
 * A folder's entries. A name that is not valid UTF-8 decodes with U+FFFD in it: a folder with
 * such a name in it is read again as bytes, to tell (not guess) which names are not valid (see
 * pathBytes.ts); others are read once, as strings.
 */
function readEntries(folder: string | Buffer): Entry[] {
  const entries: Entry[] = fs.readdirSync(folder, { withFileTypes: true });
  if (!entries.some((e) => e.name.includes('\ufffd'))) return entries;
  return (
    fs.readdirSync(folder, { withFileTypes: true, encoding: 'buffer' }) as unknown as Array<
      fs.Dirent & { name: Buffer }
    >
  ).map((e) => ({
    name: e.name.toString('utf8'),
    raw: isUtf8(e.name) ? undefined : e.name,
    isDirectory: () => e.isDirectory(),
    isFile: () => e.isFile(),
    isSymbolicLink: () => e.isSymbolicLink(),
  }));
}

/** Adds the files under a folder whose path (`abs`, bytes) is not valid UTF-8 to `out`, as `shown`/NAME (decoded). */
function filesUnder(abs: Buffer, shown: string, hidden: boolean, out: string[]): void {
  let entries: Entry[];
  try {
    entries = readEntries(abs);
  } catch {
    return;
  }
  for (const entry of entries) {
    if (ALWAYS_SKIPPED.has(entry.name) || (!hidden && entry.name.startsWith('.'))) continue;
    const rel = `${shown}/${entry.name}`;
    if (entry.isDirectory())
      filesUnder(Buffer.concat([abs, Buffer.from(path.sep), entry.raw ?? Buffer.from(entry.name)]), rel, hidden, out);
    else if (entry.isFile() || entry.isSymbolicLink()) out.push(rel);
  }
}

/**
 * Sorts paths as a tree is read: component by component. Comparing code units with "/" taken as
 * the lowest gives exactly that order without splitting the paths.
 */
export function comparePaths(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x === 47) x = 0;
    if (y === 47) y = 0;
    return x - y;
  }
  return a.length - b.length;
}
