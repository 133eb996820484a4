import { defineCommand } from '../spec.js';
import { step } from '../stepping.js';

export const redoCommand = defineCommand({
  name: 'redo',
  summary: 'bring back the step you last undid',
  tool: [
    'Bring back the earliest step this session undid, if its files are still exactly as the undo left',
    'them (bytes and LIDs as the step first wrote them). A new write clears what could be redone. Refused',
    '(exit 3) when a file changed since the undo, unless force. Exit 1: nothing to redo.',
  ],
  description: [
    'Brings back the earliest of the steps this session undid (undo takes steps back latest ' +
      'first, redo brings them back in their order), if its files are still exactly what the undo ' +
      'left: bytes and LIDs as the step first wrote them. A new write of the session clears what ' +
      "it could redo. A step another session's rt undo STEP took back is that session's to redo. " +
      'Refused (exit 3) when a file changed since the undo, unless --force (as for undo). Nothing ' +
      'to redo is exit 1.',
  ],
  args: [],
  options: [
    {
      long: 'force',
      kind: 'switch',
      summary: 'redo even if the files changed since the undo, where its lines are still as the undo left them',
    },
  ],
  examples: [{ command: 'rt redo', explains: 'bring back the step you last undid' }],
  exits: [
    [0, 'the step was redone'],
    [1, 'nothing to redo'],
    [2, 'bad usage'],
    [3, 'a file changed since the undo: nothing was written'],
    [4, 'a file cannot be written, RT_READONLY is set, or another rt is redoing the step'],
  ],
  readsStdin: false,
  writes: true,
  run: (ctx, _args, options) => step(ctx, 'redo', undefined, options.force),
});
