// rt replace --in code: matches in strings and comments left alone where rt has the grammar
// (and all of a Markdown file, prose), files it cannot parse replaced everywhere; both counted in
// the summary and --json; --expect counts only what changes; bytes outside the matches kept.

import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv, cleanup, expectRun, parseWindow, RT_BIN, run, tempRepo, write } from './harness.js';
import { git } from './search-fixture.js';

afterAll(cleanup);

const JS = 'const foo = `a foo ${foo} b`; // foo\nlet s = "foo" + foo; /* foo\n foo */ foo();\nconst r = /foo/;\n';
const PY = 'def foo():\n    """foo doc"""\n    return f"x {foo} foo" + foo  # foo\n';
const GO = 'package m\n\n// foo\nvar foo = "foo" + `foo` + string(\'f\')\n';
const RS = '/// foo\nfn foo() -> &str { r#"foo"# } // foo\n';
const C = '#include "foo.h"\nint foo = 1; /* foo */ char *s = "foo";\n';
const TXT = 'foo in text\n';
const MD = '# foo\n\n```js\nfoo()\n```\n';

const FILES: Record<string, string | Buffer> = {
  'a.js': JS,
  'b.py': PY,
  'c.go': GO,
  'd.rs': RS,
  'e.c': C,
  'notes.txt': TXT,
  'README.md': MD,
};

function repo(files: Record<string, string | Buffer> = FILES): string {
  const dir = tempRepo();
  for (const [name, content] of Object.entries(files)) write(dir, name, content);
  git(dir, ['add', '.']);
  return dir;
}

const read = (dir: string, name: string) => fs.readFileSync(path.join(dir, name));

describe('rt replace --in code', () => {
  it('previews only the matches in code, and counts those left and the files not parsed', () => {
    const dir = repo();
    const r = run(['replace', '--in', 'code', '--dry-run', '-w', '-F', 'foo', 'bar'], dir);
    expectRun(r, { status: 0, stderr: '' });
    const after = r.stdout
      .split('\n')
      .filter((l) => /^[^:]+:\d+:[0-9a-z]{4}\+/.test(l))
      .map((l) => l.replace(/^([^:]+):(\d+):[0-9a-z]{4}\+/, '$1:$2+'));
    expect(after).toEqual([
      'a.js:1+const bar = `a foo ${bar} b`; // foo',
      'a.js:2+let s = "foo" + bar; /* foo',
      'a.js:3+ foo */ bar();',
      'b.py:1+def bar():',
      'b.py:3+    return f"x {bar} foo" + bar  # foo',
      'c.go:4+var bar = "foo" + `foo` + string(\'f\')',
      'd.rs:2+fn bar() -> &str { r#"foo"# } // foo',
      'e.c:2+int bar = 1; /* foo */ char *s = "foo";',
      'notes.txt:1+bar in text',
    ]);
    // Left: a.js 6, b.py 3, c.go 3, d.rs 3, e.c 3, README.md 2.
    expect(r.stdout.split('\n').at(-2)).toBe(
      '11 matches on 9 lines in 6 files; 20 matches left in strings and comments; 1 file rt cannot parse, ' +
        'replaced everywhere',
    );
    for (const [name, content] of Object.entries(FILES)) expect(read(dir, name).toString()).toBe(content);
  });

  it('writes them as one step, says what it left, and undo gives back every byte', () => {
    const dir = repo();
    const r = run(['replace', '--in', 'code', '-w', '-F', 'foo', 'bar'], dir);
    expectRun(r, { status: 0, stderr: '' });
    expect(r.stdout.split('\n')[0]).toBe(
      'replaced 11 matches on 9 lines in 6 files; 20 matches left in strings and comments; 1 file rt cannot ' +
        'parse, replaced everywhere',
    );
    expect(read(dir, 'a.js').toString()).toBe(
      'const bar = `a foo ${bar} b`; // foo\nlet s = "foo" + bar; /* foo\n foo */ bar();\nconst r = /foo/;\n',
    );
    expect(read(dir, 'b.py').toString()).toBe(
      'def bar():\n    """foo doc"""\n    return f"x {bar} foo" + bar  # foo\n',
    );
    expect(read(dir, 'README.md').toString()).toBe(MD);
    expect(read(dir, 'notes.txt').toString()).toBe('bar in text\n');
    expect(run(['undo'], dir).status).toBe(0);
    for (const [name, content] of Object.entries(FILES)) expect(read(dir, name).toString()).toBe(content);
  });

  it('says the same in --json, and nothing of it without --in code', () => {
    const dir = repo({ 'a.js': JS, 'notes.txt': TXT });
    const coded = JSON.parse(run(['replace', '--json', '--in', 'code', '--dry-run', '-w', 'foo', 'bar'], dir).stdout);
    expect(coded).toMatchObject({ command: 'replace', dryRun: true, matches: 5, lines: 4, left: 6, unparsed: 1 });
    const all = JSON.parse(run(['replace', '--json', '--in', 'all', '--dry-run', '-w', 'foo', 'bar'], dir).stdout);
    expect(all).toMatchObject({ matches: 11, lines: 5 });
    expect(Object.keys(all)).toEqual(['command', 'dryRun', 'matches', 'lines', 'files']);
    const done = JSON.parse(run(['replace', '--json', '--in', 'code', '-w', 'foo', 'bar'], dir).stdout);
    expect(done).toMatchObject({ dryRun: false, matches: 5, left: 6, unparsed: 1 });
  });

  it('keeps a BOM, CRLF, text that is not ASCII and bytes that are not UTF-8 around the matches', () => {
    const bytes = Buffer.concat([
      Buffer.from('\ufeff// é foo\r\nconst ü = "😀é'),
      Buffer.from([0xff]),
      Buffer.from(' foo" + foo; // foo\r\nfoo()'),
    ]);
    const dir = repo({ 'x.js': bytes });
    expectRun(run(['replace', '--in', 'code', '-F', 'foo', 'bar'], dir), { status: 0, stderr: '' });
    expect(read(dir, 'x.js')).toEqual(
      Buffer.concat([
        Buffer.from('\ufeff// é foo\r\nconst ü = "😀é'),
        Buffer.from([0xff]),
        Buffer.from(' foo" + bar; // foo\r\nbar()'),
      ]),
    );
  });

  it('leaves a match that straddles a quote, counted as left', () => {
    const dir = repo({ 'a.js': 'let s = "ab" + cd;\n' });
    expectRun(run(['replace', '--in', 'code', '--dry-run', 'b" \\+ c', 'b" - c'], dir), {
      status: 1,
      stderr: 'rt: the 1 match of "b\\" \\\\+ c" is in strings or comments, left alone: nothing was written\n',
    });
    expect(run(['replace', '--dry-run', 'b" \\+ c', 'b" - c'], dir).status).toBe(0);
  });

  it('leaves a file whose every match is in strings or comments as it is (exit 1)', () => {
    const dir = repo({ 'a.py': '# foo\nx = "foo"\n' });
    expectRun(run(['replace', '--in', 'code', '-F', 'foo', 'bar'], dir), {
      status: 1,
      stderr: 'rt: the 2 matches of "foo" are in strings or comments, left alone: nothing was written\n',
    });
    expect(read(dir, 'a.py').toString()).toBe('# foo\nx = "foo"\n');
  });

  it('counts for --expect only the matches that would change, and names --in code in its hints', () => {
    const dir = repo({ 'a.js': JS });
    const r = run(['replace', '--in', 'code', '--expect', '10', '-w', '-F', 'foo', 'bar'], dir);
    expectRun(r, { status: 3, stderr: /^rt: 4 matches would be replaced, not the 10 expected: nothing was written\n/ });
    expect(r.stderr).toContain('rt replace --expect 4 -w -F --in code foo bar');
    expect(read(dir, 'a.js').toString()).toBe(JS);
    expectRun(run(['replace', '--in', 'code', '--expect', '4', '-w', '-F', 'foo', 'bar'], dir), {
      status: 0,
      stderr: '',
    });
  });

  it('takes --only with it: only the lines named, their code only', () => {
    const dir = repo({ 'a.js': JS });
    const lids = parseWindow(run(['open', 'a.js'], dir)).lids;
    expectRun(run(['replace', '--in', 'code', '--only', lids[1]!, '-w', '-F', 'foo', 'bar'], dir), {
      status: 0,
      stdout: /^replaced 1 match on 1 line in 1 file; 2 matches left in strings and comments\n/,
      stderr: '',
    });
    expect(read(dir, 'a.js').toString()).toBe(JS.replace('"foo" + foo;', '"foo" + bar;'));
  });
});

describe('the replace tool', () => {
  it('takes in: "code" as the command line takes --in code', async () => {
    const dir = repo({ 'a.js': JS });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [RT_BIN, 'mcp'],
      cwd: dir,
      env: cleanEnv() as Record<string, string>,
    });
    const client = new Client({ name: 'rt-tests', version: '0.0.0' });
    await client.connect(transport);
    try {
      const args = { pattern: 'foo', replacement: 'bar', word: true, fixed: true, in: 'code', dry_run: true };
      const r = (await client.callTool({ name: 'replace', arguments: args })) as {
        structuredContent?: Record<string, unknown>;
      };
      expect(r.structuredContent).toMatchObject({ dryRun: true, matches: 4, lines: 3, left: 6, unparsed: 0 });
    } finally {
      await client.close();
    }
    expect(read(dir, 'a.js').toString()).toBe(JS);
  });
});
