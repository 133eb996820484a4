// Times the listing rows alone (the whole bench takes too long to run at each
// change): `rt find '*.ts'` in the tree against fd and the git floor, and `rt grep -F IDENT`
// outside git against rg. Commands run in turn, round after round (as run.mjs's pair() does for
// two), after one warm-up each; medians, and ratios to the last command of each row.
// Usage: node bench/listing.mjs [OTHER_RT_CJS...]  (other builds of rt to time beside this one,
// e.g. /work/main/bin/rt.cjs). BENCH_RUNS: rounds (default 15).

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const env = { ...process.env, NO_COLOR: '1' };
for (const name of ['RT_STATE', 'RT_WINDOW', 'RT_RIPGREP', 'NODE_EXTRA_CA_CERTS']) delete env[name];
const rts = [path.join(root, 'bin', 'rt.cjs'), ...process.argv.slice(2)];
const corpusDir = [path.join(root, 'bench', '.corpus'), '/work/main/bench/.corpus'].find((d) =>
  fs.existsSync(path.join(d, 'tree')),
);
const tree = path.join(corpusDir, 'tree');
const plain = path.join(os.tmpdir(), 'rt-bench-plain');
const which = (name) => spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim() || undefined;
const fd = which('fd') ?? which('fdfind');
const rg = which('rg');

function timeOnce(cmd, args, cwd, extra = {}) {
  const t = process.hrtime.bigint();
  const r = spawnSync(cmd, args, {
    cwd,
    env: { ...env, ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 1 << 30,
  });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function rounds(label, commands) {
  for (const c of commands) c.run();
  const times = commands.map(() => []);
  for (let i = 0; i < RUNS; i++) commands.forEach((c, j) => times[j].push(c.run()));
  const medians = times.map(median);
  const last = medians[medians.length - 1];
  console.log(label);
  commands.forEach((c, j) =>
    console.log(`  ${c.name.padEnd(40)} ${medians[j].toFixed(1).padStart(7)} ms  ×${(medians[j] / last).toFixed(2)}`),
  );
}

const rtName = (i) => (i === 0 ? 'rt (this tree)' : `rt ${path.dirname(path.dirname(rts[i]))}`);
const only = process.env.ROWS ?? 'find,plain,grep';
if (only.includes('find')) {
  rounds(`rt find '*.ts' in the tree (${tree})`, [
    ...rts.map((rt, i) => ({ name: rtName(i), run: () => timeOnce(rt, ['find', '*.ts'], tree, { RT_ROOT: tree }) })),
    {
      name: 'node listing with git (floor)',
      run: () => timeOnce(process.execPath, [path.join(root, 'bench', 'floor', 'git.cjs'), '.ts'], tree),
    },
    { name: `fd -g '*.ts'`, run: () => timeOnce(fd, ['-g', '*.ts'], tree) },
  ]);
}
if (only.includes('plain')) {
  rounds(`rt grep -F useState outside git (${plain})`, [
    ...rts.map((rt, i) => ({
      name: rtName(i),
      run: () => timeOnce(rt, ['grep', '-F', 'useState'], plain, { RT_ROOT: plain }),
    })),
    { name: 'rg -n -F useState', run: () => timeOnce(rg, ['-n', '-F', 'useState', '.'], plain) },
  ]);
}
if (only.includes('grep')) {
  // (Not a listing row, but trackedFiles, which tells which files ripgrep found git lists, runs in it.)
  rounds(`rt grep -F useState in the tree`, [
    ...rts.map((rt, i) => ({
      name: rtName(i),
      run: () => timeOnce(rt, ['grep', '-F', 'useState'], tree, { RT_ROOT: tree }),
    })),
    { name: 'rg -n -F useState', run: () => timeOnce(rg, ['-n', '-F', 'useState', '.'], tree) },
  ]);
}
