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

module.exports = { runCached, ownCache };
