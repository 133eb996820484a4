// Bundled into dist/rt.cjs by scripts/build.mjs (it is not run on its own): how the bundle gets
// its sidecar files, dist/lang.cjs, dist/grammars/*, dist/typescript.cjs and dist/mcp.cjs.
// Run by bin/rt.cjs, they are files beside the bundle. Run inside a single executable
// (scripts/sea.mjs, whose main script is scripts/sea-main.cjs), there is no dist/: they are the
// executable's assets, under the same names (grammars/tree-sitter-go.wasm), and the require the
// bundle is given loads nothing but Node's modules. Which of the two is asked when a sidecar is
// first needed, so the commands that need none start as they did.

import fs from 'node:fs';
import path from 'node:path';

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
 * the build's sample run writes it: lang.cjs's once it has loaded (see requireCached),
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
  if (!assets)
    return CACHED.has(name)
      ? requireCached(path.join(__dirname, name), CACHED.get(name))
      : require(path.join(__dirname, name));
  // Compiled as Node compiles a CommonJS file, with a require that loads files and Node's modules
  // (the bundles need only Node's). Its name, beside the executable, is for stack traces:
  // nothing is read there.
  const { createRequire } = require('node:module');
  const vm = require('node:vm');
  const filename = path.join(path.dirname(process.execPath), name);
  const source = assets.getAsset(name, 'utf8');
  const compiled = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename,
  });
  const sidecar = { exports: {} };
  compiled.runInThisContext()(sidecar.exports, createRequire(filename), sidecar, filename, path.dirname(filename));
  return sidecar.exports;
}

/**
 * A bundle compiled with its code cache (FILE.cache), as bin/rt.cjs compiles dist/rt.cjs: the
 * build makes the bundle ASCII only (read as Latin-1, the same text, faster) and its first line
 * names its build; the cache starts with that line, so a cache of other code never runs. With
 * RT_WRITE_CODE_CACHE naming the file (the build's sample run), the cache is written.
 */
function requireCached(file, cacheWritten) {
  const vm = require('node:vm');
  const source = fs.readFileSync(file, 'latin1');
  const firstLine = source.slice(0, source.indexOf('\n') + 1);
  const print = firstLine.startsWith('// rt build ') ? firstLine : undefined;
  let cachedData;
  try {
    const cache = print && fs.readFileSync(`${file}.cache`);
    if (cache && cache.subarray(0, print.length).toString('latin1') === print)
      cachedData = cache.subarray(print.length);
  } catch {
    cachedData = undefined; // no cache: compiled as usual
  }
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
  });
  const sidecar = { exports: {} };
  script.runInThisContext()(sidecar.exports, require, sidecar, file, path.dirname(file));
  // Written once the bundle has loaded, before any of it runs WebAssembly: V8 stamps a cache with
  // its flags, which starting web-tree-sitter changes, and rejects one whose stamp is not its
  // own (a cache made at exit never fitted). Loading lang.cjs: 3.3 ms with it, 6.3 without.
  if (print && process.env.RT_WRITE_CODE_CACHE === file) {
    const write = () =>
      fs.writeFileSync(`${file}.cache`, Buffer.concat([Buffer.from(print, 'latin1'), script.createCachedData()]));
    if (cacheWritten === 'exit') process.on('exit', write);
    else write();
  }
  return sidecar.exports;
}

/** The bytes of a sidecar file (`grammars/tree-sitter-go.wasm`). */
export function readSidecar(name) {
  const assets = seaAssets();
  // getAsset copies the bytes out of the executable (half a millisecond for the largest grammar):
  // getRawAsset's view of them must never be written to, and what web-tree-sitter does with its
  // input is its own affair.
  return assets ? new Uint8Array(assets.getAsset(name)) : fs.readFileSync(path.join(__dirname, name));
}
