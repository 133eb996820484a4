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

// The name is for stack traces; there is no such file. The bundle's own sidecars come from the
// assets too (scripts/sidecars.mjs), so the __dirname it is given is never read from. This
// script's require loads Node's own modules only, which is all the bundle requires.
const file = path.join(path.dirname(process.execPath), 'rt.cjs');
runCached(sea.getAsset('rt.cjs', 'utf8'), () => Buffer.from(sea.getAsset('rt.cjs.cache')), file, require);
