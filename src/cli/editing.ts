// The path every edit takes: resolve, lock, read the file as it is now, resolve anchors, check
// that the lines were shown, apply, write atomically, save the index the edit produced, report.
// A refusal at any step writes nothing, to the file or to the state.

import { isUtf8 } from 'node:buffer';
import { looksBinary, RATIO_BYTES, SNIFF_BYTES } from '../core/binary.js';
import fs from 'node:fs';
import path from 'node:path';
import type { AnchorWorld } from '../core/anchor.js';
import { applySplice, type Splice } from '../core/edit.js';
import { RtError, shellQuote } from '../core/errors.js';
import { lidToString } from '../core/lid.js';
import { retiredLine, type LineIndex } from '../core/lineIndex.js';
import { MAX_RANGE } from '../core/window.js';
import { hashLines } from '../core/hash.js';
import { dominantEol, lineContent, splitLines } from '../core/lines.js';
import { renderUnifiedDiff } from '../render/diff.js';
import { jsonWindow } from '../render/json.js';
import { renderWindow } from '../render/window.js';
import { nextReading, readSnapshot, saveIndex, statFile, type Snapshot } from '../io/indexedFile.js';
import { readPlainFile } from '../io/plainFile.js';
import { acquireLock } from '../io/lock.js';
import { enterFolderOf } from '../io/pinnedFolder.js';
import { endsWithSeparator, resolveInRoot, withoutFinalSeparators, type ResolvedPath } from '../io/root.js';
import type { StateStore } from '../io/state.js';
import { ViewState } from '../io/views.js';
import { cleanStaleTemps, replaceFile, versionOf } from '../io/writeFile.js';
import type { Context } from './context.js';
import type { Options } from './spec.js';

/** The longest file name, in bytes, on Linux file systems. */
const NAME_MAX = 255;
/** What rt adds to a file's name for its temporary file (.NAME.rt-tmp-PID-xxxxxx, a PID of up to 7 digits) and its lock. */
const NAME_ROOM = 24;

/** Lines of context printed around a changed region. */
const REGION_CONTEXT = 3;
/** Most changed lines printed after an edit; the rest is one `rt open` away. */
const REGION_MAX = 200;

export type Verb = 'edited' | 'inserted' | 'deleted' | 'created' | 'replaced';

export interface EditFlags {
  readonly force: boolean;
  readonly dryRun: boolean;
  readonly diff: boolean;
}

export function editFlags(ctx: Context, options: Options): EditFlags {
  return { force: options.force === true, dryRun: options.dryRun === true, diff: options.diff === true || isOn(ctx.env.RT_DIFF) };
}

function isOn(value: string | undefined): boolean {
  return value !== undefined && !['', '0', 'false', 'no', 'off'].includes(value.toLowerCase());
}

function refuseIfReadOnly(ctx: Context, flags: EditFlags, display: string): void {
  if (isOn(ctx.env.RT_READONLY) && !flags.dryRun) {
    throw new RtError('access', `RT_READONLY is set: rt writes no files (not writing ${display})`, ['see what the command would change with --dry-run, or unset RT_READONLY']);
  }
}

/** Decides the splice once the file is read: resolves anchors against `world`. */
export type PlanSplice = (world: AnchorWorld, snapshot: Snapshot) => Splice;

/** Runs an edit of an existing file. */
export function editFile(ctx: Context, pathArg: string, verb: Verb, flags: EditFlags, plan: PlanSplice): void {
  const resolved = resolveInRoot(ctx.root, pathArg);
  refuseIfReadOnly(ctx, flags, resolved.display);
  const store = ctx.stateOf(resolved);
  withLockedFile(ctx, resolved, false, (file) => {
    const stBefore = safeStat(file);
    const snapshot = readSnapshot(store, file);
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
    const splice = plan(world, snapshot);
    if (!flags.force && view.kept) checkShown(file, snapshot, view, splice);

    const result = applySplice(lines, index, splice, dominantEol(lines));
    refuseBinaryResult(file, headOf(result.parts));
    const after = result.lines;
    const span = { start: splice.start, oldCount: splice.deleteCount, newCount: splice.insert.length };
    if (flags.dryRun) {
      dryRun(ctx, verb, file, renderUnifiedDiff(file.display, lines, after, span, ctx.style));
      return;
    }
    // The new file is written, digested and shown from its parts: never joined in memory.
    if (result.unchanged) {
      ctx.warn(`${file.display} is unchanged: the new text is the same as the old`);
    } else {
      replaceFile(file.abs, result.parts, versionOf(stBefore), file.display);
    }
    const kept = snapshot.saved && { ...snapshot.saved, start: splice.start, end: splice.start + splice.deleteCount, inserted: splice.insert.length };
    const saved = saveIndex(store, file.rel, after, result.index, statFile(file), { parts: result.parts, kept });
    const lids = lidsShown(store, file.rel, result.index, saved);
    report(ctx, file, verb, after.count, result.content, lids, span, view, flags.diff ? renderUnifiedDiff(file.display, lines, after, span, ctx.style) : undefined);
  });
}

/** Runs `rt create`. */
export function createFile(ctx: Context, pathArg: string, bytes: Buffer, flags: EditFlags): void {
  if (endsWithSeparator(pathArg)) throw new RtError('usage', `${pathArg} names a folder; create makes files`, [`name the file, e.g. rt create ${shellQuote(`${withoutFinalSeparators(pathArg)}/NAME`)}`]);
  const file = resolveInRoot(ctx.root, pathArg, true);
  refuseIfReadOnly(ctx, flags, file.display);
  // `abs` is a real path: what is there now is looked at, not followed (a file that vanishes or
  // is swapped for a link meanwhile is not an internal error).
  const existing = lstatOrNone(file.abs);
  if (existing && !existing.isFile()) {
    throw new RtError('access', `${file.display} exists and is not a regular file`, ['create makes regular files; choose another path']);
  }
  if (existing && !flags.force) {
    throw new RtError('exists', `${file.display} exists already; nothing was written`, [`see it: rt open ${shellQuote(file.display)}`, `replace all of it: rt create --force ${shellQuote(file.display)} <<'EOF'`]);
  }
  refuseBinaryResult(file, bytes);
  const store = ctx.stateOf(file);
  const after = splitLines(bytes);
  // What the file held (with --force) is replaced whole: the summary, --json and the diff say so.
  const old = splitLines((existing && readPlainFile(file.abs, 2 ** 32 - 1)) || Buffer.alloc(0));
  const span = { start: 0, oldCount: old.count, newCount: after.count };
  if (flags.dryRun) {
    dryRun(ctx, 'created', file, renderUnifiedDiff(file.display, old, after, span, ctx.style));
    return;
  }
  // Folders are made one at a time, each entered and checked: none is made outside the root.
  withLockedFile(ctx, file, true, (file) => {
    const before = lstatOrNone(file.abs);
    if (before && !flags.force) throw new RtError('exists', `${file.display} appeared meanwhile; nothing was written`, [`see it: rt open ${shellQuote(file.display)}`]);
    replaceFile(file.abs, bytes, before ? versionOf(before) : undefined, file.display, flags.force);
    // Over a file rt knew (--force), its saved LIDs are carried to the new content as across any
    // change: lines kept keep theirs, and none of its retired LIDs is handed to other content.
    const index = nextReading(store, file.rel, hashLines(after));
    const lids = lidsShown(store, file.rel, index, saveIndex(store, file.rel, after, index, statFile(file)));
    const view = ViewState.load(store, file.rel);
    report(ctx, file, before ? 'replaced' : 'created', after.count, (i) => lineContent(after, i), lids, span, view, flags.diff ? renderUnifiedDiff(file.display, old, after, span, ctx.style) : undefined);
  });
}

/** The first bytes of a file given as consecutive parts, as many as binary sniffing looks at. */
function headOf(parts: readonly Buffer[]): Buffer {
  const head: Buffer[] = [];
  let size = 0;
  for (const part of parts) {
    if (size >= SNIFF_BYTES) break;
    head.push(part.subarray(0, SNIFF_BYTES - size));
    size += Math.min(part.length, SNIFF_BYTES - size);
  }
  return Buffer.concat(head);
}

/**
 * SPEC §4: rt reads text files only. New text that would make the file look binary (a NUL is
 * refused as it is read; control bytes are the rest of the rule) is refused, or rt would then
 * refuse the file it wrote, the edit that would repair it included.
 */
function refuseBinaryResult(file: ResolvedPath, head: Buffer): void {
  if (!looksBinary(head)) return;
  throw new RtError('input', `the new text would make ${file.display} look like a binary file (more than a third of its first ${RATIO_BYTES} bytes control characters), which rt does not read; nothing was written`, ['write text: control characters other than tab, ESC and the line endings belong in binary files, which rt does not edit']);
}

/**
 * The LIDs an edit shows of the file it wrote: its index's when `saved`; else those the next
 * command will read (see nextReading), for the edit's own carry its history (a line inserted
 * before an equal one takes a new LID, the old line keeps its own; after create --force, a
 * saved index of the old content is reconciled), which no later command knows.
 */
function lidsShown(store: StateStore, rel: string, index: LineIndex, saved: boolean): Uint32Array {
  return saved ? index.lids : nextReading(store, rel, index).lids;
}

/**
 * Runs `use` on the file named within its folder, entered and checked (made first when
 * `create`), which a swap of the path cannot redirect; under the file's lock, once what a
 * killed rt left of its temporary files is cleared.
 */
function withLockedFile(ctx: Context, resolved: ResolvedPath, create: boolean, use: (file: ResolvedPath) => void): void {
  // Refused before anything is made (create's folders): the lock and the temporary file could not be.
  if (Buffer.byteLength(path.basename(resolved.abs)) > NAME_MAX - NAME_ROOM) {
    throw new RtError('access', `the name of ${resolved.display} is too long for rt to edit it: its lock and temporary file beside it add up to ${NAME_ROOM} bytes to it, and a name holds ${NAME_MAX} at most`, ['give it a shorter name']);
  }
  // The lock sits beside the real file (a link's target), named in messages from the working directory.
  const shownLock = path.relative(ctx.cwd, lockPathFor(resolved.abs));
  const pinned = enterFolderOf(resolved, create);
  try {
    const file = pinned.file;
    const lock = acquireLock(lockPathFor(file.abs), file.display, undefined, shownLock);
    try {
      cleanStaleTemps(file.abs);
      ctx.stateOf(file).removeStaleTemps(file.rel);
      use(file);
    } finally {
      lock.release();
    }
  } finally {
    pinned.leave();
  }
}

/** The lock sits beside the file, so every rt process finds it whatever its state settings. */
function lockPathFor(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.rt-lock`);
}

function lstatOrNone(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p);
  } catch {
    return undefined;
  }
}

function safeStat(file: ResolvedPath): fs.Stats {
  try {
    return fs.lstatSync(file.abs);
  } catch {
    throw new RtError('not_found', `no such file: ${file.display}`, ['check the path']);
  }
}

/**
 * SPEC §2: no one replaces what they have not seen. Every replaced line must have been shown
 * since it last changed, and so must the line an insert's anchor names.
 */
function checkShown(file: ResolvedPath, snapshot: Snapshot, view: ViewState, splice: Splice): void {
  const unseen: number[] = [];
  for (let i = splice.start; i < splice.start + splice.deleteCount; i++) {
    if (!view.wasSeen(lidToString(snapshot.index.lids[i]!))) unseen.push(i + 1);
  }
  const at = splice.anchorLine;
  if (at !== undefined && at < snapshot.lines.count && !view.wasSeen(lidToString(snapshot.index.lids[at]!))) {
    const lid = lidToString(snapshot.index.lids[at]!);
    throw new RtError('unshown', `line ${at + 1} (${lid}) of ${file.display} has not been shown in this file since it last changed; nothing was written`, [`see it first: rt open ${shellQuote(`${file.display}:${at + 1}`)}`, 'or, to insert without looking, add --force'], { lines: [at + 1], lid });
  }
  if (unseen.length === 0) return;
  const first = unseen[0]!;
  const last = unseen[unseen.length - 1]!;
  const where = first === last ? `line ${first}` : `${unseen.length} lines between ${first} and ${last}`;
  const span = last - first + 1;
  const open = `rt open ${shellQuote(`${file.display}:${first}-${last}`)}${span > MAX_RANGE ? ` --window ${span}` : ''}`;
  throw new RtError('unshown', `${where} of ${file.display} ${unseen.length === 1 ? 'has' : 'have'} not been shown since ${unseen.length === 1 ? 'it' : 'they'} last changed; nothing was written`, [`see ${first === last ? 'it' : 'them'} first: ${open}`, 'or, to edit without looking, add --force'], { lines: unseen.slice(0, 50) });
}

const COMMAND_OF: Record<Verb, string> = { edited: 'edit', inserted: 'insert', deleted: 'delete', created: 'create', replaced: 'create' };

/** The diff as a JSON value: text, plus the exact bytes when they are not valid UTF-8. */
function jsonDiff(diff: Buffer): { diff: string; diffBase64?: string } {
  return isUtf8(diff) ? { diff: diff.toString('utf8') } : { diff: diff.toString('utf8'), diffBase64: diff.toString('base64') };
}

function dryRun(ctx: Context, verb: Verb, file: ResolvedPath, diff: Buffer): void {
  if (ctx.json) ctx.emit({ command: COMMAND_OF[verb], path: file.display, written: false, dryRun: true, ...jsonDiff(diff) });
  else ctx.out(diff);
  ctx.warn(`dry run: nothing written to ${file.display}`);
}

/**
 * One confirmation line, then the changed region with fresh LIDs (recorded as shown), then the
 * diff. `total` and `contentOf` are the new file's line count and its lines' contents.
 */
function report(ctx: Context, file: ResolvedPath, verb: Verb, total: number, contentOf: (i: number) => Buffer, lids: Uint32Array, span: { start: number; oldCount: number; newCount: number }, view: ViewState, diff: Buffer | undefined): void {
  const { start, oldCount, newCount } = span;
  const delta = newCount - oldCount;
  // A create's lines are the whole file: none is an empty file.
  const range = (count: number) => (count === 0 ? (verb === 'created' || verb === 'replaced' ? 'empty' : `${start}`) : `${start + 1}-${start + count}`);
  const summary =
    verb === 'edited' || verb === 'replaced'
      ? `${range(oldCount)} → ${range(newCount)}`
      : verb === 'deleted'
        ? `${range(oldCount)}`
        : `${range(newCount)}`;
  if (!ctx.json) ctx.out(`${ctx.style.verb(verb)} ${file.display}: ${summary} (${delta >= 0 ? '+' : ''}${delta})\n`);

  const shown = Math.min(newCount, REGION_MAX);
  const from = Math.max(0, start - REGION_CONTEXT);
  const to = Math.min(total, start + shown + REGION_CONTEXT);
  const contents: Buffer[] = [];
  const lidTexts: string[] = [];
  for (let i = from; i < to; i++) {
    contents.push(contentOf(i));
    lidTexts.push(lidToString(lids[i]!));
  }
  if (ctx.json) {
    ctx.emit({
      command: COMMAND_OF[verb],
      path: file.display,
      written: true,
      verb,
      old: { start: start + 1, count: oldCount },
      new: { start: start + 1, count: newCount },
      delta,
      window: jsonWindow(file.display, total, from + 1, lidTexts, contents),
      ...(diff ? jsonDiff(diff) : {}),
    });
  } else {
    ctx.out(renderWindow({ display: file.display, total, start: total ? from + 1 : 0, end: to, lines: contents, lids: lidTexts }, ctx.style));
    if (diff) ctx.out(diff);
  }
  if (to < start + newCount) ctx.warn(`${start + newCount - to} more new lines not shown: rt open ${shellQuote(`${file.display}:${to + 1}-${start + newCount}`)}`);
  if (lidTexts.length) view.record(from + 1, lidTexts, 'edit');
  view.save();
}
