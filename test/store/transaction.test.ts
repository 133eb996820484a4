// The one transaction every write takes, driven directly: what it stages is written all or
// nothing, with the journal's entries each change kind says; a refusal leaves files, folders
// and locks as they were; files a program changed meanwhile are refused by one error, told for a
// batch and for a step each in its own words.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { splitLines } from '../../src/model/lines.js';
import { findRoot, resolveInRoot, type Root } from '../../src/store/root.js';
import { StateStore } from '../../src/store/state.js';
import { readSettings } from '../../src/settings/env.js';
import { changedMeanwhile, Transaction, type Change, type Workspace } from '../../src/store/transaction.js';
import { versionOf } from '../../src/store/writeFile.js';

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt-transaction-')));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

/** A root of its own (state kept in its .rt/), and what a command would give the transaction. */
function workspace(): { ws: Workspace; root: Root; warnings: string[] } {
  const dir = fs.mkdtempSync(path.join(base, 'root-'));
  fs.mkdirSync(path.join(dir, '.git'));
  const root = findRoot(dir, dir);
  const warnings: string[] = [];
  const stores = new Map<string, StateStore>();
  const ws: Workspace = {
    cwd: dir,
    root,
    session: undefined,
    stateOf: (f) => {
      let s = stores.get(f.stateRoot);
      if (!s) stores.set(f.stateRoot, (s = new StateStore(f.stateRoot, readSettings({}), (m) => warnings.push(m))));
      return s;
    },
    warn: (m) => warnings.push(m),
  };
  return { ws, root, warnings };
}

const noRecord = {
  kind: 'write' as const,
  command: 'rt test',
  staged: () => undefined,
  each: (_c: Change, save: () => unknown) => void save(),
  written: () => undefined,
};

function content(text: string) {
  const bytes = Buffer.from(text);
  return { parts: [bytes], lines: splitLines(bytes) };
}

describe('Transaction', () => {
  it('writes a batch of every change kind at once, and saves the index of each new content', () => {
    const { ws, root } = workspace();
    for (const [name, text] of [
      ['edited.txt', 'a\nb\n'],
      ['gone.txt', 'x\n'],
      ['from.txt', 'm\n'],
    ])
      fs.writeFileSync(path.join(root.dir, name!), text!);
    const at = (p: string) => resolveInRoot(root, p, true);
    const version = (p: string) => versionOf(fs.lstatSync(at(p).abs));
    const tx = Transaction.begin(ws, {
      lock: ['edited.txt', 'gone.txt', 'from.txt', 'to.txt', 'new/made.txt'].map(at),
      make: [at('new/made.txt')],
    });
    try {
      const read = tx.read(at('edited.txt'));
      expect(read.lines.count).toBe(2);
      tx.stage({ kind: 'edit', file: at('edited.txt'), content: content('a\nB\n'), expected: version('edited.txt') });
      tx.stage({ kind: 'removal', file: at('gone.txt'), expected: version('gone.txt') });
      tx.stage({
        kind: 'move',
        from: { kind: 'removal', file: at('from.txt'), expected: version('from.txt') },
        to: at('to.txt'),
        content: content('m\n'),
      });
      tx.stage({ kind: 'new', file: at('new/made.txt'), content: content('n\n') });
      const { saved, stale } = tx.commit(noRecord);
      expect(stale).toBeUndefined();
      expect(saved.map((s) => s.saved)).toEqual([true, false, true, true]);
    } finally {
      tx.end();
    }
    const read = (p: string) => fs.readFileSync(path.join(root.dir, p), 'utf8');
    expect([read('edited.txt'), read('to.txt'), read('new/made.txt')]).toEqual(['a\nB\n', 'm\n', 'n\n']);
    expect(fs.existsSync(path.join(root.dir, 'gone.txt'))).toBe(false);
    expect(fs.existsSync(path.join(root.dir, 'from.txt'))).toBe(false);
    // The journal is gone once the state is saved; the locks are released.
    expect(fs.readdirSync(path.join(root.dir, '.rt')).includes('journal')).toBe(false);
    expect(fs.readdirSync(root.dir).filter((n) => n.includes('.rt-'))).toEqual([]);
  });

  it('a refusal before the commit writes nothing, and removes the folders it made and its locks', () => {
    const { ws, root } = workspace();
    fs.writeFileSync(path.join(root.dir, 'kept.txt'), 'k\n');
    const kept = resolveInRoot(root, 'kept.txt');
    const made = resolveInRoot(root, 'deep/er/made.txt', true);
    const stale = versionOf(fs.lstatSync(kept.abs));
    fs.writeFileSync(kept.abs, 'changed by someone\n');
    const tx = Transaction.begin(ws, { lock: [kept, made], make: [made] });
    expect(fs.existsSync(path.join(root.dir, 'deep/er'))).toBe(true);
    try {
      tx.stage({ kind: 'new', file: made, content: content('n\n') });
      tx.stage({ kind: 'edit', file: kept, content: content('K\n'), expected: stale });
      expect(() => tx.commit(noRecord)).toThrow(/changed while it was being edited; nothing was written/);
    } finally {
      tx.end();
    }
    expect(fs.existsSync(path.join(root.dir, 'deep'))).toBe(false);
    expect(fs.readFileSync(kept.abs, 'utf8')).toBe('changed by someone\n');
    // Locked again at once: the locks went with the transaction.
    Transaction.begin(ws, { lock: [kept], make: [] }).end();
  });

  it('names the files changed meanwhile in one refusal: a batch with the rest it wrote, a step by its number', () => {
    const skipped = [{ display: 'a.txt', why: 'it changed after the batch read it' }];
    const batch = changedMeanwhile(skipped, ['b.txt']);
    expect(batch.code).toBe('stale');
    expect(batch.message).toBe(
      "a program that does not take rt's locks changed files of this batch while it was being written: " +
        'a.txt (it changed after the batch read it); that file was left as that program made it, ' +
        "without this batch's change; the rest was written: b.txt",
    );
    expect(batch.hints).toEqual(['see it as it is now: rt open a.txt', 'then make the change again']);
    expect(batch.details).toEqual({ skipped: ['a.txt'], written: ['b.txt'] });
    const step = changedMeanwhile([...skipped, { display: 'c d.txt', why: 'x' }], [], { id: 7, direction: 'redo' });
    expect(step.message).toBe(
      "a program that does not take rt's locks changed files of step 7 while it was being redone: " +
        'a.txt (it changed after the batch read it), c d.txt (x); left as that program made them',
    );
    expect(step.hints).toEqual([
      'see them as they are now: rt open a.txt',
      'then make the change by hand with rt edit',
    ]);
  });
});
