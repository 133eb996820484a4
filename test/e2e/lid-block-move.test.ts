// A past bug: a block of repeated lines moved (by an editor, outside rt) next to an
// identical block. Every longest common subsequence reads it as a shorter run moved the other way,
// so the pairs they all make swapped the two blocks' LIDs. Such a change (content removed and
// added) now leaves the repeated lines between its ends unpaired.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, parseWindow, run, tempRepo } from '../e2e/harness.js';

afterAll(cleanup);

describe('a block moved past its twin', () => {
  it('leaves every LID on its own line, or refused', () => {
    const dir = tempRepo();
    const file = path.join(dir, 'f.txt');
    const old = ['start', 'a', 'b', 'c', 'a', 'b', 'c', 'a', 'b', 'c', 'end'];
    fs.writeFileSync(file, old.map((l) => `${l}\n`).join(''));
    const before = parseWindow(run(['open', 'f.txt'], dir));
    // Outside rt: the block `a b` of lines 5-6 cut and pasted after line 9 (past `c a b`).
    const now = old.slice();
    const block = now.splice(4, 2);
    now.splice(7, 0, ...block);
    // where each old line (1-based) is now
    const truth = new Map<number, number>([
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 4],
      [5, 8],
      [6, 9],
      [7, 5],
      [8, 6],
      [9, 7],
      [10, 10],
      [11, 11],
    ]);
    fs.writeFileSync(file, now.map((l) => `${l}\n`).join(''));
    const after = parseWindow(run(['open', 'f.txt'], dir));
    const wrong: string[] = [];
    for (const l of before.lines) {
      const at = after.lines.find((m) => m.lid === l.lid);
      if (at && at.n !== truth.get(l.n))
        wrong.push(`${l.lid} (${l.content}) shown at ${l.n}, now names line ${at.n}; its line is ${truth.get(l.n)}`);
    }
    expect(wrong).toEqual([]);
  });
});
