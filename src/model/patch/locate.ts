// Where an apply_patch context hunk goes in a file. Its old side (context and removed
// rows) must match one place only, after the previous hunk and after its `@@ TEXT` line: first
// exactly, then ignoring trailing whitespace, then ignoring surrounding whitespace, last with
// Unicode dashes, quotes and spaces read as their ASCII forms (as apply_patch does). A place
// matched at a strict level is never traded for a looser one, so several exact matches are
// refused even when one of them would be the only loose one. A hunk found only by ignoring
// indentation has its new rows moved by the indentation the file differs by. Pure: the file is
// a view of lines.

import { isUtf8 } from 'node:buffer';
import type { LineEdit } from '../editSet.js';
import type { PatchHunk } from './types.js';

/** 0-based file lines; `content` is a line without its line ending. */
export interface LinesView {
  readonly count: number;
  content(i: number): Buffer;
}

/** 0 exact, 1 trailing whitespace aside, 2 surrounding whitespace aside, 3 Unicode punctuation read as ASCII too. */
export type Level = 0 | 1 | 2 | 3;
export const SURROUNDING: Level = 2;
export const PUNCTUATION: Level = 3;

export type Location = {
  readonly found: true;
  readonly start: number;
  readonly oldCount: number;
  readonly level: Level;
};

export type Miss = {
  readonly found: false;
  readonly reason: 'none' | 'many' | 'header';
  /** 0-based starts, at most 3, nearest first. */
  readonly candidates: readonly number[];
  readonly level: Level;
};

export type ContextHunk = Extract<PatchHunk, { kind: 'context' }>;

const WHITESPACE_LEVELS: readonly Level[] = [0, 1, 2];
const NO_MATCH = 4;
const MAX_CANDIDATES = 3;

/**
 * Where `hunk` applies in `file`, searching from line `from` (the end of the previous context
 * hunk of the file), or why it does not: no match, several, or no line reading its header.
 */
export function locateHunk(file: LinesView, hunk: ContextHunk, from: number): Location | Miss {
  const old = hunk.rows.filter((r) => r.tag !== '+').map((r) => r.text);
  const first = search(file, old, hunk, from);
  if (first.found || first.reason === 'many') return first;
  // apply_patch's retry: trailing empty context rows often stand for the file's last newline.
  let kept = old.length;
  for (let r = hunk.rows.length - 1; r >= 0 && hunk.rows[r]!.tag === ' ' && hunk.rows[r]!.text.length === 0; r--)
    kept--;
  if (kept === old.length || kept === 0) return first;
  const retry = search(file, old.slice(0, kept), hunk, from);
  return retry.found || retry.reason === 'many' ? retry : first;
}

/**
 * The edits a located hunk makes, against the original file: each run of `-`/`+` rows between
 * context rows is one splice; context rows are lines left alone (they keep their LIDs).
 */
export function hunkSplices(hunk: ContextHunk, at: Location, shift?: IndentShift): LineEdit[] {
  const out: LineEdit[] = [];
  let run: { start: number; deleteCount: number; insert: Buffer[] } | undefined;
  let line = at.start;
  let oldSeen = 0;
  for (const row of hunk.rows) {
    if (row.tag === '+') {
      run ??= { start: line, deleteCount: 0, insert: [] };
      run.insert.push(shift ? shiftedRow(row.text, shift) : row.text);
      continue;
    }
    // Rows past oldCount are the trailing empty context rows the retry left out.
    if (oldSeen === at.oldCount) continue;
    oldSeen++;
    line++;
    if (row.tag === '-') {
      run ??= { start: line - 1, deleteCount: 0, insert: [] };
      run.deleteCount++;
    } else if (run) {
      out.push(run);
      run = undefined;
    }
  }
  if (run) out.push(run);
  return out;
}

/**
 * How the file's indentation differs from the rows a hunk quoted, when the hunk matched only
 * ignoring surrounding whitespace: each quoted row's leading `remove` stands for the file's
 * `add`. Taken from every old row with text (a blank row says nothing of indentation). Where
 * the rows differ unevenly: a file indented with tabs where spaces were quoted, a tab for as
 * many spaces on every row, has the + rows' spaces written as tabs; otherwise the difference
 * most rows share wins (none on a tie). Undefined when the hunk matched at a stricter level, the
 * rows differ by nothing, or they disagree with no difference ahead.
 */
export function indentShift(file: LinesView, hunk: ContextHunk, at: Location): IndentShift | undefined {
  if (at.level < SURROUNDING) return undefined;
  const pairs: Array<{ quoted: Buffer; actual: Buffer }> = [];
  let line = at.start;
  for (const row of hunk.rows) {
    if (row.tag === '+') continue;
    if (line === at.start + at.oldCount) break;
    const quoted = indentationOf(row.text);
    const actual = indentationOf(file.content(line++));
    if (quoted !== undefined && actual !== undefined) pairs.push({ quoted, actual });
  }
  const votes = new Map<string, { remove: Buffer; add: Buffer; count: number }>();
  for (const { quoted, actual } of pairs) {
    // What the two indentations end with alike is left alone; what comes before it differs.
    let same = 0;
    while (same < Math.min(quoted.length, actual.length) && quoted.at(-1 - same) === actual.at(-1 - same)) same++;
    const remove = quoted.subarray(0, quoted.length - same);
    const add = actual.subarray(0, actual.length - same);
    const key = `${remove.toString('latin1')}\n${add.toString('latin1')}`;
    const vote = votes.get(key);
    if (vote) vote.count++;
    else votes.set(key, { remove, add, count: 1 });
  }
  let best: { remove: Buffer; add: Buffer; count: number } | undefined;
  for (const vote of votes.values()) if (!best || vote.count > best.count) best = vote;
  const rows = pairs.length;
  // Spaces quoted where the file has tabs are rewritten column by column, even when every row
  // differs alike: a + row deeper than the quoted ones needs tabs for its extra depth too.
  const tabs = best ? tabsForSpaces(pairs) : undefined;
  if (tabs) return { remove: NONE, add: NONE, tabs, agreeing: rows, rows };
  if (!best || (best.remove.length === 0 && best.add.length === 0)) return undefined;
  // Rows that disagree with no difference ahead of the others say nothing sure: no shift.
  if ([...votes.values()].filter((vote) => vote.count === best.count).length > 1) return undefined;
  return { remove: best.remove, add: best.add, agreeing: best.count, rows };
}

export interface IndentShift {
  /** Leading bytes of a quoted row the file does not have (as much of it as a row starts with is taken off). */
  readonly remove: Buffer;
  /** What the file has there instead. */
  readonly add: Buffer;
  /** Spaces quoted where the file has tabs, `width` a tab, the file `more` tabs deeper besides (remove, add unused). */
  readonly tabs?: { readonly width: number; readonly more: number };
  /** The quoted rows with text that differ from the file so, of `rows`. */
  readonly agreeing: number;
  readonly rows: number;
}

const NONE = Buffer.alloc(0);
/** The tab widths tried, most usual first. */
const TAB_WIDTHS = [4, 8, 2];

/** Spaces quoted on every row where the file has tabs only: a tab for as many spaces each time, as many tabs more. */
function tabsForSpaces(pairs: ReadonlyArray<{ quoted: Buffer; actual: Buffer }>): IndentShift['tabs'] {
  if (!pairs.every((p) => p.quoted.every((b) => b === 0x20) && p.actual.every((b) => b === 0x09))) return undefined;
  if (!pairs.some((p) => p.actual.length > 0)) return undefined; // no tab in the file: a plain shift
  for (const width of TAB_WIDTHS) {
    const more = pairs[0]!.actual.length - pairs[0]!.quoted.length / width;
    const tabsFor = (quoted: Buffer) => (quoted.length % width === 0 ? quoted.length / width : NaN);
    if (pairs.every((p) => p.actual.length - tabsFor(p.quoted) === more)) return { width, more };
  }
  return undefined;
}

/** A `+` row moved by `shift`; a blank row, or one indented otherwise than the quoted rows, stays as it is. */
export function shiftedRow(text: Buffer, shift: IndentShift): Buffer {
  const indentation = indentationOf(text);
  if (indentation === undefined) return text;
  if (shift.tabs) {
    const { width, more } = shift.tabs;
    const columns = indentation.reduce((n, b) => n + (b === 0x09 ? width : 1), 0);
    const tabs = Math.max(0, Math.floor(columns / width) + more);
    const indented = `${'\t'.repeat(tabs)}${' '.repeat(columns % width)}`;
    return Buffer.concat([Buffer.from(indented), text.subarray(indentation.length)]);
  }
  let kept = 0;
  while (kept < shift.remove.length && kept < text.length && text[kept] === shift.remove[kept]) kept++;
  // Indented otherwise than the quoted rows (a tab where they have spaces): already the file's, as given.
  if (kept === 0 && shift.remove.length > 0 && indentation.length > 0) return text;
  return Buffer.concat([shift.add, text.subarray(kept)]);
}

/** The leading spaces and tabs of a line, or undefined when it holds nothing else (or is empty). */
function indentationOf(text: Buffer): Buffer | undefined {
  let n = 0;
  while (n < text.length && (text[n] === 0x20 || text[n] === 0x09)) n++;
  return n >= trimEnd(text) ? undefined : text.subarray(0, n);
}

/** Indentation in words: `4 spaces`, `1 tab`, or its bytes quoted. */
export function describeIndentation(bytes: Buffer): string {
  const text = bytes.toString('latin1');
  if (/^ +$/.test(text)) return `${text.length} space${text.length === 1 ? '' : 's'}`;
  if (/^\t+$/.test(text)) return `${text.length} tab${text.length === 1 ? '' : 's'}`;
  return JSON.stringify(text);
}

// --- the search ------------------------------------------------------------------------

function search(file: LinesView, old: readonly Buffer[], hunk: ContextHunk, from: number): Location | Miss {
  const k = old.length;
  // A hunk of + rows alone appends at the end of the file, as apply_patch reads one.
  if (k === 0) return { found: true, start: file.count, oldCount: 0, level: 0 };
  const rows = old.map(pattern);
  const header = hunk.header && pattern(hunk.header);
  const last = file.count - k;
  const lo = hunk.endOfFile ? last : from;
  // The last level is looked at in a second pass, only when the others find nothing: it costs
  // more per line, and most hunks are found before it.
  let headers: Hit[] = [];
  for (const levels of [WHITESPACE_LEVELS, [PUNCTUATION]]) {
    const scanned = scan(file, rows, header, from, lo, last, levels[0] === PUNCTUATION);
    headers = scanned.headers;
    for (const level of levels) {
      const here = scanned.matches.filter((m) => m.level <= level).map((m) => m.at);
      const found = header
        ? firstAfterEach(
            headers.filter((h) => h.level <= level).map((h) => h.at),
            here,
          )
        : here;
      if (found.length === 1) return { found: true, start: found[0]!, oldCount: k, level };
      if (found.length > 1) return { found: false, reason: 'many', candidates: found.slice(0, MAX_CANDIDATES), level };
    }
  }
  const reason = header && headers.length === 0 ? 'header' : 'none';
  return { found: false, reason, candidates: nearest(file, rows, from), level: PUNCTUATION };
}

interface Hit {
  readonly at: number;
  readonly level: number;
}

/**
 * One pass over the lines from `from`: the starts in [lo, last] where every old row matches
 * (with the loosest level one needed), and the lines reading the header. The first row is
 * tried first, so most starts cost one comparison of lengths.
 */
function scan(
  file: LinesView,
  rows: readonly Pattern[],
  header: Pattern | undefined,
  from: number,
  lo: number,
  last: number,
  punctuation: boolean,
) {
  const matches: Hit[] = [];
  const headers: Hit[] = [];
  const begin = header ? from : Math.max(from, lo);
  const end = header ? file.count : last + 1;
  for (let i = begin; i < end; i++) {
    const content = file.content(i);
    if (header) {
      const level = matchLevel(content, header, punctuation);
      if (level < NO_MATCH) headers.push({ at: i, level });
    }
    if (i < lo || i > last || i < from) continue;
    let level = matchLevel(content, rows[0]!, punctuation);
    for (let j = 1; j < rows.length && level < NO_MATCH; j++) {
      level = Math.max(level, matchLevel(file.content(i + j), rows[j]!, punctuation));
    }
    if (level < NO_MATCH) matches.push({ at: i, level });
  }
  return { matches, headers };
}

/**
 * For each header line, the first match at or after it (a hunk may quote the header line as its first context row);
 * each start once, in order (both lists ascending).
 */
function firstAfterEach(headerLines: readonly number[], starts: readonly number[]): number[] {
  const out: number[] = [];
  let q = 0;
  for (const t of headerLines) {
    while (q < starts.length && starts[q]! < t) q++;
    if (q === starts.length) break;
    if (out[out.length - 1] !== starts[q]) out.push(starts[q]!);
  }
  return out;
}

/**
 * For a hunk found nowhere: the starts from `from` where most old rows match (ignoring
 * surrounding whitespace), at least one; ties go to the nearest. Nearest first.
 */
function nearest(file: LinesView, rows: readonly Pattern[], from: number): number[] {
  const last = file.count - rows.length;
  if (last < from) return [];
  // Rows by their trimmed length: most lines are passed over by a length alone.
  const byLength = new Map<number, number[]>();
  rows.forEach((r, j) => {
    const n = r.end1 - r.start2;
    byLength.set(n, [...(byLength.get(n) ?? []), j]);
  });
  const score = new Int32Array(last - from + 1);
  for (let i = from; i < file.count; i++) {
    const content = file.content(i);
    const end1 = trimEnd(content);
    const js = byLength.get(end1 - trimStart(content, end1));
    if (!js) continue;
    for (const j of js) {
      const p = i - j;
      if (p >= from && p <= last && matchLevel(content, rows[j]!, false) < NO_MATCH) score[p - from]!++;
    }
  }
  const best: number[] = [];
  for (let p = 0; p < score.length; p++) {
    if (score[p]! === 0) continue;
    // Strictly better only: on a tie the nearer start, seen first, stays.
    const at = best.findIndex((b) => score[p]! > score[b]!);
    if (at !== -1) best.splice(at, 0, p);
    else best.push(p);
    if (best.length > MAX_CANDIDATES) best.pop();
  }
  return best.sort((a, b) => a - b).map((p) => p + from);
}

// --- matching one line -----------------------------------------------------------------

/** A text to match, with where it ends without trailing whitespace and starts without leading. */
interface Pattern {
  readonly bytes: Buffer;
  readonly end1: number;
  readonly start2: number;
  /** Its text as the last level reads it; undefined when it is not UTF-8. */
  readonly plain: string | undefined;
  /** `plain` as UTF-8. */
  readonly plainBytes: Buffer | undefined;
}

function pattern(bytes: Buffer): Pattern {
  const end1 = trimEnd(bytes);
  const plain = isUtf8(bytes) ? asciiPunctuation(bytes.toString('utf8')) : undefined;
  const plainBytes = plain === undefined ? undefined : Buffer.from(plain);
  return { bytes, end1, start2: trimStart(bytes, end1), plain, plainBytes };
}

/** The strictest level at which `line` matches `pat`, or NO_MATCH. */
function matchLevel(line: Buffer, pat: Pattern, punctuation: boolean): number {
  const end1 = trimEnd(line);
  const start2 = trimStart(line, end1);
  const sameLength = end1 - start2 === pat.end1 - pat.start2;
  if (!sameLength || (end1 > start2 && line.compare(pat.bytes, pat.start2, pat.end1, start2, end1) !== 0)) {
    return punctuation ? punctuationLevel(line, start2, end1, pat) : NO_MATCH;
  }
  if (start2 !== pat.start2 || (start2 > 0 && line.compare(pat.bytes, 0, start2, 0, start2) !== 0)) return 2;
  if (line.length !== pat.bytes.length) return 1;
  return end1 === line.length || line.compare(pat.bytes, end1, line.length, end1, line.length) === 0 ? 0 : 1;
}

/**
 * The last level: the texts are equal once Unicode dashes, quotes and spaces are read as ASCII
 * and whitespace around them is trimmed. That reading keeps ASCII bytes and only shortens a
 * text, so most lines are passed over by their length, or by an ASCII byte that differs before
 * the first byte beyond ASCII from either end, without being decoded.
 */
function punctuationLevel(line: Buffer, start2: number, end1: number, pat: Pattern): number {
  const plain = pat.plainBytes;
  if (plain === undefined || end1 - start2 < plain.length) return NO_MATCH;
  for (let k = 0; k < plain.length; k++) {
    const a = line[start2 + k]!;
    const b = plain[k]!;
    if (a >= 0x80 || b >= 0x80) break;
    if (a !== b) return NO_MATCH;
  }
  for (let k = 1; k <= plain.length; k++) {
    const a = line[end1 - k]!;
    const b = plain[plain.length - k]!;
    if (a >= 0x80 || b >= 0x80) break;
    if (a !== b) return NO_MATCH;
  }
  return isUtf8(line) && asciiPunctuation(line.toString('utf8')) === pat.plain ? PUNCTUATION : NO_MATCH;
}

/** Dashes, quotes and spaces beyond ASCII, each with its ASCII form (as apply_patch reads them). */
const PUNCTUATION_FORMS: ReadonlyArray<[RegExp, string]> = [
  [/[\u2010-\u2015\u2212]/g, '-'],
  [/[\u2018-\u201b]/g, "'"],
  [/[\u201c-\u201f]/g, '"'],
  [/[\u00a0\u2002-\u200a\u202f\u205f\u3000]/g, ' '],
];

/** `text` trimmed (Unicode whitespace too) with its Unicode dashes, quotes and spaces as ASCII. */
function asciiPunctuation(text: string): string {
  let out = text.trim();
  for (const [from, to] of PUNCTUATION_FORMS) out = out.replace(from, to);
  return out;
}

/** ASCII whitespace as the levels ignore it: space, tab, \r, \v, \f. */
function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0b || b === 0x0c;
}

function trimEnd(bytes: Buffer): number {
  let e = bytes.length;
  while (e > 0 && isSpace(bytes[e - 1]!)) e--;
  return e;
}

function trimStart(bytes: Buffer, end: number): number {
  let s = 0;
  while (s < end && isSpace(bytes[s]!)) s++;
  return s;
}
