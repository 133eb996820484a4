import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { byteOffsets } from '../../src/model/utf8Offsets.js';
import { runs } from '../support/runs.js';

describe('byteOffsets', () => {
  it('is where the text before each offset ends in the bytes, as Node decodes them (random bytes, UTF-8 or no)', () => {
    const byte = fc.oneof(
      fc.integer({ min: 0, max: 255 }),
      fc.constantFrom(0xe2, 0x80, 0xa8, 0xf0, 0x9f, 0x98, 0xed, 0xa0, 0xc3, 0xa9, 0xf4, 0x90, 0xe0),
    );
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 40 }), (values) => {
        const bytes = Buffer.from(values);
        const text = bytes.toString('utf8');
        const offsets = byteOffsets(
          bytes,
          Array.from({ length: text.length + 2 }, (_, i) => i),
        );
        for (let i = 0; i <= text.length; i++) {
          // An offset between the halves of a surrogate pair is taken to the character's end.
          const inside =
            i > 0 && i < text.length && /[\ud800-\udbff]/.test(text[i - 1]!) && /[\udc00-\udfff]/.test(text[i]!);
          expect(bytes.subarray(0, offsets[i]).toString('utf8')).toBe(text.slice(0, inside ? i + 1 : i));
        }
        expect(offsets[text.length + 1]).toBe(bytes.length);
      }),
      { numRuns: runs(5000) },
    );
  });

  it('places of a few texts', () => {
    expect(byteOffsets(Buffer.from('caf\u00e9 x'), [0, 3, 4, 5, 6])).toEqual([0, 3, 5, 6, 7]);
    expect(byteOffsets(Buffer.from('a\u{1F600}b'), [1, 2, 3, 4])).toEqual([1, 5, 5, 6]);
    expect(byteOffsets(Buffer.from([0x61, 0xe2, 0x82, 0x62]), [1, 2, 3])).toEqual([1, 3, 4]); // one U+FFFD for E2 82
    expect(byteOffsets(Buffer.from([0x80, 0x80]), [0, 1, 2])).toEqual([0, 1, 2]); // one U+FFFD each
  });
});
