// Which matches lie in code: a parser's rows and columns (UTF-16 units) found in a line's bytes.

import { describe, expect, it } from 'vitest';
import { inCode, nonCodeRanges } from '../../src/model/codeRanges.js';
import type { ByteRange } from '../../src/model/replacement.js';

describe('nonCodeRanges', () => {
  it('finds columns in bytes: text that is not ASCII, a surrogate pair, bytes that are not UTF-8', () => {
    // "é" is 1 unit and 2 bytes, "😀" 2 units and 4 bytes, 0xff one U+FFFD of 1 byte.
    const line = Buffer.concat([Buffer.from('é😀'), Buffer.from([0xff]), Buffer.from('"s"')]);
    const ranges = nonCodeRanges([0, 4, 0, 7], [0], () => line);
    expect(ranges.get(0)).toEqual([[7, 10]]);
  });

  it('covers the rest of a line a span goes on past, and the start of one it comes from', () => {
    const lines = [Buffer.from('a /* b'), Buffer.from('c'), Buffer.from('d */ e')];
    const ranges = nonCodeRanges([0, 2, 2, 4], [0, 1, 2], (row) => lines[row]!);
    expect([...ranges]).toEqual([
      [0, [[2, 6]]],
      [1, [[0, 1]]],
      [2, [[0, 4]]],
    ]);
  });

  it('leaves out rows not asked about and empty spans', () => {
    const ranges = nonCodeRanges([0, 0, 0, 3, 1, 2, 1, 2], [1], () => Buffer.from('xxxx'));
    expect(ranges.size).toBe(0);
  });
});

describe('inCode', () => {
  const strings: ByteRange[] = [
    [4, 9],
    [12, 12],
  ];
  it.each<[ByteRange, boolean]>([
    [[0, 3], true],
    [[0, 4], true],
    [[9, 11], true],
    [[3, 5], false], // straddles a quote: left whole
    [[5, 7], false],
    [[8, 10], false],
    [[4, 4], true], // an empty match before the quote
    [[6, 6], false],
    [[9, 9], true],
    [[12, 12], true], // (an empty range holds nothing)
  ])('%j: %s', (match, want) => {
    expect(inCode(strings, match)).toBe(want);
  });

  it('takes a line with no string or comment as code', () => {
    expect(inCode(undefined, [0, 3])).toBe(true);
  });
});
