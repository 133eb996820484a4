import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lidToString } from '../../src/model/lid.js';
import { type StateDoc, StateStore } from '../../src/store/state.js';
import { ViewState } from '../../src/store/views.js';
import { readSettings } from '../../src/settings/env.js';
import { packEntries, packSegments, packText } from '../support/pack.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-views-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('ViewState', () => {
  it('a hit recorded after a window in one run is told from the map the window changed, not the saved lists', () => {
    const store = new StateStore(fs.mkdtempSync(path.join(root, 'guard-')), readSettings({}), () => undefined);
    const a = lidToString((1 << 30) | 1);
    const b = lidToString((1 << 30) | 2);
    const first = ViewState.load(store, 'f.txt');
    first.record(4, [a], 'hit');
    first.save();
    store.flush();
    const view = ViewState.load(store, 'f.txt');
    view.recordWindow({ start: 4, end: 4 }, [b], null); // line 4 now shows b only
    view.record(4, [a], 'hit'); // a shown at 4 again
    expect(view.shownAt(4)).toEqual([b, a]);
    view.save();
    store.flush();
    expect(ViewState.load(store, 'f.txt').shownAt(4)).toEqual([b, a]);
  });

  it(
    'records a window of a million lines as it keeps it: its ' +
      'last 100,000 LIDs and 20,000 numbers, saved and loaded again',
    () => {
      const store = new StateStore(root, readSettings({}), () => undefined);
      const lids = Array.from({ length: 1_000_000 }, (_, i) => lidToString((1 << 30) | (i + 1)));
      const view = ViewState.load(store, 'big.txt');
      view.recordWindow({ start: 1, end: lids.length }, lids, null);
      view.save();
      const again = ViewState.load(store, 'big.txt');
      for (const v of [view, again]) {
        expect(v.wasSeen(lids[lids.length - 1]!)).toBe(true);
        expect(v.wasSeen(lids[lids.length - 100_000]!)).toBe(true);
        expect(v.wasSeen(lids[lids.length - 100_001]!)).toBe(false);
        expect(v.shownAt(lids.length)).toEqual([lids[lids.length - 1]]);
        expect(v.shownAt(lids.length - 19_999)).toEqual([lids[lids.length - 20_000]]);
        expect(v.shownAt(lids.length - 20_000)).toEqual([]);
        expect(v.last).toEqual({ start: 1, end: lids.length, startLid: lids[0], endLid: lids[lids.length - 1] });
      }
    },
  );

  it(
    'the last window shown again as it was writes nothing; ' +
      'another window, another size, or lines shown since, are saved',
    () => {
      const dir = fs.mkdtempSync(path.join(root, 'again-'));
      const store = new StateStore(dir, readSettings({}), () => undefined);
      const lids = Array.from({ length: 10 }, (_, i) => lidToString((1 << 30) | (i + 1)));
      const show = (start: number, end: number, size: number | null | undefined, more?: (v: ViewState) => void) => {
        const view = ViewState.load(store, 'f.txt');
        more?.(view);
        view.recordWindow({ start, end }, lids.slice(start - 1, end), size);
        view.save();
        store.flush();
      };
      // What the pack holds: the segments and the sequence number of the view's newest entry (a save adds both).
      const file = () => `${packSegments(dir).map((s) => s.name)}:${packEntries(dir).get('view:f.txt')!.row.seq}`;
      show(1, 5, null);
      const first = file();
      show(1, 5, undefined);
      expect(file()).toBe(first);
      show(1, 5, null);
      expect(file()).toBe(first);
      show(1, 5, 5);
      const sized = file();
      expect(sized).not.toBe(first);
      show(2, 6, undefined);
      const moved = file();
      expect(moved).not.toBe(sized);
      // An edit's region recorded since: the same window again is saved (its lines are made the most recent again).
      show(2, 6, undefined, (v) => v.record(9, [lids[8]!], 'edit'));
      expect(file()).not.toBe(moved);
      const after = ViewState.load(store, 'f.txt');
      expect(after.last).toEqual({ start: 2, end: 6, startLid: lids[1], endLid: lids[5] });
      expect(after.wasSeen(lids[8]!)).toBe(true);
      expect(after.windowSize).toBe(5);
    },
  );
});

describe('ViewState: many runs recorded one at a time', () => {
  it('keeps the most recent 100,000 LIDs and 20,000 numbers, lines shown again made the most recent', () => {
    const store = new StateStore(fs.mkdtempSync(path.join(root, 'runs-')), readSettings({}), () => undefined);
    const view = ViewState.load(store, 'hits.txt');
    // What it should keep, most recent last: each line is recorded with a LID never recorded before.
    const numbers = new Map<number, string[]>();
    const seen: string[] = [];
    let next = 1;
    const show = (line: number) => {
      const lid = lidToString((1 << 30) | next++);
      view.record(line, [lid], 'edit');
      const before = numbers.get(line) ?? [];
      numbers.delete(line);
      numbers.set(line, [...before, lid]);
      seen.push(lid);
    };
    for (let line = 1; line <= 130_000; line++) {
      show(line);
      // Now and then a line shown a little before, again: moved after the entries older than it.
      if (line % 1000 === 0) show(line - 7);
    }
    for (let line = 1; line <= 10; line++) show(line);
    // A line whose number was dropped keeps only the LIDs recorded since.
    const kept = [...numbers].slice(-20_000).map(([line, lids]) => [line, line <= 10 ? lids.slice(-1) : lids] as const);
    view.save();
    for (const v of [view, ViewState.load(store, 'hits.txt')]) {
      expect(seen.slice(-100_000).filter((lid) => !v.wasSeen(lid))).toEqual([]);
      expect(seen.slice(0, -100_000).filter((lid) => v.wasSeen(lid))).toEqual([]);
      expect(kept.filter(([line, lids]) => v.shownAt(line)!.join() !== lids.join())).toEqual([]);
      const keptLines = new Set(kept.map(([line]) => line));
      const dropped = Array.from({ length: 130_000 }, (_, i) => i + 1).filter((line) => !keptLines.has(line));
      expect(dropped.filter((line) => v.shownAt(line)!.length > 0)).toEqual([]);
    }
  });
});

describe('ViewState: runs recorded in one call (recordEach)', () => {
  it(
    'leave the view as recording them one at a time does, past the numbers and LIDs kept ' +
      '(a window shown, then a search of 100,000 hits apart, some in it), and again on a view saved meanwhile',
    () => {
      const lid = (n: number) => lidToString((1 << 30) | n);
      // A window of lines 499,951-500,050, then a hit every tenth line of a million (ten of them in the window).
      const window = Array.from({ length: 100 }, (_, i) => lid(499_951 + i));
      const runs = Array.from({ length: 100_000 }, (_, k) => ({ start: 10 * k + 5, lids: [lid(10 * k + 5)] }));
      /** The view saved after the runs are recorded by `record`, with another window saved between load and save. */
      const saved = (record: (view: ViewState) => void): unknown => {
        const dir = fs.mkdtempSync(path.join(root, 'each-'));
        const store = new StateStore(dir, readSettings({}), () => undefined);
        const shown = ViewState.load(store, 'f.txt');
        shown.recordWindow({ start: 499_951, end: 500_050 }, window, null);
        shown.save();
        const view = ViewState.load(store, 'f.txt');
        record(view);
        const other = ViewState.load(store, 'f.txt');
        other.recordWindow({ start: 3, end: 4 }, [lid(3), lid(4)], null);
        other.save();
        view.save();
        store.flush();
        const doc = JSON.parse(packEntries(dir).get('view:f.txt')!.bytes.toString('utf8')) as Record<string, unknown>;
        delete doc.touched;
        return doc;
      };
      const oneAtATime = saved((view) => {
        for (const run of runs) view.record(run.start, run.lids, 'hit');
      });
      expect((oneAtATime as { seen: string[] }).seen).toContain(lid(499_955));
      expect(saved((view) => view.recordEach(runs, 'hit'))).toEqual(oneAtATime);
    },
  );
});

describe('ViewState: definitions shown as such', () => {
  const codes = (...n: number[]) => Uint32Array.from(n, (i) => (1 << 30) | i);

  it('knows a definition by its LIDs in order, saved and loaded again; other runs of lines are not it', () => {
    const dir = fs.mkdtempSync(path.join(root, 'defs-'));
    const store = new StateStore(dir, readSettings({}), () => undefined);
    const view = ViewState.load(store, 'a.py');
    view.recordDefinitions([codes(1, 2, 3), codes(7)]);
    view.save();
    store.flush();
    const again = ViewState.load(store, 'a.py');
    for (const v of [view, again]) {
      expect(v.definitionShown(codes(1, 2, 3))).toBe(true);
      expect(v.definitionShown(codes(7))).toBe(true);
      // A line changed (a new LID), added, removed or moved: not the definition shown.
      expect(v.definitionShown(codes(1, 9, 3))).toBe(false);
      expect(v.definitionShown(codes(1, 2, 8, 3))).toBe(false);
      expect(v.definitionShown(codes(1, 3))).toBe(false);
      expect(v.definitionShown(codes(2, 1, 3))).toBe(false);
      // Shown as a definition is not shown as lines.
      expect(v.wasSeen(lidToString(codes(1)[0]!))).toBe(false);
    }
  });

  it("tells lines shown only as a search's hits: seen, not shown whole, until shown otherwise; saved", () => {
    const dir = fs.mkdtempSync(path.join(root, 'hits-'));
    const store = new StateStore(dir, readSettings({}), () => undefined);
    const [a, b, c] = [1, 2, 3].map((n) => lidToString(codes(n)[0]!)) as [string, string, string];
    const view = ViewState.load(store, 'a.py');
    view.record(1, [a, b], 'hit');
    view.record(3, [c], 'search');
    view.record(2, [b], 'edit');
    // Shown whole before, a hit since takes nothing away.
    view.record(3, [c], 'hit');
    view.save();
    store.flush();
    const again = ViewState.load(store, 'a.py');
    for (const v of [view, again]) {
      expect([a, b, c].map((l) => v.wasSeen(l))).toEqual([true, true, true]);
      expect([a, b, c].map((l) => v.shownWhole(l))).toEqual([false, true, true]);
    }
    again.record(1, [a], 'window');
    expect(again.shownWhole(a)).toBe(true);
  });

  it('keeps what two runs recorded at once', () => {
    const dir = fs.mkdtempSync(path.join(root, 'defs-both-'));
    const store = new StateStore(dir, readSettings({}), () => undefined);
    const first = ViewState.load(store, 'a.py');
    const second = ViewState.load(store, 'a.py');
    first.recordDefinitions([codes(1)]);
    second.recordDefinitions([codes(2)]);
    first.save();
    second.save();
    store.flush();
    const after = ViewState.load(store, 'a.py');
    expect(after.definitionShown(codes(1))).toBe(true);
    expect(after.definitionShown(codes(2))).toBe(true);
  });

  it('saves the same text whether or not the run asked the view questions first', () => {
    const lid = (i: number) => lidToString((1 << 30) | i);
    // Each run: what it asks before recording, what it records; each on a view saved by the seed.
    const window = [lid(1), lid(2), lid(3)];
    const seeds: Array<(view: ViewState, store: StateStore) => void> = [
      (view) => view.recordWindow({ start: 1, end: 3 }, window, null),
      (view) => {
        view.record(4, [lid(4)], 'hit');
        view.recordDefinitions([codes(9)]);
      },
      (view) => {
        view.recordWindow({ start: 1, end: 3 }, window, null);
        view.record(2, [lid(2)], 'hit');
      },
      // A view saved by an rt that kept no hits nor definitions.
      (_view, store) =>
        store.save('view', 'a.txt', {
          format: 'rt-view',
          version: 1,
          path: 'a.txt',
          touched: 0,
          window: null,
          last: { start: 1, end: 3, startLid: lid(1), endLid: lid(3) },
          shown: window.map((l, i) => [i + 1, [l]]),
          seen: window,
        } as StateDoc),
    ];
    const runs: Array<(view: ViewState) => void> = [
      (view) => view.record(5, [lid(5)], 'edit'),
      (view) => view.record(2, [lid(2)], 'hit'),
      (view) => view.recordDefinitions([codes(1, 2)]),
      (view) => view.recordWindow({ start: 2, end: 2 }, [lid(2)], 7),
      (view) => view.recordWindow({ start: 1, end: 3 }, window, null),
    ];
    const questions = (view: ViewState) => {
      view.definitionShown(codes(1));
      view.shownWhole(lid(1));
      view.wasSeen(lid(2));
      view.shownAt(3);
    };
    for (const [s, seed] of seeds.entries())
      for (const [r, run] of runs.entries()) {
        const texts = [false, true].map((asked) => {
          const dir = fs.mkdtempSync(path.join(root, 'asked-'));
          const store = new StateStore(dir, readSettings({}), () => undefined);
          const first = ViewState.load(store, 'a.txt');
          seed(first, store);
          first.save();
          store.flush();
          const view = ViewState.load(store, 'a.txt');
          if (asked) questions(view);
          run(view);
          view.save();
          store.flush();
          return packText(dir, 'view:a.txt')!.replace(/"touched":\d+/, '');
        });
        expect(texts[1], `seed ${s}, run ${r}`).toBe(texts[0]);
      }
  });

  it('keeps what another process saved between this one loading the view and saving it', () => {
    const dir = fs.mkdtempSync(path.join(root, 'two-processes-'));
    const stores = [0, 1].map(() => new StateStore(dir, readSettings({}), () => undefined));
    const seed = ViewState.load(stores[0]!, 'a.txt');
    seed.record(1, ['aaaaa'], 'window');
    seed.save();
    stores[0]!.flush();
    const ours = ViewState.load(stores[0]!, 'a.txt');
    const theirs = ViewState.load(stores[1]!, 'a.txt');
    theirs.record(7, ['bbbbb'], 'hit');
    theirs.save();
    stores[1]!.flush();
    ours.record(9, ['ccccc'], 'edit');
    ours.save();
    stores[0]!.flush();
    const after = ViewState.load(new StateStore(dir, readSettings({}), () => undefined), 'a.txt');
    expect(['aaaaa', 'bbbbb', 'ccccc'].map((lid) => after.wasSeen(lid))).toEqual([true, true, true]);
    expect([after.shownAt(1), after.shownAt(7), after.shownAt(9)]).toEqual([['aaaaa'], ['bbbbb'], ['ccccc']]);
  });
});

describe('ViewState: lines shown again', () => {
  const lid = (i: number) => lidToString((1 << 30) | i);

  /**
   * Whether recording `start`.. `lids` as `by` on a view holding `lines` (its first three hits at 4 and 26 and an
   * edit at 10, then `more` lines from 100 on) saves it: with the view's lists looked through as they are, and with
   * its map and sets made first (wasSeen makes them), which must agree.
   */
  const saves = (start: number, lids: readonly string[], by: 'hit' | 'search' | 'edit', more = 0): boolean => {
    const answers = [false, true].map((madeFirst) => {
      const dir = fs.mkdtempSync(path.join(root, 'again-'));
      const store = new StateStore(dir, readSettings({}), () => undefined);
      const first = ViewState.load(store, 'f.txt');
      first.record(4, [lid(1)], 'hit');
      first.record(26, [lid(2)], 'hit');
      first.record(10, [lid(3)], 'edit');
      if (more > 0)
        first.record(
          100,
          Array.from({ length: more }, (_, i) => lid(100 + i)),
          'hit',
        );
      first.save();
      store.flush();
      const seq = () => packEntries(dir).get('view:f.txt')!.row.seq;
      const before = seq();
      const view = ViewState.load(store, 'f.txt');
      if (madeFirst) view.wasSeen(lid(1));
      view.record(start, lids, by);
      view.save();
      store.flush();
      return seq() !== before;
    });
    expect(answers[0]).toBe(answers[1]);
    return answers[0]!;
  };

  it('a small view holding them already saves nothing; a line not shown so, or a hit shown otherwise, is saved', () => {
    expect(saves(4, [lid(1)], 'hit')).toBe(false);
    expect(saves(10, [lid(3)], 'hit')).toBe(false);
    expect(saves(10, [lid(3)], 'edit')).toBe(false);
    expect(saves(4, [lid(1)], 'search')).toBe(true);
    expect(saves(4, [lid(1)], 'edit')).toBe(true);
    expect(saves(5, [lid(1)], 'hit')).toBe(true);
    expect(saves(4, [lid(3)], 'hit')).toBe(true);
    expect(saves(4, [lid(9)], 'hit')).toBe(true);
    expect(saves(26, [lid(2), lid(1)], 'hit')).toBe(true);
    expect(saves(25, [lid(2)], 'hit')).toBe(true);
  });

  it('a view longer than is looked through as it is tells the same from its map and sets', () => {
    expect(saves(100, [lid(100), lid(101)], 'hit', 80)).toBe(false);
    expect(saves(4, [lid(1)], 'hit', 80)).toBe(false);
    expect(saves(101, [lid(100)], 'hit', 80)).toBe(true);
    expect(saves(4, [lid(1)], 'search', 80)).toBe(true);
  });
});
