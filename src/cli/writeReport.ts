// What a write prints: per file, in order, one line saying what changed, then each changed
// region as a window with its fresh LIDs and 3 lines of context (recorded as shown), then the
// diff with --diff; --dry-run prints the diffs alone.
// A single command's output is exactly a one-change batch's.

import { isUtf8 } from 'node:buffer';
import { printable, quotePath } from '../model/errors.js';
import { lidToString } from '../model/lid.js';
import { splitLines, type FileLines } from '../model/lines.js';
import { describeIndentation, PUNCTUATION } from '../model/patch/locate.js';
import type { IndentShift } from '../model/patch/locate.js';
import type { EditSpan } from '../model/editSet.js';
import type { LenientMatch } from '../model/patch/plan.js';
import { renderDiff } from '../render/diff.js';
import { jsonWindow } from '../render/json.js';
import { renderWindow } from '../render/window.js';
import type { Context } from './context.js';
import type { FileReport, Planned, WriteFlags, WriteOrigin } from '../store/fileChanges.js';

/** Lines of context printed around a changed region. */
const REGION_CONTEXT = 3;
/** Most changed lines printed of one region; the rest is one `rt open` away. */
const REGION_MAX = 200;

export type Verb = 'edited' | 'inserted' | 'deleted' | 'created' | 'replaced' | 'removed' | 'moved';

/** One file's report as a --json value. */
type JsonFile = Record<string, unknown>;

export function reportWrites(
  ctx: Context,
  planned: readonly Planned[],
  flags: WriteFlags,
  origin: WriteOrigin,
  dryRun: boolean,
  reports: readonly FileReport[] = [],
): void {
  const single = !origin.patch;
  if (dryRun) {
    // A link removed shows no diff: the lines of the file it leads to stay.
    const files = planned.map((p) => ({
      p,
      diff: linkRemoved(p) === undefined ? diffOf(ctx, p, origin.patch) : Buffer.alloc(0),
    }));
    if (ctx.json) {
      const linkOf = (p: Planned) => (linkRemoved(p) === undefined ? {} : { link: p.linkText });
      const first = files[0]!;
      if (single)
        ctx.emit({
          command: origin.command,
          path: shownPath(first.p),
          written: false,
          dryRun: true,
          ...namedIn(first.p),
          ...jsonDiff(first.diff),
          ...linkOf(first.p),
        });
      else {
        const docs = files.map(({ p, diff }) => ({
          path: shownPath(p),
          verb: verbOf(p),
          ...(p.resolved.moveTo ? { from: p.resolved.file.display } : {}),
          ...namedIn(p),
          ...jsonLenient(p),
          ...jsonDiff(diff),
          ...linkOf(p),
        }));
        ctx.emit({ command: origin.command, written: false, dryRun: true, files: docs });
      }
    }
    for (const { p, diff } of files) {
      const link = linkRemoved(p);
      // Said as the write would say it.
      ctx.out(link === undefined ? diff : `${ctx.style.verb('removed')} ${p.resolved.file.display}: ${link}\n`);
    }
    for (const { p } of files) for (const m of p.applied?.lenient ?? []) ctx.warn(lenientNote(m));
    // A move is named by both its paths, as its write would say it ("moved A → B").
    const named = planned.map(({ resolved: { file, moveTo } }) =>
      moveTo ? `${file.display} → ${moveTo.display}` : file.display,
    );
    ctx.warn(`dry run: nothing written to ${named.join(', ')}`);
    return;
  }
  const docs = reports.map((r) => reportFile(ctx, r, flags, single));
  if (ctx.json)
    ctx.emit(
      single ? { command: origin.command, ...docs[0] } : { command: origin.command, written: true, files: docs },
    );
}

/** For the delete of a symbolic link, what goes (the link, not what it leads to); else undefined. */
function linkRemoved(p: Planned): string | undefined {
  if (p.resolved.change.kind !== 'delete' || p.linkText === undefined) return undefined;
  return `a symbolic link to ${printable(p.linkText)} (the file it leads to is untouched)`;
}

/** The path a change leaves its content at. */
function shownPath(p: Planned): string {
  return (p.resolved.moveTo ?? p.resolved.file).display;
}

function verbOf(p: Planned): Verb {
  const change = p.resolved.change;
  if (change.kind === 'delete') return 'removed';
  if (change.kind === 'add') return p.before ? 'replaced' : 'created';
  const { edits } = p.applied!;
  if (edits.size === 0) return 'moved';
  if (edits.size > 1) return 'edited';
  const { hunk, deleteCount, insert } = edits.edits[0]!;
  if (hunk.kind === 'range') return hunk.op === 'edit' ? 'edited' : 'deleted';
  if (hunk.kind === 'insert') return 'inserted';
  return deleteCount === 0 ? 'inserted' : insert.length === 0 ? 'deleted' : 'edited';
}

/** The changes of a planned write, as the spans of its edits over its old and new lines, in file order. */
function changesOf(p: Planned): { before: FileLines; after: FileLines; regions: readonly EditSpan[] } {
  const empty = splitLines(Buffer.alloc(0));
  const change = p.resolved.change;
  if (change.kind === 'delete')
    return {
      before: p.before!.lines,
      after: empty,
      regions: [{ oldStart: 0, oldCount: p.before!.lines.count, newStart: 0, newCount: 0 }],
    };
  if (change.kind === 'add') {
    const after = splitLines(p.bytes!);
    const before = p.before?.lines ?? empty;
    return { before, after, regions: [{ oldStart: 0, oldCount: before.count, newStart: 0, newCount: after.count }] };
  }
  return { before: p.before!.lines, after: p.applied!.lines, regions: p.applied!.edits.spans() };
}

function diffOf(ctx: Context, p: Planned, patch: boolean): Buffer {
  const { file, moveTo, change } = p.resolved;
  const { before, after, regions } = changesOf(p);
  // A single command's diff names the file on both sides, as it always has; a patch's names a made or removed file
  // /dev/null, as git does.
  const names = {
    old: patch && change.kind === 'add' && !p.before ? '/dev/null' : file.display,
    new: patch && change.kind === 'delete' ? '/dev/null' : (moveTo ?? file).display,
  };
  return renderDiff(names, before, after, regions, ctx.style);
}

/** Prints one file's report (text) and returns it as a --json value. */
function reportFile(ctx: Context, r: FileReport, flags: WriteFlags, single: boolean): JsonFile {
  const p = r.planned;
  const verb = verbOf(p);
  const { file, moveTo } = p.resolved;
  const { before, after, regions } = changesOf(p);
  const display = (moveTo ?? file).display;
  const delta = after.count - before.count;
  const json: JsonFile = {
    path: display,
    written: true,
    verb,
    ...(moveTo ? { from: file.display } : {}),
    ...(p.over ? { replaced: true } : {}),
    ...namedIn(p),
  };
  const replacing = p.over ? ` (replacing the old ${moveTo?.display})` : '';
  if (moveTo) ctx.out(`${ctx.style.verb('moved')} ${file.display} → ${moveTo.display}${replacing}\n`);
  if (verb === 'removed') {
    const changes = [{ old: { start: 1, count: before.count }, new: { start: 1, count: 0 } }];
    const removed = { ...json, delta, changes, windows: [] };
    // A symbolic link goes, not the file it leads to: its lines are not counted as removed.
    const link = linkRemoved(p);
    if (link !== undefined) {
      ctx.out(`${ctx.style.verb(verb)} ${file.display}: ${link}\n`);
      return { ...removed, link: p.linkText };
    }
    ctx.out(
      `${ctx.style.verb(verb)} ${file.display}: ${before.count ? `1-${before.count}` : 'empty'} (${sign(delta)})\n`,
    );
    return removed;
  }
  const diff = flags.diff ? diffOf(ctx, p, !single) : undefined;
  if (verb === 'moved') return { ...json, delta: 0, ...(diff ? jsonDiff(diff) : {}) };
  const summaries = regions.map((g) => summary(verb, g)).join(', ');
  ctx.out(`${ctx.style.verb(verb)} ${display}: ${summaries} (${sign(delta)})\n`);
  for (const m of p.applied?.lenient ?? []) ctx.out(`note: ${lenientNote(m)}\n`);
  const total = r.lines!.count;
  const view = r.view ?? p.view!;
  const windows = windowsOf(regions, total);
  const jsonWindows = [];
  for (const w of windows) {
    const contents: Buffer[] = [];
    const lidTexts: string[] = [];
    for (let i = w.from; i < w.to; i++) {
      contents.push(r.content!(i));
      lidTexts.push(lidToString(r.lids![i]!));
    }
    if (ctx.json) jsonWindows.push(jsonWindow(display, total, w.from + 1, lidTexts, contents));
    if (ctx.text)
      ctx.out(
        renderWindow(
          { display, total, start: total ? w.from + 1 : 0, end: w.to, lines: contents, lids: lidTexts },
          ctx.style,
        ),
      );
    if (lidTexts.length) view.record(w.from + 1, lidTexts, 'edit');
  }
  // A file made empty still shows its (empty) window, as an edit always has.
  if (windows.length === 0) ctx.out(renderWindow({ display, total, start: 0, end: 0, lines: [], lids: [] }, ctx.style));
  if (diff) ctx.out(diff);
  for (const g of regions) {
    const shownTo = g.newStart + Math.min(g.newCount, REGION_MAX);
    const end = g.newStart + g.newCount;
    if (shownTo < end)
      ctx.warn(`${end - shownTo} more new lines not shown: rt open ${quotePath(`${display}:${shownTo + 1}-${end}`)}`);
  }
  view.save();
  const first = regions[0];
  const window = jsonWindows[0] ?? jsonWindow(display, total, 1, [], []);
  if (single && first) {
    return {
      ...json,
      old: { start: first.oldStart + 1, count: first.oldCount },
      new: { start: first.newStart + 1, count: first.newCount },
      delta,
      window,
      ...(diff ? jsonDiff(diff) : {}),
    };
  }
  return {
    ...json,
    delta,
    ...jsonLenient(p),
    changes: regions.map((g) => ({
      old: { start: g.oldStart + 1, count: g.oldCount },
      new: { start: g.newStart + 1, count: g.newCount },
    })),
    windows: jsonWindows,
    ...(diff ? jsonDiff(diff) : {}),
  };
}

/** What a context hunk found only leniently did: how it matched, and how its new rows were moved. */
function lenientNote(m: LenientMatch): string {
  const ways = [...(m.shift ? ['ignoring indentation'] : []), ...(m.level === PUNCTUATION ? [PUNCTUATION_WORDS] : [])];
  const matched = `the hunk at patch line ${m.hunkLine} matched only ${ways.join(' and ')}`;
  return m.shift ? `${matched}: its + rows were ${shiftWords(m.shift)}` : matched;
}

const PUNCTUATION_WORDS = 'with Unicode dashes, quotes and spaces read as ASCII';

function shiftWords({ remove, add, agreeing, rows, tabs }: IndentShift): string {
  if (tabs) {
    const n = Math.abs(tabs.more);
    const deeper = n === 0 ? '' : ` and ${n} tab${n === 1 ? '' : 's'} ${tabs.more > 0 ? 'deeper' : 'shallower'}`;
    return `indented with tabs as the file is (a tab for ${tabs.width} quoted spaces${deeper})`;
  }
  const by =
    remove.length === 0
      ? `right by ${describeIndentation(add)}`
      : add.length === 0
        ? `left by ${describeIndentation(remove)}`
        : `from ${describeIndentation(remove)} to ${describeIndentation(add)} of indentation`;
  const uneven =
    agreeing < rows ? ` (as ${agreeing} of its ${rows} quoted rows differ from the file; the others otherwise)` : '';
  return `shifted ${by} to the file's indentation${uneven}`;
}

/** The hunks of a file found only leniently, as --json gives them (nothing when there are none). */
function jsonLenient(p: Planned): { lenient?: unknown[] } {
  const found = p.applied?.lenient ?? [];
  if (found.length === 0) return {};
  return {
    lenient: found.map((m) => ({
      patchLine: m.hunkLine,
      ignored: [...(m.shift ? ['indentation'] : []), ...(m.level === PUNCTUATION ? ['unicode punctuation'] : [])],
      ...(m.shift ? { shift: jsonShift(m.shift) } : {}),
    })),
  };
}

function jsonShift(shift: IndentShift): Record<string, unknown> {
  const tabs = shift.tabs ? { tabWidth: shift.tabs.width, tabsMore: shift.tabs.more } : {};
  const { rows, agreeing } = shift;
  return { from: shift.remove.toString('utf8'), to: shift.add.toString('utf8'), ...tabs, rows, agreeing };
}

function sign(delta: number): string {
  return `${delta >= 0 ? '+' : ''}${delta}`;
}

/** One change in the confirmation line: `101-102 → 101-103`, or the side its verb names. */
function summary(verb: Verb, g: EditSpan): string {
  const whole = verb === 'created' || verb === 'replaced';
  const range = (start: number, count: number) =>
    count === 0 ? (whole ? 'empty' : `${start}`) : `${start + 1}-${start + count}`;
  if (verb === 'deleted') return range(g.oldStart, g.oldCount);
  if (verb === 'inserted' || verb === 'created') return range(g.newStart, g.newCount);
  return `${range(g.oldStart, g.oldCount)} → ${range(g.newStart, g.newCount)}`;
}

/** The windows that show the changed regions with their context, in file order; windows that meet are one. */
function windowsOf(regions: readonly EditSpan[], total: number): Array<{ from: number; to: number }> {
  const spans = regions
    .map((g) => ({
      from: Math.max(0, g.newStart - REGION_CONTEXT),
      to: Math.min(total, g.newStart + Math.min(g.newCount, REGION_MAX) + REGION_CONTEXT),
    }))
    .sort((a, b) => a.from - b.from);
  const out: Array<{ from: number; to: number }> = [];
  for (const s of spans) {
    const last = out[out.length - 1];
    if (last && s.from <= last.to) last.to = Math.max(last.to, s.to);
    else if (s.to > s.from || out.length === 0) out.push({ ...s });
  }
  return out.filter((w) => w.to > w.from || total === 0);
}

/** The diff as a JSON value: text, plus the exact bytes when they are not valid UTF-8. */
function jsonDiff(diff: Buffer): { diff: string; diffBase64?: string } {
  return isUtf8(diff)
    ? { diff: diff.toString('utf8') }
    : { diff: diff.toString('utf8'), diffBase64: diff.toString('base64') };
}

/** The definitions a write named (`rt edit PATH:@NAME`, `@@ edit @NAME`), for its --json: dry run or not. */
function namedIn(p: Planned): Record<string, unknown> {
  const named = p.applied?.edits.edits.flatMap((c) => (c.definition ? [c.definition] : [])) ?? [];
  return named.length === 1 ? { definition: named[0] } : named.length > 1 ? { definitions: named } : {};
}
