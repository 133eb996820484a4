// writeAtomic given parts: the file they make, and how many writes it takes to make it.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { writeAtomic } from '../../src/store/state.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-write-atomic-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('writeAtomic of parts', () => {
  it('makes the file of the parts joined, small parts gathered into writes of 64 KiB, big ones written whole', () => {
    const small = Array.from({ length: 4000 }, (_, i) => Buffer.from(`part ${i}\n`));
    const big = Buffer.alloc(200_000, 'b');
    const parts = [...small.slice(0, 2000), big, Buffer.alloc(0), ...small.slice(2000)];
    const file = path.join(root, 'parts.bin');
    const writes = vi.spyOn(fs, 'writeSync');
    try {
      writeAtomic(file, parts);
      const bytes = parts.reduce((n, p) => n + p.length, 0) - big.length;
      // The small parts before the big one, the big one, the small ones after: each run in writes of 64 KiB.
      expect(writes.mock.calls.length).toBeLessThanOrEqual(Math.ceil(bytes / 65_536) + 3);
    } finally {
      writes.mockRestore();
    }
    expect(fs.readFileSync(file).equals(Buffer.concat(parts))).toBe(true);
    expect(fs.readdirSync(root)).toEqual(['parts.bin']);
  });

  it('makes the whole file when the system writes less than asked (parts of and about 64 KiB, empty ones)', () => {
    const sizes = [0, 1, 65_534, 65_535, 65_536, 65_537, 32_767, 131_072, 7];
    const parts = sizes.map((n, i) => Buffer.alloc(n, 97 + i));
    const file = path.join(root, 'short.bin');
    const write = fs.writeSync;
    let calls = 0;
    const writes = vi
      .spyOn(fs, 'writeSync')
      .mockImplementation(((fd: number, buffer: Uint8Array, offset: number, length: number) =>
        write(fd, buffer, offset, Math.max(1, Math.min(length, (++calls * 7919) % 40_000)))) as typeof fs.writeSync);
    try {
      writeAtomic(file, parts);
    } finally {
      writes.mockRestore();
    }
    expect(fs.readFileSync(file).equals(Buffer.concat(parts))).toBe(true);
  });
});
