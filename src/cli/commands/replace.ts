// rt replace: every match of a pattern in the files rt grep searches, replaced as one batch on
// the one write path (locks, syntax check, journal, one history step). The search only chooses
// the files: each is read again under its lock and matched again there, so the match is the proof
// of the content and no line needs to have been shown.

import path from 'node:path';
import { RtError, shellQuote } from '../../model/errors.js';
import { hasBom, lineContent, type FileLines } from '../../model/lines.js';
import type { LineIndex } from '../../model/lineIndex.js';
import { lidToString } from '../../model/lid.js';
import type { PlannedChange } from '../../model/patch/plan.js';
import type { PatchHunk } from '../../model/patch/types.js';
import { inCodeAll } from '../../model/codeRanges.js';
import { expandReplacement, parseReplacement, replaceMatches, type Captured } from '../../model/replacement.js';
import type { FolderQuery } from '../../search/engine.js';
import { capturingMatcher } from '../../search/match.js';
import { matchInTime } from '../../search/matchInTime.js';
import { ripgrepCommand } from '../../search/query.js';
import { searchPaths } from '../../search/searchPaths.js';
import { writeChanges, type FileReport, type Planned } from '../../store/fileChanges.js';
import type { ResolvedPath } from '../../store/root.js';
import type { Context } from '../context.js';
import { defineCommand, type OptionSpec, type OptionsOf } from '../spec.js';
import { type CodeOf, codeOf, prepareCodeOnly } from '../codeOnly.js';
import { count, printRewrite } from '../rewriteReport.js';
import { writeFlags } from '../writing.js';
import { DRY_RUN, NO_CHECK } from './editOptions.js';
import {
  LISTING_OPTIONS,
  listOptions,
  PLAIN_SEARCH,
  type SearchOptions,
  searchFlags,
  searchRequest,
} from './searchOptions.js';

/** Changed lines printed after a write (or in a preview) by default; the rest are counted. */
const DEFAULT_SHOWN = 200;

const REPLACE_OPTIONS = [
  {
    long: 'fixed',
    short: 'F',
    kind: 'switch',
    summary: 'take PATTERN as a literal string, and REPLACEMENT as it is',
  },
  { long: 'ignore-case', short: 'i', kind: 'switch', summary: 'match case-insensitively' },
  { long: 'word', short: 'w', kind: 'switch', summary: 'match whole words only (letters, digits and _ make words)' },
  {
    long: 'glob',
    short: 'g',
    value: 'GLOB',
    kind: 'list',
    summary: 'replace only in files matching GLOB (repeatable; without / it matches the file name; !GLOB excludes)',
  },
  ...LISTING_OPTIONS,
  {
    long: 'in',
    value: 'WHERE',
    kind: 'choice',
    choices: ['code', 'all'],
    summary:
      'where to replace: code leaves matches in strings and comments alone in files rt has a grammar for; ' +
      'all (the default) replaces everywhere',
  },
  {
    long: 'expect',
    value: 'N',
    kind: 'count',
    counting: 'matches',
    summary: 'refuse (exit 3, nothing written) unless exactly N matches would be replaced',
  },
  {
    long: 'only',
    value: 'LIDS',
    kind: 'list',
    summary:
      'change only the lines of these LIDs (comma-separated or repeated; PATH:LID or PATH:NUMBER:LID for one ' +
      'file), each still matching',
  },
  { ...DRY_RUN, summary: 'print each line that would change, before and after, and write nothing' },
  {
    long: 'max',
    value: 'N',
    kind: 'count',
    least: 1,
    counting: 'lines',
    summary: 'print at most N changed lines (default 200); all are replaced',
  },
  NO_CHECK,
] as const satisfies readonly OptionSpec[];

export const replaceCommand = defineCommand({
  name: 'replace',
  summary: 'replace every match of PATTERN in the files grep searches, as one step undo takes back',
  tool: [
    'Replace every match of a JavaScript regular expression (fixed: a literal string) with replacement',
    'in the files grep would search, as one all-or-nothing write that undo takes back; replacement takes',
    "$1, ${name} and $$ as ripgrep's replace does (fixed: taken as it is). Each file is matched again under its",
    'lock, so no line needs to have been shown. dry_run: each changed line as PATH:NUMBER:LID-OLD and',
    'PATH:NUMBER:LID+NEW, then "N matches on M lines in K files", writing nothing. expect: refuse (exit 3)',
    'unless exactly that many matches would be replaced. only: LIDs (or PATH:LID) of the lines to change,',
    'each still matching. After the write, the changed lines as PATH:NUMBER:LID|CONTENT with their new',
    'LIDs. in: "code" leaves matches in strings and comments alone where rt has the grammar, and says how',
    'many it left. path, glob, hidden, no_ignore, ignore_case, word as in grep. Exit 1: no match; 3: expect',
    'or only refused; 5: a file would break its syntax.',
  ],
  description: [
    'Replaces every match of PATTERN (a JavaScript regular expression, or a literal string with -F) with ' +
      'REPLACEMENT in the files rt grep would search under each PATH (default: the working directory): ' +
      'the files git would show, less hidden and binary ones (--hidden and --no-ignore widen it; -g GLOB ' +
      'chooses files). Lines are matched as rt grep matches them: without their line ending (nor, on ' +
      'line 1, a BOM), never across lines. Every match in a line is replaced, leftmost first, empty ' +
      'matches too (^ puts text at the start of a line), as JavaScript replaces them (an empty match right ' +
      'after a match counts too: x* on axxb gives -a--b- where sed and ripgrep give -a-b-); every byte ' +
      'outside the matches is kept, and a line keeps its own line ending, CRLF or LF. Matching again ' +
      'under the locks has the time rt grep has: a pattern that backtracks without end is stopped (exit 2).',
    "In REPLACEMENT, as in ripgrep's --replace: $1 or ${1} is a capture group by number ($0, the whole " +
      'match), $name or ${name} one by name, $$ a dollar sign; without braces a reference takes the ' +
      'longest run of letters, digits and _ ($1a names the group "1a": write ${1}a); a group that does not ' +
      'exist or took no part stands for nothing; a $ that starts none is itself. Groups are copied as ' +
      'the bytes of the line; only letters, digits and _ name a group in braces (${a-b} is itself). With ' +
      '-F, REPLACEMENT is taken as it is. A newline (or \\r\\n) in it splits the line, each new line ending ' +
      'as the line replaced did; a NUL byte is refused (exit 2).',
    'The search only chooses the files. Each is then locked, read again and matched again, and the ' +
      'change is worked out from that reading: lines need not have been shown (the match is the proof of ' +
      'their content), and a file that changed since a --dry-run is simply matched again. All the files ' +
      'are written, or none, as one step: rt undo takes the whole replacement back. The syntax check ' +
      'refuses (exit 5) a replacement that would leave any file with a syntax error it did not have ' +
      '(--no-check writes anyway).',
    '--dry-run prints each line that would change, as it is (PATH:NUMBER:LID-CONTENT) and as it would ' +
      'be (PATH:NUMBER:LID+CONTENT, the same number and LID), then "N matches on M lines in K files", ' +
      'and writes nothing. A match counts when it changes (one already as it would become does not); ' +
      'when every match is so, nothing is written and the exit status is 0. --expect N refuses (exit 3, ' +
      'nothing written) unless exactly N matches would change, saying how many there are. --only LID,… ' +
      'changes only the lines of those LIDs (the ' +
      'ones a preview printed, as LID or NUMBER:LID, whose number is not checked; PATH:LID or ' +
      'PATH:NUMBER:LID names one in one file): each must still be in ' +
      'its file and match, else the replacement is refused (exit 3).',
    '--in code leaves the matches in strings and comments alone in the files rt has a grammar for (the ' +
      'languages of the syntax check), parsing each file under its lock after matching it: comments, ' +
      'string and character literals (raw, verbatim, here-documents, docstrings, JSX text and regex ' +
      'literals too), but not the code in a string (${…} of a template, {…} of an f-string, C#, Ruby and ' +
      'shell interpolations), which is code. A match that touches a string or comment at all is left whole. ' +
      'All of a Markdown file is prose, left alone. A file rt cannot parse (no grammar, JSON, more than ' +
      '16 MB, or a parse that takes too long) is replaced everywhere. The summary adds "L matches left ' +
      'in strings and comments" and, when there are some, "F files rt cannot parse, replaced ' +
      'everywhere"; --json adds "left" and "unparsed". --expect counts only the matches replaced. ' +
      '--in all (the default) replaces everywhere, as sed does.',
    'After the write it prints "replaced N matches on M lines in K files", then each changed line as ' +
      'PATH:NUMBER:LID|CONTENT with its new LID (these count as shown), at most 200 (--max N), then how ' +
      'many more. With --json: {"command": "replace", "dryRun", "matches", "lines", "files": [{"path", ' +
      '"matches", "lines": [...]}]}: with --dry-run each line {"n", "lid", "before", "after"} (and ' +
      '"beforeBase64", "afterBase64" for bytes that are not UTF-8), after a write {"n", "lid", "text"} with ' +
      'its new LID (and "base64"), as rt open gives lines.',
  ],
  args: [
    {
      name: 'pattern',
      summary: 'the regular expression (or, with -F, the string) to replace',
      required: true,
      complete: 'none',
    },
    {
      name: 'replacement',
      summary: 'what replaces each match ($1, ${name}, $$ as in ripgrep; with -F, as it is)',
      required: true,
      complete: 'none',
    },
    {
      name: 'path',
      summary: 'files or folders to replace in (default: the working directory)',
      required: false,
      variadic: true,
      complete: 'file',
    },
  ],
  options: REPLACE_OPTIONS,
  examples: [
    {
      command: 'rt replace --dry-run -w -F oldName newName src',
      explains: 'preview renaming the word oldName in the files under src',
    },
    {
      command: 'rt replace --expect 12 -w -F oldName newName src',
      explains: 'the same, written only if there are exactly 12 matches',
    },
    {
      command: 'rt replace --in code --dry-run -w -F oldName newName',
      explains: 'the same, leaving oldName alone in strings and comments',
    },
    {
      command: "rt replace 'assertEquals\\((\\w+), (\\w+)\\)' 'assertEquals($2, $1)' -g '*.java'",
      explains: 'swap the arguments of every assertEquals call in Java files',
    },
  ],
  exits: [
    [0, 'the matches were replaced (or, with --dry-run, printed)'],
    [1, 'nothing matches: nothing was written (matches that would change nothing: exit 0)'],
    [2, 'bad usage, an invalid pattern, or a NUL byte in REPLACEMENT'],
    [3, '--expect counted otherwise, or a line of --only no longer matches: nothing was written'],
    [4, 'a file is unwritable or outside the root, or RT_READONLY is set: nothing was written'],
    [5, 'a file would be left with a syntax error it did not have: nothing was written'],
  ],
  readsStdin: false,
  writes: true,
  run(ctx, args, options) {
    return replace(ctx, args, options);
  },
});

type ReplaceOptions = OptionsOf<typeof REPLACE_OPTIONS>;

/** What one file's replacement changes, as planned under its lock. */
interface FileMatches {
  matches: number;
  readonly lines: Array<{ readonly n: number; readonly lid: string; readonly before: Buffer; readonly after: Buffer }>;
}

/** Nothing matches (or nothing --only names does): exit 1, nothing written. */
class NothingToReplace extends Error {}

async function replace(ctx: Context, args: readonly string[], options: ReplaceOptions): Promise<number> {
  const [pattern, replacement, ...paths] = args as [string, string, ...string[]];
  if (replacement.includes('\0'))
    throw new RtError('input', 'REPLACEMENT holds a NUL byte, and rt writes text files only', [
      'leave the NUL byte out',
    ]);
  const searched: SearchOptions & { files: boolean; glob: readonly string[]; hidden: boolean; ignore: boolean } = {
    ...PLAIN_SEARCH,
    ignoreCase: options.ignoreCase,
    word: options.word,
    fixed: options.fixed,
    files: false,
    glob: options.glob,
    hidden: options.hidden,
    ignore: options.ignore,
  };
  const request = searchRequest('grep', [pattern, ...paths], searched);
  const query: FolderQuery = { ...request.query, filesOnly: true, list: listOptions(searched), globs: options.glob };
  const rgCommand = ripgrepCommand(query, [], query.paths);
  const found = await searchPaths(ctx, query, request.matcher, rgCommand);
  const files = found.files.filter((_, i) => (found.hits[i]?.length ?? 0) > 0);
  const only = onlyLids(ctx, options.only);
  const parts = parseReplacement(replacement, options.fixed);
  const capture = capturingMatcher(request.query.matched[0]!, {
    fixed: options.fixed,
    ignoreCase: options.ignoreCase,
    word: options.word,
  });
  const matcher = request.matcher!;
  const byFile = new Map<string, FileMatches>();
  const onlyFound = new Set<string>();
  const flags = writeFlags(ctx, { dryRun: options.dryRun, diff: false, check: options.check });
  const max = options.max ?? DEFAULT_SHOWN;
  let matchedAtAll = 0;
  const codeOnly = options.in === 'code';
  /** --in code: the matches left in strings and comments, by file and line; the files not parsed. */
  const leftIn = new Map<string, number>();
  const unparsed = new Map<string, string>();
  const where = () =>
    codeOnly
      ? { left: sum(leftIn.values()), unparsed: unparsed.size, unparsedFiles: [...unparsed.values()] }
      : undefined;
  const plan = (file: ResolvedPath, lines: FileLines, index: LineIndex): PlannedChange[] => {
    // Matched again under the lock, within the time a search may take: a pattern that backtracks
    // without end on a line the search did not need to match is stopped (exit 2), writing nothing.
    // Only the matching is timed; what is made of the matches after is not.
    let found: Array<{ i: number; lid: string; before: Buffer; matches: Captured[] }> = [];
    matchInTime(
      1,
      () => {
        found = [];
        const candidates = matcher.matchingLines(lines.bytes, hasBom(lines.bytes) ? 3 : 0, Number.MAX_SAFE_INTEGER);
        for (const i of candidates) {
          if (i >= lines.count) continue;
          const lid = lidToString(index.lids[i]!);
          if (only && !only.names(file, lid)) continue;
          const before = lineContent(lines, i);
          const matches = capture(before);
          if (matches.length) found.push({ i, lid, before, matches });
        }
      },
      () => ({ abs: file.abs, display: file.display }),
      rgCommand,
      matcher,
    );
    const changes: PlannedChange[] = [];
    const tally: FileMatches = { matches: 0, lines: [] };
    // --in code: the file is parsed now, under its lock and after the timed matching, on the bytes matched.
    const rows = found.map((f) => f.i);
    const code = codeOnly && rows.length ? codeOf(ctx, file, lines, rows) : undefined;
    if (code === 'unparsed') unparsed.set(file.abs, file.display);
    for (const { i, lid, before, matches: all } of found) {
      const matches = code === undefined || code === 'unparsed' ? all : inCodeOf(code, i, all);
      // Only the matches that change count (a match already as it would be, changes nothing),
      // here and in what --in code says it left.
      const alters = (m: Captured) => !expandReplacement(parts, before, m).equals(before.subarray(...m.range));
      const changing = matches.filter(alters);
      if (matches.length < all.length) leftIn.set(`${file.abs}\0${i}`, all.filter(alters).length - changing.length);
      matchedAtAll += all.length;
      if (only) onlyFound.add(only.key(file, lid));
      if (changing.length === 0) continue;
      const after = replaceMatches(parts, before, matches);
      // (Matches that each change can still leave the line as it was.)
      if (after.equals(before)) continue;
      tally.matches += changing.length;
      tally.lines.push({ n: i + 1, lid, before: Buffer.from(before), after });
      changes.push({ start: i, deleteCount: 1, insert: rowsOf(after), hunk: hunkAt(i, lid, after), ownEnding: true });
    }
    byFile.set(file.abs, tally);
    return changes;
  };
  const total = () => {
    let matches = 0;
    let lines = 0;
    for (const f of byFile.values()) [matches, lines] = [matches + f.matches, lines + f.lines.length];
    return { matches, lines };
  };
  /** This command again, with `extra` flags instead of --expect, --dry-run and --max. */
  const again = (extra: readonly string[], inside = options.in) => {
    const given = searchFlags(searched);
    for (const o of options.only) given.push('--only', o);
    if (inside) given.push('--in', inside);
    if (!options.check) given.push('--no-check');
    const operands = [pattern, replacement, ...paths];
    const dashed = operands.some((o) => o.startsWith('-')) ? ['--'] : [];
    return ['rt', 'replace', ...extra, ...given, ...dashed, ...operands].map(shellQuote).join(' ');
  };
  const changes = files.map((f) => ({
    kind: 'update' as const,
    line: 0,
    path: path.relative(ctx.cwd, f.abs) || f.abs,
    moveTo: undefined,
    hunks: [],
  }));
  try {
    if (files.length === 0) throw new NothingToReplace();
    if (codeOnly) await prepareCodeOnly(ctx, files);
    await writeChanges(
      ctx,
      changes,
      {
        flags,
        origin: { command: 'replace', patch: false },
        readOnly: ctx.settings.readOnly,
        rewrite: {
          plan,
          verify(planned) {
            if (only) only.refuseMissing(onlyFound);
            const { matches } = total();
            if (options.expect !== undefined && matches !== options.expect)
              throw new RtError(
                'stale',
                `${count(matches, 'match', 'matches')} would be replaced, not the ${options.expect} expected: ` +
                  'nothing was written',
                [`see them: ${again(['--dry-run'])}`, `replace them all: ${again(['--expect', String(matches)])}`],
              );
            if (planned.length === 0) throw new NothingToReplace();
          },
        },
      },
      {
        refusalFirst: ctx.json,
        report: (planned, reports) => report(ctx, planned, reports, byFile, total(), max, where()),
      },
    );
  } catch (error) {
    if (!(error instanceof NothingToReplace)) throw error;
    const kept = where();
    ctx.emit({ command: 'replace', dryRun: options.dryRun, matches: 0, lines: 0, ...kept, files: [] });
    if (kept && kept.left > 0) {
      // Every match that would change lies in a string or comment (or prose).
      const all = `${count(kept.left, 'match', 'matches')} of ${JSON.stringify(pattern)}`;
      ctx.warn(
        `the ${all} ${kept.left === 1 ? 'is' : 'are'} in strings, comments or prose, left alone: nothing was written`,
      );
      ctx.warn(`replace them too: ${again([], 'all')}`);
      return 1;
    }
    if (matchedAtAll > 0) {
      // Matches, every one already what it would become: nothing to do, which is no failure.
      const already = `${count(matchedAtAll, 'match', 'matches')} of ${JSON.stringify(pattern)}`;
      ctx.warn(`the ${already} would be replaced by the same text: nothing was written`);
      return 0;
    }
    ctx.warn(
      `nothing matches ${JSON.stringify(pattern)}${only ? ' on the lines --only names' : ''}: nothing was written`,
    );
    return 1;
  }
  return 0;
}

/** The new lines a changed line becomes: a newline in the replacement splits it. */
function rowsOf(after: Buffer): Buffer[] {
  const rows: Buffer[] = [];
  let at = 0;
  for (let nl = after.indexOf(0x0a); nl !== -1; nl = after.indexOf(0x0a, at)) {
    // (\r\n breaks a line as \n does: the new line takes the file's ending.)
    rows.push(after.subarray(at, nl > at && after[nl - 1] === 0x0d ? nl - 1 : nl));
    at = nl + 1;
  }
  rows.push(after.subarray(at));
  return rows;
}

/** The hunk a replaced line stands for, as an `@@ edit N:LID` hunk would (for the history and messages). */
function hunkAt(i: number, lid: string, after: Buffer): PatchHunk {
  const anchor = { kind: 'both' as const, text: `${i + 1}:${lid}`, line: i + 1, lid };
  return { kind: 'range', op: 'edit', line: 0, from: anchor, to: anchor, rows: rowsOf(after) };
}

/** --only: the lines named, by LID anywhere, or by PATH:LID / PATH:NUMBER:LID in one file. */
function onlyLids(ctx: Context, given: readonly string[]) {
  const names = given
    .flatMap((g) => g.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0) return undefined;
  const anywhere = new Set<string>();
  const inFile = new Map<string, Set<string>>();
  for (const name of names) {
    // LID, NUMBER:LID (the number, as printed, is not checked: the LID names the line), PATH:LID,
    // PATH:NUMBER:LID.
    const m = /^(?:\d+:)?([0-9a-z]{4,})$/.exec(name)
      ? [name, undefined, /([0-9a-z]{4,})$/.exec(name)![1]]
      : /^(.*?)(?::\d+)?:([0-9a-z]{4,})$/.exec(name);
    if (!m) throw new RtError('usage', `--only takes LIDs (or PATH:LID): ${JSON.stringify(name)} is none`, []);
    if (m[1] === undefined) anywhere.add(m[2]!);
    else {
      const abs = path.resolve(ctx.cwd, m[1]);
      if (!inFile.has(abs)) inFile.set(abs, new Set());
      inFile.get(abs)!.add(m[2]!);
    }
  }
  const key = (file: ResolvedPath, lid: string) => `${file.abs}\0${lid}`;
  return {
    names: (file: ResolvedPath, lid: string) => anywhere.has(lid) || inFile.get(file.abs)?.has(lid) === true,
    key,
    refuseMissing(found: ReadonlySet<string>): void {
      const seen = new Set([...found].map((k) => k.slice(k.indexOf('\0') + 1)));
      // An LID is unique in its file only: one found in several files is named with its path.
      for (const lid of anywhere) {
        const where = [...found].filter((k) => k.endsWith(`\0${lid}`)).map((k) => k.slice(0, k.indexOf('\0')));
        if (where.length > 1)
          throw new RtError('usage', `--only ${lid} names a line in ${where.length} files`, [
            `name it with its path: --only ${path.relative(ctx.cwd, where[0]!)}:${lid}`,
          ]);
      }
      const missing = [
        ...[...anywhere].filter((lid) => !seen.has(lid)),
        ...[...inFile].flatMap(([abs, lids]) => [...lids].filter((lid) => !found.has(`${abs}\0${lid}`))),
      ];
      const none = missing.length === 1 ? 'names no line that still matches' : 'name no lines that still match';
      if (missing.length)
        throw new RtError(
          'stale',
          `${missing.join(', ')} ${none}` + ' (changed or gone since they were shown): nothing was written',
          ['preview the replacement again with --dry-run, and name the LIDs it prints'],
        );
    },
  };
}

function sum(values: Iterable<number>): number {
  let n = 0;
  for (const v of values) n += v;
  return n;
}

/** What --in code left alone. */
interface Where {
  readonly left: number;
  readonly unparsed: number;
  /** Their paths as shown. */
  readonly unparsedFiles: readonly string[];
}

/** The matches of line `i` that lie in code (see CodeOf): none in a Markdown file. */
function inCodeOf(code: Exclude<CodeOf, 'unparsed'>, i: number, matches: readonly Captured[]): Captured[] {
  if (code === 'prose') return [];
  return inCodeAll(code.get(i), matches);
}

/** Files replaced everywhere that the summary names (--json names them all). */
const UNPARSED_NAMED = 3;

function summary(t: { matches: number; lines: number }, files: number, where: Where | undefined): string {
  const matches = count(t.matches, 'match', 'matches');
  const said = `${matches} on ${count(t.lines, 'line', 'lines')} in ${count(files, 'file', 'files')}`;
  if (!where) return said;
  const left = `; ${count(where.left, 'match', 'matches')} left in strings and comments`;
  const named = where.unparsedFiles.slice(0, UNPARSED_NAMED).join(', ');
  const more = where.unparsed > UNPARSED_NAMED ? ` and ${where.unparsed - UNPARSED_NAMED} more` : '';
  const unparsed = where.unparsed
    ? `; ${count(where.unparsed, 'file', 'files')} rt cannot parse, replaced everywhere (${named}${more})`
    : '';
  return said + left + unparsed;
}

/** What a replacement prints: a dry run's preview, or the changed lines with their new LIDs. */
function report(
  ctx: Context,
  planned: readonly Planned[],
  reports: readonly FileReport[] | undefined,
  byFile: ReadonlyMap<string, FileMatches>,
  total: { matches: number; lines: number },
  max: number,
  where: Where | undefined,
): void {
  const said = summary(total, planned.length, where);
  const json = printRewrite(ctx, planned, reports, {
    lines: (abs) => byFile.get(abs)!.lines,
    tally: (abs) => ({ matches: byFile.get(abs)!.matches }),
    summary: said,
    done: `replaced ${said}`,
    max,
  });
  ctx.emit({ command: 'replace', dryRun: !reports, ...total, ...where, files: json });
}
