import { defineCommand } from '../spec.js';
import { step } from '../stepping.js';

export const undoCommand = defineCommand({
  name: 'undo',
  summary: 'take back your last write, if nothing changed its files since',
  tool: [
    "Take back this session's latest write (or step, a number history shows): each file gets back its",
    'exact bytes and its lines their old LIDs, so a window shown before the step is valid again. A whole',
    'apply is one step. Refused (exit 3, nothing written) when a file of the step changed since; force',
    "takes it back where the step's lines are still where it left them. The result names the step and",
    'shows the restored regions with their LIDs. Exit 1: nothing to undo; 2: no such step; 3: a file',
    'changed since; 4: not writable.',
  ],
  description: [
    'Takes back the latest step of this session (RT_SESSION, or the one shared session) that is ' +
      'not undone: every file of it gets back its exact bytes and permission bits (a file it made ' +
      'is removed, with the folders it made for it when nothing else is in them; one it removed ' +
      'or moved is back where it was; a symbolic link it removed is a link again), and its ' +
      'changed lines get back the LIDs they had before, so a window printed before the step is ' +
      'valid again. Every write (edit, insert, delete, create, apply) is one step; a whole apply ' +
      'is one. With STEP (a number rt history shows), takes back that step, if no later step ' +
      'changed its files, whichever session made it (the first line then names that session).',
    'An undo is written as an apply is: all its files or none, even when killed. One killed ' +
      'after writing its files but before marking its step is settled by the next undo, redo or ' +
      'history, by the side its files are on.',
    'Refused (exit 3, nothing written) when a file of the step is no longer exactly what the ' +
      'step wrote (an editor, git, another session changed it since): it names the file. --force ' +
      'takes the step back all the same where the lines it changed are still at their line ' +
      'numbers as it left them (what changed elsewhere in the file is kept), and refuses a file ' +
      'where they are not. A file the undo would remove (one the step made) goes only as the step ' +
      'left it, with --force or without (what was added to it would go too), and so do the files ' +
      'of a move (one is made again from the other).',
    "Prints which step was undone, then each restored file's changed regions with their LIDs " +
      'and 3 lines of context, as after an edit (a binary file put back is named, not shown). ' +
      'Nothing to undo is exit 1, and so is a STEP ' +
      'undone already. Needs saved state: with RT_STATE=off there is no history.',
  ],
  args: [{ name: 'step', summary: 'the step to undo (default: your latest)', required: false, complete: 'none' }],
  options: [
    {
      long: 'force',
      kind: 'switch',
      summary: "undo even if the files changed since, where the step's lines are still as it left them",
    },
  ],
  examples: [
    { command: 'rt undo', explains: 'take back your latest write' },
    { command: 'rt undo 12', explains: 'take back step 12, if no later step changed its files' },
  ],
  exits: [
    [0, 'the step was undone'],
    [1, 'nothing to undo (STEP is undone already)'],
    [2, 'bad usage, or no such step'],
    [3, 'a file of the step changed since it was written, or a later step changed it: nothing was written'],
    [4, 'a file cannot be written, RT_READONLY is set, or another rt is undoing the step'],
  ],
  readsStdin: false,
  writes: true,
  run: (ctx, args, options) => step(ctx, 'undo', args[0], options.force),
});
