// Reading git's index file for tracked paths (src/io/gitIndex.ts): byte for byte what
// `git ls-files -z --cached` prints, or no answer (git is asked) for what the reader leaves to git.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { indexListing, trackedUnder } from '../../src/io/gitIndex.js';
import { cleanup, tempDir, write } from '../e2e/harness.js';

afterAll(cleanup);

const ENV = { ...cleanEnv(), GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };

function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('GIT_')) delete env[name];
  return env;
}

function git(cwd: string, args: readonly string[], input?: Buffer | string, env: NodeJS.ProcessEnv = {}): Buffer {
  const r = spawnSync('git', args, { cwd, input, env: { ...ENV, ...env }, maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

const lsFiles = (cwd: string, env: NodeJS.ProcessEnv = {}) => git(cwd, ['-c', 'core.quotePath=off', 'ls-files', '-z', '--cached'], undefined, env);

/** A repository whose index holds `paths` (bytes; no files needed), written as index `version`. */
function indexOf(paths: readonly Buffer[], version: number): string {
  const repo = tempDir('rt-index-');
  git(repo, ['init', '-q']);
  const blob = git(repo, ['hash-object', '-w', '--stdin'], 'x\n').toString().trim();
  // --index-info takes NUL-ended "mode sha\tpath" records with -z.
  const records = paths.map((p) => Buffer.concat([Buffer.from(`100644 ${blob}\t`), p, Buffer.from([0])]));
  git(repo, ['update-index', '-z', '--index-info'], Buffer.concat(records));
  git(repo, ['update-index', '--index-version', String(version)]);
  return repo;
}

function expectSame(dir: string): void {
  const answer = indexListing(dir, ENV);
  expect(Buffer.isBuffer(answer)).toBe(true);
  expect((answer as Buffer).toString('latin1')).toEqual(lsFiles(dir).toString('latin1'));
}

describe('indexListing', () => {
  const odd = ['plain.txt', 'with space.txt', 'new\nline.txt', 'üñí/çødé.ts', 'tab\there', 'a-b/x', 'a/x', 'a.b', 'a/b/c/d/e/f/g/h.ts', `${'long/'.repeat(900)}end.txt`, '-dash', '"quoted"', 'back\\slash'];

  it.each([2, 3, 4])('gives what git ls-files --cached gives, version %i, with odd names, at the top and below', (version) => {
    const paths = [...odd.map((p) => Buffer.from(p)), Buffer.from([0x6e, 0x6f, 0x74, 0xff, 0xfe, 0x2e, 0x74, 0x78, 0x74]), Buffer.from([0x61, 0x2f, 0xc3, 0x28])];
    const repo = indexOf(paths, version);
    if (version === 3) {
      // Version 3 is what git writes for an entry with extended flags: intent to add.
      write(repo, 'later.txt', 'x\n');
      git(repo, ['add', '-N', 'later.txt']);
      expect(fs.readFileSync(path.join(repo, '.git', 'index')).readUInt32BE(4)).toBe(3);
    }
    expect(fs.readFileSync(path.join(repo, '.git', 'index')).readUInt32BE(4)).toBe(version);
    expectSame(repo);
    for (const sub of ['a', 'a/b', 'üñí', 'a-b', 'long/long', 'nothing']) {
      fs.mkdirSync(path.join(repo, sub), { recursive: true });
      expectSame(path.join(repo, sub));
    }
  });

  it('gives names longer, together, than the index file holding them compressed (version 4)', () => {
    const stem = `${'shared-folder-name/'.repeat(12)}file-`;
    const repo = indexOf(Array.from({ length: 3000 }, (_, i) => Buffer.from(`${stem}${i}.txt`)), 4);
    expect(lsFiles(repo).length).toBeGreaterThan(fs.statSync(path.join(repo, '.git', 'index')).size);
    expectSame(repo);
  });

  it('matches git on random sets of paths, in each version', () => {
    const part = fc.stringMatching(/^[a-c.\- \u00e9\u4e2d_]{1,6}$/).filter((s) => s !== '.' && s !== '..' && !s.endsWith('/'));
    const pathArb = fc.array(part, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));
    fc.assert(
      fc.property(fc.uniqueArray(pathArb, { minLength: 1, maxLength: 30 }), fc.constantFrom(2, 4), (paths, version) => {
        // Paths git takes: none a folder of another.
        const kept = paths.filter((p) => !paths.some((q) => q !== p && (q.startsWith(`${p}/`) || p.startsWith(`${q}/`))));
        const repo = indexOf(kept.map((p) => Buffer.from(p)), version);
        expectSame(repo);
        const sub = kept[0]!.split('/')[0]!;
        if (kept[0]!.includes('/')) {
          fs.mkdirSync(path.join(repo, sub), { recursive: true });
          expectSame(path.join(repo, sub));
        }
        cleanup();
      }),
      { numRuns: 25 },
    );
  });

  it('lists a submodule (gitlink) as git does, and reads a linked work tree', () => {
    const repo = tempDir('rt-index-');
    git(repo, ['init', '-q']);
    write(repo, 'a.txt', 'a\n');
    git(repo, ['add', 'a.txt']);
    git(repo, ['commit', '-qm', 'a']);
    git(repo, ['update-index', '--add', '--cacheinfo', `160000,${git(repo, ['rev-parse', 'HEAD']).toString().trim()},sub`]);
    expectSame(repo);
    const linked = path.join(tempDir('rt-index-'), 'wt');
    git(repo, ['worktree', 'add', '-q', linked]);
    expectSame(linked);
  });

  it('answers as git on this repository and the bench tree, and on the mirrors here', () => {
    const repos = [path.resolve(__dirname, '../..'), path.resolve(__dirname, '../../bench/.corpus/tree')].filter((d) => fs.existsSync(path.join(d, '.git')));
    let read = 0;
    for (const repo of repos) {
      const answer = indexListing(repo, ENV);
      // (A repository this reader leaves to git is no failure; one it reads must agree.)
      if (Buffer.isBuffer(answer)) {
        read++;
        expect(answer.equals(lsFiles(repo))).toBe(true);
      }
    }
    expect(read).toBe(repos.length);
    // Bare mirrors: their HEAD's tree read into an index of each version.
    const mirrors = '/work/.mirror';
    const bare = fs.existsSync(mirrors) ? fs.readdirSync(mirrors).map((m) => path.join(mirrors, m, 'repo')).filter((d) => fs.existsSync(path.join(d, 'HEAD'))) : [];
    for (const gitDir of bare) {
      const work = tempDir('rt-index-');
      const indexFile = path.join(work, 'index');
      const env = { GIT_DIR: gitDir, GIT_WORK_TREE: work, GIT_INDEX_FILE: indexFile };
      try {
        git(work, ['read-tree', 'HEAD'], undefined, env);
      } catch {
        continue; // an empty or odd mirror
      }
      for (const version of [2, 4]) {
        git(work, ['update-index', '--index-version', String(version)], undefined, env);
        const index = fs.readFileSync(indexFile);
        expect(trackedUnder(index, '')?.equals(lsFiles(work, env))).toBe(true);
        // A folder of the middle entry, two levels down when it has them.
        const entries = lsFiles(work, env).toString('utf8').split('\0').filter((e) => e.includes('/'));
        const folder = path.posix.dirname(entries[entries.length >> 1] ?? 'none/x').split('/').slice(0, 2).join('/');
        fs.mkdirSync(path.join(work, folder), { recursive: true });
        expect(trackedUnder(index, `${folder}/`)?.equals(lsFiles(path.join(work, folder), env))).toBe(true);
      }
    }
  });

  it('says there is no work tree where no folder up to the root holds a .git', () => {
    const plain = tempDir('rt-index-');
    write(plain, 'a/b.txt', 'x\n');
    expect(indexListing(path.join(plain, 'a'), ENV)).toBe('none');
  });

  it('leaves to git what it does not read: a merge in progress, sparse checkout, a split index, another hash, git variables, no index', () => {
    const conflicted = indexOf([Buffer.from('a.txt')], 2);
    const blob = git(conflicted, ['hash-object', '-w', '--stdin'], 'y\n').toString().trim();
    git(conflicted, ['update-index', '--index-info'], `0 ${'0'.repeat(40)}\ta.txt\n100644 ${blob} 1\ta.txt\n100644 ${blob} 2\ta.txt\n`);
    expect(lsFiles(conflicted).toString()).toContain('a.txt');
    expect(indexListing(conflicted, ENV)).toBeUndefined();

    const sparse = indexOf([Buffer.from('in/a.txt'), Buffer.from('out/b.txt')], 2);
    git(sparse, ['update-index', '--skip-worktree', 'out/b.txt']);
    expect(indexListing(sparse, ENV)).toBeUndefined();

    const split = indexOf([Buffer.from('a.txt')], 2);
    git(split, ['update-index', '--split-index']);
    expect(indexListing(split, ENV)).toBeUndefined();

    const sha256 = tempDir('rt-index-');
    git(sha256, ['init', '-q', '--object-format=sha256']);
    write(sha256, 'a.txt', 'x\n');
    git(sha256, ['add', 'a.txt']);
    expect(indexListing(sha256, ENV)).toBeUndefined();

    const plain = indexOf([Buffer.from('a.txt')], 2);
    expectSame(plain);
    expect(indexListing(plain, { ...ENV, GIT_INDEX_FILE: '/elsewhere' })).toBeUndefined();
    expect(indexListing(plain, { ...ENV, GIT_DIR: '/elsewhere' })).toBeUndefined();
    const fresh = tempDir('rt-index-');
    git(fresh, ['init', '-q']);
    expect(indexListing(fresh, ENV)).toBeUndefined();
  });

  it('refuses bytes that do not hold together', () => {
    const repo = indexOf([Buffer.from('a.txt'), Buffer.from('b.txt')], 2);
    const index = fs.readFileSync(path.join(repo, '.git', 'index'));
    expect(trackedUnder(index, '')?.toString()).toBe('a.txt\0b.txt\0');
    for (const cut of [11, 40, 70, index.length - 21]) expect(trackedUnder(index.subarray(0, cut), '')).toBeUndefined();
    const lying = Buffer.from(index);
    lying.writeUInt32BE(3, 8); // one entry more than it holds
    expect(trackedUnder(lying, '')).toBeUndefined();
  });
});
