// rt's commands as MCP tools (SPEC §10): each tool's input schema is made from the command's
// definition (the one help, the man page and the completions are made from), and a call's JSON
// arguments become the command line the CLI would parse. Pure: no SDK, no I/O.

import { RtError } from '../core/errors.js';
import type { ArgSpec, CommandSpec, OptionSpec } from '../cli/spec.js';

/** The commands served, in help's order; `completions` (a shell's) and `help` are not. */
export const SERVED = ['open', 'scroll', 'find', 'grep', 'grep-file', 'edit', 'insert', 'delete', 'create', 'apply', 'undo', 'redo', 'history', 'outline'] as const;

/** A JSON Schema, as MCP sends it to clients. */
export type JsonSchema = Record<string, unknown>;

export interface ToolDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: JsonSchema & { type: 'object' };
  readonly annotations: { readonly readOnlyHint: boolean; readonly destructiveHint: boolean; readonly idempotentHint: boolean; readonly openWorldHint: false };
}

/** A served command: its tool, and how a call's arguments become its command line. */
export interface Tool {
  readonly spec: CommandSpec;
  readonly definition: ToolDefinition;
}

/** The tool name of a command (SPEC §10: grep_file for grep-file). */
export function toolName(command: string): string {
  return command.replace(/-/g, '_');
}

/** The JSON field of an argument or option (a long option's dashes become underscores: no_ignore). */
function fieldOf(name: string): string {
  return name.replace(/-/g, '_');
}

/** The field that carries what the CLI reads from standard input: `patch` for apply, else `text`. */
export function stdinField(spec: CommandSpec): string | undefined {
  if (!spec.readsStdin) return undefined;
  return spec.name === 'apply' ? 'patch' : 'text';
}

/** The operands a tool takes: the command's, less one its stdin field replaces (apply's PATCH file). */
function operandsOf(spec: CommandSpec): readonly ArgSpec[] {
  const field = stdinField(spec);
  return spec.args.filter((a) => fieldOf(a.name) !== field);
}

/** Options that make no sense in a tool call: none so far beyond the global ones (--root, --color, --json), which the server sets. */
const LEFT_OUT_OPTIONS = new Set<string>(['line-number']);

function optionsOf(spec: CommandSpec): readonly OptionSpec[] {
  return spec.options.filter((o) => !LEFT_OUT_OPTIONS.has(o.long));
}

function optionSchema(o: OptionSpec): JsonSchema {
  const description = `${o.summary}${o.short ? ` (rt's -${o.short}, --${o.long})` : ` (rt's --${o.long})`}`;
  switch (o.kind) {
    case 'switch':
      return { type: 'boolean', description };
    case 'count':
      return { type: 'integer', minimum: 0, description };
    case 'text':
      return { type: 'string', description };
    case 'list':
      return { type: 'array', items: { type: 'string' }, description };
    case 'choice':
      return { type: 'string', enum: [...(o.choices ?? [])], description };
  }
}

function operandSchema(a: ArgSpec): JsonSchema {
  const one: JsonSchema = a.choices ? { type: 'string', enum: [...a.choices] } : { type: 'string' };
  return a.variadic ? { type: 'array', items: one, description: a.summary } : { ...one, description: a.summary };
}

/** The tool of one command, its schema and description from its definition. */
export function toolOf(spec: CommandSpec): Tool {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const a of operandsOf(spec)) {
    properties[fieldOf(a.name)] = operandSchema(a);
    if (a.required) required.push(fieldOf(a.name));
  }
  for (const o of optionsOf(spec)) properties[fieldOf(o.long)] = optionSchema(o);
  const field = stdinField(spec);
  if (field === 'patch') {
    properties.patch = { type: 'string', description: 'the patch, as rt apply reads it from standard input (*** Update File: PATH, @@ edit FROM [TO], + rows; or apply_patch hunks)' };
    required.push('patch');
  } else if (field === 'text') {
    properties.text = { type: 'string', description: 'the new lines, byte for byte as a quoted heredoc would give them (one trailing newline is dropped)' };
    if (spec.name !== 'create') required.push('text');
  }
  const stdinNote = field ? ` The ${field} field holds what the CLI reads from standard input.` : '';
  const exits = spec.exits.map(([status, meaning]) => `${status}: ${meaning}`).join('; ');
  const writes = spec.writes === true;
  return {
    spec,
    definition: {
      name: toolName(spec.name),
      title: `rt ${spec.name}`,
      description: `${spec.summary}.\n\n${spec.description.join('\n\n')}${stdinNote}\n\nExit statuses: ${exits}.`,
      inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false },
      annotations: { readOnlyHint: !writes, destructiveHint: writes, idempotentHint: !writes && spec.name !== 'scroll', openWorldHint: false },
    },
  };
}

/** The tools offered: every served command, less the writing ones when `readOnly`. */
export function toolsOf(commands: readonly CommandSpec[], readOnly: boolean): Tool[] {
  return SERVED.map((name) => commands.find((c) => c.name === name))
    .filter((c): c is CommandSpec => c !== undefined && !(readOnly && c.writes === true))
    .map(toolOf);
}

/** A call's command line and standard input. */
export interface Invocation {
  readonly argv: string[];
  readonly stdin: Buffer | undefined;
}

/**
 * The command line of a call: options as --long=value (a value that starts with '-' is never
 * taken for an option), then "--" and the operands (nor is a path that starts with '-'). A field
 * the tool does not take, or of the wrong type, is refused as bad usage (exit 2) with the fields
 * it takes.
 */
export function invocationOf(tool: Tool, args: Readonly<Record<string, unknown>> | undefined): Invocation {
  const { spec, definition } = tool;
  const given = args ?? {};
  const taken = Object.keys(definition.inputSchema.properties as object);
  const usage = (message: string) =>
    new RtError('usage', `${definition.name}: ${message}`, [`the fields of ${definition.name}: ${taken.join(', ')}${definition.inputSchema.required ? ` (required: ${(definition.inputSchema.required as string[]).join(', ')})` : ''}`]);
  for (const key of Object.keys(given)) if (!taken.includes(key)) throw usage(`unknown field ${JSON.stringify(key)}`);
  const absent = (key: string) => given[key] === undefined || given[key] === null;
  for (const key of (definition.inputSchema.required as string[] | undefined) ?? []) if (absent(key)) throw usage(`the field ${key} is required`);
  if (spec.name === 'create' && absent('text') && given.empty !== true) throw usage('the field text is required (or empty: true, for an empty file)');
  // As rg reads them: with -e, the operands are paths; a pattern given both ways would be searched as a file.
  if (!absent('pattern') && Array.isArray(given.regexp) && given.regexp.length > 0) throw usage('give the pattern in pattern or in regexp, not both (the files to search go in path)');

  const argv = [spec.name];
  for (const o of optionsOf(spec)) {
    const value = given[fieldOf(o.long)];
    if (value === undefined || value === null) continue;
    const flag = `--${o.long}`;
    switch (o.kind) {
      case 'switch':
        if (typeof value !== 'boolean') throw usage(`${fieldOf(o.long)} must be true or false`);
        if (value) argv.push(flag);
        break;
      case 'count':
        if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw usage(`${fieldOf(o.long)} must be a whole number, 0 or more`);
        argv.push(`${flag}=${value}`);
        break;
      case 'text':
      case 'choice':
        if (typeof value !== 'string') throw usage(`${fieldOf(o.long)} must be a string`);
        argv.push(`${flag}=${value}`);
        break;
      case 'list':
        if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw usage(`${fieldOf(o.long)} must be an array of strings`);
        for (const v of value) argv.push(`${flag}=${v}`);
        break;
    }
  }
  const operands: string[] = [];
  for (const a of operandsOf(spec)) {
    const value = given[fieldOf(a.name)];
    if (value === undefined || value === null) {
      // An operand left out before one given would shift it into the wrong place; but for
      // PATTERN given as regexp (-e), after which the CLI reads the operands as paths, as rg does.
      if (a.name === 'pattern' && Array.isArray(given.regexp) && given.regexp.length > 0) continue;
      const later = operandsOf(spec).slice(operandsOf(spec).indexOf(a) + 1).some((b) => given[fieldOf(b.name)] !== undefined && given[fieldOf(b.name)] !== null);
      if (later) throw usage(`${fieldOf(a.name)} must be given when a later operand is`);
      continue;
    }
    if (a.variadic) {
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw usage(`${fieldOf(a.name)} must be an array of strings`);
      operands.push(...value);
    } else {
      // A number is taken for a line (edit's FROM 12) or a step (undo 7).
      if (typeof value !== 'string' && !(typeof value === 'number' && Number.isInteger(value))) throw usage(`${fieldOf(a.name)} must be a string`);
      operands.push(String(value));
    }
  }
  const field = stdinField(spec);
  let stdin: Buffer | undefined;
  if (field !== undefined && given[field] !== undefined && given[field] !== null) {
    const value = given[field];
    if (typeof value !== 'string') throw usage(`${field} must be a string`);
    // A lone surrogate (\ud800) has no UTF-8 bytes: written, it would become U+FFFD unsaid.
    if (!(value as string & { isWellFormed(): boolean }).isWellFormed()) throw usage(`${field} holds a lone UTF-16 surrogate (a \\uD800-\\uDFFF escape without its pair), which is not text; nothing was written`);
    stdin = Buffer.from(value, 'utf8');
  }
  return { argv: [...argv, '--', ...operands], stdin };
}
