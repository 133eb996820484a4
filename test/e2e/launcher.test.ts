// bin/rt.cjs is run by the shell first (as a user's `rt` runs it), which drops
// NODE_EXTRA_CA_CERTS before starting Node on the same file; Node can also run it directly.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv, cleanup, RT_BIN, tempDir, write } from './harness.js';

afterAll(cleanup);

/** Node warns on stderr at start when NODE_EXTRA_CA_CERTS names a file it cannot load. */
const MISSING_CERTS = { NODE_EXTRA_CA_CERTS: '/nonexistent/rt-test-certs.pem' };

describe('launcher', () => {
  it('run by its own file, Node never sees NODE_EXTRA_CA_CERTS (no certificate warning)', () => {
    const bare = spawnSync(process.execPath, ['-e', '0'], { env: cleanEnv(MISSING_CERTS), encoding: 'utf8' });
    expect(bare.stderr).toMatch(/extra certs/); // the variable is read by Node at start

    const dir = tempDir();
    write(dir, 'f.txt', 'one\ntwo\n');
    const r = spawnSync(RT_BIN, ['open', 'f.txt'], { cwd: dir, env: cleanEnv(MISSING_CERTS), encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^--- f\.txt \(lines 1-2 of 2\) ---\n1:[0-9a-z]{4}\|one\n2:[0-9a-z]{4}\|two\n$/);
  });

  it('through a symbolic link (as npm links it), with arguments that hold spaces and quotes', () => {
    const dir = tempDir();
    const link = path.join(dir, 'rt');
    fs.symlinkSync(RT_BIN, link);
    write(dir, "a b 'c'.txt", 'x\n');
    const r = spawnSync(link, ['open', "a b 'c'.txt"], { cwd: dir, env: cleanEnv(), encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout.split('\n')[0]).toBe("--- a b 'c'.txt (lines 1-1 of 1) ---");
  });

  it('run by Node directly, the shell lines are inert', () => {
    const r = spawnSync(process.execPath, [RT_BIN, '--version'], { env: cleanEnv(), encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it(
    'carries the one code-cache loader, scripts/codeCache.cjs, ' +
      'as the single executable does (npm run build copies it)',
    () => {
      const root = path.resolve(__dirname, '../..');
      const loader = (file: string) => {
        const text = fs.readFileSync(path.join(root, file), 'utf8');
        const from = text.indexOf('// <code-cache loader>');
        const to = text.indexOf('// </code-cache loader>');
        expect(from, file).toBeGreaterThan(-1);
        return text.slice(from, to);
      };
      expect(loader('bin/rt.cjs')).toBe(loader('scripts/codeCache.cjs'));
      expect(loader('scripts/sea-main.cjs')).toBe(loader('scripts/codeCache.cjs'));
    },
  );
});
