// View state: what rt has shown of a file, so that `scroll` knows where to go next and line
// numbers can be checked against what was seen (see Only shown lines are edited).
//
// `shown` maps a line number to the LIDs shown at that number since the last open/scroll that
// showed it (an open or scroll starts the list anew; an edit's printed region and search hits
// add to it). `seen` holds every LID shown recently: LIDs are bound to content, so an LID in it
// is a line shown since it last changed. `definitions` holds a digest of the LIDs of each
// definition shown as one (rt outline lists its first line, rt open PATH:@NAME its first window):
// a definition whose lines have those LIDs now, in that order, is the definition shown, unchanged.
// `hits` holds the LIDs of `seen` shown only as a search's hits and context (grep without -W): a
// line shown so is edited by its LID, but a definition is not shown by it.

import { digestWords } from '../model/digest.js';
import type { LineWindow } from '../model/window.js';
import type { StateDoc, StateStore } from './state.js';

export const VIEW_FORMAT = 'rt-view';
export const VIEW_VERSION = 1;
const MAX_NUMBERS = 20_000;
const MAX_SEEN = 100_000;
const MAX_DEFINITIONS = 20_000;

export interface LastView extends LineWindow {
  readonly startLid: string;
  readonly endLid: string;
}

interface ViewDoc extends StateDoc {
  window: number | null;
  last: LastView | null;
  /** [line number, LIDs shown there], least recent first. */
  shown: Array<[number, string[]]>;
  /** LIDs shown, least recent first. */
  seen: string[];
  /** Definitions shown as such: the digest of their lines' LIDs (definitionKey), least recent first. */
  definitions?: string[];
  /** LIDs of `seen` shown only by searches ('hit'), least recent first. */
  hits?: string[];
}

function isViewDoc(doc: unknown): boolean {
  const d = doc as Partial<ViewDoc>;
  const last = d.last as Partial<LastView> | null | undefined;
  return (
    (d.window === null || (Number.isSafeInteger(d.window) && d.window! > 0)) &&
    (last === null ||
      (typeof last === 'object' &&
        Number.isSafeInteger(last.start) &&
        Number.isSafeInteger(last.end) &&
        typeof last.startLid === 'string' &&
        typeof last.endLid === 'string')) &&
    Array.isArray(d.shown) &&
    d.shown.every(
      (e) =>
        Array.isArray(e) &&
        Number.isSafeInteger(e[0]) &&
        Array.isArray(e[1]) &&
        e[1].every((l) => typeof l === 'string'),
    ) &&
    Array.isArray(d.seen) &&
    d.seen.every((l) => typeof l === 'string') &&
    (d.definitions === undefined ||
      (Array.isArray(d.definitions) && d.definitions.every((k) => typeof k === 'string'))) &&
    (d.hits === undefined || (Array.isArray(d.hits) && d.hits.every((k) => typeof k === 'string')))
  );
}

/**
 * How lines came to be shown: a window resets what a number means; the rest add to it. 'search':
 * a search that shows definitions whole (grep -W); 'hit': any other search's hits and context.
 */
export type ShownBy = 'window' | 'edit' | 'search' | 'hit';

export class ViewState {
  /** Whether what was recorded since loading says more than the saved state did. */
  private changed = false;
  /**
   * `doc.shown` and `doc.seen` as a map and a set, made when first needed and written back on save: a search records
   * thousands of ranges.
   */
  private byNumber: Map<number, string[]> | undefined;
  private seenSet: Set<string> | undefined;
  private definitionSet: Set<string> | undefined;
  private hitSet: Set<string> | undefined;

  private constructor(
    private readonly store: StateStore,
    private readonly rel: string,
    private readonly doc: ViewDoc,
    /** False when no state is kept: nothing can be said about what was shown. */
    readonly kept: boolean,
  ) {}

  /** What was recorded since loading, to be recorded again on the state as it is when saving. */
  private readonly recorded: Array<(view: ViewState) => void> = [];

  /** What named the saved view when it was loaded (see StateStore.savedAs). */
  private loadedAs: string | undefined;
  /**
   * Whether what was recorded, recorded again on the view as loaded, makes its map and sets of
   * lines shown (a window, or lines it may not hold: see add), and its set of definitions. Saved
   * as it stands (see save), the view writes back only those, as recording it again would: a set
   * made only to answer a question must not add a list the saved view did not have.
   */
  private recordingMakesSets = false;
  private recordingMakesDefinitions = false;

  static load(store: StateStore, rel: string): ViewState {
    const { doc, savedAs } = store.loadNamed<ViewDoc>('view', rel, VIEW_FORMAT, VIEW_VERSION, isViewDoc);
    const view = new ViewState(store, rel, doc ?? emptyDoc(rel), store.canSave());
    view.loadedAs = savedAs;
    return view;
  }

  get last(): LastView | null {
    return this.doc.last;
  }

  /** The window size last asked for with --window, if any. */
  get windowSize(): number | null {
    return this.doc.window;
  }

  /** LIDs shown at `line` since the last window showed it (most recent last); null when no state is kept. */
  shownAt(line: number): readonly string[] | null {
    if (!this.kept) return null;
    return this.numbers().get(line) ?? [];
  }

  /** The line numbers at which `lid` was shown (see shownAt): where it was, a guess at where it is. */
  linesShowing(lid: string): number[] {
    const lines: number[] = [];
    for (const [line, lids] of this.numbers()) if (lids.includes(lid)) lines.push(line);
    return lines;
  }

  wasSeen(lid: string): boolean {
    return this.seen().has(lid);
  }

  /** Whether the line of `lid` was shown since it last changed other than as a search's hit (see `hits`). */
  shownWhole(lid: string): boolean {
    return this.seen().has(lid) && !this.hits().has(lid);
  }

  /** Whether a definition whose lines had exactly these LIDs (codes, in order) was shown as one. */
  definitionShown(lids: Uint32Array): boolean {
    return this.definitionKeys().has(definitionKey(lids));
  }

  /** Records definitions as shown as such, each by the LIDs (codes, in order) of its lines. */
  recordDefinitions(ranges: readonly Uint32Array[]): void {
    if (ranges.length === 0) return;
    this.recorded.push((view) => view.recordDefinitions(ranges));
    this.recordingMakesDefinitions = true;
    const keys = this.definitionKeys();
    let changed = false;
    for (const lids of ranges) {
      const key = definitionKey(lids);
      if (keys.has(key)) continue;
      keys.add(key);
      changed = true;
    }
    if (!changed) return;
    this.changed = true;
    dropOldest(keys, MAX_DEFINITIONS);
  }

  /** Records lines `start`.. with their LIDs as shown. */
  record(start: number, lids: readonly string[], by: ShownBy): void {
    this.recordRuns([{ start, lids }], by);
  }

  /**
   * Records runs of lines (ascending, none twice) with their LIDs as shown: as a call of record
   * for each, but that the oldest entries are dropped once at the end (dropping from the front of
   * a Map or Set a call at a time walks past every entry dropped before: a hundred thousand lines
   * of a replacement, each a run, spent seconds there).
   */
  recordRuns(runs: ReadonlyArray<{ readonly start: number; readonly lids: readonly string[] }>, by: ShownBy): void {
    this.recorded.push((view) => view.recordRuns(runs, by));
    let changed = false;
    for (const { start, lids } of runs) changed = this.add(start, lids, by) || changed;
    if (!changed) return;
    dropOldest(this.numbers(), MAX_NUMBERS);
    dropOldest(this.seen(), MAX_SEEN);
    dropOldest(this.hits(), MAX_SEEN);
  }

  /**
   * Records runs of lines (ascending, none twice) with their LIDs as shown, leaving the view as a
   * call of record for each would (its oldest entries dropped after each run that adds anything),
   * but kept as one step to record again at the save (a search's 100,000 hits apart were as many).
   */
  recordEach(runs: ReadonlyArray<{ readonly start: number; readonly lids: readonly string[] }>, by: ShownBy): void {
    this.recorded.push((view) => view.recordEach(runs, by));
    for (const { start, lids } of runs) {
      if (!this.add(start, lids, by)) continue;
      dropOldest(this.numbers(), MAX_NUMBERS);
      dropOldest(this.seen(), MAX_SEEN);
      dropOldest(this.hits(), MAX_SEEN);
    }
  }

  /** Adds lines `start`.. as shown, without dropping old entries; whether anything changed. */
  private add(start: number, lids: readonly string[], by: ShownBy): boolean {
    // Only the most recent MAX_SEEN LIDs (and MAX_NUMBERS numbers, fewer) are kept: of a longer
    // run of lines, only its end can be (a window of a million lines recorded its every line, to
    // drop all but that end, most of its time and memory).
    if (lids.length > MAX_SEEN) {
      start += lids.length - MAX_SEEN;
      lids = lids.slice(lids.length - MAX_SEEN);
    }
    // Lines shown again as a small saved view has them already (a search repeated): told from its lists as they are,
    // with no map or set made of them (a search prints thousands of files, each with its view).
    // (Recorded again on the view as loaded, lines it may not hold make the map and sets: see save.)
    if (!this.recordingMakesSets && (by === 'window' || addsTo(this.doc, start, lids, by)))
      this.recordingMakesSets = true;
    if (by !== 'window' && !this.byNumber && !this.seenSet && !this.hitSet && !this.recordingMakesSets) return false;
    const byNumber = this.numbers();
    const seen = this.seen();
    const hits = this.hits();
    const news = lids.some((lid, i) => {
      const before = byNumber.get(start + i);
      return (
        !seen.has(lid) ||
        (by !== 'hit' && hits.has(lid)) ||
        !before ||
        (by === 'window' ? before.length !== 1 || before[0] !== lid : !before.includes(lid))
      );
    });
    // Lines shown again as they were add nothing (a search repeated, say): the state stays as saved.
    if (!news && by !== 'window') return false;
    this.changed = true;
    lids.forEach((lid, i) => {
      const n = start + i;
      const before = by === 'window' ? [] : (byNumber.get(n) ?? []);
      byNumber.delete(n); // most recent last
      byNumber.set(n, before.includes(lid) ? before : [...before, lid]);
    });
    for (const lid of lids) {
      if (by !== 'hit') hits.delete(lid);
      else if (!seen.has(lid) || hits.has(lid)) {
        hits.delete(lid);
        hits.add(lid);
      }
      seen.delete(lid);
      seen.add(lid);
    }
    return true;
  }

  private numbers(): Map<number, string[]> {
    return (this.byNumber ??= new Map(this.doc.shown));
  }

  private seen(): Set<string> {
    return (this.seenSet ??= new Set(this.doc.seen));
  }

  private hits(): Set<string> {
    return (this.hitSet ??= new Set(this.doc.hits));
  }

  private definitionKeys(): Set<string> {
    return (this.definitionSet ??= new Set(this.doc.definitions));
  }

  /**
   * Records a window as the last one shown (what `scroll` continues from). `size`: the --window
   * given, null for none (forgetting an earlier one), undefined to keep what was remembered.
   */
  recordWindow(window: LineWindow, lids: readonly string[], size: number | null | undefined): void {
    // The last window shown, shown again as it was (a file re-read, a call repeated): recording
    // it would change nothing, and saving it would cost the run a locked write.
    if (!this.changed && this.recorded.length === 0 && this.isLastShown(window, lids, size)) return;
    this.recorded.push((view) => view.recordWindow(window, lids, size));
    this.applyWindow(window, lids, size);
  }

  /**
   * Whether the saved state already ends with `window` as recording it would leave it: its last
   * window, with these LIDs, as the most recent lines at their numbers and the most recent seen.
   */
  private isLastShown(window: LineWindow, lids: readonly string[], size: number | null | undefined): boolean {
    const { last, shown, seen } = this.doc;
    const k = lids.length;
    if (
      !last ||
      k === 0 ||
      k > MAX_NUMBERS ||
      last.start !== window.start ||
      last.end !== window.end ||
      last.startLid !== lids[0] ||
      last.endLid !== lids[k - 1]
    )
      return false;
    // (The map and sets a question made, with nothing recorded yet, are the saved lists: these are looked through.)
    if ((size !== undefined && size !== this.doc.window) || seen.length < k || shown.length < k) return false;
    for (let i = 0; i < k; i++) {
      const [n, at] = shown[shown.length - k + i]!;
      if (seen[seen.length - k + i] !== lids[i] || n !== window.start + i || at.length !== 1 || at[0] !== lids[i])
        return false;
    }
    return true;
  }

  private applyWindow(window: LineWindow, lids: readonly string[], size: number | null | undefined): void {
    this.record(window.start, lids, 'window');
    this.recorded.pop();
    this.changed = true;
    if (size !== undefined) this.doc.window = size;
    this.doc.last = lids.length
      ? { start: window.start, end: window.end, startLid: lids[0]!, endLid: lids[lids.length - 1]! }
      : null;
  }

  /**
   * Saves what was recorded; nothing when it added nothing to the saved state, unless that was
   * last written a day ago or more (state untouched for 30 days is swept).
   */
  save(): void {
    const store = this.store;
    if (!this.changed && this.doc.touched > 0 && Date.now() - this.doc.touched < 86_400_000) return;
    // Another rt may have saved this file's view since it was loaded (a search beside an edit,
    // two agents reading): what this run recorded is recorded again on the view as saved now,
    // so that no line shown by either is forgotten, and an edit of it is not refused as unseen.
    store.update('view', this.rel, () => {
      // Saved as it was loaded (no other rt saved it since): what was recorded would be recorded again on the
      // same view, to the same end, so this one is saved as it stands (a search's 100,000 hits were parsed and
      // recorded twice).
      const unchanged = this.loadedAs !== undefined && store.savedAs('view', this.rel) === this.loadedAs;
      const view = unchanged ? this : new ViewState(store, this.rel, loadDoc(store, this.rel), this.kept);
      if (!unchanged) for (const again of this.recorded) again(view);
      const sets = !unchanged || view.recordingMakesSets;
      if (sets && view.byNumber) view.doc.shown = [...view.byNumber];
      if (sets && view.seenSet) view.doc.seen = [...view.seenSet];
      if ((!unchanged || view.recordingMakesDefinitions) && view.definitionSet)
        view.doc.definitions = [...view.definitionSet];
      if (sets && view.hitSet) view.doc.hits = [...view.hitSet];
      store.save('view', this.rel, view.doc);
    });
  }
}

/** Lists of a saved view this long at most are looked through as they are (see addsTo). */
const SMALL_VIEW = 64;

/**
 * Whether recording lines `start`.. with `lids` (not as a window) may change the saved view `doc`, told from its lists
 * as they are, as ViewState.add tells it from the map and sets made of them: true when any lid is not in `seen`, is
 * in `hits` while not shown by a search's hits, or is not among the LIDs shown at its number (the last entry of that
 * number, as a map made of `shown` keeps). True, to be told the usual way, when a list is longer than SMALL_VIEW.
 */
function addsTo(doc: ViewDoc, start: number, lids: readonly string[], by: ShownBy): boolean {
  const { shown, seen, hits } = doc;
  if (shown.length > SMALL_VIEW || seen.length > SMALL_VIEW || (hits?.length ?? 0) > SMALL_VIEW) return true;
  for (let i = 0; i < lids.length; i++) {
    const lid = lids[i]!;
    if (!seen.includes(lid) || (by !== 'hit' && hits?.includes(lid))) return true;
    let before: readonly string[] | undefined;
    for (let k = shown.length - 1; k >= 0 && !before; k--) if (shown[k]![0] === start + i) before = shown[k]![1];
    if (!before?.includes(lid)) return true;
  }
  return false;
}

/** A definition's lines, by their LIDs in order: their count and digest. */
function definitionKey(lids: Uint32Array): string {
  return `${lids.length}:${digestWords(lids)}`;
}

/**
 * Each map or set's iterator of its keys, least recent first, kept where dropOldest stopped: every entry before it was
 * dropped, and an entry set again goes after it, so what it gives next is the least recent. (A new iterator would walk
 * past every entry dropped before, until the map is rehashed: a hundred thousand hits, each a run, spent seconds so.)
 */
const oldestFirst = new WeakMap<Map<unknown, unknown> | Set<unknown>, Iterator<unknown>>();

/** Keeps the `max` most recent entries of a map or set (iterated least recent first). */
function dropOldest(entries: Map<unknown, unknown> | Set<unknown>, max: number): void {
  if (entries.size <= max) return;
  let keys = oldestFirst.get(entries);
  if (!keys) oldestFirst.set(entries, (keys = entries.keys()));
  while (entries.size > max) {
    const next = keys.next();
    if (next.done) oldestFirst.set(entries, (keys = entries.keys()));
    else entries.delete(next.value);
  }
}

function loadDoc(store: StateStore, rel: string): ViewDoc {
  return store.load<ViewDoc>('view', rel, VIEW_FORMAT, VIEW_VERSION, isViewDoc) ?? emptyDoc(rel);
}

function emptyDoc(rel: string): ViewDoc {
  return {
    format: VIEW_FORMAT,
    version: VIEW_VERSION,
    path: rel,
    touched: 0,
    window: null,
    last: null,
    shown: [],
    seen: [],
  };
}
