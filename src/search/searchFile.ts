// A search of one file (rt grep-file): refused when it cannot be searched (binary, unreadable),
// matched within the time matching may take. A big file is searched without rt splitting it into
// lines or hashing them: by ripgrep when it is on PATH (rt's matcher then confirms each line it
// found), else, for a pattern holding a literal, by reading the bytes a piece at a time
// (literalScan.ts); the hits printed take their LIDs from the saved index (see report.ts).

import { quotePath, RtError } from '../model/errors.js';
import { withFolderOf } from '../store/pinnedFolder.js';
import type { ResolvedPath } from '../store/root.js';
import { prefilterSearch } from './engine.js';
import { matchingLinesRead, pcreMatcher } from './engines.js';
import { MAX_LINES_READ } from './foundLines.js';
import { literalLines } from './literalScan.js';
import { LINEAR_LITERAL, type LineMatcher } from './match.js';
import { matchInTime } from './matchInTime.js';
import { ripgrepCommand, type SearchQuery } from './query.js';
import { MAX_LINE_PRINTED, ripgrepFileCount, ripgrepFileLines } from './ripgrep.js';
import { bomLengthOf, countMatches, readSearchable, searchableKind, sizeOf, unsearchableText } from './searchable.js';
import type { SearchWorld } from './searchPaths.js';

/**
 * Files this big or bigger are searched without being split into lines (see the top); a smaller
 * one is read whole and matched, in less time than ripgrep takes to start.
 */
const BIG_FILE = 1 << 20;

/** What a search of one file found. */
export interface FileOutcome {
  /** 0-based hit lines, ascending: the first `max` asked for at least, all of them when fewer (with -c, maybe none). */
  readonly lines: number[];
  /** How many lines hit. */
  readonly total: number;
  /** With -c -o: how many matches they hold. */
  readonly matches: number;
  /** The matcher hits are checked against when printed (for -P, ripgrep's answer). */
  readonly matcher: LineMatcher;
  /** Hit lines as the search read them, by 1-based number, when it kept them (see hitLinesAsFound). */
  readonly found?: ReadonlyMap<number, Buffer> | undefined;
}

/**
 * Searches `file` (a regular file, resolved inside the root) with `compiled` (rt's matcher;
 * undefined for -P) for its first `max` hits and their count. `ripgrep` is the command that makes
 * the search.
 */
export async function searchFile(
  world: SearchWorld,
  query: SearchQuery,
  compiled: LineMatcher | undefined,
  file: ResolvedPath,
  ripgrep: string,
  max: number,
): Promise<FileOutcome> {
  // Read within the file's folder: one swapped for a link out of the root after the check is not followed.
  const kind = withFolderOf(file, (pinned) => searchableKind(pinned.abs));
  if (kind !== 'text') throw unsearchable(query, file, kind);
  const wanted = query.count ? 0 : max;
  if (compiled && !query.invert && !(query.count && query.only) && sizeOf(file.abs) >= BIG_FILE) {
    const fast =
      (await throughRipgrep(world, query, compiled, file, ripgrep, wanted)) ??
      withFolderOf(file, (pinned) => byLiteral(query, compiled, pinned, ripgrep, wanted));
    if (fast) return { matches: 0, matcher: compiled, ...fast };
  }
  const bytes = withFolderOf(file, (pinned) => readSearchable(pinned.abs));
  if (!bytes)
    throw unsearchable(
      query,
      file,
      withFolderOf(file, (pinned) => searchableKind(pinned.abs)),
    );
  const matcher =
    compiled ??
    (await pcreMatcher(
      [file.abs],
      query,
      world.settings,
      () => file.display,
      (m) => world.warn(m),
    ));
  let lines: number[] = [];
  let matches = 0;
  matchInTime(
    1,
    () => {
      lines = matcher.matchingLines(bytes, bomLengthOf(bytes), Infinity);
      if (query.count && query.only) matches = countMatches(matcher, bytes, lines);
    },
    () => file,
    ripgrep,
    matcher,
  );
  return { lines, total: lines.length, matches, matcher };
}

function unsearchable(query: SearchQuery, file: ResolvedPath, kind: 'text' | 'binary' | 'unreadable'): RtError {
  if (kind === 'binary')
    return new RtError(
      'binary',
      `${unsearchableText([{ display: file.display, kind }])}: rt searches text files only`,
      [`search its bytes with: ${ripgrepCommand(query, ['--text'], [file.display])} (or grep -a)`],
    );
  return new RtError('access', `${unsearchableText([{ display: file.display, kind: 'unreadable' }])}`, [
    `check its permissions: ls -l ${quotePath(file.display)}`,
  ]);
}

/**
 * The hits found by reading the file a piece at a time for a literal (see literalScan.ts): a
 * literal matched as bytes (the first `wanted` of them, and their count), or the literal every
 * match of the pattern holds, in whose lines (up to MAX_LINES_READ) `matcher` is run. Undefined
 * when the pattern has no such literal (for -i, none: the bytes of a line may fold to it).
 */
function byLiteral(
  query: SearchQuery,
  matcher: LineMatcher,
  file: ResolvedPath,
  ripgrep: string,
  wanted: number,
): Omit<FileOutcome, 'matches' | 'matcher'> | undefined {
  const needle = matcher.needle;
  if (needle?.length && needle.length <= LINEAR_LITERAL && !needle.includes(0x0d))
    return literalLines(file.abs, needle, wanted, MAX_LINE_PRINTED);
  if (query.ignoreCase) return undefined;
  const text = prefilterSearch(query).required.find(
    (set) => set.length === 1 && Buffer.byteLength(set[0]!) >= MIN_NEEDLE && !set[0]!.includes('\n'),
  )?.[0];
  const candidates =
    text === undefined ? undefined : literalLines(file.abs, Buffer.from(text), MAX_LINES_READ, Infinity);
  if (!candidates || candidates.total > candidates.lines.length) return undefined;
  return confirmed(matcher, file, ripgrep, candidates.found);
}

/** The shortest literal worth reading a file for (a shorter one is in nearly every line). */
const MIN_NEEDLE = 3;

/** Which of `lines` (1-based numbers to the bytes of each, as a prefilter read them) match, and how many. */
function confirmed(
  matcher: LineMatcher,
  file: ResolvedPath,
  ripgrep: string,
  read: ReadonlyMap<number, Buffer>,
): Omit<FileOutcome, 'matches' | 'matcher'> | undefined {
  let lines: number[] | undefined;
  matchInTime(
    1,
    () => (lines = matchingLinesRead(matcher, file.abs, read)),
    () => file,
    ripgrep,
    matcher,
  );
  return lines && { lines, total: lines.length, found: read };
}

/**
 * The hits ripgrep finds, when it can look for the pattern: for a plain literal its lines are
 * the hits (the first `wanted`, and their count apart when there may be more); otherwise the
 * lines its translation matches, each confirmed by `matcher` (past MAX_LINES_READ of them, rt
 * matches the whole file itself). Undefined when ripgrep cannot answer.
 */
async function throughRipgrep(
  world: SearchWorld,
  query: SearchQuery,
  matcher: LineMatcher,
  file: ResolvedPath,
  ripgrep: string,
  wanted: number,
): Promise<Omit<FileOutcome, 'matches' | 'matcher'> | undefined> {
  const { search, exact } = prefilterSearch(query);
  if (!search || !world.settings.ripgrep) return undefined;
  const request = { search, ignoreCase: query.ignoreCase };
  if (exact) {
    const found =
      wanted > 0
        ? await ripgrepFileLines(file.abs, request, world.settings, { maxCount: wanted, columns: MAX_LINE_PRINTED })
        : { numbers: [], lines: undefined };
    if (!found) return undefined;
    const lines = found.numbers.map((n) => n - 1);
    const total = lines.length < wanted ? lines.length : await ripgrepFileCount(file.abs, request, world.settings);
    return total === undefined ? undefined : { lines, total, found: found.lines };
  }
  const found = await ripgrepFileLines(file.abs, request, world.settings, {
    maxCount: MAX_LINES_READ,
    columns: undefined,
  });
  if (!found?.lines || found.numbers.length >= MAX_LINES_READ) return undefined;
  return confirmed(matcher, file, ripgrep, found.lines);
}
