// Outside any git work tree, grep lists the files by a walk of the folders (while ripgrep
// searches them) and asks git nothing about tracked files: the answer is the one a search
// without ripgrep gives, ignore files honoured.

import { chmodSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, expectRun, run, tempDir, write } from './harness.js';

afterAll(cleanup);

const hasRipgrep = spawnSync('rg', ['--version']).status === 0;
const realGit = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();

describe.skipIf(!hasRipgrep || !realGit)('rt grep outside git', () => {
  const dir = tempDir();
  write(dir, '.rt/.keep', '');
  write(dir, '.gitignore', 'ignored.txt\nbuild/\n!build/kept.txt\n');
  write(dir, 'lib/.ignore', 'secret.txt\n');
  write(dir, 'a.txt', 'one parseConfig\n');
  write(dir, 'ignored.txt', 'parseConfig ignored\n');
  write(dir, 'build/out.txt', 'parseConfig built\n');
  write(dir, 'lib/secret.txt', 'parseConfig secret\n');
  write(dir, 'lib/b.txt', 'x\r\nparseConfig in b\r\n');
  write(dir, '.hidden/c.txt', 'parseConfig hidden\n');
  // A git that logs how it is run, then runs the real one.
  const bin = tempDir('rt-bin-');
  const log = path.join(bin, 'log');
  write(bin, 'git', `#!/bin/sh\necho "$*" >> ${log}\nexec ${realGit} "$@"\n`);
  chmodSync(path.join(bin, 'git'), 0o755);

  it('finds what a search without ripgrep finds, and asks git for no list of tracked files', () => {
    write(bin, 'log', '');
    const env = { PATH: `${bin}:${process.env.PATH}` };
    for (const flags of [[], ['--hidden'], ['--no-ignore'], ['-l'], ['-c']]) {
      const args = ['grep', '-F', ...flags, 'parseConfig'];
      const without = run(args, dir, { env: { RT_RIPGREP: 'off' } });
      expect(without.status, without.text).toBe(0);
      expectRun(run(args, dir, { env }), { status: 0, stdout: without.stdout, stderr: without.stderr });
    }
    expect(
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((line) => / ls-files -z --cached$/.test(line)),
    ).toEqual([]);
  });
});
