// The index a big file's edit makes without holding the old one whole (src/model/streamedSplice.ts)
// is the one spliceIndex makes: the same LIDs where it fills them in (the new lines always), the
// same retired LIDs; it reads the old records only where it loads them and in passes over them;
// and it declines where a line may have moved within the region.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contextKeys } from '../../src/model/freshLids.js';
import { hashLines } from '../../src/model/hash.js';
import { buildIndex, freshLength, type LineIndex, spliceIndex } from '../../src/model/lineIndex.js';
import { candidate, hasLetter } from '../../src/model/lid.js';
import { splitLines } from '../../src/model/lines.js';
import { spliceStreamed, type StreamedIndex } from '../../src/model/streamedSplice.js';
import { runs } from '../support/runs.js';

const hashesOf = (contents: readonly string[]) =>
  hashLines(splitLines(Buffer.from(contents.map((c) => `${c}\n`).join(''))));

/** `index` as a big edit reads it: its arrays filled only where loaded, passed over `piece` lines at a time. */
function streamed(index: LineIndex, piece: number): StreamedIndex & { loaded: Uint8Array } {
  const n = index.lids.length;
  const loaded = new Uint8Array(n);
  const into = { h1: new Uint32Array(n), h2: new Uint32Array(n), lids: new Uint32Array(n) };
  return {
    ...into,
    retired: index.retired,
    loaded,
    load(from, to) {
      expect(0 <= from && from <= to && to <= n).toBe(true);
      for (let i = from; i < to; i++) {
        into.h1[i] = index.h1[i]!;
        into.h2[i] = index.h2[i]!;
        into.lids[i] = index.lids[i]!;
        loaded[i] = 1;
      }
    },
    pieces(visit) {
      for (let at = 0; at < n; at += piece) {
        const to = Math.min(n, at + piece);
        visit(at, index.h1.slice(at, to), index.h2.slice(at, to), index.lids.slice(at, to));
      }
    },
  };
}

// Few distinct contents: repeated lines, whose LIDs are keyed by their surroundings, are the rule.
const content = fc.constantFrom('', '}', '{', 'return x;', 'a', 'b', '  x = 1;', 'c', 'd', 'e', 'f');

describe('spliceStreamed', () => {
  it('gives the LIDs and retired LIDs spliceIndex gives, edit after edit, or declines a line moved', () => {
    fc.assert(
      fc.property(
        fc.array(content, { maxLength: 60 }),
        fc.array(fc.tuple(fc.array(content, { maxLength: 12 }), fc.nat(), fc.nat({ max: 12 })), {
          minLength: 1,
          maxLength: 5,
        }),
        fc.integer({ min: 1, max: 9 }),
        fc.nat({ max: 6 }),
        (initial, edits, piece, around) => {
          let lines = initial.slice();
          let index = buildIndex(hashesOf(lines));
          for (const [texts, at, del] of edits) {
            const start = lines.length ? at % (lines.length + 1) : 0;
            const deleteCount = Math.min(lines.length - start, del);
            const insert = texts.map((t) => Buffer.from(t));
            const next = [...lines.slice(0, start), ...texts, ...lines.slice(start + deleteCount)];
            const want = spliceIndex(index, hashesOf(next), start, deleteCount, 20_000);
            const old = streamed(index, piece);
            const fill = [Math.max(0, start - around), start + texts.length + around] as const;
            const got = spliceStreamed(old, { start, deleteCount, insert }, fill, 20_000);
            if (got) {
              expect(got.lids.length).toBe(next.length);
              expect(got.retired).toEqual(want.retired);
              const to = Math.min(next.length, fill[1]);
              for (let i = fill[0]; i < to; i++) {
                expect([got.h1[i], got.h2[i], got.lids[i]]).toEqual([want.h1[i], want.h2[i], want.lids[i]]);
              }
            } else {
              // Declined only where a content of the old lines replaced is among the new ones.
              const gone = new Set(lines.slice(start, start + deleteCount));
              expect(texts.some((t) => gone.has(t))).toBe(true);
            }
            index = want;
            lines = next;
          }
        },
      ),
      { numRuns: runs(400) },
    );
  });

  it('skips candidates in use, whole passes of them, as assignFresh does', () => {
    const lines = Array.from({ length: 50 }, (_, i) => `line ${i}`);
    const index = buildIndex(hashesOf(lines));
    const next = [...lines.slice(0, 20), 'new one', 'new two', ...lines.slice(21)];
    const hashes = hashesOf(next);
    const keys = contextKeys(hashes);
    const length = freshLength(index.retired, next.length);
    // The first nine candidates of the first new line and the first of the second are retired:
    // more than one pass of candidates, and a clash between the new lines.
    const taken: number[] = [];
    for (let k = 0; taken.length < 9; k++) {
      const code = candidate(keys.h1[20]!, keys.h2[20]!, k, length);
      if (hasLetter(code, length)) taken.push(code);
    }
    const second = [0, 1, 2]
      .map((k) => candidate(keys.h1[21]!, keys.h2[21]!, k, length))
      .find((c) => hasLetter(c, length))!;
    taken.push(second);
    const retired = {
      lids: Uint32Array.from(taken),
      days: new Uint16Array(taken.length).fill(20_000),
      lines: new Uint32Array(taken.length).fill(1),
    };
    const old = { ...index, retired };
    const want = spliceIndex(old, hashes, 20, 1, 20_000);
    const got = spliceStreamed(
      streamed(old, 7),
      { start: 20, deleteCount: 1, insert: [Buffer.from('new one'), Buffer.from('new two')] },
      [0, 51],
      20_000,
    )!;
    expect(Array.from(got.lids)).toEqual(Array.from(want.lids));
    expect(got.retired).toEqual(want.retired);
    expect(taken).not.toContain(got.lids[20]);
  });

  it('loads only the lines around the change of a file of unique lines', () => {
    const lines = Array.from({ length: 1000 }, (_, i) => `line ${i}`);
    const index = buildIndex(hashesOf(lines));
    const old = streamed(index, 100);
    const got = spliceStreamed(
      old,
      { start: 500, deleteCount: 1, insert: [Buffer.from('changed')] },
      [496, 505],
      20_000,
    )!;
    const want = spliceIndex(index, hashesOf([...lines.slice(0, 500), 'changed', ...lines.slice(501)]), 500, 1, 20_000);
    expect(got.lids[500]).toBe(want.lids[500]);
    expect(got.lids[0]).toBe(0);
    expect(old.loaded.reduce((a, b) => a + b, 0)).toBeLessThan(40);
  });
});
