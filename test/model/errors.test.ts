// shellQuote and printable (core/errors.ts): a path is shown on one line, and named in a command
// in a form the shell gives back exactly.

import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { printable, shellQuote } from '../../src/model/errors.js';
import { runs } from '../support/runs.js';

/** What bash makes of `quoted` as one word. */
function bashWord(quoted: string): string {
  const r = spawnSync('bash', ['-c', `printf '%s' ${quoted}`]);
  return r.stdout.toString('utf8');
}

describe('shellQuote', () => {
  it.each([
    ['f.txt', 'f.txt'],
    ['a b.txt', "'a b.txt'"],
    ["it's", "'it'\\''s'"],
    ['new\nline.txt', "$'new\\nline.txt'"],
    ['tab\there', "$'tab\\there'"],
    ["a'\\\x01\x7f\r", "$'a\\'\\\\\\x01\\x7f\\r'"],
  ])('%j → %s', (arg, quoted) => {
    expect(shellQuote(arg)).toBe(quoted);
    expect(bashWord(quoted)).toBe(arg);
  });

  it('gives bash back any text without NUL (which no argument holds)', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.oneof(
            fc.integer({ min: 1, max: 0x7f }).map((c) => String.fromCharCode(c)),
            fc.constantFrom('é', '→', '😀'),
          ),
          minLength: 1,
          maxLength: 12,
        }),
        (s) => {
          expect(bashWord(shellQuote(s))).toBe(s);
        },
      ),
      { numRuns: runs(60) },
    );
  });

  it('a path shown escaped by printable is quoted as the name it stands for, also inside a longer argument', () => {
    const name = 'dir/new\nline\x1b.txt';
    const shown = printable(name);
    expect(shown).toBe('dir/new\\x0aline\\x1b.txt');
    expect(shellQuote(shown)).toBe("$'dir/new\\nline\\x1b.txt'");
    expect(bashWord(shellQuote(`${shown}:12`))).toBe(`${name}:12`);
    // A backslash that printable did not write stays a backslash.
    expect(bashWord(shellQuote('plain\\x0a.txt'))).toBe('plain\\x0a.txt');
  });
});
