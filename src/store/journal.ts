// Committing a batch of file writes all or nothing, even when rt is killed (see All or nothing).
//
// 1. A draft journal names every file the batch writes or removes and the temporary file that
//    holds each new content, beside its target (so the final rename is atomic).
// 2. The new contents are written to those temporary files and flushed to disk, with their folders.
// 3. The draft is renamed to the journal, and its folder flushed: the commit point.
// 4. Each temporary file is renamed over its target (or the target removed).
// 5. Once the caller has saved what the batch leaves in the state (its indexes, its step of the
//    history), its marks are removed, then the journal (see Committed.close).
//
// Killed before 3, nothing was replaced: the next rt removes the temporary files and the draft.
// Killed after 3, every new content is on disk: the next rt command in that root finishes the
// batch (recoverBatches) before anything else, and says so. A batch of one file needs no journal:
// its rename alone is the commit.
//
// The step of the history the batch makes is kept beside its journal (ID.step, written before
// the draft; not flushed: like the history, a cache, taken only if its digest holds), so that a
// batch that recovery finishes is recorded as the step it was, and can be undone whole; one it
// undoes leaves none. A batch whose files belong to several roots (a nested repository, a
// submodule) is journaled in its own root, and leaves a mark (ID.mark, naming that root) in the
// journal folder of each other root its files belong to, flushed after the draft and before 2:
// a command in that root, or one that reaches a file of it from above, finds the batch there and
// finishes it before it reads any file of it (see recoverMarked). A mark costs the readers
// nothing: they look in those folders already.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RtError } from '../model/errors.js';
import { hashString } from '../model/hash.js';
import { isInside } from './inside.js';
import { acquireLock, type Lock } from './lock.js';
import { isRunning, ownerRuns, thisProcess, type Owner } from '../io/processes.js';
import { STATE_DIR } from './state.js';
import { inFolder } from './pinnedFolder.js';
import { protectedPlace } from './protectedPaths.js';
import {
  checkUnchanged,
  linkTemp,
  moveIntoPlace,
  placeLink,
  replaceFile,
  syncDir,
  writeTemp,
  type FileVersion,
  type Unread,
} from './writeFile.js';

const FORMAT = 'rt-journal';
const VERSION = 1;
/**
 * Temporary files of a batch are named `.NAME.rt-batch-XXXXXXXXXX` (21 bytes added to the name,
 * no more than a single write's own): not a leftover other rt processes remove.
 */
const BATCH_MARK = '.rt-batch-';

/** One file a batch writes or removes. */
export interface FileWrite {
  /** Absolute real path (for a removal, the path of the entry removed: a link itself, not what it leads to). */
  readonly abs: string;
  /** As messages name it. */
  readonly display: string;
  /** The new content in consecutive parts; null removes the file. */
  readonly data: readonly Buffer[] | null;
  /** The version read (the file must still be it), or undefined for a file that must not exist (unless `overwrite`). */
  readonly expected: FileVersion | undefined;
  readonly overwrite?: boolean;
  /** For a file made anew: its permission bits (default: what the umask leaves). */
  readonly mode?: number;
  /** For the removal of a move's source: the path of its target, without which it is not removed. */
  readonly requires?: string;
  /** A symbolic link made anew (where nothing is), holding this path; `data` is then empty. */
  readonly link?: string;
  /** The ranges of `data` never read, copied from the file replaced (see Unread). */
  readonly unread?: Unread;
}

interface Entry {
  readonly abs: string;
  readonly display: string;
  /** The temporary file holding the new content; null for a removal. */
  readonly temp: string | null;
  readonly expected: FileVersion | null;
  readonly overwrite: boolean;
  readonly requires?: string;
}

interface JournalDoc {
  readonly format: string;
  readonly version: number;
  /** The rt that wrote it: its PID, machine, and when the process started (Linux; tells a reused PID). */
  readonly owner: Owner;
  readonly command: string;
  readonly entries: readonly Entry[];
  /** The step of the history the batch makes, as its caller describes it (its data in the file ID.step beside). */
  readonly step?: unknown;
  /** The journal folders of the other roots the batch's files belong to, each holding a mark ID.mark. */
  readonly marks?: readonly string[];
}

/** The step a batch makes, kept in its journal for recovery: what the list says of it, and its data. */
export interface StagedStep {
  readonly meta: unknown;
  readonly data: Buffer;
}

/** A step that recovery finished a batch of: its journal's id names it (so that it is recorded once). */
export interface RecoveredStep extends StagedStep {
  readonly batch: string;
  /** The root whose journal held the batch: its history takes the step. */
  readonly root: string;
}

/** A batch written: the files left as they were (see commitWrites), its journal's id, and the end of it. */
export interface Committed {
  readonly skipped: Skipped[];
  /** The journal's id, when the batch has one (several files). */
  readonly batch: string | undefined;
  /** Removes the batch's marks and journal: called once its state is saved, whatever happened meanwhile. */
  close(): void;
}

const MARK_FORMAT = 'rt-journal-mark';

/**
 * Where the journals of the root `rootDir` live: its `.rt/journal/`, or, when state is not kept
 * there (RT_STATE=off, a root rt cannot write), a folder of the system's temporary folder named
 * after the root and the user, so that a batch is crash-safe all the same.
 */
export function journalDir(rootDir: string, stateKept: boolean): string {
  if (stateKept) return path.join(rootDir, STATE_DIR, 'journal');
  return path.join(realTmpdir(), `rt-journal-${process.getuid?.() ?? 'user'}-${hashString(rootDir)}`);
}

/** The system's temporary folder as a real path (macOS's /var/folders/… leads through a link). */
function realTmpdir(): string {
  try {
    return fs.realpathSync.native(os.tmpdir());
  } catch {
    return os.tmpdir();
  }
}

/**
 * Whether `dir` is a journal folder rt may trust: a folder (not a link, nor under one) of this
 * user's. Anything else — planted in a shared temporary folder, or a link in .rt/ — is never
 * written to nor acted on.
 */
function trustedFolder(dir: string): boolean {
  try {
    const st = fs.lstatSync(dir);
    return (
      st.isDirectory() &&
      (process.getuid === undefined || st.uid === process.getuid()) &&
      fs.realpathSync.native(dir) === dir
    );
  } catch {
    return false;
  }
}

/** Makes the journal folder `dir` (its parent exists) and checks it is one rt may trust. */
function ensureJournalFolder(dir: string): void {
  // Another rt ending its batch removes the folder when it is empty: one found gone between its
  // making and its check is made again.
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      fs.mkdirSync(dir, { mode: 0o700 });
      // The folder's own entry is made durable too: a journal flushed into a folder a power cut
      // then loses would lose the commit point.
      syncDir(path.dirname(dir));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (fs.lstatSync(dir, { throwIfNoEntry: false }) !== undefined) break;
  }
  if (!trustedFolder(dir)) {
    throw new RtError(
      'access',
      `cannot keep the journal of this batch: ${dir} is not a plain folder of yours; nothing was written`,
      [`remove it if no rt is running (rm -r ${dir}), then run the command again`],
    );
  }
}

/** Files of a batch that could not be written (see commitWrites). */
export interface Skipped {
  readonly display: string;
  readonly why: string;
}

/**
 * Writes every file of `writes` (which the caller holds the locks of), all or nothing: a
 * refusal or failure before the commit point leaves every file as it was; after it, the batch
 * completes, here or in the next rt command. A failure names its file in `details.abs`.
 * Returns the files left as they were after the commit point, for a program that does not
 * take rt's locks changed them meanwhile (their new content is then not written).
 */
export function commitWrites(
  dir: string,
  command: string,
  writes: readonly FileWrite[],
  more: { step?: StagedStep; marks?: { readonly root: string; readonly dirs: readonly string[] } } = {},
): Committed {
  if (writes.length === 0) return { skipped: [], batch: undefined, close: () => {} };
  if (writes.length === 1) {
    // One file: its rename is the commit, and its temporary file is one any rt removes when left.
    const only = writes[0]!;
    naming(only.abs, () =>
      only.data === null
        ? removeTarget({ abs: only.abs, display: only.display, expected: only.expected ?? null })
        : only.link !== undefined
          ? placeLink(only.abs, only.link, only.display)
          : replaceFile(
              only.abs,
              only.data,
              only.expected,
              only.display,
              only.overwrite === true,
              only.mode,
              only.unread,
            ),
    );
    return { skipped: [], batch: undefined, close: () => {} };
  }
  const id = `${Date.now().toString(36)}-${process.pid}-${randomMark()}`;
  const mark = randomMark();
  const entries: Entry[] = writes.map((w) => ({
    abs: w.abs,
    display: w.display,
    temp: w.data === null ? null : tempNameFor(w.abs, mark),
    expected: w.expected ?? null,
    overwrite: w.overwrite === true,
    ...(w.requires ? { requires: w.requires } : {}),
  }));
  const marks = [...new Set(more.marks?.dirs ?? [])].filter((m) => m !== dir);
  const staged = { ...(more.step ? { step: more.step.meta } : {}), ...(marks.length ? { marks } : {}) };
  const doc: JournalDoc = { format: FORMAT, version: VERSION, owner: thisProcess(), command, entries, ...staged };
  const part = path.join(dir, `${id}.part`);
  const draft = path.join(dir, `${id}.draft`);
  const journal = path.join(dir, `${id}.json`);
  const stepFile = path.join(dir, `${id}.step`);
  const markFiles = marks.map((m) => path.join(m, `${id}.mark`));
  const removeMarks = () => {
    for (const m of markFiles) removeQuietly(m);
    for (const m of marks) removeIfEmpty(m);
  };
  try {
    ensureJournalFolder(dir);
    if (more.step) fs.writeFileSync(stepFile, more.step.data, { flag: 'wx', mode: 0o600 });
    // Written whole under a name recovery passes over, then named: no rt ever reads a draft half-written.
    writeDurably(part, JSON.stringify(doc));
    fs.renameSync(part, draft);
    // Each mark durable before the commit point: a kill after it leaves none of the other roots unmarked.
    marks.forEach((m, i) => {
      ensureJournalFolder(m);
      writeDurably(markFiles[i]!, JSON.stringify({ format: MARK_FORMAT, root: more.marks!.root, journal: dir }));
      syncDir(m);
    });
  } catch (error) {
    removeQuietly(part);
    removeQuietly(draft);
    removeQuietly(stepFile);
    removeMarks();
    if (error instanceof RtError) throw error;
    throw new RtError(
      'access',
      `cannot write the journal of this batch in ${dir}: ` +
        `${(error as NodeJS.ErrnoException).code ?? String(error)}; nothing was written`,
      [
        'check the permissions of the root and its .rt folder, or set RT_STATE=off to keep the ' +
          "journal in the system's temporary folder",
      ],
    );
  }
  let committed = false;
  try {
    const folders = new Set<string>();
    writes.forEach((w, i) => {
      const temp = entries[i]!.temp;
      if (temp === null || w.data === null) return;
      naming(w.abs, () =>
        w.link !== undefined
          ? linkTemp(w.abs, w.link, w.display, temp)
          : writeTemp(w.abs, w.data!, w.display, temp, w.mode, w.unread),
      );
      folders.add(path.dirname(w.abs));
    });
    for (const folder of folders) syncDir(folder);
    // Every target still the version read, before the point of no return.
    for (const w of writes) naming(w.abs, () => checkUnchanged(w.abs, w.expected, w.display, w.overwrite === true));
    fs.renameSync(draft, journal);
    syncDir(dir);
    committed = true;
  } finally {
    if (!committed) {
      for (const e of entries) if (e.temp) removeQuietly(e.temp);
      removeQuietly(draft);
      removeQuietly(stepFile);
      removeMarks();
      removeIfEmpty(dir);
    }
  }
  const skipped: Skipped[] = [];
  // A failure here leaves the journal and its marks to the next command, which finishes what can be.
  finish(entries, (entry, why) => skipped.push({ display: entry.display, why }));
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    // The marks first: a kill between leaves a journal that its own root finds, never a mark leading nowhere unsaid.
    removeMarks();
    removeQuietly(stepFile);
    removeQuietly(journal);
    removeIfEmpty(dir);
  };
  return { skipped, batch: id, close };
}

/** Runs `step` on the file `abs`, naming it in a refusal's details. */
function naming<T>(abs: string, step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof RtError && error.details.abs === undefined)
      throw new RtError(error.code, error.message, error.hints, { ...error.details, abs });
    throw error;
  }
}

/** Writes a new file and flushes it to disk before it is renamed into place. */
function writeDurably(file: string, text: string): void {
  const fd = fs.openSync(file, 'wx', 0o600);
  try {
    fs.writeFileSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Replaces (or removes) each target of a committed batch. An entry already done is passed
 * over. One whose target changed since the batch read it (or a new file that appeared), one
 * whose new content is gone (its temporary file removed by someone), and a move's source whose
 * target was not written are left as they are and told through `skipped`. Returns the files it
 * wrote or removed.
 */
function finish(entries: readonly Entry[], skipped: (entry: Entry, why: string) => void): string[] {
  const folders = new Set<string>();
  const done: string[] = [];
  const notWritten = new Set<string>();
  const skip = (entry: Entry, why: string) => {
    notWritten.add(entry.abs);
    skipped(entry, why);
  };
  for (const entry of entries) {
    folders.add(path.dirname(entry.abs));
    if (entry.requires !== undefined && notWritten.has(entry.requires)) {
      skip(entry, 'the file it moves to was not written, so it stays');
      continue;
    }
    if (entry.temp === null) {
      if (!fs.lstatSync(entry.abs, { throwIfNoEntry: false })) continue; // removed already
      if (!stillExpected(entry)) {
        skip(entry, 'it changed after the batch read it');
        continue;
      }
      unlinkIn(entry);
      done.push(entry.display);
      continue;
    }
    const temp = fs.lstatSync(entry.temp, { throwIfNoEntry: false });
    const target = fs.lstatSync(entry.abs, { throwIfNoEntry: false });
    if (!temp) {
      // Renamed already, unless the target is still what the batch read: then its new content is gone.
      if (target ? entry.expected !== null && stillExpected(entry) : entry.expected === null)
        skip(entry, 'its new content is gone (its temporary file was removed before the batch could finish)');
      continue;
    }
    if (target && target.ino === temp.ino) {
      removeQuietly(entry.temp); // linked into place already (see moveIntoPlace)
      continue;
    }
    if (!stillExpected(entry)) {
      removeQuietly(entry.temp);
      skip(
        entry,
        entry.expected === null
          ? 'a file appeared there after the batch checked it'
          : 'it changed after the batch read it',
      );
      continue;
    }
    try {
      moveIntoPlace(entry.temp, entry.abs, false, entry.expected === null && !entry.overwrite, false);
    } catch (error) {
      if (!(error instanceof RtError) || error.code !== 'exists') throw error;
      removeQuietly(entry.temp);
      skip(entry, 'a file appeared there after the batch checked it');
      continue;
    }
    done.push(entry.display);
  }
  for (const folder of folders) syncDir(folder);
  return done;
}

function removeTarget(entry: Pick<Entry, 'abs' | 'display' | 'expected'>): void {
  checkUnchanged(entry.abs, entry.expected ?? undefined, entry.display, false);
  unlinkIn(entry);
  syncDir(path.dirname(entry.abs));
}

/** Removes the entry `abs` itself (a link, not what it leads to), inside its folder, entered and checked. */
function unlinkIn(entry: Pick<Entry, 'abs' | 'display'>): void {
  try {
    inFolder(path.dirname(entry.abs), entry.display, () => fs.unlinkSync(path.basename(entry.abs)));
  } catch (error) {
    if (error instanceof RtError) throw error;
    throw new RtError(
      'access',
      `cannot remove ${entry.display}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      [`check the permissions of ${path.dirname(entry.display) || '.'}`],
    );
  }
}

/** Whether the target is still as the batch found it (the version read, or absent). */
function stillExpected(entry: Entry): boolean {
  const st = fs.lstatSync(entry.abs, { throwIfNoEntry: false });
  if (entry.expected === null) return !st;
  return (
    st !== undefined &&
    !st.isDirectory() &&
    st.size === entry.expected.size &&
    st.mtimeMs === entry.expected.mtimeMs &&
    st.ctimeMs === entry.expected.ctimeMs &&
    st.ino === entry.expected.ino
  );
}

function randomMark(): string {
  return Math.random().toString(36).slice(2, 12).padEnd(10, '0');
}

function tempNameFor(abs: string, mark: string): string {
  return path.join(path.dirname(abs), `.${path.basename(abs)}${BATCH_MARK}${mark}`);
}

function removeQuietly(file: string): void {
  try {
    fs.rmSync(file, { force: true });
  } catch {
    // Housekeeping (a name too long to remove is one that could not be made either).
  }
}

function removeIfEmpty(dir: string): void {
  try {
    fs.rmdirSync(dir);
  } catch {
    // Not empty (another batch), or gone.
  }
}

/**
 * Finishes every batch a killed rt left in the journal folder `dir` of `root`, before the
 * command runs: a committed one is completed, a draft one undone (its temporary files removed).
 * Batches of rt processes still running are theirs to finish, and those of another machine its
 * own. Says what it did through `warn`; a batch it cannot finish is left, said, and never a
 * reason for the command to fail.
 */
export function recoverBatches(
  dir: string,
  root: string,
  warn: (message: string) => void,
  readOnly = false,
  recorded?: (step: RecoveredStep) => void,
  followMarks = true,
): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return; // no batch was ever interrupted here: the common case, one failed call
  }
  if (!trustedFolder(dir)) return;
  for (const name of names.sort()) {
    const file = path.join(dir, name);
    if (name.endsWith('.part')) {
      // A draft a killed rt was writing: nothing of it was made.
      if (!readOnly && !writerMayRun(name, file)) removeQuietly(file);
      continue;
    }
    if (name.endsWith('.mark')) {
      if (followMarks) recoverMarked(file, root, warn, readOnly, recorded);
      continue;
    }
    if (name.endsWith('.step')) {
      // The step of a batch whose draft a killed rt never wrote: nothing of that batch was made.
      const id = name.slice(0, -'.step'.length);
      const orphan = !['.json', '.draft', '.part'].some((e) => fs.existsSync(path.join(dir, `${id}${e}`)));
      if (!readOnly && orphan && !writerMayRun(name, file)) removeQuietly(file);
      continue;
    }
    const committed = name.endsWith('.json');
    if (!committed && !name.endsWith('.draft')) continue;
    const doc = readJournal(file);
    // A journal naming a file outside its root, or inside a .git or .rt/, is no rt's: never acted on.
    const foreign =
      doc === 'foreign' ||
      (doc && !doc.entries.every((e) => isInside(root, e.abs) && protectedPlace(e.abs) === undefined));
    if (foreign) {
      // A live rt's journal is never judged (it cannot be damaged: it is named only once written whole).
      if (!readOnly && !writerMayRun(name, file)) setAside(file, dir, warn);
      continue;
    }
    if (!doc || ownedByLiveRt(doc, file)) continue;
    if (doc.owner.host !== os.hostname()) {
      warn(
        `a batch (${doc.command}) of an rt on ${doc.owner.host} waits in ${file}: it is left for ` +
          `rt on that machine to finish`,
      );
      continue;
    }
    if (readOnly) {
      warn(
        `a batch (${doc.command}) that an rt process was killed in waits to be ` +
          `${committed ? 'finished' : 'undone'}: RT_READONLY is set, so it is left; run any rt ` +
          `command without RT_READONLY`,
      );
      continue;
    }
    try {
      recoverOne(file, doc, root, committed, warn, recorded);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      warn(
        `cannot finish a batch (${doc.command}) that an rt process was killed in: ${why}; it is ` +
          `left in ${file} for the next command`,
      );
      warn(`to give it up, leaving its files as they are now: rm ${file}`);
    }
  }
  removeIfEmpty(dir);
}

type Recorded = ((step: RecoveredStep) => void) | undefined;

function recoverOne(
  file: string,
  doc: JournalDoc,
  root: string,
  committed: boolean,
  warn: (message: string) => void,
  recorded: Recorded,
): void {
  const locks = lockAll(doc.entries);
  const id = path.basename(file).replace(/\.(json|draft)$/, '');
  const stepFile = path.join(path.dirname(file), `${id}.step`);
  try {
    if (!fs.existsSync(file)) return; // another rt finished it meanwhile
    if (committed) {
      const skipped: string[] = [];
      const done = finish(doc.entries, (entry, why) => skipped.push(`${entry.display} (${why})`));
      const before = doc.entries.length - done.length - skipped.length;
      const wrote = done.length
        ? `wrote ${done.join(', ')}${before ? ` (${before} more written before the kill)` : ''}`
        : before
          ? 'every file had been written before the kill'
          : 'nothing of it could be written';
      warn(`finished a batch (${doc.command}) that an rt process killed midway had committed: ${wrote}`);
      if (skipped.length)
        warn(
          `that batch is left incomplete, these files without its change: ${skipped.join(', ')}; see ` +
            `them with rt open and make the change again`,
        );
      // Recorded as the step the killed rt would have recorded (once: the step names its
      // batch), before the journal goes.
      if (doc.step !== undefined && recorded)
        recordRecovered(doc, { batch: id, root }, stepFile, skipped.length > 0, warn, recorded);
    } else {
      for (const e of doc.entries) if (e.temp) removeQuietly(e.temp);
      warn(
        `undid a batch (${doc.command}) that an rt process was killed before committing: none of ` +
          `its files had been written`,
      );
    }
    for (const m of doc.marks ?? []) {
      removeQuietly(path.join(m, `${id}.mark`));
      removeIfEmpty(m);
    }
    removeQuietly(stepFile);
    fs.rmSync(file, { force: true });
  } finally {
    for (const lock of locks) lock.release();
  }
}

/** Records the step of a batch recovery finished, or says why it cannot be undone. */
function recordRecovered(
  doc: JournalDoc,
  of: { batch: string; root: string },
  stepFile: string,
  incomplete: boolean,
  warn: (message: string) => void,
  recorded: (step: RecoveredStep) => void,
): void {
  const lost = (why: string) =>
    warn(`that batch (${doc.command}) is not in the history (${why}): rt undo cannot take it back`);
  if (incomplete) return lost('it is incomplete');
  let data: Buffer;
  try {
    data = fs.readFileSync(stepFile);
  } catch {
    return lost('its step was not kept');
  }
  try {
    recorded({ meta: doc.step, data, ...of });
  } catch (error) {
    lost(error instanceof Error ? error.message : String(error));
  }
}

/**
 * Follows the mark `file` that a batch of another root (an enclosing one) left in this root's
 * journal folder: finishes the batches of that root's journal folder, then removes the mark
 * once its batch is gone. A mark that does not lead to the journal folder of a root enclosing
 * `root` is not followed.
 */
function recoverMarked(
  file: string,
  root: string,
  warn: (message: string) => void,
  readOnly: boolean,
  recorded: Recorded,
): void {
  let mark: { format?: unknown; root?: unknown; journal?: unknown } | undefined;
  try {
    mark = JSON.parse(fs.readFileSync(file, 'utf8')) as typeof mark;
  } catch {
    mark = undefined;
  }
  const named = mark?.format === MARK_FORMAT && typeof mark.root === 'string' && typeof mark.journal === 'string';
  const owner = named ? { root: mark!.root as string, journal: mark!.journal as string } : undefined;
  const enclosing = owner && path.isAbsolute(owner.root) && owner.root !== root && isInside(owner.root, root);
  const valid = enclosing && [journalDir(owner.root, true), journalDir(owner.root, false)].includes(owner.journal);
  if (valid) recoverBatches(owner.journal, owner.root, warn, readOnly, recorded, false);
  if (readOnly) return;
  const id = path.basename(file).slice(0, -'.mark'.length);
  // Its batch finished or undone (or never one rt would follow): the mark leads nowhere.
  const waiting = valid && ['.json', '.draft'].some((e) => fs.existsSync(path.join(owner.journal, `${id}${e}`)));
  if (!waiting) removeQuietly(file);
}

/**
 * Whether the rt that named a journal file (its PID is in the name: TIME-PID-MARK) may still be
 * writing it: that PID runs and the file is less than an hour old.
 */
function writerMayRun(name: string, file: string): boolean {
  const pid = Number(/^[0-9a-z]+-(\d+)-[0-9a-z]+\./.exec(name)?.[1]);
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || !isRunning(pid)) return false;
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  return st !== undefined && Date.now() - st.mtimeMs < ABANDONED_MS;
}

/** A batch an hour old was not left by an rt still running, whatever its PID names now. */
const ABANDONED_MS = 60 * 60 * 1000;

/** Whether the rt that wrote the journal still runs (its PID alive, and, where known, started when it did). */
function ownedByLiveRt(doc: JournalDoc, file: string): boolean {
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  return st !== undefined && ownerRuns(doc.owner, st.mtimeMs);
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
    if (
      doc &&
      doc.format === FORMAT &&
      doc.version === VERSION &&
      Array.isArray(doc.entries) &&
      doc.owner &&
      typeof doc.owner.pid === 'number' &&
      typeof doc.owner.host === 'string' &&
      typeof doc.command === 'string' &&
      doc.entries.every(validEntry) &&
      (doc.marks === undefined ||
        (Array.isArray(doc.marks) && doc.marks.every((m) => typeof m === 'string' && path.isAbsolute(m))))
    )
      return doc;
  } catch {
    // damaged
  }
  return 'foreign';
}

/**
 * An entry as rt writes them: an absolute path, a temporary file beside it named as rt names
 * them, and a replacement of an existing file only with the version it read (a journal that
 * would have a file replaced blindly is no rt's).
 */
function validEntry(e: Entry): boolean {
  if (!e || typeof e.abs !== 'string' || !path.isAbsolute(e.abs) || typeof e.display !== 'string') return false;
  if (
    e.temp !== null &&
    (typeof e.temp !== 'string' ||
      path.dirname(e.temp) !== path.dirname(e.abs) ||
      !isBatchTempOf(path.basename(e.temp), path.basename(e.abs)))
  )
    return false;
  if (e.overwrite && e.expected === null) return false;
  if (e.requires !== undefined && (typeof e.requires !== 'string' || !path.isAbsolute(e.requires))) return false;
  return (
    e.expected === null ||
    (typeof e.expected === 'object' &&
      ['size', 'mtimeMs', 'ctimeMs', 'ino'].every(
        (k) => typeof (e.expected as unknown as Record<string, unknown>)[k] === 'number',
      ))
  );
}

function isBatchTempOf(name: string, target: string): boolean {
  const prefix = `.${target}${BATCH_MARK}`;
  return name.startsWith(prefix) && /^[0-9a-z]{10}$/.test(name.slice(prefix.length));
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
 * names a lock in messages (from the working directory); `pool`, the folder of the drafts it is
 * linked from (see acquireLock).
 */
export function lockAll(
  entries: ReadonlyArray<{ abs: string; display: string; shownLock?: string; pool?: string }>,
): Lock[] {
  const sorted = [...new Map(entries.map((e) => [e.abs, e])).values()].sort((a, b) =>
    a.abs < b.abs ? -1 : a.abs > b.abs ? 1 : 0,
  );
  const locks: Lock[] = [];
  try {
    for (const e of sorted) {
      const dir = path.dirname(e.abs);
      if (!fs.existsSync(dir)) continue; // a folder a dry run would have made: nothing in it to guard
      const name = path.basename(lockPathFor(e.abs));
      let lock: Lock;
      try {
        lock = inFolder(dir, e.display, () =>
          acquireLock(name, e.display, undefined, e.shownLock ?? lockPathFor(e.abs), undefined, e.pool),
        );
      } catch (error) {
        if (error instanceof RtError)
          throw new RtError(error.code, error.message, error.hints, { ...error.details, abs: e.abs });
        throw error;
      }
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
