// LIDs under heavy churn (a past bug of the speed work): a file rewritten many
// times over retires more LIDs than its retired list keeps; those its cap drops must still never
// be handed to other content, and grep's LIDs from the saved index stay open's.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { age, cleanup, parseWindow, run, tempDir, write } from './harness.js';

afterAll(cleanup);

/** 2,000 lines, every one different in the two versions, each holding its own number: the same size. */
function version(odd: boolean, n = 2000): string {
  let s = '';
  for (let i = 1; i <= n; i++) s += `${(i % 2 === 1) === odd ? 'needle' : 'other_'}${String(i).padStart(8, '0')}\n`;
  return s;
}

describe('LIDs under churn', () => {
  // Every rewrite retires all 2,000 LIDs; the retired list keeps 65,536 (RETIRED_MIN_CAP). Before
  // the list marked what its cap dropped, fresh LIDs were drawn again from codes shown for other
  // content at rewrite 35 ("retired LIDs are not reused for other content"); an agent
  // holding one, still seen in its view, would have edited the wrong line.
  it('an LID shown for one content never later names another, however often the file is rewritten', () => {
    const dir = tempDir();
    write(dir, '.rt/.keep', '');
    const file = path.join(dir, 'f.txt');
    const a = version(true);
    const b = version(false);
    const shownFor = new Map<string, string>();
    const reused: string[] = [];
    for (let k = 0; k < 40 && reused.length === 0; k++) {
      fs.writeFileSync(file, k % 2 ? b : a);
      const r = run(['open', 'f.txt', '--window', '2000'], dir);
      expect(r.status, r.text).toBe(0);
      for (const { n, lid, content } of parseWindow(r).lines) {
        const before = shownFor.get(lid);
        if (before !== undefined && before !== content)
          reused.push(`rewrite ${k}: ${lid} shown for "${before}", now names line ${n} "${content}"`);
        shownFor.set(lid, content);
      }
    }
    expect(reused.slice(0, 5)).toEqual([]);
  }, 300_000);

  // Guard (holds): a hit printed from the saved index after an outside rewrite that keeps the
  // size and puts the mtime back (as touch -d, cp -p or tar do) shows the new content with the
  // LID rt open gives it.
  it('grep after a same-size rewrite with the old mtime prints what rt open shows', () => {
    const dir = tempDir();
    write(dir, '.rt/.keep', '');
    const file = write(dir, 'f.txt', version(true, 50));
    age(file);
    run(['open', 'f.txt'], dir);
    const { mtime } = fs.statSync(file);
    fs.writeFileSync(file, version(false, 50));
    fs.utimesSync(file, mtime, mtime);
    const g = run(['grep', '-F', 'needle'], dir);
    expect(g.status, g.text).toBe(0);
    const open = parseWindow(run(['open', 'f.txt', '--window', '50'], dir));
    const hits = g.stdout
      .trim()
      .split('\n')
      .map((l) => /^f\.txt:(\d+):(\w+)\|(.*)$/.exec(l)!);
    for (const [, n, lid, content] of hits)
      expect({ lid, content }).toEqual({ lid: open.lidAt(Number(n)), content: open.lines[Number(n) - 1]!.content });
    expect(hits.map((h) => h[3])).toEqual(
      version(false, 50)
        .split('\n')
        .filter((l) => l.startsWith('needle')),
    );
  });
});
