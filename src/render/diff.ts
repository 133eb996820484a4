// A unified diff of one contiguous change, for --diff and --dry-run. The edit engine knows
// exactly which lines it replaced, so no diff algorithm is needed: one hunk with 3 lines of
// context, lines with their bytes and endings exactly as in the file, and git's
// "\ No newline at end of file" marker.

import { BOM, lineContent, lineEnding, type FileLines } from '../core/lines.js';
import { PLAIN, styleBytes, type Style } from './style.js';

export const DIFF_CONTEXT = 3;

export interface ChangeSpan {
  /** First changed line (0-based), the same in the old and the new file. */
  readonly start: number;
  readonly oldCount: number;
  readonly newCount: number;
}

export function renderUnifiedDiff(path: string, before: FileLines, after: FileLines, span: ChangeSpan, style: Style = PLAIN): Buffer {
  // A line before the change whose ending changed (it stopped or started being last) is changed too.
  const endingChanged = span.start > 0 && lineEnding(before, span.start - 1) !== lineEnding(after, span.start - 1);
  const change = endingChanged ? { start: span.start - 1, oldCount: span.oldCount + 1, newCount: span.newCount + 1 } : span;
  // No line in or out (an empty file created, or made empty again): no hunk, as git prints none.
  if (change.oldCount === 0 && change.newCount === 0) return Buffer.alloc(0);
  const from = Math.max(0, change.start - DIFF_CONTEXT);
  const oldEnd = Math.min(before.count, change.start + change.oldCount + DIFF_CONTEXT);
  const newEnd = Math.min(after.count, change.start + change.newCount + DIFF_CONTEXT);
  const parts: Buffer[] = [];
  const text = (s: string) => parts.push(Buffer.from(s, 'utf8'));
  text(`${style.header(`--- a/${path}`)}\n${style.header(`+++ b/${path}`)}\n`);
  text(`${style.hunk(`@@ -${range(from, oldEnd - from)} +${range(from, newEnd - from)} @@`)}\n`);
  // Each line keeps its own ending (a CRLF line's \r too), and line 1 its BOM, so the diff
  // applies with patch and git apply.
  const line = (mark: string, lines: FileLines, i: number) => {
    const paint = mark === '+' ? style.added : mark === '-' ? style.removed : undefined;
    const body = Buffer.concat([Buffer.from(mark), ...(i === 0 && lines.bomLength ? [BOM] : []), lineContent(lines, i)]);
    parts.push(paint ? styleBytes(paint, body) : body);
    const eol = lineEnding(lines, i);
    text(eol === '' ? '\n\\ No newline at end of file\n' : eol);
  };
  for (let i = from; i < change.start; i++) line(' ', before, i);
  for (let i = change.start; i < change.start + change.oldCount; i++) line('-', before, i);
  for (let i = change.start; i < change.start + change.newCount; i++) line('+', after, i);
  // Trailing context: the same lines on both sides, but their endings may differ at the file's end.
  for (let k = 0; change.start + change.newCount + k < newEnd; k++) {
    const oi = change.start + change.oldCount + k;
    const ni = change.start + change.newCount + k;
    if (oi < before.count && lineEnding(before, oi) !== lineEnding(after, ni)) {
      line('-', before, oi);
      line('+', after, ni);
    } else line(' ', after, ni);
  }
  return Buffer.concat(parts);
}

/** `start,count` of a hunk side, 1-based (an empty side names the line before it). */
function range(from: number, count: number): string {
  return count === 0 ? `${from},0` : `${from + 1},${count}`;
}
