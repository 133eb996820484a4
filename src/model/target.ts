// Parsing `PATH[:LINE | :START-END | :LID | :LINE:LID]`, the argument of `rt open`.

import { printable, RtError, shellQuote, quotePath } from './errors.js';
import { isLidText } from './lid.js';
import { MAX_RANGE } from './window.js';

export type Target =
  | { readonly kind: 'top'; readonly path: string }
  | { readonly kind: 'line'; readonly path: string; readonly line: number }
  | { readonly kind: 'range'; readonly path: string; readonly start: number; readonly end: number }
  | { readonly kind: 'lid'; readonly path: string; readonly lid: string }
  /** LINE:LID, as grep prints a hit (an anchor naming both: they must agree). */
  | { readonly kind: 'both'; readonly path: string; readonly line: number; readonly lid: string }
  /** @NAME or @Class.method: a definition, as `rt outline` names it. */
  | { readonly kind: 'symbol'; readonly path: string; readonly name: string };

/**
 * @NAME: a definition's name or qualified name (@Cart.add), as languages spell them: anything
 * but white space, colons, @ and slashes (Ruby's valid? and ==, JavaScript's #private).
 */
export const SYMBOL = /^@([^\s:@/\\]+)$/u;

/** The forms of `rt open`'s argument, as messages give them. */
export const TARGET_FORMS = 'PATH, PATH:LINE, PATH:START-END, PATH:LID, PATH:LINE:LID or PATH:@NAME';

/**
 * Splits a target into path and position. A path that exists as given wins (a file may have a
 * colon in its name). Otherwise, when the part before the last colon names a file (or the part
 * before LINE:, as grep prints a hit), what follows it is a position and must parse: else bad
 * usage, with the forms a position takes. When no such file exists, the part after the last
 * colon is read as a position when it has the shape of one (and, after an LID, a line number
 * before it: LINE:LID), the file then not found; else the whole argument is the path.
 */
export function parseTarget(arg: string, exists: (path: string) => boolean): Target {
  const colon = arg.lastIndexOf(':');
  if (colon <= 0 || exists(arg)) return { kind: 'top', path: arg };
  const file = fileBefore(arg, exists);
  if (file) return readPosition(file.path, file.rest, arg) ?? badPosition(file.path, file.rest);
  const path = arg.slice(0, colon);
  const where = arg.slice(colon + 1);
  const read = readPosition(path, where, arg);
  // PATH:LINE:LID (no file being named PATH:LINE).
  const both = read?.kind === 'lid' ? /^(.+):(\d+)$/.exec(path) : null;
  if (both) return { kind: 'both', path: both[1]!, line: lineNumber(both[2]!, arg), lid: where };
  return read ?? { kind: 'top', path: arg };
}

/** `where`, the position after `path`, as LINE, START-END, LID or LINE:LID; undefined when it is none of them. */
function readPosition(path: string, where: string, arg: string): Target | undefined {
  let m: RegExpExecArray | null;
  if ((m = SYMBOL.exec(where))) return { kind: 'symbol', path, name: m[1]! };
  if ((m = /^(\d+)$/.exec(where))) {
    return { kind: 'line', path, line: lineNumber(m[1]!, arg) };
  }
  if ((m = /^(\d+)-(\d+)$/.exec(where))) {
    const start = lineNumber(m[1]!, arg);
    const end = lineNumber(m[2]!, arg);
    if (end < start) {
      throw new RtError('usage', `range ${where} ends before it starts`, [
        `write it as ${shellQuote(`${path}:${end}-${start}`)}`,
      ]);
    }
    return { kind: 'range', path, start, end };
  }
  if (isLidText(where)) return { kind: 'lid', path, lid: where };
  if ((m = /^(\d+):(.*)$/.exec(where)) && isLidText(m[2]!))
    return { kind: 'both', path, line: lineNumber(m[1]!, arg), lid: m[2]! };
  const lid = where.slice(where.indexOf(':') + 1);
  if (lid !== lid.toLowerCase() && isLidText(lid.toLowerCase())) {
    throw new RtError('usage', `LIDs are lowercase: ${lid}`, [`use ${shellQuote(`${path}:${where.toLowerCase()}`)}`]);
  }
  return undefined;
}

/**
 * The file named by `arg` up to its last colon, or up to the one before when a line number
 * follows it (FILE:LINE:…, as grep prints a hit), with what follows it; undefined when neither
 * names a file. What follows holds no "/": a position never does, and a colon in a folder's
 * name (dir:x/file) is no position's.
 */
function fileBefore(arg: string, exists: (path: string) => boolean): { path: string; rest: string } | undefined {
  const last = arg.lastIndexOf(':');
  if (arg.includes('/', last)) return undefined;
  if (last > 0 && exists(arg.slice(0, last))) return { path: arg.slice(0, last), rest: arg.slice(last + 1) };
  const before = arg.lastIndexOf(':', last - 1);
  if (before > 0 && /^\d+$/.test(arg.slice(before + 1, last)) && exists(arg.slice(0, before)))
    return { path: arg.slice(0, before), rest: arg.slice(before + 1) };
  return undefined;
}

/**
 * A grep hit pasted whole where a command takes PATH and then a line (`rt edit FILE:166:1w4s`):
 * the file and what follows it, when `arg` names no file itself but the part before its last
 * colon (or the one before, FILE:LINE:…) does; undefined otherwise.
 */
export function pastedPosition(
  arg: string,
  exists: (path: string) => boolean,
): { path: string; rest: string } | undefined {
  return exists(arg) ? undefined : fileBefore(arg, exists);
}

/**
 * A position after an existing file that is none of the forms: refused with the forms, and the one meant when it can be
 * told.
 */
function badPosition(path: string, where: string): never {
  const open = (position: string) => `rt open ${shellQuote(`${path}:${position}`)}`;
  const what = where === '' ? 'nothing follows its last colon' : `${JSON.stringify(where)} is not a position`;
  throw new RtError(
    'usage',
    `${printable(`${path}:${where}`)}: ${what}; rt open takes ${TARGET_FORMS}`,
    [
      positionHint(path, where, open) ??
        `e.g. ${open('120')} (centred on line 120), ${open('101-140')}, or ${`rt open ${quotePath(path)}`} (the top)`,
    ],
    { path, position: where },
  );
}

/** What a position written in another tool's way (sed's 1,5 or $, vi's +5) means here. */
function positionHint(path: string, where: string, open: (position: string) => string): string | undefined {
  let m: RegExpExecArray | null;
  if ((m = /^(\d+),(\d+)$/.exec(where))) return `a range is START-END: ${open(`${m[1]}-${m[2]}`)}`;
  if ((m = /^\+(\d+)$/.exec(where))) return `a line is its number alone: ${open(m[1]!)}`;
  if ((m = /^(\d+)-$/.exec(where)))
    return (
      `a range needs its END (an END past the end of the file is cut to it): ` +
      `${open(`${m[1]}-${Number(m[1]) + MAX_RANGE - 1}`)}`
    );
  if ((m = /^-(\d+)$/.exec(where))) return `a range needs its START: ${open(`1-${m[1]}`)}`;
  if (/^(\$|end)$/i.test(where.trim()))
    return `open has no $: the last line's number is in the header of rt open ${quotePath(path)}`;
  return undefined;
}

function lineNumber(text: string, arg: string): number {
  const n = Number(text);
  if (n < 1)
    throw new RtError('usage', `line numbers start at 1: ${arg}`, [`use ${shellQuote(arg.replace(/:[^:]*$/, ':1'))}`]);
  // Digits past 2^53 name a line past the end of any file rt reads: they stand at that end.
  return Math.min(n, Number.MAX_SAFE_INTEGER);
}

/**
 * `PATH:@NAME` as a write names a definition (rt edit PATH:@NAME): the path and the name; undefined
 * for any other argument, and for a file whose name it is as given.
 */
export function symbolTarget(
  arg: string,
  exists: (path: string) => boolean,
): { readonly path: string; readonly name: string } | undefined {
  const colon = arg.lastIndexOf(':');
  const name = colon > 0 ? SYMBOL.exec(arg.slice(colon + 1))?.[1] : undefined;
  if (name === undefined || exists(arg)) return undefined;
  return { path: arg.slice(0, colon), name };
}
