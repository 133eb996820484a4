'use strict';
// The one loader of rt's bundles with V8's code cache. Its three users take it from here:
// scripts/sidecars.mjs requires it (it is bundled into dist/rt.cjs), and scripts/build.mjs copies
// the text between the two marker lines into bin/rt.cjs and scripts/sea-main.cjs, which must
// stand alone (bin/rt.cjs is on every call's path: one more file to load would cost each run).
// test/e2e/launcher.test.ts checks that the copies are this text.
//
// Why a cache, and how it is checked: a bundle compiled with the cache made by the build's sample
// run skips most parsing and compiling. The bundle's first line names its build (a digest of its
// content, written by the build) and the cache starts with the line of the bundle it was made
// from: V8 itself only checks the length, and a cache of other code must never run. A cache that
// does not fit is ignored.

// <code-cache loader>
/**
 * Runs `source`, a CommonJS bundle named `file`, compiled with the code cache `readCache` gives
 * (none when it throws), given `requireFn` as its require; returns its exports. With `save`
 * ('loaded' or 'exit'), the cache is written to FILE.cache once the bundle has loaded, or when
 * the process exits.
 */
function runCached(source, readCache, file, requireFn, save) {
  const vm = require('node:vm');
  const firstLine = source.slice(0, source.indexOf('\n') + 1);
  const print = firstLine.startsWith('// rt build ') ? firstLine : undefined;
  let cachedData;
  try {
    const cache = print && readCache();
    if (cache && cache.subarray(0, print.length).toString('latin1') === print)
      cachedData = cache.subarray(print.length);
  } catch {
    cachedData = undefined; // no cache: compile as usual
  }
  // A bundle the build made may carry its own CommonJS wrapper after its first line: compiled as
  // read, its text is not copied once more into a wrapped string (for typescript.cjs, 9 MB).
  const wrapper = '(function (exports, require, module, __filename, __dirname) {';
  const wrapped = print !== undefined && source.startsWith(wrapper, print.length);
  const script = new vm.Script(wrapped ? source : `${wrapper}${source}\n})`, { filename: file, cachedData });
  const write = () =>
    require('node:fs').writeFileSync(
      `${file}.cache`,
      Buffer.concat([Buffer.from(print, 'latin1'), script.createCachedData()]),
    );
  if (print && save === 'exit') process.on('exit', write);
  const mod = { exports: {} };
  script.runInThisContext()(mod.exports, requireFn, mod, file, require('node:path').dirname(file));
  if (print && save === 'loaded') write();
  return mod.exports;
}
// </code-cache loader>

module.exports = { runCached };
