// The packed store (src/store/pack.ts) through StateStore: one segment per command whatever it
// saved, the newest entry of a key wins, concurrent saves replay views and keep the index that
// still describes its file, damaged segments and entries are set aside, merges bound the count.

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSettings } from '../../src/settings/env.js';
import { StateStore, type StateDoc } from '../../src/store/state.js';
import { packDir, packEntries, packKeys, packSegments, plantEntries } from '../support/pack.js';
import { tempFolders } from '../support/tempFolders.js';

const tempDir = tempFolders('rt-pack-');

interface NoteDoc extends StateDoc {
  note: string;
}

const doc = (rel: string, note: string): NoteDoc => ({ format: 'rt-test', version: 1, path: rel, touched: 0, note });

function store(root: string, warnings: string[] = [], session?: string): StateStore {
  return new StateStore(root, readSettings(session ? { RT_SESSION: session } : {}), (m) => warnings.push(m));
}

const note = (s: StateStore, rel: string, kind: 'index' | 'view' = 'view') =>
  s.load<NoteDoc>(kind, rel, 'rt-test', 1)?.note;

describe('the packed store', () => {
  it('a command that saves the state of 1,000 files adds one file to .rt/pack', () => {
    const root = tempDir();
    const s = store(root);
    for (let i = 0; i < 1000; i++) expect(s.save('view', `f${i}.txt`, doc(`f${i}.txt`, `n${i}`))).toBe(true);
    // Read back before the save lands (the command's own), and after, by another run.
    expect(note(s, 'f7.txt')).toBe('n7');
    s.flush();
    expect(fs.readdirSync(packDir(root)).filter((n) => !n.startsWith('lock'))).toEqual(['pack-0000000001.jsonl']);
    expect(note(store(root), 'f999.txt')).toBe('n999');
    expect(note(store(root), 'f1000.txt')).toBeUndefined();
  });

  it('entries read back whole wherever they lie: across the 64 KiB pieces segments are read by, and bigger', () => {
    const root = tempDir();
    const s = store(root);
    // Notes of uneven sizes, so that entries start and end at every place in a piece, a few wider than one.
    const text = (i: number) => `${i}:${'x'.repeat((i * 7919) % (i % 50 === 0 ? 150_000 : 900))}`;
    for (let i = 0; i < 1500; i++) s.save('view', `f${i}.txt`, doc(`f${i}.txt`, text(i)));
    s.flush();
    const again = store(root);
    // Read out of order, each twice: the second from the pieces kept.
    const order = Array.from({ length: 1500 }, (_, i) => (i * 611) % 1500);
    for (const i of [...order, ...order]) expect(note(again, `f${i}.txt`)).toBe(text(i));
  });

  it('a segment is JSON lines: a header, one document a line, the table, the trailer', () => {
    const root = tempDir();
    const s = store(root);
    s.save('view', 'a.txt', doc('a.txt', 'x'));
    s.flush();
    const [segment] = packSegments(root);
    const lines = fs.readFileSync(segment!.file, 'utf8').split('\n');
    expect(lines.at(-1)).toBe('');
    for (const line of lines.slice(0, -1)) expect(() => JSON.parse(line)).not.toThrow();
    expect(JSON.parse(lines[1]!)).toMatchObject({ path: 'a.txt', note: 'x' });
  });

  it('the newest save of a key wins; sessions keep their own views; the index is everyone’s', () => {
    const root = tempDir();
    for (const n of ['one', 'two', 'three']) {
      const s = store(root);
      s.save('view', 'a.txt', doc('a.txt', n));
      s.flush();
    }
    const mine = store(root, [], 'mine');
    mine.save('view', 'a.txt', doc('a.txt', 'session'));
    mine.save('index', 'a.txt', doc('a.txt', 'index'));
    mine.flush();
    expect(note(store(root), 'a.txt')).toBe('three');
    expect(note(store(root, [], 'mine'), 'a.txt')).toBe('session');
    expect(note(store(root), 'a.txt', 'index')).toBe('index');
    expect(packKeys(root)).toEqual(['index:a.txt', 'view:a.txt', 'view~mine:a.txt']);
  });

  it('a view saved by another rt meanwhile is kept: the update is replayed onto it', () => {
    const root = tempDir();
    const a = store(root);
    const b = store(root);
    const add = (s: StateStore, what: string) =>
      s.update('view', 'a.txt', () => {
        const was = note(s, 'a.txt') ?? '';
        s.save('view', 'a.txt', doc('a.txt', `${was}${what}`));
      });
    add(a, 'A');
    add(b, 'B');
    a.flush();
    b.flush(); // b loaded before a saved: its update runs again on a's
    expect(note(store(root), 'a.txt')).toBe('AB');
  });

  it('an index saved by another rt meanwhile wins over one that no longer describes its file', () => {
    const root = tempDir();
    fs.writeFileSync(path.join(root, 'a.txt'), 'one\n');
    const stale = store(root);
    const fresh = store(root);
    expect(note(stale, 'a.txt', 'index')).toBeUndefined();
    expect(note(fresh, 'a.txt', 'index')).toBeUndefined();
    // The stale one says its file is not what it described; the fresh one lands first.
    stale.saveText(
      'index',
      'a.txt',
      (w) => w(JSON.stringify(doc('a.txt', 'old'))),
      () => false,
    );
    fresh.saveText(
      'index',
      'a.txt',
      (w) => w(JSON.stringify(doc('a.txt', 'new'))),
      () => true,
    );
    fresh.flush();
    stale.flush();
    expect(note(store(root), 'a.txt', 'index')).toBe('new');
    // With nothing saved meanwhile, a save lands whatever it says.
    const alone = store(root);
    note(alone, 'a.txt', 'index');
    alone.saveText(
      'index',
      'a.txt',
      (w) => w(JSON.stringify(doc('a.txt', 'alone'))),
      () => false,
    );
    alone.flush();
    expect(note(store(root), 'a.txt', 'index')).toBe('alone');
  });

  it('more than eight segments are merged down, keeping every key’s newest entry', () => {
    const root = tempDir();
    for (let i = 0; i < 30; i++) {
      const s = store(root);
      s.save('view', `f${i % 7}.txt`, doc(`f${i % 7}.txt`, `v${i}`));
      s.flush();
      expect(packSegments(root).length).toBeLessThanOrEqual(9);
    }
    for (let k = 0; k < 7; k++) {
      const last = Math.max(...[...Array(30).keys()].filter((i) => i % 7 === k));
      expect(note(store(root), `f${k}.txt`)).toBe(`v${last}`);
    }
    // What merges keep is live only: each key once.
    const rows = packSegments(root).flatMap((s) => s.rows.map((r) => r.key));
    expect(rows.length).toBeLessThan(30);
  });

  it('a segment with nothing live left is removed', () => {
    const root = tempDir();
    for (const n of ['one', 'two']) {
      const s = store(root);
      s.save('view', 'a.txt', doc('a.txt', n));
      s.flush();
    }
    expect(packSegments(root).map((s) => s.seq)).toEqual([2]);
  });

  it('a damaged segment is set aside whole, never trusted, never fatal', () => {
    const root = tempDir();
    const s = store(root);
    s.save('view', 'a.txt', doc('a.txt', 'x'));
    s.flush();
    const [segment] = packSegments(root);
    const bytes = fs.readFileSync(segment!.file);
    for (const damage of [
      bytes.subarray(0, bytes.length - 5),
      Buffer.concat([bytes, Buffer.from('junk')]),
      Buffer.from(bytes.toString('latin1').replace('"note":"x"', '"note":"y"'), 'latin1'),
    ]) {
      fs.writeFileSync(segment!.file, damage);
      const warnings: string[] = [];
      const t = store(root, warnings);
      const got = note(t, 'a.txt');
      // A changed document under an intact table: its digest tells.
      expect(got).toBeUndefined();
      expect(warnings.join('\n')).toMatch(/set aside/);
      t.flush();
      fs.rmSync(path.join(root, '.rt', 'set-aside'), { recursive: true, force: true });
      if (!fs.existsSync(segment!.file)) fs.writeFileSync(segment!.file, bytes);
    }
  });

  it('a damaged entry is set aside (a copy kept), forgotten, and rebuilt by the next save', () => {
    const root = tempDir();
    plantEntries(root, [
      ['view:a.txt', 'not json {'],
      ['view:b.txt', JSON.stringify(doc('b.txt', 'fine'))],
    ]);
    const warnings: string[] = [];
    const s = store(root, warnings);
    expect(note(s, 'a.txt')).toBeUndefined();
    expect(note(s, 'b.txt')).toBe('fine');
    expect(warnings).toEqual([
      expect.stringMatching(
        /^state of a\.txt in \.rt\/pack\/pack-0000000001\.jsonl was set aside \(it is not valid JSON\)/,
      ),
    ]);
    s.flush();
    expect([...packEntries(root).keys()]).toEqual(['view:b.txt']);
    expect(fs.readdirSync(path.join(root, '.rt', 'set-aside'))).toHaveLength(1);
    const quiet: string[] = [];
    expect(note(store(root, quiet), 'a.txt')).toBeUndefined();
    expect(quiet).toEqual([]);
  });

  it('a temporary segment of a process gone is removed; one of a live process is not', () => {
    const root = tempDir();
    const s = store(root);
    s.save('view', 'a.txt', doc('a.txt', 'x'));
    s.flush();
    fs.writeFileSync(path.join(packDir(root), 'tmp-999999999-abcdef'), 'half');
    fs.writeFileSync(path.join(packDir(root), `tmp-${process.pid + 0}-abcdef`), 'mine');
    store(root).removeStaleTemps();
    expect(fs.readdirSync(packDir(root)).sort()).toEqual([`tmp-${process.pid}-abcdef`, 'pack-0000000001.jsonl'].sort());
  });

  it('entries untouched for 30 days go at the daily sweep; an index stays while its view is fresh', () => {
    const root = tempDir();
    const old = Date.now() - 31 * 86_400_000;
    plantEntries(root, [
      ['view:old.txt', JSON.stringify(doc('old.txt', 'o')), old],
      ['index:old.txt', JSON.stringify(doc('old.txt', 'o')), old],
      ['index:viewed.txt', JSON.stringify(doc('viewed.txt', 'i')), old],
      ['view:viewed.txt', JSON.stringify(doc('viewed.txt', 'v'))],
    ]);
    const s = store(root);
    s.save('view', 'new.txt', doc('new.txt', 'n'));
    s.flush();
    expect(packKeys(root)).toEqual(['index:viewed.txt', 'view:new.txt', 'view:viewed.txt']);
  });

  it('RT_STATE=off: nothing read, nothing written', () => {
    const root = tempDir();
    const s = new StateStore(root, readSettings({ RT_STATE: 'off' }), () => {});
    expect(s.save('view', 'a.txt', doc('a.txt', 'x'))).toBe(false);
    s.flush();
    expect(fs.existsSync(path.join(root, '.rt'))).toBe(false);
  });
});
