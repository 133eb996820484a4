import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchLines } from '../../src/model/diff.js';
import { hashLines } from '../../src/model/hash.js';
import {
  assignFresh,
  buildIndex,
  carryOver,
  reconcileIndex,
  retiredLine,
  spliceIndex,
  type LineIndex,
} from '../../src/model/lineIndex.js';
import { lidToString } from '../../src/model/lid.js';
import { splitLines } from '../../src/model/lines.js';
import { applyModelOp, modelLines, modelOp, type ModelLine } from '../support/lidModel.js';
import { runs } from '../support/runs.js';

const hashesOf = (contents: readonly string[]) =>
  hashLines(splitLines(Buffer.from(contents.map((c) => `${c}\n`).join(''))));
const lidsOf = (index: LineIndex) => Array.from(index.lids, lidToString);

// Few distinct contents, so duplicates (blank lines, braces) are the rule, not the exception.
const content = fc.constantFrom('', '}', '{', 'return x;', 'a', 'b', '  x = 1;', '\tfoo');
const op = modelOp(content);
const apply = applyModelOp;

/** Length of a longest common subsequence, by dynamic programming. */
function lcs(a: readonly string[], b: readonly string[]): number {
  let prev = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const row = [0];
    for (let j = 1; j <= b.length; j++)
      row[j] = a[i - 1] === b[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, row[j - 1]!);
    prev = row;
  }
  return prev[b.length]!;
}

describe('LID index properties', () => {
  it('keeps LIDs of unchanged lines, unique and bound to content, through any sequence of external edits', () => {
    fc.assert(
      fc.property(fc.array(content, { maxLength: 30 }), fc.array(op, { maxLength: 25 }), (initial, ops) => {
        let model: ModelLine[] = modelLines(initial);
        let index = buildIndex(hashesOf(model.map((l) => l.content)));
        // Every LID ever handed out, with the content it named: an LID never names other content.
        const named = new Map<string, string>();
        const lidOfId = new Map<number, string>();
        const record = () =>
          lidsOf(index).forEach((lid, i) => {
            const c = model[i]!.content;
            expect(named.get(lid) ?? c).toBe(c);
            named.set(lid, c);
          });
        record();
        model.forEach((l, i) => lidOfId.set(l.id, lidsOf(index)[i]!));

        for (const o of ops) {
          const before = model;
          model = apply(model, o);
          const oldLids = new Set(lidsOf(index));
          index = reconcileIndex(index, hashesOf(model.map((l) => l.content)));
          const lids = lidsOf(index);
          expect(new Set(lids).size).toBe(lids.length); // unique
          record(); // content-bound, never reused for other content

          // Every LID carried over names the very line it named: the diff's pairs that the bytes
          // could not tell from another pairing (a run of equal lines that lost or gained one)
          // are undone, so an old LID names its own line or no line.
          model.forEach((l, i) => {
            if (oldLids.has(lids[i]!)) expect(lidOfId.get(l.id)).toBe(lids[i]);
          });
          // A surviving line whose content is unique on both sides keeps exactly its own LID.
          model.forEach((l, i) => {
            const unique = (ls: ModelLine[]) => ls.filter((x) => x.content === l.content).length === 1;
            if (lidOfId.has(l.id) && unique(before) && unique(model)) expect(lids[i]).toBe(lidOfId.get(l.id));
          });
          // And the diff still pairs every line it can: no more lines lose their LIDs than those
          // an equal neighbour makes ambiguous.
          const survivors = model.filter((l) => lidOfId.has(l.id));
          const kept = lids.filter((lid) => oldLids.has(lid)).length;
          const clear = survivors.filter((l) =>
            [before, model].every((ls) => ls.filter((x) => x.content === l.content).length === 1),
          ).length;
          expect(kept).toBeGreaterThanOrEqual(clear);
          expect(kept).toBeLessThanOrEqual(survivors.length);
          lidOfId.clear();
          model.forEach((l, i) => lidOfId.set(l.id, lids[i]!));
        }
      }),
      { numRuns: process.env.RT_RUNS ? Number(process.env.RT_RUNS) : runs(300) },
    );
  });

  it('is deterministic: the same content with no state gets the same LIDs', () => {
    fc.assert(
      fc.property(fc.array(content, { maxLength: 60 }), fc.array(op, { maxLength: 10 }), (initial, ops) => {
        // History changes the LIDs of a file; a fresh start from the same content does not.
        let model: ModelLine[] = modelLines(initial);
        let index = buildIndex(hashesOf(model.map((l) => l.content)));
        for (const o of ops) {
          model = apply(model, o);
          index = reconcileIndex(index, hashesOf(model.map((l) => l.content)));
        }
        const contents = model.map((l) => l.content);
        expect(lidsOf(buildIndex(hashesOf(contents)))).toEqual(lidsOf(buildIndex(hashesOf([...contents]))));
        expect(index.lids.length).toBe(contents.length);
      }),
    );
  });

  it('gives a changed line a new LID', () => {
    const before = buildIndex(hashesOf(['a', 'b', 'c']));
    const after = reconcileIndex(before, hashesOf(['a', 'B', 'c']));
    expect(lidsOf(after)[0]).toBe(lidsOf(before)[0]);
    expect(lidsOf(after)[2]).toBe(lidsOf(before)[2]);
    expect(lidsOf(after)[1]).not.toBe(lidsOf(before)[1]);
    expect(after.retired.lids).toContain(before.lids[1]);
  });

  it("remembers where a retired LID's line was, to say what stands there now", () => {
    const before = buildIndex(hashesOf(['a', 'b', 'c', 'd', 'e', 'f']));
    const changed = reconcileIndex(before, hashesOf(['a', 'B', 'c', 'd', 'e', 'f']));
    expect(retiredLine(changed.retired, before.lids[1]!)).toBe(2);
    const deleted = reconcileIndex(changed, hashesOf(['a', 'B', 'e', 'f']));
    expect(retiredLine(deleted.retired, before.lids[2]!)).toBe(3);
    expect(retiredLine(deleted.retired, before.lids[3]!)).toBe(3);
    const atEnd = reconcileIndex(deleted, hashesOf(['a', 'B']));
    expect(retiredLine(atEnd.retired, before.lids[5]!)).toBe(2);
    expect(retiredLine(atEnd.retired, before.lids[0]!)).toBeUndefined();
  });

  it('does not hand a retired LID back, even to the same content', () => {
    const before = buildIndex(hashesOf(['a', 'x', 'c']));
    const gone = reconcileIndex(before, hashesOf(['a', 'c']));
    const back = reconcileIndex(gone, hashesOf(['a', 'x', 'c']));
    expect(lidsOf(back)[1]).not.toBe(lidsOf(before)[1]);
  });

  it(
    "keeps its LIDs fixed across versions (changing them would reshuffle every user's LIDs; those of repeated " +
      'lines changed once, to come from their surroundings)',
    () => {
      expect(lidsOf(buildIndex(hashesOf(['import fs from "node:fs";', '', '}', '', '}'])))).toMatchInlineSnapshot(`
      [
        "zc5p",
        "m7m0",
        "rkdh",
        "b58w",
        "rnxj",
      ]
    `);
    },
  );

  it('uses 4-character LIDs up to 100,000 lines, longer beyond', () => {
    const small = buildIndex(hashesOf(Array.from({ length: 1000 }, (_, i) => `line ${i}`)));
    expect(lidsOf(small).every((l) => /^[0-9a-z]{4}$/.test(l) && /[a-z]/.test(l))).toBe(true);
    const big = buildIndex(hashesOf(Array.from({ length: 100_001 }, (_, i) => `${i % 3 ? '' : '}'}`)));
    expect(lidsOf(big).every((l) => l.length === 5)).toBe(true);
    expect(new Set(lidsOf(big)).size).toBe(100_001);
  });
});

describe('spliceIndex', () => {
  it(
    'gives what carryOver gives for the same splice (the lines it gave the ' +
      'same content at the start and end of the region matched), history included',
    () => {
      fc.assert(
        fc.property(
          fc.array(content, { maxLength: 30 }),
          fc.array(fc.array(content, { maxLength: 4 }), { minLength: 1, maxLength: 4 }),
          fc.nat(),
          fc.nat(),
          (initial, edits, a, b) => {
            let index = buildIndex(hashesOf(initial));
            let lines = initial.slice();
            for (const insert of edits) {
              const start = lines.length ? a % (lines.length + 1) : 0;
              const deleteCount = Math.min(lines.length - start, b % 3);
              const next = [...lines.slice(0, start), ...insert, ...lines.slice(start + deleteCount)];
              const hashes = hashesOf(next);
              let head = 0;
              while (head < deleteCount && head < insert.length && lines[start + head] === insert[head]) head++;
              let tail = 0;
              while (
                tail < deleteCount - head &&
                tail < insert.length - head &&
                lines[start + deleteCount - 1 - tail] === insert[insert.length - 1 - tail]
              )
                tail++;
              const match = new Int32Array(next.length).map((_, j) =>
                j < start + head ? j : j < start + insert.length - tail ? -1 : j - insert.length + deleteCount,
              );
              // A line of the region whose content occurs once in the file before and after is the line moved.
              const once = (ls: string[], c: string) => ls.filter((x) => x === c).length === 1;
              let moved = false;
              for (let j = start + head; j < start + insert.length - tail; j++) {
                const c = next[j]!;
                const i = lines.indexOf(c, start + head);
                if (once(next, c) && once(lines, c) && i >= 0 && i < start + deleteCount - tail) {
                  match[j] = i;
                  moved = true;
                }
              }
              const expected = carryOver(index, hashes, match, 20_000);
              const got = spliceIndex(index, hashes, start, deleteCount, 20_000);
              expect(lidsOf(got)).toEqual(lidsOf(expected));
              expect(got.retired.lids).toEqual(expected.retired.lids);
              // Where a line gone is said to have been: the region's start for an edit; carryOver
              // places it after the last line kept before it, which a move may have taken elsewhere.
              if (!moved) expect(got.retired).toEqual(expected.retired);
              index = got;
              lines = next;
            }
          },
        ),
        { numRuns: runs(300) },
      );
    },
  );
});

describe('spliceIndex, lines replaced by the same content', () => {
  const lines = ['a', '}', 'b', '}', 'c'];
  it(
    'keeps the LIDs of the first and last lines of the region ' +
      'that the edit did not change, and retires only the others',
    () => {
      const index = buildIndex(hashesOf(lines));
      const next = ['a', '}', 'B', '}', 'c'];
      const got = spliceIndex(index, hashesOf(next), 1, 3, 20_000);
      const [old, now] = [lidsOf(index), lidsOf(got)];
      expect([now[0], now[1], now[3], now[4]]).toEqual([old[0], old[1], old[3], old[4]]);
      expect(now[2]).not.toBe(old[2]);
      expect(Array.from(got.retired.lids).map(lidToString)).toEqual([old[2]]);
      expect(Array.from(got.retired.lines)).toEqual([3]);
    },
  );

  it('keeps every LID when the region is given its own content again; retires nothing', () => {
    const index = buildIndex(hashesOf(lines));
    const got = spliceIndex(index, hashesOf(lines), 0, 5, 20_000);
    expect(lidsOf(got)).toEqual(lidsOf(index));
    expect(got.retired.lids.length).toBe(0);
  });

  it(
    'keeps the LID of a line moved within the region when its ' +
      'content occurs once; a repeated line moved takes a new one',
    () => {
      const index = buildIndex(hashesOf(lines));
      const next = ['a', 'b', '}', '}', 'c'];
      const got = spliceIndex(index, hashesOf(next), 1, 3, 20_000);
      const [old, now] = [lidsOf(index), lidsOf(got)];
      expect(now[0]).toBe(old[0]);
      expect(now[3]).toBe(old[3]);
      expect(now[1]).toBe(old[2]); // b, moved
      expect(now[2]).not.toBe(old[1]); // a `}` moved: which one the bytes cannot say
      expect(new Set(now).size).toBe(5);
    },
  );
});

describe('assignFresh', () => {
  it('gives the same LIDs scanning the old lines as with sets of them', () => {
    fc.assert(
      fc.property(
        fc.array(content, { maxLength: 40 }),
        fc.array(content, { minLength: 1, maxLength: 12 }),
        fc.nat(),
        (initial, added, at) => {
          // History first: a reconcile that retires some LIDs.
          const contents = initial.filter((_, i) => i % 3 !== 1);
          const old = reconcileIndex(buildIndex(hashesOf(initial)), hashesOf(contents), 20_000);
          const start = at % (contents.length + 1);
          const now = [...contents.slice(0, start), ...added, ...contents.slice(start)];
          const hashes = hashesOf(now);
          const fresh = added.map((_, i) => start + i);
          const scanned = new Uint32Array(now.length);
          const viaSets = new Uint32Array(now.length);
          assignFresh(old, hashes, scanned, fresh, Infinity);
          assignFresh(old, hashes, viaSets, fresh, 0);
          expect(Array.from(scanned)).toEqual(Array.from(viaSets));
        },
      ),
      { numRuns: runs(300) },
    );
  });
});

describe('matchLines', () => {
  it('finds a longest common subsequence of equal lines, in order', () => {
    fc.assert(
      fc.property(fc.array(content, { maxLength: 40 }), fc.array(content, { maxLength: 40 }), (a, b) => {
        const match = matchLines(hashesOf(a), hashesOf(b));
        let last = -1;
        let pairs = 0;
        match.forEach((i, j) => {
          if (i < 0) return;
          expect(i).toBeGreaterThan(last);
          expect(a[i]).toBe(b[j]);
          last = i;
          pairs++;
        });
        expect(pairs).toBe(lcs(a, b));
      }),
      { numRuns: runs(500) },
    );
  });

  it("pairs every unchanged line of a large file with scattered changes (beyond Myers' bound)", () => {
    const n = 60_000;
    const a = Array.from({ length: n }, (_, i) => (i % 5 === 0 ? '' : `line ${i}`));
    const b = a.slice();
    let changed = 0;
    for (let i = 7; i < n; i += 23) {
      b[i] = `changed ${i}`;
      changed++;
    }
    const match = matchLines(hashesOf(a), hashesOf(b));
    let pairs = 0;
    match.forEach((i, j) => {
      if (i >= 0) {
        expect(i).toBe(j);
        pairs++;
      }
    });
    expect(pairs).toBe(n - changed);
  });

  it('carries LIDs across a 1,000,000-line file with a few changes', () => {
    const n = 1_000_000;
    const a = Array.from({ length: n }, (_, i) => `row ${i % 1000} ${i}`);
    const b = a.slice();
    b.splice(500_000, 1, 'changed');
    b.splice(10, 2);
    b.splice(900_000, 0, 'new');
    const before = buildIndex(hashesOf(a));
    const after = reconcileIndex(before, hashesOf(b));
    const old = new Set(before.lids);
    expect(Array.from(after.lids).filter((l) => old.has(l)).length).toBe(n - 3);
  });
});

describe('the retired list beyond its cap', () => {
  it(
    'marks the length of the codes its cap drops, for as ' +
      'long as they would have lived; fresh LIDs are then longer',
    async () => {
      const { retire, freshLength, RETIRED_MIN_CAP, RETIRED_DAYS, NO_RETIRED } = await import(
        '../../src/model/lineIndex.js'
      );
      const code = (i: number) => (0xa0000 | i) >>> 0; // 4-character codes, each with a letter
      const gone = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ lid: code(from + i), line: 1 }));
      // Up to the cap: nothing dropped, no mark, fresh LIDs as long as the file's size says.
      let retired = retire(NO_RETIRED, gone(0, RETIRED_MIN_CAP), 100, 2000);
      expect(retired.lids.length).toBe(RETIRED_MIN_CAP);
      expect(freshLength(retired, 2000)).toBe(4);
      // Ten more, a day later: the ten oldest go, a mark of 4-character codes of their day comes.
      retired = retire(retired, gone(RETIRED_MIN_CAP, 10), 101, 2000);
      expect(retired.lids.length).toBe(RETIRED_MIN_CAP + 1);
      expect(retired.lids[0]! & 0x3fffffff).toBe(0);
      expect(retired.days[0]).toBe(100);
      expect(Array.from(retired.lids.subarray(1, 3))).toEqual([code(10), code(11)]);
      expect(freshLength(retired, 2000)).toBe(5);
      // More drops keep one mark; it lives as long as what it stands for: expired with them, lengths are as before.
      retired = retire(retired, gone(2 * RETIRED_MIN_CAP, 5), 102, 2000);
      expect(Array.from(retired.lids).filter((c) => (c & 0x3fffffff) === 0)).toHaveLength(1);
      expect(retired.days[0]).toBe(100);
      expect(freshLength(retire(retired, [], 100 + RETIRED_DAYS + 3, 2000), 2000)).toBe(4);
      // A file of 200,000 lines (5-character LIDs) whose cap dropped them gets 6; never more.
      const big = { lids: Uint32Array.of(((5 - 4) << 30) >>> 0), days: Uint16Array.of(100), lines: Uint32Array.of(0) };
      expect(freshLength(big, 200_000)).toBe(6);
      expect(freshLength({ ...big, lids: Uint32Array.of(((6 - 4) << 30) >>> 0) }, 200_000)).toBe(6);
    },
  );
});
