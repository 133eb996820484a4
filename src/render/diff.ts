// A unified diff of the changes a write made, for --diff and --dry-run. The edit engine knows
// exactly which lines each change replaced, so no diff algorithm is needed: hunks with 3 lines
// of context (changes closer than that share one), lines with their bytes and endings exactly
// as in the file, and git's "\ No newline at end of file" marker. Written by hand: a diff
// library would cost every edit its start-up.

import type { EditSpan } from '../model/editSet.js';
import { BOM, lineContent, lineEnding, type FileLines } from '../model/lines.js';
import { PLAIN, styleBytes, type Style } from './style.js';

export const DIFF_CONTEXT = 3;

/**
 * The diff of `before` becoming `after` by the edits at `regions`, in file order (an EditSet's
 * spans, or a whole file's). `names` are the paths of its header lines (`/dev/null` for a file
 * made or removed, as git writes).
 */
export function renderDiff(
  names: { old: string; new: string },
  before: FileLines,
  after: FileLines,
  regions: readonly EditSpan[],
  style: Style = PLAIN,
): Buffer {
  // A line before a change whose ending changed (it stopped or started being last) is changed too.
  const changes = regions
    .map((r) =>
      r.oldStart > 0 && r.newStart > 0 && lineEnding(before, r.oldStart - 1) !== lineEnding(after, r.newStart - 1)
        ? { oldStart: r.oldStart - 1, oldCount: r.oldCount + 1, newStart: r.newStart - 1, newCount: r.newCount + 1 }
        : r,
    )
    // No line in or out (an empty file created, or made empty again): no hunk, as git prints none.
    .filter((r) => r.oldCount > 0 || r.newCount > 0);
  // A file moved unchanged is its two header lines alone.
  if (changes.length === 0 && names.old === names.new) return Buffer.alloc(0);
  const parts: Buffer[] = [];
  const text = (s: string) => parts.push(Buffer.from(s, 'utf8'));
  const header = (name: string, side: 'a' | 'b') => (name === '/dev/null' ? name : `${side}/${name}`);
  text(`${style.header(`--- ${header(names.old, 'a')}`)}\n${style.header(`+++ ${header(names.new, 'b')}`)}\n`);
  // Each line keeps its own ending (a CRLF line's \r too), and line 1 its BOM, so the diff
  // applies with patch and git apply.
  const line = (mark: string, lines: FileLines, i: number) => {
    const paint = mark === '+' ? style.added : mark === '-' ? style.removed : undefined;
    const body = Buffer.concat([
      Buffer.from(mark),
      ...(i === 0 && lines.bomLength ? [BOM] : []),
      lineContent(lines, i),
    ]);
    parts.push(paint ? styleBytes(paint, body) : body);
    const eol = lineEnding(lines, i);
    text(eol === '' ? '\n\\ No newline at end of file\n' : eol);
  };
  for (const group of hunks(changes)) {
    const first = group[0]!;
    const last = group[group.length - 1]!;
    const lead = Math.min(DIFF_CONTEXT, first.oldStart, first.newStart);
    const oldFrom = first.oldStart - lead;
    const newFrom = first.newStart - lead;
    const oldEnd = Math.min(before.count, last.oldStart + last.oldCount + DIFF_CONTEXT);
    const newEnd = Math.min(after.count, last.newStart + last.newCount + DIFF_CONTEXT);
    text(`${style.hunk(`@@ -${range(oldFrom, oldEnd - oldFrom)} +${range(newFrom, newEnd - newFrom)} @@`)}\n`);
    for (let i = oldFrom; i < first.oldStart; i++) line(' ', before, i);
    group.forEach((change, k) => {
      for (let i = change.oldStart; i < change.oldStart + change.oldCount; i++) line('-', before, i);
      for (let i = change.newStart; i < change.newStart + change.newCount; i++) line('+', after, i);
      const next = group[k + 1];
      if (next) for (let i = change.newStart + change.newCount; i < next.newStart; i++) line(' ', after, i);
    });
    // Trailing context: the same lines on both sides, but their endings may differ at the file's end.
    for (let k = 0; last.newStart + last.newCount + k < newEnd; k++) {
      const oi = last.oldStart + last.oldCount + k;
      const ni = last.newStart + last.newCount + k;
      if (oi < before.count && lineEnding(before, oi) !== lineEnding(after, ni)) {
        line('-', before, oi);
        line('+', after, ni);
      } else line(' ', after, ni);
    }
  }
  return Buffer.concat(parts);
}

/** Changes whose context lines would meet go in one hunk. */
function hunks(changes: readonly EditSpan[]): EditSpan[][] {
  const groups: EditSpan[][] = [];
  for (const change of changes) {
    const group = groups[groups.length - 1];
    const prev = group?.[group.length - 1];
    if (group && prev && change.oldStart - (prev.oldStart + prev.oldCount) <= 2 * DIFF_CONTEXT) group.push(change);
    else groups.push([change]);
  }
  return groups;
}

/** `start,count` of a hunk side, 1-based (an empty side names the line before it). */
function range(from: number, count: number): string {
  return count === 0 ? `${from},0` : `${from + 1},${count}`;
}
