// The time a search may spend matching: 2 s, and 1 s more for every MiB of the files it reads.

import fs from 'node:fs';
import { RtError } from '../model/errors.js';
import type { Candidate } from './candidates.js';
import { LINEAR_LITERAL, type LineMatcher } from './match.js';
import { OutOfTime, stepsInTime } from './timeBudget.js';

/**
 * The time a search may take in a file, beyond the 2 s of the whole search (MATCH_BASE_MS): 1 s
 * for every MiB of it (ms), room to read, index and print a big file's hits besides matching,
 * on a machine busy with other work.
 */
export function matchAllowanceMs(abs: string): number {
  let size = 0;
  try {
    size = fs.statSync(abs).size;
  } catch {
    // Gone: its step ends at once.
  }
  return Math.floor(size / (1024 * 1024)) * 1000;
}

/** The time a search's matching may take whatever its files (ms). */
export const MATCH_BASE_MS = 2000;

/**
 * Runs step(i) for each of `count` files (step i's is `fileOf(i)`), all within the time the
 * search may take (2 s and each file's allowance, see matchAllowanceMs and timeBudget.ts): a
 * search that takes longer ends, as bad input (exit 2): a regular expression that backtracks
 * without end, in one file or in many. `ripgrep` is the command that searches in linear time
 * instead. The steps must write nothing (see stepsInTime); `stopped` is told of a step stopped
 * (to be run again, from the folder rt started in). A `matcher` whose matching is linear
 * (LineMatcher.linear) runs them without a bound.
 */
export function matchInTime(
  count: number,
  step: (i: number) => void,
  fileOf: (i: number) => Candidate,
  ripgrep: string,
  matcher: Pick<LineMatcher, 'linear' | 'literal'>,
  stopped?: () => void,
): void {
  if (matcher.linear) {
    // Nothing to bound: node:vm, its script and its timer's thread are not worth starting.
    for (let i = 0; i < count; i++) step(i);
    return;
  }
  try {
    stepsInTime(count, step, (i) => matchAllowanceMs(fileOf(i).abs), MATCH_BASE_MS, stopped);
  } catch (error) {
    if (!(error instanceof OutOfTime)) throw error;
    const stopped = `matching took more than ${error.budgetMs / 1000} s (stopped in ${fileOf(error.step).display})`;
    const withRipgrep = `or search with ripgrep, which matches in linear time (install it if need be): ${ripgrep}`;
    // A literal that long is found in time of each line × its length (see LINEAR_LITERAL).
    if (matcher.literal)
      throw new RtError(
        'usage',
        `${stopped}: a literal of more than ${LINEAR_LITERAL} characters takes time in proportion to ` +
          "a line's length × its own",
        ['search for a shorter part of it (it then matches more lines; with -v, fewer)', withRipgrep],
      );
    throw new RtError(
      'usage',
      `${stopped}: the pattern backtracks too much ` +
        '(nested repetition such as (a+)+ takes exponential time on some lines)',
      ['search for a literal string with -F, or write the pattern without nested repetition', withRipgrep],
    );
  }
}
