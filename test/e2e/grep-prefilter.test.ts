// When ripgrep is installed, searches use it as a prefilter (src/io/ripgrep.ts): literal ones,
// and regular expressions through their translation into its dialect. It may only narrow what rt
// reads, never change the answer: every search here must print exactly the same with the
// prefilter and without it (RT_RIPGREP=off).

import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, run, tempDir, write } from './harness.js';
import { buildSearchRepo } from './search-fixture.js';

const hasRipgrep = spawnSync('rg', ['--version']).status === 0;

describe.skipIf(!hasRipgrep)('the ripgrep prefilter', () => {
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
  // A file starting with a UTF-16 byte order mark but no NUL: text to rt, read as it is (ripgrep
  // would read it as UTF-16 unless told not to).
  write(dir, 'notes/utf16-mark.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('parseConfig after a UTF-16 mark\nparseConfig again\n')]));

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
  const cases = [...searches.map((args) => ({ args, cwd: dir })), ...fromSrc.map((args) => ({ args, cwd: path.join(dir, 'src') }))];

  it('a file under two PATHs given (one inside the other) is searched once: no crash, no hit counted twice', () => {
    const repo = tempDir();
    spawnSync('git', ['init', '-q'], { cwd: repo });
    const lines = Array.from({ length: 101 }, (_, i) => (i === 0 || i === 100 ? 'foo' : i === 50 ? 'foox' : 'x'));
    write(repo, 'a/x.txt', `${lines.join('\n')}\n`);
    for (const args of [['grep', '-w', 'foo', '.', 'a'], ['grep', 'foo$', 'a', '.'], ['grep', '-F', '--max', '1', 'foo', '.', 'a']]) {
      const withRg = run(args, repo);
      expect(withRg.status, withRg.text).toBe(0);
      expect(withRg.stdout).toBe(run(args, repo, { env: { RT_RIPGREP: 'off' } }).stdout);
    }
  });

  it("ripgrep finds git's global ignore file where git does (XDG_CONFIG_HOME, not only HOME)", () => {
    const repo = tempDir();
    spawnSync('git', ['init', '-q'], { cwd: repo });
    const home = tempDir();
    write(home, '.config/git/ignore', '*.txt\n'); // git's file when XDG_CONFIG_HOME is not set
    write(repo, 'u.txt', 'foo bar\n');
    write(repo, 't.md', 'foo bar\n');
    const env = { HOME: home, XDG_CONFIG_HOME: tempDir() }; // …but it is set, to a folder without one
    for (const args of [['grep', '-F', 'foo'], ['grep', 'fo+ bar'], ['grep', '-F', '-i', 'FOO']]) {
      const withRg = run(args, repo, { env });
      expect(withRg.stdout, withRg.text).toBe(run(args, repo, { env: { ...env, RT_RIPGREP: 'off' } }).stdout);
      expect(withRg.stdout).toContain('u.txt:1:');
    }
  });
  for (const { args, cwd } of cases) {
    it(`rt ${args.join(' ')} (in ${path.relative(dir, cwd) || '.'}) prints the same with and without ripgrep`, () => {
      const withRg = run(args, cwd);
      const without = run(args, cwd, { env: { RT_RIPGREP: 'off' } });
      expect(withRg.status, withRg.text).toBe(without.status);
      expect(withRg.stdout, `${withRg.text}\n${without.text}`).toBe(without.stdout);
      expect(withRg.stderr).toBe(without.stderr);
    });
  }
});
