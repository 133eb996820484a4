import { describe, expect, it } from 'vitest';
import { RtError } from '../../src/core/errors.js';
import { compileMatcher } from '../../src/core/match.js';

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
