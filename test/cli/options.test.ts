// The one parse step from options as given (commander's result, a tool call's fields) to the
// typed options a handler reads; and the types themselves, inferred from the option tables.

import { describe, expect, expectTypeOf, it } from 'vitest';
import { editCommand } from '../../src/cli/commands/edit.js';
import { grepCommand } from '../../src/cli/commands/grep.js';
import { openCommand } from '../../src/cli/commands/open.js';
import { optionKey, parseOptions, switchesGiven } from '../../src/cli/options.js';
import { defineCommand, type OptionSpec, type OptionsOf } from '../../src/cli/spec.js';

describe('options typed from their table', () => {
  it('a switch is a boolean, a count a number or undefined, a list strings, a choice one of its choices', () => {
    type Grep = OptionsOf<typeof grepCommand.options>;
    expectTypeOf<Grep['ignoreCase']>().toEqualTypeOf<boolean>();
    expectTypeOf<Grep['ignore']>().toEqualTypeOf<boolean>();
    expectTypeOf<Grep['max']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<Grep['glob']>().toEqualTypeOf<readonly string[]>();
    type Edit = OptionsOf<typeof editCommand.options>;
    expectTypeOf<Edit['indent']>().toEqualTypeOf<'auto' | 'keep' | undefined>();
    expectTypeOf<Edit['dryRun']>().toEqualTypeOf<boolean>();
    expectTypeOf<Edit['check']>().toEqualTypeOf<boolean>();
    expectTypeOf<keyof OptionsOf<typeof openCommand.options>>().toEqualTypeOf<'window' | 'hidden' | 'ignore'>();
  });

  it('a table whose option names the compiler cannot see (not declared as const) is refused', () => {
    const loose: OptionSpec = { long: 'loose', kind: 'switch', summary: 'a switch' };
    const command = { name: 'x', summary: '', description: [], args: [], examples: [], exits: [], readsStdin: false };
    // @ts-expect-error: its options would be typed as any option of any name
    defineCommand({ ...command, options: [loose], run: () => undefined });
    expect(defineCommand({ ...command, options: [{ ...loose, long: 'known' }], run: () => undefined }).name).toBe('x');
  });

  it('keys as commander names them', () => {
    expect(['dry-run', 'no-check', 'before-context', 'pcre2'].map(optionKey)).toEqual([
      'dryRun',
      'check',
      'beforeContext',
      'pcre2',
    ]);
  });
});

describe('the parse step', () => {
  it('fills in what was not given: switches false (a no-X switch true), lists empty, counts undefined', () => {
    const edit = parseOptions(editCommand.options, {});
    expect(edit).toEqual({ force: false, diff: false, dryRun: false, indent: undefined, check: true });
    const grep = parseOptions(grepCommand.options, {});
    expect([grep.regexp, grep.glob, grep.max, grep.context, grep.ignore]).toEqual([[], [], undefined, undefined, true]);
  });

  it('takes what was given: from a command line (counts as text) or a tool call (counts as numbers)', () => {
    const given = parseOptions(grepCommand.options, { ignoreCase: true, ignore: false, context: ' 2', glob: ['*.ts'] });
    expect([given.ignoreCase, given.ignore, given.context, given.glob]).toEqual([true, false, 2, ['*.ts']]);
    expect(parseOptions(grepCommand.options, { max: 7, context: 0 })).toMatchObject({ max: 7, context: 0 });
    expect(parseOptions(editCommand.options, { check: false, indent: 'auto' })).toMatchObject({
      check: false,
      indent: 'auto',
    });
  });

  it.each([
    [{ window: '0' }, 'open', '--window takes a whole number of lines, 1 or more (got "0")'],
    [{ window: '' }, 'open', '--window takes a whole number of lines, 1 or more (got "")'],
    [{ max: '0' }, 'grep', '--max takes a whole number of results, 1 or more (got "0")'],
    [{ context: 'x' }, 'grep', '--context takes a whole number of lines of context, 0 or more (got "x")'],
    [
      { afterContext: '1.5' },
      'grep',
      '--after-context takes a whole number of lines of context, 0 or more (got "1.5")',
    ],
  ])('refuses a bad count %j as bad usage, as the command always did', (given, command, message) => {
    const options = command === 'open' ? openCommand.options : grepCommand.options;
    expect(() => parseOptions(options, given)).toThrow(message);
  });

  it('the switches given, as a command meant repeats them (a no-X switch is none)', () => {
    expect(switchesGiven(editCommand.options, { force: true, diff: true, check: false, dryRun: undefined })).toEqual([
      'force',
      'diff',
    ]);
  });
});
