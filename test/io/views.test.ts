import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lidToString } from '../../src/core/lid.js';
import { StateStore } from '../../src/io/state.js';
import { ViewState } from '../../src/io/views.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-views-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('ViewState', () => {
  it('records a window of a million lines as it keeps it: its last 100,000 LIDs and 20,000 numbers, saved and loaded again', () => {
    const store = new StateStore(root, {}, () => undefined);
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
  });
});
