// Reporting a search's hits with the LIDs `rt open` shows, computed only for the files reported:
// each file is read again with its index, its hits checked against that reading, and what is
// reported worked out first, within the time matching may take (see matchInTime); only then does
// the sink hear of it (and anything is printed or saved). A file whose saved index holds the very
// lines the search found, as it found them, is not read again: its hits are reported as found,
// with the index's LIDs.

import { enclosingLines, type Enclosure } from '../model/enclosing.js';
import { RtError } from '../model/errors.js';
import { lidToString } from '../model/lid.js';
import { mergeRanges } from '../model/window.js';
import {
  indexedLinesAsRead,
  openIndexed,
  retryOnChange,
  type IndexedFile,
  type TrustedIndex,
} from '../store/indexedFile.js';
import type { CheckedFile } from '../store/indexChecks.js';
import { FolderRun } from '../store/pinnedFolder.js';
import { listedPath, type ResolvedPath, type Root } from '../store/root.js';
import type { StateStore } from '../store/state.js';
import type { Candidate } from './candidates.js';
import { matchesLine, type LineMatcher, type MatchRange } from './match.js';
import { matchInTime } from './matchInTime.js';
import type { FoundLine, ReportedFile, SearchSink } from './sink.js';

/** Hit ranges this few lines apart are read together (the lines between are cut out too). */
const SPAN_GAP = 64;

export interface FileHits {
  readonly file: Candidate;
  /** 0-based hit lines, ascending. */
  readonly lines: number[];
  /** The lines as the search read them (ripgrep or git grep), by 1-based number: see hitLinesAsFound. */
  readonly found?: ReadonlyMap<number, Buffer> | undefined;
}

/** What reporting reads: the root, and each file's saved state. */
export interface ReportWorld {
  readonly root: Root;
  stateOf(file: { readonly stateRoot: string }): StateStore;
  /** The saved index the search found to describe the file `abs` as it was then, if it checked (see IndexChecks). */
  checkedIndex?(abs: string): CheckedFile | undefined;
}

/** How hits are reported. */
export interface ReportOptions {
  /** Lines of context before and after each hit. */
  readonly before: number;
  readonly after: number;
  /** Which lines match, and where: hits are checked against the reading they are reported from. */
  readonly matcher: LineMatcher;
  /** Whether each hit's matches are looked for (to colour them, or print them alone); else `cutOver`'s. */
  readonly marking: boolean;
  /** A hit longer than this (in bytes) is cut for display around its first match, which is looked for. */
  readonly cutOver: number;
  /** The ripgrep command that does the search, for the message when matching takes too long. */
  readonly ripgrep: string;
  /** --function (-p) or, with `body`, --function-context (-W): the definitions enclosing hits are printed too. */
  readonly enclosing?: Enclosing;
}

/** How the definitions enclosing a file's hits are found (the outline's grammars are the caller's: see Layers). */
export interface Enclosing {
  /** The whole definition (-W), not only the line it is listed by (-p). */
  readonly body: boolean;
  /**
   * The definitions of `file`'s outline, given every line of it as read (without line endings);
   * undefined where rt has no grammar for it, or cannot parse it (too big, or not in time).
   */
  definitions(file: ResolvedPath, contents: readonly Buffer[]): readonly Enclosure[] | undefined;
}

/** A file's lines to report: each hit with its context, ascending. */
interface FileRows {
  readonly file: ReportedFile;
  /** Saves the file's index if reading it brought that up to date. */
  persist(): void;
  rows: readonly FoundLine[];
  /** Which of `rows` are hits. */
  hit: readonly boolean[];
  /** How many hits. */
  readonly hits: number;
  /** With --function or --function-context: every line of the file (see addEnclosing). */
  readonly whole?: HitLines['whole'];
}

/**
 * Reports `hits` to `sink` with their LIDs (and context lines): every file is read first, within
 * the time matching may take; then, file by file, begin, the lines, finish (the file's index
 * saved just before, when reading it brought that up to date).
 */
export function reportHits(
  world: ReportWorld,
  hits: readonly FileHits[],
  options: ReportOptions,
  sink: SearchSink,
): void {
  const read: Array<FileRows | undefined> = [];
  // Files are listed folder by folder: each is entered once for all its files read.
  const folders = new FolderRun();
  try {
    matchInTime(
      hits.length,
      (i) => (read[i] = readFileRows(world, hits[i]!, options, folders)),
      (i) => hits[i]!.file,
      options.ripgrep,
      options.matcher,
      // A step stopped and run again starts from the folder rt started in.
      () => folders.forget(),
    );
  } finally {
    folders.done();
  }
  for (const file of read) {
    if (!file) continue;
    // Outside the matching's time: finding definitions is no matching, and parsing takes its own.
    if (file.whole && options.enclosing) addEnclosing(file, file.whole, options.enclosing);
    sink.begin(file.file);
    const { rows, hit } = file;
    for (let i = 0; i < rows.length; i++) {
      if (hit[i]) sink.matched(rows[i]!);
      else sink.context(rows[i]!);
    }
    file.persist();
    sink.finish(file.file, file.hits);
  }
}

/** Reports each file's count of hits (-c, -l: no line is read), `counts[i]` being `files[i]`'s; none for 0. */
export function reportCounts(files: readonly Candidate[], counts: (i: number) => number, sink: SearchSink): void {
  for (const [i, file] of files.entries()) {
    const count = counts(i);
    if (count === 0) continue;
    sink.begin(file);
    sink.finish(file, count);
  }
}

/**
 * A file's lines to print, read with its index (undefined when it is gone, unreadable or turned binary since it was
 * searched).
 */
function readFileRows(
  world: ReportWorld,
  { file, lines: searched, found }: FileHits,
  output: ReportOptions,
  folders: FolderRun,
): FileRows | undefined {
  // The search's own check of the file's index, when it made one (else it is made now).
  const checked = world.checkedIndex?.(file.abs);
  let resolved: ResolvedPath;
  try {
    // Listed under a folder resolved inside the root (or named, and resolved): not resolved again.
    resolved = checked
      ? { abs: checked.file.abs, stateRoot: checked.file.stateRoot, rel: checked.file.rel, display: file.display }
      : listedPath(world.root, file.abs, file.display);
  } catch {
    return undefined;
  }
  const isHit = (content: Buffer) => matchesLine(output.matcher, content);
  let read: HitLines;
  try {
    // Without context, the lines found may do; else the file is read within its folder, entered
    // and checked: one swapped for a link out of the root is not followed.
    // (A file the search found no trusted index of, moments ago, is read: not looked up again.)
    if (output.before === 0 && output.after === 0 && !output.enclosing && found && (!checked || checked.index)) {
      const rows = hitRowsAsFound(world, resolved, searched, found, output, isHit, checked?.index);
      if (rows)
        return { file: reported(file, resolved), persist: noPersist, rows, hit: rows.map(isRow), hits: rows.length };
    }
    read = retryOnChange(() =>
      folders.in(resolved, (pinned) =>
        readHitLines(openIndexed(world.stateOf(pinned), pinned), searched, output, isHit),
      ),
    );
  } catch (error) {
    // Gone, unreadable or turned binary since it was searched: as if it had not matched.
    if (error instanceof RtError) return undefined;
    throw error;
  }
  const rows: FoundLine[] = [];
  const hit: boolean[] = [];
  // The hit lines and the ranges both ascend: the next hit is the only one a line may be.
  const hitLines = read.lines;
  let nextHit = 0;
  for (const [from, to] of read.ranges) {
    for (let i = from; i < to; i++) {
      const { lid, content } = read.line(i);
      while (nextHit < hitLines.length && hitLines[nextHit]! < i) nextHit++;
      const isHitLine = hitLines[nextHit] === i;
      rows.push({ n: i + 1, lid, content, marks: isHitLine ? hitMarks(content, output) : NO_MARKS });
      hit.push(isHitLine);
    }
  }
  const whole = read.whole ? { whole: read.whole } : {};
  return { file: reported(file, resolved), persist: read.persist, rows, hit, hits: read.lines.length, ...whole };
}

/**
 * A file as reported, made field by field: spread into a literal with one more field, each of thousands of files
 * printed took a hidden class of its own in V8 (a heap snapshot of a warm search held 10,000 such).
 */
function reported(file: Candidate, resolved: ResolvedPath): ReportedFile {
  return { abs: file.abs, display: file.display, resolved };
}

/** The matches of a hit that show: coloured, printed alone, or (a line cut for display) its first, to show it. */
function hitMarks(content: Buffer, output: ReportOptions): readonly MatchRange[] {
  return output.marking
    ? output.matcher.matchesIn(content)
    : content.length > output.cutOver
      ? output.matcher.matchesIn(content, 1)
      : NO_MARKS;
}

/** The marks of a line shown without any: one list for all (a search keeps every row until it prints). */
const NO_MARKS: readonly MatchRange[] = [];

const noPersist = (): void => undefined;
const isRow = (): boolean => true;

/**
 * Adds to a file's rows the lines of the definitions that enclose its hits (--function: the line
 * each is listed by; --function-context: all of its lines), those lines marked as such.
 */
function addEnclosing(file: FileRows, whole: NonNullable<HitLines['whole']>, enclosing: Enclosing): void {
  const contents: Buffer[] = [];
  for (let i = 0; i < whole.total; i++) contents.push(whole.line(i).content);
  const hits = file.rows.filter((_, k) => file.hit[k]).map((r) => r.n - 1);
  const { spans, listed } = enclosingLines(
    enclosing.definitions(file.file.resolved!, contents),
    contents,
    hits,
    enclosing.body,
  );
  const byLine = new Map<number, { row: FoundLine; hit: boolean }>();
  file.rows.forEach((row, k) => byLine.set(row.n - 1, { row, hit: file.hit[k]! }));
  for (const [from, to] of mergeRanges(spans))
    for (let i = from; i < to; i++)
      if (!byLine.has(i)) byLine.set(i, { row: { n: i + 1, ...whole.line(i), marks: NO_MARKS }, hit: false });
  for (const [i, { definition: d, by }] of listed) {
    const at = byLine.get(i)!;
    if (at.hit) continue;
    const mark = { by, ...(d.kind === undefined ? {} : { kind: d.kind }), ...(d.name ? { name: d.name } : {}) };
    at.row = { ...at.row, definition: mark };
  }
  const ordered = [...byLine].sort((a, b) => a[0] - b[0]);
  file.rows = ordered.map(([, r]) => r.row);
  file.hit = ordered.map(([, r]) => r.hit);
}

/** A file's hits as one reading of it has them: the ranges to print and each line's LID and content. */
interface HitLines {
  persist(): void;
  /** 0-based hit lines, ascending. */
  readonly lines: readonly number[];
  /** [from, to) ranges of lines to print: each hit with its context, merged when they touch. */
  readonly ranges: ReadonlyArray<readonly [number, number]>;
  line(i: number): { lid: string; content: Buffer };
  /** With --function or --function-context: every line of the file, read with the hits. */
  readonly whole?: { readonly total: number; line(i: number): { lid: string; content: Buffer } };
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
  context: { readonly before: number; readonly after: number; readonly enclosing?: Enclosing },
  isHit: (content: Buffer) => boolean,
): HitLines {
  let lines = searched.filter((n) => n < indexed.total);
  let ranges = rangesAround(lines, context, indexed.total);
  // The definitions around hits are found in the whole file, read once.
  const whole = context.enclosing !== undefined;
  let line = readRanges(indexed, whole ? [[0, indexed.total]] : ranges);
  if (lines.length < searched.length || !lines.every((n) => isHit(line(n).content))) {
    const all = whole ? line : readRanges(indexed, [[0, indexed.total]]);
    lines = [];
    for (let n = 0; n < indexed.total && lines.length < searched.length; n++) if (isHit(all(n).content)) lines.push(n);
    ranges = rangesAround(lines, context, indexed.total);
    line = all;
  }
  // (The file's own save, not the file: a search keeps it until it prints.)
  const persist = indexed.persist;
  return { persist, lines, ranges, line, ...(whole ? { whole: { total: indexed.total, line } } : {}) };
}

/**
 * The hits as the search read them (`found`, by 1-based number), each a row with the LID of the
 * file's saved index, when that holds each of them as read (see indexedLinesAsRead) and each
 * matches: the file is not read again. Undefined otherwise: readHitLines reads it. The rows are
 * made here, one a hit, with no reading's object between (a search prints thousands of files so).
 */
function hitRowsAsFound(
  world: ReportWorld,
  resolved: ResolvedPath,
  searched: readonly number[],
  found: ReadonlyMap<number, Buffer>,
  output: ReportOptions,
  isHit: (content: Buffer) => boolean,
  checked: TrustedIndex | undefined,
): FoundLine[] | undefined {
  const read: Buffer[] = [];
  for (let k = 0; k < searched.length; k++) {
    const n = searched[k]!;
    const line = found.get(n + 1);
    // (Hit lines ascend, each once: a row a hit is a row a line.)
    if (!line || (k > 0 && n <= searched[k - 1]!)) return undefined;
    read.push(line);
  }
  // (Undefined: checked now.)
  const known = indexedLinesAsRead(world.stateOf(resolved), resolved, searched, read, checked);
  if (!known) return undefined;
  const { lids, contents } = known;
  if (!contents.every(isHit)) return undefined;
  const rows: FoundLine[] = [];
  for (let k = 0; k < searched.length; k++) {
    const content = contents[k]!;
    rows.push({ n: searched[k]! + 1, lid: lidToString(lids[k]!), content, marks: hitMarks(content, output) });
  }
  return rows;
}

function rangesAround(
  lines: readonly number[],
  context: { readonly before: number; readonly after: number },
  total: number,
): Array<[number, number]> {
  const around = (line: number) => [Math.max(0, line - context.before), Math.min(total, line + context.after + 1)];
  // Hit lines come ascending, so their ranges do too: merged in one pass (a search makes them for every file printed).
  const out: Array<[number, number]> = [];
  for (const line of lines) {
    const [from, to] = around(line) as [number, number];
    const last = out[out.length - 1];
    if (last && from < last[0]) return mergeRanges(lines.map((n) => around(n) as [number, number]));
    if (from >= to) continue;
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
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
  const spans: Array<{ from: number; lids: Uint32Array; contents: Array<Buffer | undefined> }> = [];
  for (let r = 0; r < ranges.length; ) {
    const first = r;
    const from = ranges[r]![0];
    let end = ranges[r]![1];
    for (r++; r < ranges.length && ranges[r]![0] - end <= SPAN_GAP; r++) end = ranges[r]![1];
    // Contents first: a warm file checks, reading them, that it is the version its LIDs describe.
    const contents: Array<Buffer | undefined> = indexed.contents(from, end);
    // The lines between the ranges are let go: a search keeps every file's rows until all are read.
    for (let k = first + 1; k < r; k++)
      for (let i = ranges[k - 1]![1]; i < ranges[k]![0]; i++) contents[i - from] = undefined;
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

/** The hits a cap of `max` lets through, file by file in order, and how many it leaves out, in how many more files. */
export interface CappedHits {
  readonly shown: FileHits[];
  readonly shownHits: number;
  readonly moreHits: number;
  readonly moreFiles: number;
}

/**
 * The first `max` hits of `files` (`hits[i]` being `files[i]`'s), with the lines `linesRead` says
 * the search read for them (see hitLinesAsFound).
 */
export function capHits(
  files: readonly Candidate[],
  hits: readonly number[][],
  linesRead: (abs: string) => ReadonlyMap<number, Buffer> | undefined,
  max: number,
): CappedHits {
  const shown: FileHits[] = [];
  let shownHits = 0;
  let moreHits = 0;
  let moreFiles = 0;
  for (const [i, file] of files.entries()) {
    const lines = hits[i]!;
    if (lines.length === 0) continue;
    const room = max - shownHits;
    if (room > 0) {
      shown.push({ file, lines: lines.slice(0, room), found: linesRead(file.abs) });
      shownHits += Math.min(room, lines.length);
      moreHits += Math.max(0, lines.length - room);
    } else {
      moreHits += lines.length;
      moreFiles++;
    }
  }
  return { shown, shownHits, moreHits, moreFiles };
}
