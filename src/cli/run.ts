// One run of rt: argv → definitions → handler, errors → exit status. The CLI's entry point
// (main.ts) runs it once with the process's streams; rt mcp runs a command once a tool call,
// in memory, from the call's operands and options (runTool).

import { CommanderError, type Command } from 'commander';
import { RtError } from '../model/errors.js';
import { COMMANDS } from './commands/index.js';
import { GLOBAL_OPTIONS, type CommandSpec, type OptionSpec } from './spec.js';
import { Context, type Sink, type Streams } from './context.js';
import { buildProgram, fromCommanderError, prefixLines, refuseOutsideChoices } from './program.js';
import { processStdin, type StdinSource } from '../io/stdin.js';
import { readSettings, type Settings } from '../settings/env.js';
import { switchesGiven, type GivenOptions } from './options.js';
import { runCommand } from './runCommand.js';

/**
 * Runs rt with `given` (the arguments, without node and script); returns the exit status. With
 * `jsonSink`, the run yields both its text (to `streams.stdout`) and its --json document (to
 * `jsonSink`, errors as {"error": …} too), as rt mcp wants them.
 */
export async function runCli(
  given: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  streams: Streams,
  stdin: StdinSource = processStdin,
  jsonSink?: Sink,
): Promise<number> {
  let status = 0;
  const settings = readSettings(env);
  // The command word comes after the global options (rt --json grep …); what follows "--" is operands.
  const at = commandAt(given);
  const word = at === -1 ? undefined : given[at];
  const spec = COMMANDS.find((c) => c.name === word);
  const argv = valuesJoined(given, at, spec);
  const json =
    jsonSink !== undefined || argv.slice(0, argv.includes('--') ? argv.indexOf('--') : argv.length).includes('--json');
  const documents: Streams = { stdout: jsonSink ?? streams.stdout, stderr: streams.stderr };
  const command = spec?.name;
  // Commander's error message, printed by report() unless the command says better what was meant.
  let commanderMessage = '';
  const program = buildProgram(COMMANDS, {
    makeContext: (root, json, color) =>
      new Context(cwd, settings, streams, stdin, root, json || jsonSink !== undefined, color ?? 'auto', jsonSink),
    writeErr: (s) => streams.stderr.write(s),
    writeOut: (s) => streams.stdout.write(s),
    onStatus: (s) => (status = s),
    invoked: command,
    writeError: (s) => (commanderMessage += s),
    json,
  });
  if (word === undefined && !argv.some((a) => ['-h', '--help', '-V', '--version'].includes(a))) {
    return report(
      new RtError('usage', `no command given; the commands are: ${COMMANDS.map((c) => c.name).join(', ')}`, [
        'see: rt help, or rt help COMMAND',
      ]),
      documents,
      settings,
      json,
      undefined,
    );
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return status;
  } catch (error) {
    const meant = error instanceof CommanderError ? whatWasMeant(error, program, cwd, command) : undefined;
    if (meant) return report(meant, documents, settings, json, command);
    if (error instanceof CommanderError) streams.stderr.write(commanderMessage);
    return report(error, documents, settings, json, command);
  }
}

/** Where a tool call runs, and where what it says goes. */
export interface ToolPlace {
  readonly cwd: string;
  readonly settings: Settings;
  /** The root, as --root gives it. */
  readonly root: string;
  readonly streams: Streams;
  readonly stdin: StdinSource;
  /** Where its --json document goes (its text goes to `streams.stdout`). */
  readonly jsonSink: Sink;
}

/**
 * Runs `spec` with a tool call's operands and options, as `rt --root=ROOT --color=never COMMAND …` runs it from a
 * command line with the run's --json document caught apart (see runCli's `jsonSink`): the same checks, messages
 * and exit statuses, with no command line made or parsed.
 */
export async function runTool(
  spec: CommandSpec,
  operands: readonly string[],
  given: GivenOptions,
  place: ToolPlace,
): Promise<number> {
  const { cwd, settings, root, streams, stdin, jsonSink } = place;
  try {
    refuseOutsideChoices(spec, operands, given);
    const ctx = new Context(cwd, settings, streams, stdin, root, true, 'never', jsonSink, true);
    return await runCommand(spec, ctx, operands, given);
  } catch (error) {
    if (error instanceof CommanderError) streams.stderr.write(prefixLines(`${error.message}\n`));
    return report(error, { stdout: jsonSink, stderr: streams.stderr }, settings, true, spec.name);
  }
}

/**
 * Too few operands, as commander found them, may be a grep hit pasted whole as PATH (rt edit
 * FILE:166:1w4s): the command's own check of its operands says what was meant.
 */
function whatWasMeant(
  error: CommanderError,
  program: Command,
  cwd: string,
  command: string | undefined,
): RtError | undefined {
  const spec = COMMANDS.find((c) => c.name === command);
  const invoked = program.commands.find((c) => c.name() === command);
  if (error.code !== 'commander.missingArgument' || !spec?.checkOperands || !invoked) return undefined;
  try {
    spec.checkOperands(cwd, invoked.args, switchesGiven(spec.options, invoked.opts()));
  } catch (refusal) {
    if (refusal instanceof RtError) return refusal;
    throw refusal;
  }
  return undefined;
}

/**
 * Where the command word is in `argv`: the first word that is neither a global option nor its
 * value; -1 when there is none before "--" or an option rt does not know there (commander then
 * says what is wrong).
 */
function commandAt(argv: readonly string[]): number {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('-')) return i;
    const option = GLOBAL_OPTIONS.find((o) => arg === `--${o.long}` || arg.startsWith(`--${o.long}=`));
    if (!option) return -1;
    if (option.value && !arg.includes('=')) i++;
  }
  return -1;
}

/**
 * `argv` with the value of each option of the command that takes one joined to it, as
 * --long=VALUE: an option's value is the argument after it, whatever it starts with (rt grep -e
 * --color FILE searches for "--color", as grep and ripgrep do), where commander would take a
 * global option there for its own. A value ending a group of short switches (-ie VALUE) too.
 */
function valuesJoined(argv: readonly string[], at: number, spec: CommandSpec | undefined): readonly string[] {
  if (!spec || at === -1) return argv;
  const out = argv.slice(0, at + 1);
  const takesValue = (o: OptionSpec) => o.value !== undefined;
  for (let i = at + 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return [...out, ...argv.slice(i)];
    const next = argv[i + 1];
    const global = GLOBAL_OPTIONS.find((o) => takesValue(o) && arg === `--${o.long}`);
    const long = spec.options.find((o) => takesValue(o) && arg === `--${o.long}`);
    if (next !== undefined && (global || long)) {
      out.push(...(long ? [`--${long.long}=${next}`] : [arg, next]));
      i++;
      continue;
    }
    // -X VALUE, or -abX VALUE where -a and -b are switches.
    const group = /^-([A-Za-z]+)$/.exec(arg)?.[1];
    const options = group ? [...group].map((c) => spec.options.find((o) => o.short === c)) : [];
    const last = options[options.length - 1];
    if (next !== undefined && last && takesValue(last) && options.slice(0, -1).every((o) => o && !takesValue(o))) {
      out.push(...(group!.length > 1 ? [`-${group!.slice(0, -1)}`] : []), `--${last.long}=${next}`);
      i++;
      continue;
    }
    out.push(arg);
  }
  return out;
}

/** Reports a refusal or failure: the `rt:` lines on stderr, and with --json its document on `streams.stdout`. */
function report(
  error: unknown,
  streams: Streams,
  settings: Settings,
  json: boolean,
  command: string | undefined,
): number {
  if (error instanceof CommanderError) {
    const mapped = fromCommanderError(error);
    if (mapped === 'ok') return 0;
    const help = command ? `rt help ${command}` : 'rt help';
    streams.stderr.write(`rt: see the usage with: ${help}\n`);
    if (json) {
      const error = { code: 'usage', message: mapped.message, hints: [help], exit: mapped.exitStatus };
      streams.stdout.write(`${JSON.stringify({ error })}\n`);
    }
    return mapped.exitStatus;
  }
  if (error instanceof RtError) {
    streams.stderr.write(error.lines);
    if (settings.debug) streams.stderr.write(`${error.stack}\n`);
    if (json) streams.stdout.write(`${JSON.stringify(error.document)}\n`);
    return error.exitStatus;
  }
  // A bug or an unexpected system failure: say what happened without a stack trace.
  const e = error as NodeJS.ErrnoException;
  streams.stderr.write(`rt: internal error: ${e?.message ?? String(error)}\n`);
  streams.stderr.write(settings.debug ? `${e?.stack}\n` : 'rt: run again with RT_DEBUG=1 for details, and report it\n');
  const status = e?.code === 'EACCES' || e?.code === 'EPERM' ? 4 : 2;
  if (json) {
    const internal = { code: 'internal', message: e?.message ?? String(error), hints: [], exit: status };
    streams.stdout.write(`${JSON.stringify({ error: internal })}\n`);
  }
  return status;
}
