// Committing a batch of file writes all or nothing, even when rt is killed (SPEC §7).
//
// 1. A draft journal names every file the batch writes or removes and the temporary file that
//    holds each new content, beside its target (so the final rename is atomic).
// 2. The new contents are written to those temporary files and flushed to disk, with their folders.
// 3. The draft is renamed to the journal, and its folder flushed: the commit point.
// 4. Each temporary file is renamed over its target (or the target removed).
// 5. The journal is removed.
//
// Killed before 3, nothing was replaced: the next rt removes the temporary files and the draft.
// Killed after 3, every new content is on disk: the next rt command in that root finishes the
// batch (recoverBatches) before anything else, and says so. A batch of one file needs no journal:
// its rename alone is the commit.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RtError } from '../core/errors.js';
import { hashString } from '../core/hash.js';
import { isInside } from './inside.js';
import { acquireLock, type Lock } from './lock.js';
import { isRunning } from './processes.js';
import { STATE_DIR } from './state.js';
import { inFolder } from './pinnedFolder.js';
import { checkUnchanged, moveIntoPlace, replaceFile, syncDir, writeTemp, type FileVersion } from './writeFile.js';

const FORMAT = 'rt-journal';
const VERSION = 1;
/** Temporary files of a batch are named `.NAME.rt-batch-ID`: not a leftover other rt processes remove. */
const BATCH_MARK = '.rt-batch-';

/** One file a batch writes or removes. */
export interface FileWrite {
  /** Absolute real path. */
  readonly abs: string;
  /** As messages name it. */
  readonly display: string;
  /** The new content in consecutive parts; null removes the file. */
  readonly data: readonly Buffer[] | null;
  /** The version read (the file must still be it), or undefined for a file that must not exist (unless `overwrite`). */
  readonly expected: FileVersion | undefined;
  readonly overwrite?: boolean;
}

interface Entry {
  readonly abs: string;
  readonly display: string;
  /** The temporary file holding the new content; null for a removal. */
  readonly temp: string | null;
  readonly expected: FileVersion | null;
  readonly overwrite: boolean;
}

interface JournalDoc {
  readonly format: string;
  readonly version: number;
  readonly owner: { readonly pid: number; readonly host: string };
  readonly command: string;
  readonly entries: readonly Entry[];
}

/**
 * Where the journals of the root `rootDir` live: its `.rt/journal/`, or, when state is not kept
 * there (RT_STATE=off, a root rt cannot write), a folder of the system's temporary folder named
 * after the root and the user, so that a batch is crash-safe all the same.
 */
export function journalDir(rootDir: string, stateKept: boolean): string {
  if (stateKept) return path.join(rootDir, STATE_DIR, 'journal');
  return path.join(os.tmpdir(), `rt-journal-${process.getuid?.() ?? 'user'}-${hashString(rootDir)}`);
}

/**
 * Whether `dir` is a journal folder rt may trust: a folder (not a link, nor under one) of this
 * user's. Anything else — planted in a shared temporary folder, or a link in .rt/ — is never
 * written to nor acted on.
 */
function trustedFolder(dir: string): boolean {
  try {
    const st = fs.lstatSync(dir);
    return st.isDirectory() && (process.getuid === undefined || st.uid === process.getuid()) && fs.realpathSync.native(dir) === dir;
  } catch {
    return false;
  }
}

/** Makes the journal folder `dir` (its parent exists) and checks it is one rt may trust. */
function ensureJournalFolder(dir: string): void {
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  if (!trustedFolder(dir)) {
    throw new RtError('access', `cannot keep the journal of this batch: ${dir} is not a plain folder of yours; nothing was written`, [`remove it if no rt is running (rm -r ${dir}), then run the command again`]);
  }
}

/**
 * Writes every file of `writes` (which the caller holds the locks of), all or nothing: a
 * refusal or failure before the commit point leaves every file as it was; after it, the batch
 * completes, here or in the next rt command.
 */
export function commitWrites(dir: string, command: string, writes: readonly FileWrite[]): void {
  if (writes.length === 0) return;
  if (writes.length === 1) {
    // One file: its rename is the commit, and its temporary file is one any rt removes when left.
    const only = writes[0]!;
    if (only.data === null) return removeTarget({ abs: only.abs, display: only.display, expected: only.expected ?? null });
    return replaceFile(only.abs, only.data, only.expected, only.display, only.overwrite === true);
  }
  const id = `${Date.now().toString(36)}-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  const entries: Entry[] = writes.map((w) => ({ abs: w.abs, display: w.display, temp: w.data === null ? null : tempNameFor(w.abs, id), expected: w.expected ?? null, overwrite: w.overwrite === true }));
  const doc: JournalDoc = { format: FORMAT, version: VERSION, owner: { pid: process.pid, host: os.hostname() }, command, entries };
  const draft = path.join(dir, `${id}.draft`);
  const journal = path.join(dir, `${id}.json`);
  try {
    ensureJournalFolder(dir);
    fs.writeFileSync(draft, JSON.stringify(doc), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if (error instanceof RtError) throw error;
    throw new RtError('access', `cannot write the journal of this batch in ${dir}: ${(error as NodeJS.ErrnoException).code ?? String(error)}; nothing was written`, ['check the permissions of the root and its .rt folder, or set RT_STATE=off to keep the journal in the system\'s temporary folder']);
  }
  let committed = false;
  try {
    const folders = new Set<string>();
    writes.forEach((w, i) => {
      const temp = entries[i]!.temp;
      if (temp === null || w.data === null) return;
      writeTemp(w.abs, w.data, w.display, temp);
      folders.add(path.dirname(w.abs));
    });
    for (const folder of folders) syncDir(folder);
    // Every target still the version read, before the point of no return.
    for (const w of writes) checkUnchanged(w.abs, w.expected, w.display, w.overwrite === true);
    fs.renameSync(draft, journal);
    syncDir(dir);
    committed = true;
  } catch (error) {
    if (!committed) {
      for (const e of entries) if (e.temp) fs.rmSync(e.temp, { force: true });
      fs.rmSync(draft, { force: true });
      removeIfEmpty(dir);
    }
    throw error;
  }
  finish(entries, () => undefined);
  fs.rmSync(journal, { force: true });
  removeIfEmpty(dir);
}

/** Replaces (or removes) each target of a committed batch; an entry already done, or whose target changed since, is skipped (told through `skipped`). */
function finish(entries: readonly Entry[], skipped: (entry: Entry, why: string) => void): void {
  const folders = new Set<string>();
  for (const entry of entries) {
    folders.add(path.dirname(entry.abs));
    if (entry.temp === null) {
      removeTarget(entry, skipped);
      continue;
    }
    if (!fs.existsSync(entry.temp)) continue; // renamed already
    if (!stillExpected(entry)) {
      fs.rmSync(entry.temp, { force: true });
      skipped(entry, 'it changed after the batch began');
      continue;
    }
    moveIntoPlace(entry.temp, entry.abs, false);
  }
  for (const folder of folders) syncDir(folder);
}

function removeTarget(entry: Pick<Entry, 'abs' | 'display' | 'expected'>, skipped?: (entry: Entry, why: string) => void): void {
  const st = fs.lstatSync(entry.abs, { throwIfNoEntry: false });
  if (!st) return; // removed already
  if (skipped) {
    if (!stillExpected({ ...entry, temp: null, overwrite: false })) return skipped({ ...entry, temp: null, overwrite: false }, 'it changed after the batch began');
  } else {
    checkUnchanged(entry.abs, entry.expected ?? undefined, entry.display, false);
  }
  try {
    fs.unlinkSync(entry.abs);
  } catch (error) {
    throw new RtError('access', `cannot remove ${entry.display}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, [`check the permissions of ${path.dirname(entry.display) || '.'}`]);
  }
  if (!skipped) syncDir(path.dirname(entry.abs));
}

/** Whether the target is still as the batch found it (the version read, or absent). */
function stillExpected(entry: Entry): boolean {
  const st = fs.lstatSync(entry.abs, { throwIfNoEntry: false });
  if (entry.expected === null) return !st || entry.overwrite;
  return st !== undefined && st.isFile() && st.size === entry.expected.size && st.mtimeMs === entry.expected.mtimeMs && st.ctimeMs === entry.expected.ctimeMs && st.ino === entry.expected.ino;
}

function tempNameFor(abs: string, id: string): string {
  return path.join(path.dirname(abs), `.${path.basename(abs)}${BATCH_MARK}${id}`);
}

function removeIfEmpty(dir: string): void {
  try {
    fs.rmdirSync(dir);
  } catch {
    // Not empty (another batch), or gone.
  }
}

/**
 * Finishes every batch a killed rt left in the journal folder `dir`, before the command runs:
 * a committed one is completed, a draft one undone (its temporary files removed). Batches of
 * running rt processes are theirs to finish. Says what it did through `warn`.
 */
export function recoverBatches(dir: string, root: string, warn: (message: string) => void, readOnly = false): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return; // no batch was ever interrupted here: the common case, one failed call
  }
  if (!trustedFolder(dir)) return;
  for (const name of names.sort()) {
    const file = path.join(dir, name);
    const committed = name.endsWith('.json');
    if (!committed && !name.endsWith('.draft')) continue;
    const doc = readJournal(file);
    if (doc === 'foreign' || (doc && !doc.entries.every((e) => isInside(root, e.abs)))) {
      setAside(file, dir, warn);
      continue;
    }
    if (!doc || ownedByLiveRt(doc, file)) continue;
    if (readOnly) {
      warn(`a batch (${doc.command}) that an rt process was killed in waits to be ${committed ? 'finished' : 'undone'}: RT_READONLY is set, so it is left; run any rt command without RT_READONLY`);
      continue;
    }
    const locks = lockAll(doc.entries);
    try {
      if (!fs.existsSync(file)) continue; // another rt finished it meanwhile
      if (committed) {
        const skipped: string[] = [];
        finish(doc.entries, (entry, why) => skipped.push(`${entry.display} (${why})`));
        const done = doc.entries.map((e) => e.display).filter((d) => !skipped.some((s) => s.startsWith(`${d} (`)));
        warn(`finished a batch (${doc.command}) that an rt process killed midway had committed: ${done.length ? `wrote ${done.join(', ')}` : 'nothing left to write'}`);
        if (skipped.length) warn(`left as they are, for they changed after that batch began: ${skipped.join(', ')}`);
      } else {
        for (const e of doc.entries) if (e.temp) fs.rmSync(e.temp, { force: true });
        warn(`undid a batch (${doc.command}) that an rt process was killed before committing: none of its files had been written`);
      }
      fs.rmSync(file, { force: true });
    } finally {
      for (const lock of locks) lock.release();
    }
  }
  removeIfEmpty(dir);
}

/** A batch an hour old was not left by an rt still running, whatever its PID names now (it may have been reused). */
const ABANDONED_MS = 60 * 60 * 1000;

function ownedByLiveRt(doc: JournalDoc, file: string): boolean {
  if (doc.owner.host !== os.hostname() || doc.owner.pid === process.pid || !isRunning(doc.owner.pid)) return false;
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  return st !== undefined && Date.now() - st.mtimeMs < ABANDONED_MS;
}

function readJournal(file: string): JournalDoc | 'foreign' | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const doc = JSON.parse(text) as JournalDoc;
    if (doc && doc.format === FORMAT && doc.version === VERSION && Array.isArray(doc.entries) && doc.owner && typeof doc.owner.pid === 'number' && doc.entries.every(validEntry)) return doc;
  } catch {
    // damaged
  }
  return 'foreign';
}

function validEntry(e: Entry): boolean {
  return e && typeof e.abs === 'string' && path.isAbsolute(e.abs) && typeof e.display === 'string' && (e.temp === null || (typeof e.temp === 'string' && path.dirname(e.temp) === path.dirname(e.abs) && path.basename(e.temp).startsWith(`.${path.basename(e.abs)}${BATCH_MARK}`)));
}

/** A journal that cannot be read is kept aside for inspection, never acted on. */
function setAside(file: string, dir: string, warn: (message: string) => void): void {
  const aside = path.join(path.dirname(dir), 'set-aside');
  try {
    fs.mkdirSync(aside, { recursive: true });
    fs.renameSync(file, path.join(aside, `journal-${path.basename(file)}`));
    warn(`set aside a damaged batch journal (${path.basename(file)}): nothing was done with it`);
  } catch {
    // Housekeeping: never a reason to fail.
  }
}

/**
 * The locks of every file, taken in one fixed order (by path), so that two batches never wait
 * on each other in a circle. Each lock is made inside its file's folder, entered and checked
 * (see inFolder): a folder swapped for a link while rt waits is not written through. `shown`
 * names a lock in messages (from the working directory).
 */
export function lockAll(entries: ReadonlyArray<{ abs: string; display: string; shownLock?: string }>): Lock[] {
  const sorted = [...new Map(entries.map((e) => [e.abs, e])).values()].sort((a, b) => (a.abs < b.abs ? -1 : a.abs > b.abs ? 1 : 0));
  const locks: Lock[] = [];
  try {
    for (const e of sorted) {
      const dir = path.dirname(e.abs);
      if (!fs.existsSync(dir)) continue; // a folder a dry run would have made: nothing in it to guard
      const name = path.basename(lockPathFor(e.abs));
      const lock = inFolder(dir, e.display, () => acquireLock(name, e.display, undefined, e.shownLock ?? lockPathFor(e.abs)));
      locks.push({
        release: () => {
          try {
            inFolder(dir, e.display, () => lock.release());
          } catch {
            // The folder was swapped meanwhile: the lock stays in the folder it was made in, and
            // the next rt breaks it (its owner is gone by then).
          }
        },
      });
    }
  } catch (error) {
    for (const lock of locks) lock.release();
    throw error;
  }
  return locks;
}

/** The lock sits beside the file, so every rt process finds it whatever its state settings. */
export function lockPathFor(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.rt-lock`);
}
