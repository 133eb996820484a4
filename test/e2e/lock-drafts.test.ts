// Locks linked from drafts kept for reuse in `.rt/locks` (see lock.ts), as a user meets them: the
// folder is made by a command that saves state, never by a refused one (which leaves `.rt/` as it
// was), and the drafts of a server ended by a signal are swept by the next rt.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { cleanup, numbered, openWindow, repoWith, run, tree } from './harness.js';
import { mcpClient } from './mcpClient.js';

afterAll(cleanup);
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
});

const locks = (dir: string) => path.join(dir, '.rt', 'locks');

describe('lock drafts in .rt/locks', () => {
  it('a refused edit in a root whose state has no .rt/locks (an older rt’s) leaves .rt as it was', () => {
    const dir = repoWith({ 'f.txt': numbered(5) });
    const w = openWindow(dir, 'f.txt');
    fs.rmSync(locks(dir), { recursive: true, force: true });
    fs.writeFileSync(path.join(dir, 'f.txt'), numbered(5).replace('line 2', 'changed'));
    const before = tree(dir);
    const r = run(['edit', 'f.txt', w.lidAt(2)], dir, { input: 'X\n' });
    expect(r.status).toBe(3);
    expect(tree(dir)).toEqual(before);
    expect(fs.existsSync(locks(dir))).toBe(false);
    // A command that saves state makes it, empty as the process leaves it.
    openWindow(dir, 'f.txt');
    expect(fs.readdirSync(locks(dir))).toEqual([]);
  });

  it('the drafts of an rt mcp ended by SIGTERM (at once, even mid-call) are swept by the next rt', async () => {
    const dir = repoWith({ 'a.txt': numbered(30) });
    const { client, transport, call } = await mcpClient(dir, 'rt-lock-drafts');
    clients.push(client);
    const opened = (await call('open', { target: 'a.txt:3', window: 1 })).content[0]!.text;
    const lid = /^3:([0-9a-z]{4})\|/m.exec(opened)![1]!;
    const r = await call('edit', { path: 'a.txt', from: lid, text: 'one\n' });
    expect(r.isError, r.content[0]?.text).toBeFalsy();
    expect(fs.readdirSync(locks(dir)).length).toBeGreaterThan(0);
    const ended = new Promise<void>((resolve) => {
      transport.onclose = () => resolve();
    });
    process.kill(transport.pid!, 'SIGTERM');
    await ended;
    // The next edit's first lock sweeps them (their rt is gone); its own go as it exits.
    const w = openWindow(dir, 'a.txt:5');
    expect(run(['edit', 'a.txt', w.lidAt(5)], dir, { input: 'five\n' }).status).toBe(0);
    expect(fs.readdirSync(locks(dir))).toEqual([]);
  });
});
