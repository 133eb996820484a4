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

/**
 * What a write naming a definition (PATH:@NAME, @@ edit @NAME) does, for the help of edit, insert, delete and apply:
 * how it is found, and when it counts as shown.
 */
export const DEFINITION_TARGETS =
  'NAME is a definition as rt outline lists it: a function, class, method…, or @Class.method by its qualified ' +
  "name; in a Markdown file a heading's anchor, for its section (to its last line of text). Its range runs " +
  'from its first decorator, attribute, doc comment or export to its last line, exactly what rt open ' +
  'PATH:@NAME shows; an edit or insert leaves the lines around it, blank ones included. It is found in the ' +
  'file as the write reads it under its lock, so lines added or removed elsewhere since it was shown do not ' +
  'matter. It must have been shown: every line of it shown since it last changed (a window, grep -W, an ' +
  "edit's region; grep's hits and context lines are not enough), or the definition itself listed by rt " +
  'outline (one of several parts, as a getter and its setter, only by rt open) or opened by rt open ' +
  'PATH:@NAME (even past its first window) while its lines were the very lines it has now, the same LIDs in ' +
  'the same order: no line of it changed, added or removed since. Otherwise the write is refused (exit 3) ' +
  'with the rt open command that shows it, unless --force. With --indent auto, new lines take the ' +
  'indentation of its def line. No definition of that name is exit 1 with the closest names; several are ' +
  'exit 2, each listed with its lines and the rt open command for them. A definition that shares its first ' +
  'or last line with another, or in a file with a syntax error within or after it (up to the next ' +
  'definition), is refused (exit 2) with the command that writes its lines by LID.';

/** Exit statuses of a command that edits an existing file. */
export function writeExits(readsStdin: boolean): ReadonlyArray<readonly [number, string]> {
  return [
    [1, 'no definition has the NAME of PATH:@NAME: nothing was written'],
    [2, readsStdin ? 'bad usage, or no text on standard input' : 'bad usage'],
    [3, 'an anchor is stale or names lines never shown: nothing was written'],
    [4, 'the file is missing, binary, unwritable, outside the root, or RT_READONLY is set: nothing was written'],
    [5, 'the change would leave a syntax error the file did not have: nothing was written'],
  ];
}
