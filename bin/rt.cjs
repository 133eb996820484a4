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
 * the process exits. With `ownToo`, the cache made for this Node and its flags (see ownCache) is
 * read first, and made once the bundle has loaded when no cache fitted.
 */
function runCached(source, readCache, file, requireFn, save, ownToo) {
  const own = ownToo ? ownCache(file) : undefined;
  const vm = require('node:vm');
  const fs = require('node:fs');
  const firstLine = source.slice(0, source.indexOf('\n') + 1);
  const print = firstLine.startsWith('// rt build ') ? firstLine : undefined;
  const fits = (read) => {
    try {
      const cache = print && read();
      if (cache && cache.subarray(0, print.length).toString('latin1') === print) return cache.subarray(print.length);
    } catch {
      // no cache: compile as usual
    }
    return undefined;
  };
  const ownData = own && fits(() => fs.readFileSync(own));
  const cachedData = ownData ?? fits(readCache);
  // A bundle the build made may carry its own CommonJS wrapper after its first line: compiled as
  // read, its text is not copied once more into a wrapped string (for typescript.cjs, 9 MB).
  const wrapper = '(function (exports, require, module, __filename, __dirname) {';
  const wrapped = print !== undefined && source.startsWith(wrapper, print.length);
  const script = new vm.Script(wrapped ? source : `${wrapper}${source}\n})`, { filename: file, cachedData });
  const write = () =>
    fs.writeFileSync(`${file}.cache`, Buffer.concat([Buffer.from(print, 'latin1'), script.createCachedData()]));
  if (print && save === 'exit') process.on('exit', write);
  const mod = { exports: {} };
  script.runInThisContext()(mod.exports, requireFn, mod, file, require('node:path').dirname(file));
  if (print && save === 'loaded') write();
  // Made once for each Node and flags (an own cache of this build V8 rejected was made under the
  // flags a run reached, not those it starts with: made again, it would be rejected again).
  if (print && own && !ownData && (cachedData === undefined || script.cachedDataRejected)) keepOwn(own, print, script);
  return mod.exports;
}

/**
 * Own caches made beside a bundle at most (each about its size; two runs making their first at
 * once may pass it by one). None is removed but by the next build: past eight sets of flags, the
 * others run as if there were none, as before.
 */
const OWN_CACHES = 8;

/**
 * The name of the cache of the bundle `file` made by this Node under its flags: V8 rejects a
 * cache made under other flags of its own (--max-old-space-size in NODE_OPTIONS, say), and the
 * bundle then compiles as if it had none (some 20 ms of each start of rt). Undefined for a Node
 * started with no flags, as the build makes its caches (after a whole sample run: a better fit).
 */
function ownCache(file) {
  const options = process.env.NODE_OPTIONS ?? '';
  if (process.execArgv.length === 0 && options.trim() === '') return undefined;
  const key = `${process.version}\0${process.execArgv.join('\0')}\0${options}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return `${file}.cache-${(h >>> 0).toString(36)}`;
}

/** Writes `script`'s cache to `own` (whole, through a temporary), unless OWN_CACHES are there already. */
function keepOwn(own, print, script) {
  const fs = require('node:fs');
  const path = require('node:path');
  const prefix = `${path.basename(own).slice(0, path.basename(own).lastIndexOf('-'))}-`;
  const temporary = `${own}.${process.pid}.tmp`;
  try {
    const made = fs.readdirSync(path.dirname(own)).filter((name) => name.startsWith(prefix) && !name.endsWith('.tmp'));
    if (made.length >= OWN_CACHES) return;
    fs.writeFileSync(temporary, Buffer.concat([Buffer.from(print, 'latin1'), script.createCachedData()]), {
      flag: 'wx',
    });
    fs.renameSync(temporary, own);
  } catch {
    // A folder rt cannot write to (installed by another user): it runs without.
    try {
      fs.unlinkSync(temporary);
    } catch {
      // not made
    }
  }
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
  process.env.RT_WRITE_CODE_CACHE !== file,
);
