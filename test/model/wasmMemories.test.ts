// digestRecords hands its WebAssembly memory on to the next module made (giveBack): interleaved
// with record memories kept alive, a line hasher and dropSpareMemory, every digest must be the
// JavaScript one and no live view of another module's memory may change.
import { describe, expect, it } from 'vitest';
import { digestWords } from '../../src/model/digest.js';
import { encodeWords, recordWords } from '../../src/model/indexCodec.js';
import { lineHasher } from '../../src/model/wasmHash.js';
import { dropSpareMemory } from '../../src/model/wasmModule.js';
import { digestRecords, recordMemory } from '../../src/model/wasmRecords.js';

type Words = { h1: Uint32Array; h2: Uint32Array; lids: Uint32Array };

/** The digests digestRecords must give: digestWords over each block's records. */
function expected(index: Words, n: number, block: number): string {
  const w = recordWords(index, 0, n);
  let s = '';
  for (let k = 0; k < w.length; k += block * 3) s += digestWords(w, k, Math.min(w.length, k + block * 3));
  return s;
}

describe('WebAssembly memories handed on', () => {
  it('digests and live views hold through any order of makes, give-backs and drops', () => {
    let seed = 20261129;
    const rnd = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    const between = (a: number, b: number) => a + Math.floor(rnd() * (b - a + 1));
    const words = (n: number) => Uint32Array.from({ length: n }, () => (rnd() * 2 ** 32) >>> 0);
    const live: Array<Words & { want: Words; text: Buffer; wantText: Buffer }> = [];
    for (let step = 0; step < 800; step++) {
      const op = between(0, 8);
      if (op <= 3) {
        const block = [1024, 64, 7, 1][between(0, 3)]!;
        const from = op === 3 && live.length ? live[between(0, live.length - 1)]! : undefined;
        const n = from ? between(1, from.h1.length) : between(1, between(0, 1) ? 40_000 : 300);
        const index = from ?? { h1: words(n), h2: words(n), lids: words(n) };
        expect(digestRecords(index, n, block), `step ${step}`).toBe(expected(index, n, block));
      } else if (op <= 5) {
        const n = between(1, 20_000);
        const memory = recordMemory(n, 1024);
        expect(memory).toBeDefined();
        const want = { h1: words(n), h2: words(n), lids: words(n) };
        Buffer.from(encodeWords(recordWords(want, 0, n)), 'latin1').copy(memory!.text);
        const decoded = memory!.decode();
        expect(decoded).toBeDefined();
        expect(memory!.digests()).toBe(expected(want, n, 1024));
        live.push({ ...decoded!, want, text: memory!.text, wantText: Buffer.from(memory!.text) });
        if (live.length > 6) live.shift();
      } else if (op === 6) {
        const hasher = lineHasher(1 << between(10, 16), 4096, 1024);
        if (hasher) {
          hasher.bytes.fill(0x61);
          for (let k = 50; k < hasher.bytes.length; k += 97) hasher.bytes[k] = 10;
          hasher.hash(0, hasher.bytes.length, 4096, new Uint32Array(4096), new Uint32Array(4096), 0, () => {});
          hasher.done();
        }
      } else dropSpareMemory();
      for (const view of live) {
        const same = (a: Uint32Array, b: Uint32Array) => a.length === b.length && a.every((x, k) => x === b[k]);
        const held = same(view.h1, view.want.h1) && same(view.h2, view.want.h2) && same(view.lids, view.want.lids);
        expect(held && view.text.equals(view.wantText), `a live view changed at step ${step}`).toBe(true);
      }
    }
  });
});
