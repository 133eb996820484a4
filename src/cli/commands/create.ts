import { quotePath } from '../../model/errors.js';
import { readEditText, readNoText } from '../../io/stdin.js';
import { runWrites, writeFlags } from '../writing.js';
import { defineCommand } from '../spec.js';
import { DIFF, DRY_RUN, NO_CHECK } from './editOptions.js';

export const createCommand = defineCommand({
  name: 'create',
  summary: 'create a file (and its folders) with the text on standard input',
  tool: [
    'Create path (and its missing folders) holding text exactly as given: each line of it ends with a',
    'newline, CRLF stays CRLF. Refused (exit 3) if path exists, unless force, which replaces its whole',
    'content. empty: true (and no text) makes an empty file. The result says "created PATH: 1-N (+N)"',
    '("replaced PATH: …" with force) and shows the first lines with their LIDs. dry_run: the diff only.',
    'Exit 2: bad usage, no text, or text with empty; 3: the file exists; 4: outside the root or not',
    'writable; 5: the text has a syntax error (no_check writes anyway). A refusal writes nothing.',
  ],
  description: [
    'Creates PATH, and any missing parent folders inside the root, holding the text on standard ' +
      "input exactly as given: a heredoc's lines each end with a newline, and CRLF text stays " +
      'CRLF. Refused if PATH exists, unless --force, which replaces its whole content; a folder ' +
      'or any other non-regular file is never replaced.',
    'With --empty, creates an empty file (0 bytes) instead: standard input is then not read ' +
      'when it is a terminal, and must be empty otherwise (text there is refused, exit 2, rather ' +
      'than lost). Without --empty, empty standard input is refused (exit 2), naming --empty.',
    "Prints one line saying what was done, then the file's first lines with their LIDs: " +
      '"created PATH: 1-N (+N)" for a new file; with --force over an existing file, "replaced ' +
      'PATH: 1-M → 1-N (+D)", M and N the old and new line counts, D their difference. An empty ' +
      'file counts as "empty" (created PATH: empty (+0); replaced PATH: 1-3 → empty (-3)). --json ' +
      'says the same: "verb" is "created" or "replaced", "old" and "new" the line counts, "delta" ' +
      'their difference.',
  ],
  args: [{ name: 'path', summary: 'the file to create', required: true, complete: 'file' }],
  options: [
    { long: 'force', kind: 'switch', summary: 'replace the file if it exists' },
    { long: 'empty', kind: 'switch', summary: 'create an empty file; standard input must be empty' },
    DIFF,
    DRY_RUN,
    NO_CHECK,
  ],
  examples: [
    { command: "rt create src/util.ts <<'EOF'", explains: "create src/util.ts with the heredoc's lines" },
    { command: 'rt create --empty src/__init__.py', explains: 'create an empty file' },
  ],
  exits: [
    [0, 'the file was created or replaced (or, with --dry-run, the diff printed)'],
    [2, 'bad usage, no text on standard input, or text with --empty'],
    [3, 'the file exists (use --force to replace it): nothing was written'],
    [4, 'the path is outside the root or cannot be written, or RT_READONLY is set: nothing was written'],
    [5, 'the text has a syntax error: nothing was written'],
  ],
  readsStdin: true,
  writes: true,
  run(ctx, args, options) {
    const pathArg = args[0]!;
    const path = quotePath(pathArg);
    const bytes = options.empty
      ? readNoText(ctx.stdin, path)
      : readEditText(ctx.stdin, `rt create ${path}`, `to make an empty file: rt create --empty ${path}`);
    return runWrites(ctx, [{ kind: 'add', line: 0, path: pathArg, lines: [], bytes }], writeFlags(ctx, options), {
      command: 'create',
      patch: false,
    });
  },
});
