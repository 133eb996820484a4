// Reading the text of an edit from standard input, byte for byte.

import fs from 'node:fs';
import { RtError } from '../model/errors.js';
import { isTerminal } from './output.js';

export interface StdinSource {
  readonly isTTY: boolean;
  read(): Buffer;
}

export const processStdin: StdinSource = {
  get isTTY() {
    return isTerminal(0);
  },
  read: () => readAll(0),
};

/**
 * All the bytes left to read from `fd`. A regular file (stdin redirected from one) is read into
 * one buffer of its size, not in pieces then joined: a 50 MB text is held once, not twice. What
 * it holds past that size (a file still growing) is read in pieces after.
 */
export function readAll(fd: number): Buffer {
  let size = 0;
  try {
    const st = fs.fstatSync(fd);
    if (st.isFile()) size = st.size;
  } catch {
    // No stdin at all (a closed descriptor): read as a pipe would be, which finds nothing.
  }
  if (size === 0) return readPieces(fd);
  // (Read from where the descriptor is: a file read partly before leaves less than its size.)
  const whole = Buffer.allocUnsafe(size);
  let filled = 0;
  for (let n = readSome(fd, whole, filled); n > 0; n = filled < size ? readSome(fd, whole, filled) : 0) filled += n;
  if (filled < size) return whole.subarray(0, filled);
  const rest = readPieces(fd);
  return rest.length ? Buffer.concat([whole, rest]) : whole;
}

/** All the bytes left to read from `fd`, read a piece at a time and joined (a pipe, a terminal). */
export function readPieces(fd: number): Buffer {
  const chunks: Buffer[] = [];
  const buf = Buffer.allocUnsafe(1 << 16);
  for (let n = readSome(fd, buf, 0); n > 0; n = readSome(fd, buf, 0)) chunks.push(Buffer.from(buf.subarray(0, n)));
  return Buffer.concat(chunks);
}

/** Bytes read from `fd` into `buf` at `offset`: 0 at the end of the input, or when there is none. */
function readSome(fd: number, buf: Buffer, offset: number): number {
  for (;;) {
    try {
      return fs.readSync(fd, buf, offset, buf.length - offset, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') continue; // a non-blocking pipe with nothing yet
      if (code === 'EOF' || code === 'EBADF' || code === 'ENXIO') return 0; // no stdin at all
      throw new RtError('input', `cannot read standard input (${code ?? String(error)})`, [
        "give the text as a quoted heredoc: <<'EOF'",
      ]);
    }
  }
}

/**
 * The text piped to an edit; refuses a terminal or empty stdin with the heredoc form (`empty`:
 * what to do instead when there is no text to write), and text holding a NUL byte (refuseNul).
 */
export function readEditText(
  stdin: StdinSource,
  command: string,
  empty = 'to remove lines, use: rt delete PATH FROM [TO]',
): Buffer {
  const usage = [`give the new text as a quoted heredoc:`, `  ${command} <<'EOF'`, '  …new lines…', '  EOF', empty];
  if (stdin.isTTY) throw new RtError('input', 'the new text comes from standard input, which is a terminal', usage);
  const text = stdin.read();
  if (text.length === 0) throw new RtError('input', 'standard input is empty: no text to write', usage);
  refuseNul(text);
  return text;
}

/**
 * No text, for `rt create --empty`: a terminal is not read; a pipe or file must be empty, or the
 * text it holds would be lost (refused, exit 2, with the two commands that may have been meant).
 */
export function readNoText(stdin: StdinSource, path: string): Buffer {
  if (stdin.isTTY) return Buffer.alloc(0);
  const text = stdin.read();
  if (text.length === 0) return text;
  throw new RtError(
    'usage',
    `--empty makes an empty file, but standard input holds text ` +
      `(${text.length} ${text.length === 1 ? 'byte' : 'bytes'}); nothing was written`,
    [
      `to write the text, drop --empty: rt create ${path} <<'EOF'`,
      `to make an empty file, give no text: rt create --empty ${path} </dev/null`,
    ],
  );
}

/** Lines of the text named in the refusal of a NUL byte; the rest are counted. */
const NUL_LINES_NAMED = 5;

/**
 * Text holding a NUL byte is refused (exit 2). Written, it would make a text file
 * binary, which rt and every search then pass over. The refusal names the lines of
 * the text (1-based, as split on \n) that hold one, and the byte of the first.
 */
export function refuseNul(text: Buffer): void {
  let nul = text.indexOf(0);
  if (nul === -1) return;
  const byte = nul - (text.lastIndexOf(0x0a, nul) + 1) + 1;
  const lines: number[] = [];
  // Each NUL's line: the newlines before it are counted once, from the line of the NUL before.
  let line = 1;
  for (let counted = 0; nul !== -1; ) {
    for (let nl = text.indexOf(0x0a, counted); nl !== -1 && nl < nul; nl = text.indexOf(0x0a, nl + 1)) line++;
    lines.push(line);
    const end = text.indexOf(0x0a, nul);
    if (end === -1) break;
    line++;
    counted = end + 1;
    nul = text.indexOf(0, counted);
  }
  const named = lines.slice(1, NUL_LINES_NAMED).join(', ');
  const more = lines.length > NUL_LINES_NAMED ? ` and ${lines.length - NUL_LINES_NAMED} more` : '';
  const others =
    lines.length > 1 ? `; ${lines.length === 2 ? `line ${named} holds` : `lines ${named}${more} hold`} one too` : '';
  throw new RtError(
    'input',
    `line ${lines[0]} of the new text holds a NUL byte (its byte ${byte}${others}): a NUL makes a text file ` +
      `binary, and rt does not read binary files; nothing was written`,
    [
      'remove the NUL bytes from the text (see them with: od -c, or cat -A)',
      "to write a NUL as text, use the escape of the file's language (such as \\0 or \\x00)",
    ],
    { lines: lines.slice(0, 50), byte },
  );
}
