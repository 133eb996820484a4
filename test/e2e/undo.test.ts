// rt undo, rt redo, rt history: a step taken back only when its files are still what
// it wrote, bytes exactly restored, the LIDs of the restored lines as before the step; sessions
// never undo each other's work; a damaged history is never fatal.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { History } from '../../src/store/history.js';
import { StateStore } from '../../src/store/state.js';
import { readSettings } from '../../src/settings/env.js';
import {
  cleanup,
  expectRun,
  numbered,
  openWindow,
  parseWindow,
  run,
  tree,
  write,
  repoWith as repo,
} from './harness.js';
import { readList } from './history-fixture.js';

afterAll(cleanup);

const read = (dir: string, rel: string) => fs.readFileSync(path.join(dir, rel));

describe('rt undo and rt redo', () => {
  it('restores the bytes exactly (CRLF, no final newline) and the LIDs a window showed before the step', () => {
    const bytes = Buffer.from('a\r\nb\r\n\tc\r\nlast');
    const dir = repo({ 'f.txt': bytes });
    const w = openWindow(dir, 'f.txt');
    expect(run(['edit', 'f.txt', w.lidAt(2), w.lidAt(3)], dir, { input: 'B\n' }).status).toBe(0);
    const r = run(['undo'], dir);
    expect(r.status, r.text).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(
        String.raw`^undid step 1 \(rt edit, \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\): f\.txt\nrestored f\.txt: 4 ` +
          String.raw`lines\n--- f\.txt \(lines 1-4 of 4\) ---\n`,
      ),
    );
    expect(read(dir, 'f.txt')).toEqual(bytes);
    // The window printed before the edit is valid again: its LIDs name the same lines.
    expect(openWindow(dir, 'f.txt').lids).toEqual(w.lids);
    expect(run(['edit', 'f.txt', w.lidAt(3)], dir, { input: 'C\n' }).status).toBe(0);
    expect(read(dir, 'f.txt').toString()).toBe('a\r\nb\r\nC\r\nlast');
  });

  it('redoes what it undid, and a new write clears what could be redone', () => {
    const dir = repo({ 'f.txt': numbered(5) });
    const w = openWindow(dir, 'f.txt');
    run(['edit', 'f.txt', w.lidAt(1)], dir, { input: 'one\n' });
    const after = read(dir, 'f.txt');
    const afterLids = openWindow(dir, 'f.txt').lids;
    expect(run(['undo'], dir).status).toBe(0);
    expect(read(dir, 'f.txt').toString()).toBe(numbered(5));
    expect(run(['redo'], dir).status).toBe(0);
    expect(read(dir, 'f.txt')).toEqual(after);
    expect(openWindow(dir, 'f.txt').lids).toEqual(afterLids);
    expect(run(['undo'], dir).status).toBe(0);
    run(['insert', 'f.txt', '$'], dir, { input: 'six\n' });
    expectRun(run(['redo'], dir), { status: 1, stdout: '', stderr: /^rt: nothing to redo/ });
  });

  it('takes back a whole apply: files made removed, removed restored, moves reversed', () => {
    const dir = repo({ 'a.txt': 'a\n', 'old.txt': 'old\n', 'm.txt': 'm\n' });
    const w = openWindow(dir, 'a.txt');
    const before = tree(dir);
    const r = run(['apply'], dir, {
      input:
        `*** Update File: a.txt\n@@ edit ${w.lidAt(1)}\n+A\n*** Add File: sub/new.txt\n+new\n*** Delete File: ` +
        `old.txt\n*** Update File: m.txt\n*** Move to: n.txt\n`,
    });
    expect(r.status, r.text).toBe(0);
    expect(run(['history'], dir).stdout).toMatch(
      new RegExp(
        String.raw`^1 {2}\S+ \S+ {2}- {2}rt apply {2}a\.txt \+1 -1, sub\/new\.txt \+1 -0, old\.txt \+0 -1, m\.txt ` +
          String.raw`\+0 -1, n\.txt \+1 -0\n$`,
      ),
    );
    const u = run(['undo'], dir);
    expect(u.status, u.text).toBe(0);
    const now = tree(dir);
    for (const name of ['a.txt', 'old.txt', 'm.txt']) expect(now[name], name).toEqual(before[name]);
    expect(fs.existsSync(path.join(dir, 'sub/new.txt'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'n.txt'))).toBe(false);
  });

  it(
    'refuses (exit 3, nothing written) when a file changed since the ' +
      'step, naming it; --force undoes where the lines are still as left',
    () => {
      const dir = repo({ 'f.txt': numbered(20) });
      const w = openWindow(dir, 'f.txt');
      run(['edit', 'f.txt', w.lidAt(5)], dir, { input: 'five\n' });
      // An editor changes another line.
      const edited = read(dir, 'f.txt').toString().replace('line 15\n', 'fifteen\n');
      fs.writeFileSync(path.join(dir, 'f.txt'), edited);
      expectRun(run(['undo'], dir), {
        status: 3,
        stdout: '',
        stderr: new RegExp(
          String.raw`^rt: f\.txt changed since step 1 \(rt edit\) wrote it; nothing was undone\nrt: see it as it ` +
            String.raw`is now: rt open f\.txt\nrt: undo anyway, where its changed lines are still what step 1 \(rt ` +
            String.raw`edit\) wrote: add --force\n$`,
        ),
      });
      expect(read(dir, 'f.txt').toString()).toBe(edited);
      expect(run(['undo', '--force'], dir).status).toBe(0);
      expect(read(dir, 'f.txt').toString()).toBe(numbered(20).replace('line 15\n', 'fifteen\n'));
    },
  );

  it("never undoes another session's later work: A's undo is refused after B changed the file", () => {
    const dir = repo({ 'f.txt': numbered(10) });
    const a = { env: { RT_SESSION: 'a' } };
    const b = { env: { RT_SESSION: 'b' } };
    const wa = parseWindow(run(['open', 'f.txt'], dir, a));
    expect(run(['edit', 'f.txt', wa.lidAt(2)], dir, { input: 'two\n', ...a }).status).toBe(0);
    const wb = parseWindow(run(['open', 'f.txt'], dir, b));
    expect(run(['edit', 'f.txt', wb.lidAt(8)], dir, { input: 'eight\n', ...b }).status).toBe(0);
    expect(run(['undo'], dir, a).status).toBe(3);
    // B's own undo is B's step; then A's goes through.
    expect(run(['undo'], dir, b).status).toBe(0);
    expect(run(['undo'], dir, a).status).toBe(0);
    expect(read(dir, 'f.txt').toString()).toBe(numbered(10));
    // The shared session has no step of its own.
    expect(run(['undo'], dir).status).toBe(1);
  });

  it('undo STEP takes back an older step only if no later step changed its files', () => {
    const dir = repo({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const wa = openWindow(dir, 'a.txt');
    const wb = openWindow(dir, 'b.txt');
    run(['edit', 'a.txt', wa.lidAt(1)], dir, { input: 'A\n' });
    run(['edit', 'b.txt', wb.lidAt(1)], dir, { input: 'B\n' });
    const wa2 = openWindow(dir, 'a.txt');
    run(['edit', 'a.txt', wa2.lidAt(1)], dir, { input: 'AA\n' });
    expectRun(run(['undo', '1'], dir), {
      status: 3,
      stdout: '',
      stderr:
        /^rt: step 3 \(rt edit\) changed a\.txt after step 1; nothing was undone\nrt: undo step 3 first: rt undo 3\n/,
    });
    expect(run(['undo', '2'], dir).status).toBe(0);
    expect(read(dir, 'b.txt').toString()).toBe('b\n');
    expect(read(dir, 'a.txt').toString()).toBe('AA\n');
  });

  it('undo of a create whose file was then deleted by hand is refused, naming it', () => {
    const dir = repo({});
    expect(run(['create', 'n.txt'], dir, { input: 'x\n' }).status).toBe(0);
    fs.rmSync(path.join(dir, 'n.txt'));
    expectRun(run(['undo'], dir), {
      status: 3,
      stdout: '',
      stderr: /^rt: n\.txt was removed since step 1 \(rt create\) wrote it/,
    });
  });
});

describe('rt undo told what stands in its way', () => {
  it(
    "a session's undo blocked by another session's later step names that step and its session, with or without " +
      'STEP',
    () => {
      const dir = repo({ 'a.txt': 'one\ntwo\nthree\n' });
      const A = { RT_SESSION: 'A' };
      const B = { RT_SESSION: 'B' };
      expect(run(['edit', '--force', 'a.txt', '1'], dir, { env: A, input: 'ONE\n' }).status).toBe(0);
      expect(run(['edit', '--force', 'a.txt', '2'], dir, { env: B, input: 'TWO\n' }).status).toBe(0);
      expectRun(run(['undo'], dir, { env: A }), {
        status: 3,
        stdout: '',
        stderr: new RegExp(
          String.raw`^rt: a\.txt changed since step 1 \(rt edit\) wrote it: step 2 \(rt edit, session B\) wrote ` +
            String.raw`it after; nothing was undone\nrt: undo step 2 first: rt undo 2\nrt: see it as it is now: rt ` +
            String.raw`open a\.txt\nrt: undo anyway, where its changed lines are still what step 1 \(rt edit\) ` +
            String.raw`wrote: add --force\n$`,
        ),
      });
      expectRun(run(['undo', '1'], dir, { env: A }), {
        status: 3,
        stdout: '',
        stderr: new RegExp(
          String.raw`^rt: step 2 \(rt edit, session B\) changed a\.txt after step 1; nothing was undone\nrt: undo ` +
            String.raw`step 2 first: rt undo 2\n$`,
        ),
      });
      expect(read(dir, 'a.txt').toString()).toBe('ONE\nTWO\nthree\n');
    },
  );

  it('undo STEP of a step undone already says so (exit 1: nothing to undo), and whether rt redo can redo it', () => {
    const dir = repo({ 'a.txt': 'one\ntwo\n' });
    expect(run(['edit', '--force', 'a.txt', '1'], dir, { input: 'ONE\n' }).status).toBe(0);
    expect(run(['undo'], dir).status).toBe(0);
    expectRun(run(['undo', '1'], dir), {
      status: 1,
      stdout: '',
      stderr: /^rt: step 1 \(rt edit\) is undone already; nothing was written\nrt: bring it back with: rt redo\n$/,
    });
    // Once its session writes anew, no redo brings it back.
    expect(run(['edit', '--force', 'a.txt', '2'], dir, { input: 'TWO\n' }).status).toBe(0);
    expectRun(run(['undo', '1'], dir), {
      status: 1,
      stdout: '',
      stderr: new RegExp(
        String.raw`^rt: step 1 \(rt edit\) is undone already; nothing was written \(it can no longer be redone: ` +
          String.raw`the session that undid it wrote since\)\nrt: see the steps: rt history\n$`,
      ),
    });
  });
});

describe('rt undo of a big file', () => {
  it(
    'saves the index it restores as a full encoding would: the next ' +
      'commands read it without a warning, with the LIDs of before the step',
    () => {
      // Several blocks of the saved index, and changes that add or remove a number of lines not a multiple of a block.
      const dir = repo({ 'f.txt': numbered(5000), 'g.txt': numbered(3000) });
      const f = openWindow(dir, 'f.txt:1', ['--window', '5000']);
      const g = openWindow(dir, 'g.txt:1', ['--window', '3000']);
      // Dated back, so that its saved index is trusted by its stamp (not racy) and kept as read.
      for (const name of ['f.txt', 'g.txt'])
        fs.utimesSync(path.join(dir, name), new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
      const original = { f: read(dir, 'f.txt'), g: read(dir, 'g.txt') };
      expect(run(['edit', 'f.txt', f.lidAt(1500), f.lidAt(1502)], dir, { input: 'x\ny\nz\nw\nv\n' }).status).toBe(0);
      const patch =
        `*** Begin Patch\n*** Update File: f.txt\n@@ delete ${f.lidAt(10)} ${f.lidAt(12)}\n@@ insert ` +
        `after ${f.lidAt(4000)}\n+new\n*** Update File: g.txt\n@@ edit ${g.lidAt(2000)}\n+G\n*** End Patch\n`;
      expect(run(['apply'], dir, { input: patch }).status).toBe(0);
      for (const n of [1, 2]) {
        const u = run(['undo'], dir);
        expect(u.status, u.text).toBe(0);
        expect(u.stderr, `undo ${n}`).toBe('');
      }
      expect(read(dir, 'f.txt')).toEqual(original.f);
      expect(read(dir, 'g.txt')).toEqual(original.g);
      const f2 = run(['open', 'f.txt:1', '--window', '5000'], dir);
      const g2 = run(['open', 'g.txt:1', '--window', '3000'], dir);
      expect(f2.stderr + g2.stderr).toBe('');
      expect(parseWindow(f2).lids).toEqual(f.lids);
      expect(parseWindow(g2).lids).toEqual(g.lids);
      expect(fs.existsSync(path.join(dir, '.rt/set-aside'))).toBe(false);
      // And redo then undo again: the same bytes each way.
      expect(run(['redo'], dir).status).toBe(0);
      expect(run(['redo'], dir).status).toBe(0);
      expect(run(['undo'], dir).status).toBe(0);
      expect(run(['undo'], dir).status).toBe(0);
      expect(read(dir, 'f.txt')).toEqual(original.f);
      expect(parseWindow(run(['open', 'f.txt:1', '--window', '5000'], dir)).lids).toEqual(f.lids);
    },
  );
});

describe('rt undo of a file made in new folders', () => {
  it('removes the folders the step made when nothing else is in them, and redo makes them again', () => {
    const dir = repo({ 'f.txt': 'a\n' });
    expect(run(['create', 'a/b/c.txt'], dir, { input: 'c\n' }).status).toBe(0);
    expect(run(['undo'], dir).status).toBe(0);
    expect(fs.existsSync(path.join(dir, 'a'))).toBe(false);
    const r = run(['redo'], dir);
    expect(r.status, r.text).toBe(0);
    expect(read(dir, 'a/b/c.txt').toString()).toBe('c\n');
    // A file put in one of them meanwhile keeps it (and the folders above it).
    write(dir, 'a/keep.txt', 'k\n');
    expect(run(['undo'], dir).status).toBe(0);
    expect(fs.existsSync(path.join(dir, 'a/b'))).toBe(false);
    expect(read(dir, 'a/keep.txt').toString()).toBe('k\n');
  });
});

describe('rt undo --json', () => {
  it('prints one document: the step, and each file with its restored windows', () => {
    const dir = repo({ 'f.txt': numbered(3) });
    const w = openWindow(dir, 'f.txt');
    run(['edit', 'f.txt', w.lidAt(2)], dir, { input: 'two\n' });
    const r = run(['--json', 'undo'], dir);
    expect(r.status, r.text).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({
      command: 'undo',
      written: true,
      step: { id: 1, command: 'rt edit', session: null },
      files: [{ path: 'f.txt', verb: 'restored', total: 3 }],
    });
    expect(doc.files[0].windows[0].lines.map((l: { lid: string }) => l.lid)).toEqual(w.lids);
  });
});

describe('nothing to undo, and a history that cannot be trusted', () => {
  it('is exit 1 with no history, after rm -rf .rt, and with RT_STATE=off (which says why)', () => {
    const dir = repo({ 'f.txt': 'a\n' });
    expectRun(run(['undo'], dir), { status: 1, stdout: '', stderr: /^rt: nothing to undo\n$/ });
    const w = openWindow(dir, 'f.txt');
    run(['edit', 'f.txt', w.lidAt(1)], dir, { input: 'A\n' });
    fs.rmSync(path.join(dir, '.rt'), { recursive: true });
    expect(run(['undo'], dir).status).toBe(1);
    expect(read(dir, 'f.txt').toString()).toBe('A\n');
    expectRun(run(['undo'], dir, { env: { RT_STATE: 'off' } }), {
      status: 1,
      stdout: '',
      stderr: /no history is kept here \(RT_STATE=off\): nothing to undo/,
    });
  });

  it.each([
    ['cut in half', (text: string) => text.slice(0, text.length >> 1)],
    ['filled with garbage', () => '\u0000garbage{{{'],
  ])('a history file %s is set aside, never fatal: the next write starts it again', (_name, damage) => {
    const dir = repo({ 'f.txt': 'a\n' });
    const w = openWindow(dir, 'f.txt');
    run(['edit', 'f.txt', w.lidAt(1)], dir, { input: 'A\n' });
    const list = path.join(dir, '.rt/history/steps.json');
    fs.writeFileSync(list, damage(fs.readFileSync(list, 'utf8')));
    expect(run(['undo'], dir).status).toBe(1);
    const w2 = openWindow(dir, 'f.txt');
    expect(run(['edit', 'f.txt', w2.lidAt(1)], dir, { input: 'AA\n' }).status).toBe(0);
    expect(run(['undo'], dir).status).toBe(0);
    expect(read(dir, 'f.txt').toString()).toBe('A\n');
  });

  it('keeps the last 200 steps; the oldest go first', () => {
    const dir = repo({ 'f.txt': 'a\n' });
    // 204 steps written straight into the history (one rt run each would take minutes on a busy
    // machine), then the 205th by rt edit, which drops the oldest five.
    const history = History.of(new StateStore(dir, readSettings({}), () => undefined))!;
    const side = { exists: true, size: 2, digest: null };
    const file = { path: 'f.txt', abs: path.join(dir, 'f.txt'), before: side, after: side, added: 1, removed: 1 };
    const span = { from: 0, to: 1, start: 0, end: 2 };
    for (let i = 0; i < 204; i++) {
      const data = [
        {
          hunks: [{ before: span, after: span }],
          beforeBytes: [Buffer.from('a\n')],
          afterBytes: [Buffer.from('b\n')],
          beforeLids: [Uint32Array.of(1)],
          afterLids: [Uint32Array.of(2)],
        },
      ];
      history.record({ time: Date.now(), session: null, command: 'rt edit', files: [file] }, data);
    }
    const w = openWindow(dir, 'f.txt');
    const r = run(['edit', 'f.txt', w.lidAt(1)], dir, { input: 'v\n' });
    expect(r.status, r.text).toBe(0);
    const doc = JSON.parse(run(['--json', 'history'], dir).stdout);
    expect(doc.steps.length).toBe(200);
    expect(doc.steps[0].id).toBe(205);
    expect(doc.steps[0].command).toMatch(/^rt edit/);
    expect(doc.steps[199].id).toBe(6);
    // Their data, small, is kept in the list (none in a file of its own), and goes with them.
    expect(
      fs.existsSync(path.join(dir, '.rt/history/data')) ? fs.readdirSync(path.join(dir, '.rt/history/data')) : [],
    ).toEqual([]);
    expect(readList(dir).steps.every((s) => typeof s.inline === 'string')).toBe(true);
    // The step rt wrote is the one undone.
    expect(run(['undo'], dir).status).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8')).toBe('a\n');
  });
});

describe('rt undo of a move', () => {
  it(
    'keeps neither file whole; undo makes the source again from ' +
      'the target, with its LIDs, redo the target from the source',
    () => {
      const dir = repo({ 'src/a.ts': numbered(2000) });
      const w = openWindow(dir, 'src/a.ts:1', ['--window', '2000']);
      const m = run(['apply'], dir, {
        input:
          `*** Begin Patch\n*** Update File: src/a.ts\n*** Move to: lib/b.ts\n@@ ` +
          `edit ${w.lidAt(1000)}\n+changed\n*** End Patch\n`,
      });
      expect(m.status, m.text).toBe(0);
      const moved = read(dir, 'lib/b.ts');
      const movedLids = parseWindow(run(['open', 'lib/b.ts:1', '--window', '2000'], dir)).lids;
      expect(readList(dir).steps[0]!.bytes).toBeLessThan(2000);
      const u = run(['undo'], dir);
      expect(u.status, u.text).toBe(0);
      expect(read(dir, 'src/a.ts').toString()).toBe(numbered(2000));
      expect(fs.existsSync(path.join(dir, 'lib'))).toBe(false);
      expect(parseWindow(run(['open', 'src/a.ts:1', '--window', '2000'], dir)).lids).toEqual(w.lids);
      const r = run(['redo'], dir);
      expect(r.status, r.text).toBe(0);
      expect(read(dir, 'lib/b.ts')).toEqual(moved);
      expect(fs.existsSync(path.join(dir, 'src/a.ts'))).toBe(false);
      expect(parseWindow(run(['open', 'lib/b.ts:1', '--window', '2000'], dir)).lids).toEqual(movedLids);
      // The target changed since: the source cannot be made again from it.
      fs.appendFileSync(path.join(dir, 'lib/b.ts'), 'more\n');
      const again = run(['undo'], dir);
      expect(again.status, again.text).toBe(3);
      expect(fs.existsSync(path.join(dir, 'src/a.ts'))).toBe(false);
    },
  );
});
