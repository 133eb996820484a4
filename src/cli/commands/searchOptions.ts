// Options shared by the search commands, and what a search's command line asks for.

import { RtError } from '../../model/errors.js';
import { smartCaseIgnores } from '../../search/patternText.js';
import { withPosixClasses } from '../../search/posixClasses.js';
import type { ListOptions } from '../../search/listFiles.js';
import { compileSearch, type LineMatcher } from '../../search/match.js';
import type { SearchQuery } from '../../search/query.js';
import type { OptionSpec, OptionsOf } from '../spec.js';

export const MATCH_OPTIONS = [
  {
    long: 'regexp',
    short: 'e',
    value: 'PATTERN',
    kind: 'list',
    summary:
      'search for PATTERN (repeatable: a line matches if any does), even one that starts with a dash; with ' +
      'it, every operand is a PATH',
  },
  { long: 'ignore-case', short: 'i', kind: 'switch', summary: 'match case-insensitively' },
  {
    long: 'smart-case',
    short: 'S',
    kind: 'switch',
    summary:
      "match case-insensitively when the patterns hold no upper-case letter, as ripgrep's -S (escapes such " +
      'as \\W and \\p{Lu} are no letters); -i wins over it',
  },
  { long: 'word', short: 'w', kind: 'switch', summary: 'match whole words only (letters, digits and _ make words)' },
  { long: 'fixed', short: 'F', kind: 'switch', summary: 'take PATTERN as a literal string, not a regular expression' },
  {
    long: 'pcre2',
    short: 'P',
    kind: 'switch',
    summary:
      "take PATTERN in PCRE2's dialect, matched by ripgrep (rg --pcre2), which must be installed: else " +
      'refused (exit 2). Each line is matched as ripgrep reads it: no BOM on line 1, bytes that are not ' +
      'UTF-8 as U+FFFD, $ before the \\r of a CRLF, "." any character of the line',
  },
  { long: 'invert-match', short: 'v', kind: 'switch', summary: 'select the lines that do not match' },
  {
    long: 'only-matching',
    short: 'o',
    kind: 'switch',
    summary:
      "print only the matching parts of each hit, one a line, each with its line's prefix " +
      '(PATH:NUMBER:LID|MATCH); empty matches are not printed, and these lines do not count as shown (open ' +
      'a line to edit it). Not with -v',
  },
  {
    long: 'count',
    short: 'c',
    kind: 'switch',
    summary:
      'print only how many lines match in each file with hits (with -o, how many matches), as PATH:COUNT ' +
      '(grep-file: COUNT)',
  },
  {
    long: 'context',
    short: 'C',
    value: 'N',
    kind: 'count',
    counting: 'lines of context',
    summary: 'also print N lines before and after each hit',
  },
  {
    long: 'after-context',
    short: 'A',
    value: 'N',
    kind: 'count',
    counting: 'lines of context',
    summary: 'also print N lines after each hit (wins over -C)',
  },
  {
    long: 'before-context',
    short: 'B',
    value: 'N',
    kind: 'count',
    counting: 'lines of context',
    summary: 'also print N lines before each hit (wins over -C)',
  },
  {
    long: 'function',
    short: 'p',
    kind: 'switch',
    summary:
      'also print the first line of the definition that encloses each hit, with "=" where a hit has "|" ' +
      "(from the file's outline; where it has none, the nearest line above that starts with a letter, _ or $, " +
      'as git grep -p)',
  },
  {
    long: 'function-context',
    short: 'W',
    kind: 'switch',
    summary:
      'also print the whole definition that encloses each hit (its first line as with -p, the rest as ' +
      'context); where the outline has none, from that line to the next such line, as git grep -W',
  },
  {
    long: 'line-number',
    short: 'n',
    kind: 'switch',
    summary: 'accepted out of habit, and does nothing: line numbers are always printed',
  },
  {
    long: 'max',
    value: 'N',
    kind: 'count',
    least: 1,
    counting: 'results',
    summary: 'print at most N hits (default 200)',
  },
] as const satisfies readonly OptionSpec[];

/** How many hits (with -l or -c, files) a search prints by default. */
export const DEFAULT_MAX = 200;

export function maxOption(options: { readonly max: number | undefined }): number {
  return options.max ?? DEFAULT_MAX;
}

/** --hidden and --no-ignore, as the listing takes them. */
export function listOptions(options: { readonly hidden: boolean; readonly ignore: boolean }): ListOptions {
  return { hidden: options.hidden, noIgnore: !options.ignore };
}

export const LISTING_OPTIONS = [
  { long: 'hidden', kind: 'switch', summary: 'also search hidden files and folders (names starting with a dot)' },
  {
    long: 'no-ignore',
    kind: 'switch',
    summary: "also search files that .gitignore, .ignore or git's exclude files ignore",
  },
] as const satisfies readonly OptionSpec[];

/** --hidden and --no-ignore, parsed. */
export type ListingOptions = OptionsOf<typeof LISTING_OPTIONS>;

/** grep's options, parsed: a search's, and -g, -l, --hidden and --no-ignore. */
export type GrepOptions = OptionsOf<typeof MATCH_OPTIONS> &
  ListingOptions & { readonly files: boolean; readonly glob: readonly string[] };

/** The options of a search, parsed: grep-file's, and grep's own where it has them (-l, -g, --hidden, --no-ignore). */
export type SearchOptions = OptionsOf<typeof MATCH_OPTIONS> & Partial<GrepOptions>;

/** A search's options as given with no flag: what a command searching as grep does (replace, refs) starts from. */
export const PLAIN_SEARCH: OptionsOf<typeof MATCH_OPTIONS> = {
  regexp: [],
  ignoreCase: false,
  smartCase: false,
  word: false,
  fixed: false,
  pcre2: false,
  invertMatch: false,
  onlyMatching: false,
  count: false,
  context: undefined,
  afterContext: undefined,
  beforeContext: undefined,
  lineNumber: false,
  function: false,
  functionContext: false,
  max: undefined,
};

/**
 * The query of `rt COMMAND ARGS`: with -e, the patterns are those and every operand is a path;
 * else the first operand is the pattern. grep-file takes one path.
 */
export function searchQuery(
  command: 'grep' | 'grep-file',
  args: readonly string[],
  options: SearchOptions,
): SearchQuery {
  const given = options.regexp;
  const usage =
    command === 'grep'
      ? 'rt grep PATTERN [PATH...], or rt grep -e PATTERN... [PATH...]'
      : 'rt grep-file PATTERN PATH, or rt grep-file -e PATTERN... PATH';
  if (given.length === 0 && args.length === 0)
    throw new RtError('usage', 'no PATTERN given', [`search with: ${usage}`]);
  const patterns = given.length ? given : [args[0]!];
  const paths = given.length ? args : args.slice(1);
  if (command === 'grep-file' && paths.length !== 1) {
    throw new RtError(
      'usage',
      paths.length ? `grep-file searches one file, and was given ${paths.length}` : 'no PATH given',
      [paths.length ? 'search several with: rt grep PATTERN PATH...' : `search a file with: ${usage}`],
    );
  }
  const { fixed, pcre2: pcre, invertMatch: invert, onlyMatching: only } = options;
  if (pcre && fixed)
    throw new RtError('usage', '-F and -P cannot be combined: -F takes PATTERN literally, -P as PCRE2', [
      'leave out one of them',
    ]);
  if (only && invert)
    throw new RtError('usage', '-o prints the matching parts of lines, and the lines -v selects have none', [
      'leave out one of them',
    ]);
  if (options.count && options.files)
    throw new RtError('usage', '-c counts the hits of each file, -l lists the files with hits: choose one', [
      'leave out one of them',
    ]);
  const smartCase = options.smartCase && !options.ignoreCase;
  const context = options.context ?? 0;
  return {
    patterns,
    matched: fixed || pcre ? patterns : patterns.map(withPosixClasses),
    paths,
    fixed,
    ignoreCase: options.ignoreCase || (smartCase && !pcre && smartCaseIgnores(patterns, fixed)),
    smartCase,
    word: options.word,
    invert,
    pcre,
    only,
    count: options.count,
    before: options.beforeContext ?? context,
    after: options.afterContext ?? context,
  };
}

/**
 * What a search command is asked: its command line read and checked, then its matcher built,
 * once (rt's own; undefined for -P, whose matcher is ripgrep's answer once the files are known).
 */
export interface SearchRequest<Query extends SearchQuery = SearchQuery> {
  readonly query: Query;
  readonly matcher: LineMatcher | undefined;
  /** --max: the most hits (with -l or -c, files) printed. */
  readonly max: number;
  /** The flags and operands as given, to repeat the search in a suggested command. */
  readonly flags: readonly string[];
  readonly operands: readonly string[];
  /** -p and -W: the definitions enclosing hits printed too (see enclosingFor). */
  readonly enclosing: { readonly function: boolean; readonly functionContext: boolean };
}

/** The request of `rt COMMAND ARGS` (see searchQuery): its options read here, all of them. */
export function searchRequest(
  command: 'grep' | 'grep-file',
  args: readonly string[],
  options: SearchOptions,
): SearchRequest {
  const query = searchQuery(command, args, options);
  const matcher = query.pcre
    ? undefined
    : compileSearch(
        query.matched,
        { fixed: query.fixed, ignoreCase: query.ignoreCase, word: query.word, invert: query.invert },
        query.patterns,
      );
  const max = maxOption(options);
  return {
    query,
    matcher,
    max,
    flags: searchFlags(options),
    operands: searchOperands(query, options),
    enclosing: { function: options.function, functionContext: options.functionContext },
  };
}

/** The flags of a search as given (every -e included), to repeat it in a suggested command. */
export function searchFlags(options: SearchOptions): string[] {
  const out: string[] = [];
  if (options.ignoreCase) out.push('-i');
  if (options.smartCase) out.push('-S');
  if (options.word) out.push('-w');
  if (options.fixed) out.push('-F');
  if (options.pcre2) out.push('-P');
  if (options.invertMatch) out.push('-v');
  if (options.onlyMatching) out.push('-o');
  if (options.function) out.push('-p');
  if (options.functionContext) out.push('-W');
  if (options.count) out.push('-c');
  if (options.files) out.push('-l');
  if (options.context !== undefined) out.push('-C', String(options.context));
  if (options.afterContext !== undefined) out.push('-A', String(options.afterContext));
  if (options.beforeContext !== undefined) out.push('-B', String(options.beforeContext));
  for (const g of options.glob ?? []) out.push('-g', g);
  if (options.hidden) out.push('--hidden');
  if (options.ignore === false) out.push('--no-ignore'); // (undefined: grep-file, which has no --no-ignore)
  for (const p of options.regexp) out.push('-e', p);
  return out;
}

/** The operands of a search as given: PATTERN (unless -e gave the patterns) and the PATHs. */
export function searchOperands(query: SearchQuery, options: SearchOptions): string[] {
  return [...(options.regexp.length ? [] : query.patterns), ...query.paths];
}

/**
 * Flags of grep and ripgrep that rt's searches do not take, and what to do instead: said when
 * one is given (an unknown long flag close to one rt takes is named by the parser).
 */
const HABITS: ReadonlyArray<readonly [readonly string[], string, string?]> = [
  [
    ['-r', '-R', '--recursive', '--dereference-recursive'],
    'rt grep searches folders recursively already: leave it out',
    'grep-file searches one file; rt grep PATTERN FOLDER searches a folder, recursively',
  ],
  [
    ['-E', '--extended-regexp', '-G', '--basic-regexp'],
    'PATTERN is a JavaScript regular expression already (extended syntax: a|b, (x)+, \\d): leave it out; ' +
      '-F takes it literally',
  ],
  [['-x', '--line-regexp'], "anchor the pattern instead: '^(?:PATTERN)$'"],
  [
    ['-H', '--with-filename', '--no-heading', '--heading'],
    'rt grep prints each hit as PATH:NUMBER:LID|CONTENT, always',
    'grep-file prints NUMBER:LID|CONTENT; rt grep PATTERN FILE prints the path too',
  ],
  [['-N', '--no-line-number'], "line numbers are always printed, with each line's LID"],
  [['-m', '--max-count'], 'use --max N: the most hits printed'],
  [
    ['-q', '--quiet', '--silent'],
    'test the exit status and discard the output: rt grep … >/dev/null (0: found, 1: not found)',
  ],
  [['-L', '--files-without-match'], 'rt lists the files with hits (-l), not those without'],
  [
    ['-a', '--text', '--binary', '-uuu'],
    'rt searches text files only; search binary files with rg --text (or grep -a)',
  ],
  [['-U', '--multiline'], 'matches never span lines in rt: search for one line at a time'],
  [['-t', '--type', '--include'], "choose files by glob: -g '*.ts', repeatable"],
  [['-T', '--type-not', '--exclude'], "leave files out by glob: -g '!*.min.js'"],
  [['--exclude-dir'], "leave folders out by glob: -g '!build/**'"],
  [['-s', '--case-sensitive'], 'matching is case-sensitive unless -i or -S'],
  [['-u', '--unrestricted', '-uu'], 'search ignored files with --no-ignore, hidden ones with --hidden'],
  [['--count-matches'], 'use -c -o: the number of matches in each file'],
  [['-M', '--max-columns'], 'lines over 2,000 characters are cut for display, around the first match of a hit'],
];

/** What to say of a flag `command` does not take (see HABITS), or undefined. Short flags may be run together: -rn. */
export function explainSearchFlag(command: 'grep' | 'grep-file'): (flag: string) => string | undefined {
  const explain = (name: string) => {
    const habit = HABITS.find(([names]) => names.includes(name));
    return habit && (command === 'grep-file' ? (habit[2] ?? habit[1]) : habit[1]);
  };
  return (flag) => {
    const name = flag.split('=')[0]!;
    if (name.startsWith('--') || name.length <= 2) return explain(name);
    return explain(name) ?? [...name.slice(1)].map((c) => explain(`-${c}`)).find((hint) => hint !== undefined);
  };
}
