// rt mcp driven by a client no one on this project wrote: the MCP Inspector's CLI mode
// (@modelcontextprotocol/inspector, pinned in devDependencies), one process per call as a user
// runs it, against a temporary repository. Its calls share one session (RT_SESSION), so that
// what one call shows the next may edit, and undo takes back the apply.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv, cleanup, repoWith, RT_BIN } from './harness.js';

afterAll(cleanup);

const INSPECTOR = path.resolve(__dirname, '../../node_modules/@modelcontextprotocol/inspector/cli/build/cli.js');

interface Result {
  content: Array<{ type: string; text: string }>;
  structuredContent?: Record<string, any>;
  isError?: boolean;
}

/** One run of `mcp-inspector --cli node bin/rt.cjs mcp --method METHOD …` in `dir`: its JSON answer. */
function inspect(dir: string, method: string, tool?: string, args: Record<string, string> = {}): any {
  const fields = Object.entries(args).flatMap(([k, v]) => ['--tool-arg', `${k}=${v}`]);
  const call = tool ? ['--tool-name', tool, ...fields] : [];
  const server = [process.execPath, RT_BIN, 'mcp'];
  const r = spawnSync(process.execPath, [INSPECTOR, '--cli', ...server, '--method', method, ...call], {
    cwd: dir,
    env: cleanEnv({ RT_SESSION: 'inspector' }),
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(r.status, `${method} ${tool ?? ''}\n${r.stdout}\n${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout);
}

const textOf = (r: Result) => r.content.map((c) => c.text).join('');

describe("rt mcp through the MCP Inspector's CLI", () => {
  it('lists the tools, each description within 1,024 characters', () => {
    const dir = repoWith({ 'a.ts': 'one\n' });
    const { tools } = inspect(dir, 'tools/list') as { tools: Array<{ name: string; description: string }> };
    expect(tools.map((t) => t.name)).toEqual([
      ...['open', 'scroll', 'find', 'grep', 'grep_file', 'edit', 'insert', 'delete', 'create', 'apply', 'replace'],
      ...['refs', 'rename', 'undo', 'redo', 'history', 'outline', 'help'],
    ]);
    for (const t of tools) expect(t.description.length, t.name).toBeLessThanOrEqual(1024);
  }, 120_000);

  it('runs open, grep, edit, apply and undo; a refusal names a tool and its fields', () => {
    const dir = repoWith({ 'src/a.ts': 'export const one = 1;\nexport const two = 2;\nexport const three = 3;\n' });
    const file = path.join(dir, 'src/a.ts');

    const opened: Result = inspect(dir, 'tools/call', 'open', { target: 'src/a.ts' });
    expect(opened.isError, textOf(opened)).toBeFalsy();
    const shown = opened.structuredContent!.lines as Array<{ n: number; lid: string }>;
    const lid = new Map(shown.map((l) => [l.n, l.lid]));
    expect(textOf(opened)).toContain(`2:${lid.get(2)}|export const two = 2;`);

    // The Inspector sends a value it cannot read as JSON as a string, even for a list: path "src".
    const found: Result = inspect(dir, 'tools/call', 'grep', { pattern: 'three', path: 'src' });
    expect(textOf(found)).toBe(`src/a.ts:3:${lid.get(3)}|export const three = 3;\n`);

    const edit = { path: 'src/a.ts', from: lid.get(2)!, text: 'export const two = 22;\n' };
    const edited: Result = inspect(dir, 'tools/call', 'edit', edit);
    expect(edited.isError, textOf(edited)).toBeFalsy();
    const afterEdit = 'export const one = 1;\nexport const two = 22;\nexport const three = 3;\n';
    expect(fs.readFileSync(file, 'utf8')).toBe(afterEdit);

    const patch = [
      '*** Begin Patch',
      ...['*** Update File: src/a.ts', `@@ edit ${lid.get(3)}`, '+export const three = 33;'],
      ...['*** Add File: src/b.ts', '+export const b = 1;'],
      '*** End Patch\n',
    ].join('\n');
    const applied: Result = inspect(dir, 'tools/call', 'apply', { patch });
    expect(applied.isError, textOf(applied)).toBeFalsy();
    expect(fs.readFileSync(file, 'utf8')).toContain('export const three = 33;');
    expect(fs.readFileSync(path.join(dir, 'src/b.ts'), 'utf8')).toBe('export const b = 1;\n');

    const undone: Result = inspect(dir, 'tools/call', 'undo');
    expect(undone.isError, textOf(undone)).toBeFalsy();
    expect(fs.readFileSync(file, 'utf8')).toBe(afterEdit);
    expect(fs.existsSync(path.join(dir, 'src/b.ts'))).toBe(false);

    // The LID of the line edited is retired: the refusal says what to call instead, in a tool's words.
    const stale: Result = inspect(dir, 'tools/call', 'edit', { path: 'src/a.ts', from: lid.get(2)!, text: 'x' });
    expect(stale.isError).toBe(true);
    expect(textOf(stale)).toMatch(/open with target: "src\/a\.ts:2"/);
    expect(textOf(stale)).not.toMatch(/rt open|--force/);
    expect(stale.structuredContent!.error.hints.join('\n')).toMatch(/open with target: "src\/a\.ts:2"/);

    const past: Result = inspect(dir, 'tools/call', 'open', { target: 'src/a.ts:9' });
    const hint = 'rt: its last line: open with target: "src/a.ts:3"';
    expect(textOf(past)).toBe(`rt: line 9 is past the end of src/a.ts (3 lines)\n${hint}\n(exit 2)`);
  }, 240_000);
});
