import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RtError } from '../../src/model/errors.js';
import {
  compileMatcher,
  compileSearch,
  knownLinesMatcher,
  LINEAR_LITERAL,
  matchesLine,
  matchingAmong,
} from '../../src/search/match.js';
import { runs } from '../support/runs.js';

const file = Buffer.from('x foo\nfoo y\nfoo\r\n\u00c9cole \u00e9cole\na-b\nfoobar foo_bar\n', 'utf8');
const hits = (pattern: string, o: Partial<{ fixed: boolean; ignoreCase: boolean; word: boolean }> = {}) =>
  compileMatcher(pattern, { fixed: false, ignoreCase: false, word: false, ...o })
    .matchingLines(file, 0, Infinity)
    .map((n) => n + 1);

describe('compileMatcher', () => {
  it.each([
    ['foo', {}, [1, 2, 3, 6]],
    ['foo$', {}, [1, 3]], // $ before a CRLF ending too
    ['^foo', {}, [2, 3, 6]],
    ['(?<!\\s)foo', {}, [2, 3, 6]], // a lookbehind at a line start sees no neighbour line
    ['foo(?!\\s)', {}, [1, 3, 6]],
    ['foo', { word: true }, [1, 2, 3]],
    ['cole', { word: true }, []], // é is a letter: no word boundary inside École
    ['école', { word: true, ignoreCase: true }, [4]],
    ['\\p{Lu}', {}, [4]],
    ['a\\-b', {}, [5]], // valid only without the u flag: still accepted
    ['a-b', { fixed: true, word: true }, [5]],
    ['a.b', { fixed: true }, []],
    ['FOO', { ignoreCase: true, fixed: true }, [1, 2, 3, 6]],
    ['', {}, [1, 2, 3, 4, 5, 6]],
    ['', { fixed: true }, [1, 2, 3, 4, 5, 6]],
    ['x*', {}, [1, 2, 3, 4, 5, 6]], // matches the empty string: on every line
    ['^$', {}, []], // matches the empty string, but only on an empty line
    ['^y?$', {}, []],
    ['^foo$|^$', {}, [3]],
    ['^$', { word: true }, []],
  ] as const)('%s %j', (pattern, options, expected) => {
    expect(hits(pattern, options)).toEqual(expected);
  });

  it('a pattern that matches the empty string hits the lines it matches, not every line', () => {
    const blanks = Buffer.from('a\n\nb\n  \r\n\n', 'utf8');
    const lines = (pattern: string) =>
      compileMatcher(pattern, { fixed: false, ignoreCase: false, word: false })
        .matchingLines(blanks, 0, Infinity)
        .map((n) => n + 1);
    expect(lines('^$')).toEqual([2, 5]);
    expect(lines('^\\s*$')).toEqual([2, 4, 5]);
    expect(lines('(^$)')).toEqual([2, 5]);
    expect(lines('b?')).toEqual([1, 2, 3, 4, 5]);
  });

  it('refuses an invalid pattern as bad usage, suggesting -F (and -i for inline flags)', () => {
    expect(() => hits('(')).toThrow(RtError);
    try {
      hits('(?i)foo');
    } catch (error) {
      expect((error as RtError).code).toBe('usage');
      expect((error as RtError).hints.join(' ')).toMatch(/-i/);
    }
  });
});

describe('matchingAmong', () => {
  // Files of a few lines: CRLF and LF endings, a BOM, a missing final newline, bytes that are not UTF-8, empty lines.
  const lineText = fc.constantFrom('foo', 'x foo', 'bar', '', ' ', 'fo\u00e9o', 'FOO', '\ufefffoo');
  const ending = fc.constantFrom('\n', '\r\n', '\r');
  const fileBytes = fc
    .tuple(fc.boolean(), fc.array(fc.tuple(lineText, ending), { maxLength: 8 }), fc.boolean(), fc.boolean())
    .map(([bom, lines, bare, bad]) => {
      const parts = lines.map(([t, e], i) => (bare && i === lines.length - 1 ? t : t + e));
      const body = Buffer.from((bom ? '\ufeff' : '') + parts.join(''), 'utf8');
      return bad ? Buffer.concat([body, Buffer.from([0xff, 0x66, 0x6f, 0x6f])]) : body;
    });
  const matcherOf = fc.constantFrom('foo', '^foo$', 'o\\b', '^$', '.', 'f\\S*o', '\\ufffd');

  it('finds exactly the lines matchingLines finds, among any candidates (more lines than the file has too)', () => {
    fc.assert(
      fc.property(
        fileBytes,
        matcherOf,
        fc.boolean(),
        fc.uniqueArray(fc.nat(12), { maxLength: 14 }),
        (bytes, pattern, ignoreCase, picked) => {
          const matcher = compileMatcher(pattern, { fixed: false, ignoreCase, word: false });
          const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
          const all = matcher.matchingLines(bytes, bom, Infinity);
          const candidates = [...picked].sort((a, b) => a - b);
          expect(matchingAmong(matcher, bytes, bom, candidates)).toEqual(all.filter((n) => candidates.includes(n)));
        },
      ),
      { numRuns: runs(3000) },
    );
  });
});

describe('-w', () => {
  it('refuses a pattern that is valid only once wrapped for -w', () => {
    for (const pattern of ['a)|(b', 'x)(?:y', ')|(']) {
      expect(() => compileMatcher(pattern, { fixed: false, ignoreCase: false, word: true }), pattern).toThrow(RtError);
      expect(() => compileMatcher(pattern, { fixed: false, ignoreCase: false, word: false }), pattern).toThrow(RtError);
    }
    expect(
      compileMatcher('a|b', { fixed: false, ignoreCase: false, word: true }).matchingLines(Buffer.from('xa b\n'), 0, 9),
    ).toEqual([0]);
  });
});

describe('matchesLine', () => {
  const m = (pattern: string) => compileMatcher(pattern, { fixed: false, ignoreCase: false, word: false });
  it('matches a line content as it is: an empty one, and one ending in \\r (which is content, not an ending)', () => {
    expect(matchesLine(m('^$'), Buffer.from(''))).toBe(true);
    expect(matchesLine(m('^$'), Buffer.from('\r'))).toBe(false);
    expect(matchesLine(m('x\\r$'), Buffer.from('x\r'))).toBe(true);
    expect(matchesLine(m('x$'), Buffer.from('x\r'))).toBe(false);
    expect(
      matchesLine(compileMatcher('x\r', { fixed: true, ignoreCase: false, word: false }), Buffer.from('x\r')),
    ).toBe(true);
  });
});

describe('"." matches any character of a line, as in grep and ripgrep', () => {
  // JavaScript's "." leaves out \r, U+2028 and U+2029; within a line they are characters like any other.
  const lines = Buffer.from('c\rd\nc\u2028d\nc\u2029d\ncd\nc\r\nd\nc\u00e9d\n', 'utf8');
  const hits = (pattern: string, o: Partial<{ fixed: boolean; ignoreCase: boolean; word: boolean }> = {}) =>
    compileMatcher(pattern, { fixed: false, ignoreCase: false, word: false, ...o })
      .matchingLines(lines, 0, Infinity)
      .map((n) => n + 1);

  it.each([
    ['c.d', {}, [1, 2, 3, 7]], // never across a line ending (lines 5 and 6)
    ['C.D', { ignoreCase: true }, [1, 2, 3, 7]],
    ['c.d', { word: true }, [1, 2, 3, 7]],
    ['^c.d$', {}, [1, 2, 3, 7]],
    ['(?<=c).d', {}, [1, 2, 3, 7]], // matched line by line (a lookaround)
    ['c.?d', {}, [1, 2, 3, 4, 7]],
    ['c.*$', {}, [1, 2, 3, 4, 5, 7]],
    ['c[.]d', {}, []], // a dot in a class is a dot
    ['c\\.d', {}, []],
    ['a\\-b|c.d', {}, [1, 2, 3, 7]], // a pattern valid only without the u flag
  ] as const)('%s %j', (pattern, options, expected) => {
    expect(hits(pattern, options)).toEqual(expected);
  });

  it('matchesLine and matchingAmong agree with the whole-file pass', () => {
    const m = compileMatcher('c.d', { fixed: false, ignoreCase: false, word: false });
    expect(matchesLine(m, Buffer.from('c\rd'))).toBe(true);
    expect(matchesLine(m, Buffer.from('c\u2029d'))).toBe(true);
    expect(matchingAmong(m, lines, 0, [0, 1, 2, 3, 4, 5])).toEqual([0, 1, 2]);
  });
});

describe('matchesIn: the matches of a line as byte ranges', () => {
  const ranges = (
    pattern: string,
    content: Buffer | string,
    o: Partial<{ fixed: boolean; ignoreCase: boolean; word: boolean }> = {},
  ) =>
    compileMatcher(pattern, { fixed: false, ignoreCase: false, word: false, ...o }).matchesIn(
      typeof content === 'string' ? Buffer.from(content, 'utf8') : content,
    );

  it.each([
    [
      'o',
      'foo bar foo',
      {},
      [
        [1, 2],
        [2, 3],
        [9, 10],
        [10, 11],
      ],
    ],
    [
      'fo+',
      'foo bar foo',
      {},
      [
        [0, 3],
        [8, 11],
      ],
    ],
    [
      'foo',
      'foo bar foo',
      { fixed: true },
      [
        [0, 3],
        [8, 11],
      ],
    ],
    [
      'aa',
      'aaaa',
      { fixed: true },
      [
        [0, 2],
        [2, 4],
      ],
    ], // not overlapping
    [
      'FOO',
      'foo Foo',
      { fixed: true, ignoreCase: true },
      [
        [0, 3],
        [4, 7],
      ],
    ],
    [
      'foo',
      'foo foobar foo_x foo',
      { word: true },
      [
        [0, 3],
        [17, 20],
      ],
    ],
    [
      'é',
      'café é',
      {},
      [
        [3, 5],
        [6, 8],
      ],
    ], // two bytes each
    [
      '😀.',
      'a😀b😀c',
      {},
      [
        [1, 6],
        [6, 11],
      ],
    ],
    ['x*', 'axxb', {}, [[1, 3]]], // empty matches are left out
    ['^', 'abc', {}, []],
    ['c.d', 'c\rd', {}, [[0, 3]]],
    ['', 'abc', { fixed: true }, []],
  ] as const)('%s in %j %j', (pattern, content, options, expected) => {
    expect(ranges(pattern, content, options)).toEqual(expected);
  });

  it('bytes that are not UTF-8 (each read as U+FFFD) keep their places', () => {
    const content = Buffer.concat([Buffer.from('a'), Buffer.from([0xff, 0xe2, 0x82]), Buffer.from('b caf\u00e9 b')]);
    expect(ranges('b', content)).toEqual([
      [4, 5],
      [12, 13],
    ]);
    expect(ranges('\\ufffd+b', content)).toEqual([[1, 5]]);
    expect(ranges('b', content, { fixed: true })).toEqual([
      [4, 5],
      [12, 13],
    ]);
  });

  it('stops at the limit', () => {
    const m = compileMatcher('o', { fixed: false, ignoreCase: false, word: false });
    expect(m.matchesIn(Buffer.from('ooo'), 1)).toEqual([[0, 1]]);
  });
});

describe('compileSearch: several patterns (-e) and -v', () => {
  const file = Buffer.from('alpha\nbeta\ngamma\ndelta\n');
  const search = (patterns: string[], invert = false, fixed = false) =>
    compileSearch(patterns, { fixed, ignoreCase: false, word: false, invert });

  it('a line matches if any pattern does; each pattern must be valid alone', () => {
    expect(search(['^b', 'mm']).matchingLines(file, 0, Infinity)).toEqual([1, 2]);
    expect(search(['^b', 'mm']).matchingLines(file, 0, 1)).toEqual([1]);
    expect(search(['a.', 'l'], false, true).matchingLines(file, 0, Infinity)).toEqual([0, 3]);
    // Backreferences stay each pattern's own.
    expect(search(['(l)\\1', '(m)\\1']).matchingLines(file, 0, Infinity)).toEqual([2]);
    expect(() => search(['a)|(b', 'x'])).toThrow(RtError);
  });

  it('the matches of several patterns: leftmost first, none overlapping', () => {
    expect(search(['ph', 'lph', 'a']).matchesIn(Buffer.from('alpha'))).toEqual([
      [0, 1],
      [1, 4],
      [4, 5],
    ]);
    expect(search(['al', 'alpha']).matchesIn(Buffer.from('alpha'))).toEqual([[0, 2]]);
  });

  it('-v: the lines no pattern matches, and no match to mark in them', () => {
    expect(search(['^b', 'mm'], true).matchingLines(file, 0, Infinity)).toEqual([0, 3]);
    expect(search(['^b', 'mm'], true).matchingLines(file, 0, 1)).toEqual([0]);
    // a last line without \n
    expect(search(['x'], true).matchingLines(Buffer.from('a\nb'), 0, Infinity)).toEqual([0, 1]);
    expect(search(['x'], true).matchingLines(Buffer.from(''), 0, Infinity)).toEqual([]);
    expect(matchesLine(search(['a'], true), Buffer.from('bcd'))).toBe(true);
    expect(search(['a'], true).matchesIn(Buffer.from('bcd'))).toEqual([]);
  });
});

describe('knownLinesMatcher: lines another program selected, known by their content', () => {
  it('selects the lines with that content (a BOM and CRLF endings aside), gives their matches as byte ranges', () => {
    const m = knownLinesMatcher(
      new Map([
        ['caf\u00e9 x', [[5, 6]] as const],
        ['', []],
      ]),
    );
    const file = Buffer.from('\ufeffcaf\u00e9 x\r\nother\n\ncaf\u00e9 x', 'utf8');
    expect(m.matchingLines(file, 3, Infinity)).toEqual([0, 2, 3]);
    expect(m.matchesIn(Buffer.from('caf\u00e9 x'))).toEqual([[6, 7]]);
    expect(m.matchesIn(Buffer.from('other'))).toEqual([]);
  });
});

describe('linear matchers (a search with one needs no bound on its time)', () => {
  it('a literal is linear, with -i and -w too; a regular expression is not', () => {
    expect(compileMatcher('a+b', { fixed: true, ignoreCase: false, word: false }).linear).toBe(true);
    expect(compileMatcher('(a+)+$', { fixed: true, ignoreCase: true, word: true }).linear).toBe(true);
    expect(compileMatcher('(a+)+$', { fixed: false, ignoreCase: false, word: false }).linear).toBeFalsy();
    expect(compileMatcher('abc', { fixed: false, ignoreCase: false, word: false }).linear).toBeFalsy();
  });

  it('-e and -v keep it only when every pattern has it', () => {
    const fixed = { fixed: true, ignoreCase: false, word: false };
    expect(compileSearch(['a', 'b'], { ...fixed, invert: true }).linear).toBe(true);
    expect(compileSearch(['a', 'b'], { ...fixed, fixed: false, invert: false }).linear).toBe(false);
    expect(knownLinesMatcher(new Map()).linear).toBe(true);
  });

  it('a literal with -i or -w still matches as the literal (the pattern is not read as a regular expression)', () => {
    const m = compileMatcher('a.c(', { fixed: true, ignoreCase: true, word: true });
    expect(matchesLine(m, Buffer.from('x A.C( y'))).toBe(true);
    expect(matchesLine(m, Buffer.from('xa.c( y'))).toBe(false);
    expect(matchesLine(m, Buffer.from('abc('))).toBe(false);
  });
});

describe('a long literal keeps the time bound (V8 matches a literal in time of the line × the literal)', () => {
  it('is linear up to LINEAR_LITERAL characters, not beyond, with or without -i and -w', () => {
    const short = 'a'.repeat(LINEAR_LITERAL);
    const long = 'a'.repeat(LINEAR_LITERAL + 1);
    for (const [ignoreCase, word] of [
      [false, false],
      [true, false],
      [false, true],
      [true, true],
    ] as const) {
      expect(compileMatcher(short, { fixed: true, ignoreCase, word }).linear).toBe(true);
      expect(compileMatcher(long, { fixed: true, ignoreCase, word }).linear).toBeFalsy();
    }
    expect(compileSearch(['a', long], { fixed: true, ignoreCase: true, word: false, invert: false }).linear).toBe(
      false,
    );
  });
});

describe('a pattern too big for V8 (refused when it first runs, not when made)', () => {
  it('is a usage error, not an internal one', () => {
    for (const [pattern, fixed, ignoreCase] of [
      ['a'.repeat(20_000) + 'b', true, true],
      ['(a|b)'.repeat(5_000), false, false],
    ] as const) {
      let error: unknown;
      try {
        compileMatcher(pattern, { fixed, ignoreCase, word: false });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(RtError);
      expect((error as RtError).message).toMatch(
        /too big for JavaScript's regular expressions \((Stack overflow|Regular expression too large)\)/,
      );
    }
  });
});
