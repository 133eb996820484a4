// How a search finds the hit lines of each file, behind one interface. rt's own matcher decides
// every hit, except with -P (PCRE2, which ripgrep matches); ripgrep or git grep, when they can
// help, only tell it which files, and which lines, are worth reading. The choice is a chain: the
// first engine that answers is used, and rt's own matcher, which always answers, comes last (no
// ripgrep on PATH, outside git, a pattern with no literal worth looking for).

import type { ListOptions, TrackedPaths } from './listFiles.js';
import { escapeRegExp } from './match.js';
import type { SearchQuery } from './query.js';
import { exactLines, type PrefilterRequest } from './ripgrep.js';
import { byteRequired, ripgrepPattern } from './ripgrepPattern.js';

/**
 * - `ripgrep-lines`: ripgrep finds the lines; for a plain literal they are the hits, otherwise
 *   those rt matches its pattern in;
 * - `ripgrep-files`: ripgrep finds the files holding a plain literal (-l: they are the answer);
 * - `git-grep`: git grep finds the lines holding the literal texts every match holds;
 * - `pcre`: ripgrep matches PCRE2 in the files rt chose;
 * - `own`: rt reads and matches every file itself.
 */
export type EngineKind = 'ripgrep-lines' | 'ripgrep-files' | 'git-grep' | 'pcre' | 'own';

/** What git tracks under each folder searched (trackedFiles), or lists there (git grep). */
export type Tracked = ReadonlyArray<TrackedPaths | undefined>;

/** What an engine found, and how it tells a file's hits. */
export interface SearchEngine {
  readonly kind: EngineKind;
  /**
   * The only files that may hold hits (absolute paths), and what git lists under each folder
   * searched to check them against (see candidatesAmong); undefined when any file listed may.
   */
  readonly narrowed?: { readonly only: ReadonlySet<string>; readonly tracked: Tracked };
  /** Files found whose names are not valid UTF-8, left out (see pathBytes.ts). */
  readonly undecodable: readonly string[];
  /** The 0-based hit lines of a file, the first `limit` of them at least (none when it cannot be searched). */
  hitsIn(abs: string, limit: number): number[];
  /** The lines of a file as the engine read them, by 1-based number, when it kept them (see hitLinesAsFound). */
  linesRead(abs: string): ReadonlyMap<number, Buffer> | undefined;
}

/** What the choice of engines depends on. */
export interface EngineInputs {
  readonly pcre: boolean;
  readonly invert: boolean;
  /** Whether every PATH is a folder (a file named is read whole anyway). */
  readonly folders: boolean;
  /** Whether ripgrep can look for the pattern (a literal, or a translation holding a literal worth it). */
  readonly ripgrep: boolean;
  /** Whether ripgrep's lines are the very hits: a plain literal (see exactLines). */
  readonly exact: boolean;
  /** -l: only whether a file has hits is asked. */
  readonly filesOnly: boolean;
  readonly noIgnore: boolean;
  /** Whether every match holds literal texts long enough for git grep to look for. */
  readonly gitLiteral: boolean;
}

/** The engines to try, in order: the first that answers is used. */
export function chooseEngines(input: EngineInputs): EngineKind[] {
  if (input.pcre) return ['pcre'];
  // The lines -v selects hold nothing in particular to look for.
  if (input.invert || !input.folders) return ['own'];
  const chain: EngineKind[] = [];
  if (input.ripgrep) chain.push(input.filesOnly && input.exact ? 'ripgrep-files' : 'ripgrep-lines');
  // git grep lists what git tracks, ignored or not: with --no-ignore rt lists more.
  if (input.gitLiteral && !input.noIgnore) chain.push('git-grep');
  chain.push('own');
  return chain;
}

/**
 * The literal text (in bytes, in one run) every match of a regular expression must hold, at
 * least, for ripgrep to be asked which files may hold one: a pattern with less matches in nearly
 * every file, and asking costs a search of them all.
 */
const MIN_LITERAL = 3;

/** A search of folders: a query, and how its files are chosen. */
export interface FolderQuery extends SearchQuery {
  /** -l: only whether each file has hits. */
  readonly filesOnly: boolean;
  readonly list: ListOptions;
  readonly globs: readonly string[];
}

/** What the prefilters are asked for a query, and whether ripgrep's lines are the very hits (see exactLines). */
export interface PrefilterSearch {
  /** What ripgrep looks for; undefined when it cannot help (-v, -P, no literal worth looking for). */
  readonly search: PrefilterRequest['search'] | undefined;
  readonly exact: boolean;
  /** The literal texts every match holds (for git grep). */
  readonly required: string[][];
  /** The expression they come from (undefined for a literal matched as bytes). */
  readonly regexSource: string | undefined;
}

/** What ripgrep (and git grep) are asked for `query`, whatever the files searched. */
export function prefilterSearch(query: SearchQuery): PrefilterSearch {
  const { matched: patterns, ignoreCase } = query;
  // Not for -v, whose lines hold nothing in particular, nor -P, which ripgrep matches whole.
  const prefiltered = !query.pcre && !query.invert;
  const single = patterns.length === 1 ? patterns[0]! : undefined;
  // A literal matched as bytes goes to the prefilters as it is. With -i or -w rt matches it as a
  // regular expression, on text where a byte that is not UTF-8 reads as U+FFFD: so do they.
  const bytesLiteral = single !== undefined && query.fixed && !ignoreCase && !query.word;
  const sources = patterns.map((p) => (query.fixed ? escapeRegExp(p) : p));
  const regexSource =
    !prefiltered || bytesLiteral
      ? undefined
      : sources.length === 1
        ? sources[0]!
        : sources.map((p) => `(?:${p})`).join('|');
  const translated = regexSource === undefined ? undefined : ripgrepPattern(regexSource, ignoreCase);
  // For a literal, the literal; otherwise ripgrep's translation of the expression, which matches
  // at least every line it does, when it holds a literal worth looking for.
  const search = !prefiltered
    ? undefined
    : bytesLiteral
      ? { fixed: single }
      : translated && (query.fixed || translated.strength >= MIN_LITERAL)
        ? { regex: translated.regex }
        : undefined;
  const exact = bytesLiteral && exactLines(single, { ignoreCase, word: query.word });
  const required = prefiltered
    ? byteRequired(bytesLiteral ? [[single]] : (translated?.required ?? []), ignoreCase)
    : [];
  return { search, exact, required, regexSource };
}

/** The engines chosen for a search, with what each prefilter is asked. */
export interface EnginePlan {
  readonly kinds: readonly EngineKind[];
  readonly ignoreCase: boolean;
  /** -c: no line is printed (ripgrep need not print them). */
  readonly counting: boolean;
  /** What ripgrep is asked (when it is among the kinds). */
  readonly ripgrep?: PrefilterRequest;
  /** Whether the lines ripgrep finds are the very hits. */
  readonly exact: boolean;
  /** What git grep is asked: the literal texts every match holds, and the expression they come from. */
  readonly gitGrep?: { readonly required: string[][]; readonly regexSource: string | undefined };
  readonly dirs: readonly string[] | undefined;
}

/**
 * The engines for `query` over `dirs` (the absolute folders searched; undefined when a PATH is a
 * file), and what the prefilters among them are asked.
 */
export function planEngines(query: FolderQuery, dirs: readonly string[] | undefined): EnginePlan {
  const { ignoreCase } = query;
  const { search, exact, required, regexSource } = prefilterSearch(query);
  const strongest = required[0] ?? [];
  const kinds = chooseEngines({
    pcre: query.pcre,
    invert: query.invert,
    folders: dirs !== undefined,
    ripgrep: search !== undefined,
    exact,
    filesOnly: query.filesOnly,
    noIgnore: query.list.noIgnore,
    gitLiteral: strongest.length > 0 && Math.min(...strongest.map((l) => Buffer.byteLength(l))) >= MIN_LITERAL,
  });
  const { hidden, noIgnore } = query.list;
  return {
    kinds,
    ignoreCase,
    counting: query.count,
    exact,
    dirs,
    ...(search && dirs ? { ripgrep: { search, ignoreCase, hidden, noIgnore, dirs } } : {}),
    ...(kinds.includes('git-grep') ? { gitGrep: { required, regexSource } } : {}),
  };
}
