import { RtError, quotePath } from '../../model/errors.js';
import { parseLid } from '../../model/lid.js';
import { nextWindow, previousWindow, topWindow, type LineWindow } from '../../model/window.js';
import { openIndexed, retryOnChange, type IndexedFile } from '../../store/indexedFile.js';
import { withFolderOf } from '../../store/pinnedFolder.js';
import { resolveInRoot, type ResolvedPath } from '../../store/root.js';
import { ViewState, type LastView } from '../../store/views.js';
import { showWindow } from '../shared.js';
import { DEFAULT_WINDOW } from '../../model/window.js';
import { jsonWindow } from '../../render/json.js';
import { defineCommand } from '../spec.js';
import type { Context } from '../context.js';

export const scrollCommand = defineCommand({
  name: 'scroll',
  summary: 'print the next (+) or previous (-) window of a file',
  tool: [
    'Show the next (direction "+", the default) or previous ("-") window of path after the last one',
    'shown, sharing 2 lines with it; with no earlier view, the top. Lines as NUMBER:LID|CONTENT. At the',
    'end or the top it shows nothing and says so (exit 0). If the file changed since, the last view is',
    'found again by its LIDs. window: lines per window, 1 or more (default: as last given for this file,',
    'else 100).',
  ],
  description: [
    'Prints the window after (+, the default) or before (-) the last one shown of PATH, sharing ' +
      '2 lines with it (1 in windows of 2 lines, none in windows of 1 line, so that each scroll ' +
      'moves on). With no earlier view, either direction opens the top of the file. At the end ' +
      '(+) or the top (-) it prints nothing and says so on stderr, with exit status 0.',
    'If the file changed since, the last view is found again by the LIDs of its first and last ' +
      'lines. The window size is --window, else the one last given with --window for this file, ' +
      'else RT_WINDOW, else 100.',
  ],
  args: [
    { name: 'path', summary: 'the file to scroll', required: true, complete: 'file' },
    {
      name: 'direction',
      summary: '+ for the next window, - for the previous one',
      required: false,
      complete: 'none',
      choices: ['+', '-'],
    },
  ],
  options: [
    {
      long: 'window',
      value: 'N',
      kind: 'count',
      least: 1,
      summary: 'lines per window (default: as last opened, else 100)',
      env: 'RT_WINDOW',
    },
  ],
  examples: [
    { command: 'rt scroll src/app.ts', explains: 'the next window' },
    { command: 'rt scroll src/app.ts -', explains: 'the previous window' },
  ],
  exits: [
    [0, 'the window was printed (or there is nothing further, said on stderr)'],
    [2, 'bad usage'],
    [4, 'the file is missing, binary, unreadable or outside the root'],
  ],
  readsStdin: false,
  run(ctx, args, options) {
    const direction = args[1] ?? '+';
    if (direction !== '+' && direction !== '-') {
      throw new RtError('usage', `scroll goes + (next) or - (previous), not ${JSON.stringify(direction)}`, [
        `rt scroll ${quotePath(args[0]!)} +`,
      ]);
    }
    // Nothing is printed before the window's lines are read: a file saved meanwhile is read anew.
    // Read within the file's folder: a folder of the path swapped for a link out of the root after the check is not
    // followed.
    retryOnChange(() =>
      withFolderOf(resolveInRoot(ctx.root, args[0]!), (resolved) => scroll(ctx, resolved, direction, options)),
    );
  },
});

function scroll(
  ctx: Context,
  target: ResolvedPath,
  direction: '+' | '-',
  options: { readonly window: number | undefined },
): void {
  const file = openIndexed(ctx.stateOf(target), target);
  const view = ViewState.load(ctx.stateOf(file.path), file.path.rel);
  const size = options.window ?? view.windowSize ?? ctx.settings.window ?? DEFAULT_WINDOW;
  const last = view.last ? relocate(file, view.last) : null;
  const display = quotePath(file.path.display);

  let window: LineWindow;
  if (!last || file.total === 0) {
    window = topWindow(file.total, size);
  } else if (direction === '+') {
    if (last.end >= file.total) {
      if (ctx.json) ctx.emit(nothingFurther(file, last, 'at the end'));
      ctx.warn(`already at the end of ${file.path.display} (lines ${last.start}-${last.end} of ${file.total} shown)`);
      ctx.warn(`go back with: rt scroll ${display} -`);
      return;
    }
    window = nextWindow(file.total, last, size);
  } else {
    if (last.start <= 1) {
      if (ctx.json) ctx.emit(nothingFurther(file, last, 'at the top'));
      ctx.warn(`already at the top of ${file.path.display} (lines ${last.start}-${last.end} of ${file.total} shown)`);
      ctx.warn(`go on with: rt scroll ${display} +`);
      return;
    }
    window = previousWindow(file.total, last, size);
  }
  showWindow(ctx, 'scroll', file, window, view, options.window);
}

/**
 * The --json document of a scroll with nothing further: no lines, and every line of the file
 * behind it (above it at the end, below it at the top); `last`, the last view, as the text form
 * says on stderr.
 */
function nothingFurther(file: IndexedFile, last: LineWindow, note: 'at the end' | 'at the top') {
  const atEnd = note === 'at the end';
  const doc = jsonWindow(file.path.display, file.total, 0, [], []);
  return {
    command: 'scroll',
    ...doc,
    above: atEnd ? file.total : 0,
    below: atEnd ? 0 : file.total,
    note,
    last: { start: last.start, end: last.end },
  };
}

/**
 * Where the last view is now: moved with its end (or start) line if the file changed. When its
 * last line is gone, the view ends before the place that line had (its retired place): the lines
 * after it were never shown, and the next window must not step over them.
 */
function relocate(file: IndexedFile, last: LastView): LineWindow {
  const length = last.end - last.start;
  const endCode = parseLid(last.endLid);
  const endAt = file.lineOf(endCode);
  if (endAt !== -1) return clamp(file.total, { start: endAt + 1 - length, end: endAt + 1 });
  const startAt = file.lineOf(parseLid(last.startLid));
  const endWas = file.retiredLine(endCode);
  // Nothing shown is left before that place: the next window is the top.
  if (startAt === -1 && endWas !== undefined && endWas <= 1) return { start: 1, end: 0 };
  if (startAt !== -1)
    return clamp(file.total, {
      start: startAt + 1,
      end: endWas !== undefined ? Math.max(startAt + 1, endWas - 1) : startAt + 1 + length,
    });
  if (endWas !== undefined) return clamp(file.total, { start: endWas - 1 - length, end: endWas - 1 });
  return clamp(file.total, last);
}

function clamp(total: number, w: LineWindow): LineWindow {
  const start = Math.max(1, Math.min(w.start, total));
  return { start, end: Math.max(start, Math.min(w.end, total)) };
}
