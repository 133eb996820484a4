import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_GUIDE } from '../../src/docs/agents.js';
import { cleanEnv, run, tempDir } from './harness.js';

const root = path.resolve(__dirname, '../..');

/** Runs bash's completion function for the words typed so far (the last one is being completed). */
function complete(cwd: string, words: readonly string[]): string[] {
  const script = `source ${JSON.stringify(path.join(root, 'completions/rt.bash'))}
COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; COMPREPLY=()
_rt; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const r = spawnSync('bash', ['--norc', '-c', script], { cwd, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.split('\n').filter(Boolean).sort();
}

describe('shell completions', () => {
  it('rt completions SHELL prints the committed scripts', () => {
    for (const [shell, file] of [
      ['bash', 'rt.bash'],
      ['zsh', '_rt'],
      ['fish', 'rt.fish'],
    ] as const) {
      const r = run(['completions', shell], root);
      expect(r.status, r.text).toBe(0);
      expect(r.stdout).toBe(fs.readFileSync(path.join(root, 'completions', file), 'utf8'));
    }
    const bad = run(['completions', 'tcsh'], root);
    expect(bad.status, bad.text).toBe(2);
  });

  it('the bash script registers rt and completes commands, options, values and paths', () => {
    const r = spawnSync(
      'bash',
      ['--norc', '-c', `source ${JSON.stringify(path.join(root, 'completions/rt.bash'))}; complete -p rt`],
      { encoding: 'utf8' },
    );
    expect(r.stdout).toMatch(/^complete .*-F _rt rt$/m);

    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(path.join(dir, 'src', 'app.ts'), 'x\n');
    fs.writeFileSync(path.join(dir, 'notes.md'), 'x\n');
    expect(complete(dir, ['rt', 'gr'])).toEqual(['grep', 'grep-file']);
    expect(complete(dir, ['rt', 'open', 'no'])).toEqual(['notes.md']);
    expect(complete(dir, ['rt', 'open', 'src/'])).toEqual(['src/app.ts']);
    expect(complete(dir, ['rt', 'grep', '--h'])).toEqual(['--help', '--hidden']);
    expect(complete(dir, ['rt', 'grep', '-C', ''])).toEqual([]); // a number goes there
    expect(complete(dir, ['rt', 'grep', 'pattern', 'sr'])).toEqual(['src']);
    expect(complete(dir, ['rt', 'scroll', 'notes.md', ''])).toEqual(['+', '-']);
    expect(complete(dir, ['rt', 'find', '*.ts', ''])).toEqual(['src']);
    expect(complete(dir, ['rt', 'completions', ''])).toEqual(['bash', 'fish', 'zsh']);
    expect(complete(dir, ['rt', 'help', 'ag'])).toEqual(['agents']);
    expect(complete(dir, ['rt', '--root', 'sr'])).toEqual(['src']);
    // Before the command word: the global options and their fixed values.
    expect(complete(dir, ['rt', '--color', ''])).toEqual(['always', 'auto', 'never']);
    expect(complete(dir, ['rt', '--j'])).toEqual(['--json']);
    expect(complete(dir, ['rt', '--json', '--color', 'never', 'gr'])).toEqual(['grep', 'grep-file']);
  });

  it('completes PATH:@ with the names rt outline gives, however bash splits the word at the colon', () => {
    const dir = tempDir();
    fs.writeFileSync(
      path.join(dir, 'cart.ts'),
      'export class Cart {\n  add() {}\n  total() {}\n}\nexport function checkout() {}\n',
    );
    const bin = tempDir();
    fs.writeFileSync(
      path.join(bin, 'rt'),
      `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(root, 'bin/rt.cjs'))} "$@"\n`,
      { mode: 0o755 },
    );
    const typed = (line: string, words: readonly string[]) => {
      const script = `source ${JSON.stringify(path.join(root, 'completions/rt.bash'))}
COMP_LINE=${JSON.stringify(line)}; COMP_POINT=${line.length}
COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; COMPREPLY=()
_rt; printf '%s\\n' "\${COMPREPLY[@]}"`;
      const r = spawnSync('bash', ['--norc', '-c', script], {
        cwd: dir,
        encoding: 'utf8',
        env: cleanEnv({ PATH: `${bin}:${process.env.PATH}` }),
      });
      expect(r.status, r.stderr).toBe(0);
      return r.stdout.split('\n').filter(Boolean).sort();
    };
    // COMP_WORDBREAKS with a colon (bash's default): the word is what follows it.
    expect(typed('rt open cart.ts:@Ca', ['rt', 'open', 'cart.ts', ':', '@Ca'])).toEqual([
      '@Cart',
      '@Cart.add',
      '@Cart.total',
    ]);
    // Without: the whole word.
    expect(typed('rt open cart.ts:@ch', ['rt', 'open', 'cart.ts:@ch'])).toEqual(['cart.ts:@checkout']);
  });

  for (const [shell, check] of [
    ['zsh', ['zsh', '-n']],
    ['fish', ['fish', '--no-execute']],
  ] as const) {
    const has = spawnSync(check[0], ['--version']).status === 0;
    it.skipIf(!has)(`the ${shell} script is valid ${shell}`, () => {
      const r = spawnSync(check[0], [check[1], path.join(root, 'completions', shell === 'zsh' ? '_rt' : 'rt.fish')], {
        encoding: 'utf8',
      });
      expect(r.status, r.stderr).toBe(0);
    });
  }
});

describe('rt help agents', () => {
  it('prints the agent guide, at most 43 lines, which the README carries too', () => {
    const r = run(['help', 'agents'], root);
    expect(r.status, r.text).toBe(0);
    expect(r.stdout).toBe(AGENT_GUIDE);
    // (39 before project-wide changes, which were allowed four lines more.)
    expect(AGENT_GUIDE.split('\n').length).toBeLessThanOrEqual(43);
    expect(fs.readFileSync(path.join(root, 'README.md'), 'utf8')).toContain(AGENT_GUIDE);
  });
});

describe('rt help CMD', () => {
  it('shows, for every command, what its definition holds: summary, arguments, options, examples, exits', async () => {
    const { COMMANDS } = await import('../../src/cli/commands/index.js');
    for (const c of COMMANDS) {
      const r = run(['help', c.name], root);
      expect(r.status, r.text).toBe(0);
      const text = r.stdout.replace(/\s+/g, ' ');
      expect(text).toContain(c.summary);
      for (const a of c.args) expect(text).toContain(a.name);
      for (const o of c.options) expect(text).toContain(`--${o.long}`);
      for (const e of c.examples) expect(text).toContain(e.command.replace(/\s+/g, ' '));
      for (const [code, meaning] of c.exits) expect(text).toContain(`${code} ${meaning}`);
    }
  });
});

describe('global options before the command word', () => {
  it('rt with global options but no command is bad usage (exit 2), a JSON error with --json', () => {
    for (const args of [[], ['--json'], ['--root', '.'], ['--color=never']]) {
      const r = run(args, root);
      expect(r.status, r.text).toBe(2);
      expect(r.stderr, r.text).toMatch(/^rt: no command given/);
      if (args.includes('--json')) expect(JSON.parse(r.stdout).error, r.text).toMatchObject({ code: 'usage', exit: 2 });
      else expect(r.stdout, r.text).toBe('');
    }
  });

  it('rt --root DIR help agents prints the guide; rt --json help NOSUCH is bad usage', () => {
    expect(run(['--root', '.', 'help', 'agents'], root).stdout).toBe(AGENT_GUIDE);
    const r = run(['--json', 'help', 'nosuch'], root);
    expect(r.status, r.text).toBe(2);
    expect(JSON.parse(r.stdout).error.code).toBe('usage');
  });

  it(
    'a usage error names the command given, not an operand that ' +
      'happens to be a command name; --json after -- is an operand',
    () => {
      const r = run(['grep', '--bogus', 'find'], root);
      expect(r.status, r.text).toBe(2);
      expect(r.stderr, r.text).toContain('rt help grep');
      const dir = tempDir();
      const f = run(['find', '--max', '0', '--', '--json'], dir);
      expect(f.status, f.text).toBe(2);
      expect(f.stdout, f.text).toBe('');
    },
  );
});
