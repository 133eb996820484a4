// What a killed rt leaves of a lock is judged and removed by the next one, quickly: an abandoned
// lock with a breaker caught before its pid was written (the CI failure of stop 29: the history's
// lock stayed held for its whole 5 s wait), and a breaker left after the lock it broke was gone.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireLock, removeLockLeftovers } from '../../src/store/lock.js';
import { tempFolders } from '../support/tempFolders.js';

const folder = tempFolders('rt-lock-');

/** The PID of a process that has ended. */
const deadPid = (): number => spawnSync('true').pid!;

const age = (file: string, ms: number) => {
  const t = new Date(Date.now() - ms);
  fs.utimesSync(file, t, t);
};

describe('locks left by a killed rt', () => {
  it(
    'breaks an abandoned lock whose breaker is empty (killed ' +
      'between creating and writing it) once the breaker is 2 s old',
    () => {
      const dir = folder();
      const lock = path.join(dir, '.steps.rt-lock');
      fs.writeFileSync(lock, `${deadPid()}@${os.hostname()}@1-abc`);
      fs.writeFileSync(`${lock}.break`, '');
      age(`${lock}.break`, 3000);
      // Waiting instead of breaking it would refuse after the 1.5 s given.
      const held = acquireLock(lock, 'the history', 1500);
      held.release();
      expect(fs.readdirSync(dir)).toEqual([]);
    },
  );

  it('still waits on an empty breaker younger than that (a live rt may be writing it)', () => {
    const dir = folder();
    const lock = path.join(dir, '.steps.rt-lock');
    fs.writeFileSync(lock, `${deadPid()}@${os.hostname()}@1-abc`);
    fs.writeFileSync(`${lock}.break`, '');
    expect(() => acquireLock(lock, 'the history', 300)).toThrow(/locked by another rt process/);
  });

  it('never leaves its own breaker, nor drafts of it', () => {
    const dir = folder();
    const lock = path.join(dir, 'x.rt-lock');
    for (let i = 0; i < 20; i++) {
      fs.writeFileSync(lock, `${deadPid()}@${os.hostname()}@1-abc`);
      acquireLock(lock, 'x', 2000).release();
    }
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it(
    'removes a breaker of a dead rt with no lock left, and the drafts ' +
      'and asides of dead rts, but nothing of a live one or of the user',
    () => {
      const dir = folder();
      const lock = path.join(dir, '.f.txt.rt-lock');
      const dead = deadPid();
      const names = {
        gone: [`.f.txt.rt-lock.break`, `.f.txt.rt-lock.${dead}-abc123`, `.f.txt.rt-lock.break.${dead}-abc123`],
        kept: [
          `.f.txt.rt-lock.${process.ppid}-abc123`,
          `.f.txt.rt-lock.break.${process.ppid}-abc123`,
          `.f.txt.rt-lock.breakx.${dead}-abc123`,
          `.f.txt.rt-lock.notes`,
        ],
      };
      fs.writeFileSync(path.join(dir, names.gone[0]!), String(dead));
      for (const n of [...names.gone.slice(1), ...names.kept]) fs.writeFileSync(path.join(dir, n), 'x');
      removeLockLeftovers(lock);
      expect(fs.readdirSync(dir).sort()).toEqual([...names.kept].sort());
    },
  );

  it('keeps the breaker of a live rt', () => {
    const dir = folder();
    const lock = path.join(dir, '.f.txt.rt-lock');
    fs.writeFileSync(`${lock}.break`, String(process.ppid));
    removeLockLeftovers(lock);
    expect(fs.existsSync(`${lock}.break`)).toBe(true);
  });
});

describe('locks of the longest names rt edits', () => {
  // rt edits names of up to 255 - 24 bytes (NAME_ROOM in store/fileChanges.ts): the lock's draft,
  // .NAME.rt-lock.PID-XXXXXX, just fits beside them. The breaker's draft and a breaker set aside
  // must fit too, or an abandoned lock of such a file could never be broken.
  const longest = 'a'.repeat(255 - 24);

  it('breaks an abandoned lock of such a file', () => {
    const dir = folder();
    const lock = path.join(dir, `.${longest}.rt-lock`);
    fs.writeFileSync(lock, `${deadPid()}@${os.hostname()}@1-abc`);
    acquireLock(lock, 'x', 1500).release();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('removes an abandoned breaker of such a file (set aside first)', () => {
    const dir = folder();
    const lock = path.join(dir, `.${longest}.rt-lock`);
    fs.writeFileSync(`${lock}.break`, String(deadPid()));
    removeLockLeftovers(lock);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
