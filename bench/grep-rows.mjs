// The rows of `npm run bench` about rt grep -F alone, timed as run.mjs times them (alternating
// runs after a warm-up, medians, ratios in one run), for working on the search without running
// the whole suite; several builds of rt side by side (e.g. a worktree's and main's).
// Usage: node bench/grep-rows.mjs [RUNS] [path/to/bin/rt.cjs ...]
//   GREP_TREE (default bench/.corpus/tree) and GREP_PLAIN (default $TMPDIR/rt-bench-plain, made
//   by run.mjs) are the folders searched; ROWS=tree or ROWS=plain times one of them.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.argv[2] ?? 15);
const bins =
  process.argv.length > 3 ? process.argv.slice(3).map((b) => path.resolve(b)) : [path.join(root, 'bin', 'rt.cjs')];
const IDENT = 'useState';
const env = { ...process.env, NO_COLOR: '1' };
for (const name of ['NODE_EXTRA_CA_CERTS', 'RT_STATE', 'RT_WINDOW', 'RT_RIPGREP']) delete env[name];

function timeOnce(cmd, args, cwd, extra = {}) {
  const t = process.hrtime.bigint();
  const r = spawnSync(cmd, args, {
    cwd,
    env: { ...env, ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 1 << 30,
  });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
}

const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const places = {
  tree: process.env.GREP_TREE ?? path.join(root, 'bench', '.corpus', 'tree'),
  plain: process.env.GREP_PLAIN ?? path.join(os.tmpdir(), 'rt-bench-plain'),
};
for (const [name, dir] of Object.entries(places)) {
  if (process.env.ROWS && process.env.ROWS !== name) continue;
  if (!fs.existsSync(dir)) {
    console.log(`${name}: ${dir} missing (npm run bench makes it)`);
    continue;
  }
  const runs = { rg: () => timeOnce('rg', ['-n', '-F', IDENT, '.'], dir) };
  if (name === 'tree')
    runs.floor = () => timeOnce(process.execPath, [path.join(root, 'bench', 'floor', 'rg.cjs'), IDENT, dir], dir);
  bins.forEach((bin, i) => (runs[`rt${i}`] = () => timeOnce(bin, ['grep', '-F', IDENT], dir, { RT_ROOT: dir })));
  // From no saved state, as run.mjs: the warm-up runs save the indexes of the files printed.
  fs.rmSync(path.join(dir, '.rt'), { recursive: true, force: true });
  for (const run of Object.values(runs)) run();
  const times = Object.fromEntries(Object.keys(runs).map((k) => [k, []]));
  for (let i = 0; i < RUNS; i++) for (const [k, run] of Object.entries(runs)) times[k].push(run());
  const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
  const ratios = bins.map((_, i) => {
    const rt = m[`rt${i}`];
    return `rt${i}/rg ${(rt / m.rg).toFixed(2)}${m.floor ? ` rt${i}/floor ${(rt / m.floor).toFixed(2)}` : ''}`;
  });
  console.log(
    `${name}: ${Object.entries(m)
      .map(([k, v]) => `${k} ${v.toFixed(1)} ms`)
      .join(', ')} | ${ratios.join(' | ')}`,
  );
}
console.log(bins.map((b, i) => `rt${i} = ${b}`).join('\n'));
