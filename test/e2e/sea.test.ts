// The single executable, dist/rt (`npm run sea`, scripts/sea.mjs): the end-to-end smoke set run
// against it, where every part of rt comes from the executable's assets (the bundle, the
// grammars, TypeScript's parser, the MCP SDK), and once more from a copy alone in a folder with
// no Node on PATH. Skipped when dist/rt has not been built.

import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVED, toolName } from '../../src/mcp/tools.js';
import {
  cleanEnv,
  cleanup,
  expectLids,
  expectRun,
  LID_RE,
  parseWindow,
  repoWith,
  run,
  tempDir,
  type Ran,
  type RunOpts,
} from './harness.js';

afterAll(cleanup);

const root = path.resolve(__dirname, '../..');
const SEA = path.join(root, 'dist', process.platform === 'win32' ? 'rt.exe' : 'rt');
const built = fs.existsSync(SEA);
/** The tests of the executable, skipped when it was not built (their group's title says so). */
const itBuilt = it.skipIf(!built);

const sea = (args: readonly string[], cwd: string, opts: RunOpts = {}): Ran =>
  run(args, cwd, { ...opts, exe: opts.exe ?? SEA });
const read = (dir: string, rel: string) => fs.readFileSync(path.join(dir, rel));

/** Opens `target` with the executable, expects success, and returns the parsed window. */
function openWith(dir: string, target: string, exe = SEA) {
  const r = sea(['open', target], dir, { exe });
  expect(r.status, r.text).toBe(0);
  return parseWindow(r);
}

const TS =
  'export class Cart {\n  add(item: number): void {\n    this.items.push(item);\n  }\n}\n\nexport function ' +
  'total(xs: number[]): number {\n  return xs.length;\n}\n';
/** TS's outline, its LIDs written LID. */
const TS_OUTLINE =
  '--- cart.ts (outline: 3 definitions of 9 lines) ---\n1:LID|export class Cart {\n2:LID|  add(item: number): ' +
  'void {\n7:LID|export function total(xs: number[]): number {\n';
const withoutLids = (text: string) => text.replace(/^(\d+):[0-9a-z]{4}\|/gm, '$1:LID|');
/** Valid TypeScript that tree-sitter's grammar takes for errors: only TypeScript's own parser lets it through. */
const NEWER_TS = 'export class Box<in T, out U> {\n  static accessor count = 0;\n}\n';

describe(
  built
    ? 'dist/rt, the single executable'
    : 'dist/rt, the single executable: not built, so skipped (npm run sea builds it)',
  () => {
    itBuilt("is this build of rt: its version is package.json's, and it holds dist/rt.cjs as built now", () => {
      const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
      expectRun(sea(['--version'], tempDir()), { status: 0, stdout: `${version}\n`, stderr: '' });
      // The bundle's first line names its build (scripts/build.mjs); the executable carries the
      // bundle as an asset, so that line is in it unless the bundle was rebuilt from other sources.
      const bundle = fs.readFileSync(path.join(root, 'dist', 'rt.cjs'), 'utf8');
      const buildLine = bundle.slice(0, bundle.indexOf('\n'));
      expect(buildLine).toMatch(/^\/\/ rt build [0-9a-f]{32}$/);
      expect(
        fs.readFileSync(SEA).includes(buildLine),
        `dist/rt is of another build than dist/rt.cjs: run npm run sea again (or remove dist/rt)`,
      ).toBe(true);
    });

    itBuilt('opens a file as text and as --json, the same LIDs in both', () => {
      const dir = repoWith({ 'f.txt': 'one\r\ntwo\n\tthree' });
      const r = sea(['open', 'f.txt'], dir);
      expectRun(r, {
        status: 0,
        stdout: /^--- f\.txt \(lines 1-3 of 3\) ---\n1:[0-9a-z]{4}\|one\n2:[0-9a-z]{4}\|two\n3:[0-9a-z]{4}\|\tthree\n$/,
        stderr: '',
      });
      const w = parseWindow(r);
      expectLids(w.lids, r);
      const doc = JSON.parse(sea(['open', 'f.txt', '--json'], dir).stdout) as {
        command: string;
        total: number;
        lines: Array<{ n: number; lid: string; text: string }>;
      };
      expect(doc).toMatchObject({ command: 'open', path: 'f.txt', total: 3 });
      expect(doc.lines.map((l) => [l.n, l.lid, l.text])).toEqual([
        [1, w.lidAt(1), 'one'],
        [2, w.lidAt(2), 'two'],
        [3, w.lidAt(3), '\tthree'],
      ]);
    });

    itBuilt(
      'edits the line of a grep hit by its LID, every other byte kept (CRLF, a byte not UTF-8, no final newline)',
      () => {
        const dir = repoWith({ 'a.txt': Buffer.from('alpha\r\nbeta needle \xff\r\n\tgamma', 'latin1') });
        const grep = sea(['grep', 'needle'], dir);
        expectRun(grep, { status: 0, stdout: /^a\.txt:2:[0-9a-z]{4}\|beta needle \uFFFD\n$/, stderr: '' });
        const hit = /^a\.txt:(2:[0-9a-z]{4})\|/.exec(grep.stdout)![1]!;
        const edit = sea(['edit', 'a.txt', hit], dir, { input: 'beta found\n' });
        expectRun(edit, { status: 0, stdout: /^edited a\.txt: 2-2 → 2-2 \(\+0\)\n/, stderr: '' });
        expect(read(dir, 'a.txt')).toEqual(Buffer.from('alpha\r\nbeta found\r\n\tgamma', 'latin1'));
      },
    );

    itBuilt('applies a patch of two files at once, and undoes it to the byte', () => {
      const dir = repoWith({ 'a.txt': 'one\ntwo\nthree\n', 'b.txt': 'four\r\nfive\r\n' });
      const a = openWith(dir, 'a.txt');
      const b = openWith(dir, 'b.txt');
      const patch =
        `*** Begin Patch\n*** Update File: a.txt\n@@ edit ${a.lidAt(2)}\n+TWO\n*** Update File: b.txt\n@@ ` +
        `insert after ${b.lidAt(2)}\n+six\n*** Add File: c.txt\n+new\n*** End Patch\n`;
      const r = sea(['apply'], dir, { input: patch });
      expect(r.status, r.text).toBe(0);
      expect(r.stderr).toBe('');
      expect(read(dir, 'a.txt').toString()).toBe('one\nTWO\nthree\n');
      expect(read(dir, 'b.txt').toString()).toBe('four\r\nfive\r\nsix\r\n');
      expect(read(dir, 'c.txt').toString()).toBe('new\n');

      const undo = sea(['undo'], dir);
      expectRun(undo, { status: 0, stdout: /^undid step 1 \(rt apply, /, stderr: '' });
      expect(read(dir, 'a.txt').toString()).toBe('one\ntwo\nthree\n');
      expect(read(dir, 'b.txt').toString()).toBe('four\r\nfive\r\n');
      expect(fs.existsSync(path.join(dir, 'c.txt'))).toBe(false);
      // The LIDs read before the apply name their lines again.
      expect(openWith(dir, 'a.txt').lids).toEqual(a.lids);
    });

    itBuilt('outlines a TypeScript file (web-tree-sitter and its grammar from the assets)', () => {
      const dir = repoWith({ 'cart.ts': TS });
      const r = sea(['outline', 'cart.ts'], dir);
      expect(r.status, r.text).toBe(0);
      expect(withoutLids(r.stdout)).toBe(TS_OUTLINE);
    });

    itBuilt(
      'refuses an edit that breaks TypeScript (exit 5, nothing written), and lets through one only ' +
        "TypeScript's parser knows is valid",
      () => {
        const dir = repoWith({ 'cart.ts': TS, 'box.ts': 'export const a = 1;\n' });
        const w = openWith(dir, 'cart.ts');
        const broken = sea(['edit', 'cart.ts', w.lidAt(3)], dir, { input: '    this.items.push((item;\n' });
        expectRun(broken, {
          status: 5,
          stdout: '',
          stderr: /^rt: the change would leave cart\.ts with a syntax error it did not have; nothing was written:\n/,
        });
        expect(read(dir, 'cart.ts').toString()).toBe(TS);
        // tree-sitter refuses `<in T>` and `accessor`; TypeScript's parser (typescript.cjs, an asset)
        // has the last word, so this goes through only if it was loaded.
        const box = openWith(dir, 'box.ts');
        expectRun(sea(['edit', 'box.ts', box.lidAt(1)], dir, { input: NEWER_TS }), {
          status: 0,
          stdout: /^edited box\.ts: 1-1 → 1-3 \(\+2\)\n/,
          stderr: '',
        });
        expect(read(dir, 'box.ts').toString()).toBe(NEWER_TS);
      },
    );

    itBuilt('runs alone: a copy in an empty folder, with no Node on PATH, opens, outlines and checks syntax', () => {
      const alone = path.join(tempDir('rt-sea-alone-'), 'rt');
      fs.copyFileSync(SEA, alone);
      fs.chmodSync(alone, 0o755);
      const dir = repoWith({ 'cart.ts': TS, 'box.ts': 'export const a = 1;\n' });
      const env = { PATH: path.join(dir, 'no-such-folder') };
      const outline = sea(['outline', 'cart.ts'], dir, { exe: alone, env });
      expect(outline.status, outline.text).toBe(0);
      expect(withoutLids(outline.stdout)).toBe(TS_OUTLINE);
      const box = parseWindow(sea(['open', 'box.ts'], dir, { exe: alone, env }));
      expectRun(sea(['edit', 'box.ts', box.lidAt(1)], dir, { exe: alone, env, input: NEWER_TS }), {
        status: 0,
        stdout: /^edited box\.ts/,
        stderr: '',
      });
    });

    itBuilt('serves rt mcp: an MCP client lists its tools and calls one', async () => {
      const dir = repoWith({ 'f.txt': 'one\ntwo\n' });
      const env = Object.fromEntries(
        Object.entries(cleanEnv()).filter((e): e is [string, string] => e[1] !== undefined),
      );
      const transport = new StdioClientTransport({ command: SEA, args: ['mcp'], cwd: dir, env, stderr: 'pipe' });
      let stderr = '';
      transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
      const client = new Client({ name: 'rt-sea-test', version: '0' });
      try {
        await client.connect(transport);
        const { tools } = await client.listTools();
        // The executable serves exactly the tools the source serves.
        expect(tools.map((t) => t.name).sort(), stderr).toEqual([...SERVED.map(toolName), 'help'].sort());
        const result = await client.callTool({ name: 'open', arguments: { target: 'f.txt' } });
        expect(result.isError ?? false, stderr).toBe(false);
        const lines = (result.structuredContent as { lines: Array<{ lid: string; text: string }> }).lines;
        expect(lines.map((l) => l.text)).toEqual(['one', 'two']);
        expect(lines.every((l) => LID_RE.test(l.lid))).toBe(true);
      } finally {
        await client.close();
      }
      expect(stderr).toBe('');
    });
  },
);
