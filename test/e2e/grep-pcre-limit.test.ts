// A past bug: grep -P said 'nothing found' (exit 1) when PCRE2 gave up on a line (its match
// limit), though the file was not searched to its end; rg -P and rt without -P exit 2.

import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, run, tempDir, write } from './harness.js';

afterAll(cleanup);

const hasPcre = spawnSync('rg', ['--pcre2-version']).status === 0;

describe.runIf(hasPcre)('grep -P where PCRE2 reaches its match limit', () => {
  it('is not "nothing found" (exit 1): exit 2, as rg -P and rt without -P', () => {
    const dir = tempDir();
    write(dir, 'long.txt', `${'a'.repeat(5000)}b\n`);
    const r = run(['grep', '-P', '(a+)+$', 'long.txt'], dir);
    expect(r.status, r.text).toBe(2);
  });
});
