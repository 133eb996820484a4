// The definitions `rt outline` lists and `rt open PATH:@Class.method` finds.

import { beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES, type LanguageId } from '../../src/lang/languages.js';
import { outline, prepareChecker } from '../../src/lang/syntax.js';

beforeAll(async () => {
  for (const language of LANGUAGES) expect(await prepareChecker(language)).toEqual({ ok: true });
});

const shown = (language: LanguageId, text: string): string[] =>
  (outline(language, Buffer.from(text)) ?? []).map((d) => `${d.kind} ${d.qualifiedName} ${d.startLine}-${d.endLine}`);

/** Each definition with the line it is listed by, where that is not the first line of its range. */
const listed = (language: LanguageId, text: string): string[] =>
  (outline(language, Buffer.from(text)) ?? []).map(
    (d) => `${d.kind} ${d.qualifiedName} ${d.line === d.startLine ? '' : `@${d.line} `}${d.startLine}-${d.endLine}`,
  );

describe('outline', () => {
  it.each<[LanguageId, string, string[]]>([
    [
      'typescript',
      'export const LIMIT = 10;\nlet n = 1;\nexport class Cart {\n  add(x: number) {\n    function inner() ' +
        '{}\n  }\n}\ninterface Item { id: string }\ntype Id = string;\nenum E { A }\nconst f = (a: number) => ' +
        'a;\ndescribe("x", () => { function notShown() {} });\n',
      [
        'const LIMIT 1-1',
        'class Cart 3-7',
        'method Cart.add 4-6',
        'interface Item 8-8',
        'type Id 9-9',
        'enum E 10-10',
        'function f 11-11',
      ],
    ],
    ['tsx', 'export function App() {\n  return <div />;\n}\n', ['function App 1-3']],
    [
      'javascript',
      'class A {\n  static b() {}\n}\nfunction* g() {}\n',
      ['class A 1-3', 'method A.b 2-2', 'function g 4-4'],
    ],
    [
      'python',
      '@dataclass\nclass Cart:\n    def add(self, x):\n        def inner(): pass\n\ndef main():\n    ' +
        'pass\ntype Id = int\n',
      ['class Cart 1-4', 'method Cart.add 3-4', 'function main 6-7', 'type Id 8-8'],
    ],
    [
      'go',
      'package a\n\ntype Cart struct{}\n\nfunc (c *Cart) Add(x int) {}\n\nfunc main() {}\n\nconst Limit = 10\n',
      ['type Cart 3-3', 'method Cart.Add 5-5', 'function main 7-7', 'const Limit 9-9'],
    ],
    [
      'rust',
      'struct Cart;\nimpl Cart {\n    fn add(&self) {}\n}\ntrait T { fn t(&self); }\nconst N: u8 = 1;\nmod m ' +
        '{ pub fn f() {} }\n',
      [
        'struct Cart 1-1',
        'impl Cart 2-4',
        'method Cart.add 3-3',
        'trait T 5-5',
        'method T.t 5-5',
        'const N 6-6',
        'module m 7-7',
        'function m.f 7-7',
      ],
    ],
    [
      'java',
      'class Cart {\n  Cart() {}\n  void add(int x) {}\n  interface I {}\n}\n',
      ['class Cart 1-5', 'method Cart.Cart 2-2', 'method Cart.add 3-3', 'interface Cart.I 4-4'],
    ],
    [
      'c',
      'struct list { int n; };\nstatic int *count(struct list *l) {\n  return 0;\n}\ntypedef int id;\n#define ' +
        'MAX(a, b) ((a) > (b) ? (a) : (b))\n',
      ['struct list 1-1', 'function count 2-4', 'type id 5-5', 'macro MAX 6-6'],
    ],
    [
      'cpp',
      'namespace util {\nclass Cart {\n public:\n  void add(int x) {}\n};\n}\nvoid util::Cart::remove() {}\n',
      ['namespace util 1-6', 'class util.Cart 2-5', 'method util.Cart.add 4-4', 'function util.Cart.remove 7-7'],
    ],
    ['csharp', 'namespace Shop {\n  class Cart {}\n}\n', ['namespace Shop 1-3', 'class Shop.Cart 2-2']],
    [
      'csharp',
      'namespace Shop;\nclass Cart {\n  public void Add(int x) {}\n  public int Count { get; }\n}\n',
      ['namespace Shop 1-1', 'class Cart 2-5', 'method Cart.Add 3-3', 'property Cart.Count 4-4'],
    ],
    [
      'ruby',
      'module Shop\n  class Cart\n    def add(x)\n    end\n    def self.make\n    end\n  end\nend\n',
      ['module Shop 1-8', 'class Shop.Cart 2-7', 'method Shop.Cart.add 3-4', 'method Shop.Cart.make 5-6'],
    ],
    [
      'php',
      '<?php\nclass Cart {\n  const MAX = 3;\n  public function add($x) {}\n}\nfunction main() {}\n',
      ['class Cart 2-5', 'const Cart.MAX 3-3', 'method Cart.add 4-4', 'function main 6-6'],
    ],
    ['bash', 'setup() {\n  :\n}\nfunction run { :; }\n', ['function setup 1-3', 'function run 4-4']],
    [
      'yaml',
      'name: ci\non:\n  push: {}\njobs:\n  test:\n    runs-on: x\n',
      ['key name 1-1', 'key on 2-3', 'key jobs 4-6'],
    ],
    ['json', '{"a": 1}', []],
    ['css', 'a { color: red; }\n', []],
  ])('%s', (language, text, expected) => {
    expect(shown(language, text)).toEqual(expected);
  });
});

describe('outline: what real code holds', () => {
  it.each<[string, LanguageId, string, string[]]>([
    [
      'members of a class expression, qualified by its variable',
      'typescript',
      'const NodePath_Final = class NodePath {\n  getScope() {}\n  static get(x) {}\n};\nexport const Other = ' +
        'class {\n  run() {}\n};\n',
      [
        'class NodePath_Final 1-4',
        'method NodePath_Final.getScope 2-2',
        'method NodePath_Final.get 3-3',
        'class Other 5-7',
        'method Other.run 6-6',
      ],
    ],
    [
      'namespaces and modules, declared or not',
      'typescript',
      'namespace NS {\n  export function f() {}\n}\nmodule M { export const x = 1; }\ndeclare namespace D { ' +
        'function g(): void }\ndeclare module "fs-extra" {\n  function h(): void;\n}\n',
      [
        'namespace NS 1-3',
        'function NS.f 2-2',
        'namespace M 4-4',
        'const M.x 4-4',
        'namespace D 5-5',
        'function D.g 5-5',
        'namespace fs-extra 6-8',
        'function fs-extra.h 7-7',
      ],
    ],
    [
      'class fields holding functions are methods; other fields are not listed',
      'typescript',
      'class A {\n  static create = () => new A();\n  handler = function () {};\n  count = 0;\n  table = { ' +
        'run() {} };\n}\n',
      ['class A 1-6', 'method A.create 2-2', 'method A.handler 3-3'],
    ],
    [
      'class fields in JavaScript',
      'javascript',
      'class A {\n  static create = () => 1;\n  #hidden = function () {};\n  x = 1;\n}\n',
      ['class A 1-5', 'method A.create 2-2', 'method A.#hidden 3-3'],
    ],
    [
      'export default: named by its own name, else default',
      'typescript',
      'export default function () {}\n',
      ['function default 1-1'],
    ],
    [
      'export default class without a name, with its members',
      'javascript',
      'export default class extends Base {\n  render() {}\n}\n',
      ['class default 1-3', 'method default.render 2-2'],
    ],
    [
      'export default of a named function and an arrow',
      'tsx',
      'export default function App() {\n  return <div />;\n}\n',
      ['function App 1-3'],
    ],
    ['export default arrow', 'javascript', 'export default (a) => a;\n', ['function default 1-1']],
    [
      'a getter and its setter are one definition',
      'typescript',
      'class Cart {\n  get size() {\n    return 1;\n  }\n  set size(v) {}\n  other() {}\n}\n',
      ['class Cart 1-7', 'method Cart.size 2-5', 'method Cart.other 6-6'],
    ],
    [
      'overload signatures and their implementation are one definition',
      'typescript',
      'function ov(a: string): string;\nfunction ov(a: number): number;\nfunction ov(a: any) {\n  return ' +
        'a;\n}\nfunction ov2() {}\nclass K {\n  m(a: string): void;\n  m(a: any) {}\n}\n',
      ['function ov 1-5', 'function ov2 6-6', 'class K 7-10', 'method K.m 8-9'],
    ],
    [
      'a function defined twice stays two definitions',
      'javascript',
      'function f() {}\nfunction f() {}\n',
      ['function f 1-1', 'function f 2-2'],
    ],
    [
      'top-level variables in loops are not definitions',
      'javascript',
      'for (const t of ts) {\n  const k = 1;\n}\nconst top = 2;\n',
      ['const top 4-4'],
    ],
    [
      'Python: module-level constants in capitals, first assignment only',
      'python',
      'LIMIT = 10\nTimeout: int = 3\nNAMES = """a"""\nNAMES = NAMES.split()\n_PRIVATE_MAX = 2\nlower = 1\nA = ' +
        'B = 2\nx, Y = 1, 2\nclass C:\n    INNER = 1\ndef f():\n    LOCAL = 1\nif True:\n    GUARDED = 1\n',
      [
        'const LIMIT 1-1',
        'const NAMES 3-3',
        'const _PRIVATE_MAX 5-5',
        'const A 7-7',
        'class C 9-10',
        'function f 11-12',
      ],
    ],
    [
      'Python: a property and its setter, and overloads, are one definition',
      'python',
      'class C:\n    @property  # type: ignore[override]\n    def size(self):\n        return 1\n\n    ' +
        '@size.setter\n    def size(self, v):\n        pass\n\n@overload\ndef f(x: int) -> int: ' +
        '...\n@overload\ndef f(x: str) -> str: ...\ndef f(x):\n    return x\ndef g(): pass\n',
      ['class C 1-8', 'method C.size @3 2-8', 'function f @11 10-15', 'function g 16-16'],
    ],
    // Listed by its def line (@N), its range from its first decorator, attribute or doc comment.
    [
      'Python: by the def line, the range from the first decorator',
      'python',
      'class A:\n    @classmethod\n    @cache\n    def make(cls):\n        pass\n@dataclass\nclass B:\n    x: int\n',
      ['class A 1-5', 'method A.make @4 2-5', 'class B @7 6-8'],
    ],
    [
      'TypeScript: decorators and doc comments',
      'typescript',
      'class C {\n  /** Doc. */\n  @Input()\n  name() {}\n  // a plain comment\n  plain() {}\n}\n/**\n * The ' +
        'class.\n */\n@Component({})\nexport class D {}\n\n/** Far away. */\n\nfunction far() {}\n',
      ['class C 1-7', 'method C.name @4 2-4', 'method C.plain 6-6', 'class D @12 8-12', 'function far 16-16'],
    ],
    [
      'Java: annotations and Javadoc',
      'java',
      '/** Doc */\n@Entity\npublic class A {\n  /** m */\n  @Override\n  public void foo() {}\n  @Deprecated ' +
        'void bar() {}\n}\n',
      ['class A @3 1-8', 'method A.foo @6 4-6', 'method A.bar 7-7'],
    ],
    [
      "Rust: attributes and doc comments; inner docs are not the next item's",
      'rust',
      '//! Crate docs.\n/// Doc\n#[derive(Debug)]\npub struct Config {}\n\nimpl Config {\n    /// new\n    ' +
        '#[inline]\n    pub fn new() -> Self { Config {} }\n}\n',
      ['struct Config @4 2-4', 'impl Config 6-10', 'method Config.new @9 7-9'],
    ],
    [
      'Go: a doc comment is the comments right above',
      'go',
      'package a\n\n// Cart holds items.\n// More.\ntype Cart struct{}\n\n// not touching\n\nfunc F() ' +
        '{}\n\ntype (\n\t// A doc\n\tA int\n\tB int\n)\n',
      ['type Cart @5 3-5', 'function F 9-9', 'type A @13 12-13', 'type B 14-14'],
    ],
    [
      'Ruby: the # comments right above',
      'ruby',
      '# frozen_string_literal: true\n\n# A cart.\nclass Cart\n  # Adds.\n  # More.\n  def add; end\nend\n',
      ['class Cart @4 3-8', 'method Cart.add @7 5-7'],
    ],
    [
      'C#: attributes and /// comments',
      'csharp',
      'class A {\n  /// <summary>Doc</summary>\n  [Obsolete]\n  public void M() {}\n}\n',
      ['class A 1-5', 'method A.M @4 2-4'],
    ],
  ])('%s', (_, language, text, expected) => {
    expect(listed(language, text)).toEqual(expected);
  });
});
