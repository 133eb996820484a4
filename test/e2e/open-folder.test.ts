// rt open DIR, the ls of rt: entries sorted, folders with a final / and their file
// count, files with their line count (binary files marked), the files rt find lists: only
// what is there, never through a link out of the root, a folder that cannot be read refused.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, run, tempDir, tempRepo, unprivileged, write } from './harness.js';

afterAll(cleanup);

function git(dir: string, ...args: string[]): void {
  const r = spawnSync(
    'git',
    ['-c', 'user.email=r@example.com', '-c', 'user.name=r', '-c', 'protocol.file.allow=always', ...args],
    { cwd: dir, encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

/** The paths `rt find '' DIR` prints, relative to DIR. */
function found(dir: string, folder: string): string[] {
  const r = run(['find', '', folder], dir);
  return r.stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => path.posix.relative(folder, l));
}

function repo(): string {
  const dir = tempRepo();
  write(dir, 'src/a.ts', 'a\nb\n');
  write(dir, 'src/deep/b.ts', 'x\n');
  write(dir, 'README.md', 'one\ntwo\nthree');
  write(dir, 'empty.txt', '');
  write(dir, '.hidden.txt', 'h\n');
  write(dir, 'build/out.js', 'o\n');
  write(dir, '.gitignore', 'build/\n');
  fs.writeFileSync(path.join(dir, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 1, 2, 0]));
  return dir;
}

describe('rt open DIR', () => {
  it(
    'lists the entries, sorted: folders with / and their file ' +
      'count, files with their line count, binary files marked',
    () => {
      const dir = repo();
      const r = run(['open', '.'], dir);
      expect(r.status, r.text).toBe(0);
      // .gitignore is hidden, build/ ignored: left out, as find leaves them.
      expect(r.stdout).toBe(
        '--- . (4 entries) ---\nREADME.md\t3 lines\nempty.txt\t0 lines\nlogo.png\tbinary\nsrc/\t2 files\n',
      );
      expect(run(['open', 'src'], dir).stdout).toBe('--- src (2 entries) ---\na.ts\t2 lines\ndeep/\t1 file\n');
      expect(run(['open', 'src/'], path.join(dir, 'src')).status).toBe(4);
    },
  );

  it('leaves out hidden and ignored files unless --hidden or --no-ignore, as find does', () => {
    const dir = repo();
    expect(run(['open', '.', '--hidden'], dir).stdout).toContain('.hidden.txt\t1 line\n');
    expect(run(['open', '.', '--no-ignore'], dir).stdout).toContain('build/\t1 file\n');
  });

  it('shows at most --window entries, saying on stderr how many more and how to see them', () => {
    const dir = repo();
    const r = run(['open', '.', '--window', '2'], dir);
    expect(r.stdout).toBe('--- . (entries 1-2 of 4) ---\nREADME.md\t3 lines\nempty.txt\t0 lines\n');
    expect(r.stderr).toBe('rt: 2 more entries not shown: rt open --window 4 .\n');
    // One left out: "entry", singular.
    expect(run(['open', '.', '--window', '3'], dir).stderr).toBe('rt: 1 more entry not shown: rt open --window 4 .\n');
  });

  it('--json: one document with every entry', () => {
    const dir = repo();
    const doc = JSON.parse(run(['open', 'src', '--json'], dir).stdout);
    expect(doc).toEqual({
      command: 'open',
      path: 'src',
      folder: true,
      entries: [
        { name: 'a.ts', kind: 'file', lines: 2 },
        { name: 'deep/', kind: 'folder', files: 1 },
      ],
      more: 0,
    });
  });

  it('a folder with no file rt lists says so', () => {
    const dir = repo();
    fs.mkdirSync(path.join(dir, 'nothing'));
    write(dir, 'nothing/.x', 'x\n');
    const r = run(['open', 'nothing'], dir);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('--- nothing (0 entries) ---\n');
    expect(r.stderr).toContain(
      'nothing holds no file rt lists (hidden and ignored files are left out: add --hidden or --no-ignore)',
    );
  });
});

describe('rt open DIR: lists only what is there', () => {
  // git ls-files --cached still lists a tracked file deleted from the work tree; find checks
  // what it prints, open DIR does not: the deleted file is an entry ("unreadable") and counted
  // in its folder's files, and a deleted folder of tracked files is listed as `old/ 1 file`,
  // though `rt open old` says no such file.
  it('a tracked file or folder deleted from the work tree is neither listed nor counted', () => {
    const dir = tempRepo();
    write(dir, 'src/a.ts', 'a\n');
    write(dir, 'src/gone.ts', 'g\n');
    write(dir, 'src/deep/b.ts', 'b\n');
    write(dir, 'src/deep/gone.ts', 'g\n');
    write(dir, 'old/x.ts', 'x\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'i');
    fs.rmSync(path.join(dir, 'src/gone.ts'));
    fs.rmSync(path.join(dir, 'src/deep/gone.ts'));
    fs.rmSync(path.join(dir, 'old'), { recursive: true });
    const top = run(['open', '.'], dir);
    expect(top.stdout, top.text).toBe('--- . (1 entry) ---\nsrc/\t2 files\n');
    const src = run(['open', 'src'], dir);
    expect(src.stdout, src.text).toBe('--- src (2 entries) ---\na.ts\t1 line\ndeep/\t1 file\n');
    expect(found(dir, 'src')).toEqual(['a.ts', 'deep/b.ts']);
  });
});

describe('rt open DIR: links', () => {
  // Every path rt touches must resolve inside the root. find lists a link out of the
  // root "unread"; open DIR opens it and counts its lines (here 3 lines of a file outside).
  it('a symbolic link to a file outside the root is not read', () => {
    const outside = tempDir('rt-outside-');
    write(outside, 'secret.txt', 'one\ntwo\nthree\n');
    const dir = tempRepo();
    write(dir, 'a.txt', 'a\n');
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'out'));
    const r = run(['open', '.'], dir);
    expect(r.status, r.text).toBe(0);
    expect(r.stdout, r.text).toMatch(/^--- \. \(2 entries\) ---\na\.txt\t1 line\n/);
    expect(r.stdout, r.text).not.toContain('out\t3 lines');
  });

  // git lists a link as a file whatever it points to; find prints only links to files. open
  // DIR prints a link to a folder, and a dangling link, as `NAME<TAB>unreadable`, and counts
  // them in their folder's files.
  it('a link to a folder and a dangling link are not "unreadable" files', () => {
    const dir = tempRepo();
    write(dir, 'src/a.ts', 'a\n');
    write(dir, 'lib/b.ts', 'b\n');
    fs.symlinkSync('../src', path.join(dir, 'lib/to-src'));
    fs.symlinkSync('nowhere', path.join(dir, 'lib/dangling'));
    const top = run(['open', '.'], dir);
    expect(top.stdout, top.text).not.toMatch(/unreadable/);
    expect(top.stdout, top.text).toContain(`lib/\t${found(dir, 'lib').length} file`);
    const lib = run(['open', 'lib'], dir);
    expect(lib.stdout, lib.text).not.toMatch(/unreadable/);
  });
});

describe('rt open DIR: nested repositories', () => {
  // A submodule is a gitlink in the index, which `git ls-files --cached` prints as `sub`
  // without a final /: open DIR shows the folder as the file `sub<TAB>unreadable`, though
  // `rt open sub` lists its files (and --no-ignore shows `sub/<TAB>1 file`).
  it('a submodule is a folder, not an unreadable file', () => {
    const upstream = tempRepo();
    write(upstream, 's.txt', 's\n');
    git(upstream, 'add', '-A');
    git(upstream, 'commit', '-qm', 's');
    const dir = tempRepo();
    write(dir, 'a.txt', 'a\n');
    git(dir, 'submodule', 'add', '-q', upstream, 'sub');
    const r = run(['open', '.'], dir);
    expect(r.stdout, r.text).not.toContain('sub\tunreadable');
    expect(run(['open', 'sub'], dir).stdout).toBe('--- sub (1 entry) ---\ns.txt\t1 line\n');
  });
});

describe('rt open DIR: the count of a folder', () => {
  // A judgment call, taken: a folder's count is of the files under it, binary ones included (find
  // prints text files only; telling them apart would read every file under the folder). The
  // help says so.
  it('a folder counts the files under it, binary ones included, as its help says', () => {
    const dir = tempRepo();
    write(dir, 'src/a.ts', 'a\n');
    write(dir, 'src/logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]));
    const r = run(['open', '.'], dir);
    expect(r.stdout, r.text).toBe('--- . (1 entry) ---\nsrc/\t2 files\n');
    expect(run(['help', 'open'], dir).stdout).toContain('binary ones included');
  });
});

describe('rt open DIR: the cap', () => {
  // The notice's command drops --hidden and --no-ignore: run as told, it lists other entries
  // (here without .a and .b) and says nothing of them.
  it('the command for the rest keeps --hidden and --no-ignore', () => {
    const dir = tempRepo();
    for (const name of ['.a', '.b', 'c', 'd']) write(dir, name, 'x\n');
    write(dir, '.gitignore', 'ign/\n');
    write(dir, 'ign/e', 'x\n');
    const hidden = run(['open', '.', '--hidden', '--window', '1'], dir);
    expect(hidden.stderr, hidden.text).toMatch(/rt open .*--hidden.* \.\n/);
    const noIgnore = run(['open', '.', '--no-ignore', '--window', '1'], dir);
    expect(noIgnore.stderr, noIgnore.text).toMatch(/rt open .*--no-ignore.* \.\n/);
  });
});

describe('rt open DIR: names', () => {
  // listFiles returns names that are not valid UTF-8 apart (listing.undecodable); find says on
  // stderr that it left them out, open DIR drops them (a whole folder here) without a word.
  it('entries whose names are not valid UTF-8 are said to be left out', () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, '.rt'));
    write(dir, 'a.txt', 'a\n');
    const bad = Buffer.concat([Buffer.from(dir + '/bad'), Buffer.from([0xff])]);
    fs.writeFileSync(bad, 'x\n');
    const badDir = Buffer.concat([Buffer.from(dir + '/dir'), Buffer.from([0xfe])]);
    fs.mkdirSync(badDir);
    fs.writeFileSync(Buffer.concat([badDir, Buffer.from('/in.txt')]), 'y\n');
    const r = run(['open', '.'], dir);
    expect(r.stdout, r.text).toBe('--- . (1 entry) ---\na.txt\t1 line\n');
    expect(r.stderr, r.text).toMatch(/not valid UTF-8/);
  });
});

describe('rt open DIR: line counts', () => {
  // rt open reads a file holding only a UTF-8 BOM as an empty file (0 lines); open DIR counts
  // the BOM's bytes as a line without a newline.
  it('a file holding only a BOM has 0 lines, as rt open says', () => {
    const dir = tempRepo();
    fs.writeFileSync(path.join(dir, 'bom.txt'), Buffer.from([0xef, 0xbb, 0xbf]));
    expect(run(['open', 'bom.txt'], dir).stdout).toContain('(empty file)');
    const r = run(['open', '.'], dir);
    expect(r.stdout, r.text).toBe('--- . (1 entry) ---\nbom.txt\t0 lines\n');
  });
});

describe('rt open DIR: a folder that cannot be read', () => {
  // Run as another user: `rt open locked` (mode 000) exits 0 saying the folder holds no file
  // rt lists and that hidden and ignored files are left out, suggesting --hidden or
  // --no-ignore, which list nothing either. rt open of an unreadable file is exit 4
  // "permission denied".
  it('is refused as unreadable, not reported empty', () => {
    const as = unprivileged();
    if (as === undefined) return;
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, '.rt'));
    write(dir, 'locked/in.txt', 'x\n');
    fs.chmodSync(dir, 0o755);
    fs.chmodSync(path.join(dir, '.rt'), 0o777);
    fs.chmodSync(path.join(dir, 'locked'), 0o000);
    const r = run(['open', 'locked'], dir, as);
    expect(r.stderr, r.text).not.toContain('add --hidden or --no-ignore');
    expect(r.status, r.text).toBe(4);
  });
});
