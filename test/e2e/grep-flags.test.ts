// The flags grep and ripgrep users type from habit: -e, -S, -v, -A/-B, -c, -o, -P, -n,
// with grep and grep-file, in text and --json; colour of matches; and what is said of a flag rt
// does not take.

import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, expectRun, parseWindow, run, tempRepo, write } from './harness.js';
import { git, outLines, parseCapNotice } from './search-fixture.js';

afterAll(cleanup);

const hasRipgrepPcre = spawnSync('rg', ['--pcre2-version']).status === 0;

const dir = tempRepo();
write(dir, 'a.txt', 'alpha one\nBeta two\n-dash line\ngamma alpha alpha\ndelta\n');
write(dir, 'b.txt', 'nothing\nALPHA upper\n');
write(dir, 'c.txt', 'zzz\n');
git(dir, ['add', '.']);
const lidsOf = (file: string) => parseWindow(run(['open', file], dir)).lids;
const A = lidsOf('a.txt');
const B = lidsOf('b.txt');
const C = lidsOf('c.txt');

describe('-e PATTERN (repeatable)', () => {
  it('a line matches if any pattern does; every operand is then a PATH', () => {
    expectRun(run(['grep', '-e', 'one', '-e', 'delta', 'a.txt', 'b.txt'], dir), {
      status: 0,
      stdout: `a.txt:1:${A[0]}|alpha one\na.txt:5:${A[4]}|delta\n`,
      stderr: '',
    });
    expectRun(run(['grep-file', '-e', 'two', '-e', 'upper', 'b.txt'], dir), {
      status: 0,
      stdout: `2:${B[1]}|ALPHA upper\n`,
      stderr: '',
    });
  });

  it('takes a pattern starting with -', () => {
    expectRun(run(['grep', '-e', '-dash'], dir), { status: 0, stdout: `a.txt:3:${A[2]}|-dash line\n`, stderr: '' });
    expectRun(run(['grep', '-F', '-e', '-dash', '-e', 'zzz'], dir), {
      status: 0,
      stdout: `a.txt:3:${A[2]}|-dash line\nc.txt:1:${C[0]}|zzz\n`,
      stderr: '',
    });
  });

  it(
    "takes the argument after -e as the pattern, even one that reads as an option of rt's (--color, --json, " +
      '--root)',
    () => {
      // (A folder of its own: the other tests search the whole of theirs.)
      const dir = tempRepo();
      write(dir, 'flags.txt', 'use --color here\n--force\n--json\n-x\n--x\n');
      const F = parseWindow(run(['open', 'flags.txt'], dir)).lids;
      expectRun(run(['grep', '-e', '--color', 'flags.txt'], dir), {
        status: 0,
        stdout: `flags.txt:1:${F[0]}|use --color here\n`,
        stderr: '',
      });
      expectRun(run(['grep', '-c', '-e', '--force', 'flags.txt'], dir), {
        status: 0,
        stdout: 'flags.txt:1\n',
        stderr: '',
      });
      expectRun(run(['grep', '-e', '--json', 'flags.txt'], dir), {
        status: 0,
        stdout: `flags.txt:3:${F[2]}|--json\n`,
        stderr: '',
      });
      expectRun(run(['grep', '-c', '-e', '--root', '-e', '--color', 'flags.txt'], dir), {
        status: 0,
        stdout: 'flags.txt:1\n',
        stderr: '',
      });
      expectRun(run(['grep', '-ie', '--COLOR', 'flags.txt'], dir), {
        status: 0,
        stdout: `flags.txt:1:${F[0]}|use --color here\n`,
        stderr: '',
      });
      for (const args of [['-e-x'], ['--regexp=-x'], ['--regexp', '-x']]) {
        expectRun(run(['grep', '-c', ...args, 'flags.txt'], dir), { status: 0, stdout: 'flags.txt:2\n', stderr: '' });
      }
      for (const args of [['--regexp=--x'], ['--regexp', '--x'], ['-e', '--x']]) {
        expectRun(run(['grep-file', '-c', ...args, 'flags.txt'], dir), { status: 0, stdout: '1\n', stderr: '' });
      }
      expectRun(run(['grep-file', '-c', '-e', '--color', 'flags.txt'], dir), { status: 0, stdout: '1\n', stderr: '' });
    },
  );

  it('no pattern at all, or the wrong number of paths for grep-file: bad usage', () => {
    expectRun(run(['grep'], dir), { status: 2, stdout: '', stderr: /^rt: no PATTERN given\n/ });
    expectRun(run(['grep-file', 'x'], dir), { status: 2, stdout: '', stderr: /^rt: no PATH given\n/ });
    expectRun(run(['grep-file', '-e', 'x', 'a.txt', 'b.txt'], dir), {
      status: 2,
      stdout: '',
      stderr: /^rt: grep-file searches one file, and was given 2\n/,
    });
  });

  it('the command of the cap notice repeats every -e', () => {
    const r = run(['grep', '--max', '1', '-e', 'alpha', '-e', 'delta', 'a.txt'], dir);
    const notice = parseCapNotice(outLines(r.stdout).at(-1)!)!;
    expect(notice.argv).toEqual(['grep', '--max', '3', '-e', 'alpha', '-e', 'delta', 'a.txt']);
    expect(outLines(run(notice.argv, dir).stdout).length).toBe(3);
  });
});

describe('-S (smart case)', () => {
  it('ignores case for a pattern without upper case, not for one with; -i wins', () => {
    expect(outLines(run(['grep', '-S', 'alpha'], dir).stdout).length).toBe(3);
    expect(outLines(run(['grep', '-S', 'ALPHA'], dir).stdout)).toEqual([`b.txt:2:${B[1]}|ALPHA upper`]);
    expect(outLines(run(['grep', '-S', '-i', 'ALPHA'], dir).stdout).length).toBe(3);
    expect(outLines(run(['grep-file', '-S', 'beta', 'a.txt'], dir).stdout)).toEqual([`2:${A[1]}|Beta two`]);
  });
});

describe('-v', () => {
  it('selects the lines that do not match', () => {
    expectRun(run(['grep', '-v', 'l', 'a.txt', 'c.txt'], dir), {
      status: 0,
      stdout: `a.txt:2:${A[1]}|Beta two\nc.txt:1:${C[0]}|zzz\n`,
      stderr: '',
    });
    expectRun(run(['grep', '-v', '-l', 'z'], dir), { status: 0, stdout: 'a.txt\nb.txt\n', stderr: '' });
    expectRun(run(['grep-file', '-v', '-c', 'alpha', 'a.txt'], dir), { status: 0, stdout: '3\n', stderr: '' });
    expectRun(run(['grep', '-v', '.', 'c.txt'], dir), { status: 1, stdout: '', stderr: '' });
  });

  it('is refused with -o: the lines it selects hold no match', () => {
    expectRun(run(['grep', '-v', '-o', 'a'], dir), {
      status: 2,
      stdout: '',
      stderr: /^rt: -o prints the matching parts/,
    });
  });
});

describe('-A N, -B N (and -C)', () => {
  it('context after or before only; -A/-B win over -C', () => {
    expectRun(run(['grep-file', '-A', '1', 'two', 'a.txt'], dir), {
      status: 0,
      stdout: `2:${A[1]}|Beta two\n3:${A[2]}--dash line\n`,
      stderr: '',
    });
    expectRun(run(['grep-file', '-B', '1', 'two', 'a.txt'], dir), {
      status: 0,
      stdout: `1:${A[0]}-alpha one\n2:${A[1]}|Beta two\n`,
      stderr: '',
    });
    expectRun(run(['grep-file', '-C', '2', '-A', '0', 'two', 'a.txt'], dir), {
      status: 0,
      stdout: `1:${A[0]}-alpha one\n2:${A[1]}|Beta two\n`,
      stderr: '',
    });
    expectRun(run(['grep', '-A', '1', 'one|delta', 'a.txt'], dir), {
      status: 0,
      stdout: `a.txt:1:${A[0]}|alpha one\na.txt:2:${A[1]}-Beta two\n--\na.txt:5:${A[4]}|delta\n`,
      stderr: '',
    });
  });

  it('a bad count is bad usage', () => {
    expectRun(run(['grep', '-A', '-1', 'x'], dir), { status: 2, stdout: '', stderr: /^rt: / });
    expectRun(run(['grep', '-B', 'some', 'x'], dir), { status: 2, stdout: '', stderr: /^rt: / });
  });
});

describe('-c', () => {
  it('PATH:COUNT for each file with hits (lines; with -o, matches), as ripgrep prints it', () => {
    expectRun(run(['grep', '-c', '-i', 'alpha'], dir), { status: 0, stdout: 'a.txt:2\nb.txt:1\n', stderr: '' });
    expectRun(run(['grep', '-c', '-o', '-i', 'alpha'], dir), { status: 0, stdout: 'a.txt:3\nb.txt:1\n', stderr: '' });
    expectRun(run(['grep', '-c', 'nothing at all'], dir), { status: 1, stdout: '', stderr: '' });
  });

  it('grep-file -c prints the count alone', () => {
    expectRun(run(['grep-file', '-c', 'alpha', 'a.txt'], dir), { status: 0, stdout: '2\n', stderr: '' });
    expectRun(run(['grep-file', '-c', 'x{9}', 'a.txt'], dir), { status: 1, stdout: '', stderr: '' });
  });

  it('--max caps the files, with the notice; with -l it is refused', () => {
    write(dir, 'd.txt', 'alpha\n');
    git(dir, ['add', 'd.txt']);
    const r = run(['grep', '-c', '--max', '1', '-i', 'alpha'], dir);
    expect(outLines(r.stdout)[0]).toBe('a.txt:2');
    const notice = parseCapNotice(outLines(r.stdout)[1]!);
    expect(notice).toMatchObject({ more: 2, what: 'files' });
    expectRun(run(notice!.argv, dir), { status: 0, stdout: 'a.txt:2\nb.txt:1\nd.txt:1\n', stderr: '' });
    git(dir, ['rm', '-q', '-f', 'd.txt']);
    expectRun(run(['grep', '-c', '-l', 'alpha'], dir), {
      status: 2,
      stdout: '',
      stderr: /^rt: -c counts the hits of each file, -l lists the files with hits: choose one/,
    });
  });

  it('--json: {"command": "grep", "counts": [{"path", "count"}…], "more"}; grep-file: {"command", "path", …}', () => {
    expect(JSON.parse(run(['grep', '-c', '-i', 'alpha', '--json'], dir).stdout)).toEqual({
      command: 'grep',
      counts: [
        { path: 'a.txt', count: 2 },
        { path: 'b.txt', count: 1 },
      ],
      more: null,
    });
    expect(JSON.parse(run(['grep', '-c', 'x{9}', '--json'], dir).stdout)).toEqual({
      command: 'grep',
      counts: [],
      more: null,
    });
    expect(JSON.parse(run(['grep-file', '-c', 'alpha', 'a.txt', '--json'], dir).stdout)).toEqual({
      command: 'grep-file',
      path: 'a.txt',
      count: 2,
    });
  });
});

describe('-o', () => {
  it("each match alone, with its line's prefix, in line order", () => {
    expectRun(run(['grep', '-o', 'al[a-z]+|one', 'a.txt'], dir), {
      status: 0,
      stdout: `a.txt:1:${A[0]}|alpha\na.txt:1:${A[0]}|one\na.txt:4:${A[3]}|alpha\na.txt:4:${A[3]}|alpha\n`,
      stderr: '',
    });
    expectRun(run(['grep-file', '-o', '-F', 'ta', 'a.txt'], dir), {
      status: 0,
      stdout: `2:${A[1]}|ta\n5:${A[4]}|ta\n`,
      stderr: '',
    });
  });

  it('context lines are printed whole', () => {
    expectRun(run(['grep-file', '-o', '-B', '1', 'two', 'a.txt'], dir), {
      status: 0,
      stdout: `1:${A[0]}-alpha one\n2:${A[1]}|two\n`,
      stderr: '',
    });
  });

  it('empty matches print nothing', () => {
    expectRun(run(['grep-file', '-o', 'x*', 'c.txt'], dir), { status: 0, stdout: '', stderr: '' });
  });

  it('--json: each hit line whole, with "matches": [{"start", "end", "text"}] (byte offsets in the line)', () => {
    const dirU = tempRepo();
    write(dirU, 'u.txt', 'café café\n');
    const r = run(['grep', '-o', '--json', 'é', 'u.txt'], dirU);
    const lid = parseWindow(run(['open', 'u.txt'], dirU)).lids[0];
    expect(JSON.parse(r.stdout)).toEqual({
      command: 'grep',
      hits: [
        {
          path: 'u.txt',
          n: 1,
          lid,
          text: 'café café',
          hit: true,
          matches: [
            { start: 3, end: 5, text: 'é' },
            { start: 9, end: 11, text: 'é' },
          ],
        },
      ],
      more: null,
    });
  });

  it(
    'the lines of -o hits do not count as shown (only parts were): ' +
      'an edit by their number is refused until they are opened',
    () => {
      const d = tempRepo();
      write(d, 'e.txt', 'one\ntwo\nthree\n');
      const hit = run(['grep', '-o', 'tw', 'e.txt'], d, { env: { RT_STATE: 'on' } });
      expect(hit.status, hit.text).toBe(0);
      expect(run(['edit', 'e.txt', '2'], d, { input: 'TWO\n' }).status).toBe(3);
      expect(run(['grep', 'tw', 'e.txt'], d).status).toBe(0);
      expect(run(['edit', 'e.txt', '2'], d, { input: 'TWO\n' }).status).toBe(0);
    },
  );
});

describe('-n', () => {
  it('is accepted and changes nothing: numbers are always printed', () => {
    expect(run(['grep', '-n', 'alpha'], dir).stdout).toBe(run(['grep', 'alpha'], dir).stdout);
    expect(run(['grep-file', '-in', 'beta', 'a.txt'], dir).stdout).toBe(`2:${A[1]}|Beta two\n`);
  });
});

describe.skipIf(!hasRipgrepPcre)('-P (PCRE2, through ripgrep)', () => {
  const d = tempRepo();
  write(d, 'p.txt', 'foo123 bar\nfoo bar\r\nbaz qux\n');
  write(d, 'q.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('foo9 at the start\nc\rd\n')]));
  git(d, ['add', '.']);
  const P = parseWindow(run(['open', 'p.txt'], d)).lids;
  const Q = parseWindow(run(['open', 'q.txt'], d)).lids;

  it(
    'matches PCRE2 (lookahead, \\d, possessive), as rt shows lines: $ before a CRLF\'s \\r, ^ after a BOM, "." ' +
      'any character',
    () => {
      expectRun(run(['grep', '-P', 'foo(?=\\d)'], d), {
        status: 0,
        stdout: `p.txt:1:${P[0]}|foo123 bar\nq.txt:1:${Q[0]}|foo9 at the start\n`,
        stderr: '',
      });
      expectRun(run(['grep', '-P', 'bar$', 'p.txt'], d), {
        status: 0,
        stdout: `p.txt:1:${P[0]}|foo123 bar\np.txt:2:${P[1]}|foo bar\n`,
        stderr: '',
      });
      expectRun(run(['grep', '-P', '^foo\\d++ at'], d), {
        status: 0,
        stdout: `q.txt:1:${Q[0]}|foo9 at the start\n`,
        stderr: '',
      });
      expectRun(run(['grep-file', '-P', 'c.d', 'q.txt'], d), { status: 0, stdout: `2:${Q[1]}|c\rd\n`, stderr: '' });
    },
  );

  it('with -o, -c, -v, -i, -w and -e', () => {
    expectRun(run(['grep', '-P', '-o', '\\d+', 'p.txt'], d), {
      status: 0,
      stdout: `p.txt:1:${P[0]}|123\n`,
      stderr: '',
    });
    expectRun(run(['grep', '-P', '-c', 'ba[rz]'], d), { status: 0, stdout: 'p.txt:3\n', stderr: '' });
    expectRun(run(['grep-file', '-P', '-v', 'foo', 'p.txt'], d), {
      status: 0,
      stdout: `3:${P[2]}|baz qux\n`,
      stderr: '',
    });
    expectRun(run(['grep-file', '-P', '-i', '-w', 'FOO', 'p.txt'], d), {
      status: 0,
      stdout: `2:${P[1]}|foo bar\n`,
      stderr: '',
    });
    expectRun(run(['grep-file', '-P', '-e', 'qux', '-e', '^foo\\d', 'p.txt'], d), {
      status: 0,
      stdout: `1:${P[0]}|foo123 bar\n3:${P[2]}|baz qux\n`,
      stderr: '',
    });
  });

  it('a pattern PCRE2 refuses is bad usage, with its message; -F with -P too', () => {
    expectRun(run(['grep', '-P', '('], d), {
      status: 2,
      stdout: '',
      stderr: /^rt: ripgrep refused the pattern: PCRE2: error compiling pattern/,
    });
    expectRun(run(['grep', '-P', '-F', 'x'], d), {
      status: 2,
      stdout: '',
      stderr: /^rt: -F and -P cannot be combined/,
    });
  });
});

describe('-P without ripgrep', () => {
  it('is refused (exit 2), saying what to do instead', () => {
    expectRun(run(['grep', '-P', 'a(?=l)'], dir, { env: { RT_RIPGREP: 'off' } }), {
      status: 2,
      stdout: '',
      stderr: /^rt: -P matches through ripgrep, which RT_RIPGREP=off turns off\nrt: install ripgrep built with PCRE2/,
    });
    expectRun(run(['grep', '-P', 'a(?=l)'], dir, { env: { PATH: '/nonexistent' } }), {
      status: 2,
      stdout: '',
      stderr: /^rt: -P matches through ripgrep \(rg\), which is not installed\n/,
    });
  });
});

describe('colour', () => {
  it('marks each match of a hit (grep and grep-file), only when colour is on; the text is unchanged', () => {
    const coloured = run(['grep', '--color', 'always', 'alpha', 'a.txt'], dir).stdout;
    expect(coloured).toContain('\u001b[1m\u001b[31malpha\u001b[39m\u001b[22m');
    expect(coloured.split('\u001b[31malpha').length - 1).toBe(3);
    expect(coloured.replace(/\u001b\[[0-9;]*m/g, '')).toBe(run(['grep', 'alpha', 'a.txt'], dir).stdout);
    expect(run(['grep-file', '--color', 'always', '-o', 'one', 'a.txt'], dir).stdout).toContain(
      '\u001b[31mone\u001b[39m',
    );
    expect(run(['grep', 'alpha', 'a.txt'], dir).stdout).not.toContain('\u001b[');
  });
});

describe('flags rt does not take', () => {
  it('are refused (exit 2), saying what to do instead', () => {
    const cases: Array<[string[], RegExp]> = [
      [
        ['grep', '-r', 'x'],
        /^rt: unknown option '-r' \(rt grep searches folders recursively already: leave it out\)\n/,
      ],
      [
        ['grep', '-rn', 'x'],
        /^rt: unknown option '-rn' \(rt grep searches folders recursively already: leave it out\)\n/,
      ],
      [['grep', '-E', 'a|b'], /^rt: unknown option '-E' \(PATTERN is a JavaScript regular expression already/],
      [
        ['grep', '--include=*.ts', 'x'],
        /^rt: unknown option '--include=\*\.ts' \(choose files by glob: -g '\*\.ts', repeatable\)\n/,
      ],
      [['grep', '-x', 'x'], /anchor the pattern instead/],
      [['grep-file', '-r', 'x', 'a.txt'], /grep-file searches one file; rt grep PATTERN FOLDER searches a folder/],
    ];
    for (const [args, stderr] of cases) expectRun(run(args, dir), { status: 2, stdout: '', stderr });
  });

  it('a long flag close to one rt takes is named', () => {
    expectRun(run(['grep', '--ignore-cas', 'x'], dir), {
      status: 2,
      stdout: '',
      stderr: /^rt: unknown option '--ignore-cas' \(did you mean --ignore-case\?\)\n/,
    });
    expectRun(run(['grep', '--invert-matc', 'x'], dir), {
      status: 2,
      stdout: '',
      stderr: /^rt: unknown option '--invert-matc' \(did you mean --invert-match\?\)\n/,
    });
  });
});
