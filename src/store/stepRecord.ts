// Recording a write as one step of the history: per file, its two sides (existence,
// size, digest, and the stamp of what rt wrote) and its changed lines' bytes and LIDs. A whole
// batch is one step. Recording never fails the write it records: a history that cannot be
// written is said once, and the write stands.

import fs from 'node:fs';
import path from 'node:path';
import { partsBetween } from '../model/edit.js';
import { hunksOf, type StepHunk } from '../model/history/changes.js';
import { splitLines, type FileLines } from '../model/lines.js';
import type { FileReport, Planned, WriteOrigin } from './fileChanges.js';
import {
  encodeStepData,
  History,
  type FileData,
  type FileSide,
  type NewFileData,
  type Step,
  type StepFile,
} from './history.js';
import type { RecoveredStep, StagedStep } from './journal.js';
import { contentDigest, statFile } from './indexedFile.js';
import type { ResolvedPath } from './root.js';
import type { Workspace } from './transaction.js';

const ABSENT: FileSide = { exists: false, size: 0, digest: null };

/** `batch`: the journal of the write (several files), whose recovery would record the same step. */
export function recordStep(
  ws: Workspace,
  origin: WriteOrigin,
  reports: readonly FileReport[],
  madeFolders: readonly string[],
  batch?: string,
): void {
  try {
    const history = History.of(ws.stateOf({ stateRoot: ws.root.dir }));
    if (!history) return;
    const step = stepOf(ws, origin, reports, madeFolders, true);
    if (step) history.record({ ...step.meta, ...(batch === undefined ? {} : { batch }) }, step.data);
  } catch (error) {
    ws.warn(
      `the history of this write could not be recorded (${(error as Error).message}): it cannot be undone with rt undo`,
    );
  }
}

/**
 * The step a batch will record, made before its files are written, for its journal: what
 * recovery records if the batch is killed midway. The LIDs of the new lines are those planned
 * (the killed rt never showed them); the stamps of what is written are taken by recovery.
 * Undefined when no history is kept, or the step cannot be made (the write goes on without it).
 */
export function stagedStep(
  ws: Workspace,
  origin: WriteOrigin,
  planned: readonly Planned[],
  madeFolders: readonly string[],
): StagedStep | undefined {
  if (!History.of(ws.stateOf({ stateRoot: ws.root.dir }))) return undefined;
  try {
    const reports: FileReport[] = planned.map((p) => {
      if (p.applied) return { planned: p, lines: p.applied.lines, lids: p.applied.index.lids };
      return p.bytes ? { planned: p, lines: splitLines(p.bytes), lids: new Uint32Array(0) } : { planned: p };
    });
    const step = stepOf(ws, origin, reports, madeFolders, false);
    return step && { meta: step.meta, data: encodeStepData(step.data) };
  } catch {
    return undefined;
  }
}

/** Records the step of a batch recovery finished (see stagedStep), in the history of the root that journaled it. */
export function recordRecoveredStep(ws: Workspace, step: RecoveredStep): void {
  const history = History.of(ws.stateOf({ stateRoot: step.root }));
  if (!history) throw new Error('no history is kept there');
  history.recordStaged(step.meta, step.data, step.batch, (f) => {
    if (!f.after.exists || f.after.link !== undefined) return f;
    const file = { abs: f.abs, display: f.path } as ResolvedPath;
    return { ...f, after: { ...f.after, stamp: statFile(file), mode: fs.lstatSync(f.abs).mode & 0o7777 } };
  });
}

/** The step of the changes `reports` tell; `written`: their files are written (their stamps taken now). */
function stepOf(
  ws: Workspace,
  origin: WriteOrigin,
  reports: readonly FileReport[],
  madeFolders: readonly string[],
  written: boolean,
): { meta: Omit<Step, 'id' | 'bytes' | 'state'>; data: NewFileData[] } | undefined {
  const files: StepFile[] = [];
  const data: NewFileData[] = [];
  for (const r of reports) {
    for (const [file, d] of filesOf(ws, r, files.length, written)) files.push(file), data.push(d);
  }
  if (files.length === 0) return undefined;
  const folders = madeFolders.map((f) => path.relative(ws.root.dir, f));
  const command = `rt ${origin.command}`;
  return {
    meta: { time: Date.now(), session: ws.session ?? null, command, files, ...(folders.length ? { folders } : {}) },
    data,
  };
}

/** The files a planned change wrote, as a step holds them (`at`: the index in the step of the first). */
function filesOf(ws: Workspace, r: FileReport, at: number, written: boolean): Array<[StepFile, NewFileData]> {
  // What the file written is now: its stamp, and (for a file made whole) its permission bits.
  const stamp = (file: ResolvedPath) => (written ? { stamp: statFile(file) } : {});
  const mode = (file: ResolvedPath) => (written ? { mode: fs.lstatSync(file.abs).mode & 0o7777 } : {});
  const p: Planned = r.planned;
  const { change, file, moveTo, link } = p.resolved;
  const read = p.before;
  const removed = () =>
    whole(ws, file, read!.lines, read!.snapshot?.index.lids, undefined, undefined, {}, read!.version.mode);
  if (change.kind === 'delete') return [link ? linkRemoved(ws, link, p.linkText!) : removed()];
  if (change.kind === 'add')
    return [whole(ws, file, p.before?.lines, p.before?.lids, r.lines!, r.lids, { ...stamp(file), ...mode(file) })];
  const applied = p.applied!;
  // A move over a file (--force) replaces it whole, as create --force does.
  const over = p.over;
  const target = () =>
    whole(
      ws,
      moveTo!,
      over?.lines,
      over?.lids,
      r.lines!,
      r.lids,
      { ...stamp(moveTo!), ...mode(moveTo!) },
      over?.version.mode,
    );
  if (moveTo && link) return [linkRemoved(ws, link, p.linkText!), target()];
  // Its source is then removed whole, as by a delete.
  if (moveTo && over) return [removed(), target()];
  if (moveTo) return moved(ws, r, at, { ...stamp(moveTo), ...mode(moveTo) });
  if (applied.unchanged) return [];
  const before = p.before!.lines;
  const after = r.lines!;
  const hunks = hunksOf(before, after, applied.edits.spans());
  const beforeLids = p.before!.snapshot!.index.lids;
  // The side before needs no digest now: the undo that restores it takes one (see History.mark).
  const beforeSide: FileSide = { exists: true, size: before.bytes.length, digest: null };
  // The digest of the side after is the one its index took of the same parts.
  const afterSide: FileSide = {
    exists: true,
    size: after.starts[after.count]!,
    digest: contentDigest(applied.parts),
    ...stamp(file),
  };
  return [
    [
      stepFile(
        ws,
        file,
        beforeSide,
        afterSide,
        applied.edits.spans().reduce((n, g) => n + g.newCount, 0),
        applied.edits.spans().reduce((n, g) => n + g.oldCount, 0),
      ),
      {
        hunks,
        beforeBytes: hunks.map((h) => before.bytes.subarray(h.before.start, h.before.end)),
        // Views of the parts written: neither the new file nor a range of it is joined for its step.
        afterBytes: hunks.map((h) => partsBetween(applied.parts, h.after.start, h.after.end)),
        beforeLids: hunks.map((h) => beforeLids.slice(h.before.from, h.before.to)),
        afterLids: hunks.map((h) => r.lids!.slice(h.after.from, h.after.to)),
      },
    ],
  ];
}

/**
 * A move (at index `at` of the step, its target at `at + 1`): neither file is kept whole. The
 * source keeps the ranges that differ between its content before and the target's after, the
 * target nothing: an undo makes the source again from the target as it is then, a redo the
 * target from the source.
 */
function moved(
  ws: Workspace,
  r: FileReport,
  at: number,
  written: Pick<FileSide, 'stamp' | 'mode'>,
): Array<[StepFile, NewFileData]> {
  const p = r.planned;
  const { file, moveTo } = p.resolved;
  const applied = p.applied!;
  const before = p.before!.lines;
  const after = r.lines!;
  const hunks = hunksOf(before, after, applied.edits.spans());
  const beforeLids = p.before!.snapshot!.index.lids;
  const afterSide: FileSide = {
    exists: true,
    size: after.starts[after.count]!,
    digest: contentDigest(applied.parts),
    ...written,
  };
  const beforeSide: FileSide = {
    ...side(before.bytes),
    ...(p.before!.version.mode === undefined ? {} : { mode: p.before!.version.mode }),
  };
  const none: FileData = { movedFrom: at, hunks: [], beforeBytes: [], afterBytes: [], beforeLids: [], afterLids: [] };
  return [
    [
      stepFile(ws, file, beforeSide, ABSENT, 0, before.count),
      {
        movedTo: at + 1,
        hunks,
        beforeBytes: hunks.map((h) => before.bytes.subarray(h.before.start, h.before.end)),
        afterBytes: hunks.map((h) => partsBetween(applied.parts, h.after.start, h.after.end)),
        beforeLids: hunks.map((h) => beforeLids.slice(h.before.from, h.before.to)),
        afterLids: hunks.map((h) => r.lids!.slice(h.after.from, h.after.to)),
      },
    ],
    [stepFile(ws, moveTo!, ABSENT, afterSide, after.count, 0), none],
  ];
}

/** A symbolic link removed (what it led to stays): the link is what an undo makes again. */
function linkRemoved(ws: Workspace, link: ResolvedPath, text: string): [StepFile, FileData] {
  const none = { from: 0, to: 0, start: 0, end: 0 };
  const empty = Buffer.alloc(0);
  return [
    stepFile(ws, link, { exists: true, size: 0, digest: null, link: text }, ABSENT, 0, 0),
    {
      hunks: [{ before: none, after: none }],
      beforeBytes: [empty],
      afterBytes: [empty],
      beforeLids: [new Uint32Array(0)],
      afterLids: [new Uint32Array(0)],
    },
  ];
}

/** A file made, removed or replaced whole: one change covering all of it, on each side that exists. */
function whole(
  ws: Workspace,
  file: ResolvedPath,
  before: FileLines | undefined,
  beforeLids: Uint32Array | undefined,
  after: FileLines | undefined,
  afterLids: Uint32Array | undefined,
  written: Pick<FileSide, 'stamp' | 'mode'>,
  beforeMode?: number,
): [StepFile, FileData] {
  const span = (lines: FileLines | undefined) => ({
    from: 0,
    to: lines?.count ?? 0,
    start: 0,
    end: lines?.bytes.length ?? 0,
  });
  const hunk: StepHunk = { before: span(before), after: span(after) };
  return [
    stepFile(
      ws,
      file,
      before ? { ...side(before.bytes), ...(beforeMode === undefined ? {} : { mode: beforeMode }) } : ABSENT,
      after ? { ...side(after.bytes), ...written } : ABSENT,
      after?.count ?? 0,
      before?.count ?? 0,
    ),
    {
      hunks: [hunk],
      beforeBytes: [before?.bytes ?? Buffer.alloc(0)],
      afterBytes: [after?.bytes ?? Buffer.alloc(0)],
      // Unknown LIDs (a file replaced whole by create --force) are left empty: an undo gives fresh ones.
      beforeLids: [before && beforeLids?.length === before.count ? beforeLids : new Uint32Array(0)],
      afterLids: [after && afterLids?.length === after.count ? afterLids : new Uint32Array(0)],
    },
  ];
}

function side(bytes: Buffer): FileSide {
  return { exists: true, size: bytes.length, digest: contentDigest([bytes]) };
}

function stepFile(
  ws: Workspace,
  file: ResolvedPath,
  before: FileSide,
  after: FileSide,
  added: number,
  removed: number,
): StepFile {
  return { path: path.relative(ws.root.dir, file.abs) || file.display, abs: file.abs, before, after, added, removed };
}
