// rt undo and rt redo: a step of the history taken back, or brought back, only when
// every file of it is still exactly what the step left (else refused, exit 3, unless --force);
// bytes restored exactly, the restored lines given back their LIDs; under the files' locks and
// through the journal, as every write; the restored regions printed as an edit prints its own.

import fs from 'node:fs';
import path from 'node:path';
import { printable, RtError, quotePath, shellQuote } from '../model/errors.js';
import { hashLines, type LineHashes } from '../model/hash.js';
import { swapHunks, swapLids, swapLines, type StepHunk } from '../model/history/changes.js';
import { lidToString } from '../model/lid.js';
import { NO_RETIRED, reconcileIndex, retire, today, type LineIndex } from '../model/lineIndex.js';
import { lineContent, splitLines, type FileLines } from '../model/lines.js';
import { History, redoneBy, type FileData, type FileSide, type Step, type StepFile } from '../store/history.js';
import { contentDigest, readSnapshot, saveIndex, statFile } from '../store/indexedFile.js';
import type { KeptRecords } from '../store/savedIndex.js';
import { commitWrites, journalDir, lockAll, lockPathFor, type FileWrite, type Skipped } from '../store/journal.js';
import { inFolder } from '../store/pinnedFolder.js';
import { ownerRuns } from '../io/processes.js';
import { protectedPlace, refuseProtectedWrite } from '../store/protectedPaths.js';
import { isInside, realpathAllowingMissing, stateKeyOf, type ResolvedPath } from '../store/root.js';
import type { StateStore } from '../store/state.js';
import { ViewState } from '../store/views.js';
import { versionOf } from '../store/writeFile.js';
import { jsonWindow } from '../render/json.js';
import { renderWindow } from '../render/window.js';
import type { Context } from './context.js';
import { isOn, makeFolders, marksFor, removeEmptyFolder } from './writing.js';

export type Direction = 'undo' | 'redo';

/** Lines of context printed around a restored region. */
const REGION_CONTEXT = 3;
/** Restored lines printed of a region, at most (a file made again whole may be long). */
const REGION_MAX = 200;

/** Runs `rt undo [STEP]` or `rt redo`; returns the exit status (1: nothing to undo or redo). */
export function step(ctx: Context, direction: Direction, stepArg: string | undefined, force: boolean): number {
  const store = ctx.stateOf({ stateRoot: ctx.root.dir });
  const history = History.of(store);
  if (!history) {
    if (ctx.json) ctx.emit({ command: direction, written: false, step: null });
    ctx.warn(
      `no history is kept here (${isOn(ctx.env.RT_STATE) || ctx.env.RT_STATE === undefined ? 'the root is not writable' : 'RT_STATE=off'}): nothing to ${direction}`,
    );
    return 1;
  }
  if (isOn(ctx.env.RT_READONLY))
    throw new RtError(
      'access',
      `RT_READONLY is set: rt writes no files (not ${direction === 'undo' ? 'undoing' : 'redoing'} a step)`,
      ['unset RT_READONLY'],
    );
  settlePending(ctx, history);
  const steps = history.steps();
  const chosen = choose(ctx, steps, direction, stepArg);
  if (!chosen || 'undoneAlready' in chosen) {
    if (ctx.json) ctx.emit({ command: direction, written: false, step: null });
    if (chosen) chosen.undoneAlready.forEach((line) => ctx.warn(line));
    else
      ctx.warn(
        `nothing to ${direction}${ctx.session ? ` in session ${ctx.session}` : ''}${direction === 'redo' ? ' (a step is redone only right after its undo, before this session writes anew)' : ''}`,
      );
    return 1;
  }
  const data = history.data(chosen.id);
  if (!data || data.length !== chosen.files.length || !data.every((d, i) => fits(chosen.files[i]!, d))) {
    // Its data cannot be trusted (set aside by History.data): the step is taken out of the list, so that no hint leads
    // back to it.
    history.drop(chosen.id);
    throw new RtError(
      'input',
      `the data of step ${chosen.id} (${chosen.command}) is missing or damaged: the step was taken out of the history, and cannot be ${direction === 'undo' ? 'undone' : 'redone'}; nothing was written`,
      [direction === 'undo' ? 'take back the step before it: rt undo' : 'see the steps: rt history'],
    );
  }
  const files = chosen.files.map((f) => resolvedOf(ctx, f));
  const from = direction === 'undo' ? 'after' : 'before';
  const to = direction === 'undo' ? 'before' : 'after';
  // The folders of the files made again are made first (each lock lies beside its file); a refusal removes them.
  const made = files.flatMap((file, i) =>
    chosen.files[i]![to].exists && !chosen.files[i]![from].exists ? makeFolders(file) : [],
  );
  const madeNow = made.map((f) => path.relative(ctx.root.dir, f));
  try {
    // A file the undo finds changed may have been changed by a later step (another session's): named when it refuses.
    const laterStep = (abs: string) => (direction === 'undo' ? laterStepOf(steps, chosen, abs) : undefined);
    takeStep(ctx, history, store, chosen, direction, files, data, { force, madeFolders: madeNow, laterStep });
    made.length = 0;
  } finally {
    for (const folder of made.reverse()) removeEmptyFolder(folder);
  }
  // An undo removes the folders the step (or the redo of it) made, when nothing else is in them.
  if (direction === 'undo')
    for (const folder of [...(chosen.folders ?? [])].reverse()) folderOfStep(ctx, folder, removeEmptyFolder);
  return 0;
}

/** Whether a file's data fits what the list says of it: a damaged list or data file is not acted on. */
function fits(f: StepFile, d: FileData): boolean {
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
function folderOfStep(ctx: Context, rel: string, then: (abs: string) => void): void {
  const abs = path.resolve(ctx.root.dir, rel);
  if (
    path.isAbsolute(rel) ||
    rel.split(/[\\/]/).includes('..') ||
    !isInside(ctx.root.dir, abs) ||
    abs === ctx.root.dir ||
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

/** How a step is taken: --force, the folders made for it, and the later step that changed a file of it (undo only). */
interface StepOptions {
  readonly force: boolean;
  readonly madeFolders: readonly string[];
  readonly laterStep: (abs: string) => Step | undefined;
}

/** Undoes or redoes step `chosen`, under its files' locks. */
function takeStep(
  ctx: Context,
  history: History,
  store: StateStore,
  chosen: Step,
  direction: Direction,
  files: readonly ResolvedPath[],
  data: readonly FileData[],
  options: StepOptions,
): void {
  const { force, madeFolders } = options;
  const from = direction === 'undo' ? 'after' : 'before';
  const to = direction === 'undo' ? 'before' : 'after';
  const locks = lockAll(
    files.map((f) => ({ abs: f.abs, display: f.display, shownLock: path.relative(ctx.cwd, lockPathFor(f.abs)) })),
  );
  try {
    const plans: FilePlan[] = chosen.files.map((f, i) =>
      planFile(ctx, chosen, f, files[i]!, data, i, from, to, force, options.laterStep(files[i]!.abs)),
    );
    const writes: FileWrite[] = plans
      .filter((p) => p.parts !== null || p.version !== undefined)
      .map((p) => ({
        abs: p.file.abs,
        display: p.file.display,
        data: p.parts,
        expected: p.version,
        overwrite: p.version !== undefined,
        ...(p.mode === undefined ? {} : { mode: p.mode }),
        ...(p.link === undefined ? {} : { link: p.link }),
      }));
    // Said in the history first: an rt killed from here on leaves a step that the next one settles (see settlePending).
    if (!history.begin(chosen.id, direction, ctx.session ?? null))
      throw new RtError(
        'access',
        `the history in ${path.relative(ctx.cwd, store.dir) || '.'} cannot be written: step ${chosen.id} was not ${direction === 'undo' ? 'undone' : 'redone'}; nothing was written`,
        ['check the permissions of .rt/history'],
      );
    let skipped: Skipped[];
    try {
      const marks = marksFor(ctx, files, writes.length);
      const batch = commitWrites(journalDir(ctx.root.dir, store.ensure()), `rt ${direction}`, writes, { marks });
      // Its files all written: a kill from here on leaves a step that the next rt settles (see settlePending).
      batch.close();
      skipped = batch.skipped;
    } catch (error) {
      history.mark(chosen.id, undefined);
      throw error;
    }
    if (skipped.length) {
      // A program that does not take rt's locks wrote some of the files meanwhile: they are left as it made them.
      history.mark(chosen.id, undefined);
      const wrote = writes.filter((w) => !skipped.some((s) => s.display === w.display)).map((w) => w.display);
      throw new RtError(
        'stale',
        `a program that does not take rt's locks changed files of step ${chosen.id} while it was being ${direction === 'undo' ? 'undone' : 'redone'}: ${skipped.map((s) => `${s.display} (${s.why})`).join(', ')}; left as that program made ${skipped.length === 1 ? 'it' : 'them'}${wrote.length ? `; the rest was written: ${wrote.join(', ')}` : ''}`,
        [
          `see ${skipped.length === 1 ? 'it' : 'them'} as ${skipped.length === 1 ? 'it is' : 'they are'} now: rt open ${shellQuote(skipped[0]!.display)}`,
          'then make the change by hand with rt edit',
        ],
      );
    }
    // The side written is now known by its stamp and digest: what the next redo or undo checks.
    const updated: StepFile[] = chosen.files.map((f, i) => {
      const p: FilePlan = plans[i]!;
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
      by: ctx.session ?? null,
      ...(direction === 'redo' ? { folders: madeFolders } : {}),
    });
    ctx.out(
      `${ctx.style.verb(direction === 'undo' ? 'undid' : 'redid')} step ${chosen.id} (${chosen.command}, ${new Date(chosen.time).toISOString().replace('T', ' ').slice(0, 19)}${chosen.session !== (ctx.session ?? null) ? `, ${sessionName(chosen.session)}` : ''}): ${chosen.files.map((f) => printable(f.path)).join(', ')}\n`,
    );
    const docs = plans.map((p) => report(ctx, p));
    if (ctx.json)
      ctx.emit({
        command: direction,
        written: true,
        step: {
          id: chosen.id,
          command: chosen.command,
          time: new Date(chosen.time).toISOString(),
          session: chosen.session,
        },
        files: docs,
      });
  } finally {
    for (const lock of locks) lock.release();
  }
}

/**
 * The step to take back (the session's latest done one, or STEP) or to bring back (the session's
 * latest undone one); for a STEP undone already, what to say (nothing to undo, not bad usage).
 */
function choose(
  ctx: Context,
  steps: readonly Step[],
  direction: Direction,
  stepArg: string | undefined,
): Step | { undoneAlready: string[] } | undefined {
  const session = ctx.session ?? null;
  if (stepArg !== undefined) {
    if (direction === 'redo')
      throw new RtError('usage', 'rt redo takes no STEP: it brings back the latest step undone', ['rt redo']);
    const id = Number(stepArg);
    const found = Number.isInteger(id) ? steps.find((s) => s.id === id) : undefined;
    if (!found) throw new RtError('usage', `no step ${stepArg} in the history`, ['see the steps: rt history']);
    if (found.state === 'cleared') {
      const why = 'it can no longer be redone: the session that undid it wrote since';
      return {
        undoneAlready: [
          `step ${id} (${found.command}) is undone already; nothing was written (${why})`,
          'see the steps: rt history',
        ],
      };
    }
    if (found.state !== 'done') {
      const redoer = redoneBy(found);
      const env = redoer === session ? '' : redoer === null ? 'RT_SESSION= ' : `RT_SESSION=${shellQuote(redoer!)} `;
      return {
        undoneAlready: [
          `step ${id} (${found.command}) is undone already; nothing was written`,
          `bring it back with: ${env}rt redo`,
        ],
      };
    }
    busy(found);
    const later = steps.find(
      (s) => s.id > id && s.state === 'done' && s.files.some((f) => found.files.some((g) => g.abs === f.abs)),
    );
    if (later)
      throw new RtError(
        'stale',
        `${stepName(ctx, later)} changed ${later.files.find((f) => found.files.some((g) => g.abs === f.abs))!.path} after step ${id}; nothing was undone`,
        [`undo step ${later.id} first: rt undo ${later.id}`],
      );
    return found;
  }
  // Undone steps stay redoable until the session that undid them writes anew (History.record
  // clears them); redo brings back the one undone last.
  const found =
    direction === 'undo'
      ? [...steps].reverse().find((s) => s.session === session && s.state === 'done')
      : steps
          .filter((s) => s.state === 'undone' && redoneBy(s) === session)
          .sort((a, b) => (b.undoneSeq ?? 0) - (a.undoneSeq ?? 0) || b.id - a.id)[0];
  return found && busy(found);
}

/** The first step after `chosen`, not undone, that wrote the file `abs` too. */
function laterStepOf(steps: readonly Step[], chosen: Step, abs: string): Step | undefined {
  return steps.find((s) => s.id > chosen.id && s.state === 'done' && s.files.some((f) => f.abs === abs));
}

/** A step as messages name it: its number and command, and its session when another's than this one. */
function stepName(ctx: Context, s: Step): string {
  return `step ${s.id} (${s.command}${s.session !== (ctx.session ?? null) ? `, ${sessionName(s.session)}` : ''})`;
}

function sessionName(session: string | null): string {
  return session === null ? 'the shared session' : `session ${printable(session)}`;
}

/** A step another rt is undoing or redoing right now (settlePending leaves only those) is refused. */
function busy(found: Step): Step {
  if (!found.pending) return found;
  throw new RtError(
    'access',
    `step ${found.id} (${found.command}) is being ${found.pending.direction === 'undo' ? 'undone' : 'redone'} by another rt (pid ${found.pending.owner.pid}); nothing was written`,
    ['wait for it to end, then see the steps: rt history'],
  );
}

/**
 * Settles the steps whose undo or redo an rt no longer running left under way (killed between
 * saying so and marking the step): each whose files are all on the side it was writing (the
 * batch finished, see finishInterruptedBatches) is marked as taken; the rest stay as they were.
 */
export function settlePending(ctx: Context, history: History): void {
  for (const s of history.steps()) {
    if (!s.pending || ownerRuns(s.pending.owner, s.pending.time)) continue;
    const to = s.pending.direction === 'undo' ? 'before' : 'after';
    let now: StepFile[] | undefined;
    try {
      const data = history.data(s.id);
      if (data && data.length === s.files.length)
        now = sidesNow(
          s,
          s.files.map((f) => resolvedOf(ctx, f)),
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

interface FilePlan {
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
function resolvedOf(ctx: Context, f: StepFile): ResolvedPath {
  const abs = path.resolve(ctx.root.dir, f.path);
  // A history copied with its root (cp -a) or planted names files of another place: never acted on here.
  if (abs !== f.abs) {
    throw new RtError(
      'outside_root',
      `the history names ${f.abs}, not a file of this root (${ctx.root.dir}); nothing was written`,
      ['a history copied from another folder is not undone here; remove .rt/history to start it again'],
    );
  }
  if (
    path.isAbsolute(f.path) ||
    f.path.split(/[\\/]/).includes('..') ||
    !isInside(ctx.root.dir, abs) ||
    abs === ctx.root.dir
  ) {
    throw new RtError(
      'outside_root',
      `the history names ${JSON.stringify(f.path)}, which is not a file inside the root; nothing was written`,
      ['the history may be damaged: see it with rt history; remove .rt/history to start it again'],
    );
  }
  const display = path.relative(ctx.cwd, abs) || f.path;
  // Through the real path of its folder: a folder of the list swapped for a link into .git is seen as what it is.
  refuseProtectedWrite(path.join(realpathAllowingMissing(path.dirname(abs)).path, path.basename(abs)), display);
  return { abs, ...stateKeyOf(ctx.root, abs), display };
}

/**
 * What one file of the step becomes: checked to be what the step left on side `from` (or, with
 * --force, to hold what it left there in the changed places), then turned into side `to`.
 */
function planFile(
  ctx: Context,
  chosen: Step,
  f: StepFile,
  file: ResolvedPath,
  data: readonly FileData[],
  at: number,
  from: 'before' | 'after',
  to: 'before' | 'after',
  force: boolean,
  later: Step | undefined,
): FilePlan {
  const d = data[at]!;
  const st = fs.lstatSync(file.abs, { throwIfNoEntry: false });
  const want = f[from];
  const target = f[to];
  const what =
    from === 'after' ? `what step ${chosen.id} (${chosen.command}) wrote` : `what undoing step ${chosen.id} left`;
  // The hint after `see it`: --force, or what to do where --force does not help.
  // A later step that wrote the file (another session's) is named, with its undo, as rt undo STEP names it.
  const byLater = later ? `: ${stepName(ctx, later)} wrote it after` : '';
  const undoLater = later ? [`undo step ${later.id} first: rt undo ${later.id}`] : [];
  const refuse = (why: string, instead?: string) =>
    new RtError(
      'stale',
      `${file.display} ${why} since ${from === 'after' ? `step ${chosen.id} (${chosen.command}) wrote it` : `step ${chosen.id} was undone`}${byLater}; nothing was ${from === 'after' ? 'undone' : 'redone'}`,
      [
        ...undoLater,
        `see it as it is now: rt open ${quotePath(file.display)}`,
        instead ??
          `${from === 'after' ? 'undo' : 'redo'} anyway, where its changed lines are still ${what}: add --force`,
      ],
    );
  if (!want.exists) {
    // The step made this file (undo) or removed it (redo): it must be gone (--force does not replace a file there).
    if (st)
      throw refuse(
        'exists again',
        `the ${from === 'after' ? 'undo' : 'redo'} makes it again: move that file aside first (forcing it does not replace a file), then run rt ${from === 'after' ? 'undo' : 'redo'} again`,
      );
    if (target.link !== undefined)
      return { file, parts: [], version: undefined, regions: [], path: f.path, link: target.link };
    const { bytes, lids } =
      d.movedTo !== undefined || d.movedFrom !== undefined
        ? fromOtherFile(ctx, chosen, data, at, from, to)
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
      `${file.display} ${st ? 'is no longer a regular file' : 'was removed'} since ${from === 'after' ? `step ${chosen.id} (${chosen.command}) wrote it` : `step ${chosen.id} was undone`}${byLater}; nothing was ${from === 'after' ? 'undone' : 'redone'}`,
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
      const current = inFolder(path.dirname(file.abs), file.display, () => fs.readFileSync(path.basename(file.abs)));
      if (!sameSide(want, current, d, from))
        throw refuse(
          'changed',
          `the step moved it: the ${from === 'after' ? 'undo' : 'redo'} makes the other file from it only as the step left it, forced or not`,
        );
      return { file, parts: null, version: versionOf(st), regions: [], path: f.path };
    }
    const current = inFolder(path.dirname(file.abs), file.display, () => fs.readFileSync(path.basename(file.abs)));
    // Removed only as the step left it, even with --force: what else it holds would go with it.
    if (!sameSide(want, current, d, from))
      throw refuse(
        'changed',
        `the ${from === 'after' ? 'undo' : 'redo'} would remove it, with what was added since: keep what you need of it, remove it by hand, then run rt ${from === 'after' ? 'undo' : 'redo'} again`,
      );
    return { file, parts: null, version: versionOf(st), regions: [], path: f.path };
  }
  // Read once, with its index: the saved one as it is when the file is the version it describes.
  const store = ctx.stateOf(file);
  const snapshot = inFolder(path.dirname(file.abs), file.display, () =>
    readSnapshot(store, { ...file, abs: path.basename(file.abs) }),
  );
  const current = snapshot.lines;
  let hunks = d.hunks;
  const same = sameSide(want, current.bytes, d, from, () => current);
  if (!same) {
    if (!force) throw refuse('changed');
    hunks = relocate(d, from, current, file);
  } else if (!atTheirBytes(current.bytes, d, from)) hunks = relocate(d, from, current, file); // moved by a forced undo or redo
  const other = to === 'after' ? d.afterBytes : d.beforeBytes;
  const regions = hunks.map((h) => ({ from: h[to].from, to: h[to].to }));
  const swapped = swapLines(current, snapshot.index, hunks, from, other);
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
  };
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
    const bytes = inFolder(path.dirname(file.abs), file.display, () => fs.readFileSync(path.basename(file.abs)));
    const d = data[i]!;
    if (
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
        `${file.display} no longer holds lines ${side.from + 1}-${side.to} as the step left them (they changed, or lines were added or removed above them); nothing was written`,
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
  const complete = otherLids.every((l, i) => l.length === hunks[i]![to].to - hunks[i]![to].from);
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
  ctx: Context,
  chosen: Step,
  data: readonly FileData[],
  at: number,
  from: 'before' | 'after',
  to: 'before' | 'after',
): { bytes: Buffer; lids: Uint32Array } {
  const d = data[at]!;
  const otherAt = d.movedTo ?? d.movedFrom!;
  const source = d.movedTo !== undefined ? d : data[otherAt]!;
  const other = resolvedOf(ctx, chosen.files[otherAt]!);
  const otherSide = chosen.files[otherAt]![from];
  if (!fs.lstatSync(other.abs, { throwIfNoEntry: false })?.isFile()) {
    throw new RtError(
      'stale',
      `${other.display} was removed since ${from === 'after' ? `step ${chosen.id} (${chosen.command}) wrote it` : `step ${chosen.id} was undone`}: the file it moved cannot be made again from it; nothing was ${from === 'after' ? 'undone' : 'redone'}`,
      ['to take back an older step instead: see them with rt history, then rt undo STEP'],
    );
  }
  const snapshot = inFolder(path.dirname(other.abs), other.display, () =>
    readSnapshot(ctx.stateOf(other), { ...other, abs: path.basename(other.abs) }),
  );
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
    throw new RtError(
      'stale',
      `${other.display} changed since ${from === 'after' ? `step ${chosen.id} (${chosen.command}) wrote it` : `step ${chosen.id} was undone`}: the file it moved cannot be made again from it; nothing was ${from === 'after' ? 'undone' : 'redone'}`,
      [`see it as it is now: rt open ${shellQuote(other.display)}`],
    );
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

/** A step whose data does not give the bytes its list says (size): never written. */
function damaged(chosen: Step, file: ResolvedPath): RtError {
  return new RtError(
    'input',
    `the data of step ${chosen.id} (${chosen.command}) does not give ${file.display} back as it was (damaged?); nothing was written`,
    ['see the file as it is: rt open ' + quotePath(file.display), 'remove .rt/history to start the history again'],
  );
}

/** Saves the restored file's index and prints its restored regions as windows (recorded as shown). */
function report(ctx: Context, p: FilePlan): Record<string, unknown> {
  if (p.link !== undefined) {
    ctx.out(`${ctx.style.verb('restored')} ${p.file.display}: a symbolic link to ${printable(p.link)}\n`);
    return { path: p.file.display, verb: 'restored', link: p.link };
  }
  if (p.parts === null || !p.lines || !p.index || !p.content) {
    ctx.out(`${ctx.style.verb('removed')} ${p.file.display}\n`);
    return { path: p.file.display, verb: 'removed' };
  }
  const store = ctx.stateOf(p.file);
  saveIndex(store, p.file.rel, p.lines, p.index, statFile(p.file), {
    parts: p.parts,
    ...(p.kept ? { kept: p.kept } : {}),
  });
  const lids = p.index.lids;
  const view = ViewState.load(store, p.file.rel);
  const total = p.lines.count;
  ctx.out(`${ctx.style.verb('restored')} ${p.file.display}: ${total} lines\n`);
  const windows = [];
  const notShown: string[] = [];
  for (const r of p.regions) {
    const from = Math.max(0, r.from - REGION_CONTEXT);
    // At most REGION_MAX restored lines a region, as an edit prints its new lines.
    const shownTo = Math.min(r.to, r.from + REGION_MAX);
    if (shownTo < r.to)
      notShown.push(
        `${r.to - shownTo} more restored lines not shown: rt open ${shellQuote(`${p.file.display}:${shownTo + 1}-${r.to}`)}`,
      );
    const to = Math.min(total, Math.max(shownTo, r.from) + (shownTo < r.to ? 0 : REGION_CONTEXT));
    const contents: Buffer[] = [];
    const lidTexts: string[] = [];
    for (let i = from; i < to; i++) {
      contents.push(p.content(i));
      lidTexts.push(lidToString(lids[i]!));
    }
    if (ctx.json) windows.push(jsonWindow(p.file.display, total, from + 1, lidTexts, contents));
    if (ctx.text)
      ctx.out(
        renderWindow(
          { display: p.file.display, total, start: total ? from + 1 : 0, end: to, lines: contents, lids: lidTexts },
          ctx.style,
        ),
      );
    if (lidTexts.length) view.record(from + 1, lidTexts, 'edit');
  }
  for (const note of notShown) ctx.warn(note);
  view.save();
  return { path: p.file.display, verb: 'restored', total, windows };
}
