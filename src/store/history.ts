// The history of rt's own writes, in the root's .rt/history/:
//
//   steps.json      the steps, oldest first: command, time, session, and per file its two sides
//                   (whether it existed, its size, its content's digest; after a write, its
//                   stamp) and the lines it changed
//   steps.log       the changes made to the list since it was last written whole, appended in
//                   place one line a change (see History.update); the list read is steps.json
//                   with them applied, while the log names steps.json (the digest of its text)
//                   as its base
//   data/ID.bin     per step, the bytes and LIDs of the changed lines of each file, both sides;
//                   a step whose data is small (INLINE_MAX) keeps it in its entry of the list
//                   instead (`inline`, in base64), and has no data file
//
// Like the rest of .rt/ it is a cache of what rt did: never trusted when damaged (set aside),
// never a reason for a write to fail, bounded (the last 200 steps, 256 MiB of data, 30 days).

import { constants } from 'node:buffer';
import fs from 'node:fs';
import path from 'node:path';
import type { StepHunk } from '../model/history/changes.js';
import { digestBytes, digestParts, digestText } from '../model/digest.js';
import { bytesDigester, digestAscii, WASM_DIGEST_FROM } from '../model/wasmDigest.js';
import { acquireLock, lockPoolIn, removeLockLeftovers } from './lock.js';
import { READ_PLAIN, readPlainFile } from './plainFile.js';
import { writeAll } from './readAt.js';
import { thisProcess, type Owner } from '../io/processes.js';
import type { FileStamp } from './savedIndex.js';
import { writeAtomic, type StateStore } from './state.js';

const FORMAT = 'rt-history';
const VERSION = 1;
export const MAX_STEPS = 200;
export const MAX_BYTES = 256 << 20;
const MAX_AGE_MS = 30 * 86_400_000;
const LOCK_WAIT_MS = 5000;
const LEFTOVERS_EVERY_MS = 60_000;
const LOG_FORMAT = 'rt-history-log';
/**
 * The changes the log takes before the list is written whole again (and the log removed): each change written
 * whole would rewrite the list of up to MAX_STEPS steps, and replacing a file costs the kernel more the bigger it is.
 */
export const LOG_CHANGES = 32;
const LOG_MAX_BYTES = 1 << 20;
/**
 * The largest data a step keeps in its entry of the list (see Step.inline) rather than in a data file of its own: a
 * file made costs more than the bytes (a one-line edit's data is some 200-600). Bounded for the list, read at each
 * change and written whole every LOG_CHANGES: MAX_STEPS such steps make it some 0.4 MB at most.
 */
export const INLINE_MAX = 1024;

/**
 * Per history list: its bytes and its log's as this process last read or wrote them, and what they make (see
 * History.load).
 */
const known = new Map<string, { readonly list: Buffer; readonly log: Buffer; readonly loaded: Loaded }>();
/** Per history folder: when this process last looked for leftovers there (see History.removeLeftovers). */
const leftoversSought = new Map<string, number>();

/** One side of a file in a step: before or after it. */
export interface FileSide {
  readonly exists: boolean;
  readonly size: number;
  /** Digest of the whole content (see contentDigest), when it exists. */
  readonly digest: string | null;
  /** After a write: the stamp of the file rt wrote, which tells at once that it is still that file. */
  readonly stamp?: FileStamp;
  /** Its permission bits, where known: a file an undo or redo makes again gets them back. */
  readonly mode?: number;
  /** When it is a symbolic link: what the link holds (the path it leads to). */
  readonly link?: string;
}

export interface StepFile {
  /** Path shown, relative to the root. */
  readonly path: string;
  /** Absolute real path. */
  readonly abs: string;
  readonly before: FileSide;
  readonly after: FileSide;
  /** Lines added and removed. */
  readonly added: number;
  readonly removed: number;
}

export type StepState = 'done' | 'undone' | 'cleared';

export interface Step {
  readonly id: number;
  readonly time: number;
  /** RT_SESSION of the command, null for the shared session. */
  readonly session: string | null;
  /** The command, as `rt edit`. */
  readonly command: string;
  /** done (undo can take it back), undone (redo can bring it back), cleared (undone, then its session wrote anew). */
  readonly state: StepState;
  /** When undone: the order of the undos (redo brings back the one undone last). */
  readonly undoneSeq?: number;
  /** When undone by `rt undo STEP` in another session than the step's: that session (its redo brings it back). */
  readonly undoneBy?: string | null;
  readonly files: readonly StepFile[];
  /** Bytes of its data (its data file's, or those `inline` holds). */
  readonly bytes: number;
  /** Its data when small (see INLINE_MAX), as a data file would hold it, in base64: it then has no data file. */
  readonly inline?: string;
  /** Folders the step made for its new files (from the root, outermost first): an undo removes them when empty. */
  readonly folders?: readonly string[];
  /**
   * An undo or redo of the step under way (or killed before it ended): set before its files are
   * written, cleared once the step is marked; `state` is the one before it meanwhile.
   */
  readonly pending?: {
    readonly direction: 'undo' | 'redo';
    readonly owner: Owner;
    readonly time: number;
    readonly session?: string | null;
  };
  /** The journal of the batch that wrote the step (several files): recorded once, by the batch or by its recovery. */
  readonly batch?: string;
}

export interface Doc {
  readonly format: string;
  readonly version: number;
  next: number;
  /** Counts undos, for Step.undoneSeq. */
  undos?: number;
  steps: Step[];
}

/** What a step keeps of one file: its changed ranges, their bytes and their LIDs, on both sides. */
export interface FileData {
  /**
   * A move keeps neither file whole: its source (`movedTo`: the index in the step of the file it
   * was moved to) holds the changed ranges between its side before and the target's side after,
   * and the target (`movedFrom`: the index of its source) holds nothing. Either file is made
   * again from the other as it is then.
   */
  readonly movedTo?: number;
  readonly movedFrom?: number;
  readonly hunks: readonly StepHunk[];
  readonly beforeBytes: readonly Buffer[];
  readonly afterBytes: readonly Buffer[];
  readonly beforeLids: readonly Uint32Array[];
  readonly afterLids: readonly Uint32Array[];
}

/** The list as read: its document, and what update needs to append a change to its log. */
interface Loaded {
  readonly doc: Doc;
  /** The bytes of steps.json (undefined when there is none). */
  readonly list?: Buffer;
  /** The bytes of steps.log (empty when there is none). */
  readonly log: Buffer;
  /** The changes the log holds, all applied; undefined when it cannot take one more in place (see update). */
  readonly changes?: number;
}

export class History {
  private constructor(
    private readonly store: StateStore,
    private readonly dir: string,
  ) {}

  /** The history of the root whose state is `store`; undefined when no state is kept there. */
  static of(store: StateStore): History | undefined {
    if (!store.canSave()) return undefined;
    return new History(store, path.join(store.dir, 'history'));
  }

  /** The steps, oldest first (none when there is no history yet, or it proved damaged). */
  steps(): Step[] {
    return this.read().steps;
  }

  /**
   * The data of step `step`, per file; undefined when it is missing or damaged (damaged data, in
   * its file or in its entry of the list, is set aside: its step can no longer be taken back or
   * brought back).
   */
  data(which: number | Pick<Step, 'id' | 'inline'>): FileData[] | undefined {
    const step = typeof which === 'number' ? (this.read().steps.find((s) => s.id === which) ?? { id: which }) : which;
    const id = step.id;
    if (step.inline !== undefined) {
      // Checked against its digest as a data file is: base64 that does not decode to it is damaged.
      const data = decode(Buffer.from(step.inline, 'base64'));
      if (!data)
        this.store.copyAside(
          `index-step-${id}.inline`,
          Buffer.from(step.inline),
          `the data of step ${id} in ${this.shown(this.listFile())}`,
          'it is damaged',
        );
      return data;
    }
    // Read as a plain file: a FIFO or device planted there is missing, never waited on.
    const blob = readPlainFile(this.dataFile(id), constants.MAX_LENGTH);
    if (!blob) return undefined;
    const data = decode(blob);
    if (!data) this.store.setAsideFile('index', this.dataFile(id), 'it is damaged');
    return data;
  }

  /** Takes step `id` out of the list (its data is missing or damaged): it can be neither undone nor redone. */
  drop(id: number): void {
    this.update((doc) => {
      doc.steps = doc.steps.filter((s) => s.id !== id);
    });
    fs.rmSync(this.dataFile(id), { force: true });
  }

  /**
   * Records a step: its data first, then the list, under the history's lock. A new step of a
   * session clears what that session could redo. The oldest steps go past the bounds.
   */
  record(step: Omit<Step, 'id' | 'bytes' | 'state' | 'inline'>, data: readonly NewFileData[]): Step | undefined {
    if (!this.store.ensure()) return undefined;
    const size = dataSize(data);
    if (size > MAX_BYTES) {
      // Kept, it would push every other step out, and itself: not kept, and the session's redo is cleared all the same.
      this.update(
        (doc) =>
          void (doc.steps = doc.steps.map((s) =>
            redoneBy(s) === step.session && s.state === 'undone' ? { ...s, state: 'cleared' } : s,
          )),
      );
      throw new Error(
        `its changed lines (${Math.ceil(size / 2 ** 20)} MiB) are more than the ` +
          `${MAX_BYTES / 2 ** 20} MiB the history keeps`,
      );
    }
    return this.update((doc) => {
      this.removeLeftovers(doc);
      const known = step.batch === undefined ? undefined : doc.steps.find((s) => s.batch === step.batch);
      if (known) return known;
      const id = doc.next++;
      const parts = stepDataParts(data);
      const length = parts.reduce((n, part) => n + part.length, 0);
      const inline = length <= INLINE_MAX;
      if (!inline) {
        // Again: a damaged list is set aside with its data.
        fs.mkdirSync(path.join(this.dir, 'data'), { recursive: true });
        writeAtomic(this.dataFile(id), parts);
      }
      // A data file already under this id (a step given it, then lost: a killed rt, or a list an older rt wrote over
      // the log that held it) is another step's: an older rt reads a step's data from its file only, and would
      // undo that change in place of this one.
      else fs.rmSync(this.dataFile(id), { force: true });
      doc.steps = doc.steps.map((s) =>
        redoneBy(s) === step.session && s.state === 'undone' ? { ...s, state: 'cleared' } : s,
      );
      // (An `inline` the caller's object carries is not this step's data: that is the one encoded here.)
      const { inline: _given, ...meta } = step as Step;
      const recorded: Step = {
        ...meta,
        id,
        state: 'done',
        bytes: length,
        ...(inline ? { inline: Buffer.concat(parts).toString('base64') } : {}),
      };
      doc.steps.push(recorded);
      this.bound(doc);
      return recorded;
    });
  }

  /**
   * Records the step of a batch that recovery finished, from what its journal kept: `meta` (the
   * step as the list says it, without its stamps) and `blob` (its data, as encodeStepData made
   * it); `written` gives each file the stamp of what is there now. Throws what is wrong with them.
   */
  recordStaged(meta: unknown, blob: Buffer, batch: string, written: (file: StepFile) => StepFile): void {
    const step = cleanStep({ ...(meta as Step), id: 0, state: 'done', bytes: 0 });
    const data = decode(blob);
    if (!step || !data || data.length !== step.files.length) throw new Error('its step as kept is damaged');
    const {
      id: _id,
      state: _state,
      bytes: _bytes,
      inline: _inline,
      undoneSeq: _seq,
      undoneBy: _by,
      pending: _pending,
      ...rest
    } = step;
    this.record({ ...rest, files: step.files.map(written), batch }, data);
  }

  /**
   * Says that this process is about to write the files of an undo or redo of step `id`: if it
   * is killed before `mark`, the next rt finds out which side its files are on (see settle).
   * False when the history could not be written (the undo is not made then).
   */
  begin(id: number, direction: 'undo' | 'redo', session: string | null): boolean {
    return (
      this.update((doc) => {
        const at = doc.steps.findIndex((s) => s.id === id);
        if (at === -1) return false;
        doc.steps[at] = { ...doc.steps[at]!, pending: { direction, owner: thisProcess(), time: Date.now(), session } };
        return true;
      }) === true
    );
  }

  /**
   * Sets the state of step `id`, and what its files are now on the side an undo or redo wrote
   * (`files`); ends what `begin` said. A state of undefined only ends that.
   */
  mark(
    id: number,
    state: StepState | undefined,
    files?: readonly StepFile[],
    more: { by?: string | null; folders?: readonly string[]; ifPending?: Step['pending'] } = {},
  ): void {
    this.update((doc) => {
      const at = doc.steps.findIndex((s) => s.id === id);
      if (at === -1) return;
      const found = doc.steps[at]!;
      // A settlement of what an rt left under way applies only if it is still that one's.
      if (
        more.ifPending &&
        (found.pending?.owner.pid !== more.ifPending.owner.pid || found.pending?.time !== more.ifPending.time)
      )
        return;
      const { pending: _ended, undoneBy: _by, ...step } = found;
      if (state === undefined) {
        doc.steps[at] = { ...step, ...(found.undoneBy !== undefined ? { undoneBy: found.undoneBy } : {}) };
        return;
      }
      const by = state === 'undone' && more.by !== undefined && more.by !== found.session ? { undoneBy: more.by } : {};
      doc.steps[at] = {
        ...step,
        state,
        ...(files ? { files } : {}),
        ...(more.folders ? { folders: more.folders } : {}),
        ...by,
        ...(state === 'undone' ? { undoneSeq: (doc.undos = (doc.undos ?? 0) + 1) } : {}),
      };
    });
  }

  /**
   * Temporary files of the history that a killed rt left, what it left of the history's lock
   * (see removeLockLeftovers), and data files of no step of the list (a step left out as
   * damaged). Under the history's lock.
   */
  private removeLeftovers(doc: Doc): void {
    // A long-lived process (rt mcp) looks once a minute: leftovers are rare (a killed rt), and harmless meanwhile.
    const now = Date.now();
    if (now - (leftoversSought.get(this.dir) ?? Number.NEGATIVE_INFINITY) < LEFTOVERS_EVERY_MS) return;
    leftoversSought.set(this.dir, now);
    // Lock drafts and breakers are made before the lock is held: only those of rt processes gone.
    removeLockLeftovers(path.join(this.dir, '.steps.rt-lock'));
    // The list's and the data's temporary files are written under the lock, which this rt holds:
    // any there now was left by a killed rt (its PID may already name another process).
    const own = (dir: string, names: readonly string[], temp: RegExp) => {
      for (const n of names) if (temp.test(n)) fs.rmSync(path.join(dir, n), { force: true });
    };
    let names: string[] = [];
    const data = path.join(this.dir, 'data');
    try {
      own(this.dir, fs.readdirSync(this.dir), /^steps\.(json|log)\.tmp-\d+-[0-9a-z]{6}$/);
      names = fs.readdirSync(data);
    } catch {
      return;
    }
    own(data, names, /^\d+\.bin\.tmp-\d+-[0-9a-z]{6}$/);
    // A step kept inline owns no data file: one under its id is another's (an older rt's, given the same id and
    // killed before its list was written), which an older rt would read as this step's.
    const ids = new Set(doc.steps.flatMap((step) => (step.inline === undefined ? [step.id] : [])));
    for (const n of names) {
      const m = /^(\d+)\.bin$/.exec(n);
      if (m && !ids.has(Number(m[1])) && Number(m[1]) < doc.next) fs.rmSync(path.join(data, n), { force: true });
    }
  }

  private bound(doc: Doc): void {
    const now = Date.now();
    let bytes = doc.steps.reduce((n, s) => n + s.bytes, 0);
    // The step just recorded (the last) always stays: record refuses one over the bound by itself.
    while (
      doc.steps.length > 1 &&
      (doc.steps.length > MAX_STEPS || bytes > MAX_BYTES || now - doc.steps[0]!.time > MAX_AGE_MS)
    ) {
      const gone = doc.steps.shift()!;
      bytes -= gone.bytes;
      // (A step kept inline has none, but a file left under its id by a lost step goes with it.)
      fs.rmSync(this.dataFile(gone.id), { force: true });
    }
  }

  /**
   * Changes the list under the history's lock. The change is appended to the log in place when the log is there,
   * whole and based on the list as it is (one write to a file that exists: no file made, none replaced); the list is
   * written whole (a temporary file renamed over it) when there is no list yet, every LOG_CHANGES changes, and
   * whenever the log cannot take it. A killed rt leaves at most a torn last line, which readers skip.
   */
  private update<T>(change: (doc: Doc) => T): T | undefined {
    try {
      for (const dir of [this.dir, path.join(this.dir, 'data')]) {
        fs.mkdirSync(dir, { recursive: true });
        // A folder of the history swapped for a link is never written through.
        if (fs.lstatSync(dir).isSymbolicLink() || fs.realpathSync.native(dir) !== dir) return undefined;
      }
    } catch {
      return undefined;
    }
    const lock = acquireLock(
      path.join(this.dir, '.steps.rt-lock'),
      'the history',
      LOCK_WAIT_MS,
      undefined,
      undefined,
      lockPoolIn(path.dirname(this.dir)),
    );
    try {
      const loaded = this.load();
      const doc = loaded.doc;
      const before = [...doc.steps];
      const out = change(doc);
      if (!this.appendChange(loaded, before, doc)) {
        const list = Buffer.from(listText(doc));
        writeAtomic(this.listFile(), list);
        // The log's base is gone with the list it named: it is stale, removed so that no reader reads it again.
        fs.rmSync(this.logFile(), { force: true });
        const log = Buffer.alloc(0);
        known.set(this.listFile(), { list, log, loaded: { doc, list, log, changes: 0 } });
      }
      return out;
    } finally {
      lock.release();
    }
  }

  /**
   * Writes the change from `before` to `doc` as a line of the log (made anew, with its base, when there is none);
   * false when the list must be written whole instead.
   */
  private appendChange(loaded: Loaded, before: readonly Step[], doc: Doc): boolean {
    if (loaded.list === undefined || loaded.changes === undefined || loaded.changes >= LOG_CHANGES) return false;
    const made = changeOf(before, doc.steps);
    if (!made) return false;
    const line = changeLine(doc, made);
    if (loaded.log.length + line.length > LOG_MAX_BYTES) return false;
    let log: Buffer;
    if (loaded.log.length === 0) {
      // A log made anew: a temporary file renamed to a name that holds nothing (no file replaced).
      log = Buffer.concat([logHead(loaded.list), line]);
      writeAtomic(this.logFile(), log);
    } else {
      if (!appendInPlace(this.logFile(), loaded.log.length, line)) return false;
      log = Buffer.concat([loaded.log, line]);
    }
    known.set(this.listFile(), {
      list: loaded.list,
      log,
      loaded: { doc, list: loaded.list, log, changes: loaded.changes + 1 },
    });
    return true;
  }

  private read(): Doc {
    return this.load().doc;
  }

  /** The list, its log's changes applied (the log first: read before the list, it is never newer than the list). */
  private load(): Loaded {
    const empty = (): Loaded => ({
      doc: { format: FORMAT, version: VERSION, next: 1, steps: [] },
      log: Buffer.alloc(0),
      changes: 0,
    });
    let list: Buffer;
    let log: Buffer;
    try {
      if (fs.realpathSync.native(this.dir) !== this.dir) return empty();
      // Read as a plain file: a link, FIFO or device planted there is no log (the next write replaces it).
      log = readPlainFile(this.logFile(), LOG_MAX_BYTES * 2) ?? Buffer.alloc(0);
      const st = fs.lstatSync(this.listFile(), { throwIfNoEntry: false });
      if (!st) return empty();
      list = st.isFile() ? fs.readFileSync(this.listFile()) : Buffer.alloc(0);
    } catch {
      return empty();
    }
    // The list and log as this process last read or wrote them, unchanged since: taken as they were, not parsed again
    // (a long-lived rt mcp records one step a call, and the list holds up to MAX_STEPS; a CLI command reads them at
    // each step of its own: rt undo settles, chooses, begins and marks).
    const own = known.get(this.listFile());
    if (own?.list.equals(list) && own.log.equals(log)) return copied(own.loaded);
    const doc = this.parseList(list.toString('utf8'));
    if (!doc) return empty();
    this.damagedLog = false;
    const loaded = { list, ...this.applyLog(doc, list, log) };
    // A damaged log is read again, and told of again, at the next read (an rt mcp server's next call).
    if (!this.damagedLog) known.set(this.listFile(), { list, log, loaded });
    return copied(loaded);
  }

  private parseList(text: string): Doc | undefined {
    try {
      const doc = JSON.parse(text) as Doc;
      if (
        doc &&
        doc.format === FORMAT &&
        doc.version === VERSION &&
        Number.isInteger(doc.next) &&
        Array.isArray(doc.steps)
      ) {
        // A step whose own fields are damaged is left out (its data goes with the next bound);
        // a damaged field that only adds to a step (a count, a mark) is dropped: the rest stands.
        const steps = doc.steps.flatMap((step) => cleanStep(step) ?? []);
        return {
          ...doc,
          // A next number not past every step's (a list edited or put back by hand) would give a new step the
          // id, and write over the data, of one the list holds.
          next: nextPast(steps, doc.next),
          undos: Number.isInteger(doc.undos) ? doc.undos : 0,
          steps,
        };
      }
    } catch {
      // damaged: set aside below
    }
    // Set aside with its data: a list that cannot be read leaves nothing behind that no bound counts.
    this.store.setAsideFile('index', this.listFile(), 'it is not a history rt wrote');
    this.store.setAsideFile('index', path.join(this.dir, 'data'), 'its list was damaged');
    if (fs.existsSync(this.logFile())) this.store.setAsideFile('index', this.logFile(), 'its list was damaged');
    return undefined;
  }

  /**
   * `doc` (the list `list` parsed) with the changes of `log` applied, when the log's base is that list: a log of
   * another list (written whole since, by this rt or one that keeps no log) is stale, and read as none. Its lines are
   * applied up to the first that is not whole and sound: a torn last line is what a killed rt leaves (the log then
   * takes no more in place); a damaged line before others is damage: the log is set aside.
   */
  private applyLog(doc: Doc, list: Buffer, log: Buffer): Omit<Loaded, 'list'> {
    if (log.length === 0) return { doc, log, changes: 0 };
    // The head with its newline: a first line without it is torn as any other (a change appended would be glued to it).
    const head = logHead(list);
    if (log.length < head.length || log.compare(head, 0, head.length, 0, head.length) !== 0)
      return { doc, log: Buffer.alloc(0) };
    const lines = logLines(log, head.length);
    const replayed = new Replay(doc.steps);
    let next = doc.next;
    let undos = doc.undos ?? 0;
    let changes = 0;
    const applied = () => {
      const steps = replayed.steps();
      return { ...doc, steps, next: nextPast(steps, next), undos };
    };
    for (let i = 0; i < lines.count; i++) {
      const change = parseChange(log, lines.starts[i]!, lines.spaces[i]!, lines.ends[i]!, lines.digestOf(i));
      if (!change) {
        // Copied aside: the file stays until the next write replaces it with the list written whole, which keeps
        // the changes read before the damage (an rt reading without the lock must not take it from under a writer).
        this.damagedLog = true;
        this.store.copyAside('index-steps.log', log, `state file ${this.shown(this.logFile())}`, 'it is damaged');
        return { doc: applied(), log };
      }
      replayed.apply(change.del, change.put);
      next = Math.max(next, change.next);
      undos = change.undos;
      changes++;
    }
    // A torn last line: skipped, and the log takes no more in place.
    return lines.torn ? { doc: applied(), log } : { doc: applied(), log, changes };
  }

  /** Whether the last log read was found damaged (see read). */
  private damagedLog = false;

  private listFile(): string {
    return path.join(this.dir, 'steps.json');
  }

  /** A file of the history as messages name it. */
  private shown(file: string): string {
    return path.relative(path.dirname(this.store.dir), file);
  }

  private logFile(): string {
    return path.join(this.dir, 'steps.log');
  }

  private dataFile(id: number): string {
    return path.join(this.dir, 'data', `${id}.bin`);
  }
}

/** `loaded` with a document of its own to change (its steps are never changed in place, only replaced). */
function copied(loaded: Loaded): Loaded {
  return { ...loaded, doc: { ...loaded.doc, steps: [...loaded.doc.steps] } };
}

/** Each step's JSON text, once made: a step is never changed, only replaced (see listText). */
const stepTexts = new WeakMap<Step, string>();

/** A step's JSON text, made once (see stepTexts). */
function stepText(step: Step): string {
  let text = stepTexts.get(step);
  if (text === undefined) stepTexts.set(step, (text = JSON.stringify(step)));
  return text;
}

/**
 * The list's text, as JSON.stringify(doc) makes it, from the text of each step made once: a long-lived rt mcp
 * rewrites a list of up to MAX_STEPS steps a call, all but one or two of them the same steps as before.
 */
export function listText(doc: Doc): string {
  const steps = doc.steps.map(stepText);
  // The document's own fields in their own order, the steps' place held by a number that nothing else there writes.
  const head = JSON.stringify({ ...doc, steps: 0 });
  const at = head.lastIndexOf('"steps":0');
  return `${head.slice(0, at)}"steps":[${steps.join(',')}]${head.slice(at + '"steps":0'.length)}`;
}

/** A next number past every step's. */
function nextPast(steps: readonly Step[], next: number): number {
  return steps.reduce((n, step) => Math.max(n, step.id + 1), next);
}

/** A change of the list as its log keeps it: the steps taken out (by id), then those put (in place, or at the end). */
interface ListChange {
  readonly next: number;
  readonly undos: number;
  readonly del: readonly number[];
  readonly put: readonly Step[];
}

/**
 * Steps with the log's changes replayed one after another as replay does, each step found by its id: replay passes
 * over every step at each change, and a log of 32 changes of a list of MAX_STEPS did so 32 times at a command's start.
 */
class Replay {
  private readonly held: (Step | undefined)[];
  /** Where each step lies in `held`; undefined when two steps share an id (a list edited by hand): replay runs then. */
  private readonly at: Map<number, number> | undefined;
  private plain: Step[] | undefined;

  constructor(steps: readonly Step[]) {
    this.held = [...steps];
    const at = new Map<number, number>();
    for (let i = 0; i < steps.length; i++) at.set(steps[i]!.id, i);
    if (at.size === steps.length) this.at = at;
    else this.plain = [...steps];
  }

  apply(del: readonly number[], put: readonly Step[]): void {
    if (!this.at) {
      this.plain = replay(this.plain!, del, put);
      return;
    }
    for (const id of del) {
      const i = this.at.get(id);
      if (i === undefined) continue;
      this.held[i] = undefined;
      this.at.delete(id);
    }
    for (const step of put) {
      const i = this.at.get(step.id);
      if (i !== undefined) this.held[i] = step;
      else this.at.set(step.id, this.held.push(step) - 1);
    }
  }

  steps(): Step[] {
    return this.plain ?? this.held.filter((step) => step !== undefined);
  }
}

/** `steps` with a change replayed. */
function replay(steps: readonly Step[], del: readonly number[], put: readonly Step[]): Step[] {
  const gone = new Set(del);
  const out = steps.filter((s) => !gone.has(s.id));
  for (const step of put) {
    const at = out.findIndex((s) => s.id === step.id);
    if (at === -1) out.push(step);
    else out[at] = step;
  }
  return out;
}

/**
 * The change from steps `before` to `after` (a step is never changed in place, only replaced: an object not in
 * `before` is new or changed); undefined when replaying it would not give `after` exactly (its order, repeated ids).
 */
function changeOf(before: readonly Step[], after: readonly Step[]): Pick<ListChange, 'del' | 'put'> | undefined {
  const kept = new Set(after.map((s) => s.id));
  const del = before.filter((s) => !kept.has(s.id)).map((s) => s.id);
  const was = new Set(before);
  const put = after.filter((s) => !was.has(s));
  const replayed = replay(before, del, put);
  return replayed.length === after.length && replayed.every((s, i) => s === after[i]) ? { del, put } : undefined;
}

/**
 * The log's first line: the list it applies to, by the digest of its text (the list's document is made from that
 * text), taken in WebAssembly when the list is long and ASCII (a list of 200 steps, some 230 KB, took 5 ms in
 * JavaScript at a command's start, before the code is optimised).
 */
function logHead(list: Buffer): Buffer {
  const base = (list.length >= WASM_DIGEST_FROM ? digestAscii(list) : undefined) ?? digestText(list.toString('utf8'));
  return Buffer.from(`${JSON.stringify({ format: LOG_FORMAT, version: VERSION, base })}\n`);
}

/** A line of the log: the digest of its change's JSON, a space, the JSON (which holds no newline). */
function changeLine(doc: Doc, change: Pick<ListChange, 'del' | 'put'>): Buffer {
  const put = change.put.map(stepText);
  const json = Buffer.from(
    `{"next":${doc.next},"undos":${doc.undos ?? 0},"del":${JSON.stringify(change.del)},"put":[${put.join(',')}]}`,
  );
  return Buffer.concat([Buffer.from(`${digestBytes(json)} `), json, Buffer.from('\n')]);
}

/** The whole lines of a log after its head: per line, where it starts, its first space and its newline. */
interface LogLines {
  readonly count: number;
  readonly starts: readonly number[];
  /** Where its first space lies (-1 when it has none: damaged). */
  readonly spaces: readonly number[];
  readonly ends: readonly number[];
  /** The digest of line i's JSON (after its first space), taken in WebAssembly when the log is long (else undefined:
   * taken as it is read). */
  digestOf(i: number): string | undefined;
  /** Whether a last line without its newline follows them. */
  readonly torn: boolean;
}

/**
 * The whole lines of `log` from `from` on. A last line without its newline is torn, however whole it reads: a write
 * cut short just before the newline (a kill between pages, a full disk) leaves one, and a line appended after it
 * would be glued to it. The lines' digests are taken over one copy of the log in WebAssembly when it is long (a CLI
 * command reads the log once, before JavaScript's digest of its lines is optimised: 3 ms for 30 KB), each as its
 * line is read: no digest is taken past the first damaged line.
 */
export function logLines(log: Buffer, from: number): LogLines {
  const starts: number[] = [];
  const spaces: number[] = [];
  const ends: number[] = [];
  let at = from;
  let damaged = false;
  for (let end = log.indexOf(0x0a, at); end !== -1 && !damaged; at = end + 1, end = log.indexOf(0x0a, at)) {
    // A line is its digest, a space and its JSON: its space looked for within it (through the rest of the log, lines
    // with none took time quadratic in their count). A line of another shape is damaged, and no line after it is read.
    let space = -1;
    for (let k = at, to = Math.min(end, at + DIGEST_CHARS + 1); k < to && space === -1; k++)
      if (log[k] === 0x20) space = k - at;
    damaged = space !== DIGEST_CHARS;
    starts.push(at);
    spaces.push(space === -1 ? -1 : at + space);
    ends.push(end);
  }
  const digester = log.length >= WASM_DIGEST_FROM ? bytesDigester(log) : undefined;
  const digestOf = (i: number) => (spaces[i] === -1 ? undefined : digester?.(spaces[i]! + 1, ends[i]!));
  return { count: starts.length, starts, spaces, ends, digestOf, torn: !damaged && at < log.length };
}

/** The characters of a digest (digestBytes' hex digits), which begin a line of the log. */
const DIGEST_CHARS = 16;

/**
 * The line of the log at `start..end` (its first space at `space`), checked against its digest (`digest`, when
 * taken already, of its JSON); undefined when it is not sound.
 */
function parseChange(log: Buffer, start: number, space: number, end: number, digest?: string): ListChange | undefined {
  if (space === -1) return undefined;
  if ((digest ?? digestBytes(log.subarray(space + 1, end))) !== log.toString('latin1', start, space)) return undefined;
  try {
    const c = JSON.parse(log.toString('utf8', space + 1, end)) as ListChange;
    if (
      !c ||
      !Number.isInteger(c.next) ||
      !Number.isInteger(c.undos) ||
      !Array.isArray(c.del) ||
      !c.del.every((id) => Number.isInteger(id)) ||
      !Array.isArray(c.put)
    )
      return undefined;
    const put = c.put.map((step) => cleanStep(step));
    return put.every((step) => step !== undefined) ? { ...c, put: put as Step[] } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Appends `line` to the log in place: only to a regular file of exactly `size` bytes (those read and checked, under
 * the history's lock) that no other name links (a hard link planted there would be written through); false when
 * it is not one, or the write fails (a part written is a torn last line, which readers skip).
 */
function appendInPlace(file: string, size: number, line: Buffer): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, (READ_PLAIN & ~fs.constants.O_RDONLY) | fs.constants.O_WRONLY | fs.constants.O_APPEND);
  } catch {
    return false;
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.nlink !== 1 || st.size !== size) return false;
    writeAll(fd, line);
    return true;
  } catch {
    return false;
  } finally {
    fs.closeSync(fd);
  }
}

/** The step as read, its damaged optional fields dropped; undefined when a field it needs is damaged. */
function cleanStep(s: Step): Step | undefined {
  const needed =
    s !== null &&
    typeof s === 'object' &&
    Number.isInteger(s.id) &&
    typeof s.time === 'number' &&
    Math.abs(s.time) <= MAX_TIME &&
    (s.session === null || typeof s.session === 'string') &&
    typeof s.command === 'string' &&
    ['done', 'undone', 'cleared'].includes(s.state) &&
    Number.isInteger(s.bytes) &&
    s.bytes >= 0 &&
    Array.isArray(s.files) &&
    s.files.length > 0 &&
    s.files.every(
      (f) =>
        f &&
        typeof f.path === 'string' &&
        typeof f.abs === 'string' &&
        path.isAbsolute(f.abs) &&
        validSide(f.before) &&
        validSide(f.after) &&
        Number.isInteger(f.added) &&
        Number.isInteger(f.removed),
    );
  if (!needed) return undefined;
  const { undoneSeq, undoneBy, folders, pending, batch, inline, ...rest } = s;
  const p = pending;
  return {
    ...rest,
    // Data that is not a string is none: the step is then taken for one whose data file is missing.
    ...(typeof inline === 'string' ? { inline } : {}),
    ...(typeof batch === 'string' ? { batch } : {}),
    ...(Number.isInteger(undoneSeq) ? { undoneSeq } : {}),
    ...(undoneBy === null || typeof undoneBy === 'string' ? { undoneBy } : {}),
    ...(Array.isArray(folders) && folders.every((f) => typeof f === 'string') ? { folders } : {}),
    ...(p !== null &&
    typeof p === 'object' &&
    ['undo', 'redo'].includes(p.direction) &&
    typeof p.time === 'number' &&
    p.owner !== null &&
    typeof p.owner === 'object' &&
    Number.isInteger(p.owner.pid) &&
    typeof p.owner.host === 'string' &&
    (p.owner.start === undefined || typeof p.owner.start === 'string') &&
    (p.session === undefined || p.session === null || typeof p.session === 'string')
      ? { pending: p }
      : {}),
  };
}

function validSide(side: FileSide): boolean {
  return (
    side !== null &&
    typeof side === 'object' &&
    typeof side.exists === 'boolean' &&
    Number.isInteger(side.size) &&
    side.size >= 0 &&
    (side.digest === null || typeof side.digest === 'string') &&
    (side.link === undefined || typeof side.link === 'string') &&
    (side.mode === undefined || (Number.isInteger(side.mode) && side.mode >= 0 && side.mode <= 0o7777)) &&
    (side.stamp === undefined ||
      (side.stamp !== null &&
        typeof side.stamp === 'object' &&
        typeof side.stamp.size === 'number' &&
        typeof side.stamp.mtimeNs === 'string' &&
        typeof side.stamp.ctimeNs === 'string' &&
        typeof side.stamp.ino === 'string'))
  );
}

/**
 * A step's data: a 4-byte length, a JSON header (per file: its hunks, the byte counts of its
 * changed ranges and its LID counts, and the digest of everything after the header), then the
 * bytes of the ranges and the LIDs as 32-bit words. Data that does not match its digest is
 * damaged: never written into a file.
 */
export function encodeStepData(data: readonly NewFileData[]): Buffer {
  return Buffer.concat(stepDataParts(data));
}

/**
 * A step's new bytes may be given in pieces (the lines of a range, cut from a new file held in
 * parts): written one after the other, as if joined.
 */
export type NewFileData = Omit<FileData, 'afterBytes'> & {
  readonly afterBytes: ReadonlyArray<Buffer | readonly Buffer[]>;
};

/**
 * The bytes encodeStepData gives, in parts: the length and header, then the ranges and LIDs as
 * given, never joined (a step of a 50 MB line held both of its sides once more joined), their
 * digest taken over them in order.
 */
function stepDataParts(data: readonly NewFileData[]): Uint8Array[] {
  const pieces = (b: Buffer | readonly Buffer[]) => (Buffer.isBuffer(b) ? [b] : b);
  const sizeOf = (b: Buffer | readonly Buffer[]) => pieces(b).reduce((n, piece) => n + piece.length, 0);
  const payload: Uint8Array[] = [];
  for (const f of data) payload.push(...f.beforeBytes, ...f.afterBytes.flatMap(pieces));
  for (const f of data)
    for (const l of [...f.beforeLids, ...f.afterLids])
      payload.push(new Uint8Array(l.buffer, l.byteOffset, l.byteLength));
  const files = data.map((f) => ({
    ...(f.movedTo === undefined ? {} : { movedTo: f.movedTo }),
    ...(f.movedFrom === undefined ? {} : { movedFrom: f.movedFrom }),
    hunks: f.hunks,
    before: f.beforeBytes.map((b) => b.length),
    after: f.afterBytes.map(sizeOf),
    beforeLids: f.beforeLids.map((l) => l.length),
    afterLids: f.afterLids.map((l) => l.length),
  }));
  const header = Buffer.from(JSON.stringify({ check: digestParts(payload), files }));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  return [length, header, ...payload];
}

interface HeaderFile {
  movedTo?: number;
  movedFrom?: number;
  hunks: StepHunk[];
  before: number[];
  after: number[];
  beforeLids: number[];
  afterLids: number[];
}

function decode(blob: Buffer): FileData[] | undefined {
  try {
    const headerLength = blob.readUInt32LE(0);
    const header = JSON.parse(blob.toString('utf8', 4, 4 + headerLength)) as { check: string; files: HeaderFile[] };
    const body = blob.subarray(4 + headerLength);
    if (typeof header.check !== 'string' || !Array.isArray(header.files) || digestBytes(body) !== header.check)
      return undefined;
    let at = 0;
    const take = (n: number) => {
      if (!Number.isInteger(n) || n < 0 || at + n > body.length) throw new Error('short');
      at += n;
      return body.subarray(at - n, at);
    };
    const files = header.files.map((f) => ({ f, beforeBytes: f.before.map(take), afterBytes: f.after.map(take) }));
    // The LIDs, copied out of the blob (its words need not be aligned).
    const lids = (n: number) => new Uint32Array(new Uint8Array(take(n * 4)).buffer);
    const out: FileData[] = files.map(({ f, beforeBytes, afterBytes }) => ({
      ...(f.movedTo === undefined ? {} : { movedTo: f.movedTo }),
      ...(f.movedFrom === undefined ? {} : { movedFrom: f.movedFrom }),
      hunks: f.hunks,
      beforeBytes,
      afterBytes,
      beforeLids: f.beforeLids.map(lids),
      afterLids: f.afterLids.map(lids),
    }));
    if (at !== body.length || !out.every((f, i) => validData(f, i, out.length))) return undefined;
    return out;
  } catch {
    return undefined;
  }
}

function validData(f: FileData, i: number, count: number): boolean {
  const side = (x: StepHunk['before']) =>
    x &&
    [x.from, x.to, x.start, x.end].every((n) => Number.isInteger(n) && n >= 0) &&
    x.from <= x.to &&
    x.start <= x.end;
  return (
    [f.movedTo, f.movedFrom].every((k) => k === undefined || (Number.isInteger(k) && k >= 0 && k < count && k !== i)) &&
    (f.movedTo === undefined || f.movedFrom === undefined) &&
    Array.isArray(f.hunks) &&
    f.hunks.length === f.beforeBytes.length &&
    f.hunks.length === f.afterBytes.length &&
    f.hunks.every(
      (h, k) =>
        h &&
        side(h.before) &&
        side(h.after) &&
        h.before.end - h.before.start === f.beforeBytes[k]!.length &&
        h.after.end - h.after.start === f.afterBytes[k]!.length,
    )
  );
}

/** The bytes a step's data takes. */
function dataSize(data: readonly NewFileData[]): number {
  let n = 0;
  for (const f of data) {
    for (const b of [...f.beforeBytes, ...f.afterBytes.flat()]) n += b.length;
    for (const l of [...f.beforeLids, ...f.afterLids]) n += l.byteLength;
  }
  return n;
}

/** The session whose redo brings back step `s` (when undone). */
export function redoneBy(s: Step): string | null {
  return s.undoneBy !== undefined ? s.undoneBy : s.session;
}

/** The latest time Date holds, in ms. */
const MAX_TIME = 8.64e15;
