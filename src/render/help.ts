// The --json form of `rt help` (and of --help): the command definitions themselves, as the
// text help, the man page and the completions render them.

import type { CommandDoc, OptionSpec } from '../cli/spec.js';

/** One JSON document describing `commands` (and the options every command takes). */
export function helpDocument(
  version: string,
  globalOptions: readonly OptionSpec[],
  commands: readonly CommandDoc[],
): Record<string, unknown> {
  return {
    command: 'help',
    version,
    globalOptions: globalOptions.map(jsonOption),
    commands: commands.map(jsonCommand),
  };
}

function jsonCommand(c: CommandDoc): Record<string, unknown> {
  return {
    name: c.name,
    summary: c.summary,
    description: c.description,
    args: c.args.map((a) => ({
      name: a.name,
      summary: a.summary,
      required: a.required,
      ...(a.variadic ? { variadic: true } : {}),
      ...(a.choices ? { choices: a.choices } : {}),
    })),
    options: c.options.map(jsonOption),
    examples: c.examples.map((e) => ({ command: e.command, explains: e.explains })),
    exits: c.exits.map(([status, meaning]) => ({ status, meaning })),
    readsStdin: c.readsStdin,
  };
}

function jsonOption(o: OptionSpec): Record<string, unknown> {
  return {
    long: o.long,
    ...(o.short ? { short: o.short } : {}),
    ...(o.value ? { value: o.value } : {}),
    kind: o.kind,
    ...(o.choices ? { choices: o.choices } : {}),
    summary: o.summary,
    ...(o.env ? { env: o.env } : {}),
  };
}
