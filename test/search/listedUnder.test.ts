// What git lists under given paths (src/search/listFiles.ts, listedUnder): the files under the paths
// ripgrep's walk left out, which rt then searches itself.

import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listedUnder } from '../../src/search/listFiles.js';
import { cleanup, tempDir, write } from '../e2e/harness.js';

afterAll(cleanup);

describe('listedUnder', () => {
  const repo = tempDir();
  spawnSync('git', ['init', '-q'], { cwd: repo });
  write(repo, '.gitignore', '*.o\nbuild/\n');
  for (const rel of [
    'src/a.c',
    'src/a.o',
    'src/keep.o',
    'src/deep/b.c',
    'build/out.txt',
    'build/tracked.txt',
    'top.txt',
    'src-old/x.c',
  ])
    write(repo, rel, 'x\n');
  spawnSync('git', ['add', '-f', 'src/keep.o', 'build/tracked.txt', 'top.txt'], { cwd: repo });
  const asked = ['src', 'build', 'src/a.o', 'src/keep.o', 'missing'].map((p) => path.join(repo, p));
  const expected = ['build/tracked.txt', 'src/a.c', 'src/deep/b.c', 'src/keep.o'].map((p) => path.join(repo, p));

  it('lists tracked files, ignored or not, and untracked ones git does not ignore, under the paths only', async () => {
    expect((await listedUnder(repo, asked))?.sort()).toEqual(expected);
    expect(await listedUnder(repo, [repo])).toContain(path.join(repo, 'top.txt'));
  });

  it('cannot tell outside a work tree', async () => {
    const plain = tempDir();
    write(plain, 'a.txt', 'x\n');
    expect(await listedUnder(plain, [path.join(plain, 'a.txt')])).toBeUndefined();
  });
});
