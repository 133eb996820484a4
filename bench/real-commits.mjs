// Issue 21's measures on real commits (`node bench/real-commits.mjs GIT_DIR... [--commits N]`,
// after `npm run build`; GIT_DIR is a clone or a bare mirror). For the last N commits (not
// merges) of each repository that change a file of a language rt checks in two hunks or more:
//
//   1. The syntax check on the way: each file is taken from its content before the commit to its
//      content after, one hunk at a time (as an agent editing top to bottom would), each step
//      written by `rt create --force` over the step before; a step refused (exit 5) is friction.
//      The whole change as one write (what `rt apply` of the commit does) should never be
//      refused: a commit that compiled has no new syntax error (a refusal there is the
//      grammar's, and is printed).
//   2. --indent auto: each hunk that adds lines is written alone into the file before the
//      commit, its lines stripped of the indentation they have in common, with --indent auto; it
//      counts as exact when the file then holds those lines as the commit wrote them.
//
// Prints the counts per repository and in all; writes them to bench/results/real-commits.json.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RT = path.join(root, 'bin', 'rt.cjs');
const args = process.argv.slice(2);
const at = args.indexOf('--commits');
const COMMITS = at === -1 ? 40 : Number(args.splice(at, 2)[1]);
const repos = args;
if (repos.length === 0) {
  console.error('usage: node bench/real-commits.mjs GIT_DIR... [--commits N]');
  process.exit(2);
}
const KNOWN = /\.(?:[cm]?[jt]s|jsx|tsx|json|py|go|rs|java|c|h|cc|cpp|hpp|cs|rb|php|sh|css|ya?ml)$/;

const git = (dir, ...a) => spawnSync('git', ['--git-dir', dir, ...a], { encoding: 'buffer', maxBuffer: 1 << 28 });
const rt = (cwd, a, input) =>
  spawnSync(process.execPath, [RT, ...a], {
    cwd,
    input,
    env: { ...process.env, RT_ROOT: cwd, NO_COLOR: '1' },
    maxBuffer: 1 << 28,
  });

/** Lines of `text` with their endings (the last may lack one). */
const linesOf = (text) => text.match(/[^\n]*\n|[^\n]+$/g) ?? [];

/** The hunks of a zero-context diff: old lines [a, a+b) become the new lines given. */
function hunksOf(diff) {
  const out = [];
  let hunk;
  for (const line of linesOf(diff)) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (m) {
      const b = m[2] === undefined ? 1 : Number(m[2]);
      hunk = { start: b === 0 ? Number(m[1]) : Number(m[1]) - 1, count: b, added: [] };
      out.push(hunk);
    } else if (hunk && line.startsWith('+')) hunk.added.push(line.slice(1));
    else if (hunk && line.startsWith('\\')) hunk.noNewline = true;
  }
  return out;
}

/** `old` (lines) with `hunks` applied (positions in `old`). */
function apply(old, hunks) {
  const out = [];
  let i = 0;
  for (const h of hunks) {
    out.push(...old.slice(i, h.start));
    out.push(...h.added);
    i = h.start + h.count;
  }
  out.push(...old.slice(i));
  return out.join('');
}

const totals = {
  commits: 0,
  files: 0,
  steps: 0,
  stepsRefused: 0,
  whole: 0,
  wholeRefused: 0,
  indentHunks: 0,
  indentExact: 0,
};
const perRepo = [];
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-real-commits-'));
for (const repo of repos) {
  const counts = {
    repo: ['repo', '.git'].includes(path.basename(repo)) ? path.basename(path.dirname(repo)) : path.basename(repo),
    commits: 0,
    files: 0,
    steps: 0,
    stepsRefused: 0,
    whole: 0,
    wholeRefused: 0,
    indentHunks: 0,
    indentExact: 0,
    examples: [],
  };
  const log = git(repo, 'log', '--no-merges', '--format=%H', '-n', String(COMMITS * 10), 'HEAD')
    .stdout.toString()
    .split('\n')
    .filter(Boolean);
  for (const commit of log) {
    if (counts.commits >= COMMITS) break;
    const files = git(repo, 'diff', '--name-only', '--diff-filter=M', `${commit}^`, commit)
      .stdout.toString()
      .split('\n')
      .filter((f) => KNOWN.test(f));
    let used = false;
    for (const file of files) {
      const diff = git(repo, 'diff', '-U0', '--no-color', `${commit}^`, commit, '--', file).stdout.toString('utf8');
      const hunks = hunksOf(diff);
      if (hunks.length < 2 || hunks.some((h) => h.noNewline)) continue;
      const before = git(repo, 'show', `${commit}^:${file}`).stdout;
      const after = git(repo, 'show', `${commit}:${file}`).stdout;
      if (before.length > 2_000_000 || before.includes(0) || before.includes(13)) continue;
      used = true;
      counts.files++;
      const dir = fs.mkdtempSync(path.join(work, 'c-'));
      const name = path.join(dir, path.basename(file));
      const old = linesOf(before.toString('utf8'));
      // 1. Hunk by hunk, then whole.
      let state = before;
      for (let k = 1; k < hunks.length; k++) {
        const next = Buffer.from(apply(old, hunks.slice(0, k)), 'utf8');
        fs.writeFileSync(name, state);
        const r = rt(dir, ['create', '--force', path.basename(file)], next);
        counts.steps++;
        if (r.status === 5) {
          counts.stepsRefused++;
          if (counts.examples.length < 3)
            counts.examples.push(`${commit.slice(0, 10)} ${file} after hunk ${k} of ${hunks.length}`);
        } else if (r.status !== 0) throw new Error(`rt create: ${r.stderr}`);
        state = next;
      }
      fs.writeFileSync(name, before);
      const whole = rt(dir, ['create', '--force', path.basename(file)], after);
      counts.whole++;
      if (whole.status === 5) {
        counts.wholeRefused++;
        counts.examples.push(
          `whole ${commit.slice(0, 10)} ${file}: ${whole.stderr.toString().split('\n').slice(0, 3).join(' / ')}`,
        );
      }
      // 2. --indent auto, each hunk adding lines written alone with its indentation stripped.
      for (const h of hunks) {
        if (h.added.length === 0 || h.added.every((l) => l.trim() === '')) continue;
        const body = h.added.map((l) => l.replace(/\r?\n$/, ''));
        const common = Math.min(...body.filter((l) => l.trim()).map((l) => /^[ \t]*/.exec(l)[0].length));
        const stripped = body.map((l) => (l.trim() ? l.slice(common) : l));
        fs.writeFileSync(name, before);
        const a =
          h.count > 0
            ? ['edit', path.basename(file), String(h.start + 1), String(h.start + h.count)]
            : h.start < old.length
              ? ['insert', path.basename(file), String(h.start + 1)]
              : ['insert', path.basename(file), '$'];
        const r = spawnSync(process.execPath, [RT, ...a, '--indent', 'auto', '--force', '--no-check'], {
          cwd: dir,
          input: `${stripped.join('\n')}\n`,
          env: { ...process.env, RT_ROOT: dir, RT_STATE: 'off', NO_COLOR: '1' },
        });
        if (r.status !== 0) continue;
        counts.indentHunks++;
        const got = linesOf(fs.readFileSync(name, 'utf8'))
          .slice(h.start, h.start + body.length)
          .map((l) => l.replace(/\r?\n$/, ''));
        if (got.join('\n') === body.join('\n')) counts.indentExact++;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    }
    if (used) counts.commits++;
  }
  perRepo.push(counts);
  for (const k of Object.keys(totals)) totals[k] += counts[k];
  console.log(
    `${counts.repo}: ${counts.commits} commits, ${counts.files} files; hunk by hunk ${counts.stepsRefused} ` +
      `of ${counts.steps} states refused; whole ${counts.wholeRefused} of ${counts.whole} refused; --indent ` +
      `auto exact ${counts.indentExact} ` +
      `of ${counts.indentHunks}${counts.examples.length ? `; e.g. ${counts.examples.join('; ')}` : ''}`,
  );
}
fs.rmSync(work, { recursive: true, force: true });
console.log(
  `all: ${totals.commits} commits, ${totals.files} files; hunk by hunk ${totals.stepsRefused} ` +
    `of ${totals.steps} states refused ` +
    `(${((100 * totals.stepsRefused) / Math.max(1, totals.steps)).toFixed(1)}%); whole ${totals.wholeRefused} ` +
    `of ${totals.whole} refused; --indent auto exact ${totals.indentExact} of ${totals.indentHunks} ` +
    `(${((100 * totals.indentExact) / Math.max(1, totals.indentHunks)).toFixed(1)}%)`,
);
const out = path.join(root, 'bench', 'results');
fs.mkdirSync(out, { recursive: true });
fs.writeFileSync(
  path.join(out, 'real-commits.json'),
  `${JSON.stringify({ date: new Date().toISOString(), commitsPerRepo: COMMITS, totals, repos: perRepo }, null, 2)}\n`,
);
