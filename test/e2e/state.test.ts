// End-to-end tests of the root, LID stability through changes made outside rt
// and the state in `.rt/`: where it lives, that git never sees it, that rt
// works without it, and that damaged or foreign state is set aside, never trusted, never fatal.

import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packEntries, packKeys, packText, plantEntries, rewritePack } from '../support/pack.js';
import {
  age,
  cleanup,
  expectCleanStderr,
  expectLids,
  expectRun,
  filesUnder,
  numbered,
  parseWindow,
  run,
  stderrLines,
  tempDir,
  tempRepo,
  tree,
  unprivileged,
  write,
  type Ran,
} from './harness.js';

afterAll(cleanup);

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** Every line of a window as [content, lid], checked for shape and uniqueness. */
function shown(r: Ran): Array<[string, string]> {
  expectRun(r, { status: 0, stderr: '' });
  const w = parseWindow(r);
  expectLids(w.lids, r);
  return w.lines.map((l) => [l.content, l.lid]);
}

/** Opens the whole of `file` (up to 10,000 lines) and returns its lines as [content, lid]. */
function openAll(dir: string, file: string, env?: Record<string, string>): Array<[string, string]> {
  return shown(run(['open', file, '--window', '10000'], dir, env ? { env } : {}));
}

function exists(p: string): boolean {
  return fs.existsSync(p);
}

describe('root', () => {
  it('in a git repository, run from a subdirectory, .rt/ is made at the top of the work tree', () => {
    const repo = tempRepo();
    write(repo, 'sub/deep/f.txt', 'x\n');
    write(repo, 'top.txt', 'top\n');
    const cwd = path.join(repo, 'sub/deep');
    const r = run(['open', 'f.txt'], cwd);
    expectRun(r, { status: 0, stdout: /^--- f\.txt \(lines 1-1 of 1\) ---\n1:[0-9a-z]{4}\|x\n$/, stderr: '' });
    expect(exists(path.join(repo, '.rt')), r.text).toBe(true);
    expect(exists(path.join(repo, 'sub/.rt')), r.text).toBe(false);
    expect(exists(path.join(repo, 'sub/deep/.rt')), r.text).toBe(false);
    // The whole work tree is inside the root, above the working directory too.
    const up = run(['open', '../../top.txt'], cwd);
    expectRun(up, {
      status: 0,
      stdout: /^--- \.\.\/\.\.\/top\.txt \(lines 1-1 of 1\) ---\n1:[0-9a-z]{4}\|top\n$/,
      stderr: '',
    });
  });

  it('without git, an ancestor holding .rt/ is the root', () => {
    const dir = tempDir();
    write(dir, 'sub/f.txt', 'x\n');
    write(dir, 'g.txt', 'g\n');
    expectRun(run(['open', 'g.txt'], dir), { status: 0, stderr: '' }); // makes dir/.rt
    const r = run(['open', 'f.txt'], path.join(dir, 'sub'));
    expectRun(r, { status: 0, stderr: '' });
    expect(exists(path.join(dir, 'sub/.rt')), r.text).toBe(false);
    expectRun(run(['open', '../g.txt'], path.join(dir, 'sub')), { status: 0, stdout: /\|g\n$/, stderr: '' });
  });

  it('without git or .rt/ above it, the working directory is the root', () => {
    const dir = tempDir();
    write(dir, 'sub/f.txt', 'x\n');
    write(dir, 'g.txt', 'g\n');
    const sub = path.join(dir, 'sub');
    const r = run(['open', 'f.txt'], sub);
    expectRun(r, { status: 0, stderr: '' });
    expect(exists(path.join(sub, '.rt')), r.text).toBe(true);
    expect(exists(path.join(dir, '.rt')), r.text).toBe(false);
    expectRun(run(['open', '../g.txt'], sub), { status: 4, stdout: '', stderr: /^rt: / });
  });

  it.each([
    ['--root before the command', (root: string) => ({ args: ['--root', root, 'open', `${root}/f.txt`], env: {} })],
    ['--root after the command', (root: string) => ({ args: ['open', `${root}/f.txt`, '--root', root], env: {} })],
    ['RT_ROOT', (root: string) => ({ args: ['open', `${root}/f.txt`], env: { RT_ROOT: root } })],
  ])('%s sets the root', (_name, make) => {
    const base = tempDir();
    fs.mkdirSync(path.join(base, 'cwd'));
    write(base, 'other/f.txt', 'x\n');
    const cwd = path.join(base, 'cwd');
    const { args, env } = make('../other');
    const r = run(args, cwd, { env });
    expectRun(r, {
      status: 0,
      stdout: /^--- \.\.\/other\/f\.txt \(lines 1-1 of 1\) ---\n1:[0-9a-z]{4}\|x\n$/,
      stderr: '',
    });
    expect(exists(path.join(base, 'other/.rt')), r.text).toBe(true);
    expect(exists(path.join(cwd, '.rt')), r.text).toBe(false);
  });

  it('--root overrides git and RT_ROOT; paths outside it are refused', () => {
    const repo = tempRepo();
    write(repo, 'pkg/f.txt', 'x\n');
    write(repo, 'top.txt', 'top\n');
    fs.mkdirSync(path.join(repo, 'elsewhere'));
    const pkg = path.join(repo, 'pkg');
    const r = run(['--root', '.', 'open', 'f.txt'], pkg, { env: { RT_ROOT: '../elsewhere' } });
    expectRun(r, { status: 0, stdout: /\|x\n$/, stderr: '' });
    expect(exists(path.join(pkg, '.rt')), r.text).toBe(true);
    expect(exists(path.join(repo, '.rt')), r.text).toBe(false);
    expect(exists(path.join(repo, 'elsewhere/.rt')), r.text).toBe(false);
    expectRun(run(['--root', '.', 'open', '../top.txt'], pkg), { status: 4, stdout: '', stderr: /^rt: / });
    expectRun(run(['open', '../top.txt'], pkg, { env: { RT_ROOT: '.' } }), { status: 4, stdout: '', stderr: /^rt: / });
  });

  it('a --root that is not a directory is bad usage (exit 2)', () => {
    const dir = tempDir();
    write(dir, 'f.txt', 'x\n');
    expectRun(run(['--root', 'nope', 'open', 'f.txt'], dir), { status: 2, stdout: '', stderr: /^rt: .*nope/ });
    expectRun(run(['--root', 'f.txt', 'open', 'f.txt'], dir), { status: 2, stdout: '', stderr: /^rt: / });
    expectRun(run(['open', 'f.txt'], dir, { env: { RT_ROOT: 'nope' } }), {
      status: 2,
      stdout: '',
      stderr: /^rt: .*nope/,
    });
  });

  it("git status never shows .rt/, and the user's .gitignore is not touched", () => {
    const repo = tempRepo();
    write(repo, 'f.txt', numbered(300));
    write(repo, 'sub/g.txt', 'g\n');
    expectRun(run(['open', 'f.txt'], repo), { status: 0, stderr: '' });
    expectRun(run(['scroll', 'f.txt', '+'], repo), { status: 0, stderr: '' });
    expectRun(run(['open', 'g.txt'], path.join(repo, 'sub')), { status: 0, stderr: '' });
    expect(git(repo, 'status', '--porcelain', '--untracked-files=all')).toBe('?? f.txt\n?? sub/g.txt\n');
    expect(fs.readFileSync(path.join(repo, '.rt/.gitignore'), 'utf8').split(/\r?\n/)).toContain('*');
    expect(exists(path.join(repo, '.gitignore'))).toBe(false);
    git(repo, 'add', '-A');
    expect(git(repo, 'status', '--porcelain')).toBe('A  f.txt\nA  sub/g.txt\n');
    git(repo, 'commit', '-q', '-m', 'x');
    expect(git(repo, 'status', '--porcelain', '--untracked-files=all', '--ignored=no')).toBe('');
  });

  it(
    'a .rt/.gitignore that lost its "*" is made again; a file in ' +
      'the place of .rt/pack is set aside and the folder made again',
    () => {
      const repo = tempRepo();
      write(repo, 'f.txt', numbered(300));
      expectRun(run(['open', 'f.txt'], repo), { status: 0, stderr: '' });
      fs.writeFileSync(path.join(repo, '.rt/.gitignore'), 'foo\n');
      expectRun(run(['open', 'f.txt:150'], repo), { status: 0, stderr: '' });
      expect(git(repo, 'status', '--porcelain', '--untracked-files=all')).toBe('?? f.txt\n');
      fs.rmSync(path.join(repo, '.rt/pack'), { recursive: true });
      fs.writeFileSync(path.join(repo, '.rt/pack'), 'junk\n');
      expectRun(run(['open', 'f.txt', '--window', '10'], repo), {
        status: 0,
        stderr: /^rt: \.rt\/pack was not a folder: set aside, and made again\n$/,
      });
      expect(fs.readFileSync(path.join(repo, '.rt/set-aside/pack-folder'), 'utf8')).toBe('junk\n');
      // State works again: the view is kept, and scroll continues it, without a word.
      expectRun(run(['scroll', 'f.txt'], repo), {
        status: 0,
        stdout: /^--- f\.txt \(lines 9-18 of 300\) ---\n/,
        stderr: '',
      });
    },
  );

  it('an existing .gitignore of the user stays as it was', () => {
    const repo = tempRepo();
    write(repo, '.gitignore', 'node_modules/\n');
    write(repo, 'f.txt', 'x\n');
    expectRun(run(['open', 'f.txt'], repo), { status: 0, stderr: '' });
    expect(fs.readFileSync(path.join(repo, '.gitignore'), 'utf8')).toBe('node_modules/\n');
    expect(git(repo, 'status', '--porcelain', '--untracked-files=all')).toBe('?? .gitignore\n?? f.txt\n');
  });
});

describe('LID stability through changes made outside rt', () => {
  const original = Array.from({ length: 30 }, (_, i) => `row ${i + 1}`);

  it('unchanged lines keep their LIDs; inserted and changed lines get new ones', () => {
    const dir = tempDir();
    const file = write(dir, 'f.txt', `${original.join('\n')}\n`);
    const before = openAll(dir, 'f.txt');
    const lidOf = new Map(before);

    const edited = [...original];
    edited.splice(14, 1, 'row 15 changed'); // change one
    edited.splice(9, 1); // delete row 10
    edited.unshift('a new first line'); // insert at the top
    fs.writeFileSync(file, `${edited.join('\n')}\n`);
    const after = openAll(dir, 'f.txt');

    expect(after.map(([c]) => c)).toEqual(edited);
    const oldLids = new Set(lidOf.values());
    for (const [content, lid] of after) {
      if (lidOf.has(content)) expect(lid, `"${content}" lost its LID`).toBe(lidOf.get(content));
      else expect(oldLids.has(lid), `"${content}" took the old LID ${lid}`).toBe(false);
    }
    // The LIDs of the deleted and of the changed line now name nothing.
    for (const gone of ['row 10', 'row 15']) {
      const r = run(['open', `f.txt:${lidOf.get(gone)}`], dir);
      expectRun(r, { status: 3, stdout: '', stderr: /^rt: / });
    }
  });

  it('LIDs survive several rounds of external edits, each process seeing the last', () => {
    const dir = tempDir();
    const file = write(dir, 'f.txt', `${original.join('\n')}\n`);
    const lidOf = new Map(openAll(dir, 'f.txt'));
    const current = [...original];
    const rounds: Array<(l: string[]) => void> = [
      (l) => l.splice(20, 0, 'inserted in round 1'),
      (l) => l.splice(3, 2),
      (l) => l.push('appended in round 3'),
      (l) => l.splice(0, 0, 'x', 'y', 'z'),
    ];
    for (const change of rounds) {
      change(current);
      fs.writeFileSync(file, `${current.join('\n')}\n`);
      for (const [content, lid] of openAll(dir, 'f.txt')) {
        if (lidOf.has(content)) expect(lid, `"${content}" lost its LID`).toBe(lidOf.get(content));
        else lidOf.set(content, lid);
      }
    }
  });

  it('an LID never comes to name other content, through rewrites and a git checkout', () => {
    const repo = tempRepo();
    const file = path.join(repo, 'f.txt');
    const v1 = `${original.join('\n')}\n`;
    const v2 = `${original.map((l, i) => (i % 3 === 0 ? `${l} (v2)` : l)).join('\n')}\n`;
    const v3 = `${Array.from({ length: 40 }, (_, i) => `completely different ${i}`).join('\n')}\n`;
    fs.writeFileSync(file, v1);
    git(repo, 'add', 'f.txt');
    git(repo, 'commit', '-q', '-m', 'v1');
    const named = new Map<string, string>(); // LID → the content it was shown with
    const check = () => {
      for (const [content, lid] of openAll(repo, 'f.txt')) {
        if (named.has(lid))
          expect(content, `LID ${lid} named "${named.get(lid)}", now names other content`).toBe(named.get(lid));
        named.set(lid, content);
      }
    };
    check();
    fs.writeFileSync(file, v2);
    check();
    git(repo, 'checkout', '--', 'f.txt'); // back to v1, as git writes it
    check();
    fs.writeFileSync(file, v3);
    check();
    fs.writeFileSync(file, v2);
    check();
    expect(named.size).toBeGreaterThan(original.length);
  });

  it('deleting .rt/ gives the same LIDs as a fresh first open of the same content elsewhere', () => {
    const dir = tempDir();
    const file = write(dir, 'f.txt', `${original.join('\n')}\n`);
    const first = run(['open', 'f.txt'], dir);
    fs.rmSync(path.join(dir, '.rt'), { recursive: true });
    expectRun(run(['open', 'f.txt'], dir), { status: 0, stdout: first.stdout, stderr: '' });

    const edited = ['top', ...original.slice(0, 10), 'middle', ...original.slice(12)];
    fs.writeFileSync(file, `${edited.join('\n')}\n`);
    expectRun(run(['open', 'f.txt'], dir), { status: 0, stderr: '' });
    fs.rmSync(path.join(dir, '.rt'), { recursive: true });
    const rebuilt = run(['open', 'f.txt'], dir);
    const elsewhere = tempDir();
    write(elsewhere, 'f.txt', `${edited.join('\n')}\n`);
    const fresh = run(['open', 'f.txt'], elsewhere);
    expectRun(rebuilt, { status: 0, stdout: fresh.stdout, stderr: '' });
    shown(fresh);
  });

  it('LIDs do not depend on the path, the directory or the root', () => {
    const a = tempDir();
    const b = tempRepo();
    const text = `${original.join('\n')}\n`;
    write(a, 'f.txt', text);
    write(b, 'deep/down/other-name.md', text);
    const one = openAll(a, 'f.txt');
    const two = openAll(path.join(b, 'deep'), 'down/other-name.md');
    expect(two).toEqual(one);
  });

  it('duplicate lines keep their own LIDs when a line is inserted above them', () => {
    const dir = tempDir();
    const text = ['function a() {', '  x();', '}', '', 'function b() {', '  y();', '}', '', '}', '}', '', ''];
    const file = write(dir, 'dup.ts', `${text.join('\n')}\n`);
    const before = openAll(dir, 'dup.ts');
    fs.writeFileSync(file, `// header\n${text.join('\n')}\n`);
    const after = openAll(dir, 'dup.ts');
    expect(after.slice(1)).toEqual(before);
    expect(before.some(([, lid]) => lid === after[0]![1])).toBe(false);
  });

  it('duplicate lines keep their own LIDs when a line is inserted among them', () => {
    const dir = tempDir();
    const text = ['start', '}', '}', '}', '', '', 'end'];
    const file = write(dir, 'dup.txt', `${text.join('\n')}\n`);
    const before = openAll(dir, 'dup.txt');
    const edited = ['start', '}', '}', 'inserted', '}', '', 'inserted too', '', 'end'];
    fs.writeFileSync(file, `${edited.join('\n')}\n`);
    const after = openAll(dir, 'dup.txt');
    expect(after.map(([c]) => c)).toEqual(edited);
    // by position: old lines 0,1,2 → new 0,1,2; old 3 → new 4; old 4 → new 5; old 5 → new 7; old 6 → new 8
    const pairs: Array<[number, number]> = [
      [0, 0],
      [1, 1],
      [2, 2],
      [3, 4],
      [4, 5],
      [5, 7],
      [6, 8],
    ];
    for (const [o, n] of pairs) expect(after[n]![1], `old line ${o + 1} → new line ${n + 1}`).toBe(before[o]![1]);
  });

  it('a CRLF file converted to LF by another tool keeps its LIDs (line endings are not content)', () => {
    const dir = tempDir();
    const file = write(dir, 'f.txt', `${original.join('\r\n')}\r\n`);
    const before = openAll(dir, 'f.txt');
    fs.writeFileSync(file, `${original.join('\n')}\n`);
    expect(openAll(dir, 'f.txt')).toEqual(before);
  });
});

describe('state', () => {
  const text = numbered(300);

  it('RT_STATE=off: the same output, no .rt/, one rt: warning naming RT_STATE', () => {
    const dir = tempDir();
    write(dir, 'a.txt', text);
    for (const args of [
      ['open', 'a.txt'],
      ['open', 'a.txt:150'],
      ['open', 'a.txt:10-20'],
      ['scroll', 'a.txt', '+'],
      ['scroll', 'a.txt', '+'],
    ]) {
      const normal = run(args, tempDirWith(text)); // a first run, with state
      const off = run(args, dir, { env: { RT_STATE: 'off' } });
      expectRun(off, { status: 0, stdout: normal.stdout, stderr: /^rt: [^\n]*RT_STATE[^\n]*\n$/ });
      expect(stderrLines(off), off.text).toHaveLength(1);
      expect(exists(path.join(dir, '.rt')), off.text).toBe(false);
    }
  });

  it('RT_STATE=off leaves an existing .rt/ untouched', () => {
    const dir = tempDir();
    const file = write(dir, 'a.txt', text);
    run(['open', 'a.txt', '--window', '10'], dir);
    const state = tree(path.join(dir, '.rt'));
    fs.writeFileSync(file, `new\n${text}`);
    const off = run(['open', 'a.txt'], dir, { env: { RT_STATE: 'off' } });
    expectRun(off, { status: 0, stderr: /RT_STATE/ });
    expect(tree(path.join(dir, '.rt'))).toEqual(state);
  });

  it('an unwritable root: the same output, no .rt/, one rt: warning', (ctx) => {
    const as = unprivileged();
    // When the tests run as root and cannot run rt as another user, chmod does not stop root
    // from writing: this case cannot be set up here.
    if (as === undefined) return ctx.skip();
    const dir = tempDir();
    write(dir, 'a.txt', text);
    fs.chmodSync(dir, 0o555);
    for (const args of [
      ['open', 'a.txt'],
      ['open', 'a.txt:200'],
      ['scroll', 'a.txt', '+'],
      ['scroll', 'a.txt', '+'],
    ]) {
      const normal = run(args, tempDirWith(text)); // a first run, with state
      const r = run(args, dir, { ...as });
      expectRun(r, { status: 0, stdout: normal.stdout, stderr: /^rt: [^\n]*\n$/ });
      expect(exists(path.join(dir, '.rt')), r.text).toBe(false);
    }
  });

  it('an unwritable .rt/: the same output, one rt: warning', (ctx) => {
    const as = unprivileged();
    // As root, chmod does not stop root from writing: run rt as another user, or skip.
    if (as === undefined) return ctx.skip();
    const dir = tempDir();
    write(dir, 'a.txt', text);
    run(['open', 'a.txt'], dir); // .rt/ made by the current user
    fs.chmodSync(dir, 0o755);
    if (!('uid' in as)) {
      for (const sub of ['', 'pack']) fs.chmodSync(path.join(dir, '.rt', sub), 0o555);
    }
    const file = path.join(dir, 'a.txt');
    fs.writeFileSync(file, `changed\n${text}`);
    const elsewhere = tempDir();
    write(elsewhere, 'a.txt', `changed\n${text}`);
    const normal = run(['open', 'a.txt'], elsewhere);
    const r = run(['open', 'a.txt'], dir, { ...as });
    expectRun(r, { status: 0, stdout: normal.stdout, stderr: /^rt: [^\n]*\n$/ });
  });

  it('.rt that is a file, not a folder: rt works without state and says so once', () => {
    const dir = tempDir();
    write(dir, 'a.txt', text);
    write(dir, '.rt', 'not a folder\n');
    const elsewhere = tempDir();
    write(elsewhere, 'a.txt', text);
    const r = run(['open', 'a.txt'], dir);
    expectRun(r, { status: 0, stdout: run(['open', 'a.txt'], elsewhere).stdout, stderr: /^rt: [^\n]*\n$/ });
    expect(fs.readFileSync(path.join(dir, '.rt'), 'utf8')).toBe('not a folder\n');
  });

  it('.rt that is a symbolic link to a folder elsewhere is not written through', () => {
    const base = tempDir();
    const dir = path.join(base, 'root');
    fs.mkdirSync(path.join(base, 'target'));
    write(dir, 'a.txt', text);
    fs.symlinkSync('../target', path.join(dir, '.rt'));
    const r = run(['open', 'a.txt'], dir);
    expectRun(r, { status: 0, stdout: /^--- a\.txt \(lines 1-100 of 300\) ---\n/, stderr: /^rt: [^\n]*\n$/ });
    expect(fs.readdirSync(path.join(base, 'target'))).toEqual([]);
  });

  describe.each([
    ['random bytes', () => crypto.randomBytes(300)],
    ['an empty file', () => Buffer.alloc(0)],
    ['text that is not JSON', () => Buffer.from('this is not json {')],
    ['JSON null', () => Buffer.from('null')],
    ['a JSON array', () => Buffer.from('[1,2,3]')],
    ['an empty JSON object', () => Buffer.from('{}')],
    ['a JSON number', () => Buffer.from('42')],
  ])('a state file holding %s', (_name, garbage) => {
    it('is set aside with a warning; LIDs stay the same; exit 0', () => {
      const dir = tempDir();
      write(dir, 'a.txt', text);
      write(dir, 'b.txt', numbered(50, 'b '));
      const a0 = run(['open', 'a.txt:150'], dir);
      const b0 = run(['open', 'b.txt'], dir);
      const damaged = packKeys(dir, 'index');
      expect(damaged).toEqual(['index:a.txt', 'index:b.txt']);
      const bytes = garbage();
      plantEntries(
        dir,
        damaged.map((key) => [key, bytes]),
      );

      const a1 = run(['open', 'a.txt:150'], dir);
      expectRun(a1, { status: 0, stdout: a0.stdout, stderr: /^rt: / });
      const b1 = run(['open', 'b.txt'], dir);
      expectRun(b1, { status: 0, stdout: b0.stdout, stderr: /^rt: / });
      // Rebuilt: the next runs are quiet and agree.
      expectRun(run(['open', 'a.txt:150'], dir), { status: 0, stdout: a0.stdout, stderr: '' });
      expectRun(run(['open', 'b.txt'], dir), { status: 0, stdout: b0.stdout, stderr: '' });
      const entries = packEntries(dir);
      for (const key of damaged) {
        const entry = entries.get(key);
        if (entry) expect(entry.bytes.equals(bytes), `${key} still holds the garbage`).toBe(false);
      }
    });

    it('in a view file: scroll still works, with a warning; exit 0', () => {
      const dir = tempDir();
      write(dir, 'a.txt', text);
      run(['open', 'a.txt', '--window', '10'], dir);
      run(['scroll', 'a.txt', '+'], dir); // 9-18
      const next = run(['scroll', 'a.txt', '+'], tempCopyWithView(dir)); // what + gives from 9-18
      const bytes = garbage();
      expect(packKeys(dir, 'view')).toEqual(['view:a.txt']);
      plantEntries(dir, [['view:a.txt', bytes]]);
      const top = run(['open', 'a.txt'], tempDirWith(text));
      const r = run(['scroll', 'a.txt', '+'], dir);
      // Set aside: + opens the top, as with no earlier view (or continues, had the view survived).
      expectRun(r, { status: 0, stdout: (s) => s === top.stdout || s === next.stdout, stderr: /^rt: / });
      expectCleanStderr(r);
    });
  });

  it('a state file that is valid JSON with damaged fields is never trusted, never fatal', () => {
    const problems = damagedFieldRuns('index');
    expect(problems).toEqual([]);
  });

  it('a view file that is valid JSON with damaged fields is never fatal', () => {
    const problems = damagedFieldRuns('view');
    expect(problems).toEqual([]);
  });

  it('a state file describing another file is set aside and rebuilt', () => {
    const dir = tempDir();
    write(dir, 'a.txt', numbered(40, 'alpha '));
    write(dir, 'b.txt', numbered(40, 'beta '));
    const a0 = run(['open', 'a.txt'], dir);
    const b0 = run(['open', 'b.txt'], dir);
    expect(packKeys(dir, 'index')).toEqual(['index:a.txt', 'index:b.txt']);
    plantEntries(dir, [['index:b.txt', packText(dir, 'index:a.txt')!]]);

    const b1 = run(['open', 'b.txt'], dir);
    expectRun(b1, { status: 0, stdout: b0.stdout, stderr: /^rt: / });
    expectRun(run(['open', 'b.txt'], dir), { status: 0, stdout: b0.stdout, stderr: '' });
    expectRun(run(['open', 'a.txt'], dir), { status: 0, stdout: a0.stdout, stderr: '' });
  });

  it('a state file describing another file is not trusted even when that file looks the same', () => {
    // Same size, same number of lines: only the path in the state file tells them apart.
    const dir = tempDir();
    const a = write(dir, 'a.txt', numbered(40, 'aaaa '));
    const b = write(dir, 'b.txt', numbered(40, 'bbbb '));
    age(a);
    age(b);
    const a0 = run(['open', 'a.txt'], dir);
    const b0 = run(['open', 'b.txt'], dir);
    expect(packKeys(dir, 'index')).toEqual(['index:a.txt', 'index:b.txt']);
    plantEntries(dir, [['index:b.txt', packText(dir, 'index:a.txt')!]]);
    const b1 = run(['open', 'b.txt'], dir);
    expectRun(b1, { status: 0, stdout: b0.stdout, stderr: /^rt: / });
    expect(b1.stdout).not.toContain('aaaa');
    expectRun(run(['open', 'a.txt'], dir), { status: 0, stdout: a0.stdout, stderr: '' });
  });

  it('a view file describing another file is not used for it', () => {
    const dir = tempDir();
    write(dir, 'a.txt', text);
    write(dir, 'b.txt', text);
    run(['open', 'a.txt', '--window', '10'], dir);
    run(['scroll', 'a.txt', '+'], dir);
    run(['scroll', 'a.txt', '+'], dir); // a: 17-26
    run(['open', 'b.txt', '--window', '10'], dir); // b: 1-10
    expect(packKeys(dir, 'view')).toEqual(['view:a.txt', 'view:b.txt']);
    plantEntries(dir, [['view:b.txt', packText(dir, 'view:a.txt')!]]);
    const r = run(['scroll', 'b.txt', '+'], dir);
    // b's own next window (9-18) or, its view set aside, the top; never a's (25-34).
    expectRun(r, { status: 0, stdout: /^--- b\.txt \(lines (9-18|1-10|1-100) of 300\) ---\n/, stderr: /^rt: / });
  });

  it('state of files not touched for 30 days is dropped; 29 days is kept', () => {
    for (const [days, kept] of [
      [29, true],
      [31, false],
    ] as const) {
      const dir = tempDir();
      write(dir, 'a.txt', text);
      write(dir, 'b.txt', text);
      run(['open', 'a.txt', '--window', '10'], dir); // a: 1-10
      ageState(dir, () => days * 86_400);
      expectRun(run(['open', 'b.txt'], dir), { status: 0, stderr: '' });
      const r = run(['scroll', 'a.txt', '+'], dir);
      expectRun(r, {
        status: 0,
        stdout: kept ? /^--- a\.txt \(lines 9-18 of 300\) ---\n/ : /^--- a\.txt \(lines 1-100 of 300\) ---\n/,
        stderr: '',
      });
    }
  });

  it('a file read every day keeps its index (and so its LIDs) past 30 days, though only its view is written', () => {
    const dir = tempDir();
    write(dir, 'a.txt', 'x\n}\n}\ny\n');
    const first = parseWindow(run(['open', 'a.txt'], dir));
    // Deleting the first "}" leaves the second with its own LID, not the one a fresh reading gives.
    expectRun(run(['delete', 'a.txt', first.lidAt(2)], dir), { status: 0 });
    const kept = parseWindow(run(['open', 'a.txt'], dir)).lids;
    // 31 days of reading only: the index is 31 days old, the view a day old, the sweep due.
    ageState(dir, (key) => (key.startsWith('view') ? 86_400 : 31 * 86_400));
    expect(parseWindow(run(['open', 'a.txt'], dir)).lids).toEqual(kept);
    expect(parseWindow(run(['open', 'a.txt'], dir)).lids).toEqual(kept);
  });

  it('state is shared by every process: a view saved by one is continued by the next', () => {
    const dir = tempDir();
    write(dir, 'a.txt', text);
    const lids = new Map<number, string>();
    for (let i = 0; i < 4; i++) {
      const r = run(['scroll', 'a.txt', '+'], dir);
      expectRun(r, { status: 0, stderr: '' });
      for (const l of parseWindow(r).lines) {
        if (lids.has(l.n)) expect(l.lid).toBe(lids.get(l.n));
        lids.set(l.n, l.lid);
      }
    }
    expect(lids.size).toBe(300);
  });
});

// ---------------------------------------------------------------------------------------------

function tempDirWith(content: string): string {
  const dir = tempDir();
  write(dir, 'a.txt', content);
  return dir;
}

/** A copy of dir (a.txt and its .rt/), so a scroll there shows what scroll would do in dir. */
function tempCopyWithView(dir: string): string {
  const copy = tempDir();
  fs.cpSync(dir, copy, { recursive: true });
  return copy;
}

/**
 * Makes `dir`'s state as old as `secondsAgo` says for each key of the pack (when it was saved; a
 * view's own record of it too), and every file under .rt as old as the oldest: the daily sweep due.
 */
function ageState(dir: string, secondsAgo: (key: string) => number): void {
  const now = Date.now();
  let oldest = 0;
  rewritePack(
    dir,
    (key, bytes) => {
      if (!key.startsWith('view')) return bytes;
      return JSON.stringify({ ...JSON.parse(bytes.toString('utf8')), touched: now - secondsAgo(key) * 1000 });
    },
    (key) => {
      oldest = Math.max(oldest, secondsAgo(key));
      return now - secondsAgo(key) * 1000;
    },
  );
  for (const f of filesUnder(path.join(dir, '.rt'))) age(path.join(dir, '.rt', f), oldest);
}

/**
 * For each top-level field of the `kind` state file of a.txt, and each way of damaging it,
 * runs rt in a fresh directory and collects what went wrong: an exit other than 0, an output
 * other than the one expected, an `internal error`, a malformed LID.
 */
function damagedFieldRuns(kind: 'index' | 'view'): string[] {
  const problems: string[] = [];
  const content = numbered(300);
  const setup = () => {
    const dir = tempDir();
    const file = write(dir, 'a.txt', content);
    age(file); // old enough for rt to trust its saved index without reading the file
    run(['open', 'a.txt', '--window', '10'], dir);
    run(['scroll', 'a.txt', '+'], dir); // 9-18
    return { dir, key: `${kind}:a.txt` };
  };
  const probe = setup();
  const doc = JSON.parse(packText(probe.dir, probe.key)!) as Record<string, unknown>;
  const expectedNext = run(['scroll', 'a.txt', '+'], tempCopyWithView(probe.dir)).stdout; // 17-26
  const top = run(['scroll', 'a.txt', '+'], tempDirWith(content)).stdout;
  const damage: Array<[string, (v: unknown) => unknown]> = [
    ['deleted', () => undefined],
    ['null', () => null],
    ['a string', () => 'x'],
    ['-1', () => -1],
    ['an empty array', () => []],
    ['an empty object', () => ({})],
    ['a huge number', () => 1e12],
    ['[5]', () => [5]],
    [
      'same-length garbage',
      (v) =>
        typeof v === 'string'
          ? '/'.repeat(v.length)
          : typeof v === 'number'
            ? v + 7
            : Array.isArray(v)
              ? v.map(() => 999_999)
              : v,
    ],
  ];
  // Each case starts from the state the set-up left (its .rt/ copied back; a.txt, which reading
  // never changes, stays as it was): one rt run a case instead of three.
  const { dir, key: stateKey } = probe;
  const pristine = path.join(tempDir(), '.rt');
  fs.cpSync(path.join(dir, '.rt'), pristine, { recursive: true });
  for (const key of Object.keys(doc)) {
    if (key === 'format' || key === 'version' || key === 'path' || key === 'touched') continue;
    for (const [how, f] of damage) {
      fs.rmSync(path.join(dir, '.rt'), { recursive: true, force: true });
      fs.cpSync(pristine, path.join(dir, '.rt'), { recursive: true });
      const d = JSON.parse(packText(dir, stateKey)!) as Record<string, unknown>;
      const v = f(d[key]);
      if (v === undefined) delete d[key];
      else d[key] = v;
      // The damaged document as the key's newest entry, in an intact segment (no digest of it in the table: what is
      // checked is the document itself).
      plantEntries(dir, [[stateKey, JSON.stringify(d)]]);
      const r = run(['scroll', 'a.txt', '+'], dir);
      const lids = parseWindow(r).lids;
      const wrong: string[] = [];
      if (r.status !== 0) wrong.push(`exit ${r.status}`);
      if (/internal error/.test(r.stderr)) wrong.push('internal error');
      if (r.stderr.split('\n').some((l) => l !== '' && !l.startsWith('rt: '))) wrong.push('stderr line without rt:');
      if (kind === 'index' && r.stdout !== expectedNext) wrong.push('output differs');
      if (
        kind === 'view' &&
        r.stdout !== expectedNext &&
        r.stdout !== top &&
        !/^--- a\.txt \(lines \d+-\d+ of 300\) ---\n/.test(r.stdout)
      )
        wrong.push('output is not a window');
      const badLid = lids.find((l) => !/^(?=[0-9a-z]*[a-hjkmnp-tv-z])[0-9a-hjkmnp-tv-z]{4}$/.test(l));
      if (badLid !== undefined) wrong.push(`malformed LID ${JSON.stringify(badLid)}`);
      if (wrong.length)
        problems.push(`${kind}.${key} = ${how}: ${wrong.join(', ')} — stderr: ${r.stderr.split('\n')[0]}`);
    }
  }
  return problems;
}
