// Parsing what git prints for the git grep prefilter (src/io/gitGrep.ts).

import { describe, expect, it } from 'vitest';
import { hitLines, indexEntries } from '../../src/io/gitGrep.js';
import { MAX_LINES_READ } from '../../src/io/ripgrep.js';

describe('hitLines (git grep -z -n)', () => {
  const shown = (found: ReturnType<typeof hitLines>) => [...found].map(([file, lines]) => [file, lines === 'crowded' ? lines : [...lines].map(([n, text]) => [n, text.toString('latin1')])]);

  it('gives each file its lines once, in order, with what followed each; a path may hold a newline, a line a NUL', () => {
    const out = Buffer.from('a.ts\x003\x00foo\na.ts\x003\x00foo\na.ts\x0010\x00FOO\x00bar\r\nodd\nname.txt\x001\x00\n');
    expect(shown(hitLines(out))).toEqual([
      ['a.ts', [[3, 'foo'], [10, 'FOO\x00bar\r']]],
      ['odd\nname.txt', [[1, '']]],
    ]);
    expect(hitLines(Buffer.alloc(0)).size).toBe(0);
    expect(shown(hitLines(Buffer.from('b.ts\x007\x00no newline at the end')))).toEqual([['b.ts', [[7, 'no newline at the end']]]]);
  });

  it('gives up the lines of a file with more than MAX_LINES_READ found (rt searches it whole)', () => {
    const many = (file: string, count: number) => Array.from({ length: count }, (_, i) => `${file}\x00${i + 1}\x00foo\n`).join('');
    const found = hitLines(Buffer.from(many('dense.txt', MAX_LINES_READ + 1) + many('sparse.txt', MAX_LINES_READ)));
    expect(found.get('dense.txt')).toBe('crowded');
    expect((found.get('sparse.txt') as Map<number, Buffer>).size).toBe(MAX_LINES_READ);
  });
});

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
    expect([...paths]).toEqual(['plain.ts', 'script.sh', 'assumed.ts', 'sparse.ts', 'link.ts', 'submodule', 'conflict.ts', 'tab\there.ts']);
    expect(unanswered).toEqual(['assumed.ts', 'sparse.ts', 'link.ts', 'submodule', 'conflict.ts', 'conflict.ts']);
  });
});
