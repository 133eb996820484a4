import { RtError, shellQuote } from '../../core/errors.js';
import { compileMatcher, matchesLine } from '../../core/match.js';
import { statResolved } from '../../io/indexedFile.js';
import { withFolderOf } from '../../io/pinnedFolder.js';
import { resolveInRoot } from '../../io/root.js';
import { bomLengthOf, capNotice, commandLine, contextOption, matchOptions, maxOption, readSearchable, searchFlags } from '../search.js';
import { printHits } from '../hitPrinting.js';
import type { CommandSpec } from '../spec.js';
import { MATCH_OPTIONS } from './searchOptions.js';
import fs from 'node:fs';

export const grepFileCommand: CommandSpec = {
  name: 'grep-file',
  summary: 'search one file; each hit is NUMBER:LID|CONTENT',
  description: [
    'Searches PATH for PATTERN (a JavaScript regular expression, or a literal string with -F) and prints each matching line as NUMBER:LID|CONTENT with the LID rt open shows. With -C, context lines are NUMBER:LID-CONTENT and groups are separated by --. At most 200 hits (--max N), then a line saying how many more.',
  ],
  args: [
    { name: 'pattern', summary: 'the regular expression (or, with -F, the string) to find', required: true, complete: 'none' },
    { name: 'path', summary: 'the file to search', required: true, complete: 'file' },
  ],
  options: [...MATCH_OPTIONS],
  examples: [{ command: 'rt grep-file total src/app.ts', explains: 'the lines of src/app.ts matching total' }],
  exits: [
    [0, 'something was found'],
    [1, 'nothing was found'],
    [2, 'bad usage or an invalid pattern'],
    [4, 'the file is missing, binary, unreadable or outside the root'],
  ],
  readsStdin: false,
  run(ctx, args, options) {
    const [pattern, pathArg] = args as [string, string];
    const matcher = compileMatcher(pattern, matchOptions(options));
    const max = maxOption(options);
    const context = contextOption(options);
    const file = resolveInRoot(ctx.root, pathArg);
    const st = statResolved(file);
    if (st.isDirectory()) throw new RtError('access', `${file.display} is a directory`, [`search a folder with: rt grep ${shellQuote(pattern)} ${shellQuote(file.display)}`]);
    if (!st.isFile()) throw new RtError('access', `${file.display} is not a regular file`, ['rt searches regular text files only']);
    // Read within the file's folder: one swapped for a link out of the root after the check is not followed.
    const bytes = withFolderOf(file, (pinned) => readSearchable(pinned.abs));
    if (!bytes) throw new RtError('binary', `${file.display} is binary or unreadable`, ['rt searches text files only']);
    const lines = matcher.matchingLines(bytes, bomLengthOf(bytes), Infinity);
    const again = commandLine('grep-file', ['--max', String(lines.length), ...searchFlags(options)], [pattern, pathArg]);
    if (lines.length === 0) {
      if (ctx.json) ctx.emit({ command: 'grep-file', path: file.display, hits: [], more: null });
      return 1;
    }
    const hits = printHits(ctx, [{ file: { abs: file.abs, display: file.display }, lines: lines.slice(0, max) }], context, false, (content) => matchesLine(matcher, content));
    if (ctx.json) {
      ctx.emit({ command: 'grep-file', path: file.display, hits: hits.map(({ path: _path, ...hit }) => hit), more: lines.length > max ? { hits: lines.length - max, files: 0, command: again } : null });
      return 0;
    }
    if (lines.length > max) ctx.out(capNotice(['hit', 'hits'], lines.length - max, 0, again, 'a more specific PATTERN'));
    return 0;
  },
};
