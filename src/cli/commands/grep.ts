import fs from 'node:fs';
import path from 'node:path';
import { READ_PLAIN } from '../../store/plainFile.js';
import { RtError } from '../../model/errors.js';
import {
  compileSearch,
  escapeRegExp,
  knownLinesMatcher,
  matchesLine,
  matchingAmong,
  type LineMatcher,
} from '../../search/match.js';
import { byteRequired, pcrePattern, ripgrepPattern } from '../../search/ripgrepPattern.js';
import { gitGrepLines } from '../../search/gitGrep.js';
import { pcreLines } from '../../search/pcreSearch.js';
import {
  exactLines,
  ripgrepCandidates,
  ripgrepLines,
  type PrefilterAnswer,
  type PrefilterRequest,
} from '../../search/ripgrep.js';
import { trackedFiles } from '../../search/listFiles.js';
import { BOM, hasBom } from '../../model/lines.js';
import { statResolved } from '../../store/indexedFile.js';
import { resolveInRoot } from '../../store/root.js';
import {
  bomLengthOf,
  candidates,
  candidatesAmong,
  capNotice,
  isSearchable,
  listCandidates,
  countMatches,
  MATCH_BASE_MS,
  matchAllowanceMs,
  matchInTime,
  noteUndecodable,
  pickCandidates,
  commandLine,
  listOptions,
  maxOption,
  readSearchable,
  searchableKind,
  unsearchableText,
  type Candidate,
  type CandidateSet,
} from '../search.js';
import { printHits, type FileHits } from '../hitPrinting.js';
import { defineCommand } from '../spec.js';
import type { Context } from '../context.js';
import {
  explainSearchFlag,
  LISTING_OPTIONS,
  MATCH_OPTIONS,
  ripgrepCommand,
  searchFlags,
  searchOperands,
  searchQuery,
  type GrepOptions,
  type SearchQuery,
} from './searchOptions.js';
import { OutOfTime, stepsInTime } from '../../search/timeBudget.js';

/**
 * The literal text (in bytes, in one run) every match of a regular expression must hold, at
 * least, for ripgrep to be asked which files may hold one: a pattern with less matches in nearly
 * every file, and asking costs a search of them all.
 */
const MIN_LITERAL = 3;

/** How many ignored or hidden files are searched, at most, to tell why nothing was found. */
const SKIPPED_CHECK_LIMIT = 20_000;

export const grepCommand = defineCommand({
  name: 'grep',
  summary: 'search files for a regular expression; each hit is PATH:NUMBER:LID|CONTENT',
  tool: [
    'Search files for a JavaScript regular expression (fixed: a literal string; pcre2: PCRE2 through',
    'ripgrep) and print each matching line as PATH:NUMBER:LID|CONTENT, its LID the one open shows, so a',
    'hit leads straight to edit; hits count as shown. path: files or folders (default: the working',
    'directory), a string or a list. regexp: several patterns (a line matches if any does) instead of',
    'pattern. Searches the files git would show, less hidden and binary ones (hidden, no_ignore widen it;',
    'glob chooses files, !GLOB leaves some out). context, before_context, after_context: lines around',
    'hits, as PATH:NUMBER:LID-CONTENT. only_matching: the matches alone; count: PATH:COUNT per file;',
    'files: the paths alone. ignore_case, smart_case, word, invert_match as in grep. At most 200 hits',
    "(max), then how many more. A match never spans lines; $ matches before a line's \\r. Exit 1:",
    'nothing found; 2: a bad pattern, or one too slow to match; 4: no path named could be searched.',
  ],
  description: [
    'Searches the files under each PATH (default: the working directory) for PATTERN, a JavaScript regular expression (or a literal string with -F; PCRE2 through ripgrep with -P), and prints each matching line as PATH:NUMBER:LID|CONTENT, with the LID rt open shows for that line, so a hit leads straight to rt edit. With -e (repeatable) a line matches if any of the patterns does, and every operand is a PATH. With -C, -A or -B, context lines are PATH:NUMBER:LID-CONTENT and groups are separated by --. With -o, each match is printed alone on a line of its own, PATH:NUMBER:LID|MATCH, in the order of the line (context lines whole); with -c, each file with hits is printed once, as PATH:COUNT (lines; with -o, matches); with -l, its path alone.',
    'Each line is matched on its content as rt shows it: without its line ending (the \\r of a CRLF included) and, on line 1, without a UTF-8 BOM, so $ matches before a \\r and ^ after a BOM (git grep and ripgrep see those bytes). "." matches any character of the line, a \\r that ends no line and U+2028 and U+2029 included, as in grep and ripgrep. A match never spans lines. POSIX classes within a class are read as in grep and ripgrep (ASCII, as ripgrep\'s): [[:digit:]], [^[:space:],], [[:^alpha:]] (alnum, alpha, ascii, blank, cntrl, digit, graph, lower, print, punct, space, upper, word, xdigit); a class holding one that rt cannot read as ripgrep does (an unknown name, a range ending at one, a nested class, && -- ~~) is refused (exit 2). A "]" first in a class (after "^" or not) is the character itself, as in ripgrep: []a] matches ] or a. With -S, case is ignored when the patterns hold no upper-case letter (a POSIX class holds no letter). A file that changes while it is searched is shown as read when its hits are printed: a line is printed as a hit only if it matches there.',
    'It searches exactly the files git would show: in a git work tree, tracked files and untracked files that no ignore rule excludes (.gitignore files, .git/info/exclude, the global excludes file), less what .ignore files exclude (an ignore file that is a symbolic link is not read, as git reads no such .gitignore); outside git, a walk honouring .gitignore and .ignore files. Hidden files, binary files and symbolic links are skipped, and so is a tracked file whose folder has become a symbolic link: no link is followed; --hidden and --no-ignore widen the search. A file named as PATH is searched regardless, unless it is binary (or cannot be read): standard error then names it, with the ripgrep command that searches its bytes; the other PATHs are still searched, and the exit status is theirs, but when no PATH named could be searched (every one a binary or unreadable file): exit 4. A file whose name is not valid UTF-8 cannot be named by rt: it is left out, and standard error says so. Paths are shown relative to the working directory, sorted as a tree is read, hits in line order.',
    'A line longer than 2,000 characters is cut for display, as rt open cuts it ("… [+N chars]" after its first 2,000); when a hit\'s first match does not end within those characters, the 2,000 around that match are shown instead, cut on both sides: "[+N chars] …" before them and "… [+N chars]" after (--json gives every line whole). On a terminal (or with --color always) the matches of each hit are coloured.',
    'At most 200 hits are printed (--max N; with -l or -c, files); a last line says how many more there were and how to see them. The hits count as shown for the anchor rules of edit and delete (with -o, only their lines of context: open a line to edit it).',
    "A search may take 2 seconds of CPU time to match, and 1 more for every MiB of the files it reads (a machine busy with other work does not spend them): a regular expression that backtracks without end (nested repetition such as (a+)+$, on a long line of a's ending otherwise), or a literal of more than 128 characters on lines of megabytes (found in time of the line × the literal), in one file or in many, stops the search when that is spent, printing nothing, with exit 2 and the ripgrep command that matches in linear time. Flags of grep and ripgrep that rt does not take are refused (exit 2) with what to do instead: -r (grep is recursive already), -E, -x, -q, --include and the like.",
  ],
  args: [
    {
      name: 'pattern',
      summary: 'the regular expression (or, with -F, the string) to find; with -e, the first PATH',
      required: false,
      complete: 'none',
    },
    {
      name: 'path',
      summary: 'files or folders to search (default: the working directory)',
      required: false,
      variadic: true,
      complete: 'file',
    },
  ],
  options: [
    ...MATCH_OPTIONS,
    {
      long: 'glob',
      short: 'g',
      value: 'GLOB',
      kind: 'list',
      summary: 'search only files matching GLOB (repeatable; without / it matches the file name; !GLOB excludes)',
    },
    {
      long: 'files',
      short: 'l',
      kind: 'switch',
      summary: 'print only the paths of files with hits (at most 200, or --max)',
    },
    ...LISTING_OPTIONS,
  ],
  examples: [
    { command: 'rt grep -F parseConfig', explains: 'every line containing parseConfig, with its LID' },
    { command: "rt grep -w -g '*.ts' total src", explains: 'the word total in TypeScript files under src' },
    { command: 'rt grep -C 2 TODO', explains: 'TODO lines with 2 lines of context' },
    { command: 'rt grep -l -i license', explains: 'the files mentioning license, in any case' },
    {
      command: 'rt grep -c -e TODO -e FIXME src',
      explains: 'how many lines hold TODO or FIXME in each file under src',
    },
    {
      command: "rt grep -o 'v\\d+\\.\\d+' CHANGELOG.md",
      explains: "each version number alone, with its line's number and LID",
    },
  ],
  exits: [
    [0, 'something was found'],
    [1, 'nothing was found'],
    [2, 'bad usage, an invalid pattern, a pattern taking too long to match, or -P without ripgrep'],
    [
      4,
      'a PATH is missing, outside the root, or neither a regular file nor a folder; or no PATH could be searched (each a binary or unreadable file)',
    ],
  ],
  readsStdin: false,
  explainUnknownOption: explainSearchFlag('grep'),
  run(ctx, args, options) {
    return grep(ctx, searchQuery('grep', args, options), options);
  },
});

async function grep(ctx: Context, query: SearchQuery, options: GrepOptions): Promise<number> {
  const { matched: patterns, paths, ignoreCase } = query;
  // rt's own matcher, unless -P: then ripgrep's, once the files are known.
  let matcher: LineMatcher | undefined = query.pcre
    ? undefined
    : compileSearch(
        patterns,
        { fixed: query.fixed, ignoreCase, word: query.word, invert: query.invert },
        query.patterns,
      );
  const max = maxOption(options);
  const filesOnly = options.files;
  const list = listOptions(options);
  const globs = options.glob;
  const rgCommand = ripgrepCommand(query, [], paths);
  // ripgrep, when it can help, runs while git lists the files: for a plain literal it finds the
  // very lines; otherwise the files worth reading: those holding the literal, or a line its
  // translation of a regular expression matches (rt then matches the pattern itself). Not for
  // -v, whose lines hold nothing in particular, nor -P, which ripgrep matches whole.
  const prefiltered = !query.pcre && !query.invert;
  const single = patterns.length === 1 ? patterns[0]! : undefined;
  // A literal matched as bytes goes to the prefilters as it is. With -i or -w rt matches it as a
  // regular expression, on text where a byte that is not UTF-8 reads as U+FFFD: so do they.
  const bytesLiteral = single !== undefined && query.fixed && !ignoreCase && !query.word;
  const sources = patterns.map((p) => (query.fixed ? escapeRegExp(p) : p));
  const regexSource =
    !prefiltered || bytesLiteral
      ? undefined
      : sources.length === 1
        ? sources[0]!
        : sources.map((p) => `(?:${p})`).join('|');
  const translated = regexSource === undefined ? undefined : ripgrepPattern(regexSource, ignoreCase);
  const search = !prefiltered
    ? undefined
    : bytesLiteral
      ? { fixed: single }
      : translated && (query.fixed || translated.strength >= MIN_LITERAL)
        ? { regex: translated.regex }
        : undefined;
  const dirs = searchedFolders(ctx, paths);
  const request: PrefilterRequest | undefined = search &&
    dirs && { search, ignoreCase, hidden: list.hidden, noIgnore: list.noIgnore, dirs };
  // For a plain literal the prefilter's lines are the hits; otherwise the only lines that may be.
  const exact = bytesLiteral && exactLines(single, { ignoreCase, word: query.word });
  // The lines themselves when rt is to match its pattern in them: it then reads only the files it
  // prints. For a plain literal they are the hits, printed as ripgrep read them when the files'
  // indexes hold them so (not with -c, which prints no line). With -l, for a plain literal, the
  // files found are the answer.
  const linesRun =
    request && !(filesOnly && exact)
      ? ripgrepLines(request, ctx.settings, !exact ? 'match' : query.count ? 'none' : 'print')
      : undefined;
  const filesRun = request && !linesRun ? ripgrepCandidates(request, ctx.settings) : undefined;
  // What git tracks, from its index (no look at the work tree), to tell which files ripgrep found
  // git would list: far less than listing a large tree while ripgrep needs both cores. Outside
  // git (told without starting it), the files ripgrep found are checked against the walk's rules
  // folder by folder (listedAmong), which beat walking the whole tree while ripgrep runs: 80 ms
  // against 92 for the bench's folder of npm packages.
  const trackedRun = request && (linesRun || filesRun) ? Promise.all(request.dirs.map(trackedFiles)) : undefined;
  let answer: PrefilterAnswer<Map<string, number[]>> | undefined = await linesRun;
  // Whether the answer's lines are the hits (ripgrep's, for a plain literal), not only the lines that may be.
  let exactAnswer = exact;
  // With -l: the files ripgrep found, which for a plain literal are the files with hits.
  const filesAnswer = await filesRun;
  let only = answer
    ? new Set([...answer.found.keys(), ...answer.unanswered])
    : filesAnswer && new Set([...filesAnswer.found, ...filesAnswer.unanswered]);
  // (Or, from git grep, what git lists: tracked files and untracked ones not ignored.)
  let tracked = only && trackedRun ? await trackedRun : undefined;
  if (prefiltered && !only && dirs && !list.noIgnore) {
    // No ripgrep: git grep, in a work tree, finds the lines holding the literal texts every match holds.
    const required = byteRequired(bytesLiteral ? [[single]] : (translated?.required ?? []), ignoreCase);
    const strongest = required[0] ?? [];
    const gitRun =
      strongest.length && Math.min(...strongest.map((l) => Buffer.byteLength(l))) >= MIN_LITERAL
        ? gitGrepLines(
            {
              required,
              ignoreCase,
              dirs,
              pcre: regexSource === undefined ? undefined : pcrePattern(regexSource, ignoreCase)?.regex,
            },
            ctx.settings,
          )
        : undefined;
    const found = await gitRun;
    if (found) {
      answer = found.answer;
      exactAnswer = false;
      only = new Set([...answer.found.keys(), ...answer.unanswered]);
      tracked = found.listed;
    }
  }
  let set =
    (only && dirs && tracked && candidatesAmong(ctx, dirs, tracked, only, list, globs)) ||
    pickCandidates(listCandidates(ctx, paths, list), globs, only);
  set = withoutUnsearchable(ctx, query, set);
  if (query.pcre) {
    // Only regular files go to ripgrep, which follows a link named on its command line (to a
    // FIFO, where it would wait for ever; to a folder, which it would walk): rt follows none.
    const plain = set.files.filter((f) => fs.lstatSync(f.abs, { throwIfNoEntry: false })?.isFile() === true);
    const shown = new Map(plain.map((f) => [f.abs, f.display]));
    const found = await pcreLines(
      plain.map((f) => f.abs),
      query,
      ctx.settings,
      (abs) => shown.get(abs) ?? abs,
    );
    for (const problem of found.problems) ctx.warn(`ripgrep: ${problem}`);
    matcher = knownLinesMatcher(found.lines);
  }
  const match = matcher!;
  /** The 0-based hit lines of a file, the first `limit` of them at least (none when it cannot be searched). */
  const hitsIn = (abs: string, limit: number): number[] => {
    if (exact && filesAnswer?.found.has(abs) && !filesAnswer.unanswered.has(abs)) {
      // ripgrep said the file holds the literal, so a line of it does (the literal has no line
      // ending, nor a BOM): one line stands for them, as only whether there are hits is asked.
      return isSearchable(abs) ? [0] : [];
    }
    const known = answer && !answer.unanswered.has(abs) ? answer.found.get(abs) : undefined;
    if (known && exactAnswer) return isSearchable(abs) ? known.map((n) => n - 1) : [];
    const lines = known && answer!.contents?.get(abs);
    const verified = lines && isSearchable(abs) ? matchingLinesRead(match, abs, lines) : undefined;
    if (verified) return verified;
    if (known) {
      const bytes = readSearchable(abs);
      return bytes
        ? matchingAmong(
            match,
            bytes,
            bomLengthOf(bytes),
            known.map((n) => n - 1),
          )
        : [];
    }
    const bytes = readSearchable(abs);
    return bytes ? match.matchingLines(bytes, bomLengthOf(bytes), limit) : [];
  };

  // Each file's hits (-l asks only whether a file has hits: its first is enough), and with -c -o its matches.
  const found: number[][] = [];
  const matchCounts: number[] = [];
  matchInTime(
    set.files.length,
    (i) => {
      const abs = set.files[i]!.abs;
      const lines = hitsIn(abs, filesOnly ? 1 : Infinity);
      if (query.count && query.only) {
        const bytes = lines.length ? readSearchable(abs) : undefined;
        matchCounts[i] = bytes ? countMatches(match, bytes, lines) : 0;
      }
      found[i] = lines;
    },
    (i) => set.files[i]!,
    rgCommand,
    match,
  );

  noteUndecodable(
    ctx,
    [...(set.undecodable ?? []), ...(answer?.undecodable ?? []), ...(filesAnswer?.undecodable ?? [])].map((p) =>
      path.resolve(ctx.cwd, p),
    ),
  );
  const again = (n: number) =>
    commandLine('grep', ['--max', String(n), ...searchFlags(options)], searchOperands(query, options));
  const narrow = 'a PATH or -g GLOB';
  if (filesOnly || query.count) {
    // One line a file: its path, or its path and count.
    const shown: Array<{ path: string; count: number }> = [];
    let moreFiles = 0;
    for (const [i, file] of set.files.entries()) {
      const count = query.only ? (matchCounts[i] ?? 0) : found[i]!.length;
      if (count === 0) continue;
      if (shown.length < max) shown.push({ path: file.display, count });
      else moreFiles++;
    }
    if (shown.length === 0) return nothingFound(ctx, query, match, set, options);
    const more = moreFiles ? { files: moreFiles, command: again(shown.length + moreFiles) } : null;
    ctx.emit(
      filesOnly ? { command: 'grep', files: shown.map((s) => s.path), more } : { command: 'grep', counts: shown, more },
    );
    for (const { path: shownPath, count } of shown) ctx.out(filesOnly ? `${shownPath}\n` : `${shownPath}:${count}\n`);
    if (moreFiles) ctx.out(capNotice(['file', 'files'], moreFiles, 0, again(shown.length + moreFiles), narrow));
    return 0;
  }
  const shown: FileHits[] = [];
  let shownHits = 0;
  let moreHits = 0;
  let moreFiles = 0;
  for (const [i, file] of set.files.entries()) {
    const lines = found[i]!;
    if (lines.length === 0) continue;
    const room = max - shownHits;
    if (room > 0) {
      shown.push({
        file,
        lines: lines.slice(0, room),
        found: answer && !answer.unanswered.has(file.abs) ? answer.contents?.get(file.abs) : undefined,
      });
      shownHits += Math.min(room, lines.length);
      moreHits += Math.max(0, lines.length - room);
    } else {
      moreHits += lines.length;
      moreFiles++;
    }
  }
  if (shown.length === 0) return nothingFound(ctx, query, match, set, options);
  const hits = printHits(ctx, shown, {
    before: query.before,
    after: query.after,
    prefixPath: true,
    matcher: match,
    only: query.only,
    ripgrep: rgCommand,
  });
  ctx.emit({
    command: 'grep',
    hits,
    more: moreHits ? { hits: moreHits, files: moreFiles, command: again(shownHits + moreHits) } : null,
  });
  if (moreHits) ctx.out(capNotice(['hit', 'hits'], moreHits, moreFiles, again(shownHits + moreHits), narrow));
  return 0;
}

/** Nothing was found: says whether ignored or hidden files hold hits, prints the empty --json document; exit 1. */
function nothingFound(
  ctx: Context,
  query: SearchQuery,
  matcher: LineMatcher,
  set: CandidateSet,
  options: GrepOptions,
): number {
  // (-P matched only the files searched: it cannot tell of others.)
  if (set.filtered && !query.pcre) explainNothingFound(ctx, query, matcher, options);
  ctx.emit(
    options.files
      ? { command: 'grep', files: [], more: null }
      : query.count
        ? { command: 'grep', counts: [], more: null }
        : { command: 'grep', hits: [], more: null },
  );
  return 1;
}

/**
 * The candidates less the files named as PATHs that cannot be searched (binary, or unreadable),
 * which standard error names with the ripgrep command that searches their bytes. When no PATH
 * could be searched (every one such a file), the search is refused (exit 4).
 */
function withoutUnsearchable(ctx: Context, query: SearchQuery, set: CandidateSet): CandidateSet {
  const named = query.paths.map((p) => resolveInRoot(ctx.root, p)).filter((target) => statResolved(target).isFile());
  if (named.length === 0) return set;
  const namedAbs = new Set(named.map((target) => target.abs));
  const refused: Array<{ file: Candidate; kind: 'binary' | 'unreadable' }> = [];
  for (const file of set.files) {
    if (!namedAbs.has(file.abs)) continue;
    const kind = searchableKind(file.abs);
    if (kind !== 'text') refused.push({ file, kind });
  }
  if (refused.length === 0) return set;
  const what = unsearchableText(refused.map(({ file, kind }) => ({ display: file.display, kind })));
  const binary = refused.filter((r) => r.kind === 'binary').map((r) => r.file.display);
  const hints = binary.length
    ? [
        `search ${binary.length === 1 ? 'its' : 'their'} bytes with: ${ripgrepCommand(query, ['--text'], binary)} (or grep -a)`,
      ]
    : [];
  if (!refused.some((r) => r.kind === 'binary')) hints.push('check the permissions of what cannot be read');
  if (named.length === query.paths.length && refused.length === set.files.length) {
    throw new RtError(
      binary.length ? 'binary' : 'access',
      `${what}${binary.length ? ': rt searches text files only' : ''}`,
      hints,
    );
  }
  ctx.warn(`${what}, not searched${binary.length ? ': rt searches text files only' : ''}`);
  for (const hint of hints) ctx.warn(hint);
  const left = new Set(refused.map((r) => r.file.abs));
  return { ...set, files: set.files.filter((f) => !left.has(f.abs)) };
}

/**
 * The 0-based numbers of the lines (1-based numbers to the bytes of each, as the prefilter read them,
 * without the \n) that match, taken as rt takes a line's content: without a BOM on line 1, nor
 * the \r of a CRLF ending. Undefined when that cannot be told from the line alone: one ending in
 * \r, in a file whose last byte is \r, may be the last line, without \n (whose \r is content).
 */
function matchingLinesRead(
  matcher: LineMatcher,
  abs: string,
  lines: ReadonlyMap<number, Buffer>,
): number[] | undefined {
  const out: number[] = [];
  let endsInCr: boolean | undefined;
  for (const [n, line] of [...lines].sort((a, b) => a[0] - b[0])) {
    let content = n === 1 && hasBom(line) ? line.subarray(BOM.length) : line;
    if (content[content.length - 1] === 0x0d) {
      endsInCr ??= lastByteIs(abs, 0x0d);
      if (endsInCr) return undefined;
      content = content.subarray(0, -1);
    }
    if (matchesLine(matcher, content)) out.push(n - 1);
  }
  return out;
}

/** Whether a file's last byte is `byte` (true when that cannot be told). */
function lastByteIs(abs: string, byte: number): boolean {
  let fd: number | undefined;
  try {
    fd = fs.openSync(abs, READ_PLAIN);
    const size = fs.fstatSync(fd).size;
    const last = Buffer.alloc(1);
    return size === 0 || fs.readSync(fd, last, 0, 1, size - 1) !== 1 || last[0] === byte;
  } catch {
    return true;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** The absolute folders searched, for a prefilter; undefined when a file is named (it is read anyway). */
function searchedFolders(ctx: Context, paths: readonly string[]): string[] | undefined {
  const dirs: string[] = [];
  for (const p of paths.length ? paths : ['.']) {
    const target = resolveInRoot(ctx.root, p);
    if (statResolved(target).isDirectory()) dirs.push(target.abs);
    else return undefined;
  }
  return dirs;
}

/**
 * When nothing was found, says whether ignored or hidden files (that -g lets through) held
 * matches; silent when matching them takes too long (see matchInTime).
 */
function explainNothingFound(ctx: Context, query: SearchQuery, matcher: LineMatcher, options: GrepOptions): void {
  const globs = options.glob;
  const paths = query.paths;
  // (ripgrep, when it ran, narrowed the files read: the count is of those the search covered)
  const seen = new Set(candidates(ctx, paths, listOptions(options), globs).files.map((f) => f.abs));
  let searched = 0;
  for (const abs of seen) if (isPlainFile(abs)) searched++;
  const wider = candidates(ctx, paths, { hidden: true, noIgnore: true }, globs)
    .files.filter((f) => !seen.has(f.abs))
    .slice(0, SKIPPED_CHECK_LIMIT);
  let found: string | undefined;
  let hits = 0;
  try {
    stepsInTime(
      wider.length,
      (i) => {
        const bytes = readSearchable(wider[i]!.abs);
        const n = bytes ? matcher.matchingLines(bytes, bomLengthOf(bytes), Infinity).length : 0;
        if (n && !found) found = wider[i]!.display;
        hits += n;
      },
      (i) => matchAllowanceMs(wider[i]!.abs),
      MATCH_BASE_MS,
    );
  } catch (error) {
    if (error instanceof OutOfTime) return;
    throw error;
  }
  if (found) {
    ctx.warn(
      `no match in the ${searched} ${searched === 1 ? 'file' : 'files'} searched, but ${hits} in ignored or hidden files (e.g. ${found})`,
    );
    const flags = [
      '--hidden',
      '--no-ignore',
      ...searchFlags(options).filter((f) => f !== '--hidden' && f !== '--no-ignore'),
    ];
    ctx.warn(`search them too with: ${commandLine('grep', flags, searchOperands(query, options))}`);
  }
}

/**
 * Whether `abs` is a regular file (not through a link of its own); false when that cannot be told (gone, unreadable
 * folder, a file where a folder was).
 */
function isPlainFile(abs: string): boolean {
  try {
    return fs.lstatSync(abs).isFile();
  } catch {
    return false;
  }
}
