// Locks linked from drafts kept for reuse in `.rt/locks` (DraftPool in store/lock.ts): each
// acquisition writes its own token and mtime in place, a release or breaker of an earlier one never
// removes a later one, a killed rt's drafts are swept, nothing planted in a draft's place is written
// through, and a link that fails (another file system) takes the lock as before. That a process
// removes its drafts as it exits is tested end to end (test/e2e/edit-concurrency.test.ts).

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { acquireLock, lockPoolIn } from '../../src/store/lock.js';
import { tempFolders } from '../support/tempFolders.js';

const folder = tempFolders('rt-lock-pool-');

/** The PID of a process that has ended. */
const deadPid = (): number => spawnSync('true').pid!;

const age = (file: string, ms: number) => {
  const t = new Date(Date.now() - ms);
  fs.utimesSync(file, t, t);
};

/**
 * A root with its state folder: the lock `name` beside its files, and the pool of drafts in
 * `.rt/locks` (made, as the state's first save makes it).
 */
function root(name = '.f.txt.rt-lock'): { dir: string; lock: string; pool: string } {
  const dir = folder();
  const pool = lockPoolIn(path.join(dir, '.rt'));
  fs.mkdirSync(pool, { recursive: true });
  return { dir, lock: path.join(dir, name), pool };
}

const token = (file: string) => fs.readFileSync(file, 'utf8');
const drafts = (pool: string) => fs.readdirSync(pool).sort();

afterEach(() => {
  vi.restoreAllMocks();
});

describe('locks linked from a pool of drafts', () => {
  it('reuses one draft: each acquisition with a fresh token and mtime, the draft kept in .rt/locks only', () => {
    const { dir, lock, pool } = root();
    const first = acquireLock(lock, 'f.txt', 1000, lock, undefined, pool);
    const [draft] = drafts(pool);
    expect(draft).toMatch(new RegExp(`^lock\\.${process.pid}-[0-9a-z]{6}$`));
    const ino = fs.statSync(lock).ino;
    expect(fs.statSync(path.join(pool, draft!)).ino).toBe(ino);
    expect(fs.statSync(lock).nlink).toBe(2);
    const firstToken = token(lock);
    expect(firstToken.startsWith(`${process.pid}@${os.hostname()}@`)).toBe(true);
    first.release();
    expect(fs.existsSync(lock)).toBe(false);
    expect(fs.readdirSync(dir).sort()).toEqual(['.rt']);
    // As if taken long ago, then held for nothing since: the next acquisition's age is its own.
    age(path.join(pool, draft!), 10 * 60_000);
    const second = acquireLock(lock, 'f.txt', 1000, lock, undefined, pool);
    expect(drafts(pool)).toEqual([draft]);
    expect(fs.statSync(lock).ino).toBe(ino);
    expect(token(lock)).not.toBe(firstToken);
    expect(token(lock).startsWith(`${process.pid}@${os.hostname()}@`)).toBe(true);
    expect(Date.now() - fs.statSync(lock).mtimeMs).toBeLessThan(5000);
    second.release();
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('a long-lived rt’s lock taken again is not judged expired by another waiting with a stale time', () => {
    const { lock, pool } = root('lock');
    acquireLock(lock, 'the state', 1000, lock, 60_000, pool).release();
    for (const d of drafts(pool)) age(path.join(pool, d), 2 * 60_000);
    const held = acquireLock(lock, 'the state', 1000, lock, 60_000, pool);
    const heldToken = token(lock);
    // Another rt (no pool) waiting on it: it must wait (this process runs), not break it.
    expect(() => acquireLock(lock, 'the state', 300, lock, 60_000)).toThrow(/locked by another rt process/);
    expect(token(lock)).toBe(heldToken);
    held.release();
  });

  it('a release of an acquisition broken since never removes the lock taken after, and its draft serves again', () => {
    const { lock, pool } = root('lock');
    const first = acquireLock(lock, 'the state', 1000, lock, 60_000, pool);
    // Held past the stale time: the next rt breaks it and takes it (here through a draft of its own).
    age(lock, 2 * 60_000);
    const second = acquireLock(lock, 'the state', 1000, lock, 60_000, pool);
    const secondToken = token(lock);
    expect(drafts(pool)).toHaveLength(2);
    first.release();
    expect(token(lock)).toBe(secondToken);
    // The first draft, free again, is written for another lock: the held one is not touched.
    const other = path.join(path.dirname(lock), 'other');
    const third = acquireLock(other, 'x', 1000, other, undefined, pool);
    expect(drafts(pool)).toHaveLength(2);
    expect(token(lock)).toBe(secondToken);
    expect(token(other)).not.toBe(secondToken);
    const otherToken = token(other);
    // A release called twice (the first's again) still does not remove it, nor frees its draft twice.
    first.release();
    expect(token(lock)).toBe(secondToken);
    second.release();
    const fourth = acquireLock(lock, 'the state', 1000, lock, 60_000, pool);
    const fifth = acquireLock(path.join(path.dirname(lock), 'fifth'), 'x', 1000, undefined, undefined, pool);
    expect(drafts(pool)).toHaveLength(3);
    expect(token(other)).toBe(otherToken);
    expect(fs.statSync(lock).ino).not.toBe(fs.statSync(path.join(path.dirname(lock), 'fifth')).ino);
    fourth.release();
    fifth.release();
    third.release();
    expect(fs.existsSync(lock)).toBe(false);
    expect(fs.existsSync(other)).toBe(false);
  });

  it('breaks a killed rt’s lock linked from its draft at once, and sweeps its drafts', () => {
    const { dir, lock, pool } = root();
    const dead = deadPid();
    const held = path.join(pool, `lock.${dead}-abc123`);
    fs.writeFileSync(held, `${dead}@${os.hostname()}@1-abc`);
    fs.linkSync(held, lock);
    fs.writeFileSync(path.join(pool, `lock.${dead}-def456`), `${dead}@${os.hostname()}@2-def`);
    const live = `lock.${process.ppid}-abc123`;
    fs.writeFileSync(path.join(pool, live), `${process.ppid}@${os.hostname()}@3-ghi`);
    const t = Date.now();
    const taken = acquireLock(lock, 'f.txt', 1500, lock, undefined, pool);
    expect(Date.now() - t).toBeLessThan(1000);
    expect(token(lock).startsWith(`${process.pid}@`)).toBe(true);
    // The dead one's drafts are gone, the live one's kept, and this process's own is there.
    const left = drafts(pool);
    expect(left).toHaveLength(2);
    expect(left).toContain(live);
    expect(left.find((n) => n !== live)).toMatch(new RegExp(`^lock\\.${process.pid}-`));
    taken.release();
    expect(fs.readdirSync(dir).sort()).toEqual(['.rt']);
  });

  it('removes a draft an rt gone left, also one still linked as its lock (the lock stays, broken by its PID)', () => {
    const { dir, lock, pool } = root();
    const dead = deadPid();
    fs.writeFileSync(path.join(pool, `lock.${dead}-aaaaaa`), `${dead}@${os.hostname()}@1-a`);
    const linked = path.join(pool, `lock.${dead}-bbbbbb`);
    const heldByDead = path.join(dir, '.g.txt.rt-lock');
    fs.writeFileSync(linked, `${dead}@${os.hostname()}@2-b`);
    fs.linkSync(linked, heldByDead);
    const taken = acquireLock(lock, 'f.txt', 1000, lock, undefined, pool);
    expect(drafts(pool)).toEqual([expect.stringMatching(new RegExp(`^lock\\.${process.pid}-[0-9a-z]{6}$`))]);
    expect(fs.statSync(heldByDead).nlink).toBe(1);
    expect(token(heldByDead)).toBe(`${dead}@${os.hostname()}@2-b`);
    taken.release();
  });

  it('writes through nothing put in a free draft’s place: a symbolic link, a hard link, a FIFO', () => {
    const { lock, pool } = root();
    const victim = path.join(folder(), 'victim.txt');
    fs.writeFileSync(victim, 'the user’s text\n');
    acquireLock(lock, 'f.txt', 1000, lock, undefined, pool).release();
    const plants: Array<(at: string) => void> = [
      (at) => fs.symlinkSync(victim, at),
      (at) => fs.linkSync(victim, at),
      (at) => spawnSync('mkfifo', [at]),
    ];
    const planted = new Set<string>();
    for (const plant of plants) {
      const [draft] = drafts(pool).filter((n) => !planted.has(n));
      planted.add(draft!);
      const at = path.join(pool, draft!);
      fs.rmSync(at);
      plant(at);
      const taken = acquireLock(lock, 'f.txt', 1000, lock, undefined, pool);
      expect(token(lock).startsWith(`${process.pid}@`)).toBe(true);
      expect(fs.statSync(lock).ino).not.toBe(fs.statSync(victim).ino);
      taken.release();
      expect(fs.readFileSync(victim, 'utf8')).toBe('the user’s text\n');
      // What was planted stays as it is (in place of a draft of this process); the next acquisitions use a new draft.
      expect(drafts(pool)).toHaveLength(planted.size + 1);
    }
  });

  it('makes no draft through a link or file put in place of .rt/locks, and takes the lock as before', () => {
    for (const planted of ['link', 'file'] as const) {
      const { dir, lock, pool } = root();
      const elsewhere = folder();
      // Named as a draft of an rt gone: not swept nor taken through the link.
      const named = `lock.${deadPid()}-abc123`;
      fs.writeFileSync(path.join(elsewhere, named), 'the user’s\n');
      fs.rmdirSync(pool);
      if (planted === 'link') fs.symlinkSync(elsewhere, pool);
      else fs.writeFileSync(pool, 'x');
      const taken = acquireLock(lock, 'f.txt', 1000, lock, undefined, pool);
      expect(fs.statSync(lock).nlink).toBe(1);
      taken.release();
      expect(fs.readdirSync(elsewhere)).toEqual([named]);
      expect(fs.readFileSync(path.join(elsewhere, named), 'utf8')).toBe('the user’s\n');
      expect(fs.readdirSync(dir).sort()).toEqual(['.rt']);
    }
  });

  it('takes the lock with a draft beside it when the link from the pool fails (another file system)', () => {
    const { dir, lock, pool } = root();
    const link = fs.linkSync;
    const tried: string[] = [];
    vi.spyOn(fs, 'linkSync').mockImplementation((from, to) => {
      if (String(from).startsWith(pool + path.sep)) {
        tried.push(String(from));
        throw Object.assign(new Error('EXDEV: cross-device link not permitted'), { code: 'EXDEV' });
      }
      link(from, to);
    });
    const taken = acquireLock(lock, 'f.txt', 1000, lock, undefined, pool);
    expect(tried).toHaveLength(1);
    expect(fs.statSync(lock).nlink).toBe(1);
    expect(token(lock).startsWith(`${process.pid}@${os.hostname()}@`)).toBe(true);
    taken.release();
    expect(fs.readdirSync(dir).sort()).toEqual(['.rt']);
  });

  it('keeps a few free drafts: more, of many locks held at once, are removed at their release', () => {
    const { dir, pool } = root();
    const held = Array.from({ length: 12 }, (_, i) => {
      const lock = path.join(dir, `.f${i}.txt.rt-lock`);
      return acquireLock(lock, `f${i}.txt`, 1000, lock, undefined, pool);
    });
    expect(drafts(pool)).toHaveLength(12);
    for (const h of held) h.release();
    expect(drafts(pool)).toHaveLength(8);
    expect(fs.readdirSync(dir).sort()).toEqual(['.rt']);
  });
});

describe('the pool guarded', () => {
  it('makes no folder: without .rt/locks the lock is taken as before, and .rt is left as it was', () => {
    const dir = folder();
    fs.mkdirSync(path.join(dir, '.rt'));
    const lock = path.join(dir, '.f.txt.rt-lock');
    const taken = acquireLock(lock, 'f.txt', 1000, lock, undefined, lockPoolIn(path.join(dir, '.rt')));
    expect(fs.statSync(lock).nlink).toBe(1);
    taken.release();
    expect(fs.readdirSync(path.join(dir, '.rt'))).toEqual([]);
    expect(fs.readdirSync(dir)).toEqual(['.rt']);
  });

  it('never rewrites a draft still linked as a lock whose release could not unlink it', () => {
    const { dir, lock, pool } = root();
    const first = acquireLock(lock, 'f.txt', 1000, lock, undefined, pool);
    const firstToken = token(lock);
    const unlink = fs.unlinkSync;
    const spy = vi.spyOn(fs, 'unlinkSync').mockImplementationOnce(() => {
      throw Object.assign(new Error('EBUSY'), { code: 'EBUSY' });
    });
    first.release(); // the name stays: the draft goes back to the pool still linked as the lock
    spy.mockRestore();
    expect(fs.existsSync(lock)).toBe(true);
    const other = path.join(dir, '.g.txt.rt-lock');
    const second = acquireLock(other, 'g.txt', 1000, other, undefined, pool);
    expect(token(lock)).toBe(firstToken);
    expect(fs.statSync(other).ino).not.toBe(fs.statSync(lock).ino);
    second.release();
    unlink(lock);
  });

  it('gives a draft back once when a release is called twice: two later locks never share one inode', () => {
    const { dir, pool } = root();
    const a = path.join(dir, '.a.rt-lock');
    const first = acquireLock(a, 'a', 1000, a, undefined, pool);
    first.release();
    first.release();
    const b = path.join(dir, '.b.rt-lock');
    const c = path.join(dir, '.c.rt-lock');
    const lb = acquireLock(b, 'b', 1000, b, undefined, pool);
    const lc = acquireLock(c, 'c', 1000, c, undefined, pool);
    expect(fs.statSync(b).ino).not.toBe(fs.statSync(c).ino);
    expect(token(b)).not.toBe(token(c));
    lb.release();
    lc.release();
  });

  it('never writes a file put in place of a free draft, even one given the draft’s inode number', () => {
    const { lock, pool } = root();
    acquireLock(lock, 'f.txt', 1000, lock, undefined, pool).release();
    const [draft] = drafts(pool);
    const at = path.join(pool, draft!);
    // The draft is held open, so its number cannot be given to the file made in its place; were it
    // let go, ext4 would give the freed number to the next file made, almost always at once.
    fs.rmSync(at);
    fs.writeFileSync(at, 'the user’s own\n');
    const taken = acquireLock(lock, 'f.txt', 1000, lock, undefined, pool);
    expect(fs.readFileSync(at, 'utf8')).toBe('the user’s own\n');
    expect(fs.statSync(lock).ino).not.toBe(fs.statSync(at).ino);
    taken.release();
  });

  it('makes nothing through a link put in place of .rt', () => {
    const dir = folder();
    const outside = folder();
    fs.mkdirSync(path.join(outside, 'locks'));
    fs.symlinkSync(outside, path.join(dir, '.rt'));
    const lock = path.join(dir, '.f.txt.rt-lock');
    const taken = acquireLock(lock, 'f.txt', 1000, lock, undefined, lockPoolIn(path.join(dir, '.rt')));
    taken.release();
    expect(fs.readdirSync(path.join(outside, 'locks'))).toEqual([]);
  });
});

describe('the pool bounded', () => {
  const openFiles = () => fs.readdirSync('/proc/self/fd').length;

  it.runIf(fs.existsSync('/proc/self/fd'))(
    'holds 64 drafts open at most: more locks at once take new drafts beside them, and a release lets go all but 8',
    () => {
      const { dir, pool } = root();
      const before = openFiles();
      const held = Array.from({ length: 70 }, (_, i) => {
        const lock = path.join(dir, `.f${i}.rt-lock`);
        return acquireLock(lock, `f${i}`, 1000, lock, undefined, pool);
      });
      expect(drafts(pool)).toHaveLength(64);
      expect(openFiles() - before).toBeLessThanOrEqual(64);
      for (const lock of held) lock.release();
      expect(fs.readdirSync(dir).sort()).toEqual(['.rt']);
      expect(drafts(pool)).toHaveLength(8);
      expect(openFiles() - before).toBeLessThanOrEqual(8);
    },
  );

  it('never writes a file put at a free draft’s name while the draft is still linked elsewhere', () => {
    const { dir, lock, pool } = root();
    acquireLock(lock, 'f.txt', 1000, lock, undefined, pool).release();
    const [draft] = drafts(pool);
    const at = path.join(pool, draft!);
    const kept = path.join(dir, 'kept');
    fs.linkSync(at, kept);
    const was = fs.readFileSync(kept, 'utf8');
    fs.rmSync(at);
    fs.writeFileSync(at, 'the user’s own\n');
    const taken = acquireLock(lock, 'f.txt', 1000, lock, undefined, pool);
    expect(fs.readFileSync(at, 'utf8')).toBe('the user’s own\n');
    expect(fs.readFileSync(kept, 'utf8')).toBe(was);
    expect(fs.statSync(lock).ino).not.toBe(fs.statSync(at).ino);
    expect(fs.statSync(lock).ino).not.toBe(fs.statSync(kept).ino);
    taken.release();
  });
});
