// Parses the text of `rt apply` into file changes. The envelope is apply_patch's
// (`*** Begin Patch`, `*** Update File: PATH`, …), so agents write what they already know; a
// hunk is either an LID hunk (`@@ edit FROM [TO]`, `@@ insert after AT`, …: `+` rows only) or
// an apply_patch context hunk (` `, `-` and `+` rows, located by content later). Pure and
// linear: each patch line is looked at a few times at most, and row text is kept as a slice of
// the patch bytes, never decoded.

import { parseAnchor, type Anchor } from '../anchor.js';
import { RtError } from '../errors.js';
import { SYMBOL } from '../target.js';
import { describeIndentation } from './locate.js';
import type { FileChange, PatchHunk, PatchRow } from './types.js';

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const PLUS = 0x2b;
const MINUS = 0x2d;
const STAR = 0x2a;
const AT = 0x40;
const NO_TEXT = Buffer.alloc(0);

/** The patch as lines: line i (0-based) is bytes[starts[i], ends[i]), without its `\n` and a `\r` before it. */
interface PatchLines {
  readonly bytes: Buffer;
  readonly count: number;
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
}

/** A `*** …` line: the envelope, a file line, or one rt does not know. */
type Mark =
  | { readonly kind: 'begin' | 'end' | 'eof' | 'unknown' }
  | { readonly kind: 'update' | 'add' | 'delete' | 'move'; readonly path: string };

const PATH_MARKS = [
  ['*** Update File:', 'update'],
  ['*** Add File:', 'add'],
  ['*** Delete File:', 'delete'],
  ['*** Move to:', 'move'],
] as const;

const FILE_FORMS = '*** Update File: PATH, *** Add File: PATH or *** Delete File: PATH';
const PLUS_HINT = 'a row of new text is + then the text, byte for byte; a bare + is an empty line';
const CONTEXT_HINT = "a row of a context hunk is ' ' (context), '-' (removed) or '+' (added), then the line's text";

/**
 * The file changes of a patch. `note` hears what was read leniently: a patch whose every line
 * carries one indentation (copied from an indented block) is read without it.
 */
export function parsePatch(text: Buffer, note: (message: string) => void = () => {}): FileChange[] {
  refuseNul(text);
  const p = splitPatch(text);
  unwrapHeredoc(p);
  let written: FileChange[] | undefined;
  let refusal: unknown;
  try {
    written = parseLines({ ...p, starts: p.starts.slice(), ends: p.ends.slice() });
  } catch (error) {
    refusal = error;
  }
  // Read as written, a patch indented whole is context rows only: it changes nothing, or is
  // refused. Read without its indentation, it is what was meant, if it reads so at all.
  if (written && changesSomething(written)) return written;
  const dropped = dropCommonIndentation(p);
  if (dropped !== undefined) {
    try {
      const read = parseLines(p);
      note(dropped);
      return read;
    } catch (error) {
      if (!written && refusal === undefined) throw error;
    }
  }
  if (written) return written;
  throw refusal;
}

/** Whether changes do anything: a file added, deleted or moved, or a hunk that is not context only. */
function changesSomething(changes: readonly FileChange[]): boolean {
  return changes.some(
    (c) =>
      c.kind !== 'update' ||
      c.moveTo !== undefined ||
      c.hunks.some((h) => h.kind !== 'context' || h.rows.some((r) => r.tag !== ' ')),
  );
}

function parseLines(p: PatchLines): FileChange[] {
  const changes: FileChange[] = [];
  let i = skipBlank(p, 0);
  if (i < p.count && markOf(p, i)?.kind === 'begin') i++;
  for (i = skipBlank(p, i); i < p.count; i = skipBlank(p, i)) {
    const mark = markOf(p, i);
    if (mark?.kind === 'end') {
      refuseAfterEnd(p, i + 1);
      break;
    }
    if (mark?.kind === 'update') i = parseUpdate(p, i, mark.path, changes);
    else if (mark?.kind === 'add') i = parseAdd(p, i, mark.path, changes);
    else if (mark?.kind === 'delete') i = parseDelete(p, i, mark.path, changes);
    else throw misplaced(p, i, mark);
  }
  if (changes.length === 0)
    throw usage(Math.max(1, Math.min(i + 1, p.count)), 'the patch changes no file', [
      `name a file first: ${FILE_FORMS}`,
    ]);
  return changes;
}

// --- the lines of the patch --------------------------------------------------------------

/** A NUL in a patch is refused wherever it stands: it would make the file it lands in binary. */
function refuseNul(text: Buffer): void {
  const nul = text.indexOf(0);
  if (nul === -1) return;
  let line = 1;
  for (let nl = text.indexOf(LF); nl !== -1 && nl < nul; nl = text.indexOf(LF, nl + 1)) line++;
  throw usage(line, 'text holding a NUL byte is refused (a NUL makes a text file binary)', [
    'remove the NUL bytes (see them with: od -c, or cat -A); write a NUL as text as the language does (\\0, \\x00)',
  ]);
}

function splitPatch(bytes: Buffer): PatchLines {
  let count = 0;
  for (let nl = bytes.indexOf(LF); nl !== -1; nl = bytes.indexOf(LF, nl + 1)) count++;
  if (bytes.length > 0 && bytes[bytes.length - 1] !== LF) count++;
  const starts = new Uint32Array(count);
  const ends = new Uint32Array(count);
  for (let i = 0, start = 0; i < count; i++) {
    const nl = bytes.indexOf(LF, start);
    const end = nl === -1 ? bytes.length : nl;
    starts[i] = start;
    // The `\r` of a CRLF patch belongs to the line break: new lines take the file's ending anyway.
    ends[i] = nl !== -1 && end > start && bytes[end - 1] === CR ? end - 1 : end;
    start = end + 1;
  }
  return { bytes, count, starts, ends };
}

/** `<<'EOF'`, `<<EOF`, `<< "EOF"`, `apply_patch <<'EOF'`: the first line of a heredoc copied whole. */
const HEREDOC_OPENER =
  /^(?:(?:apply_patch|applypatch|rt[ \t]+apply)[ \t]*)?<<-?[ \t]*(?:'([\w.-]+)'|"([\w.-]+)"|([\w.-]+))$/;

/**
 * A patch given with the heredoc around it (as apply_patch accepts it): its opening line, and
 * its closing word when that is the last line, are read as empty lines. Neither can be a line of
 * a patch, so nothing else is ever read differently.
 */
function unwrapHeredoc(p: PatchLines): void {
  const first = skipBlank(p, 0);
  if (first >= p.count) return;
  const [s, e] = trimmed(p, first);
  const opener = HEREDOC_OPENER.exec(p.bytes.toString('latin1', s, e));
  if (!opener) return;
  p.starts[first] = p.ends[first]!;
  let last = p.count - 1;
  while (last > first && isBlank(p, last)) last--;
  const [ls, le] = trimmed(p, last);
  const word = opener[1] ?? opener[2] ?? opener[3];
  if (last > first && p.bytes.toString('latin1', ls, le) === word) p.starts[last] = p.ends[last]!;
}

/**
 * A patch whose every line starts with the indentation of its first line, a `***` line, was
 * copied from an indented block: it is read without that indentation (the note says so). Read
 * as written, every row of it would be a context row (a row's tag is its first byte), so it
 * could change no line: parsePatch tries this only when the patch as written changes nothing.
 */
function dropCommonIndentation(p: PatchLines): string | undefined {
  const first = skipBlank(p, 0);
  if (first >= p.count) return undefined;
  const s0 = p.starts[first]!;
  const width = trimmedStart(p, first) - s0;
  if (width === 0) return undefined;
  const kind = markOf(p, first)?.kind;
  if (kind !== 'begin' && kind !== 'update' && kind !== 'add' && kind !== 'delete') return undefined;
  const indentation = p.bytes.subarray(s0, s0 + width);
  for (let i = first + 1; i < p.count; i++) {
    if (!isBlank(p, i) && !p.bytes.subarray(p.starts[i]!, p.ends[i]!).subarray(0, width).equals(indentation))
      return undefined;
  }
  for (let i = first; i < p.count; i++) p.starts[i] = Math.min(p.starts[i]! + width, p.ends[i]!);
  const same = `the same indentation (${describeIndentation(indentation)})`;
  return `every line of the patch starts with ${same}: read without it`;
}

function isAsciiSpace(b: number | undefined): boolean {
  return b === SPACE || b === 0x09 || b === CR || b === LF || b === 0x0b || b === 0x0c;
}

/** Bounds of line i without the ASCII whitespace around it. */
function trimmed(p: PatchLines, i: number): [number, number] {
  const s = trimmedStart(p, i);
  let e = p.ends[i]!;
  while (e > s && isAsciiSpace(p.bytes[e - 1])) e--;
  return [s, e];
}

function trimmedStart(p: PatchLines, i: number): number {
  let s = p.starts[i]!;
  const e = p.ends[i]!;
  while (s < e && isAsciiSpace(p.bytes[s])) s++;
  return s;
}

/** Only whitespace: an empty line, as far as the layout of the patch goes. */
function isBlank(p: PatchLines, i: number): boolean {
  return trimmedStart(p, i) === p.ends[i]!;
}

function skipBlank(p: PatchLines, i: number): number {
  while (i < p.count && isBlank(p, i)) i++;
  return i;
}

/** The first byte of line i, or undefined for an empty line. */
function firstByte(p: PatchLines, i: number): number | undefined {
  return p.starts[i]! < p.ends[i]! ? p.bytes[p.starts[i]!] : undefined;
}

function isTag(b: number | undefined): b is number {
  return b === SPACE || b === MINUS || b === PLUS;
}

/** The `***` line that line i is, with whitespace around it (as apply_patch reads them), or undefined. */
function markOf(p: PatchLines, i: number): Mark | undefined {
  // Most lines are rows: their first byte tells they are no `***` line without trimming.
  const first = trimmedStart(p, i);
  if (first === p.ends[i] || p.bytes[first] !== STAR) return undefined;
  const [s, e] = trimmed(p, i);
  if (e - s < 3) return undefined;
  // latin1 maps byte n to character n: offsets in `t` are offsets in the bytes.
  const t = p.bytes.toString('latin1', s, e);
  if (!t.startsWith('***')) return undefined;
  if (t === '*** Begin Patch') return { kind: 'begin' };
  if (t === '*** End Patch') return { kind: 'end' };
  if (t === '*** End of File') return { kind: 'eof' };
  for (const [prefix, kind] of PATH_MARKS) {
    if (!t.startsWith(prefix) || (t.length > prefix.length && !isAsciiSpace(t.charCodeAt(prefix.length)))) continue;
    let from = s + prefix.length;
    while (from < e && isAsciiSpace(p.bytes[from])) from++;
    const path = p.bytes.toString('utf8', from, e);
    if (path === '') throw usage(i + 1, `${prefix} names no path`, [`write ${prefix} PATH`]);
    return { kind, path };
  }
  return { kind: 'unknown' };
}

/** `@@` or `@@ …` (whitespace around it allowed); other text starting with @@ is refused. */
function isHeader(p: PatchLines, i: number): boolean {
  const [s, e] = trimmed(p, i);
  if (e - s < 2 || p.bytes[s] !== AT || p.bytes[s + 1] !== AT) return false;
  if (e - s === 2 || p.bytes[s + 2] === SPACE) return true;
  throw usage(i + 1, `not a hunk header: ${quoted(p, i)}`, [
    'write @@ edit FROM [TO], @@ insert before|after AT, @@ delete FROM [TO], or @@ / @@ TEXT for a context hunk',
  ]);
}

/** Line i as JSON, cut after 80 bytes. */
function quoted(p: PatchLines, i: number): string {
  const s = p.starts[i]!;
  const e = p.ends[i]!;
  const text = p.bytes.toString('utf8', s, Math.min(e, s + 80));
  return JSON.stringify(e - s > 80 ? `${text}…` : text);
}

/** The first bytes of line i as text, unquoted, to recognise what it is. */
function quotedRaw(p: PatchLines, i: number): string {
  return p.bytes.toString('utf8', p.starts[i]!, Math.min(p.ends[i]!, p.starts[i]! + 16));
}

// --- files -------------------------------------------------------------------------------

function parseUpdate(p: PatchLines, at: number, path: string, out: FileChange[]): number {
  let i = skipBlank(p, at + 1);
  let moveTo: { path: string; line: number } | undefined;
  const mark = i < p.count ? markOf(p, i) : undefined;
  if (mark?.kind === 'move') {
    moveTo = { path: mark.path, line: i + 1 };
    i = skipBlank(p, i + 1);
  }
  const hunks: PatchHunk[] = [];
  // apply_patch lets the first hunk go without its @@ line: rows right after the file line.
  if (i < p.count && isTag(firstByte(p, i)) && rowsEndAt(p, i) === undefined) {
    const body = scanBody(p, i);
    hunks.push(contextHunk(p, i, undefined, body));
    i = skipBlank(p, body.stop);
  }
  for (; i < p.count; i = skipBlank(p, i)) {
    const next = markOf(p, i);
    if (next !== undefined) {
      if (next.kind === 'update' || next.kind === 'add' || next.kind === 'delete' || next.kind === 'end') break;
      throw misplaced(p, i, next);
    }
    if (!isHeader(p, i))
      throw usage(i + 1, `expected a hunk (@@ …) of ${JSON.stringify(path)}, not ${quoted(p, i)}`, [
        CONTEXT_HINT,
        'an LID hunk is @@ edit FROM [TO], @@ insert before|after AT or @@ delete FROM [TO], then + rows',
      ]);
    const [hunk, stop] = parseHunk(p, i);
    hunks.push(hunk);
    i = stop;
  }
  if (hunks.length === 0 && moveTo === undefined) {
    throw usage(at + 1, `*** Update File: ${path} has no hunk`, [
      'add its hunks (@@ edit FROM [TO] then + rows, …), a *** Move to: PATH line, or leave the file out',
    ]);
  }
  out.push({ kind: 'update', line: at + 1, path, moveTo, hunks });
  return i;
}

function parseAdd(p: PatchLines, at: number, path: string, out: FileChange[]): number {
  const body = scanBody(p, at + 1);
  const lines = plusRows(p, body);
  const stop = skipBlank(p, body.stop);
  if (body.eof !== -1) throw misplaced(p, body.eof, { kind: 'eof' });
  if (stop < p.count && markOf(p, stop) === undefined) {
    if (isHeader(p, stop)) throw usage(stop + 1, '*** Add File takes + rows only, not hunks', [PLUS_HINT]);
    throw usage(stop + 1, `a row of new text must start with +: ${quoted(p, stop)}`, [PLUS_HINT]);
  }
  out.push({ kind: 'add', line: at + 1, path, lines });
  return stop;
}

function parseDelete(p: PatchLines, at: number, path: string, out: FileChange[]): number {
  const i = skipBlank(p, at + 1);
  if (i < p.count && markOf(p, i) === undefined) {
    throw usage(i + 1, `*** Delete File takes no rows: ${quoted(p, i)}`, [
      'end the file change here: the next line is a file line (*** Update File: PATH, …) or *** End Patch',
    ]);
  }
  out.push({ kind: 'delete', line: at + 1, path });
  return i;
}

function refuseAfterEnd(p: PatchLines, from: number): void {
  const i = skipBlank(p, from);
  if (i < p.count)
    throw usage(i + 1, `text after *** End Patch: ${quoted(p, i)}`, ['end the patch with *** End Patch, or remove it']);
}

/** The refusal of a line standing where it may not. */
function misplaced(p: PatchLines, i: number, mark: Mark | undefined): RtError {
  switch (mark?.kind) {
    case 'begin':
      return usage(i + 1, '*** Begin Patch may only be the first line', ['remove it']);
    case 'move':
      return usage(i + 1, '*** Move to: comes only right after *** Update File: PATH, before its hunks', [
        'write *** Update File: OLD then *** Move to: NEW',
      ]);
    case 'eof':
      return usage(i + 1, '*** End of File may only end a context hunk (after its rows)', [
        'remove it, or put it after the last row of a context hunk',
      ]);
    case 'unknown':
      return usage(i + 1, `unknown *** line: ${quoted(p, i)}`, [
        `the *** lines are *** Begin Patch, ${FILE_FORMS}, *** Move to: PATH, *** End of File and *** End Patch`,
      ]);
    default:
      if (/^(--- |\+\+\+ |diff --git |Index: )/.test(quotedRaw(p, i))) {
        return usage(
          i + 1,
          `this looks like a unified diff (as git diff prints), not a patch rt reads: ${quoted(p, i)}`,
          [
            'write each file as *** Update File: PATH followed by its @@ hunks (drop the ---/+++ lines), ' +
              'or apply the diff with: git apply',
          ],
        );
      }
      if (isHeader(p, i) || isTag(firstByte(p, i)))
        return usage(i + 1, 'a hunk before any *** Update File', [`name the file first: ${FILE_FORMS}`]);
      return usage(i + 1, `expected a file line, not ${quoted(p, i)}`, [`start with ${FILE_FORMS}`]);
  }
}

// --- hunks -------------------------------------------------------------------------------

/** The lines after a header (or of a first hunk without one): lines starting with a tag, and blank lines. */
interface Body {
  /** The rows, and the blank lines followed by a row or by `*** End of File`. */
  readonly items: readonly number[];
  /** The blank lines after the last row: those tagged ' ' may be rows of a context hunk. */
  readonly trailing: readonly number[];
  /** The first row ` ` or `-` that is not blank (it makes a hunk a context hunk), or -1. */
  readonly firstOld: number;
  /** The first blank line among the rows, or -1. */
  readonly firstBlank: number;
  /** The `*** End of File` line that ended the hunk, or -1. */
  readonly eof: number;
  /** The line after the hunk. */
  readonly stop: number;
}

function scanBody(p: PatchLines, from: number): Body {
  const items: number[] = [];
  const pending: number[] = [];
  let firstOld = -1;
  let firstBlank = -1;
  const takePending = () => {
    if (firstBlank === -1 && pending.length) firstBlank = pending[0]!;
    for (const b of pending) items.push(b);
    pending.length = 0;
  };
  let i = from;
  for (; i < p.count; i++) {
    if (isBlank(p, i)) {
      pending.push(i);
      continue;
    }
    const tag = firstByte(p, i);
    const mark = rowsEndAt(p, i);
    if (mark?.kind === 'eof') {
      takePending();
      return { items, trailing: [], firstOld, firstBlank, eof: i, stop: i + 1 };
    }
    if (mark !== undefined || !isTag(tag)) break;
    takePending();
    if (tag !== PLUS && firstOld === -1) firstOld = i;
    items.push(i);
  }
  return { items, trailing: pending, firstOld, firstBlank, eof: -1, stop: i };
}

/**
 * The `***` line that ends the rows of a hunk at line i, or undefined. A row tag hides
 * `***` text (`+*** not a command`, ` *** Begin Patch` are rows) but not, as apply_patch reads
 * them, a file line or `*** End …` (` *** End Patch` ends the patch).
 */
function rowsEndAt(p: PatchLines, i: number): Mark | undefined {
  const mark = markOf(p, i);
  if (mark === undefined || !isTag(firstByte(p, i))) return mark;
  return mark.kind === 'unknown' || mark.kind === 'begin' ? undefined : mark;
}

function parseHunk(p: PatchLines, at: number): [PatchHunk, number] {
  const [s, e] = trimmed(p, at);
  const words = p.bytes
    .toString('utf8', s + 2, e)
    .trim()
    .split(/[ \t\v\f\r]+/);
  const body = scanBody(p, at + 1);
  const keyword = words[0];
  const isLidWord = keyword === 'edit' || keyword === 'delete' || keyword === 'insert';
  if (!isLidWord || body.firstOld !== -1) {
    refuseStop(p, body, false);
    return [contextHunk(p, at, headerText(p, at), body), body.stop];
  }
  refuseStop(p, body, true);
  if (body.eof !== -1) throw misplaced(p, body.eof, { kind: 'eof' });
  const rows = plusRows(p, body);
  return [lidHunk(at + 1, keyword, words.slice(1), rows), body.stop];
}

/** The line that ended a hunk must start the next hunk or file; anything else is a bad row. */
function refuseStop(p: PatchLines, body: Body, plus: boolean): void {
  const i = body.stop;
  if (body.eof !== -1 || i >= p.count || markOf(p, i) !== undefined || isHeader(p, i)) return;
  if (plus) throw usage(i + 1, `a row of new text must start with +: ${quoted(p, i)}`, [PLUS_HINT]);
  throw usage(i + 1, `a row must start with ' ', '-' or '+': ${quoted(p, i)}`, [CONTEXT_HINT]);
}

function lidHunk(line: number, keyword: 'edit' | 'delete' | 'insert', args: string[], rows: Buffer[]): PatchHunk {
  if (args.some((a) => a.startsWith('@'))) return symbolHunk(line, keyword, args, rows);
  if (keyword === 'insert') {
    const where = args[0];
    if (args.length !== 2 || (where !== 'before' && where !== 'after')) {
      throw usage(line, '@@ insert takes before AT or after AT', [
        'write @@ insert before AT or @@ insert after AT (AT: an LID, a line number, N:LID, or $)',
      ]);
    }
    if (rows.length === 0)
      throw usage(line, '@@ insert has no + rows', [
        'write the new lines as + rows after the @@ line (a bare + is an empty line)',
      ]);
    return { kind: 'insert', line, at: anchorAt(line, args[1]!), after: where === 'after', rows };
  }
  if (args.length < 1 || args.length > 2)
    throw usage(line, `@@ ${keyword} takes FROM [TO]`, [
      `write @@ ${keyword} FROM or @@ ${keyword} FROM TO (anchors: an LID, a line number, N:LID)`,
    ]);
  const from = anchorAt(line, args[0]!);
  const to = args.length === 2 ? anchorAt(line, args[1]!) : from;
  if (keyword === 'delete' && rows.length)
    throw usage(line, '@@ delete takes no rows', [
      'to replace the lines, write @@ edit FROM [TO] with the new lines as + rows',
    ]);
  if (keyword === 'edit' && rows.length === 0)
    throw usage(line, '@@ edit has no + rows', ['to remove lines, use @@ delete FROM [TO]; a bare + is an empty line']);
  return { kind: 'range', op: keyword, line, from, to, rows };
}

/** `@@ edit @NAME`, `@@ delete @NAME`, `@@ insert before|after @NAME`: a definition named, rather than lines. */
function symbolHunk(line: number, keyword: 'edit' | 'delete' | 'insert', args: string[], rows: Buffer[]): PatchHunk {
  const where = args[0];
  const form = keyword === 'insert' ? '@@ insert before @NAME or @@ insert after @NAME' : `@@ ${keyword} @NAME (no TO)`;
  const wanted = keyword === 'insert' ? 2 : 1;
  if (args.length !== wanted || (keyword === 'insert' && where !== 'before' && where !== 'after'))
    throw usage(line, `@@ ${keyword} of a definition takes ${form}`, [
      `write ${form}: the definition's whole range is its lines`,
    ]);
  const text = args[wanted - 1]!;
  const name = SYMBOL.exec(text)?.[1];
  if (name === undefined)
    throw usage(line, `not a definition's name: ${JSON.stringify(text)}`, [
      '@NAME names a definition as rt outline lists it (@total, @Cart.add), with no spaces, colons or slashes',
    ]);
  if (keyword === 'delete' && rows.length)
    throw usage(line, '@@ delete takes no rows', [`to replace the definition, write @@ edit @${name} with + rows`]);
  if (keyword !== 'delete' && rows.length === 0)
    throw usage(line, `@@ ${keyword} has no + rows`, [
      keyword === 'edit'
        ? `to remove the definition, use @@ delete @${name}; a bare + is an empty line`
        : 'write the new lines as + rows after the @@ line (a bare + is an empty line)',
    ]);
  const op = keyword === 'insert' ? (where as 'before' | 'after') : keyword;
  return { kind: 'symbol', op, line, name, rows };
}

function anchorAt(line: number, text: string): Anchor {
  try {
    return parseAnchor(text);
  } catch (error) {
    if (!(error instanceof RtError)) throw error;
    throw new RtError('usage', `patch line ${line}: ${error.message}`, error.hints, {
      ...error.details,
      patchLine: line,
    });
  }
}

/** The rows of an LID hunk or an Add File: `+` rows only, no empty line between them. */
function plusRows(p: PatchLines, body: Body): Buffer[] {
  if (body.firstBlank !== -1 && (body.firstOld === -1 || body.firstBlank < body.firstOld)) {
    throw usage(body.firstBlank + 1, 'an empty line among rows of new text', ['write a bare + for an empty line']);
  }
  if (body.firstOld !== -1)
    throw usage(body.firstOld + 1, `a row of new text must start with +: ${quoted(p, body.firstOld)}`, [PLUS_HINT]);
  return body.items.map((i) => p.bytes.subarray(p.starts[i]! + 1, p.ends[i]!));
}

function contextHunk(p: PatchLines, at: number, header: Buffer | undefined, body: Body): PatchHunk {
  // A blank row tagged ' ' is a row even at the end of the hunk (apply_patch keeps it); other
  // blank lines there only separate hunks.
  let keep = body.trailing.length;
  while (keep > 0 && firstByte(p, body.trailing[keep - 1]!) !== SPACE) keep--;
  const lines = keep ? [...body.items, ...body.trailing.slice(0, keep)] : body.items;
  if (lines.length === 0) throw usage(at + 1, 'a hunk with no rows', [CONTEXT_HINT]);
  const rows = lines.map((i): PatchRow => {
    const tag = firstByte(p, i);
    // An untagged empty line between rows is an empty context row (apply_patch reads it so).
    if (!isTag(tag)) return { tag: ' ', text: NO_TEXT, line: i + 1 };
    return {
      tag: tag === SPACE ? ' ' : tag === PLUS ? '+' : '-',
      text: p.bytes.subarray(p.starts[i]! + 1, p.ends[i]!),
      line: i + 1,
    };
  });
  return { kind: 'context', line: at + 1, header, rows, endOfFile: body.eof !== -1 };
}

/** TEXT of `@@ TEXT` as bytes, or of a unified diff's `@@ -1,3 +1,4 @@ TEXT`; undefined when there is none. */
function headerText(p: PatchLines, at: number): Buffer | undefined {
  const [s] = trimmed(p, at);
  const from = s + 3;
  const end = p.ends[at]!;
  if (from >= end) return undefined;
  const rest = p.bytes.toString('latin1', from, end);
  const unified = /^-\d+(?:,\d+)? \+\d+(?:,\d+)? @@(?: |$)/.exec(rest);
  const text = p.bytes.subarray(unified ? from + unified[0].length : from, end);
  // Whitespace alone says nothing about where the hunk goes.
  for (const b of text) if (!isAsciiSpace(b)) return text;
  return undefined;
}

function usage(line: number, what: string, hints: readonly string[]): RtError {
  return new RtError('usage', `patch line ${line}: ${what}`, hints, { patchLine: line });
}
