// Writes by symbol: rt edit/delete/insert PATH:@NAME and @@ edit @NAME in rt apply replace,
// remove or add beside a definition's whole range (decorators, attributes, doc comments and
// `export` included), found in the file as the write reads it, once that definition has been
// shown and not changed since. Each of the failures reported of other symbol editors is a case
// here: an edit that prepends instead of replacing, the blank line after a definition eaten,
// `export const` dropped, C# attributes stripped.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, expectRun, run, runAsync, repoWith as repo } from './harness.js';

afterAll(cleanup);

const read = (dir: string, rel: string) => fs.readFileSync(path.join(dir, rel), 'utf8');
const outline = (dir: string, rel: string) => expect(run(['outline', rel], dir).status).toBe(0);

/** Edits `rel`:@`name` with `text` after outlining it; expects success and returns the file. */
function editAfterOutline(dir: string, rel: string, name: string, text: string, extra: string[] = []): string {
  outline(dir, rel);
  const r = run(['edit', `${rel}:@${name}`, ...extra], dir, { input: text });
  expect(r.status, r.text).toBe(0);
  return read(dir, rel);
}

const PYTHON = `import os


@decorator
@other(1)
def total(items):
    """Sum them."""
    return sum(items)


class Cart:
    """A cart."""

    @property
    def add(self, x):
        return x

    def remove(self):
        pass
`;

describe('rt edit PATH:@NAME replaces the whole definition', () => {
  it('Python: from the first decorator to the last line, the docstring with it; the blank lines after stay', () => {
    const dir = repo({ 'a.py': PYTHON });
    outline(dir, 'a.py');
    const r = run(['edit', 'a.py:@total'], dir, { input: '@cached\ndef total(items):\n    return 0\n' });
    expectRun(r, { status: 0, stdout: /^edited a\.py: 4-8 → 4-6 \(-2\)\n--- a\.py/, stderr: '' });
    // Not prepended: the old decorators, docstring and body are gone; the two blank lines after stay.
    expect(read(dir, 'a.py')).toBe(
      PYTHON.replace(/@decorator[^]*?sum\(items\)\n/, '@cached\ndef total(items):\n    return 0\n'),
    );
    expect(read(dir, 'a.py')).toContain('    return 0\n\n\nclass Cart:');
  });

  it('a method by its qualified name (@Cart.add), its decorator included', () => {
    const dir = repo({ 'a.py': PYTHON });
    const after = editAfterOutline(dir, 'a.py', 'Cart.add', '    def add(self, x, n=1):\n        return x * n\n');
    expect(after).toBe(
      PYTHON.replace(
        '    @property\n    def add(self, x):\n        return x\n',
        '    def add(self, x, n=1):\n        return x * n\n',
      ),
    );
  });

  it('TypeScript: an exported const or function holds its export and doc comment: none doubled or dropped', () => {
    const ts =
      "import x from 'y';\n\n/** The limit. */\nexport const LIMIT = 10;\n\n" +
      'export function total(a: number): number {\n' +
      '  return a;\n}\n\nexport default class Cart {\n  add(x: number) {\n    return x;\n  }\n}\n';
    const dir = repo({ 'a.ts': ts });
    let after = editAfterOutline(dir, 'a.ts', 'LIMIT', '/** The new limit. */\nexport const LIMIT = 20;\n');
    expect(after).toBe(
      ts.replace('/** The limit. */\nexport const LIMIT = 10;\n', '/** The new limit. */\nexport const LIMIT = 20;\n'),
    );
    after = editAfterOutline(dir, 'a.ts', 'total', 'export function total(a: number): number {\n  return a + 1;\n}\n');
    expect(after.match(/export function total/g)).toHaveLength(1);
    expect(after).toContain(
      '\n\nexport function total(a: number): number {\n  return a + 1;\n}\n\nexport default class Cart {',
    );
    // Given without export, it is written without: what the text says, nothing kept of the old range.
    after = editAfterOutline(dir, 'a.ts', 'LIMIT', 'const LIMIT = 30;\n');
    expect(after).toContain("import x from 'y';\n\nconst LIMIT = 30;\n\nexport function total");
  });

  // [file, its text, the name, the old range, the new text]: the file after the edit is the old range replaced.
  it.each([
    [
      'Go: the doc comment is part of the function',
      'a.go',
      'package main\n\n// Total sums.\n// Really.\nfunc Total(a int) int {\n\treturn a\n}\n\n// Add adds.\n' +
        'func (c *Cart) Add(x int) {\n\tc.n += x\n}\n',
      'Total',
      '// Total sums.\n// Really.\nfunc Total(a int) int {\n\treturn a\n}\n',
      '// Total sums, twice.\nfunc Total(a int) int {\n\treturn 2 * a\n}\n',
    ],
    [
      'Rust: #[derive] and the /// doc comment are part of the struct',
      'a.rs',
      'use std::fmt;\n\n/// A config.\n/// More.\n#[derive(Debug, Clone)]\npub struct Config {\n    n: u32,\n}\n\n' +
        'impl Config {\n    /// Makes one.\n    pub fn new() -> Self {\n        Config { n: 0 }\n    }\n}\n',
      'Config',
      '/// A config.\n/// More.\n#[derive(Debug, Clone)]\npub struct Config {\n    n: u32,\n}\n',
      '#[derive(Debug)]\npub struct Config {\n    n: u64,\n}\n',
    ],
    [
      'Rust: a method of an impl, its /// doc comment with it',
      'a.rs',
      'pub struct Config {}\n\nimpl Config {\n    /// Makes one.\n    pub fn new() -> Self {\n' +
        '        Config {}\n    }\n}\n',
      'Config.new',
      '    /// Makes one.\n    pub fn new() -> Self {\n        Config {}\n    }\n',
      '    pub fn new() -> Self {\n        Self {}\n    }\n',
    ],
    [
      'Java: the Javadoc and the annotations are part of the method',
      'A.java',
      'package a;\n\npublic class A {\n    /**\n     * Adds.\n     */\n    @Override\n    @Deprecated\n' +
        '    public int add(int x) {\n        return x;\n    }\n\n    int b() { return 1; }\n}\n',
      'A.add',
      '    /**\n     * Adds.\n     */\n    @Override\n    @Deprecated\n    public int add(int x) {\n' +
        '        return x;\n    }\n',
      '    @Override\n    public int add(int x) {\n        return x + 1;\n    }\n',
    ],
    [
      'a Markdown heading names its section',
      'README.md',
      '# Title\n\nIntro.\n\n## Set up\n\nRun it.\n\n## Use\n\nUse it.\n',
      'set-up',
      // Up to its last line of text: the blank line before the next heading stays.
      '## Set up\n\nRun it.\n',
      '## Set-up\n\nRun it twice.\n',
    ],
  ])('%s', (_, file, source, name, range, text) => {
    const dir = repo({ [file]: source });
    expect(editAfterOutline(dir, file, name, text)).toBe(source.replace(range, text));
  });

  it('C#: [Attr] lines are replaced and deleted with the method, and stay above it when lines go before it', () => {
    const cs =
      'using System;\n\nnamespace N {\n    public class Cart {\n        [Obsolete("no")]\n        [HttpGet]\n' +
      '        public int Add(int x) {\n            return x;\n        }\n\n        /// <summary>Rm.</summary>\n' +
      '        public void Remove() { }\n    }\n}\n';
    const dir = repo({ 'A.cs': cs });
    const after = editAfterOutline(dir, 'A.cs', 'Add', '        [HttpPost]\n        public int Add(int x) => x;\n');
    expect(after).toBe(
      cs.replace(
        '        [Obsolete("no")]\n        [HttpGet]\n        public int Add(int x) {\n' +
          '            return x;\n        }\n',
        '        [HttpPost]\n        public int Add(int x) => x;\n',
      ),
    );
    outline(dir, 'A.cs');
    const ins = run(['insert', 'before', 'A.cs:@Add'], dir, { input: '        public int Zero() => 0;\n\n' });
    expect(ins.status, ins.text).toBe(0);
    expect(read(dir, 'A.cs')).toContain(
      '    public class Cart {\n        public int Zero() => 0;\n\n        [HttpPost]\n        public int Add',
    );
    outline(dir, 'A.cs');
    const del = run(['delete', 'A.cs:@Remove'], dir);
    expect(del.status, del.text).toBe(0);
    // The doc comment went with it; last in its class, the blank line before it went too.
    expect(read(dir, 'A.cs')).toContain('        public int Add(int x) => x;\n    }\n}\n');
  });
});

describe('bytes', () => {
  it('a CRLF file stays CRLF, the rest of it byte for byte', () => {
    const py = 'import os\r\n\r\ndef a():\r\n    return 1\r\n\r\n\r\ndef b():\r\n    return 2\r\n';
    const dir = repo({ 'a.py': py });
    const after = editAfterOutline(dir, 'a.py', 'a', 'def a():\n    return 10\n');
    expect(after).toBe('import os\r\n\r\ndef a():\r\n    return 10\r\n\r\n\r\ndef b():\r\n    return 2\r\n');
  });

  it('last in a file without a final newline: none after an edit, a delete as by LIDs, undo gives all back', () => {
    const py = '\ufeffimport os\n\ndef a():\n    return 1\n\ndef b():\n    return 2';
    const dir = repo({ 'a.py': py, 'c.py': py });
    const after = editAfterOutline(dir, 'a.py', 'b', 'def b():\n    return 20\n');
    expect(after).toBe('\ufeffimport os\n\ndef a():\n    return 1\n\ndef b():\n    return 20');
    expect(run(['undo'], dir).status).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'a.py'))).toEqual(Buffer.from(py));
    outline(dir, 'a.py');
    expect(run(['delete', 'a.py:@b'], dir).status).toBe(0);
    expect(run(['open', 'c.py'], dir).status).toBe(0);
    // (Last in the file: the blank line before it goes with it.)
    expect(run(['delete', 'c.py', '5', '7'], dir).status).toBe(0);
    expect(read(dir, 'a.py')).toBe(read(dir, 'c.py'));
    expect(run(['undo'], dir).status).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'c.py'))).toEqual(Buffer.from(py));
    expect(run(['undo'], dir).status).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'a.py'))).toEqual(Buffer.from(py));
  });

  it('bytes that are not UTF-8 outside the definition survive its edit', () => {
    const bytes = Buffer.concat([
      Buffer.from('# caf'),
      Buffer.from([0xe9]),
      Buffer.from('\n\ndef a():\n    return 1\n'),
    ]);
    const dir = repo({ 'a.py': bytes });
    editAfterOutline(dir, 'a.py', 'a', 'def a():\n    return 2\n');
    expect(fs.readFileSync(path.join(dir, 'a.py'))).toEqual(
      Buffer.concat([Buffer.from('# caf'), Buffer.from([0xe9]), Buffer.from('\n\ndef a():\n    return 2\n')]),
    );
  });
});

describe('the definition must have been shown, and be unchanged since', () => {
  it('never shown: exit 3 with the command that shows it; a grep hit inside it is not enough', () => {
    const dir = repo({ 'a.py': PYTHON });
    const before = read(dir, 'a.py');
    expect(run(['grep', 'sum\\(items', 'a.py'], dir).status).toBe(0);
    expectRun(run(['edit', 'a.py:@total'], dir, { input: 'def total():\n    pass\n' }), {
      status: 3,
      stdout: '',
      stderr:
        'rt: @total (lines 4-8 of a.py) has not been shown since it last changed; nothing was written\n' +
        'rt: see it first: rt open a.py:@total\nrt: or, to edit it without looking, add --force\n',
    });
    expect(read(dir, 'a.py')).toBe(before);
    // rt open PATH:@NAME shows it; so does a window holding all of it.
    expect(run(['open', 'a.py:@total'], dir).status).toBe(0);
    expect(run(['edit', 'a.py:@total'], dir, { input: 'def total():\n    pass\n' }).status).toBe(0);
    expect(run(['open', 'a.py'], dir).status).toBe(0);
    expect(run(['delete', 'a.py:@Cart.remove'], dir).status).toBe(0);
  });

  it('grep -W shows it: it prints the whole definition around a hit', () => {
    const dir = repo({ 'a.py': PYTHON });
    expect(run(['delete', 'a.py:@Cart.add'], dir).status).toBe(3);
    expect(run(['grep', '-W', 'return x', 'a.py'], dir).status).toBe(0);
    expect(run(['delete', 'a.py:@Cart.add'], dir).status).toBe(0);
    // The blank line after it goes too: one was before it.
    expect(read(dir, 'a.py')).toBe(PYTHON.replace('    @property\n    def add(self, x):\n        return x\n\n', ''));
  });

  it('a line of it changed since the outline: exit 3, nothing written; a change elsewhere does not count', () => {
    const dir = repo({ 'a.py': PYTHON });
    outline(dir, 'a.py');
    // Lines added above it (by another program): the definition is found where it is now, unchanged.
    fs.writeFileSync(path.join(dir, 'a.py'), `# header\n${PYTHON}`);
    const moved = run(['edit', 'a.py:@Cart.remove'], dir, { input: '    def remove(self):\n        return None\n' });
    expectRun(moved, { status: 0, stdout: /^edited a\.py: 19-20 → 19-20 \(\+0\)\n/, stderr: '' });
    // A line inside it changed: refused.
    const changed = read(dir, 'a.py').replace('    """Sum them."""', '    """Sum them all."""');
    fs.writeFileSync(path.join(dir, 'a.py'), changed);
    const r = run(['edit', 'a.py:@total'], dir, { input: 'def total():\n    pass\n' });
    expectRun(r, { status: 3, stdout: '', stderr: /^rt: @total \(lines 5-9 of a\.py\) has not been shown since/ });
    expect(read(dir, 'a.py')).toBe(changed);
    // A line added inside it: refused as well, as is an insert beside it.
    outline(dir, 'a.py');
    const added = read(dir, 'a.py').replace(
      '    return sum(items)\n',
      '    items = list(items)\n    return sum(items)\n',
    );
    fs.writeFileSync(path.join(dir, 'a.py'), added);
    expect(run(['insert', 'after', 'a.py:@total'], dir, { input: 'x = 1\n' }).status).toBe(3);
    expect(run(['delete', 'a.py:@total'], dir).status).toBe(3);
    expect(read(dir, 'a.py')).toBe(added);
    // --force edits it without looking.
    expect(run(['delete', 'a.py:@total', '--force'], dir).status).toBe(0);
    expect(read(dir, 'a.py')).not.toContain('def total');
  });

  it('the region an edit by name printed counts as shown: a second edit of it follows', () => {
    const dir = repo({ 'a.py': PYTHON });
    editAfterOutline(dir, 'a.py', 'total', 'def total(items):\n    return 1\n');
    const r = run(['edit', 'a.py:@total'], dir, { input: 'def total(items):\n    return 2\n' });
    expect(r.status, r.text).toBe(0);
    expect(read(dir, 'a.py')).toContain('def total(items):\n    return 2\n\n\nclass Cart:');
  });
});

describe('found under the lock', () => {
  it('an edit by name beside another rt adding lines above it: found where the other left it', async () => {
    for (let round = 0; round < 4; round++) {
      const dir = repo({ 'a.py': PYTHON });
      outline(dir, 'a.py');
      const top = /^1:([0-9a-z]{4})\|/m.exec(run(['open', 'a.py:1-3'], dir).stdout)![1]!;
      // Both at once: whichever takes the lock second reads the file the first wrote.
      const [inserted, edited] = await Promise.all([
        runAsync(['insert', 'a.py', top, '--after'], dir, { input: 'import re\nimport sys\nimport json\n' }),
        runAsync(['edit', 'a.py:@Cart.add'], dir, { input: '    def add(self, x):\n        return -x\n' }),
      ]);
      expect(inserted.status, inserted.text).toBe(0);
      expect(edited.status, edited.text).toBe(0);
      expect(read(dir, 'a.py')).toBe(
        PYTHON.replace('import os\n', 'import os\nimport re\nimport sys\nimport json\n').replace(
          '    @property\n    def add(self, x):\n        return x\n',
          '    def add(self, x):\n        return -x\n',
        ),
      );
    }
  });
});

describe('names', () => {
  const TWO = 'class A:\n    def run(self):\n        pass\n\n\nclass B:\n    def run(self):\n        pass\n';

  it('several definitions of that name: exit 2, listed with their qualified names and LIDs, nothing written', () => {
    const dir = repo({ 'a.py': TWO });
    outline(dir, 'a.py');
    const r = run(['edit', 'a.py:@run'], dir, { input: 'x = 1\n' });
    expectRun(r, {
      status: 2,
      stdout: '',
      stderr: new RegExp(
        String.raw`^rt: 2 definitions in a\.py are named run:\n` +
          String.raw`rt:   2:[0-9a-z]{4}\|    def run\(self\):  \(method A\.run, lines 2-3: rt open a\.py:2-3\)\n` +
          String.raw`rt:   7:[0-9a-z]{4}\|    def run\(self\):  \(method B\.run, lines 7-8: rt open a\.py:7-8\)\n` +
          String.raw`rt: name one by its qualified name \(rt edit a\.py:@A\.run\), or name its lines by LID instead: ` +
          String.raw`see them with the rt open above\n$`,
      ),
    });
    expect(read(dir, 'a.py')).toBe(TWO);
    expect(run(['edit', 'a.py:@B.run'], dir, { input: '    def run(self):\n        return 2\n' }).status).toBe(0);
    expect(read(dir, 'a.py')).toBe(TWO.replace(/pass\n$/, 'return 2\n'));
  });

  it('no such definition: exit 1 with the closest names, nothing written', () => {
    const dir = repo({ 'a.py': PYTHON });
    outline(dir, 'a.py');
    expectRun(run(['delete', 'a.py:@totl'], dir), {
      status: 1,
      stdout: '',
      stderr:
        'rt: no definition named totl in a.py; the closest: total; nothing was written\n' +
        'rt: see them all: rt outline a.py\n',
    });
    const json = run(['delete', 'a.py:@totl', '--json'], dir);
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stdout).error).toMatchObject({ code: 'no_definition', exit: 1, closest: ['total'] });
    expect(read(dir, 'a.py')).toBe(PYTHON);
  });

  it('FROM or AT beside PATH:@NAME is bad usage; edit and delete without one keep their usual refusal', () => {
    const dir = repo({ 'a.py': PYTHON });
    expectRun(run(['edit', 'a.py:@total', 'kq3f'], dir, { input: 'x\n' }), {
      status: 2,
      stderr: /^rt: a\.py:@total names a definition, whose lines are its whole range: give no FROM or TO beside it\n/,
    });
    expectRun(run(['delete', 'a.py'], dir), {
      status: 2,
      stdout: '',
      stderr: "rt: missing required argument 'from'\nrt: see the usage with: rt help delete\n",
    });
  });
});

describe('files rt finds no definitions in', () => {
  it('a file of no language rt knows: exit 2, nothing written, pointing at its lines', () => {
    const dir = repo({ 'notes.txt': 'total\n' });
    expectRun(run(['delete', 'notes.txt:@total'], dir), {
      status: 2,
      stdout: '',
      stderr: new RegExp(
        String.raw`^rt: rt knows no language for notes\.txt: .*\n` +
          String.raw`rt: name its lines by LID instead: see them with rt open notes\.txt\n$`,
      ),
    });
    expectRun(run(['apply'], dir, { input: '*** Update File: notes.txt\n@@ delete @total\n' }), {
      status: 2,
      stdout: '',
      stderr: /^rt: patch line 2: rt knows no language for notes\.txt/,
    });
    expect(read(dir, 'notes.txt')).toBe('total\n');
  });
});

describe('rt insert beside a definition', () => {
  it('rt insert PATH:@NAME goes before it (above its decorators), --after (insert after) after its last line', () => {
    const dir = repo({ 'a.py': PYTHON });
    outline(dir, 'a.py');
    expect(run(['insert', 'a.py:@total'], dir, { input: 'LIMIT = 1\n\n\n' }).status).toBe(0);
    expect(read(dir, 'a.py')).toContain('import os\n\n\nLIMIT = 1\n\n\n@decorator\n@other(1)\ndef total');
    outline(dir, 'a.py');
    expect(run(['insert', 'a.py:@total', '--after'], dir, { input: '\n\nTAX = 2\n' }).status).toBe(0);
    expect(read(dir, 'a.py')).toContain('    return sum(items)\n\n\nTAX = 2\n\n\nclass Cart:');
    outline(dir, 'a.py');
    expect(run(['insert', 'after', 'a.py:@Cart.add'], dir, { input: '\ndef more(self):\n    pass\n' }).status).toBe(0);
    // Without --indent auto, byte for byte.
    expect(read(dir, 'a.py')).toContain('        return x\n\ndef more(self):\n    pass\n\n    def remove');
  });

  it("--indent auto puts the new lines at the definition's indentation, before or after it, or in its place", () => {
    const dir = repo({ 'a.py': PYTHON });
    outline(dir, 'a.py');
    const r = run(['insert', 'after', 'a.py:@Cart.add', '--indent', 'auto'], dir, {
      input: '\ndef more(self):\n    pass\n',
    });
    expect(r.status, r.text).toBe(0);
    expect(read(dir, 'a.py')).toContain('        return x\n\n    def more(self):\n        pass\n\n    def remove');
    outline(dir, 'a.py');
    const e = run(['edit', 'a.py:@Cart.remove', '--indent', 'auto'], dir, {
      input: 'def remove(self):\n    return 0\n',
    });
    expect(e.status, e.text).toBe(0);
    expect(read(dir, 'a.py')).toMatch(/\n {4}def remove\(self\):\n {8}return 0\n$/);
  });
});

describe('rt apply: @@ edit @NAME, @@ delete @NAME, @@ insert before|after @NAME', () => {
  it('resolves each name in the file as read, in one batch with the other hunks; one undo restores every byte', () => {
    const ts =
      "import x from 'y';\n\n/** The limit. */\nexport const LIMIT = 10;\n\n" +
      'export function total(a: number): number {\n' +
      '  return a;\n}\n\nexport class Cart {\n  add(x: number) {\n    return x;\n  }\n}\n';
    const py = 'def a():\n    return 1\n';
    const dir = repo({ 'a.ts': ts, 'b.py': py });
    outline(dir, 'a.ts');
    outline(dir, 'b.py');
    const patch = [
      '*** Begin Patch',
      '*** Update File: a.ts',
      '@@ delete @Cart.add',
      '@@ edit @LIMIT',
      '+export const LIMIT = 20;',
      '@@ insert before @total',
      '+// totals',
      '@@ insert after @total',
      '+',
      '+export const ZERO = 0;',
      '*** Update File: b.py',
      '@@ edit @a',
      '+def a():',
      '+    return 2',
      '*** End Patch',
      '',
    ].join('\n');
    const r = run(['apply'], dir, { input: patch });
    expect(r.status, r.text).toBe(0);
    expect(read(dir, 'a.ts')).toBe(
      "import x from 'y';\n\nexport const LIMIT = 20;\n\n// totals\nexport function total(a: number): number {\n" +
        '  return a;\n}\n\nexport const ZERO = 0;\n\nexport class Cart {\n}\n',
    );
    expect(read(dir, 'b.py')).toBe('def a():\n    return 2\n');
    const undo = run(['undo'], dir);
    expect(undo.status, undo.text).toBe(0);
    expect(read(dir, 'a.ts')).toBe(ts);
    expect(read(dir, 'b.py')).toBe(py);
  });

  it('a name found nowhere refuses the whole patch (exit 1) naming its line; a stale one (exit 3) too', () => {
    const dir = repo({ 'a.py': PYTHON, 'b.py': 'def a():\n    return 1\n' });
    outline(dir, 'a.py');
    outline(dir, 'b.py');
    const patch =
      '*** Update File: b.py\n@@ edit @a\n+def a():\n+    return 2\n*** Update File: a.py\n@@ delete @nothing\n';
    expectRun(run(['apply'], dir, { input: patch }), {
      status: 1,
      stdout: '',
      stderr: /^rt: patch line 6: no definition named nothing in a\.py/,
    });
    fs.writeFileSync(path.join(dir, 'a.py'), PYTHON.replace('pass', 'return None'));
    const stale =
      '*** Update File: b.py\n@@ edit @a\n+def a():\n+    return 2\n*** Update File: a.py\n@@ delete @Cart.remove\n';
    expectRun(run(['apply'], dir, { input: stale }), {
      status: 3,
      stdout: '',
      stderr: /^rt: patch line 6: @Cart\.remove /,
    });
    expect(read(dir, 'b.py')).toBe('def a():\n    return 1\n');
  });

  it('malformed symbol hunks are refused with the patch line', () => {
    const dir = repo({ 'a.py': PYTHON });
    for (const [hunk, message] of [
      ['@@ edit @total kq3f\n+x', /^rt: patch line 2: @@ edit of a definition takes @@ edit @NAME \(no TO\)\n/],
      ['@@ delete @total\n+x', /^rt: patch line 2: @@ delete takes no rows\n/],
      ['@@ insert over @total\n+x', /^rt: patch line 2: @@ insert of a definition takes @@ insert before @NAME or/],
      ['@@ edit @a:b\n+x', /^rt: patch line 2: not a definition's name: "@a:b"\n/],
    ] as const) {
      expectRun(run(['apply'], dir, { input: `*** Update File: a.py\n${hunk}\n` }), {
        status: 2,
        stdout: '',
        stderr: message,
      });
    }
  });
});

describe('a write by name takes nothing but the definition', () => {
  it('one that shares its first or last line with another is refused (exit 2) with the command by LID', () => {
    const js =
      'const a = 1, b = 2;\n\nfunction c() {\n  return 1;\n} function d() {\n  return 2;\n}\n\n' +
      '/** Doc */ const p = 1; function f() {\n  return 3;\n}\n';
    const dir = repo({ 'a.js': js });
    outline(dir, 'a.js');
    const lid = '[0-9a-z]{4}';
    for (const [name, line, other] of [
      ['b', 1, 'const a'],
      ['a', 1, 'const b'],
      ['d', 5, 'function c'],
      ['c', 5, 'function d'],
      ['f', 9, 'const p'],
    ] as const) {
      expectRun(run(['delete', `a.js:@${name}`], dir), {
        status: 2,
        stdout: '',
        stderr: new RegExp(
          String.raw`^rt: @${name} shares line ${line} of a\.js with ${other}: written by name, that would be ` +
            String.raw`written too; nothing was written\nrt: write the lines you mean by LID instead: ` +
            String.raw`rt edit a\.js ${lid} ${lid} `,
        ),
      });
    }
    expect(run(['edit', 'a.js:@a'], dir, { input: 'const a = 3;\n' }).status).toBe(2);
    expect(read(dir, 'a.js')).toBe(js);
  });

  it('a method last in its class (Python) or before its closing line goes alone', () => {
    const py = 'class A:\n    def f(self):\n        pass\n\n    def g(self):\n        pass\n';
    const ts = 'class A {\n  f() {\n    return 1;\n  }\n}\n';
    const dir = repo({ 'a.py': py, 'a.ts': ts });
    expect(editAfterOutline(dir, 'a.py', 'A.g', '    def g(self):\n        return 2\n')).toBe(
      py.replace(/pass\n$/, 'return 2\n'),
    );
    expect(editAfterOutline(dir, 'a.ts', 'A.f', '  f() {\n    return 2;\n  }\n')).toBe(ts.replace('1', '2'));
  });

  it('a syntax error within or after it, before the next definition: exit 2, nothing written, where it is said', () => {
    const py = 'def a():\n    return (1,\n\ndef b():\n    return 2\n';
    const dir = repo({ 'a.py': py });
    outline(dir, 'a.py');
    expectRun(run(['edit', 'a.py:@a'], dir, { input: 'def a():\n    return 1\n' }), {
      status: 2,
      stdout: '',
      stderr: new RegExp(
        String.raw`^rt: a\.py has a syntax error at line 2, column 5 \(.*\), within or after @a: where it ends is ` +
          String.raw`not known; nothing was written\nrt: write the lines you mean by LID instead: rt edit a\.py ` +
          String.raw`[0-9a-z]{4} [0-9a-z]{4} \(see them: rt open a\.py:1-5\)\n$`,
      ),
    });
    expect(read(dir, 'a.py')).toBe(py);
    // An error past the next definition's start is not in its way; the definition before it is refused.
    const ok = 'def a():\n    return 1\n\ndef b():\n    return 2\n\nx = (1,\n';
    const other = repo({ 'a.py': ok });
    expect(editAfterOutline(other, 'a.py', 'a', 'def a():\n    return 3\n', ['--no-check'])).toBe(ok.replace('1', '3'));
    expect(run(['delete', 'a.py:@b'], other).status).toBe(2);
    // Past the end of the class holding it, an error is not in a method's way.
    const far = 'class C {\n  m() { return 3 }\n}\n\nconst z = foo(1,\n';
    const held = repo({ 'far.ts': far });
    outline(held, 'far.ts');
    const r = run(['delete', 'far.ts:@C.m', '--no-check'], held);
    expect(r.status, r.text).toBe(0);
    expect(read(held, 'far.ts')).toBe('class C {\n}\n\nconst z = foo(1,\n');
  });
});

describe('a definition of several parts', () => {
  const PROP =
    'class C:\n    @property\n    def x(self):\n        return 1\n\n    @x.setter\n    def x(self, v):\n' +
    '        pass\n';

  it('is not shown by rt outline, which lists its first line: exit 3 saying so; rt open PATH:@NAME shows it', () => {
    const dir = repo({ 'a.py': PROP });
    outline(dir, 'a.py');
    expectRun(run(['delete', 'a.py:@C.x'], dir), {
      status: 3,
      stdout: '',
      stderr:
        'rt: @C.x (lines 2-8 of a.py) has not been shown since it last changed; it has 2 parts, which rt outline ' +
        'lists by the first alone; nothing was written\n' +
        'rt: see it first: rt open a.py:@C.x\nrt: or, to delete it without looking, add --force\n',
    });
    expect(read(dir, 'a.py')).toBe(PROP);
    expect(run(['open', 'a.py:@C.x'], dir).status).toBe(0);
    expect(run(['edit', 'a.py:@C.x'], dir, { input: '    x = 2\n' }).status).toBe(0);
    expect(read(dir, 'a.py')).toBe('class C:\n    x = 2\n');
  });
});

describe('grep hits do not show a definition', () => {
  it('a one-line definition hit, or every line of one hit by several greps: exit 3; grep -W shows it', () => {
    const ts = 'const LIMIT = 10;\n\nfunction f() {\n  return 1;\n}\n';
    const dir = repo({ 'a.ts': ts });
    expect(run(['grep', 'LIMIT', 'a.ts'], dir).status).toBe(0);
    expect(run(['edit', 'a.ts:@LIMIT'], dir, { input: 'const LIMIT = 20;\n' }).status).toBe(3);
    for (const pattern of ['function', 'return', '^}']) expect(run(['grep', pattern, 'a.ts'], dir).status).toBe(0);
    expect(run(['grep', '-C', '1', 'return', 'a.ts'], dir).status).toBe(0);
    expect(run(['delete', 'a.ts:@f'], dir).status).toBe(3);
    expect(read(dir, 'a.ts')).toBe(ts);
    // The hit still names its line for an edit by LID.
    const hit = run(['grep', 'LIMIT', 'a.ts'], dir).stdout.split(':')[2]!.slice(0, 4);
    expect(run(['edit', 'a.ts', hit], dir, { input: 'const LIMIT = 30;\n' }).status).toBe(0);
    expect(run(['grep', '-W', 'return', 'a.ts'], dir).status).toBe(0);
    expect(run(['delete', 'a.ts:@f'], dir).status).toBe(0);
    expect(read(dir, 'a.ts')).toBe('const LIMIT = 30;\n');
  });
});

describe('rt delete PATH:@NAME takes the blank lines after it when one is before it', () => {
  it('PEP 8 spacing stays two blank lines; in a block of lines, the blank line after stays', () => {
    const py = 'import os\n\n\ndef a():\n    pass\n\n\ndef b():\n    pass\n\n\ndef c():\n    pass\n';
    const dir = repo({ 'a.py': py, 'b.py': 'x = 1\ndef f():\n    pass\n\ny = 2\n' });
    outline(dir, 'a.py');
    expect(run(['delete', 'a.py:@b'], dir).status).toBe(0);
    expect(read(dir, 'a.py')).toBe('import os\n\n\ndef a():\n    pass\n\n\ndef c():\n    pass\n');
    // Last in the file: the blank lines before it go with it.
    expect(run(['delete', 'a.py:@c'], dir).status).toBe(0);
    expect(read(dir, 'a.py')).toBe('import os\n\n\ndef a():\n    pass\n');
    outline(dir, 'b.py');
    expect(run(['delete', 'b.py:@f'], dir).status).toBe(0);
    expect(read(dir, 'b.py')).toBe('x = 1\n\ny = 2\n');
    // In a patch too; an edit leaves them.
    const first = repo({ 'a.py': py });
    outline(first, 'a.py');
    expect(run(['apply'], first, { input: '*** Update File: a.py\n@@ delete @a\n' }).status).toBe(0);
    expect(read(first, 'a.py')).toBe('import os\n\n\ndef b():\n    pass\n\n\ndef c():\n    pass\n');
    expect(run(['edit', 'a.py:@b'], first, { input: 'def b():\n    return 1\n' }).status).toBe(0);
    expect(read(first, 'a.py')).toBe('import os\n\n\ndef b():\n    return 1\n\n\ndef c():\n    pass\n');
  });

  it('first in a block, the blank lines after it go; last in one, those before it', () => {
    const py =
      'class A:\n    def f(self):\n        pass\n\n    def g(self):\n        pass\n\n    def h(self):\n        pass\n';
    const dir = repo({ 'a.py': py, 'a.ts': 'class A {\n  f() {}\n\n  g() {}\n}\n' });
    outline(dir, 'a.py');
    expect(run(['delete', 'a.py:@A.f'], dir).status).toBe(0);
    expect(read(dir, 'a.py')).toBe('class A:\n    def g(self):\n        pass\n\n    def h(self):\n        pass\n');
    expect(run(['delete', 'a.py:@A.h'], dir).status).toBe(0);
    expect(read(dir, 'a.py')).toBe('class A:\n    def g(self):\n        pass\n');
    outline(dir, 'a.ts');
    expect(run(['delete', 'a.ts:@A.g'], dir).status).toBe(0);
    expect(read(dir, 'a.ts')).toBe('class A {\n  f() {}\n}\n');
  });

  it('CRLF blank lines go the same way', () => {
    const py = 'def a():\r\n    pass\r\n\r\n\r\ndef b():\r\n    pass\r\n';
    const dir = repo({ 'a.py': py });
    outline(dir, 'a.py');
    expect(run(['delete', 'a.py:@a'], dir).status).toBe(0);
    expect(read(dir, 'a.py')).toBe('def b():\r\n    pass\r\n');
  });
});

describe('what a refusal of a name says', () => {
  it('no name after @: said so; a file too big to parse: the lines by LID, not a search', () => {
    const dir = repo({
      'a.py': 'def f():\n    pass\n',
      'big.py': `def f():\n    pass\n${'x = 1\n'.repeat(3_000_000)}`,
    });
    expectRun(run(['delete', 'a.py:@'], dir), {
      status: 2,
      stdout: '',
      stderr:
        'rt: a name is missing after @ in a.py:@: PATH:@NAME names a definition\n' +
        'rt: name one: rt delete a.py:@NAME; see their names: rt outline a.py\n',
    });
    const big = run(['delete', 'big.py:@f', '--force'], dir);
    expectRun(big, {
      status: 2,
      stdout: '',
      stderr: /^rt: big\.py is 17\.2 MB: rt finds definitions in files of 16 MB/,
    });
    expect(big.stderr).toContain('rt: name its lines by LID instead: see them with rt open big.py\n');
    expect(big.stderr).not.toContain('search it');
  });

  it('--json names the definition written beside its range', () => {
    const dir = repo({ 'a.py': PYTHON });
    outline(dir, 'a.py');
    const r = run(['edit', 'a.py:@Cart.remove', '--json'], dir, { input: '    def remove(self):\n        return 1\n' });
    expect(r.status, r.text).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      definition: { name: 'remove', kind: 'method', qualified: 'Cart.remove' },
      old: { start: 18, count: 2 },
    });
    // A dry run names it too.
    const dry = run(['delete', 'a.py:@total', '--dry-run', '--json'], dir);
    expect(JSON.parse(dry.stdout)).toMatchObject({ dryRun: true, definition: { name: 'total', kind: 'function' } });
  });
});
