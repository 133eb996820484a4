// rt mcp driven by the MCP SDK's own Client over stdio: the built server as a child
// process, against temporary repositories, interleaved with the CLI.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { openCommand } from '../../src/cli/commands/open.js';
import { cleanEnv, cleanup, numbered, repoWith, RT_BIN, run } from './harness.js';

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

/** A client connected to `rt mcp` started in `cwd` (extra arguments before `mcp`: --root). */
async function connect(
  cwd: string,
  env: Record<string, string | undefined> = {},
  before: string[] = [],
): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [RT_BIN, ...before, 'mcp'],
    cwd,
    env: cleanEnv(env) as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const client = new Client({ name: 'rt-tests', version: '0.0.0' });
  await client.connect(transport);
  clients.push(client);
  return { client, stderr: () => stderr };
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Result> {
  return (await client.callTool({ name, arguments: args })) as Result;
}

const textOf = (r: Result) => r.content.map((c) => c.text).join('');

/** The LIDs of a window's lines, by line number, from a structured result. */
function lidsOf(r: Result): Map<number, string> {
  return new Map((r.structuredContent!.lines as Array<{ n: number; lid: string }>).map((l) => [l.n, l.lid]));
}

describe('rt mcp', () => {
  it('lists the tools, their schemas made from the command definitions', async () => {
    const dir = repoWith({ 'a.txt': 'one\n' });
    const { client } = await connect(dir);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      ...['open', 'scroll', 'find', 'grep', 'grep_file', 'edit', 'insert', 'delete', 'create', 'apply', 'replace'],
      ...['refs', 'rename', 'undo', 'redo', 'history', 'outline', 'help'],
    ]);
    const edit = tools.find((t) => t.name === 'edit')!;
    expect(edit.inputSchema).toMatchObject({
      type: 'object',
      required: ['path', 'text'],
      additionalProperties: false,
    });
    expect(Object.keys(edit.inputSchema.properties!)).toEqual([
      'path',
      'from',
      'to',
      'force',
      'diff',
      'dry_run',
      'indent',
      'no_check',
      'text',
    ]);
    expect(edit.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    const grep = tools.find((t) => t.name === 'grep')!;
    expect(grep.inputSchema.properties).toMatchObject({
      ignore_case: { type: 'boolean' },
      glob: { type: 'array' },
      max: { type: 'integer' },
      path: { type: 'array' },
    });
    expect(grep.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.find((t) => t.name === 'apply')!.inputSchema).toMatchObject({ required: ['patch'] });
    // The description is the command definition's own for tools; the whole of its help is the help tool's.
    expect(tools[0]!.description).toBe(`${openCommand.tool!.join(' ')}\n\nMore: help with topic "open".`);
    const help = JSON.parse(run(['help', 'open', '--json'], dir).stdout).commands[0];
    expect(textOf(await call(client, 'help', { topic: 'open' }))).toContain(help.description[0].slice(0, 200));
  });

  it("open: the CLI's text as content, its --json document as structured content", async () => {
    const dir = repoWith({ 'src/a.ts': numbered(150) });
    const { client, stderr } = await connect(dir);
    const r = await call(client, 'open', { target: 'src/a.ts:40', window: 10 });
    expect(r.isError).toBeFalsy();
    const cli = run(['open', 'src/a.ts:40', '--window', '10'], dir);
    expect(textOf(r)).toBe(cli.stdout);
    expect(r.structuredContent).toEqual(
      JSON.parse(run(['open', 'src/a.ts:40', '--window', '10', '--json'], dir).stdout),
    );
    expect(stderr()).toBe('');
  });

  it('grep, then edit by the LID of a hit, then undo: bytes exact, the CLI sees the same', async () => {
    const dir = repoWith({ 'a.txt': 'keep\r\n\ttab\r\nneedle here\r\nlast', 'b.txt': 'no\n' });
    const { client } = await connect(dir);
    const g = await call(client, 'grep', { pattern: 'needle' });
    expect(textOf(g)).toMatch(/^a\.txt:3:[0-9a-z]{4}\|needle here\r?\n$/);
    const hit = g.structuredContent!.hits[0];
    expect(hit).toMatchObject({ path: 'a.txt', n: 3, hit: true });
    const e = await call(client, 'edit', { path: 'a.txt', from: hit.lid, text: 'thread here\n' });
    expect(e.isError, textOf(e)).toBeFalsy();
    expect(textOf(e)).toMatch(/^edited a\.txt: 3-3 → 3-3 \(\+0\)\n--- a\.txt/);
    expect(e.structuredContent).toMatchObject({ command: 'edit', path: 'a.txt', written: true });
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'latin1')).toBe('keep\r\n\ttab\r\nthread here\r\nlast');
    const h = await call(client, 'history', {});
    expect(textOf(h)).toMatch(/^1 .* mcp-\d{8}-\d{6}-\d+ {2}rt edit {2}a\.txt \+1 -1\n$/);
    const u = await call(client, 'undo', {});
    expect(u.isError, textOf(u)).toBeFalsy();
    expect(u.structuredContent).toMatchObject({ command: 'undo', written: true });
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'latin1')).toBe('keep\r\n\ttab\r\nneedle here\r\nlast');
    // The CLI's shared session has nothing of the connection's to undo.
    expect(run(['undo'], dir).status).toBe(1);
  });

  it('apply: a two-file patch, all or nothing; a stale anchor refuses it whole', async () => {
    const dir = repoWith({ 'a.txt': 'a1\na2\n', 'b.txt': 'b1\nb2\n' });
    const { client } = await connect(dir);
    const a = lidsOf(await call(client, 'open', { target: 'a.txt' }));
    const b = lidsOf(await call(client, 'open', { target: 'b.txt' }));
    const patch =
      `*** Update File: a.txt\n@@ edit ${a.get(1)}\n+A1\n*** Update File: b.txt\n@@ insert ` +
      `after ${b.get(2)}\n+b3\n*** Add File: c.txt\n+new\n`;
    const r = await call(client, 'apply', { patch });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ command: 'apply', written: true });
    expect(r.structuredContent!.files).toHaveLength(3);
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('A1\na2\n');
    expect(fs.readFileSync(path.join(dir, 'b.txt'), 'utf8')).toBe('b1\nb2\nb3\n');
    expect(fs.readFileSync(path.join(dir, 'c.txt'), 'utf8')).toBe('new\n');
    // The same patch again: a.txt's line 1 is no longer what was shown.
    const again = await call(client, 'apply', { patch: patch.replace('*** Add File: c.txt\n+new\n', '') });
    expect(again.isError).toBe(true);
    expect(again.structuredContent!.error).toMatchObject({ exit: 3 });
    expect(textOf(again)).toMatch(/^rt: .*\n(rt: .*\n)*\(exit 3\)$/);
    expect(fs.readFileSync(path.join(dir, 'b.txt'), 'utf8')).toBe('b1\nb2\nb3\n');
  });

  it('edit, insert and delete take path "f.py:@name" without from or at: a definition whole, once shown', async () => {
    const py = '@cached\ndef total(xs):\n    return sum(xs)\n\n\nclass Cart:\n    def add(self, x):\n        pass\n';
    const dir = repoWith({ 'a.py': py });
    const { client } = await connect(dir);
    const unseen = await call(client, 'edit', { path: 'a.py:@total', text: 'def total(xs):\n    return 0\n' });
    expect(unseen.isError).toBe(true);
    expect(unseen.structuredContent!.error).toMatchObject({ code: 'unshown', exit: 3 });
    expect(textOf(unseen)).toContain('see it first: open with target: "a.py:@total"');
    expect(fs.readFileSync(path.join(dir, 'a.py'), 'utf8')).toBe(py);
    expect((await call(client, 'outline', { path: 'a.py' })).isError).toBeFalsy();
    const e = await call(client, 'edit', { path: 'a.py:@total', text: 'def total(xs):\n    return 0\n' });
    expect(e.isError, textOf(e)).toBeFalsy();
    expect(textOf(e)).toMatch(/^edited a\.py: 1-3 → 1-2 \(-1\)\n/);
    const i = await call(client, 'insert', {
      path: 'a.py:@Cart.add',
      after: true,
      indent: 'auto',
      text: 'def n(self):\n    return 1\n',
    });
    expect(i.isError, textOf(i)).toBeFalsy();
    const d = await call(client, 'delete', { path: 'a.py:@total' });
    expect(d.isError, textOf(d)).toBeFalsy();
    // First in the file: the blank lines after it go with it.
    expect(fs.readFileSync(path.join(dir, 'a.py'), 'utf8')).toBe(
      'class Cart:\n    def add(self, x):\n        pass\n    def n(self):\n        return 1\n',
    );
    // A write that wrote nothing for want of its target is refused: an error, with the closest names.
    const missing = await call(client, 'delete', { path: 'a.py:@Cart.ad' });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent!.error).toMatchObject({ code: 'no_definition', exit: 1 });
    expect(textOf(missing)).toContain('the closest: Cart.add');
    expect(textOf(missing)).toContain('see them all: outline with path: "a.py"');
    expect(textOf(missing)).toMatch(/\(exit 1\)$/);
    const beside = await call(client, 'delete', { path: 'a.py:@Cart.add', from: '1' });
    expect(beside.isError).toBe(true);
    expect(textOf(beside)).toContain(
      'names a definition, whose lines are its whole range: give no from or to beside it',
    );
  });

  it('a CLI edit between two calls: LIDs of untouched lines still work, a changed line is refused', async () => {
    const dir = repoWith({ 'f.txt': numbered(20) });
    const { client } = await connect(dir);
    const lids = lidsOf(await call(client, 'open', { target: 'f.txt' }));
    // The CLI (another session) inserts two lines at the top and rewrites line 10.
    const cli = lidsOf({ content: [], structuredContent: JSON.parse(run(['open', 'f.txt', '--json'], dir).stdout) });
    expect(run(['insert', 'f.txt', cli.get(1)!], dir, { input: 'top 1\ntop 2\n' }).status).toBe(0);
    expect(run(['edit', 'f.txt', cli.get(10)!], dir, { input: 'changed by the CLI\n' }).status).toBe(0);
    const ok = await call(client, 'edit', { path: 'f.txt', from: lids.get(15)!, text: 'fifteen\n' });
    expect(ok.isError, textOf(ok)).toBeFalsy();
    const stale = await call(client, 'edit', { path: 'f.txt', from: lids.get(10)!, text: 'mcp\n' });
    expect(stale.isError).toBe(true);
    expect(stale.structuredContent!.error.exit).toBe(3);
    const lines = fs.readFileSync(path.join(dir, 'f.txt'), 'utf8').split('\n');
    expect(lines[0]).toBe('top 1');
    expect(lines[11]).toBe('changed by the CLI');
    expect(lines[16]).toBe('fifteen');
  });

  it(
    'refusals are tool errors with the message, hints and ' +
      'exit; bad fields and unknown tools do not end the server',
    async () => {
      const dir = repoWith({ 'a.txt': 'one\n' });
      fs.writeFileSync(path.join(path.dirname(dir), `${path.basename(dir)}-outside.txt`), 'secret\n');
      const { client } = await connect(dir);
      const outside = await call(client, 'open', { target: `../${path.basename(dir)}-outside.txt` });
      expect(outside.isError).toBe(true);
      expect(outside.structuredContent!.error).toMatchObject({ exit: 4 });
      expect(textOf(outside)).toContain('is outside the root');
      expect(textOf(outside)).not.toContain('secret');
      const missing = await call(client, 'open', { target: 'nope.txt' });
      expect(missing.structuredContent!.error).toMatchObject({ exit: 4 });
      const badField = await call(client, 'open', { target: 'a.txt', windows: 3 });
      expect(badField.isError).toBe(true);
      expect(textOf(badField)).toContain('unknown field "windows"');
      expect(badField.structuredContent!.error.exit).toBe(2);
      const badType = await call(client, 'open', { target: 'a.txt', window: 'ten' });
      expect(badType.structuredContent!.error.exit).toBe(2);
      const noText = await call(client, 'edit', { path: 'a.txt', from: '1' });
      expect(textOf(noText)).toContain('the field text is required');
      await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/unknown tool "nope"/);
      // A value or path that starts with '-' is never taken for an option.
      const dash = await call(client, 'grep', { pattern: '-x', path: ['a.txt'] });
      expect(dash.isError).toBeFalsy();
      expect((await call(client, 'open', { target: 'a.txt' })).isError).toBeFalsy();
    },
  );

  it('grep with nothing found is not an error: exit 1 is said, the document is empty', async () => {
    const dir = repoWith({ 'a.txt': 'one\n' });
    const { client } = await connect(dir);
    const r = await call(client, 'grep', { pattern: 'absent' });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toEqual({ command: 'grep', hits: [], more: null });
    expect(textOf(r)).toContain('(exit 1: ');
  });

  it('a huge file opens a window of it; a result too large for a message is refused, the server goes on', async () => {
    const dir = repoWith({ 'small.txt': 'x\n' });
    fs.writeFileSync(path.join(dir, 'big.txt'), numbered(300_000));
    fs.writeFileSync(path.join(dir, 'wide.txt'), `${'w'.repeat(9 * 1024 * 1024)}\nshort\n`);
    const { client } = await connect(dir);
    const big = await call(client, 'open', { target: 'big.txt:250000', window: 5 });
    expect(big.isError).toBeFalsy();
    expect(big.structuredContent).toMatchObject({ total: 300_000, start: 249_998, end: 250_002 });
    expect(textOf(big)).toContain('|line 250000\n');
    // The document holds the 9 MB line whole: it is left out, the text (lines cut) is kept.
    const wide = await call(client, 'open', { target: 'wide.txt' });
    expect(wide.isError).toBeFalsy();
    expect(wide.structuredContent).toBeUndefined();
    expect(textOf(wide)).toMatch(
      /^--- wide\.txt \(lines 1-2 of 2\) ---\n1:[0-9a-z]{4}\|w{2000}… \[\+9435184 chars\]\n2:[0-9a-z]{4}\|short\n/,
    );
    expect(textOf(wide)).toMatch(
      /rt: the result is \d+ bytes, over the 8388608 an MCP message carries here: its --json document .* is left out/,
    );
    // Text over the bound too: a reading call is refused, and the server goes on.
    fs.writeFileSync(path.join(dir, 'many.txt'), `${'m'.repeat(1500)}\n`.repeat(6000));
    const many = await call(client, 'open', { target: 'many.txt', window: 6000 });
    expect(many.isError).toBe(true);
    expect(many.structuredContent!.error).toMatchObject({ exit: 2 });
    expect(textOf(many)).toMatch(
      /^rt: the result is \d+ bytes, over the 8388608 an MCP message carries here\nrt: ask for less/,
    );
    expect((await call(client, 'open', { target: 'wide.txt:2-2' })).structuredContent).toMatchObject({
      start: 2,
      end: 2,
    });
  });

  it('RT_READONLY=1 offers no writing tool, and refuses a call to one', async () => {
    const dir = repoWith({ 'a.txt': 'one\n' });
    const { client } = await connect(dir, { RT_READONLY: '1' });
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(['open', 'scroll', 'find', 'grep', 'grep_file', 'refs', 'history', 'outline', 'help']);
    const r = await call(client, 'edit', { path: 'a.txt', from: '1', text: 'x\n' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('RT_READONLY is set');
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('one\n');
  });

  it('--root fixes the root wherever the server starts; RT_SESSION names the session', async () => {
    const dir = repoWith({ 'sub/a.txt': 'one\n' });
    const { client } = await connect(path.dirname(dir), { RT_SESSION: 'agent-7' }, ['--root', dir]);
    // Started outside the root: paths are read from the root.
    const r = await call(client, 'open', { target: 'sub/a.txt' });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(textOf(r)).toMatch(/^--- sub\/a\.txt /);
    const lid = lidsOf(r).get(1)!;
    expect((await call(client, 'edit', { path: 'sub/a.txt', from: lid, text: 'two\n' })).isError).toBeFalsy();
    expect(textOf(await call(client, 'find', { pattern: 'a.txt' }))).toBe('sub/a.txt\n');
    expect(run(['history', '--json'], dir).stdout).toContain('"session":"agent-7"');
  });

  it(
    'speaks only the protocol on stdout: a malformed line gets a ' +
      'parse error, an over-long one an error, and the server goes on',
    async () => {
      const dir = repoWith({ 'a.txt': 'one\n' });
      const child = spawn(process.execPath, [RT_BIN, 'mcp'], {
        cwd: dir,
        env: cleanEnv(),
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
      const send = (line: string) => child.stdin.write(`${line}\n`);
      send(
        '{"jsonrpc":"2.0","id":1,"method":"initialize",' +
          '"params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}',
      );
      send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
      send('{not json');
      send('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"open","arguments":{"target":"a.txt"}}}');
      send(
        '{"jsonrpc":"2.0","id":3,"method":"tools/call",' +
          `"params":{"name":"create","arguments":{"path":"huge.txt","text":"${'x'.repeat(65 * 1024 * 1024)}"}}}`,
      );
      send('{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"open","arguments":{"target":"a.txt"}}}');
      child.stdin.end();
      const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(status).toBe(0);
      const messages = out
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l));
      expect(messages.find((m) => m.id === null)?.error.code).toBe(-32700);
      expect(messages.find((m) => m.id === 2)?.result.content[0].text).toMatch(/\|one\n/);
      expect(messages.find((m) => m.id === 3)?.error).toMatchObject({ code: -32600 });
      expect(messages.find((m) => m.id === 4)?.result.isError).toBeFalsy();
      expect(fs.existsSync(path.join(dir, 'huge.txt'))).toBe(false);
    },
  );

  it('answers every call sent before its input ends, even one that loads a grammar first', async () => {
    const dir = repoWith({ 'a.py': 'def f():\n    pass\n' });
    const child = spawn(process.execPath, [RT_BIN, 'mcp'], { cwd: dir, env: cleanEnv(), stdio: 'pipe' });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stdin.end(
      '{"jsonrpc":"2.0","id":1,"method":"initialize",' +
        '"params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}\n' +
        '{"jsonrpc":"2.0","method":"notifications/initialized"}\n' +
        '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"outline","arguments":{"path":"a.py"}}}\n',
    );
    expect(await new Promise<number | null>((resolve) => child.on('close', resolve))).toBe(0);
    const answered = out
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l));
    expect(answered.find((m) => m.id === 2)?.result.content[0].text).toContain('def f():');
  });

  it('every whole-number field takes the minimum its schema says, and refuses one less, as the command', async () => {
    const dir = repoWith({ 'a.txt': 'one\ntwo\n', 'b.ts': 'export const one = 1;\n' });
    const { client } = await connect(dir);
    const base: Record<string, Record<string, unknown>> = {
      ...{ refs: { target: 'b.ts:@one' }, rename: { target: 'b.ts:@one', newname: 'uno', dry_run: true } },
      ...{ open: { target: 'a.txt' }, scroll: { path: 'a.txt' }, find: { pattern: 'a' } },
      ...{ grep: { pattern: 'one' }, grep_file: { pattern: 'one', path: 'a.txt' } },
      // (Matching nothing: --expect 0 holds, and nothing is written.)
      replace: { pattern: 'none', replacement: 'x', dry_run: true },
    };
    let checked = 0;
    for (const t of (await client.listTools()).tools) {
      const properties = t.inputSchema.properties as Record<string, { type: string; minimum?: number }>;
      for (const [field, schema] of Object.entries(properties)) {
        if (schema.type !== 'integer') continue;
        expect(base[t.name], `${t.name}.${field}`).toBeDefined();
        const least = await call(client, t.name, { ...base[t.name], [field]: schema.minimum });
        expect(least.isError, `${t.name} ${field}: ${schema.minimum}\n${textOf(least)}`).toBeFalsy();
        const under = await call(client, t.name, { ...base[t.name], [field]: schema.minimum! - 1 });
        expect(under.isError, `${t.name} ${field}: ${schema.minimum! - 1}`).toBe(true);
        expect(textOf(under)).toContain(`${field} must be a whole number, ${schema.minimum} or more`);
        checked++;
      }
    }
    expect(checked).toBe(15);
  });

  it('takes a single string where a list of strings is expected (path: "src")', async () => {
    const dir = repoWith({ 'src/a.txt': 'one\n', 'b.txt': 'one\n' });
    const { client } = await connect(dir);
    const r = await call(client, 'grep', { pattern: 'one', path: 'src', glob: '*.txt' });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(textOf(r)).toMatch(/^src\/a\.txt:1:[0-9a-z]{4}\|one\n$/);
  });
});

// rt mcp says rt's suggested commands in tool calls' words, and only those: a message's paths and
// patterns, and the files' own lines, stay as they are however much they look like options.
describe('rt mcp words', () => {
  it('a path that begins with a dash stays in the message, and the hint names it as a path', async () => {
    const dir = repoWith({ '-i.ts': 'a\nb\n', '--force.txt': 'a\n' });
    const cli = run(['edit', '--', '-i.ts', '1'], dir, { input: 'z\n' });
    expect(cli.stderr).toContain('rt open ./-i.ts:1');
    const { client } = await connect(dir);
    const edit = await call(client, 'edit', { path: '-i.ts', from: '1', text: 'z' });
    expect(textOf(edit)).toContain('line 1 of -i.ts has not been shown');
    expect(textOf(edit)).toContain('see it first: open with target: "./-i.ts:1"');
    const other = await call(client, 'edit', { path: '--force.txt', from: '1', text: 'z' });
    expect(textOf(other)).toContain('line 1 of --force.txt has not been shown');
    const opened = await call(client, 'open', { target: './-i.ts:1' });
    expect(opened.isError, textOf(opened)).toBeFalsy();
  });

  it('a pattern quoted in a message is not rewritten', async () => {
    const dir = repoWith({ 'a.txt': 'x\n' });
    const { client } = await connect(dir);
    const grep = await call(client, 'grep', { pattern: 'rt open x --force(' });
    expect(textOf(grep)).toContain('"rt open x --force("');
  });

  it('a quote inside a quoted name survives: the hint is the name as a JSON string', async () => {
    const dir = repoWith({ "it's.ts": 'a\nb\n' });
    const { client } = await connect(dir);
    const edit = await call(client, 'edit', { path: "it's.ts", from: '1', text: 'z' });
    expect(textOf(edit)).toContain('see it first: open with target: "it\'s.ts:1"');
    const grep = await call(client, 'grep', { regexp: ['-x it\'s "q"|a|b'], max: 1 });
    expect(textOf(grep)).toContain('regexp: ["-x it\'s \\"q\\"|a|b"]');
  });

  it('a value spelled like a placeholder is a value: quoted, never lower-cased', async () => {
    const dir = repoWith({ 'a.txt': 'PATH\nPATH\nPATH\n', PATH: 'a\n' });
    const { client } = await connect(dir);
    const grep = await call(client, 'grep', { pattern: 'PATH', max: 1 });
    expect(textOf(grep)).toContain('pattern: "PATH"');
    const edit = await call(client, 'edit', { path: 'PATH', from: '1', text: 'z' });
    expect(textOf(edit)).toContain('line 1 of PATH has not been shown');
    expect(textOf(edit)).toContain('open with target: "PATH:1"');
  });

  it('a found file named like the cap line stays as it is', async () => {
    const name = '(2 more see rt open --force a)';
    const dir = repoWith({ [name]: 'a\n' });
    const { client } = await connect(dir);
    const found = await call(client, 'find', { pattern: 'more' });
    expect(textOf(found)).toBe(`${name}\n`);
  });

  it("the note of an exit status 1 is said in the tool's words", async () => {
    const dir = repoWith({ 'a.txt': 'a\n' });
    const { client } = await connect(dir);
    const history = await call(client, 'history', { path: 'missing.ts' });
    expect(textOf(history)).toContain("(exit 1: no step (or none of path): the result's notes say so)");
  });

  it('create with empty: true and an empty text makes the empty file', async () => {
    const dir = repoWith({ 'a.txt': 'a\n' });
    const { client } = await connect(dir);
    const created = await call(client, 'create', { path: 'new.txt', empty: true, text: '' });
    expect(created.isError, textOf(created)).toBeFalsy();
    expect(fs.readFileSync(path.join(dir, 'new.txt'), 'utf8')).toBe('');
  });

  it("every tool's cap says how to see the rest by its field max, never by a --max flag", async () => {
    const dir = repoWith({
      'a.ts': 'export const one = 1;\r\nconst two = one + one;\r\n',
      'b.ts': "import { one } from './a';\nconsole.log(one, one);\n",
    });
    const { client } = await connect(dir);
    const calls: Array<[string, Record<string, unknown>]> = [
      ['grep', { pattern: 'one', max: 1 }],
      ['grep_file', { pattern: 'one', path: 'b.ts', max: 1 }],
      ['find', { pattern: '.ts', max: 1 }],
      ['refs', { target: 'a.ts:@one', max: 1 }],
      ['replace', { pattern: 'one', replacement: 'uno', dry_run: true, max: 1 }],
      ['replace', { pattern: 'one', replacement: 'uno', max: 1 }],
    ];
    for (const [tool, args] of calls) {
      const r = await call(client, tool, args);
      const said = `${tool} ${JSON.stringify(args)}\n${textOf(r)}`;
      expect(r.isError, said).toBeFalsy();
      expect(textOf(r), said).toMatch(/\bmax\b/);
      expect(textOf(r), said).not.toMatch(/--max/);
      if (tool === 'replace')
        expect(textOf(r), said).toMatch(/^… 3 more (changed )?lines( would change)? \(max: N shows more\)$/m);
    }
  });

  it('refs and rename: the references as hits, then a rename written and taken back by undo', async () => {
    const dir = repoWith({
      'a.ts': 'export const one = 1;\n',
      'b.ts': "import { one } from './a';\nconsole.log(one);\n",
    });
    const { client } = await connect(dir);
    const refs = await call(client, 'refs', { target: 'a.ts:@one' });
    expect(refs.isError, textOf(refs)).toBeFalsy();
    expect(textOf(refs)).toContain("3 references on 3 lines in 2 files (TypeScript's language service)");
    expect(refs.structuredContent).toMatchObject({ command: 'refs', references: 3, files: 2 });
    // The cap's line says how to see the rest in the tool's own words, as grep's does.
    const capped = await call(client, 'refs', { target: 'a.ts:@one', max: 1 });
    expect(textOf(capped)).toMatch(/\(2 more hits .*max: 3/);
    expect(textOf(capped)).not.toContain('rt refs --max');
    const renamed = await call(client, 'rename', { target: 'a.ts:@one', newname: 'uno', expect: 3 });
    expect(renamed.isError, textOf(renamed)).toBeFalsy();
    expect(fs.readFileSync(path.join(dir, 'b.ts'), 'utf8')).toBe("import { uno } from './a';\nconsole.log(uno);\n");
    expect((await call(client, 'undo', {})).isError).toBeFalsy();
    expect(fs.readFileSync(path.join(dir, 'a.ts'), 'utf8')).toBe('export const one = 1;\n');
  });
});
