// Bundled into dist/rt.cjs by scripts/build.mjs (it is not run on its own): how the bundle gets
// its sidecar files, dist/lang.cjs, dist/grammars/*, dist/typescript.cjs and dist/mcp.cjs.
// Run by bin/rt.cjs, they are files beside the bundle. Run inside a single executable
// (scripts/sea.mjs, whose main script is scripts/sea-main.cjs), there is no dist/: they are the
// executable's assets, under the same names (grammars/tree-sitter-go.wasm), and the require the
// bundle is given loads nothing but Node's modules. Which of the two is asked when a sidecar is
// first needed, so the commands that need none start as they did.

import fs from 'node:fs';
import path from 'node:path';
import { runCached } from './codeCache.cjs';

let sea;

/** node:sea when this runs as a single executable, else null (also where Node has no node:sea). */
function seaAssets() {
  if (sea === undefined) {
    try {
      const loaded = require('node:sea');
      sea = loaded.isSea() ? loaded : null;
    } catch {
      sea = null;
    }
  }
  return sea;
}

/**
 * Sidecars the build gives a V8 code cache of their own, as it gives dist/rt.cjs one, and when
 * the build's sample run writes it: lang.cjs's once it has loaded (see requireSidecar),
 * typescript.cjs's at the end of the run, so that it holds the parser's functions, compiled
 * by then (a refusal of a TypeScript change: loading TypeScript, 240 ms of CPU without a cache,
 * 50 with it; its first parse, 290 ms and 200).
 */
const CACHED = new Map([
  ['lang.cjs', 'loaded'],
  ['typescript.cjs', 'exit'],
]);

/** The exports of a CommonJS sidecar (`lang.cjs`). */
export function requireSidecar(name) {
  const assets = seaAssets();
  if (!assets) {
    if (!CACHED.has(name)) return require(path.join(__dirname, name));
    // With its code cache, as bin/rt.cjs runs dist/rt.cjs (the build makes the bundle ASCII only:
    // read as Latin-1, the same text, faster). The cache is written once the bundle has loaded,
    // before any of it runs WebAssembly: V8 stamps a cache with its flags, which starting
    // web-tree-sitter changes, and rejects one whose stamp is not its own (a cache made at exit
    // never fitted). Loading lang.cjs: 3.3 ms with it, 6.3 without.
    const file = path.join(__dirname, name);
    const save = process.env.RT_WRITE_CODE_CACHE === file ? CACHED.get(name) : undefined;
    const read = () => fs.readFileSync(`${file}.cache`);
    return runCached(fs.readFileSync(file, 'latin1'), read, file, require, save, !save);
  }
  // Compiled as Node compiles a CommonJS file, with a require that loads files and Node's modules
  // (the bundles need only Node's), without a code cache. Its name, beside the executable, is for
  // stack traces: nothing is read there.
  const { createRequire } = require('node:module');
  const filename = path.join(path.dirname(process.execPath), name);
  return runCached(assets.getAsset(name, 'utf8'), () => undefined, filename, createRequire(filename));
}

/** The bytes of a sidecar file (`grammars/tree-sitter-go.wasm`). */
export function readSidecar(name) {
  const assets = seaAssets();
  // getAsset copies the bytes out of the executable (half a millisecond for the largest grammar):
  // getRawAsset's view of them must never be written to, and what web-tree-sitter does with its
  // input is its own affair.
  return assets ? new Uint8Array(assets.getAsset(name)) : fs.readFileSync(path.join(__dirname, name));
}
