// A listed path taken without resolving it again (src/store/root.ts, listedPath): the same key and
// the same refusals as resolveInRoot for a path that is already real.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RtError } from '../../src/model/errors.js';
import { listedPath, resolveInRoot } from '../../src/store/root.js';
import { cleanup, tempDir, write } from '../e2e/harness.js';

afterAll(cleanup);

describe('listedPath', () => {
  const dir = fs.realpathSync(tempDir());
  const root = { dir, cwd: dir };
  write(dir, 'src/deep/a.ts', 'x\n');

  it('gives the real path the state key resolveInRoot gives', () => {
    const abs = path.join(dir, 'src/deep/a.ts');
    expect(listedPath(root, abs, 'src/deep/a.ts')).toEqual(resolveInRoot(root, 'src/deep/a.ts'));
  });

  it('refuses a path outside the root, and rt state', () => {
    for (const abs of [
      path.dirname(dir),
      path.join(path.dirname(dir), 'other/a.ts'),
      path.join(dir, '.rt'),
      path.join(dir, '.rt/pack/pack-0000000001.jsonl'),
      path.join(dir, '.rt/pack/lock'),
      path.join(dir, 'sub/.rt'),
      path.join(dir, 'sub/.rt/pack/lock'),
      path.join(dir, 'a/b/.rt/history/x'),
    ]) {
      expect(() => listedPath(root, abs, abs)).toThrow(RtError);
    }
  });

  it('takes names that only look like rt state: .rtx, x.rt, .rt.d', () => {
    for (const rel of ['.rtx', 'x.rt', '.rt.d/a', 'a/x.rt/b', 'a/.rtignore', 'a/b.rt']) {
      const abs = path.join(dir, rel);
      expect(listedPath(root, abs, rel).rel).toBe(rel);
    }
  });
});
