// Digests (src/model/digest.ts): of the bytes given, wherever they lie in memory.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { digestBytes, digestParts, digestText, digestWords } from '../../src/model/digest.js';
import { runs } from '../support/runs.js';

describe('digestBytes', () => {
  it('is the digest of the bytes, whatever their offset in the buffer they are a view of (property)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 40 }),
        fc.nat(7),
        fc.uint8Array({ minLength: 8, maxLength: 8 }),
        (bytes, offset, noise) => {
          const pool = Buffer.alloc(offset + bytes.length + 8);
          Buffer.from(noise).copy(pool, 0, 0, offset);
          Buffer.from(bytes).copy(pool, offset);
          Buffer.from(noise).copy(pool, offset + bytes.length);
          const view = pool.subarray(offset, offset + bytes.length);
          expect(digestBytes(view)).toBe(digestBytes(new Uint8Array(bytes)));
        },
      ),
      { numRuns: runs(2000) },
    );
  });

  it('tells apart contents that differ', () => {
    expect(digestBytes(Buffer.from('abc\n'))).not.toBe(digestBytes(Buffer.from('abd\n')));
    expect(digestBytes(Buffer.from('x'))).not.toBe(digestBytes(Buffer.from('x\0')));
  });
});

describe('digestText', () => {
  it('is digestWords of the text’s UTF-16 code units (seeded), read without copying them', () => {
    // The digest of an index head saved by an earlier run must read the same.
    expect(digestText('')).toBe(digestWords(new Uint32Array(0), 0, 0, 0x27d4eb2f));
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const codes = new Uint32Array(text.length);
        for (let i = 0; i < text.length; i++) codes[i] = text.charCodeAt(i);
        expect(digestText(text)).toBe(digestWords(codes, 0, codes.length, 0x27d4eb2f));
      }),
    );
  });
});

describe('the digests as saved', () => {
  it('keep the values saved state holds (16 hex digits, each lane zero-padded)', () => {
    // Taken with the former formatting of the lanes: state saved before must still check.
    expect(digestText('rt')).toBe('c6fabcf7448b3d30');
    expect(digestWords(new Uint32Array([1, 2, 3, 0xffffffff]))).toBe('c23a99ea75011c1b');
    expect(digestBytes(Buffer.from('abc\n'))).toBe('b4343ad1f4c76bd3');
    for (let n = 0; n < 200; n++) expect(digestWords(new Uint32Array([n]))).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe('digestParts', () => {
  /** A part at any offset of a bigger buffer, as lines cut from a file are. */
  const part = fc
    .tuple(fc.uint8Array({ maxLength: 40 }), fc.nat(7))
    .map(([b, at]) =>
      Buffer.concat([Buffer.alloc(at, 0xee), Buffer.from(b), Buffer.alloc(3, 0xee)]).subarray(at, at + b.length),
    );

  it('is digestBytes of the parts joined, however they are cut and wherever they lie (property)', () => {
    fc.assert(
      fc.property(fc.array(part, { maxLength: 8 }), (parts) => {
        expect(digestParts(parts)).toBe(digestBytes(Buffer.concat(parts)));
      }),
      { numRuns: runs(2000) },
    );
  });

  it('is digestBytes of parts bigger than what it stages at a time, aligned or not', () => {
    const big = Buffer.alloc(300_001);
    for (let i = 0; i < big.length; i++) big[i] = (i * 131 + (i >>> 9)) & 0xff;
    for (const cut of [0, 1, 2, 3, 5, 8, 65_536, 65_537, 131_071]) {
      for (const shift of [0, 1, 3]) {
        const parts = [big.subarray(shift, cut + shift), big.subarray(cut + shift)];
        expect(digestParts(parts)).toBe(digestBytes(Buffer.concat(parts)));
      }
    }
  });
});
