import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { RtError } from '../../src/model/errors.js';
import { helpText, helpToolOf, invocationOf, SERVED, toolsOf, type Tool } from '../../src/mcp/tools.js';

const tools = toolsOf(COMMANDS, false);
const tool = (name: string): Tool => tools.find((t) => t.definition.name === name)!;

describe('the tools made from the command definitions', () => {
  it('serves every command of rt mcp, grep-file as grep_file, and every option of each', () => {
    expect(tools.map((t) => t.spec.name)).toEqual([...SERVED]);
    for (const t of tools) {
      const fields = Object.keys(t.definition.inputSchema.properties as object);
      for (const o of t.spec.options.filter((o) => o.long !== 'line-number'))
        expect(fields, t.spec.name).toContain(o.long.replace(/-/g, '_'));
      for (const a of t.spec.args.filter((a) => !(t.spec.name === 'apply' && a.name === 'patch')))
        expect(fields, t.spec.name).toContain(a.name);
      expect(t.definition.annotations.readOnlyHint).toBe(t.spec.writes !== true);
    }
  });

  it('RT_READONLY leaves out exactly the commands that write', () => {
    const names = toolsOf(COMMANDS, true).map((t) => t.spec.name);
    expect(names).toEqual(SERVED.filter((n) => !COMMANDS.find((c) => c.name === n)!.writes));
    expect(names).not.toContain('undo');
  });
});

describe("a call's operands and options", () => {
  it('fields become options by their keys, operands in order (a value or path starting with - is no option)', () => {
    const { operands, options, stdin } = invocationOf(tool('grep'), {
      pattern: '-v',
      path: ['-odd.txt', 'b'],
      ignore_case: true,
      glob: ['*.ts', '!x'],
      context: 2,
      no_ignore: true,
      fixed: false,
    });
    expect(options).toEqual({ ignoreCase: true, context: 2, glob: ['*.ts', '!x'], ignore: false });
    expect(operands).toEqual(['-v', '-odd.txt', 'b']);
    expect(stdin).toBeUndefined();
  });

  it('text and patch become standard input, byte for byte; a number is taken for a line', () => {
    const edit = invocationOf(tool('edit'), { path: 'a.txt', from: 12, text: 'x\r\n\ty\n' });
    expect([edit.operands, edit.options]).toEqual([['a.txt', '12'], {}]);
    expect(edit.stdin!.toString('utf8')).toBe('x\r\n\ty\n');
    const apply = invocationOf(tool('apply'), { patch: '*** Add File: n\n+x\n', dry_run: true });
    expect([apply.operands, apply.options]).toEqual([[], { dryRun: true }]);
    expect(apply.stdin!.toString()).toBe('*** Add File: n\n+x\n');
  });

  it(
    'refuses, as bad usage naming the fields, an unknown field, a wrong ' +
      'type, a missing required field, an operand skipped before a later one',
    () => {
      const refused = (name: string, args: Record<string, unknown>) => {
        try {
          invocationOf(tool(name), args);
        } catch (error) {
          expect(error).toBeInstanceOf(RtError);
          expect((error as RtError).exitStatus).toBe(2);
          return (error as RtError).message + (error as RtError).hints.join('|');
        }
        throw new Error('not refused');
      };
      expect(refused('open', { target: 'a', colour: 'x' })).toMatch(
        /unknown field "colour".*the fields of open: target, window, hidden, no_ignore/,
      );
      expect(refused('open', { target: 'a', window: 1.5 })).toContain('window must be a whole number');
      expect(refused('open', { target: 'a', hidden: 'yes' })).toContain('hidden must be true or false');
      expect(refused('grep', { glob: 7, pattern: 'x' })).toContain('glob must be an array of strings (or one string)');
      expect(refused('edit', { path: 'a', from: '1' })).toContain('the field text is required');
      // (from may be left out, for a path naming a definition, a.py:@total; not when to is given.)
      expect(refused('edit', { path: 'a', to: 'b', from: undefined, text: '' })).toContain(
        'from must be given when a later operand is',
      );
      expect(refused('find', { dir: 'src' })).toContain('the field pattern is required');
      expect(refused('grep', { path: ['a'] })).toContain('pattern must be given when a later operand is');
      // …but for a pattern given as regexp (-e): the operands are then paths, as rg reads them.
      expect(invocationOf(tool('grep'), { regexp: ['x'], path: ['a'] })).toMatchObject({
        options: { regexp: ['x'] },
        operands: ['a'],
      });
    },
  );
});

describe('what a model calling the tools reads', () => {
  const all = [...tools.map((t) => t.definition), helpToolOf(tools)];
  /** Words of the command line, which a tool call has no use for. */
  const CLI_ONLY = /standard input|heredoc|stderr|standard error|--[a-z-]+|(?:^|\s)rt (?:open|grep|edit|undo)\b/;

  it('each description is at most 1,024 characters, the essentials first, and says where the rest is', () => {
    for (const d of all) {
      expect(d.description.length, d.name).toBeLessThanOrEqual(1024);
      expect(d.description, d.name).not.toMatch(CLI_ONLY);
    }
    const apply = all.find((d) => d.name === 'apply')!.description;
    const rules = ['all or nothing', '*** Update File', '@@ edit FROM', '*** Add File', '*** Delete File', 'Move to'];
    for (const rule of rules) expect(apply).toContain(rule);
    expect(apply).toMatch(/More: help with topic "apply"\.$/);
  });

  it("no field says the command line's words either (rg's own flags aside)", () => {
    for (const d of all) {
      const properties = d.inputSchema.properties as Record<string, { description?: string }>;
      for (const [name, schema] of Object.entries(properties)) {
        const own = schema.description?.replace(/\((?:rg|ripgrep's) --?[a-z0-9-]+\)|ripgrep's -S/g, '');
        expect(own, `${d.name}.${name}`).not.toMatch(CLI_ONLY);
      }
    }
  });

  it("the help tool gives a tool's whole description, in the tools' words, or a topic of the manual", () => {
    const apply = helpText({ topic: 'apply' }, tools, () => undefined);
    expect(apply).toContain('A moved file keeps the LIDs of its unchanged lines');
    expect(apply).toContain('Fields:\n  force: ');
    expect(apply).toContain('apply with patch: …\n  *** Begin Patch');
    expect(apply).not.toMatch(/<<'EOF'|standard input|(?:^|\s)rt apply\b/m);
    const manual = (title: string) => (title === 'ANCHORS' ? 'unless --force, as rt open 101 shows' : undefined);
    const anchors = helpText({ topic: 'anchors' }, tools, manual);
    expect(anchors).toBe(`unless force: true, as open with target: "101" shows\n`);
    expect(helpText({}, tools, () => undefined)).toMatch(/^Topics: open, scroll, .*, outline, anchors\.\n$/);
    expect(() => helpText({ topic: 'nope' }, tools, () => undefined)).toThrow(/no topic "nope"/);
  });
});

describe('lenient where a model is predictable', () => {
  it('takes a single string where a list of strings is expected', () => {
    expect(invocationOf(tool('grep'), { pattern: 'x', path: 'src', glob: '*.ts' })).toMatchObject({
      options: { glob: ['*.ts'] },
      operands: ['x', 'src'],
    });
    expect(invocationOf(tool('grep'), { regexp: 'x', path: 'src' })).toMatchObject({
      options: { regexp: ['x'] },
      operands: ['src'],
    });
    expect(() => invocationOf(tool('grep'), { regexp: 'x', pattern: 'y' })).toThrow(/not both/);
  });

  it("a count field's schema bounds are what the tool takes: window and max from 1, context from 0", () => {
    const least = (name: string, field: string) =>
      (tool(name).definition.inputSchema.properties as Record<string, { minimum: number }>)[field]!.minimum;
    const fields = [
      ['open', 'window'],
      ['scroll', 'window'],
      ['find', 'max'],
      ['grep', 'max'],
      ['grep', 'context'],
    ];
    expect(fields.map(([name, field]) => least(name!, field!))).toEqual([1, 1, 1, 1, 0]);
    expect(() => invocationOf(tool('open'), { target: 'a', window: 0 })).toThrow(/window must be a whole number, 1 or/);
    expect(invocationOf(tool('grep'), { pattern: 'x', context: 0 }).options).toEqual({ context: 0 });
  });

  it("an empty text or patch is refused in the tool's words", () => {
    expect(() => invocationOf(tool('edit'), { path: 'a', from: '1', text: '' })).toThrow(/edit: the field text is/);
    expect(() => invocationOf(tool('apply'), { patch: '' })).toThrow(/apply: the field patch is empty/);
  });
});

describe('fields described as the server takes them', () => {
  const schema = (t: string) => tool(t).definition.inputSchema.properties as Record<string, { description: string }>;

  it('a list field says it takes one string or a list; pattern and regexp say they exclude each other', () => {
    for (const field of ['path', 'glob', 'regexp'])
      expect(schema('grep')[field]!.description).toMatch(/a string, or a list of strings$/);
    expect(schema('grep_file').regexp!.description).toMatch(/a string, or a list of strings$/);
    for (const t of ['grep', 'grep_file']) {
      expect(schema(t).pattern!.description).toContain('not with regexp');
      expect(schema(t).regexp!.description).not.toMatch(/PATH|operand|repeatable/);
    }
    expect(schema('grep').count!.description).not.toContain('grep-file');
    expect(schema('grep_file').count!.description).not.toContain('PATH');
    expect(schema('grep_file').only_matching!.description).not.toContain('PATH');
  });

  it('create takes an empty text with empty: true, as the CLI takes --empty with nothing on standard input', () => {
    const create = invocationOf(tool('create'), { path: 'a.txt', empty: true, text: '' });
    expect([create.operands, create.options]).toEqual([['a.txt'], { empty: true }]);
    expect(create.stdin!.length).toBe(0);
    expect(() => invocationOf(tool('create'), { path: 'a.txt', text: '' })).toThrow(/the field text is empty/);
  });
});
