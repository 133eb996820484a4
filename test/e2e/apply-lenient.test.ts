// rt apply as lenient as apply_patch where a model is predictable: context hunks quoted with the
// wrong indentation (their new rows moved to the file's), or with ASCII for Unicode punctuation;
// a patch pasted with its heredoc lines or indented whole; a Move to over an existing file with
// --force; and the refusals that say what went wrong. The built binary, the bytes on disk.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, expectRun, openWindow, run, tempRepo, tree, write, type Ran } from './harness.js';

afterAll(cleanup);

/** A root with files, each opened whole (so every line counts as shown). */
function rootWith(files: Record<string, string | Buffer>): { dir: string; lids: Record<string, readonly string[]> } {
  const dir = tempRepo();
  const lids: Record<string, readonly string[]> = {};
  for (const [rel, content] of Object.entries(files)) {
    write(dir, rel, content);
    lids[rel] = openWindow(dir, rel, ['--window', '1000']).lids;
  }
  return { dir, lids };
}

const apply = (dir: string, patch: string, args: string[] = []): Ran => run(['apply', ...args], dir, { input: patch });
const bytes = (dir: string, rel: string) => fs.readFileSync(path.join(dir, rel));

function expectRefused(dir: string, patch: string, status: number, stderr: RegExp, args: string[] = []): Ran {
  const before = tree(dir);
  const r = apply(dir, patch, args);
  expectRun(r, { status, stdout: '', stderr });
  expect(tree(dir), r.text).toEqual(before);
  return r;
}

const PY = 'class A:\n    def f(self, x):\n        if x:\n            return 1\n        return 2\n';

describe('rt apply: a context hunk quoted with the wrong indentation', () => {
  it("writes the + rows of a hunk quoted 4 spaces short at the file's indentation, and says so", () => {
    const { dir } = rootWith({ 'a.py': PY });
    const r = apply(
      dir,
      '*** Begin Patch\n*** Update File: a.py\n@@ def f(self, x):\n     if x:\n-        return 1\n+        y ' +
        '= x * 2\n+\n+        return y\n*** End Patch\n',
    );
    expect(r.status, r.text).toBe(0);
    expect(bytes(dir, 'a.py').toString()).toBe(
      'class A:\n    def f(self, x):\n        if x:\n            y = x * 2\n\n            return y\n        return 2\n',
    );
    const out = r.stdout.split('\n');
    expect(out[0]).toBe('edited a.py: 4-4 → 4-6 (+2)');
    expect(out[1]).toBe(
      'note: the hunk at patch line 3 matched only ignoring indentation: its + rows were shifted right by 4 ' +
        "spaces to the file's indentation",
    );
    expect(out[2]).toMatch(/^--- a\.py \(lines 1-7 of 7\) ---$/);
    expect(r.stderr).toBe('');
  });

  it('names the shift in --json', () => {
    const { dir } = rootWith({ 'a.py': PY });
    const r = run(['apply', '--json'], dir, {
      input: '*** Update File: a.py\n@@\n     if x:\n-        return 1\n+        return 3\n',
    });
    expect(r.status, r.text).toBe(0);
    const doc = JSON.parse(r.stdout) as { files: Array<{ lenient: unknown }> };
    expect(doc.files[0]!.lenient).toEqual([
      { patchLine: 2, ignored: ['indentation'], shift: { from: '', to: '    ', rows: 2, agreeing: 2 } },
    ]);
    expect(bytes(dir, 'a.py').toString()).toBe(PY.replace('return 1', 'return 3'));
  });

  it('takes indentation off rows quoted too deep, in a CRLF file without a final newline', () => {
    const { dir } = rootWith({ 'a.txt': 'if x:\r\n  a\r\n  b' });
    const r = apply(dir, '*** Update File: a.txt\n@@\n     if x:\n-      a\n+      A\n+        A2\n       b\n');
    expect(r.status, r.text).toBe(0);
    expect(bytes(dir, 'a.txt').toString()).toBe('if x:\r\n  A\r\n    A2\r\n  b');
    expect(r.stdout).toContain(
      'note: the hunk at patch line 2 matched only ignoring indentation: its + rows were shifted left by 4 spaces',
    );
  });

  it('writes tabs where the file indents with tabs and spaces were quoted', () => {
    const { dir } = rootWith({ 'main.go': 'func f() {\n\tif x {\n\t\treturn 1\n\t}\n}\n' });
    const r = apply(
      dir,
      '*** Update File: main.go\n@@\n     if x {\n-        return 1\n+        y := 2\n+        return y\n     }\n',
    );
    expect(r.status, r.text).toBe(0);
    expect(bytes(dir, 'main.go').toString()).toBe('func f() {\n\tif x {\n\t\ty := 2\n\t\treturn y\n\t}\n}\n');
    expect(r.stdout).toContain(
      'note: the hunk at patch line 2 matched only ignoring indentation: its + rows were indented with tabs ' +
        'as the file is (a tab for 4 quoted spaces)',
    );
  });

  it('says which difference it took when the rows differ unevenly', () => {
    const { dir } = rootWith({ 'a.txt': '    a\n    b\n      c\n    d\n' });
    const r = apply(dir, '*** Update File: a.txt\n@@\n a\n b\n c\n-d\n+e\n');
    expect(r.status, r.text).toBe(0);
    expect(bytes(dir, 'a.txt').toString()).toBe('    a\n    b\n      c\n    e\n');
    expect(r.stdout).toContain(
      "shifted right by 4 spaces to the file's indentation (as 3 of its 4 quoted rows differ from the file; " +
        'the others otherwise)',
    );
  });

  it('writes a deeper + row with tabs too when every row was quoted alike in spaces for tabs', () => {
    const { dir } = rootWith({ 't.py': 'def f():\n\tif x:\n\t\ta = 1\n\t\tb = 2\n\treturn a\n' });
    const r = apply(
      dir,
      '*** Update File: t.py\n@@\n-        b = 2\n+        b = 3\n+        if y:\n+            c = 4\n',
    );
    expect(r.status, r.text).toBe(0);
    expect(bytes(dir, 't.py').toString()).toBe(
      'def f():\n\tif x:\n\t\ta = 1\n\t\tb = 3\n\t\tif y:\n\t\t\tc = 4\n\treturn a\n',
    );
  });

  it('shifts nothing when the quoted rows disagree with no difference ahead (a row off by one space)', () => {
    const { dir } = rootWith({ 'u.py': 'def g():\n    foo()\n    bar()\n' });
    const r = apply(dir, '*** Update File: u.py\n@@\n   foo()\n-    bar()\n+    baz()\n');
    expect(r.status, r.text).toBe(0);
    expect(bytes(dir, 'u.py').toString()).toBe('def g():\n    foo()\n    baz()\n');
  });

  it('leaves alone the + rows of a hunk found exactly (no note)', () => {
    const { dir } = rootWith({ 'a.py': PY });
    // Written as given, the file's syntax broken (an if without its block): --no-check.
    const r = apply(dir, '*** Update File: a.py\n@@\n         if x:\n-            return 1\n+    return 1\n', [
      '--no-check',
    ]);
    expect(r.status, r.text).toBe(0);
    expect(bytes(dir, 'a.py').toString()).toBe(PY.replace('            return 1', '    return 1'));
    expect(r.stdout).not.toContain('note:');
  });
});

describe('rt apply: a patch indented whole, or its hunk', () => {
  it('reads a patch whose every line carries one indentation without it, with a note', () => {
    const { dir } = rootWith({ 'a.py': PY });
    const patch = [
      '*** Begin Patch',
      '*** Update File: a.py',
      '@@ def f(self, x):',
      '-        return 2',
      '+        return 0',
      '*** End Patch',
    ]
      .map((l) => `    ${l}\n`)
      .join('');
    const r = apply(dir, patch);
    expect(r.status, r.text).toBe(0);
    expect(bytes(dir, 'a.py').toString()).toBe(PY.replace('return 2', 'return 0'));
    expect(r.stderr).toBe('rt: every line of the patch starts with the same indentation (4 spaces): read without it\n');
  });

  it('says that the rows of a hunk indented whole all read as context rows', () => {
    const { dir } = rootWith({ 'a.py': PY });
    expectRefused(
      dir,
      '*** Update File: a.py\n@@\n   if x:\n   -    return 1\n   +    return 2\n',
      3,
      new RegExp(
        String.raw`^rt: patch line 2: the hunk's context and removed lines match nowhere in a\.py: every row of ` +
          String.raw`the hunk starts with the same indentation \(3 spaces\), so each reads as a context row \(a ` +
          String.raw`row's first character is its tag\); nothing was written[^]*\nrt: remove that indentation: each ` +
          'row starts with its tag',
      ),
    );
  });
});

describe('rt apply: @@ edit LID with - rows', () => {
  it('says that an LID hunk takes only + rows', () => {
    const { dir, lids } = rootWith({ 'a.py': PY });
    const lid = lids['a.py']![3]!;
    const r = expectRefused(
      dir,
      `*** Update File: a.py\n@@ edit ${lid}\n-            return 1\n+            return 9\n`,
      3,
      new RegExp(
        String.raw`^rt: patch line 2: no line of a\.py reads "edit [0-9a-z]{4}" \(the hunk's @@ line\) after the ` +
          String.raw`hunk before it: an LID hunk takes only \+ rows \(the LIDs name the lines it replaces, so - ` +
          String.raw`rows are not needed\)`,
      ),
    );
    expect(r.stderr).toContain(
      `rt: write @@ edit ${lid} followed by the new lines alone, as + rows (drop the - and context rows)\n`,
    );
    // The patch the hint gives works.
    expect(apply(dir, `*** Update File: a.py\n@@ edit ${lid}\n+            return 9\n`).status).toBe(0);
    expect(bytes(dir, 'a.py').toString()).toBe(PY.replace('return 1', 'return 9'));
  });
});

describe('rt apply: a patch given with its heredoc lines', () => {
  const body = '*** Begin Patch\n*** Update File: a.py\n@@\n-        return 2\n+        return 5\n*** End Patch\n';
  it.each([
    ["<<'EOF'", `<<'EOF'\n${body}EOF\n`],
    ['<<EOF', `<<EOF\n${body}EOF\n`],
    ["<< 'EOF'", `<< 'EOF'\n${body}EOF\n`],
    ["apply_patch <<'EOF'", `apply_patch <<'EOF'\n${body}EOF\n`],
  ])('applies the patch inside %s … EOF', (_name, patch) => {
    const { dir } = rootWith({ 'a.py': PY });
    const r = apply(dir, patch);
    expect(r.status, r.text).toBe(0);
    expect(r.stderr).toBe('');
    expect(bytes(dir, 'a.py').toString()).toBe(PY.replace('return 2', 'return 5'));
  });
});

describe('rt apply: Unicode punctuation read as ASCII, last', () => {
  it(
    'finds context quoted with hyphens and straight quotes ' +
      'where the file has dashes and curly quotes, and says so',
    () => {
      const content = 'title = \u201cRT \u2014 lines\u201d\u00a0# it\u2019s\nversion = 1\n';
      const { dir } = rootWith({ 'a.py': content });
      const r = apply(dir, '*** Update File: a.py\n@@\n title = "RT - lines" # it\'s\n-version = 1\n+version = 2\n');
      expect(r.status, r.text).toBe(0);
      expect(bytes(dir, 'a.py')).toEqual(
        Buffer.from('title = \u201cRT \u2014 lines\u201d\u00a0# it\u2019s\nversion = 2\n'),
      );
      expect(r.stdout).toContain(
        'note: the hunk at patch line 2 matched only with Unicode dashes, quotes and spaces read as ASCII\n',
      );
    },
  );

  it('prefers an exact match to one that needs the last level', () => {
    const { dir } = rootWith({ 'a.txt': 'a \u2013 b\nx\na - b\nx\n' });
    const r = apply(dir, '*** Update File: a.txt\n@@\n a - b\n-x\n+y\n');
    expect(r.status, r.text).toBe(0);
    expect(bytes(dir, 'a.txt').toString()).toBe('a \u2013 b\nx\na - b\ny\n');
    expect(r.stdout).not.toContain('note:');
  });
});

describe('rt apply: Move to onto an existing file', () => {
  const patch = '*** Update File: a.txt\n*** Move to: b.txt\n@@\n-a2\n+A2\n';

  it('is refused without --force, with a hint that works', () => {
    const { dir } = rootWith({ 'a.txt': 'a1\na2\n', 'b.txt': 'b1\n' });
    const r = expectRefused(
      dir,
      patch,
      3,
      /^rt: patch line 1: b\.txt exists already: a\.txt is not moved onto it; nothing was written\n/,
    );
    expect(r.stderr).toContain(
      'rt: to replace it with the moved file, apply the same patch with --force: rt apply --force\n',
    );
    const forced = apply(dir, patch, ['--force']);
    expect(forced.status, forced.text).toBe(0);
  });

  it('replaces the file with --force, and an undo gives both back byte for byte', () => {
    const { dir } = rootWith({ 'a.txt': 'a1\r\na2\r\n', 'b.txt': 'b1\nb2' });
    const r = apply(dir, patch, ['--force']);
    expect(r.status, r.text).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('moved a.txt → b.txt (replacing the old b.txt)');
    expect(fs.existsSync(path.join(dir, 'a.txt'))).toBe(false);
    expect(bytes(dir, 'b.txt').toString()).toBe('a1\r\nA2\r\n');
    const undo = run(['undo'], dir);
    expect(undo.status, undo.text).toBe(0);
    expect(bytes(dir, 'a.txt').toString()).toBe('a1\r\na2\r\n');
    expect(bytes(dir, 'b.txt').toString()).toBe('b1\nb2');
    const redo = run(['redo'], dir);
    expect(redo.status, redo.text).toBe(0);
    expect(fs.existsSync(path.join(dir, 'a.txt'))).toBe(false);
    expect(bytes(dir, 'b.txt').toString()).toBe('a1\r\nA2\r\n');
  });

  it('refuses a Delete File of the target beside the move, with a hint that works', () => {
    const { dir } = rootWith({ 'a.txt': 'a1\na2\n', 'b.txt': 'b1\n' });
    const r = expectRefused(
      dir,
      `*** Delete File: b.txt\n${patch}`,
      2,
      /^rt: patch line 3: b\.txt is named again \(first at patch line 1\); nothing was written\n/,
    );
    expect(r.stderr).toContain(
      'rt: to move a file onto one that exists, leave out its *** Delete File and apply with --force: the ' +
        'Move to replaces it\n',
    );
    expect(apply(dir, patch, ['--force']).status).toBe(0);
    expect(bytes(dir, 'b.txt').toString()).toBe('a1\nA2\n');
  });

  it('is refused onto another name of the moved file (a hard link) even with --force', () => {
    const { dir } = rootWith({ 'a.txt': 'a1\na2\n' });
    fs.linkSync(path.join(dir, 'a.txt'), path.join(dir, 'b.txt'));
    expectRefused(
      dir,
      patch,
      3,
      /b\.txt is another name of a\.txt \(a hard link\): a\.txt is not moved onto it; nothing was written/,
      ['--force'],
    );
  });

  it('is refused onto a folder even with --force', () => {
    const { dir } = rootWith({ 'a.txt': 'a1\na2\n' });
    fs.mkdirSync(path.join(dir, 'b.txt'));
    expectRefused(
      dir,
      patch,
      4,
      /^rt: patch line 1: b\.txt exists and is not a regular file: a\.txt is not moved onto it/,
      ['--force'],
    );
  });
});
