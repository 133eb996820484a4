// A batch killed midway and finished by the next command: recorded as the step it
// was, so that rt undo takes it back whole; one undone leaves no step. A batch over files of
// nested roots is finished whatever the folder the next command runs from, before it reads them.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, expectRun, run, tempDir, tempRepo, write } from './harness.js';

afterAll(cleanup);

/**
 * A preload that makes rt (through NODE_OPTIONS) SIGKILL itself just before its Nth
 * fs.renameSync (KILL_AT_RENAME) whose target is not in .rt/ (RENAMES_OF=files), or before its
 * Nth fs.renameSync of all (no RENAMES_OF); or just before it removes the step its journal kept
 * (KILL_AT_STEP_REMOVAL=1), once the step is recorded. A batch's renames of files: the draft to
 * the journal (its commit point) is in .rt/, then each file in patch order.
 */
function preload(): string {
  return write(
    tempDir('rt-recovery-hook-'),
    'hook.cjs',
    `const fs = require('fs');
let n = 0;
const rename = fs.renameSync;
fs.renameSync = function (a, b) {
  if (process.env.RENAMES_OF !== 'files' || !String(b).includes('/.rt/')) n++;
  if (n === Number(process.env.KILL_AT_RENAME)) process.kill(process.pid, 'SIGKILL');
  return rename.apply(this, arguments);
};
const rm = fs.rmSync;
fs.rmSync = function (p) {
  const step = String(p).includes('/.rt/journal/') && String(p).endsWith('.step');
  if (process.env.KILL_AT_STEP_REMOVAL && step) process.kill(process.pid, 'SIGKILL');
  return rm.apply(this, arguments);
};
`,
  );
}

const killedAt = (n: number, onlyFiles = true) => ({
  NODE_OPTIONS: `--require ${preload()}`,
  KILL_AT_RENAME: String(n),
  ...(onlyFiles ? { RENAMES_OF: 'files' } : {}),
});
const read = (dir: string, rel: string) => fs.readFileSync(path.join(dir, rel), 'utf8');
const THREE =
  '*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-b\n+B\n*** Add File: c.txt\n+C\n*** ' +
  'Delete File: d.txt\n';

function threeFiles(): string {
  const dir = tempRepo();
  for (const f of ['a', 'b', 'd']) write(dir, `${f}.txt`, `${f}\n`);
  return dir;
}

describe('a batch finished by recovery is one step', () => {
  it(
    'killed between its renames: the next command finishes it, ' +
      'history lists it, undo takes it back whole, redo brings it back',
    () => {
      const dir = threeFiles();
      const killed = run(['apply'], dir, { input: THREE, env: { ...killedAt(2), RT_SESSION: 'agent' } });
      expect(killed.status, killed.text).toBe(null);
      expect([read(dir, 'a.txt'), read(dir, 'b.txt')]).toEqual(['A\n', 'b\n']);
      const next = run(['history'], dir);
      expect(next.stderr, next.text).toBe(
        'rt: finished a batch (rt apply) that an rt process killed midway had committed: wrote b.txt, c.txt, ' +
          'd.txt (1 more written before the kill)\n',
      );
      expect(next.stdout, next.text).toMatch(
        /^1 {2}\S+ \S+ {2}agent {2}rt apply {2}a\.txt \+1 -1, b\.txt \+1 -1, c\.txt \+1 -0, d\.txt \+0 -1\n$/,
      );
      expectRun(run(['undo'], dir), { status: 1, stderr: /nothing to undo/ });
      expectRun(run(['undo'], dir, { env: { RT_SESSION: 'agent' } }), {
        status: 0,
        stdout: /^undid step 1 \(rt apply/,
      });
      expect([
        read(dir, 'a.txt'),
        read(dir, 'b.txt'),
        fs.existsSync(path.join(dir, 'c.txt')),
        read(dir, 'd.txt'),
      ]).toEqual(['a\n', 'b\n', false, 'd\n']);
      expectRun(run(['redo'], dir, { env: { RT_SESSION: 'agent' } }), { status: 0, stdout: /^redid step 1/ });
      expect([
        read(dir, 'a.txt'),
        read(dir, 'b.txt'),
        read(dir, 'c.txt'),
        fs.existsSync(path.join(dir, 'd.txt')),
      ]).toEqual(['A\n', 'B\n', 'C\n', false]);
      expect(fs.readdirSync(path.join(dir, '.rt'))).not.toContain('journal');
    },
  );

  it('killed after its last rename, before it recorded its step: recorded by the next command, once', () => {
    const dir = threeFiles();
    for (const f of ['a', 'b', 'd']) run(['open', `${f}.txt`], dir);
    // The run's renames: the draft, the journal, a.txt, b.txt, then a.txt's index (the kill).
    const killed = run(['apply'], dir, {
      input: '*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-b\n+B\n',
      env: killedAt(5, false),
    });
    expect(killed.status, killed.text).toBe(null);
    const next = run(['history'], dir);
    expect(next.stderr, next.text).toMatch(
      /finished a batch \(rt apply\) .*: every file had been written before the kill/,
    );
    expect(next.stdout.trim().split('\n'), next.text).toHaveLength(1);
    expectRun(run(['undo'], dir), { status: 0 });
    expect([read(dir, 'a.txt'), read(dir, 'b.txt')]).toEqual(['a\n', 'b\n']);
  });

  it('killed once its step was recorded, before its journal was removed: not recorded twice', () => {
    const dir = threeFiles();
    const patch = '*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-b\n+B\n';
    const killed = run(['apply'], dir, {
      input: patch,
      env: { NODE_OPTIONS: `--require ${preload()}`, KILL_AT_STEP_REMOVAL: '1' },
    });
    expect(killed.status, killed.text).toBe(null);
    expect(fs.readdirSync(path.join(dir, '.rt', 'journal')).some((n) => n.endsWith('.json'))).toBe(true);
    const next = run(['history'], dir);
    expect(next.stderr, next.text).toMatch(/every file had been written before the kill/);
    expect(next.stdout.trim().split('\n'), next.text).toHaveLength(1);
  });

  it('a batch killed before its commit point is undone and leaves no step', () => {
    const dir = threeFiles();
    run(['open', 'a.txt'], dir);
    const killed = run(['apply'], dir, { input: THREE, env: killedAt(2, false) });
    expect(killed.status, killed.text).toBe(null);
    const next = run(['history'], dir);
    expect(next.stderr, next.text).toMatch(/undid a batch \(rt apply\)/);
    expect(next.stdout, next.text).toBe('');
    expect([read(dir, 'a.txt'), read(dir, 'b.txt'), fs.existsSync(path.join(dir, 'c.txt'))]).toEqual([
      'a\n',
      'b\n',
      false,
    ]);
    expect(fs.readdirSync(path.join(dir, '.rt'))).not.toContain('journal');
  });
});

describe('a batch over nested repositories is finished from any of them', () => {
  /** An outer repository with a.txt, and a nested one (inner/) with b.txt and c.txt. */
  function nested(): string {
    const dir = tempRepo();
    write(dir, 'a.txt', 'a\n');
    fs.mkdirSync(path.join(dir, 'inner'));
    spawnSync('git', ['init', '-q'], { cwd: path.join(dir, 'inner') });
    write(dir, 'inner/b.txt', 'b\n');
    write(dir, 'inner/c.txt', 'c\n');
    return dir;
  }

  it('a batch of the outer root over a file of the inner one: `cd inner && rt open b.txt` finishes it first', () => {
    const dir = nested();
    const killed = run(['apply'], dir, {
      input: '*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: inner/b.txt\n@@\n-b\n+B\n',
      env: killedAt(2),
    });
    expect(killed.status, killed.text).toBe(null);
    expect(read(dir, 'inner/b.txt')).toBe('b\n');
    const r = run(['open', 'b.txt'], path.join(dir, 'inner'));
    expectRun(r, { status: 0, stdout: /\|B\n/, stderr: /finished a batch \(rt apply\)/ });
    expect(read(dir, 'a.txt')).toBe('A\n');
    // The step is the outer root's, and takes back both files.
    expectRun(run(['undo'], dir), { status: 0 });
    expect([read(dir, 'a.txt'), read(dir, 'inner/b.txt')]).toEqual(['a\n', 'b\n']);
    for (const root of [dir, path.join(dir, 'inner')])
      expect(fs.readdirSync(path.join(root, '.rt'))).not.toContain('journal');
  });

  it('a dry run of Delete File of a link says what the write says: the link goes, no diff of what it leads to', () => {
    const dir = nested();
    expectRun(
      run(['apply'], dir, {
        input: '*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: inner/b.txt\n@@\n-b\n+B\n',
      }),
      { status: 0 },
    );
    expect(run(['undo'], dir, { env: killedAt(2) }).status).toBe(null);
    expect([read(dir, 'a.txt'), read(dir, 'inner/b.txt')]).toEqual(['a\n', 'B\n']);
    expectRun(run(['open', 'b.txt'], path.join(dir, 'inner')), {
      status: 0,
      stdout: /\|b\n/,
      stderr: /finished a batch \(rt undo\)/,
    });
    expectRun(run(['history'], dir), { status: 0, stdout: /\(undone\)\n$/ });
  });

  it('a batch of the inner root: an open or a search from the outer one finishes it first', () => {
    const dir = nested();
    const inner = path.join(dir, 'inner');
    const patch = '*** Update File: b.txt\n@@\n-b\n+B\n*** Update File: c.txt\n@@\n-c\n+C\n';
    expect(run(['apply'], inner, { input: patch, env: killedAt(2) }).status).toBe(null);
    expectRun(run(['open', 'inner/c.txt'], dir), { status: 0, stdout: /\|C\n/, stderr: /finished a batch/ });
    write(dir, 'inner/b.txt', 'b\n');
    write(dir, 'inner/c.txt', 'c\n');
    expect(run(['apply'], inner, { input: patch, env: killedAt(2) }).status).toBe(null);
    expectRun(run(['grep', '^c$', 'inner'], dir), { status: 1, stdout: '', stderr: /finished a batch/ });
    expect(read(dir, 'inner/c.txt')).toBe('C\n');
  });
});
