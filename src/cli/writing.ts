// The one path every write takes — edit, insert, delete, create and apply alike (see One write path):
// resolve every path, lock every file (in one fixed order), read each as it is now, plan its
// new content (anchors resolved, hunks located, overlaps and unseen lines refused), check,
// then commit all of it through the journal, save the indexes the edits produced, and report.
// A refusal at any step writes nothing, to any file or to the state.

import fs from 'node:fs';
import path from 'node:path';
import { looksBinary, RATIO_BYTES, SNIFF_BYTES } from '../model/binary.js';
import type { AnchorWorld } from '../model/anchor.js';
import { RtError, quotePath, shellQuote } from '../model/errors.js';
import { hashLines } from '../model/hash.js';
import { retiredLine, type LineIndex } from '../model/lineIndex.js';
import { lineContent, splitLines, type FileLines } from '../model/lines.js';
import { sliceParts } from '../model/edit.js';
import { applyChanges, planHunks, type AppliedChanges, type PlannedChange } from '../model/patch/plan.js';
import { indentUnit, reindent, targetIndent } from '../model/indent.js';
import type { FileChange } from '../model/patch/types.js';
import { nextReading, readSnapshot, saveIndex, statFile, type Snapshot } from '../store/indexedFile.js';
import {
  commitWrites,
  journalDir,
  lockAll,
  lockPathFor,
  recoverBatches,
  type FileWrite,
  type RecoveredStep,
} from '../store/journal.js';
import { enterFolderOf, inFolder } from '../store/pinnedFolder.js';
import { readPlainFile } from '../store/plainFile.js';
import { lstatOrNone, refuseProtectedWrite } from '../store/protectedPaths.js';
import {
  endsWithSeparator,
  isInside,
  resolveInRoot,
  withoutFinalSeparators,
  type ResolvedPath,
} from '../store/root.js';
import type { StateStore } from '../store/state.js';
import { ViewState } from '../store/views.js';
import { checkWritable, cleanStaleTemps, versionOf, type FileVersion } from '../store/writeFile.js';
import type { Context } from './context.js';
import { recordRecoveredStep, recordStep, stagedStep } from './recordStep.js';
import { checkPlanned, checksOn, languageFor, prepareChecks } from './syntaxCheck.js';
import { reportWrites, type FileReport } from './writeReport.js';
import type { Options } from './spec.js';

/** The longest file name, in bytes, on Linux file systems. */
const NAME_MAX = 255;
/**
 * What rt adds to a file's name for its temporary file (.NAME.rt-tmp-PID-xxxxxx, .NAME.rt-batch-xxxxxxxxxx) and its
 * lock's draft.
 */
const NAME_ROOM = 24;

export interface WriteFlags {
  readonly force: boolean;
  readonly dryRun: boolean;
  readonly diff: boolean;
  /** Whether the files' syntax is checked: unless --no-check or RT_CHECK=off. */
  readonly check: boolean;
  /** --indent auto (RT_INDENT=auto): new lines shifted to the indentation around them. */
  readonly indent: boolean;
}

export function writeFlags(ctx: Context, options: Options): WriteFlags {
  return {
    force: options.force === true,
    dryRun: options.dryRun === true,
    diff: options.diff === true || isOn(ctx.env.RT_DIFF),
    check: checksOn(ctx, options.check === false),
    indent: (typeof options.indent === 'string' ? options.indent : ctx.env.RT_INDENT) === 'auto',
  };
}

export function isOn(value: string | undefined): boolean {
  return value !== undefined && !['', '0', 'false', 'no', 'off'].includes(value.toLowerCase());
}

/** Which command writes: its name, and whether its changes come from a patch (messages then name the patch line). */
export interface WriteOrigin {
  readonly command: 'edit' | 'insert' | 'delete' | 'create' | 'apply';
  readonly patch: boolean;
}

/** `changes` with their new lines moved to the indentation around them (--indent auto). */
function reindentChanges(lines: FileLines, changes: readonly PlannedChange[]): PlannedChange[] {
  let unit: Buffer | undefined;
  return changes.map((c) =>
    c.insert.length
      ? { ...c, insert: reindent(c.insert, targetIndent(lines, c.start, c.deleteCount), (unit ??= indentUnit(lines))) }
      : c,
  );
}

/** A file change with its paths resolved. */
interface Resolved {
  readonly change: FileChange;
  readonly file: ResolvedPath;
  /** For an update with `*** Move to`: where its content goes. */
  readonly moveTo?: ResolvedPath;
  /** For a delete or a move of a symbolic link: the link itself, which goes (what it leads to stays). */
  readonly link?: ResolvedPath;
}

/** What a change will write, once planned. */
export interface Planned {
  readonly resolved: Resolved;
  readonly store: StateStore;
  /** The file as read (update, delete, or an add over an existing file with --force). */
  readonly before?: {
    readonly lines: FileLines;
    readonly version: FileVersion;
    readonly snapshot?: Snapshot;
    readonly lids?: Uint32Array;
  };
  /** Update: the file after its hunks. */
  readonly applied?: AppliedChanges;
  /** Add: the new file's bytes. */
  readonly bytes?: Buffer;
  /** Delete or move of a link: the link's own version, and what it holds (the path it leads to), as read. */
  readonly linkVersion?: FileVersion;
  readonly linkText?: string;
  readonly view?: ViewState;
  /** A move over an existing file (--force): that file as read, replaced whole. */
  readonly over?: { readonly lines: FileLines; readonly version: FileVersion; readonly lids: Uint32Array };
}

/** Runs `changes` as one batch: all of them are written, or none. */
export async function runWrites(
  ctx: Context,
  changes: readonly FileChange[],
  flags: WriteFlags,
  origin: WriteOrigin,
): Promise<void> {
  const resolved = changes.map((change) => atLine(origin, change.line, () => resolveChange(ctx, change, origin)));
  refuseTwice(resolved, origin);
  if (isOn(ctx.env.RT_READONLY) && !flags.dryRun) {
    const names = resolved.map((r) => r.file.display).join(', ');
    throw new RtError('access', `RT_READONLY is set: rt writes no files (not writing ${names})`, [
      'see what the command would change with --dry-run, or unset RT_READONLY',
    ]);
  }
  // The grammars of the files written load (WebAssembly compiles on other threads) while the
  // files are read and their changes planned; the check waits for them.
  const grammars = flags.check
    ? prepareChecks(
        resolved
          .filter((r) => r.change.kind !== 'delete')
          .map((r) =>
            languageFor(
              ctx.root.dir,
              r.moveTo ?? r.file,
              r.change.kind === 'add' ? () => addedHead(r.change) : undefined,
            ),
          ),
      )
    : undefined;
  await writeBatch(ctx, resolved, flags, origin, grammars);
}

/** The first bytes of the file a `create` or `*** Add File` makes. */
function addedHead(change: FileChange): Uint8Array {
  if (change.kind !== 'add') return new Uint8Array(0);
  return change.bytes ?? Buffer.concat(change.lines.slice(0, 64).flatMap((l) => [l, Buffer.from('\n')]));
}

async function writeBatch(
  ctx: Context,
  resolved: readonly Resolved[],
  flags: WriteFlags,
  origin: WriteOrigin,
  grammars: Promise<void> | undefined,
): Promise<void> {
  const targets = resolved.flatMap((r) => [r.file, ...(r.moveTo ? [r.moveTo] : []), ...(r.link ? [r.link] : [])]);
  // The folders of new files are made first (one at a time, each entered and checked: none
  // outside the root), so that every file has its lock beside it; a refusal removes them again.
  const made = resolved.flatMap((r) =>
    flags.dryRun
      ? []
      : [r.change.kind === 'add' ? r.file : undefined, r.moveTo].flatMap((t) => (t ? makeFolders(t) : [])),
  );
  try {
    const locks = atFile(origin, resolved, () =>
      lockAll(
        targets.map((t) => ({ abs: t.abs, display: t.display, shownLock: path.relative(ctx.cwd, lockPathFor(t.abs)) })),
      ),
    );
    try {
      for (const t of targets) {
        cleanStaleTemps(t.abs);
        ctx.stateOf(t).removeStaleTemps(t.rel);
      }
      const planned = resolved.map((r) => atLine(origin, r.change.line, () => plan(ctx, r, flags, origin)));
      if (grammars) {
        await grammars;
        checkPlanned(ctx, planned);
      }
      if (flags.dryRun) return reportWrites(ctx, planned, flags, origin, true);
      const writes = planned.flatMap(writesOf);
      // What cannot be written is refused before anything is (the journal, its folder, the state).
      atFile(origin, resolved, () => writes.forEach((w) => checkWritable(w.abs, w.display, w.data !== null)));
      // A batch of several files keeps its journal in the root's .rt/ (made now if need be), with
      // the step it makes (see stagedStep) and marks in the other roots its files belong to.
      const stateKept = writes.length > 1 && ctx.stateOf({ stateRoot: ctx.root.dir }).ensure();
      const step = stateKept ? stagedStep(ctx, origin, planned, made) : undefined;
      const marks = marksFor(ctx, targets, writes.length);
      const journal = journalDir(ctx.root.dir, stateKept);
      const batch = atFile(origin, resolved, () =>
        commitWrites(journal, `rt ${origin.command}`, writes, { ...(step ? { step } : {}), marks }),
      );
      const { skipped } = batch;
      const madeFolders = [...made];
      made.length = 0; // written: the folders stay
      const written = planned.filter(
        (p) =>
          !skipped.some((s) =>
            [p.resolved.file, p.resolved.moveTo, p.resolved.link].some((t) => t?.display === s.display),
          ),
      );
      let reports: FileReport[];
      try {
        reports = written.map((p) => saveState(ctx, p));
        recordStep(ctx, origin, reports, madeFolders, batch.batch);
      } finally {
        batch.close();
      }
      // Left incomplete: the files written are reported in text, and named in the one JSON document of the refusal.
      if (skipped.length && ctx.json) throw changedMeanwhile(skipped, written);
      reportWrites(ctx, written, flags, origin, false, reports);
      if (skipped.length) throw changedMeanwhile(skipped, written);
    } finally {
      for (const lock of locks) lock.release();
    }
  } finally {
    for (const folder of made.reverse()) removeEmptyFolder(folder);
  }
}

/**
 * Where a batch of `count` writes to `files` leaves its marks: the journal folder of each other
 * root the files belong to (a nested repository's), so that a command run there finds the batch.
 * None for one file, whose rename needs no journal.
 */
export function marksFor(
  ctx: Context,
  files: readonly ResolvedPath[],
  count: number,
): { root: string; dirs: string[] } {
  const others = count > 1 ? [...new Set(files.map((f) => f.stateRoot))].filter((r) => r !== ctx.root.dir) : [];
  return { root: ctx.root.dir, dirs: others.map((r) => journalDir(r, ctx.stateOf({ stateRoot: r }).ensure())) };
}

/** Makes the missing folders of `file`, one at a time, each entered and checked; returns them, outermost first. */
export function makeFolders(file: ResolvedPath): string[] {
  const pinnedFolder = enterFolderOf(file, true);
  pinnedFolder.leave();
  return [...pinnedFolder.made];
}

export function removeEmptyFolder(folder: string): void {
  try {
    fs.rmdirSync(folder);
  } catch {
    // Not empty (someone put a file there meanwhile), or gone: left as it is.
  }
}

/** Runs `step` (on several files), naming in a refusal the patch line of the file it names (details.abs). */
function atFile<T>(origin: WriteOrigin, resolved: readonly Resolved[], step: () => T): T {
  try {
    return step();
  } catch (error) {
    const abs = error instanceof RtError ? error.details.abs : undefined;
    const r =
      abs === undefined ? undefined : resolved.find((r) => [r.file, r.moveTo, r.link].some((t) => t?.abs === abs));
    if (!r) throw error;
    return atLine(
      origin,
      r.change.kind === 'update' && r.moveTo?.abs === abs && r.change.moveTo ? r.change.moveTo.line : r.change.line,
      () => {
        throw error;
      },
    );
  }
}

/**
 * The files of a batch that a program not taking rt's locks changed between the batch's last
 * check and its rename: left as that program wrote them (the rest of the batch is written).
 */
function changedMeanwhile(
  skipped: ReadonlyArray<{ display: string; why: string }>,
  written: readonly Planned[],
): RtError {
  const names = skipped.map((s) => `${s.display} (${s.why})`).join(', ');
  const wrote = written.map((p) => (p.resolved.moveTo ?? p.resolved.file).display);
  return new RtError(
    'stale',
    `a program that does not take rt's locks changed files of this batch while it was being written: ${names}; ${skipped.length === 1 ? 'that file was' : 'those files were'} left as that program made ${skipped.length === 1 ? 'it' : 'them'}, without this batch's change${wrote.length ? `; the rest was written: ${wrote.join(', ')}` : ''}`,
    [
      `see ${skipped.length === 1 ? 'it' : 'them'} as ${skipped.length === 1 ? 'it is' : 'they are'} now: rt open ${shellQuote(skipped[0]!.display)}`,
      'then make the change again',
    ],
    { skipped: skipped.map((s) => s.display), written: wrote },
  );
}

/** Runs `step`, naming the patch line in a refusal when the changes come from a patch. */
function atLine<T>(origin: WriteOrigin, line: number, step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (!origin.patch || !(error instanceof RtError) || error.details.patchLine !== undefined) throw error;
    const at = typeof error.details.hunkLine === 'number' ? error.details.hunkLine : line;
    throw new RtError(error.code, `patch line ${at}: ${error.message}`, error.hints, {
      ...error.details,
      patchLine: at,
    });
  }
}

function resolveChange(ctx: Context, change: FileChange, origin: WriteOrigin): Resolved {
  if (change.kind === 'add' && endsWithSeparator(change.path)) {
    throw new RtError(
      'usage',
      `${change.path} names a folder; ${origin.patch ? '*** Add File' : 'create'} makes files`,
      [
        origin.patch
          ? `name the file, e.g. *** Add File: ${withoutFinalSeparators(change.path)}/NAME`
          : `name the file, e.g. rt create ${shellQuote(`${withoutFinalSeparators(change.path)}/NAME`)}`,
      ],
    );
  }
  const file = resolveInRoot(ctx.root, change.path, change.kind === 'add');
  if (change.kind !== 'delete') refuseLongName(file);
  const link =
    change.kind === 'delete' || (change.kind === 'update' && change.moveTo)
      ? linkItself(ctx, change.path, file)
      : undefined;
  // What is written or taken away: a link named is removed, not what it leads to.
  const named = link ?? file;
  refuseProtectedWrite(named.abs, named.display);
  const withLink = link ? { link } : {};
  if (change.kind !== 'update' || !change.moveTo) return { change, file, ...withLink };
  const moveTo = atLine(origin, change.moveTo.line, () => resolveInRoot(ctx.root, change.moveTo!.path, true));
  refuseProtectedWrite(moveTo.abs, moveTo.display);
  refuseLongName(moveTo);
  return { change, file, moveTo, ...withLink };
}

/**
 * When `userPath` is a symbolic link (to `file`), the link itself, which a delete or a move
 * takes away (as rm and git rm do; the file it leads to stays); undefined for a plain file.
 */
function linkItself(ctx: Context, userPath: string, file: ResolvedPath): ResolvedPath | undefined {
  const lexical = path.resolve(ctx.root.cwd, userPath);
  if (!fs.lstatSync(lexical, { throwIfNoEntry: false })?.isSymbolicLink()) return undefined;
  const abs = path.join(fs.realpathSync.native(path.dirname(lexical)), path.basename(lexical));
  if (!isInside(ctx.root.dir, abs))
    throw new RtError('outside_root', `${file.display} is a link outside the root`, [
      'rt changes files inside the root only',
    ]);
  return { ...file, abs };
}

function refuseLongName(file: ResolvedPath): void {
  // Refused before anything is made (create's folders): the lock and the temporary file could not be.
  if (Buffer.byteLength(path.basename(file.abs)) > NAME_MAX - NAME_ROOM) {
    throw new RtError(
      'access',
      `the name of ${file.display} is too long for rt to edit it: its lock and temporary file beside it add up to ${NAME_ROOM} bytes to it, and a name holds ${NAME_MAX} at most`,
      ['give it a shorter name'],
    );
  }
}

const ONE_UPDATE = 'give each file one *** Update File with all its hunks (a Move to names its target once)';
const MOVE_OVER =
  'to move a file onto one that exists, leave out its *** Delete File and apply with --force: ' +
  'the Move to replaces it';

/** A file named by two changes of one patch (or a move onto one) would be written twice: refused. */
function refuseTwice(resolved: readonly Resolved[], origin: WriteOrigin): void {
  const seen = new Map<string, number>();
  for (const r of resolved) {
    // A delete or a move of a link names the link, not the file it leads to.
    const named: Array<[ResolvedPath, number]> = [[r.link ?? r.file, r.change.line]];
    if (r.moveTo && r.change.kind === 'update' && r.change.moveTo) named.push([r.moveTo, r.change.moveTo.line]);
    for (const [file, line] of named) {
      const first = seen.get(file.abs);
      if (first !== undefined) {
        const hints = [ONE_UPDATE, MOVE_OVER];
        throw new RtError(
          'input',
          `${origin.patch ? `patch line ${line}: ` : ''}${file.display} is named again (first at patch line ${first}); nothing was written`,
          hints,
          { patchLine: line, otherLine: first },
        );
      }
      seen.set(file.abs, line);
    }
  }
}

/** Reads the file a change is about (under its lock) and works out what it will write. */
function plan(ctx: Context, r: Resolved, flags: WriteFlags, origin: WriteOrigin): Planned {
  const { change, file } = r;
  const store = ctx.stateOf(file);
  if (change.kind === 'add') return planAdd(ctx, r, store, flags, origin);
  // The version is taken before reading: a change made after it shows when the file is replaced.
  const version = versionOf(lstatOrMissing(file));
  const snapshot = inFolder(path.dirname(file.abs), file.display, () => readSnapshot(store, pinned(file)));
  const before = { lines: snapshot.lines, version, snapshot };
  const linkVersion = r.link
    ? { linkVersion: versionOf(lstatOrMissing(r.link)), linkText: fs.readlinkSync(r.link.abs) }
    : {};
  if (change.kind === 'delete') return { resolved: r, store, before, ...linkVersion };
  const over = r.moveTo ? movedOnto(ctx, r.moveTo, file, flags) : undefined;
  const view = ViewState.load(store, file.rel);
  const { index, lines } = snapshot;
  const world: AnchorWorld = {
    display: file.display,
    total: lines.count,
    lineOf: (code) => index.lids.indexOf(code),
    lidCodeAt: (i) => index.lids[i]!,
    retiredLine: (code) => retiredLine(index.retired, code),
    shownAt: (line) => view.shownAt(line),
    force: flags.force,
  };
  const wasSeen = !flags.force && view.kept ? (lid: string) => view.wasSeen(lid) : undefined;
  const planned = planHunks({ display: file.display, lines, index, world, wasSeen }, change.hunks);
  const changes = flags.indent ? reindentChanges(lines, planned) : planned;
  const applied = applyChanges(lines, index, changes);
  refuseBinaryResult(file, sliceParts(applied.parts, 0, SNIFF_BYTES));
  return { resolved: r, store, before, applied, view, ...linkVersion, ...(over ? { over } : {}) };
}

/** The file a Move to lands on, read to be replaced (--force), or undefined when there is none. */
function movedOnto(ctx: Context, target: ResolvedPath, file: ResolvedPath, flags: WriteFlags): Planned['over'] {
  const existing = lstatOrNone(target.abs);
  if (!existing) return undefined;
  const notMoved = `${file.display} is not moved onto it`;
  if (!flags.force) {
    const hints = [
      `see it: rt open ${quotePath(target.display)}`,
      'to replace it with the moved file, apply the same patch with --force: rt apply --force',
      'or move to a path that does not exist',
    ];
    throw new RtError('exists', `${target.display} exists already: ${notMoved}; nothing was written`, hints);
  }
  if (!existing.isFile()) {
    throw new RtError('access', `${target.display} exists and is not a regular file: ${notMoved}`, [
      'move to another path',
    ]);
  }
  // A second name of the moved file itself: replacing it, then removing the source, would
  // leave neither the file nor the move whole.
  const source = lstatOrNone(file.abs);
  if (source && source.ino === existing.ino && source.dev === existing.dev) {
    throw new RtError(
      'exists',
      `${target.display} is another name of ${file.display} (a hard link): ${notMoved}; nothing was written`,
      ['move to another path'],
    );
  }
  return readReplaced(ctx.stateOf(target), target, existing);
}

/** A file to be replaced whole (--force): its content, and the LIDs it reads with for an undo to give them back. */
function readReplaced(store: StateStore, file: ResolvedPath, existing: fs.Stats): Planned['over'] {
  const old = inFolder(path.dirname(file.abs), file.display, () => readPlainFile(path.basename(file.abs), 2 ** 32 - 1));
  if (!old) return undefined;
  const lines = splitLines(old);
  return { lines, version: versionOf(existing), lids: nextReading(store, file.rel, hashLines(lines)).lids };
}

function planAdd(_ctx: Context, r: Resolved, store: StateStore, flags: WriteFlags, origin: WriteOrigin): Planned {
  const { file } = r;
  const change = r.change as Extract<FileChange, { kind: 'add' }>;
  // `abs` is a real path: what is there now is looked at, not followed.
  const existing = lstatOrNone(file.abs);
  if (existing && !existing.isFile()) {
    throw new RtError('access', `${file.display} exists and is not a regular file`, [
      origin.patch
        ? '*** Add File makes regular files; choose another path'
        : 'create makes regular files; choose another path',
    ]);
  }
  if (existing && !flags.force) {
    throw new RtError('exists', `${file.display} exists already; nothing was written`, [
      `see it: rt open ${quotePath(file.display)}`,
      origin.patch
        ? 'change it with *** Update File, or replace all of it: rt apply --force'
        : `replace all of it: rt create --force ${quotePath(file.display)} <<'EOF'`,
    ]);
  }
  const bytes = change.bytes ?? Buffer.concat(change.lines.flatMap((l) => [l, Buffer.from('\n')]));
  refuseBinaryResult(file, bytes.subarray(0, SNIFF_BYTES));
  // What the file held (with --force) is replaced whole: the summary, --json and the diff say so.
  const before = existing ? readReplaced(store, file, existing) : undefined;
  return { resolved: r, store, bytes, ...(before ? { before } : {}), view: ViewState.load(store, file.rel) };
}

/** What a planned change writes: the new content, and for a move or a delete, a file removed. */
function writesOf(p: Planned): FileWrite[] {
  const { change, file, moveTo, link } = p.resolved;
  // What a delete or a move takes away: the file, or the link named (not what it leads to).
  const removal = (): FileWrite =>
    link
      ? { abs: link.abs, display: link.display, data: null, expected: p.linkVersion }
      : { abs: file.abs, display: file.display, data: null, expected: p.before!.version };
  if (change.kind === 'delete') return [removal()];
  if (change.kind === 'add')
    return [
      {
        abs: file.abs,
        display: file.display,
        data: [p.bytes!],
        expected: p.before?.version,
        overwrite: p.before !== undefined,
      },
    ];
  const applied = p.applied!;
  // The source goes only once its content is at the target.
  // A moved file keeps its permission bits, as mv keeps them.
  const mode = p.before!.version.mode;
  // A move with --force replaces the file there, as read.
  const over = { expected: p.over?.version, overwrite: p.over !== undefined };
  if (moveTo)
    return [
      {
        abs: moveTo.abs,
        display: moveTo.display,
        data: applied.parts,
        ...over,
        ...(mode === undefined ? {} : { mode }),
      },
      { ...removal(), requires: moveTo.abs },
    ];
  return applied.unchanged
    ? []
    : [{ abs: file.abs, display: file.display, data: applied.parts, expected: p.before!.version }];
}

/** Saves the index the change produced (the LIDs it reports) and says what to report. */
function saveState(ctx: Context, p: Planned): FileReport {
  const { change, file, moveTo } = p.resolved;
  if (change.kind === 'delete') return { planned: p };
  if (change.kind === 'add') {
    const after = splitLines(p.bytes!);
    // Over a file rt knew (--force), its saved LIDs are carried to the new content as across any
    // change: lines kept keep theirs, and none of its retired LIDs is handed to other content.
    const index = nextReading(p.store, file.rel, hashLines(after));
    const lids = lidsShown(p.store, file.rel, index, saveIndex(p.store, file.rel, after, index, statFile(file)));
    return { planned: p, lines: after, lids, content: (i) => lineContent(after, i) };
  }
  const applied = p.applied!;
  const target = moveTo ?? file;
  const store = ctx.stateOf(target);
  if (applied.unchanged && !moveTo) ctx.warn(`${file.display} is unchanged: the new text is the same as the old`);
  const snapshot = p.before!.snapshot!;
  const only = applied.edits.size === 1 && !moveTo ? applied.edits.spans()[0]! : undefined;
  // One change of the saved index as read: the records it kept need not be encoded again.
  const kept = only &&
    snapshot.saved && {
      ...snapshot.saved,
      start: only.oldStart,
      end: only.oldStart + only.oldCount,
      inserted: only.newCount,
    };
  const saved = saveIndex(store, target.rel, applied.lines, applied.index, statFile(target), {
    parts: applied.parts,
    ...(kept ? { kept } : {}),
  });
  const lids = lidsShown(store, target.rel, applied.index, saved);
  return {
    planned: p,
    lines: applied.lines,
    lids,
    content: applied.content,
    ...(moveTo ? { view: ViewState.load(store, target.rel) } : {}),
  };
}

/**
 * The LIDs a write shows of the file it wrote: its index's when `saved`; else those the next
 * command will read (see nextReading), for the edit's own carry its history (a line inserted
 * before an equal one takes a new LID, the old line keeps its own; after create --force, a
 * saved index of the old content is reconciled), which no later command knows.
 */
function lidsShown(store: StateStore, rel: string, index: LineIndex, saved: boolean): Uint32Array {
  return saved ? index.lids : nextReading(store, rel, index).lids;
}

/**
 * rt reads text files only. New text that would make the file look binary (a NUL is
 * refused as it is read; control bytes are the rest of the rule) is refused, or rt would then
 * refuse the file it wrote, the edit that would repair it included.
 */
function refuseBinaryResult(file: ResolvedPath, head: Buffer): void {
  if (!looksBinary(head)) return;
  throw new RtError(
    'input',
    `the new text would make ${file.display} look like a binary file (more than a third of its first ${RATIO_BYTES} bytes control characters), which rt does not read; nothing was written`,
    [
      'write text: control characters other than tab, ESC and the line endings belong in binary files, which rt does not edit',
    ],
  );
}

/** The file named within its folder, once that folder is entered (see inFolder). */
function pinned(file: ResolvedPath): ResolvedPath {
  return { ...file, abs: path.basename(file.abs) };
}

function lstatOrMissing(file: ResolvedPath): fs.Stats {
  const st = lstatOrNone(file.abs);
  if (!st) throw new RtError('not_found', `no such file: ${file.display}`, ['check the path']);
  return st;
}

/**
 * Finishes what a killed rt left of a batch in this root (see All or nothing), before the command runs:
 * in .rt/journal/, and in the system's temporary folder where a root without state keeps its
 * journal. Under RT_READONLY, only says that one waits.
 */
export function finishInterruptedBatches(ctx: Context): void {
  finishBatchesIn(ctx, ctx.root.dir);
  // Every other root the command's paths lead into (a nested repository's), before a file of it is
  // read: a batch journaled or marked there is finished first.
  ctx.onStateRoot = (dir) => finishBatchesIn(ctx, dir);
}

/** Finishes the batches a killed rt left in the journal folders of `root`, or that its marks lead to. */
function finishBatchesIn(ctx: Context, root: string): void {
  const record = (step: RecoveredStep) => recordRecoveredStep(ctx, step);
  const readOnly = isOn(ctx.env.RT_READONLY);
  for (const dir of [journalDir(root, true), journalDir(root, false)])
    recoverBatches(dir, root, (m) => ctx.warn(m), readOnly, record);
}
