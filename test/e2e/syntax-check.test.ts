// The syntax check of every write: a change that leaves a file in a known language with
// a syntax error it did not have is refused (exit 5, nothing written), naming the error at its
// line as it would be; errors already there never block; a change broken in between passes as
// one apply; a check that cannot run never blocks.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, openWindow, RT_BIN, run, tempDir, tempRepo, write, repoWith as repo } from './harness.js';

afterAll(cleanup);

const read = (dir: string, rel: string) => fs.readFileSync(path.join(dir, rel));
const readText = (dir: string, rel: string) => fs.readFileSync(path.join(dir, rel)).toString('utf8');

const TS =
  'export function total(items: number[]): number {\n  let sum = 0;\n  for (const item of items) {\n    sum ' +
  '+= item;\n  }\n  return sum;\n}\n';

describe('the syntax check', () => {
  it(
    'refuses an edit that breaks the syntax: exit 5, nothing written, ' +
      'the error at its line with its LID as it would be, and the ways on',
    () => {
      const dir = repo({ 'src/total.ts': TS });
      const w = openWindow(dir, 'src/total.ts');
      const r = run(['edit', 'src/total.ts', w.lidAt(4)], dir, { input: '    sum += (item;\n' });
      expect(r.status, r.text).toBe(5);
      expect(r.stdout).toBe('');
      expect(read(dir, 'src/total.ts').toString()).toBe(TS);
      expect(r.stderr).toMatch(
        new RegExp(
          String.raw`^rt: the change would leave src\/total\.ts with a syntax error it did not have; ` +
            String.raw`nothing was written:\nrt: {3}4:[0-9a-z]{4}\| {4}sum \+= \(item;\nrt: {5}line 4, column \d+: ` +
            'missing `\\)`\\n',
        ),
      );
      expect(r.stderr).toContain('make all of it one rt apply');
      expect(r.stderr).toContain('add --no-check (or RT_CHECK=off)');
      expect(fs.existsSync(path.join(dir, '.rt/history/steps.json'))).toBe(false);
    },
  );

  it('--json prints the refusal as one document with each error', () => {
    const dir = repo({ 'a.py': 'def f(x):\n    return x\n' });
    const w = openWindow(dir, 'a.py');
    const r = run(['edit', 'a.py', w.lidAt(2), '--json'], dir, { input: '    return (x\n' });
    expect(r.status, r.text).toBe(5);
    const doc = JSON.parse(r.stdout);
    expect(doc.error).toMatchObject({ code: 'syntax', exit: 5 });
    expect(doc.error.errors[0]).toMatchObject({ path: 'a.py', line: 2 });
    expect(doc.error.errors[0].lid).toMatch(/^[0-9a-z]{4}$/);
  });

  it(
    'lets through a valid edit, an edit of a file already broken elsewhere, ' +
      'one that fixes an error, and one that moves an existing error',
    () => {
      const broken = 'function a() {\n  return 1;\n}\nfunction b( {\n  return 2;\n}\nconst c = 3;\n';
      const dir = repo({ 'b.js': broken });
      let w = openWindow(dir, 'b.js');
      // Elsewhere in a broken file.
      let r = run(['edit', 'b.js', w.lidAt(7)], dir, { input: 'const c = 4;\n' });
      expect(r.status, r.text).toBe(0);
      // Lines added above the error move it.
      w = openWindow(dir, 'b.js');
      r = run(['insert', 'b.js', w.lidAt(1)], dir, { input: '// a comment\n// another\n' });
      expect(r.status, r.text).toBe(0);
      // The error fixed.
      w = openWindow(dir, 'b.js');
      r = run(['edit', 'b.js', w.lidAt(6)], dir, { input: 'function b() {\n' });
      expect(r.status, r.text).toBe(0);
      expect(read(dir, 'b.js').toString()).toBe(
        '// a comment\n// another\nfunction a() {\n  return 1;\n}\nfunction b() {\n  return 2;\n}\nconst c = 4;\n',
      );
    },
  );

  it(
    'a change broken in between passes as one apply (its ' +
      'check sees the final content), and is refused as two edits',
    () => {
      const dir = repo({ 'm.ts': TS });
      const w = openWindow(dir, 'm.ts');
      // Wrapping the loop in an if: an opening line, then its closing line, each alone breaks the file.
      const first = run(['insert', 'm.ts', w.lidAt(3)], dir, { input: '  if (items.length) {\n' });
      expect(first.status, first.text).toBe(5);
      const patch =
        `*** Begin Patch\n*** Update File: m.ts\n@@ insert before ${w.lidAt(3)}\n+  if (items.length) {\n@@ ` +
        `insert after ${w.lidAt(5)}\n+  }\n*** End Patch\n`;
      const r = run(['apply'], dir, { input: patch });
      expect(r.status, r.text).toBe(0);
      expect(read(dir, 'm.ts').toString()).toContain(
        '  if (items.length) {\n  for (const item of items) {\n    sum += item;\n  }\n  }\n',
      );
    },
  );

  it('refuses a whole apply when one of its files breaks, naming that file, and writes none of them', () => {
    const dir = repo({ 'ok.ts': TS, 'bad.json': '{\n  "a": 1,\n  "b": 2\n}\n' });
    const wo = openWindow(dir, 'ok.ts');
    const wb = openWindow(dir, 'bad.json');
    const patch =
      `*** Begin Patch\n*** Update File: ok.ts\n@@ edit ${wo.lidAt(2)}\n+  let sum = 1;\n*** Update File: ` +
      `bad.json\n@@ edit ${wb.lidAt(2)}\n+  "a": 1\n*** End Patch\n`;
    const r = run(['apply'], dir, { input: patch });
    expect(r.status, r.text).toBe(5);
    expect(r.stderr).toMatch(/would leave bad\.json with a syntax error/);
    expect(read(dir, 'ok.ts').toString()).toBe(TS);
  });

  it('checks create: a new file with a syntax error is refused; --no-check and RT_CHECK=off write it', () => {
    const dir = repo({});
    const r = run(['create', 'new.rs'], dir, { input: 'fn main() {\n    let x = ;\n}\n' });
    expect(r.status, r.text).toBe(5);
    expect(fs.existsSync(path.join(dir, 'new.rs'))).toBe(false);
    expect(run(['create', 'new.rs', '--no-check'], dir, { input: 'fn main() {\n    let x = ;\n}\n' }).status).toBe(0);
    expect(run(['create', 'other.rs'], dir, { input: 'fn main( {\n', env: { RT_CHECK: 'off' } }).status).toBe(0);
  });

  it('does not check a file of an unknown language, or a deletion of a whole file', () => {
    const dir = repo({ 'notes.txt': 'a (\n', 'x.unknownext': 'b\n' });
    const w = openWindow(dir, 'x.unknownext');
    expect(run(['edit', 'x.unknownext', w.lidAt(1)], dir, { input: 'function ( {\n' }).status).toBe(0);
    expect(run(['create', 'plain.txt'], dir, { input: '{{{\n' }).status).toBe(0);
  });

  it('finds the language by shebang when the name has no extension', () => {
    const dir = repo({ 'bin/tool': '#!/usr/bin/env python3\nprint("hi")\n' });
    const w = openWindow(dir, 'bin/tool');
    const r = run(['edit', 'bin/tool', w.lidAt(2)], dir, { input: 'print("hi"\n' });
    expect(r.status, r.text).toBe(5);
  });

  it('keeps the bytes of CRLF and BOM files, and checks them as their lines say', () => {
    const bytes = Buffer.from('\xef\xbb\xbfconst a = 1;\r\nconst b = 2;\r\n', 'latin1');
    const dir = repo({ 'crlf.js': bytes });
    const w = openWindow(dir, 'crlf.js');
    const bad = run(['edit', 'crlf.js', w.lidAt(2)], dir, { input: 'const b = ;\n' });
    expect(bad.status, bad.text).toBe(5);
    expect(bad.stderr).toMatch(/rt: {3}2:[0-9a-z]{4}\|const b = ;\n/);
    const good = run(['edit', 'crlf.js', w.lidAt(2)], dir, { input: 'const b = 3;\n' });
    expect(good.status, good.text).toBe(0);
    expect(read(dir, 'crlf.js')).toEqual(Buffer.from('\xef\xbb\xbfconst a = 1;\r\nconst b = 3;\r\n', 'latin1'));
  });

  it('reads tsconfig.json as JSON with comments', () => {
    const dir = repo({
      'tsconfig.json': '{\n  // the options\n  "compilerOptions": {\n    "strict": true,\n  },\n}\n',
    });
    const w = openWindow(dir, 'tsconfig.json');
    const r = run(['edit', 'tsconfig.json', w.lidAt(4)], dir, { input: '    "strict": false, // for now\n' });
    expect(r.status, r.text).toBe(0);
  });

  it('reads babel.config.json and renovate.json as JSON with comments, *.json5 as JSON5', () => {
    const dir = repo({
      'babel.config.json': '{\n  "presets": []\n}\n',
      'renovate.json': '{\n  "extends": []\n}\n',
      'app.json5': '{\n  a: 1,\n}\n',
    });
    for (const file of ['babel.config.json', 'renovate.json']) {
      const w = openWindow(dir, file);
      const r = run(['edit', file, w.lidAt(2)], dir, { input: '  // why\n  "x": [],\n' });
      expect(r.status, r.text).toBe(0);
    }
    const w = openWindow(dir, 'app.json5');
    expect(run(['edit', 'app.json5', w.lidAt(2)], dir, { input: "  a: 0x1F, b: 'two', // three\n" }).status).toBe(0);
    const again = openWindow(dir, 'app.json5');
    expect(run(['edit', 'app.json5', again.lidAt(2)], dir, { input: '  a: [1 2],\n' }).status).toBe(5);
  });

  it(
    'checks valid modern syntax without refusing it: TypeScript ' +
      'satisfies and using, decorators, Python match and type, Rust let-else',
    () => {
      const dir = repo({ 'm.ts': 'export const a = 1;\n', 'm.py': 'x = 1\n', 'm.rs': 'fn main() {}\n' });
      const cases: Array<[string, string]> = [
        [
          'm.ts',
          'export const config = { port: 1 } satisfies Record<string, number>;\n{ using res = open(); ' +
            '}\n@sealed class A { @log m() {} }\n',
        ],
        ['m.py', 'type Point = tuple[float, float]\nmatch x:\n    case 1:\n        pass\n    case _:\n        pass\n'],
        ['m.rs', 'fn f(o: Option<i32>) -> i32 {\n    let Some(v) = o else { return 0 };\n    v\n}\n'],
      ];
      for (const [file, text] of cases) {
        const w = openWindow(dir, file);
        const r = run(['edit', file, w.lidAt(1)], dir, { input: text });
        expect(r.status, r.text).toBe(0);
      }
    },
  );

  it('skips, with a one-line note, a file too large to check; the edit is written', () => {
    const dir = repo({});
    // 17 MB of JavaScript: above the 16 MB rt checks.
    const line = `const x${'0'.repeat(60)} = ${'1'.repeat(60)};\n`;
    write(dir, 'big.js', line.repeat(Math.ceil((17 * 1024 * 1024) / line.length)));
    const r = run(['insert', 'big.js', '1', '--force'], dir, { input: 'const y = ;\n' });
    expect(r.status, r.text).toBe(0);
    expect(r.stderr).toMatch(/^rt: big\.js was not syntax-checked: [\d.]+ MB is more than the 16 MB rt checks\n/);
  });

  it('skips a minified bundle (one very long line) with a note, and writes', () => {
    const dir = repo({ 'bundle.min.js': `${'var a=1;'.repeat(200_000)}\n` });
    const r = run(['insert', 'bundle.min.js', '$', '--force'], dir, { input: 'var b=2;\n' });
    expect(r.status, r.text).toBe(0);
    expect(r.stderr).toMatch(/was not syntax-checked: lines too long to check/);
  });

  it('a grammar that cannot be loaded never blocks a write: it warns and writes', () => {
    // A copy of the built rt whose Python grammar is damaged.
    const copy = tempDir('rt-copy-');
    const built = path.resolve(path.dirname(RT_BIN), '..');
    fs.cpSync(path.join(built, 'bin'), path.join(copy, 'bin'), { recursive: true });
    // Not the single executable (npm run sea), 120 MB that bin/rt.cjs never runs.
    fs.cpSync(path.join(built, 'dist'), path.join(copy, 'dist'), {
      recursive: true,
      filter: (from) => !/[\\/]dist[\\/]rt(?:\.exe)?$/.test(from),
    });
    fs.writeFileSync(path.join(copy, 'dist/grammars/tree-sitter-python.wasm'), 'not a grammar');
    const dir = repo({ 'a.py': 'x = 1\n' });
    const w = openWindow(dir, 'a.py');
    const r = run(['edit', 'a.py', w.lidAt(1)], dir, { input: 'x = (\n', bin: path.join(copy, 'bin/rt.cjs') });
    expect(r.status, r.text).toBe(0);
    expect(r.stderr).toMatch(/^rt: a\.py was not syntax-checked: the python grammar did not load/);
    expect(read(dir, 'a.py').toString()).toBe('x = (\n');
  });
});

describe('the syntax check never refuses valid syntax its grammar is too old for', () => {
  it(
    "TypeScript and JavaScript: TypeScript's own parser has the last word (accessor, variance, export type *, " +
      'import defer)',
    () => {
      const dir = tempRepo();
      write(dir, 'm.ts', 'export const a = 1;\n');
      write(dir, 'm.js', 'export const a = 1;\n');
      const ts = openWindow(dir, 'm.ts');
      const r = run(['edit', 'm.ts', ts.lidAt(1)], dir, {
        input:
          'export class Box<in T, out U> {\n  static accessor count = 0;\n}\nexport type * from ' +
          '"./other";\nimport defer * as heavy from "./heavy";\n',
      });
      expect(r.status, r.text).toBe(0);
      const js = openWindow(dir, 'm.js');
      expect(run(['edit', 'm.js', js.lidAt(1)], dir, { input: 'class A { static accessor x = 1; }\n' }).status).toBe(0);
      // A real error is still refused.
      const again = openWindow(dir, 'm.ts');
      expect(run(['insert', 'm.ts', again.lidAt(1)], dir, { input: 'const broken = (;\n' }).status).toBe(5);
    },
  );
});

describe('a change whose tree web-tree-sitter cannot be asked for parents of (test/lang/fixtures/README.md)', () => {
  it('is refused as a syntax error (exit 5), not an internal error', () => {
    const broken = fs.readFileSync(path.join(__dirname, '../lang/fixtures/parent-crash.ts.txt'));
    const dir = repo({ 'keep.ts': 'export const a = 1;\n' });
    const r = run(['create', 'rule.ts'], dir, { input: broken });
    expect(r.status, r.text).toBe(5);
    expect(r.stderr).toMatch(
      /^rt: the change would leave rule\.ts with \d+ syntax errors it did not have; nothing was written/,
    );
    expect(fs.existsSync(path.join(dir, 'rule.ts'))).toBe(false);
  });
});

describe('the check never crashes', () => {
  it(
    'an Add File of JavaScript full of ANSI colour escapes (a highlighted ' +
      'fixture) is refused or skipped with a note, never an internal error',
    () => {
      const words = [
        'let',
        'x',
        '=',
        '1000',
        ';',
        'function',
        'f',
        '(',
        ')',
        '{',
        'return',
        '}',
        '"text"',
        'if',
        'else',
        '[',
        ']',
        '=>',
      ];
      const rows = Array.from({ length: 75 }, (_, row) =>
        Array.from(
          { length: 7 },
          (_, k) => `\x1b[38;2;${(row * 7 + k) % 255};2;3m${words[(row * 7 + k) % words.length]}\x1b[0m`,
        ).join(' '),
      );
      const dir = repo({ 'keep.js': 'export const a = 1;\n' });
      const r = run(['apply'], dir, {
        input: `*** Begin Patch\n*** Add File: test.js\n${rows.map((row) => `+${row}`).join('\n')}\n*** End Patch\n`,
      });
      // Refused as it is not JavaScript, unless its parse overran the time bound on a busy machine.
      if (r.status === 0) expect(r.stderr).toMatch(/^rt: test\.js was not syntax-checked: parsing took longer than/);
      else expect(r.status, r.text).toBe(5);
      expect(r.stderr).not.toMatch(/internal error/);
    },
  );

  it('nesting 20,000 deep in a new Go file is judged or skipped with a note, never an internal error', () => {
    const dir = repo({ 'keep.go': 'package a\n' });
    const r = run(['create', 'deep.go'], dir, {
      input: `package a\nvar x = ${'('.repeat(20_000)}1${')'.repeat(20_000)}\n`,
    });
    expect(r.status, r.text).not.toBe(2);
    expect(r.stderr).not.toMatch(/internal error/);
  });
});

describe('a break that a window finds in a file too long to confirm whole', () => {
  it('is refused (exit 5), saying so and naming --no-check', () => {
    const method = (i: number) => [
      '',
      `class C${i} {`,
      '  m(a: number): number {',
      `    return a + ${i}; // ${'x'.repeat(8)}`,
      '  }',
      '  n(a: number): number {',
      `    return a - ${i};`,
      '  }',
      '}',
    ];
    const text = `${Array.from({ length: 12_000 }, (_, i) => method(i))
      .flat()
      .join('\n')}\n`;
    const dir = repo({ 'big.ts': text });
    const line = 60_005; // the `}` of m in the class on lines 60,002-60,009
    openWindow(dir, `big.ts:${line}`);
    const r = run(['delete', 'big.ts', String(line)], dir);
    expect(r.status, r.text).toBe(5);
    expect(r.stderr).toMatch(/line 6000\d, column \d+/);
    expect(r.stderr).toMatch(
      /found in the lines around the change; the file is too long \(\d\.\d MB\) to confirm them on the whole file/,
    );
    expect(r.stderr).toContain('add --no-check');
    expect(read(dir, 'big.ts').toString()).toBe(text);
  });
});

describe('a valid file the grammar misreads whole (test/lang/fixtures/README.md)', () => {
  it("a deleted `}` in it is refused: TypeScript's parser judges", () => {
    const text = fs.readFileSync(path.join(__dirname, '../lang/fixtures/zx-core-head.ts.txt'), 'utf8');
    const dir = repo({ 'core.ts': text });
    const line = text.split('\n').indexOf('  })', 200) + 1;
    openWindow(dir, `core.ts:${line}`);
    const r = run(['delete', 'core.ts', String(line)], dir);
    expect(r.status, r.text).toBe(5);
    expect(read(dir, 'core.ts').toString()).toBe(text);
    // The errors nearest the change first (not line 1), each line shown once above its errors.
    const first = Number(/line (\d+), column \d+/.exec(r.stderr)![1]);
    expect(Math.abs(first - line)).toBeLessThan(10);
    const shown = [...r.stderr.matchAll(/^rt: {3}(\d+):/gm)].map((m) => m[1]);
    expect(new Set(shown).size).toBe(shown.length);
  });
});

describe("Python's indentation rules, which its grammar does not check", () => {
  const PY = 'def f(x):\n    if x:\n        return 1\n    return 2\n';

  it.each([
    ['a dedent to no outer level', 4, '  return 2\n', 'unindent does not match any outer indentation level'],
    ['a body edited to column 0', 3, 'return 1\n', "expected an indented block after 'if' statement on line 2"],
    ['a line indented under no header', 3, '        return 1\n          z = 2\n', 'unexpected indent'],
    ['a tab where spaces opened the level', 3, '\t return 1\n', 'inconsistent use of tabs and spaces in indentation'],
  ])('%s is refused, nothing written', (_what, line, text, message) => {
    const dir = repo({ 'f.py': PY });
    const w = openWindow(dir, 'f.py');
    const r = run(['edit', 'f.py', w.lidAt(line)], dir, { input: text });
    expect(r.status, r.text).toBe(5);
    expect(r.stderr).toContain(message);
    expect(read(dir, 'f.py').toString()).toBe(PY);
  });

  it('a valid re-indentation passes', () => {
    const dir = repo({ 'f.py': PY });
    const w = openWindow(dir, 'f.py');
    expect(run(['edit', 'f.py', w.lidAt(3)], dir, { input: '        return 1  # one\n' }).status).toBe(0);
  });
});

describe('syntax check: broken writes are refused in JavaScript, long files and long JSON or YAML', () => {
  it(
    'refuses TypeScript syntax written into a JavaScript file ' +
      '(TypeScript parser, read as JS, has no parse error for it)',
    () => {
      const js = 'function f(x) {\n  return x;\n}\n';
      for (const name of ['a.js', 'a.mjs', 'a.cjs']) {
        const dir = repo({ [name]: js });
        const w = openWindow(dir, name);
        // `node --check` fails on it: SyntaxError: Unexpected token ':'.
        const r = run(['edit', name, w.lidAt(1)], dir, { input: 'function f(x: number): number {\n' });
        expect(r.status, r.text).toBe(5);
        expect(readText(dir, name)).toBe(js);
      }
    },
  );

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
    expect(readText(dir, 'big.ts')).toBe(ts);
  });

  it(
    'refuses a broken edit in the middle of a long JSON file ' +
      '(the window fragment stops the JSON parser at its start)',
    () => {
      const obj: Record<string, { a: number }> = {};
      for (let i = 0; i < 5000; i++) obj[`k${i}`] = { a: i };
      const json = `${JSON.stringify(obj, null, 2)}\n`;
      const dir = repo({ 'big.json': json });
      const w = openWindow(dir, 'big.json:8001', ['--window', '3']);
      expect(w.lines.find((l) => l.n === 8001)?.content).toBe('    "a": 2666');
      const r = run(['edit', 'big.json', w.lidAt(8001)], dir, { input: '    "a": tru\n' });
      expect(r.status, r.text).toBe(5);
      expect(readText(dir, 'big.json')).toBe(json);
    },
  );

  it('refuses a broken edit in a long YAML file without blank lines between its keys', () => {
    let yaml = '';
    for (let i = 0; i < 2000; i++) yaml += `k${i}:\n  a: ${i}\n  b: [1, 2]\n`;
    const dir = repo({ 'big.yaml': yaml });
    const w = openWindow(dir, 'big.yaml:3003', ['--window', '3']);
    expect(w.lines.find((l) => l.n === 3003)?.content).toBe('  b: [1, 2]');
    // The same edit in a 300-line file is refused (exit 5).
    const r = run(['edit', 'big.yaml', w.lidAt(3003)], dir, { input: '  b: [1, 2\n' });
    expect(r.status, r.text).toBe(5);
    expect(readText(dir, 'big.yaml')).toBe(yaml);
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
