// POSIX classes ([[:digit:]], [^[:space:],], [[:^alpha:]]) in rt grep and grep-file: the lines
// ripgrep finds, counted as rg -c counts them, on every path a search takes (ripgrep's
// prefilter, git grep's, none, and -P through ripgrep's PCRE2), and with -i and -S as ripgrep
// takes them; what rt cannot read as ripgrep does is refused (exit 2), never changed.

import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, expectRun, run, tempRepo, write } from './harness.js';
import { git } from './search-fixture.js';

afterAll(cleanup);

const hasRipgrep = spawnSync('rg', ['--version']).status === 0;
const hasRipgrepPcre = spawnSync('rg', ['--pcre2-version']).status === 0;

const dir = tempRepo();
write(
  dir,
  'src/lib.rs',
  'fn parse_u32(x: &str) -> u32 {\n    let n = 42;\n    version_2 = "v1.2";\n}\nStruct Error_Kind\n\tTabbed line\n',
);
write(
  dir,
  'src/notes.md',
  '# Notes\nversion 3 of this\nnothing here\nPunct: a,b;c!\nVERSION 9\n\u017Fmall \u212Aelvin \u00e9t\u00e9\n',
);
write(dir, 'data/hex.txt', 'deadBEEF 0x1f\nzz\nversion\t7\n');
git(dir, ['add', '.']);

/** No prefilter at all: rt reads every file. */
const PATHS = [
  ...(hasRipgrep ? [{ name: 'ripgrep prefilter', env: {} }] : []),
  { name: 'git grep prefilter', env: { RT_RIPGREP: 'off' } },
  { name: 'no prefilter', env: { RT_RIPGREP: 'off', RT_GIT_GREP: 'off' } },
];

/** rg -c's answer, sorted as rt sorts its files. */
function ripgrepCounts(flags: readonly string[], pattern: string): string {
  const r = spawnSync('rg', ['--no-config', '-c', ...flags, '-e', pattern, '.'], { cwd: dir, encoding: 'utf8' });
  expect([0, 1]).toContain(r.status);
  return sorted(r.stdout.replace(/^\.\//gm, ''));
}

/** Lines of output, sorted. */
function sorted(out: string): string {
  return out
    .split('\n')
    .filter(Boolean)
    .sort()
    .map((l) => `${l}\n`)
    .join('');
}

// With a literal of three bytes or more, so that each prefilter is asked.
const PATTERNS = [
  '[[:digit:]]',
  'version[[:space:]_]+[[:digit:]]',
  'version[^[:alpha:],]',
  'fn[[:blank:]][[:lower:]_]+[[:digit:]]+',
  '[[:upper:]][[:lower:]]+_[[:upper:]]',
  '[[:xdigit:]]{8}',
  'Punct[[:punct:]]',
  'Error[[:^alnum:]]Kind',
  '[[:^space:][:^digit:]]mall',
  'v[[:digit:]][[:punct:]][[:digit:]]',
  // A negated POSIX class beside other characters: an alternative, or a lookahead, in JavaScript.
  'version[,[:^alpha:]]',
  'Punct[^a[:^punct:]]',
  // A "]" first in a class is the character itself, as in ripgrep.
  'Punct[]:[:space:]]',
  'version[^][:alpha:]]',
  'Punct[]:]',
];

describe.skipIf(!hasRipgrep).each(PATHS)('POSIX classes through the $name', ({ env }) => {
  for (const pattern of PATTERNS) {
    for (const flags of [[], ['-i'], ['-S']]) {
      it(`rt grep -c ${flags.join(' ')} '${pattern}' counts what rg -c counts`, () => {
        const r = run(['grep', '-c', ...flags, pattern], dir, { env });
        expect(r.stderr).toBe('');
        expect(sorted(r.stdout)).toBe(ripgrepCounts(flags, pattern));
      });
    }
  }
});

describe.skipIf(!hasRipgrepPcre)("POSIX classes with -P (ripgrep's PCRE2 reads them itself)", () => {
  for (const pattern of ['[[:digit:]]', 'version[^[:alpha:],]', '[[:^space:][:^digit:]]mall', '[[:upper:]]{2}']) {
    it(`rt grep -c -P '${pattern}' counts what rg -c -P counts`, () => {
      const r = run(['grep', '-c', '-P', pattern], dir);
      expect(r.stderr).toBe('');
      expect(sorted(r.stdout)).toBe(ripgrepCounts(['-P'], pattern));
    });
  }
});

describe('POSIX classes in grep-file', () => {
  it('finds the lines ripgrep finds, and their matches with -o', () => {
    expectRun(run(['grep-file', '-c', '[[:digit:]]', 'src/lib.rs'], dir), { status: 0, stdout: '3\n', stderr: '' });
    expectRun(run(['grep-file', '-o', '-i', '[[:upper:]]{5}', 'src/notes.md'], dir), {
      status: 0,
      stdout: /^\d+:\w{4}\|Notes\n/,
      stderr: '',
    });
  });
});

describe.skipIf(!hasRipgrep)('a "]" first in a class is the character itself, as in ripgrep', () => {
  it.each(['[][:digit:]]x', '[^][:alpha:]]x', '[]a]x', '[^]a]x', '[]]x'])(
    'rt grep-file %s finds the lines rg finds',
    (pattern) => {
      write(dir, 'bracket.txt', ']x\n5x\nax\n^x\n');
      const r = spawnSync('rg', ['--no-config', '-n', '-e', pattern, 'bracket.txt'], { cwd: dir, encoding: 'utf8' });
      expect(r.status).toBe(0);
      const got = run(['grep-file', pattern, 'bracket.txt'], dir);
      expect(got.stderr).toBe('');
      expect(got.stdout.replace(/^(\d+):[^|]*\|/gm, '$1:')).toBe(r.stdout);
      expect(got.status).toBe(0);
    },
  );

  it.each(['[]', '[^]'])('%s is refused (exit 2), as rg refuses it, not read as JavaScript reads it', (pattern) => {
    expectRun(run(['grep-file', pattern, 'src/lib.rs'], dir), {
      status: 2,
      stdout: '',
      stderr: /^rt: invalid pattern "\[\^?\]": /,
    });
  });
});

describe('a pattern error quotes the pattern as given, not as rt rewrote it', () => {
  it.each([
    [['[[:digit:]]('], /^rt: invalid pattern "\[\[:digit:\]\]\(": Unterminated group\n/],
    [['-S', '(?i)[[:upper:]]'], /^rt: invalid pattern "\(\?i\)\[\[:upper:\]\]": Invalid group\n/],
  ])('%j', (args, stderr) => {
    expectRun(run(['grep-file', ...args, 'src/lib.rs'], dir), { status: 2, stdout: '', stderr });
    expectRun(run(['grep', ...args], dir), { status: 2, stdout: '', stderr });
  });
});

describe('a class rt cannot read as ripgrep does is refused (exit 2), nothing searched', () => {
  it.each([
    [
      '[[:Digit:]]',
      new RegExp(
        String.raw`^rt: unknown POSIX class \[:Digit:\], in the pattern "\[\[:Digit:\]\]"\nrt: the POSIX classes ` +
          'are alnum, alpha, ',
      ),
    ],
    ['[a-[:digit:]]', /^rt: a range cannot end at the POSIX class \[:digit:\]/],
    ['[[:digit:]&&[:xdigit:]]', /set operation \(&&, --, ~~\)/],
    ['x[[:digit:]', /^rt: the class "\[\[:digit:\]" is not closed/],
  ])('%s', (pattern, stderr) => {
    for (const command of [
      ['grep', pattern],
      ['grep-file', pattern, 'src/lib.rs'],
    ]) {
      expectRun(run(command, dir), { status: 2, stdout: '', stderr });
    }
  });

  it('with -F the pattern is a string, POSIX class or not', () => {
    write(dir, 'literal.txt', 'a [[:Digit:]] here\n');
    expectRun(run(['grep-file', '-F', '-c', '[[:Digit:]]', 'literal.txt'], dir), {
      status: 0,
      stdout: '1\n',
      stderr: '',
    });
  });
});
