// The changes of a batch (edit, insert, delete, create, apply) staged on one transaction: every
// path resolved, every file locked (in one fixed order) and read as it is now, its new content
// planned (anchors resolved, hunks located, overlaps and unseen lines refused), checked, then
// committed through the journal, the indexes the edits produced saved, and the step recorded.
// A refusal at any step writes nothing, to any file or to the state.

import fs from 'node:fs';
import path from 'node:path';
import { looksBinary, RATIO_BYTES, SNIFF_BYTES } from '../model/binary.js';
import type { AnchorWorld } from '../model/anchor.js';
import { RtError, quotePath, shellQuote } from '../model/errors.js';
import { lidToString } from '../model/lid.js';
import { hashLines } from '../model/hash.js';
import { retiredLine, type LineIndex } from '../model/lineIndex.js';
import { lineContent, splitLines, type FileLines } from '../model/lines.js';
import { sliceParts } from '../model/edit.js';
import {
  applyChanges,
  planHunks,
  type AppliedChanges,
  type DefinitionSpan,
  type PlannedChange,
} from '../model/patch/plan.js';
import { indentUnit, lineIndent, reindent, targetIndent } from '../model/indent.js';
import type { FileChange, PatchHunk } from '../model/patch/types.js';
import { editAround, type LidLookup, wholeIndex } from './bigEdit.js';
import { nextReading, unreadText, type Snapshot } from './indexedFile.js';
import { inFolder } from './pinnedFolder.js';
import { readPlainFile } from './plainFile.js';
import { lstatOrNone, refuseProtectedWrite } from './protectedPaths.js';
import { endsWithSeparator, isInside, resolveInRoot, withoutFinalSeparators, type ResolvedPath } from './root.js';
import type { StateStore } from './state.js';
import { recordStep, stagedStep } from './stepRecord.js';
import { languageFor, prepareChecks } from './syntaxCheck.js';
import {
  Transaction,
  type Change,
  type Content,
  type NewFile,
  type Removal,
  type Saved,
  type Workspace,
} from './transaction.js';
import { ViewState } from './views.js';
import { versionOf, type FileVersion } from './writeFile.js';

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

/** Which command writes: its name, and whether its changes come from a patch (messages then name the patch line). */
export interface WriteOrigin {
  readonly command: 'edit' | 'insert' | 'delete' | 'create' | 'apply' | 'replace' | 'rename';
  readonly patch: boolean;
}

/**
 * A change worked out from each file's content as read under its lock, rather than from hunks
 * naming shown lines (rt replace: the match is the proof of the content). Its files are updates
 * without hunks; one whose content now calls for no change is left out of the batch.
 */
export interface Rewrite {
  /** The changes to the file read as `lines` with `index`. */
  plan(file: ResolvedPath, lines: FileLines, index: LineIndex): PlannedChange[];
  /** Called with every file planned (and changed), before anything is written: a refusal here writes nothing. */
  verify(planned: readonly Planned[]): void;
}

/**
 * How the definitions hunks name (`@@ edit @NAME`) are found: given by the command, which knows
 * the languages (src/cli/symbols.ts).
 */
export interface Symbols {
  /** Makes ready what finding the definitions of `file` takes (its grammar), before the batch takes its locks. */
  prepare(file: ResolvedPath): Promise<void>;
  /** The definition `name` names in `file` as read under its lock (`lines`, with `lids`), or a refusal. */
  find(file: ResolvedPath, lines: FileLines, lids: Uint32Array, name: string): DefinitionSpan;
}

/** `changes` with their new lines moved to the indentation around them (--indent auto), or a definition's. */
function reindentChanges(lines: FileLines, changes: readonly PlannedChange[]): PlannedChange[] {
  let unit: Buffer | undefined;
  return changes.map((c) => {
    if (!c.insert.length) return c;
    const target =
      c.indentAt === undefined ? targetIndent(lines, c.start, c.deleteCount) : lineIndent(lines, c.indentAt);
    return { ...c, insert: reindent(c.insert, target, (unit ??= indentUnit(lines))) };
  });
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
  /** What it stages on the transaction. */
  readonly change: Change;
}

/** A written file, as its write left it. */
export interface FileReport {
  readonly planned: Planned;
  readonly lines?: FileLines;
  readonly lids?: Uint32Array;
  content?(i: number): Buffer;
  /** The view of a moved file's new path. */
  readonly view?: ViewState;
}

/** How a batch is told: the report of what it planned (a dry run) or wrote, under the files' locks. */
export interface BatchOutput {
  /** A dry run's plans (`reports` undefined), or the files written and what each shows. */
  report(planned: readonly Planned[], reports?: readonly FileReport[]): void;
  /** Whether the refusal of files changed meanwhile is thrown before the report (a run printing one JSON document). */
  readonly refusalFirst: boolean;
}

/** Runs `changes` as one batch: all of them are written, or none. `readOnly`: RT_READONLY is set. */
export async function writeChanges(
  ws: Workspace,
  changes: readonly FileChange[],
  options: {
    readonly flags: WriteFlags;
    readonly origin: WriteOrigin;
    readonly readOnly: boolean;
    readonly rewrite?: Rewrite;
    readonly symbols?: Symbols;
  },
  output: BatchOutput,
): Promise<void> {
  const { flags, origin, symbols } = options;
  const resolved = changes.map((change) => atLine(origin, change.line, () => resolveChange(ws, change, origin)));
  refuseTwice(resolved, origin);
  if (options.readOnly && !flags.dryRun) {
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
              ws.root.dir,
              r.moveTo ?? r.file,
              r.change.kind === 'add' ? () => addedHead(r.change) : undefined,
            ),
          ),
      )
    : undefined;
  const named = resolved.filter(namesDefinitions);
  if (named.length && !symbols) throw new Error('definitions are named, and no way to find them was given');
  for (const r of named) {
    try {
      await symbols!.prepare(r.file);
    } catch (error) {
      // Named by the patch line of the first hunk that names a definition there.
      const line = r.change.kind === 'update' ? r.change.hunks.find((h) => h.kind === 'symbol')!.line : r.change.line;
      atLine(origin, line, () => {
        throw error;
      });
    }
  }
  await writeBatch(ws, resolved, flags, origin, grammars, output, options.rewrite, symbols);
}

/** Whether a change names a definition (`@@ edit @NAME`): its file's definitions are then looked for. */
function namesDefinitions(r: Resolved): boolean {
  return r.change.kind === 'update' && r.change.hunks.some((h) => h.kind === 'symbol');
}

/** The first bytes of the file a `create` or `*** Add File` makes. */
function addedHead(change: FileChange): Uint8Array {
  if (change.kind !== 'add') return new Uint8Array(0);
  return change.bytes ?? Buffer.concat(change.lines.slice(0, 64).flatMap((l) => [l, Buffer.from('\n')]));
}

async function writeBatch(
  ws: Workspace,
  resolved: readonly Resolved[],
  flags: WriteFlags,
  origin: WriteOrigin,
  grammars: Promise<void> | undefined,
  output: BatchOutput,
  rewrite?: Rewrite,
  symbols?: Symbols,
): Promise<void> {
  const targets = resolved.flatMap((r) => [r.file, ...(r.moveTo ? [r.moveTo] : []), ...(r.link ? [r.link] : [])]);
  // The folders of new files are made first (one at a time, each entered and checked: none
  // outside the root), so that every file has its lock beside it; a refusal removes them again.
  const make = flags.dryRun
    ? []
    : resolved.flatMap((r) => [r.change.kind === 'add' ? r.file : undefined, r.moveTo].flatMap((t) => (t ? [t] : [])));
  const tx = Transaction.begin(ws, { lock: targets, make }, (step) => atFile(origin, resolved, step));
  try {
    tx.sweep(targets);
    const alone = resolved.length === 1;
    const all = resolved.map((r) =>
      atLine(origin, r.change.line, () => plan(ws, tx, r, flags, origin, alone, rewrite, symbols)),
    );
    // (A rewrite leaves out a file it now changes in no line.)
    const planned = rewrite ? all.filter((p) => p.applied && p.applied.edits.size > 0) : all;
    rewrite?.verify(planned);
    for (const p of planned) tx.stage(p.change);
    if (grammars) {
      await grammars;
      tx.check();
    }
    if (flags.dryRun) return output.report(planned);
    const reports: FileReport[] = [];
    const { stale } = tx.commit({
      kind: 'write',
      command: `rt ${origin.command}`,
      // A batch of several files keeps its journal in the root's .rt/ (made now if need be), with
      // the step it makes and marks in the other roots its files belong to.
      staged: (madeFolders) => stagedStep(ws, origin, planned, madeFolders),
      each: (change, save) => reports.push(reportOf(ws, planned.find((p) => p.change === change)!, save)),
      written: (madeFolders, batch) => recordStep(ws, origin, reports, madeFolders, batch),
    });
    if (stale && output.refusalFirst) throw stale;
    output.report(
      reports.map((r) => r.planned),
      reports,
    );
    if (stale) throw stale;
  } finally {
    tx.end();
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

function resolveChange(ws: Workspace, change: FileChange, origin: WriteOrigin): Resolved {
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
  const file = resolveInRoot(ws.root, change.path, change.kind === 'add');
  if (change.kind !== 'delete') refuseLongName(file);
  const link =
    change.kind === 'delete' || (change.kind === 'update' && change.moveTo)
      ? linkItself(ws, change.path, file)
      : undefined;
  // What is written or taken away: a link named is removed, not what it leads to.
  const named = link ?? file;
  refuseProtectedWrite(named.abs, named.display);
  const withLink = link ? { link } : {};
  if (change.kind !== 'update' || !change.moveTo) return { change, file, ...withLink };
  const moveTo = atLine(origin, change.moveTo.line, () => resolveInRoot(ws.root, change.moveTo!.path, true));
  refuseProtectedWrite(moveTo.abs, moveTo.display);
  refuseLongName(moveTo);
  return { change, file, moveTo, ...withLink };
}

/**
 * When `userPath` is a symbolic link (to `file`), the link itself, which a delete or a move
 * takes away (as rm and git rm do; the file it leads to stays); undefined for a plain file.
 */
function linkItself(ws: Workspace, userPath: string, file: ResolvedPath): ResolvedPath | undefined {
  const lexical = path.resolve(ws.root.cwd, userPath);
  if (!fs.lstatSync(lexical, { throwIfNoEntry: false })?.isSymbolicLink()) return undefined;
  const abs = path.join(fs.realpathSync.native(path.dirname(lexical)), path.basename(lexical));
  if (!isInside(ws.root.dir, abs))
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
      `the name of ${file.display} is too long for rt to edit it: its lock and temporary file beside it add up to ` +
        `${NAME_ROOM} bytes to it, and a name holds ${NAME_MAX} at most`,
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
          `${origin.patch ? `patch line ${line}: ` : ''}${file.display} is named again ` +
            `(first at patch line ${first}); nothing was written`,
          hints,
          { patchLine: line, otherLine: first },
        );
      }
      seen.set(file.abs, line);
    }
  }
}

/** Reads the file a change is about (under its lock) and works out what it will write. */
function plan(
  ws: Workspace,
  tx: Transaction,
  r: Resolved,
  flags: WriteFlags,
  origin: WriteOrigin,
  alone: boolean,
  rewrite: Rewrite | undefined,
  symbols: Symbols | undefined,
): Planned {
  const { change, file } = r;
  const store = ws.stateOf(file);
  if (change.kind === 'add') return planAdd(r, store, flags, origin);
  // The version is taken before reading: a change made after it shows when the file is replaced.
  const version = versionOf(lstatOrMissing(file));
  const view = ViewState.load(store, file.rel);
  if (change.kind === 'update' && !flags.force && view.kept && change.hunks[0])
    tx.within(file, (store, pinned) => refuseUnreadAtOnce(store, pinned, view, change.hunks[0]!));
  const planChanges = (lines: FileLines, index: LineIndex, lookup?: LidLookup) =>
    rewrite
      ? rewrite.plan(file, lines, index)
      : changesOf(file, lines, index, view, flags, change.kind === 'update' ? change.hunks : [], symbols, lookup);
  // A big file whose saved index still describes it is read only around its change (see bigEdit.ts).
  const big =
    alone && bigEditable(ws, r, flags)
      ? tx.within(file, (store, pinned) => editAround(store, pinned, version, planChanges))
      : undefined;
  const snapshot = big?.snapshot ?? tx.read(file);
  const before = { lines: snapshot.lines, version, snapshot };
  const linkVersion = r.link
    ? { linkVersion: versionOf(lstatOrMissing(r.link)), linkText: fs.readlinkSync(r.link.abs) }
    : {};
  // What a delete or a move takes away: the file, or the link named (not what it leads to).
  const removal: Removal = r.link
    ? { kind: 'removal', file: r.link, expected: linkVersion.linkVersion }
    : { kind: 'removal', file, expected: version };
  if (change.kind === 'delete') return { resolved: r, store, before, ...linkVersion, change: removal };
  const over = r.moveTo ? movedOnto(ws, r.moveTo, file, flags) : undefined;
  const { index, lines } = snapshot;
  // (A rewrite's lines, each replaced by one, take their LIDs as one edit of them all.)
  const applied = big?.applied ?? applyChanges(lines, index, planChanges(lines, index), rewrite !== undefined);
  refuseBinaryResult(file, sliceParts(applied.parts, 0, SNIFF_BYTES));
  const content = {
    parts: applied.parts,
    lines: applied.lines,
    index: applied.index,
    edits: applied.edits,
    ...(big ? { unread: big.unread } : {}),
  };
  const staged: Change = r.moveTo
    ? {
        kind: 'move',
        from: removal,
        to: r.moveTo,
        content,
        before: lines,
        // The source goes only once its content is at the target; a moved file keeps its permission bits, as mv
        // keeps them; with --force it replaces the file there, as read.
        ...(over ? { over: over.version } : {}),
        ...(version.mode === undefined ? {} : { mode: version.mode }),
      }
    : {
        kind: 'edit',
        file,
        content: { ...content, ...keptOf(snapshot, applied) },
        expected: version,
        before: lines,
        unchanged: applied.unchanged,
      };
  return { resolved: r, store, before, applied, view, ...linkVersion, ...(over ? { over } : {}), change: staged };
}

/** The changes `hunks` make to the file read as `lines` with `index` (anchors resolved, unshown lines refused). */
function changesOf(
  file: ResolvedPath,
  lines: FileLines,
  index: LineIndex,
  view: ViewState,
  flags: WriteFlags,
  hunks: readonly PatchHunk[],
  symbols: Symbols | undefined,
  lookup?: LidLookup,
): PlannedChange[] {
  const world: AnchorWorld = {
    display: file.display,
    total: lines.count,
    // An index read only around the change finds a line by where the view showed it first.
    lineOf: lookup
      ? (code) => lookup.lineOf(code, view.linesShowing(lidToString(code)))
      : (code) => index.lids.indexOf(code),
    lidCodeAt: lookup ? (i) => lookup.lidCodeAt(i) : (i) => index.lids[i]!,
    retiredLine: (code) => retiredLine(index.retired, code),
    shownAt: (line) => view.shownAt(line),
    force: flags.force,
  };
  const wasSeen = !flags.force && view.kept ? (lid: string) => view.wasSeen(lid) : undefined;
  // Definitions are found in the file as read here, under its lock: never in an earlier reading.
  const definition = symbols ? (name: string) => symbols.find(file, lines, index.lids, name) : undefined;
  const planned = planHunks(
    {
      display: file.display,
      lines,
      index,
      world,
      wasSeen,
      ...(definition
        ? {
            definition,
            definitionShown: (lids: Uint32Array) => view.definitionShown(lids),
            ...(wasSeen ? { shownWhole: (lid: string) => view.shownWhole(lid) } : {}),
          }
        : {}),
    },
    hunks,
  );
  return flags.indent ? reindentChanges(lines, planned) : planned;
}

/**
 * Whether a change may be planned reading its file only around it (editAround): the only file of
 * its batch, changed in place by lines its anchors name (a context hunk is looked for in the whole
 * file), with nothing that looks at the whole file (--indent auto, --diff, --dry-run, a syntax check).
 */
function bigEditable(ws: Workspace, r: Resolved, flags: WriteFlags): boolean {
  const { change } = r;
  return (
    change.kind === 'update' &&
    !r.moveTo &&
    !r.link &&
    !flags.indent &&
    !flags.diff &&
    !flags.dryRun &&
    change.hunks.length > 0 &&
    change.hunks.every((h) => h.kind === 'range' || h.kind === 'insert') &&
    !(flags.check && languageFor(ws.root.dir, r.file) !== undefined)
  );
}

/**
 * Refuses at once, before the file is read whole, the first hunk of an edit of a big file rt
 * keeps no index of (unreadText), when it names a line: no line of that file can have been shown
 * (see Only shown lines are edited), and indexing it only to say so would cost seconds. A line
 * number is refused as resolveAnchor refuses it (the lines are counted up to it, not indexed);
 * an LID not shown in the file is refused without saying where its line is, which only the
 * index could tell.
 */
function refuseUnreadAtOnce(store: StateStore, file: ResolvedPath, view: ViewState, hunk: PatchHunk): void {
  const anchor = hunk.kind === 'range' ? hunk.from : hunk.kind === 'insert' ? hunk.at : undefined;
  if (!anchor || anchor.kind === 'end') return;
  if (anchor.kind === 'line' ? view.shownAt(anchor.line)?.length !== 0 : view.wasSeen(anchor.lid)) return;
  const unread = unreadText(store, file);
  if (!unread) return;
  const quoted = quotePath(file.display);
  const error = (() => {
    if (anchor.kind !== 'line') {
      const verb = hunk.kind === 'insert' ? 'insert' : 'edit';
      return new RtError(
        'unshown',
        `${anchor.lid} has not been shown in ${file.display} since its line last changed; nothing was written`,
        [`see its lines first: rt open ${quoted}`, `or, to ${verb} without looking, add --force`],
        { lid: anchor.lid },
      );
    }
    const { line } = anchor;
    const total = unread.linesUpTo(line);
    if (total >= line) {
      return new RtError(
        'unshown',
        `line ${line} of ${file.display} has not been shown since it last changed`,
        [`see it first: rt open ${quoted}:${line}`],
        { line },
      );
    }
    return new RtError(
      'input',
      `line ${line} is past the end of ${file.display} (${total} lines)`,
      [total ? `see its end: rt open ${quoted}:${total}` : `append with: rt insert ${quoted} '$' <<'EOF'`],
      { total },
    );
  })();
  // As planHunks marks a hunk's refusal: with the patch line of a hunk from a patch.
  throw hunk.line > 0
    ? new RtError(error.code, error.message, error.hints, { ...error.details, hunkLine: hunk.line })
    : error;
}

/** One change of the saved index as read: the records it kept need not be encoded again. */
function keptOf(snapshot: Snapshot, applied: AppliedChanges): Pick<Content, 'kept'> {
  const only = applied.edits.size === 1 ? applied.edits.spans()[0]! : undefined;
  if (!only || !snapshot.saved) return {};
  return {
    kept: { ...snapshot.saved, start: only.oldStart, end: only.oldStart + only.oldCount, inserted: only.newCount },
  };
}

/** The file a Move to lands on, read to be replaced (--force), or undefined when there is none. */
function movedOnto(ws: Workspace, target: ResolvedPath, file: ResolvedPath, flags: WriteFlags): Planned['over'] {
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
  return readReplaced(ws.stateOf(target), target, existing);
}

/** A file to be replaced whole (--force): its content, and the LIDs it reads with for an undo to give them back. */
function readReplaced(store: StateStore, file: ResolvedPath, existing: fs.Stats): Planned['over'] {
  const old = inFolder(path.dirname(file.abs), file.display, () => readPlainFile(path.basename(file.abs), 2 ** 32 - 1));
  if (!old) return undefined;
  const lines = splitLines(old);
  return { lines, version: versionOf(existing), lids: nextReading(store, file.rel, hashLines(lines)).lids };
}

function planAdd(r: Resolved, store: StateStore, flags: WriteFlags, origin: WriteOrigin): Planned {
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
  const staged: NewFile = {
    kind: 'new',
    file,
    // Its index: over a file rt knew (--force), the saved LIDs carried to the new content as across any change
    // (lines kept keep theirs, and none of its retired LIDs is handed to other content).
    content: { parts: [bytes], lines: splitLines(bytes) },
    ...(before ? { expected: before.version, before: before.lines } : {}),
  };
  return {
    resolved: r,
    store,
    bytes,
    ...(before ? { before } : {}),
    view: ViewState.load(store, file.rel),
    change: staged,
  };
}

/** What a change written shows: its new lines and their LIDs (its index saved, see Transaction.commit). */
function reportOf(ws: Workspace, p: Planned, save: () => Saved): FileReport {
  const { change, file, moveTo } = p.resolved;
  if (change.kind === 'delete') {
    save();
    return { planned: p };
  }
  if (change.kind === 'add') {
    const { index, saved } = save();
    const after = (p.change as NewFile).content as Content;
    const lids = lidsShown(p.store, file.rel, index!, saved);
    return { planned: p, lines: after.lines, lids, content: (i) => lineContent(after.lines, i) };
  }
  const applied = p.applied!;
  const target = moveTo ?? file;
  const store = ws.stateOf(target);
  if (applied.unchanged && !moveTo) ws.warn(`${file.display} is unchanged: the new text is the same as the old`);
  const lids = lidsShown(store, target.rel, applied.index, save().saved);
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
  return saved ? index.lids : nextReading(store, rel, wholeIndex(index)).lids;
}

/**
 * rt reads text files only. New text that would make the file look binary (a NUL is refused as
 * it is read; control bytes are the rest of the rule) is refused, or rt would then refuse the
 * file it wrote, the edit that would repair it included.
 */
function refuseBinaryResult(file: ResolvedPath, head: Buffer): void {
  if (!looksBinary(head)) return;
  throw new RtError(
    'input',
    `the new text would make ${file.display} look like a binary file (more than a third of its first ` +
      `${RATIO_BYTES} bytes control characters), which rt does not read; nothing was written`,
    [
      'write text: control characters other than tab, ESC and the line endings belong in binary files, ' +
        'which rt does not edit',
    ],
  );
}

function lstatOrMissing(file: ResolvedPath): fs.Stats {
  const st = lstatOrNone(file.abs);
  if (!st) throw new RtError('not_found', `no such file: ${file.display}`, ['check the path']);
  return st;
}
