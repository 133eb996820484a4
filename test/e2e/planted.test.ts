// Things planted where rt keeps files of its own, or reads files it does not own: lock files
// (beside an edited file, and in .rt), ignore files above a searched folder, names like rt's
// temporary files, and the daily sweep of .rt. rt never follows a link there out of the root,
// never waits on a FIFO, never removes a file it did not make, and never crashes on them.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packDir, packKeys, packSegments, rewritePack } from '../support/pack.js';
import { age, cleanup, expectCleanStderr, run, tempDir, write } from './harness.js';

afterAll(cleanup);

/** A git work tree with a.txt shown by rt open (so that it may be edited). */
function shownFile(): { dir: string; lid: string } {
  const dir = tempDir();
  execFileSync('git', ['init', '-q'], { cwd: dir });
  write(dir, 'a.txt', 'one\ntwo\n');
  const shown = run(['open', 'a.txt'], dir);
  return { dir, lid: /^1:(\w+)\|/m.exec(shown.stdout)![1]! };
}

describe('lock files', () => {
  it(
    'a link, a FIFO or a folder where the lock of an edited file goes: ' +
      'refused at once, naming it; nothing read through the link, nothing written',
    () => {
      const secret = path.join(tempDir(), 'secret.txt');
      fs.writeFileSync(secret, 'password=hunter2\n');
      for (const plant of ['link', 'fifo', 'folder'] as const) {
        const { dir, lid } = shownFile();
        const lock = path.join(dir, '.a.txt.rt-lock');
        if (plant === 'link') fs.symlinkSync(secret, lock);
        if (plant === 'fifo') execFileSync('mkfifo', [lock]);
        if (plant === 'folder') fs.mkdirSync(lock);
        const r = run(['edit', 'a.txt', lid], dir, { input: 'ONE\n' });
        expect(r.status, r.text).toBe(4);
        expect(r.stderr, r.text).toMatch(/is a (symbolic link|FIFO|folder), not a lock rt made/);
        expect(r.stderr, r.text).toMatch(/rt: remove it, if no rt is running: rm -r /);
        expect(r.stderr).not.toMatch(/hunter2/);
        expectCleanStderr(r);
        expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('one\ntwo\n');
      }
      expect(fs.readFileSync(secret, 'utf8')).toBe('password=hunter2\n');
    },
  );

  it('a folder where the file that breaks an abandoned lock goes: refused at once, naming it', () => {
    const { dir, lid } = shownFile();
    const lock = path.join(dir, '.a.txt.rt-lock');
    fs.writeFileSync(lock, `99999999@${os.hostname()}@1-x`);
    fs.mkdirSync(`${lock}.break`);
    const r = run(['edit', 'a.txt', lid], dir, { input: 'ONE\n' });
    expect(r.status, r.text).toBe(4);
    expect(r.stderr, r.text).toMatch(/\.a\.txt\.rt-lock\.break is a folder, not a lock rt made/);
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('one\ntwo\n');
  });

  it('a garbled lock file, larger than any token, is broken as a smaller one is', () => {
    const { dir, lid } = shownFile();
    const lock = path.join(dir, '.a.txt.rt-lock');
    fs.writeFileSync(lock, 'x'.repeat(4000));
    age(lock, 60);
    const r = run(['edit', 'a.txt', lid], dir, { input: 'ONE\n' });
    expect(r.status, r.text).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('ONE\ntwo\n');
  });

  it('a FIFO where the lock of the state goes: rt open does not wait on it, and sets it aside', () => {
    const { dir } = shownFile();
    execFileSync('mkfifo', [path.join(packDir(dir), 'lock')]);
    const before = packSegments(dir).map((s) => s.seq);
    const r = run(['open', 'a.txt:2'], dir);
    expect(r.status, r.text).toBe(0);
    expect(r.stdout).toMatch(/^2:\w+\|two$/m);
    // A file never shown: its index and view are saved all the same (the lock is not waited on).
    write(dir, 'b.txt', 'three\n');
    const b = run(['open', 'b.txt'], dir);
    expect(b.status, b.text).toBe(0);
    expect(packSegments(dir).map((s) => s.seq)).not.toEqual(before);
    expect(packKeys(dir)).toEqual(['index:a.txt', 'index:b.txt', 'view:a.txt', 'view:b.txt']);
    // Set aside (not a lock rt made: no save would ever merge again), with a word.
    expect(`${r.stderr}${b.stderr}`).toMatch(/lock was set aside/);
    expect(fs.lstatSync(path.join(dir, '.rt', 'set-aside', 'pack-lock')).isFIFO()).toBe(true);
  });
});

describe('ignore files above the folder searched', () => {
  it('a .ignore that is a link (out of the root) is not followed, and one that is a FIFO not waited on', () => {
    const outside = tempDir();
    fs.writeFileSync(path.join(outside, 'rules'), 'a.txt\n');
    for (const plant of ['link', 'fifo'] as const) {
      const dir = tempDir();
      execFileSync('git', ['init', '-q'], { cwd: dir });
      write(dir, 'sub/a.txt', 'hello\n');
      execFileSync('git', ['add', 'sub'], { cwd: dir });
      if (plant === 'link') fs.symlinkSync(path.join(outside, 'rules'), path.join(dir, '.ignore'));
      else execFileSync('mkfifo', [path.join(dir, '.ignore')]);
      for (const args of [
        ['find', 'a', 'sub'],
        ['grep', '-l', 'hello', 'sub'],
      ]) {
        const r = run(args, dir);
        expect(r.status, r.text).toBe(0);
        expect(r.stdout, r.text).toBe('sub/a.txt\n');
      }
    }
  });
});

describe("files named like rt's own temporary files", () => {
  it("an edit removes rt's leftovers beside the file, not a file of the user's that only starts like one", () => {
    const { dir, lid } = shownFile();
    const mine = ['.a.txt.rt-lock.2024-notes', '.a.txt.rt-tmp-31337-keep', '.a.txt.rt-tmp-31337-keeper-x'];
    for (const name of mine) write(dir, name, 'precious\n');
    // Left by an rt killed mid-edit (no process has that PID).
    const leftovers = ['.a.txt.rt-tmp-99999999-abc123', '.a.txt.rt-lock.99999999-zz00yy'];
    for (const name of leftovers) write(dir, name, 'partial\n');
    const r = run(['edit', 'a.txt', lid], dir, { input: 'ONE\n' });
    expect(r.status, r.text).toBe(0);
    for (const name of mine) expect(fs.existsSync(path.join(dir, name)), name).toBe(true);
    for (const name of leftovers) expect(fs.existsSync(path.join(dir, name)), name).toBe(false);
  });
});

describe('the daily sweep of .rt', () => {
  it('keeps the state of a file whose name holds ".tmp-", and is not stopped by a folder among the state files', () => {
    const dir = tempDir();
    execFileSync('git', ['init', '-q'], { cwd: dir });
    write(dir, 'notes.tmp-draft.md', 'draft\n');
    write(dir, 'old.txt', 'old\n');
    expect(run(['open', 'notes.tmp-draft.md'], dir).status).toBe(0);
    expect(run(['open', 'old.txt'], dir).status).toBe(0);
    const state = path.join(dir, '.rt');
    // Two hours old (a temporary copy that old is swept); old.txt's 40 days (swept too).
    const hoursAgo = Date.now() - 2 * 3600_000;
    const daysAgo = Date.now() - 40 * 86_400_000;
    rewritePack(dir, undefined, (key) => (key.endsWith(':old.txt') ? daysAgo : hoursAgo));
    fs.mkdirSync(path.join(packDir(dir), 'zz'));
    age(path.join(packDir(dir), 'zz'), 40 * 86400);
    for (const name of fs.readdirSync(packDir(dir))) age(path.join(packDir(dir), name), 2 * 3600);
    age(path.join(state, 'swept'), 2 * 86400);
    write(dir, 'other.txt', 'x\n');
    expect(run(['open', 'other.txt'], dir).status).toBe(0);
    const left = packKeys(dir);
    expect(
      left.filter((n) => n.endsWith(':notes.tmp-draft.md')),
      left.join('\n'),
    ).toEqual(['index:notes.tmp-draft.md', 'view:notes.tmp-draft.md']);
    expect(
      left.filter((n) => n.endsWith(':old.txt')),
      left.join('\n'),
    ).toEqual([]);
    expect(left.filter((n) => n.endsWith(':other.txt')).length, left.join('\n')).toBe(2);
    // (The folder is no state of rt's: left where it is, it does not stop the sweep.)
    expect(fs.lstatSync(path.join(packDir(dir), 'zz')).isDirectory()).toBe(true);
  });

  it('removes the state folders of earlier rts (.rt/index, .rt/view), and follows no link in their place', () => {
    for (const plant of ['folders', 'links'] as const) {
      const dir = tempDir();
      const outside = tempDir();
      write(dir, 'a.txt', 'one\n');
      expect(run(['open', 'a.txt'], dir).status).toBe(0);
      const state = path.join(dir, '.rt');
      write(outside, 'kept.json', '{}');
      for (const old of ['index', 'view']) {
        if (plant === 'folders') write(state, `${old}/a.txt-0123456789abcdef.json`, '{"format":"rt-old"}');
        else fs.symlinkSync(outside, path.join(state, old));
      }
      age(path.join(state, 'swept'), 2 * 86400);
      write(dir, 'b.txt', 'two\n');
      expect(run(['open', 'b.txt'], dir).status).toBe(0);
      for (const old of ['index', 'view'])
        expect(fs.lstatSync(path.join(state, old), { throwIfNoEntry: false })?.isSymbolicLink(), old).toBe(
          plant === 'links' ? true : undefined,
        );
      expect(fs.readdirSync(outside)).toEqual(['kept.json']);
      expect(packKeys(dir)).toEqual(['index:a.txt', 'index:b.txt', 'view:a.txt', 'view:b.txt']);
    }
  });
});
