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
  /** The smallest whole number a count takes (default 0): what its tool's schema says too. */
  readonly least?: number;
  /** What a count counts, as its refusal names it (default "lines"). */
  readonly counting?: string;
  readonly summary: string;
  /** Environment variable that sets the same thing. */
  readonly env?: string;
}

export interface Example {
  readonly command: string;
  readonly explains: string;
}

export type Args = readonly string[];

/** An option's name in the parsed options, as commander names it: dry-run → dryRun, no-check → check. */
export type OptionKey<Long extends string> = Long extends `no-${infer Rest}` ? CamelCase<Rest> : CamelCase<Long>;
type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;

/**
 * What an option of `kind` holds once parsed: a switch true or false (a no-X switch false when given), a count
 * its number, a list its values (none: empty), a choice or a text its value; undefined when not given.
 */
type OptionValue<Kind, Choices> = Kind extends 'switch'
  ? boolean
  : Kind extends 'count'
    ? number | undefined
    : Kind extends 'list'
      ? readonly string[]
      : Kind extends 'choice'
        ? (Choices extends readonly (infer C)[] ? C : string) | undefined
        : string | undefined;

/** The parsed options of a command whose option table is `T`, typed from the table (declared `as const`). */
export type OptionsOf<T extends readonly OptionSpec[]> = {
  readonly [O in T[number] as OptionKey<O['long']>]: OptionValue<O['kind'], O['choices']>;
};

/** What help, the man page and the completions say of a command: its definition without its handler. */
export type CommandDoc = Omit<CommandSpec, 'run' | 'checkOperands'>;

/**
 * A command's definition, its handler's options typed from its option table: every table is written `as const`
 * (or made of constants that are), so the handler reads `options.ignoreCase` as a boolean, `options.max` as a
 * number or undefined, `options.glob` as strings. A table whose names the compiler cannot see (an OptionSpec
 * constant not declared `as const`) is refused, rather than typed as any option of any name.
 */
export function defineCommand<const T extends readonly OptionSpec[]>(
  spec: CommandSpec<T> & NamesKnown<T>,
): CommandSpec<T> {
  return spec;
}

type NamesKnown<T extends readonly OptionSpec[]> = string extends T[number]['long']
  ? { readonly options: 'an option table declared as const' }
  : unknown;

export interface CommandSpec<T extends readonly OptionSpec[] = readonly OptionSpec[]> {
  readonly name: string;
  readonly summary: string;
  /** Paragraphs for `rt help CMD` and the man page. */
  readonly description: readonly string[];
  /**
   * What rt mcp's tool of this command tells a model calling it, in the tool's words (fields, not
   * options): the essentials, within what clients keep of a description; the whole description
   * is the help tool's. Joined by spaces.
   */
  readonly tool?: readonly string[];
  readonly args: readonly ArgSpec[];
  readonly options: T;
  readonly examples: readonly Example[];
  /** Exit statuses this command can end with, and what each means for it. */
  readonly exits: ReadonlyArray<readonly [number, string]>;
  readonly readsStdin: boolean;
  /** True for a command that may write files (hidden by rt mcp under RT_READONLY=1). */
  readonly writes?: boolean;
  /**
   * False for a command that reads and writes no file of the root (completions): it does not first finish an
   * interrupted batch.
   */
  readonly touchesFiles?: boolean;
  /**
   * Checks the operands before the command runs, even when commander finds too few of them:
   * throws an RtError that says what was meant (a grep hit pasted whole as PATH). `switches`: the
   * long names of the switches given (--force), which the command meant keeps.
   */
  checkOperands?(cwd: string, args: Args, switches: readonly string[]): void;
  /**
   * What to say of an option the command does not take (a habit from another tool), added to the parser's message;
   * undefined: nothing.
   */
  readonly explainUnknownOption?: (flag: string) => string | undefined;
  /**
   * Runs the command; returns its exit status when it is not 0 (1: nothing found). (A method, as checkOperands is:
   * a command of any option table is then a CommandSpec.)
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: handlers that print and end return nothing
  run(ctx: Context, args: Args, options: OptionsOf<T>): Promise<number | void> | number | void;
}

/** Options every command takes, as a table their parsed type is inferred from. */
export const GLOBAL_OPTION_TABLE = [
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
    summary:
      'colour the output: auto (only on a terminal, unless NO_COLOR or FORCE_COLOR say otherwise), always or never',
  },
  { long: 'json', kind: 'switch', summary: 'print one JSON document instead of text (errors too, as {"error": …})' },
] as const satisfies readonly OptionSpec[];

/** Options every command takes. */
export const GLOBAL_OPTIONS: readonly OptionSpec[] = GLOBAL_OPTION_TABLE;

/**
 * `rt help`, which the program itself runs (it needs every other command's definition): defined
 * here so that its own help, --json, the man page and the completions say the same.
 */
export const HELP_COMMAND: CommandDoc = {
  name: 'help',
  summary: 'show help for a command or topic',
  description: [
    'Without TOPIC, prints the usage of rt: its global options and commands. With the name of a command, ' +
      "prints that command's help, as rt COMMAND --help does: its arguments, options, examples and exit " +
      "statuses. rt help agents prints the guide to paste into an agent's prompt; rt help help (or rt help " +
      '--help) prints this help.',
    'With --json, the same as one JSON document: {"command": "help", "version", "globalOptions": [OPTION…], ' +
      '"commands": [COMMAND…]}, holding every command (help too) or the one asked for, each as its definition ' +
      'gives it: {"name", "summary", "description": [PARAGRAPH…], "args": [{"name", "summary", "required", ' +
      '"variadic"?, "choices"?}…], "options": [OPTION…], "examples": [{"command", "explains"}…], "exits": ' +
      '[{"status", "meaning"}…], "readsStdin"}, where an OPTION is {"long", "short"?, "value"?, "kind", ' +
      '"choices"?, "summary", "env"?}. rt help agents --json prints {"command": "help", "topic": "agents", ' +
      '"guide"}; rt --version --json prints {"version"}.',
  ],
  args: [{ name: 'topic', summary: 'a command, help, or agents', required: false, complete: 'none' }],
  options: [],
  examples: [
    { command: 'rt help edit', explains: 'the help of rt edit' },
    { command: 'rt help agents', explains: "the guide to paste into an agent's prompt" },
    { command: 'rt help --json', explains: "every command's definition, as JSON" },
  ],
  exits: [
    [0, 'the help was printed'],
    [2, 'no such command or topic'],
  ],
  readsStdin: false,
};
