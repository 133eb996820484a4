// Review of the packed store: an rt mcp server running beside CLI runs that add, merge and delete
// segments (its process-wide cache of open segments, openSegments/closeGoneSegments) reads the
// LIDs the CLI printed, and the CLI reads the server's, also after .rt/pack is deleted.

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
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

type Result = { content: Array<{ type: string; text: string }>; isError?: boolean };
const shown = (text: string) => text.match(/^\d+:[0-9a-z]{4}\|.*$/gm) ?? [];

describe('rt mcp beside CLI runs on one packed store', () => {
  it('LIDs agree between the server and the CLI across merges and a deleted pack', async () => {
    const dir = repoWith({ 'a.txt': numbered(40), 'b.txt': numbered(10, 'b ') });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [RT_BIN, 'mcp'],
      cwd: dir,
      env: cleanEnv({ RT_SESSION: 'shared' }) as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'rt-review', version: '0' });
    await client.connect(transport);
    clients.push(client);
    const call = async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as Result;
    const env = { RT_SESSION: 'shared' };
    for (let k = 1; k <= 14; k++) {
      if (k === 8) fs.rmSync(path.join(dir, '.rt', 'pack'), { recursive: true });
      // The CLI edits line k (a segment a run; past eight they merge) ...
      const cli = shown(run(['open', 'a.txt', '--window', '100'], dir, { env }).stdout);
      const lid = cli[k - 1]!.split(':')[1]!.slice(0, 4);
      expect(run(['edit', 'a.txt', `${k}:${lid}`], dir, { env, input: `cli ${k}\n` }).status).toBe(0);
      run(['open', 'b.txt'], dir, { env });
      // ... the server sees the CLI's LIDs ...
      const afterCli = shown(run(['open', 'a.txt', '--window', '100'], dir, { env }).stdout);
      const mcp = shown((await call('open', { target: 'a.txt', window: 100 })).content[0]!.text);
      expect(mcp).toEqual(afterCli);
      // ... edits a line it showed, and the CLI sees the server's LIDs.
      const l2 = mcp[20 + k]!.split(':')[1]!.slice(0, 4);
      const r = await call('edit', { path: 'a.txt', from: `${21 + k}:${l2}`, text: `mcp ${k}\n` });
      expect(r.isError, r.content[0]?.text).toBeFalsy();
      const mcpAfter = shown((await call('open', { target: 'a.txt', window: 100 })).content[0]!.text);
      expect(shown(run(['open', 'a.txt', '--window', '100'], dir, { env }).stdout)).toEqual(mcpAfter);
    }
    expect(fs.readdirSync(path.join(dir, '.rt', 'pack')).length).toBeLessThanOrEqual(9);
  }, 120_000);
});

describe('a write killed once its report is on its way out', () => {
  // The bug: the report (a long one, or one followed by a note on stderr, goes out at once) was printed before the
  // write's indexes landed (tx.end, after the report; the pack's lock may be waited for 3 s there). Killed then, the
  // next rt reconciled the file anew from the index before the write: line 2, an unchanged `}`, printed as 3fy3,
  // became 371a.
  it('the LIDs it printed are the ones the next rt reads', async () => {
    const dir = repoWith({ 'f.txt': 'a\n}\n}\nb\n' });
    const l3 = shown(run(['open', 'f.txt'], dir).stdout)[2]!
      .split(':')[1]!
      .slice(0, 4);
    const sleeper = spawn('sleep', ['60']);
    fs.writeFileSync(path.join(dir, '.rt', 'pack', 'lock'), `${sleeper.pid}@${os.hostname()}@${Date.now()}-abc`);
    const child = spawn(process.execPath, [RT_BIN, 'insert', 'f.txt', `3:${l3}`], {
      cwd: dir,
      env: cleanEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdin.end('}\n'.repeat(250));
    let printed = '';
    child.stdout.on('data', (d: Buffer) => {
      printed += d.toString('utf8');
      child.kill('SIGKILL');
    });
    child.stderr.on('data', () => undefined);
    await new Promise((resolve) => child.on('close', resolve));
    sleeper.kill();
    fs.rmSync(path.join(dir, '.rt', 'pack', 'lock'), { force: true });
    const lines = shown(printed);
    expect(lines.length).toBeGreaterThan(0);
    const now = new Set(shown(run(['open', 'f.txt', '--window', '1000'], dir).stdout));
    expect(lines.filter((l) => !now.has(l))).toEqual([]);
  }, 60_000);
});
