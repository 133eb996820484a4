// The file model: a file's bytes seen as lines, without ever copying or decoding them.
//
// A line is the bytes up to and including a `\n`; its *content* excludes that `\n` and a `\r`
// right before it. A UTF-8 BOM at the start of the file is kept aside (it is not content of
// line 1). The last line may lack a newline. An empty file has no lines; a file holding only
// `\n` has one empty line. Joining every line's full bytes gives the file back exactly.

export const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
export const LF = 0x0a;
export const CR = 0x0d;

export interface FileLines {
  /** The whole file, untouched. */
  readonly bytes: Buffer;
  /** Length of the BOM prefix (0 or 3). */
  readonly bomLength: number;
  /** Number of lines. */
  readonly count: number;
  /** starts[i]: byte offset where line i begins (0-based); starts[count] = bytes.length. */
  readonly starts: Uint32Array;
  /** contentEnds[i]: byte offset where line i's content ends (before `\r\n` or `\n`). */
  readonly contentEnds: Uint32Array;
}

/**
 * Splits bytes into lines. `bytes` may start at a line boundary of a larger file (see
 * `firstLine`). `expected`, the line count if known (a saved index's), lets one pass do: the
 * arrays are made that size and grown only if it was wrong; without it a first pass counts.
 */
export function splitLines(bytes: Buffer, skipBom = true, expected?: number): FileLines {
  const bomLength = skipBom && hasBom(bytes) ? BOM.length : 0;
  const capacity = expected ?? countLines(bytes, bomLength, bytes.length);
  let starts: Uint32Array = new Uint32Array(capacity + 1);
  let contentEnds: Uint32Array = new Uint32Array(capacity);
  let count = 0;
  for (let start = bomLength; start < bytes.length; count++) {
    if (count === contentEnds.length) {
      const grown = Math.max(16, contentEnds.length * 2);
      starts = grow(starts, grown + 1);
      contentEnds = grow(contentEnds, grown);
    }
    starts[count] = start;
    const nl = bytes.indexOf(LF, start);
    if (nl === -1) {
      contentEnds[count] = bytes.length;
      start = bytes.length;
    } else {
      contentEnds[count] = nl > start && bytes[nl - 1] === CR ? nl - 1 : nl;
      start = nl + 1;
    }
  }
  if (count + 1 !== starts.length) {
    starts = starts.slice(0, count + 1);
    contentEnds = contentEnds.slice(0, count);
  }
  starts[count] = bytes.length;
  return { bytes, bomLength, count, starts, contentEnds };
}

/** The lines of bytes start..end of `bytes` (the last one may lack its newline). */
export function countLines(bytes: Buffer, start: number, end: number): number {
  let lines = 0;
  for (let at = bytes.indexOf(LF, start); at !== -1 && at < end; at = bytes.indexOf(LF, at + 1)) lines++;
  return end > start && bytes[end - 1] !== LF ? lines + 1 : lines;
}

/** A copy of `array` in a longer array (the rest zero). */
export function grow(array: Uint32Array, length: number): Uint32Array {
  const bigger = new Uint32Array(length);
  bigger.set(array);
  return bigger;
}

export function hasBom(bytes: Buffer): boolean {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

/** The content bytes of line i (0-based), a view into the file's buffer. */
export function lineContent(lines: FileLines, i: number): Buffer {
  return lines.bytes.subarray(lines.starts[i]!, lines.contentEnds[i]!);
}

/** The full bytes of line i including its line ending. */
export function lineBytes(lines: FileLines, i: number): Buffer {
  return lines.bytes.subarray(lines.starts[i]!, lines.starts[i + 1]!);
}

/** The line ending of line i: `\r\n`, `\n`, or `` for a last line without newline. */
export function lineEnding(lines: FileLines, i: number): string {
  const end = lines.starts[i + 1]!;
  const contentEnd = lines.contentEnds[i]!;
  if (end === contentEnd) return '';
  return end - contentEnd === 2 ? '\r\n' : '\n';
}

/** Reassembles a file from its BOM and every line: the inverse of splitLines. */
export function joinLines(lines: FileLines): Buffer {
  const parts: Buffer[] = [lines.bytes.subarray(0, lines.bomLength)];
  for (let i = 0; i < lines.count; i++) parts.push(lineBytes(lines, i));
  return Buffer.concat(parts);
}

/**
 * The line ending new lines should take: the one most lines already use
 * (CRLF files stay CRLF), `\n` for a file with no line endings yet.
 */
export function dominantEol(lines: FileLines): '\n' | '\r\n' {
  let crlf = 0;
  let lf = 0;
  // Sampling the first 10,000 line endings is plenty to tell a file's convention.
  const limit = Math.min(lines.count, 10_000);
  for (let i = 0; i < limit; i++) {
    const eol = lines.starts[i + 1]! - lines.contentEnds[i]!;
    if (eol === 2) crlf++;
    else if (eol === 1) lf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}

/** Whether the file ends with a newline (or is empty). */
export function endsWithNewline(lines: FileLines): boolean {
  return lines.count === 0 || lines.starts[lines.count]! !== lines.contentEnds[lines.count - 1]!;
}
