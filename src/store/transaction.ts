// One transaction under every write (the rule "One write path"): edit, insert, delete, create and
// apply stage the changes of a batch (fileChanges.ts), undo and redo stage the inverse of a step of the
// history (stepping.ts); both then commit the same way.
//
//   const tx = Transaction.begin(ws, { lock, make })  // folders made, every file locked in one order
//   tx.read(file)                                      // the file as it is now, under its lock
//   tx.stage(change)                                   // NewFile | Edit | Removal | Move (a link: NewFile)
//   tx.check()                                         // no new syntax error in what is staged
//   tx.commit(record)                                  // journal, rename, indexes saved, the step recorded
//   tx.end()                                           // locks released; folders made for nothing removed
//
// The commit runs the journal's numbered protocol (journal.ts, commitWrites: its only caller is
// here). Files that a program not taking rt's locks changed between the last check and the rename are
// left as that program made them, and refused by one error (changedMeanwhile) once the rest is saved.

import fs from 'node:fs';
import path from 'node:path';
import { looksBinary, SNIFF_BYTES } from '../model/binary.js';
import { sliceParts } from '../model/edit.js';
import type { FileLines } from '../model/lines.js';
import type { LineIndex } from '../model/lineIndex.js';
import type { EditSet } from '../model/editSet.js';
import { RtError, shellQuote } from '../model/errors.js';
import { hashLines } from '../model/hash.js';
import { nextReading, readSnapshot, saveIndex, statFile, type Snapshot } from './indexedFile.js';
import {
  commitWrites,
  journalDir,
  lockAll,
  lockPathFor,
  type Committed,
  type FileWrite,
  type Skipped,
  type StagedStep,
} from './journal.js';
import { lockPoolIn, type Lock } from './lock.js';
import { enterFolderOf, inFolder } from './pinnedFolder.js';
import type { ResolvedPath, Root } from './root.js';
import type { KeptRecords } from './savedIndex.js';
import type { StateStore } from './state.js';
import { checkChanges } from './syntaxCheck.js';
import { checkWritable, cleanStaleTemps, type FileVersion, type Unread, writtenVersion } from './writeFile.js';

/** What a transaction needs of the command that runs it (the CLI's Context is one). */
export interface Workspace {
  readonly cwd: string;
  readonly root: Root;
  /** The session RT_SESSION names; undefined for the shared one. */
  readonly session: string | undefined;
  /** The state of `file`: in the `.rt/` of its own state root. */
  stateOf(file: { readonly stateRoot: string }): StateStore;
  /** An `rt: ` line on stderr. */
  warn(message: string): void;
  /**
   * Whether what the command reports is held in memory and sent only once it has ended (rt mcp): its LIDs are seen
   * no sooner than End, so the indexes a commit saves may land there, with the rest of the command's state.
   */
  readonly outputHeld?: boolean;
}

/** New content of a file, with the index its lines will have (absent: the LIDs its next reading gives it). */
export interface Content {
  readonly parts: readonly Buffer[];
  readonly lines: FileLines;
  readonly index?: LineIndex;
  /** When the index is the saved one with one range changed: its records kept (see KeptRecords). */
  readonly kept?: KeptRecords;
  /** The edits that make these lines of the file's old ones (the syntax check parses around them). */
  readonly edits?: EditSet;
  /** The ranges of `parts` never read, copied from the file replaced as it is written (see Unread). */
  readonly unread?: Unread;
}

/** A file made (or, with `expected`, replaced whole), or a symbolic link made again holding `link`. */
export interface NewFile {
  readonly kind: 'new';
  readonly file: ResolvedPath;
  readonly content: Content | { readonly link: string };
  /** The file there now, replaced whole (create --force), and what it held. */
  readonly expected?: FileVersion;
  readonly before?: FileLines;
  readonly mode?: number;
}

/** A file changed in place, or left unchanged (then nothing is written, its index is saved all the same). */
export interface Edit {
  readonly kind: 'edit';
  readonly file: ResolvedPath;
  readonly content: Content;
  /** The version read (the file must still be it), and what it held. */
  readonly expected: FileVersion;
  readonly before?: FileLines;
  readonly unchanged?: boolean;
  /** Said in the journal as the undo and redo of a step say it (the bytes of its journal are kept as they were). */
  readonly overwrite?: boolean;
}

/** A file (or the symbolic link itself) taken away. */
export interface Removal {
  readonly kind: 'removal';
  readonly file: ResolvedPath;
  readonly expected: FileVersion | undefined;
  /** Said in the journal as the undo and redo of a step say it. */
  readonly overwrite?: boolean;
}

/** A file moved, its content changed or not: the source goes only once its content is at the target. */
export interface Move {
  readonly kind: 'move';
  readonly from: Removal;
  readonly to: ResolvedPath;
  readonly content: Content;
  /** The source as read. */
  readonly before?: FileLines;
  /** The file at the target, replaced (--force). */
  readonly over?: FileVersion;
  /** The source's permission bits, kept as mv keeps them. */
  readonly mode?: number;
}

export type Change = NewFile | Edit | Removal | Move;

/** What a change left in the state once written. */
export interface Saved {
  readonly change: Change;
  /** The index of its new content, and whether it was saved (else the next reading works its LIDs out). */
  readonly index?: LineIndex;
  readonly saved: boolean;
}

/** How a transaction names in a refusal what it is about (a patch line, with a patch). */
export type Locate = <T>(step: () => T) => T;

/** How the commit of a batch of changes records its step (edit, insert, delete, create, apply). */
export interface WriteRecord {
  readonly kind: 'write';
  /** `rt edit`, …: the journal's command. */
  readonly command: string;
  /** The step the batch makes, kept beside its journal for recovery (see stagedStep); undefined when none is kept. */
  staged(madeFolders: readonly string[]): StagedStep | undefined;
  /** Told of each change written, in order, with what saves its index (called once, when the record says). */
  each(change: Change, save: () => Saved): void;
  /** Records the step of the changes written (their indexes saved), before the journal goes. */
  written(madeFolders: readonly string[], batch: string | undefined): void;
}

/** How the commit of an undo or redo records it: said under way first, then marked taken. */
export interface StepRecord {
  readonly kind: 'step';
  readonly command: string;
  /** Says in the history that the step is being taken (refused when the history cannot be written). */
  begin(): void;
  /** Marks the step not taken after all (the batch refused, or left incomplete). */
  abandon(): void;
  /** Names the step in the refusal of files changed meanwhile: `step 3`, `undone`. */
  readonly step: { readonly id: number; readonly direction: 'undo' | 'redo' };
}

/** A commit done: what each change saved, and the refusal of the files changed meanwhile (written after reporting). */
export interface Commit {
  readonly saved: readonly Saved[];
  readonly stale: RtError | undefined;
}

export class Transaction {
  private readonly staged: Change[] = [];
  private committed = false;

  private constructor(
    private readonly ws: Workspace,
    /** The files locked: every file the transaction may write, whose roots its journal marks. */
    private readonly files: readonly ResolvedPath[],
    private readonly locks: readonly Lock[],
    /** The folders made for new files, outermost first: removed again unless the commit wrote. */
    private readonly made: string[],
    private readonly locate: Locate,
  ) {}

  /**
   * Makes the missing folders of `make` (each lock lies beside its file), then locks every file of
   * `lock` (in one fixed order, so two transactions never deadlock). A refusal removes the folders.
   */
  static begin(
    ws: Workspace,
    files: { readonly lock: readonly ResolvedPath[]; readonly make: readonly ResolvedPath[] },
    locate: Locate = (step) => step(),
  ): Transaction {
    const made: string[] = [];
    try {
      // One file at a time, inside the try: a later file's refusal removes the earlier ones' folders.
      for (const file of files.make) made.push(...makeFolders(file));
      const locks = locate(() =>
        lockAll(
          files.lock.map((t) => ({
            abs: t.abs,
            display: t.display,
            shownLock: path.relative(ws.cwd, lockPathFor(t.abs)),
            // Linked from a draft kept in the file's state folder (see DraftPool in lock.ts).
            ...(ws.stateOf(t).enabled ? { pool: lockPoolIn(ws.stateOf(t).dir) } : {}),
          })),
        ),
      );
      return new Transaction(ws, files.lock, locks, made, locate);
    } catch (error) {
      removeFolders(made);
      throw error;
    }
  }

  /** The folders this transaction made, outermost first. */
  get madeFolders(): readonly string[] {
    return this.made;
  }

  /**
   * Removes what killed rt processes left of their own writes to `files`: their temporary files. Each folder is read
   * for them at most once a minute by one process: a long-lived one (rt mcp) writing a file call after call would
   * read its whole folder every call, for leftovers that are rare and harmless meanwhile.
   */
  sweep(files: readonly ResolvedPath[]): void {
    for (const t of files) if (sweepDue(t.abs)) cleanStaleTemps(t.abs);
    for (const root of new Set(files.map((t) => t.stateRoot)))
      if (sweepDue(path.join(root, '.rt'))) this.ws.stateOf({ stateRoot: root }).removeStaleTemps();
  }

  /** The file as it is now, with its index (read within its folder: a folder swapped for a link is not followed). */
  read(file: ResolvedPath, binary = false): Snapshot {
    return this.within(file, (store, pinnedFile) => readSnapshot(store, pinnedFile, undefined, undefined, binary));
  }

  /** `use` given the file's state and its path within its folder, entered as `read` enters it. */
  within<T>(file: ResolvedPath, use: (store: StateStore, file: ResolvedPath) => T): T {
    const store = this.ws.stateOf(file);
    return inFolder(path.dirname(file.abs), file.display, () => use(store, pinned(file)));
  }

  stage(change: Change): void {
    this.staged.push(change);
  }

  /**
   * Checks the syntax of the new contents staged (their grammars loaded before: prepareChecks);
   * refuses the whole transaction when one has errors it did not have.
   */
  check(): void {
    checkChanges(this.ws, this.staged);
  }

  /** The files the staged changes write or remove, in order. */
  private writes(): FileWrite[] {
    return this.staged.flatMap(writesOf);
  }

  /**
   * Writes every staged change, all or nothing (see journal.ts), saves the indexes of the new
   * contents, and records the step. A write of several files is journaled in the root's .rt/
   * (a step's undo or redo always is), with marks in the other roots its files belong to.
   */
  commit(record: WriteRecord | StepRecord): Commit {
    const writes = this.writes();
    const ws = this.ws;
    // Before any new content is written: a stamp its file shows after that says whether rt's own write is the last.
    const writingSince = Date.now();
    const root = ws.stateOf({ stateRoot: ws.root.dir });
    const writing = record.kind === 'write';
    // What cannot be written is refused before anything is (the journal, its folder, the state).
    if (writing) this.locate(() => writes.forEach((w) => checkWritable(w.abs, w.display, w.data !== null)));
    // An undo or redo is said in the history first: an rt killed from here on leaves a step the next one settles.
    else record.begin();
    let batch: Committed;
    try {
      // A write of one file needs no journal (its rename is the commit); the step's own history is in .rt/.
      const stateKept = writing ? writes.length > 1 && root.ensure() : root.ensure();
      const step = writing && stateKept ? record.staged(this.made) : undefined;
      const marks = marksFor(ws, this.files, writes.length);
      batch = this.locate(() =>
        commitWrites(journalDir(ws.root.dir, stateKept), record.command, writes, {
          ...(step ? { step } : {}),
          marks,
        }),
      );
      // An undo's files all written: a kill from here on leaves a step that the next rt settles.
      if (!writing) batch.close();
    } catch (error) {
      if (!writing) record.abandon();
      throw error;
    }
    if (!writing) {
      const stale = this.stale(batch.skipped, record.step);
      if (stale) {
        record.abandon();
        throw stale;
      }
    }
    const madeFolders = [...this.made];
    this.committed = true; // written: the folders stay
    if (!writing) {
      const saved = this.staged.map(saveChange(ws, writingSince));
      this.landIndexes();
      return { saved, stale: undefined };
    }
    try {
      const saved = this.written(batch.skipped).map((c) => {
        let done: Saved | undefined;
        record.each(c, () => (done ??= saveChange(ws, writingSince)(c)));
        return done ?? saveChange(ws, writingSince)(c);
      });
      record.written(madeFolders, batch.batch);
      // The new indexes land now, before the report prints their LIDs and before the journal goes: a kill after the
      // report (a long one, or one with a note, is on its way out at once) must not leave LIDs printed but unsaved,
      // which the next rt would reconcile anew (an unchanged repeated line given another LID).
      this.landIndexes();
      return { saved, stale: this.stale(batch.skipped) };
    } finally {
      // Once the state is saved, whatever happened meanwhile.
      batch.close();
    }
  }

  /**
   * The indexes a commit saved land now, unless the report is held until the command has ended (see
   * Workspace.outputHeld): then they land at End with what the command stages meanwhile (the view of the lines its
   * report shows), as one segment, still before its locks go and before its report is sent.
   */
  private landIndexes(): void {
    if (!this.ws.outputHeld) this.flushState();
  }

  /** Saves what the command staged of the state of the roots of this transaction's files (see StateStore.flush). */
  private flushState(): void {
    for (const root of new Set(this.files.map((f) => f.stateRoot))) this.ws.stateOf({ stateRoot: root }).flush();
  }

  /** Releases the locks; the folders made are removed again unless the commit wrote. */
  end(): void {
    // The indexes of what was written land before the locks go: the next rt to take them reads the LIDs this one
    // printed (commit saved them already; what was staged since, too).
    if (this.committed) this.flushState();
    for (const lock of this.locks) lock.release();
    if (!this.committed) removeFolders(this.made);
  }

  /** The staged changes written (those a program that does not take rt's locks changed meanwhile are not). */
  private written(skipped: readonly Skipped[]): Change[] {
    return this.staged.filter((c) => !skipped.some((s) => pathsOf(c).some((t) => t.display === s.display)));
  }

  /** The refusal of files changed meanwhile (see changedMeanwhile), when there are any. */
  private stale(skipped: readonly Skipped[], step?: StepRecord['step']): RtError | undefined {
    if (!skipped.length) return undefined;
    const wrote = this.written(skipped).map((c) => landing(c).display);
    return changedMeanwhile(skipped, wrote, step);
  }
}

const SWEEP_EVERY_MS = 60_000;
/** When this process last swept for each file (or state folder): see Transaction.sweep. */
const lastSwept = new Map<string, number>();

function sweepDue(key: string): boolean {
  const now = Date.now();
  if (now - (lastSwept.get(key) ?? Number.NEGATIVE_INFINITY) < SWEEP_EVERY_MS) return false;
  lastSwept.set(key, now);
  return true;
}

/** The paths a change writes or removes. */
function pathsOf(c: Change): ResolvedPath[] {
  return c.kind === 'move' ? [c.to, c.from.file] : [c.file];
}

/** Where a change leaves its content. */
function landing(c: Change): ResolvedPath {
  return c.kind === 'move' ? c.to : c.file;
}

/** The journal's entries of a change. */
function writesOf(c: Change): FileWrite[] {
  const at = (file: ResolvedPath) => ({ abs: file.abs, display: file.display });
  switch (c.kind) {
    case 'removal':
      return [{ ...at(c.file), data: null, expected: c.expected, ...(c.overwrite ? { overwrite: true } : {}) }];
    case 'edit':
      return c.unchanged
        ? []
        : [
            {
              ...at(c.file),
              data: c.content.parts,
              expected: c.expected,
              ...(c.overwrite ? { overwrite: true } : {}),
              ...(c.content.unread ? { unread: c.content.unread } : {}),
            },
          ];
    case 'new':
      return [
        {
          ...at(c.file),
          data: 'link' in c.content ? [] : c.content.parts,
          expected: c.expected,
          overwrite: c.expected !== undefined,
          ...(c.mode === undefined ? {} : { mode: c.mode }),
          ...('link' in c.content ? { link: c.content.link } : {}),
        },
      ];
    case 'move':
      return [
        {
          ...at(c.to),
          data: c.content.parts,
          expected: c.over,
          overwrite: c.over !== undefined,
          ...(c.mode === undefined ? {} : { mode: c.mode }),
        },
        { ...writesOf(c.from)[0]!, requires: c.to.abs },
      ];
  }
}

/**
 * Saves the index of a change's new content (its LIDs as planned), stamped as written: rt wrote
 * it (unless unchanged) since `since` (see ownWriteSettled).
 */
function saveChange(ws: Workspace, since: number): (c: Change) => Saved {
  return (c) => {
    if (c.kind === 'removal' || (c.kind === 'new' && 'link' in c.content)) return { change: c, saved: false };
    const content = c.content as Content;
    // A binary file gets no index (an undo may write one back, as it was): a saved index that describes a file is
    // what tells a search, without a look at its bytes, that the file is text (see IndexChecks).
    if (looksBinary(sliceParts(content.parts, 0, SNIFF_BYTES))) return { change: c, saved: false };
    const file = landing(c);
    const store = ws.stateOf(file);
    const index = content.index ?? nextIndex(store, file, content.lines);
    const saved = saveIndex(store, file.rel, content.lines, index, statFile(file), {
      parts: content.parts,
      ...(content.kept ? { kept: content.kept } : {}),
      ...(c.kind === 'edit' && c.unchanged ? {} : ownWrite(file.abs, since)),
    });
    return { change: c, index, saved };
  };
}

/** What tells that a stamp of `abs` is the version this run wrote there (see ownWriteSettled); nothing if none. */
function ownWrite(
  abs: string,
  since: number,
): { writtenSince?: number; wrote?: { ino: string; mtimeNs: string; size: number } } {
  const wrote = writtenVersion(abs);
  return wrote ? { writtenSince: since, wrote } : {};
}

/** The index a file made whole takes: its saved LIDs carried over (create --force over a file rt knew). */
function nextIndex(store: StateStore, file: ResolvedPath, lines: FileLines): LineIndex {
  return nextReading(store, file.rel, hashLines(lines));
}

/**
 * The files of a batch, or of a step's undo or redo, that a program not taking rt's locks changed
 * between the last check and the rename: left as that program wrote them (the rest is written).
 */
export function changedMeanwhile(
  skipped: readonly Skipped[],
  wrote: readonly string[],
  step?: StepRecord['step'],
): RtError {
  const one = skipped.length === 1;
  const names = skipped.map((s) => `${s.display} (${s.why})`).join(', ');
  const rest = wrote.length ? `; the rest was written: ${wrote.join(', ')}` : '';
  const them = one ? 'it' : 'them';
  const see = `see ${them} as ${one ? 'it is' : 'they are'} now: rt open ${shellQuote(skipped[0]!.display)}`;
  const changed = "a program that does not take rt's locks changed files of";
  if (step) {
    const taking = step.direction === 'undo' ? 'undone' : 'redone';
    return new RtError(
      'stale',
      `${changed} step ${step.id} while it was being ${taking}: ${names}; left as that program made ${them}${rest}`,
      [see, 'then make the change by hand with rt edit'],
    );
  }
  return new RtError(
    'stale',
    `${changed} this batch while it was being written: ${names}; ${one ? 'that file was' : 'those files were'} ` +
      `left as that program made ${them}, without this batch's change${rest}`,
    [see, 'then make the change again'],
    { skipped: skipped.map((s) => s.display), written: [...wrote] },
  );
}

/**
 * Where a batch of `count` writes to `files` leaves its marks: the journal folder of each other
 * root the files belong to (a nested repository's), so that a command run there finds the batch.
 * None for one file, whose rename needs no journal.
 */
function marksFor(ws: Workspace, files: readonly ResolvedPath[], count: number): { root: string; dirs: string[] } {
  const others = count > 1 ? [...new Set(files.map((f) => f.stateRoot))].filter((r) => r !== ws.root.dir) : [];
  return { root: ws.root.dir, dirs: others.map((r) => journalDir(r, ws.stateOf({ stateRoot: r }).ensure())) };
}

/** Makes the missing folders of `file`, one at a time, each entered and checked; returns them, outermost first. */
function makeFolders(file: ResolvedPath): string[] {
  const pinnedFolder = enterFolderOf(file, true);
  pinnedFolder.leave();
  return [...pinnedFolder.made];
}

function removeFolders(made: readonly string[]): void {
  for (const folder of [...made].reverse()) removeEmptyFolder(folder);
}

export function removeEmptyFolder(folder: string): void {
  try {
    fs.rmdirSync(folder);
  } catch {
    // Not empty (someone put a file there meanwhile), or gone: left as it is.
  }
}

/** The file named within its folder, once that folder is entered (see inFolder). */
function pinned(file: ResolvedPath): ResolvedPath {
  return { ...file, abs: path.basename(file.abs) };
}
