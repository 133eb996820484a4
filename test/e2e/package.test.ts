// The package people install: npm pack, then npm install -g of the tarball, gives a working rt
// with its man page (no network needed: the bundle has no runtime dependencies).

import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv, cleanup, tempDir } from './harness.js';

afterAll(cleanup);
const root = path.resolve(__dirname, '../..');

describe('the installed package', () => {
  it('npm pack + npm install -g gives rt on PATH, its version and man page', () => {
    const work = tempDir();
    // A code cache a run under flags made beside the bundle (see ownCache) is this machine's, not the package's.
    const own = path.join(root, 'dist', 'rt.cjs.cache-packtest');
    fs.writeFileSync(own, '');
    let packed: SpawnSyncReturns<string>;
    try {
      packed = spawnSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work, root], {
        encoding: 'utf8',
        env: { ...process.env },
      });
    } finally {
      fs.rmSync(own, { force: true });
    }
    expect(packed.status, packed.stderr).toBe(0);
    // The single executable (npm run sea), 120 MB, is no part of the package.
    const files = (JSON.parse(packed.stdout) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path);
    expect(files).toContain('dist/rt.cjs');
    expect(files.filter((f) => /^dist\/rt(?:-making)?(?:\.exe)?$/.test(f))).toEqual([]);
    expect(files.filter((f) => f.includes('.cache-'))).toEqual([]);
    // The licence travels with the package, and package.json names it.
    expect(files).toContain('LICENSE');
    expect(fs.readFileSync(path.join(root, 'LICENSE'), 'utf8')).toMatch(
      /^MIT License\n\nCopyright \(c\) 2026 rt contributors\n/,
    );
    expect((JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { license: string }).license).toBe(
      'MIT',
    );
    const tgz = fs.readdirSync(work).find((f) => f.endsWith('.tgz'))!;
    const prefix = path.join(work, 'prefix');
    const installed = spawnSync(
      'npm',
      ['install', '-g', '--offline', '--no-audit', '--no-fund', '--prefix', prefix, path.join(work, tgz)],
      { encoding: 'utf8', env: { ...process.env } },
    );
    expect(installed.status, installed.stderr).toBe(0);

    const version = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string })
      .version;
    const rt = path.join(prefix, 'bin', 'rt');
    const v = spawnSync(rt, ['--version'], { encoding: 'utf8', env: cleanEnv() });
    expect(v.stdout.trim()).toBe(version);
    expect(fs.existsSync(path.join(prefix, 'share', 'man', 'man1', 'rt.1'))).toBe(true);

    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'a.txt'), 'one\ntwo\n');
    const open = spawnSync(rt, ['open', 'a.txt'], { cwd: dir, encoding: 'utf8', env: cleanEnv() });
    expect(open.status, open.stderr).toBe(0);
    expect(open.stdout).toMatch(/^--- a\.txt \(lines 1-2 of 2\) ---\n1:[0-9a-z]{4}\|one\n2:[0-9a-z]{4}\|two\n$/);
  }, 120_000);
});
