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
 * the line's content. A span that goes on past a line covers the rest of it.
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
      const from = row === startRow ? startColumn : 0;
      const to = row === endRow ? endColumn : Number.MAX_SAFE_INTEGER;
      if (!columns.has(row)) columns.set(row, []);
      columns.get(row)!.push([from, to]);
    }
  }
  const ranges = new Map<number, ByteRange[]>();
  for (const [row, found] of columns) {
    const at = [...new Set(found.flat())].sort((a, b) => a - b);
    const bytes = byteOffsets(contentOf(row), at);
    const byteOf = new Map(at.map((column, i) => [column, bytes[i]!]));
    ranges.set(
      row,
      found.map(([from, to]) => [byteOf.get(from)!, byteOf.get(to)!]),
    );
  }
  return ranges;
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
