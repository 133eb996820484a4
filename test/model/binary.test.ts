// Binary detection: a NUL byte in the first 8 KiB, or more than a third of the first
// 1 KiB control bytes that text does not use. Checked against the rule written out byte by byte.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { looksBinary, RATIO_BYTES, SNIFF_BYTES } from '../../src/model/binary.js';
import { runs } from '../support/runs.js';

/** The rule, one byte at a time. */
function reference(head: Buffer): boolean {
  const sniff = head.subarray(0, SNIFF_BYTES);
  if (sniff.includes(0)) return true;
  const n = Math.min(head.length, RATIO_BYTES);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = head[i]!;
    if (b < 0x20 && ![0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b].includes(b)) control++;
  }
  return n > 0 && control * 3 > n;
}

describe('looksBinary', () => {
  it('follows the rule for any bytes, text-like or not', () => {
    const byte = fc.oneof(
      fc.integer({ min: 0, max: 255 }),
      fc.integer({ min: 1, max: 0x1f }),
      fc.constantFrom(0x0a, 0x09, 0x41, 0xc3, 0xa9),
    );
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 1500 }), (bytes) => {
        const head = Buffer.from(bytes);
        expect(looksBinary(head)).toBe(reference(head));
      }),
      { numRuns: runs(3000) },
    );
  });

  it(
    'the edges: a third of control bytes is text, more is binary; ' +
      'a NUL late in the sniff counts, after it not; empty is text',
    () => {
      const third = Buffer.alloc(RATIO_BYTES, 0x41);
      third.fill(0x01, 0, Math.floor(RATIO_BYTES / 3));
      expect(looksBinary(third)).toBe(false);
      third[Math.floor(RATIO_BYTES / 3)] = 0x01;
      expect(looksBinary(third)).toBe(true);
      const late = Buffer.alloc(SNIFF_BYTES + 10, 0x41);
      late[SNIFF_BYTES - 1] = 0;
      expect(looksBinary(late)).toBe(true);
      late[SNIFF_BYTES - 1] = 0x41;
      late[SNIFF_BYTES] = 0;
      expect(looksBinary(late)).toBe(false);
      expect(looksBinary(Buffer.alloc(0))).toBe(false);
      expect(looksBinary(Buffer.from('tab\tesc\x1bbs\x08cr\r\nvt\x0bff\x0c'))).toBe(false);
    },
  );
});
