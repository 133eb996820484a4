// rt outline and rt open PATH:@NAME: a file's definitions in file order as window
// lines, counting as shown; a definition opened whole by its name or qualified name.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, expectRun, parseWindow, range, run, repoWith as repo } from './harness.js';

afterAll(cleanup);

const CART = `import { x } from './x';

export class Cart {
  items: number[] = [];

  add(item: number): void {
    this.items.push(item);
  }

  total(): number {
    return this.items.reduce((a, b) => a + b, 0);
  }
}

export function checkout(cart: Cart): number {
  return cart.total();
}

export function total(xs: number[]): number {
  return xs.length;
}

const TAX = 0.2;
`;

describe('rt outline', () => {
  it('lists the definitions in file order as window lines under its header; they count as shown', () => {
    const dir = repo({ 'src/cart.ts': CART });
    const r = run(['outline', 'src/cart.ts'], dir);
    expect(r.status, r.text).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('--- src/cart.ts (outline: 6 definitions of 23 lines) ---');
    expect(lines.slice(1, -1).map((l) => l.replace(/:[0-9a-z]+\|/, ':LID|'))).toEqual([
      '3:LID|export class Cart {',
      '6:LID|  add(item: number): void {',
      '10:LID|  total(): number {',
      '15:LID|export function checkout(cart: Cart): number {',
      '19:LID|export function total(xs: number[]): number {',
      '23:LID|const TAX = 0.2;',
    ]);
    // Shown: line 6 can be edited by its LID without opening the file.
    const lid = /^6:([0-9a-z]+)\|/m.exec(r.stdout)![1]!;
    const e = run(['edit', 'src/cart.ts', lid], dir, { input: '  add(item: number, count = 1): void {\n' });
    expect(e.status, e.text).toBe(0);
  });

  it('--json gives kind, name, qualified name and range; --names the qualified names', () => {
    const dir = repo({ 'src/cart.ts': CART });
    const doc = JSON.parse(run(['outline', 'src/cart.ts', '--json'], dir).stdout);
    expect(doc.total).toBe(23);
    expect(doc.definitions[1]).toMatchObject({
      line: 6,
      kind: 'method',
      name: 'add',
      qualifiedName: 'Cart.add',
      start: 6,
      end: 8,
      content: '  add(item: number): void {',
    });
    expect(run(['outline', 'src/cart.ts', '--names'], dir).stdout).toBe(
      'Cart\nCart.add\nCart.total\ncheckout\ntotal\nTAX\n',
    );
  });

  it('outlines Python, Go and Rust, and a script by its #! line', () => {
    const dir = repo({
      'a.py': 'class Shop:\n    def buy(self):\n        pass\n\ndef main():\n    pass\n',
      'b.go': 'package b\n\ntype Cart struct{}\n\nfunc (c *Cart) Add() {}\n\nfunc Main() {}\n',
      'c.rs': 'struct Cart;\n\nimpl Cart {\n    fn add(&self) {}\n}\n\nfn main() {}\n',
      tool: '#!/usr/bin/env python3\ndef run():\n    pass\n',
    });
    expect(run(['outline', 'a.py', '--names'], dir).stdout).toBe('Shop\nShop.buy\nmain\n');
    expect(run(['outline', 'b.go', '--names'], dir).stdout).toMatch(/^Cart\n.*Add\nMain\n$/s);
    expect(run(['outline', 'c.rs', '--names'], dir).stdout).toMatch(/Cart.*\n.*add\nmain\n$/s);
    expect(run(['outline', 'tool', '--names'], dir).stdout).toBe('run\n');
  });

  it('refuses a file of no language it outlines (exit 2), and a missing file (exit 4)', () => {
    const dir = repo({ 'notes.txt': 'hello\n', 'data.json': '{}\n' });
    expectRun(run(['outline', 'notes.txt'], dir), {
      status: 2,
      stdout: '',
      stderr: /^rt: rt knows no language for notes\.txt: it finds definitions in javascript, typescript, /m,
    });
    expect(run(['outline', 'data.json'], dir).status).toBe(2);
    expect(run(['outline', 'nope.ts'], dir).status).toBe(4);
  });
});

// Valid TypeScript that tree-sitter's grammar cannot place: a generic call signature on the line
// after a member with no `;` is read as that member's type arguments, and the rest of the file is
// lost to the error. The file has a BOM and CRLF line ends.
const LOST = `\ufeffexport function before(): void {}\r
\r
interface Shell {\r
  (pieces: TemplateStringsArray): string\r
  <O extends Partial<Options> = Partial<Options>>(opts: O): Shell\r
  sync: {\r
    (opts: Partial<Options>): Shell\r
  }\r
}\r
\r
export function after(): number {\r
  return 1\r
}\r
`;

describe('rt outline of a file whose parse has errors', () => {
  it('says on stderr, and in --json, from which line the outline may be incomplete', () => {
    const dir = repo({ 'src/shell.ts': LOST, 'src/cart.ts': CART });
    const r = run(['outline', 'src/shell.ts'], dir);
    expect(r.status, r.text).toBe(0);
    expect(r.stdout).toMatch(/^1:[0-9a-z]+\|export function before\(\): void \{\}$/m);
    expect(r.stdout).not.toMatch(/after/);
    expect(r.stderr).toBe(
      'rt: the parse of src/shell.ts had errors from line 4: definitions after it may be missing from this ' +
        'outline\nrt: look for one by name: rt grep -n -w -F -- NAME src/shell.ts\n',
    );
    const doc = JSON.parse(run(['outline', 'src/shell.ts', '--json'], dir).stdout);
    expect(doc.parseErrorsFrom).toBe(4);
    expect(JSON.parse(run(['outline', 'src/shell.ts', '--names', '--json'], dir).stdout).parseErrorsFrom).toBe(4);
    const clean = run(['outline', 'src/cart.ts', '--json'], dir);
    expect(clean.stderr).toBe('');
    expect(JSON.parse(clean.stdout)).not.toHaveProperty('parseErrorsFrom');
  });

  it('says the line the broken text begins on, never past the last line', () => {
    // The error TypeScript's grammar finds is in b's body (line 6); b itself, on line 5, is lost.
    const broken = 'export function a(): number {\n  return 1;\n}\n\nexport function b( {\n  return 2;\n}\n';
    // A `fi` missing at the end of a 5-line file (CRLF, a blank last line): missing from line 4.
    const unclosed = '\ufeffecho start\r\n\r\nif true; then\r\n  echo hi\r\n\r\n';
    const dir = repo({ 'b.ts': broken, 'u.sh': unclosed });
    expect(JSON.parse(run(['outline', 'b.ts', '--json'], dir).stdout).parseErrorsFrom).toBe(5);
    const u = run(['outline', 'u.sh'], dir);
    expect(u.stderr).toContain('rt: the parse of u.sh had errors from line 4: definitions after it may be missing');
    expect(JSON.parse(run(['outline', 'u.sh', '--json'], dir).stdout).parseErrorsFrom).toBe(4);
  });

  it('a name not found there says the parse had errors and how to find its lines, in open, edit and refs', () => {
    const dir = repo({ 'src/shell.ts': LOST });
    const said =
      'rt: the parse of src/shell.ts had errors from line 4: definitions after it may be missing\n' +
      'rt: look for after by its lines instead: rt grep -n -w -F -- after src/shell.ts, then open them by LID\n';
    expectRun(run(['open', 'src/shell.ts:@after'], dir), {
      status: 1,
      stdout: '',
      stderr: `rt: no definition named after in src/shell.ts\n${said}`,
    });
    const json = JSON.parse(run(['open', 'src/shell.ts:@after', '--json'], dir).stdout);
    expect(json).toMatchObject({ found: false, parseErrorsFrom: 4 });
    const e = run(['edit', 'src/shell.ts:@after'], dir, { input: 'export const after = 2\n' });
    expect(e.status, e.text).toBe(1);
    expect(e.stderr).toBe(`rt: no definition named after in src/shell.ts; nothing was written\n${said}`);
    expect(readFileSync(join(dir, 'src/shell.ts'), 'utf8')).toBe(LOST);
    const refs = run(['refs', 'src/shell.ts:@after'], dir);
    expect(refs.status, refs.text).toBe(1);
    expect(refs.stderr).toBe(`rt: no definition named after in src/shell.ts\n${said}`);
    // A name the shell would expand, or grep read as a pattern, is quoted and searched literally.
    const dollar = run(['open', 'src/shell.ts:@$x'], dir);
    expect(dollar.status, dollar.text).toBe(1);
    expect(dollar.stderr).toContain("rt grep -n -w -F -- '$x' src/shell.ts, then open them by LID\n");
  });
});

describe('rt open PATH:@NAME', () => {
  it('opens a definition whole by its qualified name, or by its name when one has it', () => {
    const dir = repo({ 'src/cart.ts': CART });
    const r = run(['open', 'src/cart.ts:@Cart.add'], dir);
    expect(r.status, r.text).toBe(0);
    const w = parseWindow(r);
    expect(w.lines.map((l) => l.n)).toEqual([6, 7, 8]);
    const c = run(['open', 'src/cart.ts:@checkout'], dir);
    expect(parseWindow(c).lines.map((l) => l.n)).toEqual([15, 16, 17]);
    // Its lines count as shown: the whole body can be replaced by its LIDs.
    const e = run(['edit', 'src/cart.ts', w.lidAt(6), w.lidAt(8)], dir, {
      input: '  add(item: number): void {\n    this.items.unshift(item);\n  }\n',
    });
    expect(e.status, e.text).toBe(0);
  });

  it(
    'several definitions of that name: exit 2, listing them with their ' +
      'qualified names and LIDs; a qualified name that is exact wins',
    () => {
      const dir = repo({ 'src/cart.ts': CART, 'src/two.ts': 'class A {\n  add() {}\n}\nclass B {\n  add() {}\n}\n' });
      const r = run(['open', 'src/two.ts:@add'], dir);
      expect(r.status, r.text).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(
          String.raw`^rt: 2 definitions in src\/two\.ts are named add:\nrt: {3}2:[0-9a-z]+\| {2}add\(\) \{\} ` +
            String.raw`{2}\(method A\.add\)\nrt: {3}5:[0-9a-z]+\| {2}add\(\) \{\} {2}\(method B\.add\)\n`,
        ),
      );
      expect(parseWindow(run(['open', 'src/two.ts:@B.add'], dir)).lines.map((l) => l.n)).toEqual([5]);
      // The function total, not the method Cart.total: its qualified name is the name given.
      expect(parseWindow(run(['open', 'src/cart.ts:@total'], dir)).lines.map((l) => l.n)).toEqual([19, 20, 21]);
    },
  );

  it('no such definition: exit 1 with the closest names', () => {
    const dir = repo({ 'src/cart.ts': CART });
    const r = run(['open', 'src/cart.ts:@chekout'], dir);
    expect(r.status, r.text).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'rt: no definition named chekout in src/cart.ts; the closest: checkout\nrt: see them all: rt outline ' +
        'src/cart.ts\n',
    );
  });

  it('a definition longer than the window: its first window, and how to see the rest', () => {
    const body = Array.from({ length: 150 }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const dir = repo({ 'long.ts': `export function long() {\n${body}\n}\n` });
    const r = run(['open', 'long.ts:@long'], dir);
    expect(r.status, r.text).toBe(0);
    const w = parseWindow(r);
    expect(w.lines.length).toBe(100);
    expect(r.stderr).toContain('long runs to line 152: the rest: rt scroll long.ts');
  });
});

/** Output with each LID replaced by LID, for exact comparisons. */
const unLid = (text: string): string => text.replace(/^(\s*\d+):[0-9a-z]+\|/gm, '$1:LID|');

describe('rt outline: what real code holds', () => {
  it('lists a decorated definition by its def line; its range starts at the decorators', () => {
    const dir = repo({
      'shop.py':
        'LIMIT = 10\n\nclass Cart:\n    @classmethod\n    def make(cls):\n        return cls()\n\n    ' +
        '@property\n    def size(self):\n        return 0\n\n    @size.setter\n    def size(self, value):\n   ' +
        '     pass\n',
    });
    const r = run(['outline', 'shop.py'], dir);
    expectRun(r, { status: 0, stderr: '' });
    expect(unLid(r.stdout)).toBe(
      '--- shop.py (outline: 4 definitions of 14 lines) ---\n1:LID|LIMIT = 10\n3:LID|class Cart:\n5:LID|    ' +
        'def make(cls):\n9:LID|    def size(self):\n',
    );
    expect(parseWindow(run(['open', 'shop.py:@make'], dir)).lines.map((l) => l.n)).toEqual([4, 5, 6]);
    // A property and its setter are one definition.
    expect(parseWindow(run(['open', 'shop.py:@Cart.size'], dir)).lines.map((l) => l.n)).toEqual(range(8, 14));
  });

  it('members of a class expression, namespaces, function fields, default exports, accessors and overloads', () => {
    const dir = repo({
      'path.ts':
        'const NodePath_Final = class NodePath {\n  getScope() {\n    return 1;\n  }\n  static create = () => ' +
        'new NodePath();\n  get size() {\n    return 0;\n  }\n  set size(v: number) {}\n};\nnamespace Util ' +
        '{\n  export function pick(a: string): string;\n  export function pick(a: number): number;\n  export ' +
        'function pick(a: any) {\n    return a;\n  }\n}\nexport default function () {}\n',
    });
    const r = run(['outline', 'path.ts', '--names'], dir);
    expectRun(r, {
      status: 0,
      stdout:
        'NodePath_Final\nNodePath_Final.getScope\nNodePath_Final.create\nNodePath_Final.size\n' +
        'Util\nUtil.pick\ndefault\n',
      stderr: '',
    });
    expect(parseWindow(run(['open', 'path.ts:@getScope'], dir)).lines.map((l) => l.n)).toEqual([2, 3, 4]);
    expect(parseWindow(run(['open', 'path.ts:@NodePath_Final.size'], dir)).lines.map((l) => l.n)).toEqual(range(6, 9));
    expect(parseWindow(run(['open', 'path.ts:@pick'], dir)).lines.map((l) => l.n)).toEqual(range(12, 16));
    expect(parseWindow(run(['open', 'path.ts:@default'], dir)).lines.map((l) => l.n)).toEqual([18]);
  });

  it('Rust: a type wins over its impl blocks; Type.method reaches into them; attributes and docs in the range', () => {
    const dir = repo({
      'config.rs':
        '/// The settings.\n#[derive(Debug)]\npub struct Config {\n    n: u8,\n}\n\nimpl Config {\n    pub fn ' +
        'new() -> Config {\n        Config { n: 0 }\n    }\n}\n\nimpl Default for Config {\n    fn default() ' +
        '-> Config {\n        Config::new()\n    }\n}\n',
    });
    const o = run(['outline', 'config.rs'], dir);
    expect(unLid(o.stdout)).toBe(
      '--- config.rs (outline: 5 definitions of 17 lines) ---\n3:LID|pub struct Config {\n7:LID|impl Config ' +
        '{\n8:LID|    pub fn new() -> Config {\n13:LID|impl Default for Config {\n14:LID|    fn default() -> ' +
        'Config {\n',
    );
    const r = run(['open', 'config.rs:@Config'], dir);
    expectRun(r, { status: 0, stderr: '' });
    expect(parseWindow(r).lines.map((l) => l.n)).toEqual(range(1, 5));
    expect(parseWindow(run(['open', 'config.rs:@Config.new'], dir)).lines.map((l) => l.n)).toEqual(range(8, 10));
  });
});

describe('Markdown: headings as the outline, a section by its anchor', () => {
  const README =
    '# Project\n\nIntro.\n\n## Set up\n\n```sh\n# not a heading\nnpm ci\n```\n\n### ' +
    'Details\n\nMore.\n\nUsage\n-----\n\n## Usage\n\nAgain.\n';

  it('lists ATX and setext headings, not those in code; --json gives the level; --names the anchors', () => {
    const dir = repo({ 'README.md': README });
    const r = run(['outline', 'README.md'], dir);
    expectRun(r, { status: 0, stderr: '' });
    expect(unLid(r.stdout)).toBe(
      '--- README.md (outline: 5 definitions of 21 lines) ---\n1:LID|# Project\n5:LID|## Set up\n12:LID|### ' +
        'Details\n16:LID|Usage\n19:LID|## Usage\n',
    );
    const doc = JSON.parse(run(['outline', 'README.md', '--json'], dir).stdout);
    expect(doc.definitions[1]).toMatchObject({
      line: 5,
      kind: 'h2',
      level: 2,
      name: 'Set up',
      qualifiedName: 'set-up',
      start: 5,
      end: 15,
    });
    expect(run(['outline', 'README.md', '--names'], dir).stdout).toBe('project\nset-up\ndetails\nusage\nusage-1\n');
  });

  it('opens a section by its anchor, in any case, to the next heading of its level or higher; a repeat by -1', () => {
    const dir = repo({ 'README.md': README });
    const r = run(['open', 'README.md:@Set-up'], dir);
    expectRun(r, { status: 0, stderr: '' });
    expect(unLid(r.stdout)).toBe(
      '--- README.md (lines 5-15 of 21) ---\n(4 more lines above)\n5:LID|## Set ' +
        'up\n6:LID|\n7:LID|```sh\n8:LID|# not a heading\n9:LID|npm ci\n10:LID|```\n11:LID|\n12:LID|### ' +
        'Details\n13:LID|\n14:LID|More.\n15:LID|\n(6 more lines below)\n',
    );
    expect(parseWindow(run(['open', 'README.md:@Usage'], dir)).lines.map((l) => l.n)).toEqual([16, 17, 18]);
    expect(parseWindow(run(['open', 'README.md:@usage-1'], dir)).lines.map((l) => l.n)).toEqual([19, 20, 21]);
    expectRun(run(['open', 'README.md:@Setup'], dir), {
      status: 1,
      stdout: '',
      stderr:
        'rt: no definition named Setup in README.md; the closest: set-up\nrt: see them all: rt outline README.md\n',
    });
  });

  it('a Markdown file is not syntax-checked', () => {
    const dir = repo({ 'README.md': README });
    const w = parseWindow(run(['open', 'README.md:1'], dir));
    expectRun(run(['edit', 'README.md', w.lidAt(1)], dir, { input: '# Project ``` [ (\n' }), { status: 0 });
  });
});

describe('rt open PATH:@NAME: every name outline offers, twice-defined names, overloads', () => {
  it(
    'opens every name rt outline --names (and so the completions) ' +
      'offers: Ruby predicate and bang methods, JS private methods',
    () => {
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
    },
  );

  it(
    'several definitions of one qualified name (a function defined twice): ' +
      'the hint does not send the user back to that same ambiguous name',
    () => {
      const js = 'function twice(x) {}\nfunction twice(x) {\n  return x;\n}\n';
      const dir = repo({ 'o.js': js });
      const r = run(['open', 'o.js:@twice'], dir);
      expect(r.status, r.text).toBe(2);
      expect(r.stderr).not.toContain('rt open o.js:@twice)');
    },
  );

  it('overload signatures and their implementation are one definition, opened whole', () => {
    const ts =
      'function overload(x: string): void;\nfunction overload(x: number): void;\nfunction overload(x: any) {}\n';
    const dir = repo({ 'o.ts': ts });
    const r = run(['open', 'o.ts:@overload'], dir);
    expect(r.status, r.text).toBe(0);
    expect(parseWindow(r).lines.map((l) => l.n)).toEqual([1, 2, 3]);
  });
});
