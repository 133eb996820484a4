// rt undo and rt redo: the step chosen (the session's latest, or STEP), refused when it cannot be
// taken, then taken as one transaction (store/stepping.ts); the restored regions printed as an
// edit prints its own.

import { looksBinary, SNIFF_BYTES } from '../model/binary.js';
import { sliceParts } from '../model/edit.js';
import { printable, RtError, shellQuote } from '../model/errors.js';
import { lidToString } from '../model/lid.js';
import { History, redoneBy, type Step } from '../store/history.js';
import {
  fits,
  sessionName,
  settlePending,
  stepName,
  takeStep,
  type Direction,
  type RestoredFile,
} from '../store/stepping.js';
import { ViewState } from '../store/views.js';
import { jsonWindow } from '../render/json.js';
import { renderWindow } from '../render/window.js';
import type { Context } from './context.js';

export type { Direction } from '../store/stepping.js';

/** Lines of context printed around a restored region. */
const REGION_CONTEXT = 3;
/** Restored lines printed of a region, at most (a file made again whole may be long). */
const REGION_MAX = 200;

/** Runs `rt undo [STEP]` or `rt redo`; returns the exit status (1: nothing to undo or redo). */
export function step(ctx: Context, direction: Direction, stepArg: string | undefined, force: boolean): number {
  const history = History.of(ctx.stateOf({ stateRoot: ctx.root.dir }));
  if (!history) {
    if (ctx.json) ctx.emit({ command: direction, written: false, step: null });
    ctx.warn(
      `no history is kept here (${ctx.settings.state ? 'the root is not writable' : 'RT_STATE=off'}): ` +
        `nothing to ${direction}`,
    );
    return 1;
  }
  if (ctx.settings.readOnly)
    throw new RtError(
      'access',
      `RT_READONLY is set: rt writes no files (not ${direction === 'undo' ? 'undoing' : 'redoing'} a step)`,
      ['unset RT_READONLY'],
    );
  settlePending(ctx, history);
  const steps = history.steps();
  const chosen = choose(ctx, steps, direction, stepArg);
  if (!chosen || 'undoneAlready' in chosen) {
    if (ctx.json) ctx.emit({ command: direction, written: false, step: null });
    if (chosen) chosen.undoneAlready.forEach((line) => ctx.warn(line));
    else
      ctx.warn(
        `nothing to ${direction}${ctx.session ? ` in session ${ctx.session}` : ''}` +
          (direction === 'redo'
            ? ' (a step is redone only right after its undo, before this session writes anew)'
            : ''),
      );
    return 1;
  }
  const data = history.data(chosen);
  if (!data || data.length !== chosen.files.length || !data.every((d, i) => fits(chosen.files[i]!, d))) {
    // Its data cannot be trusted (set aside by History.data): the step is taken out of the list, so that no hint leads
    // back to it.
    history.drop(chosen.id);
    throw new RtError(
      'input',
      `the data of step ${chosen.id} (${chosen.command}) is missing or damaged: ` +
        `the step was taken out of the history, and cannot be ${direction === 'undo' ? 'undone' : 'redone'}; ` +
        'nothing was written',
      [direction === 'undo' ? 'take back the step before it: rt undo' : 'see the steps: rt history'],
    );
  }
  // A file the undo finds changed may have been changed by a later step (another session's): named when it refuses.
  const laterStep = (abs: string) => (direction === 'undo' ? laterStepOf(steps, chosen, abs) : undefined);
  takeStep(ctx, history, chosen, direction, data, { force, laterStep }, (plans) => {
    const time = new Date(chosen.time).toISOString().replace('T', ' ').slice(0, 19);
    const session = chosen.session !== (ctx.session ?? null) ? `, ${sessionName(chosen.session)}` : '';
    const names = chosen.files.map((f) => printable(f.path)).join(', ');
    const verb = ctx.style.verb(direction === 'undo' ? 'undid' : 'redid');
    ctx.out(`${verb} step ${chosen.id} (${chosen.command}, ${time}${session}): ${names}\n`);
    const docs = plans.map((p) => report(ctx, p));
    if (ctx.json)
      ctx.emit({
        command: direction,
        written: true,
        step: {
          id: chosen.id,
          command: chosen.command,
          time: new Date(chosen.time).toISOString(),
          session: chosen.session,
        },
        files: docs,
      });
  });
  return 0;
}

/**
 * The step to take back (the session's latest done one, or STEP) or to bring back (the session's
 * latest undone one); for a STEP undone already, what to say (nothing to undo, not bad usage).
 */
function choose(
  ctx: Context,
  steps: readonly Step[],
  direction: Direction,
  stepArg: string | undefined,
): Step | { undoneAlready: string[] } | undefined {
  const session = ctx.session ?? null;
  if (stepArg !== undefined) {
    if (direction === 'redo')
      throw new RtError('usage', 'rt redo takes no STEP: it brings back the latest step undone', ['rt redo']);
    const id = Number(stepArg);
    const found = Number.isInteger(id) ? steps.find((s) => s.id === id) : undefined;
    if (!found) throw new RtError('usage', `no step ${stepArg} in the history`, ['see the steps: rt history']);
    if (found.state === 'cleared') {
      const why = 'it can no longer be redone: the session that undid it wrote since';
      return {
        undoneAlready: [
          `step ${id} (${found.command}) is undone already; nothing was written (${why})`,
          'see the steps: rt history',
        ],
      };
    }
    if (found.state !== 'done') {
      const redoer = redoneBy(found);
      const env = redoer === session ? '' : redoer === null ? 'RT_SESSION= ' : `RT_SESSION=${shellQuote(redoer!)} `;
      return {
        undoneAlready: [
          `step ${id} (${found.command}) is undone already; nothing was written`,
          `bring it back with: ${env}rt redo`,
        ],
      };
    }
    busy(found);
    const later = steps.find(
      (s) => s.id > id && s.state === 'done' && s.files.some((f) => found.files.some((g) => g.abs === f.abs)),
    );
    if (later)
      throw new RtError(
        'stale',
        `${stepName(ctx, later)} changed ${later.files.find((f) => found.files.some((g) => g.abs === f.abs))!.path} ` +
          `after step ${id}; nothing was undone`,
        [`undo step ${later.id} first: rt undo ${later.id}`],
      );
    return found;
  }
  // Undone steps stay redoable until the session that undid them writes anew (History.record
  // clears them); redo brings back the one undone last.
  const found =
    direction === 'undo'
      ? [...steps].reverse().find((s) => s.session === session && s.state === 'done')
      : steps
          .filter((s) => s.state === 'undone' && redoneBy(s) === session)
          .sort((a, b) => (b.undoneSeq ?? 0) - (a.undoneSeq ?? 0) || b.id - a.id)[0];
  return found && busy(found);
}

/** The first step after `chosen`, not undone, that wrote the file `abs` too. */
function laterStepOf(steps: readonly Step[], chosen: Step, abs: string): Step | undefined {
  return steps.find((s) => s.id > chosen.id && s.state === 'done' && s.files.some((f) => f.abs === abs));
}

/** A step another rt is undoing or redoing right now (settlePending leaves only those) is refused. */
function busy(found: Step): Step {
  if (!found.pending) return found;
  throw new RtError(
    'access',
    `step ${found.id} (${found.command}) is being ${found.pending.direction === 'undo' ? 'undone' : 'redone'} ` +
      `by another rt (pid ${found.pending.owner.pid}); nothing was written`,
    ['wait for it to end, then see the steps: rt history'],
  );
}

/** Prints a restored file's regions as windows (recorded as shown); its index was saved by the commit. */
function report(ctx: Context, p: RestoredFile): Record<string, unknown> {
  if (p.link !== undefined) {
    ctx.out(`${ctx.style.verb('restored')} ${p.file.display}: a symbolic link to ${printable(p.link)}\n`);
    return { path: p.file.display, verb: 'restored', link: p.link };
  }
  if (p.parts === null || !p.lines || !p.index || !p.content) {
    ctx.out(`${ctx.style.verb('removed')} ${p.file.display}\n`);
    return { path: p.file.display, verb: 'removed' };
  }
  // (The first bytes of the parts: the lines' bytes would be the whole file joined.)
  if (looksBinary(sliceParts(p.parts, 0, SNIFF_BYTES))) {
    // Binary bytes, which rt does not show (nor give LIDs: no index of a binary file is kept).
    ctx.out(`${ctx.style.verb('restored')} ${p.file.display}: a binary file, not shown\n`);
    return { path: p.file.display, verb: 'restored', binary: true };
  }
  const store = ctx.stateOf(p.file);
  const lids = p.index.lids;
  const view = ViewState.load(store, p.file.rel);
  const total = p.lines.count;
  ctx.out(`${ctx.style.verb('restored')} ${p.file.display}: ${total} lines\n`);
  const windows = [];
  const notShown: string[] = [];
  for (const r of p.regions) {
    const from = Math.max(0, r.from - REGION_CONTEXT);
    // At most REGION_MAX restored lines a region, as an edit prints its new lines.
    const shownTo = Math.min(r.to, r.from + REGION_MAX);
    if (shownTo < r.to)
      notShown.push(
        `${r.to - shownTo} more restored lines not shown: ` +
          `rt open ${shellQuote(`${p.file.display}:${shownTo + 1}-${r.to}`)}`,
      );
    const to = Math.min(total, Math.max(shownTo, r.from) + (shownTo < r.to ? 0 : REGION_CONTEXT));
    const contents: Buffer[] = [];
    const lidTexts: string[] = [];
    for (let i = from; i < to; i++) {
      contents.push(p.content(i));
      lidTexts.push(lidToString(lids[i]!));
    }
    if (ctx.json) windows.push(jsonWindow(p.file.display, total, from + 1, lidTexts, contents));
    if (ctx.text)
      ctx.out(
        renderWindow(
          { display: p.file.display, total, start: total ? from + 1 : 0, end: to, lines: contents, lids: lidTexts },
          ctx.style,
        ),
      );
    if (lidTexts.length) view.record(from + 1, lidTexts, 'edit');
  }
  for (const note of notShown) ctx.warn(note);
  view.save();
  return { path: p.file.display, verb: 'restored', total, windows };
}
