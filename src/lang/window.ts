// The part of a file the check parses: the edit's lines and WINDOW_CONTEXT lines each side,
// cut where top-level code starts. Pure.
//
// Parsing costs some 7-20 ms of CPU per 1,000 lines of TypeScript (notes/syntax-research.md),
// so a 100,000-line file would cost an edit 700 ms or more; its window, ~5 ms. Only the
// window's bytes are decoded. The old and the new content are cut at the same unchanged lines,
// so an error the cut makes (a class body cut from its class) is in both and pairs off as old;
// what the edit breaks is inside the window. What is lost: an edit whose damage shows only
// beyond the window (a `}` that closes a class more than WINDOW_CONTEXT lines up) may pass.
//
// A file of up to CUT_ANYWHERE_FROM_LINES lines is cut only before top-level code (after a
// blank line): where none is near enough, it is parsed whole, as it costs little more. A
// longer file is cut where top-level code starts near the window's edge, and else LONG_CONTEXT
// lines from the edit.

import type { Hunk } from './newProblems.js';

/** Files of more lines than this are checked in a window. */
export const WINDOWED_FROM_LINES = 600;

/** Lines kept each side of the edit. */
export const WINDOW_CONTEXT = 150;

/** Files of more lines than this are cut even where no top-level code is near (LONG_CONTEXT lines from the edit). */
export const CUT_ANYWHERE_FROM_LINES = 3000;

/** Lines kept each side of the edit in a long file where no top-level code is near the window's edge. */
const LONG_CONTEXT = 400;

/** How far past WINDOW_CONTEXT a cut may move to reach top-level code. */
const BOUNDARY_SEARCH = 250;

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
 * and `newLines`, or undefined when the file is short enough to parse whole. With `fromTop`,
 * the window starts at the first line: a language whose code starts with a mark (PHP's `<?php`;
 * what comes before it is text) has no errors in a window without it.
 */
export function windowOf(newBytes: Uint8Array, newLines: ArrayLike<number>, oldLines: ArrayLike<number>, hunks: readonly Hunk[], fromTop = false): Window | undefined {
  const count = newLines.length - 1;
  if (count <= WINDOWED_FROM_LINES || hunks.length === 0) return undefined;
  const first = hunks[0]!;
  const last = hunks[hunks.length - 1]!;
  const shift = last.newEnd - last.oldEnd;
  const line = (n: number): string => Buffer.from(newBytes.buffer, newBytes.byteOffset + newLines[n]!, newLines[n + 1]! - newLines[n]!).toString('latin1');
  // A cut goes before a line of top-level code (no indentation) that follows a blank line.
  const isBoundary = (n: number): boolean => n <= 0 || n >= count || (/^[^\s}\])]/.test(line(n)) && line(n - 1).trim() === '');
  // The nearest cut at or beyond `edge` going by `step` (-1 up, +1 down), within BOUNDARY_SEARCH.
  const cut = (edge: number, step: -1 | 1): number | undefined => {
    for (let k = 0; k <= BOUNDARY_SEARCH; k++) {
      const n = edge + step * k;
      if (isBoundary(n)) return Math.max(0, Math.min(count, n));
    }
    return undefined;
  };
  const above = fromTop ? 0 : cut(Math.max(0, first.newStart - 1 - WINDOW_CONTEXT), -1);
  const below = cut(Math.min(count, last.newEnd - 1 + WINDOW_CONTEXT), 1);
  if ((above === undefined || below === undefined) && count <= CUT_ANYWHERE_FROM_LINES) return undefined;
  const from = above ?? Math.max(0, first.newStart - 1 - LONG_CONTEXT);
  const to = below ?? Math.min(count, last.newEnd - 1 + LONG_CONTEXT);
  if (from === 0 && to === count) return undefined;
  return { oldFrom: from, oldTo: Math.min(oldLines.length - 1, to - shift), newFrom: from, newTo: to };
}

/** The hunks as lines of the window (the window starts at 0-based line `from` in both texts). */
export function hunksInWindow(hunks: readonly Hunk[], from: number): Hunk[] {
  return hunks.map((h) => ({ oldStart: h.oldStart - from, oldEnd: h.oldEnd - from, newStart: h.newStart - from, newEnd: h.newEnd - from }));
}
