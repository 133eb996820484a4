// Python's tokenizer errors and indentation rules, against CPython's own verdict: each row says
// what `compile()` says (its first error's line), and where `python3` is on PATH the test asks it.

import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isPythonTokenProblem, pythonTokenProblems } from '../../src/lang/pythonTokens.js';

/** [what, source, CPython's first error as `line message`, or undefined when it compiles]. */
const TABLE: ReadonlyArray<[string, string, string | undefined]> = [
  [
    'a dedent to no outer level',
    'def f(x):\n    if x:\n        return 1\n  return 2\n',
    '4 unindent does not match any outer indentation level',
  ],
  ['a body at column 0', 'def f(x):\nreturn x\n', '2 expected an indented block after function definition on line 1'],
  [
    'a header at the end of the file',
    'class A:\n    def f(self):\n',
    '2 expected an indented block after function definition on line 2',
  ],
  [
    'a header followed by comments only',
    'if x:\n    # nothing\n\n',
    "3 expected an indented block after 'if' statement on line 1",
  ],
  ['an indented line after a simple statement', 'x = 1\n    y = 2\n', '2 unexpected indent'],
  ['an indented first line', '  x = 1\n', '1 unexpected indent'],
  ['an indented line after a one-line compound statement', 'if x: y = 1\n    y = 2\n', '2 unexpected indent'],
  [
    'a tab where spaces opened the level',
    'if x:\n        a = 1\n\tb = 2\n',
    '3 inconsistent use of tabs and spaces in indentation',
  ],
  [
    'a tab and spaces that order the line differently',
    'if x:\n        if y:\n\t pass\n',
    '3 inconsistent use of tabs and spaces in indentation',
  ],
  ['a decorated line less indented', 'class A:\n    @property\ndef f(self): pass\n', '3 unexpected unindent'],
  ['an unclosed bracket', 'x = f(1,\n      2\ny = 3\n', '1 `(` was never closed'],
  ['an unmatched closer', 'x = 1)\n', '1 unmatched `)`'],
  ['a mismatched closer', 'x = [1, 2)\n', '1 closing `)` does not match opening `[`'],
  ['an unterminated string', 'x = "abc\ny = 1\n', '1 unterminated string literal'],
  ['an unterminated triple-quoted string', 'x = 1\ny = """abc\n\nz\n', '2 unterminated triple-quoted string literal'],
  ['text after a continuation backslash', 'x = 1 + \\ 2\n', '1 unexpected character after line continuation character'],
  ['return at module level', 'x = 1\nreturn x\n', "2 'return' outside function"],
  ['return in a class body in a function', 'def f():\n    class A:\n        return 1\n', "3 'return' outside function"],
  ["break in a loop's else", 'for x in y:\n    pass\nelse:\n    break\n', "4 'break' outside loop"],
  [
    'continue in a function in a loop',
    'while x:\n    def f():\n        continue\n',
    "3 'continue' not properly in loop",
  ],
  ['yield at module level', 'x = yield 1\n', "1 'yield' outside function"],
  ['await in a function that is not async', 'def f():\n    if x: await g()\n', "2 'await' outside async function"],
  ['await at module level', 'await f()\n', "1 'await' outside function"],
  [
    'a positional argument after a keyword argument',
    'f(a,\n  b=1,\n  c)\n',
    '3 positional argument follows keyword argument',
  ],
  ['a positional argument after **', 'f(**k, c)\n', '1 positional argument follows keyword argument unpacking'],
  ['a keyword argument twice', 'class A(B, m=1, m=2): pass\n', '1 keyword argument repeated: m'],
  [
    'a parameter without a default after one with',
    'def f(a, b=1, c): pass\n',
    '1 parameter without a default follows parameter with a default',
  ],
  ['an import of nothing', 'def f():\n    import #x\n    print(1)\n', '2 `import` needs more'],
  ['`as` outside import, with, except and case', 'x = 1\npatch("a") as m,\n', '2 `as` out of place'],
  [
    'a future import after code',
    '"""doc"""\nimport os\nfrom __future__ import annotations\n',
    '3 from __future__ imports must occur at the beginning of the file',
  ],
  // Valid code: none of these is an error.
  [
    'as, import and future imports where they belong',
    '"""doc"""\n# note\nfrom __future__ import annotations\nimport a.b as c\nfrom d import (e as f)\nwith g ' +
      'as h, i as j: pass\n' +
      'try: import k as m\nexcept E as e: pass\nmatch p:\n    case [x] as y: pass\nimport n; from o import q as r\n',
    undefined,
  ],
  [
    'arguments and parameters in every valid order',
    'f(a, *b, c=1, *d, e=2, **g)\nf(key=lambda a, b=2: a, other=[1, 2])\nf(x == 1, y := 2)\nx[0](a=1, b=2)\n' +
      ('def g(a, b=1, *args, c, d=2, **kw): pass\ndef h(a=1, /, b=2, *, c): pass\ndef k(a: dict[str, int] = ' +
        '{}, b=lambda x, y: 0): pass\nif (a, b) in c: pass\n'),
    undefined,
  ],
  [
    'return, yield, await, break and continue where they belong',
    'def f():\n    for x in y:\n        if x: break\n        try:\n            continue\n        finally:\n   ' +
      '         pass\n    else:\n        return (yield 1)\n' +
      ('async def g():\n    while True:\n        with a:\n            await h()\n            break\nh = ' +
        'lambda: (yield)\nfor x in y: break\nelse: pass\n'),
    undefined,
  ],
  ['tabs used consistently', 'if x:\n\tif y:\n\t\tpass\n\telse:\n\t\tpass\n', undefined],
  ['a tab equal to eight spaces, alone', 'if x:\n\tpass\n', undefined],
  ['one-line compound statements', 'if x: y = 1\nclass A: pass\nwhile 0: break\nx = 2\n', undefined],
  [
    'brackets and continuations ignore indentation',
    'x = [\n  1,\n        2,\n]\ny = 1 + \\\n      2\ndef f(a,\n  b):\n    return {\n  "k": lambda: a,\n}[b]\n',
    undefined,
  ],
  [
    'colons that open no block',
    'x = lambda: 1\nd = {1: 2}\ns = a[1:2]\ny: int = 3\nif (n := 10) > 5: pass\n',
    undefined,
  ],
  [
    'strings hide what looks like code',
    'x = """\nif y:\n  unindented"""\ny = r"\\"" + b\'\\\'\' + \'#\'  # comment (\ns = f"{x!r:>{w}} {{ ( ' +
      "{d['k']}\"\nt = rb'''\n'''\n",
    undefined,
  ],
  ['comments and blank lines at any indentation', 'def f():\n\n# top\n        # deep\n    return 1\n', undefined],
  [
    'match and case as soft keywords',
    'match p:\n    case [a, *_]:\n        pass\n    case {"k": v} if v:\n        pass\nmatch = 1\n',
    undefined,
  ],
  [
    'decorators',
    '@dec\n@other(1)\ndef f():\n    pass\nclass A:\n    @property\n    def x(self): return 1\n',
    undefined,
  ],
  ['a form feed resets the column', 'if x:\n    pass\n\fy = 1\n', undefined],
  ['a multi-line f-string field', 'x = f"""{\n  1 +\n    2}"""\n', undefined],
  ['a comment after the header colon', 'if x:  # why\n    pass\n', undefined],
];

const pythonVerdicts = (() => {
  const script = `
import sys, json
out = []
for src in json.load(sys.stdin):
    try:
        compile(src, 'f', 'exec', dont_inherit=True); out.append(None)
    except SyntaxError as e:
        out.append(e.lineno)
print(json.dumps(out))`;
  const run = spawnSync('python3', ['-I', '-c', script], {
    input: JSON.stringify(TABLE.map((row) => row[1])),
    encoding: 'utf8',
  });
  return run.status === 0 ? (JSON.parse(run.stdout) as Array<number | null>) : undefined;
})();

describe('pythonTokenProblems', () => {
  it.each(TABLE)('%s', (_what, source, expected) => {
    const problems = pythonTokenProblems(source);
    expect(problems[0] && `${problems[0].line} ${problems[0].message}`).toEqual(expected);
    expect(problems.every(isPythonTokenProblem)).toBe(true);
  });

  it.skipIf(!pythonVerdicts)("agrees with python3's compile() on every row", () => {
    const lineOf = (expected: string | undefined): number | null =>
      expected === undefined ? null : Number(expected.split(' ')[0]);
    expect(pythonVerdicts).toEqual(TABLE.map((row) => lineOf(row[2])));
  });

  it('goes on past an error to find the next one', () => {
    const source = 'def f():\n    a = 1\n  b = 2\n\ndef g():\n        c = 3\n      d = 4\n';
    expect(pythonTokenProblems(source).map((p) => `${p.line} ${p.message}`)).toEqual([
      '3 unindent does not match any outer indentation level',
      '7 unindent does not match any outer indentation level',
    ]);
  });

  it('one misplaced line is one error: the lines after it are read as before it', () => {
    const source = 'def f(x):\n    if x:\n        a = 1\n  b = 2\n        c = 3\n    return a\n';
    expect(pythonTokenProblems(source).map((p) => `${p.line} ${p.message}`)).toEqual([
      '4 unindent does not match any outer indentation level',
    ]);
  });

  it('reaches back to the line that opened a level, so that an edit there is seen as the cause', () => {
    const [problem] = pythonTokenProblems('def f(x):\n  if x:\n        return 1\n    return 2\n');
    expect(problem).toMatchObject({ line: 4, contextStart: 3, contextEnd: 4 });
  });
});
