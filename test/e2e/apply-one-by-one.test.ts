// A patch and the single commands agree: a one-file patch gives exactly the bytes and LIDs of
// the same edits made one by one, the single commands behave as one-hunk batches of the same
// pipeline, and a dry run says what the write would do. Each test guards a bug once found; the
// comment above it tells that bug as it was.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoOpened as repoWith } from './apply-fixture.js';
import { cleanup, expectRun, openWindow, run, tempRepo, write } from './harness.js';

afterAll(cleanup);

describe('rt apply: a one-file patch gives the bytes of the same edits made one by one', () => {
  // Two `insert after L1` hunks give L1 A1 A2 L2; `rt insert f L1 --after` twice gives L1 A2 A1 L2.
  // (Likewise `insert before L2` then `insert after L1`.) The two must agree.
  it('two inserts after one line', () => {
    const { dir, lids } = repoWith({ 'f.txt': 'l1\nl2\n' });
    const [l1] = lids['f.txt']!;
    const seqDir = tempRepo();
    write(seqDir, 'f.txt', 'l1\nl2\n');
    openWindow(seqDir, 'f.txt');
    expectRun(run(['insert', 'f.txt', l1!, '--after'], seqDir, { input: 'A1\n' }), { status: 0 });
    expectRun(run(['insert', 'f.txt', l1!, '--after'], seqDir, { input: 'A2\n' }), { status: 0 });
    expectRun(
      run(['apply'], dir, {
        input: `*** Update File: f.txt\n@@ insert after ${l1}\n+A1\n@@ insert after ${l1}\n+A2\n`,
      }),
      { status: 0 },
    );
    expect(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8')).toBe(fs.readFileSync(path.join(seqDir, 'f.txt'), 'utf8'));
  });

  // A CRLF file emptied then appended to: the patch keeps CRLF (the ending of the file as read),
  // `rt delete` then `rt insert $` give LF (the empty file's default).
  it('a CRLF file whose lines are all deleted, then appended to', () => {
    const content = 'x\r\ny\r\n';
    const { dir, lids } = repoWith({ 'f.txt': content });
    const [x, y] = lids['f.txt']!;
    const seqDir = tempRepo();
    write(seqDir, 'f.txt', content);
    openWindow(seqDir, 'f.txt');
    expectRun(run(['delete', 'f.txt', x!, y!], seqDir), { status: 0 });
    expectRun(run(['insert', 'f.txt', '$'], seqDir, { input: 'z\n' }), { status: 0 });
    expectRun(run(['apply'], dir, { input: `*** Update File: f.txt\n@@ delete ${x} ${y}\n@@ insert before $\n+z\n` }), {
      status: 0,
    });
    expect(fs.readFileSync(path.join(dir, 'f.txt'))).toEqual(fs.readFileSync(path.join(seqDir, 'f.txt')));
  });
});

describe('the single commands: one-hunk batches of the same pipeline', () => {
  // Before: a name up to 231 bytes could be edited (NAME_ROOM was 24). Now 224..231-byte names
  // are refused by create, edit, insert and delete, though a single write only needs the
  // `.NAME.rt-tmp-PID-xxxxxx` temporary file (at most 23 more bytes with a 7-digit PID).
  it('edits a file with a 228-byte name', () => {
    const name = 'c'.repeat(228);
    const { dir, lids } = repoWith({ [name]: 'x\n' });
    expectRun(run(['edit', name, lids[name]![0]!], dir, { input: 'y\n' }), { status: 0 });
    expect(fs.readFileSync(path.join(dir, name), 'utf8')).toBe('y\n');
  });

  // --json errors of edit/insert/delete now carry "hunkLine": 0, an internal detail of the
  // patch pipeline that the old commands never printed.
  it('a --json error of rt edit has no hunkLine', () => {
    const { dir } = repoWith({ 'f.txt': 'x\n' });
    const r = run(['--json', 'edit', 'f.txt', 'zzzz'], dir, { input: 'y\n' });
    expect(r.status, r.text).toBe(3);
    expect(JSON.parse(r.stdout).error, r.text).not.toHaveProperty('hunkLine');
  });
});

describe('rt apply --dry-run', () => {
  // A dry run of a Move prints nothing for it on stdout (its diff is empty), so what the patch
  // would do to that file is not shown at all.
  it('says what a Move would do', () => {
    const { dir } = repoWith({ 'g.txt': 'g\n' });
    const r = run(['apply', '--dry-run'], dir, { input: '*** Update File: g.txt\n*** Move to: moved/g2.txt\n' });
    expect(r.status, r.text).toBe(0);
    expect(r.stdout, r.text).toMatch(/moved\/g2\.txt/);
    expect(fs.existsSync(path.join(dir, 'moved')), r.text).toBe(false);
  });
});
