// rt mcp's calls as the CLI would run them: paths from --root wherever the server starts, a
// cancelled write not made, a result carrying the CLI's text, bad usage and missing fields
// refused as the CLI refuses them, text taken byte for byte, a lock waited for without holding
// other calls. Each test guards a bug once found; the comment above it tells that bug as it was.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { toolsOf, vocabularyOf } from '../../src/mcp/tools.js';
import { documentInToolWords, inToolWords, outputInToolWords } from '../../src/mcp/toolWords.js';
import { cleanEnv, cleanup, numbered, repoWith, RT_BIN, run } from './harness.js';

const tools = toolsOf(COMMANDS, false);

afterAll(cleanup);

type Result = {
  content: Array<{ type: string; text: string }>;
  structuredContent?: Record<string, any>;
  isError?: boolean;
};

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function connect(
  cwd: string,
  env: Record<string, string | undefined> = {},
  before: string[] = [],
): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [RT_BIN, ...before, 'mcp'],
    cwd,
    env: cleanEnv(env) as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'rt-tests', version: '0.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Result> {
  return (await client.callTool({ name, arguments: args })) as Result;
}

const textOf = (r: Result) => r.content.map((c) => c.text).join('');

const INIT =
  '{"jsonrpc":"2.0","id":0,"method":"initialize",' +
  '"params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}';
const INITIALIZED = '{"jsonrpc":"2.0","method":"notifications/initialized"}';

/** Starts rt mcp on raw JSON-RPC lines; `messages()` parses what came out so far. */
function rawServer(cwd: string, env: Record<string, string | undefined> = {}) {
  const child = spawn(process.execPath, [RT_BIN, 'mcp'], { cwd, env: cleanEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    child,
    send: (...lines: string[]) => child.stdin.write(lines.map((l) => `${l}\n`).join('')),
    messages: () =>
      out
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, any>),
    end: async () => {
      child.stdin.end();
      return closed;
    },
  };
}

/** Waits until `done()` holds (polling), however long the machine takes; the test's own time-out bounds it. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setTimeout(r, 20));
}

/** The number of the futex system call (Linux, where /proc tells what a thread waits in). */
const FUTEX =
  process.platform !== 'linux' ? undefined : ({ x64: 202, arm64: 98 } as Record<string, number>)[process.arch];

/** Whether the main thread of `pid` is asleep in a futex wait. */
function inFutexWait(pid: number): boolean {
  try {
    return Number(fs.readFileSync(`/proc/${pid}/syscall`, 'utf8').split(' ')[0]) === FUTEX;
  } catch {
    return false;
  }
}

describe('rt mcp: calls as the CLI would run them', () => {
  // The README's MCP set-up: Claude Desktop "starts servers in no particular folder ... give
  // absolute paths and --root"; mcp.ts's example: "rt --root ~/project mcp: serve the tools for
  // ~/project, wherever the client starts it". Every relative path (and find/grep's default
  // folder, ".") is resolved against the server's working directory instead, so each call is
  // refused as outside the root.
  it('--root with the server started outside it: find, grep and open work with paths from the root', async () => {
    const dir = repoWith({ 'src/a.txt': 'needle\n' });
    const elsewhere = fs.mkdtempSync(path.join(path.dirname(dir), 'rt-elsewhere-'));
    const client = await connect(elsewhere, {}, ['--root', dir]);
    const f = await call(client, 'find', { pattern: 'a.txt' });
    expect(f.isError, textOf(f)).toBeFalsy();
    expect(f.structuredContent).toMatchObject({ paths: ['src/a.txt'] });
    const g = await call(client, 'grep', { pattern: 'needle' });
    expect(g.isError, textOf(g)).toBeFalsy();
    expect(textOf(g)).toMatch(/^src\/a\.txt:1:[0-9a-z]{4}\|needle\n$/);
    const o = await call(client, 'open', { target: 'src/a.txt' });
    expect(o.isError, textOf(o)).toBeFalsy();
  });

  // MCP (notifications/cancelled): the receiver should stop processing a cancelled request; rt
  // mcp drops its response but still runs it when its turn in the queue comes: a write the
  // client was told nothing about (the SDK Client sends this on its 60 s request timeout too).
  it('a write cancelled while it waits in the queue is not made', async () => {
    const dir = repoWith({ 'slow.txt': `${'a'.repeat(40)}b\n`.repeat(20), 'f.txt': 'one\n' });
    const s = rawServer(dir);
    s.send(
      INIT,
      INITIALIZED,
      // Some 2 s of matching (the search's time budget) ahead of the write in the queue.
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"grep","arguments":{"pattern":"(a+)+$"}}}',
      '{"jsonrpc":"2.0","id":2,"method":"tools/call",' +
        '"params":{"name":"insert","arguments":{"path":"f.txt","at":"$","text":"inserted\\n"}}}',
      '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"user pressed Esc"}}',
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(await s.end()).toBe(0);
    expect(s.messages().some((m) => m.id === 2)).toBe(false); // the response is dropped, as it should be
    expect(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8')).toBe('one\n'); // ...but the write was made
  });

  // A result carries the text the CLI prints. The CLI prints these hits as some 6 KB
  // (each line cut for display); the --json document holds the lines whole (9 MB), and the whole
  // result is refused as too large, though the text alone fits many times over. A minified file
  // (one long line) cannot be read through rt mcp at all: even open PATH:1-1 is refused.
  it("a few hits on very long lines: the result carries the CLI's text, not a refusal", async () => {
    const dir = repoWith({ 'min.js': `needle${'x'.repeat(3_000_000)}\n`.repeat(3) });
    const cli = run(['grep', 'needle'], dir);
    expect(cli.status).toBe(0);
    expect(cli.stdout.length).toBeLessThan(10_000);
    const client = await connect(dir);
    const g = await call(client, 'grep', { pattern: 'needle' });
    expect(g.isError, textOf(g).slice(0, 300)).toBeFalsy();
    // The text as the CLI prints it, then the note that the document was left out.
    expect(g.content[0]!.text).toBe(cli.stdout);
    expect(textOf(g)).toContain('its --json document (which holds each line whole) is left out');
    expect(g.structuredContent).toBeUndefined();
    const o = await call(client, 'grep', { pattern: 'needle', only_matching: true });
    expect(o.isError, textOf(o).slice(0, 300)).toBeFalsy();
    const one = await call(client, 'open', { target: 'min.js:1-1' });
    expect(one.isError, textOf(one).slice(0, 300)).toBeFalsy();
  });

  // tools.ts: with regexp given, PATTERN is skipped and the operands are paths "as in the CLI";
  // but a call that gives both has its pattern searched as a path (here: a file named like the
  // pattern is searched for the regexp; otherwise "no such file: PATTERN").
  it('grep with both pattern and regexp is refused as bad usage, not the pattern taken as a path', async () => {
    const dir = repoWith({ foo: 'bar in the file named foo\n', 'a.txt': 'foo bar\n' });
    const client = await connect(dir);
    const r = await call(client, 'grep', { pattern: 'foo', regexp: ['bar'] });
    expect(r.isError, textOf(r)).toBe(true);
    expect(r.structuredContent!.error.exit).toBe(2);
  });

  // invocationOf checks `given[key] === undefined` for required fields, then skips a null like an
  // absent field: text: null reaches edit as an empty standard input, and the refusal speaks of
  // standard input and a heredoc instead of the field text.
  it('a required field given as null is refused as missing, naming the field', async () => {
    const dir = repoWith({ 'a.txt': 'one\n' });
    const client = await connect(dir);
    await call(client, 'open', { target: 'a.txt' });
    const r = await call(client, 'edit', { path: 'a.txt', from: '1', text: null });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('the field text is required');
  });

  // The text "is taken byte for byte". A JSON string with a lone surrogate has no UTF-8
  // bytes; Buffer.from(…, 'utf8') writes U+FFFD (EF BF BD) in its place without a word.
  it('text holding a lone surrogate is refused, not written as U+FFFD', async () => {
    const dir = repoWith({ 'a.txt': 'one\n' });
    const client = await connect(dir);
    const r = await call(client, 'create', { path: 'b.txt', text: 'x\ud800y\n' });
    expect(r.isError, textOf(r)).toBe(true);
    expect(fs.existsSync(path.join(dir, 'b.txt'))).toBe(false);
  });

  // A call waiting for a file's lock (another rt editing it, up to 30 s) sleeps the whole server
  // synchronously (Atomics.wait): no ping, no list, no cancellation is answered meanwhile.
  // Left as it is, and said in rt help mcp: rt's lock wait is synchronous (the commands are), so a
  // call waiting for another rt's lock (30 s at most) holds the server; what is asked meanwhile
  // is answered once the call is done.
  it.runIf(FUTEX !== undefined)(
    'an edit waiting for a lock held by another rt holds the server: the ping is answered after it, the edit made',
    async () => {
      const dir = repoWith({ 'f.txt': 'a\nb\n' });
      // The lock's holder lives until the test ends it, so the edit cannot be done before the
      // ping is sent, however slow the machine.
      const holder = spawn('sleep', ['600']);
      const holderGone = new Promise((r) => holder.on('close', r));
      fs.writeFileSync(path.join(dir, '.f.txt.rt-lock'), `${holder.pid}@${os.hostname()}@1-held`);
      const s = rawServer(dir, { RT_SESSION: 'r' });
      s.send(
        INIT,
        INITIALIZED,
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"open","arguments":{"target":"f.txt"}}}',
      );
      await until(() => s.messages().some((m) => m.id === 1));
      s.send(
        '{"jsonrpc":"2.0","id":2,"method":"tools/call",' +
          '"params":{"name":"edit","arguments":{"path":"f.txt","from":"1","text":"A"}}}',
      );
      // The ping goes once the edit waits for the lock (the server's thread asleep in the futex of
      // Atomics.wait, seen steadily rather than in passing): a server that went on answering
      // meanwhile would answer it before the edit.
      let asleep = 0;
      await until(() => (asleep = inFutexWait(s.child.pid!) ? asleep + 1 : 0) >= 5);
      s.send('{"jsonrpc":"2.0","id":"ping","method":"ping"}');
      await new Promise((r) => setTimeout(r, 300));
      holder.kill('SIGKILL');
      await holderGone;
      await until(() => s.messages().some((m) => m.id === 'ping'));
      await s.end();
      expect(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8')).toBe('A\nb\n'); // the wait itself works
      const order = s.messages().map((m) => m.id);
      expect(order.indexOf(2)).toBeGreaterThan(-1);
      expect(order.indexOf('ping')).toBeGreaterThan(order.indexOf(2));
    },
  );

  // What held: for a sequence of reads and writes, each result's text is the CLI's stdout then
  // stderr, and its structured content the CLI's --json document (three identical repos, one
  // session name, so view state evolves the same way in each).
  it('held: text and structured content match the CLI run for run (reads, writes, refusals, no hits)', async () => {
    const files = {
      'a.txt': 'one\ntwo\nthree\n',
      'crlf.txt': 'x\r\ny\r\n',
      'src/x.ts': 'export class Cart {\n  add(a: number) {\n    return a;\n  }\n}\n',
      'big.txt': numbered(250),
      'g.txt': 'hit\nn\nn\nn\nhit\n',
    };
    const [dT, dJ, dM] = [repoWith(files), repoWith(files), repoWith(files)];
    const client = await connect(dM, { RT_SESSION: 'same' });
    const steps: Step[] = [
      [['open', 'a.txt'], undefined, 'open', { target: 'a.txt' }],
      [['open', 'big.txt', '--window', '30'], undefined, 'open', { target: 'big.txt', window: 30 }],
      [['scroll', 'big.txt'], undefined, 'scroll', { path: 'big.txt' }],
      [['scroll', 'big.txt', '-'], undefined, 'scroll', { path: 'big.txt', direction: '-' }],
      [['scroll', 'big.txt', '-'], undefined, 'scroll', { path: 'big.txt', direction: '-' }],
      [['open', '.'], undefined, 'open', { target: '.' }],
      [['grep', '-C', '1', 'hit', 'g.txt'], undefined, 'grep', { pattern: 'hit', context: 1, path: ['g.txt'] }],
      [['grep', '-c', 'hit'], undefined, 'grep', { pattern: 'hit', count: true }],
      [['grep', 'zzz'], undefined, 'grep', { pattern: 'zzz' }],
      [['outline', 'src/x.ts'], undefined, 'outline', { path: 'src/x.ts' }],
      [['open', 'src/x.ts:@Nope'], undefined, 'open', { target: 'src/x.ts:@Nope' }],
      [['edit', 'crlf.txt', '2', '--diff'], 'Y\n', 'edit', { path: 'crlf.txt', from: '2', diff: true, text: 'Y\n' }],
      [['edit', 'big.txt', '200'], 'x\n', 'edit', { path: 'big.txt', from: '200', text: 'x\n' }],
      [['create', 'a.txt'], 'x\n', 'create', { path: 'a.txt', text: 'x\n' }],
      [
        ['apply', '--dry-run'],
        '*** Update File: a.txt\n@@\n-two\n+TWO\n',
        'apply',
        { dry_run: true, patch: '*** Update File: a.txt\n@@\n-two\n+TWO\n' },
      ],
      [['undo'], undefined, 'undo', {}],
      [['redo'], undefined, 'redo', {}],
    ];
    await expectAsCli(steps, dT, dJ, client);
  });

  it('held: a call is refused as the CLI refuses its command line (choices, a pasted hit, RT_WINDOW)', async () => {
    const files = { 'a.txt': 'one\ntwo\nthree\n', 'big.txt': numbered(150) };
    const [dT, dJ, dM] = [repoWith(files), repoWith(files), repoWith(files)];
    const client = await connect(dM, { RT_SESSION: 'same', RT_WINDOW: 'lots' });
    const steps: Step[] = [
      [['open', 'a.txt', '--window', '2'], undefined, 'open', { target: 'a.txt', window: 2 }],
      [
        ['edit', 'a.txt', '1', '--indent', 'sideways'],
        'x\n',
        'edit',
        { path: 'a.txt', from: '1', indent: 'sideways', text: 'x\n' },
      ],
      [['scroll', 'a.txt', 'up'], undefined, 'scroll', { path: 'a.txt', direction: 'up' }],
      [
        ['edit', 'a.txt:2', 'x', '--force', '--diff', '--no-check'],
        'x\n',
        'edit',
        { path: 'a.txt:2', from: 'x', force: true, diff: true, no_check: true, text: 'x\n' },
      ],
      [['open', 'big.txt'], undefined, 'open', { target: 'big.txt' }],
      [['scroll', 'a.txt'], undefined, 'scroll', { path: 'a.txt' }],
    ];
    await expectAsCli(steps, dT, dJ, client, { RT_WINDOW: 'lots' });
  });
});

/** A command line, its standard input, and the same as a tool call. */
type Step = [string[], string | undefined, string, Record<string, unknown>];

/**
 * Each step's result: its text the CLI's stdout then stderr (run in `dT`), its structured content the CLI's --json
 * document (run in `dJ`), said in a tool call's words.
 */
async function expectAsCli(
  steps: readonly Step[],
  dT: string,
  dJ: string,
  client: Client,
  env: Record<string, string> = {},
): Promise<void> {
  const strip = (s: string) => s.replace(/\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d+Z)?/g, 'TIME');
  for (const [argv, input, tool, args] of steps) {
    const t = run(argv, dT, { input, env: { RT_SESSION: 'same', ...env } });
    const j = run([...argv, '--json'], dJ, { input, env: { RT_SESSION: 'same', ...env } });
    const r = await call(client, tool, args);
    // Said in a tool call's words: its notes and refusals name tools and fields, not command lines.
    const words = vocabularyOf(
      tools,
      tools.find((x) => x.definition.name === tool),
    );
    const notes = inToolWords(t.stderr, words);
    const out = outputInToolWords(t.stdout, words);
    const expected = (t.status ?? 0) >= 2 ? `${out}${notes}(exit ${t.status})` : `${out}${notes}`;
    expect(strip(textOf(r)).startsWith(strip(expected)), `${argv.join(' ')}\n${textOf(r)}\n---\n${expected}`).toBe(
      true,
    );
    const doc = j.stdout.trim().split('\n').pop()!;
    const expectedDoc = documentInToolWords(JSON.parse(doc), words);
    expect(strip(JSON.stringify(r.structuredContent)), argv.join(' ')).toBe(strip(JSON.stringify(expectedDoc)));
  }
}
