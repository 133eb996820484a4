// Which of some files a listing in a work tree gives (src/search/listFiles.ts, listedAmong with what
// git tracks): git is asked about the files found alone, and the answer must be the listing's, with
// no .ignore file on the way (the paths found taken as they are) and with one (added to what git is
// asked about, then left out of the answer).

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listedAmong, listFiles, trackedFiles, type ListOptions } from '../../src/search/listFiles.js';
import { cleanup, repoWith, write } from '../e2e/harness.js';

afterAll(cleanup);

/** Every file under `dir` but git's own, walked without any rule (as ripgrep --no-ignore --hidden finds them). */
function allFiles(dir: string, rel = ''): string[] {
  return fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const child = rel ? `${rel}/${e.name}` : e.name;
    if (child === '.git') return [];
    return e.isDirectory() ? allFiles(dir, child) : [child];
  });
}

async function expectListing(dir: string, options: ListOptions, found = allFiles(dir)): Promise<void> {
  const listed = new Set(listFiles(dir, options).files);
  const among = listedAmong(dir, found, await trackedFiles(dir), options);
  expect(among?.sort()).toEqual(found.filter((f) => listed.has(f)).sort());
}

const OPTIONS: ListOptions[] = [
  { hidden: false, noIgnore: false },
  { hidden: true, noIgnore: false },
];

function tracked(files: Record<string, string>, untracked: Record<string, string>): string {
  const dir = repoWith(files);
  expect(spawnSync('git', ['add', '-A', '-f', '.'], { cwd: dir }).status).toBe(0);
  for (const [rel, content] of Object.entries(untracked)) write(dir, rel, content);
  return dir;
}

describe('listedAmong in a work tree', () => {
  const files = {
    'a.txt': 'x\n',
    'sub/b.txt': 'x\n',
    'sub/.hidden.txt': 'x\n',
    'sub/.rt/state.json': 'x\n',
    // Tracked, though the rules below would ignore it: git lists what it tracks.
    'sub/tracked.log': 'x\n',
    '.gitignore': '*.log\n',
  };
  const untracked = { 'new.txt': 'x\n', 'sub/new.log': 'x\n', 'sub/.new-hidden.txt': 'x\n' };

  it('gives what the listing gives with no .ignore file: tracked, untracked and ignored, hidden, .rt', async () => {
    const dir = tracked(files, untracked);
    for (const options of OPTIONS) await expectListing(dir, options);
    // Tracked files only (no untracked path to ask git about).
    for (const options of OPTIONS)
      await expectListing(dir, options, [
        'a.txt',
        'sub/b.txt',
        'sub/.hidden.txt',
        'sub/tracked.log',
        'sub/.rt/state.json',
      ]);
  });

  it('gives what the listing gives with .ignore files, which are asked about but not given unless found', async () => {
    const dir = tracked({ ...files, 'sub/.ignore': 'b.txt\n' }, { ...untracked, '.ignore': 'new.txt\n' });
    for (const options of OPTIONS) {
      await expectListing(dir, options);
      await expectListing(dir, options, ['a.txt', 'sub/b.txt', 'new.txt', 'sub/tracked.log']);
    }
  });
});
