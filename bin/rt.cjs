#!/usr/bin/env node
'use strict';
// Runs dist/rt.cjs, the bundled CLI, compiled with V8's code cache (dist/rt.cjs.cache, made by
// the build after a sample run), so start-up skips most parsing and compiling. The cache starts
// with a fingerprint of the source it was made from: V8 itself only checks the length, and a
// cache of other code must never run. A cache that does not fit is ignored.
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { createRequire } = require('node:module');

const file = path.join(__dirname, '..', 'dist', 'rt.cjs');
const source = fs.readFileSync(file, 'utf8');
const print = fingerprint(source);
let cachedData;
try {
  const cache = fs.readFileSync(`${file}.cache`);
  if (cache.subarray(0, print.length).toString('latin1') === print) cachedData = cache.subarray(print.length);
} catch {
  cachedData = undefined; // no cache: compile as usual
}
const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
if (process.env.RT_WRITE_CODE_CACHE === file) {
  // The build asks for the cache after a sample run, when the functions it used are compiled.
  process.on('exit', () => fs.writeFileSync(`${file}.cache`, Buffer.concat([Buffer.from(print, 'latin1'), script.createCachedData()])));
}
const mod = { exports: {} };
script.runInThisContext()(mod.exports, createRequire(file), mod, file, path.dirname(file));

/** 16 hex digits: two FNV-1a hashes of the source and its length. */
function fingerprint(text) {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
  }
  return `${(a >>> 0).toString(16).padStart(8, '0')}${(b >>> 0).toString(16).padStart(8, '0')}:${text.length}\n`;
}
