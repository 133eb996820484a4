#!/bin/sh
':' //; unset NODE_EXTRA_CA_CERTS; exec node "$0" "$@"
'use strict';
// The two lines above are for the shell, which runs this file first (JavaScript reads the second
// as a string and a comment): Node reads NODE_EXTRA_CA_CERTS's whole certificate file at every
// start (some 40 ms where it is set), and rt makes no network connection, so the shell drops it
// and runs Node on this same file. Run as `node bin/rt.cjs`, the file goes straight to Node.
// Node keeps its four threads for V8's background work: one (--v8-pool-size=1) lowered a big
// edit's peak by some 3.6 MB but moved collecting onto the main thread, 15% more of its time in
// `rt refs` and a many-file grep, which idle cores would have spent in parallel.
// No formatter touches this file (biome.json): a `;` after ':' would make the shell run `//`.
// Runs dist/rt.cjs, the bundled CLI, compiled with V8's code cache (dist/rt.cjs.cache, made by
// the build after a sample run), so start-up skips most parsing and compiling. The loader
// between the markers is scripts/codeCache.cjs's, copied here by the build: edit it there.
const fs = require('node:fs');
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

const file = path.join(__dirname, '..', 'dist', 'rt.cjs');
// The build makes the bundle ASCII only: read as Latin-1, it is the same text, made faster. The
// build asks for the cache after a sample run, when the functions it used are compiled. The
// bundle requires only Node's own modules, which this file's require loads as well.
runCached(
  fs.readFileSync(file, 'latin1'),
  () => fs.readFileSync(`${file}.cache`),
  file,
  require,
  process.env.RT_WRITE_CODE_CACHE === file ? 'exit' : undefined,
);
