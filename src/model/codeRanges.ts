// Which matches of `rt replace --in code` lie in code: the parser gives the strings and comments
// as rows and columns of the text it read (UTF-16 units, the BOM gone, `\r\n` read as `\n`,
// bytes that are not UTF-8 read as U+FFFD); rt matches a line's bytes. A row's text is its
// line's content (no BOM, no line ending), so a column is found in it as a decoded offset is
// (see Byte fidelity).

import { byteOffsets } from './utf8Offsets.js';
import type { ByteRange } from './replacement.js';

/**
 * The byte ranges of each line in `rows` (0-based, ascending) that are strings or comments, from
 * `spans` (start row, start column, end row, end column, four numbers each); `contentOf(row)` is
 * the line's content. A span that goes on past a line covers the rest of it, and its range ends
 * one byte past the line's content; one that began on a line above starts at -1 (see inCode:
 * an empty match at such an edge is inside the string or comment). An end column of
 * END_OF_ROW (a line comment's) runs to the end of the line the same way. Each line's ranges are
 * sorted by their start.
 */
export function nonCodeRanges(
  spans: readonly number[],
  rows: readonly number[],
  contentOf: (row: number) => Buffer,
): Map<number, ByteRange[]> {
  const columns = new Map<number, Array<[number, number]>>();
  for (let k = 0; k + 3 < spans.length; k += 4) {
    const [startRow, startColumn, endRow, endColumn] = [spans[k]!, spans[k + 1]!, spans[k + 2]!, spans[k + 3]!];
    if (startRow === endRow && startColumn >= endColumn) continue;
    for (let r = firstAtLeast(rows, startRow); r < rows.length && rows[r]! <= endRow; r++) {
      const row = rows[r]!;
      // (A span ending at the start of a row, past the line break, holds nothing of that row.)
      if (row === endRow && row > startRow && endColumn === 0) continue;
      const from = row === startRow ? startColumn : BEFORE_ROW;
      const to = row === endRow ? endColumn : END_OF_ROW;
      if (!columns.has(row)) columns.set(row, []);
      columns.get(row)!.push([from, to]);
    }
  }
  const ranges = new Map<number, ByteRange[]>();
  for (const [row, found] of columns) {
    const content = contentOf(row);
    const at = [...new Set(found.flat())].filter((c) => c !== BEFORE_ROW && c !== END_OF_ROW).sort((a, b) => a - b);
    const bytes = byteOffsets(content, at);
    const byteOf = new Map<number, number>(at.map((column, i) => [column, bytes[i]!]));
    byteOf.set(BEFORE_ROW, -1);
    byteOf.set(END_OF_ROW, content.length + 1);
    ranges.set(
      row,
      found.map(([from, to]): ByteRange => [byteOf.get(from)!, byteOf.get(to)!]).sort((a, b) => a[0] - b[0]),
    );
  }
  return ranges;
}

/** A span's column before a row it began above. */
const BEFORE_ROW = -1;
/** A span's end column past the end of its row: it goes on past the line (or is a line comment). */
export const END_OF_ROW = Number.MAX_SAFE_INTEGER;

/**
 * The matches (sorted by start, none overlapping) that lie in code, outside every range of
 * `nonCode` (sorted by start, as nonCodeRanges gives them), in one pass over both: a minified
 * line holds thousands of each. The rule for each is inCode's.
 */
export function inCodeAll<T extends { readonly range: ByteRange }>(
  nonCode: readonly ByteRange[] | undefined,
  matches: readonly T[],
): T[] {
  if (!nonCode || nonCode.length === 0) return [...matches];
  const kept: T[] = [];
  // Strings and comments never overlap (a string in a hole of another is apart from its pieces), so
  // a range ending at or before a match's start ends before every later match's too.
  let first = 0;
  for (const m of matches) {
    const [start, end] = m.range;
    while (first < nonCode.length && nonCode[first]![1] <= start) first++;
    let touched = false;
    for (let k = first; k < nonCode.length && nonCode[k]![0] <= end && !touched; k++)
      touched = !inCode([nonCode[k]!], m.range);
    if (!touched) kept.push(m);
  }
  return kept;
}

/**
 * Whether `match` lies wholly in code, outside every range of `nonCode`: a match that touches a
 * string or comment at all (one that straddles a quote) is not, as it cannot be half replaced. An
 * empty match is in code unless it falls strictly inside a range.
 */
export function inCode(nonCode: readonly ByteRange[] | undefined, match: ByteRange): boolean {
  if (!nonCode) return true;
  const [start, end] = match;
  return nonCode.every(([from, to]) =>
    start === end ? start <= from || start >= to : end <= from || start >= to || from === to,
  );
}

/** The index of the first of `sorted` at least `value`. */
export function firstAtLeast(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
