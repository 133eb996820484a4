// What a search asks for, once its command line is read: the patterns as given and as rt
// matches them, the paths, and how lines are matched and reported.

import { shellQuote } from '../model/errors.js';

/** What a search's command line asks for, checked. */
export interface SearchQuery {
  /** The patterns: PATTERN, or every -e. */
  readonly patterns: readonly string[];
  /** The patterns as rt matches them: POSIX classes written as JavaScript (with -F or -P, as given). */
  readonly matched: readonly string[];
  /** The operands that are paths. */
  readonly paths: readonly string[];
  readonly fixed: boolean;
  /** -i, or -S and patterns without upper case (for -P, ripgrep decides -S). */
  readonly ignoreCase: boolean;
  readonly smartCase: boolean;
  readonly word: boolean;
  readonly invert: boolean;
  readonly pcre: boolean;
  readonly only: boolean;
  readonly count: boolean;
  /** Lines of context before and after each hit. */
  readonly before: number;
  readonly after: number;
}

/** The ripgrep command line that makes the search `query` (with `extra` flags) in `paths` (default: "."). */
export function ripgrepCommand(query: SearchQuery, extra: readonly string[], paths: readonly string[]): string {
  const flags = ['rg', ...extra, '-n'];
  if (query.smartCase) flags.push('-S');
  else if (query.ignoreCase) flags.push('-i');
  if (query.word) flags.push('-w');
  if (query.fixed) flags.push('-F');
  if (query.pcre) flags.push('-P');
  if (query.invert) flags.push('-v');
  if (query.only) flags.push('-o');
  if (query.count) flags.push('-c');
  for (const p of query.patterns) flags.push('-e', p);
  const operands = paths.length ? paths : ['.'];
  return [...flags, ...(operands.some((p) => p.startsWith('-')) ? ['--'] : []), ...operands].map(shellQuote).join(' ');
}
