import { defineCommand } from '../spec.js';

export const mcpCommand = defineCommand({
  name: 'mcp',
  summary: "serve rt's commands as MCP tools over stdio",
  description: [
    'Runs a Model Context Protocol server on standard input and output, for agents that call ' +
      'tools rather than a shell (Claude Code and Desktop, Cursor, Codex). Its tools are open, ' +
      'scroll, find, grep, grep_file, edit, insert, delete, create, apply, undo, redo, history ' +
      "and outline: each takes its command's operands and options as JSON fields (a long option's " +
      "dashes become underscores: no_ignore), new text in the field text and apply's patch in the " +
      "field patch; a field that takes a list takes one string as a list of one. Each tool's " +
      'description is at most 1,024 characters, written for a model calling it, with the ' +
      "essentials first; the tool help gives the rest (topic: a tool's name, or anchors), as this " +
      "page says it, in the tools' words. Messages, hints and notes (and the command that shows " +
      "what a cap left out, in the text and in the document's more) name tools and fields, not " +
      'command lines: open with target: "src/a.ts:12", force: true. A result carries the text ' +
      'the command prints (its notes on standard error after it) and, as structured content, its ' +
      '--json document; a refusal is a tool error with the rt: message, its hints and "(exit ' +
      'N)", and its {"error": …} document. The --json document holds lines whole where the ' +
      'text cuts them: a result over 8 MiB (what clients read in one message, with room to spare) ' +
      'leaves the document out and says so; if its text is over that too, a reading call is ' +
      'refused (ask for less) and a write, done, is reported shorter.',
    'Calls share .rt/, its locks and the history with the CLI, so the two interleave safely; ' +
      'they run one at a time, in order, and a call cancelled before its turn never runs. A call ' +
      "waiting for another rt's lock (30 seconds at most) holds the server until it is done. Each " +
      'connection is a session of its own (named mcp-TIME-PID: its views, its undo and redo) ' +
      'unless RT_SESSION names one. The root is fixed when the server starts (--root, else ' +
      'RT_ROOT, else found from the working directory); paths are read from the working directory ' +
      'when it is in the root, else from the root. With RT_READONLY=1 the tools that write are ' +
      'not offered. Nothing but the protocol is written to standard output; the server ends when ' +
      'its input does, and a malformed message or a failing call does not end it. Set-up for each ' +
      'client: see the README.',
  ],
  args: [],
  options: [],
  examples: [
    { command: 'rt mcp', explains: 'serve the tools over stdio, rooted where it starts' },
    { command: 'rt --root ~/project mcp', explains: 'serve the tools for ~/project, wherever the client starts it' },
    { command: 'claude mcp add rt -- rt mcp', explains: 'add rt to Claude Code' },
  ],
  exits: [
    [0, 'the client closed the connection'],
    [2, 'bad usage'],
  ],
  readsStdin: false,
  touchesFiles: false,
  async run(ctx) {
    // Loaded when rt mcp runs, not when rt starts: run.ts defines this command, so it is passed in.
    const [{ serve }, { runTool }] = await Promise.all([import('../../mcp/server.js'), import('../run.js')]);
    // A stray console.log from anything the server loads must not break the protocol.
    console.log =
      console.info =
      console.debug =
        (...a: unknown[]) => process.stderr.write(`${a.map(String).join(' ')}\n`);
    // A failure outside a call (a call's own are its result) is said, and the server goes on.
    process.on('uncaughtException', (error) => process.stderr.write(`rt mcp: ${error.stack ?? error.message}\n`));
    process.on('unhandledRejection', (error) =>
      process.stderr.write(`rt mcp: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`),
    );
    await serve({ cwd: ctx.cwd, settings: ctx.settings, root: ctx.root.dir, runTool });
  },
});
