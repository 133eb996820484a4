// What the search commands (grep, grep-file, find, open DIR) say beside their results: what the cap
// left out and how to see it, the files left out for their names, a command line to run next.

import path from 'node:path';
import { printable, shellQuote } from '../model/errors.js';
import type { Context } from './context.js';

/**
 * Says on stderr which files a listing or a search left out because their names are not valid
 * UTF-8 (`absPaths`, decoded): rt names files by strings, which reach the system as UTF-8, so it
 * cannot open them (see search/pathBytes.ts). Silence would read as "not there".
 */
export function noteUndecodable(ctx: Context, absPaths: Iterable<string>): void {
  const shown = [...new Set(absPaths)].map((abs) => printable(path.relative(ctx.cwd, abs).split(path.sep).join('/')));
  if (shown.length === 0) return;
  const one = shown.length === 1;
  ctx.warn(
    `left out ${shown.length} ${one ? 'file whose name is' : 'files whose names are'} not valid UTF-8, ` +
      `which rt cannot name: ${one ? shown[0] : `e.g. ${shown[0]}`}`,
  );
  ctx.warn(
    `rename ${one ? 'it' : 'them'} to read ${one ? 'it' : 'them'} with rt, or search ${one ? 'it' : 'them'} with rg`,
  );
}

/**
 * The line saying how much the cap left out and how to see it: `what` is [singular, plural];
 * `narrow` says how the search could be narrowed instead.
 */
export function capNotice(
  what: readonly [string, string],
  more: number,
  moreFiles: number,
  command: string,
  narrow: string,
): string {
  const files = moreFiles > 0 ? ` in ${moreFiles} more ${moreFiles === 1 ? 'file' : 'files'}` : '';
  const narrowing = narrow ? `, or narrow the search with ${narrow}` : '';
  return `(${more} more ${more === 1 ? what[0] : what[1]}${files} not shown; see them with: ${command}${narrowing})\n`;
}

/** A command line for the user: options, then `--` before operands if one could be taken for an option. */
export function commandLine(command: string, options: readonly string[], operands: readonly string[]): string {
  const sep = operands.some((o) => o.startsWith('-')) ? ['--'] : [];
  return `rt ${command} ${[...options, ...sep, ...operands].map(shellQuote).join(' ')}`;
}
