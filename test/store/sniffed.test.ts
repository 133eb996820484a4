// A small file a search read whole to tell it is text is not read again for the report of its hits
// (src/store/indexedFile.ts, keepSniffed): its bytes are taken only while the file keeps the stamp
// it had then, and only if it was last changed a tick of the clock or more before that reading.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { isSearchable } from '../../src/search/searchable.js';
import { forgetSniffed, keepSniffedUpTo, openIndexed } from '../../src/store/indexedFile.js';
import { resolveInRoot } from '../../src/store/root.js';
import { StateStore } from '../../src/store/state.js';
import { readSettings } from '../../src/settings/env.js';
import { cleanup, tempDir } from '../e2e/harness.js';

afterAll(cleanup);
afterEach(() => {
  vi.restoreAllMocks();
  forgetSniffed();
});

const root = fs.realpathSync(tempDir());
const store = new StateStore(root, readSettings({ RT_STATE: 'off' }), () => undefined);
const settled = new Date(Date.now() - 60_000);

function write(rel: string, text: string, time?: Date): string {
  const abs = path.join(root, rel);
  fs.writeFileSync(abs, text);
  if (time) fs.utimesSync(abs, time, time);
  return abs;
}

/**
 * Whether a search, `later` ms from now, allowed to keep `allowance` files, reads `abs` as text
 * (a file changed a minute before that reading: its stamp tells a later change).
 */
function sniff(abs: string, later = 60_000, allowance = 10): boolean {
  keepSniffedUpTo(allowance);
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    vi.setSystemTime(Date.now() + later);
    return isSearchable(abs);
  } finally {
    vi.useRealTimers();
  }
}

/** The file's lines as openIndexed reads them, and how many files it opened to. */
function read(rel: string): { lines: string[]; opens: number } {
  const open = vi.spyOn(fs, 'openSync');
  const file = openIndexed(store, resolveInRoot({ dir: root, cwd: root }, rel));
  const lines = file.contents(0, file.total).map((b) => b.toString('latin1'));
  const opens = open.mock.calls.length;
  open.mockRestore();
  return { lines, opens };
}

describe('a file read whole by a search', () => {
  it('is not opened again, its bytes as they are (CRLF, a BOM, no final newline)', () => {
    const abs = write('a.txt', '\ufeffone\r\ntwo\nthree', settled);
    expect(sniff(abs)).toBe(true);
    expect(read('a.txt')).toEqual({ lines: ['one', 'two', 'three'], opens: 0 });
    // Taken once: a second reading opens the file.
    expect(read('a.txt').opens).toBe(1);
  });

  it('is read again once it changed, even to the same size', () => {
    const abs = write('b.txt', 'old line\n', settled);
    expect(sniff(abs)).toBe(true);
    write('b.txt', 'new line\n', settled);
    expect(read('b.txt')).toEqual({ lines: ['new line'], opens: 1 });
  });

  it('is read again when it had just changed as the search read it (a write in that tick would not show)', () => {
    const abs = write('c.txt', 'fresh\n');
    expect(sniff(abs, 0)).toBe(true);
    expect(read('c.txt').opens).toBe(1);
  });

  it('is forgotten at the end of a command, and a binary or bigger file is not kept', () => {
    const abs = write('d.txt', 'kept\n', settled);
    expect(sniff(abs)).toBe(true);
    forgetSniffed();
    expect(read('d.txt').opens).toBe(1);
    // Forgetting also takes back what a search was allowed to keep.
    expect(isSearchable(abs)).toBe(true);
    expect(read('d.txt').opens).toBe(1);
    const big = write('e.txt', `${'x'.repeat(10_000)}\n`, settled);
    expect(sniff(big)).toBe(true);
    expect(read('e.txt').opens).toBe(1);
    expect(sniff(write('f.bin', 'a\0b\n', settled))).toBe(false);
  });

  it('is kept for no more files than the search allowed (none for a report that reads no lines)', () => {
    const [g, h, i] = ['g.txt', 'h.txt', 'i.txt'].map((name) => write(name, `${name}\n`, settled));
    expect(sniff(g!, 60_000, 0)).toBe(true);
    expect(read('g.txt').opens).toBe(1);
    keepSniffedUpTo(1);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 60_000);
      expect([isSearchable(h!), isSearchable(i!)]).toEqual([true, true]);
    } finally {
      vi.useRealTimers();
    }
    expect([read('h.txt').opens, read('i.txt').opens]).toEqual([0, 1]);
  });
});
