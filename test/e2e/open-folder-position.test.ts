// A past bug: open's position rule applies "when the part before the last colon names a
// file", but only its existence was asked: a folder counted. `rt open notes:draft`, with a
// folder notes/ and no file notes:draft, was bad usage, '"draft" is not a position', with the
// advice "rt open notes:120" — a line of a folder. It is a file access error (exit 4): notes is
// a folder (draft reads as an LID), or, for a word that is no position, a missing file.

import { afterAll, describe, it } from 'vitest';
import { cleanup, expectRun, run, tempDir, write } from './harness.js';

afterAll(cleanup);

describe('PATH:WORD where PATH is a folder', () => {
  it('is a missing file, not a bad position of the folder', () => {
    const dir = tempDir();
    write(dir, 'notes/a.txt', 'a\n');
    expectRun(run(['open', 'notes:draft'], dir), { status: 4, stdout: '', stderr: /^rt: notes is a directory\n/ });
    expectRun(run(['open', 'notes:todo'], dir), { status: 4, stdout: '', stderr: /^rt: no such file: notes:todo\n/ });
  });
});
