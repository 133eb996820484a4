// A long line's fingerprint is taken in WebAssembly (hashLong, a piece at a time): the same two
// hashes as JavaScript's loop gives, for any bytes, any piece size and any place of the line.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fmix32, hashBytes, hashLines, LONG_LINE } from '../../src/model/hash.js';
import { splitLines } from '../../src/model/lines.js';
import { hashLong } from '../../src/model/wasmHash.js';

/** The chain over `bytes` from `state` as JavaScript runs it: FNV-1a, and the sum of its states. */
function chainOf(bytes: Uint8Array, state: readonly [number, number]): [number, number] {
  let [a, b] = state;
  for (const byte of bytes) {
    a = Math.imul(a ^ byte, 0x01000193);
    b = (b + a) | 0;
  }
  return [a | 0, b | 0];
}

/** A line's two hashes by their definition (see src/model/hash.ts). */
function fingerprint(content: Uint8Array): [number, number] {
  const [a, b] = chainOf(content, [0x811c9dc5, 0x9747b28c]);
  return [fmix32(a ^ content.length) >>> 0, fmix32(b ^ Math.imul(content.length, 0x5bd1e995)) >>> 0];
}

function randomBytes(length: number, seed: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  let x = seed | 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

describe('hashLong', () => {
  it('carries the chain as JavaScript does, whatever the piece and the range', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 600 }),
        fc.integer({ min: 1, max: 700 }),
        fc.nat(),
        fc.nat(),
        fc.tuple(fc.integer(), fc.integer()),
        (bytes, piece, a, b, state) => {
          const start = bytes.length === 0 ? 0 : a % (bytes.length + 1);
          const end = start + (bytes.length === start ? 0 : b % (bytes.length - start + 1));
          const carried = Int32Array.from(state);
          if (!hashLong(bytes, start, end, carried, piece)) return; // no WebAssembly: nothing to compare
          expect([...carried]).toEqual(chainOf(bytes.subarray(start, end), [state[0] | 0, state[1] | 0]));
        },
      ),
    );
  });

  it('gives a line at and past LONG_LINE the fingerprint of its bytes, pieces and endings as they fall', () => {
    for (const length of [LONG_LINE - 1, LONG_LINE, LONG_LINE + 1, (1 << 20) - 1, 1 << 20, (1 << 20) + 3, 3 << 20]) {
      const content = randomBytes(length, length).map((byte) => (byte === 0x0a ? 0x0b : byte));
      expect(hashBytes(content)).toEqual(fingerprint(content));
      // In a file: a CRLF ending not part of it, a last line without one keeping its `\r`.
      const file = Buffer.concat([Buffer.from('a\r\n'), content, Buffer.from('\r\n'), content, Buffer.from('\r')]);
      const { h1, h2 } = hashLines(splitLines(file));
      const last = Buffer.concat([content, Buffer.from('\r')]);
      expect([...h1]).toEqual([fingerprint(Buffer.from('a'))[0], fingerprint(content)[0], fingerprint(last)[0]]);
      expect([...h2]).toEqual([fingerprint(Buffer.from('a'))[1], fingerprint(content)[1], fingerprint(last)[1]]);
    }
  });
});
