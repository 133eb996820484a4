// The index an edit makes in the arrays of the old one (src/model/spliceInPlace.ts) is the one
// spliceIndex makes in new arrays: the same LIDs, the same retired ones; what it gives of the old
// region is what the old index held there; and it declines (changing nothing) where a line may
// have moved within the region, or the arrays have no room to grow.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashLines } from '../../src/model/hash.js';
import { buildIndex, spliceIndex, type LineIndex } from '../../src/model/lineIndex.js';
import { splitLines } from '../../src/model/lines.js';
import { spliceInPlace } from '../../src/model/spliceInPlace.js';
import { runs } from '../support/runs.js';

const hashesOf = (contents: readonly string[]) =>
  hashLines(splitLines(Buffer.from(contents.map((c) => `${c}\n`).join(''))));

/** `index` copied into arrays with `room` lines of room after them in their buffer. */
function withRoom(index: LineIndex, room: number): LineIndex {
  const n = index.lids.length;
  const copy = (a: Uint32Array) => {
    const into = new Uint32Array(new ArrayBuffer(4 * (n + room)), 0, n);
    into.set(a);
    return into;
  };
  return { h1: copy(index.h1), h2: copy(index.h2), lids: copy(index.lids), retired: index.retired };
}

// Few distinct contents: repeated lines, whose LIDs are keyed by their surroundings, are the rule.
const content = fc.constantFrom('', '}', '{', 'return x;', 'a', 'b', '  x = 1;', 'c', 'd', 'e', 'f');

describe('spliceInPlace', () => {
  it('gives the LIDs and retired LIDs spliceIndex gives, edit after edit, or declines having changed nothing', () => {
    fc.assert(
      fc.property(
        fc.array(content, { maxLength: 40 }),
        fc.array(fc.tuple(fc.array(content, { maxLength: 12 }), fc.nat(), fc.nat({ max: 12 })), {
          minLength: 1,
          maxLength: 5,
        }),
        fc.integer({ min: 0, max: 8 }),
        (initial, edits, room) => {
          let lines = initial.slice();
          let index = buildIndex(hashesOf(lines));
          for (const [texts, at, del] of edits) {
            const start = lines.length ? at % (lines.length + 1) : 0;
            const deleteCount = Math.min(lines.length - start, del);
            const insert = texts.map((t) => Buffer.from(t));
            const next = [...lines.slice(0, start), ...texts, ...lines.slice(start + deleteCount)];
            const want = spliceIndex(index, hashesOf(next), start, deleteCount, 20_000);
            const old = withRoom(index, room);
            const was = { h1: old.h1.slice(), h2: old.h2.slice(), lids: old.lids.slice() };
            const got = spliceInPlace(old, room, { start, deleteCount, insert }, 20_000);
            if (!got) {
              // Declined: the index is as it was.
              expect([old.h1, old.h2, old.lids]).toEqual([was.h1, was.h2, was.lids]);
              expect(next.length - lines.length > room || deleteCount > 0).toBe(true);
            } else {
              expect(Array.from(got.after.lids)).toEqual(Array.from(want.lids));
              expect(Array.from(got.after.h1)).toEqual(Array.from(want.h1));
              expect(Array.from(got.after.h2)).toEqual(Array.from(want.h2));
              expect(got.after.retired).toEqual(want.retired);
              expect(got.after.lids.buffer).toBe(old.lids.buffer);
              const region = (a: Uint32Array) => Array.from(a.subarray(start, start + deleteCount));
              expect(got.before.lids.length).toBe(lines.length);
              expect(region(got.before.lids)).toEqual(region(was.lids));
              expect(region(got.before.h1)).toEqual(region(was.h1));
            }
            index = want;
            lines = next;
          }
        },
      ),
      { numRuns: runs(300) },
    );
  });

  it('edits a line of many in place, and declines a line moved within the region', () => {
    const lines = ['a', 'b', 'c', 'd', 'e'];
    const index = withRoom(buildIndex(hashesOf(lines)), 0);
    const moved = spliceInPlace(index, 0, { start: 1, deleteCount: 2, insert: [Buffer.from('c'), Buffer.from('b')] });
    expect(moved).toBeUndefined();
    const got = spliceInPlace(index, 0, { start: 2, deleteCount: 1, insert: [Buffer.from('C')] })!;
    const want = spliceIndex(buildIndex(hashesOf(lines)), hashesOf(['a', 'b', 'C', 'd', 'e']), 2, 1);
    expect(Array.from(got.after.lids)).toEqual(Array.from(want.lids));
    expect(got.after.lids).not.toBe(index.lids);
    expect(got.after.lids.buffer).toBe(index.lids.buffer);
  });
});
