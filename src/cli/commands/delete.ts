import { parseAnchor } from '../../model/anchor.js';
import { RtError, quotePath } from '../../model/errors.js';
import { definitionOr, runWrites, writeDefinition, writeFlags } from '../writing.js';
import { refusePastedHit } from '../shared.js';
import { defineCommand } from '../spec.js';
import { DEFINITION_TARGETS, DIFF, DRY_RUN, FORCE_UNSHOWN, NO_CHECK, writeExits } from './editOptions.js';

export const deleteCommand = defineCommand({
  name: 'delete',
  summary: 'delete lines FROM..TO, or a definition (PATH:@NAME)',
  tool: [
    'Delete the lines from..to of path (inclusive; to defaults to from; "$" as to means the last line).',
    'from and to are anchors: an LID (kq3f), a line number still naming the line shown there (101), or',
    'both (101:kq3f). Every deleted line must have been shown since it last changed, unless force. path',
    '"a.py:@NAME" without from deletes the definition NAME whole (@Class.method; decorators and doc comment',
    "too) once outline or open showed it, unchanged since, with the blank lines that keep the others'",
    'spacing (those after it; last in its file or block, those before it). The result shows',
    'the lines around the gap with their LIDs; every other LID stays valid. dry_run: the diff only. Exit 1:',
    'no definition NAME; 2: bad usage; 3: a stale anchor or lines not shown (re-open, retry with the new',
    'LIDs); 4: the file is missing, binary or outside the root; 5: the change would add a syntax error',
    '(no_check writes anyway). A refusal writes nothing.',
  ],
  description: [
    'Deletes the lines FROM to TO (inclusive; TO defaults to FROM; $ as TO means the last ' +
      'line). Every line deleted must have been shown by rt since it last changed, unless ' +
      '--force. If the file ended without a newline, it still does. A grep hit pasted whole as ' +
      'PATH (FILE:166:1w4s, FILE existing) is refused (exit 2) with the command meant: rt delete ' +
      'FILE 166:1w4s.',
    'PATH:@NAME, with no FROM or TO, deletes the whole definition NAME with the blank lines that keep the ' +
      "others' spacing: those right after it when a blank line, its block's opening line or the file's start " +
      'is before it; those before it when it is last in its file or block (the next line is indented less). ' +
      DEFINITION_TARGETS,
    'Prints one line saying what was deleted, then the lines around the gap with their LIDs.',
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
      summary: 'first line to delete (an anchor); none when PATH is PATH:@NAME',
      required: false,
      complete: 'none',
    },
    { name: 'to', summary: 'last line to delete (an anchor; default FROM)', required: false, complete: 'none' },
  ],
  options: [FORCE_UNSHOWN, DIFF, DRY_RUN, NO_CHECK],
  examples: [
    { command: 'rt delete src/app.ts kq3f', explains: 'delete the line kq3f' },
    { command: 'rt delete src/app.ts kq3f mw7a', explains: 'delete the lines kq3f to mw7a' },
    { command: 'rt delete src/app.ts:@total', explains: 'delete the function total, its doc comment too' },
  ],
  exits: [[0, 'the lines were deleted (or, with --dry-run, the diff printed)'], ...writeExits(false)],
  checkOperands(cwd, args, switches) {
    refusePastedHit(this, cwd, args, switches, (a) => a.kind !== 'end');
  },
  readsStdin: false,
  writes: true,
  run(ctx, args, options) {
    const [pathArg, fromArg, toArg] = args as [string, string | undefined, string | undefined];
    const target = definitionOr(ctx, 'delete', pathArg, { name: 'from', value: fromArg });
    if ('definition' in target)
      return writeDefinition(ctx, target.definition, 'delete', [], writeFlags(ctx, options), 'delete');
    const from = parseAnchor(target.operand);
    const to = parseAnchor(toArg ?? target.operand);
    if (from.kind === 'end')
      throw new RtError('usage', '$ names the position after the last line: there is nothing there to delete', [
        `name the last line by its LID; see it with: rt open ${quotePath(pathArg)}`,
      ]);
    return runWrites(
      ctx,
      [
        {
          kind: 'update',
          line: 0,
          path: pathArg,
          moveTo: undefined,
          hunks: [{ kind: 'range', op: 'delete', line: 0, from, to, rows: [] }],
        },
      ],
      writeFlags(ctx, options),
      { command: 'delete', patch: false },
    );
  },
});
