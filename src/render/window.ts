// The window format of SPEC §1, read by agents and scripts: treat it as porcelain.
//
//   --- src/app.ts (lines 101-200 of 834) ---
//   (100 more lines above)
//   101:kq3f|    const total = items.reduce(add, 0);
//   (634 more lines below)
//
// The counts always say "lines", even for one, so one pattern parses them.

import { PLAIN, type Style } from './style.js';

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
  return Buffer.concat([renderWindowHead(view, style), renderWindowLines(view.start, view.lids, view.lines, style), renderWindowFoot(view, style)]);
}

/** What a window prints before its lines: the header, and the count of lines above (or, for an empty file, all it prints). */
export function renderWindowHead(view: Omit<WindowView, 'lines' | 'lids'>, style: Style = PLAIN): Buffer {
  if (view.total === 0) return Buffer.from(`${style.header(`--- ${view.display} (empty file) ---`)}\n`, 'utf8');
  const above = view.start > 1 ? `${style.note(`(${view.start - 1} more lines above)`)}\n` : '';
  return Buffer.from(`${style.header(`--- ${view.display} (lines ${view.start}-${view.end} of ${view.total}) ---`)}\n${above}`, 'utf8');
}

/** Lines `start`.. of a window, each `<number>:<lid>|<content>`: a window is printed in such parts, as they are read. */
export function renderWindowLines(start: number, lids: readonly string[], lines: readonly Buffer[], style: Style = PLAIN): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; i < lines.length; i++) parts.push(renderLine(start + i, lids[i]!, lines[i]!, '|', style));
  return Buffer.concat(parts);
}

/** What a window prints after its lines: the count of lines below, if any. */
export function renderWindowFoot(view: Pick<WindowView, 'total' | 'end'>, style: Style = PLAIN): Buffer {
  const below = view.total - view.end;
  return below > 0 ? Buffer.from(`${style.note(`(${below} more lines below)`)}\n`, 'utf8') : Buffer.alloc(0);
}

/** One `[path:]<number>:<lid>|<content>` line (separator `-` for context lines), newline included. */
export function renderLine(number: number, lid: string, content: Buffer, separator: '|' | '-', style: Style = PLAIN, path?: string): Buffer {
  const head = `${path === undefined ? '' : `${style.path(path)}${style.separator(':')}`}${style.number(String(number))}${style.separator(':')}${style.lid(lid)}${style.separator(separator)}`;
  return Buffer.concat([Buffer.from(head, 'utf8'), displayContent(content), NEWLINE]);
}

const NEWLINE = Buffer.from('\n');

/** Content as shown: exact bytes, or for a line over DISPLAY_LIMIT characters, cut with a marker. */
export function displayContent(content: Buffer): Buffer {
  if (content.length <= DISPLAY_LIMIT) return content; // at most as many characters as bytes
  // Characters are counted as UTF-8 sequences (each byte that is not a continuation byte
  // starts one), without decoding a line that may be megabytes long.
  let chars = 0;
  let cut = -1;
  for (let i = 0; i < content.length; i++) {
    if ((content[i]! & 0xc0) !== 0x80) {
      if (chars === DISPLAY_LIMIT) cut = i;
      chars++;
    }
  }
  if (chars <= DISPLAY_LIMIT) return content;
  // Always "chars", as SPEC §1 writes the marker, so one pattern parses it.
  return Buffer.concat([content.subarray(0, cut), Buffer.from(`… [+${chars - DISPLAY_LIMIT} chars]`, 'utf8')]);
}
