import { RtError, quotePath } from '../../model/errors.js';
import { compileSearch, knownLinesMatcher, type LineMatcher } from '../../search/match.js';
import { statResolved } from '../../store/indexedFile.js';
import { pcreLines } from '../../search/pcreSearch.js';
import { withFolderOf } from '../../store/pinnedFolder.js';
import { resolveInRoot } from '../../store/root.js';
import { printHits } from '../hitPrinting.js';
import {
  bomLengthOf,
  capNotice,
  commandLine,
  countMatches,
  matchInTime,
  maxOption,
  readSearchable,
  searchableKind,
  unsearchableText,
} from '../search.js';
import { defineCommand } from '../spec.js';
import {
  explainSearchFlag,
  MATCH_OPTIONS,
  ripgrepCommand,
  searchFlags,
  searchOperands,
  searchQuery,
} from './searchOptions.js';

export const grepFileCommand = defineCommand({
  name: 'grep-file',
  summary: 'search one file; each hit is NUMBER:LID|CONTENT',
  tool: [
    'Search one file (path) for a JavaScript regular expression (fixed: a literal string; pcre2: PCRE2',
    'through ripgrep) and print each matching line as NUMBER:LID|CONTENT; hits count as shown, so a hit',
    'leads straight to edit. regexp: several patterns instead of pattern. context, before_context,',
    'after_context: lines around hits, as NUMBER:LID-CONTENT. only_matching: the matches alone; count:',
    'the count alone. ignore_case, smart_case, word, invert_match as in grep. At most 200 hits (max),',
    'then how many more. Exit 1: nothing found; 2: a bad pattern; 4: the file is missing, binary or',
    'outside the root.',
  ],
  description: [
    'Searches PATH for PATTERN (a JavaScript regular expression, or a literal string with -F; PCRE2 through ripgrep with -P) and prints each matching line as NUMBER:LID|CONTENT with the LID rt open shows. It matches as rt grep does, and takes its flags but those choosing files: -e (with it, the one operand is PATH), -i, -S, -w, -F, -P, -v, -o (NUMBER:LID|MATCH), -c (prints the count alone), -C, -A, -B. With context, context lines are NUMBER:LID-CONTENT and groups are separated by --. At most 200 hits (--max N), then a line saying how many more.',
    'A binary file is refused (exit 4), with the ripgrep command that searches its bytes, as rt grep refuses a binary file named alone.',
  ],
  args: [
    {
      name: 'pattern',
      summary: 'the regular expression (or, with -F, the string) to find; with -e, PATH',
      required: false,
      complete: 'none',
    },
    { name: 'path', summary: 'the file to search (required)', required: false, complete: 'file' },
  ],
  options: [...MATCH_OPTIONS],
  examples: [
    { command: 'rt grep-file total src/app.ts', explains: 'the lines of src/app.ts matching total' },
    { command: 'rt grep-file -c -w total src/app.ts', explains: 'how many lines of src/app.ts hold the word total' },
  ],
  exits: [
    [0, 'something was found'],
    [1, 'nothing was found'],
    [2, 'bad usage, an invalid pattern, a pattern taking too long to match, or -P without ripgrep'],
    [4, 'the file is missing, binary, unreadable or outside the root'],
  ],
  readsStdin: false,
  explainUnknownOption: explainSearchFlag('grep-file'),
  async run(ctx, args, options) {
    const query = searchQuery('grep-file', args, options);
    const pathArg = query.paths[0]!;
    let matcher: LineMatcher | undefined = query.pcre
      ? undefined
      : compileSearch(
          query.matched,
          { fixed: query.fixed, ignoreCase: query.ignoreCase, word: query.word, invert: query.invert },
          query.patterns,
        );
    const max = maxOption(options);
    const file = resolveInRoot(ctx.root, pathArg);
    const st = statResolved(file);
    if (st.isDirectory())
      throw new RtError('access', `${file.display} is a directory`, [
        `search a folder with: ${commandLine('grep', searchFlags(options), searchOperands(query, options))}`,
      ]);
    if (!st.isFile())
      throw new RtError('access', `${file.display} is not a regular file`, ['rt searches regular text files only']);
    const rgCommand = ripgrepCommand(query, [], [file.display]);
    // Read within the file's folder: one swapped for a link out of the root after the check is not followed.
    const bytes = withFolderOf(file, (pinned) => readSearchable(pinned.abs));
    if (!bytes) {
      const kind = withFolderOf(file, (pinned) => searchableKind(pinned.abs));
      if (kind === 'binary')
        throw new RtError(
          'binary',
          `${unsearchableText([{ display: file.display, kind }])}: rt searches text files only`,
          [`search its bytes with: ${ripgrepCommand(query, ['--text'], [file.display])} (or grep -a)`],
        );
      throw new RtError('access', `${unsearchableText([{ display: file.display, kind: 'unreadable' }])}`, [
        `check its permissions: ls -l ${quotePath(file.display)}`,
      ]);
    }
    if (query.pcre) {
      const found = await pcreLines([file.abs], query, ctx.settings, () => file.display);
      for (const problem of found.problems) ctx.warn(`ripgrep: ${problem}`);
      matcher = knownLinesMatcher(found.lines);
    }
    const match = matcher!;
    let lines: number[] = [];
    let matches = 0;
    matchInTime(
      1,
      () => {
        lines = match.matchingLines(bytes, bomLengthOf(bytes), Infinity);
        if (query.count && query.only) matches = countMatches(match, bytes, lines);
      },
      () => file,
      rgCommand,
      match,
    );
    if (query.count) {
      const count = query.only ? matches : lines.length;
      ctx.emit({ command: 'grep-file', path: file.display, count });
      if (count) ctx.out(`${count}\n`);
      return count ? 0 : 1;
    }
    const again = commandLine(
      'grep-file',
      ['--max', String(lines.length), ...searchFlags(options)],
      searchOperands(query, options),
    );
    if (lines.length === 0) {
      ctx.emit({ command: 'grep-file', path: file.display, hits: [], more: null });
      return 1;
    }
    const hits = printHits(ctx, [{ file: { abs: file.abs, display: file.display }, lines: lines.slice(0, max) }], {
      before: query.before,
      after: query.after,
      prefixPath: false,
      matcher: match,
      only: query.only,
      ripgrep: rgCommand,
    });
    ctx.emit({
      command: 'grep-file',
      path: file.display,
      hits: hits.map(({ path: _path, ...hit }) => hit),
      more: lines.length > max ? { hits: lines.length - max, files: 0, command: again } : null,
    });
    if (lines.length > max)
      ctx.out(capNotice(['hit', 'hits'], lines.length - max, 0, again, 'a more specific PATTERN'));
    return 0;
  },
});
