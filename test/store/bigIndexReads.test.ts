// A big saved index's records are read into WebAssembly's memory by the blocks a command needs
// (src/store/savedIndex.ts, blocksRead): a line at a time (an outline's spans) makes no memory a
// call, and a search hitting every block reads them a piece at a time, not all into one memory.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { lidToString } from '../../src/model/lid.js';
import { openIndexed } from '../../src/store/indexedFile.js';
import { resolveInRoot } from '../../src/store/root.js';
import { BLOCK, SavedIndex } from '../../src/store/savedIndex.js';
import { StateStore } from '../../src/store/state.js';
import { readSettings } from '../../src/settings/env.js';
import { cleanup, tempDir } from '../e2e/harness.js';

/** The line counts of the record memories made (recordMemory's first argument). */
const made = vi.hoisted(() => ({ lines: [] as number[] }));
vi.mock('../../src/model/wasmRecords.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/model/wasmRecords.js')>();
  return {
    ...real,
    recordMemory: (...args: Parameters<typeof real.recordMemory>) => {
      made.lines.push(args[0]);
      return real.recordMemory(...args);
    },
  };
});

// A memory handed on is filled with 0xff here (the next module zeroes it anyway): a view of it
// used after `done` gives wrong LIDs, which the tests below would see.
vi.mock('../../src/model/wasmModule.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/model/wasmModule.js')>();
  return {
    ...real,
    giveBack: (memory: WebAssembly.Memory) => {
      new Uint8Array(memory.buffer).fill(0xff);
      return real.giveBack(memory);
    },
  };
});

afterAll(cleanup);
// rt's clock a minute ahead: an index saved now is trusted alone (not "racy").
beforeAll(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + 60_000);
});
afterAll(() => vi.useRealTimers());

const root = fs.realpathSync(tempDir());
fs.mkdirSync(path.join(root, '.rt'));
const store = new StateStore(root, readSettings({}), (m) => {
  throw new Error(m);
});

/** A file of `lines` distinct lines, settled, its index saved: the SavedIndex and every line's LID. */
function saved(rel: string, lines: number): { index: SavedIndex; lids: string[] } {
  let text = '';
  for (let i = 0; i < lines; i++) text += `line ${i} of ${rel}\n`;
  fs.writeFileSync(path.join(root, rel), text);
  const settled = new Date(Date.now() - 60_000);
  fs.utimesSync(path.join(root, rel), settled, settled);
  const opened = openIndexed(store, resolveInRoot({ dir: root, cwd: root }, rel));
  opened.persist();
  const lids = [...opened.lids(0, opened.total)].map(lidToString);
  const index = SavedIndex.open(store, rel);
  if (!index) throw new Error('no index saved');
  return { index, lids };
}

describe("a big index's blocks read into WebAssembly", () => {
  it('a line at a time makes no memory a call; a span of several blocks makes one', () => {
    const { index, lids } = saved('outline.txt', 20_000);
    made.lines.length = 0;
    for (let i = 0; i < 1000; i++) expect(lidToString(index.lids(i * 19, i * 19 + 1)![0]!)).toBe(lids[i * 19]);
    expect(made.lines).toHaveLength(0);
    const span = index.lids(1000, 5000)!;
    expect([...span].map(lidToString)).toEqual(lids.slice(1000, 5000));
    expect(made.lines).toHaveLength(1);
  });

  it('a line in every block is read a piece of blocks at a time, each memory handed on', () => {
    const { index, lids } = saved('every.txt', 200_000);
    const numbers = Array.from({ length: Math.ceil(200_000 / BLOCK) }, (_, b) => b * BLOCK + (b % 7));
    made.lines.length = 0;
    const words = index.wordsAt(numbers)!;
    expect(numbers.map((_, i) => lidToString(words[i * 3 + 2]!))).toEqual(numbers.map((n) => lids[n]));
    expect(made.lines.length).toBeGreaterThan(1);
    expect(Math.max(...made.lines)).toBeLessThanOrEqual(64 * BLOCK);
  });
});
