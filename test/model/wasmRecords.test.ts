// The WebAssembly decoder of a saved index's records (src/model/wasmRecords.ts) gives what
// decodeWords, splitWords and digestWords give, for any records, and refuses text that is not
// base64 (wasmAssembled.test.ts checks its module is src/model/wasm/records.wat).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { digestWords } from '../../src/model/digest.js';
import { encodeWords, recordWords } from '../../src/model/indexCodec.js';
import { digestRecords, recordMemory } from '../../src/model/wasmRecords.js';
import { runs } from '../support/runs.js';

function decoded(h1: Uint32Array, h2: Uint32Array, lids: Uint32Array, block: number) {
  const n = h1.length;
  const words = recordWords({ h1, h2, lids }, 0, n);
  const text = Buffer.from(encodeWords(words), 'latin1');
  const memory = recordMemory(n, block);
  if (!memory) throw new Error('no WebAssembly here');
  text.copy(memory.text);
  const got = memory.decode();
  let want = '';
  for (let w = 0; w < words.length; w += block * 3)
    want += digestWords(words, w, Math.min(words.length, w + block * 3));
  return { got, digests: memory.digests(), want, text: memory.text };
}

describe('wasm records', () => {
  it('decodes and digests as the JavaScript does: any words, any line count, any block', () => {
    const word = fc.oneof(
      fc.integer({ min: 0, max: 0xffffffff }),
      fc.constantFrom(0, 0xffffffff, 0x80000000, 1, 0xfbfbfbfb),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(word, word, word), { maxLength: 80 }),
        fc.integer({ min: 1, max: 9 }),
        (rows, block) => {
          const h1 = Uint32Array.from(rows.map((r) => r[0]));
          const h2 = Uint32Array.from(rows.map((r) => r[1]));
          const lids = Uint32Array.from(rows.map((r) => r[2]));
          const { got, digests, want } = decoded(h1, h2, lids, block);
          expect(got && [...got.h1]).toEqual([...h1]);
          expect(got && [...got.h2]).toEqual([...h2]);
          expect(got && [...got.lids]).toEqual([...lids]);
          expect(digests).toBe(want);
          // The same digests, of arrays copied into a small memory a few blocks at a time.
          expect(digestRecords({ h1, h2, lids }, rows.length, block)).toBe(want);
          // And with the records encoded there, a few blocks at a time, as encodeWords encodes them.
          const parts: string[] = [];
          const hex = digestRecords({ h1, h2, lids }, rows.length, block, (text) =>
            parts.push(text.toString('latin1')),
          );
          expect(hex).toBe(want);
          expect(parts.join('')).toBe(encodeWords(recordWords({ h1, h2, lids }, 0, rows.length)));
          expect(parts.length).toBe(Math.ceil(rows.length / (16 * block)));
        },
      ),
      { numRuns: runs(2000) },
    );
  });

  it('reads records a piece at a time into arrays with room after them, as decoding them whole does', () => {
    const n = 5000;
    const words = (seed: number) => Uint32Array.from({ length: n }, (_, i) => Math.imul(i + seed, 2654435761) >>> 0);
    const [h1, h2, lids] = [words(1), words(2), words(3)];
    const text = Buffer.from(encodeWords(recordWords({ h1, h2, lids }, 0, n)), 'latin1');
    const memory = recordMemory(n, 64, 700, 300)!;
    expect(memory.text.length).toBe(700 * 16);
    for (let at = 0; at < n; at += 700) {
      const count = Math.min(700, n - at);
      text.copy(memory.text, 0, at * 16, (at + count) * 16);
      expect(memory.decodeAt(at, count)).toBe(true);
    }
    const got = memory.words(n);
    expect([[...got.h1], [...got.h2], [...got.lids]]).toEqual([[...h1], [...h2], [...lids]]);
    expect(memory.digests()).toBe(digestRecords({ h1, h2, lids }, n, 64));
    // Room for 300 lines more: views that long are of the same memory, longer ones refused.
    expect(memory.words(n + 300).lids.buffer).toBe(got.lids.buffer);
    expect(() => memory.words(n + 301)).toThrow();
    expect(memory.decodeAt(0, 701)).toBe(false);
  });

  it('decodes a million lines in blocks of 1,024, as the index keeps them', () => {
    const n = 1_000_003;
    const h1 = new Uint32Array(n);
    const h2 = new Uint32Array(n);
    const lids = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      h1[i] = Math.imul(i, 2654435761) >>> 0;
      h2[i] = Math.imul(i ^ 0x5bd1e995, 40503) >>> 0;
      lids[i] = (i * 7919) >>> 0;
    }
    const { got, digests, want, text } = decoded(h1, h2, lids, 1024);
    // Encoded there a piece at a time (each a view the next replaces), as encodeWords encodes them.
    const parts: Buffer[] = [];
    expect(digestRecords({ h1, h2, lids }, n, 1024, (piece) => parts.push(Buffer.from(piece)))).toBe(want);
    expect(Buffer.concat(parts).equals(text.subarray(0, 16 * n))).toBe(true);
    expect(Buffer.from(got!.h1.buffer, got!.h1.byteOffset, got!.h1.byteLength).equals(Buffer.from(h1.buffer))).toBe(
      true,
    );
    expect(
      Buffer.from(got!.lids.buffer, got!.lids.byteOffset, got!.lids.byteLength).equals(Buffer.from(lids.buffer)),
    ).toBe(true);
    expect(digests).toBe(want);
  });

  it('gives its memory back to the next module: digests taken a piece after another make one memory', () => {
    const n = 3000;
    const words = (seed: number) => Uint32Array.from({ length: n }, (_, i) => Math.imul(i + seed, 2654435761) >>> 0);
    const index = { h1: words(1), h2: words(2), lids: words(3) };
    const want = digestRecords(index, n, 64);
    const Memory = WebAssembly.Memory;
    let made = 0;
    WebAssembly.Memory = class extends Memory {
      constructor(descriptor: WebAssembly.MemoryDescriptor) {
        super(descriptor);
        made++;
      }
    };
    try {
      for (let k = 0; k < 5; k++) expect(digestRecords(index, n, 64)).toBe(want);
    } finally {
      WebAssembly.Memory = Memory;
    }
    expect(made).toBe(0);
  });

  it('refuses a character outside base64, = included, wherever it stands', () => {
    const h = Uint32Array.from([1, 2, 3]);
    for (const bad of ['=', '-', '_', ' ', '\n', '\0', '\x80', '\xff', '@', '[', '`', '{', ':', '.']) {
      for (const at of [0, 7, 15, 16, 47]) {
        const { text } = decoded(h, h, h, 1024);
        const memory = recordMemory(3, 1024)!;
        text.copy(memory.text);
        memory.text[at] = bad.charCodeAt(0);
        expect(memory.decode(), `${JSON.stringify(bad)} at ${at}`).toBeUndefined();
      }
    }
  });
});
