import { shellQuote } from '../../core/errors.js';
import { readEditText } from '../../io/stdin.js';
import { createFile, editFlags } from '../editing.js';
import type { CommandSpec } from '../spec.js';
import { DIFF, DRY_RUN } from './editOptions.js';

export const createCommand: CommandSpec = {
  name: 'create',
  summary: 'create a file (and its folders) with the text on standard input',
  description: [
    'Creates PATH, and any missing parent folders inside the root, holding the text on standard input exactly as given: a heredoc\'s lines each end with a newline, and CRLF text stays CRLF. Refused if PATH exists, unless --force, which replaces its whole content; a folder or any other non-regular file is never replaced.',
    'Prints one line saying what was created, then its first lines with their LIDs.',
  ],
  args: [{ name: 'path', summary: 'the file to create', required: true, complete: 'file' }],
  options: [{ long: 'force', kind: 'switch', summary: 'replace the file if it exists' }, DIFF, DRY_RUN],
  examples: [{ command: "rt create src/util.ts <<'EOF'", explains: 'create src/util.ts with the heredoc\'s lines' }],
  exits: [
    [0, 'the file was created (or, with --dry-run, the diff printed)'],
    [2, 'bad usage, or no text on standard input'],
    [3, 'the file exists (use --force to replace it): nothing was written'],
    [4, 'the path is outside the root or cannot be written, or RT_READONLY is set: nothing was written'],
  ],
  readsStdin: true,
  run(ctx, args, options) {
    const pathArg = args[0]!;
    createFile(ctx, pathArg, readEditText(ctx.stdin, `rt create ${shellQuote(pathArg)}`), editFlags(ctx, options));
  },
};
