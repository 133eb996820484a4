// Parsing what git prints for the git grep prefilter (src/search/gitGrep.ts).

import { describe, expect, it } from 'vitest';
import { indexEntries } from '../../src/search/gitGrep.js';

describe('indexEntries (git ls-files -z -v --stage)', () => {
  it('lists every path, and as unanswered those git grep does not read from the work tree as they are', () => {
    const oid = 'f'.repeat(40);
    const entries = [
      `H 100644 ${oid} 0\tplain.ts`,
      `H 100755 ${oid} 0\tscript.sh`,
      `h 100644 ${oid} 0\tassumed.ts`,
      `S 100644 ${oid} 0\tsparse.ts`,
      `H 120000 ${oid} 0\tlink.ts`,
      `H 160000 ${oid} 0\tsubmodule`,
      `M 100644 ${oid} 1\tconflict.ts`,
      `M 100644 ${oid} 2\tconflict.ts`,
      `H 100644 ${oid} 0\ttab\there.ts`,
    ];
    const { paths, unanswered } = indexEntries(Buffer.from(`${entries.join('\0')}\0`));
    expect([...paths]).toEqual([
      'plain.ts',
      'script.sh',
      'assumed.ts',
      'sparse.ts',
      'link.ts',
      'submodule',
      'conflict.ts',
      'tab\there.ts',
    ]);
    expect(unanswered).toEqual(['assumed.ts', 'sparse.ts', 'link.ts', 'submodule', 'conflict.ts', 'conflict.ts']);
  });
});
