// The floor of `rt find GLOB` on a Node CLI in a git work tree: a Node program that asks git for
// the files as rt does (tracked and untracked-but-not-ignored, in one run, only the names ending
// as the glob's literal ending, e.g. ".ts") and reads all it prints — nothing else.
// Usage: node git.cjs ENDING (in the tree)
'use strict';
const { spawn } = require('node:child_process');

const ending = process.argv[2];
const args = [
  '-c',
  'core.quotePath=off',
  'ls-files',
  '-z',
  '--cached',
  '--others',
  '--exclude-standard',
  '--deduplicate',
  '--',
  `:(glob)**/*${ending}`,
  ':(glob)**/.ignore',
];
const child = spawn('git', args, {
  stdio: ['ignore', 'pipe', 'ignore'],
  env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' },
});
let bytes = 0;
child.stdout.on('data', (chunk) => (bytes += chunk.length));
child.on('close', (status) => (process.exitCode = bytes > 0 && status === 0 ? 0 : 1));
