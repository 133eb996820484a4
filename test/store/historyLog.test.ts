// The history's log (src/store/history.ts): a change of the list is appended to steps.log in place
// rather than the list rewritten, the list written whole every LOG_CHANGES changes; a log torn by a
// kill, damaged, stale (its base list replaced), or planted (a hard link, a symbolic link, a FIFO)
// is never trusted nor written through.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { digestBytes, digestText } from '../../src/model/digest.js';
import { encodeStepData, History, LOG_CHANGES, logLines, MAX_STEPS, type FileData } from '../../src/store/history.js';
import { StateStore } from '../../src/store/state.js';
import { readSettings } from '../../src/settings/env.js';

const roots: string[] = [];
afterAll(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

function fresh(): { history: History; dir: string; root: string; warnings: string[] } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-history-log-'));
  roots.push(root);
  const warnings: string[] = [];
  const history = History.of(new StateStore(root, readSettings({}), (w) => void warnings.push(w)))!;
  return { history, dir: path.join(root, '.rt', 'history'), root, warnings };
}

const side = { exists: true, size: 2, digest: null };
const file = { path: 'f.txt', abs: '/x/f.txt', before: side, after: side, added: 1, removed: 1 };
const span = { from: 0, to: 1, start: 0, end: 2 };
const data = (text: string): FileData[] => [
  {
    hunks: [{ before: span, after: span }],
    beforeBytes: [Buffer.from(text)],
    afterBytes: [Buffer.from('b\n')],
    beforeLids: [Uint32Array.of(1)],
    afterLids: [Uint32Array.of(2)],
  },
];
const record = (history: History, n: number) => {
  for (let i = 0; i < n; i++)
    history.record({ time: Date.now(), session: null, command: 'rt edit', files: [file] }, data(`${i}\n`));
};
const ids = (history: History) => history.steps().map((s) => s.id);
/** The history of a copy of `root`'s state in a root of its own: read afresh, as another process would read it. */
const copyOf = (root: string) => {
  const other = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-history-copy-'));
  roots.push(other);
  fs.cpSync(path.join(root, '.rt'), path.join(other, '.rt'), { recursive: true });
  const warnings: string[] = [];
  const history = History.of(new StateStore(other, readSettings({}), (w) => void warnings.push(w)))!;
  return { history, dir: path.join(other, '.rt', 'history'), root: other, warnings };
};
/** A line of the log, as History writes one: the digest of the change's JSON, a space, the JSON. */
const logLine = (change: object) => {
  const json = Buffer.from(JSON.stringify(change));
  return `${digestBytes(json)} ${json}\n`;
};
/** The log's first line, naming the list whose text is `list`. */
const logHead = (list: string) =>
  `${JSON.stringify({ format: 'rt-history-log', version: 1, base: digestText(list) })}\n`;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('the history log', () => {
  it(`takes each change in place; the list is written whole again after ${LOG_CHANGES} changes`, () => {
    const { history, dir } = fresh();
    record(history, 1);
    const list = path.join(dir, 'steps.json');
    const log = path.join(dir, 'steps.log');
    const first = fs.statSync(list).ino;
    record(history, 2);
    const logIno = fs.statSync(log).ino;
    record(history, LOG_CHANGES - 2);
    // One list, one log: neither replaced while the log took the changes.
    expect(fs.statSync(list).ino).toBe(first);
    expect(fs.statSync(log).ino).toBe(logIno);
    expect(fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).length).toBe(1 + LOG_CHANGES);
    expect(ids(history)).toEqual(range(1, 1 + LOG_CHANGES));
    // One more: the list written whole, holding every step, and the log gone with its base.
    record(history, 1);
    expect(fs.statSync(list).ino).not.toBe(first);
    expect(fs.existsSync(log)).toBe(false);
    expect(JSON.parse(fs.readFileSync(list, 'utf8')).steps.length).toBe(2 + LOG_CHANGES);
    // Read afresh by another process (nothing taken from what this one wrote), the same steps.
    const again = History.of(new StateStore(path.dirname(path.dirname(dir)), readSettings({}), () => undefined))!;
    expect(ids(again)).toEqual(range(1, 2 + LOG_CHANGES));
    expect(again.data(2 + LOG_CHANGES)![0]!.beforeBytes[0]!.toString()).toBe('0\n');
  });

  it('skips a torn last line (a killed rt): only its change is lost, and the list is written whole next', () => {
    const { history, dir, warnings } = fresh();
    record(history, 4);
    const log = path.join(dir, 'steps.log');
    fs.truncateSync(log, fs.statSync(log).size - 5);
    expect(ids(history)).toEqual([1, 2, 3]);
    record(history, 1);
    expect(ids(history)).toEqual([1, 2, 3, 4]);
    expect(fs.existsSync(log)).toBe(false);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'steps.json'), 'utf8')).steps.length).toBe(4);
    expect(warnings).toEqual([]);
  });

  it('sets aside a log damaged before its last line: the changes after the damage are not trusted', () => {
    const { history, dir, root, warnings } = fresh();
    record(history, 4);
    const log = path.join(dir, 'steps.log');
    const lines = fs.readFileSync(log, 'utf8').split('\n');
    // The change that recorded step 3, one character of its JSON changed (its length kept).
    lines[2] = lines[2]!.replace('"rt edit"', '"rt edjt"');
    fs.writeFileSync(log, lines.join('\n'));
    expect(ids(history)).toEqual([1, 2]);
    expect(fs.readdirSync(path.join(root, '.rt', 'set-aside')).some((n) => n.includes('steps.log'))).toBe(true);
    expect(warnings.join('\n')).toMatch(/steps\.log was set aside \(it is damaged\)/);
    // The next write writes the list whole, with the changes read before the damage; the log goes.
    record(history, 1);
    expect(ids(history)).toEqual([1, 2, 3]);
    expect(fs.existsSync(log)).toBe(false);
    expect(history.data(3)![0]!.beforeBytes[0]!.toString()).toBe('0\n');
  });

  it('reads a log whose base is not the list (the list written whole since by an rt that keeps no log) as none', () => {
    const { history, dir } = fresh();
    record(history, 3);
    const list = path.join(dir, 'steps.json');
    // An older rt reads steps.json alone, and writes it whole with its change: the steps of the log are not in it.
    const doc = JSON.parse(fs.readFileSync(list, 'utf8'));
    fs.writeFileSync(list, JSON.stringify({ ...doc, steps: [{ ...doc.steps[0], state: 'undone', undoneSeq: 1 }] }));
    const again = History.of(new StateStore(path.dirname(path.dirname(dir)), readSettings({}), () => undefined))!;
    expect(again.steps().map((s) => [s.id, s.state])).toEqual([[1, 'undone']]);
    record(again, 1);
    expect(ids(again)).toEqual([1, 2]);
    expect(fs.existsSync(path.join(dir, 'steps.log'))).toBe(false);
  });

  it('never writes through a hard link, a symbolic link or a FIFO planted as the log', () => {
    const { history, dir } = fresh();
    record(history, 3);
    const log = path.join(dir, 'steps.log');
    const outside = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'rt-history-out-')), 'victim');
    roots.push(path.dirname(outside));
    // A hard link to the log (its bytes a log this list takes): appending would write the other name's file too.
    fs.linkSync(log, outside);
    const victim = fs.readFileSync(outside);
    record(history, 1);
    expect(fs.readFileSync(outside)).toEqual(victim);
    expect(ids(history)).toEqual([1, 2, 3, 4]);
    record(history, 1);
    // A symbolic link to a file holding a log of this list: not followed, replaced.
    fs.rmSync(outside);
    fs.copyFileSync(log, outside);
    const copied = fs.readFileSync(outside);
    fs.rmSync(log);
    fs.symlinkSync(outside, log);
    record(history, 1);
    expect(fs.readFileSync(outside)).toEqual(copied);
    expect(fs.lstatSync(log).isSymbolicLink()).toBe(false);
    // A FIFO: not waited on, replaced.
    fs.rmSync(log);
    execFileSync('mkfifo', [log]);
    record(history, 1);
    expect(fs.lstatSync(log).isFile()).toBe(true);
    // (What the planted files held is not the history's: the steps recorded since the list was last written whole went
    // with them, and the next took their place.)
    expect(ids(history)).toEqual([1, 2, 3, 4, 5]);
  });

  it('is never let grow past its bound: a big change has the list written whole, and every step stays readable', () => {
    const { history, dir } = fresh();
    // Steps of many files (a batch): some 300 KB a line of the log.
    const many = Array.from({ length: 1500 }, (_, i) => ({ ...file, path: `${'d/'.repeat(90)}f${i}.txt` }));
    for (let i = 0; i < 8; i++)
      history.record({ time: Date.now(), session: null, command: 'rt apply', files: many }, data(`${i}\n`));
    const log = path.join(dir, 'steps.log');
    if (fs.existsSync(log)) expect(fs.statSync(log).size).toBeLessThanOrEqual(1 << 20);
    expect(ids(history)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('takes a last line cut just before its newline (a short write) as torn: no change glued to it', () => {
    const { history, dir, warnings } = fresh();
    record(history, 3);
    const log = path.join(dir, 'steps.log');
    fs.truncateSync(log, fs.statSync(log).size - 1);
    record(history, 1);
    // Read as another process would: every line of the log whole, one change each.
    if (fs.existsSync(log))
      for (const line of fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).slice(1))
        expect(line.split('{"next":').length).toBe(2);
    // The torn change is lost (its id given again), the next one kept whole.
    expect(ids(history)).toEqual([1, 2, 3]);
    expect(history.data(history.steps()[2]!)?.[0]?.beforeBytes[0]?.toString()).toBe('0\n');
    expect(warnings).toEqual([]);
  });

  it('leaves no data file of another step under the id of a step kept inline (an older rt reads it)', () => {
    const { history, dir } = fresh();
    record(history, 1);
    // What a killed record of a big step, or a step lost with a stale log, leaves: a sound data file of the next id.
    fs.mkdirSync(path.join(dir, 'data'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'data', '2.bin'), encodeStepData(data(`${'x'.repeat(2000)}\n`)));
    const step = history.record({ time: Date.now(), session: null, command: 'rt edit', files: [file] }, data('c\n'));
    expect(step?.id).toBe(2);
    expect(step?.inline).toBeDefined();
    expect(fs.existsSync(path.join(dir, 'data', '2.bin'))).toBe(false);
  });

  it('sweeps a data file under the id of a step kept inline (an older rt, killed before its list)', () => {
    const { history, dir } = fresh();
    record(history, 1);
    fs.writeFileSync(path.join(dir, 'data', '1.bin'), encodeStepData(data(`${'x'.repeat(2000)}\n`)));
    // Leftovers are looked for once a minute.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });
    try {
      record(history, 1);
    } finally {
      vi.useRealTimers();
    }
    expect(fs.existsSync(path.join(dir, 'data', '1.bin'))).toBe(false);
    expect(ids(history)).toEqual([1, 2]);
  });

  it('removes with a step kept inline that the bound drops any data file left under its id', () => {
    const { history, dir } = fresh();
    record(history, MAX_STEPS);
    fs.writeFileSync(path.join(dir, 'data', '1.bin'), encodeStepData(data(`${'x'.repeat(2000)}\n`)));
    record(history, 1);
    expect(ids(history)[0]).toBe(2);
    expect(fs.existsSync(path.join(dir, 'data', '1.bin'))).toBe(false);
  });

  it('checks each line of a long log (in WebAssembly from 8 KiB) as a short one: a damaged line set aside', () => {
    const { history, root } = fresh();
    for (let i = 0; i < 12; i++) {
      const text = `${String(i).repeat(600)}\n`;
      const [one] = data(text);
      const hunks = [{ before: { ...span, end: text.length }, after: span }];
      history.record({ time: Date.now(), session: null, command: 'rt edit', files: [file] }, [{ ...one!, hunks }]);
    }
    const log = path.join(root, '.rt', 'history', 'steps.log');
    expect(fs.statSync(log).size).toBeGreaterThan(8 << 10);
    const sound = copyOf(root);
    expect(ids(sound.history)).toEqual(range(1, 12));
    expect(sound.history.data(12)![0]!.beforeBytes[0]!.toString()).toBe(`${'11'.repeat(600)}\n`);
    expect(sound.warnings).toEqual([]);
    // The change that recorded step 7, one character of its JSON changed (its length kept).
    const damaged = copyOf(root);
    const lines = fs.readFileSync(log, 'utf8').split('\n');
    lines[6] = lines[6]!.replace('"rt edit"', '"rt edjt"');
    fs.writeFileSync(path.join(damaged.dir, 'steps.log'), lines.join('\n'));
    expect(ids(damaged.history)).toEqual(range(1, 6));
    expect(damaged.warnings.join('\n')).toMatch(/steps\.log was set aside \(it is damaged\)/);
  });

  it('replays a log one change after another, over a list whose ids repeat (put back by hand) or not', () => {
    const step = (id: number, command: string) => ({
      id,
      time: 1,
      session: null,
      command,
      state: 'done',
      files: [file],
      bytes: 0,
    });
    const replayed = (steps: object[], changes: object[]) => {
      const { root, dir } = fresh();
      fs.mkdirSync(dir, { recursive: true });
      const list = JSON.stringify({ format: 'rt-history', version: 1, next: 1, steps });
      fs.writeFileSync(path.join(dir, 'steps.json'), list);
      fs.writeFileSync(path.join(dir, 'steps.log'), logHead(list) + changes.map(logLine).join(''));
      return copyOf(root)
        .history.steps()
        .map((s) => `${s.id}${s.command}`);
    };
    // A step is replaced where it lies, or put at the end when not there (new, or taken out before).
    const changes = [
      { next: 5, undos: 0, del: [], put: [step(4, 'e')] },
      { next: 5, undos: 0, del: [], put: [step(2, 'f'), step(4, 'g')] },
      { next: 5, undos: 0, del: [3], put: [step(3, 'h')] },
      { next: 5, undos: 0, del: [1, 9], put: [] },
      { next: 5, undos: 0, del: [], put: [step(1, 'i'), step(1, 'j')] },
    ];
    expect(replayed([step(1, 'a'), step(2, 'b'), step(3, 'c')], changes)).toEqual(['2f', '4g', '3h', '1j']);
    // Two steps of one id: the first is replaced.
    expect(replayed([step(1, 'a'), step(2, 'b'), step(3, 'c'), step(2, 'd')], changes)).toEqual([
      '2f',
      '2d',
      '4g',
      '3h',
      '1j',
    ]);
  });

  it('takes a first line without its newline as torn: the next change starts the log anew, not glued to it', () => {
    const { history, root, dir } = fresh();
    record(history, 2);
    const log = path.join(dir, 'steps.log');
    const text = fs.readFileSync(log, 'utf8');
    fs.writeFileSync(log, text.slice(0, text.indexOf('\n')));
    record(history, 1);
    // Read afresh: the change of step 2 went with the head's newline (its id given again); the next change is kept
    // whole, in a log made anew.
    const again = copyOf(root).history;
    expect(ids(again)).toEqual([1, 2]);
    expect(again.data(2)![0]!.beforeBytes[0]!.toString()).toBe('0\n');
  });

  it('reads the list and its log once while their bytes stay the same, and anew when they change', () => {
    const { history, root } = fresh();
    record(history, 3);
    const copy = copyOf(root);
    const parse = vi.spyOn(JSON, 'parse');
    try {
      expect(ids(copy.history)).toEqual([1, 2, 3]);
      const once = parse.mock.calls.length;
      expect(once).toBeGreaterThan(0);
      expect(ids(copy.history)).toEqual([1, 2, 3]);
      expect(parse.mock.calls.length).toBe(once);
      // The list written again with a space more (an older rt writing it whole): its log is stale.
      const list = path.join(copy.dir, 'steps.json');
      fs.writeFileSync(list, `${fs.readFileSync(list, 'utf8')} `);
      expect(ids(copy.history)).toEqual([1]);
      expect(parse.mock.calls.length).toBeGreaterThan(once);
    } finally {
      parse.mockRestore();
    }
  });

  it('warns of a damaged log at each read of a store of its own (each rt mcp call), not only the first', () => {
    const { history, dir, root } = fresh();
    record(history, 4);
    const log = path.join(dir, 'steps.log');
    const lines = fs.readFileSync(log, 'utf8').split('\n');
    lines[2] = lines[2]!.replace('"rt edit"', '"rt edjt"');
    fs.writeFileSync(log, lines.join('\n'));
    for (const call of [1, 2]) {
      const warnings: string[] = [];
      History.of(new StateStore(root, readSettings({}), (w) => void warnings.push(w)))!.steps();
      expect(warnings.join('\n'), `call ${call}`).toMatch(/steps\.log was set aside \(it is damaged\)/);
    }
  });

  it('lists no line of a log past one not of its shape (damaged): a million of them are not looked through', () => {
    const { history, dir } = fresh();
    record(history, 1);
    const list = fs.readFileSync(path.join(dir, 'steps.json'), 'utf8');
    const head = `${JSON.stringify({ format: 'rt-history-log', version: 1, base: digestText(list) })}\n`;
    // No space; a space, but not after a digest; a digest's place, but no space after it.
    for (const line of ['\n', ' \n', 'abc {}\n', '0123456789abcdef0{}\n']) {
      const log = Buffer.from(head + line.repeat(1_000_000));
      const lines = logLines(log, head.length);
      expect([lines.count, lines.torn], JSON.stringify(line)).toEqual([1, false]);
      fs.writeFileSync(path.join(dir, 'steps.log'), log);
      const reader = History.of(new StateStore(path.dirname(path.dirname(dir)), readSettings({}), () => undefined))!;
      expect(reader.steps().map((s) => s.id)).toEqual([1]);
    }
  });

  it('hands out a list of its own: a caller changing it changes no later read', () => {
    const { history, root } = fresh();
    record(history, 3);
    const reader = History.of(new StateStore(root, readSettings({}), () => undefined))!;
    const steps = reader.steps() as unknown[];
    steps.length = 0;
    expect(reader.steps().map((s) => s.id)).toEqual([1, 2, 3]);
  });
});
