// End-to-end tests of `rt find` (find, the search defaults and the exit codes): the
// built binary, run in a generated git repository whose file list is checked against git's own
// (`git ls-files --cached --others --exclude-standard`, less hidden and .ignore'd files).

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, expectRun, run, tempDir, tempRepo, unprivileged, write, type Ran } from './harness.js';
import { looksBinary, SNIFF_BYTES } from '../../src/model/binary.js';
import {
  buildSearchRepo,
  dotIgnored,
  git,
  gitFiles,
  isHidden,
  outLines,
  parseCapNotice,
  treeOrder,
} from './search-fixture.js';

afterAll(cleanup);

/** Runs `rt find ARGS` at `cwd`, expects exit 0 and a clean stderr, returns the paths printed. */
function found(args: readonly string[], cwd: string): string[] {
  const r = run(['find', ...args], cwd);
  expectRun(r, { status: 0, stderr: '' });
  return outLines(r.stdout);
}

const sorted = (paths: readonly string[]) => [...paths].sort(treeOrder);

/** Whether the file at `p` (not through a link) looks binary, as rt tells: grep and find skip it. */
function binaryOnDisk(dir: string, p: string): boolean {
  const abs = path.join(dir, p);
  return (
    fs.lstatSync(abs, { throwIfNoEntry: false })?.isFile() === true &&
    looksBinary(fs.readFileSync(abs).subarray(0, SNIFF_BYTES))
  );
}
const base = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/** Every file on disk under `dir` (not .git, not .rt; hidden ones if `hidden`). */
function diskFiles(dir: string, hidden: boolean, symlinks: boolean): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.name === '.git' || e.name === '.rt') continue;
      if (!hidden && e.name.startsWith('.')) continue;
      if (e.isDirectory()) walk(r);
      else if (e.isFile() || (symlinks && e.isSymbolicLink())) out.push(r);
    }
  };
  walk('');
  return out;
}

describe('rt find in a generated git repository', () => {
  let dir: string;
  /** What rt find '' must print at the root: git's files, less hidden and .ignore'd ones. */
  let all: string[];
  beforeAll(() => {
    dir = tempDir('rt-repo-');
    buildSearchRepo(dir, tempDir('rt-outside-'));
    all = sorted(gitFiles(dir).filter((p) => !isHidden(p) && !dotIgnored(p) && !binaryOnDisk(dir, p)));
  });

  describe('which files', () => {
    it(
      "rt find '' lists git ls-files --cached --others --exclude-standard, less hidden, .ignore'd and binary " +
        'files, sorted',
      () => {
        expect(found([''], dir)).toEqual(all);
        // The reference itself holds what it should: tracked, untracked, un-ignored by !keep.log, tracked although
        // ignored.
        expect(all).toEqual(
          expect.arrayContaining([
            'README.md',
            'src/new.ts',
            'notes/todo.md',
            'logs/keep.log',
            'logs/tracked.log',
            'data/latin1.txt',
            'link.ts',
          ]),
        );
        for (const p of [
          'data/blob.bin',
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
          '.gitignore',
        ]) {
          expect(all, p).not.toContain(p);
        }
      },
    );

    it('sorted as a tree is read: uppercase before lowercase, src/ before src-old/', () => {
      const out = found([''], dir);
      expect(out).toEqual(sorted(out));
      expect(out.indexOf('src/util.ts')).toBeLessThan(out.indexOf('src-old/legacy.ts'));
      expect(out.indexOf('src/lib/deep/nested.ts')).toBeLessThan(out.indexOf('src/new.ts'));
      expect(out[0]).toBe('README.md');
    });

    it('--hidden adds hidden files and folders, still honouring ignore rules', () => {
      const expected = sorted(gitFiles(dir).filter((p) => !dotIgnored(p) && !binaryOnDisk(dir, p)));
      expect(found(['--hidden', ''], dir)).toEqual(expected);
      expect(expected).toEqual(
        expect.arrayContaining(['.env', '.config/settings.json', 'src/.hidden.ts', '.gitignore', 'src/.ignore']),
      );
      expect(found(['--hidden', ''], dir).some((p) => p.startsWith('.git/') || p.startsWith('.rt/'))).toBe(false);
    });

    it('--no-ignore adds ignored files (not hidden ones), and lists everything rt find lists without it', () => {
      const out = found(['--no-ignore', ''], dir);
      expect(out).toEqual(
        expect.arrayContaining([
          'debug.log',
          'logs/other.log',
          'build/out.js',
          'logs/local/x.txt',
          'src/gen-by-src.ts',
          'secret/key.txt',
          'old.bak',
          'generated/gen.ts',
          'src/dot-ignored.ts',
        ]),
      );
      expect(out.filter(isHidden)).toEqual([]);
      expect(out).toEqual(sorted(out));
      // Widening the search never drops a file (the symbolic link link.ts included).
      expect(all.filter((p) => !out.includes(p))).toEqual([]);
    });

    it('--hidden --no-ignore: every regular text file but .git and .rt', () => {
      const out = found(['--hidden', '--no-ignore', ''], dir);
      expect(out.filter((p) => !fs.lstatSync(path.join(dir, p)).isSymbolicLink())).toEqual(
        sorted(diskFiles(dir, true, false).filter((p) => !binaryOnDisk(dir, p))),
      );
      expect(out.some((p) => p.startsWith('.git/') || p.startsWith('.rt/'))).toBe(false);
    });

    it(
      'binary files are left out (a NUL in the first 8 KiB, or mostly control ' +
        'bytes), as grep leaves them out; Latin-1 text and links to files are listed',
      () => {
        const d = tempRepo();
        write(d, 'a-text.txt', 'plain\n');
        fs.writeFileSync(path.join(d, 'b-nul.dat'), Buffer.from([0x61, 0x00, 0x62, 0x0a]));
        fs.writeFileSync(path.join(d, 'c-control.dat'), Buffer.from('\x01\x02\x03\x04\x05x\n', 'latin1'));
        fs.writeFileSync(path.join(d, 'd-latin1.txt'), Buffer.from('caf\xe9 cr\xe8me\n', 'latin1'));
        fs.writeFileSync(
          path.join(d, 'e-late-nul.txt'),
          Buffer.concat([Buffer.alloc(SNIFF_BYTES, 0x61), Buffer.from([0])]),
        );
        fs.symlinkSync('a-text.txt', path.join(d, 'f-link.dat'));
        expectRun(run(['find', ''], d), {
          status: 0,
          stdout: 'a-text.txt\nd-latin1.txt\ne-late-nul.txt\nf-link.dat\n',
          stderr: '',
        });
        expectRun(run(['find', '*.dat'], d), { status: 0, stdout: 'f-link.dat\n', stderr: '' });
        // A file that cannot be read is listed (its kind cannot be told), run as a user who may not read it.
        const as = unprivileged();
        if (as !== undefined) {
          fs.chmodSync(d, 0o777);
          const secret = write(d, 'g-secret.txt', 'x\n');
          fs.chmodSync(secret, 0o000);
          expectRun(run(['find', 'secret'], d, { ...as }), { status: 0, stdout: 'g-secret.txt\n' });
          fs.rmSync(secret);
        }
        // Nothing but binary files matching: said on stderr, with what lists them.
        expectRun(run(['find', 'b-nul'], d), {
          status: 1,
          stdout: '',
          stderr: new RegExp(
            String.raw`^rt: no text file matches, but 1 binary file does \(e\.g\. b-nul\.dat\).*\nrt: .*: fd ` +
              String.raw`--fixed-strings --ignore-case b-nul\n`,
          ),
        });
        expectRun(run(['find', 'b-*.dat'], d), { status: 1, stdout: '', stderr: /: fd --glob 'b-\*\.dat'\n/ });
        // A link to a binary file inside the root is left out as the file is; one out of the root is listed unread.
        fs.symlinkSync('c-control.dat', path.join(d, 'h-link.dat'));
        const outside = tempDir();
        fs.writeFileSync(path.join(outside, 'x.bin'), Buffer.from([0]));
        fs.symlinkSync(path.join(outside, 'x.bin'), path.join(d, 'i-out.dat'));
        expectRun(run(['find', '*.dat'], d), { status: 0, stdout: 'f-link.dat\ni-out.dat\n', stderr: '' });
        fs.rmSync(path.join(d, 'h-link.dat'));
        fs.rmSync(path.join(d, 'i-out.dat'));
        // With a cap, the count of the rest may include binary files (each printed path is checked, not every one
        // counted).
        const capped = run(['find', '', '--max', '1'], d);
        expectRun(capped, { status: 0, stderr: '' });
        expect(capped.stdout.split('\n')[0]).toBe('a-text.txt');
      },
    );

    it('a tracked file deleted from the work tree is not listed', () => {
      const d = tempRepo();
      write(d, 'keep.txt', 'k\n');
      write(d, 'gone.txt', 'g\n');
      git(d, ['add', '.']);
      git(d, ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', 'x']);
      fs.unlinkSync(path.join(d, 'gone.txt'));
      const r = run(['find', ''], d);
      expectRun(r, { status: 0, stdout: 'keep.txt\n', stderr: '' });
      expectRun(run(['find', 'gone'], d), { status: 1, stdout: '' });
    });

    it("a file in a merge conflict (in git's index once per side) is listed once", () => {
      const d = tempRepo();
      const commit = (m: string) =>
        git(d, ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-am', m]);
      write(d, 'a.txt', 'base\n');
      write(d, 'b.txt', 'b\n');
      git(d, ['add', '.']);
      commit('base');
      git(d, ['checkout', '-q', '-b', 'other']);
      write(d, 'a.txt', 'other\n');
      commit('other');
      git(d, ['checkout', '-q', '-']);
      write(d, 'a.txt', 'main\n');
      commit('main');
      git(d, ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'merge', '-q', 'other'], {}, [1]);
      expect(git(d, ['ls-files', '--cached']).toString()).toBe('a.txt\na.txt\na.txt\nb.txt\n');
      expectRun(run(['find', ''], d), { status: 0, stdout: 'a.txt\nb.txt\n', stderr: '' });
    });

    it(
      "GIT_LITERAL_PATHSPECS in the environment changes nothing (rt asks git for a glob's ending by a glob " +
        'pathspec)',
      () => {
        expect(found(['*.ts'], dir)).toEqual(all.filter((p) => base(p).endsWith('.ts')));
        const r = run(['find', '*.ts'], dir, { env: { GIT_LITERAL_PATHSPECS: '1' } });
        expectRun(r, { status: 0, stderr: '' });
        expect(outLines(r.stdout)).toEqual(all.filter((p) => base(p).endsWith('.ts')));
      },
    );

    it('the global excludes file from XDG_CONFIG_HOME (git/ignore) is honoured, like git does', () => {
      const d = tempRepo();
      const home = tempDir('rt-home-');
      write(home, 'xdg/git/ignore', '*.secret\n');
      write(d, 'a.txt', 'a\n');
      write(d, 'b.secret', 'b\n');
      const env = { HOME: home, XDG_CONFIG_HOME: path.join(home, 'xdg') };
      expect(gitFiles(d, env)).toEqual(['a.txt']);
      expectRun(run(['find', ''], d, { env }), { status: 0, stdout: 'a.txt\n', stderr: '' });
      expectRun(run(['find', ''], d), { status: 0, stdout: 'a.txt\nb.secret\n', stderr: '' });
    });
  });

  describe('patterns', () => {
    it('a glob without / matches the file name at any depth', () => {
      expect(found(['*.ts'], dir)).toEqual(all.filter((p) => base(p).endsWith('.ts')));
      expect(found(['*.ts'], dir)).toEqual(
        expect.arrayContaining(['data/bom.ts', 'src/lib/deep/nested.ts', 'src-old/legacy.ts', 'link.ts']),
      );
      expect(found(['*.{md,js}'], dir)).toEqual(all.filter((p) => /\.(md|js)$/.test(base(p))));
      expect(found(['app.*'], dir)).toEqual(['src/app.ts', 'web/app.js', 'web/app.min.js']);
      expect(found(['?EADME.md'], dir)).toEqual(['README.md']);
      expect(found(['[bc]*.ts'], dir)).toEqual(['data/bom.ts']);
    });

    it('a glob with / matches the path from DIR (** crosses folders)', () => {
      expect(found(['src/**/*.ts'], dir)).toEqual(all.filter((p) => p.startsWith('src/') && p.endsWith('.ts')));
      expect(found(['src/*.ts'], dir)).toEqual(all.filter((p) => /^src\/[^/]*\.ts$/.test(p)));
      expect(found(['*/app.*'], dir)).toEqual(['src/app.ts', 'web/app.js', 'web/app.min.js']);
      // Not the file name: a glob with / does not match at any depth.
      expect(run(['find', 'deep/*.ts'], dir).status).toBe(1);
      expect(found(['**/deep/*.ts'], dir)).toEqual(['src/lib/deep/nested.ts']);
    });

    it('a plain string is a case-insensitive substring of the path', () => {
      expect(found(['NOTES'], dir)).toEqual(['docs/my notes.md', 'notes/todo.md']);
      expect(found(['App'], dir)).toEqual(all.filter((p) => p.toLowerCase().includes('app')));
      expect(found(['rc/li'], dir)).toEqual(['src/lib/deep/nested.ts']);
      expect(found(['.md'], dir)).toEqual(all.filter((p) => p.toLowerCase().includes('.md')));
      expect(found(['my notes'], dir)).toEqual(['docs/my notes.md']);
    });

    it(
      'hidden and ignored files are not found by name unless asked; ' +
        'when only they match, stderr says so and how to list them',
      () => {
        expectRun(run(['find', '*.json'], dir), {
          status: 1,
          stdout: '',
          stderr:
            'rt: no match among the files listed, but 1 ignored or hidden file matches (e.g. ' +
            ".config/settings.json)\nrt: list them too with: rt find --hidden --no-ignore '*.json'\n",
        });
        const bak = run(['find', 'bak', 'src'], dir);
        expectRun(bak, { status: 1, stdout: '' }); // old.bak is not under src: no note
        expect(bak.stderr).toBe('');
        const logs = run(['find', '--hidden', 'other.log'], dir);
        expectRun(logs, { status: 1, stdout: '' });
        expect(logs.stderr).toMatch(
          new RegExp(
            String.raw`^rt: no match among the files listed, but 1 ignored or hidden file matches \(e\.g\. ` +
              String.raw`logs\/other\.log\)\nrt: list them too with: rt find --hidden --no-ignore other\.log\n$`,
          ),
        );
        expect(found(['--hidden', '*.json'], dir)).toEqual(['.config/settings.json']);
        expect(found(['*.log'], dir)).toEqual(['logs/keep.log', 'logs/tracked.log']);
        expect(found(['--no-ignore', '*.log'], dir)).toEqual([
          'debug.log',
          'logs/keep.log',
          'logs/other.log',
          'logs/tracked.log',
        ]);
        expect(found(['--no-ignore', 'gen'], dir)).toEqual(
          expect.arrayContaining(['generated/gen.ts', 'src/gen-by-src.ts', 'src/lib/deep/skip.gen.ts']),
        );
      },
    );
  });

  describe('DIR and the working directory', () => {
    it('DIR: only files under it, shown relative to the working directory; a glob with / is matched from DIR', () => {
      expect(found(['*.js', 'web'], dir)).toEqual(['web/app.js', 'web/app.min.js']);
      expect(found(['*.ts', 'src-old'], dir)).toEqual(['src-old/legacy.ts']);
      expect(found(['deep/nest*.ts', 'src/lib'], dir)).toEqual(['src/lib/deep/nested.ts']);
      expect(found(['NESTED', 'src'], dir)).toEqual(['src/lib/deep/nested.ts']);
      expect(found(['', 'web'], dir)).toEqual(['web/app.js', 'web/app.min.js']);
    });

    it("DIR lists what the root lists under it (the root's .ignore applies)", () => {
      expect(found(['', 'src'], dir)).toEqual(all.filter((p) => p.startsWith('src/')));
    });

    it("from a subdirectory: paths relative to it, the root's files under it", () => {
      const sub = path.join(dir, 'src');
      expect(found([''], sub)).toEqual(all.filter((p) => p.startsWith('src/')).map((p) => p.slice(4)));
    });

    it('from a subdirectory, DIR .. lists the whole root as ../PATH', () => {
      const sub = path.join(dir, 'src');
      expect(found(['*.md', '..'], sub)).toEqual(all.filter((p) => p.endsWith('.md')).map((p) => `../${p}`));
      expect(found(['', '../web'], sub)).toEqual(['../web/app.js', '../web/app.min.js']);
    });
  });

  describe('exit codes', () => {
    it('1 with empty stdout when nothing matches', () => {
      expectRun(run(['find', 'no-such-name'], dir), { status: 1, stdout: '' });
      expectRun(run(['find', '*.nothing'], dir), { status: 1, stdout: '' });
    });

    it('4 when DIR is missing or not a folder', () => {
      expectRun(run(['find', '', 'nope'], dir), { status: 4, stdout: '', stderr: /^rt: .*nope/ });
      expectRun(run(['find', '', 'README.md'], dir), { status: 4, stdout: '', stderr: /^rt: .*README\.md/ });
    });

    it('2 for a bad --max', () => {
      expectRun(run(['find', '--max', '0', ''], dir), { status: 2, stdout: '', stderr: /^rt: / });
    });
  });
});

describe('rt find: a missing DIR is a missing folder', () => {
  const dir = tempDir();
  write(dir, 'src/app.ts', 'x\n');
  write(dir, 'src.ts', 'x\n');
  write(dir, 'lib/util/a.ts', 'x\n');

  it('says "no such folder", with the closest existing folders (not files) as the hint', () => {
    expectRun(run(['find', 'x', 'srcc'], dir), {
      status: 4,
      stdout: '',
      stderr: 'rt: no such folder: srcc\nrt: closest existing: src\n',
    });
    expectRun(run(['find', 'x', 'lib/utl'], dir), {
      status: 4,
      stdout: '',
      stderr: 'rt: no such folder: lib/utl\nrt: closest existing: lib/util\n',
    });
    expectRun(run(['find', 'x', 'zzzzzz'], dir), {
      status: 4,
      stdout: '',
      stderr: 'rt: no such folder: zzzzzz\nrt: see the folders here with: rt open .\n',
    });
  });

  it('--json: the error names the folder, with its suggestions', () => {
    const r = run(['find', 'x', 'srcc', '--json'], dir);
    expect(r.status, r.text).toBe(4);
    expect(JSON.parse(r.stdout)).toEqual({
      error: {
        code: 'not_found',
        message: 'no such folder: srcc',
        hints: ['closest existing: src'],
        exit: 4,
        suggestions: ['src'],
      },
    });
  });

  it('a file given as DIR is still "not a folder", and a path out of the root still outside it', () => {
    expectRun(run(['find', 'x', 'src.ts'], dir), { status: 4, stdout: '', stderr: /^rt: src\.ts is not a folder/ });
    expectRun(run(['find', 'x', '../nowhere-at-all'], dir), { status: 4, stdout: '', stderr: /outside the root/ });
  });
});

// ---------------------------------------------------------------------------------------------

describe('rt find: the cap (200 files by default)', () => {
  /** A git repository with 230 files f000.txt … f229.txt under d/, and .hidden/h0 … h9.txt. */
  function withManyFiles(): string {
    const dir = tempRepo();
    for (let i = 0; i < 230; i++) write(dir, `d/f${String(i).padStart(3, '0')}.txt`, 'x\n');
    for (let i = 0; i < 10; i++) write(dir, `.hidden/h${i}.txt`, 'x\n');
    return dir;
  }

  /** `shown` paths, then a notice whose command (run) lists all `total` paths. */
  function expectCapped(r: Ran, shown: number, total: number): void {
    expect(r.status, r.text).toBe(0);
    expect(r.stderr, r.text).toBe('');
    const lines = outLines(r.stdout);
    expect(lines.length, r.text).toBe(shown + 1);
    const last = lines[shown]!;
    expect(last.startsWith('('), r.text).toBe(true);
    const notice = parseCapNotice(last);
    expect(notice, `a cap notice with a command\n${r.text}`).toMatchObject({ more: total - shown, what: 'files' });
    expect(notice!.argv[0]).toBe('find');
    const again = run(notice!.argv, r.cwd);
    expect(again.status, again.text).toBe(0);
    const againLines = outLines(again.stdout);
    expect(againLines.length, `the suggested command lists all ${total}\n${r.text}\n${again.text}`).toBe(total);
    expect(againLines.slice(0, shown)).toEqual(lines.slice(0, shown));
  }

  it('more than 200 files: exactly 200 paths, then a line with how many more and a runnable rt find --max N', () => {
    const dir = withManyFiles();
    const r = run(['find', ''], dir);
    expectCapped(r, 200, 230);
    expect(outLines(r.stdout).slice(0, 200)).toEqual(
      Array.from({ length: 200 }, (_, i) => `d/f${String(i).padStart(3, '0')}.txt`),
    );
    expect(outLines(r.stdout)[200]).toMatch(/rt find --max 230 /);
  });

  it('the suggested command keeps DIR, --hidden and --no-ignore', () => {
    const dir = withManyFiles();
    expectCapped(run(['find', '*.txt', 'd'], dir), 200, 230);
    expectCapped(run(['find', '--hidden', '*.txt'], dir), 200, 240);
    expectCapped(run(['find', '--hidden', '--no-ignore', '--max', '5', 'h'], dir), 5, 10);
  });

  it('--max N: N paths then the notice', () => {
    const dir = withManyFiles();
    expectCapped(run(['find', '--max', '3', 'f1'], dir), 3, 100);
  });

  it('a pattern starting with - gives a suggested command that still runs', () => {
    const dir = tempRepo();
    for (let i = 0; i < 5; i++) write(dir, `-x${i}.txt`, 'x\n');
    expectCapped(run(['find', '--max', '2', '--', '-x'], dir), 2, 5);
  });

  it('the notice only suggests options find takes (find has no -g)', () => {
    const dir = withManyFiles();
    const r = run(['find', ''], dir);
    const last = outLines(r.stdout).at(-1)!;
    expect(last, r.text).not.toMatch(/-g GLOB/);
  });
});

describe('rt find: paths git lists that are not files of the tree', () => {
  it(
    'a tracked file whose folder was replaced by a symbolic link (into ' +
      'the root, or out of it) is not listed, nor a tracked file of .rt',
    () => {
      const repo = tempDir();
      const outside = tempDir();
      git(repo, ['init', '-q']);
      write(repo, 'a/f.txt', 'one\n');
      write(repo, 'z/f.txt', 'two\n');
      write(repo, 'b/deep/g.txt', 'three\n');
      write(repo, '.rt/notes.txt', 'state\n');
      git(repo, ['add', '-f', '.']);
      fs.rmSync(path.join(repo, 'a'), { recursive: true });
      fs.rmSync(path.join(repo, 'b'), { recursive: true });
      fs.symlinkSync('z', path.join(repo, 'a'));
      write(outside, 'deep/g.txt', 'outside\n');
      fs.symlinkSync(outside, path.join(repo, 'b'));
      // A file where a tracked file's folder was: no error either.
      write(repo, 'c/h.txt', 'four\n');
      git(repo, ['add', 'c/h.txt']);
      fs.rmSync(path.join(repo, 'c'), { recursive: true });
      write(repo, 'c', 'now a file\n');
      expect(found(['*.txt'], repo)).toEqual(['z/f.txt']);
      expect(found(['--hidden', '*.txt'], repo)).toEqual(['z/f.txt']);
    },
  );
});

describe('file names that are not valid UTF-8 (they are never left out without a word)', () => {
  const badName = Buffer.concat([Buffer.from('bad'), Buffer.from([0xff]), Buffer.from('name.txt')]);
  const make = (dir: string) => {
    fs.writeFileSync(Buffer.concat([Buffer.from(`${dir}/`), badName]), 'HIT\n');
    write(dir, 'ok.txt', 'HIT\n');
  };
  const note = new RegExp(
    String.raw`^rt: left out 1 file whose name is not valid UTF-8, which rt cannot name: bad\ufffdname\.txt\nrt: ` +
      String.raw`rename it to read it with rt, or search it with rg\n$`,
  );

  it('find lists the others and says which it left out, in git and outside', () => {
    for (const dir of [tempRepo(), tempDir()]) {
      make(dir);
      expectRun(run(['find', 'name'], dir), { status: 1, stdout: '', stderr: note });
      expectRun(run(['find', '.txt'], dir), { status: 0, stdout: 'ok.txt\n', stderr: note });
      // Said only when its name (decoded) matches.
      expectRun(run(['find', 'ok'], dir), { status: 0, stdout: 'ok.txt\n', stderr: '' });
    }
  });

  it(
    'outside git, the files of a folder whose name is not valid UTF-8 are ' +
      'named, and a name that decodes to an existing one is told apart from it',
    () => {
      const dir = tempDir();
      const badDir = Buffer.concat([Buffer.from(`${dir}/bad`), Buffer.from([0xff]), Buffer.from('dir')]);
      fs.mkdirSync(badDir);
      fs.writeFileSync(Buffer.concat([badDir, Buffer.from('/in.txt')]), 'hello\n');
      expectRun(run(['find', 'in.txt'], dir), {
        status: 1,
        stdout: '',
        stderr: /^rt: left out 1 file whose name is not valid UTF-8, which rt cannot name: bad\ufffddir\/in\.txt\n/,
      });
      // a\xff.txt decodes to a\ufffd.txt, the name of another (valid) file.
      const twin = tempDir();
      fs.writeFileSync(Buffer.concat([Buffer.from(`${twin}/a`), Buffer.from([0xff]), Buffer.from('.txt')]), 'hello\n');
      write(twin, 'a\ufffd.txt', 'bye\n');
      expectRun(run(['find', 'a'], twin), {
        status: 0,
        stdout: 'a\ufffd.txt\n',
        stderr: /^rt: left out 1 file whose name is not valid UTF-8/,
      });
      expectRun(run(['grep', 'hello'], twin, { env: { RT_RIPGREP: 'off' } }), {
        status: 1,
        stdout: '',
        stderr: /^rt: left out 1 file whose name is not valid UTF-8/,
      });
    },
  );

  it('grep searches the others and says which it left out, with ripgrep, with git grep, and by reading', () => {
    const repo = tempRepo();
    make(repo);
    const plain = tempDir();
    make(plain);
    for (const [dir, env] of [
      [repo, {}],
      [repo, { RT_RIPGREP: 'off' }],
      [repo, { RT_RIPGREP: 'off', RT_GIT_GREP: 'off' }],
      [plain, {}],
      [plain, { RT_RIPGREP: 'off' }],
    ] as const) {
      for (const args of [
        ['grep', 'HIT'],
        ['grep', '-F', 'HIT'],
        ['grep', '-l', '-F', 'HIT'],
      ]) {
        const r = run(args, dir, { env });
        expectRun(r, {
          status: 0,
          stdout: args.includes('-l') ? 'ok.txt\n' : /^ok\.txt:1:[0-9a-z]{4}\|HIT\n$/,
          stderr: note,
        });
      }
    }
  });
});
