// Which lines a window shows. Lines are numbered from 1; a window is START..END inclusive.

export interface LineWindow {
  readonly start: number;
  readonly end: number;
}

export const DEFAULT_WINDOW = 100;
/** Most lines an explicit START-END range shows without --window. */
export const MAX_RANGE = 200;
/** Lines the next or previous window shares with the last one (fewer in windows of 1 or 2 lines, see overlapFor). */
export const SCROLL_OVERLAP = 2;

/**
 * The overlap of windows of `size` lines: SCROLL_OVERLAP, but always less than a window, so that each scroll moves on.
 */
function overlapFor(size: number): number {
  return Math.max(0, Math.min(SCROLL_OVERLAP, size - 1));
}

/** The first `size` lines. */
export function topWindow(total: number, size: number): LineWindow {
  return { start: Math.min(1, total), end: Math.min(total, size) };
}

/** A window of `size` lines with `line` in its middle, kept inside the file. */
export function centredWindow(total: number, line: number, size: number): LineWindow {
  let start = Math.max(1, line - Math.floor((size - 1) / 2));
  const end = Math.min(total, start + size - 1);
  start = Math.max(1, end - size + 1);
  return { start, end };
}

/** START..END, cut to the file's end and to `cap` lines. */
export function rangeWindow(total: number, start: number, end: number, cap: number): LineWindow {
  return { start, end: Math.min(end, total, start + cap - 1) };
}

/** The window after `last`, sharing overlapFor(size) lines with it. */
export function nextWindow(total: number, last: LineWindow, size: number): LineWindow {
  const start = Math.max(1, Math.min(last.end - overlapFor(size) + 1, total));
  return { start, end: Math.min(total, start + size - 1) };
}

/** The window before `last`, sharing overlapFor(size) lines with it (a full window at the top). */
export function previousWindow(total: number, last: LineWindow, size: number): LineWindow {
  const start = Math.max(1, last.start + overlapFor(size) - 1 - size + 1);
  return { start, end: Math.min(total, start + size - 1) };
}

/** Ranges [from, to) of lines, the empty ones dropped, sorted and joined where they meet or overlap. */
export function mergeRanges(ranges: ReadonlyArray<readonly [number, number]>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const [from, to] of ranges.filter(([f, t]) => f < t).sort((a, b) => a[0] - b[0])) {
    const last = out[out.length - 1];
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}
