// The syntax check as the write pipeline calls it: only errors an edit makes count.
// Real grammars, loaded from node_modules as the sources run.

import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LanguageId } from '../../src/lang/languages.js';
import { loadEngine } from '../../src/lang/loadEngine.js';
import {
  MAX_CHECK_BYTES,
  MAX_PARSED_CHARS,
  newErrors,
  prepareChecker,
  skippedForSize,
  syntaxErrors,
  type Check,
} from '../../src/lang/syntax.js';

const b = (text: string): Buffer => Buffer.from(text);
const messages = (check: Check): string[] =>
  check.status === 'errors' ? check.errors.map((e) => `${e.line}:${e.column} ${e.message}`) : [check.status];

beforeAll(async () => {
  for (const language of [
    'typescript',
    'tsx',
    'javascript',
    'python',
    'go',
    'rust',
    'json',
    'jsonc',
    'json5',
    'yaml',
    'c',
    'css',
    'bash',
    'php',
  ] as const) {
    expect(await prepareChecker(language)).toEqual({ ok: true });
  }
});

describe('syntaxErrors', () => {
  it.each<[LanguageId, string, string[]]>([
    ['typescript', 'function f(a: number {\n  return a;\n}\n', ['1:21 missing `)`']],
    ['typescript', 'foo(1, 2;\nbar();\n', ['1:9 missing `)`']],
    ['rust', 'fn main() { let x = ; }\n', ['1:19 unexpected `=`']],
    ['go', 'package a\nfunc f() {\n\tx := \n}\n', ['3:6 missing `identifier`']],
    ['json', '{"a": 1,}\n', ['1:9 trailing `,` is not allowed in JSON']],
    ['json', '{"a": 1\n', ['2:1 missing `}`']],
    ['jsonc', '// settings\n{"a": 1, /* b */ "b": [1, 2,],}\n', ['ok']],
    ['json5', "// settings\n{a: 1, 'b': 0x1F, c: [.5, +Infinity,], /* d */ d: 'it''s',}\n", ["2:55 unexpected `'`"]],
    ['json5', "// settings\n{a: 1, 'b': 0x1F, c: [.5, +Infinity,], /* d */ d: 'x',}\n", ['ok']],
    ['json5', '{a: [1 2]}\n', ['1:8 unexpected `2`']],
    ['python', 'def f(x):\n    return x +\n', ['2:5 unexpected `return x +`']],
  ])('%s %j', (language, text, expected) => {
    expect(messages(syntaxErrors(language, b(text)))).toEqual(expected);
  });

  it('columns count characters, not bytes', () => {
    expect(messages(syntaxErrors('typescript', b('const s = "é" + (1 + ;\n')))).toEqual(['1:15 unexpected `+ (1 +`']);
  });

  it('modern syntax the grammars know is no error', () => {
    const ok = (language: LanguageId, text: string): void =>
      expect(messages(syntaxErrors(language, b(text))), text).toEqual(['ok']);
    ok(
      'typescript',
      'const x = { a: 1 } satisfies Record<string, number>;\nusing r = get();\nawait using s = get();\n@dec ' +
        'class A { @d m() {} accessor x = 1; }\n',
    );
    ok('python', 'type X = int\nmatch p:\n    case [a, *_]:\n        pass\ndef f[T](x: T) -> T: ...\n');
    ok('rust', 'fn main() { let Some(x) = y else { return; }; }\n');
  });

  it('a language whose grammar is not prepared is skipped, never an error', () => {
    expect(syntaxErrors('ruby', b('def f(\n')).status).toBe('skipped');
  });
});

describe('newErrors', () => {
  const broken = 'function a() {\n  return (1;\n}\n\nfunction b() {\n  return 2;\n}\n';

  it('a clean edit of a clean file passes', () => {
    expect(newErrors('typescript', b('let a = 1;\n'), b('let a = 2;\n')).status).toBe('ok');
  });

  it('an edit that breaks a clean file is refused, with the new error', () => {
    expect(
      messages(newErrors('typescript', b('let a = f(1);\nlet b = 2;\n'), b('let a = f(1;\nlet b = 2;\n'))),
    ).toEqual(['1:12 missing `)`']);
  });

  it('an edit elsewhere in an already broken file passes', () => {
    const after = broken.replace('return 2;', 'return 3;');
    expect(newErrors('typescript', b(broken), b(after)).status).toBe('ok');
  });

  it('an edit that adds lines above an existing error (which moves it) passes', () => {
    expect(newErrors('typescript', b(broken), b(`// one\n// two\n${broken}`)).status).toBe('ok');
  });

  it('an edit that moves the broken function below the other passes', () => {
    const parts = broken.split('\n\n');
    expect(newErrors('typescript', b(broken), b(`${parts[1]}\n${parts[0]}\n`)).status).toBe('ok');
  });

  it('an edit that fixes an error passes', () => {
    expect(newErrors('typescript', b(broken), b(broken.replace('(1;', '(1);'))).status).toBe('ok');
  });

  it('a second error in an already broken file is refused', () => {
    const after = broken.replace('return 2;', 'return [2;');
    expect(messages(newErrors('typescript', b(broken), b(after)))).toEqual(['6:12 missing `]`']);
  });

  it('takes the hunks the caller gives', () => {
    const before = 'let a = (1;\nlet b = 2;\n';
    const after = 'let a = (1;\nlet b = (2;\n';
    expect(
      messages(newErrors('typescript', b(before), b(after), [{ oldStart: 2, oldEnd: 3, newStart: 2, newEnd: 3 }])),
    ).toEqual(['2:11 missing `)`']);
  });

  it('reads CRLF and BOM files as rt numbers their lines', () => {
    const before = '\ufefflet a = 1;\r\nlet b = 2;\r\n';
    const after = '\ufefflet a = 1;\r\nlet b = (2;\r\n';
    expect(messages(newErrors('typescript', b(before), b(after)))).toEqual(['2:11 missing `)`']);
    expect(
      newErrors(
        'python',
        b('\ufeffdef f(x):\r\n    return x\r\n'),
        b('\ufeffdef f(x):\r\n    return \\\r\n        x\r\n'),
      ).status,
    ).toBe('ok');
  });

  it('a .json file that already has comments may get more', () => {
    expect(
      newErrors('json', b('{\n  // a\n  "a": 1\n}\n'), b('{\n  // a\n  "a": 1, // b\n  "b": 2,\n}\n')).status,
    ).toBe('ok');
    expect(messages(newErrors('json', b('{\n  "a": 1\n}\n'), b('{\n  "a": 1, // b\n}\n')))).toEqual([
      '2:11 comments are not allowed in JSON',
      '3:1 trailing `,` is not allowed in JSON',
    ]);
  });

  it('an empty new JSON file passes (a file is made empty, then filled)', () => {
    expect(newErrors('json', b(''), b('')).status).toBe('ok');
  });

  it('YAML: a broken mapping is refused', () => {
    expect(newErrors('yaml', b('a: 1\nb:\n  - x\n'), b('a: 1\nb:\n  - x\n c: [\n')).status).toBe('errors');
  });

  it('YAML with template tags (ERB, Helm, Jinja) is not checked', () => {
    for (const tag of ['<% end %>', '{{- if .Values.x }}', '{% if x %}']) {
      const check = newErrors('yaml', b('a: 1\n'), b(`a: 1\n${tag}\nb: [\n`));
      expect(check.status === 'skipped' && check.reason, tag).toMatch(/template/);
    }
  });

  it('says a change too large to check is skipped, before its bytes are joined, as the check itself says', () => {
    const sizes = [0, 10, MAX_CHECK_BYTES, MAX_CHECK_BYTES + 1];
    const zeros = new Map(sizes.map((n) => [n, new Uint8Array(n)]));
    for (const oldLength of sizes)
      for (const newLength of sizes) {
        const early = skippedForSize('javascript', oldLength, newLength);
        if (oldLength <= MAX_CHECK_BYTES && newLength <= MAX_CHECK_BYTES) expect(early).toBeUndefined();
        else expect(early).toEqual(newErrors('javascript', zeros.get(oldLength)!, zeros.get(newLength)!));
      }
  });

  it(`a file above ${MAX_CHECK_BYTES / 1024 / 1024} MB is not checked, with the reason`, () => {
    const big = b(`${'let a = 1;\n'.repeat(Math.ceil(MAX_CHECK_BYTES / 11) + 1)}let b = (;\n`);
    const check = newErrors('typescript', b(''), big);
    expect(check.status).toBe('skipped');
    expect(check.status === 'skipped' && check.reason).toMatch(/MB is more than/);
  });

  it('a 10 MB single line (a minified bundle) is skipped at once', () => {
    const line = b(`var a=${'[1,2,3],'.repeat(1_300_000)}0;`);
    // That reason is given before any parsing: the line is never handed to the grammar.
    const check = newErrors('javascript', b(''), line);
    expect(check.status === 'skipped' && check.reason).toMatch(/lines too long to check/);
  });
});

describe('newErrors on a long file (a window around the edit)', () => {
  const lines = Array.from({ length: 20_000 }, (_, i) =>
    i % 10 === 0 ? '' : i % 10 === 1 ? `function f${i}(a: number): number {` : i % 10 === 9 ? '}' : `  a = a + ${i};`,
  );
  const text = `${lines.join('\n')}\n`;

  it('an edit that breaks line 12,003 is refused, at that line', () => {
    const after = lines.slice();
    after[12_002] = '  a = (a + 1;';
    const check = newErrors('typescript', b(text), b(`${after.join('\n')}\n`), [
      { oldStart: 12_003, oldEnd: 12_004, newStart: 12_003, newEnd: 12_004 },
    ]);
    expect(messages(check)).toEqual(['12003:13 missing `)`']);
  });

  it('a long file whose window had errors before the edit is skipped as too long, not as minified', () => {
    // 200,000 short lines (1.7 MB), a `def` with no body every other line: every window has errors of its own.
    const defs = Array.from({ length: 200_000 }, (_, i) => (i % 2 === 0 ? `def f${i}(x):` : ''));
    const after = defs.slice();
    after[100_000] = 'def g(x, y=1):';
    const check = newErrors('python', b(`${defs.join('\n')}\n`), b(`${after.join('\n')}\n`), [
      { oldStart: 100_001, oldEnd: 100_002, newStart: 100_001, newEnd: 100_002 },
    ]);
    expect(check.status === 'skipped' && check.reason).toMatch(
      /^the lines around the edit had errors before it, and the file is too long \([\d.]+ MB\) to check whole$/,
    );
  });

  it('finds the edit itself when no hunks are given', () => {
    const after = lines.slice();
    after.splice(15_000, 0, '  a = [1, 2;');
    expect(messages(newErrors('typescript', b(text), b(`${after.join('\n')}\n`)))).toEqual(['15001:12 missing `]`']);
  });

  it('an old error far from the edit, and one the window cut makes, do not count', () => {
    const before = lines.slice();
    before[2] = '  a = (a + 1;';
    const after = before.slice();
    after[10_004] = '  a = a + 2;';
    expect(
      newErrors('typescript', b(`${before.join('\n')}\n`), b(`${after.join('\n')}\n`), [
        { oldStart: 10_005, oldEnd: 10_006, newStart: 10_005, newEnd: 10_006 },
      ]).status,
    ).toBe('ok');
  });
});

describe('newErrors on a file of up to 3,000 lines (parsed whole)', () => {
  it('an edit breaking code that a window cut inside its templates would read as text is refused', () => {
    // typescript-eslint's rule tests hold code in templates: a blank line, then an unindented
    // line, inside one looks like top-level code, and a window cut there reads strings as code
    // and code as strings (a window for files of 600 lines and more let this edit pass).
    const lines = ['const cases = ['];
    for (let i = 0; i < 80; i++)
      lines.push(
        '  {',
        '    code: `',
        '',
        `function f${i}() {`,
        '  return 1;',
        '}',
        '    `,',
        '    options: [1],',
        '  },',
      );
    lines.push('];', '');
    const n = lines.indexOf('    options: [1],', 360);
    const broken = lines.slice();
    broken[n] = '    options: [1,';
    const hunk = [{ oldStart: n + 1, oldEnd: n + 2, newStart: n + 1, newEnd: n + 2 }];
    expect(newErrors('typescript', b(lines.join('\n')), b(broken.join('\n')), hunk).status).toBe('errors');
  });

  const functions = Array.from({ length: 1200 }, (_, i) =>
    i % 10 === 0 ? '' : i % 10 === 1 ? `function f${i}(a: number): number {` : i % 10 === 9 ? '}' : `  a = a + ${i};`,
  );

  it('a `}` deleted from a function is refused though the error shows far below', () => {
    const after = functions.slice();
    after.splice(609, 1); // the `}` of the function on lines 602-610
    const check = newErrors('typescript', b(`${functions.join('\n')}\n`), b(`${after.join('\n')}\n`), [
      { oldStart: 610, oldEnd: 611, newStart: 610, newEnd: 610 },
    ]);
    expect(messages(check)).toEqual([expect.stringMatching(/missing `}`/)]);
  });
});

describe('newErrors on a long PHP file (text until `<?php`: its window starts with that mark)', () => {
  const php = (count: number, head: readonly string[] = ['<?php']) => [
    ...head,
    ...Array.from({ length: count - head.length }, (_, i) =>
      i % 10 === 0 ? '' : i % 10 === 1 ? `function f${i}($a) {` : i % 10 === 9 ? '}' : `  $a = $a + ${i};`,
    ),
  ];
  const check = (lines: readonly string[], at: number, text: string) => {
    const after = lines.slice();
    after[at - 1] = text;
    return newErrors('php', b(`${lines.join('\n')}\n`), b(`${after.join('\n')}\n`), [
      { oldStart: at, oldEnd: at + 1, newStart: at, newEnd: at + 1 },
    ]);
  };

  it.each([1200, 5000, 20_000])(
    'an edit that breaks line %i - 95 is refused, one that keeps it whole is not',
    (count) => {
      const lines = php(count);
      const at = count - 95;
      expect(lines[at - 1]).toMatch(/^ {2}\$a = \$a \+ \d+;$/);
      expect(messages(check(lines, at, '  $a = ($a + 1;'))).toEqual([
        expect.stringMatching(new RegExp(`^${at}:\\d+ `)),
      ]);
      expect(check(lines, at, '  $a = ($a + 1);').status).toBe('ok');
    },
  );

  it('with HTML before `<?php`, and an edit far below it', () => {
    const head = ['<html>', '<body>', '<p>Hello</p>', '</body>', '</html>', '<?php'];
    const lines = php(8000, head);
    expect(check(lines, 6503, '  $a = ($a + 1;').status).toBe('errors');
    expect(check(lines, 6503, '  $a = $a - 1;').status).toBe('ok');
  });
});

/** JavaScript as a highlighter prints it: every token wrapped in ANSI colour escapes. */
function highlighted(tokens: number): string {
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
  let text = '';
  for (let i = 0; i < tokens; i++)
    text += `\x1b[38;2;${i % 255};2;3m${words[i % words.length]}\x1b[0m${i % 7 === 0 ? '\n' : ' '}`;
  return text;
}

describe('a check that meets odd input never throws', () => {
  it(
    "JavaScript full of ANSI escapes (which TypeScript's emitter overflowed the stack on) is judged, not thrown " +
      'on',
    () => {
      const check = newErrors('javascript', b(''), b(highlighted(500)));
      // Not JavaScript: refused, unless its parse overran the time bound on a busy machine.
      expect(check.status === 'skipped' ? check.reason : check.status).toMatch(
        /^(?:errors|parsing took longer than \d+ ms)$/,
      );
    },
  );

  it.each([
    ['go', '(', ')', 20_000],
    ['json', '[', ']', 200_000],
  ] as const)(
    '%s: nesting %s%s %i deep, on which a parser or the walk of its tree overflowed the stack, is judged or ' +
      'skipped with a one-line note',
    (language, open, close, depth) => {
      const check = newErrors(language, b('x = 1\n'), b(`x = ${open.repeat(depth)}${close.repeat(depth - 1)}\n`));
      expect(check.status === 'skipped' ? check.reason : check.status).toMatch(
        /^(?:errors|the check failed \([^\n]*\))$/,
      );
    },
  );
});

describe('errors named where they are', () => {
  it('the errors nearest the change come first', () => {
    const lines = Array.from({ length: 400 }, (_, i) =>
      i % 10 === 0 ? '' : i % 10 === 1 ? `function f${i}(a: number): number {` : i % 10 === 9 ? '}' : `  a = a + ${i};`,
    );
    const after = lines.slice();
    after[5] = '  a = (a + 1;';
    after[302] = '  a = [a + 1;';
    const hunks = [
      { oldStart: 6, oldEnd: 7, newStart: 6, newEnd: 7 },
      { oldStart: 303, oldEnd: 304, newStart: 303, newEnd: 304 },
    ];
    const check = newErrors('typescript', b(`${lines.join('\n')}\n`), b(`${after.join('\n')}\n`), hunks.slice(1));
    expect(messages(check).map((m) => m.split(':')[0])).toEqual(['303', '6']);
  });
});

describe('a valid file the grammar misreads (test/lang/fixtures/README.md)', () => {
  const text = fs.readFileSync(path.join(__dirname, 'fixtures/zx-core-head.ts.txt'), 'utf8');
  const lines = text.split('\n');

  it('tree-sitter reads it as one error from line 1 to the end', () => {
    const check = syntaxErrors('typescript', b(text));
    expect(check.status === 'errors' && check.errors[0]).toMatchObject({ line: 1, column: 1 });
  });

  it(
    'with an error of its own already in it, a deleted `}` or a new ' +
      'break is still refused (old errors are paired, not waved through)',
    () => {
      const broken = [...lines.slice(0, 30), 'const broken = ;', ...lines.slice(30)];
      const at = broken.indexOf('  })', 200);
      const deleted = broken.slice();
      deleted.splice(at, 1);
      const hunk = { oldStart: at + 1, oldEnd: at + 2, newStart: at + 1, newEnd: at + 1 };
      expect(newErrors('typescript', b(broken.join('\n')), b(deleted.join('\n')), [hunk]).status).toBe('errors');
      const parens = broken.slice();
      parens.splice(100, 1, '  ))))((((');
      const swap = { oldStart: 101, oldEnd: 102, newStart: 101, newEnd: 102 };
      expect(newErrors('typescript', b(broken.join('\n')), b(parens.join('\n')), [swap]).status).toBe('errors');
      const valid = broken.slice();
      valid.splice(100, 0, '  // a comment');
      const added = { oldStart: 101, oldEnd: 101, newStart: 101, newEnd: 102 };
      expect(newErrors('typescript', b(broken.join('\n')), b(valid.join('\n')), [added]).status).toBe('ok');
    },
  );

  it("a deleted `}` is refused: TypeScript's parser, which reads the old content clean, judges the change", () => {
    const at = lines.indexOf('  })', 200);
    expect(at).toBeGreaterThan(0);
    const after = lines.slice();
    after.splice(at, 1);
    const check = newErrors('typescript', b(text), b(after.join('\n')), [
      { oldStart: at + 1, oldEnd: at + 2, newStart: at + 1, newEnd: at + 1 },
    ]);
    expect(check.status).toBe('errors');
  });

  it('a valid change still passes', () => {
    const at = lines.indexOf('  })', 200);
    const after = lines.slice();
    after.splice(at, 0, '  // a comment');
    expect(
      newErrors('typescript', b(text), b(after.join('\n')), [
        { oldStart: at + 1, oldEnd: at + 1, newStart: at + 1, newEnd: at + 2 },
      ]).status,
    ).toBe('ok');
  });
});

describe('a new error a window finds in a file too long to confirm whole', () => {
  it('is refused, saying the whole file could not confirm it', () => {
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
      '',
    ];
    const lines = Array.from({ length: 11_000 }, (_, i) => method(i)).flat();
    const text = `${lines.join('\n')}\n`;
    expect(text.length).toBeGreaterThan(MAX_PARSED_CHARS);
    const at = 50_004; // the `}` of m in the class on lines 50,002-50,009
    expect(lines[at]).toBe('  }');
    const after = lines.slice();
    after.splice(at, 1);
    const check = newErrors('typescript', b(text), b(`${after.join('\n')}\n`), [
      { oldStart: at + 1, oldEnd: at + 2, newStart: at + 1, newEnd: at + 1 },
    ]);
    expect(check.status).toBe('errors');
    expect(check.status === 'errors' && check.unconfirmed).toMatch(/too long .* to confirm/);
  });
});

describe('the old content parsed again from the tree of the new (problemsOfChange)', () => {
  it('finds the errors a parse of its own finds', async () => {
    const engine = await loadEngine();
    await engine.prepare('typescript');
    // Characters of two UTF-16 units before the change: web-tree-sitter counts in those units.
    const text = `// é 😀\n${fs.readFileSync(path.join(__dirname, 'fixtures/zx-core-head.ts.txt'), 'utf8')}`;
    const lines = text.split('\n');
    for (const at of [20, 120, 188, 231, 250]) {
      const after = [...lines.slice(0, at), '  }', 'const é = (1 +', ...lines.slice(at + 1)].join('\n');
      const both = engine.problemsOfChange('typescript', text, after);
      expect(both?.found, `line ${at}`).toEqual(engine.problems('typescript', after));
      expect(both?.was, `line ${at}`).toEqual(engine.problems('typescript', text));
    }
  });
});
