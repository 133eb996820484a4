// A 1,000,000-line data file whose unique lines are ~1,000 lines apart, changed outside rt on its
// first and last lines only: every unchanged line is the same line. (A past bug: pairing
// once ran the whole longest-common-subsequence table on every stretch between unique lines,
// changed or not, 20 s for this file; now only the windows around the two changes are examined.
// Its time is measured by hand, not asserted here: the bench is where speed is judged.)

import { describe, expect, it } from 'vitest';
import { hashLines } from '../../src/model/hash.js';
import { splitLines } from '../../src/model/lines.js';
import { pairLines } from '../../src/model/pairing.js';

const hashesOf = (contents: readonly string[]) =>
  hashLines(splitLines(Buffer.from(contents.map((c) => `${c}\n`).join(''))));

describe('pairLines on a big file changed in two places', () => {
  it('pairs every unchanged line, examining only the windows around the changes', () => {
    const N = 1_000_000;
    const S = 1020; // a unique line every S lines: segments just under SEGMENT_CELLS
    const pool = ['    "enabled": true,', '    "count": 0,', '  },', '  {', ''];
    const a: string[] = [];
    for (let i = 0; i < N; i++)
      a.push(i % S === 0 ? `  // section ${i}` : pool[(i * 7 + Math.floor(i / S)) % pool.length]!);
    const b = a.slice();
    b[1] = 'CHANGED FIRST';
    b[N - 2] = 'CHANGED LAST';
    const ha = hashesOf(a);
    const hb = hashesOf(b);
    const match = pairLines(ha, hb);
    // Every unchanged line is the same line.
    let moved = 0;
    for (let j = 0; j < N; j++) if (j !== 1 && j !== N - 2 && match[j] !== j) moved++;
    expect(moved).toBe(0);
  }, 120_000);
});
