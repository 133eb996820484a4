// The code-cache loader (scripts/codeCache.cjs) and the bundles the build makes for it: a bundle
// carrying its own CommonJS wrapper is compiled as read, and its cache fits that very text.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import os from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const WRAPPER = '(function (exports, require, module, __filename, __dirname) {';
const req = createRequire(import.meta.url);
const { runCached } = req(path.join(root, 'scripts', 'codeCache.cjs')) as {
  runCached: (source: string, readCache: () => Buffer, file: string, requireFn: NodeRequire) => unknown;
};

describe('code-cache loader', () => {
  it('runs a bundle that carries its wrapper as one that does not, with the same arguments', () => {
    const body =
      "module.exports = { file: __filename, dir: __dirname, sep: require('node:path').sep, self: typeof exports };";
    const file = path.join(root, 'dist', 'probe.cjs');
    const noCache = () => {
      throw new Error('no cache');
    };
    const bare = runCached(`// rt build 0\n${body}`, noCache, file, req);
    const wrapped = runCached(`// rt build 0\n${WRAPPER}${body}\n})`, noCache, file, req);
    expect(wrapped).toEqual({ file, dir: path.dirname(file), sep: path.sep, self: 'object' });
    expect(bare).toEqual(wrapped);
  });

  it("dist/rt.cjs and dist/typescript.cjs carry their wrapper, and dist/rt.cjs's cache fits its text as read", () => {
    for (const name of ['rt.cjs', 'typescript.cjs']) {
      const text = fs.readFileSync(path.join(root, 'dist', name), 'latin1');
      const print = text.slice(0, text.indexOf('\n') + 1);
      expect(print, name).toMatch(/^\/\/ rt build [0-9a-f]{32}\n$/);
      expect(text.startsWith(WRAPPER, print.length), name).toBe(true);
      expect(text.endsWith('\n})'), name).toBe(true);
    }
    // In a Node of its own, started as the build's sample run starts it: V8 takes a cache only
    // under the flags it was made with.
    const check = [
      "const fs = require('node:fs'); const vm = require('node:vm');",
      'const file = process.argv[1]; const text = fs.readFileSync(file, "latin1");',
      'const print = text.slice(0, text.indexOf("\\n") + 1); const cache = fs.readFileSync(file + ".cache");',
      'if (cache.subarray(0, print.length).toString("latin1") !== print) throw new Error("another build");',
      'const script = new vm.Script(text, { filename: file, cachedData: cache.subarray(print.length) });',
      'process.stdout.write(String(script.cachedDataRejected));',
    ].join('\n');
    const r = spawnSync(process.execPath, ['-e', check, path.join(root, 'dist', 'rt.cjs')], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('false');
  });

  describe('a cache of its own for a Node started with flags', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-own-cache-'));
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
    const loader = path.join(root, 'scripts', 'codeCache.cjs');
    const bundle = path.join(dir, 'probe.cjs');
    fs.writeFileSync(bundle, `// rt build 1\n${WRAPPER}module.exports = [1, 2, 3].map((n) => n * 2);\n})`);
    /**
     * Runs the probe bundle through the loader in a Node of its own started with `flags` (no NODE_OPTIONS), as
     * bin/rt.cjs runs rt (`save`: as the build's sample run); prints the own cache's name, and whether V8 took
     * the cache it was given.
     */
    const run = (flags: string[], save?: string) => {
      const script = [
        `const { runCached, ownCache } = require(${JSON.stringify(loader)});`,
        "const fs = require('node:fs'); const vm = require('node:vm'); const file = process.argv[2];",
        `const save = ${JSON.stringify(save)}; const own = save ? undefined : ownCache(file);`,
        // One compile a process: V8 keeps what it compiled, and a second compile of the same text takes no cache.
        'const Script = vm.Script; let taken = null;',
        'vm.Script = function (text, options) { const s = new Script(text, options);',
        '  if (options.cachedData) taken = !s.cachedDataRejected; return s; };',
        "const out = runCached(fs.readFileSync(file, 'latin1'), () => fs.readFileSync(file + '.cache'), file,",
        '  require, save, !save);',
        'process.stdout.write(JSON.stringify({ out, own: own && require("node:path").basename(own), taken }));',
      ].join('\n');
      // A file, not -e: what -e runs is among the flags Node was started with.
      const runner = path.join(dir, 'run.cjs');
      fs.writeFileSync(runner, script);
      const r = spawnSync(process.execPath, [...flags, runner, bundle], {
        encoding: 'utf8',
        env: { ...process.env, NODE_OPTIONS: '' },
      });
      expect(r.stderr).toBe('');
      return JSON.parse(r.stdout) as { out: number[]; own: string | undefined; taken: boolean | null };
    };
    const owns = () => fs.readdirSync(dir).filter((name) => name.startsWith('probe.cjs.cache-'));

    it('makes none with no flags, one when the cache given does not fit, and uses it', () => {
      expect(run([], 'loaded')).toEqual({ out: [2, 4, 6], own: undefined, taken: null });
      expect(run([])).toEqual({ out: [2, 4, 6], own: undefined, taken: true });
      expect(owns()).toEqual([]);
      const first = run(['--stack-size=900']);
      expect(first.taken).toBe(false);
      expect(first.own).toMatch(/^probe\.cjs\.cache-[0-9a-z]+$/);
      expect(owns()).toEqual([first.own]);
      const made = fs.statSync(path.join(dir, first.own!));
      // Run again under the same flags: the own cache is taken, not made again.
      expect(run(['--stack-size=900'])).toEqual({ out: [2, 4, 6], own: first.own, taken: true });
      expect(fs.statSync(path.join(dir, first.own!)).mtimeMs).toBe(made.mtimeMs);
      const other = run(['--stack-size=901']);
      expect(other.own).not.toBe(first.own);
      expect(owns().sort()).toEqual([first.own, other.own].sort());
    });

    it('does not make again an own cache of this build that V8 rejects, nor more than eight', () => {
      const rejected = run(['--stack-size=902']).own!;
      // The cache made with no flags under this one's name: this build's, but made under other flags.
      fs.copyFileSync(path.join(dir, 'probe.cjs.cache'), path.join(dir, rejected));
      const before = fs.readFileSync(path.join(dir, rejected));
      expect(run(['--stack-size=902']).taken).toBe(false);
      expect(fs.readFileSync(path.join(dir, rejected)).equals(before)).toBe(true);
      for (let size = 904; owns().length < 8; size++) run([`--stack-size=${size}`]);
      expect(run(['--stack-size=950']).out).toEqual([2, 4, 6]);
      expect(owns()).toHaveLength(8);
      expect(fs.readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    });
  });
});
