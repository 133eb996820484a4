import { describe, expect, it } from 'vitest';
import { assignByKeys } from '../../src/model/freshLids.js';
import { settleClashes } from '../../src/model/clashRounds.js';
import { candidate, hasLetter } from '../../src/model/lid.js';

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
