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
});
