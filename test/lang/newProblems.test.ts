// Pairing the errors of the old and new content through the edit's hunks (newProblems.ts).

import { describe, expect, it } from 'vitest';
import { hunkBetween, newProblems, type ChangedLines } from '../../src/lang/newProblems.js';
import type { SyntaxProblem } from '../../src/lang/problem.js';

const at = (line: number, kind = 'missing )', context: [number, number] = [line, line]): SyntaxProblem => ({
  line,
  column: 1,
  endLine: line,
  message: kind,
  kind,
  contextStart: context[0],
  contextEnd: context[1],
});
const lines = (problems: SyntaxProblem[]): number[] => problems.map((p) => p.line);

describe('newProblems', () => {
  const replaceLine5: ChangedLines[] = [{ oldStart: 5, oldEnd: 6, newStart: 5, newEnd: 6 }];
  const insertTwoAt3: ChangedLines[] = [{ oldStart: 3, oldEnd: 3, newStart: 3, newEnd: 5 }];

  it.each<[string, SyntaxProblem[], SyntaxProblem[], ChangedLines[], number[]]>([
    ['no error after the edit', [at(2)], [], replaceLine5, []],
    ['a clean file broken', [], [at(5)], replaceLine5, [5]],
    ['the same error, same place', [at(9)], [at(9)], replaceLine5, []],
    ['the same error moved down by an insertion above', [at(9)], [at(11)], insertTwoAt3, []],
    ['an error of another kind in the inserted lines', [at(9)], [at(11), at(4, 'unexpected }')], insertTwoAt3, [4]],
    [
      'an error of another kind far from the edit in a broken file',
      [at(9)],
      [at(11, 'unexpected }')],
      insertTwoAt3,
      [],
    ],
    ['an error in the hunk paired with one from the replaced lines', [at(5)], [at(5)], replaceLine5, []],
    ['a second error of a kind, in the edit', [at(9)], [at(5), at(9)], replaceLine5, [5]],
    ['as many of a kind as before: moved, not made', [at(20)], [at(5)], replaceLine5, []],
    [
      'a new error far from the edit in a broken file, its context too',
      [at(20, 'unexpected }')],
      [at(20, 'unexpected }'), at(40, 'missing ;')],
      replaceLine5,
      [],
    ],
    [
      'a new error whose construct reaches the edit',
      [at(20, 'unexpected }')],
      [at(20, 'unexpected }'), at(40, 'missing }', [3, 40])],
      replaceLine5,
      [40],
    ],
  ])('%s', (_name, before, after, hunks, expected) => {
    expect(lines(newProblems(before, after, hunks))).toEqual(expected);
  });

  it('maps an old error through every hunk above it', () => {
    const hunks: ChangedLines[] = [
      { oldStart: 2, oldEnd: 2, newStart: 2, newEnd: 4 }, // two lines inserted: +2
      { oldStart: 6, oldEnd: 9, newStart: 8, newEnd: 9 }, // three lines become one: -2
    ];
    expect(lines(newProblems([at(12)], [at(12), at(8)], hunks))).toEqual([8]);
    expect(lines(newProblems([at(4)], [at(6), at(8)], hunks))).toEqual([8]);
  });
});

describe('hunkBetween', () => {
  it.each<[string, string, ChangedLines[]]>([
    ['a\nb\nc\n', 'a\nb\nc\n', []],
    ['a\nb\nc\n', 'a\nX\nc\n', [{ oldStart: 2, oldEnd: 3, newStart: 2, newEnd: 3 }]],
    ['a\nc\n', 'a\nb\nc\n', [{ oldStart: 2, oldEnd: 2, newStart: 2, newEnd: 3 }]],
    ['a\nb\nc\n', 'a\nc\n', [{ oldStart: 2, oldEnd: 3, newStart: 2, newEnd: 2 }]],
    ['', 'a\n', [{ oldStart: 1, oldEnd: 1, newStart: 1, newEnd: 2 }]],
  ])('%j → %j', (before, after, expected) => {
    expect(hunkBetween(before, after)).toEqual(expected);
  });
});
