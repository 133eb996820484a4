// A quick fuzz of the command line: random commands, anchors, flags, paths and stdin. Every
// run must end with a status from 0 to 4, print no stack trace, and write stderr only as
// `rt: ` lines (or help text). Seeded, so a failure repeats.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, run, tempRepo } from './harness.js';

afterAll(cleanup);

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const COMMANDS = [
  'open',
  'scroll',
  'find',
  'grep',
  'grep-file',
  'edit',
  'insert',
  'delete',
  'create',
  'completions',
  'help',
  'bogus',
];
const WORDS = [
  'f.txt',
  'f.txt:1',
  'f.txt:0',
  'f.txt:9-2',
  'f.txt:zzzz',
  'f.txt:ZZZZ',
  'bin.dat',
  'd',
  'd/',
  '../x',
  '/etc/passwd',
  '$',
  'end',
  '1',
  '2:abcd',
  '-',
  '+',
  '--',
  '--force',
  '--after',
  '--diff',
  '--dry-run',
  '--json',
  '--color',
  'always',
  '--window',
  '0',
  '3',
  '-C',
  '-1',
  '--max',
  'x',
  '-g',
  '!*.txt',
  '-i',
  '-w',
  '-F',
  '-l',
  '--hidden',
  '--no-ignore',
  '(',
  '[a-',
  '.*',
  '',
  'é',
  'a'.repeat(3000),
  '--root',
  '/',
  'bash',
  'agents',
  'x:y:z',
  '.rt/x',
  '.git/config',
  'new/file.txt',
];
const INPUTS = ['', 'x\n', 'a\u0000b\n', '\u00ff\u00fe\n', 'y'.repeat(50_000), '\r\n\r\n'];

describe('CLI fuzz', () => {
  it('every random invocation ends 0–4, with no stack trace and only rt: lines on stderr', () => {
    const dir = tempRepo();
    fs.writeFileSync(path.join(dir, 'f.txt'), Buffer.from('a\nb\r\nc\n\xff\n', 'latin1'));
    fs.writeFileSync(path.join(dir, 'bin.dat'), Buffer.from('x\u0000y'));
    fs.mkdirSync(path.join(dir, 'd'));
    fs.writeFileSync(path.join(dir, 'd', 'g.txt'), 'hi\n');
    const next = random(20261122);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
    for (let i = 0; i < 120; i++) {
      const argv = [pick(COMMANDS), ...Array.from({ length: Math.floor(next() * 5) }, () => pick(WORDS))];
      const r = run(argv, dir, { input: pick(INPUTS) });
      expect(r.status, r.text).not.toBeNull();
      expect(r.status! >= 0 && r.status! <= 4, r.text).toBe(true);
      expect(r.stderr, r.text).not.toMatch(/\n\s+at |internal error|TypeError|RangeError/);
      const isHelp = /^Usage: rt/m.test(r.stdout + r.stderr);
      if (!isHelp) for (const line of r.stderr.split('\n').filter(Boolean)) expect(line, r.text).toMatch(/^rt: /);
    }
  }, 120_000);
});
