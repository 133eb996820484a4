// rt replace: every match in the files grep searches, replaced as one undoable batch on the one
// write path; previewed with --dry-run, guarded by --expect and --only; bytes outside the matches
// kept exactly (CRLF, BOM, no final newline, bytes that are not UTF-8).

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, expectRun, parseWindow, run, tempRepo, write } from './harness.js';
import { git } from './search-fixture.js';

afterAll(cleanup);

const A = 'const total = add(1);\nlet x = total + total;\nnone here\n';
const B = 'total\n';

/** The LIDs rt gives `content` (fresh LIDs depend on the bytes alone), without showing them in the repo tested. */
function lidsOf(name: string, content: string | Buffer): readonly string[] {
  const elsewhere = tempRepo();
  write(elsewhere, name, content);
  return parseWindow(run(['open', name], elsewhere)).lids;
}

function repo(files: Record<string, string | Buffer> = { 'a.js': A, 'sub/b.txt': B }): string {
  const dir = tempRepo();
  for (const [name, content] of Object.entries(files)) write(dir, name, content);
  git(dir, ['add', '.']);
  return dir;
}

const read = (dir: string, name: string) => fs.readFileSync(path.join(dir, name));

describe('rt replace --dry-run', () => {
  it('prints each line before and after with its number and LID, then the count, and writes nothing', () => {
    const dir = repo();
    const L = lidsOf('a.js', A);
    const M = lidsOf('b.txt', B);
    expectRun(run(['replace', '--dry-run', '-w', 'total', 'sum'], dir), {
      status: 0,
      stdout:
        `a.js:1:${L[0]}-const total = add(1);\na.js:1:${L[0]}+const sum = add(1);\n` +
        `a.js:2:${L[1]}-let x = total + total;\na.js:2:${L[1]}+let x = sum + sum;\n` +
        `sub/b.txt:1:${M[0]}-total\nsub/b.txt:1:${M[0]}+sum\n` +
        '4 matches on 3 lines in 2 files\n',
      stderr: '',
    });
    expect(read(dir, 'a.js').toString()).toBe(A);
    expect(read(dir, 'sub/b.txt').toString()).toBe(B);
  });
});

describe('rt replace', () => {
  it('writes every match as one step, prints the changed lines with their new LIDs, and undo takes it back', () => {
    const dir = repo();
    const r = run(['replace', '-w', '-F', 'total', 'sum'], dir);
    expect(read(dir, 'a.js').toString()).toBe('const sum = add(1);\nlet x = sum + sum;\nnone here\n');
    expect(read(dir, 'sub/b.txt').toString()).toBe('sum\n');
    const L = parseWindow(run(['open', 'a.js'], dir)).lids;
    const M = parseWindow(run(['open', 'sub/b.txt'], dir)).lids;
    expectRun(r, {
      status: 0,
      stdout:
        'replaced 4 matches on 3 lines in 2 files\n' +
        `a.js:1:${L[0]}|const sum = add(1);\na.js:2:${L[1]}|let x = sum + sum;\nsub/b.txt:1:${M[0]}|sum\n`,
      stderr: '',
    });
    expect(run(['undo'], dir).status).toBe(0);
    expect(read(dir, 'a.js').toString()).toBe(A);
    expect(read(dir, 'sub/b.txt').toString()).toBe(B);
  });

  it('changes only the matches: CRLF, a BOM, no final newline and bytes that are not UTF-8 survive', () => {
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('key = old\r\n'),
      Buffer.from([0xff, 0x20]),
      Buffer.from('old\r\nkeep\tthis\r\n'),
      Buffer.from('last old'),
    ]);
    const dir = repo({ 'c.txt': bytes });
    expect(run(['replace', '-F', 'old', 'new'], dir).status).toBe(0);
    const want = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('key = new\r\n'),
      Buffer.from([0xff, 0x20]),
      Buffer.from('new\r\nkeep\tthis\r\n'),
      Buffer.from('last new'),
    ]);
    expect(read(dir, 'c.txt')).toEqual(want);
  });

  it('takes $1, ${name} and $$ as ripgrep does; -F takes the replacement as it is; a group keeps its bytes', () => {
    const dir = repo({
      'd.txt': Buffer.concat([Buffer.from('f(a, b)\ng(\xe9'), Buffer.from([0xfe]), Buffer.from(', c)\n')]),
    });
    expect(run(['replace', '(\\w)\\((.+), (\\w)\\)', '$1(${3}, $2) $$', 'd.txt'], dir).status).toBe(0);
    expect(read(dir, 'd.txt')).toEqual(
      Buffer.concat([Buffer.from('f(b, a) $\ng(c, \xe9'), Buffer.from([0xfe]), Buffer.from(') $\n')]),
    );
    expect(run(['replace', '-F', '$', '$1', 'd.txt'], dir).status).toBe(0);
    expect(read(dir, 'd.txt').toString('latin1')).toContain('f(b, a) $1\n');
  });

  it('a newline in the replacement splits the line', () => {
    const dir = repo({ 'e.txt': 'a;b\n' });
    expect(run(['replace', '-F', ';', '\n', 'e.txt'], dir).status).toBe(0);
    expect(read(dir, 'e.txt').toString()).toBe('a\nb\n');
  });

  it('searches what grep searches: an ignored or binary file keeps its matches', () => {
    const dir = repo({ 'a.txt': 'x old\n', '.gitignore': 'ignored.txt\n' });
    write(dir, 'ignored.txt', 'old\n');
    write(dir, 'bin.dat', Buffer.from('old\0old\n'));
    expect(run(['replace', 'old', 'new'], dir).status).toBe(0);
    expect(read(dir, 'a.txt').toString()).toBe('x new\n');
    expect(read(dir, 'ignored.txt').toString()).toBe('old\n');
    expect(read(dir, 'bin.dat')).toEqual(Buffer.from('old\0old\n'));
  });

  it('nothing matches: exit 1, nothing written, and --json says so', () => {
    const dir = repo();
    expectRun(run(['replace', 'nowhere', 'x'], dir), {
      status: 1,
      stdout: '',
      stderr: 'rt: nothing matches "nowhere": nothing was written\n',
    });
    const r = run(['replace', '--json', 'nowhere', 'x'], dir);
    expect(JSON.parse(r.stdout)).toEqual({ command: 'replace', dryRun: false, matches: 0, lines: 0, files: [] });
  });
});

describe('--expect and --only', () => {
  it('--expect N refuses unless exactly N matches would change (exit 3, nothing written)', () => {
    const dir = repo();
    const r = run(['replace', '--expect', '3', '-w', 'total', 'sum'], dir);
    expect(r.status).toBe(3);
    expect(r.stderr).toContain('rt: 4 matches would be replaced, not the 3 expected: nothing was written\n');
    expect(r.stderr).toContain('rt replace --expect 4 -w total sum');
    expect(read(dir, 'a.js').toString()).toBe(A);
    expect(run(['replace', '--expect', '4', '-w', 'total', 'sum'], dir).status).toBe(0);
  });

  it('--only changes the lines named; one changed since is refused and nothing is written', () => {
    const dir = repo();
    const L = lidsOf('a.js', A);
    expect(run(['replace', '--only', `${L[1]}`, '-w', 'total', 'sum'], dir).status).toBe(0);
    expect(read(dir, 'a.js').toString()).toBe('const total = add(1);\nlet x = sum + sum;\nnone here\n');
    expect(read(dir, 'sub/b.txt').toString()).toBe(B);
    // Line 1's LID still names it; line 2's changed (it has a new LID): naming the old one is refused.
    const r = run(['replace', '--only', `a.js:${L[0]},${L[1]}`, '-w', 'sum|total', 'n'], dir);
    expect(r.status).toBe(3);
    expect(r.stderr).toContain(`${L[1]} names no line that still matches`);
    expect(read(dir, 'a.js').toString()).toBe('const total = add(1);\nlet x = sum + sum;\nnone here\n');
  });
});

describe('the write path', () => {
  it('the syntax check refuses a replacement that breaks a file (exit 5); --no-check writes it', () => {
    const dir = repo({ 'p.json': '{"a": 1}\n' });
    expect(run(['replace', '-F', '1}', '1', 'p.json'], dir).status).toBe(5);
    expect(read(dir, 'p.json').toString()).toBe('{"a": 1}\n');
    expect(run(['replace', '--no-check', '-F', '1}', '1', 'p.json'], dir).status).toBe(0);
    expect(read(dir, 'p.json').toString()).toBe('{"a": 1\n');
  });

  it('RT_READONLY refuses (exit 4); the lines it printed count as shown', () => {
    const dir = repo();
    expect(run(['replace', 'total', 'sum'], dir, { env: { RT_READONLY: '1' } }).status).toBe(4);
    expect(read(dir, 'a.js').toString()).toBe(A);
    const r = run(['replace', '-w', 'total', 'sum', 'sub/b.txt'], dir);
    const lid = /sub\/b\.txt:1:(\w+)\|/.exec(r.stdout)![1]!;
    expect(run(['edit', 'sub/b.txt', lid], dir, { input: 'edited\n' }).status).toBe(0);
    expect(read(dir, 'sub/b.txt').toString()).toBe('edited\n');
  });
});

describe('what a review of rt replace found', () => {
  it('a replaced line keeps its own line ending in mixed endings; \\r\\n in the replacement breaks a line', () => {
    const dir = repo({ 'm.txt': 'a\nfoo\r\nb\n', 'n.txt': 'a\r\nfoo\nb\r\n', 'o.txt': 'x foo y\n' });
    expect(run(['replace', '-F', 'foo', 'QQ', 'm.txt', 'n.txt'], dir).status).toBe(0);
    expect(read(dir, 'm.txt').toString()).toBe('a\nQQ\r\nb\n');
    expect(read(dir, 'n.txt').toString()).toBe('a\r\nQQ\nb\r\n');
    expect(run(['replace', '-F', 'foo', 'P\r\nQ', 'o.txt'], dir).status).toBe(0);
    expect(read(dir, 'o.txt').toString()).toBe('x P\nQ y\n');
  });

  it('a pattern that backtracks without end under the locks is stopped (exit 2), nothing written', () => {
    const bytes = `a\n${'a'.repeat(30)}b\n`;
    const dir = repo({ 'c.txt': bytes });
    const r = run(['replace', '(a+)+$', 'X', 'c.txt'], dir);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('the pattern backtracks too much');
    expect(read(dir, 'c.txt').toString()).toBe(bytes);
  });

  it('counts the matches that change: --expect, and a replacement that changes nothing (exit 0)', () => {
    const dir = repo({ 'f.txt': 'foo fooo\n' });
    expect(run(['replace', '--expect', '2', 'fo+', 'foo', 'f.txt'], dir).status).toBe(3);
    expect(run(['replace', '--expect', '1', 'fo+', 'foo', 'f.txt'], dir).status).toBe(0);
    expect(read(dir, 'f.txt').toString()).toBe('foo foo\n');
    expectRun(run(['replace', 'foo', 'foo', 'f.txt'], dir), {
      status: 0,
      stdout: '',
      stderr: 'rt: the 2 matches of "foo" would be replaced by the same text: nothing was written\n',
    });
  });

  it('a line whose matches each change but which ends up as it was is left alone', () => {
    const dir = repo({ 'g.txt': 'abc\nzzz\n' });
    const r = run(['replace', '(a)b|(?<=(b))(c)', '$1$2$3', 'g.txt'], dir);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(read(dir, 'g.txt').toString()).toBe('abc\nzzz\n');
  });

  it('--only takes NUMBER:LID as printed', () => {
    const dir = repo();
    const L = lidsOf('a.js', A);
    expect(run(['replace', '--only', `2:${L[1]}`, '-w', 'total', 'sum', 'a.js'], dir).status).toBe(0);
    expect(read(dir, 'a.js').toString()).toBe('const total = add(1);\nlet x = sum + sum;\nnone here\n');
  });
});
