// Source lines stay readable: none longer than 120 characters in src/, test/, bench/ and scripts/
// (generated files and test fixtures aside). Prints each long line as PATH:N: LENGTH.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const LIMIT = 120;
const listed = execFileSync(
  'git',
  ['ls-files', '-co', '--exclude-standard', 'src', 'test', 'bench', 'scripts', 'bin'],
  {
    encoding: 'utf8',
  },
);
const files = listed
  .split('\n')
  .filter((f) => /\.(ts|mts|mjs|cjs|js)$/.test(f) && !f.includes('/fixtures/') && fs.existsSync(f));
let long = 0;
for (const file of files) {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  lines.forEach((line, i) => {
    // A generated constant (a WebAssembly module in base64) is data, not a line to read.
    if ([...line].length > LIMIT && !/^\s*'[A-Za-z0-9+/=]+';?$/.test(line)) {
      long++;
      console.log(`${file}:${i + 1}: ${[...line].length}`);
    }
  });
}
if (long > 0) {
  console.error(`rt lint: ${long} lines longer than ${LIMIT} characters`);
  process.exitCode = 1;
}
