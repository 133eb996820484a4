// Planning one file's hunks: every anchor resolved and every context hunk located
// against the file as it was read, overlaps refused, the shown-lines rule checked; then the
// changes applied in patch order, each through the edit engine, so that a patch gives exactly
// the bytes and LIDs of the same edits made one by one.

import { resolveAnchor, type AnchorWorld } from '../anchor.js';
import { applySplice, type EditedFile } from '../edit.js';
import { EditSet, type LineEdit } from '../editSet.js';
import { quotePath, RtError, shellQuote } from '../errors.js';
import { lidToString } from '../lid.js';
import { hashBytes } from '../hash.js';
import { rewrittenIndex, swapIndex, type LineIndex } from '../lineIndex.js';
import { dominantEol, endsWithNewline, lineContent, lineEnding, splitLines, type FileLines } from '../lines.js';
import { MAX_RANGE } from '../window.js';
import { describeIndentation, hunkSplices, indentShift, locateHunk, PUNCTUATION, shiftedRow } from './locate.js';
import type { IndentShift, Level, LinesView, Location, Miss } from './locate.js';
import type { PatchHunk } from './types.js';

/** One change of a file, in the coordinates of the file as read. */
export interface PlannedChange extends LineEdit {
  /** The hunk it comes from. */
  readonly hunk: PatchHunk;
  /**
   * For an insert, the line its anchor named (0-based), which must have been shown like a replaced line ("Only shown
   * lines are edited").
   */
  readonly anchorLine?: number;
  /** How its context hunk was found, when that is worth a word in the report. */
  readonly lenient?: LenientMatch;
  /**
   * Its new lines end as the one line it replaces did (rt replace keeps a line's own ending),
   * rather than as most of the file's lines do; a last line without one takes the file's.
   */
  readonly ownEnding?: boolean;
  /** The line (0-based, in the file as read) whose indentation its new lines take (--indent auto): a definition's. */
  readonly indentAt?: number;
  /** The definition its hunk names (`@@ edit @NAME`), for the report. */
  readonly definition?: DefinitionName;
}

/** A definition as a report names it. */
export interface DefinitionName {
  readonly name: string;
  readonly kind: string;
  readonly qualified: string;
}

/** A definition a hunk names (`@@ edit @NAME`), as found in the file read: 1-based lines. */
export interface DefinitionSpan {
  /** The line it is listed by (its `def`, `class` or `function` line). */
  readonly line: number;
  /** Its first line (its first decorator, attribute or doc comment) and its last: the lines written. */
  readonly start: number;
  readonly end: number;
  /**
   * Its last line as rt outline and rt open PATH:@NAME list it, when not `end` (a Markdown section's
   * blank lines after it): the lines it was shown as (see checkDefinitionShown).
   */
  readonly listedEnd?: number;
  /** The parts it joins (a getter and its setter: 2); 1, or none, when it is one. */
  readonly parts?: number;
  readonly named?: DefinitionName;
}

/**
 * A context hunk found only leniently, as the report says it: with Unicode punctuation read as
 * ASCII, or ignoring an indentation its new rows were then moved by.
 */
export interface LenientMatch {
  readonly hunkLine: number;
  readonly level: Level;
  readonly shift: IndentShift | undefined;
}

/** The file a plan is made against. */
export interface PlanTarget {
  readonly display: string;
  readonly lines: FileLines;
  readonly index: LineIndex;
  readonly world: AnchorWorld;
  /**
   * Whether rt showed the line of this LID since it last changed; undefined: not checked (--force, or no view state).
   */
  readonly wasSeen: ((lid: string) => boolean) | undefined;
  /** The definition NAME names in the file, or a refusal; needed only by hunks that name one. */
  readonly definition?: (name: string) => DefinitionSpan;
  /**
   * Whether a definition whose lines had exactly these LIDs (in order) was shown as a definition (by rt outline, or
   * rt open PATH:@NAME); asked only when `wasSeen` is.
   */
  readonly definitionShown?: (lids: Uint32Array) => boolean;
  /**
   * Whether the line of this LID was shown other than as a search's hit or context (grep without
   * -W): what a definition's lines are checked by; `wasSeen` when not given.
   */
  readonly shownWhole?: (lid: string) => boolean;
}

/** An edit with, for an insert, the line its anchor names. */
type Anchored = Pick<PlannedChange, 'start' | 'deleteCount' | 'insert' | 'anchorLine' | 'indentAt' | 'definition'>;

/** Lines a hunk claims (from..to-1), and for an insert the line its anchor names. */
interface Claim {
  readonly hunk: PatchHunk;
  readonly from: number;
  readonly to: number;
  readonly anchor?: number;
}

/** Lines of a refused context hunk's nearest candidates shown in its message. */
const CANDIDATE_LINES = 3;
/** Bytes of a candidate line shown in that message. */
const CANDIDATE_CHARS = 2000;

/**
 * The changes `hunks` make to the file, in patch order. Refuses (RtError with `hunkLine` in its
 * details) an anchor that is stale, a context hunk found nowhere or in several places, two
 * hunks that touch the same lines, and lines replaced that were never shown.
 */
export function planHunks(target: PlanTarget, hunks: readonly PatchHunk[]): PlannedChange[] {
  const changes: PlannedChange[] = [];
  const claims: Claim[] = [];
  // Context hunks are found in order, each after the one before (as apply_patch reads them).
  let after = 0;
  for (const hunk of hunks) {
    atHunk(hunk, () => {
      if (hunk.kind === 'context') {
        const view = linesView(target.lines);
        const at = locateHunk(view, hunk, after);
        if (!at.found) throw missed(target, hunk, at);
        after = at.start + at.oldCount;
        claims.push({ hunk, from: at.start, to: at.start + at.oldCount });
        const lenient = lenientMatch(view, hunk, at);
        const said = lenient ? { lenient } : {};
        for (const s of hunkSplices(hunk, at, lenient?.shift)) changes.push({ ...s, hunk, ...said });
        return;
      }
      if (hunk.kind === 'symbol') {
        const change = planSymbol(target, hunk);
        // An insert beside the definition claims its place only: it may go with an edit of the definition.
        claims.push({ hunk, from: change.start, to: change.start + change.deleteCount });
        changes.push({ ...change, hunk });
        return;
      }
      const change: Anchored = hunk.kind === 'insert' ? planInsert(target, hunk) : planRange(target, hunk);
      claims.push(
        hunk.kind === 'insert'
          ? {
              hunk,
              from: change.start,
              to: change.start,
              ...(change.anchorLine === undefined ? {} : { anchor: change.anchorLine }),
            }
          : { hunk, from: change.start, to: change.start + change.deleteCount },
      );
      if (target.wasSeen) checkShown(target, change, target.wasSeen);
      changes.push({ ...change, hunk });
    });
  }
  refuseOverlaps(target.display, claims);
  return changes;
}

function lenientMatch(view: LinesView, hunk: Extract<PatchHunk, { kind: 'context' }>, at: Location) {
  const found = indentShift(view, hunk, at);
  // A shift that moves no new row (the hunk adds none, or only blank ones) is not worth a word.
  const movesARow = found && hunk.rows.some((r) => r.tag === '+' && !shiftedRow(r.text, found).equals(r.text));
  const shift = movesARow ? found : undefined;
  const lenient: LenientMatch = { hunkLine: hunk.line, level: at.level, shift };
  return shift || at.level === PUNCTUATION ? lenient : undefined;
}

function planRange(target: PlanTarget, hunk: Extract<PatchHunk, { kind: 'range' }>): LineEdit {
  const [a, b] = resolveRange(target.world, hunk.from, hunk.to);
  return { start: a - 1, deleteCount: b - a + 1, insert: hunk.rows };
}

function planInsert(target: PlanTarget, hunk: Extract<PatchHunk, { kind: 'insert' }>): Anchored {
  const line = resolveAnchor(hunk.at, target.world);
  if (hunk.at.kind === 'end') return { start: target.world.total, deleteCount: 0, insert: hunk.rows };
  return { start: hunk.after ? line : line - 1, deleteCount: 0, insert: hunk.rows, anchorLine: line - 1 };
}

/**
 * The whole range of the definition a hunk names, in the file as read. Like a replaced line, the definition must have
 * been shown (see Only shown lines are edited): every line of it shown since it last changed, or the definition
 * shown as one (rt outline, rt open PATH:@NAME) when its lines were the very lines (the same LIDs, in order) it has
 * now: no line of it changed, added or removed since.
 */
function planSymbol(target: PlanTarget, hunk: Extract<PatchHunk, { kind: 'symbol' }>): Anchored {
  if (!target.definition) throw new Error(`@${hunk.name} is named, and no definitions were looked for`);
  const d = target.definition(hunk.name);
  if (target.wasSeen) checkDefinitionShown(target, hunk, d, target.shownWhole ?? target.wasSeen);
  const start = d.start - 1;
  const count = d.end - d.start + 1;
  const indentAt = d.line - 1;
  const named = d.named ? { definition: d.named } : {};
  switch (hunk.op) {
    case 'edit':
      return { start, deleteCount: count, insert: hunk.rows, indentAt, ...named };
    case 'delete': {
      const [before, after] = blanksAround(target.lines, start, d.end);
      return { start: start - before, deleteCount: before + count + after, insert: [], ...named };
    }
    case 'before':
      return { start, deleteCount: 0, insert: hunk.rows, indentAt, ...named };
    case 'after':
      return { start: d.end, deleteCount: 0, insert: hunk.rows, indentAt, ...named };
  }
}

/**
 * The blank lines before and after a definition deleted from line `start` to line `end` (0-based,
 * `end` past its last) that go with it, so that the spacing left is the one between the lines around:
 * - at the file's end, or before a line indented less than it (a block's end), those before it;
 * - after a line indented less than it (a block's opening), or after blank lines or the file's
 *   start, those after it;
 * - else none (it stood among other lines).
 */
function blanksAround(lines: FileLines, start: number, end: number): [number, number] {
  const blank = (i: number) => lineContent(lines, i).every((b) => b === 0x20 || b === 0x09 || b === 0x0c);
  const indent = (i: number) => {
    const content = lineContent(lines, i);
    let n = 0;
    while (n < content.length && (content[n] === 0x20 || content[n] === 0x09)) n++;
    return n;
  };
  let before = 0;
  while (start - before > 0 && blank(start - before - 1)) before++;
  let after = 0;
  while (end + after < lines.count && blank(end + after)) after++;
  const own = indent(start);
  const next = end + after;
  if (next >= lines.count || indent(next) < own) return [before, 0];
  const previous = start - before - 1;
  if (previous < 0 || before > 0 || indent(previous) < own) return [0, after];
  return [0, 0];
}

function checkDefinitionShown(
  target: PlanTarget,
  hunk: Extract<PatchHunk, { kind: 'symbol' }>,
  d: DefinitionSpan,
  shown: (lid: string) => boolean,
): void {
  const lids = target.index.lids.subarray(d.start - 1, d.end);
  const listed = target.index.lids.subarray(d.start - 1, d.listedEnd ?? d.end);
  if (target.definitionShown?.(listed) || lids.every((code) => shown(lidToString(code)))) return;
  const { display } = target;
  const where = d.start === d.end ? `line ${d.start}` : `lines ${d.start}-${d.end}`;
  const verb = hunk.op === 'before' || hunk.op === 'after' ? 'insert beside it' : `${hunk.op} it`;
  // One of several parts lists by its first line alone: its outline showed the rest of it nowhere.
  const parts = (d.parts ?? 1) > 1 ? `; it has ${d.parts} parts, which rt outline lists by the first alone` : '';
  throw new RtError(
    'unshown',
    `@${hunk.name} (${where} of ${display}) has not been shown since it last changed${parts}; ` + 'nothing was written',
    [`see it first: rt open ${quotePath(`${display}:@${hunk.name}`)}`, `or, to ${verb} without looking, add --force`],
    { name: hunk.name, start: d.start, end: d.end },
  );
}

/** FROM..TO as 1-based line numbers; $ as TO means the last line. */
export function resolveRange(
  world: AnchorWorld,
  from: Parameters<typeof resolveAnchor>[0],
  to: Parameters<typeof resolveAnchor>[0],
): [number, number] {
  if (from.kind === 'end')
    throw new RtError('usage', '$ names the position after the last line: there is no line there', [
      `to add lines at the end, insert at $: rt insert ${quotePath(world.display)} '$' <<'EOF'`,
    ]);
  const a = resolveAnchor(from, world);
  const b = to.kind === 'end' ? world.total : resolveAnchor(to, world);
  if (a > world.total)
    throw new RtError('input', `${world.display} has no line ${a}`, [
      `see its end: rt open ${quotePath(world.display)}`,
    ]);
  if (b < a) {
    throw new RtError('usage', `the range ends before it starts: ${from.text} is line ${a}, ${to.text} is line ${b}`, [
      'give FROM before TO',
    ]);
  }
  return [a, b];
}

/** Runs `plan`, marking a refusal with the patch line of `hunk`. */
function atHunk(hunk: PatchHunk, plan: () => void): void {
  try {
    plan();
  } catch (error) {
    // Hunks of a single command (line 0) come from no patch: nothing to name.
    if (error instanceof RtError && error.details.hunkLine === undefined && hunk.line > 0)
      throw new RtError(error.code, error.message, error.hints, { ...error.details, hunkLine: hunk.line });
    throw error;
  }
}

/**
 * Hunks of one file may not touch the same lines. A replaced range may not meet
 * another; an insert may not be anchored on a line another hunk replaces, nor land inside one.
 * Inserts at one place, or beside a replaced range, are not overlaps: they go in patch order,
 * before the range they stand at the start of.
 */
function refuseOverlaps(display: string, claims: readonly Claim[]): void {
  for (let i = 0; i < claims.length; i++) {
    for (let j = 0; j < i; j++) {
      const a = claims[j]!;
      const b = claims[i]!;
      const lines = overlap(a, b) ?? overlap(b, a);
      if (lines === undefined) continue;
      const where = lines[0] === lines[1] ? `line ${lines[0]}` : `lines ${lines[0]}-${lines[1]}`;
      throw new RtError(
        'input',
        `the hunk at patch line ${b.hunk.line} overlaps the hunk at patch line ${a.hunk.line}: ` +
          `both touch ${where} of ${display}; nothing was written`,
        ['make each hunk touch its own lines: merge the two into one hunk'],
        { hunkLine: b.hunk.line, otherLine: a.hunk.line },
      );
    }
  }
}

/** The 1-based lines (first, last) where `b` conflicts with the lines `a` claims, if it does. */
function overlap(a: Claim, b: Claim): [number, number] | undefined {
  if (a.to > a.from && b.to > b.from) {
    const from = Math.max(a.from, b.from);
    const to = Math.min(a.to, b.to);
    return from < to ? [from + 1, to] : undefined;
  }
  if (a.to > a.from && b.to === b.from) {
    if (b.anchor !== undefined && b.anchor >= a.from && b.anchor < a.to) return [b.anchor + 1, b.anchor + 1];
    if (b.from > a.from && b.from < a.to) return [b.from + 1, b.from + 1];
  }
  return undefined;
}

/**
 * Only shown lines are edited (docs/DESIGN.md): no one replaces what they have not seen. Every
 * replaced line must have been shown since it last changed, and so must the line an insert's anchor names.
 */
function checkShown(target: PlanTarget, change: Anchored, wasSeen: (lid: string) => boolean): void {
  const { display, index } = target;
  const unseen: number[] = [];
  for (let i = change.start; i < change.start + change.deleteCount; i++) {
    if (!wasSeen(lidToString(index.lids[i]!))) unseen.push(i + 1);
  }
  const at = change.anchorLine;
  if (at !== undefined && at < target.lines.count && !wasSeen(lidToString(index.lids[at]!))) {
    const lid = lidToString(index.lids[at]!);
    throw new RtError(
      'unshown',
      `line ${at + 1} (${lid}) of ${display} has not been shown in this file since it last changed; ` +
        'nothing was written',
      [`see it first: rt open ${quotePath(`${display}:${at + 1}`)}`, 'or, to insert without looking, add --force'],
      { lines: [at + 1], lid },
    );
  }
  if (unseen.length === 0) return;
  const first = unseen[0]!;
  const last = unseen[unseen.length - 1]!;
  const where = first === last ? `line ${first}` : `${unseen.length} lines between ${first} and ${last}`;
  const span = last - first + 1;
  const one = unseen.length === 1;
  const open = `rt open ${quotePath(`${display}:${first}-${last}`)}${span > MAX_RANGE ? ` --window ${span}` : ''}`;
  throw new RtError(
    'unshown',
    `${where} of ${display} ${one ? 'has' : 'have'} not been shown since ${one ? 'it' : 'they'} last changed; ` +
      'nothing was written',
    [`see ${first === last ? 'it' : 'them'} first: ${open}`, 'or, to edit without looking, add --force'],
    { lines: unseen.slice(0, 50) },
  );
}

function linesView(lines: FileLines): LinesView {
  return { count: lines.count, content: (i) => lineContent(lines, i) };
}

/**
 * The refusal of a context hunk found nowhere, or in several places: the nearest candidates
 * follow as window lines (`N:LID|content`, each its own line of the message's hints, groups
 * apart by `--` as grep prints them), then what to do.
 */
function missed(target: PlanTarget, hunk: Extract<PatchHunk, { kind: 'context' }>, miss: Miss): RtError {
  const { display, lines, index } = target;
  const oldRows = hunk.rows.filter((r) => r.tag !== '+').length;
  const shown: string[] = [];
  miss.candidates.forEach((start, k) => {
    if (k > 0) shown.push('  --');
    for (let i = start; i < Math.min(lines.count, start + Math.max(1, Math.min(oldRows, CANDIDATE_LINES))); i++) {
      const content = lineContent(lines, i);
      // Cut for display as a window cuts a long line, never on disk.
      const shownText =
        content.length > CANDIDATE_CHARS
          ? `${content.toString('utf8', 0, CANDIDATE_CHARS)}… [+${content.length - CANDIDATE_CHARS} bytes]`
          : content.toString('utf8');
      shown.push(`  ${i + 1}:${lidToString(index.lids[i]!)}|${shownText}`);
    }
  });
  const headerText = JSON.stringify(hunk.header?.toString('utf8') ?? '');
  const header = hunk.header ? ` after ${headerText}` : '';
  const lidHeader = miss.reason === 'header' && /^(?:edit|delete|insert)[ \t]/.test(hunk.header!.toString('latin1'));
  const indented = miss.reason === 'none' ? rowsIndentation(hunk) : undefined;
  const noHeader = `no line of ${display} reads ${headerText} (the hunk's @@ line) after the hunk before it`;
  const atEnd = hunk.endOfFile ? ' at its end' : '';
  const nowhere = `the hunk's context and removed lines match nowhere in ${display}${header}${atEnd}`;
  const places = miss.candidates.length === 3 ? '3 or more' : miss.candidates.length;
  const what =
    miss.reason === 'header'
      ? `${noHeader}${lidHeader ? LID_ROWS : ''}`
      : miss.reason === 'many'
        ? `the hunk's context matches ${places} places in ${display}${header}`
        : `${nowhere}${indented ? indentedRows(indented) : ''}`;
  const near = shown.length ? `; ${miss.reason === 'many' ? 'they are' : 'nearest'}:` : '';
  const lidHunk = `@@ ${hunk.header?.toString('utf8').trim()}`;
  const first = miss.candidates.length ? `${display}:${miss.candidates[0]! + 1}` : display;
  const seeThem = `see the lines as they are now: rt open ${shellQuote(first)}`;
  const hints =
    miss.reason === 'many'
      ? [
          'add context lines (or an @@ line naming the function) until the hunk matches one place, ' +
            'or edit by LID: @@ edit FROM TO',
        ]
      : lidHeader
        ? [`write ${lidHunk} followed by the new lines alone, as + rows (drop the - and context rows)`]
        : [...(indented ? [UNINDENT_ROWS] : []), seeThem, 'then quote them exactly, or edit by LID: @@ edit FROM TO'];
  const candidates = miss.candidates.map((c) => c + 1);
  return new RtError('stale', `${what}; nothing was written${near}`, [...shown, ...hints], { candidates });
}

const LID_ROWS =
  ': an LID hunk takes only + rows (the LIDs name the lines it replaces, so - rows are not needed), ' +
  "and with - or context rows the @@ line is read as a context hunk's text";
const UNINDENT_ROWS = "remove that indentation: each row starts with its tag, ' ' (context), - (removed) or + (added)";

function indentedRows(indentation: Buffer): string {
  const same = `the same indentation (${describeIndentation(indentation)})`;
  const why = "so each reads as a context row (a row's first character is its tag)";
  return `: every row of the hunk starts with ${same}, ${why}`;
}

/**
 * The indentation every row of a hunk of context rows alone starts with, when taking it off
 * leaves rows tagged - or +: the hunk was indented whole, and its tags hide behind it.
 */
function rowsIndentation(hunk: Extract<PatchHunk, { kind: 'context' }>): Buffer | undefined {
  if (hunk.rows.some((r) => r.tag !== ' ')) return undefined;
  const isIndentation = (b: number | undefined) => b === 0x20 || b === 0x09;
  // The rows as written (the tag, then the text), those with text.
  const written = hunk.rows.map((r) => Buffer.concat([Buffer.from(' '), r.text]));
  const withText = written.filter((w) => !w.every(isIndentation));
  const first = withText[0];
  if (!first) return undefined;
  let width = 0;
  while (isIndentation(first[width]) && withText.every((w) => w[width] === first[width])) width++;
  return withText.some((w) => w[width] === 0x2d || w[width] === 0x2b) ? first.subarray(0, width) : undefined;
}

/** A file after its changes. */
export interface AppliedChanges extends Omit<EditedFile, 'bytes' | 'total'> {
  /** The changes in file order: `spans()` says where each was in the file read and where its lines are now. */
  readonly edits: EditSet<PlannedChange>;
  /** The context hunks found only leniently, in patch order. */
  readonly lenient: readonly LenientMatch[];
}

/**
 * Applies `changes` (planned against `lines`, none overlapping) one after the other in patch
 * order, each where the ones before it moved its lines, with the line ending the file has at
 * that step: the same bytes and LIDs as the same edits made one by one (an edit at the end of
 * a file without a final newline, or one that tips a file of mixed endings, depends on what
 * came before it). With `atOnce` (rt replace), lines each replaced by one take their fresh LIDs as
 * one edit of them all would give them (see swapIndex).
 */
export function applyChanges(
  lines: FileLines,
  index: LineIndex,
  changes: readonly PlannedChange[],
  atOnce = false,
): AppliedChanges {
  // Many lines each replaced by one (rt replace, a patch of one-line edits): one pass, not a splice a change.
  const swapped =
    atOnce && changes.length > 0
      ? rewriteAtOnce(lines, index, changes)
      : changes.length > 1
        ? swapLines(lines, index, changes)
        : undefined;
  if (swapped) return { ...swapped, edits: EditSet.of(changes), lenient: leniencies(changes) };
  return spliceEach(lines, index, changes);
}

/** applyChanges made as it is defined: one splice after the other. */
export function spliceEach(lines: FileLines, index: LineIndex, changes: readonly PlannedChange[]): AppliedChanges {
  let current: Omit<AppliedChanges, 'edits' | 'lenient'> = {
    lines,
    index,
    parts: [lines.bytes],
    content: (i: number) => lineContent(lines, i),
    unchanged: true,
  };
  const order = fileOrder(changes);
  const rank = new Int32Array(changes.length);
  order.forEach((c, r) => {
    rank[c] = r;
  });
  // Lines each change added, by its place in file order: a change starts below those of the changes made before it
  // that end up before it.
  const added = new LinesAdded(changes.length);
  changes.forEach((change, c) => {
    const start = change.start + added.before(rank[c]!);
    const { deleteCount, insert } = change;
    const own = change.ownEnding && deleteCount === 1 ? lineEnding(current.lines, start) : '';
    const result = applySplice(
      current.lines,
      current.index,
      { start, deleteCount, insert },
      own || dominantEol(current.lines),
    );
    added.add(rank[c]!, insert.length - deleteCount);
    // Changes to separate lines cannot undo one another: the file is unchanged only if each left it so.
    // Picked, not spread: spreading would join the new file's bytes (its `bytes` getter).
    const { lines: now, index: nowIndex, parts, content } = result;
    current = { lines: now, index: nowIndex, parts, content, unchanged: current.unchanged && result.unchanged };
  });
  return {
    lines: current.lines,
    parts: current.parts,
    index: current.index,
    unchanged: current.unchanged,
    content: current.content,
    edits: EditSet.of(order.map((c) => changes[c]!)),
    lenient: leniencies(changes),
  };
}

/** The context hunks of `changes` found only leniently, in patch order, each once. */
function leniencies(changes: readonly PlannedChange[]): LenientMatch[] {
  return [...new Set(changes.flatMap((c) => (c.lenient ? [c.lenient] : [])))];
}

/** Line endings sampled to tell a file's convention (as dominantEol samples them). */
const EOL_SAMPLE = 10_000;
const CRLF = Buffer.from('\r\n', 'latin1');
const LF = Buffer.from('\n', 'latin1');

/** The ending applySplice gives a new line: \r\n after a content ending in \r (a bare \n would take it), else `eol`. */
function endingOf(content: Uint8Array, eol: Buffer): Buffer {
  return content.length > 0 && content[content.length - 1] === 0x0d ? CRLF : eol;
}

/**
 * What spliceEach gives `changes` when each replaces one line by one, in ascending order, none a
 * last line without a newline (whose ending depends on the file's end): in one pass, the new lines' endings as each
 * splice would give them (the file's dominant ending then, or the line's own with ownEnding, or
 * \r\n after a content ending in \r), the index by swapIndex. Undefined for other changes, or where swapIndex declines.
 */
function swapLines(
  lines: FileLines,
  index: LineIndex,
  changes: readonly PlannedChange[],
): Omit<AppliedChanges, 'edits' | 'lenient'> | undefined {
  const { bytes, starts, contentEnds, count } = lines;
  let previous = -1;
  // (A last line without a newline keeps none: that splice is left to spliceEach.)
  const last = endsWithNewline(lines) ? count : count - 1;
  for (const c of changes)
    if (c.deleteCount !== 1 || c.insert.length !== 1 || c.start <= previous || c.start >= last) return undefined;
    else previous = c.start;
  const swaps = changes.map((c) => {
    const [h1, h2] = hashBytes(c.insert[0]!);
    return { line: c.start, h1, h2 };
  });
  const after = swapIndex(index, swaps);
  if (!after) return undefined;
  const sample = Math.min(count, EOL_SAMPLE);
  let crlf = 0;
  let lf = 0;
  for (let i = 0; i < sample; i++) {
    const eol = starts[i + 1]! - contentEnds[i]!;
    if (eol === 2) crlf++;
    else if (eol === 1) lf++;
  }
  const parts: Buffer[] = [];
  let at = 0;
  let unchanged = true;
  for (const c of changes) {
    const i = c.start;
    const content = c.insert[0]!;
    const was = starts[i + 1]! - contentEnds[i]!;
    const ending = endingOf(content, c.ownEnding ? (was === 2 ? CRLF : LF) : crlf > lf ? CRLF : LF);
    if (i < sample) {
      if (was === 2) crlf--;
      else lf--;
      if (ending === CRLF) crlf++;
      else lf++;
    }
    unchanged &&= was === ending.length && lineContent(lines, i).equals(content);
    parts.push(bytes.subarray(at, starts[i]!), content, ending);
    at = starts[i + 1]!;
  }
  parts.push(bytes.subarray(at));
  const joined = Buffer.concat(parts);
  const now = splitLines(joined, true, count);
  return { lines: now, parts: [joined], index: after, unchanged, content: (i) => lineContent(now, i) };
}

/**
 * `changes` that each replace one line (ascending, none twice) by rows, each row ending as the line
 * replaced did (ownEnding: rt replace), taken as one edit of the file (see rewrittenIndex): the
 * bytes one splice after the other writes, in one pass, whatever the rows and wherever the line.
 * A last line without a newline keeps none, its rows but the last taking the ending most of the
 * lines before it have (as spliceEach gives them), a row that is empty or ends in \r taking one all
 * the same. Undefined for other changes.
 */
function rewriteAtOnce(
  lines: FileLines,
  index: LineIndex,
  changes: readonly PlannedChange[],
): Omit<AppliedChanges, 'edits' | 'lenient'> | undefined {
  const { bytes, starts, contentEnds, count } = lines;
  let previous = -1;
  for (const c of changes)
    if (c.deleteCount !== 1 || c.insert.length === 0 || !c.ownEnding || c.start <= previous) return undefined;
    else previous = c.start;
  const parts: Buffer[] = [];
  /** Endings of the new file's lines written so far, of the first EOL_SAMPLE: 2 for \r\n, 1 for \n. */
  const sampled: number[] = [];
  const note = (width: number) => {
    if (sampled.length < EOL_SAMPLE) sampled.push(width);
  };
  let at = 0;
  let line = 0;
  const keep = (until: number) => {
    parts.push(bytes.subarray(at, starts[until]!));
    for (; line < until; line++) note(starts[line + 1]! - contentEnds[line]!);
    at = starts[until]!;
  };
  for (const c of changes) {
    keep(c.start);
    const own = starts[c.start + 1]! - contentEnds[c.start]!;
    const bare = own === 0;
    let dominant = own === 2 ? CRLF : LF;
    if (bare) {
      const crlf = sampled.filter((w) => w === 2).length;
      dominant = crlf > sampled.filter((w) => w === 1).length ? CRLF : LF;
    }
    c.insert.forEach((row, k) => {
      const lastRow = k === c.insert.length - 1;
      const ending = bare && lastRow && row.length > 0 ? null : endingOf(row, dominant);
      parts.push(row);
      if (ending) parts.push(ending);
      note(ending ? ending.length : 0);
    });
    at = starts[c.start + 1]!;
    line = c.start + 1;
  }
  parts.push(bytes.subarray(at));
  const joined = Buffer.concat(parts);
  const now = splitLines(joined, true, count + changes.reduce((n, c) => n + c.insert.length - 1, 0));
  const rewrites = changes.map((c) => {
    const hashes = c.insert.map((row) => hashBytes(row));
    return { line: c.start, h1: hashes.map((h) => h[0]), h2: hashes.map((h) => h[1]) };
  });
  return {
    lines: now,
    parts: [joined],
    index: rewrittenIndex(index, rewrites),
    unchanged: joined.equals(bytes),
    content: (i) => lineContent(now, i),
  };
}

/**
 * The changes' indexes in file order. At one place, as when the edits are made one by one: an
 * insert goes before a range starting there; each insert sits against its anchor, so an insert
 * after a line goes nearer to that line than earlier ones there, and an insert before a line (or
 * at the end) after them.
 */
function fileOrder(changes: readonly PlannedChange[]): number[] {
  const byStart = changes.map((_, c) => c).sort((a, b) => changes[a]!.start - changes[b]!.start || a - b);
  const order: number[] = [];
  for (let k = 0; k < byStart.length; ) {
    const start = changes[byStart[k]!]!.start;
    const nearer: number[] = [];
    const after: number[] = [];
    const ranges: number[] = [];
    for (; k < byStart.length && changes[byStart[k]!]!.start === start; k++) {
      const c = byStart[k]!;
      const change = changes[c]!;
      if (change.deleteCount > 0) ranges.push(c);
      else if (insertsAfterItsAnchor(change)) nearer.push(c);
      else after.push(c);
    }
    order.push(...nearer.reverse(), ...after, ...ranges);
  }
  return order;
}

function insertsAfterItsAnchor(change: PlannedChange): boolean {
  const { hunk } = change;
  return hunk.kind === 'insert' ? hunk.after && hunk.at.kind !== 'end' : hunk.kind === 'symbol' && hunk.op === 'after';
}

/** Lines added at each place of the file order, summed over the places before one in log time (a Fenwick tree). */
class LinesAdded {
  private readonly tree: Float64Array;

  constructor(size: number) {
    this.tree = new Float64Array(size + 1);
  }

  add(place: number, lines: number): void {
    for (let i = place + 1; i < this.tree.length; i += i & -i) this.tree[i]! += lines;
  }

  /** Lines added at the places before `place`. */
  before(place: number): number {
    let sum = 0;
    for (let i = place; i > 0; i -= i & -i) sum += this.tree[i]!;
    return sum;
  }
}
