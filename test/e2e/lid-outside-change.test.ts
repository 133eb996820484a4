// A past bug: an outside change removing a blank line here and adding one there (a
// formatter) retired the LID of every repeated line between the two: a move is now judged within
// the window of each change (bounded by unique lines), and the lines between keep their LIDs.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, parseWindow, run, tempRepo } from './harness.js';

afterAll(cleanup);

describe('a blank line removed at the top and one added at the bottom, outside rt', () => {
  it('leaves the LIDs of the unchanged lines in between (blank lines and braces too)', () => {
    const dir = tempRepo();
    const file = path.join(dir, 'code.js');
    const lines: string[] = [];
    for (let f = 0; f < 100; f++) lines.push(`function f${f}() {`, `  let x = ${f};`, '', '  return x;', '}', '');
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    const before = parseWindow(run(['open', 'code.js', '--window', '1000'], dir));
    expect(before.lines.length).toBe(600);

    // A formatter: drops the blank line inside f0 (line 3), adds one after `let x = 99;`.
    const after = lines.slice();
    after.splice(2, 1);
    after.splice(after.indexOf('  let x = 99;') + 1, 0, '');
    fs.writeFileSync(file, `${after.join('\n')}\n`);
    const now = parseWindow(run(['open', 'code.js', '--window', '1000'], dir));

    // Lines of f10..f89, far from both changes: shown at n, now at n - 1, content unchanged.
    const lost: string[] = [];
    for (const l of before.lines.filter((x) => x.n > 60 && x.n <= 540)) {
      const found = now.lines.find((m) => m.lid === l.lid);
      if (!found) lost.push(`${l.n}:${l.lid}|${l.content}`);
      else expect(found.n, `${l.lid}`).toBe(l.n - 1);
    }
    expect(lost.length, `LIDs of unchanged lines lost, e.g.\n${lost.slice(0, 5).join('\n')}`).toBe(0);
  });
});
