// rt open DIR, the ls of rt: entries sorted, folders with a final / and their file
// count, files with their line count (binary files marked), the files rt find lists.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, run, tempRepo, write } from './harness.js';

afterAll(cleanup);

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
  it('lists the entries, sorted: folders with / and their file count, files with their line count, binary files marked', () => {
    const dir = repo();
    const r = run(['open', '.'], dir);
    expect(r.status, r.text).toBe(0);
    // .gitignore is hidden, build/ ignored: left out, as find leaves them.
    expect(r.stdout).toBe(
      '--- . (4 entries) ---\nREADME.md\t3 lines\nempty.txt\t0 lines\nlogo.png\tbinary\nsrc/\t2 files\n',
    );
    expect(run(['open', 'src'], dir).stdout).toBe('--- src (2 entries) ---\na.ts\t2 lines\ndeep/\t1 file\n');
    expect(run(['open', 'src/'], path.join(dir, 'src')).status).toBe(4);
  });

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
