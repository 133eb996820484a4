// Review of the packed store: an rt mcp server running beside CLI runs that add, merge and delete
// segments (its process-wide cache of open segments, openSegments/closeGoneSegments) reads the
// LIDs the CLI printed, and the CLI reads the server's, also after .rt/pack is deleted.

import fs from 'node:fs';
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
