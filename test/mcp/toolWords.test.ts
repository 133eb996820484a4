import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { helpText, toolsOf, vocabularyOf } from '../../src/mcp/tools.js';
import { sectionText } from '../../src/docs/man.js';
import { documentInToolWords, inToolWords, outputInToolWords } from '../../src/mcp/toolWords.js';

const tools = toolsOf(COMMANDS, false);
const said = (text: string, tool?: string) =>
  inToolWords(
    text,
    vocabularyOf(
      tools,
      tools.find((t) => t.spec.name === tool),
    ),
  );

const options = tools.flatMap((t) => t.spec.options);
const longs = [...new Set(options.map((o) => o.long))].sort((x, y) => y.length - x.length);
const shorts = [...new Set(options.flatMap((o) => (o.short ? [o.short] : [])))].join('');
/** What a model calling tools cannot act on: rt's command lines and options, a shell's words (not others' flags). */
const CLI_WORDS = new RegExp(
  [
    `(?:^|[\\s(:\`])rt (?:${tools.map((t) => t.spec.name).join('|')}|help)\\b`,
    `(?<!(?:rg|ripgrep's|grep|git|fd|ls|rm|od|cat|mcp's) )(?<=^|[\\s(])` +
      `(?:--(?:${longs.join('|')})|-[${shorts}])(?![\\w-])`,
    "standard input|heredoc|stderr|standard error|<<'EOF'",
  ].join('|'),
);

describe("rt's words said as a tool call's", () => {
  it.each([
    ['see it: rt open src/util.ts:32', 'see it: open with target: "src/util.ts:32"', undefined],
    [
      'the rest: rt open src/a.ts:201-560 --window 360',
      'the rest: open with target: "src/a.ts:201-560", window: 360',
      undefined,
    ],
    [
      "see it first: rt open 'my file.ts':12, or add --force",
      'see it first: open with target: "my file.ts:12", or add force: true',
      'edit',
    ],
    ["rt open $'new\\nline.txt'", 'open with target: "new\\nline.txt"', undefined],
    [
      'change it with *** Update File, or replace all of it: rt apply --force',
      'change it with *** Update File, or replace all of it: apply with force: true',
      'apply',
    ],
    [
      "replace all of it: rt create --force src/a.ts <<'EOF'",
      'replace all of it: create with force: true, path: "src/a.ts", text: …',
      'create',
    ],
    [
      'or write it as it is: add --no-check (or RT_CHECK=off), then see it: rt open src/a.ts',
      'or write it as it is: add no_check: true, then see it: open with target: "src/a.ts"',
      'edit',
    ],
    [
      'a change that passes through a broken state: make all of it one rt apply (its check sees the final content)',
      'a change that passes through a broken state: make all of it one apply (its check sees the final content)',
      'edit',
    ],
    ['see the usage with: rt help edit', 'see the usage with: help with topic: "edit"', undefined],
    ['rt history, then rt undo STEP', 'history, then undo with step: STEP', 'undo'],
    ['rt scroll src/a.ts +', 'scroll with path: "src/a.ts", direction: "+"', 'scroll'],
    [
      'to make an empty file, give no text: rt create --empty src/a.ts </dev/null',
      'to make an empty file, give no text: create with empty: true, path: "src/a.ts"',
      'create',
    ],
    [
      'to remove lines, use: rt delete PATH FROM [TO]',
      'to remove lines, use: delete with path: PATH, from: FROM, to: TO',
      'edit',
    ],
    [
      'list them too with: rt find --hidden --no-ignore -- x src',
      'list them too with: find with hidden: true, no_ignore: true, pattern: "x", dir: "src"',
      'find',
    ],
    [
      "see all 412 with: rt grep --max 412 -i -g '*.ts' -- total src lib",
      'see all 412 with: grep with max: 412, ignore_case: true, glob: ["*.ts"], pattern: "total", path: ["src", "lib"]',
      'grep',
    ],
    ['standard input is empty: no patch to apply', 'the field patch is empty: no patch to apply', 'apply'],
    ['shown since, unless --force. A grep hit', 'shown since, unless force: true. A grep hit', 'edit'],
    ['with the LID rt open shows. It matches', 'with the LID open shows. It matches', 'grep-file'],
    ['the rest is named on stderr', "the rest is named in the result's notes", 'open'],
    [
      'search its bytes with: rg --text -e x a.bin (or grep -a)',
      'search its bytes with: rg --text -e x a.bin (or grep -a)',
      'grep',
    ],
  ])('%s', (cli, tool, current) => {
    expect(said(cli, current)).toBe(tool);
  });

  it('leaves alone the lines that quote a file, whatever they hold', () => {
    const quoted = ['  12:kq3f|  run(rt open --force x)', 'rt:   40:mw7a|--window', 'a.ts:3:ab3f-  standard input'];
    for (const line of quoted) expect(said(line, 'edit')).toBe(line);
  });

  it("says an output's cap notice, and its document's command, in tools' words; the files' lines stay", () => {
    const words = vocabularyOf(
      tools,
      tools.find((t) => t.spec.name === 'grep'),
    );
    const hits = 'a.ts:1:kq3f|see rt open --force\n(3 more hits not shown; see them with: rt grep --max 4 -i x)\n';
    const said = '(3 more hits not shown; see them with: grep with max: 4, ignore_case: true, pattern: "x")';
    expect(outputInToolWords(hits, words)).toBe(`a.ts:1:kq3f|see rt open --force\n${said}\n`);
    const document = { command: 'grep', hits: [], more: { hits: 3, command: 'rt grep --max 4 x' } };
    expect(documentInToolWords(document, words).more).toEqual({ hits: 3, command: 'grep with max: 4, pattern: "x"' });
  });

  it("leaves a message's names that only look like options, and what it quotes, as they are", () => {
    for (const line of [
      'line 1 of -i.ts has not been shown since it last changed',
      'line 1 of --force.txt has not been shown since it last changed',
      'invalid pattern "rt open x --force(": unclosed group',
      'PATH is a folder',
    ]) {
      expect(said(line, 'edit')).toBe(line);
    }
    expect(said('see it first: rt open ./-i.ts:1', 'edit')).toBe('see it first: open with target: "./-i.ts:1"');
  });

  it('reads a shell word as the shell does, and leaves a line it cannot read whole as it is', () => {
    expect(said("see it first: rt open 'it'\\''s.ts:1'", 'edit')).toBe('see it first: open with target: "it\'s.ts:1"');
    expect(said(`rt grep --max 4 -e '-x it'\\''s "q"'`, 'grep')).toBe('grep with max: 4, regexp: ["-x it\'s \\"q\\""]');
    expect(said('rt grep "a\\"b" src', 'grep')).toBe('grep with pattern: "a\\"b", path: ["src"]');
    expect(said("see it: rt open 'a.ts", 'open')).toBe("see it: rt open 'a.ts");
  });

  it('takes as placeholders only what the usage declares; any other word is a quoted value', () => {
    expect(said('rt grep --max 3 TODO', 'grep')).toBe('grep with max: 3, pattern: "TODO"');
    expect(said("rt grep --max 3 'PATH'", 'grep')).toBe('grep with max: 3, pattern: "PATH"');
    expect(said('rt delete PATH FROM [TO]', 'delete')).toBe('delete with path: PATH, from: FROM, to: TO');
  });

  it("says a search's narrowing in fields, and nothing of a terminal's colour", () => {
    const cap =
      '(3 more hits not shown; see them with: rt grep --max 4 x, or narrow the search with a PATH or -g GLOB)';
    expect(said(cap, 'grep')).toBe(
      '(3 more hits not shown; see them with: grep with max: 4, pattern: "x", or narrow the search with path or glob)',
    );
    expect(said('cut. On a terminal (or with --color always) the matches are coloured.', 'grep')).toBe('cut.');
  });

  it('says only the cap line rt appends, and only when the run says there are more', () => {
    const words = vocabularyOf(
      tools,
      tools.find((t) => t.spec.name === 'find'),
    );
    const found = '(2 more see rt open --force a)\n';
    expect(outputInToolWords(found, words, false)).toBe(found);
    expect(outputInToolWords(`${found}b\n`, words, true)).toBe(`${found}b\n`);
  });

  it("the help tool says every tool's whole help, and the anchors, without a command line", () => {
    for (const topic of [...tools.map((t) => t.definition.name), 'anchors']) {
      const text = helpText({ topic }, tools, sectionText);
      expect(
        text.split('\n').filter((line) => CLI_WORDS.test(line)),
        topic,
      ).toEqual([]);
    }
  });

  it("leaves a heredoc's closing line and stand-in text out", () => {
    const cli = "give the new text as a quoted heredoc:\n  rt edit a.ts kq3f <<'EOF'\n  …new lines…\n  EOF";
    const tool = 'give the new text in the field text:\n  edit with path: "a.ts", from: "kq3f", text: …';
    expect(said(cli, 'edit')).toBe(tool);
  });
});

/**
 * Every hint rt can give: each string and template of the sources that names a command or an
 * option, or speaks of standard input, with its ${…} parts filled in, said in tools' words,
 * leaves no command line behind. A new hint of a new form fails here until the rewriter reads it.
 */
describe('every hint form rt emits', () => {
  const root = path.resolve(__dirname, '../../src');
  // The definitions' own prose (summaries, descriptions, examples) is the manual's: the help tool
  // says it translated, not checked here.
  const DOC_KEYS = new Set(['summary', 'description', 'explains', 'command', 'tool']);
  const texts: Array<{ where: string; text: string }> = [];
  const files = fs
    .readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !/^(docs|mcp|render)[\\/]/.test(f));
  for (const file of files) {
    const code = fs.readFileSync(path.join(root, file), 'utf8');
    const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      const documentation = ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && DOC_KEYS.has(node.name.text);
      if (documentation) return;
      let text: string | undefined;
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) text = node.text;
      else if (ts.isTemplateExpression(node)) {
        text = node.head.text + node.templateSpans.map((s) => `12${s.literal.text}`).join('');
      }
      if (text !== undefined && / /.test(text) && CLI_WORDS.test(text)) {
        texts.push({ where: `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`, text });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }

  it('finds the hints (the scan reads the sources)', () => {
    expect(texts.length).toBeGreaterThan(40);
  });

  it("says each without a command line, an option or a shell's words", () => {
    const left = texts
      .map(({ where, text }) => ({ where, text, said: said(text, 'edit') }))
      .filter(({ said: s }) => CLI_WORDS.test(s));
    expect(left).toEqual([]);
  });
});
