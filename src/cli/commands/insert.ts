import { parseAnchor } from '../../model/anchor.js';
import { textLines } from '../../model/edit.js';
import { RtError, shellQuote, quotePath } from '../../model/errors.js';
import { readEditText } from '../../io/stdin.js';
import { definitionNamed, definitionOr, runWrites, writeDefinition, writeFlags } from '../writing.js';
import { refusePastedHit } from '../shared.js';
import { defineCommand } from '../spec.js';
import {
  DEFINITION_TARGETS,
  DIFF,
  DRY_RUN,
  FORCE_UNSHOWN_ANCHOR,
  INDENT,
  NO_CHECK,
  writeExits,
} from './editOptions.js';

export const insertCommand = defineCommand({
  name: 'insert',
  summary: 'insert the text on standard input before line AT ($ appends), or beside a definition (PATH:@NAME)',
  tool: [
    'Insert text (byte for byte, one trailing newline dropped) before the line at of path, or after it',
    'with after: true; at "$" appends. at is an anchor: an LID (kq3f), a line number still naming the',
    'line shown there (101), or both (101:kq3f); that line must have been shown in this file since it',
    'last changed, unless force. path "a.py:@NAME" without at inserts before the definition NAME (above',
    'its decorators and doc comment), or after its last line with after: true; outline or open must have',
    'shown it, unchanged since. New lines take the file\'s line ending. indent "auto" shifts them to the',
    "indentation around them (a definition's). The result shows the new lines with their LIDs; other LIDs",
    'stay valid. dry_run: the diff only. Exit 1: no definition NAME; 2: bad usage or no text; 3: a stale',
    'anchor or a line not shown (re-open, retry with the new LIDs); 4: the file is missing, binary or',
    'outside the root; 5: a new syntax error (no_check writes anyway). A refusal writes nothing.',
  ],
  description: [
    'Inserts the text on standard input (byte for byte, one trailing newline removed) before ' +
      'the line AT, or after it with --after. AT is an anchor; $ (or end) appends to the file. ' +
      "New lines take the file's line ending; if the file ended without a newline, it still does. " +
      'A grep hit pasted whole as PATH (FILE:166:1w4s, FILE existing) is refused (exit 2) with ' +
      'the command meant: rt insert FILE 166:1w4s.',
    'The line AT must have been shown by rt in this file since it last changed, whatever the ' +
      "anchor's form (an LID shown in another file, where the same text has the same LID, is " +
      'refused), unless --force.',
    'PATH:@NAME, with no AT, inserts the text before the definition NAME (above its first decorator, ' +
      'attribute or doc comment), or after its last line with --after; rt insert before PATH:@NAME and rt ' +
      `insert after PATH:@NAME say the same. ${DEFINITION_TARGETS}`,
    'Prints one line saying what was inserted, then the new lines with their LIDs and 3 lines of context.',
  ],
  args: [
    {
      name: 'path',
      summary: 'the file to edit, or PATH:@NAME: a definition in it',
      required: true,
      complete: 'target',
    },
    {
      name: 'at',
      summary: 'the line to insert before (an anchor), or $ to append; none when PATH is PATH:@NAME',
      required: false,
      complete: 'none',
    },
  ],
  options: [
    { long: 'after', kind: 'switch', summary: 'insert after the line AT instead of before it' },
    FORCE_UNSHOWN_ANCHOR,
    DIFF,
    DRY_RUN,
    INDENT,
    NO_CHECK,
  ],
  examples: [
    { command: "rt insert src/app.ts kq3f <<'EOF'", explains: 'insert lines before the line kq3f' },
    { command: "rt insert src/app.ts kq3f --after <<'EOF'", explains: 'insert lines after it' },
    { command: "rt insert notes.md '$' <<'EOF'", explains: 'append lines to the file' },
    {
      command: "rt insert after src/cart.py:@Cart.add --indent auto <<'EOF'",
      explains: 'add lines after the method Cart.add, at its indentation',
    },
  ],
  exits: [[0, 'the lines were inserted (or, with --dry-run, the diff printed)'], ...writeExits(true)],
  checkOperands(cwd, args, switches) {
    refusePastedHit(this, cwd, args, switches, () => true);
  },
  readsStdin: true,
  writes: true,
  run(ctx, args, options) {
    const [pathArg, atArg] = args as [string, string | undefined];
    // rt insert PATH:@NAME [--after], or as the place is said: rt insert before|after PATH:@NAME.
    const said = pathArg === 'before' || pathArg === 'after' ? definitionNamed(ctx, atArg ?? '') : undefined;
    const target = said ? { definition: said } : definitionOr(ctx, 'insert', pathArg, { name: 'at', value: atArg });
    if ('definition' in target) {
      if (said && options.after && pathArg === 'before')
        throw new RtError('usage', 'insert before … --after: say one place', [
          `insert after it: rt insert after ${quotePath(atArg!)} <<'EOF'`,
        ]);
      const after = said ? pathArg === 'after' : options.after;
      const where = after ? 'after' : 'before';
      const text = textLines(readEditText(ctx.stdin, `rt insert ${where} ${quotePath(said ? atArg! : pathArg)}`));
      return writeDefinition(ctx, target.definition, where, text.lines, writeFlags(ctx, options), 'insert');
    }
    const at = parseAnchor(target.operand);
    const text = textLines(
      readEditText(
        ctx.stdin,
        `rt insert ${quotePath(pathArg)} ${shellQuote(target.operand)}${options.after ? ' --after' : ''}`,
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
          hunks: [{ kind: 'insert', line: 0, at, after: options.after, rows: text.lines }],
        },
      ],
      writeFlags(ctx, options),
      { command: 'insert', patch: false },
    );
  },
});
