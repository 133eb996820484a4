// Steps several command handlers share.

import fs from 'node:fs';
import path from 'node:path';
import { parseAnchor, type Anchor } from '../core/anchor.js';
import { printable, RtError, shellQuote } from '../core/errors.js';
import { lidToString } from '../core/lid.js';
import { DEFAULT_WINDOW, type LineWindow } from '../core/window.js';
import { jsonWindow } from '../render/json.js';
import { renderWindow } from '../render/window.js';
import type { IndexedFile } from '../io/indexedFile.js';
import type { ViewState } from '../io/views.js';
import type { Context } from './context.js';
import { pastedPosition } from '../core/target.js';
import type { Args, CommandSpec, Options } from './spec.js';

/** The --window option of a command, else RT_WINDOW (undefined when neither is set). */
export function explicitWindowSize(ctx: Context, options: Options): number | undefined {
  if (options.window !== undefined) return positiveInt(String(options.window), '--window');
  const env = ctx.env.RT_WINDOW;
  if (env !== undefined && env !== '') return positiveInt(env, 'RT_WINDOW');
  return undefined;
}

export function windowSize(ctx: Context, options: Options): number {
  return explicitWindowSize(ctx, options) ?? DEFAULT_WINDOW;
}

export function positiveInt(text: string, what: string, counting = 'lines, 1 or more'): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < 1) {
    throw new RtError('usage', `${what} takes a whole number of ${counting} (got ${JSON.stringify(text)})`, [`e.g. ${what === 'RT_WINDOW' ? 'RT_WINDOW=100' : `${what} 100`}`]);
  }
  return n;
}

export function lidStrings(codes: Uint32Array): string[] {
  return Array.from(codes, lidToString);
}

/** Prints `window` of `file`, saves its index and records the window as the file's last view. */
export function showWindow(ctx: Context, command: string, file: IndexedFile, window: LineWindow, view: ViewState, explicitSize: number | null | undefined): void {
  const from = window.start - 1;
  const to = window.end;
  const lids = file.total ? lidStrings(file.lids(from, to)) : [];
  const lines = file.total ? file.contents(from, to) : [];
  if (ctx.json) ctx.emit({ command, ...jsonWindow(file.path.display, file.total, window.start, lids, lines) });
  else ctx.out(renderWindow({ display: file.path.display, total: file.total, start: window.start, end: window.end, lines, lids }, ctx.style));
  file.persist();
  view.recordWindow(window, lids, explicitSize);
  view.save(ctx.state);
}

/**
 * A grep hit pasted whole as the PATH of `spec` (`rt edit FILE:166:1w4s`): refused as bad usage
 * with the command meant, when FILE exists and what follows it is an anchor the command takes
 * there (`takes`). The command shown keeps the other operands and the switches given.
 */
export function refusePastedHit(spec: CommandSpec, cwd: string, args: Args, options: Options, takes: (anchor: Anchor) => boolean): void {
  const [pathArg, ...others] = args;
  if (pathArg === undefined) return;
  const pasted = pastedPosition(pathArg, (p) => fs.existsSync(path.resolve(cwd, p)));
  if (!pasted) return;
  let anchor: Anchor;
  try {
    anchor = parseAnchor(pasted.rest);
  } catch {
    return;
  }
  if (!takes(anchor)) return;
  const switches = spec.options.filter((o) => o.kind === 'switch' && options[camelCase(o.long)] === true).map((o) => `--${o.long}`);
  const meant = ['rt', spec.name, shellQuote(pasted.path), shellQuote(pasted.rest), ...others.map(shellQuote), ...switches].join(' ');
  throw new RtError('usage', `${printable(pathArg)} is not a file: it is ${printable(pasted.path)} and its line ${printable(pasted.rest)}, as grep prints a hit`, [`did you mean: ${meant}${spec.readsStdin ? " <<'EOF'" : ''}`], { path: pasted.path, anchor: pasted.rest });
}

/** An option's key in commander's options: dry-run → dryRun. */
function camelCase(long: string): string {
  return long.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}
