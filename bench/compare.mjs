// Two builds of rt side by side on the commands whose cost a change of structure could move:
// runs alternate between the builds after a warm-up, medians per build, and the ratio of this
// build to the other (above 1: this build is slower). For a refactoring's "no slower" check
// without running the whole suite twice.
// Usage: node bench/compare.mjs OTHER/bin/rt.cjs [RUNS]
//   CORPUS (default bench/.corpus, made by `npm run bench`) holds small.ts, big.txt and tree/;
//   ROWS=REGEX times only the rows whose names match.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [other, runsArg] = process.argv.slice(2);
if (!other) {
  console.error('usage: node bench/compare.mjs OTHER/bin/rt.cjs [RUNS]');
  process.exit(2);
}
const RUNS = Number(runsArg ?? 11);
/** ROWS=REGEX times only the rows whose names it matches. */
const only = process.env.ROWS ? new RegExp(process.env.ROWS) : undefined;
const builds = { this: path.join(root, 'bin', 'rt.cjs'), other: path.resolve(other) };
const corpus = process.env.CORPUS ?? path.join(root, 'bench', '.corpus');
const env = { ...process.env, NO_COLOR: '1' };
for (const name of ['NODE_EXTRA_CA_CERTS', 'RT_STATE', 'RT_WINDOW', 'RT_RIPGREP', 'RT_CHECK']) delete env[name];

function run(bin, args, cwd, input = '', extra = {}) {
  const t = process.hrtime.bigint();
  const r = spawnSync(bin, args, {
    cwd,
    input,
    env: { ...env, RT_ROOT: cwd, ...extra },
    stdio: ['pipe', 'pipe', 'pipe'],
    maxBuffer: 1 << 30,
  });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${bin} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, out: r.stdout.toString() };
}

const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** A folder of its own for one build, so that neither reads the other's saved state. */
function place(name, build, files) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `rt-compare-${name}-${build}-`));
  for (const [to, from] of Object.entries(files)) fs.copyFileSync(from, path.join(dir, to));
  return dir;
}

const rows = [];
/** Times `make(build)`'s run for both builds, alternating. `make` returns { run(): ms }. */
function row(name, make) {
  if (only && !only.test(name)) return;
  const cases = Object.fromEntries(Object.entries(builds).map(([b, bin]) => [b, make(b, bin)]));
  for (const c of Object.values(cases)) c.run();
  const times = { this: [], other: [] };
  for (let i = 0; i < RUNS; i++) for (const b of Object.keys(cases)) times[b].push(cases[b].run());
  const m = { this: median(times.this), other: median(times.other) };
  rows.push({ name, this: m.this, other: m.other, ratio: m.this / m.other });
  const cells = [
    m.this.toFixed(1).padStart(8),
    m.other.toFixed(1).padStart(8),
    (m.this / m.other).toFixed(2).padStart(6),
  ];
  console.log(`${name.padEnd(52)} ${cells.join(' ')}`);
  for (const c of Object.values(cases)) c.done?.();
}

const small = path.join(corpus, 'small.ts');
const big = path.join(corpus, 'big.txt');
const tree = path.join(corpus, 'tree');
for (const f of [small, big, tree]) if (!fs.existsSync(f)) throw new Error(`${f} missing: run npm run bench once`);
console.log(`${'row (ms, median of ' + RUNS + ')'.padEnd(10)}`.padEnd(52), '    this    other  ratio');

row('rt --version', (_b, bin) => ({ run: () => run(bin, ['--version'], os.tmpdir()).ms }));
row('rt open small.ts', (b, bin) => {
  const dir = place('small', b, { 'small.ts': small });
  return { run: () => run(bin, ['open', 'small.ts'], dir).ms, done: () => fs.rmSync(dir, { recursive: true }) };
});
row('rt outline small.ts', (b, bin) => {
  const dir = place('outline', b, { 'small.ts': small });
  return { run: () => run(bin, ['outline', 'small.ts'], dir).ms, done: () => fs.rmSync(dir, { recursive: true }) };
});
row('rt open big.txt:500000 (warm)', (b, bin) => {
  const dir = place('big', b, { 'big.txt': big });
  return { run: () => run(bin, ['open', 'big.txt:500000'], dir).ms, done: () => fs.rmSync(dir, { recursive: true }) };
});
const lidAt = (out, n) => new RegExp(`^${n}:([0-9a-z]+)\\|`, 'm').exec(out)[1];
row('rt edit big.txt at line 500,000', (b, bin) => {
  const dir = place('edit', b, { 'big.txt': big });
  let lid = lidAt(run(bin, ['open', 'big.txt:500000', '--window', '1'], dir).out, 500000);
  let n = 0;
  return {
    run() {
      const r = run(bin, ['edit', 'big.txt', lid], dir, `edited ${n++}\n`);
      lid = lidAt(r.out, 500000);
      return r.ms;
    },
    done: () => fs.rmSync(dir, { recursive: true }),
  };
});
row('rt undo of an edit of big.txt at line 500,000', (b, bin) => {
  const dir = place('undo', b, { 'big.txt': big });
  const extra = { RT_SESSION: 'compare' };
  let lid = lidAt(run(bin, ['open', 'big.txt:500000', '--window', '1'], dir, '', extra).out, 500000);
  let n = 0;
  return {
    run() {
      lid = lidAt(run(bin, ['edit', 'big.txt', lid], dir, `edited ${n++}\n`, extra).out, 500000);
      const r = run(bin, ['undo'], dir, '', extra);
      lid = lidAt(r.out, 500000);
      return r.ms;
    },
    done: () => fs.rmSync(dir, { recursive: true }),
  };
});
row('rt insert before line 75 of small.ts (checked)', (b, bin) => {
  const dir = place('insert', b, { 'small.ts': small });
  let out = run(bin, ['open', 'small.ts:75', '--window', '1'], dir).out;
  return {
    run() {
      const r = run(bin, ['insert', 'small.ts', lidAt(out, 75)], dir, '// one more line\n');
      out = run(bin, ['open', 'small.ts:75', '--window', '1'], dir).out;
      return r.ms;
    },
    done: () => fs.rmSync(dir, { recursive: true }),
  };
});
row('rt apply of a one-hunk patch to small.ts', (b, bin) => {
  const dir = place('apply', b, { 'small.ts': small });
  let k = 0;
  return {
    run() {
      const shown = run(bin, ['open', 'small.ts:10', '--window', '1'], dir).out;
      const lid10 = lidAt(shown, 10);
      const patch = `*** Begin Patch\n*** Update File: small.ts\n@@ edit ${lid10}\n+// patched ${k++}\n*** End Patch\n`;
      return run(bin, ['apply'], dir, patch).ms;
    },
    done: () => fs.rmSync(dir, { recursive: true }),
  };
});
row('rt grep -F useState (tree, git)', (_b, bin) => ({ run: () => run(bin, ['grep', '-F', 'useState'], tree).ms }));
row("rt grep 'use[A-Z]tate' (tree, git)", (_b, bin) => ({ run: () => run(bin, ['grep', 'use[A-Z]tate'], tree).ms }));
row('rt grep -F useState without ripgrep (tree)', (_b, bin) => ({
  run: () => run(bin, ['grep', '-F', 'useState'], tree, '', { RT_RIPGREP: 'off' }).ms,
}));
row("rt find '*.ts' (tree)", (_b, bin) => ({ run: () => run(bin, ['find', '*.ts'], tree).ms }));
row('rt grep-file -F big.txt', (b, bin) => {
  const dir = place('grepfile', b, { 'big.txt': big });
  return {
    run: () => run(bin, ['grep-file', '-F', 'epsilon value=4', 'big.txt'], dir).ms,
    done: () => fs.rmSync(dir, { recursive: true }),
  };
});

const out = path.join(root, 'bench', 'results');
fs.mkdirSync(out, { recursive: true });
fs.writeFileSync(path.join(out, 'compare.json'), JSON.stringify({ other: builds.other, runs: RUNS, rows }, null, 2));
