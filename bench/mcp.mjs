// rt mcp in the benchmark suite: a client (the MCP SDK's own, over stdio) makes
// 1,000 `open` calls of a 150-line file and 1,000 one-line edits, each edit by the LID the last
// one printed; per call, median and p99, against a `rt open` / `rt edit` process per call. Then
// the server's memory (its RSS, from /proc) over 10,000 opens of 100 files: it must level off.
// Run by bench/run.mjs, or alone: `node bench/mcp.mjs` (after `npm run build`).

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const RT = path.join(here, '..', 'bin', 'rt.cjs');

const quantile = (values, q) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const median = (values) => quantile(values, 0.5);

/** The resident memory of a process, in MiB (Linux). */
function rssMiB(pid) {
  try {
    const kib = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kib === undefined ? undefined : Number(kib) / 1024;
  } catch {
    return undefined;
  }
}

/**
 * A folder of its own (its own root), with `files` files f0.ts … of `lines` lines, and a client
 * of rt mcp started there (or of another stdio server: `args` to Node, e.g. a floor/ program).
 */
export async function serverIn(files, env, lines = 150, args = [RT, 'mcp']) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt-bench-mcp-')));
  fs.mkdirSync(path.join(dir, '.rt'));
  const text = Array.from(
    { length: lines },
    (_, i) => `export const value${i} = ${i}; // line ${i + 1} of a small file\n`,
  ).join('');
  for (let i = 0; i < files; i++) fs.writeFileSync(path.join(dir, `f${i}.ts`), text);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    cwd: dir,
    env: { ...env, RT_ROOT: dir },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'rt-bench', version: '0' });
  await client.connect(transport);
  return {
    dir,
    client,
    pid: transport.pid,
    close: async () => {
      await client.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function timed(fn) {
  const t = process.hrtime.bigint();
  const r = await fn();
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, r };
}

function processMs(args, cwd, env, input = '') {
  const t = process.hrtime.bigint();
  const r = spawnSync(RT, args, { cwd, env: { ...env, RT_ROOT: cwd }, input });
  if (r.status !== 0) throw new Error(`rt ${args.join(' ')}: ${r.stderr}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
}

/**
 * Runs the measures; `row(measure, {a, b, ratio}, target, goal, note)` prints one (bench/run.mjs's).
 * `calls` scales the counts down for a quick run.
 */
export async function benchMcp({ row, env, runs = 11, calls = 1000, memoryCalls = 10_000 }) {
  const { dir, client, close } = await serverIn(1, env);
  try {
    const call = async (name, args) => {
      const r = await client.callTool({ name, arguments: args });
      if (r.isError) throw new Error(`${name}: ${r.content.map((c) => c.text).join('')}`);
      return r;
    };
    // Opens: one warm-up, then `calls` timed.
    await call('open', { target: 'f0.ts' });
    const opens = [];
    for (let i = 0; i < calls; i++) opens.push((await timed(() => call('open', { target: 'f0.ts' }))).ms);
    const perProcess = [];
    for (let i = 0; i < runs; i++) perProcess.push(processMs(['open', 'f0.ts'], dir, env));
    const openMedian = median(opens);
    row(
      'rt mcp open (150 lines), median per call / rt open process',
      { a: openMedian, b: median(perProcess), ratio: openMedian / median(perProcess) },
      '≤ 2 ms, ≤ 1/20',
      '≤ 0.5 ms',
      `p99 ${quantile(opens, 0.99).toFixed(2)} ms over ${calls} ` +
        `calls; ${(median(perProcess) / openMedian).toFixed(0)}× faster`,
    );

    // Edits: line 75, each by the LID the last edit printed for it.
    let lid = (await call('open', { target: 'f0.ts:75', window: 1 })).structuredContent.lines.find(
      (l) => l.n === 75,
    ).lid;
    const edits = [];
    for (let i = 0; i < calls; i++) {
      const { ms, r } = await timed(() =>
        call('edit', { path: 'f0.ts', from: lid, text: `export const edited = ${i};\n` }),
      );
      edits.push(ms);
      lid = r.structuredContent.window.lines.find((l) => l.n === 75).lid;
    }
    const cliEdits = [];
    for (let i = 0; i < runs; i++) {
      const shown = JSON.parse(
        spawnSync(RT, ['open', 'f0.ts:75', '--window', '1', '--json'], { cwd: dir, env: { ...env, RT_ROOT: dir } })
          .stdout,
      );
      cliEdits.push(
        processMs(['edit', 'f0.ts', shown.lines.find((l) => l.n === 75).lid], dir, env, `export const cli = ${i};\n`),
      );
    }
    const editMedian = median(edits);
    row(
      'rt mcp edit (one line), median per call / rt edit process',
      { a: editMedian, b: median(cliEdits), ratio: editMedian / median(cliEdits) },
      '≤ 2 ms',
      '',
      `p99 ${quantile(edits, 0.99).toFixed(2)} ms over ${calls} ` +
        `edits; ${(median(cliEdits) / editMedian).toFixed(0)}× faster`,
    );
    // The same edits without the syntax check (no_check): what the check of a 150-line
    // TypeScript file costs a server that keeps the grammar loaded, alternating with checked ones.
    lid = (await call('open', { target: 'f0.ts:75', window: 1 })).structuredContent.lines.find((l) => l.n === 75).lid;
    const checked = [];
    const unchecked = [];
    for (let i = 0; i < calls; i++) {
      for (const [list, extra, name] of [
        [checked, {}, 'checked'],
        [unchecked, { no_check: true }, 'unchecked'],
      ]) {
        const { ms, r } = await timed(() =>
          call('edit', { path: 'f0.ts', from: lid, text: `export const ${name} = ${i};\n`, ...extra }),
        );
        list.push(ms);
        lid = r.structuredContent.window.lines.find((l) => l.n === 75).lid;
      }
    }
    // The median of each pair's difference: steadier than the difference of the medians.
    const added = median(checked.map((ms, i) => ms - unchecked[i]));
    row(
      'rt mcp edit, checked / unchecked (150-line TypeScript)',
      { a: median(checked), b: median(unchecked), ratio: median(checked) / median(unchecked) },
      '+20 ms',
      '+5 ms',
      `the check adds ${added.toFixed(2)} ms a call (median of the pairs' differences)`,
    );
  } finally {
    await close();
  }

  // Memory: opens of 100 files in turn; the server's RSS as the calls go on.
  const server = await serverIn(100, env);
  try {
    const marks = [];
    const at = new Set([100, memoryCalls / 10, memoryCalls / 2, memoryCalls]);
    for (let i = 1; i <= memoryCalls; i++) {
      const r = await server.client.callTool({
        name: 'open',
        arguments: { target: `f${i % 100}.ts:${1 + (i % 150)}` },
      });
      if (r.isError) throw new Error(r.content[0].text);
      if (at.has(i)) marks.push([i, rssMiB(server.pid)]);
    }
    const [first, , , last] = marks;
    const fmt = marks
      .map(([n, mib]) => `${n.toLocaleString('en')}: ${mib === undefined ? '?' : mib.toFixed(0)} MiB`)
      .join(', ');
    row(
      `rt mcp server RSS after ${memoryCalls.toLocaleString('en')} opens of 100 files, MiB / after 100`,
      { a: last?.[1], b: first?.[1], ratio: last?.[1] !== undefined && first?.[1] ? last[1] / first[1] : undefined },
      'bounded',
      '',
      fmt,
    );
  } finally {
    await server.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const fmt = (x) => (x === undefined ? '-' : x.toFixed(x >= 100 ? 0 : 2));
  const quick = process.argv.includes('--quick');
  const env = { ...process.env, NO_COLOR: '1' };
  delete env.RT_CHECK; // the checked row would be unchecked
  await benchMcp({
    env,
    calls: quick ? 200 : 1000,
    memoryCalls: quick ? 2000 : 10_000,
    row: (measure, r, target, _goal, note) =>
      console.log(
        `${measure.padEnd(58)} ${fmt(r.a).padStart(8)} ${fmt(r.b).padStart(8)} ${fmt(r.ratio).padStart(7)} ` +
          ` ${target ?? ''}${note ? `  (${note})` : ''}`,
      ),
  });
}
