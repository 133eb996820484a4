// The syntax check on real Python: one-line insertions into the files of real repositories,
// each judged by CPython's compile(), each put to the built rt (`rt insert --dry-run`), counting
// the breaks rt let through and the valid insertions it refused. `npm run build` first, then
//   node bench/python-check.mjs [--cases N] [--seed S] [--without-python3] [REPO...]
// (repositories default to /work/repos/{aider,flask,requests}; python3 must be on PATH to judge;
// --without-python3 hides it from rt, to measure the check's fallback).
//
// Kinds of insertion, N/6 each: a line copied from elsewhere in the file at the indentation of
// the place (valid or not, compile() says); that line with a random character deleted, inserted
// or swapped (mostly broken); and the four indentation errors made on purpose: a dedent to no
// outer level, a block header with no block, an unexpected indent, a tab where spaces opened the
// level (compile() still judges each).

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rt = path.join(root, 'dist', 'rt.cjs');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  if (at === -1) return fallback;
  const [, value] = args.splice(at, 2);
  return value;
};
const cases = Number(option('--cases', '600'));
const seedText = option('--seed', '31');
let seed = Number(seedText);
const withoutPython = args.includes('--without-python3');
const repos = args.filter((a) => !a.startsWith('--'));
if (repos.length === 0) repos.push(...['aider', 'flask', 'requests'].map((name) => `/work/repos/${name}`));

/** A seeded generator (mulberry32), so that a run can be repeated. */
function random() {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (n) => Math.floor(random() * n);

/** compile() of each text: null when it compiles, else its error's message. */
function compileAll(texts) {
  const script = `
import sys, json, warnings
warnings.simplefilter('ignore')
out = []
for src in json.load(sys.stdin):
    try:
        compile(src, 'f.py', 'exec', dont_inherit=True); out.append(None)
    except (SyntaxError, ValueError) as e:
        out.append(type(e).__name__ + ': ' + str(e))
print(json.dumps(out))`;
  const run = spawnSync('python3', ['-I', '-S', '-c', script], {
    input: JSON.stringify(texts),
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  if (run.status !== 0) throw new Error(`python3 did not judge: ${run.stderr || run.error}`);
  return JSON.parse(run.stdout);
}

/** The .py files under `dir`, hidden folders left out. */
function pythonFiles(dir, rel = '') {
  const out = [];
  for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const child = path.join(rel, entry.name);
    if (entry.isDirectory()) out.push(...pythonFiles(dir, child));
    else if (entry.isFile() && entry.name.endsWith('.py')) out.push(child);
  }
  return out.sort();
}

// The files: the .py files of each repository that compile as they are.
const files = [];
for (const repo of repos) {
  for (const rel of pythonFiles(repo)) {
    const text = fs.readFileSync(path.join(repo, rel), 'utf8');
    if (text.length < 200_000 && text.split('\n').length > 10)
      files.push({ name: `${path.basename(repo)}/${rel}`, text });
  }
}
const compiles = compileAll(files.map((f) => f.text));
const usable = files.filter((_, i) => compiles[i] === null);
console.log(`${files.length} files, ${usable.length} compile`);

const indentOf = (line) => /^[ \t]*/.exec(line)[0];
const code = (line) => line.trim() !== '' && !line.trim().startsWith('#');
/** The indentation a line inserted before line `at` takes: that of the next line of code. */
function indentAt(lines, at) {
  for (let i = at; i < lines.length; i++) if (code(lines[i])) return indentOf(lines[i]);
  return '';
}
const PUNCTUATION = '()[]{}:;,.=+-*/"\'#@\\';
const mutate = (s) => {
  const at = pick(s.length + 1);
  const how = pick(3);
  if (how === 0) return s.slice(0, at) + s.slice(at + 1);
  if (how === 1) return s.slice(0, at) + PUNCTUATION[pick(PUNCTUATION.length)] + s.slice(at);
  return s.slice(0, at) + s.slice(at + 1, at + 2) + s.slice(at, at + 1) + s.slice(at + 2);
};

const KINDS = ['copied line', 'random broken line', 'unindent', 'expected block', 'unexpected indent', 'tab'];

/**
 * One insertion of `kind` into `file`: the line number it goes before and its text, or undefined when the file has no
 * place for it.
 */
function insertion(kind, lines) {
  // Before any line of the file, or at its end (the last element is the empty rest after a final newline).
  const at = pick(lines.length);
  const indent = indentAt(lines, at);
  const donor = lines.filter(code)[pick(lines.filter(code).length)] ?? 'x = 1';
  const body = donor.trim();
  switch (kind) {
    case 'copied line':
      return { at, text: indent + body };
    case 'random broken line':
      return { at, text: indent + mutate(body) };
    case 'unindent':
      // Between two levels: fewer spaces than the place, more than the level outside it.
      return indent.length >= 4 && !indent.includes('\t') ? { at, text: `${indent.slice(2)}${body}` } : undefined;
    case 'expected block':
      return { at, text: `${indent}if ${['x', 'ready', 'not done'][pick(3)]}:` };
    case 'unexpected indent':
      return { at, text: `${indent}    ${body}` };
    case 'tab':
      return indent.length >= 4 && !indent.includes('\t')
        ? { at, text: `${'\t'.repeat(Math.max(1, indent.length / 8))}${body}` }
        : undefined;
    default:
      throw new Error(kind);
  }
}

const made = [];
while (made.length < cases) {
  const kind = KINDS[made.length % KINDS.length];
  const file = usable[pick(usable.length)];
  const lines = file.text.split('\n');
  const change = insertion(kind, lines);
  if (!change) continue;
  const after = [...lines.slice(0, change.at), change.text, ...lines.slice(change.at)].join('\n');
  made.push({ kind, file, ...change, after });
}
const verdicts = compileAll(made.map((c) => c.after));

// rt on each: the old file in a scratch repository, the line inserted with --dry-run.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-python-check-'));
spawnSync('git', ['init', '-q', dir]);
const target = path.join(dir, 'f.py');
const env = { ...process.env };
if (withoutPython) {
  // A PATH of the folders the check needs, python3 left out (sh and cat for the other checks).
  const tools = path.join(dir, '.tools');
  fs.mkdirSync(tools);
  for (const program of ['sh', 'bash', 'cat', 'git', 'node']) {
    const found = spawnSync('sh', ['-c', `command -v ${program}`], { encoding: 'utf8' }).stdout.trim();
    if (found) fs.symlinkSync(found, path.join(tools, program));
  }
  env.PATH = tools;
}
const tally = new Map();
const count = (key) => tally.set(key, (tally.get(key) ?? 0) + 1);
const wrong = [];
let current;
made.forEach((c, i) => {
  if (current !== c.file) {
    fs.writeFileSync(target, c.file.text);
    current = c.file;
  }
  const lineCount = c.file.text.endsWith('\n') ? c.file.text.split('\n').length - 1 : c.file.text.split('\n').length;
  const anchor = c.at >= lineCount ? '$' : String(c.at + 1);
  const run = spawnSync(process.execPath, [rt, 'insert', 'f.py', anchor, '--force', '--dry-run'], {
    cwd: dir,
    input: `${c.text}\n`,
    encoding: 'utf8',
    env,
  });
  const broken = verdicts[i] !== null;
  const refused = run.status === 5;
  if (run.status !== 0 && run.status !== 5) count(`exit ${run.status}`);
  count(`${c.kind}: ${broken ? 'broken' : 'valid'}`);
  if (broken && !refused) {
    count('missed breaks');
    wrong.push(`missed (${c.kind}) ${c.file.name}:${c.at + 1}: ${JSON.stringify(c.text)} — ${verdicts[i]}`);
  }
  if (!broken && refused) {
    count('false refusals');
    wrong.push(
      `refused (${c.kind}) ${c.file.name}:${c.at + 1}: ${JSON.stringify(c.text)} ` +
        `— ${run.stderr.split('\n').slice(1, 3).join(' ')}`,
    );
  }
  count(broken ? 'broken' : 'valid');
});
fs.rmSync(dir, { recursive: true, force: true });

console.log(
  `python-check: ${made.length} one-line insertions into ${new Set(made.map((c) => c.file)).size} files ` +
    `of ${repos.map((r) => path.basename(r)).join(', ')} (seed ${seedText}), ` +
    `python3 ${withoutPython ? 'hidden from rt' : 'on PATH'}`,
);
console.log(`judged by compile(): ${tally.get('broken') ?? 0} broken, ${tally.get('valid') ?? 0} valid`);
for (const kind of KINDS)
  console.log(`  ${kind}: ${tally.get(`${kind}: broken`) ?? 0} broken, ${tally.get(`${kind}: valid`) ?? 0} valid`);
console.log(`missed breaks: ${tally.get('missed breaks') ?? 0}`);
console.log(`false refusals: ${tally.get('false refusals') ?? 0}`);
for (const [key, n] of tally) if (key.startsWith('exit')) console.log(`${key}: ${n}`);
for (const line of wrong) console.log(`  ${line}`);
