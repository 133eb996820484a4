// rt mcp: rt's commands as Model Context Protocol tools over stdio. Each tool call is one run of
// its command in this process (runTool), its fields mapped to the command's operands and
// options, with its text and its --json document caught in memory from that one run (an edit
// cannot be run twice), on the same .rt/, locks and history as the CLI. Calls run one at a time,
// in the order they come. Nothing but the protocol is written to stdout: the runs write to
// memory, and anything else to stderr.

import { isInside } from '../store/inside.js';
import type { StdinSource } from '../io/stdin.js';
import { VERSION } from '../cli/program.js';
import { COMMANDS } from '../cli/commands/index.js';
import type { GivenOptions } from '../cli/options.js';
import type { ToolPlace } from '../cli/run.js';
import type { CommandSpec } from '../cli/spec.js';
import type { Sink } from '../cli/context.js';
import type { Settings } from '../settings/env.js';
import { loadSdk } from './loadSdk.js';
import { helpText, helpToolOf, invocationOf, toolsOf, vocabularyOf, type Tool } from './tools.js';
import { documentInToolWords, inToolWords, noteInToolWords, outputInToolWords, type Vocabulary } from './toolWords.js';
import { sectionText } from '../docs/man.js';
import { LineTransport } from './transport.js';
import { RtError } from '../model/errors.js';

/** One run of a command (run.ts's runTool), passed in: run.ts defines the commands, rt mcp among them. */
export type RunTool = (
  spec: CommandSpec,
  operands: readonly string[],
  options: GivenOptions,
  place: ToolPlace,
) => Promise<number>;

/**
 * The most a result may take, serialized: clients read at most 10 MB a message (the SDK's
 * default), and one over it ends their connection. A reading call over it is refused; a write
 * that is done is reported shorter.
 */
export const MAX_RESULT_BYTES = 8 * 1024 * 1024;

const INSTRUCTIONS = [
  'rt reads, searches and edits text files by line ID (LID). Every line rt shows is NUMBER:LID|CONTENT.',
  'Read with open (a path, path:LINE, path:START-END, path:LID, path:@Symbol, or a folder), scroll, ' +
    'outline, grep, grep_file, find.',
  'Edit by naming LIDs: edit (path, from, to, text), insert (path, at, text), delete, create (path, text); ' +
    'several edits in several files at once, all or nothing: apply (patch). Never retype old text.',
  'LIDs of unchanged lines stay valid after an edit: make several edits from one read. Only lines rt has ' +
    'shown you in this session can be replaced.',
  "help (with topic, a tool's name) gives what a tool's description leaves out.",
  'A refusal is a tool error with the rt: message, what to run instead, and the exit status: 2 bad usage, 3 ' +
    'stale (the line changed since you saw it: re-open and retry with the new LIDs), 4 access refused, 5 the ' +
    "change would break the file's syntax. A refusal writes nothing. undo takes back this session's last " +
    'write.',
].join('\n');

export interface ServeOptions {
  readonly cwd: string;
  readonly settings: Settings;
  /** The root of every call, for the server's life: rt mcp's --root, else RT_ROOT, else found from cwd. */
  readonly root: string;
  readonly runTool: RunTool;
  readonly input?: NodeJS.ReadableStream;
  readonly output?: NodeJS.WritableStream;
  readonly log?: (line: string) => void;
}

/** Serves until the client closes the connection (stdin ends). */
export async function serve(options: ServeOptions): Promise<void> {
  const log = options.log ?? ((line: string) => process.stderr.write(`rt mcp: ${line}\n`));
  const root = options.root;
  // Paths of calls are read from where the server started when that is in the root, else from
  // the root (a client that starts servers anywhere, given --root).
  const cwd = isInside(root, options.cwd) ? options.cwd : root;
  // Each connection its own session, unless RT_SESSION names one.
  const settings = options.settings.withSession(sessionName);
  const readOnly = settings.readOnly;
  const tools = toolsOf(COMMANDS, readOnly);
  const byName = new Map(tools.map((t) => [t.definition.name, t]));
  const help = helpToolOf(tools);

  const sdk = await loadSdk();
  const server = new sdk.Server(
    { name: 'rt', version: VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  const listed = [...tools.map((t) => t.definition), help];
  server.setRequestHandler(sdk.ListToolsRequestSchema, async () => ({ tools: listed }));
  let queue: Promise<unknown> = Promise.resolve();
  server.setRequestHandler(sdk.CallToolRequestSchema, (request, extra) => {
    const { name, arguments: args } = request.params;
    const tool = byName.get(name);
    if (name === help.name) return Promise.resolve(helpResult(args, tools));
    if (!tool) {
      const hidden = readOnly && toolsOf(COMMANDS, false).some((t) => t.definition.name === name);
      if (hidden) {
        const readOnlyError = new RtError('access', `RT_READONLY is set: rt mcp offers no tool that writes (${name})`, [
          'unset RT_READONLY where the server is started',
        ]);
        return Promise.resolve(refusal(readOnlyError, vocabularyOf(tools, undefined)));
      }
      const names = listed.map((t) => t.name).join(', ');
      const unknown = `unknown tool ${JSON.stringify(name)}; the tools are: ${names}`;
      throw new sdk.McpError(sdk.ErrorCode.InvalidParams, unknown);
    }
    // One call at a time, in order: two runs at once would interleave their reads and writes.
    const result = queue.then(() => {
      // Cancelled while it waited (the client's notifications/cancelled, or its timeout): never run.
      if (extra.signal.aborted)
        throw new sdk.McpError(sdk.ErrorCode.InvalidRequest, 'the call was cancelled before it ran: nothing was done');
      return call(tool, args, { root, settings, cwd, runTool: options.runTool, words: vocabularyOf(tools, tool) });
    });
    queue = result.catch(() => undefined);
    return result;
  });
  server.onerror = (error) => log(error.message);

  const transport = new LineTransport(
    sdk,
    (options.input ?? process.stdin) as never,
    (options.output ?? process.stdout) as never,
  );
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport as never);
  await closed;
  await queue;
}

/** A session name of this connection: mcp-, the time it started (UTC) and the process. */
function sessionName(): string {
  const time = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `mcp-${time}-${process.pid}`;
}

type ToolResult = {
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

interface CallSetting {
  readonly root: string;
  readonly settings: Settings;
  readonly cwd: string;
  readonly runTool: RunTool;
  /** The words its messages are said in: fields and tools, not options and commands. */
  readonly words: Vocabulary;
}

/** The help tool's answer, or its refusal of an unknown topic. */
function helpResult(args: Record<string, unknown> | undefined, tools: readonly Tool[]): ToolResult {
  try {
    return { content: [{ type: 'text', text: helpText(args, tools, sectionText) }] };
  } catch (error) {
    if (error instanceof RtError) return refusal(error, vocabularyOf(tools, undefined));
    throw error;
  }
}

/** Runs one tool call: the command's text as content, its --json document as structured content. */
async function call(tool: Tool, args: Record<string, unknown> | undefined, setting: CallSetting): Promise<ToolResult> {
  let invocation: ReturnType<typeof invocationOf>;
  try {
    invocation = invocationOf(tool, args);
  } catch (error) {
    if (error instanceof RtError) return refusal(error, setting.words);
    throw error;
  }
  const out = new Collector();
  const err = new Collector();
  const doc = new Collector();
  const stdin: StdinSource = { isTTY: false, read: () => invocation.stdin ?? Buffer.alloc(0) };
  const status = await setting.runTool(tool.spec, invocation.operands, invocation.options, {
    cwd: setting.cwd,
    settings: setting.settings,
    root: setting.root,
    streams: { stdout: out, stderr: err },
    stdin,
    jsonSink: doc,
  });
  const said = (text: string) => inToolWords(text, setting.words);
  const document = documentInToolWords(lastDocument(doc.text()), setting.words);
  const output = outputInToolWords(out.text(), setting.words, Boolean(document?.more));
  return resultOf(tool, status, output, said(err.text()), document, setting.words);
}

function resultOf(
  tool: Tool,
  status: number,
  text: string,
  notes: string,
  document: Record<string, unknown> | undefined,
  words: Vocabulary,
): ToolResult {
  const content: ToolResult['content'] = [];
  // A write that wrote nothing for want of its target (exit 1: no definition of that name) is refused, not said.
  const refused = status === 1 && tool.spec.writes === true && document?.error !== undefined;
  if (status >= 2 || refused) {
    content.push({ type: 'text', text: `${text}${notes}(exit ${status})` });
    return fit(tool, {
      isError: true,
      content,
      structuredContent: document ?? { error: { code: 'internal', message: notes.trim(), hints: [], exit: status } },
    });
  }
  if (text) content.push({ type: 'text', text });
  if (notes) content.push({ type: 'text', text: notes });
  if (status !== 0) {
    const meaning = tool.spec.exits.find(([s]) => s === status)?.[1];
    content.push({
      type: 'text',
      text: `(exit ${status}: ${meaning ? noteInToolWords(meaning, words) : "see the tool's description"})`,
    });
  }
  if (content.length === 0) content.push({ type: 'text', text: '' });
  return fit(tool, { content, ...(document ? { structuredContent: document } : {}) });
}

/**
 * A result within MAX_RESULT_BYTES. The --json document holds lines whole where the text cuts
 * them for display (a minified file's line of megabytes): over the bound, the result keeps its
 * text and says the document was left out. Text over it too: a reading call is refused; a write,
 * done, is said so, shorter.
 */
function fit(tool: Tool, result: ToolResult): ToolResult {
  const size = Buffer.byteLength(JSON.stringify(result));
  if (size <= MAX_RESULT_BYTES) return result;
  const over = `the result is ${size} bytes, over the ${MAX_RESULT_BYTES} an MCP message carries here`;
  const { structuredContent: _left, ...textOnly } = result;
  const note =
    `rt: ${over}: its --json document (which holds each line whole) is left out; ` +
    'the text cuts long lines as rt prints them';
  const withNote: ToolResult = { ...textOnly, content: [...textOnly.content, { type: 'text', text: `${note}\n` }] };
  if (Buffer.byteLength(JSON.stringify(withNote)) <= MAX_RESULT_BYTES) return withNote;
  if (tool.spec.writes !== true || result.isError) {
    const less = 'ask for less: a smaller window, a range (PATH:START-END), max, or a narrower pattern';
    return refusal(new RtError('usage', over, [less]), { commands: [] });
  }
  const text = result.content.map((c) => c.text).join('');
  const shown = text.slice(0, 64 * 1024);
  return {
    content: [
      { type: 'text', text: `${shown}${shown.length < text.length ? '…\n' : ''}` },
      { type: 'text', text: `rt: the write is done, but ${over}: its report is cut short; see the lines with open` },
    ],
    structuredContent: { command: tool.spec.name, written: true, cut: true },
  };
}

/** A refusal before any run (bad arguments, a hidden tool), shaped as a run's. */
function refusal(error: RtError, words: Vocabulary): ToolResult {
  const said = (text: string) => inToolWords(text, words);
  const content: ToolResult['content'] = [{ type: 'text', text: `${said(error.lines)}(exit ${error.exitStatus})` }];
  return { isError: true, content, structuredContent: documentInToolWords(error.document, words) };
}

/** The run's --json document: its last line that is a JSON object (a window cut short is followed by its error). */
function lastDocument(text: string): Record<string, unknown> | undefined {
  const lines = text.split('\n').filter((l) => l !== '');
  for (let i = lines.length - 1; i >= 0; i--) {
    try {
      const value: unknown = JSON.parse(lines[i]!);
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // a document cut short: look further up
    }
  }
  return undefined;
}

/** A sink that keeps what a run writes. */
class Collector implements Sink {
  readonly isTTY = false;
  private readonly chunks: Buffer[] = [];
  write(chunk: string | Uint8Array): boolean {
    this.chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk));
    return true;
  }
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}
