// Bundles the CLI into one file (dist/rt.cjs) so start-up loads a single module, then makes
// V8's code cache for it (dist/rt.cjs.cache) from a sample run; bin/rt.cjs loads both.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const outfile = path.join(root, 'dist', 'rt.cjs');

await build({
  entryPoints: [path.join(root, 'src/cli/main.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  legalComments: 'none',
  define: { __RT_VERSION__: JSON.stringify(version) },
  logLevel: 'warning',
});

// A sample run (open a small file, with no state kept) compiles what a typical command uses.
rmSync(`${outfile}.cache`, { force: true });
const sample = mkdtempSync(path.join(tmpdir(), 'rt-build-'));
writeFileSync(path.join(sample, 'sample.txt'), 'one\ntwo\nthree\n');
const run = spawnSync(process.execPath, [path.join(root, 'bin', 'rt.cjs'), 'open', 'sample.txt'], {
  cwd: sample,
  env: { ...process.env, RT_WRITE_CODE_CACHE: outfile, RT_STATE: 'off', RT_ROOT: sample },
  encoding: 'utf8',
});
rmSync(sample, { recursive: true, force: true });
if (run.status !== 0) {
  console.error(`build: the sample run failed (no code cache made):\n${run.stderr}`);
  process.exitCode = 1;
}
