// The definitions `rt outline` lists and `rt open PATH:@Class.method` finds (SPEC §9).

import { beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES, type LanguageId } from '../../src/lang/languages.js';
import { outline, prepareChecker } from '../../src/lang/syntax.js';

beforeAll(async () => {
  for (const language of LANGUAGES) expect(await prepareChecker(language)).toEqual({ ok: true });
});

const shown = (language: LanguageId, text: string): string[] =>
  (outline(language, Buffer.from(text)) ?? []).map((d) => `${d.kind} ${d.qualifiedName} ${d.startLine}-${d.endLine}`);

describe('outline', () => {
  it.each<[LanguageId, string, string[]]>([
    ['typescript', 'export const LIMIT = 10;\nlet n = 1;\nexport class Cart {\n  add(x: number) {\n    function inner() {}\n  }\n}\ninterface Item { id: string }\ntype Id = string;\nenum E { A }\nconst f = (a: number) => a;\ndescribe("x", () => { function notShown() {} });\n',
      ['const LIMIT 1-1', 'class Cart 3-7', 'method Cart.add 4-6', 'interface Item 8-8', 'type Id 9-9', 'enum E 10-10', 'function f 11-11']],
    ['tsx', 'export function App() {\n  return <div />;\n}\n', ['function App 1-3']],
    ['javascript', 'class A {\n  static b() {}\n}\nfunction* g() {}\n', ['class A 1-3', 'method A.b 2-2', 'function g 4-4']],
    ['python', '@dataclass\nclass Cart:\n    def add(self, x):\n        def inner(): pass\n\ndef main():\n    pass\ntype Id = int\n',
      ['class Cart 1-4', 'method Cart.add 3-4', 'function main 6-7', 'type Id 8-8']],
    ['go', 'package a\n\ntype Cart struct{}\n\nfunc (c *Cart) Add(x int) {}\n\nfunc main() {}\n\nconst Limit = 10\n',
      ['type Cart 3-3', 'method Cart.Add 5-5', 'function main 7-7', 'const Limit 9-9']],
    ['rust', 'struct Cart;\nimpl Cart {\n    fn add(&self) {}\n}\ntrait T { fn t(&self); }\nconst N: u8 = 1;\nmod m { pub fn f() {} }\n',
      ['struct Cart 1-1', 'impl Cart 2-4', 'method Cart.add 3-3', 'trait T 5-5', 'method T.t 5-5', 'const N 6-6', 'module m 7-7', 'function m.f 7-7']],
    ['java', 'class Cart {\n  Cart() {}\n  void add(int x) {}\n  interface I {}\n}\n', ['class Cart 1-5', 'method Cart.Cart 2-2', 'method Cart.add 3-3', 'interface Cart.I 4-4']],
    ['c', 'struct list { int n; };\nstatic int *count(struct list *l) {\n  return 0;\n}\ntypedef int id;\n#define MAX(a, b) ((a) > (b) ? (a) : (b))\n',
      ['struct list 1-1', 'function count 2-4', 'type id 5-5', 'macro MAX 6-6']],
    ['cpp', 'namespace util {\nclass Cart {\n public:\n  void add(int x) {}\n};\n}\nvoid util::Cart::remove() {}\n',
      ['namespace util 1-6', 'class util.Cart 2-5', 'method util.Cart.add 4-4', 'function util.Cart.remove 7-7']],
    ['csharp', 'namespace Shop {\n  class Cart {}\n}\n', ['namespace Shop 1-3', 'class Shop.Cart 2-2']],
    ['csharp', 'namespace Shop;\nclass Cart {\n  public void Add(int x) {}\n  public int Count { get; }\n}\n', ['namespace Shop 1-1', 'class Cart 2-5', 'method Cart.Add 3-3', 'property Cart.Count 4-4']],
    ['ruby', 'module Shop\n  class Cart\n    def add(x)\n    end\n    def self.make\n    end\n  end\nend\n', ['module Shop 1-8', 'class Shop.Cart 2-7', 'method Shop.Cart.add 3-4', 'method Shop.Cart.make 5-6']],
    ['php', '<?php\nclass Cart {\n  const MAX = 3;\n  public function add($x) {}\n}\nfunction main() {}\n', ['class Cart 2-5', 'const Cart.MAX 3-3', 'method Cart.add 4-4', 'function main 6-6']],
    ['bash', 'setup() {\n  :\n}\nfunction run { :; }\n', ['function setup 1-3', 'function run 4-4']],
    ['yaml', 'name: ci\non:\n  push: {}\njobs:\n  test:\n    runs-on: x\n', ['key name 1-1', 'key on 2-3', 'key jobs 4-6']],
    ['json', '{"a": 1}', []],
    ['css', 'a { color: red; }\n', []],
  ])('%s', (language, text, expected) => {
    expect(shown(language, text)).toEqual(expected);
  });
});
