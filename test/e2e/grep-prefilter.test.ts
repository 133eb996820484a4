// When ripgrep is installed, literal searches use it as a prefilter (src/io/ripgrep.ts). It may
// only narrow what rt reads, never change the answer: every search here must print exactly the
// same with the prefilter and without it (RT_RIPGREP=off).

import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, run, tempDir } from './harness.js';
import { buildSearchRepo } from './search-fixture.js';

const hasRipgrep = spawnSync('rg', ['--version']).status === 0;

describe.skipIf(!hasRipgrep)('the ripgrep prefilter', () => {
  afterAll(cleanup);
  const dir = tempDir();
  buildSearchRepo(dir, tempDir());

  const searches: string[][] = [
    ['grep', '-F', 'parseConfig'],
    ['grep', '-F', '-i', 'PARSECONFIG'],
    ['grep', '-F', '-w', 'parseConfig'],
    ['grep', '-F', 'a.b(c)'],
    ['grep', '-F', '-l', 'parseConfig'],
    ['grep', '-F', '--hidden', 'parseConfig'],
    ['grep', '-F', '--no-ignore', 'parseConfig'],
    ['grep', '-F', '--hidden', '--no-ignore', '--max', '100000', 'e'],
    ['grep', '-F', '-g', '*.ts', 'parseConfig', 'src'],
    ['grep', '-F', 'caf\u00e9'],
    ['grep', '-F', 'no such text anywhere'],
    // A plain literal takes ripgrep's line numbers: caps and their counts, context, JSON, one
    // character, long lines, binary and tracked-but-ignored files must all come out the same.
    ['grep', '-F', '--max', '3', 'parseConfig'],
    ['grep', '-F', '--max', '1', '--json', 'parseConfig'],
    ['grep', '-F', '-C', '1', 'parseConfig'],
    ['grep', '-F', 'e'],
    ['grep', '-F', '--max', '100000', 'e'],
    ['grep', '-F', '--max', '100000', '('],
    ['grep', '-F', 'tracked'],
    ['grep', '-F', '-g', '!*.ts', '--max', '100000', 'a'],
  ];
  for (const args of searches) {
    it(`rt ${args.join(' ')} prints the same with and without ripgrep`, () => {
      const withRg = run(args, dir);
      const without = run(args, dir, { env: { RT_RIPGREP: 'off' } });
      expect(withRg.status, withRg.text).toBe(without.status);
      expect(withRg.stdout, `${withRg.text}\n${without.text}`).toBe(without.stdout);
      expect(withRg.stderr).toBe(without.stderr);
    });
  }
});
