import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assignByKeys } from '../../src/model/freshLids.js';
import { letterTest, settleClashes } from '../../src/model/clashRounds.js';
import { candidate, hasLetter } from '../../src/model/lid.js';
import { runs } from '../support/runs.js';

/**
 * The first claims of lines keyed (k1, k2), as assignByKeys documents them: each line's first two
 * candidates with a letter.
 */
function firstClaims(k1: Uint32Array, k2: Uint32Array, length: number) {
  const n = k1.length;
  const lids = new Uint32Array(n);
  const once = new Set<number>();
  const twice = new Set<number>();
  const claim = (code: number) => (once.has(code) ? twice.add(code) : once.add(code));
  for (let i = 0; i < n; i++) {
    let k = 0;
    const next = () => {
      while (!hasLetter(candidate(k1[i]!, k2[i]!, k, length) & 0x3fffffff, length)) k++;
      return candidate(k1[i]!, k2[i]!, k++, length);
    };
    lids[i] = next();
    claim(lids[i]!);
    claim(next());
  }
  const pending = Uint32Array.from(Array.from(lids.keys()).filter((i) => twice.has(lids[i]!)));
  return { lids, claims: { once, twice }, pending };
}

describe('the rounds that settle clashing fresh LIDs', () => {
  // Two lines of one key clash at every candidate, through every round: each round they reserve a
  // code nobody claimed before, which no line can hold, so no line is looked for as its holder.
  it.each([4, 5, 6])(
    'look for no holder of a code first claimed in the round itself (two equal keys, %i characters)',
    (length) => {
      const n = 200;
      const k1 = new Uint32Array(n);
      const k2 = new Uint32Array(n);
      for (let i = 0; i < n; i++) {
        k1[i] = Math.imul(i + 1, 0x9e3779b1) >>> 0;
        k2[i] = Math.imul(i + 7, 0x85ebca6b) >>> 0;
      }
      k1[150] = k1[30]!;
      k2[150] = k2[30]!;
      const { lids, claims, pending } = firstClaims(k1, k2, length);
      expect(Array.from(pending)).toEqual([30, 150]);
      let scans = 0;
      settleClashes(k1, k2, lids, length, claims, pending, (codes) => {
        scans++;
        return Uint32Array.from(Array.from(lids.keys()).filter((i) => codes.includes(lids[i]!)));
      });
      expect(scans).toBe(0);
      expect(Array.from(lids)).toEqual(Array.from(assignByKeys({ h1: k1, h2: k2 }, length)));
      expect(lids[30]).not.toBe(lids[150]);
    },
  );
});

describe('letterTest', () => {
  it.each([4, 5, 6])('tells a letter in a value of %i characters as hasLetter does', (length) => {
    const test = letterTest(length);
    const mask = 2 ** (5 * length) - 1;
    fc.assert(
      fc.property(fc.nat(), (x) => test(x & mask) === hasLetter(x & mask, length)),
      { numRuns: runs(2000) },
    );
    // Every value of one digit, alone and above others, and all ten-free values of a few digits.
    for (let d = 0; d < 32; d++)
      for (const rest of [0, 9, 31, 0x1ef7bdef])
        expect(test(((rest << 5) | d) & mask)).toBe(hasLetter(((rest << 5) | d) & mask, length));
    expect(test(0)).toBe(false);
    expect(test(0x12409 & mask)).toBe(false);
  });
});
