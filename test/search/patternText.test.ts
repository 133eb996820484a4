import { describe, expect, it } from 'vitest';
import { dotWithinLines, smartCaseIgnores } from '../../src/search/patternText.js';

describe('dotWithinLines', () => {
  it.each([
    ['a.b', 'a[^\\n]b'],
    ['.*', '[^\\n]*'],
    ['\\.', '\\.'],
    ['[.]', '[.]'],
    ['[^.]', '[^.]'],
    ['[]].', '[]][^\\n]'], // in JavaScript the first ] ends the class: [] is empty
    ['[\\].]x.', '[\\].]x[^\\n]'],
    ['\\\\.', '\\\\[^\\n]'],
    ['(?<n>.)\\k<n>', '(?<n>[^\\n])\\k<n>'],
  ])('%s → %s', (source, expected) => {
    expect(dotWithinLines(source)).toBe(expected);
  });

  it('matches what "." matches in a line, \\r and U+2028 included, never a newline', () => {
    const re = new RegExp(dotWithinLines('c.d'), 'u');
    for (const text of ['c\rd', 'c\u2028d', 'c\u2029d', 'c\u{1F600}d'])
      expect(re.test(text), JSON.stringify(text)).toBe(true);
    expect(re.test('c\nd')).toBe(false);
  });
});

describe("smartCaseIgnores (ripgrep's -S)", () => {
  it.each([
    [['foo'], false, true],
    [['Foo'], false, false],
    [['foo', 'Bar'], false, false], // every pattern counts
    [['\\w+'], false, false], // no literal at all: case is not ignored
    [['\\Wfoo\\S'], false, true], // class escapes are no letters
    [['\\p{Lu}x'], false, true],
    [['[A-Z]x'], false, false], // a class's letters are literals
    [['\\x41b'], false, false], // \x41 is A
    [['\\u{61}b'], false, true],
    [['(?<Name>x)'], false, true], // a group's name is no literal
    [['x{2,3}'], false, true],
    [['\u00c9t\u00e9'], false, false],
    [['[[:lower:]]'], false, false], // a POSIX class is no literal, as in ripgrep: none at all
    [['[](?<N>x)]'], false, false], // a "]" first in a class is a literal, and the class goes on: N is one
    [['[[:upper:]]x'], false, true],
    [['[^[:^upper:]a]'], false, true],
    [['\\D'], true, false], // with -F every character is literal: D is upper case
    [['\\d'], true, true],
  ] as const)('%j (-F: %s) → %s', (patterns, fixed, expected) => {
    expect(smartCaseIgnores(patterns, fixed)).toBe(expected);
  });
});
