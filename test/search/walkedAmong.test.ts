// Which of some files a listing outside git gives (src/search/listFiles.ts, listedAmong without a
// work tree): the files a search found are checked folder by folder, not the whole tree walked,
// and the answer must be the walk's, whatever the ignore files, hidden names and rt's own folders.

import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { listedAmong, listFiles, type ListOptions } from '../../src/search/listFiles.js';
import { cleanup, tempDir, write } from '../e2e/harness.js';
import { runs } from '../support/runs.js';

afterAll(cleanup);

/** Every file under `dir`, walked without any rule (as ripgrep --no-ignore --hidden finds them). */
function allFiles(dir: string, rel = ''): string[] {
  return fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const child = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? allFiles(dir, child) : [child];
  });
}

function expectWalk(dir: string, top: string, options: ListOptions): void {
  const found = allFiles(dir);
  const walked = new Set(listFiles(dir, options, top).files);
  expect(listedAmong(dir, found, undefined, options, top)?.sort()).toEqual(found.filter((f) => walked.has(f)).sort());
}

const OPTIONS: ListOptions[] = [
  { hidden: false, noIgnore: false },
  { hidden: true, noIgnore: false },
];

describe('listedAmong outside a work tree', () => {
  it('gives what the walk lists: nested ignore files, negations, hidden names, .rt and .git, rules from above', () => {
    const top = tempDir('rt-walked-');
    write(top, '.ignore', 'sub/skipped-from-top.txt\n');
    write(top, 'sub/.gitignore', '*.log\n!keep.log\nbuild/\n/rooted.txt\n');
    write(top, 'sub/inner/.ignore', '!again.log\nsecret*\n');
    write(top, 'sub/inner/deeper/.gitignore', '!secret-but-kept.txt\n');
    for (const rel of [
      'sub/a.txt',
      'sub/x.log',
      'sub/keep.log',
      'sub/build/out.js',
      'sub/rooted.txt',
      'sub/inner/rooted.txt',
      'sub/inner/again.log',
      'sub/inner/secret.txt',
      'sub/inner/deeper/secret-but-kept.txt',
      'sub/skipped-from-top.txt',
      'sub/.hidden/a.txt',
      'sub/.dot.txt',
      'sub/.rt/state.json',
      'sub/deep/.git/config',
      'sub/ok/b.txt',
    ]) {
      write(top, rel, 'x\n');
    }
    for (const options of OPTIONS) {
      expectWalk(path.join(top, 'sub'), top, options);
      expectWalk(top, top, options);
    }
  });

  it('gives what the walk lists on random trees and rules', () => {
    const name = fc.constantFrom('a', 'b', '.h', 'c.log', 'd.txt', 'build', '.rt', 'x y');
    const pathArb = fc.array(name, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));
    const rule = fc.constantFrom(
      '*.log',
      '!c.log',
      'build/',
      'a',
      '/b',
      '!a',
      '*.txt',
      '!d.txt',
      'a/**/c.log',
      '.h',
      '!.h',
      'b/',
    );
    fc.assert(
      fc.property(
        fc.uniqueArray(pathArb, { minLength: 1, maxLength: 20 }),
        fc.array(
          fc.tuple(
            fc.constantFrom('', 'a', 'b', 'a/b'),
            fc.constantFrom('.gitignore', '.ignore'),
            fc.array(rule, { maxLength: 4 }),
          ),
          { maxLength: 4 },
        ),
        (paths, ignores) => {
          const dir = tempDir('rt-walked-');
          // Files only where no other path needs a folder.
          for (const rel of paths) if (!paths.some((p) => p.startsWith(`${rel}/`))) write(dir, rel, 'x\n');
          for (const [folder, file, rules] of ignores) {
            try {
              write(dir, folder ? `${folder}/${file}` : file, `${rules.join('\n')}\n`);
            } catch {
              // A file where the folder would be: no ignore file there.
            }
          }
          for (const options of OPTIONS) expectWalk(dir, dir, options);
          cleanup();
        },
      ),
      { numRuns: runs(60) },
    );
  });
});
