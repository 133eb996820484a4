// rt grep-file: the command's definition, its command line read into a request, and its results
// printed through the printers grep uses; the search itself is in search/searchFile.ts.

import { RtError } from '../../model/errors.js';
import { ripgrepCommand } from '../../search/query.js';
import { reportCounts } from '../../search/report.js';
import { searchFile } from '../../search/searchFile.js';
import { statResolved } from '../../store/indexedFile.js';
import { resolveInRoot } from '../../store/root.js';
import { enclosingFor } from '../enclosing.js';
import { CountPrinter, printHits } from '../hitPrinting.js';
import { capNotice, commandLine } from '../searchNotes.js';
import { defineCommand } from '../spec.js';
import { explainSearchFlag, MATCH_OPTIONS, searchRequest } from './searchOptions.js';

export const grepFileCommand = defineCommand({
  name: 'grep-file',
  summary: 'search one file; each hit is NUMBER:LID|CONTENT',
  tool: [
    'Search one file (path) for a JavaScript regular expression (fixed: a literal string; pcre2: PCRE2',
    'through ripgrep) and print each matching line as NUMBER:LID|CONTENT; hits count as shown, so a hit',
    'leads straight to edit. regexp: several patterns instead of pattern. context, before_context,',
    'after_context: lines around hits, as NUMBER:LID-CONTENT. function: the first line of the definition',
    'enclosing hits too, as NUMBER:LID=CONTENT; function_context: all of it. only_matching: the matches alone; count:',
    'the count alone. ignore_case, smart_case, word, invert_match as in grep. At most 200 hits (max),',
    'then how many more. Exit 1: nothing found; 2: a bad pattern; 4: the file is missing, binary or',
    'outside the root.',
  ],
  description: [
    'Searches PATH for PATTERN (a JavaScript regular expression, or a literal string with -F; PCRE2 ' +
      'through ripgrep with -P) and prints each matching line as NUMBER:LID|CONTENT with the LID rt open ' +
      'shows. It matches as rt grep does, and takes its flags but those choosing files: -e (with it, the ' +
      'one operand is PATH), -i, -S, -w, -F, -P, -v, -o (NUMBER:LID|MATCH), -c (prints the count alone), ' +
      '-C, -A, -B, -p and -W (the definitions enclosing hits, their first lines NUMBER:LID=CONTENT). With ' +
      'context, context lines are NUMBER:LID-CONTENT and groups are separated by --. At ' +
      'most 200 hits (--max N), then a line saying how many more.',
    'A binary file is refused (exit 4), with the ripgrep command that searches its bytes, as rt grep ' +
      'refuses a binary file named alone.',
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
    const request = searchRequest('grep-file', args, options);
    const { query, max } = request;
    const file = resolveInRoot(ctx.root, query.paths[0]!);
    const st = statResolved(file);
    if (st.isDirectory())
      throw new RtError('access', `${file.display} is a directory`, [
        `search a folder with: ${commandLine('grep', request.flags, request.operands)}`,
      ]);
    if (!st.isFile())
      throw new RtError('access', `${file.display} is not a regular file`, ['rt searches regular text files only']);
    const rgCommand = ripgrepCommand(query, [], [file.display]);
    const { lines, total, matches, matcher, found } = await searchFile(
      ctx,
      query,
      request.matcher,
      file,
      rgCommand,
      max,
    );
    if (query.count) {
      const count = query.only ? matches : total;
      ctx.emit({ command: 'grep-file', path: file.display, count });
      reportCounts([file], () => count, new CountPrinter(ctx, 1, (_path, n) => `${n}\n`));
      return count ? 0 : 1;
    }
    const again = commandLine('grep-file', ['--max', String(total), ...request.flags], request.operands);
    if (total === 0) {
      ctx.emit({ command: 'grep-file', path: file.display, hits: [], more: null });
      return 1;
    }
    const shown = { file: { abs: file.abs, display: file.display }, lines: lines.slice(0, max), found };
    const hits = printHits(ctx, [shown], {
      query,
      matcher,
      ripgrep: rgCommand,
      prefixPath: false,
      enclosing: await enclosingFor(ctx, [shown.file], request.enclosing),
    });
    ctx.emit({
      command: 'grep-file',
      path: file.display,
      hits: hits.map(({ path: _path, ...hit }) => hit),
      more: total > max ? { hits: total - max, files: 0, command: again } : null,
    });
    if (total > max) ctx.out(capNotice(['hit', 'hits'], total - max, 0, again, 'a more specific PATTERN'));
    return 0;
  },
});
