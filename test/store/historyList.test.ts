// The history's list as a long-lived process (rt mcp) writes it call after call: its text made from
// each step's text made once must be the text JSON.stringify makes, and a list changed by another
// process since this one wrote it must be read again, never taken from what this one wrote.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { History, listText, type Doc, type FileData, type Step } from '../../src/store/history.js';
import { StateStore } from '../../src/store/state.js';
import { readSettings } from '../../src/settings/env.js';

const roots: string[] = [];
afterAll(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

const side = { exists: true, size: 2, digest: null };
const file = { path: 'f.txt', abs: '/x/f.txt', before: side, after: side, added: 1, removed: 1 };
const span = { from: 0, to: 1, start: 0, end: 2 };
const data: FileData[] = [
  {
    hunks: [{ before: span, after: span }],
    beforeBytes: [Buffer.from('a\n')],
    afterBytes: [Buffer.from('b\n')],
    beforeLids: [Uint32Array.of(1)],
    afterLids: [Uint32Array.of(2)],
  },
];
const meta = (session: string | null) => ({ time: Date.now(), session, command: 'rt edit', files: [file] });

describe('the history list', () => {
  it('is written as JSON.stringify writes it, whatever the order of its fields, after steps are replaced', () => {
    const step = (id: number, more: Partial<Step> = {}): Step => ({
      id,
      ...meta(id % 2 ? 'A' : null),
      state: 'done',
      bytes: 40,
      ...more,
    });
    const docs: Doc[] = [
      { format: 'rt-history', version: 1, next: 1, steps: [] },
      { format: 'rt-history', version: 1, next: 3, undos: 2, steps: [step(1), step(2, { folders: ['a "b"\\c'] })] },
      // The order a list read back has when it held no count of undos: that count comes after the steps.
      { format: 'rt-history', version: 1, next: 2, steps: [step(1, { command: 'rt edit "é\u2028"' })], undos: 0 },
    ];
    for (const doc of docs) expect(listText(doc)).toBe(JSON.stringify(doc));
    const doc = docs[1]!;
    listText(doc);
    // A step replaced (an undo marks it) is written as it is now, not as it was first written.
    doc.steps[0] = { ...doc.steps[0]!, state: 'undone', undoneSeq: 3 };
    doc.steps.push(step(3, { pending: { direction: 'undo', owner: { pid: 7, host: 'h' }, time: 5, session: null } }));
    expect(listText(doc)).toBe(JSON.stringify(doc));
  });

  it('changed by another process since this one wrote it: read again, not taken from what this one wrote', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-history-list-'));
    roots.push(root);
    const open = () => History.of(new StateStore(root, readSettings({}), () => undefined))!;
    const history = open();
    history.record(meta('A'), data);
    history.record(meta('A'), data);
    // Another process takes the first step out (as its drop would, writing the list whole and removing its log):
    // this one must not bring it back.
    const list = path.join(root, '.rt', 'history', 'steps.json');
    const doc = JSON.parse(fs.readFileSync(list, 'utf8'));
    const steps = history.steps().filter((s: Step) => s.id !== 1);
    fs.writeFileSync(`${list}.other`, JSON.stringify({ ...doc, next: 3, steps }));
    fs.renameSync(`${list}.other`, list);
    fs.rmSync(path.join(root, '.rt', 'history', 'steps.log'));
    history.record(meta('A'), data);
    expect(history.steps().map((s) => s.id)).toEqual([2, 3]);
    // The same bytes written over by another process (a new inode): still its list, and still the same.
    fs.writeFileSync(`${list}.other`, fs.readFileSync(list));
    fs.renameSync(`${list}.other`, list);
    history.mark(3, 'undone');
    expect(
      open()
        .steps()
        .map((s) => [s.id, s.state]),
    ).toEqual([
      [2, 'done'],
      [3, 'undone'],
    ]);
    // A list damaged by hand is set aside, not read as the one this process wrote.
    fs.writeFileSync(list, '{"garbage');
    expect(history.steps()).toEqual([]);
  });
});
