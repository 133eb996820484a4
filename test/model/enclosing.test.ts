// Which definition encloses a hit, for grep --function (-p) and --function-context (-W): the
// innermost one, from an outline's ranges; by git grep's rule (a line starting with a letter, _ or
// $) where there is no outline.

import { describe, expect, it } from 'vitest';
import { bodyOf, enclosingLines, functionLineAbove, functionLines, headingOf } from '../../src/model/enclosing.js';

// class Cart (listed at 4, from its doc comment at 2, to 20) holding add (decorated: 9, listed 10, to 14)
// and total (16-19); helper 22-24.
const cart = { line: 4, startLine: 2, endLine: 20, kind: 'class', name: 'Cart' };
const add = { line: 10, startLine: 9, endLine: 14, kind: 'method', name: 'Cart.add' };
const total = { line: 16, startLine: 16, endLine: 19, kind: 'method', name: 'Cart.total' };
const helper = { line: 22, startLine: 22, endLine: 24, kind: 'function', name: 'helper' };
const outline = [cart, add, total, helper];

describe('headingOf (-p, from an outline)', () => {
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
  ])('line %i: %o', (hit, want) => {
    expect(headingOf(outline, hit)).toBe(want);
  });
});

describe('bodyOf (-W, from an outline)', () => {
  it.each([
    [10, add], // a method's own line: that method
    [9, add], // its decorator
    [12, add],
    [2, cart], // the class's doc comment
    [15, cart],
    [22, helper],
    [21, undefined],
  ])('line %i: %o', (hit, want) => {
    expect(bodyOf(outline, hit)).toBe(want);
  });
});

describe("git grep's rule", () => {
  const contents = ['intro', '  indented', '', 'foo:', '\tbar', '_under', '$dollar', '9digit', '#hash', 'é'].map((l) =>
    Buffer.from(l),
  );
  const found = functionLines(contents);

  it('a function line starts with an ASCII letter, _ or $, and runs to the line before the next', () => {
    expect(found).toEqual([
      { line: 1, startLine: 1, endLine: 3 },
      { line: 4, startLine: 4, endLine: 5 },
      { line: 6, startLine: 6, endLine: 6 },
      { line: 7, startLine: 7, endLine: 10 },
    ]);
  });

  it('-p takes the nearest function line strictly above the hit, even for a hit on a function line', () => {
    expect(functionLineAbove(found, 5)?.line).toBe(4);
    expect(functionLineAbove(found, 4)?.line).toBe(1);
    expect(functionLineAbove(found, 1)).toBeUndefined();
  });

  it('-W takes the function the hit is in, from its own line', () => {
    expect(bodyOf(found, 4)).toEqual({ line: 4, startLine: 4, endLine: 5 });
    expect(bodyOf(found, 10)).toEqual({ line: 7, startLine: 7, endLine: 10 });
  });

  it('an empty file, or lines that all start otherwise, have none', () => {
    expect(functionLines([])).toEqual([]);
    expect(functionLines([Buffer.from(' a'), Buffer.from('1')])).toEqual([]);
  });
});

describe('enclosingLines', () => {
  it('-p: one listed line per definition, however many hits it holds (0-based)', () => {
    const { spans, listed } = enclosingLines(outline, 'outline', [10, 11, 16, 20], false);
    expect(spans).toEqual([
      [9, 10],
      [9, 10],
      [15, 16],
    ]);
    expect([...listed.keys()].sort((a, b) => a - b)).toEqual([9, 15]);
    expect(listed.get(9)).toBe(add);
  });

  it('-W: the whole range of each, from its first decorator or doc comment', () => {
    const { spans, listed } = enclosingLines(outline, 'outline', [9, 22], true);
    expect(spans).toEqual([
      [8, 14],
      [21, 24],
    ]);
    expect([...listed.keys()]).toEqual([9, 21]);
  });

  it("by git grep's rule, -p takes the line above even across a function's end", () => {
    const found = functionLines(['a', ' x', 'b', ' y'].map((l) => Buffer.from(l)));
    expect(enclosingLines(found, 'heuristic', [2], false).spans).toEqual([[0, 1]]);
    expect(enclosingLines(found, 'outline', [2], false).spans).toEqual([]);
  });
});
