// Review of issue 21: the syntax check, rt open PATH:@NAME and --indent auto. Each
// test is a bug found by the review; it fails until the bug is fixed.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, openWindow, parseWindow, run, repoWith as repo } from './harness.js';

afterAll(cleanup);

const read = (dir: string, rel: string) => fs.readFileSync(path.join(dir, rel)).toString('utf8');

describe('syntax check: broken writes let through', () => {
  it('refuses TypeScript syntax written into a JavaScript file (TypeScript parser, read as JS, has no parse error for it)', () => {
    const js = 'function f(x) {\n  return x;\n}\n';
    for (const name of ['a.js', 'a.mjs', 'a.cjs']) {
      const dir = repo({ [name]: js });
      const w = openWindow(dir, name);
      // `node --check` fails on it: SyntaxError: Unexpected token ':'.
      const r = run(['edit', name, w.lidAt(1)], dir, { input: 'function f(x: number): number {\n' });
      expect(r.status, r.text).toBe(5);
      expect(read(dir, name)).toBe(js);
    }
  });

  it('refuses a broken edit in a long TypeScript file whose edit lies inside a class longer than the window', () => {
    // 5,000 lines, one class: the window is cut inside the class body; its fragment has 50+
    // errors of its own and the edit's error is past the cap, so it is never seen.
    let ts = 'export class Big {\n';
    for (let i = 0; i < 1000; i++)
      ts += `  m${i}(x: number): number {\n    const y = x + ${i};\n    return y;\n  }\n\n`;
    ts += '}\n';
    const dir = repo({ 'big.ts': ts });
    const w = openWindow(dir, 'big.ts:2503', ['--window', '3']);
    expect(w.lines.find((l) => l.n === 2503)?.content).toBe('    const y = x + 500;');
    const r = run(['edit', 'big.ts', w.lidAt(2503)], dir, { input: '    const y = (x + 1;\n' });
    expect(r.status, r.text).toBe(5);
    expect(read(dir, 'big.ts')).toBe(ts);
  });

  it('refuses a broken edit in the middle of a long JSON file (the window fragment stops the JSON parser at its start)', () => {
    const obj: Record<string, { a: number }> = {};
    for (let i = 0; i < 5000; i++) obj[`k${i}`] = { a: i };
    const json = `${JSON.stringify(obj, null, 2)}\n`;
    const dir = repo({ 'big.json': json });
    const w = openWindow(dir, 'big.json:8001', ['--window', '3']);
    expect(w.lines.find((l) => l.n === 8001)?.content).toBe('    "a": 2666');
    const r = run(['edit', 'big.json', w.lidAt(8001)], dir, { input: '    "a": tru\n' });
    expect(r.status, r.text).toBe(5);
    expect(read(dir, 'big.json')).toBe(json);
  });

  it('refuses a broken edit in a long YAML file without blank lines between its keys', () => {
    let yaml = '';
    for (let i = 0; i < 2000; i++) yaml += `k${i}:\n  a: ${i}\n  b: [1, 2]\n`;
    const dir = repo({ 'big.yaml': yaml });
    const w = openWindow(dir, 'big.yaml:3003', ['--window', '3']);
    expect(w.lines.find((l) => l.n === 3003)?.content).toBe('  b: [1, 2]');
    // The same edit in a 300-line file is refused (exit 5).
    const r = run(['edit', 'big.yaml', w.lidAt(3003)], dir, { input: '  b: [1, 2\n' });
    expect(r.status, r.text).toBe(5);
    expect(read(dir, 'big.yaml')).toBe(yaml);
  });
});

describe('syntax check: valid syntax the grammar cannot read', () => {
  // A case item ending in ;;& (bash 4) is an error to the Bash grammar; bash -n, asked before a
  // refusal, reads it. A change that breaks the script is still refused.
  it('a Bash case item ending in ;;& is written; a case left open is refused', () => {
    const dir = repo({});
    expect(run(['create', 'c.sh'], dir, { input: 'case $x in *) echo;;& esac\n' }).status).toBe(0);
    expect(run(['create', 'd.sh'], dir, { input: 'case $x in *) echo;;&\n' }).status).toBe(5);
  });
});

describe('rt open PATH:@NAME', () => {
  it('opens every name rt outline --names (and so the completions) offers: Ruby predicate and bang methods, JS private methods', () => {
    const rb = 'class Account\n  def valid?\n    true\n  end\n\n  def save!\n    1\n  end\nend\n';
    const js = 'class C {\n  #priv() {\n    return 1;\n  }\n}\n';
    const dir = repo({ 'm.rb': rb, 'c.js': js });
    const names = run(['outline', 'm.rb', '--names'], dir);
    expect(names.stdout.split('\n')).toContain('Account.valid?');
    for (const [file, name, line] of [
      ['m.rb', 'Account.valid?', 2],
      ['m.rb', 'save!', 6],
      ['c.js', 'C.#priv', 2],
    ] as const) {
      const r = run(['open', `${file}:@${name}`], dir);
      expect(r.status, r.text).toBe(0);
      expect(r.stdout).toContain(`\n${line}:`);
    }
  });

  it('several definitions of one qualified name (a function defined twice): the hint does not send the user back to that same ambiguous name', () => {
    const js = 'function twice(x) {}\nfunction twice(x) {\n  return x;\n}\n';
    const dir = repo({ 'o.js': js });
    const r = run(['open', 'o.js:@twice'], dir);
    expect(r.status, r.text).toBe(2);
    expect(r.stderr).not.toContain('rt open o.js:@twice)');
  });

  it('overload signatures and their implementation are one definition, opened whole', () => {
    const ts =
      'function overload(x: string): void;\nfunction overload(x: number): void;\nfunction overload(x: any) {}\n';
    const dir = repo({ 'o.ts': ts });
    const r = run(['open', 'o.ts:@overload'], dir);
    expect(r.status, r.text).toBe(0);
    expect(parseWindow(r).lines.map((l) => l.n)).toEqual([1, 2, 3]);
  });
});

describe('--indent auto', () => {
  it('a line inserted right after the last line of a Python function body stays in the body (not moved to the top level by the def below the blank lines)', () => {
    const py = 'def f():\n    a = 1\n    b = 2\n\n\ndef g():\n    pass\n';
    const dir = repo({ 'p.py': py });
    const w = openWindow(dir, 'p.py');
    const r = run(['insert', 'p.py', w.lidAt(3), '--after', '--indent', 'auto'], dir, { input: 'c = 3\n' });
    expect(r.status, r.text).toBe(0);
    expect(read(dir, 'p.py')).toBe('def f():\n    a = 1\n    b = 2\n    c = 3\n\n\ndef g():\n    pass\n');
  });
});
