// The code-cache loader (scripts/codeCache.cjs) and the bundles the build makes for it: a bundle
// carrying its own CommonJS wrapper is compiled as read, and its cache fits that very text.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

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
});
