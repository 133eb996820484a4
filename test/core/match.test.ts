import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RtError } from '../../src/core/errors.js';
import { compileMatcher, matchesLine, matchingAmong } from '../../src/core/match.js';

const file = Buffer.from('x foo\nfoo y\nfoo\r\n\u00c9cole \u00e9cole\na-b\nfoobar foo_bar\n', 'utf8');
const hits = (pattern: string, o: Partial<{ fixed: boolean; ignoreCase: boolean; word: boolean }> = {}) =>
  compileMatcher(pattern, { fixed: false, ignoreCase: false, word: false, ...o }).matchingLines(file, 0, Infinity).map((n) => n + 1);

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
    const lines = (pattern: string) => compileMatcher(pattern, { fixed: false, ignoreCase: false, word: false }).matchingLines(blanks, 0, Infinity).map((n) => n + 1);
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
      fc.property(fileBytes, matcherOf, fc.boolean(), fc.uniqueArray(fc.nat(12), { maxLength: 14 }), (bytes, pattern, ignoreCase, picked) => {
        const matcher = compileMatcher(pattern, { fixed: false, ignoreCase, word: false });
        const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
        const all = matcher.matchingLines(bytes, bom, Infinity);
        const candidates = [...picked].sort((a, b) => a - b);
        expect(matchingAmong(matcher, bytes, bom, candidates)).toEqual(all.filter((n) => candidates.includes(n)));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('-w', () => {
  it('refuses a pattern that is valid only once wrapped for -w', () => {
    for (const pattern of ['a)|(b', 'x)(?:y', ')|(']) {
      expect(() => compileMatcher(pattern, { fixed: false, ignoreCase: false, word: true }), pattern).toThrow(RtError);
      expect(() => compileMatcher(pattern, { fixed: false, ignoreCase: false, word: false }), pattern).toThrow(RtError);
    }
    expect(compileMatcher('a|b', { fixed: false, ignoreCase: false, word: true }).matchingLines(Buffer.from('xa b\n'), 0, 9)).toEqual([0]);
  });
});

describe('matchesLine', () => {
  const m = (pattern: string) => compileMatcher(pattern, { fixed: false, ignoreCase: false, word: false });
  it('matches a line content as it is: an empty one, and one ending in \\r (which is content, not an ending)', () => {
    expect(matchesLine(m('^$'), Buffer.from(''))).toBe(true);
    expect(matchesLine(m('^$'), Buffer.from('\r'))).toBe(false);
    expect(matchesLine(m('x\\r$'), Buffer.from('x\r'))).toBe(true);
    expect(matchesLine(m('x$'), Buffer.from('x\r'))).toBe(false);
    expect(matchesLine(compileMatcher('x\r', { fixed: true, ignoreCase: false, word: false }), Buffer.from('x\r'))).toBe(true);
  });
});

describe('"." matches any character of a line, as in grep and ripgrep', () => {
  // JavaScript's "." leaves out \r, U+2028 and U+2029; within a line they are characters like any other.
  const lines = Buffer.from('c\rd\nc\u2028d\nc\u2029d\ncd\nc\r\nd\nc\u00e9d\n', 'utf8');
  const hits = (pattern: string, o: Partial<{ fixed: boolean; ignoreCase: boolean; word: boolean }> = {}) =>
    compileMatcher(pattern, { fixed: false, ignoreCase: false, word: false, ...o }).matchingLines(lines, 0, Infinity).map((n) => n + 1);

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
