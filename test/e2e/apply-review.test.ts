// Adversarial review of rt apply and the one write pipeline (commits b1b6542, daf02e5). Each
// test is one bug found, failing against the code under review; the comment above it says what
// is wrong and what the contract asks instead.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, expectRun, openWindow, run, tempDir, tempRepo, tree, unprivileged, write } from './harness.js';

afterAll(cleanup);

/**
 * A preload that makes rt (through NODE_OPTIONS) act at its Nth fs.renameSync: run a shell
 * command just before it (HOOK_CMD), or SIGKILL itself (KILL_AT_RENAME). A batch of three files
 * renames: 1 the journal draft to the journal (its commit point), 2..4 the files.
 */
function preload(): string {
  const dir = tempDir('rt-review-hook-');
  return write(
    dir,
    'hook.cjs',
    `const fs = require('fs');
const cp = require('child_process');
let n = 0;
const orig = fs.renameSync;
fs.renameSync = function (a, b) {
  n++;
  if (process.env.HOOK_AT_RENAME && n === Number(process.env.HOOK_AT_RENAME)) cp.execSync(process.env.HOOK_CMD, { stdio: 'ignore' });
  if (process.env.KILL_AT_RENAME && n === Number(process.env.KILL_AT_RENAME)) process.kill(process.pid, 'SIGKILL');
  return orig.apply(this, arguments);
};
`,
  );
}

function repoWith(files: Record<string, string>): { dir: string; lids: Record<string, string[]> } {
  const dir = tempRepo();
  const lids: Record<string, string[]> = {};
  for (const [rel, content] of Object.entries(files)) {
    write(dir, rel, content);
    lids[rel] = [...openWindow(dir, rel).lids];
  }
  return { dir, lids };
}

const THREE =
  '*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-b\n+B\n*** Update File: c.txt\n@@\n-c\n+C\n*** End Patch\n';

describe('review: all or nothing', () => {
  // NAME_ROOM (32) is less than what a batch temporary file adds to a name:
  // `.NAME.rt-batch-<8 base36>-<pid>-<8>` adds 29 + digits of the PID (33..36). A 223-byte name
  // passes refuseLongName and then fails in writeTemp; the cleanup's fs.rmSync(temp) throws
  // ENAMETOOLONG in turn, the original error is lost ("internal error", exit 2), the draft
  // journal stays, and from then on every rt command in the root fails the same way, because
  // recovering the draft calls the same rmSync.
  it('a batch with a 223-byte file name is refused cleanly and leaves nothing behind', () => {
    const long = 'b'.repeat(223);
    const { dir } = repoWith({ 'a.txt': 'a\n', [long]: 'x\n' });
    const before = tree(dir);
    const r = run(['apply'], dir, {
      input: `*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: ${long}\n@@\n-x\n+X\n`,
    });
    // Either both files are written, or it is refused as a file access problem (exit 4): never an internal error.
    if (r.status !== 0) {
      expectRun(r, { status: 4, stdout: '', stderr: /^rt: .*too long/ });
      expect(tree(dir), r.text).toEqual(before);
    }
    const next = run(['open', 'a.txt'], dir);
    expectRun(next, { status: 0, stdout: /^--- a\.txt/ });
    expect(fs.existsSync(path.join(dir, '.rt', 'journal')), next.text).toBe(false);
  });

  // After the commit point finish() skips a file that changed since checkUnchanged with a no-op
  // `skipped` callback: the batch ends mixed (a.txt and c.txt new, b.txt someone else's), exit 0,
  // and the report says "edited b.txt" with LIDs of content that is not on disk. Recovery says
  // so for the same case; the live commit must too (never a half-applied batch unsaid).
  it('a file changed by someone else after the commit point is not reported as written', () => {
    const { dir } = repoWith({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' });
    const r = run(['apply'], dir, {
      input: THREE,
      env: {
        NODE_OPTIONS: `--require ${preload()}`,
        HOOK_AT_RENAME: '2',
        HOOK_CMD: `printf 'someone else\\n' > ${path.join(dir, 'b.txt')}`,
      },
    });
    expect(fs.readFileSync(path.join(dir, 'b.txt'), 'utf8')).toBe('someone else\n');
    expect(r.stderr, r.text).toMatch(/b\.txt/);
    expect(r.stdout, r.text).not.toMatch(/^edited b\.txt/m);
  });

  // Errors at commit time (a file that is not writable) name no patch line, though every other
  // refusal does (issue 19: "one message naming the patch line").
  it('a target that is not writable is refused naming its patch line', () => {
    const as = unprivileged();
    if (as === undefined) return;
    const dir = tempRepo();
    write(dir, 'a.txt', 'a\n');
    write(dir, 'ro/b.txt', 'b\n');
    if ('uid' in as)
      fs.chownSync(dir, as.uid, as.gid),
        fs.chownSync(path.join(dir, 'a.txt'), as.uid, as.gid),
        fs.chownSync(path.join(dir, 'ro'), as.uid, as.gid),
        fs.chownSync(path.join(dir, 'ro/b.txt'), as.uid, as.gid);
    fs.chmodSync(path.join(dir, 'ro/b.txt'), 0o444);
    const before = tree(dir);
    const r = run(['apply'], dir, {
      input: '*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: ro/b.txt\n@@\n-b\n+B\n',
      ...as,
    });
    expectRun(r, { status: 4, stdout: '', stderr: /^rt: patch line 5: .*ro\/b\.txt/ });
    expect(tree(dir)).toEqual(before);
  });
});

describe('review: crash recovery', () => {
  // A journal whose entry cannot be finished (here its folder was replaced by a link after the
  // kill) makes recoverBatches throw before every command: `rt open a.txt`, `rt grep` … all
  // exit 4 with "the folder of sub/b.txt was moved or replaced …; run the command again",
  // which never helps and does not mention the journal. One stuck batch must not stop every
  // command in the root, and the message must say what is wrong.
  it('a batch that cannot be finished does not make every later command fail', () => {
    const { dir } = repoWith({ 'a.txt': 'a\n', 'sub/b.txt': 'b\n' });
    const killed = run(['apply'], dir, {
      input: '*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: sub/b.txt\n@@\n-b\n+B\n',
      env: { NODE_OPTIONS: `--require ${preload()}`, KILL_AT_RENAME: '3' },
    });
    expect(killed.status, killed.text).toBe(null);
    fs.renameSync(path.join(dir, 'sub'), path.join(dir, 'sub.old'));
    fs.symlinkSync('sub.old', path.join(dir, 'sub'));
    const r = run(['open', 'a.txt'], dir);
    expect(r.stderr, r.text).toMatch(/batch|journal/);
    expect(r.status, r.text).toBe(0);
  });

  // A journal planted in .rt/journal/ (a repository can carry one: git checks it out as a plain
  // folder of the user's) is acted on by the first command, even `rt grep`: an entry with
  // expected null and overwrite true — which no batch of rt writes (overwrite comes only with
  // the version read) — renames its temporary file over an existing file whatever it holds.
  it('a journal entry that overwrites without a version read is not acted on', () => {
    const dir = tempRepo();
    write(dir, 'local.cfg', 'mine\n');
    write(dir, '.local.cfg.rt-batch-zz', 'planted\n');
    write(
      dir,
      '.rt/journal/zz.json',
      JSON.stringify({
        format: 'rt-journal',
        version: 1,
        owner: { pid: 1, host: 'elsewhere' },
        command: 'rt apply',
        entries: [
          {
            abs: path.join(dir, 'local.cfg'),
            display: 'local.cfg',
            temp: path.join(dir, '.local.cfg.rt-batch-zz'),
            expected: null,
            overwrite: true,
          },
          {
            abs: path.join(dir, 'x'),
            display: 'x',
            temp: path.join(dir, '.x.rt-batch-zz'),
            expected: null,
            overwrite: true,
          },
        ],
      }),
    );
    run(['grep', 'nothing'], dir);
    expect(fs.readFileSync(path.join(dir, 'local.cfg'), 'utf8')).toBe('mine\n');
  });
});

describe('review: a one-file patch gives the bytes of the same edits made one by one (SPEC §7)', () => {
  // Two `insert after L1` hunks give L1 A1 A2 L2; `rt insert f L1 --after` twice gives L1 A2 A1 L2.
  // (Likewise `insert before L2` then `insert after L1`.) Either the patch or SPEC §7 must change.
  it('two inserts after one line', () => {
    const { dir, lids } = repoWith({ 'f.txt': 'l1\nl2\n' });
    const [l1] = lids['f.txt']!;
    const seqDir = tempRepo();
    write(seqDir, 'f.txt', 'l1\nl2\n');
    openWindow(seqDir, 'f.txt');
    expectRun(run(['insert', 'f.txt', l1!, '--after'], seqDir, { input: 'A1\n' }), { status: 0 });
    expectRun(run(['insert', 'f.txt', l1!, '--after'], seqDir, { input: 'A2\n' }), { status: 0 });
    expectRun(
      run(['apply'], dir, {
        input: `*** Update File: f.txt\n@@ insert after ${l1}\n+A1\n@@ insert after ${l1}\n+A2\n`,
      }),
      { status: 0 },
    );
    expect(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8')).toBe(fs.readFileSync(path.join(seqDir, 'f.txt'), 'utf8'));
  });

  // A CRLF file emptied then appended to: the patch keeps CRLF (the ending of the file as read),
  // `rt delete` then `rt insert $` give LF (the empty file's default).
  it('a CRLF file whose lines are all deleted, then appended to', () => {
    const content = 'x\r\ny\r\n';
    const { dir, lids } = repoWith({ 'f.txt': content });
    const [x, y] = lids['f.txt']!;
    const seqDir = tempRepo();
    write(seqDir, 'f.txt', content);
    openWindow(seqDir, 'f.txt');
    expectRun(run(['delete', 'f.txt', x!, y!], seqDir), { status: 0 });
    expectRun(run(['insert', 'f.txt', '$'], seqDir, { input: 'z\n' }), { status: 0 });
    expectRun(run(['apply'], dir, { input: `*** Update File: f.txt\n@@ delete ${x} ${y}\n@@ insert before $\n+z\n` }), {
      status: 0,
    });
    expect(fs.readFileSync(path.join(dir, 'f.txt'))).toEqual(fs.readFileSync(path.join(seqDir, 'f.txt')));
  });
});

describe('review: the single commands behave as before the refactor', () => {
  // Before: a name up to 231 bytes could be edited (NAME_ROOM was 24). Now 224..231-byte names
  // are refused by create, edit, insert and delete, though a single write only needs the
  // `.NAME.rt-tmp-PID-xxxxxx` temporary file (at most 23 more bytes with a 7-digit PID).
  it('edits a file with a 228-byte name', () => {
    const name = 'c'.repeat(228);
    const { dir, lids } = repoWith({ [name]: 'x\n' });
    expectRun(run(['edit', name, lids[name]![0]!], dir, { input: 'y\n' }), { status: 0 });
    expect(fs.readFileSync(path.join(dir, name), 'utf8')).toBe('y\n');
  });

  // --json errors of edit/insert/delete now carry "hunkLine": 0, an internal detail of the
  // patch pipeline that the old commands never printed.
  it('a --json error of rt edit has no hunkLine', () => {
    const { dir } = repoWith({ 'f.txt': 'x\n' });
    const r = run(['--json', 'edit', 'f.txt', 'zzzz'], dir, { input: 'y\n' });
    expect(r.status, r.text).toBe(3);
    expect(JSON.parse(r.stdout).error, r.text).not.toHaveProperty('hunkLine');
  });
});

describe('review: --dry-run', () => {
  // A dry run of a Move prints nothing for it on stdout (its diff is empty), so what the patch
  // would do to that file is not shown at all.
  it('says what a Move would do', () => {
    const { dir } = repoWith({ 'g.txt': 'g\n' });
    const r = run(['apply', '--dry-run'], dir, { input: '*** Update File: g.txt\n*** Move to: moved/g2.txt\n' });
    expect(r.status, r.text).toBe(0);
    expect(r.stdout, r.text).toMatch(/moved\/g2\.txt/);
    expect(fs.existsSync(path.join(dir, 'moved')), r.text).toBe(false);
  });
});

describe('review: paths that are symbolic links', () => {
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

  it('a dry run of Delete File of a link says what the write says: the link goes, no diff of the lines it leads to', () => {
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
