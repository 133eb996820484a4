// The history store (src/store/history.ts): bounded by count, by bytes and by age, the
// oldest dropped first with their data; a session's new step clears what it could redo.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeStepData, History, MAX_BYTES, MAX_STEPS, type FileData } from '../../src/store/history.js';
import { StateStore } from '../../src/store/state.js';
import { readSettings } from '../../src/settings/env.js';

const roots: string[] = [];
afterAll(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

function fresh(): { history: History; dir: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-history-'));
  roots.push(root);
  const history = History.of(new StateStore(root, readSettings({}), () => undefined))!;
  return { history, dir: path.join(root, '.rt', 'history') };
}

const side = { exists: true, size: 2, digest: null };
const file = { path: 'f.txt', abs: '/x/f.txt', before: side, after: side, added: 1, removed: 1 };
const span = { from: 0, to: 1, start: 0, end: 2 };
const data = (bytes: Buffer): FileData[] => [
  {
    hunks: [{ before: { ...span, end: bytes.length }, after: span }],
    beforeBytes: [bytes],
    afterBytes: [Buffer.from('b\n')],
    beforeLids: [Uint32Array.of(1)],
    afterLids: [Uint32Array.of(2)],
  },
];

describe('History', () => {
  it('gives a new step an id past every step of a list whose next number is not (a list put back by hand)', () => {
    const { history, dir } = fresh();
    for (let i = 0; i < 3; i++)
      history.record(
        { time: Date.now(), session: null, command: 'rt edit', files: [file] },
        data(Buffer.from(`${i}\n`)),
      );
    const list = path.join(dir, 'steps.json');
    // Written whole (its log of changes gone with it), as another rt writes it.
    const doc = JSON.parse(fs.readFileSync(list, 'utf8'));
    fs.writeFileSync(list, JSON.stringify({ ...doc, next: 2, steps: history.steps() }));
    fs.rmSync(path.join(dir, 'steps.log'), { force: true });
    const again = History.of(new StateStore(path.dirname(path.dirname(dir)), readSettings({}), () => undefined))!;
    const step = again.record(
      { time: Date.now(), session: null, command: 'rt edit', files: [file] },
      data(Buffer.from('n\n')),
    );
    expect(step!.id).toBe(4);
    expect(again.steps().map((s) => s.id)).toEqual([1, 2, 3, 4]);
    expect(again.data(2)![0]!.beforeBytes[0]!.toString()).toBe('1\n');
  });

  it("takes a FIFO planted as a step's data for missing data, never waiting on it", () => {
    const { history, dir } = fresh();
    // Data big enough for a file of its own.
    history.record({ time: Date.now(), session: null, command: 'rt edit', files: [file] }, data(Buffer.alloc(2000)));
    const blob = path.join(dir, 'data', '1.bin');
    fs.rmSync(blob);
    execFileSync('mkfifo', [blob]);
    expect(history.data(1)).toBeUndefined();
  });

  it(`keeps the last ${MAX_STEPS} of 250 steps, the oldest gone first with their data`, () => {
    const { history, dir } = fresh();
    // Data big enough for a file of its own (a file each step, removed with it).
    const a = Buffer.from(`${'a'.repeat(2000)}\n`);
    for (let i = 0; i < 250; i++)
      history.record({ time: Date.now(), session: null, command: 'rt edit', files: [file] }, data(a));
    const steps = history.steps();
    expect(steps.map((s) => s.id)).toEqual(Array.from({ length: MAX_STEPS }, (_, i) => 250 - MAX_STEPS + 1 + i));
    expect(fs.readdirSync(path.join(dir, 'data')).length).toBe(MAX_STEPS);
    expect(history.data(250 - MAX_STEPS)).toBeUndefined();
    expect(history.data(250)![0]!.beforeBytes[0]!).toEqual(a);
  });

  it(`keeps no more than ${MAX_BYTES / 2 ** 20} MiB of changed lines, the oldest gone first`, () => {
    const { history } = fresh();
    const big = Buffer.alloc(MAX_BYTES / 4, 'x');
    for (let i = 0; i < 5; i++)
      history.record({ time: Date.now(), session: null, command: 'rt edit', files: [file] }, data(big));
    const steps = history.steps();
    expect(steps.reduce((n, s) => n + s.bytes, 0)).toBeLessThanOrEqual(MAX_BYTES);
    expect(steps.map((s) => s.id)).toEqual([3, 4, 5]);
  });

  it('drops steps older than 30 days at the next step', () => {
    const { history } = fresh();
    history.record(
      { time: Date.now() - 31 * 86_400_000, session: null, command: 'rt edit', files: [file] },
      data(Buffer.from('a\n')),
    );
    history.record({ time: Date.now(), session: null, command: 'rt edit', files: [file] }, data(Buffer.from('a\n')));
    expect(history.steps().map((s) => s.id)).toEqual([2]);
  });

  it('a new step of a session clears what that session could redo, not what another could', () => {
    const { history } = fresh();
    for (const session of ['A', 'B'])
      history.record({ time: Date.now(), session, command: 'rt edit', files: [file] }, data(Buffer.from('a\n')));
    history.mark(1, 'undone');
    history.mark(2, 'undone');
    history.record({ time: Date.now(), session: 'A', command: 'rt edit', files: [file] }, data(Buffer.from('a\n')));
    expect(history.steps().map((s) => [s.id, s.state])).toEqual([
      [1, 'cleared'],
      [2, 'undone'],
      [3, 'done'],
    ]);
  });
});

describe('History: data kept in the list', () => {
  it('counts a step kept in the list by its data in the 256 MiB bound, as one of a data file', () => {
    const { history, dir } = fresh();
    const small = history.record(
      { time: Date.now(), session: null, command: 'rt edit', files: [file] },
      data(Buffer.from('a\n')),
    )!;
    expect(typeof small.inline).toBe('string');
    expect(small.bytes).toBe(Buffer.from(small.inline!, 'base64').length);
    // A step whose data file alone is within the bound, but not with the small step's bytes.
    let size = MAX_BYTES - small.bytes;
    let big = data(Buffer.alloc(size));
    size -= encodeStepData(big).length - (MAX_BYTES - small.bytes) - 1;
    big = data(Buffer.alloc(size));
    expect(encodeStepData(big).length).toBe(MAX_BYTES - small.bytes + 1);
    history.record({ time: Date.now(), session: null, command: 'rt edit', files: [file] }, big);
    expect(history.steps().map((s) => s.id)).toEqual([2]);
    expect(fs.readdirSync(path.join(dir, 'data'))).toEqual(['2.bin']);
  });
});
