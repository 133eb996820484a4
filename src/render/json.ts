// The --json shapes (documented in the man page, JSON OUTPUT). One document per command run,
// carrying what the text output carries. A line's content is "text" (UTF-8; bytes that are not
// valid UTF-8 become U+FFFD there) plus "base64" with its exact bytes when they are not valid
// UTF-8. Content is never cut in JSON.

import { isUtf8 } from 'node:buffer';

export interface JsonLine {
  n: number;
  lid: string;
  text: string;
  base64?: string;
}

export function jsonLine(n: number, lid: string, content: Buffer): JsonLine {
  const line: JsonLine = { n, lid, text: content.toString('utf8') };
  if (!isUtf8(content)) line.base64 = content.toString('base64');
  return line;
}

export interface JsonWindow {
  path: string;
  total: number;
  start: number;
  end: number;
  above: number;
  below: number;
  lines: JsonLine[];
}

export function jsonWindow(
  path: string,
  total: number,
  start: number,
  lids: readonly string[],
  contents: readonly Buffer[],
): JsonWindow {
  const end = lids.length ? start + lids.length - 1 : 0;
  return {
    path,
    total,
    start: lids.length ? start : 0,
    end,
    above: lids.length ? start - 1 : 0,
    below: lids.length ? total - end : total,
    lines: lids.map((lid, i) => jsonLine(start + i, lid, contents[i]!)),
  };
}

/**
 * A window's document (`fields`, then jsonWindow's, its lines last) written in parts, as its
 * lines are read: jsonWindowHead, then jsonWindowLines for each run of lines, then
 * JSON_WINDOW_END. Joined, the parts are the JSON.stringify of the whole document.
 */
export function jsonWindowHead(
  fields: Record<string, unknown>,
  path: string,
  total: number,
  start: number,
  end: number,
): string {
  const count = total ? end - start + 1 : 0;
  const doc = {
    ...fields,
    path,
    total,
    start: count ? start : 0,
    end: count ? end : 0,
    above: count ? start - 1 : 0,
    below: total - (count ? end : 0),
    lines: [],
  };
  const whole = JSON.stringify(doc);
  return whole.slice(0, whole.length - ']}'.length);
}

/** Lines `start`.. of a window's document; `first`: whether they are the first of its lines (no comma before them). */
export function jsonWindowLines(
  start: number,
  lids: readonly string[],
  contents: readonly Buffer[],
  first: boolean,
): string {
  const lines = lids.map((lid, i) => JSON.stringify(jsonLine(start + i, lid, contents[i]!))).join(',');
  return first || lines === '' ? lines : `,${lines}`;
}

export const JSON_WINDOW_END = ']}\n';

export function renderJson(doc: unknown): string {
  return `${JSON.stringify(doc)}\n`;
}
