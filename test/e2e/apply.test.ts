// rt apply: many edits in many files from one patch, all or nothing. The built
// binary in fresh temporary roots: exact output, the bytes on disk, and for every refusal the
// exit status, the patch line named, and nothing written (the whole tree, state included).

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, expectRun, numbered, openWindow, run, tempDir, tempRepo, tree, write, type Ran } from './harness.js';

afterAll(cleanup);

/** A root with files, each opened whole (so every line counts as shown). */
function rootWith(files: Record<string, string | Buffer>): { dir: string; lids: Record<string, string[]> } {
  const dir = tempRepo();
  const lids: Record<string, string[]> = {};
  for (const [rel, content] of Object.entries(files)) {
    write(dir, rel, content);
    lids[rel] = Buffer.byteLength(content) ? [...openWindow(dir, rel, ['--window', '1000']).lids] : [];
  }
  return { dir, lids };
}

function apply(dir: string, patch: string | Buffer, args: string[] = [], env?: Record<string, string>): Ran {
  return run(['apply', ...args], dir, { input: patch, ...(env ? { env } : {}) });
}

/** Asserts a refusal: its status, a stderr naming the patch line, and nothing written anywhere under the root. */
function expectRefused(dir: string, patch: string | Buffer, status: number, message: RegExp, args: string[] = []): Ran {
  const before = tree(dir);
  const r = apply(dir, patch, args);
  expectRun(r, { status, stdout: '', stderr: message });
  expect(tree(dir), r.text).toEqual(before);
  return r;
}

const read = (dir: string, rel: string) => fs.readFileSync(path.join(dir, rel), 'utf8');

describe('rt apply: LID hunks', () => {
  it("applies hunks of two files from one read, in any order, and prints each file's regions with fresh LIDs", () => {
    const { dir, lids } = rootWith({ 'a.txt': numbered(10), 'b.txt': 'one\ntwo\nthree\n' });
    const a = lids['a.txt']!;
    const _b = lids['b.txt']!;
    const r = apply(
      dir,
      `*** Begin Patch\n*** Update File: a.txt\n@@ delete ${a[7]}\n@@ edit ${a[1]} ${a[2]}\n+LINE 2\n@@ ` +
        `insert after ${a[4]}\n+after 5\n+\n*** Update File: b.txt\n@@ insert before $\n+four\n*** End Patch\n`,
    );
    expect(r.status, r.text).toBe(0);
    expect(read(dir, 'a.txt')).toBe('line 1\nLINE 2\nline 4\nline 5\nafter 5\n\nline 6\nline 7\nline 9\nline 10\n');
    expect(read(dir, 'b.txt')).toBe('one\ntwo\nthree\nfour\n');
    const out = r.stdout.split('\n');
    expect(out[0]).toBe('edited a.txt: 2-3 → 2-2, 5 → 5-6, 8-8 → 8 (+0)');
    expect(r.stdout).toContain('inserted b.txt: 4-4 (+1)\n--- b.txt (lines 1-4 of 4) ---\n');
    expect(r.stderr).toBe('');
    // The lines kept keep their LIDs; the new ones are editable at once by the LIDs printed.
    const w = openWindow(dir, 'a.txt');
    expect(w.lidAt(1)).toBe(a[0]);
    expect(w.lidAt(3)).toBe(a[3]);
    expect(w.lidAt(10)).toBe(a[9]);
    const fresh = /^5:([0-9a-z]{4})\|after 5$/m.exec(r.stdout)![1]!;
    expect(apply(dir, `*** Update File: a.txt\n@@ edit ${fresh}\n+AFTER 5\n`).status).toBe(0);
    expect(read(dir, 'a.txt')).toContain('line 5\nAFTER 5\n\nline 6');
  });

  it('gives exactly the bytes and LIDs of the same edits made one by one', () => {
    const content = `${numbered(30)}}\n}\n\n}\n`;
    const one = rootWith({ 'f.txt': content });
    const two = rootWith({ 'f.txt': content });
    const l = one.lids['f.txt']!;
    expect(two.lids['f.txt']).toEqual(l);
    const r = apply(
      one.dir,
      `*** Update File: f.txt\n@@ edit ${l[3]}\n+four\n+}\n@@ insert after ${l[31]}\n+}\n@@ ` +
        `delete ${l[10]} ${l[12]}\n@@ insert before ${l[0]}\n+top\n`,
    );
    expect(r.status, r.text).toBe(0);
    for (const [args, input] of [
      [['edit', 'f.txt', l[3]!], 'four\n}\n'],
      [['insert', 'f.txt', l[31]!, '--after'], '}\n'],
      [['delete', 'f.txt', l[10]!, l[12]!], ''],
      [['insert', 'f.txt', l[0]!], 'top\n'],
    ] as const) {
      const s = run(args, two.dir, { input });
      expect(s.status, s.text).toBe(0);
    }
    expect(fs.readFileSync(path.join(one.dir, 'f.txt'))).toEqual(fs.readFileSync(path.join(two.dir, 'f.txt')));
    expect(openWindow(one.dir, 'f.txt').lids).toEqual(openWindow(two.dir, 'f.txt').lids);
  });

  it('keeps every byte it did not touch: CRLF, BOM, tabs, invalid UTF-8, no final newline', () => {
    const bytes = Buffer.concat([
      Buffer.from('\uFEFFa\tb\r\n', 'utf8'),
      Buffer.from([0xff, 0xfe, 0x41, 0x0d, 0x0a]),
      Buffer.from('c\r\nd\r\nlast'),
    ]);
    const { dir, lids } = rootWith({ 'w.txt': bytes });
    const l = lids['w.txt']!;
    const r = apply(dir, `*** Update File: w.txt\n@@ edit ${l[2]}\n+C\n+C2\n@@ insert after ${l[4]}\n+end\n`);
    expect(r.status, r.text).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'w.txt'))).toEqual(
      Buffer.concat([
        Buffer.from('\uFEFFa\tb\r\n', 'utf8'),
        Buffer.from([0xff, 0xfe, 0x41, 0x0d, 0x0a]),
        Buffer.from('C\r\nC2\r\nd\r\nlast\r\nend'),
      ]),
    );
  });

  it('reads a CRLF patch as lines ending in CRLF: the CR belongs to the patch, not to the text', () => {
    const { dir, lids } = rootWith({ 'lf.txt': 'a\nb\n' });
    const r = apply(
      dir,
      `*** Begin Patch\r\n*** Update File: lf.txt\r\n@@ edit ${lids['lf.txt']![0]}\r\n+A\r\n*** End Patch\r\n`,
    );
    expect(r.status, r.text).toBe(0);
    expect(read(dir, 'lf.txt')).toBe('A\nb\n');
  });

  it('refuses lines never shown (exit 3) unless --force', () => {
    const dir = tempRepo();
    write(dir, 'f.txt', numbered(300));
    const w = openWindow(dir, 'f.txt'); // lines 1-100
    const hidden = /^250:([0-9a-z]{4})\|/m.exec(run(['grep-file', '-F', 'line 250', 'f.txt'], dir).stdout)![1]!;
    run(['open', 'f.txt'], dir); // what counts as shown stays 1-100 and line 250
    const patch = `*** Update File: f.txt\n@@ edit ${w.lidAt(2)}\n+two\n@@ edit ${hidden} $\n+x\n`;
    expectRefused(
      dir,
      patch,
      3,
      new RegExp(
        String.raw`^rt: patch line 4: 50 lines between 251 and 300 of f\.txt have not been shown since they last ` +
          String.raw`changed; nothing was written\nrt: see them first: rt open f\.txt:251-300\n`,
      ),
    );
    const r = apply(dir, `*** Update File: f.txt\n@@ edit ${w.lidAt(2)}\n+two\n@@ edit 250:${hidden} $\n+x\n`, [
      '--force',
    ]);
    expect(r.status, r.text).toBe(0);
    expect(read(dir, 'f.txt')).toContain('line 1\ntwo\nline 3\n');
    expect(read(dir, 'f.txt')).toMatch(/line 249\nx\n$/);
  });

  it('refuses a stale LID in the second file: nothing of the first is written (exit 3)', () => {
    const { dir, lids } = rootWith({ 'a.txt': numbered(3), 'b.txt': numbered(3) });
    write(dir, 'b.txt', 'line 1\nchanged\nline 3\n');
    expectRefused(
      dir,
      `*** Update File: a.txt\n@@ edit ${lids['a.txt']![0]}\n+A\n*** Add File: new/deep/n.txt\n+n\n*** ` +
        `Update File: b.txt\n@@ edit ${lids['b.txt']![1]}\n+B\n`,
      3,
      /^rt: patch line 7: .*no longer in b\.txt/,
    );
    expect(read(dir, 'a.txt')).toBe(numbered(3));
  });

  it('refuses overlapping hunks (exit 2), naming both', () => {
    const { dir, lids } = rootWith({ 'f.txt': numbered(6) });
    const l = lids['f.txt']!;
    expectRefused(
      dir,
      `*** Update File: f.txt\n@@ edit ${l[1]} ${l[3]}\n+x\n@@ delete ${l[3]} ${l[4]}\n`,
      2,
      /^rt: patch line 4: the hunk at patch line 4 overlaps the hunk at patch line 2: both touch line 4 of f\.txt/,
    );
    expectRefused(
      dir,
      `*** Update File: f.txt\n@@ edit ${l[1]} ${l[3]}\n+x\n@@ insert after ${l[2]}\n+y\n`,
      2,
      /overlaps the hunk at patch line 2: both touch line 3 of f\.txt/,
    );
    // Beside a replaced range is no overlap: the insert goes before it, or after.
    const r = apply(
      dir,
      `*** Update File: f.txt\n@@ edit ${l[1]} ${l[3]}\n+x\n@@ insert after ${l[0]}\n+before\n@@ insert ` +
        `before ${l[4]}\n+after\n`,
    );
    expect(r.status, r.text).toBe(0);
    expect(read(dir, 'f.txt')).toBe('line 1\nbefore\nx\nafter\nline 5\nline 6\n');
  });
});

describe('rt apply: files added, deleted and moved', () => {
  it('adds, deletes and moves files in one batch; a move keeps the LIDs of the lines it keeps', () => {
    const { dir, lids } = rootWith({ 'old.txt': 'gone\n', 'a.txt': numbered(5) });
    const l = lids['a.txt']!;
    const r = apply(
      dir,
      `*** Add File: src/new.txt\n+hello\n+\n+world\n*** Delete File: old.txt\n*** Update File: a.txt\n*** ` +
        `Move to: lib/b.txt\n@@ edit ${l[2]}\n+THREE\n`,
    );
    expect(r.status, r.text).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(
        String.raw`^created src\/new\.txt: 1-3 \(\+3\)\n--- src\/new\.txt \(lines 1-3 of 3\) ---\n.*\nremoved ` +
          String.raw`old\.txt: 1-1 \(-1\)\nmoved a\.txt → lib\/b\.txt\nedited lib\/b\.txt: 3-3 → 3-3 \(\+0\)\n`,
        's',
      ),
    );
    expect(read(dir, 'src/new.txt')).toBe('hello\n\nworld\n');
    expect(fs.existsSync(path.join(dir, 'old.txt'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'a.txt'))).toBe(false);
    expect(read(dir, 'lib/b.txt')).toBe('line 1\nline 2\nTHREE\nline 4\nline 5\n');
    const w = openWindow(dir, 'lib/b.txt');
    expect(w.lidAt(1)).toBe(l[0]);
    expect(w.lidAt(5)).toBe(l[4]);
  });

  it('moves a file with its permission bits, as mv does (and an undo gives them back)', () => {
    const { dir } = rootWith({ 'run.sh': '#!/bin/sh\necho hi\n' });
    fs.chmodSync(path.join(dir, 'run.sh'), 0o750);
    expect(apply(dir, '*** Update File: run.sh\n*** Move to: bin/run.sh\n').status).toBe(0);
    expect(fs.statSync(path.join(dir, 'bin/run.sh')).mode & 0o7777).toBe(0o750);
    expect(run(['undo'], dir).status).toBe(0);
    expect(fs.statSync(path.join(dir, 'run.sh')).mode & 0o7777).toBe(0o750);
  });

  it('refuses an Add of an existing file (exit 3) unless --force, and a Move onto one', () => {
    const { dir, lids } = rootWith({ 'a.txt': numbered(2), 'b.txt': numbered(2) });
    expectRefused(dir, '*** Add File: a.txt\n+x\n', 3, /^rt: patch line 1: a\.txt exists already; nothing was written/);
    expectRefused(
      dir,
      `*** Update File: a.txt\n*** Move to: b.txt\n@@ edit ${lids['a.txt']![0]}\n+x\n`,
      3,
      /^rt: patch line 1: b\.txt exists already: a\.txt is not moved onto it/,
    );
    const r = apply(dir, '*** Add File: a.txt\n+x\n', ['--force']);
    expect(r.status, r.text).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('replaced a.txt: 1-2 → 1-1 (-1)');
    expect(read(dir, 'a.txt')).toBe('x\n');
  });

  it('refuses a Delete of a missing or binary file (exit 4), and a file named twice (exit 2)', () => {
    const { dir } = rootWith({ 'a.txt': numbered(2) });
    write(dir, 'bin.dat', Buffer.from([0, 1, 2, 3]));
    expectRefused(
      dir,
      '*** Delete File: a.txt\n*** Delete File: nope.txt\n',
      4,
      /^rt: patch line 2: no such file: nope\.txt/,
    );
    expectRefused(dir, '*** Delete File: bin.dat\n', 4, /^rt: patch line 1: bin\.dat looks like a binary file/);
    expectRefused(
      dir,
      '*** Delete File: a.txt\n*** Update File: ./a.txt\n@@ insert before $\n+x\n',
      2,
      /^rt: patch line 2: a\.txt is named again \(first at patch line 1\)/,
    );
  });

  it('refuses an Add File in a folder that is a file, leaving no folder an earlier Add File made', () => {
    const { dir } = rootWith({ 'f.txt': numbered(2) });
    expectRefused(
      dir,
      '*** Add File: n1/n2/h.txt\n+h\n*** Add File: f.txt/x.txt\n+x\n',
      4,
      /^rt: f\.txt is not a folder: f\.txt\/x\.txt cannot be made in it/,
    );
    expect(fs.existsSync(path.join(dir, 'n1'))).toBe(false);
  });

  it('refuses paths outside the root, by .. or by a link (exit 4)', () => {
    const { dir } = rootWith({ 'a.txt': numbered(2) });
    const outside = tempDir();
    write(outside, 'o.txt', 'outside\n');
    fs.symlinkSync(outside, path.join(dir, 'link'));
    expectRefused(dir, '*** Add File: ../x.txt\n+x\n', 4, /^rt: patch line 1: .*outside the root/);
    expectRefused(
      dir,
      '*** Update File: link/o.txt\n@@ insert before $\n+x\n',
      4,
      /^rt: patch line 1: .*outside the root/,
    );
    expectRefused(
      dir,
      `*** Update File: a.txt\n*** Move to: link/moved.txt\n@@ insert before $\n+x\n`,
      4,
      /^rt: patch line 2: .*outside the root/,
    );
    expect(fs.readdirSync(outside)).toEqual(['o.txt']);
  });
});

describe('rt apply: context hunks, as apply_patch writes them', () => {
  const code = 'function a() {\n  return 1;\n}\n\nfunction b() {\n  return 1;\n}\n';

  it('finds a hunk by its context after its @@ line, and keeps the LIDs of the context lines', () => {
    const { dir, lids } = rootWith({ 'c.js': code });
    const r = apply(
      dir,
      '*** Begin Patch\n*** Update File: c.js\n@@ function b() {\n function b() {\n-  return 1;\n+  return ' +
        '2;\n }\n*** End Patch\n',
    );
    expect(r.status, r.text).toBe(0);
    expect(read(dir, 'c.js')).toBe(code.replace('b() {\n  return 1;', 'b() {\n  return 2;'));
    expect(r.stdout.split('\n')[0]).toBe('edited c.js: 6-6 → 6-6 (+0)');
    const w = openWindow(dir, 'c.js');
    expect(w.lidAt(5)).toBe(lids['c.js']![4]);
    expect(w.lidAt(7)).toBe(lids['c.js']![6]);
  });

  it('needs no prior rt open: the rows it quotes count as shown', () => {
    const dir = tempRepo();
    write(dir, 'c.js', code);
    const r = apply(dir, '*** Update File: c.js\n@@\n function a() {\n-  return 1;\n+  return 0;\n');
    expect(r.status, r.text).toBe(0);
    expect(read(dir, 'c.js')).toContain('function a() {\n  return 0;\n}');
  });

  it("tolerates trailing, then surrounding whitespace; keeps the file's CRLF and tabs", () => {
    const { dir } = rootWith({ 't.py': 'def f():\r\n\tx = 1   \r\n\treturn x\r\n' });
    const r = apply(dir, '*** Update File: t.py\n@@\n   x = 1\n-  return x\n+\treturn x + 1\n');
    expect(r.status, r.text).toBe(0);
    expect(read(dir, 't.py')).toBe('def f():\r\n\tx = 1   \r\n\treturn x + 1\r\n');
  });

  it('refuses a hunk found nowhere, or in two places, with the nearest candidates and their LIDs (exit 3)', () => {
    const { dir, lids } = rootWith({ 'c.js': code });
    const l = lids['c.js']!;
    expectRefused(
      dir,
      '*** Update File: c.js\n@@\n-  return 1;\n+  return 2;\n',
      3,
      new RegExp(
        `^rt: patch line 2: the hunk's context matches 2 places in c\\.js; nothing was written; they ` +
          `are:\\nrt:   2:${l[1]}\\|  return 1;\\nrt:   --\\nrt:   6:${l[5]}\\|  return 1;\\nrt: add context ` +
          `lines`,
      ),
    );
    expectRefused(
      dir,
      '*** Update File: c.js\n@@\n function a() {\n-  return 7;\n',
      3,
      new RegExp(
        `^rt: patch line 2: the hunk's context and removed lines match nowhere in c\\.js; nothing was ` +
          `written; nearest:\\nrt:   1:${l[0]}\\|function a\\(\\) \\{\\nrt:   2:${l[1]}\\|  return 1;\\nrt: ` +
          `see the lines as they are now: rt open c\\.js:1\\n`,
      ),
    );
  });

  it('appends a hunk of + rows alone, and anchors *** End of File at the end', () => {
    const { dir } = rootWith({ 'e.txt': 'x\ny\nx\n' });
    expect(apply(dir, '*** Update File: e.txt\n@@\n+z\n').status).toBe(0);
    expect(read(dir, 'e.txt')).toBe('x\ny\nx\nz\n');
    const r = apply(dir, '*** Update File: e.txt\n@@\n x\n-z\n+Z\n*** End of File\n');
    expect(r.status, r.text).toBe(0);
    expect(read(dir, 'e.txt')).toBe('x\ny\nx\nZ\n');
  });
});

describe('rt apply: malformed patches (exit 2, the patch line named, nothing written)', () => {
  const { dir } = rootWith({ 'a.txt': numbered(3) });
  it.each([
    ['no file header', '@@ insert before $\n+x\n', /^rt: patch line 1: /],
    ['a text row without +', '*** Update File: a.txt\n@@ insert before $\nx\n', /^rt: patch line 3: .*\+/],
    ['an unknown *** line', '*** Update File: a.txt\n*** Frobnicate\n', /^rt: patch line 2: .*\*\*\*/],
    ['a hunk before any file', '*** Begin Patch\n@@\n-x\n', /^rt: patch line 2: /],
    ['an empty patch', '*** Begin Patch\n*** End Patch\n', /^rt: /],
    ['an uppercase LID', '*** Update File: a.txt\n@@ edit KQ3F\n+x\n', /^rt: patch line 2: LIDs are lowercase/],
    [
      'a unified diff',
      'diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-line 1\n+LINE 1\n',
      /^rt: patch line 1: this looks like a unified diff .*\nrt: write each file as \*\*\* Update File: PATH/,
    ],
  ])('%s', (_name, patch, message) => {
    expectRefused(dir, patch, 2, message);
  });

  it('refuses an empty stdin, showing the heredoc form', () => {
    expectRun(apply(dir, ''), {
      status: 2,
      stdout: '',
      stderr: /^rt: standard input is empty: no patch to apply\nrt: give the patch as a quoted heredoc:/,
    });
  });

  it('reads the patch from a file, and a 10 MB patch all the same', () => {
    const big =
      `*** Add File: ` +
      `big.txt\n${'+0123456789012345678901234567890123456789012345678901234567890123456789\n'.repeat(150_000)}`;
    expect(big.length).toBeGreaterThan(10_000_000);
    fs.writeFileSync(path.join(dir, 'big.patch'), big);
    const r = run(['apply', 'big.patch'], dir);
    expect(r.status, r.text.slice(0, 2000)).toBe(0);
    expect(fs.statSync(path.join(dir, 'big.txt')).size).toBe(150_000 * 71);
  });
});

describe('rt apply: --dry-run, --diff, --json, RT_READONLY', () => {
  it('--dry-run prints the diffs of every file and writes nothing; --json says the same', () => {
    const { dir, lids } = rootWith({ 'a.txt': numbered(3) });
    const patch = `*** Update File: a.txt\n@@ edit ${lids['a.txt']![1]}\n+TWO\n*** Add File: n.txt\n+new\n`;
    const before = tree(dir);
    expectRun(apply(dir, patch, ['--dry-run']), {
      status: 0,
      stdout:
        '--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n line 1\n-line 2\n+TWO\n line 3\n--- /dev/null\n+++ ' +
        'b/n.txt\n@@ -0,0 +1,1 @@\n+new\n',
      stderr: 'rt: dry run: nothing written to a.txt, n.txt\n',
    });
    const j = apply(dir, patch, ['--dry-run', '--json']);
    expect(JSON.parse(j.stdout)).toEqual({
      command: 'apply',
      written: false,
      dryRun: true,
      files: [
        { path: 'a.txt', verb: 'edited', diff: expect.stringContaining('+TWO') },
        { path: 'n.txt', verb: 'created', diff: expect.stringContaining('+new') },
      ],
    });
    expect(tree(dir)).toEqual(before);
    const ro = apply(dir, patch, [], { RT_READONLY: '1' });
    expectRun(ro, {
      status: 4,
      stdout: '',
      stderr: /^rt: RT_READONLY is set: rt writes no files \(not writing a\.txt, n\.txt\)/,
    });
    expect(tree(dir)).toEqual(before);
  });

  it('--json prints one document with every file', () => {
    const { dir, lids } = rootWith({ 'a.txt': numbered(3) });
    const r = apply(dir, `*** Update File: a.txt\n@@ edit ${lids['a.txt']![1]}\n+TWO\n`, ['--json']);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({
      command: 'apply',
      written: true,
      files: [
        {
          path: 'a.txt',
          verb: 'edited',
          delta: 0,
          changes: [{ old: { start: 2, count: 1 }, new: { start: 2, count: 1 } }],
        },
      ],
    });
    expect(doc.files[0].windows[0].lines.map((l: { text: string }) => l.text)).toEqual(['line 1', 'TWO', 'line 3']);
  });
});

describe('rt apply: a batch killed midway is finished by the next command', () => {
  it('completes a committed journal (new contents beside the files), and says so', () => {
    const { dir } = rootWith({ 'a.txt': 'old a\n', 'b.txt': 'old b\n' });
    const st = (rel: string) => {
      const s = fs.lstatSync(path.join(dir, rel));
      return { size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs, ino: s.ino };
    };
    // What a batch killed right after its commit point leaves: a.txt replaced already, b.txt not yet.
    const tb = path.join(dir, '.b.txt.rt-batch-x1x1x1x1x1');
    fs.writeFileSync(tb, 'new b\n');
    const journal = {
      format: 'rt-journal',
      version: 1,
      owner: { pid: 2 ** 22 + 7, host: require('node:os').hostname() },
      command: 'rt apply',
      entries: [
        {
          abs: path.join(dir, 'a.txt'),
          display: 'a.txt',
          temp: path.join(dir, '.a.txt.rt-batch-x1x1x1x1x1'),
          expected: st('a.txt'),
          overwrite: false,
        },
        { abs: path.join(dir, 'b.txt'), display: 'b.txt', temp: tb, expected: st('b.txt'), overwrite: false },
        { abs: path.join(dir, 'c.txt'), display: 'c.txt', temp: null, expected: null, overwrite: false },
      ],
    };
    fs.writeFileSync(path.join(dir, 'a.txt'), 'new a\n');
    fs.mkdirSync(path.join(dir, '.rt/journal'), { recursive: true });
    fs.writeFileSync(path.join(dir, '.rt/journal/x1.json'), JSON.stringify(journal));
    const r = run(['open', 'a.txt'], dir);
    expect(r.status, r.text).toBe(0);
    expect(r.stderr).toBe(
      'rt: finished a batch (rt apply) that an rt process killed midway had committed: wrote b.txt (2 more ' +
        'written before the kill)\n',
    );
    expect(read(dir, 'a.txt')).toBe('new a\n');
    expect(read(dir, 'b.txt')).toBe('new b\n');
    expect(fs.existsSync(tb)).toBe(false);
    expect(fs.existsSync(path.join(dir, '.rt/journal'))).toBe(false);
    expect(run(['open', 'a.txt'], dir).stderr).toBe('');
  });

  it('undoes a draft journal: its temporary files go, the files stay as they were', () => {
    const { dir } = rootWith({ 'a.txt': 'old a\n' });
    const ta = path.join(dir, '.a.txt.rt-batch-y1y1y1y1y1');
    fs.writeFileSync(ta, 'new a\n');
    fs.mkdirSync(path.join(dir, '.rt/journal'), { recursive: true });
    fs.writeFileSync(
      path.join(dir, '.rt/journal/y1.draft'),
      JSON.stringify({
        format: 'rt-journal',
        version: 1,
        owner: { pid: 2 ** 22 + 7, host: require('node:os').hostname() },
        command: 'rt apply',
        entries: [{ abs: path.join(dir, 'a.txt'), display: 'a.txt', temp: ta, expected: null, overwrite: false }],
      }),
    );
    const r = run(['grep', 'old'], dir);
    expect(r.status, r.text).toBe(0);
    expect(r.stderr).toBe(
      'rt: undid a batch (rt apply) that an rt process was killed before committing: none of its files had ' +
        'been written\n',
    );
    expect(read(dir, 'a.txt')).toBe('old a\n');
    expect(fs.existsSync(ta)).toBe(false);
  });

  it('sets a damaged journal aside, acting on nothing in it', () => {
    const { dir } = rootWith({ 'a.txt': 'a\n' });
    fs.mkdirSync(path.join(dir, '.rt/journal'), { recursive: true });
    fs.writeFileSync(path.join(dir, '.rt/journal/z1.json'), '{"format":"rt-journal","vers');
    const r = run(['open', 'a.txt'], dir);
    expect(r.status, r.text).toBe(0);
    expect(r.stderr).toMatch(/^rt: set aside a damaged batch journal \(z1\.json\)/);
    expect(read(dir, 'a.txt')).toBe('a\n');
  });
});
