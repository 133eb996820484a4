// rt create --empty (makes an empty file) and what
// create --force reports over an existing file. Run through the built binary.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, expectRun, numbered, openWindow, run, tempDir, tree, write } from './harness.js';

afterAll(cleanup);

describe('rt create --empty (found by a user trial: no way to create an empty file)', () => {
  it('creates an empty file (0 bytes) and its folders, reported as empty; it can be appended to at once', () => {
    const dir = tempDir();
    expectRun(run(['create', '--empty', 'sub/e.txt'], dir), {
      status: 0,
      stdout: 'created sub/e.txt: empty (+0)\n--- sub/e.txt (empty file) ---\n',
      stderr: '',
    });
    const file = path.join(dir, 'sub/e.txt');
    expect(fs.readFileSync(file).length).toBe(0);
    expect(run(['insert', 'sub/e.txt', '$'], dir, { input: 'first\n' }).status).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toBe('first\n');
    const j = run(['create', '--empty', 'j.txt', '--json'], dir);
    expect(j.status, j.text).toBe(0);
    expect(JSON.parse(j.stdout)).toEqual({
      command: 'create',
      path: 'j.txt',
      written: true,
      verb: 'created',
      old: { start: 1, count: 0 },
      new: { start: 1, count: 0 },
      delta: 0,
      window: { path: 'j.txt', total: 0, start: 0, end: 0, above: 0, below: 0, lines: [] },
    });
  });

  it('is refused with text on stdin (exit 2), nothing written; an existing file needs --force as ever', () => {
    const dir = tempDir();
    const before = tree(dir);
    expectRun(run(['create', '--empty', 'e.txt'], dir, { input: '\n' }), {
      status: 2,
      stdout: '',
      stderr:
        'rt: --empty makes an empty file, but standard input holds text (1 byte); nothing was written\nrt: to ' +
        "write the text, drop --empty: rt create e.txt <<'EOF'\nrt: to make an empty file, give no text: rt " +
        'create --empty e.txt </dev/null\n',
    });
    expect(tree(dir)).toEqual(before);
    write(dir, 'f.txt', numbered(3));
    expectRun(run(['create', '--empty', 'f.txt'], dir), {
      status: 3,
      stdout: '',
      stderr: /^rt: f\.txt exists already/,
    });
    expectRun(run(['create', '--empty', '--force', 'f.txt'], dir), {
      status: 0,
      stdout: 'replaced f.txt: 1-3 → empty (-3)\n--- f.txt (empty file) ---\n',
      stderr: '',
    });
    expect(fs.readFileSync(path.join(dir, 'f.txt')).length).toBe(0);
  });

  it('--dry-run writes nothing, and has no lines to show', () => {
    const dir = tempDir();
    expectRun(run(['create', '--empty', '--dry-run', 'e.txt'], dir), {
      status: 0,
      stdout: '',
      stderr: 'rt: dry run: nothing written to e.txt\n',
    });
    expect(fs.existsSync(path.join(dir, 'e.txt'))).toBe(false);
  });

  it('empty stdin without --empty is refused as before, and the message names --empty', () => {
    const dir = tempDir();
    const r = run(['create', 'e.txt'], dir, { input: '' });
    expectRun(r, {
      status: 2,
      stdout: '',
      stderr:
        /^rt: standard input is empty: no text to write\n[\s\S]*rt: to make an empty file: rt create --empty e\.txt\n$/,
    });
    expect(r.stderr).not.toContain('rt delete');
    expect(fs.existsSync(path.join(dir, 'e.txt'))).toBe(false);
  });
});

describe('rt create --force over an existing file (found by a user trial: "created … (-1)")', () => {
  it('says "replaced", with the old and the new lines; --json says the same', () => {
    const dir = tempDir();
    write(dir, 'f.txt', numbered(3));
    const r = run(['create', '--force', 'f.txt'], dir, { input: 'x\ny\n' });
    const w = openWindow(dir, 'f.txt');
    expectRun(r, {
      status: 0,
      stdout: `replaced f.txt: 1-3 → 1-2 (-1)\n--- f.txt (lines 1-2 of 2) ---\n1:${w.lidAt(1)}|x\n2:${w.lidAt(2)}|y\n`,
      stderr: '',
    });
    const j = JSON.parse(run(['create', '--force', 'f.txt', '--json'], dir, { input: 'a\nb\nc\nd\n' }).stdout);
    expect([j.command, j.verb, j.old, j.new, j.delta]).toEqual([
      'create',
      'replaced',
      { start: 1, count: 2 },
      { start: 1, count: 4 },
      2,
    ]);
    // A new file, --force or not, is created.
    expectRun(run(['create', '--force', 'g.txt'], dir, { input: 'g\n' }), {
      status: 0,
      stdout: /^created g\.txt: 1-1 \(\+1\)\n/,
      stderr: '',
    });
    // From an empty file: from "empty".
    write(dir, 'e.txt', '');
    expectRun(run(['create', '--force', 'e.txt'], dir, { input: 'e\n' }), {
      status: 0,
      stdout: /^replaced e\.txt: empty → 1-1 \(\+1\)\n/,
      stderr: '',
    });
  });
});
