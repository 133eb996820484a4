import { describe, expect, it } from 'vitest';
import {
  candidate,
  isLidText,
  LID_ALPHABET,
  lidLengthFor,
  LidSet,
  lidToString,
  parseLid,
} from '../../src/model/lid.js';

describe('LID text', () => {
  it('round-trips codes of every length', () => {
    for (const length of [4, 5, 6]) {
      for (let k = 0; k < 500; k++) {
        const code = candidate(k * 7919, k * 104729, k, length);
        const text = lidToString(code);
        expect(text).toHaveLength(length);
        if (/[a-z]/.test(text)) expect(parseLid(text)).toBe(code);
      }
    }
  });
  it('uses a lowercase alphabet without i, l, o, u', () => {
    expect(LID_ALPHABET).toHaveLength(32);
    expect(LID_ALPHABET).not.toMatch(/[ilou]/);
  });
  it.each([
    ['kq3f', true],
    ['1234', false], // no letter: would read as a line number
    ['KQ3F', false],
    ['kq3', false],
    ['abcdefg', false],
    ['ab1l', false],
    ['zzzzzz', true],
    ['end', false],
  ])('%s is an LID: %s', (text, expected) => {
    expect(isLidText(text)).toBe(expected);
  });
  it('is 4 characters up to 100,000 lines', () => {
    expect(lidLengthFor(0)).toBe(4);
    expect(lidLengthFor(100_000)).toBe(4);
    expect(lidLengthFor(100_001)).toBe(5);
    expect(lidLengthFor(5_000_000)).toBe(6);
  });
});

describe('LidSet', () => {
  it('holds codes of all lengths', () => {
    const set = new LidSet();
    const codes = [candidate(1, 2, 0, 4), candidate(1, 2, 0, 5), candidate(1, 2, 0, 6)];
    for (const c of codes) expect(set.has(c)).toBe(false);
    for (const c of codes) set.add(c);
    for (const c of codes) expect(set.has(c)).toBe(true);
    expect(set.has(candidate(1, 2, 1, 4))).toBe(false);
  });
  it('grows to hold hundreds of thousands of 6-character codes', () => {
    const set = new LidSet();
    const codes = Array.from({ length: 200_000 }, (_, i) => candidate(i * 2654435761, i, 0, 6));
    for (const c of codes) set.add(c);
    expect(codes.every((c) => set.has(c))).toBe(true);
    expect(set.has(candidate(1, 1, 1, 6)) === codes.includes(candidate(1, 1, 1, 6))).toBe(true);
  });
});
