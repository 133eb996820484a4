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

export function jsonWindow(path: string, total: number, start: number, lids: readonly string[], contents: readonly Buffer[]): JsonWindow {
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

export function renderJson(doc: unknown): string {
  return `${JSON.stringify(doc)}\n`;
}
