// End-to-end tests of `rt grep` and `rt grep-file` (find/grep/grep-file and the search
// defaults, bytes, exit codes): the built binary, run in generated git repositories and
// plain folders. Which files are searched is checked against git itself (`git grep`), which
// lines are hits against git's matcher where the dialects agree, and every LID against the one
// `rt open` shows for the same line.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cleanup,
  expectCleanStderr,
  expectRun,
  numbered,
  parseWindow,
  run,
  tempDir,
  tempRepo,
  write,
  type Ran,
} from './harness.js';
import {
  buildSearchRepo,
  dotIgnored,
  expectedGitHits,
  git,
  isHidden,
  LATIN1_LINE,
  outLines,
  parseCapNotice,
  parseHit,
  sortKeys,
  type Hit,
} from './search-fixture.js';

afterAll(cleanup);

/** The hits of a successful run (every stdout line must be a hit line, unless `allowOther`). */
function hitsOf(r: Ran, allowOther = false): Hit[] {
  const hits: Hit[] = [];
  for (const line of outLines(r.stdout)) {
    const hit = parseHit(line);
    if (hit) hits.push(hit);
    else if (!allowOther) throw new Error(`not a hit line: ${JSON.stringify(line)}\n${r.text}`);
  }
  return hits;
}

const keyOf = (h: Hit) => `${h.path}:${h.n}`;

/** Runs `rt grep ARGS` at `cwd`, expects exit 0 and a clean stderr, returns the `path:line` keys in output order. */
function grepKeys(args: readonly string[], cwd: string): string[] {
  const r = run(['grep', ...args], cwd);
  expectRun(r, { status: 0, stderr: '' });
  return hitsOf(r).map(keyOf);
}

/** LIDs `rt open` shows for lines `ns` of `file` (one window covering them all). */
function openLids(cwd: string, file: string, ns: readonly number[]): Map<number, { lid: string; content: string }> {
  const lo = Math.min(...ns);
  const hi = Math.max(...ns);
  const r = run(['open', `${file}:${lo}-${hi}`, '--window', '100000'], cwd);
  expect(r.status, r.text).toBe(0);
  const w = parseWindow(r);
  return new Map(w.lines.map((l) => [l.n, { lid: l.lid, content: l.content }]));
}

/**
 * Asserts that every hit's LID (and content) is what `rt open PATH:LINE` shows for that line. A
 * long line whose match lies past the display cut is shown around the match instead (cut on both
 * sides): then its shown part must be the line's own characters at that place.
 */
function expectLidsAsOpenShows(hits: readonly Hit[], cwd: string): void {
  const byPath = new Map<string, Hit[]>();
  for (const h of hits) byPath.set(h.path, [...(byPath.get(h.path) ?? []), h]);
  for (const [file, fileHits] of byPath) {
    const shown = openLids(
      cwd,
      file,
      fileHits.map((h) => h.n),
    );
    for (const h of fileHits) {
      const around = /^\[\+(\d+) chars\] …(.*?)(?:… \[\+(\d+) chars\])?$/su.exec(h.content);
      if (around) {
        const whole = [...wholeLine(cwd, file, h.n)];
        const part = [...around[2]!];
        expect({ at: `${file}:${h.n}`, lid: h.lid }).toEqual({ at: `${file}:${h.n}`, lid: shown.get(h.n)!.lid });
        expect(whole.slice(Number(around[1]), Number(around[1]) + part.length).join(''), h.content).toBe(around[2]);
        expect(Number(around[1]) + part.length + Number(around[3] ?? 0), h.content).toBe(whole.length);
        continue;
      }
      expect({ at: `${file}:${h.n}`, lid: h.lid, content: h.content }).toEqual({
        at: `${file}:${h.n}`,
        ...shown.get(h.n),
      });
    }
  }
}

/** Line `n` of `file`, whole (rt open --json never cuts it). */
function wholeLine(cwd: string, file: string, n: number): string {
  const r = run(['open', `${file}:${n}-${n}`, '--json'], cwd);
  expect(r.status, r.text).toBe(0);
  return (JSON.parse(r.stdout) as { lines: Array<{ text: string }> }).lines[0]!.text;
}

// ---------------------------------------------------------------------------------------------

describe('rt grep in a generated git repository', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir('rt-repo-');
    buildSearchRepo(dir, tempDir('rt-outside-'));
  });

  describe('searches exactly the files git shows (less hidden, .ignore and symbolic links)', () => {
    const fixed = ['parseConfig', 'a.b(c)', 'return', 'foo', 'PARSE', '{', 'aXb(c)'];
    for (const needle of fixed) {
      it(`-F ${JSON.stringify(needle)}: the same (path, line) set as git grep -F`, () => {
        const expected = expectedGitHits(dir, ['-F', '-e', needle]);
        expect(expected.length, 'the fixture has hits for this needle').toBeGreaterThan(0);
        expect(grepKeys(['-F', '--max', '100000', needle], dir).sort()).toEqual(expected);
      });
    }

    it('the needle occurs in every kind of file the fixture holds, so the comparison means something', () => {
      const keys = grepKeys(['-F', '--max', '100000', 'parseConfig'], dir).map((k) => k.slice(0, k.lastIndexOf(':')));
      // Tracked, untracked, un-ignored by `!keep.log`, tracked although ignored, CRLF, BOM, invalid UTF-8.
      for (const p of [
        'README.md',
        'src/app.ts',
        'src/new.ts',
        'notes/todo.md',
        'logs/keep.log',
        'logs/tracked.log',
        'data/crlf.txt',
        'data/bom.ts',
        'data/latin1.txt',
      ]) {
        expect(keys, p).toContain(p);
      }
      // Ignored by .gitignore, a nested .gitignore, info/exclude, the global excludes file;
      // excluded by .ignore (root and nested); hidden; binary; a symbolic link.
      for (const p of [
        'debug.log',
        'logs/other.log',
        'build/out.js',
        'logs/local/x.txt',
        'src/gen-by-src.ts',
        'secret/key.txt',
        'old.bak',
        'generated/gen.ts',
        'src/lib/deep/skip.gen.ts',
        'src/dot-ignored.ts',
        '.env',
        'src/.hidden.ts',
        '.config/settings.json',
        'data/blob.bin',
        'link.ts',
      ]) {
        expect(keys, p).not.toContain(p);
      }
    });

    it('-i -F and -w -F: the same set as git grep -i -F / -w -F', () => {
      expect(grepKeys(['-i', '-F', '--max', '100000', 'parseconfig'], dir).sort()).toEqual(
        expectedGitHits(dir, ['-i', '-F', '-e', 'parseconfig']),
      );
      expect(grepKeys(['-w', '-F', '--max', '100000', 'foo'], dir).sort()).toEqual(
        expectedGitHits(dir, ['-w', '-F', '-e', 'foo']),
      );
      expect(grepKeys(['-w', '-F', '--max', '100000', 'parseConfig'], dir).sort()).toEqual(
        expectedGitHits(dir, ['-w', '-F', '-e', 'parseConfig']),
      );
      expect(grepKeys(['-w', '-F', '--max', '100000', 'a.b(c)'], dir).sort()).toEqual(
        expectedGitHits(dir, ['-w', '-F', '-e', 'a.b(c)']),
      );
    });

    const regexes: Array<[string, string[]]> = [
      ['foo[0-9]+', ['-E', '-e', 'foo[0-9]+']],
      ['^\\s*return', ['-P', '-e', '^\\s*return']],
      ['parse(Config|CONFIG)s?\\b', ['-P', '-e', 'parse(Config|CONFIG)s?\\b']],
      ['a.b\\(c\\)', ['-E', '-e', 'a.b\\(c\\)']],
    ];
    for (const [pattern, gitArgs] of regexes) {
      it(`regex ${pattern}: the same set as git grep ${gitArgs[0]}`, () => {
        const expected = expectedGitHits(dir, gitArgs);
        expect(expected.length).toBeGreaterThan(0);
        expect(grepKeys(['--max', '100000', pattern], dir).sort()).toEqual(expected);
      });
    }

    it('hits are sorted by path (as a tree is read: src/ before src-old/) and then by line number', () => {
      for (const args of [['-F', 'parseConfig'], ['return'], ['-i', 'foo']]) {
        const keys = grepKeys(['--max', '100000', ...args], dir);
        expect(keys).toEqual(sortKeys(keys));
      }
      const paths = grepKeys(['-F', 'parseConfig'], dir).map((k) => k.slice(0, k.lastIndexOf(':')));
      expect(paths.indexOf('src/util.ts')).toBeLessThan(paths.indexOf('src-old/legacy.ts'));
      expect(paths.indexOf('data/crlf.txt')).toBeLessThan(paths.indexOf('docs/my notes.md'));
    });
  });

  describe('LIDs', () => {
    it('every hit carries the LID rt open shows for that line (CRLF, BOM and invalid UTF-8 files included)', () => {
      const all: Hit[] = [];
      for (const args of [['-F', 'parseConfig'], ['foo[0-9]+'], ['-i', 'a.b'], ['^\\s*return'], ['-w', 'foo']]) {
        const r = run(['grep', '--max', '100000', ...args], dir);
        expectRun(r, { status: 0, stderr: '' });
        all.push(...hitsOf(r));
      }
      for (const p of ['data/crlf.txt', 'data/bom.ts', 'data/latin1.txt', 'src/long.txt'])
        expect(all.map((h) => h.path)).toContain(p);
      expectLidsAsOpenShows(all, dir);
    });

    it('context lines carry the LIDs rt open shows too', () => {
      const r = run(['grep', '-C', '3', '-F', 'parseConfig', 'src', 'data'], dir);
      expectRun(r, { status: 0, stderr: '' });
      const shown = hitsOf(r, true);
      expect(shown.some((h) => h.sep === '-')).toBe(true);
      expectLidsAsOpenShows(shown, dir);
    });

    it('from a subdirectory, hits name paths relative to it and carry the same LIDs', () => {
      const cwd = path.join(dir, 'src');
      const r = run(['grep', '-F', 'parseConfig', '.', '../web'], cwd);
      expectRun(r, { status: 0, stderr: '' });
      const hits = hitsOf(r);
      expect(hits.map((h) => h.path)).toContain('../web/app.js');
      expect(hits.map((h) => h.path)).toContain('app.ts');
      expectLidsAsOpenShows(hits, cwd);
    });
  });

  describe('bytes', () => {
    it("a hit on a line with invalid UTF-8 prints the line's raw bytes (with -F, a regex, -i)", () => {
      for (const args of [['-F', 'parseConfig'], ['parse[C]onfig'], ['-i', '-F', 'PARSECONFIG']]) {
        const r = run(['grep', ...args, 'data/latin1.txt'], dir);
        expect(r.status, r.text).toBe(0);
        const lid = hitsOf(r)[0]!.lid;
        expect(
          r.stdoutBytes.equals(
            Buffer.concat([Buffer.from(`data/latin1.txt:2:${lid}|`), LATIN1_LINE, Buffer.from('\n')]),
          ),
          r.text,
        ).toBe(true);
      }
    });

    it('a regex matches across bytes that are not UTF-8 (each one is one character for .)', () => {
      const r = run(['grep', 'caf. parseConfig .. end', 'data'], dir);
      expect(r.status, r.text).toBe(0);
      expect(hitsOf(r).map(keyOf)).toEqual(['data/latin1.txt:2']);
    });

    it('CRLF lines print without the \\r, and $ matches before it; a BOM is not part of line 1', () => {
      const r = run(['grep', 'parseConfig;$', 'data/crlf.txt'], dir);
      expect(r.status, r.text).toBe(0);
      expect(r.stdout).toMatch(/^data\/crlf\.txt:2:[0-9a-z]{4}\| {2}return parseConfig;\n$/);
      const b = run(['grep', '^parseConfig', 'data/bom.ts'], dir);
      expect(b.stdout, b.text).toMatch(/^data\/bom\.ts:1:[0-9a-z]{4}\|parseConfig at the start\n$/);
      expect(b.stdoutBytes.includes(Buffer.from([0xef, 0xbb, 0xbf])), b.text).toBe(false);
    });
  });

  describe('flags', () => {
    it('-i: case-insensitive', () => {
      expect(grepKeys(['PARSECONFIG', 'src/util.ts'], dir)).toEqual(['src/util.ts:5']);
      expect(grepKeys(['-i', 'PARSECONFIG', 'src/util.ts'], dir)).toEqual([
        'src/util.ts:1',
        'src/util.ts:5',
        'src/util.ts:6',
      ]);
    });

    it('-w: foo matches foo and foo.bar, not foobar, barfoo or foo_bar', () => {
      expect(grepKeys(['foo', 'src/words.txt'], dir)).toEqual([
        'src/words.txt:1',
        'src/words.txt:2',
        'src/words.txt:3',
        'src/words.txt:4',
        'src/words.txt:5',
      ]);
      expect(grepKeys(['-w', 'foo', 'src/words.txt'], dir)).toEqual(['src/words.txt:1', 'src/words.txt:3']);
      expect(grepKeys(['-w', '-i', 'foo', 'src/words.txt'], dir)).toEqual([
        'src/words.txt:1',
        'src/words.txt:3',
        'src/words.txt:6',
      ]);
      expect(grepKeys(['-w', 'foo|abc', 'src/words.txt'], dir)).toEqual([
        'src/words.txt:1',
        'src/words.txt:3',
        'src/words.txt:7',
      ]);
    });

    it('-F vs regex: a.c matches abc only without -F', () => {
      expect(grepKeys(['a.c', 'src/words.txt'], dir)).toEqual([
        'src/words.txt:7',
        'src/words.txt:8',
        'src/words.txt:9',
      ]);
      expect(grepKeys(['-F', 'a.c', 'src/words.txt'], dir)).toEqual(['src/words.txt:8']);
      // Regex metacharacters in a fixed string.
      expect(grepKeys(['-F', 'a.b(c) + a.b(c)', 'src'], dir)).toEqual(['src/app.ts:9']);
    });

    it('-g GLOB: without / the file name at any depth; with / the path; !GLOB excludes; repeatable', () => {
      const filesFor = (globs: string[]) => {
        const r = run(['grep', '-l', ...globs.flatMap((g) => ['-g', g]), '-F', 'parseConfig'], dir);
        expectRun(r, { status: 0, stderr: '' });
        return outLines(r.stdout);
      };
      const all = filesFor([]);
      expect(filesFor(['*.ts'])).toEqual(all.filter((p) => p.endsWith('.ts')));
      expect(filesFor(['src/**'])).toEqual(all.filter((p) => p.startsWith('src/')));
      expect(filesFor(['*.js', '!*.min.js'])).toEqual(['web/app.js']);
      expect(filesFor(['!*.min.js'])).toEqual(all.filter((p) => p !== 'web/app.min.js'));
      expect(filesFor(['*.md', '*.js'])).toEqual(all.filter((p) => p.endsWith('.md') || p.endsWith('.js')));
      expect(filesFor(['*.ts', '!src/**'])).toEqual(all.filter((p) => p.endsWith('.ts') && !p.startsWith('src/')));
      expect(all.filter((p) => p.endsWith('.ts') && !p.startsWith('src/')).length).toBeGreaterThan(0);
    });

    it('-g with / matches the path from the folder searched', () => {
      const r = run(['grep', '-l', '-g', 'deep/*.ts', '-w', 'deep', 'src/lib'], dir);
      expectRun(r, { status: 0, stdout: 'src/lib/deep/nested.ts\n', stderr: '' });
    });

    it('-l: the paths of the files with hits, once each, in order', () => {
      const hits = grepKeys(['-F', '--max', '100000', 'parseConfig'], dir);
      const paths = [...new Set(hits.map((k) => k.slice(0, k.lastIndexOf(':'))))];
      const r = run(['grep', '-l', '-F', 'parseConfig'], dir);
      expectRun(r, { status: 0, stdout: paths.map((p) => `${p}\n`).join(''), stderr: '' });
    });

    it('--max N: the first N hits, then a line with how many more and the command to see them', () => {
      const r0 = run(['grep', '-F', '--max', '100000', 'parseConfig'], dir);
      const all = outLines(r0.stdout);
      const r = run(['grep', '-F', '--max', '3', 'parseConfig'], dir);
      expect(r.status, r.text).toBe(0);
      const lines = outLines(r.stdout);
      expect(lines.slice(0, 3), r.text).toEqual(all.slice(0, 3));
      expect(lines.length, r.text).toBe(4);
      const notice = parseCapNotice(lines[3]!);
      expect(notice, r.text).toMatchObject({ more: all.length - 3, what: 'hits' });
      const again = run(notice!.argv, dir);
      expectRun(again, { status: 0, stdout: r0.stdout, stderr: '' });
    });

    it('--hidden: hidden files and folders too (still honouring ignore rules)', () => {
      const keys = grepKeys(['--hidden', '-F', '--max', '100000', 'parseConfig'], dir).sort();
      const expected = [...new Set([...expectedFromGitWithHidden(dir, 'parseConfig')])].sort();
      expect(keys).toEqual(expected);
      expect(keys).toEqual(expect.arrayContaining(['.config/settings.json:1', '.env:1', 'src/.hidden.ts:1']));
    });

    it('--no-ignore: ignored files too, not hidden ones; --hidden --no-ignore: everything but .git and .rt', () => {
      const plain = scanTree(dir, 'parseConfig', false);
      expect(grepKeys(['--no-ignore', '-F', '--max', '100000', 'parseConfig'], dir).sort()).toEqual(plain);
      const everything = scanTree(dir, 'parseConfig', true);
      expect(grepKeys(['--no-ignore', '--hidden', '-F', '--max', '100000', 'parseConfig'], dir).sort()).toEqual(
        everything,
      );
      expect(plain).toEqual(
        expect.arrayContaining([
          'debug.log:1',
          'build/out.js:1',
          'secret/key.txt:1',
          'old.bak:1',
          'generated/gen.ts:1',
          'src/dot-ignored.ts:1',
        ]),
      );
      expect(everything).toEqual(expect.arrayContaining(['.env:1', 'src/.hidden.ts:1']));
    });

    it(
      'explicit file paths are searched even when ignored, ' +
        'hidden or excluded by .ignore, and sorted with the rest',
      () => {
        const r = run(
          [
            'grep',
            '-F',
            'parseConfig',
            'old.bak',
            'build/out.js',
            'src/.hidden.ts',
            'debug.log',
            'generated/gen.ts',
            'README.md',
          ],
          dir,
        );
        expectRun(r, { status: 0, stderr: '' });
        expect(hitsOf(r).map(keyOf)).toEqual([
          'README.md:3',
          'build/out.js:1',
          'debug.log:1',
          'generated/gen.ts:1',
          'old.bak:1',
          'src/.hidden.ts:1',
        ]);
        expectLidsAsOpenShows(hitsOf(r), dir);
      },
    );

    it(
      'an explicit symbolic link to a file in the root is searched under its ' +
        'own name; a binary file is refused (exit 4), as grep-file refuses it',
      () => {
        const r = run(['grep', '-F', 'parseConfig', 'link.ts'], dir);
        expectRun(r, { status: 0, stderr: '' });
        expect(hitsOf(r).map(keyOf)).toEqual(['link.ts:1', 'link.ts:4', 'link.ts:11']);
        const refusal =
          'rt: data/blob.bin is a binary file: rt searches text files only\nrt: search its bytes with: rg ' +
          '--text -n -F -e parseConfig data/blob.bin (or grep -a)\n';
        expectRun(run(['grep', '-F', 'parseConfig', 'data/blob.bin'], dir), { status: 4, stdout: '', stderr: refusal });
        expectRun(run(['grep-file', '-F', 'parseConfig', 'data/blob.bin'], dir), {
          status: 4,
          stdout: '',
          stderr: refusal,
        });
        expectRun(run(['grep', '-F', 'no such text', 'data/blob.bin'], dir), {
          status: 4,
          stdout: '',
          stderr: /^rt: data\/blob\.bin is a binary file: rt searches text files only\n/,
        });
      },
    );

    it('multiple PATHs: files and folders, merged, each file once, sorted', () => {
      const r = run(['grep', '-F', 'parseConfig', 'web', 'src/util.ts', 'README.md', 'src', 'src/app.ts'], dir);
      expectRun(r, { status: 0, stderr: '' });
      const keys = hitsOf(r).map(keyOf);
      const src = grepKeys(['-F', 'parseConfig', 'src'], dir);
      expect(keys).toEqual(sortKeys(['README.md:3', 'web/app.js:1', 'web/app.min.js:1', ...src]));
      expect(new Set(keys).size).toBe(keys.length);
    });
  });

  describe('working directory and PATH', () => {
    /** Every hit of `needle` seen from the root. */
    const rootHits = (needle: string) => grepKeys(['-F', '--max', '100000', needle], dir);

    it('from a subdirectory: paths relative to it, hits those of the root under it', () => {
      const expected = rootHits('parseConfig')
        .filter((k) => k.startsWith('src/'))
        .map((k) => k.slice('src/'.length));
      expect(grepKeys(['-F', '--max', '100000', 'parseConfig'], path.join(dir, 'src'))).toEqual(expected);
    });

    it("a folder PATH gives the root's hits under it (the root .ignore applies)", () => {
      const expected = rootHits('parseConfig').filter((k) => k.startsWith('src/'));
      expect(grepKeys(['-F', '--max', '100000', 'parseConfig', 'src'], dir)).toEqual(expected);
    });

    it('from a subdirectory, .. searches the whole root, shown as ../PATH', () => {
      const expected = rootHits('parseConfig').map((k) => `../${k}`);
      expect(grepKeys(['-F', '--max', '100000', 'parseConfig', '..'], path.join(dir, 'src'))).toEqual(
        sortKeys(expected),
      );
      const r = run(['grep', '-F', 'parseConfig', '../web/app.js'], path.join(dir, 'src'));
      expectRun(r, { status: 0, stdout: /^\.\.\/web\/app\.js:1:[0-9a-z]{4}\|parseConfig\(\);\n$/, stderr: '' });
    });

    it('git grep from the subdirectory agrees too', () => {
      const sub = path.join(dir, 'src');
      const fromGit = [...new Set([...gitSub(sub, false), ...gitSub(sub, true)])]
        .filter((k) => !isHidden(k) && !dotIgnored(`src/${k.slice(0, k.lastIndexOf(':'))}`))
        .sort();
      expect(grepKeys(['-F', '--max', '100000', 'parseConfig'], sub).sort()).toEqual(fromGit);
    });
  });

  describe('nothing found', () => {
    it('exit 1, empty stdout, nothing on stderr when no file would match', () => {
      expectRun(run(['grep', 'zzz-no-such-text'], dir), { status: 1, stdout: '', stderr: '' });
      expectRun(run(['grep', '-l', 'zzz-no-such-text'], dir), { status: 1, stdout: '', stderr: '' });
    });

    it('when only ignored files match: stderr says so and suggests --no-ignore, a command that finds them', () => {
      const r = run(['grep', 'backup parseConfig'], dir);
      expectRun(r, { status: 1, stdout: '', stderr: /ignored/ });
      expect(r.stderr).toMatch(/--no-ignore/);
      expectSuggestionFinds(r, dir);
    });

    it('when only hidden files match: stderr says so and suggests --hidden, a command that finds them', () => {
      const r = run(['grep', 'hidden parseConfig'], dir);
      expectRun(r, { status: 1, stdout: '', stderr: /hidden/ });
      expect(r.stderr).toMatch(/--hidden/);
      expectSuggestionFinds(r, dir);
    });

    it('when only a file excluded by .ignore matches: the same note', () => {
      const r = run(['grep', 'gen = parseConfig'], dir);
      expectRun(r, { status: 1, stdout: '', stderr: /--no-ignore/ });
      expectSuggestionFinds(r, dir);
    });

    it('with -g, the suggested command (which keeps -g) finds something, or there is no suggestion', () => {
      // debug.log matches, but -g '*.ts' excludes it whatever the ignore rules say.
      const r = run(['grep', '-g', '*.ts', 'debug parseConfig'], dir);
      expectRun(r, { status: 1, stdout: '' });
      if (r.stderr !== '') expectSuggestionFinds(r, dir);
      // A -g with / is matched from the folder searched, so src/** matches nothing under src.
      const r2 = run(['grep', '-g', 'src/**', 'parseConfig', 'src'], dir);
      expectRun(r2, { status: 1, stdout: '' });
      if (r2.stderr !== '') expectSuggestionFinds(r2, dir);
    });
  });

  describe('exit codes', () => {
    it('2 for an invalid regex, with an rt: message that mentions -F', () => {
      for (const pattern of ['(', '[a-', 'a{2,1}', '*x']) {
        const r = run(['grep', pattern], dir);
        expectRun(r, { status: 2, stdout: '', stderr: /^rt: .*/ });
        expect(r.stderr, r.text).toMatch(/-F/);
      }
      // The same text with -F is fine.
      expectRun(run(['grep', '-F', '('], dir), { status: 0, stderr: '' });
    });

    it('4 for a missing PATH (alone or among others), nothing on stdout', () => {
      const r = run(['grep', 'parseConfig', 'nope'], dir);
      expectRun(r, { status: 4, stdout: '', stderr: /^rt: .*nope/ });
      const r2 = run(['grep', 'parseConfig', 'src', 'nope/deeper.ts'], dir);
      expectRun(r2, { status: 4, stdout: '', stderr: /^rt: .*nope/ });
    });

    it('2 for a bad --max or -C', () => {
      expectRun(run(['grep', '--max', '0', 'x'], dir), { status: 2, stdout: '', stderr: /^rt: / });
      expectRun(run(['grep', '--max', 'lots', 'x'], dir), { status: 2, stdout: '', stderr: /^rt: / });
      expectRun(run(['grep', '-C', '-1', 'x'], dir), { status: 2, stdout: '', stderr: /^rt: / });
    });
  });
});

/** Runs the `rt grep ...` command suggested on stderr, and expects it to find something. */
function expectSuggestionFinds(r: Ran, cwd: string): void {
  const m = /with: (rt .*)$/m.exec(r.stderr);
  expect(m, `a suggested command\n${r.text}`).not.toBeNull();
  const again = run(parseCapNotice(`(1 more hits not shown; see them with: ${m![1]})`)!.argv, cwd);
  expect(again.status, `the suggested command finds something\n${r.text}\n${again.text}`).toBe(0);
}

/** `git grep` run from a subdirectory: paths relative to it. */
function gitSub(sub: string, untracked: boolean): string[] {
  const out = git(
    sub,
    [
      '-c',
      'core.quotePath=off',
      'grep',
      ...(untracked ? ['--untracked'] : []),
      '-I',
      '-n',
      '--null',
      '-F',
      '-e',
      'parseConfig',
    ],
    {},
    [0, 1],
  );
  return outLines(out.toString('utf8')).map((l) => {
    const [p, n] = l.split('\0');
    return `${p}:${n}`;
  });
}

/** Hits of git (tracked and untracked, no ignore-file filtering of hidden paths), less .ignore and symbolic links. */
function expectedFromGitWithHidden(dir: string, needle: string): string[] {
  const out: string[] = [];
  for (const untracked of [false, true]) {
    const buf = git(
      dir,
      [
        '-c',
        'core.quotePath=off',
        'grep',
        ...(untracked ? ['--untracked'] : []),
        '-I',
        '-n',
        '--null',
        '-F',
        '-e',
        needle,
      ],
      {},
      [0, 1],
    );
    for (const l of outLines(buf.toString('utf8'))) {
      const [p, n] = l.split('\0');
      if (!dotIgnored(p!) && !fs.lstatSync(path.join(dir, p!)).isSymbolicLink()) out.push(`${p}:${n}`);
    }
  }
  return [...new Set(out)];
}

/**
 * Every `path:line` with `needle` under `dir`, walking the disk: no ignore rules; hidden paths if `hidden`; never .git
 * or .rt, symbolic links or binary files.
 */
function scanTree(dir: string, needle: string, hidden: boolean): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.name === '.git' || e.name === '.rt') continue;
      if (!hidden && e.name.startsWith('.')) continue;
      if (e.isDirectory()) walk(r);
      else if (e.isFile()) {
        const bytes = fs.readFileSync(path.join(dir, r));
        if (bytes.subarray(0, 8192).includes(0)) continue;
        bytes
          .toString('latin1')
          .split('\n')
          .forEach((line, i) => {
            if (line.includes(needle)) out.push(`${r}:${i + 1}`);
          });
      }
    }
  };
  walk('');
  return out.sort();
}

// ---------------------------------------------------------------------------------------------

describe('rt grep -C', () => {
  /** A folder with ctx.txt: hits (lines with HIT) at 1, 4, 5, 12 and 20 of 22 lines. */
  function withContextFile(): { dir: string; lid: (n: number) => string } {
    const dir = tempDir();
    const lines = Array.from({ length: 22 }, (_, i) =>
      [1, 4, 5, 12, 20].includes(i + 1) ? `HIT ${i + 1}` : `plain ${i + 1}`,
    );
    write(dir, 'ctx.txt', lines.map((l) => `${l}\n`).join(''));
    const w = parseWindow(run(['open', 'ctx.txt', '--window', '1000'], dir));
    return { dir, lid: (n) => w.lidAt(n) };
  }
  const line = (lid: (n: number) => string, n: number, hit: boolean, prefix = 'ctx.txt:') =>
    `${prefix}${n}:${lid(n)}${hit ? '|' : '-'}${[1, 4, 5, 12, 20].includes(n) ? `HIT ${n}` : `plain ${n}`}\n`;

  it('-C 1: context lines use -, overlapping and touching groups merge, others are separated by --', () => {
    const { dir, lid } = withContextFile();
    const hits = new Set([1, 4, 5, 12, 20]);
    const block = (a: number, b: number) =>
      Array.from({ length: b - a + 1 }, (_, i) => line(lid, a + i, hits.has(a + i))).join('');
    const r = run(['grep', '-C', '1', 'HIT'], dir);
    // 1 → 1-2; 4,5 → 3-6, which touches 1-2: one group 1-6. 12 → 11-13. 20 → 19-21.
    expectRun(r, { status: 0, stdout: `${block(1, 6)}--\n${block(11, 13)}--\n${block(19, 21)}`, stderr: '' });
  });

  it('-C 3: groups reaching the start and end of the file are cut there', () => {
    const { dir, lid } = withContextFile();
    const hits = new Set([1, 4, 5, 12, 20]);
    const block = (a: number, b: number) =>
      Array.from({ length: b - a + 1 }, (_, i) => line(lid, a + i, hits.has(a + i))).join('');
    const r = run(['grep', '-C', '3', 'HIT', 'ctx.txt'], dir);
    // 1, 4, 5 → 1-8; 12 → 9-15, touching 1-8: one group 1-15. 20 → 17-22 (the end of the file).
    expectRun(r, { status: 0, stdout: `${block(1, 15)}--\n${block(17, 22)}`, stderr: '' });
  });

  it('-C 0 prints hits only, no separators', () => {
    const { dir, lid } = withContextFile();
    const r = run(['grep', '-C', '0', 'HIT'], dir);
    expectRun(r, { status: 0, stdout: [1, 4, 5, 12, 20].map((n) => line(lid, n, true)).join(''), stderr: '' });
  });

  it(
    'thousands of hits in one file, spread over 20,000 lines: every group ' +
      'exact, LIDs those of rt open, each hit usable by its line number',
    () => {
      const dir = tempDir();
      const total = 20_000;
      const isHit = (n: number) => n % 7 === 0 || (n > 9000 && n < 9100) || n === total;
      const text = (n: number) => (isHit(n) ? `HIT ${n}` : `plain ${n}`);
      write(dir, 'big.txt', Array.from({ length: total }, (_, i) => `${text(i + 1)}\n`).join(''));
      // Without state: the LIDs of a fresh start, and nothing recorded as shown.
      const lids = parseWindow(run(['open', 'big.txt', '--window', '20000'], dir, { env: { RT_STATE: 'off' } })).lids;
      expect(lids.length).toBe(total);
      const r = run(['grep', '-C', '2', '--max', '100000', 'HIT', 'big.txt'], dir);
      expect(r.status, r.text).toBe(0);
      const want: string[] = [];
      let last = 0;
      for (let n = 1; n <= total; n++) {
        const near = [-2, -1, 0, 1, 2].some((d) => n + d >= 1 && n + d <= total && isHit(n + d));
        if (!near) continue;
        if (last && n > last + 1) want.push('--\n');
        want.push(`big.txt:${n}:${lids[n - 1]}${isHit(n) ? '|' : '-'}${text(n)}\n`);
        last = n;
      }
      expect(r.stdout === want.join(''), r.text.slice(0, 2000)).toBe(true);
      // Hits far down the file count as shown: a bare line number names them.
      const edited = run(['edit', 'big.txt', '19999'], dir, { input: 'changed\n' });
      expect(edited.status, edited.text).toBe(0);
    },
  );

  it('groups of different files are separated by --', () => {
    const dir = tempDir();
    write(dir, 'a.txt', 'x\nHIT\ny\n');
    write(dir, 'b.txt', 'HIT\n');
    const r = run(['grep', '-C', '1', 'HIT'], dir);
    expectRun(r, {
      status: 0,
      stdout:
        /^a\.txt:1:[0-9a-z]{4}-x\na\.txt:2:[0-9a-z]{4}\|HIT\na\.txt:3:[0-9a-z]{4}-y\n--\nb\.txt:1:[0-9a-z]{4}\|HIT\n$/,
      stderr: '',
    });
  });
});

// ---------------------------------------------------------------------------------------------

describe('the cap (200 hits, 200 files by default)', () => {
  /** A git repository with 150 + 120 hits of `needle N` in `a.txt` and `b c.txt`. */
  function withManyHits(): string {
    const dir = tempRepo();
    write(dir, 'a.txt', numbered(150, 'needle '));
    write(dir, 'b c.txt', numbered(120, 'needle '));
    write(dir, 'other.txt', 'no match here\n');
    return dir;
  }

  /** Checks a capped run: `shown` hit lines, then a notice whose command shows all `total`. */
  function expectCapped(r: Ran, shown: number, total: number, what: 'hits' | 'files'): Ran {
    expect(r.status, r.text).toBe(0);
    expectCleanStderr(r);
    expect(r.stderr, r.text).toBe('');
    const lines = outLines(r.stdout);
    const body = lines.slice(0, -1);
    const last = lines[lines.length - 1]!;
    expect(last.startsWith('('), r.text).toBe(true);
    const countable = what === 'hits' ? body.filter((l) => parseHit(l)?.sep === '|') : body;
    expect(countable.length, r.text).toBe(shown);
    const notice = parseCapNotice(last);
    expect(notice, `a cap notice with a command\n${r.text}`).toMatchObject({ more: total - shown, what });
    expect(notice!.argv[0], r.text).toBe(r.args[0]);
    const again = run(notice!.argv, r.cwd);
    expect(again.status, again.text).toBe(0);
    const againLines = outLines(again.stdout);
    expect(
      againLines.some((l) => l.startsWith('(')),
      `the suggested command shows everything\n${again.text}`,
    ).toBe(false);
    const againCountable = what === 'hits' ? againLines.filter((l) => parseHit(l)?.sep === '|') : againLines;
    expect(againCountable.length, `the suggested command shows all ${total}\n${r.text}\n${again.text}`).toBe(total);
    // The hits shown first are the first hits of the whole list (context lines may become hits).
    expect(againCountable.slice(0, countable.length), again.text).toEqual(countable);
    return again;
  }

  it('grep: exactly 200 hit lines, then a line with how many more and a runnable rt grep --max N command', () => {
    const dir = withManyHits();
    const r = run(['grep', 'needle'], dir);
    expectCapped(r, 200, 270, 'hits');
    expect(outLines(r.stdout).at(-1)).toMatch(/^\(70 more hits not shown/);
    expect(outLines(r.stdout).at(-1)).toMatch(/rt grep --max 270 /);
  });

  it('grep: the suggested command keeps -F, -i, -w, -g and the PATHs (a path with a space is quoted)', () => {
    const dir = withManyHits();
    expectCapped(run(['grep', '-F', '-i', '-w', '-g', '*.txt', 'NEEDLE', 'b c.txt', 'a.txt'], dir), 200, 270, 'hits');
    expectCapped(run(['grep', '--max', '50', '-F', 'needle', 'b c.txt'], dir), 50, 120, 'hits');
  });

  it('grep --max N: N hit lines; -C does not count context lines as hits', () => {
    const dir = withManyHits();
    expectCapped(run(['grep', '--max', '7', '-i', 'needle'], dir), 7, 270, 'hits');
    expectCapped(run(['grep', '-C', '2', '--max', '10', 'needle'], dir), 10, 270, 'hits');
  });

  it('grep: a pattern starting with - gives a suggested command that still runs', () => {
    const dir = tempRepo();
    write(dir, 'dash.txt', numbered(205, '-dash '));
    const r = run(['grep', '--', '-dash'], dir);
    expectCapped(r, 200, 205, 'hits');
  });

  it('grep -l: more than 200 files: 200 paths, then the notice; its command lists them all', () => {
    const dir = tempRepo();
    for (let i = 0; i < 230; i++) write(dir, `d/f${String(i).padStart(3, '0')}.txt`, 'hit\n');
    const r = run(['grep', '-l', 'hit'], dir);
    expectCapped(r, 200, 230, 'files');
    expect(outLines(r.stdout).slice(0, 200)).toEqual(
      Array.from({ length: 200 }, (_, i) => `d/f${String(i).padStart(3, '0')}.txt`),
    );
  });

  it('grep: the notice says "1 more file", not "1 more files"', () => {
    const dir = tempRepo();
    for (let i = 0; i < 3; i++) write(dir, `f${i}.txt`, 'hit\n');
    const r = run(['grep', '-l', '--max', '2', 'hit'], dir);
    expect(outLines(r.stdout).at(-1), r.text).toMatch(/^\(1 more file not shown/);
  });
});

// ---------------------------------------------------------------------------------------------

describe('rt grep-file', () => {
  function withFile(): { dir: string; lid: (n: number) => string } {
    const dir = tempRepo();
    write(dir, 'f.ts', 'alpha\nbeta total\ngamma\ndelta\nepsilon total\nzeta\neta\ntheta\niota total\n');
    const w = parseWindow(run(['open', 'f.ts'], dir));
    return { dir, lid: (n) => w.lidAt(n) };
  }

  it('prints NUMBER:LID|CONTENT for each hit, with the LIDs rt open shows', () => {
    const { dir, lid } = withFile();
    const r = run(['grep-file', 'total', 'f.ts'], dir);
    expectRun(r, {
      status: 0,
      stdout: `2:${lid(2)}|beta total\n5:${lid(5)}|epsilon total\n9:${lid(9)}|iota total\n`,
      stderr: '',
    });
  });

  it('takes -i, -w, -F', () => {
    const { dir, lid } = withFile();
    expectRun(run(['grep-file', '-i', 'ALPHA', 'f.ts'], dir), { status: 0, stdout: `1:${lid(1)}|alpha\n`, stderr: '' });
    expectRun(run(['grep-file', '-w', 'eta', 'f.ts'], dir), { status: 0, stdout: `7:${lid(7)}|eta\n`, stderr: '' });
    expectRun(run(['grep-file', 'eta', 'f.ts'], dir), {
      status: 0,
      stdout: `2:${lid(2)}|beta total\n6:${lid(6)}|zeta\n7:${lid(7)}|eta\n8:${lid(8)}|theta\n`,
      stderr: '',
    });
    expectRun(run(['grep-file', '-F', 'e.a', 'f.ts'], dir), { status: 1, stdout: '', stderr: '' });
  });

  it('-C N: context lines NUMBER:LID-CONTENT, merged groups, -- between groups', () => {
    const { dir, lid } = withFile();
    const l = (n: number, sep: string, text: string) => `${n}:${lid(n)}${sep}${text}\n`;
    const r = run(['grep-file', '-C', '1', 'total', 'f.ts'], dir);
    expectRun(r, {
      status: 0,
      stdout:
        l(1, '-', 'alpha') +
        l(2, '|', 'beta total') +
        l(3, '-', 'gamma') +
        l(4, '-', 'delta') +
        l(5, '|', 'epsilon total') +
        l(6, '-', 'zeta') +
        '--\n' +
        l(8, '-', 'theta') +
        l(9, '|', 'iota total'),
      stderr: '',
    });
  });

  it('the cap: 200 hits, then the notice; its command shows all of them, keeping -i/-F/-w', () => {
    const dir = tempRepo();
    write(dir, 'big.txt', numbered(260, 'Hit.'));
    const cases: string[][] = [['Hit'], ['-i', 'HIT'], ['-F', 'Hit.'], ['-w', '-i', 'hit']];
    for (const args of cases) {
      const r = run(['grep-file', ...args, 'big.txt'], dir);
      expect(r.status, r.text).toBe(0);
      const lines = outLines(r.stdout);
      expect(lines.length, r.text).toBe(201);
      expect(
        lines.slice(0, 200).every((x) => /^\d+:[0-9a-z]{4}\|Hit\.\d+$/.test(x)),
        r.text,
      ).toBe(true);
      const notice = parseCapNotice(lines[200]!);
      expect(notice, r.text).toMatchObject({ more: 60, what: 'hits' });
      const again = run(notice!.argv, dir);
      expect(
        { status: again.status, lines: outLines(again.stdout).length },
        `the suggested command shows all 260 hits\n${r.text}\n${again.text}`,
      ).toEqual({ status: 0, lines: 260 });
    }
  });

  it('exit 1 with empty stdout when nothing matches', () => {
    const { dir } = withFile();
    expectRun(run(['grep-file', 'nothing-here', 'f.ts'], dir), { status: 1, stdout: '', stderr: '' });
  });

  it('exit 4 for a binary file, a directory, a missing file; exit 2 for an invalid regex', () => {
    const dir = tempRepo();
    write(dir, 'bin.dat', Buffer.from('text\0more text\n'));
    write(dir, 'sub/x.txt', 'text\n');
    expectRun(run(['grep-file', 'text', 'bin.dat'], dir), { status: 4, stdout: '', stderr: /^rt: .*bin\.dat/ });
    expectRun(run(['grep-file', 'text', 'sub'], dir), { status: 4, stdout: '', stderr: /^rt: .*sub/ });
    expectRun(run(['grep-file', 'text', 'missing.txt'], dir), { status: 4, stdout: '', stderr: /^rt: .*missing\.txt/ });
    const bad = run(['grep-file', '(', 'sub/x.txt'], dir);
    expectRun(bad, { status: 2, stdout: '', stderr: /-F/ });
  });

  it('prints invalid UTF-8 bytes raw', () => {
    const dir = tempRepo();
    write(dir, 'l.txt', Buffer.concat([Buffer.from('x\n'), LATIN1_LINE, Buffer.from('\n')]));
    const r = run(['grep-file', 'parseConfig', 'l.txt'], dir);
    expect(r.status, r.text).toBe(0);
    const lid = parseWindow(run(['open', 'l.txt'], dir)).lidAt(2);
    expect(
      r.stdoutBytes.equals(Buffer.concat([Buffer.from(`2:${lid}|`), LATIN1_LINE, Buffer.from('\n')])),
      r.text,
    ).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------

describe('rt grep outside git and with other ignore sources', () => {
  it('outside a git work tree: honours .gitignore (with a nested negation) and .ignore, skips hidden files', () => {
    const dir = tempDir();
    write(dir, '.gitignore', '*.log\n');
    write(dir, 'logs/.gitignore', '!keep.log\n');
    write(dir, '.ignore', 'skip/\n');
    write(dir, 'a.txt', 'needle\n');
    write(dir, 'x.log', 'needle\n');
    write(dir, 'logs/keep.log', 'needle\n');
    write(dir, 'logs/drop.log', 'needle\n');
    write(dir, 'skip/s.txt', 'needle\n');
    write(dir, '.h/h.txt', 'needle\n');
    expect(grepKeys(['needle'], dir)).toEqual(['a.txt:1', 'logs/keep.log:1']);
  });

  it('the global excludes file via XDG_CONFIG_HOME (git/ignore) is honoured, like git does', () => {
    const dir = tempRepo();
    const home = tempDir('rt-home-');
    write(home, 'xdg/git/ignore', '*.secret\n');
    write(dir, 'a.txt', 'needle\n');
    write(dir, 'b.secret', 'needle\n');
    const env = { HOME: home, XDG_CONFIG_HOME: path.join(home, 'xdg') };
    const r = run(['grep', 'needle'], dir, { env });
    expectRun(r, { status: 0, stdout: /^a\.txt:1:[0-9a-z]{4}\|needle\n$/, stderr: '' });
    expect(fs.existsSync(path.join(dir, 'b.secret'))).toBe(true);
    // Without that environment, the file is searched.
    expect(grepKeys(['needle'], dir)).toEqual(['a.txt:1', 'b.secret:1']);
  });
});

describe('named paths that are not files or folders', () => {
  it('a FIFO named as PATH is refused with exit 4, as grep-file and open refuse it, not "nothing found"', () => {
    const dir = tempRepo();
    write(dir, 'a.txt', 'foo\n');
    const fifo = path.join(dir, 'pipe');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    expectRun(run(['grep', 'foo', 'pipe'], dir), {
      status: 4,
      stdout: '',
      stderr: /^rt: pipe is not a regular file or a folder/,
    });
    expectRun(run(['grep', 'foo', 'a.txt', 'pipe'], dir), { status: 4, stdout: '' });
    expectRun(run(['grep', 'foo', 'a.txt'], dir), { status: 0, stdout: /^a\.txt:1:[0-9a-z]{4}\|foo\n$/ });
  });
});
