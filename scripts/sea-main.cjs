'use strict';
// The main script of dist/rt, the single executable (scripts/sea.mjs): bin/rt.cjs's work, from
// the executable's assets instead of dist/. It runs dist/rt.cjs, the bundle, with the code cache
// the build made from a sample run (dist/rt.cjs.cache), checked the same way: the cache starts
// with the bundle's first line, which names its build. Node's own code cache of a main script
// (sea-config's useCodeCache, with dist/rt.cjs as the main script) is made without running it
// and holds less: rt open of a small file took 34.0 ms with it, 29.5 ms with this (medians of
// 100 interleaved runs).
const sea = require('node:sea');
const path = require('node:path');
const vm = require('node:vm');

const source = sea.getAsset('rt.cjs', 'utf8');
const firstLine = source.slice(0, source.indexOf('\n') + 1);
const print = firstLine.startsWith('// rt build ') ? firstLine : undefined;
let cachedData;
const cache = print && Buffer.from(sea.getAsset('rt.cjs.cache'));
if (cache && cache.subarray(0, print.length).toString('latin1') === print) cachedData = cache.subarray(print.length);
// The name is for stack traces; there is no such file. The bundle's own sidecars come from the
// assets too (scripts/sidecars.mjs), so the __dirname it is given is never read from.
const file = path.join(path.dirname(process.execPath), 'rt.cjs');
const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
  filename: file,
  cachedData,
});
const mod = { exports: {} };
// This script's require loads Node's own modules only, which is all the bundle requires.
script.runInThisContext()(mod.exports, require, mod, file, path.dirname(file));
