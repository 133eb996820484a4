// A past bug: the bound on a backtracking pattern was each file's: 20 files of about a second
// each ran 21 s and exited 1, saying nothing. The bound is now the search's.

import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, run, tempRepo, write } from './harness.js';
import { git } from './search-fixture.js';

afterAll(cleanup);

describe('a pattern that backtracks for about a second in each of many files', () => {
  // Bounded file by file only, each file's second would pass and the search end with exit 0.
  it('is bounded as a whole: exit 2 with the message', () => {
    const dir = tempRepo();
    write(dir, 'f00.txt', `${'a'.repeat(22)}b\n`);
    for (let i = 10; i < 30; i++) write(dir, `f${i}.txt`, `x${i}\n${'a'.repeat(26)}b\n`);
    git(dir, ['add', '.']);
    const r = run(['grep', '(a+)+$'], dir, { env: { RT_RIPGREP: 'off', RT_GIT_GREP: 'off' } });
    expect(r.status, r.text).toBe(2);
    expect(r.stderr, r.text).toMatch(/^rt: matching took more than/);
  }, 180_000);
});
