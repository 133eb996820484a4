#!/usr/bin/env node
'use strict';
// Runs dist/rt.cjs, the bundled CLI, compiled with V8's code cache (dist/rt.cjs.cache, made by
// the build after a sample run), so start-up skips most parsing and compiling. A cache made by
// another Node version is rejected by V8 and the code is compiled as usual.
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { createRequire } = require('node:module');

const file = path.join(__dirname, '..', 'dist', 'rt.cjs');
let cachedData;
try {
  cachedData = fs.readFileSync(`${file}.cache`);
} catch {
  cachedData = undefined; // no cache: compile normally
}
const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${fs.readFileSync(file, 'utf8')}\n})`, {
  filename: file,
  cachedData,
});
if (process.env.RT_WRITE_CODE_CACHE === file) {
  // The build asks for the cache after a sample run, when the functions it used are compiled.
  process.on('exit', () => fs.writeFileSync(`${file}.cache`, script.createCachedData()));
}
const mod = { exports: {} };
script.runInThisContext()(mod.exports, createRequire(file), mod, file, path.dirname(file));
