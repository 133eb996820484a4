// Costs of the syntax check, on the built parsers (dist/lang.cjs, dist/grammars/):
// `node bench/syntax.mjs` after `npm run build`. Prints load and parse times (medians) and the
// memory a parse takes, for TypeScript files of 1,000 to 100,000 lines made of rt's own
// sources (whole-file parses, as `rt outline` does; the check parses a window of long files),
// and the time a cancelled parse of a 10 MB one-line bundle gives up after. Times are CPU.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const require = createRequire(import.meta.url);

const started = performance.now();
const { createEngine } = require(path.join(dist, 'lang.cjs'));
const engine = createEngine((file) => fs.readFileSync(path.join(dist, 'grammars', file)));
const required = performance.now() - started;
await engine.prepare('typescript');
const prepared = performance.now() - started;
console.log(
  `load: require lang.cjs ${required.toFixed(1)} ms, + web-tree-sitter and the TypeScript ` +
    `grammar ${(prepared - required).toFixed(1)} ms`,
);
for (const language of [
  'javascript',
  'python',
  'go',
  'rust',
  'java',
  'c',
  'cpp',
  'csharp',
  'ruby',
  'php',
  'bash',
  'css',
  'yaml',
]) {
  const t = performance.now();
  await engine.prepare(language);
  process.stdout.write(`${language} ${(performance.now() - t).toFixed(1)} ms; `);
}
console.log('(grammar loads)');

/** rt's own TypeScript sources, repeated to `lines` lines. */
function typescript(lines) {
  const files = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name.endsWith('.ts')) files.push(fs.readFileSync(p, 'utf8'));
    }
  };
  walk(path.join(root, 'src'));
  const all = files.join('\n').split('\n');
  const out = [];
  while (out.length < lines) out.push(...all.slice(0, lines - out.length));
  return `${out.join('\n')}\n`;
}

/** Median CPU time (user + system, all threads) of `runs` calls: wall time is noise on a shared machine. */
function median(runs, f) {
  const times = [];
  let result;
  for (let i = 0; i < runs; i++) {
    const t = process.cpuUsage();
    result = f();
    const used = process.cpuUsage(t);
    times.push((used.user + used.system) / 1000);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(runs / 2)], result };
}

const memory = () => process.memoryUsage().rss / 1024 / 1024;
for (const lines of [1_000, 10_000, 100_000]) {
  const text = typescript(lines);
  const rss = memory();
  const { ms, result } = median(lines >= 100_000 ? 3 : 7, () => engine.problems('typescript', text));
  const mb = Buffer.byteLength(text) / 1024 / 1024;
  console.log(
    `typescript ${lines} lines (${mb.toFixed(1)} MB): parse ${ms.toFixed(1)} ms CPU ` +
      `(${(ms / mb).toFixed(0)} ms/MB), errors ${result.length}, rss +${(memory() - rss).toFixed(0)} MB ` +
      `(now ${memory().toFixed(0)} MB)`,
  );
}

const bundle = `var a=${'[1,2,{b:"c"}],'.repeat(800_000)}0;`;
{
  const budget = median(3, () => engine.problems('javascript', bundle, 100));
  console.log(
    `javascript one line of ${(bundle.length / 1024 / 1024).toFixed(1)} MB, 100 ms budget: gave up ` +
      `after ${budget.ms.toFixed(1)} ms CPU (${budget.result === undefined ? 'skipped' : 'finished'})`,
  );
}
