// digestAscii (src/model/wasmDigest.ts) is digestText of the text its bytes spell, when they are
// ASCII, and refuses bytes that are not; bytesDigester gives digestBytes of each range it is asked for.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { digestBytes, digestText } from '../../src/model/digest.js';
import { bytesDigester, digestAscii } from '../../src/model/wasmDigest.js';
import { runs } from '../support/runs.js';

/** Lengths on either side of a lane pair's edge, small and past a memory page. */
const LENGTHS = [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 63, 64, 65, 65535, 65536, 65537, 65543, 65544, 65545];

describe('digestAscii', () => {
  it('gives digestText of ASCII text, at every length around the edges', () => {
    for (const n of LENGTHS) {
      const text = Array.from({ length: n }, (_, i) => String.fromCharCode((i * 37 + n) % 128)).join('');
      expect(digestAscii(Buffer.from(text, 'latin1'))).toBe(digestText(text));
    }
  });

  it('gives digestText of ASCII text (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii', maxLength: 300 }), (text) => {
        expect(digestAscii(Buffer.from(text, 'latin1'))).toBe(digestText(text));
      }),
      { numRuns: runs(2000) },
    );
  });

  it('refuses text that is not ASCII, wherever its first such byte lies (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary-ascii', maxLength: 200 }),
        fc.constantFrom('\x80', '\xff', '\u0100', '\u20ac', '\ud83d\ude00', '\ud800'),
        fc.string({ unit: 'binary-ascii', maxLength: 200 }),
        (before, odd, after) => {
          expect(digestAscii(Buffer.from(before + odd + after, 'utf8'))).toBeUndefined();
        },
      ),
      { numRuns: runs(1000) },
    );
    for (const n of LENGTHS.filter((n) => n > 0)) {
      const bytes = Buffer.alloc(n, 0x61);
      bytes[n - 1] = 0x80;
      expect(digestAscii(bytes)).toBeUndefined();
      bytes[n - 1] = 0x61;
      bytes[0] = 0xff;
      expect(digestAscii(bytes)).toBeUndefined();
    }
  });

  it('reads bytes wherever they lie in the buffer they are a view of', () => {
    const pool = Buffer.from('xx{"toc":[["index:a",33,10,1,2,null]]}\nyy', 'latin1');
    const view = pool.subarray(2, pool.length - 2);
    expect(digestAscii(view)).toBe(digestText(view.toString('latin1')));
  });
});

describe('bytesDigester', () => {
  it('gives digestBytes of each range, whatever its start and length (property)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 400 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 12 }),
        (bytes, picks) => {
          const starts = picks.map(([a]) => (bytes.length === 0 ? 0 : a % (bytes.length + 1)));
          const ends = picks.map(([, b], i) => starts[i]! + (b % (bytes.length - starts[i]! + 1)));
          const digest = bytesDigester(bytes)!;
          expect(starts.map((s, i) => digest(s, ends[i]!))).toEqual(
            starts.map((s, i) => digestBytes(bytes.subarray(s, ends[i]))),
          );
        },
      ),
      { numRuns: runs(2000) },
    );
  });

  it('gives digestBytes of ranges around the edges of a word pair, and past a memory page', () => {
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 131 + 7) & 0xff));
    const starts = LENGTHS.flatMap((n) => [0, 1, 2, 3].filter((s) => s + n <= bytes.length));
    const ends = LENGTHS.flatMap((n) => [0, 1, 2, 3].filter((s) => s + n <= bytes.length).map((s) => s + n));
    const digest = bytesDigester(bytes)!;
    expect(starts.map((s, i) => digest(s, ends[i]!))).toEqual(
      starts.map((s, i) => digestBytes(bytes.subarray(s, ends[i]))),
    );
  });
});
