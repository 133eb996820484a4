// The floor of `rt find GLOB` on a Node CLI in a git work tree: a Node program that asks git for
// the files as rt does (tracked and untracked-but-not-ignored, side by side, only the names
// ending as the glob's literal ending, e.g. ".ts") and reads all it prints — nothing else.
// Usage: node git.cjs ENDING (in the tree)
'use strict';
const { spawn } = require('node:child_process');

const ending = process.argv[2];
const base = ['-c', 'core.quotePath=off', 'ls-files', '-z'];
const spec = ['--', `:(glob)**/*${ending}`, ':(glob)**/.ignore'];
let pending = 2;
let bytes = 0;
for (const which of [['--others', '--exclude-standard'], ['--cached']]) {
  const child = spawn('git', [...base, ...which, ...spec], { stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' } });
  child.stdout.on('data', (chunk) => (bytes += chunk.length));
  child.on('close', () => {
    if (--pending === 0) process.exitCode = bytes > 0 ? 0 : 1;
  });
}
