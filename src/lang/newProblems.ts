// Which syntax errors an edit made (errors already in the file never block an edit).
// Pure: compares the errors of the old content with those of the new, through the edit's hunks.
//
// A new error is one that cannot be paired with an old one. An old error pairs with a new error
// of the same kind (`missing )`, `unexpected }`) at the line the edit moved it to; an old error
// inside a changed hunk pairs with one of its kind anywhere in that hunk's new lines. What is
// left after pairing is the edit's doing, with two exceptions for a file that was already
// broken, where a parser's recovery can report an old error differently after an edit far
// away: (1) as many errors of a kind as before means the error moved, none was made (SWE-agent's
// gate refused such moves, its issue #560); (2) an error whose place and surrounding construct
// lie wholly outside the changed lines is not the edit's.

import type { SyntaxProblem } from './problem.js';

/** Lines [oldStart, oldEnd) of the old content became lines [newStart, newEnd) of the new (1-based). */
export interface ChangedLines {
  readonly oldStart: number;
  readonly oldEnd: number;
  readonly newStart: number;
  readonly newEnd: number;
}

export function newProblems(
  before: readonly SyntaxProblem[],
  after: readonly SyntaxProblem[],
  hunks: readonly ChangedLines[],
): SyntaxProblem[] {
  if (after.length === 0) return [];
  if (before.length === 0) return [...after];
  const paired = new Set<SyntaxProblem>();
  const unpaired: SyntaxProblem[] = [];
  for (const problem of after) {
    const match = before.find((old) => !paired.has(old) && old.kind === problem.kind && samePlace(old, problem, hunks));
    if (match) paired.add(match);
    else unpaired.push(problem);
  }
  const count = (list: readonly SyntaxProblem[], kind: string): number => list.filter((p) => p.kind === kind).length;
  return unpaired.filter(
    (problem) => count(after, problem.kind) > count(before, problem.kind) && touchesEdit(problem, hunks),
  );
}

/** True when `old`, moved by the edit, is where `now` is: the same line, or both in one hunk. */
function samePlace(old: SyntaxProblem, now: SyntaxProblem, hunks: readonly ChangedLines[]): boolean {
  let shift = 0;
  for (const hunk of hunks) {
    if (old.line < hunk.oldStart) break;
    if (old.line < hunk.oldEnd) {
      return now.line >= hunk.newStart && now.line <= hunk.newEnd;
    }
    shift = hunk.newEnd - hunk.oldEnd;
  }
  return old.line + shift === now.line;
}

/** True when the error, or the construct around it, reaches a changed line (or the line next to one). */
function touchesEdit(problem: SyntaxProblem, hunks: readonly ChangedLines[]): boolean {
  const start = Math.min(problem.line, problem.contextStart);
  const end = Math.max(problem.endLine, problem.contextEnd);
  return hunks.some((hunk) => start <= hunk.newEnd && end >= hunk.newStart - 1);
}

/**
 * The one hunk between two texts: what lies between their longest common run of first lines
 * and of last lines. For a caller that does not know the edit's hunks.
 */
export function hunkBetween(before: string, after: string): ChangedLines[] {
  const a = before.split('\n');
  const b = after.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  if (head === a.length && head === b.length) return [];
  return [{ oldStart: head + 1, oldEnd: a.length - tail + 1, newStart: head + 1, newEnd: b.length - tail + 1 }];
}
