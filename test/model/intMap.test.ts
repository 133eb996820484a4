// IntMap (src/model/intMap.ts) answers as a Map of numbers does, through its growth.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IntMap } from '../../src/model/intMap.js';
import { runs } from '../support/runs.js';

describe('IntMap', () => {
  it('gets what was set last, and nothing else, as a Map does', () => {
    const key = fc.oneof(
      fc.integer({ min: 0, max: 40 }),
      fc.integer({ min: 0, max: 0xffffffff }),
      fc.constantFrom(0, 0xffffffff, 0x80000000),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(key, fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })), { maxLength: 300 }),
        fc.array(key, { maxLength: 50 }),
        fc.nat(20),
        (sets, probes, expected) => {
          const map = new IntMap(expected);
          const want = new Map<number, number>();
          for (const [k, v] of sets) {
            map.set(k, v);
            want.set(k, v);
          }
          expect(map.size).toBe(want.size);
          for (const k of [...want.keys(), ...probes]) expect(map.get(k)).toBe(want.get(k));
        },
      ),
      { numRuns: runs(500) },
    );
  });
});
