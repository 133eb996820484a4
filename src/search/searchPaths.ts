// A search of PATHs (files and folders): the engines chosen and started, the files listed (narrowed
// to those an engine found), and each file's hit lines found within the time matching may take.
// Nothing is printed here: the hits go to a sink (see report.ts).

import { RtError } from '../model/errors.js';
import { keepSniffedUpTo, statResolved } from '../store/indexedFile.js';
import { resolveInRoot, type Root } from '../store/root.js';
import {
  candidates,
  candidatesAmong,
  listCandidates,
  pickCandidates,
  type Candidate,
  type CandidateSet,
} from './candidates.js';
import { planEngines, type SearchEngine, type FolderQuery } from './engine.js';
import { ownEngine, pcreEngine, prefilterEngine } from './engines.js';
import type { LineMatcher } from './match.js';
import { MATCH_BASE_MS, matchAllowanceMs, matchInTime } from './matchInTime.js';
import { ripgrepCommand, type SearchQuery } from './query.js';
import {
  bomLengthOf,
  countMatches,
  isPlainFile,
  readSearchable,
  searchableKind,
  unsearchableText,
} from './searchable.js';
import { OutOfTime, stepsInTime } from './timeBudget.js';
import type { Settings } from '../settings/env.js';

/** How many ignored or hidden files are searched, at most, to tell why nothing was found. */
const SKIPPED_CHECK_LIMIT = 20_000;

/** What a search touches of the world: the root, the settings (RT_RIPGREP, and PATH for the programs run), stderr. */
export interface SearchWorld {
  readonly root: Root;
  readonly settings: Settings;
  warn(message: string): void;
  /** Whether rt's saved state knows the listed file `abs` to be text as it is now (see IndexChecks). */
  knownText?(abs: string): boolean;
}

/** What a search found: each file searched, in the order printed, with its hit lines. */
export interface SearchOutcome {
  readonly files: readonly Candidate[];
  /** Each file's 0-based hit lines, ascending (with -l, its first at least). */
  readonly hits: readonly number[][];
  /** With -c -o: each file's matches. */
  readonly matchCounts: readonly number[];
  /** Whether ignore rules or the hidden rule left files out (for the "nothing found" note). */
  readonly filtered: boolean;
  /** The matcher hits are checked against when printed (for -P, ripgrep's answer). */
  readonly matcher: LineMatcher;
  readonly engine: SearchEngine;
  /** Files left out for names that are not valid UTF-8 (see noteUndecodable). */
  readonly undecodable: readonly string[];
}

/**
 * Searches the PATHs of `query` with `compiled` (rt's matcher; undefined for -P). `ripgrep` is the
 * command that makes the search, for the message when matching takes too long. `reportReads`: how
 * many files the caller's report may read the lines of; as many small files the search reads whole
 * are kept for it (see keepSniffed).
 */
export async function searchPaths(
  world: SearchWorld,
  query: FolderQuery,
  compiled: LineMatcher | undefined,
  ripgrep: string,
  reportReads = 0,
): Promise<SearchOutcome> {
  const { root } = world;
  const dirs = searchedFolders(root, query.paths);
  const plan = planEngines(query, dirs);
  keepSniffedUpTo(reportReads);
  const prefilter =
    compiled && (await prefilterEngine(plan, compiled, world.settings, (abs) => world.knownText?.(abs) ?? false));
  const narrowed = prefilter?.narrowed;
  let set =
    (narrowed && dirs && candidatesAmong(root, dirs, narrowed.tracked, narrowed.only, query.list, query.globs)) ||
    pickCandidates(listCandidates(root, query.paths, query.list), query.globs, narrowed?.only);
  set = withoutUnsearchable(world, query, set);
  const { engine, matcher } = prefilter
    ? { engine: prefilter, matcher: compiled }
    : compiled
      ? { engine: ownEngine(compiled), matcher: compiled }
      : await pcreEngine(set.files, query, world.settings, (m) => world.warn(m));
  // Each file's hits (-l asks only whether a file has hits: its first is enough), and with -c -o its matches.
  const hits: number[][] = [];
  const matchCounts: number[] = [];
  const limit = query.filesOnly ? 1 : Infinity;
  const countingMatches = query.count && query.only;
  matchInTime(
    set.files.length,
    (i) => {
      const abs = set.files[i]!.abs;
      const lines = engine.hitsIn(abs, limit);
      if (countingMatches) {
        const bytes = lines.length ? readSearchable(abs) : undefined;
        matchCounts[i] = bytes ? countMatches(matcher, bytes, lines) : 0;
      }
      hits[i] = lines;
    },
    (i) => set.files[i]!,
    ripgrep,
    matcher,
  );
  return {
    files: set.files,
    hits,
    matchCounts,
    filtered: set.filtered,
    matcher,
    engine,
    undecodable: [...(set.undecodable ?? []), ...engine.undecodable],
  };
}

/** The absolute folders searched, for a prefilter; undefined when a file is named (it is read anyway). */
function searchedFolders(root: Root, paths: readonly string[]): string[] | undefined {
  const dirs: string[] = [];
  for (const p of paths.length ? paths : ['.']) {
    const target = resolveInRoot(root, p);
    if (statResolved(target).isDirectory()) dirs.push(target.abs);
    else return undefined;
  }
  return dirs;
}

/**
 * The candidates less the files named as PATHs that cannot be searched (binary, or unreadable),
 * which standard error names with the ripgrep command that searches their bytes. When no PATH
 * could be searched (every one such a file), the search is refused (exit 4).
 */
function withoutUnsearchable(world: SearchWorld, query: SearchQuery, set: CandidateSet): CandidateSet {
  const named = query.paths.map((p) => resolveInRoot(world.root, p)).filter((target) => statResolved(target).isFile());
  if (named.length === 0) return set;
  const namedAbs = new Set(named.map((target) => target.abs));
  const refused: Array<{ file: Candidate; kind: 'binary' | 'unreadable' }> = [];
  for (const file of set.files) {
    if (!namedAbs.has(file.abs)) continue;
    const kind = searchableKind(file.abs);
    if (kind !== 'text') refused.push({ file, kind });
  }
  if (refused.length === 0) return set;
  const what = unsearchableText(refused.map(({ file, kind }) => ({ display: file.display, kind })));
  const binary = refused.filter((r) => r.kind === 'binary').map((r) => r.file.display);
  const hints = binary.length
    ? [
        `search ${binary.length === 1 ? 'its' : 'their'} bytes with: ` +
          `${ripgrepCommand(query, ['--text'], binary)} (or grep -a)`,
      ]
    : [];
  if (!refused.some((r) => r.kind === 'binary')) hints.push('check the permissions of what cannot be read');
  const textOnly = binary.length ? ': rt searches text files only' : '';
  if (named.length === query.paths.length && refused.length === set.files.length) {
    throw new RtError(binary.length ? 'binary' : 'access', `${what}${textOnly}`, hints);
  }
  world.warn(`${what}, not searched${textOnly}`);
  for (const hint of hints) world.warn(hint);
  const left = new Set(refused.map((r) => r.file.abs));
  return { ...set, files: set.files.filter((f) => !left.has(f.abs)) };
}

/** What the ignored or hidden files (that the globs let through) hold, when nothing was found. */
export interface HitsBeyond {
  /** How many regular files the search covered. */
  readonly searched: number;
  /** How many hits the files it left out hold, and the first of them that holds one. */
  readonly hits: number;
  readonly example: string;
}

/**
 * When nothing was found, whether ignored or hidden files (that the globs let through) hold
 * matches; undefined when none does, or matching them takes too long (see matchInTime).
 */
export function hitsBeyond(world: SearchWorld, query: FolderQuery, matcher: LineMatcher): HitsBeyond | undefined {
  const { root } = world;
  const { paths } = query;
  // (ripgrep, when it ran, narrowed the files read: the count is of those the search covered)
  const seen = new Set(candidates(root, paths, query.list, query.globs).files.map((f) => f.abs));
  let searched = 0;
  for (const abs of seen) if (isPlainFile(abs)) searched++;
  const wider = candidates(root, paths, { hidden: true, noIgnore: true }, query.globs)
    .files.filter((f) => !seen.has(f.abs))
    .slice(0, SKIPPED_CHECK_LIMIT);
  let found: string | undefined;
  let hits = 0;
  try {
    stepsInTime(
      wider.length,
      (i) => {
        const bytes = readSearchable(wider[i]!.abs);
        const n = bytes ? matcher.matchingLines(bytes, bomLengthOf(bytes), Infinity).length : 0;
        if (n && !found) found = wider[i]!.display;
        hits += n;
      },
      (i) => matchAllowanceMs(wider[i]!.abs),
      MATCH_BASE_MS,
    );
  } catch (error) {
    if (error instanceof OutOfTime) return undefined;
    throw error;
  }
  return found ? { searched, hits, example: found } : undefined;
}
