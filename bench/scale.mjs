// The scale part of the benchmark: `npm run bench -- --scale` (or `node bench/scale.mjs` after a
// build). rt where a big repository or a big file puts it: a tree of 10,000 files with hits in
// every one, babel's every-hit grep, files of 1,000,000 and 10,000,000 lines, a 50 MB line, and
// `rt mcp` edits. It generates its data (bench/scale/data.mjs), then times each rt command
// against its peer in one run, alternating, and gives for each side the min and the median of
// wall time, CPU (user+sys, of the process and the children it waited for) and peak resident
// memory, the ratio of the medians, and the target with PASS or MISS. A row whose peer is
// missing (no ripgrep) is skipped, saying so; a row that fails says why and the others go on.
//
// Settings (environment):
//   SCALE_DIR   where the data goes (default $TMPDIR/rt-bench-scale; kept for the next run,
//               made again when the sizes change; some 2.5 GB at full size)
//   SCALE=small every size ten times smaller (babel's row only if BABEL is set): a quick check
//   SCALE_RUNS  timed runs per side (default 5, after one warm-up each)
//   SCALE_RUNS_SLOW  the same for the rows whose runs take seconds each, those of the biggest file
//               and the tree's first grep (default 3 at full size, else SCALE_RUNS)
//   SCALE_ROWS  a regular expression: only the parts whose names match (tree, babel,
//               big 1,000,000 lines, big 10,000,000 lines, long line, mcp)
//   BABEL       babel's repository (default /work/repos/babel), cloned into SCALE_DIR
// Writes bench/results/scale.json (scale-small.json with SCALE=small; -partial with SCALE_ROWS).

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LONG_TOKENS, makeBig, makeLong, makeTrees, RARE_TOKEN, TREE_TOKEN } from './scale/data.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RT = path.join(root, 'bin', 'rt.cjs');
const small = process.env.SCALE === 'small';
const div = small ? 10 : 1;
const SIZES = {
  treeFiles: 10_000 / div,
  bigLines: [1_000_000 / div, 10_000_000 / div],
  longBytes: 50_000_000 / div,
  mcpCalls: 200,
  mcpLines: 1000,
};
const RUNS = Number(process.env.SCALE_RUNS ?? 5);
const RUNS_SLOW = Number(process.env.SCALE_RUNS_SLOW ?? (small ? RUNS : Math.min(RUNS, 3)));
const only = process.env.SCALE_ROWS ? new RegExp(process.env.SCALE_ROWS) : undefined;
const base = path.resolve(process.env.SCALE_DIR ?? path.join(os.tmpdir(), 'rt-bench-scale'));
fs.mkdirSync(base, { recursive: true });

const env = { ...process.env, NO_COLOR: '1' };
// rt's launcher drops NODE_EXTRA_CA_CERTS; without it here too, Node's baseline is rt's.
for (const name of Object.keys(env)) if (name.startsWith('RT_') || name === 'NODE_EXTRA_CA_CERTS') delete env[name];

const which = (name, pathVar = env.PATH) =>
  spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8', env: { ...env, PATH: pathVar } }).stdout.trim() ||
  undefined;
const tools = {
  rg: which('rg'),
  md5sum: which('md5sum'),
  sed: which('sed'),
  git: which('git'),
  python: which('python3'),
  time: fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : which('time'),
};

// ---------------------------------------------------------------------------------------------
// One run of a command, measured.

const OUT = path.join(base, 'out.txt');
const ERR = path.join(base, 'err.txt');
const IN = path.join(base, 'stdin.txt');

/**
 * Runs `cmd` once with stdout to OUT: its wall time, CPU (user+sys) and peak RSS. Through
 * bench/scale/rusage.py (wait4: CPU in microseconds) when python3 is here, else through GNU time
 * (CPU in hundredths), else the wall time alone. `stdin` is text for its standard input.
 */
function measure(cmd, args, { cwd, env: extra = {}, stdin, ok = [0] } = {}) {
  if (stdin !== undefined) fs.writeFileSync(IN, stdin);
  const input = stdin === undefined ? undefined : IN;
  const runEnv = { ...env, ...extra };
  let sample;
  if (tools.python) {
    const spec = { cmd: [cmd, ...args], cwd, stdin: input, stdout: OUT, stderr: ERR, time: tools.time };
    const r = spawnSync(tools.python, [path.join(root, 'bench', 'scale', 'rusage.py'), JSON.stringify(spec)], {
      env: runEnv,
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`rusage.py failed: ${r.stderr}`);
    const m = JSON.parse(r.stdout);
    sample = { wallMs: m.wallMs, cpuMs: m.userMs + m.sysMs, peakKiB: m.peakKiB, status: m.status };
  } else {
    const timed = tools.time ? [tools.time, ['-f', '%e %U %S %M', '-o', `${ERR}.time`, cmd, ...args]] : [cmd, args];
    const t = process.hrtime.bigint();
    const r = spawnSync(timed[0], timed[1], {
      cwd,
      env: runEnv,
      stdio: [input ? fs.openSync(input, 'r') : 'ignore', fs.openSync(OUT, 'w'), fs.openSync(ERR, 'w')],
    });
    sample = { wallMs: Number(process.hrtime.bigint() - t) / 1e6, status: r.status };
    if (tools.time) {
      const [, user, sys, peak] = fs.readFileSync(`${ERR}.time`, 'utf8').trim().split('\n').pop().split(' ');
      Object.assign(sample, { cpuMs: (Number(user) + Number(sys)) * 1000, peakKiB: Number(peak) });
    }
  }
  if (!ok.includes(sample.status)) {
    const why = fs.readFileSync(ERR, 'utf8').trim().split('\n').slice(0, 3).join(' | ');
    throw new Error(`${path.basename(cmd)} ${args.join(' ').slice(0, 80)} exited ${sample.status}: ${why}`);
  }
  return sample;
}

/** Runs a command that is no part of a measure (an open before an edit); it must succeed. Gives its stdout. */
function exec(cmd, args, cwd, extra = {}, input = '') {
  const r = spawnSync(cmd, args, { cwd, input, env: { ...env, ...extra }, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`${path.basename(cmd)} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/**
 * Shows line `at` of `file` with `rt open` (untimed) and gives it as an edit's anchor, NUMBER:LID: a number
 * alone is ambiguous once another line was shown at it.
 */
function shown(dir, file, at) {
  const opened = JSON.parse(exec(RT, ['open', `${file}:${at}`, '--window', '1', '--json'], dir, { RT_ROOT: dir }));
  return `${at}:${opened.lines.find((l) => l.n === at).lid}`;
}

const lineCount = (file) => {
  const text = fs.readFileSync(file, 'latin1');
  return text.length === 0 ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
};

/** Waits until `file` last changed 2.1 s ago or more, so that rt takes its stamp alone for it (settled). */
function settle(file) {
  const st = fs.statSync(file);
  const wait = Math.max(st.mtimeMs, st.ctimeMs) + 2100 - Date.now();
  if (wait > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, wait);
}

// ---------------------------------------------------------------------------------------------
// Alternating runs, statistics and the table.

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Min and median of each measure of the samples (peak in MiB). */
function stats(samples) {
  const of = (key, scale = 1) => {
    const values = samples.map((s) => s[key]).filter((v) => v !== undefined);
    return values.length ? { min: Math.min(...values) * scale, median: median(values) * scale } : undefined;
  };
  return { wall: of('wallMs'), cpu: of('cpuMs'), peakMiB: of('peakKiB', 1 / 1024), runs: samples.length };
}

/**
 * Times side `a` (rt) and side `b` (its peer) alternately, `runs` times each after one warm-up
 * each (none with `warm: false`); `prepare` runs untimed before each run of its side.
 */
function alternate(a, b, { runs = RUNS, warm = true } = {}) {
  const ta = [];
  const tb = [];
  for (let i = warm ? -1 : 0; i < runs; i++) {
    a.prepare?.();
    const sa = a.run(i);
    b.prepare?.();
    const sb = b.run(i);
    if (i >= 0) ta.push(sa), tb.push(sb);
  }
  return { rt: stats(ta), ref: stats(tb) };
}

/** Sums the samples of a sequence of runs taken as one (peak: the highest). */
const together = (samples) => ({
  wallMs: samples.reduce((s, x) => s + x.wallMs, 0),
  cpuMs: samples.some((x) => x.cpuMs === undefined) ? undefined : samples.reduce((s, x) => s + x.cpuMs, 0),
  peakKiB: samples.some((x) => x.peakKiB === undefined) ? undefined : Math.max(...samples.map((x) => x.peakKiB)),
});

const rows = [];
const fmt = (x, digits) => (x === undefined ? '-' : x.toFixed(digits ?? (x >= 100 ? 0 : x >= 10 ? 1 : 2)));
const minMed = (m) => (m ? `${fmt(m.min)}/${fmt(m.median)}` : '-');

/** `value` against `target` ({max or min, text}): PASS, MISS, or 'report' when there is none. */
function verdict(value, target) {
  if (target?.max === undefined && target?.min === undefined) return 'report';
  if (value === undefined || Number.isNaN(value)) return '?';
  return value <= (target.max ?? Infinity) && value >= (target.min ?? -Infinity) ? 'PASS' : 'MISS';
}

const targetText = (target) =>
  target?.text ??
  (target?.max !== undefined ? `≤ ${target.max}` : target?.min !== undefined ? `≥ ${target.min}` : 'report');

/** A row of two sides timed against each other; the ratio is that of the median wall times. */
function timeRow(measure, { rt, ref }, target, note = '') {
  const ratio = rt.wall.median / ref.wall.median;
  const cpuRatio = rt.cpu && ref.cpu ? rt.cpu.median / ref.cpu.median : undefined;
  const v = verdict(ratio, target);
  rows.push({ measure, rt, ref, ratio, cpuRatio, target: targetText(target), verdict: v, note });
  console.log(
    `${measure.padEnd(76)} ${minMed(rt.wall).padStart(13)} ${minMed(ref.wall).padStart(13)} ` +
      `${fmt(ratio).padStart(6)} ` +
      `${minMed(rt.cpu).padStart(13)} ${minMed(ref.cpu).padStart(13)} ${fmt(cpuRatio).padStart(6)} ` +
      `${minMed(rt.peakMiB).padStart(11)} ${minMed(ref.peakMiB).padStart(11)}  ${targetText(target).padEnd(8)} ${v}` +
      `${note ? `  (${note})` : ''}`,
  );
  return ratio;
}

/** A row of one figure (a memory ratio, a count) against its target. */
function valueRow(measure, value, target, note = '') {
  const v = verdict(value, target);
  rows.push({ measure, value, target: targetText(target), verdict: v, note });
  console.log(`${measure.padEnd(76)} ${fmt(value).padStart(13)}  ${targetText(target).padEnd(8)} ${v}  ${note}`);
}

function skip(measure, why) {
  rows.push({ measure, skipped: why });
  console.log(`${measure.padEnd(76)} skipped: ${why}`);
}

/** Runs one part, unless SCALE_ROWS leaves it out; a part that fails is a row saying why. */
function part(name, fn) {
  if (only && !only.test(name)) return;
  const t = Date.now();
  try {
    fn();
  } catch (e) {
    skip(`${name}: failed`, e.message.split('\n')[0]);
  }
  console.error(`scale: ${name} took ${((Date.now() - t) / 1000).toFixed(0)} s`);
  writeResults();
}

/** The peak of a run above Node's own, over `bytes`. */
const overFile = (peakMiB, bytes) => ((peakMiB.median - baselineMiB) * 1048576) / bytes;
const mb = (bytes) => `${(bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0)} MB`;
const count = (n) => n.toLocaleString('en');

// ---------------------------------------------------------------------------------------------

const started = Date.now();
// A run of some parts (SCALE_ROWS) leaves a whole run's file as it was.
const resultName = `scale${small ? '-small' : ''}${only ? '-partial' : ''}.json`;
const resultFile = path.join(root, 'bench', 'results', resultName);
function writeResults() {
  fs.mkdirSync(path.dirname(resultFile), { recursive: true });
  const result = {
    date: new Date(started).toISOString(),
    node: process.version,
    cores: os.cpus().length,
    runs: RUNS,
    runsSlow: RUNS_SLOW,
    scale: small ? 'small' : 'full',
    sizes: SIZES,
    measurer: tools.python ? 'python3 wait4' + (tools.time ? ' + GNU time peak' : '') : (tools.time ?? 'wall only'),
    nodeBaselineMiB: baselineMiB,
    seconds: Math.round((Date.now() - started) / 1000),
    rows,
  };
  fs.writeFileSync(resultFile, `${JSON.stringify(result, null, 2)}\n`);
}

console.log(
  `rt scale benchmark — ${new Date().toISOString()} — node ${process.version}, ${os.cpus().length} cores, ` +
    `${RUNS} alternating runs per side (${RUNS_SLOW} for the slowest) after a warm-up; ` +
    `${small ? 'SCALE=small' : 'full size'}; data in ${base}`,
);
console.log(
  `measured by ${tools.python ? 'wait4 (bench/scale/rusage.py)' : 'GNU time'}` +
    `${tools.time ? ', peak RSS by GNU time' : ''}; ` +
    `times in ms as min/median, peak RSS in MiB as min/median; ratio = median wall rt / median wall peer`,
);

const nodeRuns = Array.from({ length: Math.max(RUNS, 3) }, () => measure(process.execPath, ['-e', '0']));
const baseline = stats(nodeRuns);
const baselineMiB = baseline.peakMiB?.median ?? 0;
console.log(`Node's baseline (node -e 0): ${fmt(baseline.wall.median)} ms wall, peak ${fmt(baselineMiB)} MiB (median)`);
console.log(
  `${'measure'.padEnd(76)} ${'rt wall'.padStart(13)} ${'peer wall'.padStart(13)} ${'ratio'.padStart(6)} ` +
    `${'rt cpu'.padStart(13)} ${'peer cpu'.padStart(13)} ${'cpu'.padStart(6)} ${'rt peak'.padStart(11)} ` +
    `${'peer peak'.padStart(11)}  target   verdict`,
);

/** rt in `dir`, its own root. */
const rtIn =
  (dir) =>
  (args, opts = {}) =>
    measure(RT, args, { cwd: dir, ...opts, env: { RT_ROOT: dir, ...opts.env } });
const dropState = (dir) => () => fs.rmSync(path.join(dir, '.rt'), { recursive: true, force: true });

/** PATH with every folder holding `name` replaced by a folder of links to all its other entries. */
function pathWithout(name) {
  return env.PATH.split(':')
    .map((dir, i) => {
      if (!fs.existsSync(path.join(dir, name))) return dir;
      const shadow = path.join(base, `path-without-${name}`, String(i));
      fs.rmSync(shadow, { recursive: true, force: true });
      fs.mkdirSync(shadow, { recursive: true });
      for (const entry of fs.readdirSync(dir)) {
        if (entry !== name) fs.symlinkSync(path.join(dir, entry), path.join(shadow, entry));
      }
      return shadow;
    })
    .join(':');
}

/**
 * The floor of `rt grep` and `grep-file` (bench/floor/rg.cjs): a Node program that starts ripgrep
 * as rt does and reads all it prints, nothing else. A ratio to rg below this one's is out of reach.
 */
const rgFloor = (literal, target, cwd) => ({
  run: () => measure(process.execPath, [path.join(root, 'bench', 'floor', 'rg.cjs'), literal, target], { cwd }),
});

/** The files under `dir` and the space they take on disk (du's figure) and as data. */
function folderSize(dir) {
  let files = 0;
  let disk = 0;
  let data = 0;
  const walk = (d) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      const st = fs.lstatSync(p);
      disk += st.blocks * 512;
      if (entry.isDirectory()) walk(p);
      else files++, (data += st.size);
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return { files, disk, data };
}

// 1. Many hit files: a tree of 10,000 files, two hits in each, in git and not.
part('tree', () => {
  const trees = makeTrees(base, SIZES.treeFiles);
  const hits = 2 * SIZES.treeFiles;
  for (const [kind, dir] of Object.entries(trees)) {
    const where = `${count(SIZES.treeFiles)} files${kind === 'git' ? ' in git' : ', no git'}`;
    const name = `rt grep --max 1000000 -F ${TREE_TOKEN} (${count(hits)} hits), ${where}`;
    if (!tools.rg) {
      skip(name, 'ripgrep not found');
      continue;
    }
    const rt = rtIn(dir);
    const grep = { run: () => rt(['grep', '--max', '1000000', '-F', TREE_TOKEN]) };
    const rg = { run: () => measure(tools.rg, ['-n', '-F', TREE_TOKEN], { cwd: dir }) };
    const first = alternate({ ...grep, prepare: dropState(dir) }, rg, { runs: RUNS_SLOW });
    timeRow(`${name}, first run (no .rt/) / rg -n -F`, first, { max: 2 });
    const found = lineCount(OUT); // rg's, run last
    const state = folderSize(path.join(dir, '.rt'));
    rt(['grep', '--max', '1000000', '-F', TREE_TOKEN]);
    const printed = lineCount(OUT);
    timeRow(`${name}, warm / rg -n -F`, alternate(grep, rg), { max: 1.5 });
    timeRow(`  the floor: node starting rg as rt does / rg -n -F`, alternate(rgFloor(TREE_TOKEN, '.', dir), rg));
    const checked = printed === hits && found === hits ? '' : `; rt printed ${printed} lines, rg ${found}`;
    valueRow(
      `.rt/ after that first run, ${where}: files in it`,
      state.files,
      { max: 10, text: '≤ 10' },
      `${mb(state.disk)} on disk, ${mb(state.data)} of data${checked}`,
    );
  }
});

// 2. babel's every-hit grep, in a clone of it (rt's state goes in the clone's .rt/).
part('babel', () => {
  const name = 'babel: rt grep --max 1000000 -F return, warm / rg -n -F return';
  const source = process.env.BABEL ?? '/work/repos/babel';
  if (small && !process.env.BABEL) return skip(name, 'SCALE=small (set BABEL to run it)');
  if (!fs.existsSync(path.join(source, '.git'))) return skip(name, `no git repository at ${source}`);
  if (!tools.rg || !tools.git) return skip(name, 'ripgrep or git not found');
  const dir = path.join(base, 'babel');
  const head = (d) => spawnSync(tools.git, ['-C', d, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
  if (!fs.existsSync(dir) || head(dir) !== head(source)) {
    console.error(`scale: cloning ${source}`);
    fs.rmSync(dir, { recursive: true, force: true });
    exec(tools.git, ['clone', '-q', '--local', source, dir], base);
  }
  const rt = rtIn(dir);
  const r = alternate(
    { run: () => rt(['grep', '--max', '1000000', '-F', 'return']) },
    { run: () => measure(tools.rg, ['-n', '-F', 'return'], { cwd: dir }) },
  );
  timeRow(name, r, { max: 2 }, `${count(lineCount(OUT))} lines from rg`);

  // A rename of a widely used identifier across babel: rt replace (one undoable step, each file
  // matched again under its lock, the syntax check on), against ripgrep's --replace piped into
  // each file it lists, and the same bytes as sed -i -E over the same files.
  const [from, to] = ['NodePath', 'NodePathX'];
  const restore = () => exec(tools.git, ['checkout', '-q', '--', '.'], dir);
  const treeDiff = () => spawnSync(tools.git, ['-C', dir, 'diff', '--binary'], { maxBuffer: 1 << 28 }).stdout;
  const each = (command) => `${tools.rg} -l -0 -w -F ${from} . | while IFS= read -r -d '' f; do ${command}; done`;
  const rgReplace = each(`${tools.rg} --passthru -N -w -F -r ${to} ${from} "$f" > "$f.bench" && mv "$f.bench" "$f"`);
  const replaceRow = `babel: rt replace -w -F ${from} ${to} / rg --replace piped into each file`;
  const bash = which('bash');
  if (!bash || !tools.sed) skip(replaceRow, 'bash or sed not found');
  else {
    const replaced = alternate(
      { prepare: restore, run: () => rt(['replace', '-w', '-F', from, to]) },
      { prepare: restore, run: () => measure(bash, ['-c', rgReplace], { cwd: dir }) },
      { runs: RUNS_SLOW },
    );
    restore();
    rt(['replace', '-w', '-F', from, to]);
    const byRt = treeDiff();
    restore();
    exec(
      bash,
      ['-c', `${tools.rg} -l -0 -w -F ${from} . | xargs -0 ${tools.sed} -i -E 's/\\b${from}\\b/${to}/g'`],
      dir,
    );
    const bySed = treeDiff();
    restore();
    const same = byRt.length > 0 && byRt.equals(bySed);
    timeRow(replaceRow, replaced, { max: 2 }, same ? 'the same bytes as sed -i -E' : 'NOT the bytes of sed -i -E');
  }
});

// 3. Big files: 1,000,000 and 10,000,000 lines.
for (const lines of SIZES.bigLines) {
  part(`big ${count(lines)} lines`, () => {
    const f = makeBig(base, lines);
    const { dir } = f;
    const bytes = fs.statSync(path.join(dir, f.big)).size;
    const rt = rtIn(dir);
    const huge = lines === SIZES.bigLines[SIZES.bigLines.length - 1];
    const runs = huge ? RUNS_SLOW : RUNS;
    const at = lines / 2;
    const size = `${count(lines)} lines, ${mb(bytes)}`;
    const bigOpen = () => rt(['open', `${f.big}:${at}`]);

    // First open: no index.
    if (!tools.md5sum) skip(`first rt open, ${size} / md5sum`, 'md5sum not found');
    else {
      const r = alternate(
        { prepare: dropState(dir), run: bigOpen },
        { run: () => measure(tools.md5sum, [f.big], { cwd: dir }) },
        { runs },
      );
      timeRow(`first rt open (no index), ${size} / md5sum`, r, { max: 2 });
      valueRow(`  its peak above Node's baseline / file size`, overFile(r.rt.peakMiB, bytes), { max: 1.2 });
    }

    // A refused edit of a line never shown, no index, against a small open.
    {
      const r = alternate(
        { prepare: dropState(dir), run: () => rt(['edit', f.big, String(at + 7)], { stdin: 'never\n', ok: [3] }) },
        { run: () => rt(['open', f.small]) },
        { runs },
      );
      timeRow(`refused rt edit of a never-shown line, no index, ${size} / rt open of 150 lines`, r, {
        max: 1.5,
        text: '≈ 1 (≤ 1.5)',
      });
    }

    // grep-file with the index saved, against rg; and with ripgrep not on PATH.
    exec(RT, ['open', `${f.big}:${at}`], dir, { RT_ROOT: dir });
    if (!tools.rg) skip(`rt grep-file -F, ${size} / rg -n -F`, 'ripgrep not found');
    else {
      const rg = { run: () => measure(tools.rg, ['-n', '-F', RARE_TOKEN, f.big], { cwd: dir }) };
      const grepFile = (extra) => ({ run: () => rt(['grep-file', '-F', RARE_TOKEN, f.big], { env: extra }) });
      timeRow(`rt grep-file -F (100 hits, index saved), ${size} / rg -n -F`, alternate(grepFile({}), rg, { runs }), {
        max: 2,
      });
      timeRow(
        `  the floor: node starting rg as rt does / rg -n -F`,
        alternate(rgFloor(RARE_TOKEN, f.big, dir), rg, { runs }),
      );
      const noRg = pathWithout('rg');
      if (which('rg', noRg)) skip(`  the same, ripgrep not on PATH / rg -n -F`, 'could not hide rg');
      else timeRow(`  the same, ripgrep not on PATH / rg -n -F`, alternate(grepFile({ PATH: noRg }), rg, { runs }));
    }

    // One edit of a settled file, after an open that shows its line, against sed -i.
    if (!tools.sed) skip(`rt edit of line ${count(at)}, ${size} / sed -i`, 'sed not found');
    else {
      const sedEdit = (i) => measure(tools.sed, ['-i', `${at}s/.*/sed edit ${i}/`, f.sed], { cwd: dir });
      let anchor;
      const r = alternate(
        {
          prepare: () => {
            settle(path.join(dir, f.big));
            anchor = shown(dir, f.big, at);
          },
          run: (i) => rt(['edit', f.big, anchor], { stdin: `rt edit ${i}\n` }),
        },
        { run: sedEdit },
        { runs },
      );
      timeRow(`rt edit of line ${count(at)} (settled, after an open), ${size} / sed -i`, r, {
        max: huge ? 1.2 : 1.3,
      });
      valueRow(`  its peak above Node's baseline / file size`, overFile(r.rt.peakMiB, bytes), { max: 0.3 });

      // Five edits in a row at one line, an open between each and the next, against five sed -i.
      if (!huge) {
        const inRow = alternate(
          {
            prepare: () => (anchor = shown(dir, f.big, at)),
            run: (i) =>
              together(
                Array.from({ length: 5 }, (_, k) => {
                  const s = rt(['edit', f.big, anchor], { stdin: `rt edit ${i}.${k}\n` });
                  anchor = shown(dir, f.big, at);
                  return s;
                }),
              ),
          },
          { run: (i) => together(Array.from({ length: 5 }, (_, k) => sedEdit(`${i}.${k}`))) },
          { runs },
        );
        timeRow(`5 rt edits in a row of line ${count(at)}, an open between, ${size} / 5 sed -i`, inRow, {
          max: 1.3,
        });
        outsideWriter(dir, f.big, at, runs);
      }
    }
  });
}

/**
 * Edits in a row must not trust a file an outside writer changed in the same instant: right after
 * an rt edit of line `at` (and an open showing it), the line is rewritten in place with as many
 * bytes and the modification time put back to the nanosecond; the next open must show the new
 * bytes under a new LID. Gives how many of `runs` tries it did, and the time of that open.
 */
function outsideWriter(dir, file, at, runs) {
  const overwrite = `
import os, sys
p, n, i = sys.argv[1], int(sys.argv[2]), sys.argv[3]
st = os.stat(p)
with open(p, "r+b") as f:
    data = f.read()
    start = 0
    for _ in range(n - 1):
        start = data.index(10, start) + 1  # 10: a newline
    end = data.index(10, start)
    new = ("OUTSIDE " + i).encode().ljust(end - start, b"x")[: end - start]
    f.seek(start)
    f.write(new)
os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))
sys.stdout.write(new.decode())`;
  const name = 'an outside write in place right after an edit (size, mtime kept): next open sees it';
  if (!tools.python) return skip(name, 'python3 not found');
  const opens = [];
  let seen = 0;
  const line = () => JSON.parse(exec(RT, ['open', `${file}:${at}`, '--json'], dir, { RT_ROOT: dir })).lines;
  for (let i = 0; i < runs; i++) {
    exec(
      RT,
      ['edit', file, shown(dir, file, at)],
      dir,
      { RT_ROOT: dir },
      `rt edit before an outside write ${i}
`,
    );
    const before = line().find((l) => l.n === at);
    const text = exec(tools.python, ['-c', overwrite, path.join(dir, file), String(at), String(i)], dir);
    const t = process.hrtime.bigint();
    const after = line().find((l) => l.n === at);
    opens.push(Number(process.hrtime.bigint() - t) / 1e6);
    if (after.text === text && after.lid !== before.lid) seen++;
  }
  valueRow(
    name,
    seen / runs,
    { min: 1, text: 'all' },
    `${seen} of ${runs}; that open ${fmt(median(opens))} ms (median)`,
  );
}

// 4. A 50 MB single line (minified-like JavaScript).
part('long line', () => {
  const f = makeLong(base, SIZES.longBytes);
  const { dir } = f;
  const bytes = fs.statSync(path.join(dir, f.long)).size;
  const rt = rtIn(dir);
  const size = `a ${mb(bytes)} line`;
  const peakRow = (r) => valueRow(`  its peak / the line`, (r.rt.peakMiB.median * 1048576) / bytes, { max: 3 });

  if (!tools.md5sum) skip(`first rt open, ${size} / md5sum`, 'md5sum not found');
  else {
    const r = alternate(
      { prepare: dropState(dir), run: () => rt(['open', f.long]) },
      { run: () => measure(tools.md5sum, [f.long], { cwd: dir }) },
    );
    timeRow(`first rt open (no index), ${size} / md5sum`, r);
    peakRow(r);
  }
  if (!tools.rg) skip(`rt grep-file -F, ${size} / rg -n -F`, 'ripgrep not found');
  else {
    const token = LONG_TOKENS[0].slice(0, -1); // in both spellings the edits swap
    const r = alternate(
      { run: () => rt(['grep-file', '-F', token, f.long]) },
      { run: () => measure(tools.rg, ['-n', '-F', token, f.long], { cwd: dir }) },
    );
    timeRow(`rt grep-file -F, ${size} / rg -n -F`, r, { max: 3 });
    peakRow(r);
  }
  if (!tools.sed) skip(`rt edit, ${size} / sed -i`, 'sed not found');
  else {
    /** The other spelling of the tokens `file` holds: each edit changes the line. */
    const swap = (file) => {
      const text = fs.readFileSync(path.join(dir, file), 'latin1');
      return text.includes(LONG_TOKENS[0]) ? [...LONG_TOKENS] : [...LONG_TOKENS].reverse();
    };
    let stdin;
    let anchor;
    const r = alternate(
      {
        prepare: () => {
          anchor = shown(dir, f.long, 1);
          const [from, to] = swap(f.long);
          stdin = fs.readFileSync(path.join(dir, f.long), 'latin1').replaceAll(from, to);
        },
        run: () => rt(['edit', f.long, anchor], { stdin: Buffer.from(stdin, 'latin1') }),
      },
      {
        run: () => {
          const [from, to] = swap(f.sed);
          return measure(tools.sed, ['-i', `s/${from}/${to}/g`, f.sed], { cwd: dir });
        },
      },
    );
    timeRow(`rt edit of the line (the new line on stdin), ${size} / sed -i s///g`, r);
    peakRow(r);
  }
});

/** A row of the median of `times` (ms a call), with their min and p90. */
function callsRow(measure, times, target) {
  const sorted = [...times].sort((a, b) => a - b);
  valueRow(
    measure,
    median(times),
    target,
    `min ${fmt(sorted[0])} ms, p90 ${fmt(sorted[Math.floor(0.9 * sorted.length)])} ms over ` +
      `${times.length} calls after 10 untimed`,
  );
}

/**
 * The floor of `rt mcp`'s edit on this disk (bench/floor/mcp-edit.cjs): the same client and
 * transport, a server whose edit of line `line` is only the file's own durable write and one
 * fsync'd record of it. `rt mcp`'s edit can be no faster.
 */
async function mcpFloor(serverIn, line) {
  const floor = await serverIn(1, env, SIZES.mcpLines, [path.join(root, 'bench', 'floor', 'mcp-edit.cjs')]);
  try {
    const times = [];
    for (let i = -10; i < SIZES.mcpCalls; i++) {
      const text = `export const floor_${i + 10} = ${i};\n`;
      const t0 = process.hrtime.bigint();
      const r = await floor.client.callTool({ name: 'edit', arguments: { path: 'f0.ts', n: line, text } });
      if (r.isError) throw new Error(`the floor's edit: ${r.content.map((c) => c.text).join('')}`);
      if (i >= 0) times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    callsRow(`  the floor: the file's durable write and one fsync'd record, same SDK, median ms a call`, times);
  } finally {
    await floor.close();
  }
}

// 5. rt mcp: one-line edits of a 1,000-line file through one stdio session.
if (!only || only.test('mcp')) {
  const t = Date.now();
  try {
    const { serverIn } = await import('./mcp.mjs');
    const server = await serverIn(1, env, SIZES.mcpLines);
    try {
      const call = async (name, args) => {
        const r = await server.client.callTool({ name, arguments: args });
        if (r.isError) throw new Error(`${name}: ${r.content.map((c) => c.text).join('')}`);
        return r;
      };
      const line = SIZES.mcpLines / 2;
      const lidOf = (r) => r.structuredContent.window.lines.find((l) => l.n === line).lid;
      let lid = (await call('open', { target: `f0.ts:${line}`, window: 1 })).structuredContent.lines.find(
        (l) => l.n === line,
      ).lid;
      // The target is on the write path (no_check: no syntax check, whose cost grows with a
      // TypeScript file's length); the default, checked, is reported after it. The two kinds run
      // in blocks: alternated one by one, each call paid for some of the other kind's work.
      for (const { label, extra, target } of [
        { label: 'no_check', extra: { no_check: true }, target: { max: 2, text: '≤ 2 ms' } },
        { label: 'checked, the default', extra: {}, target: undefined },
      ]) {
        const times = [];
        for (let i = -10; i < SIZES.mcpCalls; i++) {
          const text = `export const e${label.length}_${i + 10} = ${i};\n`;
          const t0 = process.hrtime.bigint();
          const r = await call('edit', { path: 'f0.ts', from: lid, text, ...extra });
          if (i >= 0) times.push(Number(process.hrtime.bigint() - t0) / 1e6);
          lid = lidOf(r);
        }
        callsRow(
          `rt mcp edit of one line of a ${count(SIZES.mcpLines)}-line .ts file (${label}), median ms a call`,
          times,
          target,
        );
        if (label === 'no_check') await mcpFloor(serverIn, line);
      }
    } finally {
      await server.close();
    }
  } catch (e) {
    skip('mcp: failed', e.message.split('\n')[0]);
  }
  console.error(`scale: mcp took ${((Date.now() - t) / 1000).toFixed(0)} s`);
}

writeResults();
const misses = rows.filter((r) => r.verdict === 'MISS').length;
console.log(
  `\n${rows.filter((r) => r.verdict === 'PASS').length} PASS, ${misses} MISS, ` +
    `${rows.filter((r) => r.skipped).length} skipped; ${((Date.now() - started) / 60000).toFixed(1)} min; ` +
    `written: ${path.relative(process.cwd(), resultFile)}`,
);
