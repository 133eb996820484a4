// The benchmark suite: `npm run bench`. Builds its corpora, then measures rt against the
// reference tools side by side in one run — alternating runs, medians, the ratio per pair —
// prints a table and writes it as JSON (bench/results/latest.json). Absolute times are noise on
// shared machines; the ratios are the figures. A reference tool that is missing (and cannot be
// installed through apt) is skipped, and the table says so.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCorpora, CORPUS } from './corpus.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RT = path.join(root, 'bin', 'rt.cjs');
const RUNS = Number(process.env.BENCH_RUNS ?? 11);

// `npm run bench -- --scale` runs the scale part alone (bench/scale.mjs, which makes its own data
// and takes some minutes); without it, the rows below.
const args = process.argv.slice(2);
if (args.some((a) => a !== '--scale')) {
  console.error('usage: node bench/run.mjs [--scale]');
  process.exit(2);
}
if (args.includes('--scale')) {
  await import('./scale.mjs');
  process.exit();
}
const env = { ...process.env, NO_COLOR: '1' };
delete env.RT_STATE;
delete env.RT_WINDOW;
delete env.RT_RIPGREP;
delete env.RT_CHECK; // the rows with and without the syntax check set it themselves

/** Looks a tool up on PATH; tries `apt-get install` once (as root) when it is missing. */
function tool(name, aptPackage) {
  const found = () => spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
  let where = found();
  if (!where && aptPackage && process.getuid?.() === 0 && !process.env.BENCH_NO_APT) {
    console.error(`bench: installing ${aptPackage} with apt-get`);
    spawnSync(
      'sh',
      ['-c', `apt-get update -qq >/dev/null 2>&1; apt-get install -y -qq ${aptPackage} >/dev/null 2>&1`],
      { stdio: 'inherit' },
    );
    where = found();
  }
  return where || undefined;
}

/** Wall time of one run, in ms. `args` runs directly (no shell). */
function timeOnce(cmd, args, opts = {}) {
  const t = process.hrtime.bigint();
  const r = spawnSync(cmd, args, {
    cwd: opts.cwd,
    env: { ...env, ...opts.env },
    input: opts.input ?? '',
    stdio: ['pipe', 'pipe', 'pipe'],
    maxBuffer: 1 << 30,
  });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0 && !(opts.okStatuses ?? []).includes(r.status)) {
    throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  }
  return { ms, stdout: r.stdout };
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/**
 * Times two commands alternately (A, B, A, B, …) after one warm-up each, so that both see the
 * same machine load; gives their medians and the ratio A/B.
 */
function pair(a, b) {
  a.prepare?.();
  b.prepare?.();
  a.run();
  b.run();
  const ta = [];
  const tb = [];
  for (let i = 0; i < RUNS; i++) {
    a.prepare?.();
    ta.push(a.run());
    b.prepare?.();
    tb.push(b.run());
  }
  const ma = median(ta);
  const mb = median(tb);
  return { a: ma, b: mb, ratio: ma / mb };
}

/** Peak resident memory of one run, in KiB, through GNU time. */
function peakKiB(timeBin, cmd, args, cwd, extraEnv = {}) {
  const r = spawnSync(timeBin, ['-f', '%M', cmd, ...args], {
    cwd,
    env: { ...env, RT_ROOT: cwd, ...extraEnv },
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const lines = r.stderr.trim().split('\n');
  return Number(lines[lines.length - 1]);
}

const rows = [];
function row(measure, result, target, goal, note = '') {
  rows.push({ measure, ...result, target, goal, note });
  const fmt = (x) => (x === undefined ? '-' : x.toFixed(x >= 100 ? 0 : 2));
  console.log(
    `${measure.padEnd(58)} ${fmt(result.a).padStart(8)} ${fmt(result.b).padStart(8)} ` +
      `${fmt(result.ratio).padStart(7)}  ${target ?? ''}${note ? `  (${note})` : ''}`,
  );
}

function skip(measure, why) {
  rows.push({ measure, skipped: why });
  console.log(`${measure.padEnd(58)} skipped: ${why}`);
}

/** rt's own TypeScript sources, whole files in path order, repeated to at least `lines` lines. */
function sourcesRepeated(lines) {
  const sources = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name.endsWith('.ts')) sources.push(fs.readFileSync(p, 'utf8').replace(/\n$/, '').split('\n'));
    }
  };
  walk(path.join(root, 'src'));
  const text = [];
  for (let k = 0; text.length < lines; k = (k + 1) % sources.length) text.push(...sources[k]);
  return text;
}

// ---------------------------------------------------------------------------------------------

const corpus = buildCorpora(root);
const sed = tool('sed');
const rg = tool('rg', 'ripgrep');
const git = tool('git', 'git');
const fd = tool('fd') ?? tool('fdfind', 'fd-find');
const gnuTime = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : tool('time', 'time');
const node = process.execPath;

console.log(
  `rt benchmark — ${new Date().toISOString()} — node ${process.version}, ${os.cpus().length} cores, ${RUNS} ` +
    `alternating runs per pair`,
);
console.log(
  `environment: NODE_EXTRA_CA_CERTS ${
    process.env.NODE_EXTRA_CA_CERTS ? "is set (Node reads it at every start; rt's launcher drops it)" : 'is not set'
  }`,
);
console.log(
  `corpora: ${CORPUS.small} (150 lines); ${CORPUS.big} (${corpus.bigLines} ` +
    `lines, ${(corpus.bigBytes / 1e6).toFixed(1)} MB); ${corpus.treeFiles} files in a git tree from npm ` +
    `packages (${corpus.packages.join(', ')})`,
);
console.log(`${'measure'.padEnd(58)} ${'rt ms'.padStart(8)} ${'ref ms'.padStart(8)} ${'ratio'.padStart(7)}  target`);

// The corpus folder is its own root (it lies inside rt's repository, whose root would be found).
const rtRun = (args, cwd, opts) => () => timeOnce(RT, [...args], { cwd, ...opts, env: { RT_ROOT: cwd } }).ms;
// rt is run as a user runs it, by its own file (bin/rt.cjs, whose first lines are for the shell):
// where NODE_EXTRA_CA_CERTS is set, Node reads that certificate file at every start, and rt's
// launcher drops the variable (rt makes no network connection). The Node floor every ratio to
// "node" is taken against is Node started the same way: this environment less that variable.
const floor = { run: () => timeOnce(node, ['-e', '0'], { env: { NODE_EXTRA_CA_CERTS: undefined } }).ms };
// Node as the environment starts it (with the variable, where it is set), for reference.
const envFloor = { run: () => timeOnce(node, ['-e', '0']).ms };

// 1. Start-up on a small file.
const openSmall = { run: rtRun(['open', CORPUS.small], corpus.dir) };
row('rt open small / Node floor (node -e 0, no NODE_EXTRA_CA_CERTS)', pair(openSmall, floor), '≤ 1.25', '≤ 1.0');
if (process.env.NODE_EXTRA_CA_CERTS)
  row('rt open small / node -e 0 with NODE_EXTRA_CA_CERTS, as set here', pair(openSmall, envFloor), 'report');

// 1a. The single executable (npm run sea, dist/rt), built here (some 4 s) unless dist/rt holds
// this very bundle (its build line) already. It cannot drop NODE_EXTRA_CA_CERTS as bin/rt.cjs
// does: Node reads the file before any of rt runs.
{
  const sea = path.join(root, 'dist', 'rt');
  const buildLine = fs.readFileSync(path.join(root, 'dist', 'rt.cjs'), 'utf8').split('\n', 1)[0];
  let why;
  if (!fs.existsSync(sea) || !fs.readFileSync(sea).includes(buildLine)) {
    console.error('bench: building dist/rt (node scripts/sea.mjs)');
    const built = spawnSync(node, [path.join(root, 'scripts', 'sea.mjs')], { encoding: 'utf8' });
    if (built.status !== 0) why = `npm run sea failed: ${built.stderr.trim().split('\n')[0]}`;
  }
  if (why) skip('standalone dist/rt open small / node bin/rt.cjs open small', why);
  else {
    const seaOpen = {
      run: () => timeOnce(sea, ['open', CORPUS.small], { cwd: corpus.dir, env: { RT_ROOT: corpus.dir } }).ms,
    };
    const size = `${(fs.statSync(sea).size / 1e6).toFixed(1)} MB`;
    row(
      'standalone dist/rt open small / node bin/rt.cjs open small',
      pair(seaOpen, openSmall),
      'report',
      undefined,
      size,
    );
    if (process.env.NODE_EXTRA_CA_CERTS) {
      const bareSeaOpen = {
        run: () =>
          timeOnce(sea, ['open', CORPUS.small], {
            cwd: corpus.dir,
            env: { RT_ROOT: corpus.dir, NODE_EXTRA_CA_CERTS: undefined },
          }).ms,
      };
      row('standalone without NODE_EXTRA_CA_CERTS / bin/rt.cjs open', pair(bareSeaOpen, openSmall), 'report');
    }
  }
}

// 2. The big file: first open (index built), then warm windows.
const bigFile = path.join(corpus.dir, CORPUS.big);
const stateDir = path.join(corpus.dir, '.rt');
const firstOpen = [];
for (let i = 0; i < 3; i++) {
  fs.rmSync(stateDir, { recursive: true, force: true });
  firstOpen.push(timeOnce(RT, ['open', `${CORPUS.big}:500000`], { cwd: corpus.dir, env: { RT_ROOT: corpus.dir } }).ms);
}
row('rt open big:500000, first (builds the index), median of 3', { a: median(firstOpen) }, 'well under 1 s');
if (gnuTime) {
  // Medians of three runs: one run's peak moves by some 5 MiB. Each a first open (no .rt/), of
  // `file` after `before` (which may write it afresh).
  const firstOpenKib = (file, before = () => undefined) =>
    median(
      [0, 1, 2].map(() => {
        fs.rmSync(stateDir, { recursive: true, force: true });
        before();
        return peakKiB(gnuTime, RT, ['open', `${file}:500000`], corpus.dir);
      }),
    );
  const kib = firstOpenKib(CORPUS.big);
  const times = (kib * 1024) / corpus.bigBytes;
  row(
    'peak memory of a first rt open of big, × file size',
    { a: kib / 1024, ratio: times },
    '≤ 1.5×',
    '≤ 1.2×',
    `${(kib / 1024).toFixed(0)} MiB`,
  );
  // What Node itself holds at its peak (started as rt is, without the CA variable), and rt's
  // peak above it: the part of the peak that rt's own work makes.
  const nodeKib = median(
    [0, 1, 2].map(() => peakKiB(gnuTime, node, ['-e', '0'], corpus.dir, { NODE_EXTRA_CA_CERTS: undefined })),
  );
  row(
    "that peak above Node's own (node -e 0), × file size",
    { a: (kib - nodeKib) / 1024, b: nodeKib / 1024, ratio: ((kib - nodeKib) * 1024) / corpus.bigBytes },
    'report',
    '',
    `Node's own ${(nodeKib / 1024).toFixed(0)} MiB`,
  );
  // The same file written a moment before (what an agent opens right after a formatter or a
  // checkout): its stamp cannot be trusted alone.
  const fresh = path.join(corpus.dir, 'fresh-big.txt');
  const freshKib = firstOpenKib('fresh-big.txt', () => fs.copyFileSync(bigFile, fresh));
  fs.rmSync(fresh, { force: true });
  row(
    'peak memory of a first rt open of big written just before, × size',
    { a: freshKib / 1024, ratio: (freshKib * 1024) / corpus.bigBytes },
    '≤ 1.5×',
    '≤ 1.2×',
    `${(freshKib / 1024).toFixed(0)} MiB`,
  );
} else skip('peak memory of a first rt open of big', 'GNU time not found');
// Warm: the index exists and is not racy (the file was last changed long ago).
timeOnce(RT, ['open', `${CORPUS.big}:500000`], { cwd: corpus.dir, env: { RT_ROOT: corpus.dir } });
const warmOpen = { run: rtRun(['open', `${CORPUS.big}:500000`], corpus.dir) };
row('rt open big:500000 (warm) / Node floor', pair(warmOpen, floor), '≤ 2.0', '≤ 1.2');
if (sed) {
  row(
    'rt open big:500000 (warm) / sed -n same window',
    pair(warmOpen, { run: () => timeOnce(sed, ['-n', '499951,500050p', CORPUS.big], { cwd: corpus.dir }).ms }),
    'report',
    '≤ 1.5',
  );
} else skip('rt open big (warm) / sed -n', 'sed not found');

// 3. An edit at line 500,000, each time by the LID the previous edit printed.
if (sed) {
  const edited = path.join(corpus.dir, 'edit-rt.txt');
  const sedCopy = path.join(corpus.dir, 'edit-sed.txt');
  fs.copyFileSync(bigFile, edited);
  fs.copyFileSync(bigFile, sedCopy);
  const shown = timeOnce(RT, ['open', 'edit-rt.txt:500000', '--window', '1'], {
    cwd: corpus.dir,
    env: { RT_ROOT: corpus.dir },
  }).stdout.toString();
  let lid = /^500000:([0-9a-z]+)\|/m.exec(shown)[1];
  let n = 0;
  const rtEdit = {
    run() {
      const r = timeOnce(RT, ['edit', 'edit-rt.txt', lid], {
        cwd: corpus.dir,
        input: `edited by rt ${n++}\n`,
        env: { RT_ROOT: corpus.dir },
      });
      lid = /^500000:([0-9a-z]+)\|/m.exec(r.stdout.toString())[1];
      return r.ms;
    },
  };
  let m = 0;
  const sedEdit = {
    run: () => timeOnce(sed, ['-i', `500000s/.*/edited by sed ${m++}/`, 'edit-sed.txt'], { cwd: corpus.dir }).ms,
  };
  row('rt edit at line 500,000 / sed -i same line', pair(rtEdit, sedEdit), '≤ 1.5', '≤ 1.0');
  fs.rmSync(edited, { force: true });
  fs.rmSync(sedCopy, { force: true });
} else skip('rt edit / sed -i', 'sed not found');

// 3a. rt undo of an edit at line 500,000 against that edit: each undo takes back an
// edit made just before it (untimed); the edits timed are made the same way, by the LID of line
// 500,000 as the command before printed it.
{
  const file = path.join(corpus.dir, 'undo-rt.txt');
  fs.copyFileSync(bigFile, file);
  const opts = { cwd: corpus.dir, env: { RT_ROOT: corpus.dir, RT_SESSION: 'bench-undo' } };
  let lid = /^500000:([0-9a-z]+)\|/m.exec(
    timeOnce(RT, ['open', 'undo-rt.txt:500000', '--window', '1'], opts).stdout.toString(),
  )[1];
  let n = 0;
  const edit = () => {
    const r = timeOnce(RT, ['edit', 'undo-rt.txt', lid], { ...opts, input: `edited ${n++}\n` });
    lid = /^500000:([0-9a-z]+)\|/m.exec(r.stdout.toString())[1];
    return r.ms;
  };
  const rtUndo = {
    prepare: edit,
    run() {
      const r = timeOnce(RT, ['undo'], opts);
      lid = /^500000:([0-9a-z]+)\|/m.exec(r.stdout.toString())[1];
      return r.ms;
    },
  };
  row('rt undo of an edit at line 500,000 / that edit', pair(rtUndo, { run: edit }), '≤ 1.5', '≤ 1.0');
  fs.rmSync(file, { force: true });
}

// 3b. A batch: rt apply of a 10-hunk patch by LIDs over 3 files of 1,000 lines,
// against one rt edit of one line of one such file. Before each timed run, outside the timing,
// its folder (its own root) is made afresh: the files written, dated an hour back (an index of a
// file changed within the same second is not trusted as is), then opened whole, which shows
// every line and saves their indexes. Every run starts from the same files, index and LIDs, and
// the apply commits its three files through the journal as a user's does. Both without the
// syntax check (RT_CHECK=off): this row is the batch's own cost; the check's, a parse of each
// file written, is measured apart (3c).
{
  const batchFile = (name) =>
    Array.from(
      { length: 1000 },
      (_, i) => `export const ${name[0]}${i + 1} = compute(${i + 1}, '${name}'); // line ${i + 1} of ${name}\n`,
    ).join('');
  /** Makes `dir` afresh with `names` opened whole; gives each file's LIDs by line number. */
  const freshBatchRoot = (dir, names) => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    const hourAgo = Date.now() / 1000 - 3600;
    const lids = {};
    for (const name of names) {
      fs.writeFileSync(path.join(dir, name), batchFile(name));
      fs.utimesSync(path.join(dir, name), hourAgo, hourAgo);
    }
    for (const name of names) {
      const shown = timeOnce(RT, ['open', name, '--window', '1000'], {
        cwd: dir,
        env: { RT_ROOT: dir },
      }).stdout.toString();
      lids[name] = Object.fromEntries([...shown.matchAll(/^(\d+):([0-9a-z]{4})\|/gm)].map((m) => [Number(m[1]), m[2]]));
    }
    return lids;
  };
  // Ten hunks: replacements of one and two lines, inserts (one at the end), deletions of one and three lines.
  const hunks = {
    'a.ts': (l) => [
      `@@ edit ${l[100]}`,
      '+export const a100 = 100;',
      `@@ edit ${l[300]} ${l[301]}`,
      '+export const a300 = 300;',
      '+export const a301 = 301;',
      `@@ insert after ${l[500]}`,
      '+// after a500',
      `@@ delete ${l[700]}`,
    ],
    'b.ts': (l) => [
      `@@ edit ${l[200]}`,
      '+export const b200 = 200;',
      `@@ insert before ${l[600]}`,
      '+// before b600',
      `@@ delete ${l[800]} ${l[802]}`,
    ],
    'c.ts': (l) => [
      `@@ edit ${l[150]}`,
      '+export const c150 = 150;',
      `@@ edit ${l[450]}`,
      '+export const c450 = 450;',
      '@@ insert after $',
      '+// the end of c.ts',
    ],
  };
  const applyDir = path.join(corpus.dir, 'batch-apply');
  const editDir = path.join(corpus.dir, 'batch-edit');
  let patch = '';
  const rtApply = {
    prepare() {
      const lids = freshBatchRoot(applyDir, Object.keys(hunks));
      patch = `*** Begin Patch\n${Object.entries(hunks)
        .map(([name, h]) => `*** Update File: ${name}\n${h(lids[name]).join('\n')}\n`)
        .join('')}*** End Patch\n`;
    },
    run: () => timeOnce(RT, ['apply'], { cwd: applyDir, input: patch, env: { RT_ROOT: applyDir, RT_CHECK: 'off' } }).ms,
  };
  let lid = '';
  const rtEditOne = {
    prepare() {
      lid = freshBatchRoot(editDir, ['a.ts'])['a.ts'][100];
    },
    run: () =>
      timeOnce(RT, ['edit', 'a.ts', lid], {
        cwd: editDir,
        input: 'export const a100 = 100;\n',
        env: { RT_ROOT: editDir, RT_CHECK: 'off' },
      }).ms,
  };
  const result = pair(rtApply, rtEditOne);
  // The last apply wrote what the patch says (a run that changed nothing would time nothing).
  const counts = Object.keys(hunks).map(
    (name) => fs.readFileSync(path.join(applyDir, name), 'utf8').split('\n').length - 1,
  );
  if (
    counts.join() !== '1000,998,1001' ||
    !fs.readFileSync(path.join(applyDir, 'c.ts'), 'utf8').endsWith('// the end of c.ts\n')
  )
    throw new Error(`rt apply did not write the batch: line counts ${counts.join(', ')}`);
  row(
    'rt apply, 10 hunks in 3 files / rt edit of one line',
    result,
    '≤ 1.5',
    '≤ 1.1',
    'files of 1,000 lines, hunks by LIDs',
  );
  fs.rmSync(applyDir, { recursive: true, force: true });
  fs.rmSync(editDir, { recursive: true, force: true });
}

// 3c. The syntax check before a write: an insert of a comment line at the middle of a
// TypeScript file of 1,000 and of 100,000 lines (rt's own sources, repeated), checked against the
// same insert with RT_CHECK=off; each run by the LID the run before printed of the line below.
{
  for (const lines of [1000, 100_000]) {
    // Whole files only, so that the result parses as the sources do (a file cut in the middle
    // has a syntax error, and the check then parses the old content too).
    const text = sourcesRepeated(lines);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-bench-check-'));
    const opts = (check) => ({ cwd: dir, env: { RT_ROOT: dir, ...(check ? {} : { RT_CHECK: 'off' }) } });
    const files = { on: 'checked.ts', off: 'unchecked.ts' };
    const lid = {};
    const mid = Math.floor(lines / 2);
    for (const [k, name] of Object.entries(files)) {
      fs.writeFileSync(path.join(dir, name), `${text.join('\n')}\n`);
      const old = new Date(Date.now() - 3_600_000);
      fs.utimesSync(path.join(dir, name), old, old);
      lid[k] = new RegExp(`^${mid}:([0-9a-z]+)\\|`, 'm').exec(
        timeOnce(RT, ['open', `${name}:${mid}`, '--window', '1'], opts(k === 'on')).stdout.toString(),
      )[1];
    }
    let n = 0;
    const insert = (k) => ({
      run() {
        const r = timeOnce(RT, ['insert', files[k], lid[k], '--force'], {
          ...opts(k === 'on'),
          input: `// note ${n++}\n`,
        });
        lid[k] = new RegExp(`^${mid + 1}:([0-9a-z]+)\\|`, 'm').exec(r.stdout.toString())[1];
        return r.ms;
      },
    });
    const result = pair(insert('on'), insert('off'));
    row(
      `rt insert, checked / unchecked (${text.length.toLocaleString('en')}-line TypeScript)`,
      result,
      lines === 1000 ? '+20 ms' : '≤ 1.10',
      lines === 1000 ? '+5 ms' : '',
      `${(result.a - result.b).toFixed(1)} ms added`,
    );
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// 3d. A refusal's cost (the check's confirmation on the whole file, TypeScript's parser asked):
// the deletion of a method's closing `}` at the middle of a 15,700-line TypeScript file (rt's own
// sources, whole files, repeated), refused, against an accepted insert of a comment there.
{
  const text = sourcesRepeated(15_700);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-bench-refusal-'));
  const opts = { cwd: dir, env: { RT_ROOT: dir } };
  fs.writeFileSync(path.join(dir, 'big.ts'), `${text.join('\n')}\n`);
  const brace = text.findIndex((line, i) => i > text.length / 2 && line === '  }') + 1;
  const lidOf = (number, stdout) => new RegExp(`^${number}:([0-9a-z]+)\\|`, 'm').exec(stdout.toString())[1];
  const closing = lidOf(brace, timeOnce(RT, ['open', `big.ts:${brace}`, '--window', '1'], opts).stdout);
  let above = lidOf(brace - 1, timeOnce(RT, ['open', `big.ts:${brace - 1}`, '--window', '1'], opts).stdout);
  let n = 0;
  const refused = { run: () => timeOnce(RT, ['delete', 'big.ts', closing], { ...opts, okStatuses: [5] }).ms };
  const accepted = {
    run() {
      const r = timeOnce(RT, ['insert', 'big.ts', above, '--force'], { ...opts, input: `    // note ${n++}\n` });
      above = lidOf(brace, r.stdout);
      return r.ms;
    },
  };
  row(
    `rt delete of a \`}\`, refused / an accepted insert (${text.length.toLocaleString('en')}-line TypeScript)`,
    pair(refused, accepted),
    '≤ 2.0',
    '≤ 1.5',
  );
  fs.rmSync(dir, { recursive: true, force: true });
}

// 4. Search on the tree, from no saved state: what earlier runs (or hand-run searches) left in
// its .rt/ (views grown by other searches) would weigh on the figures. The warm-up run of each
// pair saves the indexes of the files printed, as a user's first search does.
const tree = corpus.tree;
const ident = corpus.ident;
fs.rmSync(path.join(tree, '.rt'), { recursive: true, force: true });
const rtGrep = { run: rtRun(['grep', '-F', ident], tree) };
if (rg)
  row(
    `rt grep -F ${ident} / rg -n -F ${ident}`,
    pair(rtGrep, { run: () => timeOnce(rg, ['-n', '-F', ident, '.'], { cwd: tree }).ms }),
    '≤ 1.5',
    '≤ 1.0',
  );
else skip('rt grep -F / rg -n -F', 'ripgrep not found');
// Every hit, not the first 200: the cost of printing thousands of lines with their LIDs.
if (rg)
  row(
    `rt grep -F ${ident} --max 1000000 (every hit) / rg -n -F ${ident}`,
    pair(
      { run: rtRun(['grep', '-F', ident, '--max', '1000000'], tree) },
      { run: () => timeOnce(rg, ['-n', '-F', ident, '.'], { cwd: tree }).ms },
    ),
    'report',
  );
// Only the files with hits (-l): the literal's files are ripgrep's, each checked for being text.
if (rg)
  row(
    `rt grep -l -F ${ident} / rg -l -F ${ident}`,
    pair(
      { run: rtRun(['grep', '-l', '-F', ident], tree) },
      { run: () => timeOnce(rg, ['-l', '-F', ident, '.'], { cwd: tree }).ms },
    ),
    'report',
  );
if (git)
  row(
    `rt grep -F ${ident} / git grep -n -F ${ident}`,
    pair(rtGrep, { run: () => timeOnce(git, ['grep', '-n', '-F', ident], { cwd: tree }).ms }),
    'report',
  );
// A regular expression: rt gives ripgrep a translation of it, then matches it in the lines found.
const regex = corpus.pattern;
if (rg)
  row(
    `rt grep '${regex}' / rg -n '${regex}'`,
    pair({ run: rtRun(['grep', regex], tree) }, { run: () => timeOnce(rg, ['-n', regex, '.'], { cwd: tree }).ms }),
    'report',
  );
// Without ripgrep (RT_RIPGREP=off, as where it is not installed): git grep is the prefilter.
if (git) {
  const noRg = (args) => ({
    run: () => timeOnce(RT, args, { cwd: tree, env: { RT_ROOT: tree, RT_RIPGREP: 'off' } }).ms,
  });
  const gitGrep = { run: () => timeOnce(git, ['grep', '-n', '-F', ident], { cwd: tree }).ms };
  row(
    `rt grep -F ${ident} without ripgrep / git grep -n -F ${ident}`,
    pair(noRg(['grep', '-F', ident]), gitGrep),
    'report',
  );
  row(`rt grep '${regex}' without ripgrep / git grep -n -F ${ident}`, pair(noRg(['grep', regex]), gitGrep), 'report');
}
const rtFind = { run: rtRun(['find', '*.ts'], tree) };
const fdFind = { run: () => timeOnce(fd, ['-g', '*.ts'], { cwd: tree }).ms };
if (fd) row("rt find '*.ts' / fd -g '*.ts'", pair(rtFind, fdFind), '≤ 1.5', '≤ 1.0');
else skip("rt find '*.ts' / fd -g '*.ts'", 'fd not found');
// The floors: the least a Node CLI doing it rt's way pays. A Node program (floor/) that starts
// ripgrep, or git's two listings, exactly as rt does and only reads what they print, run as rt
// is run (without NODE_EXTRA_CA_CERTS). Against the reference tool it says how much of a target
// any such CLI can meet on this machine and tree; rt against it, what rt's own work costs.
const floorDir = path.join(root, 'bench', 'floor');
const bare = { NODE_EXTRA_CA_CERTS: undefined };
const rgFloor = {
  run: () => timeOnce(node, [path.join(floorDir, 'rg.cjs'), ident, tree], { cwd: tree, env: bare }).ms,
};
const gitFloor = { run: () => timeOnce(node, [path.join(floorDir, 'git.cjs'), '.ts'], { cwd: tree, env: bare }).ms };
if (rg) {
  row(
    `node starting rg as rt does / rg -n -F ${ident} (the floor)`,
    pair(rgFloor, { run: () => timeOnce(rg, ['-n', '-F', ident, '.'], { cwd: tree }).ms }),
    'report',
  );
  row(`rt grep -F ${ident} / node starting rg as rt does`, pair(rtGrep, rgFloor), '≤ 1.25', '≤ 1.1');
}
if (fd && git) {
  row("node listing with git as rt does / fd -g '*.ts' (the floor)", pair(gitFloor, fdFind), 'report');
  row("rt find '*.ts' / node listing with git as rt does", pair(rtFind, gitFloor), 'report');
}
// What any Node program pays before its first line runs, against the reference tools' whole run:
// a ratio above the target means no Node CLI can meet it on this machine and tree.
if (rg)
  row(
    `Node floor / rg -n -F ${ident}`,
    pair(floor, { run: () => timeOnce(rg, ['-n', '-F', ident, '.'], { cwd: tree }).ms }),
    'report',
  );
if (fd) row("Node floor / fd -g '*.ts'", pair(floor, fdFind), 'report');

// rt grep in a folder outside any git repository (installed npm packages, copied out of the
// tree): rt lists and searches without git, as ripgrep does.
if (rg) {
  const plain = path.join(os.tmpdir(), 'rt-bench-plain');
  if (!fs.existsSync(path.join(plain, 'done'))) {
    fs.rmSync(plain, { recursive: true, force: true });
    for (const pkg of ['@mui', '@emotion']) fs.cpSync(path.join(tree, pkg), path.join(plain, pkg), { recursive: true });
    fs.writeFileSync(path.join(plain, 'done'), '');
  }
  fs.rmSync(path.join(plain, '.rt'), { recursive: true, force: true });
  const files = timeOnce(rg, ['--files', '.'], { cwd: plain }).stdout.toString().split('\n').filter(Boolean).length;
  row(
    `rt grep -F ${ident} / rg -n -F ${ident}, outside git`,
    pair(
      { run: rtRun(['grep', '-F', ident], plain) },
      { run: () => timeOnce(rg, ['-n', '-F', ident, '.'], { cwd: plain }).ms },
    ),
    '≤ 1.5',
    '≤ 1.0',
    `${files.toLocaleString('en')} files of npm packages, no .git`,
  );
} else skip('rt grep -F / rg -n -F outside git', 'ripgrep not found');

// rt mcp: calls through a resident server against a process per call, and its memory.
const { benchMcp } = await import('./mcp.mjs');
await benchMcp({ row, env, runs: RUNS });

const out = path.join(root, 'bench', 'results');
fs.mkdirSync(out, { recursive: true });
const result = {
  date: new Date().toISOString(),
  node: process.version,
  cores: os.cpus().length,
  runs: RUNS,
  nodeExtraCaCerts: Boolean(process.env.NODE_EXTRA_CA_CERTS),
  corpora: {
    small: CORPUS.small,
    big: { lines: corpus.bigLines, bytes: corpus.bigBytes },
    tree: { files: corpus.treeFiles, packages: corpus.packages, ident, pattern: regex },
  },
  rows,
};
fs.writeFileSync(path.join(out, 'latest.json'), `${JSON.stringify(result, null, 2)}\n`);
console.log(`\nwritten: ${path.relative(process.cwd(), path.join(out, 'latest.json'))}`);
