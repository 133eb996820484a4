// Review of the packed store (src/store/pack.ts): a hostile or damaged .rt/pack must be set aside,
// never make later saves invisible, never be re-read on every run, never grow without bound.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { digestText } from '../../src/model/digest.js';
import { readSettings } from '../../src/settings/env.js';
import { StateStore, type StateDoc } from '../../src/store/state.js';
import { packDir, packKeys, packSegments, plantEntries } from '../support/pack.js';
import { tempFolders } from '../support/tempFolders.js';

const tempDir = tempFolders('rt-packreview-');

interface NoteDoc extends StateDoc {
  note: string;
}
const doc = (rel: string, note: string): NoteDoc => ({ format: 'rt-test', version: 1, path: rel, touched: 0, note });
const store = (root: string, warnings: string[] = []) =>
  new StateStore(root, readSettings({}), (m) => warnings.push(m));
const note = (s: StateStore, rel: string) => s.load<NoteDoc>('view', rel, 'rt-test', 1)?.note;

function saveOne(root: string, rel: string, n: string, warnings: string[] = []): void {
  const s = store(root, warnings);
  s.save('view', rel, doc(rel, n));
  s.flush();
}

/** A segment file with a well-formed header and trailer around `toc` (its digest right). */
function plantToc(root: string, name: string, toc: string): string {
  fs.mkdirSync(packDir(root), { recursive: true });
  const header = '{"format":"rt-pack","version":1}\n';
  const text = `${toc}\n`;
  const file = path.join(packDir(root), name);
  fs.writeFileSync(file, header + text + `${JSON.stringify({ tocAt: header.length, check: digestText(text) })}\n`);
  return file;
}

describe('the packed store under a hostile .rt/pack', () => {
  it('a segment numbered 9999999999 does not make every later save invisible', () => {
    const root = tempDir();
    saveOne(root, 'a.txt', 'one');
    const [first] = packSegments(root);
    fs.renameSync(first!.file, path.join(packDir(root), 'pack-9999999999.jsonl'));
    const warnings: string[] = [];
    for (const n of ['two', 'three', 'four']) saveOne(root, 'a.txt', n, warnings);
    // Before the fix: saves were linked as pack-10000000000.jsonl, … which SEGMENT never lists.
    expect(note(store(root), 'a.txt')).toBe('four');
    expect(fs.readdirSync(packDir(root)).every((n) => /^pack-\d{10}\.jsonl$|^lock/.test(n))).toBe(true);
  });

  it('a table row that is no array sets the segment aside (it was skipped silently on every run)', () => {
    const root = tempDir();
    const file = plantToc(root, 'pack-0000000001.jsonl', JSON.stringify({ toc: [null] }));
    const warnings: string[] = [];
    expect(note(store(root, warnings), 'a.txt')).toBeUndefined();
    expect(warnings.join('\n')).toMatch(/set aside/);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('a trailer claiming a table of 600 MB sets the segment aside without reading it', () => {
    const root = tempDir();
    saveOne(root, 'a.txt', 'one');
    const file = path.join(packDir(root), 'pack-0000000005.jsonl');
    fs.writeFileSync(file, '{"format":"rt-pack","version":1}\n');
    fs.truncateSync(file, 600_000_000); // sparse
    fs.appendFileSync(file, '\n{"tocAt":33,"check":"x"}\n');
    const warnings: string[] = [];
    const started = Date.now();
    expect(note(store(root, warnings), 'a.txt')).toBe('one');
    // Before the fix: 600 MB read into memory, toString threw a RangeError (not DamagedSegment): the segment was
    // skipped silently, and read again by every later run (2-5 s and 630 MB each).
    expect(Date.now() - started).toBeLessThan(1500);
    expect(warnings.join('\n')).toMatch(/set aside/);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('a symbolic link planted at .rt/pack/lock does not stop merges: the pack stays bounded', () => {
    const root = tempDir();
    saveOne(root, 'a.txt', 'zero');
    fs.symlinkSync(path.join(os.tmpdir(), 'nowhere'), path.join(packDir(root), 'lock'));
    const warnings: string[] = [];
    for (let i = 0; i < 20; i++) saveOne(root, `f${i}.txt`, `n${i}`, warnings);
    expect(packSegments(root).length).toBeLessThanOrEqual(9);
    expect(warnings.join('\n')).toMatch(/lock was set aside/);
    for (let i = 0; i < 20; i++) expect(note(store(root), `f${i}.txt`)).toBe(`n${i}`);
  });

  it('the daily sweep of another rt does not drop the index a run is reading while it saves its view', () => {
    const root = tempDir();
    const old = Date.now() - 31 * 86_400_000;
    plantEntries(root, [
      ['index:f.txt', JSON.stringify(doc('f.txt', 'lids')), old],
      ['view:f.txt', JSON.stringify(doc('f.txt', 'v')), old],
    ]);
    // A (rt open f.txt) reads the index it prints LIDs from ...
    const a = store(root);
    expect(a.openForReading('index', 'f.txt')?.read(0, 100).toString()).toContain('lids');
    // ... B (any command, the first of the day) sweeps meanwhile: f.txt looks untouched for 31 days ...
    saveOne(root, 'other.txt', 'o');
    // ... and A's view lands: f.txt was shown today, its index is gone.
    a.save('view', 'f.txt', doc('f.txt', 'shown today'));
    a.flush();
    expect(packKeys(root)).toContain('index:f.txt');
  });

  it('a pack lock left by an rt of another host (or a PID used again) is broken once old: saves merge again', () => {
    const root = tempDir();
    saveOne(root, 'a.txt', 'zero');
    const lock = path.join(packDir(root), 'lock');
    for (const owner of ['12345@another-container@1700000000000-abc', `${process.ppid}@${os.hostname()}@1-abc`]) {
      fs.writeFileSync(lock, owner);
      const old = new Date(Date.now() - 120_000);
      fs.utimesSync(lock, old, old);
      for (let i = 0; i < 12; i++) saveOne(root, `f${i}.txt`, owner);
      // Before the fix each save waited for the lock, then saved without it: no merge ever.
      expect(packSegments(root).length).toBeLessThanOrEqual(9);
      expect(fs.existsSync(lock)).toBe(false);
    }
  });
});
