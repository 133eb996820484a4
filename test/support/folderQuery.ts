// A search's query as grep's command line would give it, for tests of the search itself.

import type { FolderQuery } from '../../src/search/engine.js';

/** The query of `rt grep -e PATTERN…` with nothing else given, but what `change` sets. */
export function folderQuery(patterns: string[], change: Partial<FolderQuery> = {}): FolderQuery {
  return {
    patterns,
    matched: patterns,
    paths: [],
    fixed: false,
    ignoreCase: false,
    smartCase: false,
    word: false,
    invert: false,
    pcre: false,
    only: false,
    count: false,
    before: 0,
    after: 0,
    filesOnly: false,
    list: { hidden: false, noIgnore: false },
    globs: [],
    ...change,
  };
}
