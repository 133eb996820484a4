// What rt says where it used to say too little: the history of a file no step changed, a dry run
// of a move, the removal of a symbolic link.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, expectRun, run, write, repoWith as repo } from './harness.js';

afterAll(cleanup);

describe('rt history with nothing to list says why (exit 1)', () => {
  it('a PATH no step changed, one that does not exist, and an empty history', () => {
    const dir = repo({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    expectRun(run(['history'], dir), {
      status: 1,
      stdout: '',
      stderr: 'rt: the history holds no step (it keeps the last 200, for 30 days)\n',
    });
    expect(run(['edit', '--force', 'a.txt', '1'], dir, { input: 'A\n' }).status).toBe(0);
    expectRun(run(['history', 'nonexist.ts'], dir), {
      status: 1,
      stdout: '',
      stderr: 'rt: no step of the history changed nonexist.ts (no such file)\nrt: see every step: rt history\n',
    });
    expectRun(run(['history', 'b.txt'], dir), {
      status: 1,
      stdout: '',
      stderr: 'rt: no step of the history changed b.txt\nrt: see every step: rt history\n',
    });
    expect(run(['history', 'a.txt'], dir)).toMatchObject({ status: 0, stderr: '' });
  });
});

describe('apply --dry-run of a move', () => {
  it('names both paths, as the move itself would (source → target); --json gives "from"', () => {
    const dir = repo({ 'a.txt': 'a\n' });
    const patch = '*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n*** End Patch\n';
    expectRun(run(['apply', '--dry-run'], dir, { input: patch }), {
      status: 0,
      stdout: '--- a/a.txt\n+++ b/b.txt\n',
      stderr: 'rt: dry run: nothing written to a.txt → b.txt\n',
    });
    const doc = JSON.parse(run(['--json', 'apply', '--dry-run'], dir, { input: patch }).stdout);
    expect(doc.files[0]).toMatchObject({ path: 'b.txt', from: 'a.txt', verb: 'moved' });
    expect(fs.existsSync(path.join(dir, 'b.txt'))).toBe(false);
  });
});

describe('apply of a Delete File naming a symbolic link', () => {
  it('says it removed a link, and that the file it leads to is untouched', () => {
    const dir = repo({ 'A.txt': 'a\nb\nc\nd\n' });
    fs.symlinkSync('A.txt', path.join(dir, 'lnA.txt'));
    expectRun(run(['apply'], dir, { input: '*** Begin Patch\n*** Delete File: lnA.txt\n*** End Patch\n' }), {
      status: 0,
      stdout: 'removed lnA.txt: a symbolic link to A.txt (the file it leads to is untouched)\n',
      stderr: '',
    });
    expect(fs.readFileSync(path.join(dir, 'A.txt'), 'utf8')).toBe('a\nb\nc\nd\n');
    fs.symlinkSync('A.txt', path.join(dir, 'lnA.txt'));
    const doc = JSON.parse(
      run(['--json', 'apply'], dir, { input: '*** Begin Patch\n*** Delete File: lnA.txt\n*** End Patch\n' }).stdout,
    );
    expect(doc.files[0]).toMatchObject({ path: 'lnA.txt', verb: 'removed', link: 'A.txt' });
    write(dir, 'plain.txt', 'x\n');
    expect(run(['apply'], dir, { input: '*** Begin Patch\n*** Delete File: plain.txt\n*** End Patch\n' }).stdout).toBe(
      'removed plain.txt: 1-1 (-1)\n',
    );
  });
});
