// Telling, without git, that a folder is in no work tree (src/search/gitDiscovery.ts): only where
// git would say so too; anywhere it could say otherwise, git is asked.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { outsideGit } from '../../src/search/gitDiscovery.js';
import { cleanup, tempDir, write } from '../e2e/harness.js';

afterAll(cleanup);

const ENV: NodeJS.ProcessEnv = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !name.startsWith('GIT_')),
);

/** Whether git itself finds a work tree in `dir`. */
const gitFindsWorkTree = (dir: string) =>
  spawnSync('git', ['rev-parse', '--is-inside-work-tree'], { cwd: dir, env: ENV, encoding: 'utf8' }).stdout.trim() ===
  'true';

describe('outsideGit', () => {
  it('is true where no folder up to the root holds a .git, as git finds none', () => {
    const plain = tempDir('rt-discovery-');
    write(plain, 'a/b/c.txt', 'x\n');
    for (const dir of [plain, path.join(plain, 'a/b')]) {
      expect(outsideGit(dir, ENV)).toBe(true);
      expect(gitFindsWorkTree(dir)).toBe(false);
    }
    // Through a link to it, too (git starts from the real path).
    const link = path.join(tempDir('rt-discovery-'), 'link');
    fs.symlinkSync(path.join(plain, 'a'), link);
    expect(outsideGit(link, ENV)).toBe(true);
  });

  it('is false in a work tree, at its top and below, in a linked work tree, in a folder of a bare repository', () => {
    const repo = tempDir('rt-discovery-');
    spawnSync('git', ['init', '-q'], { cwd: repo, env: ENV });
    write(repo, 'a/b/c.txt', 'x\n');
    expect(outsideGit(repo, ENV)).toBe(false);
    expect(outsideGit(path.join(repo, 'a/b'), ENV)).toBe(false);
    const bare = tempDir('rt-discovery-');
    spawnSync('git', ['init', '-q', '--bare'], { cwd: bare, env: ENV });
    fs.mkdirSync(path.join(bare, 'inside'));
    expect(outsideGit(path.join(bare, 'inside'), ENV)).toBe(false);
    // A .git file (a linked work tree, a submodule) counts as a .git folder does.
    const linked = tempDir('rt-discovery-');
    write(linked, '.git', `gitdir: ${path.join(repo, '.git')}\n`);
    expect(outsideGit(linked, ENV)).toBe(false);
  });

  it('leaves it to git when git variables could point it elsewhere, or the folder is gone', () => {
    const plain = tempDir('rt-discovery-');
    expect(
      outsideGit(plain, { ...ENV, GIT_SSL_CAINFO: '/etc/ssl/certs/ca-certificates.crt', GIT_AUTHOR_NAME: 'x' }),
    ).toBe(true);
    for (const name of [
      'GIT_DIR',
      'GIT_WORK_TREE',
      'GIT_CEILING_DIRECTORIES',
      'GIT_DISCOVERY_ACROSS_FILESYSTEM',
      'GIT_COMMON_DIR',
    ]) {
      expect(outsideGit(plain, { ...ENV, [name]: '/elsewhere' })).toBe(false);
    }
    expect(outsideGit(path.join(plain, 'missing'), ENV)).toBe(false);
  });
});
