'use strict';
// The main script of dist/rt, the single executable (scripts/sea.mjs): bin/rt.cjs's work, from
// the executable's assets instead of dist/. It runs dist/rt.cjs, the bundle, with the code cache
// the build made from a sample run (dist/rt.cjs.cache), checked the same way: the cache starts
// with the bundle's first line, which names its build. Node's own code cache of a main script
// (sea-config's useCodeCache, with dist/rt.cjs as the main script) is made without running it
// and holds less: rt open of a small file took 34.0 ms with it, 29.5 ms with this (medians of
// 100 interleaved runs). The loader between the markers is scripts/codeCache.cjs's, copied here
// by the build: edit it there.
const sea = require('node:sea');
const path = require('node:path');

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

// The name is for stack traces; there is no such file. The bundle's own sidecars come from the
// assets too (scripts/sidecars.mjs), so the __dirname it is given is never read from. This
// script's require loads Node's own modules only, which is all the bundle requires.
const file = path.join(path.dirname(process.execPath), 'rt.cjs');
runCached(sea.getAsset('rt.cjs', 'utf8'), () => Buffer.from(sea.getAsset('rt.cjs.cache')), file, require);
