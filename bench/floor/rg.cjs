// The floor of `rt grep -F` on a Node CLI: a Node program that starts ripgrep as rt does (same
// arguments, same environment) and reads all it prints — nothing else. `rt grep` can be no
// faster than this; the bench reports how far above it rt is, and where this floor lies
// against ripgrep alone. Usage: node rg.cjs LITERAL DIR
'use strict';
const { spawn } = require('node:child_process');

const [literal, dir] = process.argv.slice(2);
const args = [
  '--line-number',
  '--no-heading',
  '--max-columns',
  '16384',
  '--null',
  '--text',
  '--encoding',
  'none',
  '--no-messages',
  '--no-config',
  '--no-ignore-dot',
  '--no-ignore-global',
  '--fixed-strings',
  '--regexp',
  literal,
  '--',
  dir,
];
const child = spawn('rg', args, {
  stdio: ['ignore', 'pipe', 'ignore'],
  env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
});
let bytes = 0;
child.stdout.on('data', (chunk) => (bytes += chunk.length));
child.on('close', (status) => (process.exitCode = bytes > 0 && status === 0 ? 0 : 1));
