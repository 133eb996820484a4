// Builds the commander program from the command definitions: the definitions are the source
// of truth; commander only parses.

import { Argument, Command, CommanderError, Option } from 'commander';
import { RtError } from '../core/errors.js';
import type { Context } from './context.js';
import { GLOBAL_OPTIONS, type CommandSpec, type OptionSpec } from './spec.js';

declare const __RT_VERSION__: string | undefined;
export const VERSION = typeof __RT_VERSION__ === 'string' ? __RT_VERSION__ : '0.0.0-dev';

/**
 * Makes the program; `makeContext` is called with the global options once a command runs. With
 * `invoked` (the command named first on the command line), the other commands are only named
 * and described: nothing of them can run or be asked for, and defining them costs start-up.
 */
export function buildProgram(
  commands: readonly CommandSpec[],
  makeContext: (root: string | undefined, json: boolean, color: string | undefined) => Context,
  writeErr: (s: string) => void,
  writeOut: (s: string) => void,
  onStatus: (status: number) => void,
  invoked?: string,
): Command {
  const program = new Command('rt')
    .description('read, search and edit text files by persistent line IDs (LIDs)')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeErr,
      writeOut,
      outputError: (message, write) => write(prefixLines(message)),
    });
  for (const option of GLOBAL_OPTIONS) program.addOption(toOption(option));

  for (const spec of commands) {
    const cmd = program.command(spec.name).description(spec.summary);
    if (invoked !== undefined && spec.name !== invoked) continue;
    for (const arg of spec.args) {
      const name = arg.variadic ? `${arg.name}...` : arg.name;
      const argument = new Argument(arg.required ? `<${name}>` : `[${name}]`, arg.summary);
      if (arg.choices) argument.choices(arg.choices);
      cmd.addArgument(argument);
    }
    for (const option of spec.options) cmd.addOption(toOption(option));
    cmd.helpOption('-h, --help', 'show help');
    if (spec.explainUnknownOption) explainUnknownOptions(cmd, spec.explainUnknownOption);
    cmd.addHelpText('after', () => helpAfter(spec));
    cmd.action(async (...params: unknown[]) => {
      const self = params[params.length - 1] as Command;
      const globals = self.optsWithGlobals<Record<string, string | boolean | undefined>>();
      const ctx = makeContext(globals.root as string | undefined, globals.json === true, globals.color as string | undefined);
      onStatus((await spec.run(ctx, self.args, self.opts())) ?? 0);
    });
  }
  return program;
}

/** Makes commander's message for an option `cmd` does not take say what `explain` says of it, when it says something. */
function explainUnknownOptions(cmd: Command, explain: (flag: string) => string | undefined): void {
  // (commander's own method, not in its typings: it reports an unknown option.)
  const parser = cmd as unknown as { unknownOption(flag: string): void };
  const report = parser.unknownOption.bind(cmd);
  parser.unknownOption = (flag) => {
    const why = explain(flag);
    if (why) cmd.error(`error: unknown option '${flag}' (${why})`, { code: 'commander.unknownOption' });
    report(flag);
  };
}

function toOption(spec: OptionSpec): Option {
  const flags = `${spec.short ? `-${spec.short}, ` : ''}--${spec.long}${spec.value ? ` <${spec.value}>` : ''}`;
  const option = new Option(flags, spec.summary);
  if (spec.choices) option.choices(spec.choices);
  if (spec.kind === 'list') option.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
  return option;
}

function helpAfter(spec: CommandSpec): string {
  const lines = ['', ...spec.description.flatMap((p) => [wrap(p, 80), '']), 'Examples:'];
  for (const ex of spec.examples) lines.push(`  ${ex.command}`, `      ${ex.explains}`);
  lines.push('', 'Exit status:');
  for (const [code, meaning] of spec.exits) lines.push(`  ${code}  ${meaning}`);
  return lines.join('\n');
}

/** Wraps a paragraph at `width` columns. */
function wrap(text: string, width: number): string {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  return out.join('\n');
}

/** Commander's messages, in rt's voice: every stderr line starts with `rt: `. */
function prefixLines(message: string): string {
  return message
    .replace(/^error: /, '')
    .replace(/\n?\(Did you mean ([^?]+)\?\)/, ' (did you mean $1?)')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => `rt: ${line}\n`)
    .join('');
}

/** Commander's own exits: help and version are success; anything else is bad usage. */
export function fromCommanderError(error: CommanderError): RtError | 'ok' {
  if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return 'ok';
  return new RtError('usage', error.message.replace(/^error: /, ''), [], { reported: true });
}
