// Steps several command handlers share.

import path from 'node:path';
import { parseAnchor, type Anchor } from '../model/anchor.js';
import { printable, RtError, shellQuote } from '../model/errors.js';
import { lidToString } from '../model/lid.js';
import type { LineWindow } from '../model/window.js';
import { JSON_WINDOW_END, jsonWindowHead, jsonWindowLines } from '../render/json.js';
import { renderWindowFoot, renderWindowHead, renderWindowLines } from '../render/window.js';
import type { IndexedFile } from '../store/indexedFile.js';
import { BLOCK } from '../store/savedIndex.js';
import { namesNonFolder } from '../store/userFiles.js';
import type { ViewState } from '../store/views.js';
import type { Context } from './context.js';
import { pastedPosition } from '../model/target.js';
import type { Args, CommandDoc } from './spec.js';

/** The --window option of a command, else RT_WINDOW (undefined when neither is set). */
export function explicitWindowSize(
  ctx: Context,
  options: { readonly window?: number | undefined },
): number | undefined {
  return options.window ?? ctx.settings.window;
}

export function lidStrings(codes: Uint32Array): string[] {
  return Array.from(codes, lidToString);
}

/**
 * Lines read and printed at a time: a window of a million lines is written as it is read, never
 * held whole in memory. A multiple of the index's blocks of lines, so that no block is read twice.
 */
const WINDOW_PART = 4 * BLOCK;

/**
 * Prints `window` of `file`, saves its index and records the window as the file's last view.
 * The lines are read and printed WINDOW_PART at a time; the first part is read before anything
 * is printed, so that a window of that size or less is printed whole or not at all (a file saved
 * meanwhile is read anew by retryOnChange). A longer window whose file changes after its first
 * part was printed is cut short with an error saying so (exit 4), not printed again.
 */
export function showWindow(
  ctx: Context,
  command: string,
  file: IndexedFile,
  window: LineWindow,
  view: ViewState,
  explicitSize: number | null | undefined,
): void {
  const display = file.path.display;
  const total = file.total;
  const lids: string[] = [];
  const from = window.start - 1;
  const to = total ? window.end : from;
  const read = (a: number, b: number) => {
    const part = lidStrings(file.lids(a, b));
    for (const lid of part) lids.push(lid);
    return { lids: part, lines: file.contents(a, b) };
  };
  const write = (a: number, part: { lids: string[]; lines: Buffer[] }) => {
    if (ctx.json) ctx.jsonOut(jsonWindowLines(a + 1, part.lids, part.lines, a === from));
    if (ctx.text) ctx.out(renderWindowLines(a + 1, part.lids, part.lines, ctx.style));
  };

  const firstEnd = Math.min(to, (Math.floor(from / WINDOW_PART) + 1) * WINDOW_PART);
  const first = total ? read(from, firstEnd) : { lids: [], lines: [] };
  const head = { display, total, start: window.start, end: window.end };
  if (ctx.json) ctx.jsonOut(jsonWindowHead({ command }, display, total, window.start, window.end));
  if (ctx.text) ctx.out(renderWindowHead(head, ctx.style));
  write(from, first);
  for (let a = firstEnd; a < to; a += WINDOW_PART) {
    const b = Math.min(to, a + WINDOW_PART);
    let part: ReturnType<typeof read>;
    try {
      part = read(a, b);
    } catch (error) {
      if (error instanceof RtError && error.details.changed === true) {
        throw new RtError(
          'access',
          `${display} changed while its lines were printed: the window above stops before line ${a + 1}`,
          [`run the command again`],
        );
      }
      throw error;
    }
    write(a, part);
  }
  ctx.jsonOut(JSON_WINDOW_END);
  if (total) ctx.out(renderWindowFoot(head, ctx.style));
  file.persist();
  view.recordWindow(window, lids, explicitSize);
  view.save();
}

/**
 * A grep hit pasted whole as the PATH of `spec` (`rt edit FILE:166:1w4s`): refused as bad usage
 * with the command meant, when FILE exists and what follows it is an anchor the command takes
 * there (`takes`). The command shown keeps the other operands and the switches given.
 */
export function refusePastedHit(
  spec: CommandDoc,
  cwd: string,
  args: Args,
  switches: readonly string[],
  takes: (anchor: Anchor) => boolean,
): void {
  const [pathArg, ...others] = args;
  if (pathArg === undefined) return;
  const pasted = pastedPosition(pathArg, (p) => namesNonFolder(path.resolve(cwd, p)));
  if (!pasted) return;
  let anchor: Anchor;
  try {
    anchor = parseAnchor(pasted.rest);
  } catch {
    return;
  }
  if (!takes(anchor)) return;
  const meant = [
    'rt',
    spec.name,
    shellQuote(pasted.path),
    shellQuote(pasted.rest),
    ...others.map(shellQuote),
    ...switches.map((s) => `--${s}`),
  ].join(' ');
  throw new RtError(
    'usage',
    `${printable(pathArg)} is not a file: it is ${printable(pasted.path)} and its line ${printable(pasted.rest)}, ` +
      'as grep prints a hit',
    [`did you mean: ${meant}${spec.readsStdin ? " <<'EOF'" : ''}`],
    { path: pasted.path, anchor: pasted.rest },
  );
}
