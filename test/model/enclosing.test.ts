// Which definition encloses a hit, for grep --function (-p) and --function-context (-W): the
// innermost one of the outline; where none holds the hit (or there is no outline), by git grep's
// rule (a line starting with a letter, _ or $).

import { describe, expect, it } from 'vitest';
import { enclosingLines, functionLines, innermostAt, partLine } from '../../src/model/enclosing.js';

// class Cart (listed at 4, from its doc comment at 2, to 20) holding add (decorated: 9, listed 10, to 14)
// and total (16-19, a getter whose setter is listed at 18); helper 22-24.
const cart = { line: 4, startLine: 2, endLine: 20, kind: 'class', name: 'Cart' };
const add = { line: 10, startLine: 9, endLine: 14, kind: 'method', name: 'Cart.add' };
const total = { line: 16, startLine: 16, endLine: 19, kind: 'method', name: 'Cart.total', parts: [18] };
const helper = { line: 22, startLine: 22, endLine: 24, kind: 'function', name: 'helper' };
const outline = [helper, total, cart, add]; // in any order
const TOTAL = 26;
const lines = (n: number) => Array.from({ length: n }, () => Buffer.from('  x'));

describe('innermostAt', () => {
  it.each([
    [11, add],
    [14, add],
    [10, cart], // a method's own line: its class
    [9, cart], // its decorator: still in the class, not yet the method
    [15, cart],
    [17, total],
    [20, cart],
    [23, helper],
    [4, undefined], // the class's own line: nothing encloses it
    [2, undefined], // its doc comment, above its listed line
    [21, undefined],
    [25, undefined],
  ])('--function, line %i: %o', (n, want) => {
    expect(innermostAt(outline, TOTAL, true)[n]).toBe(want);
  });

  it.each([
    [10, add], // a method's own line: that method
    [9, add], // its decorator
    [12, add],
    [2, cart], // the class's doc comment
    [15, cart],
    [22, helper],
    [21, undefined],
  ])('--function-context, line %i: %o', (n, want) => {
    expect(innermostAt(outline, TOTAL, false)[n]).toBe(want);
  });
});

describe('partLine', () => {
  it("names the part of a joined definition that holds the line: a setter's body, not its getter", () => {
    expect(partLine(total, 17, true)).toBe(16);
    expect(partLine(total, 19, true)).toBe(18);
    expect(partLine(total, 18, true)).toBe(16); // the setter's own line: below the getter
    expect(partLine(total, 18, false)).toBe(18);
  });
});

describe("git grep's rule", () => {
  const contents = ['intro', '  indented', '', 'foo:', '\tbar', '_under', '$dollar', '9digit', '#hash', 'é'].map((l) =>
    Buffer.from(l),
  );

  it('a function line starts with an ASCII letter, _ or $, and runs to the line before the next', () => {
    expect(functionLines(contents)).toEqual([
      { line: 1, startLine: 1, endLine: 3 },
      { line: 4, startLine: 4, endLine: 5 },
      { line: 6, startLine: 6, endLine: 6 },
      { line: 7, startLine: 7, endLine: 10 },
    ]);
    expect(functionLines([])).toEqual([]);
    expect(functionLines([Buffer.from(' a'), Buffer.from('1')])).toEqual([]);
  });

  it('-p takes the nearest function line strictly above the hit, even for a hit on a function line', () => {
    const p = (hit: number) => [...enclosingLines(undefined, contents, [hit], false).listed.keys()];
    expect(p(4)).toEqual([3]); // line 5: foo
    expect(p(3)).toEqual([0]); // line 4 (foo itself): intro
    expect(p(0)).toEqual([]);
  });

  it('-W takes the function the hit is in, from its own line', () => {
    expect(enclosingLines(undefined, contents, [3], true).spans).toEqual([[3, 5]]);
    expect(enclosingLines(undefined, contents, [9], true).spans).toEqual([[6, 10]]);
  });
});

describe('enclosingLines', () => {
  it('-p: one listed line per definition, however many hits it holds (0-based)', () => {
    const { spans, listed } = enclosingLines(outline, lines(TOTAL), [10, 11, 16, 19], false);
    expect(spans).toEqual([
      [9, 10],
      [9, 10],
      [15, 16],
      [3, 4],
    ]);
    expect([...listed.keys()].sort((a, b) => a - b)).toEqual([3, 9, 15]);
    expect(listed.get(9)).toEqual({ definition: add, by: 'outline' });
  });

  it('-W: the whole range of each, from its first decorator or doc comment', () => {
    const { spans, listed } = enclosingLines(outline, lines(TOTAL), [8, 21], true);
    expect(spans).toEqual([
      [8, 14],
      [21, 24],
    ]);
    expect([...listed.keys()]).toEqual([9, 21]);
  });

  it("a hit no definition of the outline holds takes git grep's rule", () => {
    const contents = ['import os', '', 'def f():', '    pass', '', 'if __name__ == "__main__":', '    f()'].map((l) =>
      Buffer.from(l),
    );
    const f = { line: 3, startLine: 3, endLine: 4, kind: 'function', name: 'f' };
    const { listed } = enclosingLines([f], contents, [3, 6], false);
    expect([...listed]).toEqual([
      [2, { definition: f, by: 'outline' }],
      [5, { definition: { line: 6, startLine: 6, endLine: 7 }, by: 'heuristic' }],
    ]);
  });

  it('is linear in the lines: 50,000 flat definitions and a hit on each', () => {
    const n = 50_000;
    const flat = Array.from({ length: n }, (_, i) => ({ line: 2 * i + 1, startLine: 2 * i + 1, endLine: 2 * i + 2 }));
    const hits = Array.from({ length: n }, (_, i) => 2 * i + 1);
    expect(enclosingLines(flat, lines(2 * n), hits, false).listed.size).toBe(n);
  });
});
