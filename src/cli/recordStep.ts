// Recording a write as one step of the history (SPEC §8): per file, its two sides (existence,
// size, digest, and the stamp of what rt wrote) and its changed lines' bytes and LIDs. A whole
// batch is one step. Recording never fails the write it records: a history that cannot be
// written is said once, and the write stands.

import fs from 'node:fs';
import path from 'node:path';
import { sliceParts } from '../core/edit.js';
import { hunksOf, type Hunk } from '../core/history/changes.js';
import type { FileLines } from '../core/lines.js';
import { History, type FileData, type FileSide, type StepFile } from '../io/history.js';
import { contentDigest, statFile } from '../io/indexedFile.js';
import type { ResolvedPath } from '../io/root.js';
import type { Context } from './context.js';
import type { FileReport } from './writeReport.js';
import type { Planned, WriteOrigin } from './writing.js';

const ABSENT: FileSide = { exists: false, size: 0, digest: null };

export function recordStep(ctx: Context, origin: WriteOrigin, reports: readonly FileReport[], madeFolders: readonly string[]): void {
  try {
    const history = History.of(ctx.stateOf({ stateRoot: ctx.root.dir }));
    if (!history) return;
    const files: StepFile[] = [];
    const data: FileData[] = [];
    for (const r of reports) for (const [file, d] of filesOf(ctx, r, files.length)) files.push(file), data.push(d);
    if (files.length === 0) return;
    const folders = madeFolders.map((f) => path.relative(ctx.root.dir, f));
    history.record({ time: Date.now(), session: ctx.session ?? null, command: `rt ${origin.command}`, files, ...(folders.length ? { folders } : {}) }, data);
  } catch (error) {
    ctx.warn(`the history of this write could not be recorded (${(error as Error).message}): it cannot be undone with rt undo`);
  }
}

/** The files a planned change wrote, as a step holds them (`at`: the index in the step of the first). */
function filesOf(ctx: Context, r: FileReport, at: number): Array<[StepFile, FileData]> {
  const p: Planned = r.planned;
  const { change, file, moveTo, link } = p.resolved;
  const read = p.before;
  const removed = () => whole(ctx, file, read!.lines, read!.snapshot?.index.lids, undefined, undefined, read!.version.mode);
  if (change.kind === 'delete') return [link ? linkRemoved(ctx, link, p.linkText!) : removed()];
  if (change.kind === 'add') return [whole(ctx, file, p.before?.lines, p.before?.lids, r.lines!, r.lids)];
  const applied = p.applied!;
  // A move over a file (--force) replaces it whole, as create --force does.
  const over = p.over;
  const target = () => whole(ctx, moveTo!, over?.lines, over?.lids, r.lines!, r.lids, over?.version.mode);
  if (moveTo && link) return [linkRemoved(ctx, link, p.linkText!), target()];
  // Its source is then removed whole, as by a delete.
  if (moveTo && over) return [removed(), target()];
  if (moveTo) return moved(ctx, r, at);
  if (applied.unchanged) return [];
  const before = p.before!.lines;
  const after = r.lines!;
  const hunks = hunksOf(before, after, applied.regions);
  const beforeLids = p.before!.snapshot!.index.lids;
  // The side before needs no digest now: the undo that restores it takes one (see History.mark).
  const beforeSide: FileSide = { exists: true, size: before.bytes.length, digest: null };
  // The digest of the side after is the one its index took of the same parts.
  const afterSide: FileSide = { exists: true, size: after.starts[after.count]!, digest: contentDigest(applied.parts), stamp: statFile(file) };
  return [
    [
      stepFile(ctx, file, beforeSide, afterSide, applied.regions.reduce((n, g) => n + g.newCount, 0), applied.regions.reduce((n, g) => n + g.oldCount, 0)),
      {
        hunks,
        beforeBytes: hunks.map((h) => before.bytes.subarray(h.before.start, h.before.end)),
        // Cut from the parts written: the new file is never joined for its step.
        afterBytes: hunks.map((h) => sliceParts(applied.parts, h.after.start, h.after.end)),
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
function moved(ctx: Context, r: FileReport, at: number): Array<[StepFile, FileData]> {
  const p = r.planned;
  const { file, moveTo } = p.resolved;
  const applied = p.applied!;
  const before = p.before!.lines;
  const after = r.lines!;
  const hunks = hunksOf(before, after, applied.regions);
  const beforeLids = p.before!.snapshot!.index.lids;
  const afterSide: FileSide = { exists: true, size: after.starts[after.count]!, digest: contentDigest(applied.parts), stamp: statFile(moveTo!), mode: fs.lstatSync(moveTo!.abs).mode & 0o7777 };
  const beforeSide: FileSide = { ...side(before.bytes), ...(p.before!.version.mode === undefined ? {} : { mode: p.before!.version.mode }) };
  const none: FileData = { movedFrom: at, hunks: [], beforeBytes: [], afterBytes: [], beforeLids: [], afterLids: [] };
  return [
    [
      stepFile(ctx, file, beforeSide, ABSENT, 0, before.count),
      {
        movedTo: at + 1,
        hunks,
        beforeBytes: hunks.map((h) => before.bytes.subarray(h.before.start, h.before.end)),
        afterBytes: hunks.map((h) => sliceParts(applied.parts, h.after.start, h.after.end)),
        beforeLids: hunks.map((h) => beforeLids.slice(h.before.from, h.before.to)),
        afterLids: hunks.map((h) => r.lids!.slice(h.after.from, h.after.to)),
      },
    ],
    [stepFile(ctx, moveTo!, ABSENT, afterSide, after.count, 0), none],
  ];
}

/** A symbolic link removed (what it led to stays): the link is what an undo makes again. */
function linkRemoved(ctx: Context, link: ResolvedPath, text: string): [StepFile, FileData] {
  const none = { from: 0, to: 0, start: 0, end: 0 };
  const empty = Buffer.alloc(0);
  return [stepFile(ctx, link, { exists: true, size: 0, digest: null, link: text }, ABSENT, 0, 0), { hunks: [{ before: none, after: none }], beforeBytes: [empty], afterBytes: [empty], beforeLids: [new Uint32Array(0)], afterLids: [new Uint32Array(0)] }];
}

/** A file made, removed or replaced whole: one change covering all of it, on each side that exists. */
function whole(ctx: Context, file: ResolvedPath, before: FileLines | undefined, beforeLids: Uint32Array | undefined, after: FileLines | undefined, afterLids: Uint32Array | undefined, beforeMode?: number): [StepFile, FileData] {
  const span = (lines: FileLines | undefined) => ({ from: 0, to: lines?.count ?? 0, start: 0, end: lines?.bytes.length ?? 0 });
  const hunk: Hunk = { before: span(before), after: span(after) };
  return [
    stepFile(ctx, file, before ? { ...side(before.bytes), ...(beforeMode === undefined ? {} : { mode: beforeMode }) } : ABSENT, after ? { ...side(after.bytes, statFile(file)), mode: fs.lstatSync(file.abs).mode & 0o7777 } : ABSENT, after?.count ?? 0, before?.count ?? 0),
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

function side(bytes: Buffer, stamp?: ReturnType<typeof statFile>): FileSide {
  return { exists: true, size: bytes.length, digest: contentDigest([bytes]), ...(stamp ? { stamp } : {}) };
}

function stepFile(ctx: Context, file: ResolvedPath, before: FileSide, after: FileSide, added: number, removed: number): StepFile {
  return { path: path.relative(ctx.root.dir, file.abs) || file.display, abs: file.abs, before, after, added, removed };
}
