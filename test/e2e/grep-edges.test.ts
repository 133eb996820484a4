// Rough edges of the searches a user trial found: "." and the characters JavaScript's "." leaves
// out (on every path a search can take), binary files named on the command line, a match past the
// display cut, and a regular expression that backtracks without end.

import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, expectRun, parseWindow, run, tempDir, tempRepo, write } from './harness.js';
import { git, outLines, parseHit } from './search-fixture.js';

afterAll(cleanup);

const hasRipgrep = spawnSync('rg', ['--version']).status === 0;
const realGit = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
const realRg = spawnSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).stdout.trim();

/**
 * A folder of programs named `name` that log their arguments (one run a line) to `log`, then run
 * the real one; with `refuse`, a run whose arguments hold it fails as a git without PCRE does.
 */
function logging(name: string, real: string, refuse?: string): { bin: string; log: string } {
  const bin = tempDir('rt-bin-');
  const log = path.join(bin, 'log');
  const refusal = refuse
    ? `for a in "$@"; do [ "$a" = ${refuse} ] && { echo "fatal: cannot use Perl-compatible regexes when not ` +
      `compiled with USE_LIBPCRE" >&2; exit 128; }; done\n`
    : '';
  write(bin, name, `#!/bin/sh\necho "$*" >> ${log}\n${refusal}exec ${real} "$@"\n`);
  chmodSync(path.join(bin, name), 0o755);
  write(bin, 'log', '');
  return { bin, log };
}

describe('"." matches any character of a line: a \\r that ends no line, U+2028, U+2029', () => {
  const dir = tempRepo();
  // Three lines that grep and ripgrep match with abc.def, two they do not (a line ending between).
  const lines = ['abc\rdef', 'abc\u2028def', 'abc\u2029def', 'abcdef', 'abc', 'def', 'abc\r', 'def'];
  write(dir, 'dot.txt', `${lines.join('\n')}\n`);
  write(dir, 'crlf.txt', 'abc\r\ndef\r\nabc\u2028def\r\n');
  write(dir, 'other.txt', 'nothing here\n');
  git(dir, ['add', '.']);
  const expected = new RegExp(
    String.raw`^crlf\.txt:3:\w{4}\|abc\u2028def\ndot\.txt:1:\w{4}\|abc\rdef\n` +
      String.raw`dot\.txt:2:\w{4}\|abc\u2028def\ndot\.txt:3:\w{4}\|abc\u2029def\n$`,
  );

  const paths: Array<{
    name: string;
    env: Record<string, string>;
    program?: ReturnType<typeof logging>;
    asked?: RegExp;
  }> = [
    { name: 'in-process (no prefilter)', env: { RT_RIPGREP: 'off', RT_GIT_GREP: 'off' } },
    {
      name: 'git grep -P',
      env: { RT_RIPGREP: 'off' },
      program: logging('git', realGit),
      asked: /grep .*--perl-regexp/,
    },
    {
      name: 'git grep -F (a git without PCRE)',
      env: { RT_RIPGREP: 'off' },
      program: logging('git', realGit, '--perl-regexp'),
      asked: /grep .*--fixed-strings .*-e abc/,
    },
    ...(hasRipgrep ? [{ name: 'ripgrep', env: {}, program: logging('rg', realRg), asked: /--regexp abc/ }] : []),
  ];
  for (const { name, env, program, asked } of paths) {
    it(`through ${name}: abc.def finds exactly the lines grep and ripgrep find`, () => {
      const r = run(['grep', 'abc.def'], dir, {
        env: { ...env, ...(program ? { PATH: `${program.bin}:${process.env.PATH}` } : {}) },
      });
      expectRun(r, { status: 0, stdout: expected, stderr: '' });
      // The path named was the one taken.
      if (program) expect(readFileSync(program.log, 'utf8'), r.text).toMatch(asked!);
    });
  }

  it('-i, -w, several patterns and -v take it the same way', () => {
    const keys = (args: string[]) =>
      outLines(run(['grep', ...args, 'dot.txt'], dir, { env: { RT_RIPGREP: 'off', RT_GIT_GREP: 'off' } }).stdout).map(
        (l) => parseHit(l)!.n,
      );
    expect(keys(['-i', 'ABC.DEF'])).toEqual([1, 2, 3]);
    expect(keys(['-w', 'abc.def'])).toEqual([1, 2, 3]);
    expect(keys(['-e', 'zzz', '-e', 'c.d'])).toEqual([1, 2, 3]);
    expect(keys(['-v', '^abc.def$'])).toEqual([4, 5, 6, 7, 8]);
  });

  it('grep-file too, and the whole line is printed exactly', () => {
    const r = run(['grep-file', 'c.d', 'dot.txt'], dir);
    expect(r.status, r.text).toBe(0);
    const lids = parseWindow(run(['open', 'dot.txt'], dir)).lids;
    expect(
      r.stdoutBytes.equals(
        Buffer.from(`1:${lids[0]}|abc\rdef\n2:${lids[1]}|abc\u2028def\n3:${lids[2]}|abc\u2029def\n`),
      ),
      r.text,
    ).toBe(true);
  });
});

describe('a binary file named on the command line', () => {
  const dir = tempRepo();
  write(dir, 'blob.bin', Buffer.from('needle\0binary\n'));
  write(dir, 'other.bin', Buffer.from('\0\0\0needle\n'));
  write(dir, 'a.txt', 'needle in text\n');
  write(dir, 'sub/inner.bin', Buffer.from('needle\0\n'));
  write(dir, 'sub/b.txt', 'needle again\n');
  const refusal =
    'rt: blob.bin is a binary file: rt searches text files only\nrt: search its bytes with: rg --text -n -e ' +
    'needle blob.bin (or grep -a)\n';

  it('alone: refused, exit 4, by grep as by grep-file, whether it matches or not', () => {
    expectRun(run(['grep', 'needle', 'blob.bin'], dir), { status: 4, stdout: '', stderr: refusal });
    expectRun(run(['grep-file', 'needle', 'blob.bin'], dir), { status: 4, stdout: '', stderr: refusal });
    expectRun(run(['grep', '-F', 'absent', 'blob.bin'], dir), {
      status: 4,
      stdout: '',
      stderr: new RegExp(
        String.raw`^rt: blob\.bin is a binary file: rt searches text files only\nrt: search its bytes with: rg ` +
          String.raw`--text -n -F -e absent blob\.bin \(or grep -a\)\n$`,
      ),
    });
  });

  it('several, all binary: refused, exit 4, naming them all', () => {
    expectRun(run(['grep', '-i', 'needle', 'blob.bin', 'other.bin'], dir), {
      status: 4,
      stdout: '',
      stderr:
        'rt: blob.bin and other.bin are binary files: rt searches text files only\nrt: search their bytes ' +
        'with: rg --text -n -i -e needle blob.bin other.bin (or grep -a)\n',
    });
  });

  it(
    'among other PATHs: the others are searched, the binary ' + "file named on stderr, the exit status the search's",
    () => {
      const found = run(['grep', 'needle', 'blob.bin', 'a.txt', 'sub'], dir);
      expectRun(found, {
        status: 0,
        stdout: /^a\.txt:1:\w{4}\|needle in text\nsub\/b\.txt:1:\w{4}\|needle again\n$/,
        stderr:
          'rt: blob.bin is a binary file, not searched: rt searches text files only\nrt: search its bytes with: ' +
          'rg --text -n -e needle blob.bin (or grep -a)\n',
      });
      expectRun(run(['grep', 'zzz', 'blob.bin', 'a.txt'], dir), {
        status: 1,
        stdout: '',
        stderr: /^rt: blob\.bin is a binary file, not searched/,
      });
      // A folder given: something could be searched, though nothing in it matches.
      expectRun(run(['grep', 'needle', 'blob.bin', 'sub/inner.bin', 'sub'], dir), {
        status: 0,
        stdout: /^sub\/b\.txt:1:/,
        stderr: /^rt: blob\.bin and sub\/inner\.bin are binary files, not searched/,
      });
    },
  );

  it('met in a folder searched: skipped without a word', () => {
    expectRun(run(['grep', 'needle', 'sub'], dir), {
      status: 0,
      stdout: /^sub\/b\.txt:1:\w{4}\|needle again\n$/,
      stderr: '',
    });
  });

  it('--json: the refusal is an error document, code binary, exit 4', () => {
    const r = run(['grep', 'needle', 'blob.bin', '--json'], dir);
    expect(r.status, r.text).toBe(4);
    expect(JSON.parse(r.stdout)).toMatchObject({
      error: { code: 'binary', exit: 4, message: 'blob.bin is a binary file: rt searches text files only' },
    });
    const r2 = run(['grep-file', 'needle', 'blob.bin', '--json'], dir);
    expect(JSON.parse(r2.stdout)).toEqual(JSON.parse(r.stdout));
  });

  it('a binary file excluded by -g is not searched, so not named', () => {
    expectRun(run(['grep', '-g', '*.txt', 'needle', 'blob.bin', 'a.txt'], dir), {
      status: 0,
      stdout: /^a\.txt:1:/,
      stderr: '',
    });
  });
});

describe('a hit whose match lies past the 2,000-character display cut', () => {
  const dir = tempDir();
  const long = `${'x'.repeat(3000)}NEEDLE${'y'.repeat(3000)}`;
  write(dir, 'long.txt', `${long}\nshort NEEDLE\n${'z'.repeat(2500)}\n`);
  const lids = parseWindow(run(['open', 'long.txt'], dir)).lids;
  const cut = `[+2003 chars] …${'x'.repeat(997)}NEEDLE${'y'.repeat(997)}… [+2003 chars]`;

  it('is shown around its match, cut on both sides with the marker of the window format, by grep and grep-file', () => {
    expectRun(run(['grep', 'NEEDLE', 'long.txt'], dir), {
      status: 0,
      stdout: `long.txt:1:${lids[0]}|${cut}\nlong.txt:2:${lids[1]}|short NEEDLE\n`,
      stderr: '',
    });
    expectRun(run(['grep-file', '-F', 'NEEDLE', 'long.txt'], dir), {
      status: 0,
      stdout: `1:${lids[0]}|${cut}\n2:${lids[1]}|short NEEDLE\n`,
      stderr: '',
    });
  });

  it('a context line is cut as rt open cuts it; --json gives the line whole', () => {
    const r = run(['grep', '-A', '1', 'short', 'long.txt'], dir);
    expectRun(r, {
      status: 0,
      stdout: `long.txt:2:${lids[1]}|short NEEDLE\nlong.txt:3:${lids[2]}-${'z'.repeat(2000)}… [+500 chars]\n`,
      stderr: '',
    });
    const j = JSON.parse(run(['grep', 'NEEDLE', 'long.txt', '--json'], dir).stdout) as {
      hits: Array<{ text: string }>;
    };
    expect(j.hits[0]!.text).toBe(long);
  });

  it('its LID is the one rt open shows, and an edit by it works', () => {
    const r = run(['edit', 'long.txt', lids[0]!], dir, { input: 'replaced\n' });
    expect(r.status, r.text).toBe(0);
  });
});

describe('a regular expression that backtracks without end', () => {
  const dir = tempRepo();
  write(dir, 'a.txt', 'nothing\n');
  write(dir, 'b.txt', `${'a'.repeat(40)}b\n`);
  write(dir, 'c.txt', 'aaaa\n');
  git(dir, ['add', '.']);
  const message = new RegExp(
    String.raw`^rt: matching took more than 2 s \(stopped in b\.txt\): the pattern backtracks too much \(nested ` +
      String.raw`repetition such as \(a\+\)\+ takes exponential time on some lines\)\nrt: search for a literal ` +
      String.raw`string with -F, or write the pattern without nested repetition\nrt: or search with ripgrep, which ` +
      String.raw`matches in linear time \(install it if need be\): rg -n -e '\(a\+\)\+\$' (\.|b\.txt)\n$`,
  );

  for (const [name, env] of [
    ['without ripgrep or git grep', { RT_RIPGREP: 'off', RT_GIT_GREP: 'off' }],
    ['without ripgrep', { RT_RIPGREP: 'off' }],
    ['with ripgrep when installed', {}],
  ] as const) {
    it(`ends within its bound, exit 2, nothing printed: ${name}`, () => {
      // The message says the bound stopped it; a search that ran on would be killed by the
      // harness's time-out instead.
      const r = run(['grep', '(a+)+$'], dir, { env });
      expectRun(r, { status: 2, stdout: '', stderr: message });
    });
  }

  it('grep-file and a file named alone: the same', () => {
    expectRun(run(['grep-file', '(a+)+$', 'b.txt'], dir), { status: 2, stdout: '', stderr: message });
    expectRun(run(['grep', '(a+)+$', 'b.txt', 'c.txt'], dir), {
      status: 2,
      stdout: '',
      stderr: /^rt: matching took more than 2 s \(stopped in b\.txt\)/,
    });
  });

  it('lines on which it ends at once are found as usual', () => {
    expectRun(run(['grep', '(a+)+$', 'c.txt'], dir), { status: 0, stdout: /^c\.txt:1:\w{4}\|aaaa\n$/, stderr: '' });
  });

  it('-o, which looks for every match of a hit, is bounded too', () => {
    write(dir, 'd.txt', `x ${'a'.repeat(40)}b\n`);
    expectRun(run(['grep', '-o', 'x|(a+)+$', 'd.txt'], dir), {
      status: 2,
      stdout: '',
      stderr: /^rt: matching took more than 2 s \(stopped in d\.txt\)/,
    });
  });
});

describe('a long literal on long lines', () => {
  it('is bounded as a regular expression is, and the refusal says to search for a shorter part of it', () => {
    // A literal of 6,000 words with -w: V8 tries it at each place of a line, each try as long as
    // the literal (src/search/match.ts, LINEAR_LITERAL); six lines of 1 MB take far more than 2 s.
    const literal = `${'a '.repeat(3000)}b ${'a '.repeat(3000)}`.trim();
    const dir = tempRepo();
    for (let i = 1; i <= 6; i++) write(dir, `f${i}.txt`, `${'a '.repeat(500_000)}${literal}\n`);
    git(dir, ['add', '.']);
    const r = run(['grep', '-F', '-w', '-c', '--', literal], dir);
    expect(r.status, r.text).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(
        String.raw`^rt: matching took more than \d+ s \(stopped in f\d\.txt\): a literal of more than 128 ` +
          String.raw`characters takes time in proportion to a line's length × its own\nrt: search for a shorter ` +
          String.raw`part of it \(it then matches more lines; with -v, fewer\)\nrt: or search with ripgrep`,
      ),
    );
  });
});

describe('an empty glob', () => {
  it('is refused as a usage error that says what to give, by grep and replace, in git and outside it', () => {
    for (const dir of [tempRepo(), tempDir('rt-glob-')]) {
      write(dir, 'a.txt', 'needle\n');
      for (const glob of ['', '!']) {
        for (const args of [
          ['grep', '-g', glob, '-F', 'needle'],
          ['replace', '-g', glob, '-F', 'needle', 'pin'],
        ]) {
          const r = run(args, dir);
          expect(r.status, r.text).toBe(2);
          expect(r.stderr).toBe(
            `rt: the glob ${JSON.stringify(glob)} names no file\n` +
              "rt: give -g a pattern, e.g. -g '*.ts' to search only TypeScript files " +
              "or -g '!*.min.js' to leave files out\n",
          );
          expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('needle\n');
        }
      }
    }
  });
});
