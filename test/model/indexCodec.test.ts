// The records of a saved index (src/model/indexCodec.ts): decodeRecords reads them from their
// bytes as decodeWords does from text, and refuses what is no record.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeRecords, decodeWords, encodeWords, RECORD_B64 } from '../../src/model/indexCodec.js';
import { runs } from '../support/runs.js';

describe('decodeRecords', () => {
  it('gives the words encodeWords wrote, as decodeWords does, at any offset of the bytes (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 0xffffffff }), { maxLength: 60 }), fc.nat(5), (values, offset) => {
        const words = new Uint32Array(values.slice(0, values.length - (values.length % 3)));
        const text = Buffer.from(`${'x'.repeat(offset)}${encodeWords(words)}`, 'latin1').subarray(offset);
        expect([...decodeRecords(text)]).toEqual([...words]);
        expect([...decodeRecords(text)]).toEqual([...decodeWords(text)]);
      }),
      { numRuns: runs(500) },
    );
  });

  it('refuses a byte that is no base64 digit, padding and a partial record', () => {
    const good = Buffer.from(encodeWords(new Uint32Array([1, 2, 3, 4, 5, 6])), 'latin1');
    expect(good.length).toBe(2 * RECORD_B64);
    for (const bad of ['=', ' ', '\n', '-', '\u00e9']) {
      const damaged = Buffer.from(good);
      damaged.write(bad, 5, 'latin1');
      expect(() => decodeRecords(damaged)).toThrow(/damaged/);
    }
    expect(() => decodeRecords(good.subarray(0, RECORD_B64 + 4))).toThrow(/truncated/);
    expect(decodeRecords(Buffer.alloc(0)).length).toBe(0);
  });
});
