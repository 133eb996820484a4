// rt's commands as MCP tools: each tool's input schema is made from the command's definition
// (the one help, the man page and the completions are made from), and a call's JSON arguments
// become the operands and options the command's handler takes, as a command line would give
// them: no command line is made. Pure: no SDK, no I/O.

import { RtError } from '../model/errors.js';
import { optionKey, type GivenOptions } from '../cli/options.js';
import type { ArgSpec, CommandDoc, CommandSpec, OptionSpec } from '../cli/spec.js';
import { fieldOf, inToolWords, operandsOf, stdinField, toolName, type Vocabulary } from './toolWords.js';

export { toolName } from './toolWords.js';

/** The commands served, in help's order; `completions` (a shell's) and `help` are not. */
export const SERVED = [
  'open',
  'scroll',
  'find',
  'grep',
  'grep-file',
  'edit',
  'insert',
  'delete',
  'create',
  'apply',
  'replace',
  'refs',
  'rename',
  'undo',
  'redo',
  'history',
  'outline',
] as const;

/** A JSON Schema, as MCP sends it to clients. */
export type JsonSchema = Record<string, unknown>;

export interface ToolDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: JsonSchema & { type: 'object' };
  readonly annotations: {
    readonly readOnlyHint: boolean;
    readonly destructiveHint: boolean;
    readonly idempotentHint: boolean;
    readonly openWorldHint: false;
  };
}

/** A served command: its tool, and how a call's arguments become its command line. */
export interface Tool {
  readonly spec: CommandSpec;
  readonly definition: ToolDefinition;
}

/**
 * Options that make no sense in a tool call: none so far beyond the global ones (--root, --color, --json), which the
 * server sets.
 */
const LEFT_OUT_OPTIONS = new Set<string>(['line-number']);

function optionsOf(spec: CommandSpec): readonly OptionSpec[] {
  return spec.options.filter((o) => !LEFT_OUT_OPTIONS.has(o.long));
}

/**
 * A field's description where the command line's would mislead a call: regexp instead of pattern
 * (the CLI reads -e's operands as paths; a call names paths in path), grep_file's lines (no PATH).
 */
const TOOL_SUMMARIES: Readonly<Record<string, string>> = {
  'grep pattern': 'the regular expression (or, with fixed, the string) to find; not with regexp',
  'grep-file pattern': 'the regular expression (or, with fixed, the string) to find; not with regexp',
  'grep regexp':
    'patterns to search for, instead of pattern (a line matches if any does), even one that starts with a dash',
  'grep-file regexp':
    'patterns to search for, instead of pattern (a line matches if any does), even one that starts with a dash',
  'grep count':
    'print only how many lines match in each file with hits (with only_matching, how many matches), as PATH:COUNT',
  'grep glob': 'search only files matching GLOB (without / it matches the file name; !GLOB excludes)',
  'grep-file count': 'print only how many lines match (with only_matching, how many matches)',
  'grep-file only_matching':
    "print only the matching parts of each hit, one a line, each with its line's prefix " +
    '(NUMBER:LID|MATCH); empty matches are not printed, and these lines do not count as shown (open a line to ' +
    'edit it). Not with invert_match',
  'create empty': 'create an empty file: give no text, or an empty one',
};

/**
 * A list field's description: the server takes one string for a list of one, and says so. The
 * schema stays {type: "array"}: a union (anyOf) is what some clients' schema readers drop or refuse.
 */
const ONE_OR_MORE = ': a string, or a list of strings';

function summaryOf(spec: CommandDoc, name: string, summary: string): string {
  return TOOL_SUMMARIES[`${spec.name} ${fieldOf(name)}`] ?? summary;
}

function optionSchema(o: OptionSpec, words: Vocabulary): JsonSchema {
  const description = inToolWords(summaryOf(words.current!, o.long, o.summary), words);
  switch (o.kind) {
    case 'switch':
      return { type: 'boolean', description };
    case 'count':
      return { type: 'integer', minimum: o.least ?? 0, maximum: Number.MAX_SAFE_INTEGER, description };
    case 'text':
      return { type: 'string', description };
    case 'list':
      return { type: 'array', items: { type: 'string' }, description: `${description}${ONE_OR_MORE}` };
    case 'choice':
      return { type: 'string', enum: [...(o.choices ?? [])], description };
  }
}

function operandSchema(a: ArgSpec, words: Vocabulary): JsonSchema {
  const one: JsonSchema = a.choices ? { type: 'string', enum: [...a.choices] } : { type: 'string' };
  const description = inToolWords(summaryOf(words.current!, a.name, a.summary), words);
  return a.variadic
    ? { type: 'array', items: one, description: `${description}${ONE_OR_MORE}` }
    : { ...one, description };
}

/** What a model reads of a tool: its essentials, then where the rest is (the help tool). */
function descriptionOf(spec: CommandSpec): string {
  if (!spec.tool) throw new Error(`the command ${spec.name} has no tool description`);
  return `${spec.tool.join(' ')}\n\nMore: help with topic "${toolName(spec.name)}".`;
}

/** The tool of one command, its schema and description from its definition. */
export function toolOf(spec: CommandSpec, commands: readonly CommandDoc[] = [spec]): Tool {
  const words: Vocabulary = { commands, current: spec };
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const a of operandsOf(spec)) {
    properties[fieldOf(a.name)] = operandSchema(a, words);
    if (a.required) required.push(fieldOf(a.name));
  }
  for (const o of optionsOf(spec)) properties[fieldOf(o.long)] = optionSchema(o, words);
  const field = stdinField(spec);
  if (field === 'patch') {
    const patch =
      'the patch: *** Begin Patch, *** Update File: PATH, @@ edit FROM [TO] and + rows ' +
      '(or apply_patch hunks), *** End Patch';
    properties.patch = { type: 'string', description: patch };
    required.push('patch');
  } else if (field === 'text') {
    const text = 'the new lines, byte for byte (one trailing newline is dropped)';
    properties.text = { type: 'string', description: text };
    if (spec.name !== 'create') required.push('text');
  }
  const writes = spec.writes === true;
  return {
    spec,
    definition: {
      name: toolName(spec.name),
      title: `rt ${spec.name}`,
      description: descriptionOf(spec),
      inputSchema: {
        type: 'object',
        properties,
        ...(required.length ? { required } : {}),
        additionalProperties: false,
      },
      annotations: {
        readOnlyHint: !writes,
        destructiveHint: writes,
        idempotentHint: !writes && spec.name !== 'scroll',
        openWorldHint: false,
      },
    },
  };
}

/** The tools offered: every served command, less the writing ones when `readOnly`. */
export function toolsOf(commands: readonly CommandSpec[], readOnly: boolean): Tool[] {
  const served = SERVED.map((name) => commands.find((c) => c.name === name)).filter((c) => c !== undefined);
  const vocabulary = [...served, HELP_TOOL];
  return served.filter((c) => !(readOnly && c.writes === true)).map((c) => toolOf(c, vocabulary));
}

/** The words of a call to `tool` (whose options a message names bare): every served command's, and help's. */
export function vocabularyOf(tools: readonly Tool[], tool: Tool | undefined): Vocabulary {
  return { commands: [...tools.map((t) => t.spec), HELP_TOOL], current: tool?.spec };
}

/** A call's operands, options and standard input, as the command's handler takes them. */
export interface Invocation {
  readonly operands: readonly string[];
  /** By their keys in the parsed options (optionKey), as commander gives them: a count a number. */
  readonly options: GivenOptions;
  readonly stdin: Buffer | undefined;
}

/**
 * The operands and options of a call (a value or a path that starts with '-' is only ever a
 * value or a path). A field the tool does not take, or of the wrong type, is refused as bad
 * usage (exit 2) with the fields it takes.
 */
export function invocationOf(tool: Tool, args: Readonly<Record<string, unknown>> | undefined): Invocation {
  const { spec, definition } = tool;
  const given = args ?? {};
  const taken = Object.keys(definition.inputSchema.properties as object);
  const required = (definition.inputSchema.required as string[] | undefined) ?? [];
  const fields = `the fields of ${definition.name}: ${taken.join(', ')}`;
  const usage = (message: string) =>
    new RtError('usage', `${definition.name}: ${message}`, [
      `${fields}${required.length ? ` (required: ${required.join(', ')})` : ''}`,
    ]);
  for (const key of Object.keys(given)) if (!taken.includes(key)) throw usage(`unknown field ${JSON.stringify(key)}`);
  const absent = (key: string) => given[key] === undefined || given[key] === null;
  for (const key of required) if (absent(key)) throw usage(`the field ${key} is required`);
  if (spec.name === 'create' && absent('text') && given.empty !== true)
    throw usage('the field text is required (or empty: true, for an empty file)');
  // As rg reads them: with -e, the operands are paths; a pattern given both ways would be searched as a file.
  const regexpGiven = (stringsOf(given.regexp) ?? []).length > 0;
  if (!absent('pattern') && regexpGiven) {
    throw usage('give the pattern in pattern or in regexp, not both (the files to search go in path)');
  }

  const options: Record<string, unknown> = {};
  for (const o of optionsOf(spec)) {
    const value = given[fieldOf(o.long)];
    if (value === undefined || value === null) continue;
    const key = optionKey(o.long);
    switch (o.kind) {
      case 'switch':
        if (typeof value !== 'boolean') throw usage(`${fieldOf(o.long)} must be true or false`);
        // Given, a no-X switch sets X false.
        if (value) options[key] = !o.long.startsWith('no-');
        break;
      case 'count':
        if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < (o.least ?? 0)) {
          throw usage(`${fieldOf(o.long)} must be a whole number, ${o.least ?? 0} or more`);
        }
        options[key] = value;
        break;
      case 'text':
      case 'choice':
        if (typeof value !== 'string') throw usage(`${fieldOf(o.long)} must be a string`);
        options[key] = value;
        break;
      case 'list':
        options[key] = listOf(value, fieldOf(o.long), usage);
        break;
    }
  }
  const operands: string[] = [];
  for (const a of operandsOf(spec)) {
    const value = given[fieldOf(a.name)];
    if (value === undefined || value === null) {
      // An operand left out before one given would shift it into the wrong place; but for
      // PATTERN given as regexp (-e), after which the CLI reads the operands as paths, as rg does.
      if (a.name === 'pattern' && regexpGiven) continue;
      const later = operandsOf(spec)
        .slice(operandsOf(spec).indexOf(a) + 1)
        .some((b) => given[fieldOf(b.name)] !== undefined && given[fieldOf(b.name)] !== null);
      if (later) throw usage(`${fieldOf(a.name)} must be given when a later operand is`);
      continue;
    }
    if (a.variadic) {
      operands.push(...listOf(value, fieldOf(a.name), usage));
    } else {
      // A number is taken for a line (edit's FROM 12) or a step (undo 7).
      if (typeof value !== 'string' && !(typeof value === 'number' && Number.isInteger(value)))
        throw usage(`${fieldOf(a.name)} must be a string`);
      operands.push(String(value));
    }
  }
  const field = stdinField(spec);
  let stdin: Buffer | undefined;
  if (field !== undefined && given[field] !== undefined && given[field] !== null) {
    const value = given[field];
    if (typeof value !== 'string') throw usage(`${field} must be a string`);
    // An empty text with empty: true is the empty file it asks for, as the CLI takes --empty with an empty stdin.
    if (value === '' && !(spec.name === 'create' && given.empty === true)) throw emptyField(spec, field);
    // A lone surrogate (\ud800) has no UTF-8 bytes: written, it would become U+FFFD unsaid.
    if (!(value as string & { isWellFormed(): boolean }).isWellFormed())
      throw usage(
        `${field} holds a lone UTF-16 surrogate (a \\uD800-\\uDFFF escape without its pair), ` +
          'which is not text; nothing was written',
      );
    stdin = Buffer.from(value, 'utf8');
  }
  return { operands, options, stdin };
}

/** The help tool's topics besides the tools: sections of the manual a call may need. */
const MANUAL_TOPICS: Readonly<Record<string, string>> = { anchors: 'ANCHORS' };

/** The help tool: what a tool's description leaves out, whole (the manual's text, in the tools' words). */
export const HELP_TOOL: CommandDoc = {
  name: 'help',
  summary: 'the whole description of a tool or topic',
  description: [],
  args: [{ name: 'topic', summary: "a tool's name, or anchors", required: false, complete: 'none' }],
  options: [],
  examples: [],
  exits: [
    [0, 'the help was given'],
    [2, 'no such tool or topic'],
  ],
  readsStdin: false,
};

/** The help tool's definition, its topics the tools offered. */
export function helpToolOf(tools: readonly Tool[]): ToolDefinition {
  const topics = [...tools.map((t) => t.definition.name), ...Object.keys(MANUAL_TOPICS)];
  return {
    name: 'help',
    title: 'rt help',
    description: [
      'The whole description of a tool (what its own description leaves out: every rule, field, example and exit',
      "status) or of a topic: anchors (how edit, insert and delete name lines). topic: a tool's name; without it,",
      'the topics.',
    ].join(' '),
    inputSchema: {
      type: 'object',
      properties: { topic: { type: 'string', enum: topics, description: HELP_TOOL.args[0]!.summary } },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  };
}

/**
 * The help tool's answer: a tool's command as its help gives it (the same definition as the man
 * page's), said in the tools' words, or a section of the manual. An unknown topic is bad usage.
 */
export function helpText(
  args: Readonly<Record<string, unknown>> | undefined,
  tools: readonly Tool[],
  manual: (title: string) => string | undefined,
): string {
  const topics = [...tools.map((t) => t.definition.name), ...Object.keys(MANUAL_TOPICS)];
  const topic = args?.topic;
  const unknown = Object.keys(args ?? {}).find((k) => k !== 'topic');
  if (unknown !== undefined) {
    throw new RtError('usage', `help: unknown field ${JSON.stringify(unknown)}`, ['the fields of help: topic']);
  }
  if (topic === undefined || topic === null) return `Topics: ${topics.join(', ')}.\n`;
  const words: Vocabulary = { commands: [...tools.map((t) => t.spec), HELP_TOOL] };
  const section = typeof topic === 'string' ? MANUAL_TOPICS[topic] : undefined;
  if (section) return `${inToolWords(manual(section) ?? '', words)}\n`;
  const tool = tools.find((t) => t.definition.name === topic);
  if (!tool) {
    throw new RtError('usage', `help: no topic ${JSON.stringify(topic)}`, [`the topics: ${topics.join(', ')}`]);
  }
  const { spec, definition } = tool;
  const said = (text: string) => inToolWords(text, { ...words, current: spec });
  const properties = definition.inputSchema.properties as Record<string, JsonSchema>;
  const required = (definition.inputSchema.required as string[] | undefined) ?? [];
  const fields = Object.entries(properties).map(
    ([name, schema]) => `  ${name}${required.includes(name) ? ' (required)' : ''}: ${String(schema.description)}`,
  );
  // An example's text or patch (a heredoc's lines, in the CLI) follows its call; one reading a file
  // the tool has no field for (apply's PATCH) is the command line's alone.
  const fileRead = spec.args.length > operandsOf(spec).length;
  const shown = spec.examples.filter((e) => !fileRead || e.command.includes("<<'EOF'"));
  const examples = shown.map((e) => `  ${said(e.command).split('\n').join('\n  ')}\n    ${said(e.explains)}`);
  return (
    [
      `${definition.name}: ${said(spec.summary)}.`,
      ...spec.description.map(said),
      `Fields:\n${fields.join('\n')}`,
      ...(examples.length ? [`Examples:\n${examples.join('\n')}`] : []),
      `Exit statuses:\n${spec.exits.map(([status, meaning]) => `  ${status}: ${said(meaning)}`).join('\n')}`,
    ].join('\n\n') + '\n'
  );
}

/**
 * A list of strings as a call gives it: an array, or one string where a model meant a list of one
 * (path: "src"); undefined for anything else.
 */
function stringsOf(value: unknown): readonly string[] | undefined {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;
}

/** The strings of a list field, or its refusal. */
function listOf(value: unknown, field: string, usage: (message: string) => RtError): readonly string[] {
  const strings = stringsOf(value);
  if (strings === undefined) throw usage(`${field} must be an array of strings (or one string)`);
  return strings;
}

/** An empty text or patch: what to give instead, in the tool's words (the CLI's would speak of heredocs). */
function emptyField(spec: CommandSpec, field: string): RtError {
  const name = toolName(spec.name);
  if (field === 'patch') {
    const give = 'give the patch: *** Begin Patch, *** Update File: PATH, its hunks, *** End Patch';
    return new RtError('input', `${name}: the field patch is empty: no patch to apply`, [give]);
  }
  const instead = spec.name === 'create' ? 'for an empty file: empty: true, and no text' : 'to remove lines: delete';
  const give = 'give the new lines in text (a single empty line is "\\n")';
  return new RtError('input', `${name}: the field text is empty: no text to write`, [give, instead]);
}
