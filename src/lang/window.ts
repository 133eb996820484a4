// The part of a long file the check parses: the edit's lines and WINDOW_CONTEXT lines each
// side, cut where top-level code starts. Pure.
//
// Parsing costs some 7-20 ms of CPU per 1,000 lines of TypeScript (notes/syntax-research.md),
// so a 100,000-line file would cost an edit 700 ms or more; its window, ~10 ms. Only the
// window's bytes are decoded. The old and the new
// content are cut at the same unchanged lines, so an error the cut makes (a class body cut from
// its class) is in both and pairs off as old; what the edit breaks is inside the window. What
// is lost: an edit whose damage shows only beyond the window (a `}` that closes a class
// more than WINDOW_CONTEXT lines up) may pass; and a cut that falls inside a multi-line string,
// template or comment (a blank line, then an unindented line, within it: the test files of
// typescript-eslint hold code in templates) makes the window read strings as code and code as
// strings, so that an edit breaking the code there passes. A narrower window for files of 600
// lines and more was measured (40 ms of the check to 26 on a 1,157-line file) and not kept for
// that reason (notes/syntax-research.md).

import type { ChangedLines } from './newProblems.js';

/** Files of more lines than this are checked in a window. */
export const WINDOWED_FROM_LINES = 3000;

/** Lines kept each side of the edit. */
export const WINDOW_CONTEXT = 400;

/** How far past WINDOW_CONTEXT a cut may move to reach top-level code. */
const BOUNDARY_SEARCH = 200;

export interface Window {
  /** 0-based first line of the window and the line after its last, in the old and the new text. */
  readonly oldFrom: number;
  readonly oldTo: number;
  readonly newFrom: number;
  readonly newTo: number;
}

/** Byte offset of the start of each line of `bytes`, and bytes.length at the end. */
export function lineOffsets(bytes: Uint8Array): number[] {
  const starts = [0];
  for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, at + 1)) starts.push(at + 1);
  if (starts[starts.length - 1] !== bytes.length) starts.push(bytes.length);
  return starts;
}

/**
 * The window around `hunks` (1-based, in file order) of texts whose line starts are `oldLines`
 * and `newLines`, or undefined when the file is short enough to parse whole.
 */
export function windowOf(
  newBytes: Uint8Array,
  newLines: ArrayLike<number>,
  oldLines: ArrayLike<number>,
  hunks: readonly ChangedLines[],
): Window | undefined {
  const count = newLines.length - 1;
  if (count <= WINDOWED_FROM_LINES || hunks.length === 0) return undefined;
  const first = hunks[0]!;
  const last = hunks[hunks.length - 1]!;
  const shift = last.newEnd - last.oldEnd;
  const line = (n: number): string =>
    Buffer.from(newBytes.buffer, newBytes.byteOffset + newLines[n]!, newLines[n + 1]! - newLines[n]!).toString(
      'latin1',
    );
  // A cut goes before a line of top-level code (no indentation) that follows a blank line.
  const isBoundary = (n: number): boolean =>
    n <= 0 || n >= count || (/^[^\s}\])]/.test(line(n)) && line(n - 1).trim() === '');
  let from = Math.max(0, first.newStart - 1 - WINDOW_CONTEXT);
  for (let n = from, stop = Math.max(0, from - BOUNDARY_SEARCH); n >= stop; n--) {
    if (isBoundary(n)) {
      from = n;
      break;
    }
  }
  let to = Math.min(count, last.newEnd - 1 + WINDOW_CONTEXT);
  for (let n = to, stop = Math.min(count, to + BOUNDARY_SEARCH); n <= stop; n++) {
    if (isBoundary(n)) {
      to = n;
      break;
    }
  }
  if (from === 0 && to === count) return undefined;
  return { oldFrom: from, oldTo: Math.min(oldLines.length - 1, to - shift), newFrom: from, newTo: to };
}

/** The hunks as lines of the window (the window starts at 0-based line `from` in both texts). */
export function hunksInWindow(hunks: readonly ChangedLines[], from: number): ChangedLines[] {
  return hunks.map((h) => ({
    oldStart: h.oldStart - from,
    oldEnd: h.oldEnd - from,
    newStart: h.newStart - from,
    newEnd: h.newEnd - from,
  }));
}
