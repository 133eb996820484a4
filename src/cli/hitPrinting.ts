// Printing a search's hits with the LIDs `rt open` shows, computed only for the files printed:
// each file is read again with its index, and its hits checked against that reading.

import { RtError } from '../core/errors.js';
import { lidToString } from '../core/lid.js';
import { openIndexed, retryOnChange, type IndexedFile } from '../io/indexedFile.js';
import { withFolderOf } from '../io/pinnedFolder.js';
import { listedPath, type ResolvedPath } from '../io/root.js';
import { ViewState } from '../io/views.js';
import { jsonLine, type JsonLine } from '../render/json.js';
import { renderLine } from '../render/window.js';
import type { Context } from './context.js';
import type { Candidate } from './search.js';

/** Hit ranges this few lines apart are read together (the lines between are cut out too). */
const SPAN_GAP = 64;

export interface FileHits {
  readonly file: Candidate;
  /** 0-based hit lines, ascending. */
  readonly lines: number[];
}

export interface JsonHit extends JsonLine {
  path: string;
  /** false for a line of context (-C). */
  hit: boolean;
}

/**
 * Prints hits with their LIDs (and context lines), records them as shown, saves indexes. With
 * --json, prints nothing and returns the hits for the command's document. `isHit` tells whether
 * a line's content matches: hits are checked against the reading they are printed from.
 */
export function printHits(ctx: Context, hits: readonly FileHits[], context: number, prefixPath: boolean, isHit: (content: Buffer) => boolean): JsonHit[] {
  const json: JsonHit[] = [];
  const groupsSeparated = context > 0;
  let firstGroup = true;
  for (const { file, lines: searched } of hits) {
    let resolved: ResolvedPath;
    try {
      // Listed under a folder resolved inside the root (or named, and resolved): not resolved again.
      resolved = listedPath(ctx.root, file.abs, file.display);
    } catch {
      continue;
    }
    let read: HitLines;
    try {
      // Read within the file's folder, entered and checked: one swapped for a link out of the root is not followed.
      read = retryOnChange(() => withFolderOf(resolved, (pinned) => readHitLines(openIndexed(ctx.state, pinned), searched, context, isHit)));
    } catch (error) {
      // Gone, unreadable or turned binary since it was searched: as if it had not matched.
      if (error instanceof RtError) continue;
      throw error;
    }
    const { indexed, lines, ranges, line } = read;
    const view = ViewState.load(ctx.state, resolved.rel);
    const hitSet = new Set(lines);
    for (const [from, to] of ranges) {
      if (groupsSeparated && !firstGroup && !ctx.json) ctx.out(`${ctx.style.separator('--')}\n`);
      firstGroup = false;
      const lids: string[] = [];
      for (let i = from; i < to; i++) {
        const { lid, content } = line(i);
        lids.push(lid);
        if (ctx.json) json.push({ path: file.display, ...jsonLine(i + 1, lid, content), hit: hitSet.has(i) });
        else ctx.out(renderLine(i + 1, lid, content, hitSet.has(i) ? '|' : '-', ctx.style, prefixPath ? file.display : undefined));
      }
      view.record(from + 1, lids, 'search');
    }
    indexed.persist();
    view.save(ctx.state);
  }
  return json;
}

/** A file's hits as one reading of it has them: the ranges to print and each line's LID and content. */
interface HitLines {
  readonly indexed: IndexedFile;
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
function readHitLines(indexed: IndexedFile, searched: readonly number[], context: number, isHit: (content: Buffer) => boolean): HitLines {
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
  return { indexed, lines, ranges, line };
}

function rangesAround(lines: readonly number[], context: number, total: number): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (const line of lines) {
    const from = Math.max(0, line - context);
    const to = Math.min(total, line + context + 1);
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
function readRanges(indexed: IndexedFile, ranges: ReadonlyArray<readonly [number, number]>): (i: number) => { lid: string; content: Buffer } {
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
