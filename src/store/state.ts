// State under `.rt/` at the root (see The store is a cache): JSON files, one per tracked file and kind.
//
//   .rt/.gitignore          "*": the folder ignores itself; the user's .gitignore is never touched
//   .rt/index/<key>.json    a file's line index (its LIDs)
//   .rt/view/<key>.json     a file's view state (what was shown where)
//   .rt/set-aside/          state files that could not be trusted, kept once for inspection
//
// State is a cache. It is written atomically (temporary file, then rename), never trusted when
// it does not parse or claims another file, and never fatal: when it cannot be written, rt works
// without it and says so once.

import fs from 'node:fs';
import { READ_PLAIN, readPlainFile } from './plainFile.js';
import path from 'node:path';
import { hashString } from '../model/hash.js';
import { acquireLock, removeLockLeftovers, type Lock } from './lock.js';
import { TEMP_MARK_END, tempMark } from '../io/processes.js';
import type { Settings } from '../settings/env.js';

export type Warn = (message: string) => void;

export const STATE_DIR = '.rt';

/** What working without saved state gives up, said once when state is not kept. */
const WITHOUT_STATE =
  'working without saved state: rt cannot check which lines it has shown (edits and inserts ' +
  'are not refused for lines never shown), keeps no LID history (the LID of a changed or ' +
  'deleted line is forgotten, so a new line may by rare chance take it) and no views for ' +
  'scroll; see man rt, FILES';
/** Whether a state file was written within EXPIRY_MS of `now` (false when there is none). */
function isFresh(file: string, now: number): boolean {
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  return st !== undefined && now - st.mtimeMs <= EXPIRY_MS;
}

/** State of files not touched for this long is dropped. */
const EXPIRY_MS = 30 * 86_400_000;
/** How long a run waits for another to finish updating a state file before updating it anyway. */
const STATE_LOCK_WAIT_MS = 3000;
/** How often (at most) a run sweeps expired state. */
const SWEEP_EVERY_MS = 86_400_000;

export type StateKind = 'index' | 'view';

export interface StateDoc {
  readonly format: string;
  readonly version: number;
  readonly path: string;
  touched: number;
}

export class StateStore {
  readonly dir: string;
  private readonly disabledReason: string | undefined;
  private writable: boolean | undefined;
  private warned = false;

  /** The session (RT_SESSION) whose view state this store reads and writes; undefined: the one shared session. */
  readonly session: string | undefined;

  constructor(
    rootDir: string,
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
    if (this.disabledReason) return undefined;
    const file = this.fileFor(kind, rel);
    let text: string;
    try {
      if (!this.isOwnFolder(kind)) return undefined;
      const fd = openStateFile(file);
      if (fd === 'foreign') {
        this.setAside(kind, file, 'it is not a regular file');
        return undefined;
      }
      try {
        text = fs.readFileSync(fd, 'utf8');
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      return undefined;
    }
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      this.setAside(kind, file, 'it is not valid JSON');
      return undefined;
    }
    const d = doc as Partial<StateDoc> | null;
    // State of another version of rt is a cache of a different shape: rebuilt without a word.
    if (d && typeof d === 'object' && d.format === format && typeof d.version === 'number' && d.version !== version)
      return undefined;
    if (!d || typeof d !== 'object' || d.format !== format || d.version !== version || d.path !== rel) {
      this.setAside(
        kind,
        file,
        d && typeof d === 'object' && d.format === format && d.version === version
          ? `it describes ${String(d.path)}`
          : 'it is not an rt state file of this version',
      );
      return undefined;
    }
    if (!valid(d)) {
      this.setAside(kind, file, 'it is damaged');
      return undefined;
    }
    return d as T;
  }

  /**
   * The state file of `rel` opened for reading (not following a symbolic link), for documents
   * read in parts; undefined when there is none or state is off.
   */
  openForReading(kind: StateKind, rel: string): { file: string; fd: number } | undefined {
    if (this.disabledReason) return undefined;
    const file = this.fileFor(kind, rel);
    try {
      if (!this.isOwnFolder(kind)) return undefined;
      const fd = openStateFile(file);
      if (fd === 'foreign') {
        this.setAside(kind, file, 'it is not a regular file');
        return undefined;
      }
      return { file, fd };
    } catch {
      return undefined;
    }
  }

  /**
   * Runs `update` (which loads `rel`'s state of `kind`, changes it and saves it) holding a lock
   * on that state file, so that concurrent rt processes do not undo each other's changes (one
   * loading before the other saved, then saving over it). The lock is waited for a few seconds
   * at most: state is a cache, and a command is never failed for it.
   */
  update(kind: StateKind, rel: string, update: () => void): void {
    let lock: Lock | undefined;
    // The lock is made in the state's folder: not through a link it was swapped for.
    if (this.ensureFolder() && this.isOwnFolderNow(kind)) {
      try {
        lock = acquireLock(`${this.fileFor(kind, rel)}.rt-lock`, `the state of ${rel}`, STATE_LOCK_WAIT_MS);
      } catch {
        lock = undefined;
      }
    }
    try {
      update();
    } finally {
      lock?.release();
    }
  }

  /**
   * Removes the temporary files of `rel`'s state files, and the drafts of their locks, left by
   * rt processes no longer running (killed while saving). Called by edits, which hold the file's lock: a kill mid-save
   * must not
   * leave a copy of a big index behind until the daily sweep, an hour later at the soonest.
   */
  removeStaleTemps(rel: string): void {
    if (this.disabledReason) return;
    for (const kind of ['index', 'view'] as const) {
      // Its temporary copies, and what a kill left of its lock (see update).
      try {
        const file = this.fileFor(kind, rel);
        if (this.isOwnFolder(kind)) removeLockLeftovers(`${file}.rt-lock`, [`${path.basename(file)}.tmp-`]);
      } catch {
        // Housekeeping: never a reason to fail.
      }
    }
  }

  /** Sets aside a state file found untrustworthy (see load). */
  setAsideFile(kind: StateKind, file: string, why: string): void {
    this.setAside(kind, file, why);
  }

  /** Writes `doc` for `rel` atomically; false (after one warning) when state cannot be saved. */
  save(kind: StateKind, rel: string, doc: StateDoc): boolean {
    doc.touched = Date.now();
    return this.saveText(kind, rel, (write) => write(JSON.stringify(doc)));
  }

  /**
   * Writes the state file of `rel` piece by piece (`produce` calls `write` with consecutive
   * parts of the JSON text, and may `patch` bytes already written, at a byte offset),
   * atomically: large indexes never exist as one string in memory, and no reader sees a
   * part-written file.
   */
  saveText(
    kind: StateKind,
    rel: string,
    produce: (write: (part: string | Uint8Array) => void, patch: (at: number, part: string) => void) => void,
  ): boolean {
    if (!this.ensureFolder()) return false;
    // Checked again before each write (ensureFolder checks once a run): a folder swapped for a
    // symbolic link since must not lead a write elsewhere.
    if (!this.isOwnFolderNow(kind)) {
      this.disable(`${STATE_DIR}/${kind} is gone or not a plain folder`);
      return false;
    }
    const file = this.fileFor(kind, rel);
    const tmp = `${file}.tmp-${tempMark()}`;
    try {
      const fd = fs.openSync(tmp, 'wx');
      try {
        let position = 0;
        const writeAt = (bytes: Uint8Array, at: number) => {
          for (let done = 0; done < bytes.length; )
            done += fs.writeSync(fd, bytes, done, bytes.length - done, at + done);
        };
        produce(
          (part) => {
            const bytes = typeof part === 'string' ? Buffer.from(part, 'utf8') : part;
            writeAt(bytes, position);
            position += bytes.length;
          },
          (at, part) => writeAt(Buffer.from(part, 'utf8'), at),
        );
      } finally {
        fs.closeSync(fd);
      }
      fs.renameSync(tmp, file);
      return true;
    } catch (error) {
      removeQuietly(tmp);
      this.disable(`cannot write ${path.relative(path.dirname(this.dir), file)} (${errorCode(error)})`);
      return false;
    }
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

  private fileFor(kind: StateKind, rel: string): string {
    const base = path.posix
      .basename(rel)
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .slice(0, 60);
    // A file's view state is its session's own; its index, the LIDs, is everyone's.
    const session = kind === 'view' && this.session !== undefined ? `~${this.session}` : '';
    return path.join(this.dir, kind, `${base}-${hashString(rel)}${session}.json`);
  }

  /**
   * The state folder (and the one of `kind`) is a real folder of ours, not a symbolic link planted to lead elsewhere.
   */
  private isOwnFolder(kind?: string): boolean {
    for (const dir of kind ? [this.dir, path.join(this.dir, kind)] : [this.dir]) {
      const st = fs.lstatSync(dir);
      if (!st.isDirectory() || st.isSymbolicLink()) return false;
    }
    return true;
  }

  /** isOwnFolder, false (not an error) when a folder is gone. */
  private isOwnFolderNow(kind: StateKind): boolean {
    try {
      return this.isOwnFolder(kind);
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
      for (const kind of ['index', 'view'] as const) {
        // Anything else than a folder in a kind's place (a file, a link) is set aside, not followed.
        const st = fs.lstatSync(path.join(this.dir, kind), { throwIfNoEntry: false });
        if (st && (st.isSymbolicLink() || !st.isDirectory())) this.setAsideFolder(kind);
        fs.mkdirSync(path.join(this.dir, kind), { recursive: true });
        if (!this.isOwnFolder(kind)) {
          this.disable(`${STATE_DIR}/${kind} is not a plain folder`);
          return false;
        }
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

  /**
   * Moves what stands in the place of the folder of `kind` (not a folder) to set-aside/, so that the folder can be
   * made.
   */
  private setAsideFolder(kind: StateKind): void {
    this.moveAside(path.join(this.dir, kind), `${kind}-folder`);
    this.warn(`${STATE_DIR}/${kind} was not a folder: set aside, and made again`);
  }

  /** Moves `entry` (not followed) to set-aside/NAME, in place of an earlier one. */
  private moveAside(entry: string, name: string): void {
    const target = path.join(this.dir, 'set-aside', name);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    if (!this.isOwnFolder('set-aside')) throw new Error('set-aside is not a plain folder');
    // One copy is kept: an earlier one of another type (a folder where a file was set aside before) would make the
    // rename fail.
    fs.rmSync(target, { recursive: true, force: true });
    fs.renameSync(entry, target);
  }

  private setAside(kind: StateKind, file: string, why: string): void {
    try {
      // The file is moved out of its folder, which must still be the one of rt's state.
      if (!this.isOwnFolder(kind)) throw new Error(`${kind} is not a plain folder`);
      this.moveAside(file, `${kind}-${path.basename(file)}`);
      this.warn(`state file ${path.relative(path.dirname(this.dir), file)} was set aside (${why}) and will be rebuilt`);
    } catch {
      this.warn(`state file ${path.relative(path.dirname(this.dir), file)} is unusable (${why}); ignoring it`);
    }
  }

  /**
   * Once a day at most: drop state files not touched for 30 days, and leftover temporary files.
   * A file's index is kept while its view is: a file only read keeps its index unwritten (it is
   * saved when the file changed), but its view is saved at least once a day it is shown, and
   * dropping the index would give its lines new LIDs.
   */
  /**
   * The names of the index files whose file some session viewed within EXPIRY_MS of `now`: a
   * view is named as its file's index is, with ~SESSION before .json for a session's own.
   */
  private freshlyViewed(now: number): Set<string> {
    const out = new Set<string>();
    try {
      for (const name of fs.readdirSync(path.join(this.dir, 'view'))) {
        if (name.endsWith('.json') && isFresh(path.join(this.dir, 'view', name), now))
          out.add(name.replace(/~[A-Za-z0-9._-]+\.json$/, '.json'));
      }
    } catch {
      // no views
    }
    return out;
  }

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
      const viewed = this.freshlyViewed(now);
      for (const kind of ['index', 'view', 'set-aside'] as const) {
        const dir = path.join(this.dir, kind);
        let names: string[] = [];
        try {
          if (!this.isOwnFolder(kind)) continue;
          names = fs.readdirSync(dir);
        } catch {
          continue;
        }
        for (const name of names) {
          const file = path.join(dir, name);
          try {
            const st = fs.lstatSync(file);
            // A temporary copy is named FILE.tmp-MARK (tempMark); a state file's own name may hold ".tmp-".
            const mark = TEMP_MARK_END.exec(name);
            const temporary = mark !== null && name.slice(0, mark.index).endsWith('.tmp-');
            const stale =
              now - st.mtimeMs > (temporary ? 3_600_000 : EXPIRY_MS) &&
              !(kind === 'index' && !temporary && viewed.has(name));
            // A folder set aside goes too (never followed); one among the states is left alone.
            if (stale && (kind === 'set-aside' || !st.isDirectory())) fs.rmSync(file, { recursive: true, force: true });
          } catch {
            // One entry that cannot be removed does not stop the sweep.
          }
        }
      }
    } catch {
      // Sweeping is housekeeping: never a reason to fail.
    }
  }
}

/**
 * Opens a state file for reading, or says it is foreign: a symbolic link (not followed: it may
 * lead anywhere), a folder, a FIFO (opened without blocking: reading one would wait forever) or
 * a device. Throws when there is no such file.
 */
export function openStateFile(file: string): number | 'foreign' {
  let fd: number;
  try {
    fd = fs.openSync(file, READ_PLAIN);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') return 'foreign';
    throw error;
  }
  if (fs.fstatSync(fd).isFile()) return fd;
  fs.closeSync(fd);
  return 'foreign';
}

/** Writes a file by renaming a complete temporary file over it. */
export function writeAtomic(file: string, data: string | Buffer): void {
  const tmp = `${file}.tmp-${tempMark()}`;
  try {
    fs.writeFileSync(tmp, data, { flag: 'wx' });
    fs.renameSync(tmp, file);
  } catch (error) {
    removeQuietly(tmp);
    throw error;
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
