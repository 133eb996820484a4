// The edit engine: replaces a run of lines with new ones, touching no other byte, and carries
// the LID index across the change without re-reading the file (the edit knows which lines it kept).

import type { LineEdit } from './editSet.js';
import { hashBytes } from './hash.js';
import { spliceIndex, type LineIndex } from './lineIndex.js';
import { endsWithNewline, splitLines, type FileLines } from './lines.js';

/** A file after an edit. */
export interface EditedFile {
  /**
   * The new file as consecutive parts, most of it views of the old file's buffer: an edit
   * writes these, for joining them copies the whole file into memory the system must first
   * find (some 20 ms for 46 MB, half of what the rest of the splice takes).
   */
  readonly parts: readonly Buffer[];
  /** The new file's bytes, joined when first asked for. */
  readonly bytes: Buffer;
  /** Whether the new bytes are the old ones. */
  readonly unchanged: boolean;
  /**
   * The new file as lines (the same as splitLines(bytes), found without scanning the kept lines); its bytes are joined
   * when first asked for.
   */
  readonly lines: FileLines;
  /** Content of the new file's line i, taken from the parts (`bytes` is not joined for it). */
  content(i: number): Buffer;
  readonly index: LineIndex;
  /** Line count after the edit. */
  readonly total: number;
}

/**
 * Applies `edit` to the file. New lines end with `eol`. The file keeps its final-newline
 * state: if it ended without a newline, its new last line does too (unless that line is empty);
 * a line that stops being last gains `eol`.
 */
export function applySplice(lines: FileLines, index: LineIndex, edit: LineEdit, eol: string): EditedFile {
  const { bytes, starts, count } = lines;
  const { start, deleteCount, insert } = edit;
  const end = start + deleteCount;
  const finalNewline = endsWithNewline(lines);
  const eolBytes = Buffer.from(eol, 'latin1');

  const head = bytes.subarray(0, starts[start]!);
  const tail = bytes.subarray(starts[end]!);
  // Without a final newline the last line ends the file bare — unless it is empty, for an empty
  // line with no newline would be no line at all.
  const bareEnd = tail.length === 0 && !finalNewline;
  const crlf = Buffer.from('\r\n', 'latin1');
  // A line whose content ends in \r needs \r\n: with a bare \n its \r would become part of the ending.
  const endingFor = (content: Uint8Array) =>
    content.length > 0 && content[content.length - 1] === 0x0d ? crlf : eolBytes;
  const parts: Buffer[] = [head];
  if (bareEnd && start === count && count > 0 && insert.length > 0)
    parts.push(endingFor(head.subarray(starts[count - 1]!))); // the old last line stops being last
  if (
    bareEnd &&
    start < count &&
    insert.length === 0 &&
    start > 0 &&
    lines.contentEnds[start - 1]! > starts[start - 1]!
  ) {
    parts[0] = stripEol(head); // a kept line becomes last
  }
  insert.forEach((content, i) => {
    parts.push(content);
    if (i < insert.length - 1 || !bareEnd || content.length === 0) parts.push(endingFor(content));
  });
  // What comes before and after stays views of the old bytes; the new lines, their endings and
  // the line before them (the region spliceLines splits) are joined, but for a piece of JOIN_BELOW
  // bytes or more, which stays a view (a 50 MB line given on stdin is not held twice): a part a
  // line would mean a write a line.
  const regionStart = starts[Math.max(0, start - 1)]!;
  const out = new Parts([
    parts[0]!.subarray(0, regionStart),
    ...gathered([parts[0]!.subarray(regionStart), ...parts.slice(1)]),
    tail,
  ]);

  const total = count - deleteCount + insert.length;
  const after = spliceLines(lines, out, start, end, total);
  return {
    parts: out.parts,
    get bytes() {
      return out.joined();
    },
    unchanged: out.equals(bytes),
    lines: after,
    content: (i) => out.slice(after.starts[i]!, after.contentEnds[i]!),
    index: splicedIndex(index, edit),
    total,
  };
}

/** Pieces this big or bigger are written as they are (views); smaller ones next to each other are joined. */
export const JOIN_BELOW = 1 << 16;

/** `pieces` as parts: each run of pieces smaller than JOIN_BELOW joined, each bigger one as it is. */
function gathered(pieces: readonly Buffer[]): Buffer[] {
  const out: Buffer[] = [];
  let run: Buffer[] = [];
  const flush = () => {
    if (run.length) out.push(run.length === 1 ? run[0]! : Buffer.concat(run));
    run = [];
  };
  for (const piece of pieces) {
    if (piece.length < JOIN_BELOW) run.push(piece);
    else flush(), out.push(piece);
  }
  flush();
  return out;
}

/** The index of a file after `edit`: the new lines' fingerprints taken, the LIDs carried (see spliceIndex). */
export function splicedIndex(index: LineIndex, edit: LineEdit): LineIndex {
  const { start, deleteCount, insert } = edit;
  const end = start + deleteCount;
  const total = index.h1.length - deleteCount + insert.length;
  const h1 = new Uint32Array(total);
  const h2 = new Uint32Array(total);
  h1.set(index.h1.subarray(0, start));
  h2.set(index.h2.subarray(0, start));
  insert.forEach((content, i) => {
    const [a, b] = hashBytes(content);
    h1[start + i] = a;
    h2[start + i] = b;
  });
  h1.set(index.h1.subarray(end), start + insert.length);
  h2.set(index.h2.subarray(end), start + insert.length);
  return spliceIndex(index, { h1, h2 }, start, deleteCount);
}

/**
 * Bytes from..to of a file given as consecutive parts, copying only the parts they overlap (none when one part holds
 * them).
 */
export function sliceParts(parts: readonly Buffer[], from: number, to: number): Buffer {
  const out = partsBetween(parts, from, to);
  return out.length === 1 ? out[0]! : Buffer.concat(out);
}

/** Bytes from..to of a file given as consecutive parts, as views of the parts they overlap. */
export function partsBetween(parts: readonly Buffer[], from: number, to: number): Buffer[] {
  const out: Buffer[] = [];
  let at = 0;
  for (const part of parts) {
    const start = Math.max(from, at);
    const end = Math.min(to, at + part.length);
    if (end > start) out.push(part.subarray(start - at, end - at));
    at += part.length;
    if (at >= to) break;
  }
  return out;
}

/** A file held as consecutive parts: sliced and compared without joining them. */
class Parts {
  readonly size: number;
  /** Offset of each part in the whole. */
  private readonly at: number[] = [];
  private whole: Buffer | undefined;

  constructor(readonly parts: readonly Buffer[]) {
    let size = 0;
    for (const part of parts) {
      this.at.push(size);
      size += part.length;
    }
    this.size = size;
  }

  joined(): Buffer {
    return (this.whole ??= Buffer.concat(this.parts, this.size));
  }

  /** Bytes from..to of the whole (see sliceParts). */
  slice(from: number, to: number): Buffer {
    return this.whole ? this.whole.subarray(from, to) : sliceParts(this.parts, from, to);
  }

  /** Whether the whole is `bytes`; a part that is the very same memory is not compared. */
  equals(bytes: Buffer): boolean {
    if (this.size !== bytes.length) return false;
    return this.parts.every((part, p) => {
      const at = this.at[p]!;
      const same = part.buffer === bytes.buffer && part.byteOffset === bytes.byteOffset + at;
      return same || part.equals(bytes.subarray(at, at + part.length));
    });
  }
}

/**
 * The lines of `out`, which is `old` with lines start..end-1 replaced: the lines before stay
 * where they were, those after move by the change in length, and only the bytes between (the
 * new lines, and the line before them, whose ending an edit at the end may change) are split.
 */
function spliceLines(old: FileLines, out: Parts, start: number, end: number, total: number): FileLines {
  const first = Math.max(0, start - 1);
  const regionStart = old.starts[first]!;
  const delta = out.size - old.bytes.length;
  const tailStart = old.starts[end]! + delta;
  const pieces = partsBetween(out.parts, regionStart, tailStart);
  const region = pieces.length > 1 ? splitPieces(pieces) : splitLines(pieces[0] ?? Buffer.alloc(0), false);
  const kept = old.count - end;
  // Not expected: the edit engine's own rules say otherwise.
  if (first + region.count + kept !== total) return splitLines(out.joined());
  const starts = new Uint32Array(total + 1);
  const contentEnds = new Uint32Array(total);
  starts.set(old.starts.subarray(0, first));
  contentEnds.set(old.contentEnds.subarray(0, first));
  for (let r = 0; r < region.count; r++) {
    starts[first + r] = regionStart + region.starts[r]!;
    contentEnds[first + r] = regionStart + region.contentEnds[r]!;
  }
  for (let i = end, k = first + region.count; i < old.count; i++, k++) {
    starts[k] = old.starts[i]! + delta;
    contentEnds[k] = old.contentEnds[i]! + delta;
  }
  starts[total] = out.size;
  return {
    get bytes() {
      return out.joined();
    },
    bomLength: old.bomLength,
    count: total,
    starts,
    contentEnds,
  };
}

/** The lines of `pieces` one after the other, as splitLines(joined, false) gives them, without joining them. */
export function splitPieces(pieces: readonly Buffer[]): Pick<FileLines, 'count' | 'starts' | 'contentEnds'> {
  const starts: number[] = [];
  const contentEnds: number[] = [];
  let at = 0;
  let lineStart = 0;
  // The byte before the piece looked at: a \r there and a \n first in it make one ending.
  let last = -1;
  for (const piece of pieces) {
    for (let nl = piece.indexOf(0x0a); nl !== -1; nl = piece.indexOf(0x0a, nl + 1)) {
      const end = at + nl;
      const before = nl > 0 ? piece[nl - 1] : last;
      starts.push(lineStart);
      contentEnds.push(end > lineStart && before === 0x0d ? end - 1 : end);
      lineStart = end + 1;
    }
    if (piece.length) last = piece[piece.length - 1]!;
    at += piece.length;
  }
  if (lineStart < at) starts.push(lineStart), contentEnds.push(at);
  starts.push(at);
  return { count: contentEnds.length, starts: Uint32Array.from(starts), contentEnds: Uint32Array.from(contentEnds) };
}

function stripEol(prefix: Buffer): Buffer {
  let n = prefix.length;
  if (n > 0 && prefix[n - 1] === 0x0a) n--;
  if (n > 0 && prefix[n - 1] === 0x0d) n--;
  return prefix.subarray(0, n);
}

/**
 * Text from stdin as lines: one trailing newline (`\n` or `\r\n`) removed, then split on `\n`;
 * a `\r` before a `\n` belongs to that line ending. `eol` is the text's own convention (CRLF if
 * most of its endings are), and `bytes` the text exactly as given, for `create`. The lines are
 * views of `text`, not copies: a text of one 50 MB line is held once.
 */
export function textLines(text: Buffer): { lines: Buffer[]; eol: '\n' | '\r\n'; bytes: Buffer } {
  let body = text;
  if (body.length && body[body.length - 1] === 0x0a) {
    body = body.subarray(0, body.length - (body.length > 1 && body[body.length - 2] === 0x0d ? 2 : 1));
  }
  const lines: Buffer[] = [];
  let crlf = 0;
  let lf = 0;
  let start = 0;
  for (let nl = body.indexOf(0x0a); nl !== -1; nl = body.indexOf(0x0a, start)) {
    const cr = nl > start && body[nl - 1] === 0x0d;
    cr ? crlf++ : lf++;
    lines.push(body.subarray(start, cr ? nl - 1 : nl));
    start = nl + 1;
  }
  lines.push(body.subarray(start));
  if (body.length < text.length) text.length - body.length === 2 ? crlf++ : lf++;
  return { lines, eol: crlf > lf ? '\r\n' : '\n', bytes: text };
}
