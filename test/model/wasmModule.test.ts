// A memory given back (src/model/wasmModule.ts, giveBack) is taken by the next module, zeroed, when it
// can grow to the size asked; else a new memory is; one let go of (at a command's end, or when a
// file's claims are taken in JavaScript) is not.

import { describe, expect, it } from 'vitest';
import { freshLids } from '../../src/model/freshLids.js';
import { hashLines } from '../../src/model/hash.js';
import { splitLines } from '../../src/model/lines.js';
import { CLAIMS_WASM } from '../../src/model/wasmClaims.js';
import { dropSpareMemory, giveBack, instantiate, PAGE } from '../../src/model/wasmModule.js';

/** A memory of one page, its first bytes written; at most `maximum` pages. */
function written(maximum?: number): WebAssembly.Memory {
  const memory = new WebAssembly.Memory(maximum === undefined ? { initial: 1 } : { initial: 1, maximum });
  new Uint8Array(memory.buffer).fill(7, 0, 100);
  return memory;
}

describe('a memory given back', () => {
  it('is taken by the next module, zeroed and grown to its size', () => {
    const memory = written();
    giveBack(memory);
    const instance = instantiate(CLAIMS_WASM, 3 * PAGE);
    if (!instance) throw new Error('no WebAssembly');
    expect(instance.memory).toBe(memory);
    expect(memory.buffer.byteLength).toBe(3 * PAGE);
    expect(new Uint8Array(memory.buffer).every((byte) => byte === 0)).toBe(true);
    // taken once only
    expect(instantiate(CLAIMS_WASM, PAGE)?.memory).not.toBe(memory);
  });

  it('that cannot grow to the size asked leaves the module a new memory, not none', () => {
    const memory = written(1);
    giveBack(memory);
    const instance = instantiate(CLAIMS_WASM, 2 * PAGE);
    expect(instance).toBeDefined();
    expect(instance?.memory).not.toBe(memory);
    expect(instance?.memory.buffer.byteLength).toBe(2 * PAGE);
  });

  it('is let go of at the end of a command: the next module has a new memory', () => {
    const memory = written();
    giveBack(memory);
    dropSpareMemory();
    expect(instantiate(CLAIMS_WASM, PAGE)?.memory).not.toBe(memory);
  });

  it("is let go of when a file's claims are taken in JavaScript, not held through them", () => {
    const memory = written();
    giveBack(memory);
    freshLids(hashLines(splitLines(Buffer.from('a\nb\n'))), Number.POSITIVE_INFINITY);
    expect(instantiate(CLAIMS_WASM, PAGE)?.memory).not.toBe(memory);
  });
});
