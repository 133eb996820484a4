// A batch's commit under kills and races: nothing written when a target cannot be, a file changed
// by someone else after the commit point never reported as written, the journal finished (or
// refused, saying why) by the next command, the journal in the system's temporary folder
// without state, and the lock breakers of concurrent processes (see All or nothing in
// docs/DESIGN.md). Each test guards a bug once found; the comment above it tells that bug as it was.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { removeAbandonedBreaker } from '../../src/store/lock.js';
import { repoOpened as repoWith } from './apply-fixture.js';
import { cleanup, expectRun, run, tempDir, tempRepo, tree, unprivileged, write } from './harness.js';

afterAll(cleanup);

/**
 * A preload that makes rt (through NODE_OPTIONS) run a shell command (HOOK_CMD) just before its
 * Nth fs.renameSync (HOOK_AT_RENAME), or SIGKILL itself there (KILL_AT_RENAME); or run it just
 * before it writes its draft journal (HOOK_AT_DRAFT=1). A batch's renames: 1 the draft to the
 * journal (its commit point), then each file in patch order.
 */
function preload(): string {
  const dir = tempDir('rt-batch-hook-');
  return write(
    dir,
    'hook.cjs',
    `const fs = require('fs');
const cp = require('child_process');
const env = { PATH: process.env.PATH, HOME: process.env.HOME };
let n = 0;
const rename = fs.renameSync;
fs.renameSync = function (a, b) {
  n++;
  if (process.env.HOOK_AT_RENAME && n === Number(process.env.HOOK_AT_RENAME))
    cp.execSync(process.env.HOOK_CMD, { stdio: 'ignore', env });
  if (process.env.KILL_AT_RENAME && n === Number(process.env.KILL_AT_RENAME)) process.kill(process.pid, 'SIGKILL');
  return rename.apply(this, arguments);
};
const writeFileSync = fs.writeFileSync;
let drafted = false;
fs.writeFileSync = function (f, data) {
  const journal = typeof f === 'number' && String(data).includes('"format":"rt-journal"');
  if (process.env.HOOK_AT_DRAFT && !drafted && journal) {
    drafted = true;
    cp.execSync(process.env.HOOK_CMD, { stdio: 'ignore', env });
  }
  return writeFileSync.apply(this, arguments);
};
`,
  );
}

const TWO = '*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-b\n+B\n';
const THREE =
  '*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-b\n+B\n*** Update File: c.txt\n@@\n-c\n+C\n';
const THREE_IN_ENVELOPE =
  '*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-b\n+B\n*** Update File: ' +
  'c.txt\n@@\n-c\n+C\n*** End Patch\n';

describe('rt apply: all or nothing', () => {
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
      input: THREE_IN_ENVELOPE,
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
  // refusal does (one message naming the patch line).
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

describe('rt apply: crash recovery', () => {
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

describe('rt apply: a Move whose target appears after the commit point', () => {
  // Move m.txt → n.txt is two journal entries: write n.txt (expected absent), remove m.txt. When
  // a program without rt's locks creates n.txt after the commit point (here: right before the
  // commit rename; the same happens in recovery after a kill), finish() skips n.txt — and
  // removes its temporary file, the only copy of the new content — then still removes m.txt.
  // m.txt, its content and the batch's edit are all gone; the message says "the rest of the
  // batch was written ... make the change again", which can no longer be done. The source of a
  // move must not be removed when its target was not written.
  it('does not remove the source when the target could not be written', () => {
    const { dir } = repoWith({ 'm.txt': 'precious\n' });
    const r = run(['apply'], dir, {
      input: '*** Update File: m.txt\n*** Move to: n.txt\n@@\n-precious\n+precious edited\n',
      env: {
        NODE_OPTIONS: `--require ${preload()}`,
        HOOK_AT_RENAME: '1',
        HOOK_CMD: `printf 'other\\n' > ${path.join(dir, 'n.txt')}`,
      },
    });
    expect(fs.readFileSync(path.join(dir, 'n.txt'), 'utf8'), r.text).toBe('other\n');
    // What the user had must survive somewhere: the source as it was (or the edited content).
    const left = fs.readdirSync(dir).filter((n) => !['.git', '.rt', 'n.txt'].includes(n) && !n.endsWith('.rt-lock'));
    expect(left, r.text).toContain('m.txt');
  });
});

describe('rt apply: a concurrent rt while a batch writes its draft journal', () => {
  // recoverBatches reads every .draft in .rt/journal/ and sets aside as "damaged" one it cannot
  // parse, before asking whether its owner still runs. A draft is created empty (open 'wx') and
  // written after: any rt command started in that instant — even `rt open` — moves a live
  // batch's draft to .rt/set-aside/, and the batch then dies on its commit rename with
  // "internal error: ENOENT ... rename" (exit 2), leaving a "damaged journal" behind. Two agents
  // in one root (one reading, one applying) must not break each other.
  it('a live batch is not broken by an rt command that reads its draft half-written', () => {
    const { dir } = repoWith({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const r = run(['apply'], dir, {
      input: TWO,
      env: {
        NODE_OPTIONS: `--require ${preload()}`,
        HOOK_AT_DRAFT: '1',
        HOOK_CMD: `cd ${dir} && ${process.execPath} ${path.resolve(__dirname, '../../bin/rt.cjs')} open a.txt`,
      },
    });
    expect(r.stderr, r.text).not.toMatch(/internal error/);
    expect(r.status, r.text).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8') + fs.readFileSync(path.join(dir, 'b.txt'), 'utf8')).toBe(
      'A\nB\n',
    );
    expect(fs.existsSync(path.join(dir, '.rt', 'set-aside')), r.text).toBe(false);
  });
});

describe('rt apply: the journal in the system temporary folder (RT_STATE=off)', () => {
  // journalDir(root, false) is os.tmpdir() + name, and trustedFolder() requires its realpath to
  // be the same string. When TMPDIR leads through a symbolic link — macOS's default
  // /var/folders/… is one (/var → /private/var) — the folder rt just made is "not a plain
  // folder of yours": every multi-file batch, and every Move, in a root without kept state is
  // refused (exit 4), with a hint (rm -r it) that does not help. The message also names
  // "patch line 1", which has nothing to do with it (atFile matches details.abs === undefined
  // against a change without moveTo).
  it('a two-file batch works when TMPDIR is reached through a link', () => {
    const { dir } = repoWith({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const realTmp = tempDir('rt-batch-tmp-');
    const linked = path.join(tempDir('rt-batch-link-'), 'tmp');
    fs.symlinkSync(realTmp, linked);
    const r = run(['apply'], dir, { input: TWO, env: { RT_STATE: 'off', TMPDIR: linked } });
    expect(r.status, r.text).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8') + fs.readFileSync(path.join(dir, 'b.txt'), 'utf8')).toBe(
      'A\nB\n',
    );
  });
});

describe('rt apply: --json when a file changed after the commit point', () => {
  // reportWrites prints the JSON document of the files written, then changedMeanwhile is thrown
  // and printed as a second document: stdout holds two JSON documents, which no JSON parser
  // reads (--json prints one JSON document).
  it('prints one JSON document', () => {
    const { dir } = repoWith({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' });
    const r = run(['--json', 'apply'], dir, {
      input: THREE,
      env: {
        NODE_OPTIONS: `--require ${preload()}`,
        HOOK_AT_RENAME: '2',
        HOOK_CMD: `printf 'someone else\\n' > ${path.join(dir, 'b.txt')}`,
      },
    });
    expect(r.status, r.text).toBe(3);
    expect(() => JSON.parse(r.stdout), r.text).not.toThrow();
  });
});

describe('rt apply: recovery when a new content is gone', () => {
  // After a kill past the commit point, the batch's temporary files show in `git status` as
  // untracked (.b.txt.rt-batch-…); `git clean -f` (or a manual rm) removes them. finish() then
  // takes a missing temporary file for "renamed already", and the next command says "finished
  // a batch … nothing was left to write": a.txt new, b.txt old — a mixed batch, reported as
  // complete. No half-applied batch outlives the next command unsaid: when a target is
  // still the version read and its new content is gone, rt must say the batch is left mixed.
  it('says so when a target was never written and its new content is gone', () => {
    const { dir } = repoWith({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const killed = run(['apply'], dir, {
      input: TWO,
      env: { NODE_OPTIONS: `--require ${preload()}`, KILL_AT_RENAME: '3' },
    });
    expect(killed.status, killed.text).toBe(null);
    for (const name of fs.readdirSync(dir)) if (name.includes('.rt-batch-')) fs.rmSync(path.join(dir, name));
    const r = run(['open', 'a.txt'], dir);
    expect(fs.readFileSync(path.join(dir, 'b.txt'), 'utf8')).toBe('b\n');
    expect(r.stderr, r.text).not.toMatch(/nothing was left to write/);
    expect(r.stderr, r.text).toMatch(/b\.txt/);
  });
});

describe('rt apply: lock breakers', () => {
  // removeAbandonedBreaker reads the breaker's PID, then unlinks the breaker by name: if the
  // breaker it read (of an rt now gone) was replaced meanwhile by a live rt's breaker, that live
  // breaker is removed, and a third rt can break the same abandoned lock at once — the two then
  // both unlink "the abandoned lock" (the second unlink removing the lock the first just took)
  // and both hold it. It must remove only the file it judged (e.g. rename it aside and check it
  // is still the dead owner's).
  it('never removes a breaker made by a live process', async () => {
    const dir = tempDir('rt-batch-breaker-');
    const breaker = path.join(dir, '.f.txt.rt-lock.break');
    const dead = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => dead.on('exit', resolve));
    const live = spawn('sleep', ['30']);
    try {
      fs.writeFileSync(breaker, String(dead.pid));
      const unlink = fs.unlinkSync;
      // Between the read of the dead PID and its removal, the dead rt's breaker is gone and a
      // live rt has made its own.
      const rename = fs.renameSync;
      const spy = vi.spyOn(fs, 'renameSync').mockImplementation((from, to) => {
        if (from === breaker) {
          unlink(breaker);
          fs.writeFileSync(breaker, String(live.pid), { flag: 'wx' });
        }
        return rename(from, to);
      });
      try {
        removeAbandonedBreaker(path.join(dir, '.f.txt.rt-lock'));
      } finally {
        spy.mockRestore();
      }
      expect(fs.readFileSync(breaker, 'utf8')).toBe(String(live.pid));
      expect(fs.readdirSync(dir)).toEqual(['.f.txt.rt-lock.break']);
    } finally {
      live.kill('SIGKILL');
    }
  });
});
