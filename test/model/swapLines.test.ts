// Many lines each replaced by one (rt replace, a patch of one-line edits) are applied in one pass,
// each new line ending as the file's lines mostly do or (ownEnding) as the line it replaces did
// (swapLines in src/model/patch/plan.ts, swapIndex in src/model/lineIndex.ts): the bytes, lines,
// LIDs and retired list must be exactly what one splice after the other gives (spliceEach), on
// files of repeated lines, mixed line endings, a BOM, no final newline, and a retired list with
// expired entries and a mark of dropped codes.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashLines } from '../../src/model/hash.js';
import { buildIndex, RETIRED_MIN_CAP, today, type LineIndex } from '../../src/model/lineIndex.js';
import { lineContent, splitLines } from '../../src/model/lines.js';
import { applyChanges, spliceEach, type PlannedChange } from '../../src/model/patch/plan.js';
import type { PatchHunk } from '../../src/model/patch/types.js';
import { runs } from '../support/runs.js';

const CONTENTS = ['', 'a', 'b', 'x = 1', '}', 'same', 'tail\r', 'é'];
const NEW = [...CONTENTS, 'new', 'other', 'z\r'];

const HUNK: PatchHunk = {
  kind: 'range',
  op: 'edit',
  line: 0,
  from: { kind: 'end', text: '' },
  to: { kind: 'end', text: '' },
  rows: [],
};

/** A file of `rows` (content and ending each), with a BOM or not, ending without a newline or not. */
function fileOf(rows: ReadonlyArray<[string, string]>, bom: boolean, bare: boolean): Buffer {
  const text = rows.map(([c, e], i) => c + (i === rows.length - 1 && bare ? '' : e)).join('');
  return Buffer.concat([Buffer.from(bom ? [0xef, 0xbb, 0xbf] : []), Buffer.from(text, 'utf8')]);
}

/** The index a file has after some history: retired LIDs, some expired, and maybe a mark of dropped codes. */
function withHistory(index: LineIndex, retired: readonly number[], marked: boolean): LineIndex {
  const day = today();
  const codes = retired.map((c) => (c % 1_600_000) + 1_000_000);
  const lids = Uint32Array.from(marked ? [0, ...codes] : codes);
  const days = Uint16Array.from(lids, (_, k) => (k % 3 === 0 ? day - 40 : day - 1));
  return { ...index, retired: { lids, days, lines: Uint32Array.from(lids, (_, k) => k + 1) } };
}

/** Compares the two; gives how many parts applyChanges made (one: in one pass; more: a splice after the other). */
function compare(bytes: Buffer, changes: PlannedChange[], history: { retired: number[]; marked: boolean }): number {
  const lines = splitLines(bytes);
  const index = withHistory(buildIndex(hashLines(lines)), history.retired, history.marked);
  const one = applyChanges(lines, index, changes);
  const each = spliceEach(lines, index, changes);
  expect(Buffer.concat([...one.parts])).toEqual(Buffer.concat([...each.parts]));
  expect([...one.lines.starts]).toEqual([...each.lines.starts]);
  expect([...one.lines.contentEnds]).toEqual([...each.lines.contentEnds]);
  expect(one.unchanged).toBe(each.unchanged);
  expect([...one.index.lids]).toEqual([...each.index.lids]);
  expect([...one.index.h1]).toEqual([...each.index.h1]);
  expect([...one.index.h2]).toEqual([...each.index.h2]);
  expect([...one.index.retired.lids]).toEqual([...each.index.retired.lids]);
  expect([...one.index.retired.days]).toEqual([...each.index.retired.days]);
  expect([...one.index.retired.lines]).toEqual([...each.index.retired.lines]);
  for (let i = 0; i < one.lines.count; i++) expect(one.content(i)).toEqual(each.content(i));
  expect(one.edits.spans()).toEqual(each.edits.spans());
  expect(one.lenient).toEqual(each.lenient);
  return one.parts.length;
}

describe('applyChanges of lines each replaced by rows, at once (rt replace)', () => {
  it('writes what one splice after the other writes; new rows take new LIDs, other lines keep theirs', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...CONTENTS), fc.constantFrom('\n', '\r\n')), {
          minLength: 1,
          maxLength: 60,
        }),
        fc.boolean(),
        fc.boolean(),
        fc.array(fc.tuple(fc.nat(), fc.array(fc.constantFrom(...NEW), { minLength: 1, maxLength: 3 }))),
        (rows, bom, bare, picks) => {
          const bytes = fileOf(rows, bom, bare);
          const lines = splitLines(bytes);
          // (One empty row with no line ending is an empty file: no line to replace.)
          fc.pre(lines.count > 0);
          const index = buildIndex(hashLines(lines));
          const chosen = new Map<number, string[]>();
          for (const [at, content] of picks) chosen.set(at % lines.count, content);
          const changes = [...chosen]
            .sort((a, b) => a[0] - b[0])
            .map(
              ([start, content]): PlannedChange => ({
                start,
                deleteCount: 1,
                insert: content.map((c) => Buffer.from(c, 'utf8')),
                hunk: HUNK,
                ownEnding: true,
              }),
            );
          const once = applyChanges(lines, index, changes, true);
          const each = spliceEach(lines, index, changes);
          expect(Buffer.concat([...once.parts])).toEqual(Buffer.concat([...each.parts]));
          expect([...once.lines.starts]).toEqual([...each.lines.starts]);
          expect([...once.lines.contentEnds]).toEqual([...each.lines.contentEnds]);
          expect(once.unchanged).toBe(each.unchanged);
          expect(once.edits.spans()).toEqual(each.edits.spans());
          const lids = once.index.lids;
          expect(lids.length).toBe(once.lines.count);
          expect(new Set(lids).size).toBe(lids.length);
          const retired = new Set(once.index.retired.lids);
          const old = new Set(index.lids);
          // Old line i is now at i + shift: the rows added above it.
          let shift = 0;
          for (let i = 0; i < lines.count; i++) {
            const c = changes.find((x) => x.start === i);
            if (!c) {
              expect(lids[i + shift]).toBe(index.lids[i]);
              continue;
            }
            const was = lineContent(lines, i);
            const keeps = c.insert[0]!.equals(was)
              ? 0
              : c.insert[c.insert.length - 1]!.equals(was)
                ? c.insert.length - 1
                : -1;
            c.insert.forEach((_, k) => {
              if (k === keeps) expect(lids[i + shift + k]).toBe(index.lids[i]);
              else expect(old.has(lids[i + shift + k]!)).toBe(false);
            });
            if (keeps === -1) expect(retired.has(index.lids[i]!)).toBe(true);
            shift += c.insert.length - 1;
          }
        },
      ),
      { numRuns: runs(400) },
    );
  });
});

describe('applyChanges of one-line replacements, in one pass', () => {
  it('gives what one splice after the other gives', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...CONTENTS), fc.constantFrom('\n', '\r\n')), {
          minLength: 3,
          maxLength: 40,
        }),
        fc.boolean(),
        fc.boolean(),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(...NEW), fc.boolean())),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.boolean(),
        (rows, bom, bare, picks, retired, marked) => {
          const bytes = fileOf(rows, bom, bare);
          const count = splitLines(bytes).count;
          // Lines to replace: ascending, none twice (the last too, which a file without a final
          // newline leaves to one splice after the other).
          const chosen = new Map<number, [string, boolean]>();
          for (const [at, content, own] of picks) chosen.set(at % count, [content, own]);
          const changes = [...chosen]
            .sort((a, b) => a[0] - b[0])
            .map(
              ([start, [content, ownEnding]]): PlannedChange => ({
                start,
                deleteCount: 1,
                insert: [Buffer.from(content, 'utf8')],
                hunk: HUNK,
                ...(ownEnding ? { ownEnding } : {}),
                // (A context hunk found leniently: its note must survive the one pass.)
                ...(start % 3 === 0 ? { lenient: { hunkLine: start, level: 1, shift: undefined } } : {}),
              }),
            );
          compare(bytes, changes, { retired, marked });
        },
      ),
      { numRuns: runs(300) },
    );
  });

  it('a long file of few distinct lines, most of them replaced (fresh keys looked up far around)', () => {
    const rows = Array.from({ length: 1200 }, (_, i): [string, string] => [i % 7 === 0 ? '}' : `v${i % 13}`, '\n']);
    const bytes = fileOf(rows, false, false);
    const changes = Array.from(
      { length: 800 },
      (_, k): PlannedChange => ({
        start: k + 300,
        deleteCount: 1,
        insert: [Buffer.from(k % 5 === 0 ? '}' : `w${k % 11}`)],
        hunk: HUNK,
      }),
    );
    expect(compare(bytes, changes, { retired: [1, 2, 3], marked: true })).toBe(1);
  });

  it('leaves it to one splice after the other where the retired list could reach its cap', () => {
    const rows = Array.from({ length: 20 }, (_, i): [string, string] => [`line ${i}`, '\n']);
    const bytes = fileOf(rows, false, false);
    const changes = [3, 5].map(
      (start): PlannedChange => ({ start, deleteCount: 1, insert: [Buffer.from('new')], hunk: HUNK }),
    );
    expect(
      compare(bytes, changes, { retired: Array.from({ length: RETIRED_MIN_CAP }, (_, k) => k), marked: false }),
    ).toBeGreaterThan(1);
  });
});
