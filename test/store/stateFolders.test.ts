// The state folder (.rt/pack) swapped for symbolic links while rt runs (src/store/state.ts):
// no state is read through the link, none written, and no file is moved out of where it leads.
// Node has no openat: each read and write checks the folders just before it.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StateStore, type StateDoc } from '../../src/store/state.js';
import { cleanup, tempDir } from '../e2e/harness.js';
import { readSettings } from '../../src/settings/env.js';
import { packDir, packText, plantEntries } from '../support/pack.js';

afterAll(cleanup);

const doc = (rel: string, note: string) => ({ format: 'rt-test', version: 1, path: rel, touched: 0, note });

describe('state folders swapped for links after the first use', () => {
  const root = tempDir();
  const outside = tempDir();
  const warnings: string[] = [];
  const store = new StateStore(root, readSettings({}), (m) => warnings.push(m));
  const pack = packDir(root);

  it('reads, writes and sets aside nothing through the link', () => {
    expect(store.save('view', 'a.txt', doc('a.txt', 'inside'))).toBe(true);
    store.flush();
    const other = new StateStore(root, readSettings({}), (m) => warnings.push(m));
    expect(other.load<StateDoc & { note: string }>('view', 'a.txt', 'rt-test', 1)?.note).toBe('inside');
    // A newer segment, planted outside the root, holding the same key, and a damaged one; the real
    // folder swapped for a link to them.
    const [name] = fs.readdirSync(pack).filter((n) => n.startsWith('pack-'));
    const planted = plantEntries(outside, [['view:a.txt', JSON.stringify(doc('a.txt', 'outside'))]]);
    const newer = path.join(outside, '.rt', 'pack', 'pack-0000000002.jsonl');
    fs.renameSync(planted, newer);
    fs.writeFileSync(path.join(outside, '.rt', 'pack', 'pack-0000000003.jsonl'), 'not a pack');
    const there = path.join(outside, '.rt', 'pack');
    const before = fs.readdirSync(there).sort();
    expect(before).toEqual(['pack-0000000002.jsonl', 'pack-0000000003.jsonl']);
    fs.renameSync(pack, `${pack}.real`);
    fs.symlinkSync(there, pack);

    // The lock of a save is not made through the link (it would be gone once released).
    let lockedThere: string[] | undefined;
    store.update('view', 'a.txt', () => {
      store.save('view', 'a.txt', doc('a.txt', 'updated'));
      store.flush();
      lockedThere = fs.readdirSync(there).filter((n) => n.includes('lock'));
    });
    expect(lockedThere).toEqual([]);

    expect(store.load('view', 'a.txt', 'rt-test', 1)).toBeUndefined();
    expect(store.openForReading('view', 'a.txt')).toBeUndefined();
    expect(store.save('view', 'a.txt', doc('a.txt', 'written'))).toBe(false);
    store.flush();
    store.setAsideFile('pack', path.join(pack, 'pack-0000000003.jsonl'), 'a test');
    expect(fs.readdirSync(there).sort()).toEqual(before);
    expect(packText(outside, 'view:a.txt')).toBe(JSON.stringify(doc('a.txt', 'outside')));
    expect(fs.existsSync(path.join(root, '.rt', 'set-aside'))).toBe(false);
    expect(fs.readdirSync(`${pack}.real`)).toEqual([name]);
    expect(warnings.join('\n')).toMatch(/\.rt\/pack is gone or not a plain folder/);
  });

  it('the daily sweep writes its stamp in place of a link planted there, and sweeps no folder a link leads to', () => {
    const dir = tempDir();
    const elsewhere = tempDir();
    fs.mkdirSync(path.join(dir, '.rt'));
    const victim = path.join(elsewhere, 'victim.txt');
    fs.writeFileSync(victim, 'precious\n');
    const old = new Date(Date.now() - 40 * 24 * 3600 * 1000);
    fs.utimesSync(victim, old, old);
    fs.symlinkSync(victim, path.join(dir, '.rt', 'swept'));
    // The link itself old too, so that the sweep is due.
    fs.lutimesSync(path.join(dir, '.rt', 'swept'), old, old);
    fs.symlinkSync(elsewhere, path.join(dir, '.rt', 'set-aside'));
    const said: string[] = [];
    const fresh = new StateStore(dir, readSettings({}), (m) => said.push(m));
    expect(fresh.save('view', 'b.txt', doc('b.txt', 'x')), said.join('\n')).toBe(true);
    expect(fs.readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(fs.lstatSync(path.join(dir, '.rt', 'swept')).isFile()).toBe(true);
  });
});
