// A step's changed ranges (src/model/history/changes.ts): either side of an edit is the other
// with its ranges put back, byte for byte and LID for LID — for random files (CRLF, no final
// newline, a BOM, repeated lines) and random batches of edits.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAnchor, type AnchorWorld } from '../../../src/model/anchor.js';
import { hashLines } from '../../../src/model/hash.js';
import { swapHunks, swapLids, swapLines, hunksOf, type SwappedFile } from '../../../src/model/history/changes.js';
import { lidToString } from '../../../src/model/lid.js';
import { buildIndex, retiredLine } from '../../../src/model/lineIndex.js';
import { splitLines } from '../../../src/model/lines.js';
import { applyChanges, planHunks } from '../../../src/model/patch/plan.js';
import type { PatchHunk } from '../../../src/model/patch/types.js';
import { runs } from '../../support/runs.js';

const b = (s: string) => Buffer.from(s, 'latin1');

describe('hunksOf, swapHunks, swapLids', () => {
  it('turn either side of any batch of edits into the other, bytes and LIDs (property)', () => {
    const line = fc.constantFrom('}', '', 'a', 'b', '\tx', 'y\r');
    const file = fc.tuple(fc.array(line, { maxLength: 12 }), fc.constantFrom('\n', '\r\n'), fc.boolean(), fc.boolean());
    const op = fc.record({
      kind: fc.constantFrom('edit', 'delete', 'before', 'after', 'append'),
      at: fc.nat(8),
      len: fc.integer({ min: 1, max: 3 }),
      rows: fc.array(line, { minLength: 1, maxLength: 3 }),
    });
    fc.assert(
      fc.property(file, fc.array(op, { maxLength: 5 }), ([rows, eol, finalNewline, bom], ops) => {
        const text = (bom ? '\xef\xbb\xbf' : '') + (rows.length ? rows.join(eol) + (finalNewline ? eol : '') : '');
        const lines = splitLines(b(text));
        const index = buildIndex(hashLines(lines));
        const world: AnchorWorld = {
          display: 'f',
          total: lines.count,
          lineOf: (c) => index.lids.indexOf(c),
          lidCodeAt: (i) => index.lids[i]!,
          retiredLine: (c) => retiredLine(index.retired, c),
          shownAt: () => null,
          force: true,
        };
        const lid = (i: number) => lidToString(index.lids[i]!);
        const claimed = new Set<number>();
        const hunks: PatchHunk[] = [];
        for (const o of ops) {
          if (o.kind === 'append') {
            hunks.push({ kind: 'insert', line: 1, at: parseAnchor('$'), after: false, rows: o.rows.map(b) });
            continue;
          }
          if (lines.count === 0) continue;
          const from = o.at % lines.count;
          const range = o.kind === 'edit' || o.kind === 'delete';
          const to = range ? Math.min(lines.count, from + o.len) : from + 1;
          let free = true;
          for (let i = from; i < to; i++) if (claimed.has(i)) free = false;
          if (!free) continue;
          for (let i = from; i < to; i++) claimed.add(i);
          if (range)
            hunks.push({
              kind: 'range',
              op: o.kind as 'edit' | 'delete',
              line: 1,
              from: parseAnchor(lid(from)),
              to: parseAnchor(lid(to - 1)),
              rows: o.kind === 'edit' ? o.rows.map(b) : [],
            });
          else
            hunks.push({
              kind: 'insert',
              line: 1,
              at: parseAnchor(lid(from)),
              after: o.kind === 'after',
              rows: o.rows.map(b),
            });
        }
        const applied = applyChanges(
          lines,
          index,
          planHunks({ display: 'f', lines, index, world, wasSeen: undefined }, hunks),
        );
        const before = lines.bytes;
        const after = applied.lines.bytes;
        const changed = hunksOf(lines, applied.lines, applied.edits.spans());
        const beforeBytes = changed.map((h) => before.subarray(h.before.start, h.before.end));
        const afterBytes = changed.map((h) => after.subarray(h.after.start, h.after.end));
        expect(swapHunks(after, changed, 'after', beforeBytes).toString('latin1')).toBe(before.toString('latin1'));
        expect(swapHunks(before, changed, 'before', afterBytes).toString('latin1')).toBe(after.toString('latin1'));
        const beforeLids = changed.map((h) => index.lids.slice(h.before.from, h.before.to));
        const afterLids = changed.map((h) => applied.index.lids.slice(h.after.from, h.after.to));
        expect([...swapLids(applied.index.lids, changed, 'after', beforeLids)]).toEqual([...index.lids]);
        expect([...swapLids(index.lids, changed, 'before', afterLids)]).toEqual([...applied.index.lids]);
        // The lines and fingerprints found from the ranges alone are those of the whole file split anew.
        sameAsSplit(swapLines(applied.lines, hashLines(applied.lines), changed, 'after', beforeBytes), before);
        sameAsSplit(swapLines(lines, hashLines(lines), changed, 'before', afterBytes), after);
        // What a step keeps is the changed lines, not the file: no more than the changes and a line each side.
        const kept = changed.reduce((n, h) => n + (h.before.to - h.before.from) + (h.after.to - h.after.from), 0);
        const touched = applied.edits.spans().reduce((n, r) => n + r.oldCount + r.newCount + 4, 0);
        expect(kept).toBeLessThanOrEqual(touched);
      }),
      { numRuns: runs(1500) },
    );
  });
});

function sameAsSplit(swapped: SwappedFile | undefined, bytes: Buffer): void {
  expect(swapped).toBeDefined();
  const whole = splitLines(bytes);
  const hashes = hashLines(whole);
  expect(Buffer.concat(swapped!.parts).equals(bytes)).toBe(true);
  expect(swapped!.size).toBe(bytes.length);
  expect(swapped!.count).toBe(whole.count);
  expect([...swapped!.starts]).toEqual([...whole.starts]);
  expect([...swapped!.contentEnds]).toEqual([...whole.contentEnds]);
  expect([...swapped!.hashes.h1]).toEqual([...hashes.h1]);
  expect([...swapped!.hashes.h2]).toEqual([...hashes.h2]);
  for (let i = 0; i < whole.count; i++)
    expect(swapped!.content(i).equals(bytes.subarray(whole.starts[i]!, whole.contentEnds[i]!))).toBe(true);
}
