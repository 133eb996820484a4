// State under `.rt/` at the root (see The store is a cache):
//
//   .rt/.gitignore          "*": the folder ignores itself; the user's .gitignore is never touched
//   .rt/pack/               every file's line index (its LIDs) and view state (what was shown
//                           where), packed in a few segment files (see pack.ts)
//   .rt/history/            the history of rt's writes (history.ts)
//   .rt/set-aside/          state that could not be trusted, kept once for inspection
//
// State is a cache. What a command saves is added as one segment at its end, whole or not at all;
// it is never trusted when it does not parse or claims another file, and never fatal: when it
// cannot be written, rt works without it and says so once.

import fs from 'node:fs';
import { readPlainFile } from './plainFile.js';
import { writeAll } from './readAt.js';
import path from 'node:path';
import { digestText } from '../model/digest.js';
import { hashString } from '../model/hash.js';
import { tempMark } from '../io/processes.js';
import { lockPoolIn } from './lock.js';
import type { Settings } from '../settings/env.js';
import { closeGoneSegments, Pack, type Found } from './pack.js';

export type Warn = (message: string) => void;

export const STATE_DIR = '.rt';

/** What working without saved state gives up, said once when state is not kept. */
const WITHOUT_STATE =
  'working without saved state: rt cannot check which lines it has shown (edits and inserts ' +
  'are not refused for lines never shown), keeps no LID history (the LID of a changed or ' +
  'deleted line is forgotten, so a new line may by rare chance take it) and no views for ' +
  'scroll; see man rt, FILES';
/** State of files not touched for this long is dropped. */
const EXPIRY_MS = 30 * 86_400_000;
/** State read this close to its expiry is saved again (see openForReading). */
const REFRESH_MS = 86_400_000;
/** How often (at most) a run sweeps expired state. */
const SWEEP_EVERY_MS = 86_400_000;
/** The folder of the packed state, under STATE_DIR. */
const PACK = 'pack';

export type StateKind = 'index' | 'view';

export interface StateDoc {
  readonly format: string;
  readonly version: number;
  readonly path: string;
  touched: number;
}

/** A state document opened for reading in parts (an index): its bytes, and how to set it aside. */
export interface StateEntry {
  /** Where it lies, for messages. */
  readonly file: string;
  /** Its size in bytes. */
  readonly size: number;
  /** Bytes start..end of it (fewer at its end). */
  read(start: number, end: number): Buffer;
  /** Fills `into` with its bytes from `start`; how many it read. */
  readInto(into: Uint8Array, start: number): number;
  /** Sets it aside as damaged: it is never read again, and is rebuilt. */
  setAside(why: string): void;
}

export class StateStore {
  readonly dir: string;
  private readonly disabledReason: string | undefined;
  private writable: boolean | undefined;
  private warned = false;
  private packCache: Pack | undefined;
  /** The update under way (see update): a save of its key is replayed by it at the pack's save. */
  private updating: { key: string; replay: () => void } | undefined;
  /** Entries untouched before this are dropped at this run's save (once a day; see sweepExpired). */
  private sweepBefore: number | undefined;

  /** The session (RT_SESSION) whose view state this store reads and writes; undefined: the one shared session. */
  readonly session: string | undefined;

  constructor(
    readonly rootDir: string,
    settings: Pick<Settings, 'state' | 'session'>,
    private readonly warn: Warn,
  ) {
    this.dir = path.join(rootDir, STATE_DIR);
    this.disabledReason = settings.state ? undefined : 'RT_STATE=off';
    this.session = settings.session;
  }

  get enabled(): boolean {
    return this.disabledReason === undefined && this.writable !== false;
  }

  /** The parsed document for `rel`, or undefined when there is none or it cannot be trusted. */
  load<T extends StateDoc>(
    kind: StateKind,
    rel: string,
    format: string,
    version: number,
    valid: (doc: unknown) => boolean = () => true,
  ): T | undefined {
    const key = this.keyOf(kind, rel);
    const found = this.find(key);
    return found && this.parse<T>(key, rel, found, format, version, valid);
  }

  /** As load, with what named the saved state it read (see savedAs). */
  loadNamed<T extends StateDoc>(
    kind: StateKind,
    rel: string,
    format: string,
    version: number,
    valid: (doc: unknown) => boolean,
  ): { doc: T | undefined; savedAs: string | undefined } {
    const key = this.keyOf(kind, rel);
    const found = this.find(key);
    return { doc: found && this.parse<T>(key, rel, found, format, version, valid), savedAs: nameOf(found) };
  }

  /**
   * What names the saved state of `rel` as it stands: the same text when two calls give the same
   * name ('' when there is none); undefined when that cannot be told (an entry saved with no digest).
   */
  savedAs(kind: StateKind, rel: string): string | undefined {
    return nameOf(this.find(this.keyOf(kind, rel)));
  }

  /** The document of `found`, the entry of `key`, parsed and checked (see load). */
  private parse<T extends StateDoc>(
    key: string,
    rel: string,
    found: Found,
    format: string,
    version: number,
    valid: (doc: unknown) => boolean,
  ): T | undefined {
    let bytes: Buffer;
    try {
      bytes = found.read(0, found.entry.length);
    } catch {
      return undefined;
    }
    const text = bytes.toString('utf8');
    if (bytes.length !== found.entry.length || (found.entry.check !== null && digestText(text) !== found.entry.check))
      return this.setAsideEntry(key, rel, found, 'it is damaged');
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      return this.setAsideEntry(key, rel, found, 'it is not valid JSON');
    }
    const d = doc as Partial<StateDoc> | null;
    // State of another version of rt is a cache of a different shape: rebuilt without a word.
    if (d && typeof d === 'object' && d.format === format && typeof d.version === 'number' && d.version !== version)
      return undefined;
    if (!d || typeof d !== 'object' || d.format !== format || d.version !== version || d.path !== rel) {
      return this.setAsideEntry(
        key,
        rel,
        found,
        d && typeof d === 'object' && d.format === format && d.version === version
          ? `it describes ${String(d.path)}`
          : 'it is not an rt state file of this version',
      );
    }
    if (!valid(d)) return this.setAsideEntry(key, rel, found, 'it is damaged');
    return d as T;
  }

  /** The state document of `rel` opened for reading in parts (a big index); undefined when there is none. */
  openForReading(kind: StateKind, rel: string): StateEntry | undefined {
    const key = this.keyOf(kind, rel);
    const found = this.find(key);
    if (!found) return undefined;
    // An index near its 30 days, read now, is saved again with this run: a sweep by another rt meanwhile must not
    // drop the index this run prints LIDs from.
    if (found.entry.touched < Date.now() - EXPIRY_MS + REFRESH_MS && this.canSave()) this.refresh(kind, rel, found);
    return new OpenEntry(found, (why) => this.setAsideEntry(key, rel, found, why));
  }

  /**
   * Runs `update` (which loads `rel`'s state of `kind`, changes it and saves it). Should another rt
   * save that state after this run loaded it and before this run's save lands, `update` is run
   * again at the save, on the state as it is then, so that neither undoes the other's change.
   */
  update(kind: StateKind, rel: string, update: () => void): void {
    const outer = this.updating;
    this.updating = { key: this.keyOf(kind, rel), replay: update };
    try {
      update();
    } finally {
      this.updating = outer;
    }
  }

  /**
   * Removes the temporary segments of rt processes no longer running (killed while saving), and
   * what a kill left of the pack's lock. Called by writes: a kill mid-save must not leave a copy
   * of a big index behind until the daily sweep.
   */
  removeStaleTemps(): void {
    if (this.disabledReason) return;
    try {
      if (this.isOwnFolder(PACK)) this.pack().removeLeftovers();
    } catch {
      // Housekeeping: never a reason to fail.
    }
  }

  /** Sets aside a state file found untrustworthy (the history's own files, a damaged segment of the pack). */
  setAsideFile(kind: string, file: string, why: string): void {
    try {
      // The file is moved out of its folder, which must still be the one of rt's state: not a link planted in its
      // place (nor in place of .rt).
      const folder = fs.lstatSync(path.dirname(file));
      if (!this.isOwnFolder() || !folder.isDirectory() || folder.isSymbolicLink())
        throw new Error('the state folder is not a plain folder');
      this.moveAside(file, `${kind}-${path.basename(file)}`);
      this.warn(`state file ${this.shown(file)} was set aside (${why}) and will be rebuilt`);
    } catch {
      this.warn(`state file ${this.shown(file)} is unusable (${why}); ignoring it`);
    }
  }

  /**
   * Keeps a copy of state found untrustworthy that is not moved away (the history's log, which its next write
   * replaces; a step's data kept in the history's list): `bytes` copied to set-aside/ as `name`, for inspection;
   * `what` names it in the warning.
   */
  copyAside(name: string, bytes: Buffer, what: string, why: string): void {
    try {
      if (!this.ensureFolder()) throw new Error('no state');
      this.keepAside(bytes, name);
      this.warn(`${what} was set aside (${why}) and will be rebuilt`);
    } catch {
      this.warn(`${what} is unusable (${why}); ignoring it`);
    }
  }

  /** Stages `doc` as the state of `rel`, saved at the end of the command; false (after one warning) when it cannot
   * be. */
  save(kind: StateKind, rel: string, doc: StateDoc): boolean {
    doc.touched = Date.now();
    const text = JSON.stringify(doc);
    return this.saveText(kind, rel, (write) => write(text), undefined, digestText(text));
  }

  /**
   * Stages the state document of `rel`, written piece by piece (`produce` calls `write` with
   * consecutive parts of the JSON text, and may `patch` bytes already written, at a byte offset):
   * large indexes never exist as one string in memory. `stillTrue`: whether it should still be kept
   * should another rt have saved the same state meanwhile. It lands whole, with the rest of the
   * command's state, at the store's save (see flush).
   */
  saveText(
    kind: StateKind,
    rel: string,
    produce: (write: (part: string | Uint8Array) => void, patch: (at: number, part: string) => void) => void,
    stillTrue?: () => boolean,
    check: string | null = null,
  ): boolean {
    if (!this.ensureFolder()) return false;
    // Checked again before the staging file is made and when it is linked into place (see flush): a folder swapped
    // for a symbolic link since must not lead a write elsewhere. The entries go to the staging file's descriptor.
    if (!this.packCache?.dirty && !this.isOwnFolderNow(PACK)) {
      this.disable(`${STATE_DIR}/${PACK} is gone or not a plain folder`);
      return false;
    }
    const key = this.keyOf(kind, rel);
    const replay = this.updating?.key === key ? this.updating.replay : undefined;
    try {
      this.pack().stage(
        key,
        produce,
        { ...(replay ? { replay } : {}), ...(stillTrue ? { keep: stillTrue } : {}) },
        check,
      );
      return true;
    } catch (error) {
      this.pack().discard();
      this.disable(`cannot write ${STATE_DIR}/${PACK} (${errorCode(error)})`);
      return false;
    }
  }

  /**
   * Saves what the command staged, as one segment of the pack (see pack.ts); nothing when it staged
   * nothing. Called at the end of every command, and by a write before it releases its files'
   * locks: the next rt to take them reads the LIDs this one printed.
   */
  flush(): void {
    // A sweep due runs with the run's save, or alone when it saved nothing.
    const pack = this.sweepBefore !== undefined && this.writable ? this.pack() : this.packCache;
    if (!pack || (!pack.dirty && this.sweepBefore === undefined)) return;
    if (!this.isOwnFolderNow(PACK)) {
      pack.discard();
      this.disable(`${STATE_DIR}/${PACK} is gone or not a plain folder`);
      return;
    }
    try {
      const staged = pack.dirty;
      pack.save(this.sweepBefore);
      this.sweepBefore = undefined;
      if (staged) this.makeLockFolder();
    } catch (error) {
      pack.discard();
      this.disable(`cannot write ${STATE_DIR}/${PACK} (${errorCode(error)})`);
    }
  }

  /** Whether this process made (or found) the folder of the lock drafts (see makeLockFolder). */
  private lockFolderMade = false;

  /**
   * Makes `.rt/locks`, where locks keep their drafts for reuse (see lock.ts), with the state's first
   * save of the process: a command that saves state anyway, never a refused one. Housekeeping: a
   * lock without the folder is taken as before.
   */
  private makeLockFolder(): void {
    if (this.lockFolderMade) return;
    this.lockFolderMade = true;
    try {
      fs.mkdirSync(lockPoolIn(this.dir));
    } catch {
      // There already, or it cannot be: the locks are taken without it.
    }
  }

  /** Forgets what the command staged (it was refused: it saves nothing). */
  discard(): void {
    this.packCache?.discard();
  }

  /**
   * Whether state could be saved, without making anything: the state folder is ours and
   * writable, or it does not exist yet and the root is writable.
   */
  canSave(): boolean {
    if (this.disabledReason || this.writable === false) return false;
    // Asked for every file a search prints: once it could, it can for the rest of the run (unless saving failed since).
    if (this.writable || this.couldSave) return true;
    try {
      const st = fs.lstatSync(this.dir);
      if (!st.isDirectory() || st.isSymbolicLink()) return false;
      fs.accessSync(this.dir, fs.constants.W_OK);
      return (this.couldSave = true);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return false;
    }
    try {
      fs.accessSync(path.dirname(this.dir), fs.constants.W_OK);
      return (this.couldSave = true);
    } catch {
      return false;
    }
  }

  /** canSave found that state could be saved. */
  private couldSave = false;

  /** Makes the state folder (with its .gitignore) if need be; false when state is not kept. */
  ensure(): boolean {
    return this.ensureFolder();
  }

  /** Says once that state is not kept, and why. Called by commands that would have saved state. */
  noteDisabled(): void {
    if (this.disabledReason) this.warnOnce(`${this.disabledReason}: ${WITHOUT_STATE}`);
  }

  /** Reports a problem with a state file that was then ignored (shown once per run). */
  problem(message: string): void {
    this.warn(message);
  }

  /** Stages `found` again as it is (its bytes copied), so that it lands with a fresh time. */
  private refresh(kind: StateKind, rel: string, found: Found): void {
    const length = found.entry.length;
    this.saveText(
      kind,
      rel,
      (write) => {
        for (let at = 0; at < length; at += 1 << 20) write(found.read(at, Math.min(length, at + (1 << 20))));
      },
      // Another rt's newer save of it wins.
      () => false,
    );
  }

  /** The pack's key of `rel`'s state of `kind`: a file's view state is its session's own; its index is everyone's. */
  private keyOf(kind: StateKind, rel: string): string {
    const session = kind === 'view' && this.session !== undefined ? `~${this.session}` : '';
    return `${kind}${session}:${rel}`;
  }

  private pack(): Pack {
    return (this.packCache ??= new Pack(path.join(this.dir, PACK), {
      damaged: (file, why) => this.setAsideFile('pack', file, why),
      ownFolder: () => this.isOwnFolderNow(PACK),
    }));
  }

  /** The newest entry of `key`, or undefined when there is none, state is off, or the pack is not ours. */
  private find(key: string): Found | undefined {
    if (this.disabledReason || this.packForeign) return undefined;
    try {
      if (!this.packCache) {
        // Checked once a run (a save checks again): a pack folder that is a link is never read through.
        const st = fs.lstatSync(path.join(this.dir, PACK), { throwIfNoEntry: false });
        if (st && (!st.isDirectory() || st.isSymbolicLink() || !this.isOwnFolder())) {
          this.packForeign = true;
          return undefined;
        }
        closeGoneSegments();
      }
      return this.pack().find(key);
    } catch {
      return undefined;
    }
  }

  /** The pack's folder was found to be no plain folder of ours: nothing is read from it this run. */
  private packForeign = false;

  /**
   * Sets aside an entry found untrustworthy: its bytes are copied to set-aside/ for inspection, and
   * it is forgotten (a later save of the command lands without it).
   */
  private setAsideEntry(key: string, rel: string, found: Found, why: string): undefined {
    const shown = `state of ${rel} in ${this.shown(found.file)}`;
    try {
      if (!this.ensureFolder()) throw new Error('no state');
      const name = `${key.slice(0, key.indexOf(':'))}-${path.posix
        .basename(rel)
        .replace(/[^A-Za-z0-9._-]/g, '_')
        .slice(0, 60)}-${hashString(rel)}.json`;
      this.keepAside(found.read(0, Math.max(0, found.entry.length)), name);
      this.pack().forget(key);
      this.warn(`${shown} was set aside (${why}) and will be rebuilt`);
    } catch {
      this.warn(`${shown} is unusable (${why}); ignoring it`);
    }
    return undefined;
  }

  private shown(file: string): string {
    return path.relative(path.dirname(this.dir), file);
  }

  /** The state folder (and its sub-folder `sub`) is a real folder of ours, not a symbolic link planted to lead
   * elsewhere. */
  private isOwnFolder(sub?: string): boolean {
    for (const dir of sub ? [this.dir, path.join(this.dir, sub)] : [this.dir]) {
      const st = fs.lstatSync(dir);
      if (!st.isDirectory() || st.isSymbolicLink()) return false;
    }
    return true;
  }

  /** isOwnFolder, false (not an error) when a folder is gone. */
  private isOwnFolderNow(sub: string): boolean {
    try {
      return this.isOwnFolder(sub);
    } catch {
      return false;
    }
  }

  private ensureFolder(): boolean {
    if (this.disabledReason) {
      this.noteDisabled();
      return false;
    }
    if (this.writable !== undefined) return this.writable;
    try {
      let st: fs.Stats | undefined;
      try {
        st = fs.lstatSync(this.dir);
      } catch {
        try {
          fs.mkdirSync(this.dir);
        } catch (error) {
          // Another rt, run at the same moment in a fresh root, made it first: it is checked below.
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        }
        st = fs.lstatSync(this.dir);
      }
      if (st && (st.isSymbolicLink() || !st.isDirectory())) {
        this.disable(`${STATE_DIR} at the root is not a plain folder`);
        return false;
      }
      // Its .gitignore holds "*" (made again when it does not: git status never shows .rt).
      const ignore = path.join(this.dir, '.gitignore');
      if (
        !readPlainFile(ignore, 1 << 16)
          ?.toString('utf8')
          .split(/\r?\n/)
          .includes('*')
      )
        writeAtomic(ignore, '*\n');
      // Anything else than a folder in the pack's place (a file, a link) is set aside, not followed.
      const pack = fs.lstatSync(path.join(this.dir, PACK), { throwIfNoEntry: false });
      if (pack && (pack.isSymbolicLink() || !pack.isDirectory())) this.setAsideFolder(PACK);
      fs.mkdirSync(path.join(this.dir, PACK), { recursive: true });
      if (!this.isOwnFolder(PACK)) {
        this.disable(`${STATE_DIR}/${PACK} is not a plain folder`);
        return false;
      }
      this.writable = true;
      this.sweepExpired();
    } catch (error) {
      this.disable(`cannot write ${STATE_DIR} at ${path.dirname(this.dir)} (${errorCode(error)})`);
    }
    return this.writable === true;
  }

  private disable(why: string): void {
    this.writable = false;
    this.warnOnce(`${why}: ${WITHOUT_STATE}`);
  }

  private warnOnce(message: string): void {
    if (this.warned) return;
    this.warned = true;
    this.warn(message);
  }

  /** Moves what stands in the place of the folder `sub` (not a folder) to set-aside/, so that it can be made. */
  private setAsideFolder(sub: string): void {
    this.moveAside(path.join(this.dir, sub), `${sub}-folder`);
    this.warn(`${STATE_DIR}/${sub} was not a folder: set aside, and made again`);
  }

  /** The set-aside folder, made if need be and checked to be ours. */
  private asideFolder(): string {
    const dir = path.join(this.dir, 'set-aside');
    fs.mkdirSync(dir, { recursive: true });
    if (!this.isOwnFolder('set-aside')) throw new Error('set-aside is not a plain folder');
    return dir;
  }

  /** Moves `entry` (not followed) to set-aside/NAME, in place of an earlier one. */
  private moveAside(entry: string, name: string): void {
    const target = path.join(this.asideFolder(), name);
    // One copy is kept: an earlier one of another type (a folder where a file was set aside before) would make the
    // rename fail.
    fs.rmSync(target, { recursive: true, force: true });
    fs.renameSync(entry, target);
  }

  /** Writes `bytes` as set-aside/NAME, in place of an earlier one. */
  private keepAside(bytes: Buffer, name: string): void {
    const target = path.join(this.asideFolder(), name);
    fs.rmSync(target, { recursive: true, force: true });
    writeAtomic(target, bytes);
  }

  /**
   * Once a day at most: entries not touched for 30 days are dropped at this run's save (a file's
   * index is kept while a view of it is not: a file only read keeps its index unwritten, but its
   * view is saved at least once a day it is shown, and dropping the index would give its lines new
   * LIDs); with them go what was set aside 30 days ago, temporary segments of processes gone, and
   * the one-file-per-file folders of earlier versions of rt (a cache of another shape).
   */
  private sweepExpired(): void {
    const stamp = path.join(this.dir, 'swept');
    const now = Date.now();
    try {
      if (now - fs.lstatSync(stamp).mtimeMs < SWEEP_EVERY_MS) return;
    } catch {
      // never swept
    }
    try {
      // Replaced, not written through: a link planted there must not lead the write elsewhere.
      writeAtomic(stamp, '');
      this.sweepBefore = now - EXPIRY_MS;
      this.removeStaleTemps();
      for (const old of ['index', 'view']) {
        const st = fs.lstatSync(path.join(this.dir, old), { throwIfNoEntry: false });
        if (st?.isDirectory() && !st.isSymbolicLink())
          fs.rmSync(path.join(this.dir, old), { recursive: true, force: true });
      }
      if (!this.isOwnFolderNow('set-aside')) return;
      const aside = path.join(this.dir, 'set-aside');
      for (const name of fs.readdirSync(aside)) {
        try {
          if (now - fs.lstatSync(path.join(aside, name)).mtimeMs > EXPIRY_MS)
            fs.rmSync(path.join(aside, name), { recursive: true, force: true });
        } catch {
          // One entry that cannot be removed does not stop the sweep.
        }
      }
    } catch {
      // Sweeping is housekeeping: never a reason to fail.
    }
  }
}

/** A state document opened for reading (a class: a search opens one for every file it prints). */
class OpenEntry implements StateEntry {
  constructor(
    private readonly found: Found,
    readonly setAside: (why: string) => void,
  ) {}

  // (Named only in messages: not joined for every index a search reads.)
  get file(): string {
    return this.found.file;
  }

  get size(): number {
    return this.found.entry.length;
  }

  read(start: number, end: number): Buffer {
    return this.found.read(start, end);
  }

  readInto(into: Uint8Array, start: number): number {
    return this.found.readInto(into, start);
  }
}

/** Writes a file by renaming a complete temporary file over it; `data` may be parts, written one after the other. */
export function writeAtomic(file: string, data: string | Buffer | readonly Uint8Array[]): void {
  const tmp = `${file}.tmp-${tempMark()}`;
  try {
    if (typeof data === 'string' || Buffer.isBuffer(data)) fs.writeFileSync(tmp, data, { flag: 'wx' });
    else writeParts(tmp, data);
    fs.renameSync(tmp, file);
  } catch (error) {
    removeQuietly(tmp);
    throw error;
  }
}

/** Parts shorter than this are gathered into a buffer of this size before they are written (see writeParts). */
const GATHER_BELOW = 1 << 16;

/**
 * Makes the new file `file` of `parts`, one after the other (as writeFileSync would make it of them joined): runs
 * of small parts gathered into writes of GATHER_BELOW bytes (a step of 20,000 hunks has 80,000 parts), bigger ones
 * written as they are.
 */
function writeParts(file: string, parts: readonly Uint8Array[]): void {
  const fd = fs.openSync(file, 'wx');
  try {
    let gathered: Buffer | undefined;
    let filled = 0;
    for (const part of parts) {
      if (part.length >= GATHER_BELOW || (gathered && filled + part.length > GATHER_BELOW)) {
        if (filled) writeAll(fd, gathered!.subarray(0, filled));
        filled = 0;
      }
      if (part.length >= GATHER_BELOW) writeAll(fd, part);
      else {
        gathered ??= Buffer.allocUnsafe(GATHER_BELOW);
        gathered.set(part, filled);
        filled += part.length;
      }
    }
    if (filled) writeAll(fd, gathered!.subarray(0, filled));
  } finally {
    fs.closeSync(fd);
  }
}

/** Removes a temporary file if it is there; its folder gone, or replaced by a file, is no error. */
function removeQuietly(file: string): void {
  try {
    fs.rmSync(file, { force: true });
  } catch {
    // Nothing was left there to remove.
  }
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? String(error);
}

/** An entry's name by its length and digest (see StateStore.savedAs). */
function nameOf(found: Found | undefined): string | undefined {
  if (!found) return '';
  return found.entry.check === null ? undefined : `${found.entry.length}:${found.entry.check}`;
}
