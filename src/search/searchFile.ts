// A search of one file (rt grep-file): read within its folder, refused when it cannot be searched
// (binary, unreadable), matched within the time matching may take.

import { quotePath, RtError } from '../model/errors.js';
import { withFolderOf } from '../store/pinnedFolder.js';
import type { ResolvedPath } from '../store/root.js';
import { pcreMatcher } from './engines.js';
import type { LineMatcher } from './match.js';
import { matchInTime } from './matchInTime.js';
import { ripgrepCommand, type SearchQuery } from './query.js';
import { bomLengthOf, countMatches, readSearchable, searchableKind, unsearchableText } from './searchable.js';
import type { SearchWorld } from './searchPaths.js';

/** What a search of one file found. */
export interface FileOutcome {
  /** 0-based hit lines, ascending. */
  readonly lines: number[];
  /** With -c -o: how many matches they hold. */
  readonly matches: number;
  /** The matcher hits are checked against when printed (for -P, ripgrep's answer). */
  readonly matcher: LineMatcher;
}

/**
 * Searches `file` (a regular file, resolved inside the root) with `compiled` (rt's matcher;
 * undefined for -P). `ripgrep` is the command that makes the search.
 */
export async function searchFile(
  world: SearchWorld,
  query: SearchQuery,
  compiled: LineMatcher | undefined,
  file: ResolvedPath,
  ripgrep: string,
): Promise<FileOutcome> {
  // Read within the file's folder: one swapped for a link out of the root after the check is not followed.
  const bytes = withFolderOf(file, (pinned) => readSearchable(pinned.abs));
  if (!bytes) {
    const kind = withFolderOf(file, (pinned) => searchableKind(pinned.abs));
    if (kind === 'binary')
      throw new RtError(
        'binary',
        `${unsearchableText([{ display: file.display, kind }])}: rt searches text files only`,
        [`search its bytes with: ${ripgrepCommand(query, ['--text'], [file.display])} (or grep -a)`],
      );
    throw new RtError('access', `${unsearchableText([{ display: file.display, kind: 'unreadable' }])}`, [
      `check its permissions: ls -l ${quotePath(file.display)}`,
    ]);
  }
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
  return { lines, matches, matcher };
}
