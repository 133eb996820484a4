// The edit algebra (src/model/editSet.ts) against a simple model: a file is an array of lines,
// and an edit set is its edits made one by one with Array.prototype.splice, the last first (so
// that each edit's line numbers are still those of the file it was written against).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compose, EditSet, type LineEdit } from '../../src/model/editSet.js';
import { runs } from '../support/runs.js';

/** The model: `edits` (in file order, against `lines`) made one by one. */
function modelApply(lines: readonly string[], edits: readonly LineEdit<string>[]): string[] {
  const out = [...lines];
  for (const e of [...edits].reverse()) out.splice(e.start, e.deleteCount, ...e.insert);
  return out;
}

/** A file of `n` distinct old lines. */
const fileOf = (n: number) => Array.from({ length: n }, (_, i) => `old${i}`);

/** Sorted, non-overlapping edits of a file of `n` lines (inserts may share a place). */
function editsOn(n: number, tag: string): fc.Arbitrary<LineEdit<string>[]> {
  const step = fc.record({
    gap: fc.nat(3),
    deleteCount: fc.nat(3),
    insert: fc.array(fc.nat(99), { maxLength: 3 }),
  });
  return fc.array(step, { maxLength: 6 }).map((steps) => {
    const edits: LineEdit<string>[] = [];
    let at = 0;
    steps.forEach((s, k) => {
      const start = at + s.gap;
      if (start > n) return;
      const deleteCount = Math.min(s.deleteCount, n - start);
      edits.push({ start, deleteCount, insert: s.insert.map((x) => `${tag}${k}.${x}`) });
      at = start + deleteCount;
    });
    return edits;
  });
}

/** A file and an edit set of it. */
const fileAndEdits = fc.nat(12).chain((n) =>
  fc.tuple(
    fc.constant(fileOf(n)),
    editsOn(n, 'a').map((e) => EditSet.of(e)),
  ),
);

describe('EditSet (properties, against making the edits one by one)', () => {
  it('applies as its edits made one by one', () => {
    fc.assert(
      fc.property(fileAndEdits, ([file, a]) => {
        expect(a.apply(file)).toEqual(modelApply(file, a.edits));
      }),
      { numRuns: runs(2000) },
    );
  });

  it('composes: apply(compose(a, b)) = apply(b, apply(a))', () => {
    const arb = fileAndEdits.chain(([file, a]) =>
      fc.tuple(
        fc.constant(file),
        fc.constant(a),
        editsOn(modelApply(file, a.edits).length, 'b').map((e) => EditSet.of(e)),
      ),
    );
    fc.assert(
      fc.property(arb, ([file, a, b]) => {
        const ab = compose(a, b);
        expect(ab.apply(file)).toEqual(modelApply(modelApply(file, a.edits), b.edits));
        // What compose gives is itself a valid set: sorted, none overlapping.
        expect(() => EditSet.of(ab.edits)).not.toThrow();
      }),
      { numRuns: runs(2000) },
    );
  });

  it('inverts: apply(invert(a), apply(a, x)) = x', () => {
    fc.assert(
      fc.property(fileAndEdits, ([file, a]) => {
        const after = modelApply(file, a.edits);
        expect(a.invert(file).apply(after)).toEqual(file);
        expect(a.invert(file).invert(after).apply(file)).toEqual(after);
      }),
      { numRuns: runs(2000) },
    );
  });

  it('maps every line no edit replaced to where the model puts it, and spans say where each edit went', () => {
    fc.assert(
      fc.property(fileAndEdits, ([file, a]) => {
        const after = modelApply(file, a.edits);
        const replaced = new Set<number>();
        for (const e of a.edits) for (let i = e.start; i < e.start + e.deleteCount; i++) replaced.add(i);
        file.forEach((line, i) => {
          if (replaced.has(i)) return;
          expect(a.mapLine(i, 'before')).toBe(after.indexOf(line));
          expect(a.mapLine(i, 'after')).toBe(after.indexOf(line));
        });
        a.spans().forEach((span, k) => {
          const e = a.edits[k]!;
          expect(span).toMatchObject({ oldStart: e.start, oldCount: e.deleteCount, newCount: e.insert.length });
          expect(after.slice(span.newStart, span.newStart + span.newCount)).toEqual(e.insert);
          for (let i = e.start; i < e.start + e.deleteCount; i++) {
            expect(a.mapLine(i, 'before')).toBe(span.newStart);
            expect(a.mapLine(i, 'after')).toBe(span.newStart + span.newCount);
          }
        });
        expect(after.length).toBe(file.length + a.delta);
      }),
      { numRuns: runs(2000) },
    );
  });

  it('refuses edits that overlap or come out of order, whatever they are', () => {
    const edit = fc.record({ start: fc.nat(10), deleteCount: fc.nat(4), insert: fc.constant([] as string[]) });
    fc.assert(
      fc.property(edit, edit, (x, y) => {
        const ok = x.start + x.deleteCount <= y.start;
        if (ok) expect(EditSet.of([x, y]).size).toBe(2);
        else expect(() => EditSet.of([x, y])).toThrow(RangeError);
      }),
      { numRuns: runs(1000) },
    );
  });
});

describe('EditSet (edge cases)', () => {
  const ins = (start: number, ...insert: string[]): LineEdit<string> => ({ start, deleteCount: 0, insert });
  const del = (start: number, deleteCount: number, ...insert: string[]): LineEdit<string> => ({
    start,
    deleteCount,
    insert,
  });

  it.each<[string, string[], LineEdit<string>[], string[]]>([
    ['insert at 0', ['a', 'b'], [ins(0, 'x')], ['x', 'a', 'b']],
    ['insert at the end', ['a', 'b'], [ins(2, 'x')], ['a', 'b', 'x']],
    ['insert into an empty file', [], [ins(0, 'x', 'y')], ['x', 'y']],
    ['delete all', ['a', 'b', 'c'], [del(0, 3)], []],
    ['replace all', ['a', 'b'], [del(0, 2, 'x')], ['x']],
    ['two inserts at one place, in their order', ['a'], [ins(1, 'x'), ins(1, 'y')], ['a', 'x', 'y']],
    ['an insert before a range at its start', ['a', 'b'], [ins(0, 'x'), del(0, 1, 'A')], ['x', 'A', 'b']],
    ['no edits', ['a'], [], ['a']],
  ])('%s', (_, file, edits, want) => {
    const set = EditSet.of(edits);
    expect(set.apply(file)).toEqual(want);
    expect(set.invert(file).apply(want)).toEqual(file);
  });

  it('refuses a range followed by an insert inside it, and edits past the file', () => {
    expect(() => EditSet.of([del(0, 2), ins(1, 'x')])).toThrow(RangeError);
    expect(() => EditSet.of([del(-1, 1)])).toThrow(RangeError);
    expect(() => EditSet.of([del(0, 2)]).apply(['a'])).toThrow(RangeError);
  });

  it('maps a replaced line by its bias, and a line an insert stands before past the insert', () => {
    const set = EditSet.of([ins(0, 'x'), del(2, 2, 'p', 'q', 'r')]);
    // a b c d e → x a b p q r e
    expect(set.mapLine(0)).toBe(1);
    expect(set.mapLine(2, 'before')).toBe(3);
    expect(set.mapLine(3, 'before')).toBe(3);
    expect(set.mapLine(3, 'after')).toBe(6);
    expect(set.mapLine(4)).toBe(6);
    expect(set.mapLine(5)).toBe(7); // the end of the file
  });

  it('composes an edit with the one that undoes it into no edit', () => {
    const file = ['a', 'b', 'c'];
    const a = EditSet.of([del(1, 1, 'B', 'B2')]);
    expect(compose(a, a.invert(file)).apply(file)).toEqual(file);
    expect(compose(a, a.invert(file)).edits.every((e) => e.deleteCount === e.insert.length)).toBe(true);
  });
});
