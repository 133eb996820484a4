// rt mcp holds a call's report until the call has ended, so a write's indexes land at its End with the
// view of the lines its report shows: one segment of the pack a call (see The flow of a write). A
// server killed after the file is renamed into place, before that segment lands, leaves the file
// whole, its unchanged lines with their LIDs, and the step recorded: undo takes the edit back.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cleanEnv, cleanup, numbered, repoWith, RT_BIN, run } from './harness.js';

afterAll(cleanup);
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
});

type Result = { content: Array<{ type: string; text: string }>; isError?: boolean };
const shown = (text: string): string[] => text.match(/^\d+:[0-9a-z]{4}\|.*$/gm) ?? [];
const lidAt = (lines: readonly string[], n: number) => lines[n - 1]!.split(':')[1]!.slice(0, 4);

async function server(dir: string) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [RT_BIN, 'mcp'],
    cwd: dir,
    env: cleanEnv({ RT_SESSION: 'agent' }) as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'rt-one-segment', version: '0' });
  await client.connect(transport);
  clients.push(client);
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as Result;
  return { call, pid: transport.pid! };
}

/** The highest sequence number of the pack's segments. */
const lastSegment = (dir: string) =>
  Math.max(
    ...fs
      .readdirSync(path.join(dir, '.rt', 'pack'))
      .flatMap((n) => /^pack-(\d+)\.jsonl$/.exec(n)?.[1] ?? [])
      .map(Number),
  );

describe('rt mcp: a write lands its state as one segment a call', () => {
  it('each edit adds one segment (its index and its view), and the CLI reads the LIDs it printed', async () => {
    const dir = repoWith({ 'a.txt': numbered(30) });
    const { call } = await server(dir);
    let lines = shown((await call('open', { target: 'a.txt', window: 100 })).content[0]!.text);
    for (let k = 1; k <= 3; k++) {
      const before = lastSegment(dir);
      const r = await call('edit', { path: 'a.txt', from: `${10 + k}:${lidAt(lines, 10 + k)}`, text: `edit ${k}\n` });
      expect(r.isError, r.content[0]?.text).toBeFalsy();
      expect(lastSegment(dir)).toBe(before + 1);
      const printed = shown(r.content[0]!.text);
      lines = shown(run(['open', 'a.txt', '--window', '100'], dir, { env: { RT_SESSION: 'agent' } }).stdout);
      expect(printed.filter((l) => !lines.includes(l))).toEqual([]);
    }
    // The lines its report showed count as shown: the next edit by their LIDs, from the CLI, is taken.
    const lid = lidAt(lines, 12);
    expect(run(['edit', 'a.txt', `12:${lid}`], dir, { env: { RT_SESSION: 'agent' }, input: 'cli\n' }).status).toBe(0);
  }, 60_000);

  it('killed after the rename, before its state lands: the file whole, its LIDs kept, undo takes it back', async () => {
    const dir = repoWith({ 'a.txt': numbered(20) });
    const file = path.join(dir, 'a.txt');
    const { call, pid } = await server(dir);
    const before = shown((await call('open', { target: 'a.txt', window: 100 })).content[0]!.text);
    // The pack's lock held by a live process: the segment waits for it at End, with the file already written.
    const sleeper = spawn('sleep', ['60']);
    const lock = path.join(dir, '.rt', 'pack', 'lock');
    fs.writeFileSync(lock, `${sleeper.pid}@${os.hostname()}@${Date.now()}-abc`);
    try {
      const segment = lastSegment(dir);
      const edit = call('edit', { path: 'a.txt', from: `5:${lidAt(before, 5)}`, text: 'five\n' }).catch(
        () => undefined,
      );
      // Its step is recorded once the file is written; its segment waits for the lock (3 s) before it lands.
      const steps = path.join(dir, '.rt', 'history', 'steps.json');
      const recorded = () => fs.existsSync(steps) && JSON.parse(fs.readFileSync(steps, 'utf8')).steps.length === 1;
      const deadline = Date.now() + 20_000;
      while (!recorded() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      // Killed with its segment not landed: the pack holds what it held before the edit.
      expect(lastSegment(dir)).toBe(segment);
      expect(fs.readFileSync(file, 'utf8')).toBe(numbered(20).replace('line 5\n', 'five\n'));
      process.kill(pid, 'SIGKILL');
      await edit;
    } finally {
      sleeper.kill();
      fs.rmSync(lock, { force: true });
    }
    const after = shown(run(['open', 'a.txt', '--window', '100'], dir).stdout);
    expect(after.length).toBe(20);
    expect(after.filter((l, i) => i !== 4 && !before.includes(l))).toEqual([]);
    const undone = run(['undo'], dir, { env: { RT_SESSION: 'agent' } });
    expect(undone.status, undone.stderr).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toBe(numbered(20));
  }, 60_000);
});
