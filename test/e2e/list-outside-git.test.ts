// Listing outside any git work tree (src/search/listFiles.ts): git is not asked, grep checks the files
// ripgrep found against the walk's rules instead of walking, and both answer as the walk does:
// with ripgrep and without it, for grep, grep -l and find.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, expectRun, run, tempDir, write } from './harness.js';

afterAll(cleanup);

function plainTree(): string {
  const dir = tempDir('rt-plain-');
  write(dir, '.gitignore', '*.log\nbuild/\n');
  write(dir, 'logs/.gitignore', '!keep.log\n');
  write(dir, 'sub/.ignore', 'secret*\n');
  for (const rel of [
    'a.txt',
    'x.log',
    'logs/keep.log',
    'logs/drop.log',
    'build/out.txt',
    'sub/secret.txt',
    'sub/open.txt',
    '.h/h.txt',
    '.rt/state.txt',
    'deep/er/still.txt',
  ])
    write(dir, rel, 'needle here\n');
  const outside = tempDir('rt-plain-out-');
  write(outside, 'far.txt', 'needle far\n');
  // A link to a folder: no listing follows it.
  fs.symlinkSync(outside, path.join(dir, 'linked'));
  return dir;
}

const LISTED = ['a.txt', 'deep/er/still.txt', 'logs/keep.log', 'sub/open.txt'];

describe('listing outside git', () => {
  const dir = plainTree();

  it.each([
    ['with ripgrep', {}],
    ['without ripgrep', { RT_RIPGREP: 'off' }],
  ])('grep lists what the walk lists, %s', (_, env) => {
    const r = run(['grep', '-l', 'needle'], dir, { env });
    expectRun(r, { status: 0, stdout: LISTED.map((f) => `${f}\n`).join(''), stderr: '' });
    const hits = run(['grep', '-F', 'needle'], dir, { env });
    expect(
      hits.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split(':')[0]),
    ).toEqual(LISTED);
    // --hidden widens it to the hidden folder (never to .rt).
    expect(run(['grep', '-l', '--hidden', 'needle'], dir, { env }).stdout).toBe(
      ['.h/h.txt', ...LISTED].map((f) => `${f}\n`).join(''),
    );
  });

  it('find lists the same files', () => {
    expectRun(run(['find', '.txt'], dir), {
      status: 0,
      stdout: ['a.txt', 'deep/er/still.txt', 'sub/open.txt'].map((f) => `${f}\n`).join(''),
      stderr: '',
    });
  });

  it('a folder searched below the top keeps the rules of the folders above it', () => {
    expectRun(run(['grep', '-l', 'needle', 'logs'], dir), { status: 0, stdout: 'logs/keep.log\n', stderr: '' });
    expectRun(run(['grep', '-l', 'needle', 'sub'], dir), { status: 0, stdout: 'sub/open.txt\n', stderr: '' });
  });
});
