// Where a file's strings and comments are (rt replace --in code): each language's string and
// comment nodes, less the holes in strings that hold code again.

import { beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES, type LanguageId } from '../../src/lang/languages.js';
import { MAX_CHECK_BYTES, prepareChecker, stringsAndComments } from '../../src/lang/syntax.js';
import { inCode, nonCodeRanges } from '../../src/model/codeRanges.js';
import { lineContent, splitLines } from '../../src/model/lines.js';

beforeAll(async () => {
  for (const language of LANGUAGES) expect(await prepareChecker(language)).toEqual({ ok: true });
});

/** `text` with each `foo` in code made `BAR` (those in strings and comments kept), as replace --in code does. */
function inCodeOnly(language: LanguageId, text: string | Buffer): string {
  const bytes = Buffer.from(text);
  const lines = splitLines(bytes);
  const rows = Array.from({ length: lines.count }, (_, i) => i);
  const spans = stringsAndComments(language, bytes, rows);
  if (!spans) throw new Error('not parsed');
  const ranges = nonCodeRanges(spans, rows, (row) => lineContent(lines, row));
  return rows
    .map((i) => {
      const content = lineContent(lines, i);
      let out = '';
      let at = 0;
      for (let k = content.indexOf('foo'); k !== -1; k = content.indexOf('foo', k + 3)) {
        out += content.subarray(at, k).toString('latin1') + (inCode(ranges.get(i), [k, k + 3]) ? 'BAR' : 'foo');
        at = k + 3;
      }
      return out + content.subarray(at).toString('latin1');
    })
    .join('\n')
    .concat(bytes.at(-1) === 0x0a ? '\n' : '');
}

describe('strings and comments', () => {
  it.each<[LanguageId, string, string]>([
    [
      'javascript',
      '#!/usr/bin/env foo\nconst foo = `a foo ${foo + "foo"} b`; // foo\nlet r = /foo/g; /* foo\nfoo */ foo();',
      '#!/usr/bin/env foo\nconst BAR = `a foo ${BAR + "foo"} b`; // foo\nlet r = /foo/g; /* foo\nfoo */ BAR();',
    ],
    [
      'typescript',
      'type T = `foo${foo}` | "foo";\nlet foo: string = \'foo\' + `${foo}`;',
      'type T = `foo${BAR}` | "foo";\nlet BAR: string = \'foo\' + `${BAR}`;',
    ],
    [
      'tsx',
      'const a = <div title="foo" x={foo}>foo {foo}</div>;',
      'const a = <div title="foo" x={BAR}>foo {BAR}</div>;',
    ],
    [
      'python',
      'def foo():\n    """foo is\n    documented"""\n    return f"foo {foo!r:>{foo}} {{foo}}" + b\'foo\'  # foo\n',
      'def BAR():\n    """foo is\n    documented"""\n    return f"foo {BAR!r:>{BAR}} {{foo}}" + b\'foo\'  # foo\n',
    ],
    [
      'go',
      'package foo\n// foo\nvar foo = "foo" + `foo\nfoo` + string(\'f\') /* foo */',
      'package BAR\n// foo\nvar BAR = "foo" + `foo\nfoo` + string(\'f\') /* foo */',
    ],
    [
      'rust',
      '/// foo\nfn foo() { let a = r#"foo"#; let b = b"foo"; let c = \'f\'; foo(); } // foo\n/* foo */',
      '/// foo\nfn BAR() { let a = r#"foo"#; let b = b"foo"; let c = \'f\'; BAR(); } // foo\n/* foo */',
    ],
    [
      'c',
      '#include "foo.h"\nchar *foo = "foo" L"foo"; // foo\n/* foo */ int x = foo;',
      '#include "foo.h"\nchar *BAR = "foo" L"foo"; // foo\n/* foo */ int x = BAR;',
    ],
    ['cpp', 'auto foo = R"(foo)" + u8"foo"; // foo', 'auto BAR = R"(foo)" + u8"foo"; // foo'],
    [
      'csharp',
      'class A { string foo = $"foo{foo}" + @"foo" + $@"foo{foo}" + """foo"""; char c = \'f\'; } // foo',
      'class A { string BAR = $"foo{BAR}" + @"foo" + $@"foo{BAR}" + """foo"""; char c = \'f\'; } // foo',
    ],
    [
      'java',
      'class A { String foo = "foo"; /** foo */ void f() { foo(); } } // foo',
      'class A { String BAR = "foo"; /** foo */ void f() { BAR(); } } // foo',
    ],
    [
      'ruby',
      'foo = "foo #{foo}" + \'foo\' # foo\nx = <<~EOS\n  foo #{foo}\nEOS\ny = /foo#{foo}/ + :foo\n',
      'BAR = "foo #{BAR}" + \'foo\' # foo\nx = <<~EOS\n  foo #{BAR}\nEOS\ny = /foo#{BAR}/ + :BAR\n',
    ],
    [
      'php',
      '<?php\n$foo = "foo $foo"; // foo\n$h = <<<EOT\nfoo $foo\nEOT;\n$n = <<<\'EOT\'\nfoo\nEOT;\n?>\n<p>foo</p>',
      '<?php\n$BAR = "foo $BAR"; // foo\n$h = <<<EOT\nfoo $BAR\nEOT;\n$n = <<<\'EOT\'\nfoo\nEOT;\n?>\n<p>foo</p>',
    ],
    [
      'bash',
      'foo="foo $foo $(foo "foo")" # foo\ncat <<EOF\nfoo $foo\nEOF\nfoo \'foo\'\n',
      'BAR="foo $BAR $(BAR "foo")" # foo\ncat <<EOF\nfoo $BAR\nEOF\nBAR \'foo\'\n',
    ],
    ['css', '.foo { content: "foo"; /* foo */ }', '.BAR { content: "foo"; /* foo */ }'],
    ['yaml', 'foo: foo # foo\nb: "foo"\nc: |\n  foo\n', 'BAR: BAR # foo\nb: "foo"\nc: |\n  foo\n'],
  ])('%s', (language, text, want) => {
    expect(inCodeOnly(language, text)).toBe(want);
  });

  it('finds the columns in bytes past a BOM, CRLF endings, text that is not ASCII and bytes that are not UTF-8', () => {
    const text = Buffer.concat([
      Buffer.from('\ufeff// é foo\r\nconst ü = "😀\u00e9'),
      Buffer.from([0xff, 0xc3]),
      Buffer.from(' foo" + foo; // foo\r\nfoo\r\n'),
    ]);
    const want = Buffer.concat([
      Buffer.from('// é foo\nconst ü = "😀\u00e9'),
      Buffer.from([0xff, 0xc3]),
      Buffer.from(' foo" + BAR; // foo\nBAR\n'),
    ]).toString('latin1');
    expect(inCodeOnly('javascript', text)).toBe(want);
  });

  it('gives no answer for a file too big to parse, or a language with no tree-sitter grammar', () => {
    const big = Buffer.alloc(MAX_CHECK_BYTES + 1, 0x20);
    expect(stringsAndComments('javascript', big, [0])).toBeUndefined();
    expect(stringsAndComments('json', Buffer.from('{"foo": 1}'), [0])).toBeUndefined();
  });

  it('walks only the rows asked about', () => {
    const text = Buffer.from('"foo"\n// foo\nfoo\n');
    expect(stringsAndComments('javascript', text, [1])).toEqual([1, 0, 1, 6]);
  });
});
