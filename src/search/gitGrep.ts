// git grep as the prefilter of searches where ripgrep is not installed (or RT_RIPGREP=off): in
// a git work tree it finds, in C and on every core, the lines holding a literal text, which is
// several times faster than reading every file from Node. As with ripgrep (ripgrep.ts), its
// answer only narrows the files and lines rt reads, so it must find at least every line rt's
// matcher does, and it can never add a file (rt checks each one it found against its own list):
// - it is asked for the lines holding literal texts every match holds (ripgrepPattern.ts: the
//   string of grep -F, or those of a regular expression: one text of each set, e.g. "use" and
//   "tate" for use[A-Z]tate), as bytes (-F) over every file as text (-a), in ASCII case only
//   with -i (LC_ALL=C; byteRequired leaves out what JavaScript folds beyond it);
// - it searches the files git tracks (ignored or not, as rt lists them), in the work tree; the
//   user's grep and submodule settings are overridden;
// - rt searches itself the files rt lists that it does not: untracked ones no ignore rule
//   excludes (listed by git beside the search: usually few), and tracked ones it does not read
//   from the work tree (assume-unchanged ones, whose copy in the index it searches;
//   skip-worktree ones; conflicts; entries that are no regular file in the index, such as a
//   symbolic link since replaced by a file). (With --untracked it would walk the tree instead
//   of reading the index, skipping tracked files an ignore rule matches, and more slowly.)
// RT_GIT_GREP=off turns it off.

import path from 'node:path';
import { childOutput } from '../io/childOutput.js';
import type { TrackedPaths } from './listFiles.js';
import { parseFound, type FileFound } from './foundLines.js';
import { nulSeparatedPaths } from './pathBytes.js';
import type { PrefilterAnswer } from './ripgrep.js';
import type { Settings } from '../settings/env.js';

export interface GitGrepRequest {
  /** A regular expression as pcrePattern translates it: git grep -P is asked for it first. */
  readonly pcre?: string;
  /** Sets of texts every line searched for holds one text of each of (as byteRequired gives them). */
  readonly required: ReadonlyArray<readonly string[]>;
  readonly ignoreCase: boolean;
  /** Absolute folders to search. */
  readonly dirs: readonly string[];
}

/** What git grep found, and what git lists under each folder, tracked or not (for candidatesAmong). */
export interface GitGrepAnswer {
  /**
   * With the lines found (`contents`): rt matches its pattern in each, a literal too (git may
   * read a text otherwise: see byteRequired), and reads only the files of those that match. (Not
   * --only-matching, which prints a line as many times as it matches: hundreds of megabytes for
   * a large file dense with them.)
   */
  readonly answer: PrefilterAnswer<Map<string, number[]>>;
  readonly listed: TrackedPaths[];
}

/**
 * The 1-based numbers of the lines holding a text of each set, by absolute path (binary files
 * included: rt sorts them out), with the files git grep cannot answer for; undefined when it
 * cannot be asked (turned off, nothing to look for) or failed (no git, not a work tree): rt then
 * reads every file itself.
 */
export function gitGrepLines(
  request: GitGrepRequest,
  settings: Settings,
): Promise<GitGrepAnswer | undefined> | undefined {
  if (!settings.gitGrep) return undefined;
  const texts = request.required.flat();
  if (
    request.required.length === 0 ||
    texts.length === 0 ||
    texts.some((l) => l === '' || /[\0\n]/.test(l)) ||
    request.dirs.length === 0
  )
    return undefined;
  // Paths found that are not valid UTF-8, each folder's (relative to it, as git grep prints them).
  const undecodableIn = request.dirs.map((): string[] => []);
  return Promise.all(
    request.dirs.map((dir, i) =>
      Promise.all([grepIn(dir, request, undecodableIn[i]!), indexIn(dir), untrackedIn(dir, undecodableIn[i]!)]),
    ),
  ).then((perDir) => {
    const undecodable = undecodableIn.flatMap((rels, i) => rels.map((rel) => path.join(request.dirs[i]!, rel)));
    const contents = new Map<string, Map<number, Buffer>>();
    const unanswered = new Set<string>();
    const listed: TrackedPaths[] = [];
    for (const [[lines, index, untracked], dir] of perDir.map((r, i) => [r, request.dirs[i]!] as const)) {
      if (!lines || !index || !untracked) return undefined;
      for (const [rel, file] of lines) {
        const abs = path.join(dir, rel);
        if (file.crowded) {
          unanswered.add(abs);
          continue;
        }
        // A file under two PATHs given (one inside the other) is found twice.
        const known = contents.get(abs);
        if (known) for (const [n, line] of file.lines!) known.set(n, line);
        else contents.set(abs, file.lines!);
      }
      for (const rel of [...index.unanswered, ...untracked]) unanswered.add(path.join(dir, rel));
      for (const rel of untracked) index.paths.add(rel);
      listed.push(index.paths);
    }
    const found = new Map<string, number[]>();
    for (const [abs, byNumber] of contents)
      found.set(
        abs,
        [...byNumber.keys()].sort((a, b) => a - b),
      );
    return { answer: { found, unanswered, contents, undecodable }, listed };
  });
}

/**
 * The environment git runs in: the user's (its repository, its config), without optional locks, in the C locale (ASCII
 * case folding alone).
 */
function gitEnv(): NodeJS.ProcessEnv {
  return { ...process.env, GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' };
}

/** Settings of the user's that would change what git grep searches or prints. */
const OVERRIDES = [
  '-c',
  'grep.fullName=false',
  '-c',
  'grep.column=false',
  '-c',
  'grep.fallbackToNoIndex=false',
  '-c',
  'submodule.recurse=false',
];

/**
 * git grep in `dir`: the lines found (see parseFound) by path relative to it, or undefined when it
 * failed. With a PCRE pattern, that first (a git built without PCRE, or refusing the pattern,
 * fails: then the literal texts).
 */
async function grepIn(
  dir: string,
  request: GitGrepRequest,
  undecodable: string[],
): Promise<Map<string, FileFound> | undefined> {
  const common = [
    ...OVERRIDES,
    'grep',
    '--text',
    '--line-number',
    '--null',
    '--no-color',
    ...(request.ignoreCase ? ['--ignore-case'] : []),
  ];
  if (request.pcre !== undefined) {
    const found = await linesFound(dir, [...common, '--perl-regexp', '-e', request.pcre], undecodable);
    if (found) return found;
  }
  // ( -e a -e b ) --and ( -e c ): a line with a text of each set.
  const sets = request.required.map((set) => set.flatMap((text) => ['-e', text]));
  return linesFound(
    dir,
    [
      ...common,
      '--fixed-strings',
      ...(sets.length === 1 ? sets[0]! : sets.flatMap((set, i) => [...(i ? ['--and'] : []), '(', ...set, ')'])),
    ],
    undecodable,
  );
}

/** Paths git grep found that are not valid UTF-8 go to `undecodable` (see parseFound). */
async function linesFound(
  dir: string,
  args: readonly string[],
  undecodable: string[],
): Promise<Map<string, FileFound> | undefined> {
  const r = await childOutput('git', args, { cwd: dir, env: gitEnv() });
  if (!r || (r.status !== 0 && r.status !== 1)) return undefined;
  return parseFound(r.stdout, true, undecodable);
}

/**
 * What git's index holds under `dir`: every path (as TrackedPaths), and those git grep does not
 * search in the work tree as they are (see the top of this file); undefined when git failed.
 */
async function indexIn(dir: string): Promise<{ paths: Set<string>; unanswered: string[] } | undefined> {
  const r = await childOutput('git', [...LS_FILES, '--cached', '-v', '--stage'], { cwd: dir, env: gitEnv() });
  if (r?.status !== 0) return undefined;
  return indexEntries(r.stdout);
}

/**
 * The untracked files under `dir` that no ignore rule excludes (a nested repository, listed as
 * "dir/", is none); undefined when git failed. Those whose names are not valid UTF-8 go to `undecodable`.
 */
async function untrackedIn(dir: string, undecodable: string[]): Promise<string[] | undefined> {
  const r = await childOutput('git', [...LS_FILES, '--others', '--exclude-standard'], { cwd: dir, env: gitEnv() });
  if (r?.status !== 0) return undefined;
  return nulSeparatedPaths(r.stdout, undecodable).filter((p) => !p.endsWith('/'));
}

const LS_FILES = ['-c', 'core.quotePath=off', 'ls-files', '-z'];

/** Parses `git ls-files -z -v --stage` output: TAG " " MODE " " OBJECT " " STAGE \t PATH \0. */
export function indexEntries(out: Buffer): { paths: Set<string>; unanswered: string[] } {
  const paths = new Set<string>();
  const unanswered: string[] = [];
  for (const entry of out.toString('utf8').split('\0')) {
    const tab = entry.indexOf('\t');
    if (tab === -1) continue;
    const rel = entry.slice(tab + 1);
    paths.add(rel);
    // H: cached, read from the work tree; lower case: assume-unchanged; S: skip-worktree; M: a conflict.
    const plain = entry.startsWith('H 100644 ') || entry.startsWith('H 100755 ');
    if (!plain || !entry.endsWith(' 0', tab)) unanswered.push(rel);
  }
  return { paths, unanswered };
}
