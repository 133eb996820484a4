// Digests (src/model/digest.ts): of the bytes given, wherever they lie in memory.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { digestBytes } from '../../src/model/digest.js';
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
