// Second adversarial review of rt apply (after b398a1a and 9ad3daa). Each test is one bug found,
// failing against the code under review; the comment above it says what is wrong and what the
// contract asks instead.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { removeAbandonedBreaker } from '../../src/store/lock.js';
import { cleanup, expectRun, openWindow, run, tempDir, tempRepo, write } from './harness.js';

afterAll(cleanup);

/**
 * A preload that makes rt (through NODE_OPTIONS) run a shell command (HOOK_CMD) just before its
 * Nth fs.renameSync (HOOK_AT_RENAME), or SIGKILL itself there (KILL_AT_RENAME); or run it just
 * before it writes its draft journal (HOOK_AT_DRAFT=1). A batch's renames: 1 the draft to the
 * journal (its commit point), then each file in patch order.
 */
function preload(): string {
  const dir = tempDir('rt-review2-hook-');
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
  if (process.env.HOOK_AT_RENAME && n === Number(process.env.HOOK_AT_RENAME)) cp.execSync(process.env.HOOK_CMD, { stdio: 'ignore', env });
  if (process.env.KILL_AT_RENAME && n === Number(process.env.KILL_AT_RENAME)) process.kill(process.pid, 'SIGKILL');
  return rename.apply(this, arguments);
};
const writeFileSync = fs.writeFileSync;
let drafted = false;
fs.writeFileSync = function (f, data) {
  if (process.env.HOOK_AT_DRAFT && !drafted && typeof f === 'number' && String(data).includes('"format":"rt-journal"')) {
    drafted = true;
    cp.execSync(process.env.HOOK_CMD, { stdio: 'ignore', env });
  }
  return writeFileSync.apply(this, arguments);
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

const TWO = '*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-b\n+B\n';
const THREE =
  '*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-b\n+B\n*** Update File: c.txt\n@@\n-c\n+C\n';

describe('review 2: a Move whose target appears after the commit point', () => {
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

describe('review 2: a concurrent rt while a batch writes its draft journal', () => {
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

describe('review 2: the journal in the system temporary folder (RT_STATE=off)', () => {
  // journalDir(root, false) is os.tmpdir() + name, and trustedFolder() requires its realpath to
  // be the same string. When TMPDIR leads through a symbolic link — macOS's default
  // /var/folders/… is one (/var → /private/var) — the folder rt just made is "not a plain
  // folder of yours": every multi-file batch, and every Move, in a root without kept state is
  // refused (exit 4), with a hint (rm -r it) that does not help. The message also names
  // "patch line 1", which has nothing to do with it (atFile matches details.abs === undefined
  // against a change without moveTo).
  it('a two-file batch works when TMPDIR is reached through a link', () => {
    const { dir } = repoWith({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const realTmp = tempDir('rt-review2-tmp-');
    const linked = path.join(tempDir('rt-review2-link-'), 'tmp');
    fs.symlinkSync(realTmp, linked);
    const r = run(['apply'], dir, { input: TWO, env: { RT_STATE: 'off', TMPDIR: linked } });
    expect(r.status, r.text).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8') + fs.readFileSync(path.join(dir, 'b.txt'), 'utf8')).toBe(
      'A\nB\n',
    );
  });
});

describe('review 2: --json when a file changed after the commit point', () => {
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

describe('review 2: symbolic links named by a patch', () => {
  // Since b398a1a Delete File of a link removes the link, not its target; but refuseTwice still
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

describe('review 2: recovery when a new content is gone', () => {
  // After a kill past the commit point, the batch's temporary files show in `git status` as
  // untracked (.b.txt.rt-batch-…); `git clean -f` (or a manual rm) removes them. finish() then
  // takes a missing temporary file for "renamed already", and the next command says "finished
  // a batch … nothing was left to write": a.txt new, b.txt old — a mixed batch, reported as
  // complete. SPEC §7: no half-applied batch outlives the next command unsaid; when a target is
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

describe('review 2: lock breakers', () => {
  // removeAbandonedBreaker reads the breaker's PID, then unlinks the breaker by name: if the
  // breaker it read (of an rt now gone) was replaced meanwhile by a live rt's breaker, that live
  // breaker is removed, and a third rt can break the same abandoned lock at once — the two then
  // both unlink "the abandoned lock" (the second unlink removing the lock the first just took)
  // and both hold it. It must remove only the file it judged (e.g. rename it aside and check it
  // is still the dead owner's).
  it('never removes a breaker made by a live process', async () => {
    const dir = tempDir('rt-review2-breaker-');
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
