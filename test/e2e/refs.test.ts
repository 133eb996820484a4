// rt refs and rt rename: a symbol's places across a project, semantic in TypeScript and
// JavaScript (TypeScript's language service: shadowing, imports, re-exports, property accesses,
// shorthand properties), by name elsewhere (tree-sitter identifiers, outside strings and
// comments); renamed as one undoable batch, collisions refused, bytes outside the names kept.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, expectRun, run, tempDir, tempRepo, write } from './harness.js';
import { git } from './search-fixture.js';

afterAll(cleanup);

function repo(files: Record<string, string | Buffer>): string {
  const dir = tempRepo();
  for (const [name, content] of Object.entries(files)) write(dir, name, content);
  git(dir, ['add', '.']);
  return dir;
}

const read = (dir: string, name: string) => fs.readFileSync(path.join(dir, name));

/** Output lines with their LIDs taken out (PATH:N|CONTENT, PATH:N=CONTENT), for comparing places. */
const places = (stdout: string) => stdout.split('\n').map((l) => l.replace(/^([^:]+:\d+):[0-9a-z]{4}([|=+-])/, '$1$2'));

const A_TS = [
  'export function total(items: number[]): number {',
  '  let sum = 0;',
  '  for (const i of items) sum += i;',
  '  return sum;',
  '}',
  '',
  'export class Cart {',
  '  total = 0;',
  '  add(n: number) {',
  '    this.total += n;',
  '    return total([n]);',
  '  }',
  '}',
  '',
].join('\n');

const B_TS = [
  "import { total } from './a';",
  "import * as A from './a';",
  "export { total as sum } from './a';",
  '',
  'function inner() {',
  '  const total = 5; // shadows',
  '  return total + 1;',
  '}',
  '',
  'const box = { total };',
  'console.log(total([1, 2]), A.total([3]), inner(), box, "total");',
  '',
].join('\n');

const TS_PROJECT = {
  'tsconfig.json': '{ "compilerOptions": { "strict": true, "module": "ESNext", "moduleResolution": "Bundler" } }\n',
  'src/a.ts': A_TS,
  'src/b.ts': B_TS,
};

describe('rt refs, TypeScript', () => {
  it('lists the definition and the references across files, not a shadowing local nor a same-named property', () => {
    const dir = repo(TS_PROJECT);
    const r = run(['refs', 'src/a.ts:@total'], dir);
    expect(r.status, r.stderr).toBe(0);
    expect(places(r.stdout)).toEqual([
      'src/a.ts:1|export function total(items: number[]): number {',
      'src/a.ts:9=  add(n: number) {',
      'src/a.ts:11|    return total([n]);',
      "src/b.ts:1|import { total } from './a';",
      "src/b.ts:2=import * as A from './a';",
      "src/b.ts:3|export { total as sum } from './a';",
      'src/b.ts:5=function inner() {',
      'src/b.ts:10|const box = { total };',
      'src/b.ts:11|console.log(total([1, 2]), A.total([3]), inner(), box, "total");',
      "8 references on 6 lines in 2 files (TypeScript's language service)",
      '',
    ]);
  });

  it('takes PATH:LINE:LID:COL and a grep hit pasted whole, and gives --json', () => {
    const dir = repo(TS_PROJECT);
    const hit = run(['grep', '-F', 'this.total', 'src/a.ts'], dir).stdout.trim();
    const lid = /^src\/a\.ts:10:([0-9a-z]{4})\|/.exec(hit)![1]!;
    const byCol = run(['refs', `src/a.ts:10:${lid}:10`], dir);
    expect(places(byCol.stdout)).toEqual([
      'src/a.ts:7=export class Cart {',
      'src/a.ts:8|  total = 0;',
      'src/a.ts:9=  add(n: number) {',
      'src/a.ts:10|    this.total += n;',
      "2 references on 2 lines in 1 file (TypeScript's language service)",
      '',
    ]);
    const definitionHit = run(['grep', '-F', 'function total', 'src/a.ts'], dir).stdout.trim();
    const pasted = run(['refs', definitionHit], dir);
    expect(pasted.status, pasted.stderr).toBe(0);
    expect(pasted.stdout).toContain('8 references on 6 lines in 2 files');
    const callHit = run(['grep', '-F', 'return total', 'src/a.ts'], dir).stdout.trim();
    const noOne = run(['refs', callHit], dir);
    expect(noOne.status).toBe(2);
    expect(noOne.stderr).toContain('add the column of the name');
    expect(noOne.stderr).toContain('return (:5), total (:12), n (:19)');
    const json = JSON.parse(run(['refs', '--json', 'src/a.ts:@total'], dir).stdout);
    expect(json).toMatchObject({
      command: 'refs',
      name: 'total',
      language: 'typescript',
      by: 'semantic',
      references: 8,
      lines: 6,
      files: 2,
      definitions: [{ path: 'src/a.ts', n: 1 }],
      more: null,
    });
    expect(json.hits.filter((h: { hit: boolean }) => h.hit)).toHaveLength(6);
  });

  it('is exit 1 with the outline to see for a definition that is not there', () => {
    const dir = repo(TS_PROJECT);
    expectRun(run(['refs', 'src/a.ts:@nothing'], dir), {
      status: 1,
      stdout: '',
      stderr: 'rt: no definition named nothing in src/a.ts\nrt: see them all: rt outline src/a.ts\n',
    });
  });
});

describe('rt refs, CommonJS', () => {
  const files = {
    'lib.js': 'function greet(name) {\n  return "hi " + name;\n}\nmodule.exports = { greet };\n',
    'destructured.js': 'const { greet } = require("./lib");\nconsole.log(greet("x"));\n',
    'member.js': 'const lib = require("./lib.js");\nlib.greet("y");\n',
    'esm.mjs': 'import { greet } from "./lib.js";\ngreet("z");\n',
    'other.js': 'const o = { greet() {} };\no.greet();\n',
  };

  it("finds a module.exports object's importers (TypeScript goes from them to it, not back)", () => {
    const dir = repo(files);
    const r = run(['refs', 'lib.js:@greet'], dir);
    expect(r.status, r.text).toBe(0);
    expect(places(r.stdout)).toEqual([
      'destructured.js:1|const { greet } = require("./lib");',
      'destructured.js:2|console.log(greet("x"));',
      'esm.mjs:1|import { greet } from "./lib.js";',
      'esm.mjs:2|greet("z");',
      'lib.js:1|function greet(name) {',
      'lib.js:4|module.exports = { greet };',
      'member.js:1=const lib = require("./lib.js");',
      'member.js:2|lib.greet("y");',
      "7 references on 7 lines in 4 files (TypeScript's language service)",
      '',
    ]);
    // From an importer too, the other importers (TypeScript alone gives this file's and the declaration's).
    const use = run(['open', 'destructured.js:2'], dir).stdout.split('\n')[2]!.split('|')[0]!;
    const fromUse = places(run(['refs', `destructured.js:${use}:13`], dir).stdout);
    expect(fromUse).toContain('esm.mjs:2|greet("z");');
    expect(fromUse).toContain('lib.js:4|module.exports = { greet };');
  });

  it('finds the importers of exports.NAME = NAME, and asks nothing of an export under another name', () => {
    const dir = repo({
      'lib.js': 'function greet(n) {\n  return n;\n}\nexports.greet = greet;\n',
      'a.js': 'const lib = require("./lib");\nlib.greet(1);\n',
      'b.js': 'const { greet } = require("./lib");\ngreet(2);\n',
      'assert.js': 'function ok(v) {\n  return v;\n}\nmodule.exports = ok;\n',
      'user.js': 'const assert = require("./assert");\nassert(1);\n',
    });
    const r = run(['refs', 'lib.js:@greet'], dir);
    expect(r.stdout).toContain('6 references on 5 lines in 3 files');
    expect(places(r.stdout)).toContain('a.js:2|lib.greet(1);');
    // `assert` is `ok` exported whole: its references stay the importer's own, none of ok's.
    const use = run(['open', 'user.js'], dir).stdout.split('\n')[2]!.split('|')[0]!;
    const alias = run(['refs', `user.js:${use}:1`], dir);
    expect(alias.stdout).toContain('2 references on 2 lines in 1 file');
    expect(alias.stderr).toBe('');
  });

  it("finds { NAME: NAME }'s importers, asks no spelling in a string or comment, follows an importer's file", () => {
    const dir = repo({
      'kv.js': 'function greet(n) {\n  return n;\n}\nmodule.exports = { greet: greet };\n',
      'a.js': 'const { greet } = require("./kv");\ngreet(1);\n',
      // Named in strings and comments 250 times: none of them is asked (no note of spellings left).
      'b.js': `// kv\n${'const s = "greet"; // greet\n'.repeat(125)}`,
    });
    const r = run(['refs', 'kv.js:@greet'], dir);
    expect(r.status, r.text).toBe(0);
    expect(places(r.stdout)).toContain('a.js:2|greet(1);');
    expect(r.stderr).toBe('');
  });

  it('says so when spellings of the name were left unasked (200 at most)', () => {
    const decoys = Object.fromEntries(
      Array.from({ length: 3 }, (_, i) => [`d${i}.js`, `// lib\n${'new Map().greet;\n'.repeat(70)}`]),
    );
    const dir = repo({ ...files, ...decoys });
    const r = run(['refs', 'lib.js:@greet'], dir);
    expect(r.status, r.text).toBe(0);
    expect(r.stderr).toContain('greet is a CommonJS export: its importers were looked for at 200 of its spellings');
    expect(r.stderr).toContain('rt grep -w greet shows every spelling');
  });
});

describe('rt rename, TypeScript', () => {
  it('renames across files (imports, re-exports, property accesses, shorthand) as one step undo takes back', () => {
    const dir = repo(TS_PROJECT);
    const preview = run(['rename', '--dry-run', 'src/a.ts:@total', 'grandTotal'], dir);
    expect(preview.status, preview.stderr).toBe(0);
    expect(places(preview.stdout).at(-2)).toBe('7 references on 6 lines in 2 files');
    expect(read(dir, 'src/a.ts').toString()).toBe(A_TS);
    const r = run(['rename', 'src/a.ts:@total', 'grandTotal'], dir);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('renamed total to grandTotal: 7 references on 6 lines in 2 files');
    expect(read(dir, 'src/a.ts').toString()).toBe(
      A_TS.replace('function total', 'function grandTotal').replace('return total(', 'return grandTotal('),
    );
    expect(read(dir, 'src/b.ts').toString()).toBe(
      B_TS.replace('import { total }', 'import { grandTotal }')
        .replace('export { total as sum }', 'export { grandTotal as sum }')
        .replace('{ total };', '{ total: grandTotal };')
        .replace('log(total(', 'log(grandTotal(')
        .replace('A.total(', 'A.grandTotal('),
    );
    const undo = run(['undo'], dir);
    expect(undo.status, undo.stderr).toBe(0);
    expect(read(dir, 'src/a.ts').toString()).toBe(A_TS);
    expect(read(dir, 'src/b.ts').toString()).toBe(B_TS);
  });

  it('refuses (exit 3, nothing written) a name that a use would be captured by, or that would capture another', () => {
    const dir = repo({
      ...TS_PROJECT,
      'src/c.ts': "import { total } from './a';\nfunction outer() {\n  const grand = 1;\n  return total([grand]);\n}\n",
    });
    const captured = run(['rename', 'src/a.ts:@total', 'grand'], dir);
    expect(captured.status).toBe(3);
    expect(captured.stderr).toContain('grand would be taken by another declaration where total is used (src/c.ts:4)');
    const capturing = run(['rename', 'src/a.ts:@total', 'inner'], dir);
    expect(capturing.status).toBe(3);
    expect(capturing.stderr).toContain('inner already names something the renamed total would capture');
    expect(read(dir, 'src/a.ts').toString()).toBe(A_TS);
    expect(read(dir, 'src/b.ts').toString()).toBe(B_TS);
  });

  it('refuses (exit 3) a name declared beside it, where no reference would move but the declarations clash', () => {
    const d = 'export function alpha() {}\nfunction beta() {}\nbeta();\n';
    const dir = repo({ 'src/d.ts': d });
    const r = run(['rename', 'src/d.ts:@alpha', 'beta'], dir);
    expect(r.status).toBe(3);
    expect(r.stderr).toContain('beta is already declared where alpha is (src/d.ts:2)');
    expect(read(dir, 'src/d.ts').toString()).toBe(d);
  });

  it('refuses (exit 3) a rename leaving an import naming what its module no longer exports', () => {
    const a = 'const foo = 1;\nexport { foo };\nexport default foo;\n';
    const b = "import { foo as F } from './a';\nconsole.log(F);\n";
    const dir = repo({ 'a.ts': a, 'b.ts': b });
    const r = run(['rename', 'a.ts:@foo', 'bar'], dir);
    expect(r.status).toBe(3);
    expect(r.stderr).toContain(`b.ts:1: TS2614 Module '"./a"' has no exported member 'bar'`);
    expect(read(dir, 'a.ts').toString()).toBe(a);
    expect(read(dir, 'b.ts').toString()).toBe(b);
  });

  it('renames in tracked hidden folders; lists places in ignored files (refs) and refuses them (rename)', () => {
    const dir = repo({
      'a.ts': 'export const foo = 1;\n',
      '.storybook/main.ts': "import { foo } from '../a';\nexport default foo;\n",
      '.gitignore': 'gen.ts\n',
      'gen.ts': "import { foo } from './a';\nexport const g = foo;\n",
      'b.ts': "import { g } from './gen';\n// foo\nexport const h = g;\n",
    });
    const refs = run(['refs', 'a.ts:@foo'], dir);
    expect(places(refs.stdout)).toContain('.storybook/main.ts:2|export default foo;');
    expect(refs.stderr).toContain('2 more in files rt grep does not search (ignored, or node_modules), not shown:');
    expect(refs.stderr).toContain('rt:   gen.ts:2');
    const refused = run(['rename', 'a.ts:@foo', 'bar'], dir);
    expect(refused.status).toBe(3);
    expect(refused.stderr).toContain('in files rt does not search (ignored, or node_modules)');
    expect(refused.stderr).toContain('gen.ts:1, gen.ts:2: nothing was written');
    expect(read(dir, 'a.ts').toString()).toBe('export const foo = 1;\n');
    fs.rmSync(path.join(dir, 'gen.ts'));
    fs.writeFileSync(path.join(dir, 'b.ts'), 'export const h = 1;\n');
    expect(run(['rename', 'a.ts:@foo', 'bar'], dir).status).toBe(0);
    expect(read(dir, '.storybook/main.ts').toString()).toBe("import { bar } from '../a';\nexport default bar;\n");
  });

  it('leaves out ignored files nothing searched imports (build output, a scratch file): outside the project', () => {
    const a = 'export function total(): number {\r\n  return 1;\r\n}\r\n';
    const b = "import { total } from './a';\nexport const t = total();\n";
    const dist = 'function total() {\n  return 1;\n}\nexports.total = total;\n';
    const scratch = "import { total } from '../src/a';\nconsole.log(total());\n";
    const dir = repo({
      'src/a.ts': a,
      'src/b.ts': b,
      '.gitignore': 'scratch/\ndist/\nnode_modules/\n',
      'dist/a.js': dist,
      'scratch/try.ts': scratch,
      'node_modules/pkg/index.ts': "import { total } from '../../src/a';\nexport const n = total();\n",
    });
    const refs = run(['refs', 'src/a.ts:@total'], dir);
    expect(refs.status, refs.text).toBe(0);
    expect(refs.stdout).toContain('3 references on 3 lines in 2 files');
    expect(refs.stderr).toBe('');
    const renamed = run(['rename', 'src/a.ts:@total', 'sum'], dir);
    expect(renamed.status, renamed.text).toBe(0);
    expect(read(dir, 'src/a.ts').toString()).toBe(a.replace('total', 'sum'));
    expect(read(dir, 'src/b.ts').toString()).toBe(b.replaceAll('total', 'sum'));
    expect(read(dir, 'dist/a.js').toString()).toBe(dist);
    expect(read(dir, 'scratch/try.ts').toString()).toBe(scratch);
  });

  it('renames a place TypeScript lists twice, and every meaning of a merged symbol', () => {
    const dir = repo({
      'a.ts': 'export function foo() {}\nexport default foo;\n',
      'b.ts': "import { foo as f2 } from './a';\nf2();\n",
      'c.ts': 'export const Color = { red: 1 };\nexport type Color = number;\nconst c: Color = Color.red;\n',
      'd.ts':
        'interface Shape { a: number }\nnamespace Shape { export const x = 1; }\nconst s: Shape = { a: Shape.x };\n',
    });
    expect(run(['rename', 'a.ts:@foo', 'baz'], dir).status).toBe(0);
    expect(read(dir, 'b.ts').toString()).toBe("import { baz as f2 } from './a';\nf2();\n");
    const color = `c.ts:${run(['open', 'c.ts:1'], dir).stdout.split('\n')[1]!.slice(0, 6)}`;
    expect(run(['refs', color], dir).stdout).toContain('4 references on 3 lines in 1 file');
    expect(run(['rename', color, 'Hue'], dir).status).toBe(0);
    expect(read(dir, 'c.ts').toString()).toBe(
      'export const Hue = { red: 1 };\nexport type Hue = number;\nconst c: Hue = Hue.red;\n',
    );
    const line = run(['open', 'd.ts:1'], dir).stdout.split('\n')[1]!.slice(0, 6);
    expect(run(['rename', `d.ts:${line}`, 'Form'], dir).status).toBe(0);
    expect(read(dir, 'd.ts').toString()).toContain(
      'namespace Form { export const x = 1; }\nconst s: Form = { a: Form.x };',
    );
  });

  it('--json gives the same definitions from the declaration, a call site or the import', () => {
    const dir = repo({
      'a.ts': 'export function foo() {}\n',
      'e.ts': "import { foo } from './a';\nfoo();\n",
    });
    const lids = run(['open', 'e.ts'], dir)
      .stdout.split('\n')
      .slice(1, 3)
      .map((l) => l.slice(0, 6));
    for (const target of ['a.ts:@foo', `e.ts:${lids[1]}`, `e.ts:${lids[0]}:10`]) {
      const json = JSON.parse(run(['refs', '--json', target], dir).stdout);
      expect(json.definitions, target).toEqual([{ path: 'a.ts', n: 1 }]);
    }
  });

  it("--json gives an alias's local name (import { a as b }, refs of b) its specifier as definition", () => {
    const dir = repo({
      'a.ts': 'export function foo() {}\n',
      'e.ts': "import { foo as bar } from './a';\r\nbar();\r\n",
    });
    const lids = run(['open', 'e.ts'], dir)
      .stdout.split('\n')
      .slice(1, 3)
      .map((l) => l.slice(0, 6));
    for (const target of [`e.ts:${lids[1]}`, `e.ts:${lids[0]}:17`]) {
      const json = JSON.parse(run(['refs', '--json', target], dir).stdout);
      expect(json.name, target).toBe('bar');
      expect(json.definitions, target).toEqual([{ path: 'e.ts', n: 1 }]);
      expect(json.references, target).toBe(2);
    }
  });

  it('a .d.ts module exporting a declaration with no export: refs as TypeScript gives them; rename refused', () => {
    const mod = "import type { X } from './x';\r\ndeclare function baz(): X;\r\nexport type Y = X;\r\n";
    const dir = repo({
      'x.ts': 'export type X = number;\n',
      'mod.d.ts': mod,
      'c.ts': "import { baz } from './mod';\nbaz();\n",
    });
    // TypeScript's findReferences lists the declaration alone from it, and every place from a use.
    expect(run(['refs', 'mod.d.ts:@baz'], dir).stdout).toContain('1 reference on 1 line in 1 file');
    const use = run(['open', 'c.ts'], dir).stdout.split('\n')[2]!.slice(0, 6);
    expect(run(['refs', `c.ts:${use}`], dir).stdout).toContain('3 references on 3 lines in 2 files');
    const r = run(['rename', 'mod.d.ts:@baz', 'qux'], dir);
    expect(r.status, r.text).toBe(3);
    expect(r.stderr).toContain("TypeScript's rename from this declaration file would leave c.ts:1");
    expect(r.stderr).toContain('write export before it first: nothing was written');
    expect(read(dir, 'mod.d.ts').toString()).toBe(mod);
    fs.writeFileSync(path.join(dir, 'mod.d.ts'), mod.replace('declare function', 'export declare function'));
    const marked = run(['rename', 'mod.d.ts:@baz', 'qux'], dir);
    expect(marked.status, marked.text).toBe(0);
    expect(read(dir, 'c.ts').toString()).toBe("import { qux } from './mod';\nqux();\n");
  });

  it("a .d.ts's export = of a namespace: its function renamed with its uses (TypeScript's rename leaves none)", () => {
    const lib = 'export = Lib;\r\ndeclare namespace Lib {\r\n  function bar(): void;\r\n}\r\n';
    const main = "import Lib = require('./lib');\nLib.bar();\n";
    const dir = repo({
      'lib.d.ts': lib,
      'main.ts': main,
      'tsconfig.json': '{"compilerOptions":{"module":"commonjs"}}\n',
    });
    const r = run(['rename', 'lib.d.ts:@bar', 'baz'], dir);
    expect(r.status, r.text).toBe(0);
    expect(r.stdout).toContain('2 references on 2 lines in 2 files');
    expect(read(dir, 'lib.d.ts').toString()).toBe(lib.replace('bar', 'baz'));
    expect(read(dir, 'main.ts').toString()).toBe(main.replace('bar', 'baz'));
  });

  it('a global of scripts: refused when another script declares the new name at its top level, not a module', () => {
    const a = 'function foo() { return 1; }\r\nfoo();\r\n';
    const dir = repo({
      'a.js': a,
      'g.js': 'var bar = 2;\n',
      'h.js': 'function h() { var bar = 3; return bar; }\n',
      'm.js': 'export const bar = 3;\n',
    });
    const r = run(['rename', 'a.js:@foo', 'bar'], dir);
    expect(r.status, r.text).toBe(3);
    expect(r.stderr).toContain('bar is already declared where foo is (g.js:1): nothing was written');
    expect(read(dir, 'a.js').toString()).toBe(a);
    fs.rmSync(path.join(dir, 'g.js'));
    const ok = run(['rename', 'a.js:@foo', 'bar'], dir);
    expect(ok.status, ok.text).toBe(0);
    expect(read(dir, 'a.js').toString()).toBe(a.replaceAll('foo', 'bar'));
  });

  it('renames a private name only to a private name, and refuses reserved words (exit 2)', () => {
    const a = 'class A {\n  #x = 1;\n  get() { return this.#x; }\n}\n';
    const dir = repo({ 'a.ts': a, 'm.py': 'def foo():\n    pass\nfoo()\n', 'q.mjs': 'export const q = 1;\n' });
    const lid = run(['open', 'a.ts'], dir).stdout.split('\n')[2]!.slice(0, 6);
    const plain = run(['rename', `a.ts:${lid}:3`, 'y'], dir);
    expect(plain.status).toBe(2);
    expect(plain.stderr).toContain('#x is a private name: it is renamed to a private name (#y)');
    expect(read(dir, 'a.ts').toString()).toBe(a);
    expect(run(['rename', `a.ts:${lid}:3`, '#y'], dir).status).toBe(0);
    expect(read(dir, 'a.ts').toString()).toBe(a.replaceAll('#x', '#y'));
    for (const [target, word] of [
      ['q.mjs:@q', 'eval'],
      ['q.mjs:@q', 'await'],
      ['m.py:@foo', 'lambda'],
    ]) {
      const r = run(['rename', target!, word!], dir);
      expect(r.status, word).toBe(2);
      expect(r.stderr).toContain(`${word} is a reserved word in`);
    }
  });

  it('refuses (exit 3) a global of the platform as the new name, unless --force', () => {
    const dir = repo({ 's1.js': 'function foo() {}\nfoo();\n' });
    for (const name of ['Array', 'setTimeout', 'document', 'module', 'exports', '__dirname']) {
      const r = run(['rename', 's1.js:@foo', name], dir);
      expect(r.status, name).toBe(3);
      expect(r.stderr).toContain(`${name} is a global of the platform`);
    }
    expect(run(['rename', '--force', 's1.js:@foo', 'Array'], dir).status).toBe(0);
  });

  it('refuses a new name that is no identifier (exit 2), and --expect counting otherwise (exit 3)', () => {
    const dir = repo(TS_PROJECT);
    expect(run(['rename', 'src/a.ts:@total', 'no-way'], dir).status).toBe(2);
    expect(run(['rename', 'src/a.ts:@total', 'class'], dir).status).toBe(2);
    const expectRefused = run(['rename', '--expect', '3', 'src/a.ts:@total', 'sum2'], dir);
    expect(expectRefused.status).toBe(3);
    expect(expectRefused.stderr).toContain('7 places would be renamed, not the 3 expected');
    expect(read(dir, 'src/a.ts').toString()).toBe(A_TS);
  });

  it('keeps CRLF, a BOM and a missing final newline, in JavaScript without a tsconfig', () => {
    const lib = '\ufeffexport const rate = 2;\r\nexport function scale(x) {\r\n  return x * rate;\r\n}';
    const use = "import { rate, scale } from './lib.js';\nconsole.log(scale(rate));\n";
    const dir = repo({ 'lib.js': lib, 'use.js': use });
    const r = run(['rename', 'lib.js:@rate', 'factor'], dir);
    expect(r.status, r.stderr).toBe(0);
    expect(read(dir, 'lib.js').toString()).toBe(lib.replaceAll('rate', 'factor'));
    expect(read(dir, 'use.js').toString()).toBe(use.replaceAll('rate', 'factor'));
    expect(run(['undo'], dir).status).toBe(0);
    expect(read(dir, 'lib.js').toString()).toBe(lib);
  });
});

/**
 * A preload for rt's process that changes the files at one fixed step of its run, with no race: when
 * it takes the lock of HOOK_AT's file (the write, after the analysis), or when it loads TypeScript
 * (HOOK_AT "typescript", after the files holding the name were listed), it appends HOOK_TEXT to
 * HOOK_FILE, once.
 */
const HOOK = `const fs = require('node:fs');
const path = require('node:path');
const { HOOK_AT, HOOK_FILE, HOOK_TEXT } = process.env;
let done = false;
const fire = () => { if (!done) { done = true; fs.appendFileSync(HOOK_FILE, HOOK_TEXT); } };
const link = fs.linkSync;
fs.linkSync = function (from, to) {
  if (path.basename(String(to)) === '.' + path.basename(HOOK_AT) + '.rt-lock') fire();
  return link.apply(this, arguments);
};
const read = fs.readFileSync;
fs.readFileSync = function (file) {
  if (HOOK_AT === 'typescript' && String(file).endsWith(path.sep + 'typescript.cjs')) fire();
  return read.apply(this, arguments);
};
`;

describe('rt rename: a file changed, or come to hold the name, after the analysis', () => {
  const hooked = (dir: string, at: string, file: string, text: string) => {
    const preload = path.join(tempDir(), 'hook.cjs');
    fs.writeFileSync(preload, HOOK);
    const env = { NODE_OPTIONS: `--require ${preload}`, HOOK_AT: at, HOOK_FILE: path.join(dir, file), HOOK_TEXT: text };
    return { env };
  };
  const A = 'export function total(): number {\r\n  return 1;\r\n}\r\n';
  const B = "import { total } from './a';\nexport const t = total();\n";

  it('refuses (exit 3, nothing written) a file the analysis read that changed before the write', () => {
    const dir = repo({ 'a.ts': A, 'b.ts': B });
    const r = run(['rename', 'a.ts:@total', 'sum'], dir, hooked(dir, path.join(dir, 'a.ts'), 'b.ts', '// more\n'));
    expect(r.status, r.text).toBe(3);
    expect(r.stderr).toMatch(/^rt: b\.ts changed since rt found the references; run the rename again: nothing/m);
    expect(read(dir, 'a.ts').toString()).toBe(A);
    expect(read(dir, 'b.ts').toString()).toBe(`${B}// more\n`);
    expect(run(['history'], dir).stdout).not.toMatch(/rename/);
  });

  it('refuses (exit 3, nothing written) a file that came to hold the name after the files were listed', () => {
    const dir = repo({ 'a.ts': A, 'b.ts': B, 'c.ts': 'export const c = 1;\n' });
    const late = "\nimport { total } from './a';\nexport const d = total();\n";
    const r = run(['rename', 'a.ts:@total', 'sum'], dir, hooked(dir, 'typescript', 'c.ts', late));
    expect(r.status, r.text).toBe(3);
    expect(r.stderr).toContain('rt: c.ts holds total now, and did not when rt looked for its references: nothing');
    expect(read(dir, 'a.ts').toString()).toBe(A);
    expect(read(dir, 'b.ts').toString()).toBe(B);
    expect(read(dir, 'c.ts').toString()).toBe(`export const c = 1;\n${late}`);
  });
});

describe('rt refs and rt rename by name (Python, Go)', () => {
  const M_PY =
    'def load(path):\n    """load the path"""\n    return open(path)\n\n\nclass Store:\n    def load(self):\n' +
    '        # load it\n        return load("x")\n\nprint(f"{load}", "load")\n';
  const N_PY = 'from m import load\nload("y")\n';

  it('finds identifiers of the name outside strings and comments, and says it is by name', () => {
    const dir = repo({ 'm.py': M_PY, 'n.py': N_PY, 'other.go': 'package main\n\nfunc load() {}\n' });
    const r = run(['refs', 'm.py:@load'], dir);
    expect(r.status, r.stderr).toBe(0);
    expect(places(r.stdout)).toEqual([
      'm.py:1|def load(path):',
      'm.py:6=class Store:',
      'm.py:7|    def load(self):',
      'm.py:9|        return load("x")',
      'm.py:11|print(f"{load}", "load")',
      'n.py:1|from m import load',
      'n.py:2|load("y")',
      '6 references on 6 lines in 2 files (by name, not by scope: python identifiers spelling load)',
      '',
    ]);
  });

  it('renames them by name, refuses a name already there unless --force, and undo restores every byte', () => {
    const crlf = 'from m import load\r\nx = load  # load\r\n';
    const dir = repo({ 'm.py': M_PY, 'n.py': N_PY, 'o.py': crlf });
    const taken = run(['rename', 'm.py:@load', 'open'], dir);
    expect(taken.status).toBe(3);
    expect(taken.stderr).toContain('open is already an identifier in m.py (line 3)');
    const r = run(['rename', 'm.py:@load', 'fetch'], dir);
    expect(r.status, r.stderr).toBe(0);
    expect(read(dir, 'm.py').toString()).toBe(
      M_PY.replace('def load(path)', 'def fetch(path)')
        .replace('def load(self)', 'def fetch(self)')
        .replace('return load("x")', 'return fetch("x")')
        .replace('f"{load}"', 'f"{fetch}"'),
    );
    expect(read(dir, 'n.py').toString()).toBe('from m import fetch\nfetch("y")\n');
    expect(read(dir, 'o.py').toString()).toBe('from m import fetch\r\nx = fetch  # load\r\n');
    expect(run(['undo'], dir).status).toBe(0);
    expect(read(dir, 'm.py').toString()).toBe(M_PY);
    expect(read(dir, 'n.py').toString()).toBe(N_PY);
    expect(read(dir, 'o.py').toString()).toBe(crlf);
    expect(run(['rename', '--force', 'm.py:@load', 'open'], dir).status).toBe(0);
  });

  it('finds and renames a local in its own file alone, and a module-level export across files', () => {
    const a =
      'export const node = 1;\nexport function f() {\n  const node = 2;\n  return node;\n}\nconst own = node;\n';
    const dir = repo({ 'a.ts': a, 'b.ts': "import { node } from './a';\nnode;\n" });
    const lid = run(['open', 'a.ts'], dir).stdout.split('\n')[3]!.slice(0, 6);
    const local = run(['refs', `a.ts:${lid}:9`], dir);
    expect(local.stdout).toContain('2 references on 2 lines in 1 file');
    const first = run(['open', 'a.ts'], dir).stdout.split('\n')[1]!.slice(0, 6);
    expect(run(['refs', `a.ts:${first}:14`], dir).stdout).toContain('4 references on 4 lines in 2 files');
    expect(run(['rename', `a.ts:${lid}:9`, 'inner'], dir).status).toBe(0);
    expect(read(dir, 'a.ts').toString()).toBe(
      a.replace('const node = 2', 'const inner = 2').replace('return node', 'return inner'),
    );
  });

  it("is not fooled into one file by what only looks local: a parameter property, a block's var", () => {
    const dir = repo({
      'a.ts': 'export class A {\n  constructor(public foo: number) {}\n}\n',
      'b.ts': "import { A } from './a';\nnew A(1).foo;\n",
      'v.ts': '{\n  var vx = 1;\n}\nexport { vx };\n',
      'w.ts': "import { vx } from './v';\nvx;\n",
    });
    const lid = (file: string, n: number) => run(['open', file], dir).stdout.split('\n')[n]!.slice(0, 6);
    expect(run(['refs', `a.ts:${lid('a.ts', 2)}:22`], dir).stdout).toContain('in 2 files');
    expect(run(['refs', `v.ts:${lid('v.ts', 2)}:7`], dir).stdout).toContain('in 2 files');
  });

  it('counts COL in the bytes of the line as they are, after bytes that are not UTF-8 (as rg --column)', () => {
    const line2 = Buffer.concat([
      Buffer.from('let q = "'),
      Buffer.from([0xff, 0xff, 0xff]),
      Buffer.from('", ab2 = ab + foo;\n'),
    ]);
    const dir = repo({ 'a.js': Buffer.concat([Buffer.from('const foo = 1, ab = 2;\n'), line2]) });
    const lid = run(['open', 'a.js'], dir).stdout.split('\n')[2]!.slice(0, 6);
    const r = run(['refs', `a.js:${lid}:27`], dir);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('2 references on 2 lines in 1 file');
    const none = run(['refs', `a.js:${lid}:9`], dir);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('ab2 (:16), ab (:22), foo (:27)');
  });

  it('prints a dry run, a write and their --json as replace prints its own (CRLF, bytes not UTF-8)', () => {
    const m = Buffer.from('def load():\r\n    return 1\r\n\r\nx = load()  # \xff\r\n', 'latin1');
    const dir = repo({ 'm.py': m, 'n.py': 'from m import load\nload()\n' });
    const dry = run(['rename', '--dry-run', 'm.py:@load', 'fetch'], dir);
    expect(dry.stdoutBytes.toString('latin1')).toBe(
      'm.py:1:vbz8-def load():\nm.py:1:vbz8+def fetch():\nm.py:4:gn03-x = load()  # \xff\n' +
        'm.py:4:gn03+x = fetch()  # \xff\nn.py:1:76hh-from m import load\nn.py:1:76hh+from m import fetch\n' +
        'n.py:2:mtqg-load()\nn.py:2:mtqg+fetch()\n4 references on 4 lines in 2 files (by name, not by scope)\n',
    );
    const json = JSON.parse(run(['rename', '--dry-run', '--json', 'm.py:@load', 'fetch'], dir).stdout);
    expect(json.files[0]).toEqual({
      path: 'm.py',
      references: 2,
      lines: [
        { n: 1, lid: 'vbz8', before: 'def load():', after: 'def fetch():' },
        {
          ...{ n: 4, lid: 'gn03', before: 'x = load()  # \ufffd', beforeBase64: 'eCA9IGxvYWQoKSAgIyD/' },
          ...{ after: 'x = fetch()  # \ufffd', afterBase64: 'eCA9IGZldGNoKCkgICMg/w==' },
        },
      ],
    });
    const r = run(['rename', 'm.py:@load', 'fetch'], dir);
    expect(r.status, r.text).toBe(0);
    expect(places(r.stdout)).toEqual([
      'renamed load to fetch: 4 references on 4 lines in 2 files (by name, not by scope)',
      'm.py:1|def fetch():',
      'm.py:4|x = fetch()  # \ufffd',
      'n.py:1|from m import fetch',
      'n.py:2|fetch()',
      '',
    ]);
    expect(read(dir, 'm.py')).toEqual(Buffer.from(m.toString('latin1').replaceAll('load', 'fetch'), 'latin1'));
  });

  it('Go: refuses a new name declared in another file of the package, unless --force', () => {
    const main = 'package main\n\nfunc foo() int { return 1 }\n\nfunc main() { foo() }\n';
    const dir = repo({ 'go.mod': 'module x\n', 'main.go': main, 'other.go': 'package main\n\nfunc bar() {}\n' });
    const r = run(['rename', 'main.go:@foo', 'bar'], dir);
    expect(r.status).toBe(3);
    expect(r.stderr).toContain('bar is already an identifier in other.go (line 3), in the package the rename changes');
    expect(read(dir, 'main.go').toString()).toBe(main);
    expect(run(['rename', '--force', 'main.go:@foo', 'bar'], dir).status).toBe(0);
  });

  it("Go: a struct's field and a selector after . do not clash with a function's new name; a local does", () => {
    const types = 'package main\r\n\r\ntype User struct {\r\n\tName string\r\n}\r\n';
    const main =
      'package main\r\n\r\nfunc lookup(u User) string { return u.Name }\r\n\r\n' +
      'func main() { _ = lookup(User{}) }\r\n';
    const dir = repo({ 'go.mod': 'module x\n', 'main.go': main, 'types.go': types });
    const r = run(['rename', 'main.go:@lookup', 'Name'], dir);
    expect(r.status, r.text).toBe(0);
    expect(read(dir, 'main.go').toString()).toBe(main.replaceAll('lookup', 'Name'));
    expect(read(dir, 'types.go').toString()).toBe(types);
    // Renaming the field itself: any identifier of the new name clashes.
    const at = run(['open', 'types.go'], dir).stdout.split('\n')[4]!.split('|')[0]!;
    const field = run(['rename', `types.go:${at}:2`, 'main'], dir);
    expect(field.status, field.text).toBe(3);
    expect(read(dir, 'types.go').toString()).toBe(types);
    // A local of the new name in a function the rename touches is a real clash.
    const local =
      'package main\n\nfunc find() int { return 1 }\n\nfunc main() {\n\tcount := 2\n\t_ = find() + count\n}\n';
    const other = repo({ 'go.mod': 'module x\n', 'main.go': local });
    const clash = run(['rename', 'main.go:@find', 'count'], other);
    expect(clash.status, clash.text).toBe(3);
    expect(clash.stderr).toContain('count is already an identifier in main.go (line 6), which the rename changes');
    expect(read(other, 'main.go').toString()).toBe(local);
  });

  it("a member anywhere (a method, a selected name, a class's field): any identifier of the new name clashes", () => {
    // A method called as self.helper(): renamed run, it would meet the attribute self.run.
    const py =
      'class Job:\n    def __init__(self):\n        self.run = False\n\n    def helper(self):\n' +
      '        return 1\n\n    def go(self):\n        return self.helper()\n';
    // A method renamed clone would be what p.clone() calls instead of the derived Clone.
    const rs =
      '#[derive(Clone)]\nstruct P {\n    x: i32,\n}\n\nimpl P {\n    fn helper(&self) -> i32 {\n' +
      '        self.x\n    }\n}\n\nfn main() {\n    let p = P { x: 1 };\n    let q = p.clone();\n' +
      '    println!("{} {}", q.x, p.helper());\n}\n';
    // A subclass's field renamed total would shadow the base's that this.total reads.
    const java =
      'class Sub extends Base {\n    int count = 1;\n\n    int get() {\n        return count + this.total;\n    }\n}\n';
    const dir = repo({
      'job.py': py,
      'm.rs': rs,
      'Sub.java': java,
      'Base.java': 'class Base {\n    int total = 7;\n}\n',
    });
    const cases: Array<[string, string, string]> = [
      ['job.py:@helper', 'run', 'job.py'],
      ['m.rs:@helper', 'clone', 'm.rs'],
      [`Sub.java:${run(['open', 'Sub.java'], dir).stdout.split('\n')[1]!.split('|')[0]}:9`, 'total', 'Sub.java'],
    ];
    for (const [target, name, file] of cases) {
      const r = run(['rename', target, name], dir);
      expect(r.status, `${target}: ${r.text}`).toBe(3);
      expect(r.stderr).toContain(`${name} is already an identifier in ${file}`);
    }
    expect(read(dir, 'job.py').toString()).toBe(py);
    expect(read(dir, 'm.rs').toString()).toBe(rs);
    expect(read(dir, 'Sub.java').toString()).toBe(java);
  });

  it('Go: identifiers of the name, not the word in a string or a comment', () => {
    const go =
      'package main\n\nfunc Load() int { return 1 }\n\n' +
      'func main() {\n\t_ = Load() // Load\n\ts := "Load"\n\t_ = s\n}\n';
    const dir = repo({ 'main.go': go });
    const r = run(['rename', 'main.go:@Load', 'Fetch'], dir);
    expect(r.status, r.stderr).toBe(0);
    expect(read(dir, 'main.go').toString()).toBe(
      go.replace('func Load()', 'func Fetch()').replace('_ = Load()', '_ = Fetch()'),
    );
  });
});
