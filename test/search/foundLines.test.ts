// Parsing the lines the prefilters print (src/search/foundLines.ts): ripgrep's PATH \0 N : LINE \n
// and git grep's PATH \0 N \0 LINE \n.

import { describe, expect, it } from 'vitest';
import { MAX_LINES_READ, parseFound } from '../../src/search/foundLines.js';
import { nulSeparatedPaths } from '../../src/search/pathBytes.js';

const shown = (found: ReturnType<typeof parseFound>) =>
  [...found].map(([file, f]) => [
    file,
    f.numbers,
    f.crowded ? 'crowded' : f.lines && [...f.lines].map(([n, text]) => [n, text.toString('latin1')]),
  ]);

describe('parseFound', () => {
  it.each([
    ['git grep', '\x00'],
    ['ripgrep', ':'],
  ])(
    'reads %s: each file its numbers as printed and its lines once; a path may hold a newline, a line a NUL',
    (_, sep) => {
      const out = Buffer.from(
        `a.ts\x003${sep}foo\na.ts\x003${sep}foo\na.ts\x0010${sep}FOO\x00bar\r\n` +
          `odd\nname.txt\x001${sep}\nb.ts\x0012${sep}x:y\n`,
      );
      expect(shown(parseFound(out, true))).toEqual([
        [
          'a.ts',
          [3, 3, 10],
          [
            [3, 'foo'],
            [10, 'FOO\x00bar\r'],
          ],
        ],
        ['odd\nname.txt', [1], [[1, '']]],
        ['b.ts', [12], [[12, 'x:y']]],
      ]);
      expect(shown(parseFound(out, false))).toEqual([
        ['a.ts', [3, 3, 10], undefined],
        ['odd\nname.txt', [1], undefined],
        ['b.ts', [12], undefined],
      ]);
      expect(parseFound(Buffer.alloc(0), true).size).toBe(0);
      expect(shown(parseFound(Buffer.from(`b.ts\x007${sep}no newline at the end`), true))).toEqual([
        ['b.ts', [7], [[7, 'no newline at the end']]],
      ]);
    },
  );

  it('gathers a file printed apart (under two PATHs) under its path', () => {
    expect(shown(parseFound(Buffer.from('a\x001:x\nb\x002:y\na\x001:x\n'), true))).toEqual([
      ['a', [1, 1], [[1, 'x']]],
      ['b', [2], [[2, 'y']]],
    ]);
  });

  it('gives up the lines of a file with more than MAX_LINES_READ found (rt searches it whole), not numbers', () => {
    const many = (file: string, count: number) =>
      Array.from({ length: count }, (_, i) => `${file}\x00${i + 1}\x00foo\n`).join('');
    const found = parseFound(
      Buffer.from(many('dense.txt', MAX_LINES_READ + 1) + many('sparse.txt', MAX_LINES_READ)),
      true,
    );
    expect(found.get('dense.txt')).toMatchObject({ crowded: true, lines: undefined });
    expect(found.get('dense.txt')!.numbers).toHaveLength(MAX_LINES_READ + 1);
    expect(found.get('sparse.txt')).toMatchObject({ crowded: false });
    expect(found.get('sparse.txt')!.lines!.size).toBe(MAX_LINES_READ);
  });
});

describe('paths that are not valid UTF-8', () => {
  const bad = Buffer.concat([Buffer.from('a'), Buffer.from([0xff]), Buffer.from('b.txt')]);
  it('parseFound leaves out their lines and names them, decoded, once', () => {
    const out = Buffer.concat([
      Buffer.from('ok.txt\0' + '1:x\n'),
      bad,
      Buffer.from('\x002:y\n'),
      bad,
      Buffer.from('\x003:z\n'),
      Buffer.from('ok.txt\x004:w\n'),
    ]);
    const undecodable: string[] = [];
    const found = parseFound(out, true, undecodable);
    expect([...found.keys()]).toEqual(['ok.txt']);
    expect(found.get('ok.txt')!.numbers).toEqual([1, 4]);
    expect(undecodable).toEqual(['a\ufffdb.txt']);
  });

  it('nulSeparatedPaths keeps the valid ones, in order, and sets the others aside', () => {
    const undecodable: string[] = [];
    expect(nulSeparatedPaths(Buffer.concat([Buffer.from('x\0'), bad, Buffer.from('\0y/z\0')]), undecodable)).toEqual([
      'x',
      'y/z',
    ]);
    expect(undecodable).toEqual(['a\ufffdb.txt']);
    expect(nulSeparatedPaths(Buffer.from('é\0ü\0'), undecodable)).toEqual(['é', 'ü']);
    expect(nulSeparatedPaths(Buffer.alloc(0), undecodable)).toEqual([]);
  });
});
