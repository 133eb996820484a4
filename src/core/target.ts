// Parsing `PATH[:LINE | :START-END | :LID | :LINE:LID]`, the argument of `rt open`.

import { RtError, shellQuote } from './errors.js';
import { isLidText } from './lid.js';

export type Target =
  | { readonly kind: 'top'; readonly path: string }
  | { readonly kind: 'line'; readonly path: string; readonly line: number }
  | { readonly kind: 'range'; readonly path: string; readonly start: number; readonly end: number }
  | { readonly kind: 'lid'; readonly path: string; readonly lid: string }
  /** LINE:LID, as grep prints a hit (SPEC §2's anchor naming both: they must agree). */
  | { readonly kind: 'both'; readonly path: string; readonly line: number; readonly lid: string };

/**
 * Splits a target into path and position. A path that exists as given wins (a file may have
 * a colon in its name); otherwise the part after the last colon is read as a position when it
 * has the shape of one (and, after an LID, a line number before it: LINE:LID).
 */
export function parseTarget(arg: string, exists: (path: string) => boolean): Target {
  const colon = arg.lastIndexOf(':');
  if (colon <= 0 || exists(arg)) return { kind: 'top', path: arg };
  const path = arg.slice(0, colon);
  const where = arg.slice(colon + 1);
  let m: RegExpExecArray | null;
  if ((m = /^(\d+)$/.exec(where))) {
    return { kind: 'line', path, line: lineNumber(m[1]!, arg) };
  }
  if ((m = /^(\d+)-(\d+)$/.exec(where))) {
    const start = lineNumber(m[1]!, arg);
    const end = lineNumber(m[2]!, arg);
    if (end < start) {
      throw new RtError('usage', `range ${where} ends before it starts`, [`write it as ${shellQuote(`${path}:${end}-${start}`)}`]);
    }
    return { kind: 'range', path, start, end };
  }
  if (isLidText(where)) {
    // PATH:LINE:LID, unless PATH:LINE is itself a file's name.
    const both = /^(.+):(\d+)$/.exec(path);
    if (both && !exists(path)) return { kind: 'both', path: both[1]!, line: lineNumber(both[2]!, arg), lid: where };
    return { kind: 'lid', path, lid: where };
  }
  if (where !== where.toLowerCase() && isLidText(where.toLowerCase())) {
    throw new RtError('usage', `LIDs are lowercase: ${where}`, [`use ${shellQuote(`${path}:${where.toLowerCase()}`)}`]);
  }
  return { kind: 'top', path: arg };
}

function lineNumber(text: string, arg: string): number {
  const n = Number(text);
  if (n < 1) throw new RtError('usage', `line numbers start at 1: ${arg}`, [`use ${shellQuote(arg.replace(/:[^:]*$/, ':1'))}`]);
  // Digits past 2^53 name a line past the end of any file rt reads: they stand at that end.
  return Math.min(n, Number.MAX_SAFE_INTEGER);
}
