// Undo and redo of a step of the history, staged on the one transaction every write takes: a step
// is taken back, or brought back, only when every file of it is still exactly what the step left
// (else refused, exit 3, unless --force); bytes restored exactly, the restored lines given back
// their LIDs; under the files' locks and through the journal, as every write.

import fs from 'node:fs';
import path from 'node:path';
import { printable, RtError, quotePath, shellQuote } from '../model/errors.js';
import { hashLines, type LineHashes } from '../model/hash.js';
import { EditSet } from '../model/editSet.js';
import { swapHunks, swapLids, swapLines, type StepHunk } from '../model/history/changes.js';
import { NO_RETIRED, reconcileIndex, retire, today, type LineIndex } from '../model/lineIndex.js';
import { lineContent, splitLines, type FileLines } from '../model/lines.js';
import { ownerRuns } from '../io/processes.js';
import type { FileData, FileSide, History, Step, StepFile } from './history.js';
import { accessError, contentDigest, statFile, type Snapshot } from './indexedFile.js';
import { inFolder } from './pinnedFolder.js';
import { readPlainFile } from './plainFile.js';
import { protectedPlace, refuseProtectedWrite } from './protectedPaths.js';
import { isInside, realpathAllowingMissing, stateKeyOf, type ResolvedPath } from './root.js';
import type { KeptRecords } from './savedIndex.js';
import { removeEmptyFolder, Transaction, type Change, type Workspace } from './transaction.js';
import { versionOf } from './writeFile.js';

export type Direction = 'undo' | 'redo';

/** Whether a file's data fits what the list says of it: a damaged list or data file is not acted on. */
export function fits(f: StepFile, d: FileData): boolean {
  return (
    (d.hunks.length > 0 || d.movedTo !== undefined || d.movedFrom !== undefined) &&
    d.afterLids.length === d.hunks.length &&
    d.beforeLids.length === d.hunks.length &&
    (f.before.exists || f.after.exists)
  );
}

/**
 * A folder a step names (from the root), when it is one inside the root, reached without a
 * symbolic link (a folder of the list that leads elsewhere is never removed).
 */
function folderOfStep(ws: Workspace, rel: string, then: (abs: string) => void): void {
  const abs = path.resolve(ws.root.dir, rel);
  if (
    path.isAbsolute(rel) ||
    rel.split(/[\\/]/).includes('..') ||
    !isInside(ws.root.dir, abs) ||
    abs === ws.root.dir ||
    protectedPlace(abs) !== undefined
  )
    return;
  try {
    if (fs.realpathSync.native(abs) !== abs || !fs.lstatSync(abs).isDirectory()) return;
  } catch {
    return; // gone already
  }
  then(abs);
}

/** How a step is taken: --force, and the later step that changed a file of it (undo only). */
export interface StepOptions {
  readonly force: boolean;
  readonly laterStep: (abs: string) => Step | undefined;
}

/**
 * Undoes or redoes step `chosen` (its data `data`, checked by `fits`) as one transaction: the
 * folders of the files made again made first, every file locked, each checked to be what the step
 * left on the side it leaves, the other side staged, committed. `report` is told each file's
 * outcome while the locks are held. An undo then removes the folders the step made, when empty.
 */
export function takeStep(
  ws: Workspace,
  history: History,
  chosen: Step,
  direction: Direction,
  data: readonly FileData[],
  options: StepOptions,
  report: (plans: readonly RestoredFile[]) => void,
): void {
  const files = chosen.files.map((f) => resolvedOf(ws, f));
  const from = direction === 'undo' ? 'after' : 'before';
  const to = direction === 'undo' ? 'before' : 'after';
  const taken = direction === 'undo' ? 'undone' : 'redone';
  // The folders of the files made again are made first (each lock lies beside its file); a refusal removes them.
  const make = files.filter((_, i) => chosen.files[i]![to].exists && !chosen.files[i]![from].exists);
  const tx = Transaction.begin(ws, { lock: files, make });
  try {
    const madeFolders = tx.madeFolders.map((f) => path.relative(ws.root.dir, f));
    const plans: RestoredFile[] = chosen.files.map((f, i) =>
      planFile(ws, tx, chosen, f, files[i]!, data, i, from, to, options.force, options.laterStep(files[i]!.abs)),
    );
    for (const p of plans) {
      const change = changeOf(p);
      if (change) tx.stage(change);
    }
    const store = ws.stateOf({ stateRoot: ws.root.dir });
    tx.commit({
      kind: 'step',
      command: `rt ${direction}`,
      step: { id: chosen.id, direction },
      begin: () => {
        if (!history.begin(chosen.id, direction, ws.session ?? null))
          throw new RtError(
            'access',
            `the history in ${path.relative(ws.cwd, store.dir) || '.'} cannot be written: ` +
              `step ${chosen.id} was not ${taken}; nothing was written`,
            ['check the permissions of .rt/history'],
          );
      },
      abandon: () => history.mark(chosen.id, undefined),
    });
    // The side written is now known by its stamp and digest: what the next redo or undo checks.
    const updated: StepFile[] = chosen.files.map((f, i) => {
      const p: RestoredFile = plans[i]!;
      if (p.link !== undefined) return f; // a link is checked by what it holds
      return p.parts === null || !p.lines
        ? f
        : {
            ...f,
            [to]: {
              ...f[to],
              exists: true,
              size: p.lines.starts[p.lines.count]!,
              digest: contentDigest(p.parts),
              stamp: statFile(p.file),
            },
          };
    });
    // A redo's folders are those it made (one the user made meanwhile is not the step's to remove).
    history.mark(chosen.id, direction === 'undo' ? 'undone' : 'done', updated, {
      by: ws.session ?? null,
      ...(direction === 'redo' ? { folders: madeFolders } : {}),
    });
    report(plans);
  } finally {
    tx.end();
  }
  // An undo removes the folders the step (or the redo of it) made, when nothing else is in them.
  if (direction === 'undo')
    for (const folder of [...(chosen.folders ?? [])].reverse()) folderOfStep(ws, folder, removeEmptyFolder);
}

/** What a file of the step stages: its content restored, the file made again or removed; nothing when gone already. */
function changeOf(p: RestoredFile): Change | undefined {
  if (p.link !== undefined) return { kind: 'new', file: p.file, content: { link: p.link } };
  if (p.parts === null)
    return p.version === undefined
      ? undefined
      : { kind: 'removal', file: p.file, expected: p.version, overwrite: true };
  const content = {
    parts: p.parts,
    lines: p.lines!,
    index: p.index!,
    ...(p.kept ? { kept: p.kept } : {}),
    ...(p.edits ? { edits: p.edits } : {}),
  };
  if (p.version === undefined)
    return { kind: 'new', file: p.file, content, ...(p.mode === undefined ? {} : { mode: p.mode }) };
  return { kind: 'edit', file: p.file, content, expected: p.version, overwrite: true };
}

/** A step as messages name it: its number and command, and its session when another's than this one. */
export function stepName(ws: Workspace, s: Step): string {
  return `step ${s.id} (${s.command}${s.session !== (ws.session ?? null) ? `, ${sessionName(s.session)}` : ''})`;
}

export function sessionName(session: string | null): string {
  return session === null ? 'the shared session' : `session ${printable(session)}`;
}

/**
 * Settles the steps whose undo or redo an rt no longer running left under way (killed between
 * saying so and marking the step): each whose files are all on the side it was writing (the
 * batch finished, see finishBatchesIn) is marked as taken; the rest stay as they were.
 */
export function settlePending(ws: Workspace, history: History): void {
  for (const s of history.steps()) {
    if (!s.pending || ownerRuns(s.pending.owner, s.pending.time)) continue;
    const to = s.pending.direction === 'undo' ? 'before' : 'after';
    let now: StepFile[] | undefined;
    try {
      const data = history.data(s);
      if (data && data.length === s.files.length)
        now = sidesNow(
          s,
          s.files.map((f) => resolvedOf(ws, f)),
          data,
          to,
        );
    } catch {
      now = undefined; // a step whose files cannot be looked at stays as it was
    }
    // Undone, and its session has written since: it can no longer be redone (as History.record would have said).
    const by = s.pending.session ?? null;
    const wroteSince = history.steps().some((t) => t.session === by && t.time >= s.pending!.time && t.id !== s.id);
    const state = now ? (to === 'before' ? (wroteSince ? 'cleared' : 'undone') : 'done') : undefined;
    history.mark(s.id, state, now, { by, ifPending: s.pending });
  }
}

/** What one file of a step becomes, and what its report shows. */
export interface RestoredFile {
  readonly file: ResolvedPath;
  /** The new content in consecutive parts, or null to remove the file. */
  readonly parts: Buffer[] | null;
  /** The version now there (replaced), or undefined for a file made anew. */
  readonly version: ReturnType<typeof versionOf> | undefined;
  /** The new content's lines (their bytes joined only if asked for), and line i's content. */
  readonly lines?: FileLines;
  readonly content?: (i: number) => Buffer;
  readonly index?: LineIndex;
  /** When the index is the saved one with one range changed: its records kept (see KeptRecords). */
  readonly kept?: KeptRecords;
  /** The step's edits of the file as it was, taken back (undo) or made again (redo), when whole lines. */
  readonly edits?: EditSet;
  readonly regions: ReadonlyArray<{ from: number; to: number }>;
  readonly path: string;
  /** For a file made again: the permission bits it had. */
  readonly mode?: number;
  /** A symbolic link made again, holding this path. */
  readonly link?: string;
}

/**
 * A file of a step: its path from the root, which must be where the step wrote it; one that
 * would lie outside the root, or elsewhere than written (a history planted, damaged, or copied
 * with its root), is refused, never followed.
 */
function resolvedOf(ws: Workspace, f: StepFile): ResolvedPath {
  const abs = path.resolve(ws.root.dir, f.path);
  // A history copied with its root (cp -a) or planted names files of another place: never acted on here.
  if (abs !== f.abs) {
    throw new RtError(
      'outside_root',
      `the history names ${f.abs}, not a file of this root (${ws.root.dir}); nothing was written`,
      ['a history copied from another folder is not undone here; remove .rt/history to start it again'],
    );
  }
  if (
    path.isAbsolute(f.path) ||
    f.path.split(/[\\/]/).includes('..') ||
    !isInside(ws.root.dir, abs) ||
    abs === ws.root.dir
  ) {
    throw new RtError(
      'outside_root',
      `the history names ${JSON.stringify(f.path)}, which is not a file inside the root; nothing was written`,
      ['the history may be damaged: see it with rt history; remove .rt/history to start it again'],
    );
  }
  const display = path.relative(ws.cwd, abs) || f.path;
  // Through the real path of its folder: a folder of the list swapped for a link into .git is seen as what it is.
  refuseProtectedWrite(path.join(realpathAllowingMissing(path.dirname(abs)).path, path.basename(abs)), display);
  return { abs, ...stateKeyOf(ws.root, abs), display };
}

/**
 * What one file of the step becomes: checked to be what the step left on side `from` (or, with
 * --force, to hold what it left there in the changed places), then turned into side `to`.
 */
function planFile(
  ws: Workspace,
  tx: Transaction,
  chosen: Step,
  f: StepFile,
  file: ResolvedPath,
  data: readonly FileData[],
  at: number,
  from: 'before' | 'after',
  to: 'before' | 'after',
  force: boolean,
  later: Step | undefined,
): RestoredFile {
  const d = data[at]!;
  const st = fs.lstatSync(file.abs, { throwIfNoEntry: false });
  const want = f[from];
  const target = f[to];
  const what =
    from === 'after' ? `what step ${chosen.id} (${chosen.command}) wrote` : `what undoing step ${chosen.id} left`;
  // The hint after `see it`: --force, or what to do where --force does not help.
  // A later step that wrote the file (another session's) is named, with its undo, as rt undo STEP names it.
  const byLater = later ? `: ${stepName(ws, later)} wrote it after` : '';
  const since = sinceStep(chosen, from);
  const notTaken = `nothing was ${from === 'after' ? 'undone' : 'redone'}`;
  const taking = from === 'after' ? 'undo' : 'redo';
  const undoLater = later ? [`undo step ${later.id} first: rt undo ${later.id}`] : [];
  const refuse = (why: string, instead?: string) =>
    new RtError('stale', `${file.display} ${why} since ${since}${byLater}; ${notTaken}`, [
      ...undoLater,
      `see it as it is now: rt open ${quotePath(file.display)}`,
      instead ?? `${from === 'after' ? 'undo' : 'redo'} anyway, where its changed lines are still ${what}: add --force`,
    ]);
  if (!want.exists) {
    // The step made this file (undo) or removed it (redo): it must be gone (--force does not replace a file there).
    if (st)
      throw refuse(
        'exists again',
        `the ${taking} makes it again: move that file aside first (forcing it does not replace a file), ` +
          `then run rt ${taking} again`,
      );
    if (target.link !== undefined)
      return { file, parts: [], version: undefined, regions: [], path: f.path, link: target.link };
    const { bytes, lids } =
      d.movedTo !== undefined || d.movedFrom !== undefined
        ? fromOtherFile(ws, tx, chosen, data, at, from, to)
        : {
            bytes: (to === 'after' ? d.afterBytes : d.beforeBytes)[0]!,
            lids: (to === 'after' ? d.afterLids : d.beforeLids)[0]!,
          };
    if (bytes.length !== target.size) throw damaged(chosen, file);
    const made = newIndex(bytes, lids);
    return {
      file,
      parts: [bytes],
      version: undefined,
      regions: [{ from: 0, to: made.lines.count }],
      path: f.path,
      ...(target.mode === undefined ? {} : { mode: target.mode }),
      ...made,
      content: (i) => lineContent(made.lines, i),
    };
  }
  // A file of a move: the other is made from it, so it must be as the step left it, --force or not.
  const moved = d.movedTo !== undefined || d.movedFrom !== undefined;
  if (!st && force && !target.exists && !moved)
    return { file, parts: null, version: undefined, regions: [], path: f.path }; // gone already: nothing to take back
  if (want.link !== undefined) {
    // A link the step made again (redo of its removal): still that link, holding the same path.
    if (!st?.isSymbolicLink() || fs.readlinkSync(file.abs) !== want.link)
      throw refuse(st ? 'changed' : 'was removed', 'the link is removed only as the step left it');
    return { file, parts: null, version: versionOf(st), regions: [], path: f.path };
  }
  if (!st?.isFile()) {
    throw new RtError(
      'stale',
      `${file.display} ${st ? 'is no longer a regular file' : 'was removed'} since ${since}${byLater}; ${notTaken}`,
      [
        ...undoLater,
        ...(!st && !target.exists && !moved
          ? [`${from === 'after' ? 'undo' : 'redo'} the rest of the step all the same: add --force`]
          : []),
        'to take back an older step instead: see them with rt history, then rt undo STEP',
      ],
    );
  }
  if (!target.exists) {
    if (moved) {
      const current = readAsChecked(file, st.size);
      if (!current || !sameSide(want, current, d, from))
        throw refuse(
          'changed',
          `the step moved it: the ${taking} makes the other file from it only as the step left it, forced or not`,
        );
      return { file, parts: null, version: versionOf(st), regions: [], path: f.path };
    }
    const current = readAsChecked(file, st.size);
    // Removed only as the step left it, even with --force: what else it holds would go with it.
    if (!current || !sameSide(want, current, d, from))
      throw refuse(
        'changed',
        `the ${taking} would remove it, with what was added since: keep what you need of it, remove it by hand, ` +
          `then run rt ${taking} again`,
      );
    return { file, parts: null, version: versionOf(st), regions: [], path: f.path };
  }
  // Read once, with its index: the saved one as it is when the file is the version it describes.
  const snapshot = readStepFile(tx, file, (bytes) => sameSide(want, bytes, d, from));
  const current = snapshot.lines;
  let hunks = d.hunks;
  const same = sameSide(want, current.bytes, d, from, () => current);
  if (!same) {
    if (!force) throw refuse('changed');
    hunks = relocate(d, from, current, file);
  } else if (!atTheirBytes(current.bytes, d, from)) {
    hunks = relocate(d, from, current, file); // moved by a forced undo or redo
  }
  const other = to === 'after' ? d.afterBytes : d.beforeBytes;
  const swapped = swapLines(current, snapshot.index, hunks, from, other);
  // Whole lines (swapped): the restored regions are where the step's edits, taken back, put their lines.
  const edits = swapped ? stepEdits(hunks, from, other) : undefined;
  const regions = edits
    ? edits.spans().map((s) => ({ from: s.newStart, to: s.newStart + s.newCount }))
    : hunks.map((h) => ({ from: h[to].from, to: h[to].to }));
  if (!swapped) {
    // Not whole lines as the step says (a damaged step): the file is split anew.
    const bytes = swapHunks(current.bytes, hunks, from, other);
    const lines = splitLines(bytes);
    const { index } = restoredIndex(
      snapshot.index,
      lines.count,
      hashLines(lines),
      hunks,
      from,
      to === 'after' ? d.afterLids : d.beforeLids,
    );
    return {
      file,
      parts: [bytes],
      version: versionOf(st),
      lines,
      content: (i) => lineContent(lines, i),
      index,
      regions,
      path: f.path,
    };
  }
  const { index, spliced } = restoredIndex(
    snapshot.index,
    swapped.count,
    swapped.hashes,
    hunks,
    from,
    to === 'after' ? d.afterLids : d.beforeLids,
  );
  const lines: FileLines = {
    get bytes() {
      return Buffer.concat(swapped.parts, swapped.size);
    },
    bomLength: current.bomLength,
    count: swapped.count,
    starts: swapped.starts,
    contentEnds: swapped.contentEnds,
  };
  // One range changed in the saved index as read: its other records are written again as they are.
  const h = hunks.length === 1 ? hunks[0]! : undefined;
  const kept =
    h && snapshot.saved && spliced
      ? { ...snapshot.saved, start: h[from].from, end: h[from].to, inserted: h[to].to - h[to].from }
      : undefined;
  return {
    file,
    parts: swapped.parts,
    version: versionOf(st),
    lines,
    content: swapped.content,
    index,
    regions,
    path: f.path,
    ...(kept ? { kept } : {}),
    ...(edits ? { edits } : {}),
  };
}

/**
 * A step's change of one file as edits of its lines on side `from`, that make side `to` of it:
 * for an undo, the inverse of the edits the step made; for a redo, those edits again. Undefined
 * when its ranges are not in file order (a damaged step: its bytes are swapped back all the same).
 */
function stepEdits(
  hunks: readonly StepHunk[],
  from: 'before' | 'after',
  other: readonly Buffer[],
): EditSet | undefined {
  try {
    return EditSet.of(
      hunks.map((h, i) => {
        const lines = splitLines(other[i]!);
        const insert = Array.from({ length: lines.count }, (_, k) => lineContent(lines, k));
        return { start: h[from].from, deleteCount: h[from].to - h[from].from, insert };
      }),
    );
  } catch {
    return undefined;
  }
}

/**
 * When every file of the step is now its side `to` (a file that side has not is absent, one it
 * has is of its size, with the step's own lines in place, and its digest where one is known):
 * the step's files with that side's digest and stamp as they are; else undefined.
 */
function sidesNow(
  chosen: Step,
  files: readonly ResolvedPath[],
  data: readonly FileData[],
  to: 'before' | 'after',
): StepFile[] | undefined {
  const out: StepFile[] = [];
  for (const [i, f] of chosen.files.entries()) {
    const file = files[i]!;
    const st = fs.lstatSync(file.abs, { throwIfNoEntry: false });
    const side = f[to];
    if (!side.exists) {
      if (st) return undefined;
      out.push(f);
      continue;
    }
    if (side.link !== undefined) {
      if (!st?.isSymbolicLink() || fs.readlinkSync(file.abs) !== side.link) return undefined;
      out.push(f);
      continue;
    }
    if (!st?.isFile() || st.size !== side.size) return undefined;
    const bytes = readAsChecked(file, side.size);
    const d = data[i]!;
    if (
      !bytes ||
      bytes.length !== side.size ||
      (side.digest !== null && contentDigest([bytes]) !== side.digest) ||
      !ownLinesHold(bytes, d, to)
    )
      return undefined;
    out.push({ ...f, [to]: { ...side, digest: contentDigest([bytes]), stamp: statFile(file) } });
  }
  return out;
}

/**
 * Whether the file now is the side `from` of the step: its size and digest, and the step's own
 * changed lines at their places. Never its stamp alone: a program that wrote the file in the
 * instant after rt did left rt's stamp on its own content.
 */
function sameSide(
  want: FileSide,
  current: Buffer,
  d: FileData,
  from: 'before' | 'after',
  lines?: () => FileLines,
): boolean {
  if (current.length !== want.size || want.digest === null || contentDigest([current]) !== want.digest) return false;
  return ownLinesHold(current, d, from, lines);
}

/**
 * Whether the step's own changed lines (side `from`) are in `current`: at their bytes, or (after
 * a forced undo or redo wrote them where lines added or removed above had moved them) at their
 * line numbers.
 */
function ownLinesHold(current: Buffer, d: FileData, from: 'before' | 'after', lines?: () => FileLines): boolean {
  if (atTheirBytes(current, d, from)) return true;
  const own = from === 'after' ? d.afterBytes : d.beforeBytes;
  const l = lines ? lines() : splitLines(current);
  return d.hunks.every(
    (h, i) => h[from].to <= l.count && current.subarray(l.starts[h[from].from]!, l.starts[h[from].to]!).equals(own[i]!),
  );
}

/** Whether the step's changed ranges (side `from`) are at their bytes in `current`, as the step recorded them. */
function atTheirBytes(current: Buffer, d: FileData, from: 'before' | 'after'): boolean {
  const own = from === 'after' ? d.afterBytes : d.beforeBytes;
  return d.hunks.every((h, i) => current.subarray(h[from].start, h[from].end).equals(own[i]!));
}

/**
 * --force on a file changed since: the step is taken back only where each of its changed
 * ranges still stands at its own lines, as the step left it (what changed elsewhere in the
 * file is kept). A range changed, or moved by lines added or removed above it, is refused: its
 * bytes found elsewhere may be another line's, and taking them back would revert someone's work.
 */
function relocate(d: FileData, from: 'before' | 'after', lines: FileLines, file: ResolvedPath): StepHunk[] {
  const own = from === 'after' ? d.afterBytes : d.beforeBytes;
  return d.hunks.map((h, i) => {
    const side = h[from];
    const start = side.from <= lines.count ? lines.starts[side.from]! : -1;
    const end = side.to <= lines.count ? lines.starts[side.to]! : -1;
    if (start === -1 || end === -1 || !lines.bytes.subarray(start, end).equals(own[i]!)) {
      throw new RtError(
        'stale',
        `${file.display} no longer holds lines ${side.from + 1}-${side.to} as the step left them ` +
          '(they changed, or lines were added or removed above them); nothing was written',
        [`see it: rt open ${shellQuote(`${file.display}:${side.from + 1}`)}`, 'make the change by hand with rt edit'],
      );
    }
    return { ...h, [from]: { ...side, start, end } } as StepHunk;
  });
}

/**
 * The index of the file restored (`count` lines, fingerprints `hashes`): the lines outside the
 * changed ranges keep their LIDs, those inside get back the ones they had on that side; the
 * LIDs of the lines taken away are retired. `spliced` says it is so; when that cannot hold (the
 * LIDs kept are not there, or would repeat), the restored file's LIDs are found as for any change.
 */
function restoredIndex(
  current: LineIndex,
  count: number,
  hashes: LineHashes,
  hunks: readonly StepHunk[],
  from: 'before' | 'after',
  otherLids: readonly Uint32Array[],
): { index: LineIndex; spliced: boolean } {
  const to = from === 'after' ? 'before' : 'after';
  // (An LID code of 0, "0000", holds no letter: never an LID, so a step holding one is not to be trusted.)
  const complete = otherLids.every((l, i) => l.length === hunks[i]![to].to - hunks[i]![to].from && !l.includes(0));
  // The current index describes the side `from`: its lines are the restored file's, less the ranges' lines on side
  // `to`, plus those on side `from`.
  const fromLines = count + hunks.reduce((n, h) => n + (h[from].to - h[from].from) - (h[to].to - h[to].from), 0);
  if (complete && current.lids.length === fromLines) {
    // The LIDs given back: none twice, and none that a line outside the ranges holds (the
    // index's own LIDs are all different), which a scan of those lines tells.
    const back = new Set<number>();
    for (const l of otherLids) for (const code of l) back.add(code);
    const backCount = otherLids.reduce((n, l) => n + l.length, 0);
    if (back.size === backCount && !holdsAny(current.lids, hunks, from, back)) {
      const lids = swapLids(current.lids, hunks, from, otherLids);
      const gone: Array<{ lid: number; line: number }> = [];
      hunks.forEach((h) => {
        for (let i = h[from].from; i < h[from].to; i++)
          if (!back.has(current.lids[i]!))
            gone.push({ lid: current.lids[i]!, line: Math.min(h[to].from + 1, Math.max(count, 1)) });
      });
      const keep = current.retired.lids.map((code) => (back.has(code) ? 0 : 1));
      const retired = keep.every(Boolean)
        ? current.retired
        : {
            lids: current.retired.lids.filter((_, i) => keep[i]),
            days: current.retired.days.filter((_, i) => keep[i]),
            lines: current.retired.lines.filter((_, i) => keep[i]),
          };
      return {
        index: { h1: hashes.h1, h2: hashes.h2, lids, retired: retire(retired, gone, today(), count) },
        spliced: true,
      };
    }
  }
  return { index: reconcileIndex(current, hashes), spliced: false };
}

/** Whether a line outside the ranges (side `from`) holds one of the LIDs `codes`. */
function holdsAny(
  lids: Uint32Array,
  hunks: readonly StepHunk[],
  from: 'before' | 'after',
  codes: ReadonlySet<number>,
): boolean {
  if (codes.size === 0) return false;
  // A filter of 2^16 bits on the low bits of the codes spares most lines a look-up in the set.
  const filter = new Uint8Array(1 << 13);
  for (const code of codes) filter[(code & 0xffff) >>> 3]! |= 1 << (code & 7);
  let at = 0;
  const scan = (until: number) => {
    for (let i = at; i < until; i++) {
      const code = lids[i]!;
      if (filter[(code & 0xffff) >>> 3]! & (1 << (code & 7)) && codes.has(code)) return true;
    }
    return false;
  };
  for (const h of hunks) {
    if (scan(h[from].from)) return true;
    at = h[from].to;
  }
  return scan(lids.length);
}

/** A file made whole by an undo or redo: its LIDs those it had, when kept. */
function newIndex(bytes: Buffer, lids: Uint32Array): { lines: FileLines; index: LineIndex } {
  const lines = splitLines(bytes);
  const hashes = hashLines(lines);
  if (lids.length === lines.count && new Set(lids).size === lids.length)
    return { lines, index: { h1: hashes.h1, h2: hashes.h2, lids: Uint32Array.from(lids), retired: NO_RETIRED } };
  return {
    lines,
    index: reconcileIndex(
      { h1: new Uint32Array(0), h2: new Uint32Array(0), lids: new Uint32Array(0), retired: NO_RETIRED },
      hashes,
    ),
  };
}

/**
 * A file of a move made again (the source by an undo, the target by a redo) from the other file
 * of the move as it is now, which must be what the step left on its side `from`: its bytes and
 * LIDs with the move's changed ranges put back.
 */
function fromOtherFile(
  ws: Workspace,
  tx: Transaction,
  chosen: Step,
  data: readonly FileData[],
  at: number,
  from: 'before' | 'after',
  to: 'before' | 'after',
): { bytes: Buffer; lids: Uint32Array } {
  const d = data[at]!;
  const otherAt = d.movedTo ?? d.movedFrom!;
  const source = d.movedTo !== undefined ? d : data[otherAt]!;
  const other = resolvedOf(ws, chosen.files[otherAt]!);
  const otherSide = chosen.files[otherAt]![from];
  if (!fs.lstatSync(other.abs, { throwIfNoEntry: false })?.isFile()) {
    throw new RtError('stale', `${other.display} was removed since ${sinceStep(chosen, from)}: ${cannotMake(from)}`, [
      'to take back an older step instead: see them with rt history, then rt undo STEP',
    ]);
  }
  const snapshot = tx.read(other);
  const now = snapshot.lines.bytes;
  if (
    !otherSide.exists ||
    now.length !== otherSide.size ||
    otherSide.digest === null ||
    contentDigest([now]) !== otherSide.digest ||
    !source.hunks.every((h, i) =>
      now.subarray(h[from].start, h[from].end).equals((from === 'after' ? source.afterBytes : source.beforeBytes)[i]!),
    )
  ) {
    throw new RtError('stale', `${other.display} changed since ${sinceStep(chosen, from)}: ${cannotMake(from)}`, [
      `see it as it is now: rt open ${shellQuote(other.display)}`,
    ]);
  }
  const own = to === 'after' ? source.afterLids : source.beforeLids;
  const complete =
    snapshot.index.lids.length === snapshot.lines.count &&
    source.hunks.every((h, i) => own[i]!.length === h[to].to - h[to].from);
  return {
    bytes: swapHunks(now, source.hunks, from, to === 'after' ? source.afterBytes : source.beforeBytes),
    lids: complete ? swapLids(snapshot.index.lids, source.hunks, from, own) : new Uint32Array(0),
  };
}

/** What the file a step leaves on side `from` is since: the step's write, or its undo. */
function sinceStep(chosen: Step, from: 'before' | 'after'): string {
  return from === 'after' ? `step ${chosen.id} (${chosen.command}) wrote it` : `step ${chosen.id} was undone`;
}

/** The end of a refusal to make a moved file again from the other file of its move. */
function cannotMake(from: 'before' | 'after'): string {
  return `the file it moved cannot be made again from it; nothing was ${from === 'after' ? 'undone' : 'redone'}`;
}

/** A step whose data does not give the bytes its list says (size): never written. */
function damaged(chosen: Step, file: ResolvedPath): RtError {
  return new RtError(
    'input',
    `the data of step ${chosen.id} (${chosen.command}) does not give ${file.display} back as it was (damaged?); ` +
      'nothing was written',
    ['see the file as it is: rt open ' + quotePath(file.display), 'remove .rt/history to start the history again'],
  );
}

/**
 * The bytes of a file found a regular file of `size` bytes, read within its folder: undefined when
 * it is no longer one, or bigger (a link or a FIFO swapped in since is neither followed nor waited
 * on). A file that cannot be read is refused as such (not taken for one that changed).
 */
function readAsChecked(file: ResolvedPath, size: number): Buffer | undefined {
  return inFolder(path.dirname(file.abs), file.display, () => {
    const name = path.basename(file.abs);
    try {
      fs.accessSync(name, fs.constants.R_OK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EPERM') throw accessError(file, error);
    }
    return readPlainFile(name, size);
  });
}

/**
 * The file a step is taken back or made again on, read with its index. A binary file is read too
 * when it holds exactly the bytes the step left on this side (a create --force over a binary
 * file, undone, is made again); otherwise it is refused as binary, as every command refuses one.
 */
function readStepFile(tx: Transaction, file: ResolvedPath, isSide: (bytes: Buffer) => boolean): Snapshot {
  try {
    return tx.read(file);
  } catch (error) {
    if (!(error instanceof RtError) || error.code !== 'binary') throw error;
    const snapshot = tx.read(file, true);
    if (!isSide(snapshot.lines.bytes)) throw error;
    return snapshot;
  }
}
