// Where an apply_patch context hunk goes in a file (SPEC §7). Its old side (context and removed
// rows) must match one place only, after the previous hunk and after its `@@ TEXT` line: first
// exactly, then ignoring trailing whitespace, then ignoring surrounding whitespace. A place
// matched at a strict level is never traded for a looser one, so several exact matches are
// refused even when one of them would be the only loose one. Pure: the file is a view of lines.

import type { Hunk } from './types.js';

/** 0-based file lines; `content` is a line without its line ending. */
export interface LinesView {
  readonly count: number;
  content(i: number): Buffer;
}

export type Level = 0 | 1 | 2;

export type Location = { readonly found: true; readonly start: number; readonly oldCount: number; readonly level: Level };

export type Miss = {
  readonly found: false;
  readonly reason: 'none' | 'many' | 'header';
  /** 0-based starts, at most 3, nearest first. */
  readonly candidates: readonly number[];
  readonly level: Level;
};

export type ContextHunk = Extract<Hunk, { kind: 'context' }>;

const LEVELS: readonly Level[] = [0, 1, 2];
const NO_MATCH = 3;
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
  for (let r = hunk.rows.length - 1; r >= 0 && hunk.rows[r]!.tag === ' ' && hunk.rows[r]!.text.length === 0; r--) kept--;
  if (kept === old.length || kept === 0) return first;
  const retry = search(file, old.slice(0, kept), hunk, from);
  return retry.found || retry.reason === 'many' ? retry : first;
}

/**
 * The edits a located hunk makes, against the original file: each run of `-`/`+` rows between
 * context rows is one splice; context rows are lines left alone (they keep their LIDs).
 */
export function hunkSplices(hunk: ContextHunk, at: Location): Array<{ start: number; deleteCount: number; insert: Buffer[] }> {
  const out: Array<{ start: number; deleteCount: number; insert: Buffer[] }> = [];
  let run: { start: number; deleteCount: number; insert: Buffer[] } | undefined;
  let line = at.start;
  let oldSeen = 0;
  for (const row of hunk.rows) {
    if (row.tag === '+') {
      run ??= { start: line, deleteCount: 0, insert: [] };
      run.insert.push(row.text);
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

// --- the search ------------------------------------------------------------------------

function search(file: LinesView, old: readonly Buffer[], hunk: ContextHunk, from: number): Location | Miss {
  const k = old.length;
  // A hunk of + rows alone appends at the end of the file (SPEC §7).
  if (k === 0) return { found: true, start: file.count, oldCount: 0, level: 0 };
  const rows = old.map(pattern);
  const header = hunk.header && pattern(hunk.header);
  const last = file.count - k;
  const lo = hunk.endOfFile ? last : from;
  const { matches, headers } = scan(file, rows, header, from, lo, last);
  for (const level of LEVELS) {
    const here = matches.filter((m) => m.level <= level).map((m) => m.at);
    const found = header ? firstAfterEach(headers.filter((h) => h.level <= level).map((h) => h.at), here) : here;
    if (found.length === 1) return { found: true, start: found[0]!, oldCount: k, level };
    if (found.length > 1) return { found: false, reason: 'many', candidates: found.slice(0, MAX_CANDIDATES), level };
  }
  const reason = header && headers.length === 0 ? 'header' : 'none';
  return { found: false, reason, candidates: nearest(file, rows, from), level: 2 };
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
function scan(file: LinesView, rows: readonly Pattern[], header: Pattern | undefined, from: number, lo: number, last: number) {
  const matches: Hit[] = [];
  const headers: Hit[] = [];
  const begin = header ? from : Math.max(from, lo);
  const end = header ? file.count : last + 1;
  for (let i = begin; i < end; i++) {
    const content = file.content(i);
    if (header) {
      const level = matchLevel(content, header);
      if (level < NO_MATCH) headers.push({ at: i, level });
    }
    if (i < lo || i > last || i < from) continue;
    let level = matchLevel(content, rows[0]!);
    for (let j = 1; j < rows.length && level < NO_MATCH; j++) level = Math.max(level, matchLevel(file.content(i + j), rows[j]!));
    if (level < NO_MATCH) matches.push({ at: i, level });
  }
  return { matches, headers };
}

/** For each header line, the first match at or after it (a hunk may quote the header line as its first context row); each start once, in order (both lists ascending). */
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
      if (p >= from && p <= last && matchLevel(content, rows[j]!) < NO_MATCH) score[p - from]!++;
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
}

function pattern(bytes: Buffer): Pattern {
  const end1 = trimEnd(bytes);
  return { bytes, end1, start2: trimStart(bytes, end1) };
}

/** The strictest level at which `line` matches `pat` (0 exact, 1 trailing whitespace aside, 2 surrounding), or NO_MATCH. */
function matchLevel(line: Buffer, pat: Pattern): number {
  const end1 = trimEnd(line);
  const start2 = trimStart(line, end1);
  if (end1 - start2 !== pat.end1 - pat.start2) return NO_MATCH;
  if (end1 > start2 && line.compare(pat.bytes, pat.start2, pat.end1, start2, end1) !== 0) return NO_MATCH;
  if (start2 !== pat.start2 || (start2 > 0 && line.compare(pat.bytes, 0, start2, 0, start2) !== 0)) return 2;
  if (line.length !== pat.bytes.length) return 1;
  return end1 === line.length || line.compare(pat.bytes, end1, line.length, end1, line.length) === 0 ? 0 : 1;
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
