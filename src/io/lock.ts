// A per-file lock so that concurrent rt processes editing one file take turns: the second waits,
// then reads the first one's result and resolves its anchors against it (SPEC §4).
//
// The lock is a file created exclusively (O_EXCL) holding the owner's pid. A lock whose owner is
// no longer running (killed mid-edit) is broken at once, instead of after a timeout as with
// mtime-based locks: a killed rt must not stall the next one. Breaking is itself guarded by an
// exclusive "breaker" file, so two waiters cannot both break a lock and then both take it.

import fs from 'node:fs';
import os from 'node:os';
import { RtError } from '../core/errors.js';
import { isRunning } from './processes.js';

const WAIT_MS = 30_000;
const BREAKER_STALE_MS = 10_000;

export interface Lock {
  release(): void;
}

export function acquireLock(lockPath: string, what: string, waitMs = WAIT_MS): Lock {
  const deadline = Date.now() + waitMs;
  const token = `${process.pid}@${os.hostname()}@${Date.now()}-${Math.random().toString(36).slice(2)}`;
  for (let attempt = 0; ; attempt++) {
    try {
      takeLock(lockPath, token);
      return {
        release() {
          try {
            if (fs.readFileSync(lockPath, 'utf8') === token) fs.unlinkSync(lockPath);
          } catch {
            // Already gone: nothing to release.
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new RtError('access', `cannot lock ${what}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, ['check the permissions of the folder']);
      }
    }
    if (breakIfAbandoned(lockPath)) continue;
    if (Date.now() > deadline) {
      throw new RtError('access', `${what} is locked by another rt process (${ownerOf(lockPath)}) for over ${waitMs / 1000}s`, [`if no rt is running, remove ${lockPath}`]);
    }
    sleep(Math.min(2 + attempt * 2, 50));
  }
}

/**
 * Creates the lock file with its owner already in it: written under a private name, then hard
 * linked into place (link fails if the lock exists), so no lock file is ever seen empty.
 */
function takeLock(lockPath: string, token: string): void {
  const draft = `${lockPath}.${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  fs.writeFileSync(draft, token, { flag: 'wx' });
  try {
    fs.linkSync(draft, lockPath);
  } finally {
    fs.rmSync(draft, { force: true });
  }
}

function ownerOf(lockPath: string): string {
  try {
    const pid = fs.readFileSync(lockPath, 'utf8').split('@')[0];
    return pid ? `pid ${pid}` : 'owner unknown';
  } catch {
    return 'gone now';
  }
}

/** A lock file without an owner (empty, garbled) older than this was not written by a live rt. */
const OWNERLESS_STALE_MS = 2000;

/** Removes the lock if its owner is a process of this machine that is no longer running. */
function breakIfAbandoned(lockPath: string): boolean {
  const owner = readOwner(lockPath) ?? ownerlessStale(lockPath);
  if (!owner || owner.host !== os.hostname() || isRunning(owner.pid)) return false;
  const breaker = `${lockPath}.break`;
  try {
    fs.writeFileSync(breaker, String(process.pid), { flag: 'wx' });
  } catch {
    // Someone else is breaking it; a breaker left by a killed process expires.
    try {
      if (Date.now() - fs.statSync(breaker).mtimeMs > BREAKER_STALE_MS) fs.unlinkSync(breaker);
    } catch {
      // gone already
    }
    return false;
  }
  try {
    // Still the same abandoned lock (not one a live process has taken meanwhile)?
    if (rawToken(lockPath) !== owner.token) return false;
    fs.unlinkSync(lockPath);
    return true;
  } catch {
    return false;
  } finally {
    fs.rmSync(breaker, { force: true });
  }
}

function rawToken(lockPath: string): string | undefined {
  try {
    return fs.readFileSync(lockPath, 'utf8');
  } catch {
    return undefined;
  }
}

/** A lock file with no readable owner, old enough to be abandoned: treated as owned by a dead process. */
function ownerlessStale(lockPath: string): { pid: number; host: string; token: string } | undefined {
  try {
    const token = fs.readFileSync(lockPath, 'utf8');
    if (Date.now() - fs.statSync(lockPath).mtimeMs < OWNERLESS_STALE_MS) return undefined;
    return { pid: 0x7fffffff, host: os.hostname(), token };
  } catch {
    return undefined;
  }
}

function readOwner(lockPath: string): { pid: number; host: string; token: string } | undefined {
  try {
    const token = fs.readFileSync(lockPath, 'utf8');
    const [pid, host] = token.split('@');
    const n = Number(pid);
    // A lock file caught half-written has no pid yet: treat it as held.
    return Number.isInteger(n) && n > 0 && host ? { pid: n, host, token } : undefined;
  } catch {
    return undefined;
  }
}


const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleep(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}
