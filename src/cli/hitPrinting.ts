// Printing a search's hits with the LIDs `rt open` shows, computed only for the files printed:
// each file is read again with its index, its hits checked against that reading, and what is
// printed worked out first, within the time matching may take (see matchInTime); only then is
// anything printed or saved. A file whose saved index holds the very lines the search found, as
// it found them, is not read again: its hits are printed as found, with the index's LIDs.

import { RtError } from '../model/errors.js';
import { lidToString } from '../model/lid.js';
import { matchesLine, type LineMatcher, type MatchRange } from '../search/match.js';
import { indexedLinesAsRead, openIndexed, retryOnChange, type IndexedFile } from '../store/indexedFile.js';
import { withFolderOf } from '../store/pinnedFolder.js';
import { listedPath, type ResolvedPath } from '../store/root.js';
import { ViewState } from '../store/views.js';
import { jsonLine, type JsonLine } from '../render/json.js';
import { PLAIN } from '../render/style.js';
import { DISPLAY_LIMIT, renderLine } from '../render/window.js';
import type { Context } from './context.js';
import { matchInTime, type Candidate } from './search.js';

/** Hit ranges this few lines apart are read together (the lines between are cut out too). */
const SPAN_GAP = 64;

export interface FileHits {
  readonly file: Candidate;
  /** 0-based hit lines, ascending. */
  readonly lines: number[];
  /** The lines as the search read them (ripgrep or git grep), by 1-based number: see hitLinesAsFound. */
  readonly found?: ReadonlyMap<number, Buffer> | undefined;
}

export interface JsonHit extends JsonLine {
  path: string;
  /** false for a line of context (-C). */
  hit: boolean;
  /** With -o: the matches, as byte ranges of the line's content, with their text. */
  matches?: Array<{ start: number; end: number; text: string; base64?: string }>;
}

/** How hits are printed. */
export interface HitOutput {
  /** Lines of context before and after each hit. */
  readonly before: number;
  readonly after: number;
  /** grep prefixes each line with its path; grep-file does not. */
  readonly prefixPath: boolean;
  /** Which lines match, and where: hits are checked against the reading they are printed from. */
  readonly matcher: LineMatcher;
  /** -o: only the matching parts of hits, each on a line of its own. */
  readonly only: boolean;
  /** The ripgrep command that does the search, for the message when matching takes too long. */
  readonly ripgrep: string;
}

/** A line to print. */
interface Row {
  readonly n: number;
  readonly lid: string;
  readonly content: Buffer;
  readonly hit: boolean;
  /** The matches of a hit that are shown (coloured, cut around, or printed alone with -o). */
  readonly marks: readonly MatchRange[];
}

/** A file's lines to print: groups of adjacent lines (each hit with its context). */
interface FileRows {
  readonly file: Candidate;
  readonly resolved: ResolvedPath;
  /** Saves the file's index if reading it brought that up to date. */
  persist(): void;
  readonly groups: ReadonlyArray<readonly Row[]>;
}

/**
 * Prints hits with their LIDs (and context lines), records them as shown (but for the hits of
 * -o, whose lines are not shown whole), saves indexes. With --json, returns the hits for the
 * command's document (and prints them only when the run prints text too: see Context.text).
 */
export function printHits(ctx: Context, hits: readonly FileHits[], output: HitOutput): JsonHit[] {
  // Matches are looked for when they show: coloured, printed alone, or in a line cut for display.
  const marking = output.only || ctx.style !== PLAIN;
  const read: Array<FileRows | undefined> = [];
  matchInTime(
    hits.length,
    (i) => (read[i] = readFileRows(ctx, hits[i]!, output, marking)),
    (i) => hits[i]!.file,
    output.ripgrep,
    output.matcher,
  );
  const json: JsonHit[] = [];
  const separated = output.before > 0 || output.after > 0;
  let firstGroup = true;
  for (const rows of read) {
    if (!rows) continue;
    const { file, resolved, groups } = rows;
    const view = ViewState.load(ctx.stateOf(resolved), resolved.rel);
    const path = output.prefixPath ? file.display : undefined;
    for (const group of groups) {
      if (separated && !firstGroup) ctx.out(`${ctx.style.separator('--')}\n`);
      firstGroup = false;
      for (const row of group) {
        if (ctx.json)
          json.push({
            path: file.display,
            ...jsonLine(row.n, row.lid, row.content),
            hit: row.hit,
            ...(output.only && row.hit
              ? { matches: row.marks.map(([start, end]) => jsonMatch(row.content, start, end)) }
              : {}),
          });
        if (!ctx.text) continue;
        if (output.only && row.hit)
          for (const [s, e] of row.marks)
            ctx.out(renderLine(row.n, row.lid, row.content.subarray(s, e), '|', ctx.style, path, [[0, e - s]]));
        else ctx.out(renderLine(row.n, row.lid, row.content, row.hit ? '|' : '-', ctx.style, path, row.marks));
      }
      // Shown whole: every line of the group (with -o, its lines of context).
      let run: Row[] = [];
      for (const row of [...group, undefined]) {
        if (row && !(output.only && row.hit)) run.push(row);
        else if (run.length) {
          view.record(
            run[0]!.n,
            run.map((r) => r.lid),
            'search',
          );
          run = [];
        }
      }
    }
    rows.persist();
    view.save();
  }
  return json;
}

function jsonMatch(
  content: Buffer,
  start: number,
  end: number,
): { start: number; end: number; text: string; base64?: string } {
  const { text, base64 } = jsonLine(0, '', content.subarray(start, end));
  return { start, end, text, ...(base64 === undefined ? {} : { base64 }) };
}

/**
 * A file's lines to print, read with its index (undefined when it is gone, unreadable or turned binary since it was
 * searched).
 */
function readFileRows(
  ctx: Context,
  { file, lines: searched, found }: FileHits,
  output: HitOutput,
  marking: boolean,
): FileRows | undefined {
  let resolved: ResolvedPath;
  try {
    // Listed under a folder resolved inside the root (or named, and resolved): not resolved again.
    resolved = listedPath(ctx.root, file.abs, file.display);
  } catch {
    return undefined;
  }
  const isHit = (content: Buffer) => matchesLine(output.matcher, content);
  let read: HitLines;
  try {
    // Without context, the lines found may do; else the file is read within its folder, entered
    // and checked: one swapped for a link out of the root is not followed.
    read =
      (output.before === 0 && output.after === 0 && found
        ? hitLinesAsFound(ctx, resolved, searched, found, isHit)
        : undefined) ??
      retryOnChange(() =>
        withFolderOf(resolved, (pinned) =>
          readHitLines(openIndexed(ctx.stateOf(pinned), pinned), searched, output, isHit),
        ),
      );
  } catch (error) {
    // Gone, unreadable or turned binary since it was searched: as if it had not matched.
    if (error instanceof RtError) return undefined;
    throw error;
  }
  const hitSet = new Set(read.lines);
  const groups = read.ranges.map(([from, to]) => {
    const rows: Row[] = [];
    for (let i = from; i < to; i++) {
      const { lid, content } = read.line(i);
      const hit = hitSet.has(i);
      // A line cut for display needs its first match, to show it.
      const marks = !hit
        ? []
        : marking
          ? output.matcher.matchesIn(content)
          : content.length > DISPLAY_LIMIT
            ? output.matcher.matchesIn(content, 1)
            : [];
      rows.push({ n: i + 1, lid, content, hit, marks });
    }
    return rows;
  });
  return { file, resolved, persist: read.persist, groups };
}

/** A file's hits as one reading of it has them: the ranges to print and each line's LID and content. */
interface HitLines {
  persist(): void;
  /** 0-based hit lines, ascending. */
  readonly lines: readonly number[];
  /** [from, to) ranges of lines to print: each hit with its context, merged when they touch. */
  readonly ranges: ReadonlyArray<readonly [number, number]>;
  line(i: number): { lid: string; content: Buffer };
}

/**
 * Reads the lines to print of the hits `searched` found. The search read the file once, this
 * reads it again (with its index): should a hit not match in this reading, the file changed in
 * between, and the hits are taken from this reading instead (as many as were to be printed),
 * so that a line is never printed as a hit, with its LID, unless it matches.
 */
function readHitLines(
  indexed: IndexedFile,
  searched: readonly number[],
  context: { readonly before: number; readonly after: number },
  isHit: (content: Buffer) => boolean,
): HitLines {
  let lines = searched.filter((n) => n < indexed.total);
  let ranges = rangesAround(lines, context, indexed.total);
  let line = readRanges(indexed, ranges);
  if (lines.length < searched.length || !lines.every((n) => isHit(line(n).content))) {
    const all = readRanges(indexed, [[0, indexed.total]]);
    lines = [];
    for (let n = 0; n < indexed.total && lines.length < searched.length; n++) if (isHit(all(n).content)) lines.push(n);
    ranges = rangesAround(lines, context, indexed.total);
    line = all;
  }
  return { persist: () => indexed.persist(), lines, ranges, line };
}

/**
 * The hits as the search read them (`found`, by 1-based number), with the LIDs of the file's
 * saved index, when that holds each of them as read (see indexedLinesAsRead) and each matches:
 * the file is not read again. Undefined otherwise: readHitLines reads it.
 */
function hitLinesAsFound(
  ctx: Context,
  resolved: ResolvedPath,
  searched: readonly number[],
  found: ReadonlyMap<number, Buffer>,
  isHit: (content: Buffer) => boolean,
): HitLines | undefined {
  const read: Buffer[] = [];
  for (const n of searched) {
    const line = found.get(n + 1);
    if (!line) return undefined;
    read.push(line);
  }
  const known = indexedLinesAsRead(ctx.stateOf(resolved), resolved, searched, read);
  if (!known?.contents.every(isHit)) return undefined;
  const at = new Map(searched.map((n, k) => [n, k]));
  return {
    persist: () => undefined,
    lines: searched,
    ranges: rangesAround(searched, { before: 0, after: 0 }, Infinity),
    line: (i) => {
      const k = at.get(i)!;
      return { lid: lidToString(known.lids[k]!), content: known.contents[k]! };
    },
  };
}

function rangesAround(
  lines: readonly number[],
  context: { readonly before: number; readonly after: number },
  total: number,
): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (const line of lines) {
    const from = Math.max(0, line - context.before);
    const to = Math.min(total, line + context.after + 1);
    const last = ranges[ranges.length - 1];
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else ranges.push([from, to]);
  }
  return ranges;
}

/**
 * The LIDs and contents of the lines of `ranges` (ascending), read for runs of nearby ranges at
 * a time (a file with thousands of hits is not read again for each); looked up by line, in any
 * order within the ranges.
 */
function readRanges(
  indexed: IndexedFile,
  ranges: ReadonlyArray<readonly [number, number]>,
): (i: number) => { lid: string; content: Buffer } {
  const spans: Array<{ from: number; lids: Uint32Array; contents: Buffer[] }> = [];
  for (let r = 0; r < ranges.length; ) {
    const from = ranges[r]![0];
    let end = ranges[r]![1];
    for (r++; r < ranges.length && ranges[r]![0] - end <= SPAN_GAP; r++) end = ranges[r]![1];
    // Contents first: a warm file checks, reading them, that it is the version its LIDs describe.
    const contents = indexed.contents(from, end);
    spans.push({ from, contents, lids: indexed.lids(from, end) });
  }
  return (i) => {
    let lo = 0;
    let hi = spans.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (spans[mid]!.from <= i) lo = mid;
      else hi = mid - 1;
    }
    const span = spans[lo]!;
    return { lid: lidToString(span.lids[i - span.from]!), content: span.contents[i - span.from]! };
  };
}
