import { RtError } from '../../model/errors.js';
import { parsePatch } from '../../model/patch/parse.js';
import { readPatchFile } from '../../store/userFiles.js';
import { defineCommand } from '../spec.js';
import { runWrites, writeFlags } from '../writing.js';
import { DEFINITION_TARGETS, DIFF, DRY_RUN, INDENT, NO_CHECK } from './editOptions.js';

const HEREDOC = [
  "rt apply <<'EOF'",
  '*** Begin Patch',
  '*** Update File: PATH',
  '@@ edit FROM TO',
  '+new line',
  '*** End Patch',
  'EOF',
];

export const applyCommand = defineCommand({
  name: 'apply',
  summary: 'apply many edits in many files from one patch, all or nothing',
  tool: [
    'Apply many edits in many files from one patch, all or nothing. patch: "*** Begin Patch", then per',
    'file "*** Update File: PATH" with its hunks (optionally "*** Move to: NEW" after it), "*** Add File:',
    'PATH" with its lines as + rows, or "*** Delete File: PATH"; then "*** End Patch". LID hunks: "@@',
    'edit FROM [TO]", "@@ insert before AT", "@@ insert after AT" (AT "$" appends), "@@ delete FROM',
    '[TO]", each but delete followed by + rows: the new lines byte for byte, without the +. @NAME as FROM',
    '(no TO) or AT is a definition whole (@Class.method), shown by outline or open. Anchors are read',
    'against the files as they were, so hunks may come in any order; lines replaced must have been shown',
    '(unless force). apply_patch context hunks work too ("@@", then space, - and + rows). A file may be',
    'named once. Exit 1: no definition NAME; 2: a malformed patch; 3: a stale anchor, a hunk matching',
    'nowhere, a file that exists; 4: missing or outside the root; 5: a new syntax error.',
  ],
  description: [
    'Reads a patch (from the file PATCH, or standard input as a quoted heredoc) and applies ' +
      'every change in it, or none: nothing is written unless every hunk of every file applies. ' +
      'The patch uses the envelope of apply_patch: an optional "*** Begin Patch" line, then for ' +
      'each file "*** Update File: PATH" (optionally followed by "*** Move to: NEWPATH") with its ' +
      'hunks, "*** Add File: PATH" with its lines as + rows, or "*** Delete File: PATH"; then an ' +
      'optional "*** End Patch". Envelope lines may have spaces around them; empty lines between ' +
      "hunks are ignored. A patch pasted with the two lines of the shell's here-document that " +
      'carried it (its opening line, such as apply_patch or rt apply with its quoted or bare end ' +
      'word, and that end word alone last) is read inside them, and one whose every line starts ' +
      'with the indentation of its first (copied from an indented block) is read without it, with ' +
      'a note.',
    'LID hunks name lines by anchor (an LID, a line number that still names the line shown ' +
      'there, or both, as for edit): "@@ edit FROM [TO]" replaces lines FROM..TO with its + rows, ' +
      '"@@ insert before AT" and "@@ insert after AT" insert them ($ appends), "@@ delete FROM ' +
      '[TO]" takes no rows. A + row is the new line without its +, byte for byte (a bare + is an ' +
      "empty line); new lines take the file's line ending. Every anchor resolves against the " +
      'files as they were when the command started, so hunks may come in any order; two hunks ' +
      'touching the same lines are refused (exit 2, naming both), and so is an insert anchored on ' +
      'a line another hunk replaces. Hunks at one place land as the same edits made one by one ' +
      'would: an insert after a line goes right after that line (before what earlier hunks ' +
      'inserted there), an insert before a line or at the end goes after what earlier hunks ' +
      'inserted there, and an insert after the line above a replaced range goes before its new ' +
      "lines. Replaced and deleted lines, and an insert's anchor, must have been shown by rt " +
      'since they last changed, unless --force.',
    'A hunk may name a definition instead of lines: "@@ edit @NAME" replaces its whole range with ' +
      'its + rows, "@@ delete @NAME" removes it (and the blank lines after it, as rt delete PATH:@NAME), ' +
      '"@@ insert before @NAME" and "@@ insert after @NAME" add ' +
      'their + rows above its first line or below its last (beside it, so they may go with an edit of it in ' +
      `one patch; a hunk inside its range may not). ${DEFINITION_TARGETS} Each name is found in its file as ` +
      'read under the lock, in the same batch as the other hunks.',
    'Context hunks, as apply_patch writes them, work too: "@@" or "@@ TEXT" (a line such as a ' +
      "function's first, after which the hunk is looked for), then rows starting with a space " +
      '(context), - (removed) or + (added), optionally ended by "*** End of File" (the hunk is at ' +
      'the end of the file). A hunk is found by its context and removed rows: exactly, then ' +
      'ignoring trailing whitespace, then ignoring whitespace at both ends, last with Unicode ' +
      'dashes, curly quotes and odd spaces (non-breaking, …) read as ASCII, after the previous ' +
      'context hunk of the file; it must match one place only, or the command is refused (exit 3) ' +
      'showing the nearest candidates with their LIDs. A hunk found only by ignoring indentation ' +
      'has its + rows shifted by the indentation the file has more or less than its quoted rows ' +
      '(where the rows differ unevenly, by what most of them differ by); a hunk found only by ' +
      'ignoring indentation or reading punctuation as ASCII is named in the report ("note: …" ' +
      'after the file\'s line, and "lenient" in --json). A hunk of + rows alone appends to the ' +
      'file. The rows a hunk quotes count as shown. A header of the LID form (@@ edit …) whose ' +
      "hunk has context or removed rows is a context hunk's TEXT; with + rows only, it is a LID " +
      'hunk, and its anchors must be valid.',
    'Add File is refused if the file exists (exit 3), unless --force replaces it; Move to is ' +
      'refused if its target exists (exit 3), unless --force replaces it; Delete File removes a ' +
      'text file (a binary one is refused, exit 4). A file may be named once per patch (a Move to ' +
      'counts as naming its target). A moved file keeps the LIDs of its unchanged lines; lines of ' +
      'it outside the regions printed must be shown again under the new name before they are ' +
      "edited. A patch line ending in CR LF is read without its CR: the CR belongs to the patch's " +
      'line ending, not to the text (CRLF files keep CRLF all the same, as new lines take the ' +
      "file's ending).",
    'All or nothing, even if rt is killed: every new content is computed and checked first; ' +
      "then, under every file's lock (taken in one order, so two batches never deadlock), the new " +
      'contents are written beside their files and flushed to disk, a journal in .rt/journal/ ' +
      'records the batch, and the files are replaced. If rt is killed midway, the next rt command ' +
      'in the root finishes the batch before anything else and says so on stderr; a batch it ' +
      'finishes is recorded as the step it was (rt undo takes it back whole), one it undoes ' +
      'leaves no step. A batch over files of a nested repository or submodule leaves a mark in ' +
      "that root's .rt/journal/ too, so that a command run there, or one that reaches a file of " +
      'it from above, finishes the batch before it reads any file of it.',
    'Prints, per file in patch order, one line saying what changed ("edited PATH: 12-13 → ' +
      '12-14, 40 → 41-42 (+3)", "created PATH: 1-5 (+5)", "removed PATH: 1-12 (-12)", "moved OLD ' +
      '→ NEW"), then each changed region with fresh LIDs and 3 lines of context. A one-file patch ' +
      'gives exactly the bytes and LIDs of the same edits made one by one. --json prints ' +
      '{"command":"apply","written":true,"files":[…]}, each file with its path, verb, delta, ' +
      'changes and windows. A malformed patch is refused (exit 2) naming its line; every refusal ' +
      'names the patch line it is about.',
  ],
  args: [{ name: 'patch', summary: 'the patch file (default: standard input)', required: false, complete: 'file' }],
  options: [
    {
      long: 'force',
      kind: 'switch',
      summary: 'edit lines not shown since they last changed, and let Add File and Move to replace an existing file',
    },
    DIFF,
    DRY_RUN,
    INDENT,
    NO_CHECK,
  ],
  examples: [
    {
      command:
        "rt apply <<'EOF'\n*** Begin Patch\n*** Update File: src/app.ts\n@@ edit kq3f mw7a\n+    " +
        'const total = items.reduce(add, 0) + tax;\n+    return Math.round(total);\n@@ insert after ' +
        '102:p2xh\n+  // totals done\n*** Update File: src/cart.ts\n@@ function checkout(cart) {\n- ' +
        ' return total(cart);\n+  return total(cart, TAX);\n*** End Patch\nEOF',
      explains: 'a two-file change: two LID hunks in src/app.ts, a context hunk in src/cart.ts',
    },
    {
      command: 'rt apply --dry-run change.patch',
      explains: 'print the diff the patch in change.patch would make, write nothing',
    },
  ],
  exits: [
    [0, 'every change was written (or, with --dry-run, the diff printed)'],
    [1, 'no definition has the NAME of a hunk @@ … @NAME: nothing was written'],
    [2, 'the patch is malformed, two hunks overlap, a file is named twice, or no patch was given'],
    [
      3,
      'an anchor is stale, a line was never shown, a context hunk matches nowhere or several ' +
        'places, or a file to add or move to exists (without --force): nothing was written',
    ],
    [4, 'a file is missing, binary, unwritable or outside the root, or RT_READONLY is set: nothing was written'],
    [5, 'the patch would leave a file with a syntax error it did not have: nothing was written'],
  ],
  readsStdin: true,
  writes: true,
  run(ctx, args, options) {
    const patchArg = args[0];
    const text =
      patchArg === undefined || patchArg === '-' ? readPatchFromStdin(ctx.stdin) : readPatchFile(ctx.cwd, patchArg);
    return runWrites(
      ctx,
      parsePatch(text, (note) => ctx.warn(note)),
      writeFlags(ctx, options),
      { command: 'apply', patch: true },
    );
  },
});

function readPatchFromStdin(stdin: { readonly isTTY: boolean; read(): Buffer }): Buffer {
  const usage = [
    'give the patch as a quoted heredoc:',
    ...HEREDOC.map((l) => `  ${l}`),
    'or name a patch file: rt apply change.patch',
  ];
  if (stdin.isTTY) throw new RtError('input', 'the patch comes from standard input, which is a terminal', usage);
  const text = stdin.read();
  if (text.length === 0) throw new RtError('input', 'standard input is empty: no patch to apply', usage);
  return text;
}
