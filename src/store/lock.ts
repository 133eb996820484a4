// A per-file lock so that concurrent rt processes editing one file take turns: the second waits,
// then reads the first one's result and resolves its anchors against it (see All or nothing).
//
// The lock is a file created exclusively (O_EXCL) holding the owner's pid. A lock whose owner is
// no longer running (killed mid-edit) is broken at once, instead of after a timeout as with
// mtime-based locks: a killed rt must not stall the next one. Breaking is itself guarded by an
// exclusive "breaker" file, so two waiters cannot both break a lock and then both take it.
//
// Making a file is the dear part of taking a lock (a new inode: far more than the link), so a
// lock of a root with a state folder is linked from a draft kept for reuse in `.rt/locks/` (see
// DraftPool): the draft's token is written again in place for each acquisition, which gives it a
// fresh token and mtime, then it is linked to the lock's name; the release unlinks that name only.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RtError, shellQuote } from '../model/errors.js';
import { readPlainFile } from './plainFile.js';
import { isRunning, removeLeftovers, tempMark } from '../io/processes.js';

const WAIT_MS = 30_000;
const BREAKER_STALE_MS = 10_000;
/** A token is some 60 bytes: a lock file larger than this is no rt's. */
const TOKEN_LIMIT = 1024;

/**
 * A lock file's token, read as a regular file only (see readPlainFile): anything else in its
 * place (a link, a FIFO, a folder) reads as no token, and is never followed nor waited on. Of a
 * larger file, only the first TOKEN_LIMIT bytes: no owner in them, it is broken as a garbled
 * lock is.
 */
function readToken(lockPath: string): string | undefined {
  return readPlainFile(lockPath, TOKEN_LIMIT, true)?.toString('utf8');
}

/** What is at `lockPath` when it is something else than a regular file (undefined: a file, or nothing). */
function notALockFile(lockPath: string): string | undefined {
  try {
    const st = fs.lstatSync(lockPath);
    if (st.isFile()) return undefined;
    return st.isSymbolicLink()
      ? 'a symbolic link'
      : st.isDirectory()
        ? 'a folder'
        : st.isFIFO()
          ? 'a FIFO'
          : 'no regular file';
  } catch {
    return undefined;
  }
}

export interface Lock {
  release(): void;
}

/**
 * Takes the lock at `lockPath`, waiting up to `waitMs` for another rt to release it. `shown` is
 * how messages name it (lockPath may be relative to a folder rt entered).
 */
export function acquireLock(
  lockPath: string,
  what: string,
  waitMs = WAIT_MS,
  shown = lockPath,
  /** A lock older than this is broken whoever holds it (a lock held only briefly, as the pack's: see pack.ts). */
  staleMs?: number,
  /** The folder of rt's own (`.rt/locks`, see lockPoolIn) whose drafts the lock is linked from; none: a new draft. */
  pool?: string,
): Lock {
  const deadline = Date.now() + waitMs;
  const token = `${process.pid}@${os.hostname()}@${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const drafts = pool === undefined ? undefined : poolAt(pool);
  for (let attempt = 0; ; attempt++) {
    try {
      let draft = drafts?.link(lockPath, token);
      if (!draft) takeLock(lockPath, token);
      return {
        release() {
          try {
            if (readToken(lockPath) === token) fs.unlinkSync(lockPath);
          } catch {
            // Already gone: nothing to release.
          } finally {
            // Unlinked from the lock's name (or broken, by name too): the draft is free again, once.
            if (draft) drafts!.giveBack(draft);
            draft = undefined;
          }
        },
      };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') {
        const hint =
          code === 'ENAMETOOLONG'
            ? 'the name is too long for the lock file rt makes beside it (255 bytes at most, with the ' +
              'some 25 bytes rt adds): give it a shorter name'
            : 'check the permissions of the folder';
        throw new RtError('access', `cannot lock ${what}: ${code ?? String(error)}`, [hint]);
      }
    }
    // rt's locks (and the files that break them) are regular files: anything else there was not
    // made by rt, and waiting would not end it.
    for (const suffix of ['', '.break']) {
      const planted = notALockFile(lockPath + suffix);
      if (planted)
        throw new RtError('access', `cannot lock ${what}: ${shown + suffix} is ${planted}, not a lock rt made`, [
          `remove it, if no rt is running: rm -r ${shellQuote(shown + suffix)}`,
        ]);
    }
    if (breakIfAbandoned(lockPath, staleMs)) continue;
    if (Date.now() > deadline) {
      throw new RtError(
        'access',
        `${what} is locked by another rt process (${ownerOf(lockPath)}) for over ${waitMs / 1000}s`,
        [`if no rt is running, remove ${shown}`],
      );
    }
    sleep(Math.min(2 + attempt * 2, 50));
  }
}

/**
 * Creates the lock file with its owner already in it: written under a private name, then hard
 * linked into place (link fails if the lock exists), so no lock file is ever seen empty.
 * `lockPath` is the lock the file is for: the draft is named after it (see draftOf), also when
 * the file made is its breaker.
 */
function takeLock(lockPath: string, token: string, file = lockPath): void {
  const draft = draftOf(lockPath);
  fs.writeFileSync(draft, token, { flag: 'wx' });
  try {
    fs.linkSync(draft, file);
  } finally {
    fs.rmSync(draft, { force: true });
  }
}

/** The folder of drafts kept for reuse for the locks of the root whose state folder (`.rt`) is `stateDir`. */
export function lockPoolIn(stateDir: string): string {
  return path.join(stateDir, 'locks');
}

/**
 * A pool's draft: its path, and the file rt made there (a file put in its place is not it), held
 * open as long as the pool keeps it: its inode cannot be given to a file made in its place.
 */
interface Draft {
  readonly file: string;
  readonly fd: number;
  readonly dev: number;
  readonly ino: number;
}

/** The prefix of a pool's drafts: `lock.PID-XXXXXX`, swept as leftovers once their rt is gone. */
const DRAFT = 'lock.';
/** Free drafts kept at most, a pool: more (a batch locking many files at once) are removed at release. */
const POOL_KEEP = 8;
/**
 * Drafts a pool holds at most, each open (see Draft): a batch locking more files at once takes the
 * rest of its locks with a new draft beside each, as before, never a descriptor a file.
 */
const POOL_MOST = 64;
/** A long-lived rt sweeps a pool for drafts of rt processes gone at most this often. */
const SWEEP_EVERY_MS = 60_000;
const WRITE_DRAFT = fs.constants.O_WRONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;

/**
 * The drafts this process keeps in one folder of rt's state (`.rt/locks`), free ones for reuse.
 * Each is a regular file rt made there under its PID's mark (see tempMark), linked as at most one
 * lock at a time, and removed as the process exits; a killed rt's are removed by the next rt's
 * sweep of the folder, as leftovers.
 * Anything unexpected (the folder missing or a link, a draft replaced, linked elsewhere, a link
 * that fails: another file system, EPERM) falls back to a new draft beside the lock, as before.
 */
class DraftPool {
  private readonly free: Draft[] = [];
  /** Every draft this process made here and may still hold: removed when it exits (see removeDrafts). */
  readonly made = new Set<Draft>();
  private sweptAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly dir: string) {}

  /**
   * The lock at `lockPath` taken with `token` through a draft of the pool: the draft; undefined
   * when the pool cannot give one (the lock is then taken without it). Throws EEXIST when held.
   */
  link(lockPath: string, token: string): Draft | undefined {
    // A name with no room for a draft beside it is refused as before (its breakers are drafted there).
    if (Buffer.byteLength(path.basename(lockPath)) + String(process.pid).length + 8 > 255) return undefined;
    const now = Date.now();
    if (now - this.sweptAt >= SWEEP_EVERY_MS) {
      this.sweptAt = now;
      // Never through a link put in place of the folder (nor of .rt).
      if (this.plainFolder()) removeLeftovers(this.dir, [DRAFT]);
    }
    let draft: Draft | undefined;
    // One that is no longer the file rt made there is left as it is, and forgotten.
    while ((draft = this.free.pop()) && !rewrite(draft, token)) this.forget(draft);
    if (!draft && this.made.size >= POOL_MOST) return undefined;
    draft ??= this.make(token);
    if (!draft) return undefined;
    try {
      fs.linkSync(draft.file, lockPath);
      return draft;
    } catch (error) {
      this.free.push(draft);
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw error;
      return undefined;
    }
  }

  giveBack(draft: Draft): void {
    if (this.free.length < POOL_KEEP) this.free.push(draft);
    else this.remove(draft);
  }

  /** Removes the draft's name if it is still the file rt made there (never one put in its place), and lets it go. */
  remove(draft: Draft): void {
    try {
      const st = fs.lstatSync(draft.file);
      if (st.isFile() && st.ino === draft.ino && st.dev === draft.dev) fs.unlinkSync(draft.file);
    } catch {
      // Gone already.
    }
    this.forget(draft);
  }

  /** Lets the draft go without touching its name (what is there may no longer be it). */
  forget(draft: Draft): void {
    this.made.delete(draft);
    try {
      fs.closeSync(draft.fd);
    } catch {
      // Closed already.
    }
  }

  /**
   * Whether the pool's folder and `.rt` are plain folders (lstat: not links). The pool's folder is
   * made by the state's first save (see StateStore.flush), never by a lock: a refused command
   * leaves `.rt/` as it was. Never throws.
   */
  private plainFolder(): boolean {
    try {
      return fs.lstatSync(path.dirname(this.dir)).isDirectory() && fs.lstatSync(this.dir).isDirectory();
    } catch {
      return false;
    }
  }

  /** A new draft holding `token`, made in the pool's folder; undefined when it or `.rt` is no plain folder. */
  private make(token: string): Draft | undefined {
    let fd: number;
    const file = path.join(this.dir, `${DRAFT}${tempMark()}`);
    try {
      if (!this.plainFolder()) return undefined;
      fd = fs.openSync(file, WRITE_DRAFT | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o666);
    } catch {
      return undefined;
    }
    try {
      fs.writeSync(fd, token);
      const st = fs.fstatSync(fd);
      const draft = { file, fd, dev: st.dev, ino: st.ino };
      this.made.add(draft);
      return draft;
    } catch {
      fs.closeSync(fd);
      fs.rmSync(file, { force: true });
      return undefined;
    }
  }
}

/**
 * Writes `token` in place of the free draft's, through the descriptor it was made with (a write
 * gives it a fresh mtime, the lock's age); false, with nothing written, when its name no longer
 * leads to it (removed, a link, FIFO or file put in its place: its inode, held open, cannot be
 * another file's) or it is still linked under another name.
 */
function rewrite(draft: Draft, token: string): boolean {
  try {
    const own = fs.fstatSync(draft.fd);
    if (own.nlink !== 1) return false;
    const there = fs.lstatSync(draft.file, { throwIfNoEntry: false });
    if (!there?.isFile() || there.ino !== draft.ino || there.dev !== draft.dev) return false;
    const bytes = Buffer.from(token);
    fs.writeSync(draft.fd, bytes, 0, bytes.length, 0);
    fs.ftruncateSync(draft.fd, bytes.length);
    return true;
  } catch {
    return false;
  }
}

const pools = new Map<string, DraftPool>();

function poolAt(dir: string): DraftPool {
  let pool = pools.get(dir);
  if (!pool) {
    if (pools.size === 0) process.once('exit', removeDrafts);
    pools.set(dir, (pool = new DraftPool(dir)));
  }
  return pool;
}

/**
 * Removes this process's drafts as it exits: a command leaves `.rt/locks` as it found it (a refused
 * one writes nothing), and a long-lived rt's are gone with it. A killed rt's are swept by the next.
 */
function removeDrafts(): void {
  for (const pool of pools.values()) for (const draft of pool.made) pool.remove(draft);
}

/**
 * A private name beside the lock at `lockPath`, for a draft of it or of its breaker, or a breaker
 * set aside: NAME.PID-XXXXXX, within the room rt keeps beside a file's name for it (NAME_ROOM in
 * store/fileChanges.ts); a longer one (NAME.break.PID-XXXXXX) would not fit beside the longest names rt
 * edits, and their abandoned locks could never be broken.
 */
function draftOf(lockPath: string): string {
  return `${lockPath}.${tempMark()}`;
}

function ownerOf(lockPath: string): string {
  const token = readToken(lockPath);
  if (token === undefined) return fs.existsSync(lockPath) ? 'owner unknown' : 'gone now';
  const pid = token.split('@')[0]!;
  return /^\d+$/.test(pid) ? `pid ${pid}` : 'owner unknown';
}

/** A lock file without an owner (empty, garbled) older than this was not written by a live rt. */
const OWNERLESS_STALE_MS = 2000;

/** Removes the lock if its owner is a process of this machine that is no longer running. */
function breakIfAbandoned(lockPath: string, staleMs?: number): boolean {
  const owner = readOwner(lockPath) ?? ownerlessStale(lockPath);
  if (!owner) return false;
  // Held past staleMs: whoever holds it (a PID used again by another program, another host's rt killed) is not saving.
  const expired = staleMs !== undefined && Date.now() - mtimeOf(lockPath) > staleMs;
  if (!expired && (owner.host !== os.hostname() || isRunning(owner.pid))) return false;
  const breaker = `${lockPath}.break`;
  try {
    // Made as a lock is, with its owner already in it: a kill between creating it and writing
    // the pid would leave an empty breaker, which no one could judge abandoned for a while.
    takeLock(lockPath, String(process.pid), breaker);
  } catch {
    // Someone else is breaking it; a breaker left by a killed process goes at once (its owner is
    // gone), else when it expires.
    removeAbandonedBreaker(lockPath);
    return false;
  }
  try {
    // Still the same abandoned lock (not one a live process has taken meanwhile)?
    if (readToken(lockPath) !== owner.token) return false;
    fs.unlinkSync(lockPath);
    return true;
  } catch {
    return false;
  } finally {
    fs.rmSync(breaker, { force: true });
  }
}

/**
 * Removes the breaker of the lock at `lockPath` if the rt that made it no longer runs (or it is
 * older than BREAKER_STALE_MS): a kill while breaking a lock must not stall the next writer, nor
 * stay. The file judged is first renamed aside and judged again there, so that a live rt's
 * breaker put in its place meanwhile is never the one removed (it is put back).
 */
export function removeAbandonedBreaker(lockPath: string): void {
  const breaker = `${lockPath}.break`;
  if (!abandonedBreaker(breaker)) return;
  const aside = draftOf(lockPath); // a lock draft's name: a leftover of it is removed as one
  try {
    fs.renameSync(breaker, aside);
  } catch {
    return; // gone already
  }
  try {
    if (!abandonedBreaker(aside)) fs.linkSync(aside, breaker); // a live one: back in its place
  } catch {
    // Another breaker took the place meanwhile: that one stands.
  } finally {
    fs.rmSync(aside, { force: true });
  }
}

function abandonedBreaker(file: string): boolean {
  try {
    const st = fs.lstatSync(file);
    if (!st.isFile()) return false;
    const text = readPlainFile(file, 32)?.toString('utf8').trim() ?? '';
    const pid = Number(text);
    const age = Date.now() - st.mtimeMs;
    // No pid in it (an older rt's breaker caught before its write): judged as an ownerless lock is.
    if (!/^\d+$/.test(text) || pid <= 0) return age > OWNERLESS_STALE_MS;
    return (pid !== process.pid && !isRunning(pid)) || age > BREAKER_STALE_MS;
  } catch {
    return false;
  }
}

/**
 * Removes what killed rt processes left of the lock at `lockPath` while it is not held by them:
 * drafts of the lock or its breaker, breakers set aside (`NAME.PID-XXXXXX`, see draftOf and
 * removeLeftovers; `NAME.break.PID-XXXXXX` as older rts named the last two), and an abandoned
 * breaker, which a kill after breaking a lock but before removing the breaker leaves with no lock
 * for acquireLock to find; with them, the files of the lock's folder named by one of `temps` and
 * a PID mark (the temporary files of what the lock guards), in the same one reading of the folder.
 * Housekeeping: it never fails.
 */
export function removeLockLeftovers(lockPath: string, temps: readonly string[] = []): void {
  const base = path.basename(lockPath);
  removeLeftovers(path.dirname(lockPath), [...temps, `${base}.`, `${base}.break.`]);
  removeAbandonedBreaker(lockPath);
}

/** A lock file with no readable owner, old enough to be abandoned: treated as owned by a dead process. */
function ownerlessStale(lockPath: string): { pid: number; host: string; token: string } | undefined {
  try {
    const token = readToken(lockPath);
    if (token === undefined || Date.now() - fs.lstatSync(lockPath).mtimeMs < OWNERLESS_STALE_MS) return undefined;
    return { pid: 0x7fffffff, host: os.hostname(), token };
  } catch {
    return undefined;
  }
}

function readOwner(lockPath: string): { pid: number; host: string; token: string } | undefined {
  try {
    const token = readToken(lockPath);
    if (token === undefined) return undefined;
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

/** The lock file's mtime (ms), or now when it cannot be read (then it is never judged expired). */
function mtimeOf(lockPath: string): number {
  try {
    return fs.lstatSync(lockPath).mtimeMs;
  } catch {
    return Date.now();
  }
}
