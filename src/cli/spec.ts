// The declarative shape of a command: everything help, the man page and the completions need,
// plus the function that runs it. Each command is defined once, in src/cli/commands/.

import type { Context } from './context.js';

export type Completion = 'file' | 'target' | 'dir' | 'none';

export interface ArgSpec {
  readonly name: string;
  readonly summary: string;
  readonly required: boolean;
  readonly variadic?: boolean;
  /** What shell completion offers for it. */
  readonly complete: Completion;
  /** Fixed values it takes (completed and listed in help). */
  readonly choices?: readonly string[];
}

export interface OptionSpec {
  /** Long name without dashes, e.g. "window". */
  readonly long: string;
  readonly short?: string;
  /** Placeholder of the value it takes (e.g. "N"); absent for a switch. */
  readonly value?: string;
  /** switch: no value; count: a whole number; text: one value; list: repeatable; choice: one of `choices`. */
  readonly kind: 'switch' | 'count' | 'text' | 'list' | 'choice';
  readonly choices?: readonly string[];
  readonly summary: string;
  /** Environment variable that sets the same thing. */
  readonly env?: string;
}

export interface Example {
  readonly command: string;
  readonly explains: string;
}

export type Args = readonly string[];
export type Options = Readonly<Record<string, string | boolean | number | string[] | undefined>>;

export interface CommandSpec {
  readonly name: string;
  readonly summary: string;
  /** Paragraphs for `rt help CMD` and the man page. */
  readonly description: readonly string[];
  readonly args: readonly ArgSpec[];
  readonly options: readonly OptionSpec[];
  readonly examples: readonly Example[];
  /** Exit statuses this command can end with, and what each means for it. */
  readonly exits: ReadonlyArray<readonly [number, string]>;
  readonly readsStdin: boolean;
  /** What to say of an option the command does not take (a habit from another tool), added to the parser's message; undefined: nothing. */
  readonly explainUnknownOption?: (flag: string) => string | undefined;
  /** Runs the command; returns its exit status when it is not 0 (1: nothing found). */
  run(ctx: Context, args: Args, options: Options): Promise<number | void> | number | void;
}

/** Options every command takes. */
export const GLOBAL_OPTIONS: readonly OptionSpec[] = [
  {
    long: 'root',
    value: 'DIR',
    kind: 'text',
    summary: 'use DIR as the root (default: nearest ancestor holding .git or .rt, else the working directory)',
    env: 'RT_ROOT',
  },
  {
    long: 'color',
    value: 'WHEN',
    kind: 'choice',
    choices: ['auto', 'always', 'never'],
    summary: 'colour the output: auto (only on a terminal, unless NO_COLOR or FORCE_COLOR say otherwise), always or never',
  },
  { long: 'json', kind: 'switch', summary: 'print one JSON document instead of text (errors too, as {"error": …})' },
];
