import { parseAnchor } from '../../model/anchor.js';
import { textLines } from '../../model/edit.js';
import { RtError, shellQuote, quotePath } from '../../model/errors.js';
import { readEditText } from '../../io/stdin.js';
import { definitionOr, runWrites, writeDefinition, writeFlags } from '../writing.js';
import { refusePastedHit } from '../shared.js';
import { defineCommand } from '../spec.js';
import { DEFINITION_TARGETS, DIFF, DRY_RUN, FORCE_UNSHOWN, INDENT, NO_CHECK, writeExits } from './editOptions.js';

export const editCommand = defineCommand({
  name: 'edit',
  summary: 'replace lines FROM..TO, or a definition (PATH:@NAME), with the text on standard input',
  tool: [
    'Replace the lines from..to of path (inclusive; to defaults to from) with text, byte for byte (one',
    'trailing newline dropped; "\\n" alone is one empty line). from and to are anchors: an LID (kq3f), a line',
    'number still naming the line shown there (101), both (101:kq3f), or "$" as to for the last line. Every',
    'replaced line must have been shown since it last changed, unless force. path "a.py:@NAME" without from',
    'replaces the definition NAME whole (@Class.method; decorators and doc comment too), shown by outline or',
    'open and unchanged since. New lines take the file\'s line ending. indent "auto" shifts',
    'the new lines to the indentation around them. The result shows the changed region with fresh LIDs;',
    'other LIDs stay valid. dry_run: the diff only. Exit 1: no definition NAME; 2: bad usage or no text; 3: a',
    'stale anchor or lines not shown (open them again); 4: the file is missing, binary or outside the root;',
    '5: a new syntax error (no_check writes anyway). A refusal writes nothing.',
  ],
  description: [
    'Replaces the lines FROM to TO (inclusive; TO defaults to FROM) with the text on standard ' +
      "input, taken byte for byte with one trailing newline removed. New lines take the file's " +
      'line ending; every other byte of the file stays as it was.',
    'FROM and TO are anchors: an LID (kq3f), a line number (101) that still names the line ' +
      'shown there, both (101:kq3f), or $ for TO meaning the last line. Every line replaced must ' +
      'have been shown by rt since it last changed, unless --force. A grep hit pasted whole as ' +
      'PATH (FILE:166:1w4s, FILE existing) is refused (exit 2) with the command meant: rt edit ' +
      'FILE 166:1w4s.',
    `PATH:@NAME, with no FROM or TO, replaces the whole definition NAME with the text. ${DEFINITION_TARGETS}`,
    'Prints one line saying what changed, then the changed region with fresh LIDs and 3 lines ' +
      'of context. Every LID of an unchanged line stays valid, so several edits can follow one ' +
      'read.',
  ],
  args: [
    {
      name: 'path',
      summary: 'the file to edit, or PATH:@NAME: a definition in it',
      required: true,
      complete: 'target',
    },
    {
      name: 'from',
      summary: 'first line to replace (an anchor); none when PATH is PATH:@NAME',
      required: false,
      complete: 'none',
    },
    { name: 'to', summary: 'last line to replace (an anchor; default FROM)', required: false, complete: 'none' },
  ],
  options: [FORCE_UNSHOWN, DIFF, DRY_RUN, INDENT, NO_CHECK],
  examples: [
    {
      command: "rt edit src/app.ts kq3f mw7a <<'EOF'",
      explains: "replace the lines kq3f to mw7a with the heredoc's lines",
    },
    { command: "rt edit src/app.ts 101:kq3f <<'EOF'", explains: 'replace line 101, checking that it is still kq3f' },
    {
      command: "rt edit src/cart.py:@Cart.add <<'EOF'",
      explains: 'replace the method add of the class Cart whole, its decorators and docstring too',
    },
  ],
  exits: [[0, 'the lines were replaced (or, with --dry-run, the diff printed)'], ...writeExits(true)],
  checkOperands(cwd, args, switches) {
    refusePastedHit(this, cwd, args, switches, (a) => a.kind !== 'end');
  },
  readsStdin: true,
  writes: true,
  run(ctx, args, options) {
    const [pathArg, fromArg, toArg] = args as [string, string | undefined, string | undefined];
    const target = definitionOr(ctx, 'edit', pathArg, { name: 'from', value: fromArg });
    if ('definition' in target) {
      const text = textLines(readEditText(ctx.stdin, `rt edit ${quotePath(pathArg)}`));
      return writeDefinition(ctx, target.definition, 'edit', text.lines, writeFlags(ctx, options), 'edit');
    }
    const from = parseAnchor(target.operand);
    const to = parseAnchor(toArg ?? target.operand);
    if (from.kind === 'end')
      throw new RtError('usage', '$ names the position after the last line: there is nothing there to edit', [
        `to add lines at the end: rt insert ${quotePath(pathArg)} '$' <<'EOF'`,
      ]);
    const text = textLines(
      readEditText(
        ctx.stdin,
        `rt edit ${quotePath(pathArg)} ${[fromArg, toArg]
          .filter(Boolean)
          .map((a) => shellQuote(a!))
          .join(' ')}`,
      ),
    );
    return runWrites(
      ctx,
      [
        {
          kind: 'update',
          line: 0,
          path: pathArg,
          moveTo: undefined,
          hunks: [{ kind: 'range', op: 'edit', line: 0, from, to, rows: text.lines }],
        },
      ],
      writeFlags(ctx, options),
      { command: 'edit', patch: false },
    );
  },
});
