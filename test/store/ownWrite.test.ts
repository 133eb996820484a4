// The stamp of a file rt has just written and renamed into place is trusted at once when its
// content time is before its change time (src/store/indexedFile.ts, ownWriteSettled): the next
// command reads the saved index without reading the file again. A write by anyone after that is
// still seen, however soon; a stamp that cannot tell stays racy, with the content's digest.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hashLines } from '../../src/model/hash.js';
import { buildIndex } from '../../src/model/lineIndex.js';
import { lidToString } from '../../src/model/lid.js';
import { splitLines } from '../../src/model/lines.js';
import { indexedLinesAsRead, openIndexed, saveIndex, statFile } from '../../src/store/indexedFile.js';
import { resolveInRoot } from '../../src/store/root.js';
import { SavedIndex } from '../../src/store/savedIndex.js';
import { StateStore } from '../../src/store/state.js';
import { readSettings } from '../../src/settings/env.js';
import { nextTick as tick } from '../support/bigFiles.js';
import { cleanup, tempDir } from '../e2e/harness.js';

afterAll(cleanup);

const root = fs.realpathSync(tempDir());
fs.mkdirSync(path.join(root, '.rt'));
const store = new StateStore(root, readSettings({}), (m) => {
  throw new Error(m);
});

const nextTick = () => tick(root);

/** The version of the file at `abs` as rt records the one it wrote: inode, content time, size. */
function versionAt(abs: string): { ino: string; mtimeNs: string; size: number } {
  const st = fs.statSync(abs, { bigint: true });
  return { ino: String(st.ino), mtimeNs: String(st.mtimeNs), size: Number(st.size) };
}

/**
 * Writes `text` at `rel` as rt's write would leave it: content written, then (a tick later, when
 * `settle`) its mode set, as rt sets its temporary file's before renaming it into place; then
 * its index saved as the commit saves it.
 */
function writtenByRt(rel: string, text: string, settle = true) {
  const since = Date.now();
  const abs = path.join(root, rel);
  fs.writeFileSync(abs, text);
  if (settle) nextTick();
  fs.chmodSync(abs, 0o644);
  // What rt records of its temporary file once written (the rename keeps it): the version it wrote.
  const wrote = versionAt(abs);
  const file = resolveInRoot({ dir: root, cwd: root }, rel);
  const bytes = Buffer.from(text);
  const lines = splitLines(bytes);
  const index = buildIndex(hashLines(lines));
  const stamp = statFile(file);
  expect(saveIndex(store, rel, lines, index, stamp, { parts: [bytes], writtenSince: since, wrote })).toBe(true);
  const lids = [...index.lids].map(lidToString);
  return { abs, file, stamp, lids };
}

const TEXT = 'alpha\nbeta\ngamma\ndelta\n';

function trusted(file: ReturnType<typeof resolveInRoot>): boolean {
  return indexedLinesAsRead(store, file, [1], [Buffer.from('beta')]) !== undefined;
}

describe('a file rt has just written', () => {
  it('is trusted by its stamp when its content time is before its change time', () => {
    const { file, stamp } = writtenByRt('settled.txt', TEXT);
    expect(BigInt(stamp.mtimeNs)).toBeLessThan(BigInt(stamp.ctimeNs));
    expect(SavedIndex.open(store, 'settled.txt')!.head.racy).toBe(false);
    expect(trusted(file)).toBe(true);
  });

  it('is read again after a write in place of the same size, however soon', () => {
    const { abs, file, lids } = writtenByRt('rewritten.txt', TEXT);
    const fd = fs.openSync(abs, 'r+');
    fs.writeSync(fd, Buffer.from('BETA'), 0, 4, 6);
    fs.closeSync(fd);
    expect(trusted(file)).toBe(false);
    const now = openIndexed(store, file);
    expect(now.contents(1, 2).map(String)).toEqual(['BETA']);
    expect(lidToString(now.lids(1, 2)[0]!)).not.toBe(lids[1]);
    expect([0, 2, 3].map((i) => lidToString(now.lids(i, i + 1)[0]!))).toEqual([lids[0], lids[2], lids[3]]);
  });

  it('is read again after a write that sets the content time back to the one recorded', () => {
    const { abs, file, stamp, lids } = writtenByRt('timed.txt', TEXT);
    fs.writeFileSync(abs, 'alpha\nBETA\ngamma\ndelta\n');
    const ns = BigInt(stamp.mtimeNs);
    const at = `@${ns / 1_000_000_000n}.${String(ns % 1_000_000_000n).padStart(9, '0')}`;
    execFileSync('touch', ['-m', '-d', at, abs]);
    expect(fs.statSync(abs, { bigint: true }).mtimeNs).toBe(ns);
    expect(trusted(file)).toBe(false);
    expect(lidToString(openIndexed(store, file).lids(1, 2)[0]!)).not.toBe(lids[1]);
  });

  it('stays racy, its digest kept, when its two times are in one tick', () => {
    const rel = 'one-tick.txt';
    for (let attempt = 0; ; attempt++) {
      const { stamp, file } = writtenByRt(rel, TEXT, false);
      if (stamp.mtimeNs !== stamp.ctimeNs) {
        // The clock moved between the write and the mode: try again (it seldom does twice).
        if (attempt < 20) continue;
        throw new Error('the clock ticked between a write and a chmod 20 times');
      }
      const head = SavedIndex.open(store, rel)!.head;
      expect(head.racy).toBe(true);
      expect(head.content).not.toBeNull();
      expect(trusted(file)).toBe(false);
      return;
    }
  });

  it('stays racy when its content time is before rt began writing (cp -p, touch -d), or its size is another', () => {
    const rel = 'old-time.txt';
    const abs = path.join(root, rel);
    const since = Date.now();
    fs.writeFileSync(abs, TEXT);
    const past = new Date(since - 3_600_000);
    fs.utimesSync(abs, past, past);
    // Even taken for the version rt wrote, its time tells.
    const wrote = versionAt(abs);
    const file = resolveInRoot({ dir: root, cwd: root }, rel);
    const bytes = Buffer.from(TEXT);
    const lines = splitLines(bytes);
    const index = buildIndex(hashLines(lines));
    saveIndex(store, rel, lines, index, statFile(file), { parts: [bytes], writtenSince: since, wrote });
    expect(SavedIndex.open(store, rel)!.head.racy).toBe(true);
    // Written now, its mode set a tick later, but not the size rt wrote.
    const other = Buffer.from(`${TEXT}more\n`);
    fs.writeFileSync(abs, TEXT);
    nextTick();
    fs.chmodSync(abs, 0o600);
    saveIndex(store, rel, splitLines(other), buildIndex(hashLines(splitLines(other))), statFile(file), {
      parts: [other],
      writtenSince: since,
      wrote: versionAt(abs),
    });
    expect(SavedIndex.open(store, rel)!.head.racy).toBe(true);
  });
});

describe('a save by another program renamed in just after rt wrote', () => {
  it('is not taken for rt’s own write: another inode, the stamp stays racy', () => {
    const rel = 'swapped.txt';
    const abs = path.join(root, rel);
    const since = Date.now();
    fs.writeFileSync(abs, TEXT);
    nextTick();
    fs.chmodSync(abs, 0o644);
    const wrote = versionAt(abs);
    // An editor's save of the same size (write a temporary file, rename it over), before rt's stamp.
    const theirs = `${abs}.theirs`;
    fs.writeFileSync(theirs, TEXT.toUpperCase());
    nextTick();
    fs.chmodSync(theirs, 0o644);
    fs.renameSync(theirs, abs);
    const file = resolveInRoot({ dir: root, cwd: root }, rel);
    const bytes = Buffer.from(TEXT);
    const lines = splitLines(bytes);
    saveIndex(store, rel, lines, buildIndex(hashLines(lines)), statFile(file), {
      parts: [bytes],
      writtenSince: since,
      wrote,
    });
    expect(SavedIndex.open(store, rel)!.head.racy).toBe(true);
  });
});
