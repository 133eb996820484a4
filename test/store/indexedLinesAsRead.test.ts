// A search's hits take their LIDs from the file's saved index, without reading the file, when
// the index is of the file as it is and holds the very lines the search read
// (src/store/indexedFile.ts, indexedLinesAsRead): otherwise it gives nothing, and the file is read.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { lidToString } from '../../src/model/lid.js';
import { indexedLinesAsRead, openIndexed } from '../../src/store/indexedFile.js';
import { resolveInRoot } from '../../src/store/root.js';
import { StateStore } from '../../src/store/state.js';
import { cleanup, tempDir } from '../e2e/harness.js';
import { readSettings } from '../../src/settings/env.js';

afterAll(cleanup);
// rt's clock a minute ahead: a file's change time (which setting its modification time back
// does not) is then a minute old too, and its index is to be trusted alone (not "racy").
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
/** A minute ago: an index saved now is to be trusted alone (not "racy"). */
const settled = new Date(Date.now() - 60_000);

/** Writes `bytes` at `rel`, settled, and saves its index as rt open would: the LIDs of every line. */
function indexed(
  rel: string,
  bytes: Buffer | string,
  time = settled,
): { file: ReturnType<typeof resolveInRoot>; lids: string[]; contents: Buffer[] } {
  fs.writeFileSync(path.join(root, rel), bytes);
  fs.utimesSync(path.join(root, rel), time, time);
  const file = resolveInRoot({ dir: root, cwd: root }, rel);
  const opened = openIndexed(store, file);
  opened.persist();
  return { file, lids: [...opened.lids(0, opened.total)].map(lidToString), contents: opened.contents(0, opened.total) };
}

/**
 * Lines `numbers` (0-based) as a search prints them: without the \n, with any \r before it, and line 0 with any BOM.
 */
function asPrinted(bytes: Buffer, numbers: number[]): Buffer[] {
  const lines: Buffer[] = [];
  for (let at = 0; at < bytes.length; ) {
    const nl = bytes.indexOf(0x0a, at);
    lines.push(bytes.subarray(at, nl === -1 ? bytes.length : nl));
    at = nl === -1 ? bytes.length : nl + 1;
  }
  return numbers.map((n) => lines[n]!);
}

function lidsOf(known: ReturnType<typeof indexedLinesAsRead>): string[] | undefined {
  return known && [...known.lids].map(lidToString);
}

describe('indexedLinesAsRead', () => {
  it('gives the LIDs and contents rt open shows, for lines read as the index holds them', () => {
    const bytes = Buffer.from('alpha\nbeta hit\ngamma\ndelta hit\n');
    const { file, lids, contents } = indexed('plain.txt', bytes);
    const known = indexedLinesAsRead(store, file, [1, 3], asPrinted(bytes, [1, 3]));
    expect(lidsOf(known)).toEqual([lids[1], lids[3]]);
    expect(known!.contents).toEqual([contents[1], contents[3]]);
  });

  it('takes the \\r of a CRLF ending and a BOM off, and keeps the \\r ending a last line without \\n', () => {
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('hit one\r\nmiddle\r\nhit two\r\r\nhit end\r'),
    ]);
    const { file, lids, contents } = indexed('crlf.txt', bytes);
    expect(contents.map(String)).toEqual(['hit one', 'middle', 'hit two\r', 'hit end\r']);
    const known = indexedLinesAsRead(store, file, [0, 2, 3], asPrinted(bytes, [0, 2, 3]));
    expect(lidsOf(known)).toEqual([lids[0], lids[2], lids[3]]);
    expect(known!.contents.map(String)).toEqual(['hit one', 'hit two\r', 'hit end\r']);
    // The last line of a file ending in CRLF: its \r is no content.
    const ended = Buffer.from('one\r\nhit\r\n');
    const crlf = indexed('crlf-end.txt', ended);
    expect(indexedLinesAsRead(store, crlf.file, [1], asPrinted(ended, [1]))!.contents.map(String)).toEqual(['hit']);
  });

  it('reads bytes that are not UTF-8 as they are, and lines past the first block of records', () => {
    const lines = Array.from({ length: 3000 }, (_, i) =>
      i % 700 === 5 ? Buffer.from([0x68, 0x69, 0x74, 0xff, 0xfe, 0x30 + (i % 10)]) : Buffer.from(`line ${i}`),
    );
    const bytes = Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')]));
    const { file, lids } = indexed('latin.txt', bytes);
    const hits = [5, 705, 1405, 2105, 2805];
    expect(lidsOf(indexedLinesAsRead(store, file, hits, asPrinted(bytes, hits)))).toEqual(hits.map((n) => lids[n]));
  });

  it('reads a big index only in the blocks holding the lines (in WebAssembly), neighbouring, shared or last', () => {
    // 40,000 lines: over the size whose records are decoded in WebAssembly; the last block is short.
    const bytes = Buffer.from(Array.from({ length: 40_000 }, (_, i) => `row ${i}\n`).join(''));
    const { file, lids, contents } = indexed('big.txt', bytes);
    const hits = [0, 1023, 1024, 2047, 2048, 5000, 5001, 20_480, 39_000, 39_999];
    const known = indexedLinesAsRead(store, file, hits, asPrinted(bytes, hits));
    expect(lidsOf(known)).toEqual(hits.map((n) => lids[n]));
    expect(known!.contents).toEqual(hits.map((n) => contents[n]));
    expect(indexedLinesAsRead(store, file, [5, 40_000], asPrinted(bytes, [5, 5]))).toBeUndefined();
    expect(lidsOf(indexedLinesAsRead(store, file, [], []))).toEqual([]);
  });

  it('reads the blocks of an index past the bytes read with its head, one file after another', () => {
    // 10,000 lines: records past the head's first read, decoded in JavaScript; the last block is short.
    const bytes = Buffer.from(Array.from({ length: 10_000 }, (_, i) => `mid ${i}\n`).join(''));
    const { file, lids } = indexed('mid.txt', bytes);
    const small = indexed('small.txt', 'a\nb hit\n');
    const hits = [3, 4100, 4101, 9216, 9999];
    for (let round = 0; round < 2; round++) {
      expect(lidsOf(indexedLinesAsRead(store, file, hits, asPrinted(bytes, hits)))).toEqual(hits.map((n) => lids[n]));
      expect(lidsOf(indexedLinesAsRead(store, small.file, [1], [Buffer.from('b hit')]))).toEqual([small.lids[1]]);
    }
  });

  it('sets an index whose records do not check aside, and gives nothing', () => {
    const said: string[] = [];
    // A store for each case, made after the damage (a store lists the pack's segments once).
    const warned = () => new StateStore(root, readSettings({}), (m) => said.push(m));
    /** A file indexed and saved, then its records' character `at` changed to `to` in the pack. */
    const damaged = (rel: string, lines: number, at: number, to: string) => {
      const bytes = Buffer.from(Array.from({ length: lines }, (_, i) => `text ${i}\n`).join(''));
      const { file } = indexed(rel, bytes);
      store.flush();
      const pack = path.join(root, '.rt', 'pack');
      for (const name of fs.readdirSync(pack).filter((n) => n.endsWith('.jsonl'))) {
        const text = fs.readFileSync(path.join(pack, name), 'latin1');
        const entry = text.indexOf(`"path":${JSON.stringify(rel)}`);
        if (entry === -1 || !text.startsWith('{"format":"rt-index"', text.lastIndexOf('\n', entry) + 1)) continue;
        const k = text.indexOf('"records":"', entry) + '"records":"'.length + at;
        const changed = Buffer.from(text, 'latin1');
        changed[k] = to === 'other' ? (text[k] === 'A' ? 0x42 : 0x41) : to.charCodeAt(0);
        fs.writeFileSync(path.join(pack, name), changed);
        return { file, bytes };
      }
      throw new Error(`no index of ${rel}`);
    };
    const a = damaged('flipped.txt', 1500, 1030 * 16 + 5, 'other');
    expect(indexedLinesAsRead(warned(), a.file, [1100], asPrinted(a.bytes, [1100]))).toBeUndefined();
    expect(said.pop()).toMatch(/set aside \(its records of lines 1025-1500 are damaged\)/);
    const b = damaged('not-base64.txt', 20, 3, '!');
    expect(indexedLinesAsRead(warned(), b.file, [2], asPrinted(b.bytes, [2]))).toBeUndefined();
    expect(said.pop()).toMatch(/set aside \(its records are damaged\)/);
    expect(said).toEqual([]);
  });

  it('gives nothing when a line read is not the one the index holds at its number', () => {
    const bytes = Buffer.from('one\ntwo hit\nthree\n');
    const { file } = indexed('other.txt', bytes);
    expect(indexedLinesAsRead(store, file, [1], [Buffer.from('two hix')])).toBeUndefined();
    expect(indexedLinesAsRead(store, file, [2], [Buffer.from('two hit')])).toBeUndefined();
    // A \r the index does not hold, inside the file; a line past its end.
    expect(indexedLinesAsRead(store, file, [1], [Buffer.from('two hit\r\r')])).toBeUndefined();
    expect(indexedLinesAsRead(store, file, [3], [Buffer.from('')])).toBeUndefined();
    expect(indexedLinesAsRead(store, file, [1], [Buffer.from('two hit')])).toBeDefined();
  });

  it('gives nothing for a file changed since its index was saved, even to the same lines', () => {
    const bytes = Buffer.from('same hit\nsame\n');
    const { file } = indexed('changed.txt', bytes);
    // Replaced by a file of the same bytes and times: its inode tells.
    fs.writeFileSync(path.join(root, 'changed.tmp'), bytes);
    fs.utimesSync(path.join(root, 'changed.tmp'), settled, settled);
    fs.renameSync(path.join(root, 'changed.tmp'), path.join(root, 'changed.txt'));
    expect(indexedLinesAsRead(store, file, [0], [Buffer.from('same hit')])).toBeUndefined();
  });

  it('gives nothing for an index saved within the timestamp granularity of a change (racy), or without one', () => {
    const bytes = Buffer.from('fresh hit\n');
    const { file } = indexed('fresh.txt', bytes, new Date());
    expect(indexedLinesAsRead(store, file, [0], [Buffer.from('fresh hit')])).toBeUndefined();
    fs.writeFileSync(path.join(root, 'never.txt'), bytes);
    fs.utimesSync(path.join(root, 'never.txt'), settled, settled);
    expect(
      indexedLinesAsRead(store, resolveInRoot({ dir: root, cwd: root }, 'never.txt'), [0], [Buffer.from('fresh hit')]),
    ).toBeUndefined();
  });

  it('gives nothing for a file gone or replaced by a symbolic link', () => {
    const bytes = Buffer.from('gone hit\n');
    const { file } = indexed('gone.txt', bytes);
    fs.renameSync(path.join(root, 'gone.txt'), path.join(root, 'kept.txt'));
    expect(indexedLinesAsRead(store, file, [0], [Buffer.from('gone hit')])).toBeUndefined();
    fs.symlinkSync(path.join(root, 'kept.txt'), path.join(root, 'gone.txt'));
    expect(indexedLinesAsRead(store, file, [0], [Buffer.from('gone hit')])).toBeUndefined();
  });
});
