// A past bug: a single line moved by an outside writer, in a file whose repeated lines run
// for more than a thousand lines with no unique line, went to the line diff's path, whose pairs
// were undone only where one hunk could slide: in `a b a b …` a `b` moved up reads equally as
// every line between shifting the other way, and the LIDs slid to neighbours (state kept, exit
// 0, the wrong line edited). A change that removes and adds the same content (a move) now
// leaves every repeated line between its ends unpaired.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, expectRun, parseWindow, run, tempRepo } from '../e2e/harness.js';

afterAll(cleanup);

describe('one outside move in a long run of repeated lines', () => {
  it('leaves every LID on its own line, or refused', () => {
    const dir = tempRepo();
    const file = path.join(dir, 'f.txt');
    const lines = ['HEAD', ...Array.from({ length: 1200 }, (_, k) => (k % 2 ? 'b' : 'a')), 'TAIL'];
    fs.writeFileSync(file, lines.map((l) => `${l}\n`).join(''));
    const before = parseWindow(run(['open', 'f.txt:1-12'], dir));
    // Outside rt: line 1198 (an `a`) moved up to be line 6. Lines 6.. of before are now 7..
    const moved = lines.slice();
    const [x] = moved.splice(1197, 1);
    moved.splice(5, 0, x!);
    fs.writeFileSync(file, moved.map((l) => `${l}\n`).join(''));
    const after = parseWindow(run(['open', 'f.txt:1-13'], dir));
    const wrong: string[] = [];
    for (const l of before.lines) {
      const now = after.lines.find((m) => m.lid === l.lid);
      const truth = l.n >= 6 ? l.n + 1 : l.n;
      if (now && now.n !== truth)
        wrong.push(`${l.lid} shown at ${l.n}, now names line ${now.n} (its line is ${truth})`);
    }
    expect(wrong).toEqual([]);
  });

  it('an edit by the LID shown for line 8 changes that line (now line 9) or is refused', () => {
    const dir = tempRepo();
    const file = path.join(dir, 'f.txt');
    const lines = ['HEAD', ...Array.from({ length: 1200 }, (_, k) => (k % 2 ? 'b' : 'a')), 'TAIL'];
    fs.writeFileSync(file, lines.map((l) => `${l}\n`).join(''));
    const lid = parseWindow(run(['open', 'f.txt:1-12'], dir)).lidAt(8);
    const moved = lines.slice();
    const [x] = moved.splice(1197, 1);
    moved.splice(5, 0, x!);
    fs.writeFileSync(file, moved.map((l) => `${l}\n`).join(''));
    const r = run(['edit', 'f.txt', lid], dir, { input: 'EDITED\n' });
    if (r.status === 0) {
      const now = fs.readFileSync(file, 'utf8').split('\n');
      expect(now.indexOf('EDITED') + 1, r.text).toBe(9);
    } else expectRun(r, { status: 3, stdout: '' });
  });
});
