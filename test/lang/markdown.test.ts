// A Markdown file's outline: its headings by CommonMark's rules, named by GitHub's anchors.

import { describe, expect, it } from 'vitest';
import { Anchors, anchorOf, isMarkdown, markdownOutline } from '../../src/lang/markdown.js';

const shown = (text: string): string[] =>
  markdownOutline(text).map((d) => `${d.kind} ${d.qualifiedName} ${d.startLine}-${d.endLine}`);

describe('markdownOutline', () => {
  it('lists ATX and setext headings with their levels; a section runs to the next heading of its level or up', () => {
    const text = '# Title\nintro\n## Set up\ntext\n### Deep ###\nmore\n\nUse it\n------\n\nOther\n=====\n';
    expect(shown(text)).toEqual(['h1 title 1-10', 'h2 set-up 3-7', 'h3 deep 5-7', 'h2 use-it 8-10', 'h1 other 11-12']);
    expect(markdownOutline(text)[2]).toEqual({
      kind: 'h3',
      name: 'Deep',
      qualifiedName: 'deep',
      line: 5,
      startLine: 5,
      endLine: 7,
      level: 3,
    });
  });

  it.each<[string, string, string[]]>([
    [
      'a # without a space, seven #, four spaces of indentation are no heading',
      '#5 bolt\n####### seven\n    # code\n   # three spaces\n',
      ['h1 three-spaces 4-4'],
    ],
    ['an empty heading and a closing sequence', '#\n## Foo ##\n### Bar#\n', ['h1  1-3', 'h2 foo 2-3', 'h3 bar 3-3']],
    [
      'headings in fenced code are not headings',
      '```sh\n# comment\n```\n~~~\n# no\n~~~~\n```\n# no\n``\n````\n# yes\n',
      ['h1 yes 11-11'],
    ],
    ['a fence that is never closed runs to the end', '# a\n```\n# no\n', ['h1 a 1-3']],
    ["a backtick fence's info string holds no backtick (that is inline code)", '``` a`b\n# yes\n', ['h1 yes 2-2']],
    ['a paragraph of several lines is one setext heading, from its first line', 'One\ntwo\n---\n', ['h2 one-two 1-3']],
    ['--- after a blank line, or *** after a paragraph, is a rule', 'para\n\n---\ntext\n***\n', []],
    ["indented code cannot be a setext heading's text", '    code\n---\n', []],
    [
      'HTML blocks hide what they hold until they end',
      '<!--\n# no\n-->\n# a\n<div align="center">\n# no\n</div>\n\n# b\n<details>\n\n# c\n',
      ['h1 a 4-8', 'h1 b 9-11', 'h1 c 12-12'],
    ],
    ['a YAML front matter is no heading', '---\ntitle: x\n---\n# a\n', ['h1 a 4-4']],
    [
      'headings inside list items and block quotes are not listed',
      '- item\n  # no\n\n> # no\n> quote\n\n# yes\n',
      ['h1 yes 7-7'],
    ],
    ['a list item ends at a line indented less after a blank', '- item\n\n  text\n\n# yes\n', ['h1 yes 5-5']],
    ['text right after a list item continues it', '- item\nlazy\n===\n', []],
    ['a numbered line other than 1 does not interrupt a paragraph', 'text\n2. more\n---\n', ['h2 text-2-more 1-3']],
    ['a tab indents to column 4: code', '\t# code\n', []],
    ['a no-break space is text, not indentation', '- a\n  \u00a0 - b\n# yes\n', ['h1 yes 3-3']],
  ])('%s', (_, text, expected) => {
    expect(shown(text)).toEqual(expected);
  });

  it('names a heading by its text as rendered: code, links, emphasis, tags and escapes', () => {
    const names = markdownOutline(
      '## `rt open` and [links](x.md)\n## **Bold** _em_ snake_case\n## A \\# b &amp; c\n## <a ' +
        'name="x"></a>Tagged\n## ![logo](l.png) Project\n',
    ).map((d) => [d.name, d.qualifiedName]);
    expect(names).toEqual([
      ['rt open and links', 'rt-open-and-links'],
      ['Bold em snake_case', 'bold-em-snake_case'],
      ['A # b & c', 'a--b--c'],
      ['Tagged', 'tagged'],
      ['Project', '-project'],
    ]);
  });
});

describe('GitHub anchors', () => {
  it.each<[string, string]>([
    ['Set up', 'set-up'],
    ['Why should I use ripgrep?', 'why-should-i-use-ripgrep'],
    ['prettier / shfmt / rustfmt', 'prettier--shfmt--rustfmt'],
    ['Highlighting --help messages', 'highlighting---help-messages'],
    ['📣 News', '-news'],
    ['Supported Features & Best–Practices', 'supported-features--bestpractices'],
    ['Привет non-latin 你好', 'привет-non-latin-你好'],
    ['__init__ and foo.bar()', '__init__-and-foobar'],
  ])('%s', (text, anchor) => {
    expect(anchorOf(text)).toBe(anchor);
  });

  it('a repeated anchor gets -1, -2, skipping one already taken', () => {
    const anchors = new Anchors();
    expect(['Foo', 'Foo', 'Foo-1', 'Foo', 'Bar'].map((t) => anchors.next(t))).toEqual([
      'foo',
      'foo-1',
      'foo-1-1',
      'foo-2',
      'bar',
    ]);
  });
});

describe('isMarkdown', () => {
  it.each<[string, boolean]>([
    ['README.md', true],
    ['docs/Guide.MARKDOWN', true],
    ['a.mdx', true],
    ['md', false],
    ['.md', false],
    ['notes.txt', false],
    ['dir.md/file.ts', false],
  ])('%s', (path, expected) => {
    expect(isMarkdown(path)).toBe(expected);
  });
});
