// Adversarial review (fourth pass) of rt undo / rt redo / rt history (issue 20), on the
// fixes of commit 8c0abe5: each test is a bug found by hand and reproduced with real bytes. They
// fail until the bug is fixed.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, numbered, openWindow, run, repoWith as repo } from './harness.js';

afterAll(cleanup);

const read = (dir: string, rel: string) => fs.readFileSync(path.join(dir, rel));

const stepsFile = (dir: string) => path.join(dir, '.rt/history/steps.json');
const editDoc = (dir: string, change: (doc: Record<string, any> & { steps: Array<Record<string, any>> }) => void) => {
  const doc = JSON.parse(fs.readFileSync(stepsFile(dir), 'utf8'));
  change(doc);
  fs.writeFileSync(stepsFile(dir), JSON.stringify(doc));
};
/** An rt that said it was undoing or redoing a step, and was killed (pid 999999 is not running). */
const deadPending = (direction: 'undo' | 'redo', session: unknown) => ({
  direction,
  owner: { pid: 999_999, host: os.hostname() },
  time: Date.now() - 1000,
  session,
});

const MOVE = '*** Update File: a.txt\n*** Move to: z.txt\n';

describe('undo review 4: the restored-size check against the list', () => {
  // stepping.ts planFile: `same && current.bytes.length + Σ(other side − this side) !== target.size`
  // → damaged(). After `rt undo --force` that kept a change made elsewhere in the file, the side
  // the undo recorded (History.mark: digest and size of what it wrote) is that file, and it no
  // longer differs from the side after by the step's own ranges only: the redo of a file that is
  // exactly what the undo left is refused as "the data of step 1 ... damaged?", exit 2, "remove
  // .rt/history to start the history again". Same for undo after redo --force; and --force does
  // not help (the check runs whenever the file is that side), so the step is stuck for good.
  it('redo after an undo --force that kept another change is not taken for damaged data', () => {
    const dir = repo({ 'f.txt': numbered(20) });
    const w = openWindow(dir, 'f.txt');
    expect(run(['edit', 'f.txt', w.lidAt(2)], dir, { input: 'TWO\n' }).status).toBe(0);
    fs.writeFileSync(path.join(dir, 'f.txt'), read(dir, 'f.txt').toString().replace('line 15\n', 'line fifteen\n'));
    const u = run(['undo', '--force'], dir);
    expect(u.status, u.text).toBe(0);
    expect(read(dir, 'f.txt').toString()).toBe(numbered(20).replace('line 15\n', 'line fifteen\n'));
    const r = run(['redo'], dir);
    expect({ status: r.status, stderr: r.stderr }, r.text).toEqual({ status: 0, stderr: '' });
    expect(read(dir, 'f.txt').toString()).toBe(
      numbered(20).replace('line 2\n', 'TWO\n').replace('line 15\n', 'line fifteen\n'),
    );
  });

  it('undo after a redo --force that kept another change is not taken for damaged data', () => {
    const dir = repo({ 'f.txt': numbered(20) });
    const w = openWindow(dir, 'f.txt');
    expect(run(['edit', 'f.txt', w.lidAt(2)], dir, { input: 'TWO\n' }).status).toBe(0);
    expect(run(['undo'], dir).status).toBe(0);
    fs.writeFileSync(path.join(dir, 'f.txt'), read(dir, 'f.txt').toString().replace('line 15\n', 'line fifteen\n'));
    const r = run(['redo', '--force'], dir);
    expect(r.status, r.text).toBe(0);
    const u = run(['undo'], dir);
    const forced = u.status === 0 ? u : run(['undo', '--force'], dir);
    expect({ status: u.status, stderr: u.stderr, forced: forced.status }, `${u.text}\n${forced.text}`).toEqual({
      status: 0,
      stderr: '',
      forced: 0,
    });
    expect(read(dir, 'f.txt').toString()).toBe(numbered(20).replace('line 15\n', 'line fifteen\n'));
  });
});

describe('undo review 4: a move made again from the other file', () => {
  // A redo of a move checks the source first (planFile, `!target.exists`: refuse('changed') with
  // "redo anyway ...: add --force"; removed: "redo the rest of the step all the same: add --force"),
  // but the target is made from the source (fromOtherFile), which --force never relaxes: the
  // hint leads to a second refusal (exit 3), or to "no such file: a.txt" (exit 4).
  it('redo of a move whose source changed since the undo does not offer a --force that is refused the same', () => {
    const dir = repo({ 'a.txt': 'a\nb\n' });
    openWindow(dir, 'a.txt');
    expect(run(['apply'], dir, { input: MOVE }).status).toBe(0);
    expect(run(['undo'], dir).status).toBe(0);
    fs.appendFileSync(path.join(dir, 'a.txt'), 'c\n');
    const r = run(['redo'], dir);
    expect(r.status, r.text).toBe(3);
    const forced = run(['redo', '--force'], dir);
    if (forced.status !== 0) expect(r.stderr, `${r.text}\n${forced.text}`).not.toMatch(/--force/);
    expect(read(dir, 'a.txt').toString()).toBe('a\nb\nc\n');
  });

  it('redo of a move whose source was removed since the undo does not offer a --force that then fails', () => {
    const dir = repo({ 'a.txt': 'a\nb\n' });
    openWindow(dir, 'a.txt');
    expect(run(['apply'], dir, { input: MOVE }).status).toBe(0);
    expect(run(['undo'], dir).status).toBe(0);
    fs.rmSync(path.join(dir, 'a.txt'));
    const r = run(['redo'], dir);
    expect(r.status, r.text).toBe(3);
    const forced = run(['redo', '--force'], dir);
    if (forced.status !== 0) expect(r.stderr, `${r.text}\n${forced.text}`).not.toMatch(/--force/);
  });

  // fromOtherFile reads the target with readSnapshot, which throws the generic "no such file:
  // z.txt" / "check the path; list files with: rt find NAME" (exit 4, as for a typo in a path),
  // where every other file of a step removed since is "z.txt was removed since step 1 (...)
  // wrote it; nothing was undone", exit 3 (refused, exit 3, naming the file).
  it('undo of a move whose target was removed since is refused as any removed file of a step (exit 3), not "no such file"', () => {
    const dir = repo({ 'a.txt': 'a\nb\n' });
    openWindow(dir, 'a.txt');
    expect(run(['apply'], dir, { input: MOVE }).status).toBe(0);
    fs.rmSync(path.join(dir, 'z.txt'));
    const u = run(['undo'], dir);
    expect(
      { status: u.status, removed: /z\.txt was removed since step 1/.test(u.stderr), find: /rt find/.test(u.stderr) },
      u.text,
    ).toEqual({ status: 3, removed: true, find: false });
    expect(fs.existsSync(path.join(dir, 'a.txt'))).toBe(false);
  });

  // planFile gives a file made again one region, the whole file (`regions: [{ from: 0, to:
  // count }]`), and report() prints every region in full: the undo of a move of a 5,000-line
  // file prints 5,004 lines (a 1,000,000-line file: all of them), where the move itself printed
  // one line, and an edit or create prints at most 200 new lines, then "N more new lines not
  // shown: rt open ...". An agent's context is flooded by an undo.
  it('undo and redo of a move of a long file do not print the whole file', () => {
    const dir = repo({ 'a.txt': numbered(5000) });
    openWindow(dir, 'a.txt:1-5');
    const m = run(['apply'], dir, { input: MOVE });
    expect(m.status, m.text).toBe(0);
    const u = run(['undo'], dir);
    expect(u.status, u.text.slice(0, 2000)).toBe(0);
    const r = run(['redo'], dir);
    expect(r.status).toBe(0);
    expect(
      { undo: u.stdout.split('\n').length < 300, redo: r.stdout.split('\n').length < 300 },
      `undo printed ${u.stdout.split('\n').length} lines, redo ${r.stdout.split('\n').length}; the move ${m.stdout.split('\n').length}`,
    ).toEqual({ undo: true, redo: true });
  });
});

describe('undo review 4: fields of the list that rt copies', () => {
  // validStep checks pending's direction, time and owner, but not pending.session; settlePending
  // copies it into undoneBy (History.mark `by`), which validStep does check: rt writes a list it
  // then reads as damaged, and the whole history (every step, every session) is set aside.
  it('a pending whose session is not a string does not make rt write a list that loses the whole history', () => {
    const dir = repo({ 'f.txt': 'a\nb\n', 'g.txt': 'p\nq\n' });
    const w = openWindow(dir, 'f.txt');
    const g = openWindow(dir, 'g.txt');
    expect(run(['edit', 'g.txt', g.lidAt(1)], dir, { input: 'P\n' }).status).toBe(0);
    expect(run(['edit', 'f.txt', w.lidAt(1)], dir, { input: 'X\n' }).status).toBe(0);
    expect(run(['undo'], dir).status).toBe(0);
    // As left by an rt killed after its files were written, before the step was marked.
    editDoc(dir, (doc) => {
      const s = doc.steps[1]!;
      s.state = 'done';
      delete s.undoneSeq;
      s.pending = deadPending('undo', 5);
    });
    const h = run(['history'], dir);
    const again = run(['history'], dir);
    expect(
      {
        first: h.stdout.split('\n').filter(Boolean).length,
        again: again.stdout.split('\n').filter(Boolean).length,
        setAside: fs.existsSync(path.join(dir, '.rt/set-aside')),
      },
      `${h.text}\n${again.text}`,
    ).toEqual({ first: 2, again: 2, setAside: false });
  });

  // Doc.undos is not checked at all: a string there makes History.mark write undoneSeq "11" (a
  // string), which validStep refuses: the undo writes the file, and the next rt sets the whole
  // history aside; the step it undid can no longer be redone, the other steps are gone.
  it('a count of undos that is not a number does not make the next undo lose the whole history', () => {
    const dir = repo({ 'f.txt': 'a\nb\n' });
    const w = openWindow(dir, 'f.txt');
    expect(run(['edit', 'f.txt', w.lidAt(1)], dir, { input: 'X\n' }).status).toBe(0);
    expect(run(['edit', 'f.txt', w.lidAt(2)], dir, { input: 'Y\n' }).status).toBe(0);
    editDoc(dir, (doc) => (doc.undos = '1'));
    const u = run(['undo'], dir);
    expect(u.status, u.text).toBe(0);
    const h = run(['history'], dir);
    expect(
      { steps: h.stdout.split('\n').filter(Boolean).length, setAside: fs.existsSync(path.join(dir, '.rt/set-aside')) },
      h.text,
    ).toEqual({ steps: 2, setAside: false });
  });
});

describe('undo review 4: a settled undo and the session writing anew', () => {
  // An undo killed after its files were written, before the step was marked, leaves the step
  // `done` with `pending`; the next rt edit does not settle it (only undo, redo and history do),
  // so History.record, which clears only steps already `undone`, does not clear it. The next rt
  // redo settles it as undone and brings it back: a step is redone after its session wrote anew
  // (a new step clears what could be redone).
  it('an undo killed before it marked its step, then a new step of the session: rt redo has nothing to redo', () => {
    const dir = repo({ 'f.txt': 'a\nb\n', 'g.txt': 'p\nq\n' });
    const w = openWindow(dir, 'f.txt');
    const g = openWindow(dir, 'g.txt');
    expect(run(['edit', 'f.txt', w.lidAt(1)], dir, { input: 'X\n' }).status).toBe(0);
    expect(run(['undo'], dir).status).toBe(0);
    editDoc(dir, (doc) => {
      const s = doc.steps[0]!;
      s.state = 'done';
      delete s.undoneSeq;
      s.pending = deadPending('undo', null);
    });
    expect(run(['edit', 'g.txt', g.lidAt(1)], dir, { input: 'P\n' }).status).toBe(0);
    const r = run(['redo'], dir);
    expect({ status: r.status, f: read(dir, 'f.txt').toString() }, r.text).toEqual({ status: 1, f: 'a\nb\n' });
  });
});
