// Symbolic links named by a patch: Delete File and Move to act on the link itself, never on what
// it leads to, and a dry run says so. Each test guards a bug once found; the comment above it
// tells that bug as it was.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoOpened as repoWith } from './apply-fixture.js';
import { cleanup, expectRun, run, tempRepo, write } from './harness.js';

afterAll(cleanup);

describe('rt apply: paths that are symbolic links', () => {
  // `*** Delete File: l.txt`, l.txt a link to f.txt inside the root: rt removes f.txt (the real
  // path it resolved) and leaves l.txt dangling, printing "removed l.txt". The patch named the
  // link; f.txt, which it never named, is gone. (apply_patch and `rm`, `git rm` remove the link.)
  it('Delete File of a link removes the link, not the file it points to', () => {
    const dir = tempRepo();
    write(dir, 'f.txt', 'a\n');
    fs.symlinkSync('f.txt', path.join(dir, 'l.txt'));
    run(['apply'], dir, { input: '*** Delete File: l.txt\n' });
    expect(fs.existsSync(path.join(dir, 'f.txt'))).toBe(true);
  });

  it('a dry run of Delete File of a link says what the write says: the link goes, no diff of what it leads to', () => {
    const dir = tempRepo();
    write(dir, 'f.txt', 'a\nb\n');
    fs.symlinkSync('f.txt', path.join(dir, 'l.txt'));
    const said = 'removed l.txt: a symbolic link to f.txt (the file it leads to is untouched)\n';
    const dry = run(['apply', '--dry-run'], dir, { input: '*** Delete File: l.txt\n' });
    expect(dry.status, dry.text).toBe(0);
    expect(dry.stdout).toBe(said);
    expect(dry.stderr).toBe('rt: dry run: nothing written to l.txt\n');
    expect(
      JSON.parse(run(['apply', '--dry-run', '--json'], dir, { input: '*** Delete File: l.txt\n' }).stdout).files[0],
    ).toMatchObject({ path: 'l.txt', diff: '', link: 'f.txt' });
    expect(fs.lstatSync(path.join(dir, 'l.txt')).isSymbolicLink()).toBe(true);
    expect(run(['apply'], dir, { input: '*** Delete File: l.txt\n' }).stdout).toBe(said);
  });

  it('Delete File of a dangling link is refused naming the link as given, with the command that removes it', () => {
    const dir = tempRepo();
    fs.symlinkSync('nowhere', path.join(dir, 'dangling.txt'));
    const r = run(['apply'], dir, { input: '*** Delete File: dangling.txt\n' });
    expect(r.status).toBe(4);
    expect(r.stderr).toBe(
      'rt: patch line 1: dangling.txt is a symbolic link to a missing file\n' +
        'rt: remove the link (rm dangling.txt), or point it at a file inside the root (ln -sfn FILE dangling.txt)\n',
    );
  });

  // Likewise `*** Update File: m.txt` + `*** Move to: n.txt`, m.txt a link to g.txt: g.txt is
  // moved to n.txt and m.txt is left dangling; "moved m.txt → n.txt" is printed.
  it('Move to of a link does not take away the file it points to', () => {
    const dir = tempRepo();
    write(dir, 'g.txt', 'a\n');
    fs.symlinkSync('g.txt', path.join(dir, 'm.txt'));
    run(['apply'], dir, { input: '*** Update File: m.txt\n*** Move to: n.txt\n' });
    expect(fs.existsSync(path.join(dir, 'g.txt'))).toBe(true);
  });
});

describe('rt apply: a link and the file it leads to in one patch', () => {
  // Delete File of a link removes the link, not its target; but refuseTwice still
  // compares the resolved target (file.abs), so deleting the link l.txt and editing f.txt, two
  // different entries, is refused: "patch line 2: f.txt is named again (first at patch line 1)"
  // — patch line 1 names l.txt, not f.txt. Each change alone is accepted.
  it('deleting a link and editing the file it leads to is not "named again"', () => {
    const { dir } = repoWith({ 'f.txt': 'f\n' });
    fs.symlinkSync('f.txt', path.join(dir, 'l.txt'));
    const r = run(['apply'], dir, { input: '*** Delete File: l.txt\n*** Update File: f.txt\n@@\n-f\n+F\n' });
    expectRun(r, { status: 0 });
    expect(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8')).toBe('F\n');
    expect(fs.lstatSync(path.join(dir, 'l.txt'), { throwIfNoEntry: false })).toBeUndefined();
  });
});
