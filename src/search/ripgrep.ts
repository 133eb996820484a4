// ripgrep as an optional prefilter for searches. When `rg` is installed it finds, far faster
// than reading every file from Node, the files with a line that may match — for grep -F the
// literal, for a regular expression its translation into ripgrep's dialect, which matches at
// least every line it does (ripgrepPattern.ts) — and rt then matches only those (with its own
// rules) and prints their hits with LIDs. It is never required, and its answer only narrows the
// candidates rt chose itself, so it can never add a file:
// - it is asked for a superset: --text (binary files too), no .ignore rules (rt applies them
//   itself), no global excludes file (git may name another), no config file;
// - its own walk follows rules of its own (.rgignore files, which only --no-ignore turns off
//   before ripgrep 14, and a dialect of .gitignore that differs from git's: braces, [!a]
//   matching "/", a .gitignore that is a symbolic link). In a git work tree, every path it
//   leaves out for an ignore rule, which it names in its --debug log, is put to git, and the
//   files git lists there (tracked ones, ignored or not, and untracked ones it does not ignore)
//   are searched by rt (past a few hundred, by ripgrep again, named one by one); a walk leaving
//   out more than a few dozen paths (the log is slow to write) is stopped, and git grep answers
//   instead. Outside git, where it would read only .rgignore files, it reads none (--no-ignore).
// RT_RIPGREP=off turns it off.

import fs from 'node:fs';
import path from 'node:path';
import { childOutput as output } from '../io/childOutput.js';
import { parseFound } from './foundLines.js';
import { nulSeparatedPaths } from './pathBytes.js';
import { listedUnder } from './listFiles.js';
import type { Settings } from '../settings/env.js';

export interface PrefilterRequest {
  /** What ripgrep looks for: a fixed string, or a pattern in its own dialect. */
  readonly search: { readonly fixed: string } | { readonly regex: string };
  readonly ignoreCase: boolean;
  readonly hidden: boolean;
  readonly noIgnore: boolean;
  /** Absolute folders to search. */
  readonly dirs: readonly string[];
}

/** What a prefilter (ripgrep, or git grep) answered, and the files it could not answer for (searched by rt itself). */
export interface PrefilterAnswer<T> {
  readonly found: T;
  /** When asked for: each line found, as the prefilter read it (without its \n), by path and number. */
  readonly contents?: ReadonlyMap<string, ReadonlyMap<number, Buffer>>;
  /** Absolute paths; for ripgrep, the files git tracks although an ignore rule matches them (it skips them). */
  readonly unanswered: ReadonlySet<string>;
  /** Files found whose names are not valid UTF-8 (see pathBytes.ts), left out, decoded for showing. */
  readonly undecodable?: readonly string[];
}

/**
 * Starts ripgrep; the promise gives the absolute paths of the files that may contain a match
 * (for a plain literal, as exactLines says, those that do), or undefined when ripgrep cannot
 * answer. It runs while rt lists its own candidates.
 */
export function ripgrepCandidates(
  request: PrefilterRequest,
  settings: Settings,
): Promise<PrefilterAnswer<Set<string>> | undefined> {
  const run = search(request, settings, ['--files-with-matches']);
  return (run ?? Promise.resolve(undefined)).then((r) => {
    if (!r) return undefined;
    const found = new Set<string>();
    const undecodable: string[] = [];
    for (const p of nulSeparatedPaths(r.found, undecodable)) found.add(absolute(p));
    return { found, unanswered: r.unanswered, undecodable };
  });
}

/**
 * The most bytes of a line ripgrep prints for rt to print as a hit (a longer one, "[Omitted long
 * line…]" in its place, is read from the file): minified code can hold lines of megabytes.
 */
export const MAX_LINE_PRINTED = 16 * 1024;

/**
 * The 1-based numbers of the lines ripgrep finds in each file that may be searched (binary files
 * included: rt sorts them out), by absolute path; undefined when ripgrep cannot answer. These are
 * at least the lines rt would find (see exactLines for when they are exactly those). `contents`:
 * - 'match': each line too, for rt to match its pattern in them (and read only the files of those
 *   that match); a file with more than MAX_LINES_READ lines found is left to rt (unanswered);
 * - 'print': the lines are the hits; each line too (up to MAX_LINE_PRINTED bytes), which rt
 *   prints as they are when the file's saved index shows them unchanged (not for a file with
 *   more than MAX_LINES_READ: its numbers only);
 * - 'none': numbers only (--max-columns 1).
 */
export function ripgrepLines(
  request: PrefilterRequest,
  settings: Settings,
  contents: 'match' | 'print' | 'none',
): Promise<PrefilterAnswer<Map<string, number[]>> | undefined> | undefined {
  const columns = contents === 'match' ? [] : ['--max-columns', contents === 'print' ? String(MAX_LINE_PRINTED) : '1'];
  const run = search(request, settings, ['--line-number', '--no-heading', ...columns]);
  const keep = contents !== 'none';
  return run?.then((r) => {
    if (!r) return undefined;
    const found = new Map<string, number[]>();
    const lines = new Map<string, Map<number, Buffer>>();
    // Files with more lines found than are matched one by one: rt searches them itself.
    const crowded = new Set<string>();
    const undecodable: string[] = [];
    // (ripgrep names a file by the same absolute path whichever PATH given it was found under.)
    for (const [name, file] of parseFound(r.found, keep, undecodable)) {
      const abs = absolute(name);
      // A file under two PATHs given (one inside the other) is searched, and listed, twice.
      found.set(abs, ascending(file.numbers) ? file.numbers : [...new Set(file.numbers)].sort((a, b) => a - b));
      if (file.crowded && contents === 'match') crowded.add(abs);
      else if (file.lines) lines.set(abs, file.lines);
    }
    return {
      found,
      unanswered: crowded.size ? new Set([...r.unanswered, ...crowded]) : r.unanswered,
      undecodable,
      ...(keep ? { contents: lines } : {}),
    };
  });
}

/** A doubled separator, a "." or ".." part, a final separator: what path.resolve changes in an absolute path. */
const NOT_NORMAL = /\/\/|\/\.\.?(?:\/|$)|\/$/;

/**
 * The absolute path of a file ripgrep named: as named when that is absolute and normal already
 * (ripgrep is given absolute folders), for path.resolve costs microseconds a file found.
 */
export function absolute(name: string): string {
  return path.sep === '/' && name.startsWith('/') && !NOT_NORMAL.test(name) ? name : path.resolve(name);
}

/**
 * Whether ripgrep's lines for a literal (ripgrepLines) are exactly the lines rt finds, not only
 * the lines that may be: case-sensitive, no word rule, no line ending or BOM character in it.
 */
export function exactLines(
  literal: string,
  options: { readonly ignoreCase: boolean; readonly word: boolean },
): boolean {
  return !options.ignoreCase && !options.word && !/[\r\n\ufeff]/.test(literal);
}

/**
 * Runs ripgrep over the request's folders with `mode` (what to print); the files it found
 * (printed as `mode` asks) and those it could not answer for: what git lists where ripgrep's walk
 * left paths out for an ignore rule. Undefined when ripgrep is not to be used at all (a promise
 * of undefined when it failed, or its log cannot be read).
 */
function search(
  request: PrefilterRequest,
  settings: Settings,
  mode: readonly string[],
): Promise<PrefilterAnswer<Buffer> | undefined> | undefined {
  const matching = settings.ripgrep && request.dirs.length > 0 ? matchFlags(request) : undefined;
  if (!matching) return undefined;
  // --no-ignore-global: git's global excludes file is the one its config names (any of its config
  // files, GIT_CONFIG_GLOBAL, a repository's own core.excludesFile); ripgrep reads only
  // ~/.gitconfig's, so it would skip files git lists. Without, it skips fewer, and rt asks git.
  // --debug: its log names each path its walk leaves out by a rule, and why (see prunedPaths).
  // Outside git it reads no .gitignore file, and no other but .rgignore files should count:
  // --no-ignore (rt applies .gitignore and .ignore files itself there).
  const inGit = request.dirs.every(inGitTree);
  const checked = inGit && !request.noIgnore;
  const flags = [...mode, '--null', ...matching.flags, '--no-ignore-dot', '--no-ignore-global'];
  if (request.hidden) flags.push('--hidden');
  if (request.noIgnore || !inGit) flags.push('--no-ignore');
  flags.push('--regexp', matching.wanted, '--');
  // Its environment holds nothing that would change the files it lists.
  const rgEnv = { PATH: settings.env.PATH ?? '', HOME: settings.env.HOME ?? '' };
  const run = output('rg', [...(checked ? ['--debug'] : []), ...flags, ...request.dirs], {
    env: rgEnv,
    stderr: checked,
    watchStderr: checked ? logWatch(request.dirs) : undefined,
  });
  return run.then(async (r) => {
    if (!r || (r.status !== 0 && r.status !== 1)) return undefined; // not installed, failed, or stopped
    const pruned = checked ? prunedPaths(r.stderr, request.dirs) : [];
    if (!pruned) return undefined;
    const listed = pruned.length ? await listedUnderDirs(request.dirs, pruned) : [];
    if (!listed) return undefined;
    // A few rt reads itself; more, ripgrep searches too, named one by one (a file named is
    // searched whatever the ignore rules say), unless they would not fit on its command line.
    if (listed.length <= MAX_READ_BESIDE) return { found: r.stdout, unanswered: new Set(listed) };
    if (listed.reduce((bytes, file) => bytes + Buffer.byteLength(file) + 1, 0) > MAX_NAMED_BYTES) return undefined;
    const named = await output('rg', [...flags, ...listed], { env: rgEnv });
    if (!named || (named.status !== 0 && named.status !== 1)) return undefined;
    return { found: Buffer.concat([r.stdout, named.stdout]), unanswered: new Set<string>() };
  });
}

/**
 * The flags that make ripgrep read bytes as rt does and look for `request.search`, and what it
 * looks for; undefined when ripgrep is not to be asked.
 */
function matchFlags(
  request: Pick<PrefilterRequest, 'search' | 'ignoreCase'>,
): { flags: string[]; wanted: string } | undefined {
  const fixed = 'fixed' in request.search;
  // Case folding beyond ASCII differs between ripgrep and JavaScript: rt alone decides those (a
  // translated pattern has none).
  if (fixed && request.ignoreCase && !/^[\x20-\x7e]*$/.test(request.search.fixed)) return undefined;
  const wanted = 'fixed' in request.search ? request.search.fixed : request.search.regex;
  if (wanted === '') return undefined;
  // --encoding none: the bytes as they are, as rt reads them (ripgrep would read a file starting
  // with a UTF-16 byte order mark as UTF-16, and rt, finding no NUL in it, as text).
  const flags = ['--text', '--encoding', 'none', '--no-messages', '--no-config'];
  if (fixed) flags.push('--fixed-strings');
  if (request.ignoreCase) flags.push('--ignore-case');
  return { flags, wanted };
}

/** What ripgrep found in one file: the lines, as ripgrepFileLines asks for them. */
export interface FileLinesFound {
  /** 1-based, ascending. */
  readonly numbers: number[];
  /** Each line's bytes (without its \n) by number; undefined past MAX_LINES_READ lines (see parseFound). */
  readonly lines: Map<number, Buffer> | undefined;
}

/**
 * The lines ripgrep finds in the file `abs` (named, so no ignore rule applies), at most
 * `maxCount` of them, each printed whole (`columns` undefined) or up to `columns` bytes (a
 * longer one is replaced by ripgrep's note that it left it out); undefined when ripgrep cannot answer.
 */
export async function ripgrepFileLines(
  abs: string,
  request: Pick<PrefilterRequest, 'search' | 'ignoreCase'>,
  settings: Settings,
  how: { readonly maxCount: number; readonly columns: number | undefined },
): Promise<FileLinesFound | undefined> {
  const columns = how.columns === undefined ? [] : ['--max-columns', String(how.columns)];
  const args = ['--line-number', '--no-heading', '--with-filename', '--max-count', String(how.maxCount), ...columns];
  const ran = await inFile(abs, request, settings, args);
  if (!ran) return undefined;
  const found = ran.stdout;
  const parsed = parseFound(found, true);
  const [name, file] = parsed.entries().next().value ?? [];
  // Nothing found is believed only as ripgrep says it (exit 1, no output); lines only of the file asked
  // about, and only the lines of one file: anything else (a program of that name that is not ripgrep, a path that
  // is not valid UTF-8) is no answer, and rt reads the file itself.
  if (!file) return found.length === 0 && ran.status === 1 ? { numbers: [], lines: new Map() } : undefined;
  if (ran.status !== 0 || parsed.size !== 1 || name !== abs) return undefined;
  return ascending(file.numbers) ? { numbers: file.numbers, lines: file.lines } : undefined;
}

/** How many lines ripgrep finds in the file `abs` (see ripgrepFileLines); undefined when it cannot answer. */
export async function ripgrepFileCount(
  abs: string,
  request: Pick<PrefilterRequest, 'search' | 'ignoreCase'>,
  settings: Settings,
): Promise<number | undefined> {
  const ran = await inFile(abs, request, settings, ['--count', '--no-filename']);
  if (!ran) return undefined;
  const text = ran.stdout.toString('latin1').trim();
  if (text === '') return ran.status === 1 ? 0 : undefined;
  return /^\d+$/.test(text) && ran.status === 0 ? Number(text) : undefined;
}

/** ripgrep's output for the file `abs` with `mode` (what to print): nothing when it found nothing. */
async function inFile(
  abs: string,
  request: Pick<PrefilterRequest, 'search' | 'ignoreCase'>,
  settings: Settings,
  mode: readonly string[],
): Promise<{ stdout: Buffer; status: number } | undefined> {
  const matching = settings.ripgrep ? matchFlags(request) : undefined;
  if (!matching) return undefined;
  const env = { PATH: settings.env.PATH ?? '', HOME: settings.env.HOME ?? '' };
  const r = await output('rg', [...mode, '--null', ...matching.flags, '--regexp', matching.wanted, '--', abs], {
    env,
  });
  if (!r || (r.status !== 0 && r.status !== 1)) return undefined; // not installed, failed, or stopped
  return { stdout: r.stdout, status: r.status };
}

/**
 * The most paths ripgrep's walk may leave out for a rule, hidden ones aside, and the most lines
 * of its log. It writes each line slowly, in dozens of system calls (3,000 object files ignored
 * beside their sources made a 17 ms search take 80-300 ms; 4,800 dotfiles or 1,000 symbolic
 * links, which it logs too, doubled a search): past either it is stopped, and git grep answers.
 * The log's limit is well above what a large repository's dotfiles make (babel's 300 lines cost
 * ripgrep nothing measurable): the walk logs them all through, so a search stopped near its end
 * costs ripgrep's run and git grep's.
 */
const MAX_PRUNED = 64;
const MAX_LOG_LINES = 1000;

/** The most files listed where ripgrep's walk left paths out that rt reads itself, beside ripgrep's answer. */
const MAX_READ_BESIDE = 256;

/** The most bytes of file names given to ripgrep on its command line (a quarter of what Linux takes). */
const MAX_NAMED_BYTES = 512 * 1024;

/**
 * Reads ripgrep's log as it comes (see walkLine): false, to stop it, past MAX_LOG_LINES lines or
 * MAX_PRUNED paths left out (hidden ones aside), or at a line that cannot be read (its answer
 * would be dropped anyway).
 */
function logWatch(dirs: readonly string[]): (chunk: Buffer) => boolean {
  const prefixes = dirs.map(folderPrefix);
  let partial: Buffer = Buffer.alloc(0);
  let lines = 0;
  let pruned = 0;
  return (chunk) => {
    const text = partial.length ? Buffer.concat([partial, chunk]) : chunk;
    let at = 0;
    for (let nl = text.indexOf(0x0a); nl !== -1; at = nl + 1, nl = text.indexOf(0x0a, at)) {
      const walk = walkLine(text.toString('utf8', at, nl), prefixes);
      if (walk === undefined) return false;
      lines++;
      if (walk && !walk.hidden) pruned++;
    }
    partial = text.subarray(at);
    return pruned <= MAX_PRUNED && lines <= MAX_LOG_LINES;
  };
}

/** Whether `dir` lies in a git work tree, as ripgrep tells one: a .git in it or in a folder above. */
function inGitTree(dir: string): boolean {
  for (let at = dir; ; at = path.dirname(at)) {
    if (fs.existsSync(path.join(at, '.git'))) return true;
    if (path.dirname(at) === at) return false;
  }
}

/**
 * What git lists under each of `pruned` (absolute paths, each under one of `dirs`), asked in
 * the folder searched; undefined when git cannot tell (not a work tree).
 */
async function listedUnderDirs(dirs: readonly string[], pruned: readonly string[]): Promise<string[] | undefined> {
  const byDir = new Map<string, string[]>();
  for (const p of pruned) {
    const dir = dirs.find((d) => p.startsWith(folderPrefix(d)));
    if (dir === undefined) return undefined;
    const paths = byDir.get(dir);
    if (paths) paths.push(p);
    else byDir.set(dir, [p]);
  }
  const lists = await Promise.all([...byDir].map(([dir, paths]) => listedUnder(dir, paths)));
  return lists.every((l) => l !== undefined) ? lists.flat() : undefined;
}

/** What follows a path its walk left out, in ripgrep's log. */
const IGNORED = ': Ignore(IgnoreMatch(';

/** A line of ripgrep's log. */
const LOG_LINE = /^(?:rg: )?(?:ERROR|WARN|INFO|DEBUG|TRACE)\|/;

/** A line of its walk's log about a path (which follows), from the place in ripgrep's source that writes it. */
const WALK_LINE = /^(?:rg: )?DEBUG\|ignore::walk\|[^|\s]*\.rs:\d+: (ignoring|whitelisting) /;

/**
 * The paths ripgrep's walk of `dirs` (absolute) left out for an ignore rule, as its --debug log
 * names them (see walkLine), but for hidden ones (rt leaves them out too, unless --hidden, and
 * then ripgrep does not); undefined when a line of the log cannot be read so.
 */
export function prunedPaths(log: Buffer, dirs: readonly string[]): string[] | undefined {
  const prefixes = dirs.map(folderPrefix);
  const paths: string[] = [];
  for (const line of log.toString('utf8').split('\n')) {
    const walk = walkLine(line, prefixes);
    if (walk === undefined) return undefined;
    if (walk && !walk.hidden) paths.push(walk.path);
  }
  return paths;
}

/**
 * What a line of ripgrep's log says of its walk under the folders of `prefixes`: a path left out
 * ("ignoring PATH: Ignore(IgnoreMatch(KIND…"), and whether for being hidden; null for any other
 * line; undefined when it cannot be read so: a line that is no log line (such as the rest of a
 * path holding a newline), one that tells a match where no walk line could, or more than once (a
 * path holding the words of one), or a walk line about a path elsewhere (a file name holding a
 * newline and the words of a whole line).
 */
function walkLine(line: string, prefixes: readonly string[]): { path: string; hidden: boolean } | null | undefined {
  if (line === '') return null;
  if (!LOG_LINE.test(line)) return undefined;
  const walk = WALK_LINE.exec(line);
  // (Another line, such as "ignoring PATH: failed to pass subject filter" for a symbolic link: rt skips those too.)
  if (!walk) return line.includes('IgnoreMatch(') ? undefined : null;
  const rest = line.slice(walk[0].length);
  if (!prefixes.some((p) => rest.startsWith(p)) || rest.split('IgnoreMatch(').length !== 2) return undefined;
  if (walk[1] === 'whitelisting') return null;
  const at = rest.indexOf(IGNORED);
  if (at === -1) return undefined;
  return { path: rest.slice(0, at), hidden: rest.startsWith('Hidden)', at + IGNORED.length) };
}

/** A folder's path with a separator at its end: what the paths under it start with. */
function folderPrefix(dir: string): string {
  return dir.endsWith(path.sep) ? dir : dir + path.sep;
}

/** Whether numbers are in strictly ascending order. */
function ascending(numbers: readonly number[]): boolean {
  return numbers.every((n, i) => i === 0 || n > numbers[i - 1]!);
}
