// CRC-32 put together from pieces (src/model/crc32.ts) is zlib's CRC-32 of the bytes whole, and
// an edit's content digest taken from the chunks of the file it read (contentDigest) is the one
// of the bytes written.

import zlib from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChunkCrcs, crc32Combine } from '../../src/model/crc32.js';
import { contentDigest } from '../../src/store/indexedFile.js';
import { runs } from '../support/runs.js';

const crc32 = (bytes: Uint8Array, crc?: number) => zlib.crc32(bytes, crc);

describe('crc32 combined', () => {
  it('is the CRC of the bytes put together', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ maxLength: 300 }), (a, b) => {
        expect(crc32Combine(crc32(a), crc32(b), b.length)).toBe(crc32(Buffer.concat([a, b])));
      }),
      { numRuns: runs(500) },
    );
  });

  it('of a long run of bytes, across every bit of its length', () => {
    const b = Buffer.alloc(3 * 1024 * 1024 + 12345, 7);
    b.write('some text in it', 1_000_000);
    const a = Buffer.from('the part before');
    expect(crc32Combine(crc32(a), crc32(b), b.length)).toBe(crc32(Buffer.concat([a, b])));
  });

  it('gives any range of a file read in chunks, as zlib reads it', () => {
    const bytes = Buffer.alloc(5 * ChunkCrcs.CHUNK + 333);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 2654435761) >>> 24;
    const chunks = new ChunkCrcs(bytes, crc32);
    expect(chunks.whole).toBe(crc32(bytes));
    fc.assert(
      fc.property(fc.nat(bytes.length), fc.nat(bytes.length), (x, y) => {
        const [from, to] = x <= y ? [x, y] : [y, x];
        expect(chunks.range(from, to)).toBe(crc32(bytes.subarray(from, to)));
      }),
      { numRuns: runs(300) },
    );
    for (const [from, to] of [
      [0, ChunkCrcs.CHUNK],
      [ChunkCrcs.CHUNK, 3 * ChunkCrcs.CHUNK],
      [1, bytes.length - 1],
      [bytes.length, bytes.length],
    ] as const) {
      expect(chunks.range(from, to)).toBe(crc32(bytes.subarray(from, to)));
    }
    expect(chunks.rangeOf(bytes.subarray(10, 20))).toEqual({ from: 10, to: 20 });
    expect(chunks.rangeOf(Buffer.from(bytes.subarray(10, 20)))).toBeUndefined();
  });
});

describe('contentDigest of an edit', () => {
  it('is the digest of the bytes written, taken from the chunks of the file read', () => {
    fc.assert(
      fc.property(fc.nat(3_000_000), fc.nat(200_000), fc.uint8Array({ maxLength: 100 }), (at, cut, inserted) => {
        const old = Buffer.alloc(3_000_000 + (at % 777));
        for (let i = 0; i < old.length; i += 4096) old[i] = (i / 4096) & 0xff;
        expect(contentDigest([old])).toBe(`crc32:${old.length}:${crc32(old).toString(16)}`);
        const start = Math.min(at, old.length);
        const end = Math.min(old.length, start + cut);
        const parts = [old.subarray(0, start), Buffer.from(inserted), old.subarray(end)];
        const whole = Buffer.concat(parts);
        const want =
          whole.length < 1 << 20
            ? contentDigest([Buffer.from(whole)])
            : `crc32:${whole.length}:${crc32(whole).toString(16)}`;
        expect(contentDigest(parts)).toBe(want);
      }),
      { numRuns: runs(25) },
    );
  });

  it('keeps what came before an empty part (zlib answers 0 for no data at all)', () => {
    const old = Buffer.alloc(3_000_001, 1);
    contentDigest([old]);
    const want = `crc32:${old.length}:${crc32(old).toString(16)}`;
    for (const empty of [Buffer.from([]), Buffer.concat([]), Buffer.alloc(0)]) {
      expect(contentDigest([old.subarray(0, 1), empty, old.subarray(1)])).toBe(want);
      expect(contentDigest([old.subarray(0, 1_500_000), empty, old.subarray(1_500_000)])).toBe(want);
      expect(contentDigest([Buffer.from(old.subarray(0, 5)), empty, Buffer.from(old.subarray(5))])).toBe(want);
    }
  });
});
