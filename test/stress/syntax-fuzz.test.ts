// 10. The syntax check meets text that is not code: random bytes, control characters, a
// highlighter's ANSI escapes, brackets nested 20,000 deep and a 10 MB line, in a file of every
// language rt checks, written by create, edit and apply. The check may refuse (exit 5), skip
// with a one-line note or pass; it never ends in an internal error, a stack trace or a status
// outside 0–5.

import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, tempRepo, write } from '../e2e/harness.js';
import { FULL, SCENARIO_TIMEOUT, SEED, pick, random } from './config.js';
import { Tally } from './figures.js';
import { crashOf, runAsync, type Finished } from './proc.js';

afterAll(cleanup);

/** A small valid file of each language the check reads, by the name that tells its language. */
const BASES: Record<string, string> = {
  'a.js': 'const a = 1;\nconst b = 2;\nconst c = 3;\n',
  'a.ts': 'const a = 1;\nconst b = 2;\nconst c = 3;\n',
  'a.tsx': 'const a = <div />;\nconst b = 2;\nconst c = 3;\n',
  'a.json': '{\n  "a": 1,\n  "b": 2\n}\n',
  'tsconfig.json': '{\n  // c\n  "a": 1,\n}\n',
  'a.json5': '{\n  a: 1,\n  b: 2,\n}\n',
  'a.py': 'a = 1\nb = 2\nc = 3\n',
  'a.go': 'package a\n\nvar b = 2\n',
  'a.rs': 'fn a() {}\nfn b() {}\nfn c() {}\n',
  'A.java': 'class A {\n  int b = 2;\n}\n',
  'a.c': 'int a = 1;\nint b = 2;\nint c = 3;\n',
  'a.cpp': 'int a = 1;\nint b = 2;\nint c = 3;\n',
  'a.cs': 'class A {\n  int b = 2;\n}\n',
  'a.rb': 'a = 1\nb = 2\nc = 3\n',
  'a.php': '<?php\n$b = 2;\n$c = 3;\n',
  'a.sh': 'a=1\nb=2\nc=3\n',
  'a.css': 'a {}\nb {}\nc {}\n',
  'a.yaml': 'a: 1\nb: 2\nc: 3\n',
};

type Rand = () => number;

/** The odd texts, by name: each a function of the generator, so that the same seed gives the same bytes. */
const TEXTS: Record<string, (r: Rand) => Buffer> = {
  'random bytes': (r) => Buffer.from(Array.from({ length: pick(2_000, 64_000) }, () => Math.floor(r() * 256))),
  'control characters': (r) =>
    Buffer.from(
      Array.from({ length: pick(2_000, 64_000) }, () =>
        r() < 0.5 ? Math.floor(r() * 32) : r() < 0.5 ? 0x7f : 0x20 + Math.floor(r() * 95),
      ),
    ),
  'ANSI escapes': (r) => {
    const words = [
      'let',
      'x',
      '=',
      '1000',
      ';',
      'def',
      'f',
      '(',
      ')',
      '{',
      'return',
      '}',
      '"text"',
      'if',
      'else',
      '[',
      ']',
      '=>',
      ':',
      '-',
    ];
    const tokens = Array.from(
      { length: pick(600, 6_000) },
      (_, i) => `\x1b[38;2;${Math.floor(r() * 256)};2;3m${words[i % words.length]}\x1b[0m${i % 7 === 0 ? '\n' : ' '}`,
    );
    return Buffer.from(tokens.join(''));
  },
  '[ 20,000 deep': () => Buffer.from(`x = ${'['.repeat(20_000)}${']'.repeat(19_999)}\n`),
  '( 20,000 deep': () => Buffer.from(`x = ${'('.repeat(20_000)}${')'.repeat(19_999)}\n`),
  '{ 20,000 deep': () => Buffer.from(`x = ${'{'.repeat(20_000)}${'}'.repeat(19_999)}\n`),
  'a 10 MB line': () => Buffer.from(`x = ${'[1, (2), {a: 3}], '.repeat(pick(50_000, 530_000))}\n`),
};

const OPERATIONS = ['create', 'edit', 'apply'] as const;

/** The quick form (in npm test) samples a few files and texts; the full form runs every one with every operation. */
const FILES = FULL ? Object.keys(BASES) : ['a.ts', 'a.go'];
const QUICK_TEXTS = ['random bytes', 'ANSI escapes', '( 20,000 deep', 'a 10 MB line'];

/** A crash here: as the other scenarios count one, but exit 5 (a refusal by the check) is an answer. */
function crashHere(r: Finished): string | undefined {
  return crashOf(r.status === 5 ? { ...r, status: 0 } : r);
}

const tally = new Tally('10 syntax fuzz: odd text in every checked language (create, edit, apply)');
const outcomes = { refused: 0, skipped: 0, written: 0, other: 0 };

afterAll(() => {
  tally.notes =
    `refused ${outcomes.refused}, skipped with a note ${outcomes.skipped}, written ` +
    `checked ${outcomes.written}, other exits ${outcomes.other}`;
  tally.record();
});

describe('stress: the syntax check meets text that is not code', () => {
  it.each(FILES)(
    '%s: random bytes, control characters, ANSI escapes, 20,000-deep nesting and a long line through create, ' +
      'edit and apply: no internal error',
    async (file) => {
      const r = random(SEED ^ 0xa ^ file.length);
      const dir = tempRepo();
      const names = FULL ? Object.keys(TEXTS) : QUICK_TEXTS;
      let k = 0;
      let made = 0;
      for (const name of names) {
        const text = TEXTS[name]!(r);
        // The quick form rotates the operations, the full one runs each.
        for (const operation of FULL ? OPERATIONS : [OPERATIONS[k++ % OPERATIONS.length]!]) {
          write(dir, file, BASES[file]!);
          const target = `new-${made++}-${file}`;
          const patch = Buffer.concat([
            Buffer.from(`*** Begin Patch\n*** Add File: ${target}\n`),
            ...text
              .toString('latin1')
              .split('\n')
              .map((row) => Buffer.from(`+${row}\n`, 'latin1')),
            Buffer.from(
              `*** Update File: ${file}\n@@\n ${BASES[file]!.split('\n')[0]}\n` +
                `+${text.toString('latin1').split('\n')[0]}\n*** End Patch\n`,
              'latin1',
            ),
          ]);
          const args =
            operation === 'create'
              ? ['create', target]
              : operation === 'edit'
                ? ['edit', file, '2', '--force']
                : ['apply'];
          const res = await runAsync(args, dir, {
            input: operation === 'apply' ? patch : text,
            timeoutMs: pick(120_000, 300_000),
          });
          tally.trials++;
          const crash = crashHere(res);
          if (crash) tally.fail('crashes', `${file}, ${name}, ${operation}: ${crash}: ${res.stderr.slice(0, 300)}`);
          if (res.status === 5) outcomes.refused++;
          else if (/was not syntax-checked/.test(res.stderr)) outcomes.skipped++;
          else if (res.status === 0) outcomes.written++;
          else outcomes.other++;
        }
      }
      expect(tally.clean, tally.summary()).toBe(true);
    },
    SCENARIO_TIMEOUT,
  );
});
