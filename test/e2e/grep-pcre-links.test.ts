// A past bug: grep -P handed symbolic links to ripgrep, which follows a link named on its
// command line (a link to a FIFO hung the search; a dangling one was warned about; a link to a
// folder was walked). Only regular files go to ripgrep now.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv, cleanup, expectRun, RT_BIN, run, tempDir, tempRepo, write } from './harness.js';
import { git } from './search-fixture.js';

afterAll(cleanup);

const hasRipgrep = spawnSync('rg', ['--version']).status === 0;

describe.runIf(hasRipgrep)('grep -P and symbolic links', () => {
  it('a link to a FIFO is skipped, as without -P: the search ends', () => {
    const dir = tempRepo();
    write(dir, 'a.txt', 'hello\n');
    const outside = tempDir();
    const fifo = path.join(outside, 'pipe');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    fs.symlinkSync(fifo, path.join(dir, 'link'));
    git(dir, ['add', '.']);
    expectRun(run(['grep', 'hello'], dir), { status: 0, stdout: /^a\.txt:1:\w{4}\|hello\n$/, stderr: '' });
    const r = spawnSync(process.execPath, [RT_BIN, 'grep', '-P', 'hello'], {
      cwd: dir,
      env: cleanEnv(),
      timeout: 60_000,
      killSignal: 'SIGKILL',
      encoding: 'utf8',
    });
    // A reader left waiting on the FIFO (rg, orphaned by the kill) gets its end of file.
    try {
      fs.closeSync(fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
    } catch {
      // no reader
    }
    expect({ timedOut: r.error !== undefined, status: r.status, stdout: r.stdout }).toEqual({
      timedOut: false,
      status: 0,
      stdout: expect.stringMatching(/^a\.txt:1:\w{4}\|hello\n$/),
    });
  });

  it('a dangling link is skipped without a word, as without -P', () => {
    const dir = tempRepo();
    write(dir, 'a.txt', 'hello\n');
    fs.symlinkSync('/nonexistent/target', path.join(dir, 'dangling'));
    expectRun(run(['grep', 'hello'], dir), { status: 0, stdout: /^a\.txt:1:\w{4}\|hello\n$/, stderr: '' });
    expectRun(run(['grep', '-P', 'hello'], dir), { status: 0, stdout: /^a\.txt:1:\w{4}\|hello\n$/, stderr: '' });
  });
});
