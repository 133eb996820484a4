// The edit engine: replaces a run of lines with new ones, touching no other byte, and carries
// the LID index across the change without re-reading the file (the edit knows which lines it kept).

import { hashBytes } from './hash.js';
import { carryOver, type LineIndex } from './lineIndex.js';
import { endsWithNewline, splitLines, type FileLines } from './lines.js';

export interface Splice {
  /** First line replaced (0-based); equal to the line count to append. */
  readonly start: number;
  /** Lines removed from `start` on. */
  readonly deleteCount: number;
  /** Content of the new lines, without line endings. */
  readonly insert: readonly Buffer[];
}

export interface SpliceResult {
  readonly bytes: Buffer;
  readonly index: LineIndex;
  /** Line count after the edit. */
  readonly total: number;
}

/**
 * Applies `splice` to the file. New lines end with `eol`. The file keeps its final-newline
 * state: if it ended without a newline, its new last line does too (unless that line is empty);
 * a line that stops being last gains `eol`.
 */
export function applySplice(lines: FileLines, index: LineIndex, splice: Splice, eol: string): SpliceResult {
  const { bytes, starts, count } = lines;
  const { start, deleteCount, insert } = splice;
  const end = start + deleteCount;
  const finalNewline = endsWithNewline(lines);
  const eolBytes = Buffer.from(eol, 'latin1');

  const head = bytes.subarray(0, starts[start]!);
  const tail = bytes.subarray(starts[end]!);
  // Without a final newline the last line ends the file bare — unless it is empty, for an empty
  // line with no newline would be no line at all.
  const bareEnd = tail.length === 0 && !finalNewline;
  const parts: Buffer[] = [head];
  if (bareEnd && start === count && count > 0 && insert.length > 0) parts.push(eolBytes); // the old last line stops being last
  if (bareEnd && start < count && insert.length === 0 && start > 0 && lines.contentEnds[start - 1]! > starts[start - 1]!) {
    parts[0] = stripEol(head); // a kept line becomes last
  }
  insert.forEach((content, i) => {
    parts.push(content);
    if (i < insert.length - 1 || !bareEnd || content.length === 0) parts.push(eolBytes);
  });
  parts.push(tail);
  const out = Buffer.concat(parts);

  const total = count - deleteCount + insert.length;
  const h1 = new Uint32Array(total);
  const h2 = new Uint32Array(total);
  const match = new Int32Array(total);
  h1.set(index.h1.subarray(0, start));
  h2.set(index.h2.subarray(0, start));
  for (let i = 0; i < start; i++) match[i] = i;
  insert.forEach((content, i) => {
    const [a, b] = hashBytes(content);
    h1[start + i] = a;
    h2[start + i] = b;
    match[start + i] = -1;
  });
  const after = start + insert.length;
  h1.set(index.h1.subarray(end), after);
  h2.set(index.h2.subarray(end), after);
  for (let i = end; i < count; i++) match[after + i - end] = i;
  return { bytes: out, index: carryOver(index, { h1, h2 }, match), total };
}

function stripEol(prefix: Buffer): Buffer {
  let n = prefix.length;
  if (n > 0 && prefix[n - 1] === 0x0a) n--;
  if (n > 0 && prefix[n - 1] === 0x0d) n--;
  return prefix.subarray(0, n);
}

/** Text from stdin as lines: one trailing newline (`\n` or `\r\n`) removed, then split on `\n`. */
export function textLines(text: Buffer): { lines: Buffer[]; eol: '\n' | '\r\n' } {
  let body = text;
  if (body.length && body[body.length - 1] === 0x0a) {
    body = body.subarray(0, body.length - (body.length > 1 && body[body.length - 2] === 0x0d ? 2 : 1));
  }
  const withEnd = Buffer.concat([body, Buffer.from('\n')]);
  const split = splitLines(withEnd, false);
  const out: Buffer[] = [];
  for (let i = 0; i < split.count; i++) out.push(Buffer.from(withEnd.subarray(split.starts[i]!, split.contentEnds[i]!)));
  // The text's own convention, its removed trailing newline included: CRLF if most endings are.
  let crlf = 0;
  let lf = 0;
  for (let at = text.indexOf(0x0a); at !== -1; at = text.indexOf(0x0a, at + 1)) at > 0 && text[at - 1] === 0x0d ? crlf++ : lf++;
  return { lines: out, eol: crlf > lf ? '\r\n' : '\n' };
}
