// Builds the commander program from the command definitions: the definitions are the source
// of truth; commander only parses.

import { Argument, Command, CommanderError, Option } from 'commander';
import { closest } from '../model/editDistance.js';
import { printable, RtError } from '../model/errors.js';
import { AGENT_GUIDE } from '../docs/agents.js';
import { helpDocument } from '../render/help.js';
import type { ColorChoice } from '../render/style.js';
import type { Context } from './context.js';
import { optionKey, parseOptions, type GivenOptions } from './options.js';
import { runCommand } from './runCommand.js';
import {
  GLOBAL_OPTION_TABLE,
  GLOBAL_OPTIONS,
  HELP_COMMAND,
  type CommandDoc,
  type CommandSpec,
  type OptionSpec,
} from './spec.js';

declare const __RT_VERSION__: string | undefined;
export const VERSION = typeof __RT_VERSION__ === 'string' ? __RT_VERSION__ : '0.0.0-dev';

/** What the program is given: where its output goes, and how a command that runs gets its Context. */
export interface ProgramIo {
  /** Called with the global options once a command runs. */
  readonly makeContext: (root: string | undefined, json: boolean, color: ColorChoice | undefined) => Context;
  readonly writeErr: (s: string) => void;
  readonly writeOut: (s: string) => void;
  readonly onStatus: (status: number) => void;
  /**
   * The command named first on the command line: the other commands are then only named and
   * described (nothing of them can run or be asked for, and defining them costs start-up).
   */
  readonly invoked?: string | undefined;
  /**
   * Where commander's error messages go, in rt's voice, before it throws: the caller prints
   * them, or a better one (see CommandSpec.checkOperands). Default: writeErr.
   */
  readonly writeError?: (s: string) => void;
  /** --json: help and --version print JSON documents (see HELP_COMMAND). */
  readonly json?: boolean;
}

/** Makes the program from the command definitions, `rt help` included (HELP_COMMAND). */
export function buildProgram(commands: readonly CommandSpec[], io: ProgramIo): Command {
  const { makeContext, writeErr, writeOut, onStatus, invoked, json = false } = io;
  const writeError = io.writeError ?? writeErr;
  const program = new Command('rt')
    .description('read, search and edit text files by persistent line IDs (LIDs)')
    .version(json ? JSON.stringify({ version: VERSION }) : VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .helpCommand(false)
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeErr,
      writeOut,
      outputError: (message) => writeError(prefixLines(message)),
    });
  // Inherited by every command defined after it.
  if (json) {
    const all = [...commands, HELP_COMMAND];
    program.configureHelp({
      formatHelp: (cmd) => {
        const described = cmd === program ? all : all.filter((c) => c.name === cmd.name());
        return `${JSON.stringify(helpDocument(VERSION, GLOBAL_OPTIONS, described))}\n`;
      },
    });
  }
  for (const option of GLOBAL_OPTIONS) program.addOption(toOption(option));

  for (const spec of commands) {
    const cmd = program.command(spec.name).description(spec.summary);
    if (invoked !== undefined && spec.name !== invoked) continue;
    define(cmd, spec, json);
    cmd.action(async (...params: unknown[]) => {
      const self = params[params.length - 1] as Command;
      const globals = parseOptions(GLOBAL_OPTION_TABLE, self.optsWithGlobals());
      const ctx = makeContext(globals.root, globals.json, globals.color);
      onStatus(await runCommand(spec, ctx, self.args, self.opts()));
    });
  }

  const help = program.command(HELP_COMMAND.name).description(HELP_COMMAND.summary);
  if (invoked === undefined) {
    define(help, HELP_COMMAND, json);
    help.action((topic: string | undefined) => {
      if (topic === undefined) return program.outputHelp();
      if (topic === 'agents')
        return writeOut(json ? `${JSON.stringify({ command: 'help', topic, guide: AGENT_GUIDE })}\n` : AGENT_GUIDE);
      const described = program.commands.find((c) => c.name() === topic);
      if (!described) throw unknownTopic(topic, commands);
      return described.outputHelp();
    });
  }
  return program;
}

/** Gives `cmd` the arguments, options and help text of its definition. */
function define(cmd: Command, spec: CommandDoc, json: boolean): void {
  for (const arg of spec.args) {
    const name = arg.variadic ? `${arg.name}...` : arg.name;
    const argument = new Argument(arg.required ? `<${name}>` : `[${name}]`, arg.summary);
    if (arg.choices) argument.choices(arg.choices);
    cmd.addArgument(argument);
  }
  for (const option of spec.options) cmd.addOption(toOption(option));
  cmd.helpOption('-h, --help', 'show help');
  if (spec.explainUnknownOption) explainUnknownOptions(cmd, spec.explainUnknownOption);
  if (!json) cmd.addHelpText('after', () => helpAfter(spec));
}

function unknownTopic(topic: string, commands: readonly CommandSpec[]): RtError {
  const names = [...commands.map((c) => c.name), HELP_COMMAND.name];
  const near = closest(topic, [...names, 'agents']);
  // Escaped: a newline in the name must not end the `rt: ` line.
  return new RtError('usage', `unknown command '${printable(topic)}'${near ? ` (did you mean ${near}?)` : ''}`, [
    `the commands are: ${names.join(', ')}; rt help agents prints the guide for agents`,
  ]);
}

/**
 * Makes commander's message for an option `cmd` does not take say what `explain` says of it, when it says something.
 */
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

/** An option as commander's messages name it: -w, --window <N>. */
function flagsOf(spec: OptionSpec): string {
  return `${spec.short ? `-${spec.short}, ` : ''}--${spec.long}${spec.value ? ` <${spec.value}>` : ''}`;
}

function toOption(spec: OptionSpec): Option {
  const option = new Option(flagsOf(spec), spec.summary);
  if (spec.choices) option.choices(spec.choices);
  if (spec.kind === 'list')
    option.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
  return option;
}

function helpAfter(spec: CommandDoc): string {
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

/**
 * What commander refuses in operands and options given otherwise than on a command line (a tool call's): a value
 * outside an option's or an operand's choices, refused with commander's own error.
 */
export function refuseOutsideChoices(spec: CommandDoc, args: readonly string[], given: GivenOptions): void {
  for (const option of spec.options) {
    const value = given[optionKey(option.long)];
    if (option.choices && value !== undefined && !option.choices.includes(String(value)))
      throw invalid(`error: option '${flagsOf(option)}' argument '${value}' is invalid.`, option.choices);
  }
  spec.args.forEach((arg, i) => {
    const value = args[i];
    if (arg.choices && !arg.variadic && value !== undefined && !arg.choices.includes(value))
      throw invalid(`error: command-argument value '${value}' is invalid for argument '${arg.name}'.`, arg.choices);
  });
}

function invalid(message: string, choices: readonly string[]): CommanderError {
  return new CommanderError(1, 'commander.invalidArgument', `${message} Allowed choices are ${choices.join(', ')}.`);
}

/** Commander's messages, in rt's voice: every stderr line starts with `rt: `. */
export function prefixLines(message: string): string {
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
  if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help')
    return 'ok';
  return new RtError('usage', error.message.replace(/^error: /, ''), [], { reported: true });
}
