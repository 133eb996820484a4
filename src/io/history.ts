// The history of rt's own writes (SPEC §8), in the root's .rt/history/:
//
//   steps.json      the steps, oldest first: command, time, session, and per file its two sides
//                   (whether it existed, its size, its content's digest; after a write, its
//                   stamp) and the lines it changed
//   data/ID.bin     per step, the bytes and LIDs of the changed lines of each file, both sides
//
// Like the rest of .rt/ it is a cache of what rt did: never trusted when damaged (set aside),
// never a reason for a write to fail, bounded (the last 200 steps, 256 MiB of data, 30 days).

import fs from 'node:fs';
import path from 'node:path';
import type { Hunk } from '../core/history/changes.js';
import { acquireLock } from './lock.js';
import { thisProcess, type Owner } from './processes.js';
import type { FileStamp } from './savedIndex.js';
import { writeAtomic, type StateStore } from './state.js';

const FORMAT = 'rt-history';
const VERSION = 1;
export const MAX_STEPS = 200;
export const MAX_BYTES = 256 << 20;
const MAX_AGE_MS = 30 * 86_400_000;
const LOCK_WAIT_MS = 5000;

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
  readonly files: readonly StepFile[];
  /** Bytes of its data file. */
  readonly bytes: number;
  /** Folders the step made for its new files (from the root, outermost first): an undo removes them when empty. */
  readonly folders?: readonly string[];
  /**
   * An undo or redo of the step under way (or killed before it ended): set before its files are
   * written, cleared once the step is marked; `state` is the one before it meanwhile.
   */
  readonly pending?: { readonly direction: 'undo' | 'redo'; readonly owner: Owner; readonly time: number };
}

interface Doc {
  readonly format: string;
  readonly version: number;
  next: number;
  /** Counts undos, for Step.undoneSeq. */
  undos?: number;
  steps: Step[];
}

/** What a step keeps of one file: its changed ranges, their bytes and their LIDs, on both sides. */
export interface FileData {
  readonly hunks: readonly Hunk[];
  readonly beforeBytes: readonly Buffer[];
  readonly afterBytes: readonly Buffer[];
  readonly beforeLids: readonly Uint32Array[];
  readonly afterLids: readonly Uint32Array[];
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

  /** The data of step `id`, per file; undefined when it is missing or damaged. */
  data(id: number): FileData[] | undefined {
    let blob: Buffer;
    try {
      blob = fs.readFileSync(this.dataFile(id));
    } catch {
      return undefined;
    }
    try {
      const headerLength = blob.readUInt32LE(0);
      const header = JSON.parse(blob.toString('utf8', 4, 4 + headerLength)) as Array<{ hunks: Hunk[]; before: number[]; after: number[]; beforeLids: number[][]; afterLids: number[][] }>;
      let at = 4 + headerLength;
      const take = (n: number) => {
        const out = blob.subarray(at, at + n);
        if (out.length !== n) throw new Error('short');
        at += n;
        return out;
      };
      return header.map((f) => ({
        hunks: f.hunks,
        beforeBytes: f.before.map(take),
        afterBytes: f.after.map(take),
        beforeLids: f.beforeLids.map((l) => Uint32Array.from(l)),
        afterLids: f.afterLids.map((l) => Uint32Array.from(l)),
      }));
    } catch {
      return undefined;
    }
  }

  /**
   * Records a step: its data first, then the list, under the history's lock. A new step of a
   * session clears what that session could redo. The oldest steps go past the bounds.
   */
  record(step: Omit<Step, 'id' | 'bytes' | 'state'>, data: readonly FileData[]): Step | undefined {
    if (!this.store.ensure()) return undefined;
    return this.update((doc) => {
      const id = doc.next++;
      const blob = encode(data);
      fs.mkdirSync(path.join(this.dir, 'data'), { recursive: true }); // again: a damaged list is set aside with its data
      writeAtomic(this.dataFile(id), blob);
      doc.steps = doc.steps.map((s) => (s.session === step.session && s.state === 'undone' ? { ...s, state: 'cleared' } : s));
      const recorded: Step = { ...step, id, state: 'done', bytes: blob.length };
      doc.steps.push(recorded);
      this.bound(doc);
      return recorded;
    });
  }

  /**
   * Says that this process is about to write the files of an undo or redo of step `id`: if it
   * is killed before `mark`, the next rt finds out which side its files are on (see settle).
   * False when the history could not be written (the undo is not made then).
   */
  begin(id: number, direction: 'undo' | 'redo'): boolean {
    return (
      this.update((doc) => {
        const at = doc.steps.findIndex((s) => s.id === id);
        if (at === -1) return false;
        doc.steps[at] = { ...doc.steps[at]!, pending: { direction, owner: thisProcess(), time: Date.now() } };
        return true;
      }) === true
    );
  }

  /**
   * Sets the state of step `id`, and what its files are now on the side an undo or redo wrote
   * (`files`); ends what `begin` said. A state of undefined only ends that.
   */
  mark(id: number, state: StepState | undefined, files?: readonly StepFile[]): void {
    this.update((doc) => {
      const at = doc.steps.findIndex((s) => s.id === id);
      if (at === -1) return;
      const { pending: _ended, ...step } = doc.steps[at]!;
      doc.steps[at] = state === undefined ? step : { ...step, state, ...(files ? { files } : {}), ...(state === 'undone' ? { undoneSeq: (doc.undos = (doc.undos ?? 0) + 1) } : {}) };
    });
  }

  private bound(doc: Doc): void {
    const now = Date.now();
    let bytes = doc.steps.reduce((n, s) => n + s.bytes, 0);
    while (doc.steps.length > 0 && (doc.steps.length > MAX_STEPS || bytes > MAX_BYTES || now - doc.steps[0]!.time > MAX_AGE_MS)) {
      const gone = doc.steps.shift()!;
      bytes -= gone.bytes;
      fs.rmSync(this.dataFile(gone.id), { force: true });
    }
  }

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
    const lock = acquireLock(path.join(this.dir, '.steps.rt-lock'), 'the history', LOCK_WAIT_MS);
    try {
      const doc = this.read();
      const out = change(doc);
      writeAtomic(this.listFile(), JSON.stringify(doc));
      return out;
    } finally {
      lock.release();
    }
  }

  private read(): Doc {
    const empty = (): Doc => ({ format: FORMAT, version: VERSION, next: 1, steps: [] });
    let text: string;
    try {
      if (fs.realpathSync.native(this.dir) !== this.dir) return empty();
      const st = fs.lstatSync(this.listFile(), { throwIfNoEntry: false });
      if (!st) return empty();
      text = st.isFile() ? fs.readFileSync(this.listFile(), 'utf8') : '';
    } catch {
      return empty();
    }
    try {
      const doc = JSON.parse(text) as Doc;
      if (doc && doc.format === FORMAT && doc.version === VERSION && Number.isInteger(doc.next) && Array.isArray(doc.steps) && doc.steps.every(validStep)) return doc;
    } catch {
      // damaged: set aside below
    }
    // Set aside with its data: a list that cannot be read leaves nothing behind that no bound counts.
    this.store.setAsideFile('index', this.listFile(), 'it is not a history rt wrote');
    this.store.setAsideFile('index', path.join(this.dir, 'data'), 'its list was damaged');
    return empty();
  }

  private listFile(): string {
    return path.join(this.dir, 'steps.json');
  }

  private dataFile(id: number): string {
    return path.join(this.dir, 'data', `${id}.bin`);
  }
}

function validStep(s: Step): boolean {
  return (
    s !== null &&
    typeof s === 'object' &&
    Number.isInteger(s.id) &&
    typeof s.time === 'number' &&
    (s.session === null || typeof s.session === 'string') &&
    typeof s.command === 'string' &&
    ['done', 'undone', 'cleared'].includes(s.state) &&
    Number.isInteger(s.bytes) &&
    (s.folders === undefined || (Array.isArray(s.folders) && s.folders.every((f) => typeof f === 'string'))) &&
    (s.pending === undefined || (s.pending !== null && typeof s.pending === 'object' && ['undo', 'redo'].includes(s.pending.direction) && typeof s.pending.time === 'number' && s.pending.owner !== null && typeof s.pending.owner === 'object' && Number.isInteger(s.pending.owner.pid) && typeof s.pending.owner.host === 'string')) &&
    Array.isArray(s.files) &&
    s.files.every((f) => f && typeof f.path === 'string' && typeof f.abs === 'string' && path.isAbsolute(f.abs) && validSide(f.before) && validSide(f.after))
  );
}

function validSide(side: FileSide): boolean {
  return side !== null && typeof side === 'object' && typeof side.exists === 'boolean' && typeof side.size === 'number' && (side.digest === null || typeof side.digest === 'string') && (side.link === undefined || typeof side.link === 'string');
}

/** A step's data: a 4-byte length, a JSON header (hunks, byte counts, LIDs), then the bytes. */
function encode(data: readonly FileData[]): Buffer {
  const header = Buffer.from(
    JSON.stringify(
      data.map((f) => ({
        hunks: f.hunks,
        before: f.beforeBytes.map((b) => b.length),
        after: f.afterBytes.map((b) => b.length),
        beforeLids: f.beforeLids.map((l) => [...l]),
        afterLids: f.afterLids.map((l) => [...l]),
      })),
    ),
  );
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  return Buffer.concat([length, header, ...data.flatMap((f) => [...f.beforeBytes, ...f.afterBytes])]);
}
