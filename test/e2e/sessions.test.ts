// RT_SESSION: each of several agents in one root has its own view state — what counts
// as shown, and the last window scroll goes on from — while LIDs, locks and files are shared.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, expectRun, numbered, parseWindow, run, tempRepo, write } from './harness.js';

afterAll(cleanup);

const as = (session: string | undefined) => (session === undefined ? {} : { env: { RT_SESSION: session } });

describe('RT_SESSION', () => {
  it('gives each session its own shown lines: what A saw, B must see before editing it', () => {
    const dir = tempRepo();
    write(dir, 'f.txt', numbered(300));
    const a = parseWindow(run(['open', 'f.txt:1-10'], dir, as('agent-a')));
    const lid = a.lidAt(5);
    // The same file has the same LIDs for everyone.
    expect(parseWindow(run(['open', 'f.txt:5-5'], dir, as('agent-c'))).lidAt(5)).toBe(lid);
    expectRun(run(['edit', 'f.txt', lid], dir, { input: 'five\n', ...as('agent-b') }), {
      status: 3,
      stdout: '',
      stderr: new RegExp(
        String.raw`^rt: line 5 of f\.txt has not been shown since it last changed; nothing was written\nrt: see ` +
          String.raw`it first: rt open f\.txt:5-5\n`,
      ),
    });
    // Nor does the shared session (no RT_SESSION) count what a named one saw.
    expect(run(['edit', 'f.txt', lid], dir, { input: 'five\n' }).status).toBe(3);
    expect(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8')).toBe(numbered(300));
    const r = run(['edit', 'f.txt', lid], dir, { input: 'five\n', ...as('agent-a') });
    expect(r.status, r.text).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8')).toContain('line 4\nfive\nline 6\n');
  });

  it('gives each session its own last window for scroll, and a line number means what that session saw there', () => {
    const dir = tempRepo();
    write(dir, 'f.txt', numbered(300));
    run(['open', 'f.txt:101-150'], dir, as('a'));
    run(['open', 'f.txt:201-250'], dir, as('b'));
    expect(parseWindow(run(['scroll', 'f.txt'], dir, as('a'))).start).toBe(149);
    expect(parseWindow(run(['scroll', 'f.txt'], dir, as('b'))).start).toBe(249);
    // Line 120 was shown to a, not to b.
    expect(run(['edit', 'f.txt', '120'], dir, { input: 'x\n', ...as('b') }).status).toBe(3);
    expect(run(['edit', 'f.txt', '120'], dir, { input: 'x\n', ...as('a') }).status).toBe(0);
  });

  it('without RT_SESSION (or empty) there is one shared session, as before', () => {
    const dir = tempRepo();
    write(dir, 'f.txt', numbered(20));
    const w = parseWindow(run(['open', 'f.txt'], dir));
    expect(run(['edit', 'f.txt', w.lidAt(3)], dir, { input: 'three\n', env: { RT_SESSION: '' } }).status).toBe(0);
  });

  it.each(['a b', '../x', 'x/y', '.', 'ü', 'x'.repeat(65)])(
    'refuses the session name %j (exit 2) before doing anything',
    (name) => {
      const dir = tempRepo();
      write(dir, 'f.txt', numbered(3));
      expectRun(run(['open', 'f.txt'], dir, { env: { RT_SESSION: name } }), {
        status: 2,
        stdout: '',
        stderr: /^rt: RT_SESSION must be a name of letters, digits/,
      });
      expect(fs.existsSync(path.join(dir, '.rt'))).toBe(false);
    },
  );
});

describe('rt undo STEP across sessions', () => {
  it(
    "takes back another session's step when named, says whose it was, and it is then the undoing session's to " +
      'redo',
    () => {
      const dir = tempRepo();
      write(dir, 'f.txt', 'a\nb\n');
      const w = parseWindow(run(['open', 'f.txt'], dir, as('A')));
      expect(run(['edit', 'f.txt', w.lidAt(1)], dir, { input: 'A\n', ...as('A') }).status).toBe(0);
      const u = run(['undo', '1'], dir, as('B'));
      expect(u.status, u.text).toBe(0);
      expect(u.stdout).toMatch(/^undid step 1 \(rt edit, [\d-]+ [\d:]+, session A\): f\.txt\n/);
      expect(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8')).toBe('a\nb\n');
      // Redo is the undoer's: B undid it, B brings it back.
      expect(run(['redo'], dir, as('A')).status).toBe(1);
      expect(run(['redo'], dir, as('B')).status).toBe(0);
      expect(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8')).toBe('A\nb\n');
    },
  );
});
