import path from 'node:path';
import { printable } from '../../model/errors.js';
import { History } from '../../store/history.js';
import { resolveInRoot } from '../../store/root.js';
import { exists } from '../../store/userFiles.js';
import { defineCommand } from '../spec.js';
import { settlePending } from '../../store/stepping.js';

export const historyCommand = defineCommand({
  name: 'history',
  summary: 'the steps rt wrote, newest first',
  tool: [
    'List the steps of the history, newest first, one a line: its number, time (UTC), session, command,',
    'and each file with +added -removed lines; an undone step is marked. path: only the steps that',
    'changed that file. undo with step takes back a step by its number. Exit 1: no step (or none of',
    'path).',
  ],
  description: [
    'Lists the steps of the history, newest first, one a line: its number, its time (UTC), its ' +
      'session (- for the shared one), its command, and each file with +added -removed lines; a ' +
      'step undone is marked (undone). With PATH, only the steps that changed that file. The ' +
      'history keeps the last 200 steps (or 256 MiB of changed lines), for 30 days. --json prints ' +
      '{"steps":[{id, time, session, command, state, files:[{path, added, removed}]}]}.',
  ],
  args: [{ name: 'path', summary: 'only the steps that changed this file', required: false, complete: 'file' }],
  options: [],
  examples: [
    { command: 'rt history', explains: 'every step, newest first' },
    { command: 'rt history src/app.ts', explains: 'the steps that changed src/app.ts' },
  ],
  exits: [
    [0, 'the steps were listed'],
    [1, 'no step (or none of PATH): standard error says so'],
    [2, 'bad usage'],
  ],
  readsStdin: false,
  run(ctx, args) {
    const history = History.of(ctx.stateOf({ stateRoot: ctx.root.dir }));
    // An undo or redo an rt was killed in is settled first: the list says where its files are.
    if (history) settlePending(ctx, history);
    // Steps name their files from the root (see rt undo): so does the filter.
    const only =
      args[0] === undefined ? undefined : path.relative(ctx.root.dir, resolveInRoot(ctx.root, args[0], true).abs);
    const steps = (history?.steps() ?? [])
      .filter((s) => only === undefined || s.files.some((f) => f.path === only))
      .reverse();
    if (ctx.json)
      ctx.emit({
        steps: steps.map((s) => ({
          id: s.id,
          time: new Date(s.time).toISOString(),
          session: s.session,
          command: s.command,
          state: s.state,
          files: s.files.map((f) => ({ path: f.path, added: f.added, removed: f.removed })),
        })),
      });
    if (ctx.text) {
      for (const s of steps) {
        // One step a line: control characters in a name (a newline) are shown escaped.
        const files = s.files
          .map(
            (f) =>
              `${printable(path.relative(ctx.cwd, path.join(ctx.root.dir, f.path)) || f.path)} ` +
              `+${f.added} -${f.removed}`,
          )
          .join(', ');
        ctx.out(
          `${s.id}  ${new Date(s.time).toISOString().replace('T', ' ').slice(0, 19)}  ` +
            `${s.session ?? '-'}  ${s.command}  ${files}${s.state === 'done' ? '' : ' (undone)'}\n`,
        );
      }
    }
    if (!history) ctx.warn('no history is kept here (RT_STATE=off, or the root is not writable)');
    else if (steps.length === 0 && args[0] !== undefined) {
      const missing = !exists(path.join(ctx.root.dir, only!));
      ctx.warn(`no step of the history changed ${printable(args[0])}${missing ? ' (no such file)' : ''}`);
      ctx.warn('see every step: rt history');
    } else if (steps.length === 0) ctx.warn('the history holds no step (it keeps the last 200, for 30 days)');
    return steps.length ? 0 : 1;
  },
});
