// The entry point of the bundled CLI: argv → definitions → handler, errors → exit status.

import { CommanderError } from 'commander';
import { closest } from '../core/editDistance.js';
import { printable, RtError } from '../core/errors.js';
import { COMMANDS } from './commands/index.js';
import { AGENT_GUIDE } from '../docs/agents.js';
import type { ColorChoice } from '../render/style.js';
import { Context, type Streams } from './context.js';
import { buildProgram, fromCommanderError } from './program.js';
import { processSinks } from '../io/output.js';
import { processStdin, type StdinSource } from '../io/stdin.js';

/** Runs rt with `argv` (without node and script); returns the exit status. */
export async function runCli(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv, streams: Streams, stdin: StdinSource = processStdin): Promise<number> {
  let status = 0;
  const program = buildProgram(
    COMMANDS,
    (root, json, color) => new Context(cwd, env, streams, stdin, root, json, (color ?? 'auto') as ColorChoice),
    (s) => streams.stderr.write(s),
    (s) => streams.stdout.write(s),
    (s) => (status = s),
    COMMANDS.find((c) => c.name === argv[0])?.name,
  );
  if (argv[0] === 'help' && argv[1] === 'agents') {
    streams.stdout.write(AGENT_GUIDE);
    return 0;
  }
  if (argv[0] === 'help' && argv[1] !== undefined && argv[1] !== 'help' && !COMMANDS.some((c) => c.name === argv[1])) {
    const near = closest(argv[1], COMMANDS.map((c) => c.name));
    // Escaped: a newline in the name must not end the `rt: ` line.
    streams.stderr.write(`rt: unknown command '${printable(argv[1])}'${near ? ` (did you mean ${near}?)` : ''}\nrt: the commands are: ${COMMANDS.map((c) => c.name).join(', ')}\n`);
    return 2;
  }
  if (argv.length === 0) {
    streams.stderr.write(`rt: no command given; the commands are: ${COMMANDS.map((c) => c.name).join(', ')}\nrt: see: rt help, or rt help COMMAND\n`);
    return 2;
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return status;
  } catch (error) {
    const command = COMMANDS.find((c) => argv.includes(c.name))?.name;
    return report(error, streams, env, argv.includes('--json'), command);
  }
}

function report(error: unknown, streams: Streams, env: NodeJS.ProcessEnv, json: boolean, command: string | undefined): number {
  if (error instanceof CommanderError) {
    const mapped = fromCommanderError(error);
    if (mapped === 'ok') return 0;
    const help = command ? `rt help ${command}` : 'rt help';
    streams.stderr.write(`rt: see the usage with: ${help}\n`);
    if (json) streams.stdout.write(`${JSON.stringify({ error: { code: 'usage', message: mapped.message, hints: [help], exit: mapped.exitStatus } })}\n`);
    return mapped.exitStatus;
  }
  if (error instanceof RtError) {
    streams.stderr.write(`rt: ${error.message}\n`);
    for (const hint of error.hints) streams.stderr.write(`rt: ${hint}\n`);
    if (env.RT_DEBUG) streams.stderr.write(`${error.stack}\n`);
    if (json) streams.stdout.write(`${JSON.stringify({ error: { code: error.code, message: error.message, hints: error.hints, exit: error.exitStatus, ...error.details } })}\n`);
    return error.exitStatus;
  }
  // A bug or an unexpected system failure: say what happened without a stack trace.
  const e = error as NodeJS.ErrnoException;
  streams.stderr.write(`rt: internal error: ${e?.message ?? String(error)}\n`);
  streams.stderr.write(env.RT_DEBUG ? `${e?.stack}\n` : 'rt: run again with RT_DEBUG=1 for details, and report it\n');
  const status = e?.code === 'EACCES' || e?.code === 'EPERM' ? 4 : 2;
  if (json) streams.stdout.write(`${JSON.stringify({ error: { code: 'internal', message: e?.message ?? String(error), hints: [], exit: status } })}\n`);
  return status;
}

const isMain = process.argv[1] !== undefined && !process.env.VITEST;
if (isMain) {
  const streams = processSinks();
  void runCli(process.argv.slice(2), process.cwd(), process.env, streams).then((status) => {
    streams.stdout.flush();
    process.exitCode = status;
  });
}
