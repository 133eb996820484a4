import { describe, expect, it } from 'vitest';
import { dotWithinLines } from '../../src/core/patternText.js';

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
    for (const text of ['c\rd', 'c\u2028d', 'c\u2029d', 'c\u{1F600}d']) expect(re.test(text), JSON.stringify(text)).toBe(true);
    expect(re.test('c\nd')).toBe(false);
  });
});
