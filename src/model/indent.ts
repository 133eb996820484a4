// `--indent auto`: new lines shifted as a block to the indentation of the code around
// the place they go, keeping their indentation relative to each other, in the file's own indent
// character. Pure: the new lines and the file's lines in, the new lines out. Without it (the
// default) new text is taken byte for byte.
//
// The indentation the block takes: for a replacement, that of the first line it replaces (the
// first not blank); for an insertion, that of the next line below (not blank) unless that line
// closes a block (`}`, `end`, `else`…), else that of the line above, one level deeper when that
// line opens a block (`{`, `:`…) and nothing follows it; for a definition named (`@NAME`), replaced
// or with lines inserted beside it, that of its line (`lineIndent`). The block's own base is its first line
// that is not blank: every line starting with that base has it replaced by the target; a line
// less indented than the base is shifted by the same amount, in columns.

import { lineContent, type FileLines } from './lines.js';

const SPACE = 0x20;
const TAB = 0x09;
/** Columns of a tab, to compare tab and space indentation. */
const TAB_COLUMNS = 4;

/** Leading whitespace of a line's content. */
function indentOf(line: Buffer): Buffer {
  let n = 0;
  while (n < line.length && (line[n] === SPACE || line[n] === TAB)) n++;
  return line.subarray(0, n);
}

function isBlank(line: Buffer): boolean {
  return indentOf(line).length === line.length;
}

function columns(ws: Buffer): number {
  let n = 0;
  for (const b of ws) n = b === TAB ? n + TAB_COLUMNS - (n % TAB_COLUMNS) : n + 1;
  return n;
}

/** A line that ends a block: what is inserted before it belongs to the block it closes. */
const CLOSER = new RegExp(
  String.raw`^\s*(?:[}\])]|end\b|else\b|elif\b|elsif\b|except\b|finally\b|catch\b|case\b|default\b|when\b|` +
    String.raw`rescue\b|ensure\b|fi\b|done\b|esac\b)`,
);
/** A line that opens a block: what follows it is one level deeper. */
const OPENER = /(?:[{[(:]|=>|\bthen|\bdo|\bbegin)\s*(?:(?:\/\/|#).*)?$/;

/** The file's indentation style: its unit (a tab, or N spaces), from its indented lines. */
export function indentUnit(lines: FileLines): Buffer {
  let tabs = 0;
  let spaces = 0;
  const steps = new Map<number, number>();
  let previous = 0;
  const limit = Math.min(lines.count, 10_000);
  for (let i = 0; i < limit; i++) {
    const line = lineContent(lines, i);
    if (isBlank(line)) continue;
    const ws = indentOf(line);
    if (ws[0] === TAB) tabs++;
    else if (ws[0] === SPACE) spaces++;
    const cols = columns(ws);
    const step = Math.abs(cols - previous);
    if (ws[0] !== TAB && step > 0 && step <= 8) steps.set(step, (steps.get(step) ?? 0) + 1);
    previous = cols;
  }
  if (tabs > spaces) return Buffer.from('\t');
  let best = 4;
  let bestCount = 0;
  for (const [step, count] of steps)
    if (count > bestCount || (count === bestCount && step < best)) [best, bestCount] = [step, count];
  return Buffer.alloc(best, ' ');
}

/** The indentation of line `i` (0-based). */
export function lineIndent(lines: FileLines, i: number): Buffer {
  return indentOf(lineContent(lines, i));
}

/**
 * The indentation new lines take at `start` (0-based line the change begins at) replacing
 * `deleteCount` lines.
 */
export function targetIndent(lines: FileLines, start: number, deleteCount: number): Buffer {
  if (deleteCount > 0) {
    for (let i = start; i < start + deleteCount; i++) {
      const line = lineContent(lines, i);
      if (!isBlank(line)) return indentOf(line);
    }
  }
  let next: Buffer | undefined;
  for (let i = start + deleteCount; i < lines.count && !next; i++) {
    const line = lineContent(lines, i);
    if (!isBlank(line)) next = line;
  }
  let previous: Buffer | undefined;
  for (let i = start - 1; i >= 0 && !previous; i--) {
    const line = lineContent(lines, i);
    if (!isBlank(line)) previous = line;
  }
  const prevText = previous?.toString('latin1');
  const opens = prevText !== undefined && OPENER.test(prevText);
  // Right under a line, with blank lines before the next: the block goes on from the line above
  // (the last line of a Python function, before the blank lines and the next def).
  const underPrevious = start > 0 && !isBlank(lineContent(lines, start - 1));
  const beforeNext = start + deleteCount < lines.count && !isBlank(lineContent(lines, start + deleteCount));
  if (previous && underPrevious && !beforeNext && next && columns(indentOf(next)) < columns(indentOf(previous)))
    return opens ? Buffer.concat([indentOf(previous), indentUnit(lines)]) : indentOf(previous);
  if (next && !CLOSER.test(next.toString('latin1'))) {
    // Below an opener, the next line is in the block unless it is no deeper than the opener.
    if (!opens || columns(indentOf(next)) > columns(indentOf(previous!))) return indentOf(next);
  }
  if (!previous) return next ? indentOf(next) : Buffer.alloc(0);
  return opens ? Buffer.concat([indentOf(previous), indentUnit(lines)]) : indentOf(previous);
}

/**
 * `rows` (new lines, without endings) moved as a block to `target`: the leading whitespace of
 * their first line that is not blank is replaced by `target` on every line that starts with
 * it; a line less indented keeps its distance to it, in columns. Lines indented with the other
 * character than the file's (`unit`) are converted first. Blank lines are kept as they are.
 */
export function reindent(rows: readonly Buffer[], target: Buffer, unit: Buffer): Buffer[] {
  const first = rows.find((r) => !isBlank(r));
  if (!first) return [...rows];
  const converted = rows.map((r) => (isBlank(r) ? r : convert(r, rows, unit)));
  const base = indentOf(converted[rows.indexOf(first)]!);
  const baseColumns = columns(base);
  const tabs = unit[0] === TAB;
  return converted.map((row) => {
    if (isBlank(row)) return row;
    const ws = indentOf(row);
    const rest = row.subarray(ws.length);
    if (ws.length >= base.length && ws.subarray(0, base.length).equals(base))
      return Buffer.concat([target, ws.subarray(base.length), rest]);
    const cols = Math.max(0, columns(target) - (baseColumns - columns(ws)));
    return Buffer.concat([render(cols, tabs), rest]);
  });
}

/** Leading whitespace of `cols` columns, in tabs (and spaces for the rest) or in spaces. */
function render(cols: number, tabs: boolean): Buffer {
  if (!tabs) return Buffer.alloc(cols, ' ');
  return Buffer.concat([Buffer.alloc(Math.floor(cols / TAB_COLUMNS), '\t'), Buffer.alloc(cols % TAB_COLUMNS, ' ')]);
}

/**
 * A row indented with spaces in a file indented with tabs (or the other way round), its
 * indentation rewritten in the file's character: levels of the block's own unit (the smallest
 * step between its rows' indentations) become levels of the file's.
 */
function convert(row: Buffer, rows: readonly Buffer[], unit: Buffer): Buffer {
  const ws = indentOf(row);
  if (ws.length === 0) return row;
  const fileTabs = unit[0] === TAB;
  const rowTabs = ws.every((b) => b === TAB);
  const rowSpaces = ws.every((b) => b === SPACE);
  if ((fileTabs && rowTabs) || (!fileTabs && rowSpaces) || (!rowTabs && !rowSpaces)) return row;
  if (fileTabs) {
    // Spaces to tabs: the block's step in spaces is one tab.
    const step = blockStep(rows) ?? TAB_COLUMNS;
    const levels = Math.floor(ws.length / step);
    return Buffer.concat([
      Buffer.alloc(levels, '\t'),
      Buffer.alloc(ws.length - levels * step, ' '),
      row.subarray(ws.length),
    ]);
  }
  // Tabs to the file's unit of spaces.
  return Buffer.concat([Buffer.alloc(ws.length * unit.length, ' '), row.subarray(ws.length)]);
}

/** The smallest positive difference between the space indentations of `rows`. */
function blockStep(rows: readonly Buffer[]): number | undefined {
  const widths = [...new Set(rows.filter((r) => !isBlank(r)).map((r) => indentOf(r).length))].sort((a, b) => a - b);
  let step: number | undefined;
  for (let i = 0; i < widths.length; i++) {
    const d = i === 0 ? widths[0]! : widths[i]! - widths[i - 1]!;
    if (d > 0 && (step === undefined || d < step)) step = d;
  }
  return step;
}
