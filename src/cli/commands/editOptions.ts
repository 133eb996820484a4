// Options shared by the commands that write files.

import type { OptionSpec } from '../spec.js';

export const FORCE_UNSHOWN = {
  long: 'force',
  kind: 'switch',
  summary: 'edit lines even if rt has not shown them since they last changed',
} as const satisfies OptionSpec;
export const FORCE_UNSHOWN_ANCHOR = {
  long: 'force',
  kind: 'switch',
  summary: 'insert beside the line AT even if rt has not shown it since it last changed',
} as const satisfies OptionSpec;
export const DIFF = {
  long: 'diff',
  kind: 'switch',
  summary: 'also print a unified diff of the change',
  env: 'RT_DIFF',
} as const satisfies OptionSpec;
export const DRY_RUN = {
  long: 'dry-run',
  kind: 'switch',
  summary: 'print the diff of the change and write nothing',
} as const satisfies OptionSpec;
export const INDENT = {
  long: 'indent',
  value: 'MODE',
  kind: 'choice',
  choices: ['auto', 'keep'],
  summary:
    "auto: shift the new lines as a block to the indentation around them, in the file's indent " +
    'character; keep (the default): take them byte for byte',
  env: 'RT_INDENT',
} as const satisfies OptionSpec;
export const NO_CHECK = {
  long: 'no-check',
  kind: 'switch',
  summary: 'write even if the change leaves a syntax error the file did not have',
  env: 'RT_CHECK=off',
} as const satisfies OptionSpec;

/** Exit statuses of a command that edits an existing file. */
export function writeExits(readsStdin: boolean): ReadonlyArray<readonly [number, string]> {
  return [
    [2, readsStdin ? 'bad usage, or no text on standard input' : 'bad usage'],
    [3, 'an anchor is stale or names lines never shown: nothing was written'],
    [4, 'the file is missing, binary, unwritable, outside the root, or RT_READONLY is set: nothing was written'],
    [5, 'the change would leave a syntax error the file did not have: nothing was written'],
  ];
}
