#!/bin/sh
':' //; unset NODE_EXTRA_CA_CERTS; exec node "$0" "$@"
'use strict';
// The two lines above are for the shell, which runs this file first (JavaScript reads the second
// as a string and a comment): Node reads NODE_EXTRA_CA_CERTS's whole certificate file at every
// start (some 40 ms where it is set), and rt makes no network connection, so the shell drops it
// and runs Node on this same file. Run as `node bin/rt.cjs`, the file goes straight to Node.
// Runs dist/rt.cjs, the bundled CLI, compiled with V8's code cache (dist/rt.cjs.cache, made by
// the build after a sample run), so start-up skips most parsing and compiling. The bundle's
// first line names its build (a digest of its content, written by the build) and the cache
// starts with the line of the bundle it was made from: V8 itself only checks the length, and a
// cache of other code must never run. A cache that does not fit is ignored.
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const file = path.join(__dirname, '..', 'dist', 'rt.cjs');
// The build makes the bundle ASCII only: read as Latin-1, it is the same text, made faster.
const source = fs.readFileSync(file, 'latin1');
const firstLine = source.slice(0, source.indexOf('\n') + 1);
const print = firstLine.startsWith('// rt build ') ? firstLine : undefined;
let cachedData;
try {
  const cache = print && fs.readFileSync(`${file}.cache`);
  if (cache && cache.subarray(0, print.length).toString('latin1') === print) cachedData = cache.subarray(print.length);
} catch {
  cachedData = undefined; // no cache: compile as usual
}
const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
if (print && process.env.RT_WRITE_CODE_CACHE === file) {
  // The build asks for the cache after a sample run, when the functions it used are compiled.
  process.on('exit', () => fs.writeFileSync(`${file}.cache`, Buffer.concat([Buffer.from(print, 'latin1'), script.createCachedData()])));
}
const mod = { exports: {} };
// The bundle requires only Node's own modules, which this file's require loads as well.
script.runInThisContext()(mod.exports, require, mod, file, path.dirname(file));

