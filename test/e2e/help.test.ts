// rt help, --help and --version, with and without --json (--json on every command
// prints one JSON document; help comes from the one definition of the commands). Run through
// the built binary.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { GLOBAL_OPTIONS, HELP_COMMAND } from '../../src/cli/spec.js';
import { AGENT_GUIDE } from '../../src/docs/agents.js';
import { cleanup, expectRun, run, tempDir, type Ran } from './harness.js';

afterAll(cleanup);

const VERSION = (
  JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as { version: string }
).version;

/** The one JSON document of a run that succeeded with nothing on stderr. */
function doc(r: Ran): Record<string, any> {
  expectRun(r, { status: 0, stdout: /^[^\n]*\n$/, stderr: '' });
  return JSON.parse(r.stdout) as Record<string, any>;
}

describe(
  'rt help help and rt help --help (found by a user trial: usage on stderr, and "unknown command \'--help\'", ' +
    'exit 2)',
  () => {
    const dir = tempDir();

    it('print the help of the help command on stdout, exit 0, from its definition', () => {
      const r = run(['help', 'help'], dir);
      expectRun(r, { status: 0, stdout: /^Usage: rt help \[options\] \[topic\]\n/, stderr: '' });
      const text = r.stdout.replace(/\s+/g, ' ');
      expect(text).toContain(HELP_COMMAND.summary);
      for (const e of HELP_COMMAND.examples) expect(text).toContain(e.command);
      for (const [code, meaning] of HELP_COMMAND.exits) expect(text).toContain(`${code} ${meaning}`);
      for (const args of [
        ['help', '--help'],
        ['help', '-h'],
        ['--root', '.', 'help', 'help'],
      ])
        expectRun(run(args, dir), { status: 0, stdout: r.stdout, stderr: '' });
    });

    it("rt --help lists help as a command with its summary; rt help CMD still prints the command's help", () => {
      expectRun(run(['--help'], dir), {
        status: 0,
        stdout: new RegExp(`\\n  help \\[topic\\] +${HELP_COMMAND.summary}\\n`),
        stderr: '',
      });
      expectRun(run(['help'], dir), { status: 0, stdout: run(['--help'], dir).stdout, stderr: '' });
      expectRun(run(['help', 'open'], dir), { status: 0, stdout: run(['open', '--help'], dir).stdout, stderr: '' });
      expectRun(run(['help', 'agents'], dir), { status: 0, stdout: AGENT_GUIDE, stderr: '' });
      expectRun(run(['help', 'nosuch'], dir), { status: 2, stdout: '', stderr: /^rt: unknown command 'nosuch'\n/ });
    });
  },
);

describe('--json with --version and help (found by a user trial: text, or "unknown command \'--json\'")', () => {
  const dir = tempDir();

  it('--version --json prints {"version"}, wherever --json stands', () => {
    for (const args of [
      ['--version', '--json'],
      ['--json', '--version'],
      ['-V', '--json'],
    ]) {
      expect(doc(run(args, dir))).toEqual({ version: VERSION });
    }
    expectRun(run(['--version'], dir), { status: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it('help --json describes every command (help too) from its definition, and the global options', () => {
    const all = doc(run(['help', '--json'], dir));
    expect(all.command).toBe('help');
    expect(all.version).toBe(VERSION);
    expect(all.globalOptions.map((o: any) => o.long)).toEqual(GLOBAL_OPTIONS.map((o) => o.long));
    expect(all.commands.map((c: any) => c.name)).toEqual([...COMMANDS.map((c) => c.name), 'help']);
    const edit = all.commands.find((c: any) => c.name === 'edit');
    const spec = COMMANDS.find((c) => c.name === 'edit')!;
    expect(edit).toEqual({
      name: 'edit',
      summary: spec.summary,
      description: spec.description,
      args: spec.args.map((a) => ({ name: a.name, summary: a.summary, required: a.required })),
      options: spec.options.map((o) => ({
        long: o.long,
        ...(o.value ? { value: o.value } : {}),
        kind: o.kind,
        ...(o.choices ? { choices: o.choices } : {}),
        summary: o.summary,
        ...(o.env ? { env: o.env } : {}),
      })),
      examples: spec.examples,
      exits: spec.exits.map(([status, meaning]) => ({ status, meaning })),
      readsStdin: true,
    });
    for (const args of [
      ['--json', 'help'],
      ['--help', '--json'],
      ['-h', '--json'],
    ])
      expect(doc(run(args, dir))).toEqual(all);
  });

  it('help CMD --json, CMD --help --json and help help --json describe that command alone', () => {
    const open = doc(run(['help', 'open', '--json'], dir));
    expect(open.commands.map((c: any) => c.name)).toEqual(['open']);
    expect(open.commands[0].options[0]).toEqual({
      long: 'window',
      value: 'N',
      kind: 'count',
      summary: expect.any(String),
      env: 'RT_WINDOW',
    });
    expect(doc(run(['open', '--help', '--json'], dir))).toEqual(open);
    expect(doc(run(['--json', 'open', '-h'], dir))).toEqual(open);
    const help = doc(run(['help', 'help', '--json'], dir));
    expect(help.commands).toEqual([
      expect.objectContaining({
        name: 'help',
        summary: HELP_COMMAND.summary,
        args: [{ name: 'topic', summary: HELP_COMMAND.args[0]!.summary, required: false }],
      }),
    ]);
    expect(doc(run(['help', '--help', '--json'], dir))).toEqual(help);
    expect(doc(run(['help', 'agents', '--json'], dir))).toEqual({
      command: 'help',
      topic: 'agents',
      guide: AGENT_GUIDE,
    });
  });

  it('an unknown topic with --json is a JSON error, exit 2', () => {
    const r = run(['help', '--json', 'nosuch'], dir);
    expect(r.status, r.text).toBe(2);
    expect(JSON.parse(r.stdout).error, r.text).toMatchObject({ code: 'usage', exit: 2 });
  });
});
