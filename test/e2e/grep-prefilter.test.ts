// Searches of folders use a prefilter: ripgrep when it is installed (src/search/ripgrep.ts), for
// literals and for regular expressions through their translation into its dialect; otherwise, in
// a git work tree, git grep (src/search/gitGrep.ts), for the literal texts a match must hold. A
// prefilter may only narrow what rt reads, never change the answer: every search here must print
// exactly the same with each prefilter and without any (RT_RIPGREP=off RT_GIT_GREP=off).

import { spawnSync } from 'node:child_process';
import { chmodSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, run, tempDir, write } from './harness.js';
import { buildSearchRepo, git } from './search-fixture.js';

const hasRipgrep = spawnSync('rg', ['--version']).status === 0;
/** No prefilter at all: rt reads every file. */
const WITHOUT = { RT_RIPGREP: 'off', RT_GIT_GREP: 'off' };
const PREFILTERS = [
  ...(hasRipgrep ? [{ name: 'ripgrep', env: {} }] : []),
  { name: 'git grep', env: { RT_RIPGREP: 'off' } },
];

afterAll(cleanup);

const dir = tempDir();
buildSearchRepo(dir, tempDir());
// ripgrep's own walk decides nothing: rt asks git about the files ripgrep found. What could
// differ if it did: a repository nested in the work tree (git lists none of its files), a
// .ignore file git does not track, and more untracked files with hits than rt asks git about
// one by one (it lists the tree instead).
write(dir, 'nested/inner.ts', 'inner parseConfig\n');
spawnSync('git', ['init', '-q'], { cwd: path.join(dir, 'nested') });
write(dir, 'notes/.ignore', 'secret-note.md\n');
write(dir, 'notes/secret-note.md', 'parseConfig in a note .ignore hides\n');
for (let i = 0; i < 1100; i++) write(dir, `bulk/f${i}.txt`, `bulkword ${i}\n`);
// Lines that end in \r: CRLF ones (the \r is no content), and a last line without \n (it is).
write(dir, 'data/cr-end.txt', 'first parseConfig\r\nparseConfig\r\r\nlast parseConfig\r');
write(dir, 'data/cr-inside.txt', 'parseConfig\r\nparseConfig\r\nend\n');
write(dir, 'data/cr-last.txt', 'nothing\r\nonly parseConfig\r');
write(dir, 'notes/folded.txt', 'u\u017Fe\u212Aey\u017F here\ncaf\u00c9 parse too\n');
// A file starting with a UTF-16 byte order mark but no NUL: text to rt, read as it is (ripgrep
// would read it as UTF-16 unless told not to).
write(
  dir,
  'notes/utf16-mark.txt',
  Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('parseConfig after a UTF-16 mark\nparseConfig again\n')]),
);
// \E ends the quoting of a literal text by git grep built with PCRE (\Q…\E): Users\Eve would be Usersve.
write(dir, 'data/windows.ini', 'path = C:\\Users\\Eve\\notes.txt\n');
// With -w or -i a literal is matched on text, where a byte that is not UTF-8 reads as U+FFFD.
write(dir, 'data/bad-byte.txt', Buffer.concat([Buffer.from([0xff]), Buffer.from('foo bar\n')]));
// More lines found in one file than rt matches one by one: it searches the file itself.
write(dir, 'data/dense.txt', 'dense line\n'.repeat(5000));
write(dir, 'data/decoy.txt', 'Usersve\n');
// Tracked, so that git grep reads them (rt reads untracked files itself).
git(dir, [
  'add',
  'data/windows.ini',
  'data/decoy.txt',
  'data/bad-byte.txt',
  'data/dense.txt',
  'data/cr-end.txt',
  'data/cr-inside.txt',
  'data/cr-last.txt',
  'notes/folded.txt',
  'notes/utf16-mark.txt',
]);

const searches: string[][] = [
  ['grep', '-F', 'parseConfig'],
  ['grep', '-F', '-i', 'PARSECONFIG'],
  ['grep', '-F', '-w', 'parseConfig'],
  ['grep', '-F', 'a.b(c)'],
  ['grep', '-F', '-l', 'parseConfig'],
  ['grep', '-F', '--hidden', 'parseConfig'],
  ['grep', '-F', '--no-ignore', 'parseConfig'],
  ['grep', '-F', '--hidden', '--no-ignore', '--max', '100000', 'e'],
  ['grep', '-F', '-g', '*.ts', 'parseConfig', 'src'],
  ['grep', '-F', 'caf\u00e9'],
  // JavaScript folds ſ into s and the Kelvin sign into k (git grep -i folds ASCII only).
  ['grep', '-F', '-i', 'USEKEYS'],
  ['grep', '-i', 'use\\w?keys'],
  ['grep', '-F', '-i', 'CAF\u00c9 PARSE'],
  ['grep', '-F', 'no such text anywhere'],
  // A plain literal takes ripgrep's line numbers: caps and their counts, context, JSON, one
  // character, long lines, binary and tracked-but-ignored files must all come out the same.
  ['grep', '-F', '--max', '3', 'parseConfig'],
  ['grep', '-F', '--max', '1', '--json', 'parseConfig'],
  ['grep', '-F', '-C', '1', 'parseConfig'],
  ['grep', '-F', 'e'],
  ['grep', '-F', '--max', '100000', 'e'],
  ['grep', '-F', '--max', '100000', '('],
  ['grep', '-F', 'tracked'],
  ['grep', '-F', '-g', '!*.ts', '--max', '100000', 'a'],
  ['grep', '-F', 'parseConfig', 'src', 'notes', 'nested'],
  // Nothing found: the note on ignored and hidden files counts the files searched.
  ['grep', '-F', 'backup parseConfig'],
  ['grep', '-F', 'PARSE=parseConfig'],
  ['grep', '-F', '-w', 'PARSE'],
  ['grep', '-F', '--max', '100000', 'bulkword'],
  ['grep', '-F', '-l', '--max', '100000', 'bulkword'],
  // -l with a plain literal takes ripgrep's files as they are; otherwise it matches in the lines found.
  ['grep', '-F', '-l', 'tracked'],
  ['grep', '-F', '-l', '--no-ignore', '--hidden', 'parseConfig'],
  ['grep', '-F', '-l', 'parseConfig', 'src', '.'],
  ['grep', '-l', '-i', 'use\\w?keys'],
  ['grep', '-l', '-F', '-w', 'parseConfig'],
  ['grep', '-F', '-i', '--max', '5', 'BULKWORD'],
  // Regular expressions: ripgrep is given a translation that matches at least the same lines.
  ['grep', 'parse[A-Z]onfig'],
  ['grep', 'parse\\w+'],
  ['grep', '-i', 'PARSE\\w*\\('],
  ['grep', '-w', 'parseConfig\\b'],
  ['grep', '-l', 'parse(Config|Options)'],
  ['grep', '-C', '1', '--max', '3', 'parse.onfig'],
  ['grep', '--json', 'caf\u00e9|parseConfig'],
  ['grep', '--max', '100000', 'bulkword \\d+$'],
  ['grep', '-l', '--max', '100000', 'bulkword \\d{2}'],
  ['grep', '--hidden', '--no-ignore', 'parse[^ ]onfig'],
  ['grep', 'tracked\\s'],
  ['grep', '-F', '-w', '\ufffdfoo'],
  ['grep', '-F', '-i', '\ufffdFOO bar'],
  ['grep', '\ufffdfoo'],
  ['grep', '--max', '2', 'dense\\s'],
  ['grep', '-w', '-l', 'dense'],
  ['grep', '-F', 'Users\\Eve'],
  ['grep', '-F', '-l', 'Users\\Eve'],
  ['grep', 'Users\\\\Eve'],
  ['grep', '-i', 'PATH.*\\\\EVE'],
  ['grep', 'parseConfig$'],
  ['grep', 'parseConfig\\r$'],
  ['grep', '-l', 'parseConfig\\s$'],
  ['grep', '-l', 'parseConfig$'],
  ['grep', '--max', '1', 'parseConfig$'],
  ['grep', '^parseConfig'],
  ['grep', '-w', '--max', '100000', '^(parse|tracked)\\w*'],
  ['grep', 'no such text \\w+ anywhere'],
  // PATHs one inside the other: ripgrep searches (and lists) their files twice.
  ['grep', '-w', 'parseConfig', '.', 'src'],
  ['grep', '-F', '--max', '2', 'parseConfig', 'src', '.'],
  ['grep', 'parse\\w+', 'src', '.', 'src'],
];
const fromSrc: string[][] = [
  ['grep', '-F', 'parseConfig'],
  ['grep', '-F', 'parseConfig', '..'],
  ['grep', '-F', '--hidden', 'parseConfig', '../notes', '.'],
];
const cases = [
  ...searches.map((args) => ({ args, cwd: dir })),
  ...fromSrc.map((args) => ({ args, cwd: path.join(dir, 'src') })),
];

describe.each(PREFILTERS)('the $name prefilter', ({ env: prefilter }) => {
  it('a file under two PATHs given (one inside the other) is searched once: no crash, no hit counted twice', () => {
    const repo = tempDir();
    spawnSync('git', ['init', '-q'], { cwd: repo });
    const lines = Array.from({ length: 101 }, (_, i) => (i === 0 || i === 100 ? 'foo' : i === 50 ? 'foox' : 'x'));
    write(repo, 'a/x.txt', `${lines.join('\n')}\n`);
    for (const args of [
      ['grep', '-w', 'foo', '.', 'a'],
      ['grep', 'foo$', 'a', '.'],
      ['grep', '-F', '--max', '1', 'foo', '.', 'a'],
    ]) {
      const withRg = run(args, repo, { env: prefilter });
      expect(withRg.status, withRg.text).toBe(0);
      expect(withRg.stdout).toBe(run(args, repo, { env: WITHOUT }).stdout);
    }
  });

  it(
    'a tracked file whose folder was replaced by a symbolic link (into the root, or ' +
      'out of it) is not searched: no link is followed, no hit counted and left unprinted',
    () => {
      const repo = tempDir();
      const outside = tempDir();
      git(repo, ['init', '-q']);
      write(repo, 'a/f.txt', 'hello one\n');
      write(repo, 'z/f.txt', 'hello two\n');
      write(repo, 'b/deep/g.txt', 'hello three\n');
      git(repo, ['add', '.']);
      rmSync(path.join(repo, 'a'), { recursive: true });
      rmSync(path.join(repo, 'b'), { recursive: true });
      symlinkSync('z', path.join(repo, 'a'));
      write(outside, 'deep/g.txt', 'hello outside\n');
      symlinkSync(outside, path.join(repo, 'b'));
      const expected: Record<string, string> = {
        'grep --max 1 -F hello': 'z/f.txt:1:',
        'grep --max 1 hel+o': 'z/f.txt:1:',
        'grep -l -F hello': 'z/f.txt\n',
        'grep -l h.llo': 'z/f.txt\n',
      };
      for (const [command, start] of Object.entries(expected)) {
        const args = command.split(' ');
        for (const env of [prefilter, WITHOUT]) {
          const found = run(args, repo, { env });
          expect(found.status, found.text).toBe(0);
          expect(found.stdout.startsWith(start) && !found.stdout.includes('more'), found.text).toBe(true);
          expect(found.stdout).not.toMatch(/^[ab]\//m);
        }
      }
    },
  );

  it(
    "a file where a tracked file's folder was, and a tracked file of .rt: no error, and the state file is not " +
      'searched',
    () => {
      const repo = tempDir();
      git(repo, ['init', '-q']);
      write(repo, 'c/h.txt', 'hello four\n');
      write(repo, '.rt/notes.txt', 'hello state\n');
      write(repo, 'z.txt', 'hello z\n');
      git(repo, ['add', '-f', '.']);
      rmSync(path.join(repo, 'c'), { recursive: true });
      write(repo, 'c', 'now a file\n');
      for (const env of [prefilter, WITHOUT]) {
        const none = run(['grep', '--hidden', 'no such words'], repo, { env });
        expect(none.status, none.text).toBe(1);
        expect(none.stderr, none.text).not.toMatch(/internal error/);
        for (const args of [
          ['grep', '--hidden', '-F', 'hello'],
          ['grep', '--hidden', '-l', 'hel+o'],
        ]) {
          const found = run(args, repo, { env });
          expect(found.status, found.text).toBe(0);
          expect(found.stdout, found.text).toMatch(/^z\.txt(:1:\w+\|hello z)?\n$/);
        }
      }
    },
  );

  it(
    "a repository's own core.excludesFile, or GIT_CONFIG_GLOBAL, naming another global excludes file than " +
      "~/.gitconfig's",
    () => {
      const home = tempDir();
      write(home, 'global-ignore', '*.log\n');
      write(home, '.gitconfig', `[core]\n\texcludesFile = ${path.join(home, 'global-ignore')}\n`);
      const repo = tempDir();
      spawnSync('git', ['init', '-q'], { cwd: repo });
      spawnSync('git', ['config', 'core.excludesFile', '/dev/null'], { cwd: repo });
      write(repo, 'x.log', 'foo here\n');
      const other = tempDir();
      write(other, 'config', '[core]\n\texcludesFile = /dev/null\n');
      const repo2 = tempDir();
      spawnSync('git', ['init', '-q'], { cwd: repo2 });
      write(repo2, 'y.log', 'foo here\n');
      for (const [cwd, env] of [
        [repo, { HOME: home }],
        [repo2, { HOME: home, GIT_CONFIG_GLOBAL: path.join(other, 'config') }],
      ] as const) {
        for (const args of [
          ['grep', '-F', 'foo here'],
          ['grep', 'fo+ here'],
        ]) {
          const withPrefilter = run(args, cwd, { env: { ...env, ...prefilter } });
          expect(withPrefilter.stdout, withPrefilter.text).toBe(run(args, cwd, { env: { ...env, ...WITHOUT } }).stdout);
          expect(withPrefilter.stdout).toMatch(/\.log:1:/);
        }
      }
    },
  );

  it("it finds git's global ignore file where git does (XDG_CONFIG_HOME, not only HOME)", () => {
    const repo = tempDir();
    spawnSync('git', ['init', '-q'], { cwd: repo });
    const home = tempDir();
    write(home, '.config/git/ignore', '*.txt\n'); // git's file when XDG_CONFIG_HOME is not set
    write(repo, 'u.txt', 'foo bar\n');
    write(repo, 't.md', 'foo bar\n');
    const env = { HOME: home, XDG_CONFIG_HOME: tempDir() }; // …but it is set, to a folder without one
    for (const args of [
      ['grep', '-F', 'foo'],
      ['grep', 'fo+ bar'],
      ['grep', '-F', '-i', 'FOO'],
    ]) {
      const withRg = run(args, repo, { env: { ...env, ...prefilter } });
      expect(withRg.stdout, withRg.text).toBe(run(args, repo, { env: { ...env, ...WITHOUT } }).stdout);
      expect(withRg.stdout).toContain('u.txt:1:');
    }
  });
  it(
    "ripgrep's own ignore rules, which are not git's, leave out no file git lists: .rgignore files (in the " +
      'tree, tracked or not, and above it), braces and [!a] in .gitignore, a .gitignore that is a link',
    () => {
      const outer = tempDir();
      write(outer, '.rgignore', '*.log\n');
      const repo = path.join(outer, 'repo');
      write(repo, 'app.log', 'needle in a log\n');
      spawnSync('git', ['init', '-q'], { cwd: repo });
      write(repo, '.rgignore', 'vendor/\nplain.txt\n');
      write(repo, 'plain.txt', 'needle plain\n');
      write(repo, 'vendor/lib/dep.js', 'needle vendored\n');
      write(repo, 'vendor/lib/other.js', 'nothing\n');
      write(repo, 'deep/.rgignore', 'untracked.md\n');
      write(repo, 'deep/untracked.md', 'needle untracked\n');
      write(repo, '.gitignore', '*.{tmp,bak}\nsrc[!a]gen\n[^x]y.txt\nbuild/\n');
      write(repo, 'braces.tmp', 'needle braces\n');
      write(repo, 'src/gen/made.ts', 'needle class\n');
      write(repo, 'ay.txt', 'needle caret\n');
      write(repo, 'build/out.js', 'needle ignored by both\n');
      write(repo, 'sub/rules', 'linked.txt\n');
      symlinkSync('rules', path.join(repo, 'sub/.gitignore'));
      write(repo, 'sub/linked.txt', 'needle linked\n');
      spawnSync('git', ['add', '.rgignore', 'plain.txt', 'vendor/lib/dep.js', 'sub/linked.txt'], { cwd: repo });
      for (const args of [
        ['grep', '-F', 'needle'],
        ['grep', '-l', '-F', 'needle'],
        ['grep', 'need.e'],
        ['grep', '-i', 'NEEDLE'],
        ['grep', '-F', 'needle', 'vendor', 'deep'],
        ['grep', '-F', '--hidden', 'needle'],
      ]) {
        const withPrefilter = run(args, repo, { env: { ...prefilter, RT_ROOT: repo } });
        const without = run(args, repo, { env: { ...WITHOUT, RT_ROOT: repo } });
        expect(withPrefilter.status, `${withPrefilter.text}\n${without.text}`).toBe(without.status);
        expect(withPrefilter.stdout, `${withPrefilter.text}\n${without.text}`).toBe(without.stdout);
        expect(withPrefilter.stderr).toBe(without.stderr);
      }
      const all = run(['grep', '-l', '-F', 'needle'], repo, { env: { ...prefilter, RT_ROOT: repo } }).stdout;
      for (const file of [
        'app.log',
        'plain.txt',
        'vendor/lib/dep.js',
        'deep/untracked.md',
        'braces.tmp',
        'src/gen/made.ts',
        'sub/linked.txt',
      ])
        expect(all).toContain(`${file}\n`);
      // (git reads [^x] as [!x] too)
      for (const file of ['build/out.js', 'ay.txt']) expect(all).not.toContain(file);
    },
  );

  it(
    'a walk leaving out hundreds of paths (a log too long to read: git grep answers), hundreds ' +
      'of files git lists where it left paths out (the same), and a .rgignore outside git',
    () => {
      const vendored = tempDir();
      spawnSync('git', ['init', '-q'], { cwd: vendored });
      write(vendored, '.rgignore', 'vendor/\n');
      for (let i = 0; i < 300; i++) write(vendored, `vendor/v${i}.js`, i % 7 ? 'nothing\n' : 'needle vendored\n');
      write(vendored, 'main.js', 'needle main\n');
      spawnSync('git', ['add', 'vendor'], { cwd: vendored });
      const repo = tempDir();
      spawnSync('git', ['init', '-q'], { cwd: repo });
      write(repo, '.gitignore', '*.o\n');
      write(repo, '.rgignore', 'kept.txt\n');
      for (let i = 0; i < 300; i++) write(repo, `m${i % 10}/f${i}.o`, 'needle in an object\n');
      write(repo, 'kept.txt', 'needle kept\n');
      write(repo, 'm1/src.c', 'needle source\n');
      spawnSync('git', ['add', '-f', 'm2/f2.o'], { cwd: repo });
      const plain = tempDir();
      write(plain, '.rgignore', 'hidden-from-rg.txt\n');
      write(plain, 'hidden-from-rg.txt', 'needle outside git\n');
      write(plain, '.gitignore', 'ignored.txt\n');
      write(plain, 'ignored.txt', 'needle ignored\n');
      for (const cwd of [repo, vendored, plain]) {
        for (const args of [
          ['grep', '-F', 'needle'],
          ['grep', '-l', 'need.e'],
        ]) {
          const withPrefilter = run(args, cwd, { env: { ...prefilter, RT_ROOT: cwd } });
          const without = run(args, cwd, { env: { ...WITHOUT, RT_ROOT: cwd } });
          expect(withPrefilter.status, `${withPrefilter.text}\n${without.text}`).toBe(without.status);
          expect(withPrefilter.stdout, `${withPrefilter.text}\n${without.text}`).toBe(without.stdout);
          expect(withPrefilter.stderr).toBe(without.stderr);
        }
      }
      expect(run(['grep', '-l', '-F', 'needle'], repo, { env: { ...prefilter, RT_ROOT: repo } }).stdout).toBe(
        'kept.txt\nm1/src.c\nm2/f2.o\n',
      );
      expect(run(['grep', '-l', '-F', 'needle'], plain, { env: { ...prefilter, RT_ROOT: plain } }).stdout).toBe(
        'hidden-from-rg.txt\n',
      );
      expect(
        run(['grep', '-l', '-F', 'needle'], vendored, { env: { ...prefilter, RT_ROOT: vendored } }).stdout,
      ).toMatch(/^main\.js\nvendor\/v0\.js\n/);
    },
  );

  for (const { args, cwd } of cases) {
    it(`rt ${args.join(' ')} (in ${path.relative(dir, cwd) || '.'}) prints the same with and without it`, () => {
      const withRg = run(args, cwd, { env: prefilter });
      const without = run(args, cwd, { env: WITHOUT });
      expect(withRg.status, withRg.text).toBe(without.status);
      expect(withRg.stdout, `${withRg.text}\n${without.text}`).toBe(without.stdout);
      expect(withRg.stderr).toBe(without.stderr);
    });
  }
});

// git grep searches some tracked files elsewhere than in the work tree, and reads the user's
// settings: rt must search those files itself and override those settings.
describe('the git grep prefilter, where git grep would answer otherwise', () => {
  const GIT_GREP = { RT_RIPGREP: 'off' };
  const same = (args: string[], cwd: string, env: Record<string, string> = {}) => {
    const withGit = run(args, cwd, { env: { ...env, ...GIT_GREP } });
    const without = run(args, cwd, { env: { ...env, ...WITHOUT } });
    expect(withGit.status, `${withGit.text}\n${without.text}`).toBe(without.status);
    expect(withGit.stdout, `${withGit.text}\n${without.text}`).toBe(without.stdout);
    return withGit;
  };
  const repo = () => {
    const dir = tempDir();
    git(dir, ['init', '-q']);
    git(dir, ['config', 'user.name', 'rt tests']);
    git(dir, ['config', 'user.email', 'rt@example.invalid']);
    return dir;
  };

  it('files marked assume-unchanged or skip-worktree, changed: git grep would search the copy in its index', () => {
    const dir = repo();
    write(dir, 'a.txt', 'nothing here\n');
    write(dir, 'b.txt', 'nothing here\n');
    git(dir, ['add', '.']);
    git(dir, ['update-index', '--assume-unchanged', 'a.txt']);
    git(dir, ['update-index', '--skip-worktree', 'b.txt']);
    write(dir, 'a.txt', 'nothing here\nparseConfig now\n');
    write(dir, 'b.txt', 'parseConfig too\n');
    for (const args of [
      ['grep', '-F', 'parseConfig'],
      ['grep', 'parse[C]onfig'],
      ['grep', '-l', '-F', 'parseConfig'],
    ]) {
      expect(same(args, dir).stdout).toMatch(/a\.txt[:\n][^]*b\.txt/);
    }
  });

  it('a symbolic link in the index since replaced by a file, and a conflict', () => {
    const dir = repo();
    write(dir, 'target.txt', 'nothing\n');
    symlinkSync('target.txt', path.join(dir, 'link.txt'));
    write(dir, 'c.txt', 'base\n');
    git(dir, ['add', '.']);
    git(dir, ['commit', '-qm', 'base']);
    git(dir, ['checkout', '-qb', 'other']);
    write(dir, 'c.txt', 'theirs\n');
    git(dir, ['commit', '-qam', 'theirs']);
    git(dir, ['checkout', '-q', '-']);
    write(dir, 'c.txt', 'ours\n');
    git(dir, ['commit', '-qam', 'ours']);
    git(dir, ['merge', '-q', 'other'], {}, [1]);
    rmSync(path.join(dir, 'link.txt'));
    write(dir, 'link.txt', 'parseConfig in a file where a link was\n');
    write(dir, 'c.txt', 'parseConfig resolved by hand\n');
    expect(same(['grep', '-F', 'parseConfig'], dir).stdout).toMatch(/c\.txt:1:[^]*link\.txt:1:/);
  });

  it("the user's grep and submodule settings change nothing", () => {
    const dir = repo();
    write(dir, 'src/a.txt', 'parseConfig here\n');
    write(dir, 'top.txt', 'parseConfig at the top\n');
    git(dir, ['add', '.']);
    for (const [key, value] of [
      ['grep.fullName', 'true'],
      ['grep.column', 'true'],
      ['submodule.recurse', 'true'],
      ['grep.patternType', 'perl'],
      ['grep.lineNumber', 'false'],
      ['color.grep', 'always'],
    ]) {
      git(dir, ['config', key!, value!]);
    }
    expect(same(['grep', '-F', 'parseConfig'], path.join(dir, 'src')).stdout).toMatch(
      /^a\.txt:1:\w{4}\|parseConfig here\n$/,
    );
    expect(same(['grep', '-F', 'parseConfig'], dir).stdout).toMatch(/^src\/a\.txt:1:[^]*top\.txt:1:/);
    expect(same(['grep', '-i', 'PARSE.onfig'], dir).stdout).toMatch(/top\.txt:1:/);
  });

  it('a git built without PCRE (git grep -P fails): the literal texts are asked for instead', () => {
    const dir = repo();
    write(dir, 'a.txt', 'const [count, setCount] = useState(0);\nusesTate\n');
    write(dir, 'b.txt', 'USESTATE here\n');
    git(dir, ['add', '.']);
    const bin = tempDir();
    const realGit = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
    write(
      bin,
      'git',
      `#!/bin/sh\nfor a in "$@"; do [ "$a" = --perl-regexp ] && { echo "fatal: cannot use Perl-compatible ` +
        `regexes when not compiled with USE_LIBPCRE" >&2; exit 128; }; done\nexec ${realGit} "$@"\n`,
    );
    chmodSync(path.join(bin, 'git'), 0o755);
    const env = { PATH: `${bin}:${process.env.PATH}` };
    for (const args of [
      ['grep', 'use[A-Z]tate'],
      ['grep', '-i', 'USE[a-z]TATE'],
      ['grep', '-F', '-i', 'usestate'],
    ]) {
      expect(same(args, dir, env).stdout, args.join(' ')).toContain('a.txt:1:');
    }
  });

  it('an untracked repository inside the tree, and a folder outside any work tree', () => {
    const dir = repo();
    write(dir, 'inner/x.txt', 'parseConfig inside another repository\n');
    git(path.join(dir, 'inner'), ['init', '-q']);
    write(dir, 'y.txt', 'parseConfig\n');
    expect(same(['grep', '-F', 'parseConfig'], dir).stdout).not.toContain('inner');
    const plain = tempDir();
    write(plain, 'z.txt', 'parseConfig outside git\n');
    expect(same(['grep', '-F', 'parseConfig'], plain).stdout).toContain('z.txt:1:');
  });
});
