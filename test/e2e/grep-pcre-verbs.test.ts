// A past bug: grep -P put (?s) before PCRE2's start-of-pattern verbs such as (*UCP), which
// PCRE2 then refused. (?s) now follows them.

import { spawnSync } from 'node:child_process';
import { afterAll, describe, it } from 'vitest';
import { cleanup, expectRun, run, tempDir, write } from './harness.js';

afterAll(cleanup);

const hasPcre = spawnSync('rg', ['--pcre2-version']).status === 0;

describe.runIf(hasPcre)('grep -P with a start-of-pattern verb', () => {
  it('(*UCP) is taken as PCRE2 takes it', () => {
    const dir = tempDir();
    write(dir, 'a.txt', 'hello world\n');
    expectRun(run(['grep', '-P', '(*UCP)\\bhello', 'a.txt'], dir), {
      status: 0,
      stdout: /^a\.txt:1:\w{4}\|hello world\n$/,
      stderr: '',
    });
  });
});
