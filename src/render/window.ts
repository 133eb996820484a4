// The window format (NUMBER:LID|CONTENT under a header), read by agents and scripts: treat it as porcelain.
//
//   --- src/app.ts (lines 101-200 of 834) ---
//   (100 more lines above)
//   101:kq3f|    const total = items.reduce(add, 0);
//   (634 more lines below)
//
// The counts always say "lines", even for one, so one pattern parses them.

import { isAscii } from 'node:buffer';
import type { MatchRange } from '../search/match.js';
import { PLAIN, styleBytes, type Style } from './style.js';

export const DISPLAY_LIMIT = 2000;

export interface WindowView {
  /** The path as shown to the user (relative to the working directory). */
  readonly display: string;
  readonly total: number;
  /** First line shown (1-based); for an empty file, 0. */
  readonly start: number;
  readonly end: number;
  /** Content bytes of lines start..end. */
  readonly lines: readonly Buffer[];
  readonly lids: readonly string[];
}

export function renderWindow(view: WindowView, style: Style = PLAIN): Buffer {
  if (view.total === 0) return renderWindowHead(view, style);
  return Buffer.concat([
    renderWindowHead(view, style),
    renderWindowLines(view.start, view.lids, view.lines, style),
    renderWindowFoot(view, style),
  ]);
}

/**
 * What a window prints before its lines: the header, and the count of lines above (or, for an empty file, all it
 * prints).
 */
export function renderWindowHead(view: Omit<WindowView, 'lines' | 'lids'>, style: Style = PLAIN): Buffer {
  if (view.total === 0) return Buffer.from(`${style.header(`--- ${view.display} (empty file) ---`)}\n`, 'utf8');
  const above = view.start > 1 ? `${style.note(`(${view.start - 1} more lines above)`)}\n` : '';
  return Buffer.from(
    `${style.header(`--- ${view.display} (lines ${view.start}-${view.end} of ${view.total}) ---`)}\n${above}`,
    'utf8',
  );
}

/**
 * Lines `start`.. of a window, each `<number>:<lid>|<content>`: a window is printed in such parts, as they are read.
 */
export function renderWindowLines(
  start: number,
  lids: readonly string[],
  lines: readonly Buffer[],
  style: Style = PLAIN,
): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; i < lines.length; i++) parts.push(renderLine(start + i, lids[i]!, lines[i]!, '|', style));
  return Buffer.concat(parts);
}

/** What a window prints after its lines: the count of lines below, if any. */
export function renderWindowFoot(view: Pick<WindowView, 'total' | 'end'>, style: Style = PLAIN): Buffer {
  const below = view.total - view.end;
  return below > 0 ? Buffer.from(`${style.note(`(${below} more lines below)`)}\n`, 'utf8') : Buffer.alloc(0);
}

/**
 * One `[path:]<number>:<lid>|<content>` line (separator `-` for context lines, `=` for the line of a definition
 * enclosing hits), newline included.
 * `marks`, for a hit, are its matches (see displayContent).
 */
export function renderLine(
  number: number,
  lid: string,
  content: Buffer,
  separator: '|' | '-' | '=' | '+',
  style: Style = PLAIN,
  path?: string,
  marks: readonly MatchRange[] = [],
): Buffer {
  const where = path === undefined ? '' : `${style.path(path)}${style.separator(':')}`;
  const at = `${style.number(String(number))}${style.separator(':')}`;
  const head = `${where}${at}${style.lid(lid)}${style.separator(separator)}`;
  // Built in one buffer: a line a hit, and grep may print tens of thousands.
  const parts = displayContent(content, marks, style);
  const headLength = Buffer.byteLength(head, 'utf8');
  let length = headLength + 1;
  for (const part of parts) length += part.length;
  const line = Buffer.allocUnsafe(length);
  line.write(head, 0, 'utf8');
  let filled = headLength;
  for (const part of parts) filled += part.copy(line, filled);
  line[filled] = 0x0a;
  return line;
}

/**
 * Content as shown: its exact bytes, with `marks` (byte ranges of a hit's matches, ascending)
 * coloured. A line over DISPLAY_LIMIT characters is cut to that many, with markers saying how
 * many characters were left out: after its first DISPLAY_LIMIT ("… [+N chars]"), or, when the
 * first mark does not end within them, around that mark, so that the match is seen ("[+N chars] …"
 * before, "… [+N chars]" after; a mark longer than the limit is shown from its start).
 */
export function displayContent(content: Buffer, marks: readonly MatchRange[] = [], style: Style = PLAIN): Buffer[] {
  // At most as many characters as bytes.
  const part = content.length <= DISPLAY_LIMIT ? undefined : shownPart(content, marks[0]);
  if (!part) return marked(content, 0, content.length, marks, style);
  // Always "chars", as the documented marker reads (`… [+N chars]`), so one pattern parses it.
  return [
    ...(part.before ? [Buffer.from(`[+${part.before} chars] …`, 'utf8')] : []),
    ...marked(content, part.start, part.end, marks, style),
    ...(part.after ? [Buffer.from(`… [+${part.after} chars]`, 'utf8')] : []),
  ];
}

/**
 * The DISPLAY_LIMIT characters of a line shown (see displayContent), as bytes [start, end) and
 * the characters left out before and after; undefined when the line is not that long.
 * Characters are counted as UTF-8 sequences (each byte that is not a continuation byte starts
 * one), without decoding a line that may be megabytes long.
 */
function shownPart(
  content: Buffer,
  focus: MatchRange | undefined,
): { start: number; end: number; before: number; after: number } | undefined {
  if (content.length <= DISPLAY_LIMIT) return undefined;
  // A line of ASCII (a minified file's) has a character a byte: counted without a loop over its megabytes.
  const ascii = isAscii(content);
  let chars = ascii ? content.length : 0;
  let focusStart = ascii && focus && focus[0] < chars ? focus[0] : 0;
  let focusEnd = ascii && focus ? Math.min(focus[1], chars) : 0;
  if (!ascii) {
    for (let i = 0; i < content.length; i++) {
      if (focus && i === focus[0]) focusStart = chars;
      if (focus && i === focus[1]) focusEnd = chars;
      if ((content[i]! & 0xc0) !== 0x80) chars++;
    }
    if (focus && focus[1] >= content.length) focusEnd = chars;
  }
  if (chars <= DISPLAY_LIMIT) return undefined;
  let from = 0;
  if (focus && focusEnd > DISPLAY_LIMIT) {
    // The match in the middle of what is shown, as much of the line on each side.
    const length = focusEnd - focusStart;
    from = length >= DISPLAY_LIMIT ? focusStart : focusStart - Math.floor((DISPLAY_LIMIT - length) / 2);
    from = Math.max(0, Math.min(from, chars - DISPLAY_LIMIT));
  }
  const to = from + DISPLAY_LIMIT;
  if (ascii) return { start: from, end: Math.min(to, chars), before: from, after: chars - to };
  let start = 0;
  let end = content.length;
  for (let i = 0, n = 0; i < content.length; i++) {
    if ((content[i]! & 0xc0) === 0x80) continue;
    if (n === from) start = i;
    if (n === to) {
      end = i;
      break;
    }
    n++;
  }
  return { start, end, before: from, after: chars - to };
}

/** The bytes [start, end) of `content`, the parts `marks` cover coloured. */
function marked(content: Buffer, start: number, end: number, marks: readonly MatchRange[], style: Style): Buffer[] {
  if (style === PLAIN || marks.length === 0) return [content.subarray(start, end)];
  const parts: Buffer[] = [];
  let at = start;
  for (const [from, to] of marks) {
    const s = Math.max(from, at);
    const e = Math.min(to, end);
    if (s >= e) continue;
    if (s > at) parts.push(content.subarray(at, s));
    parts.push(styleBytes(style.match, content.subarray(s, e)));
    at = e;
  }
  if (at < end) parts.push(content.subarray(at, end));
  return parts;
}
