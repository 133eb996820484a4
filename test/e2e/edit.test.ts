// End-to-end tests of the editing commands (`rt edit`, `rt insert`, `rt delete`, `rt create`;
// the text from stdin, what an edit prints, bytes and safety): the built binary, run in
// fresh temporary directories, checking stdout, stderr, exit status and the bytes on disk.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  cleanup,
  expectLids,
  expectRun,
  numbered,
  parseWindow,
  range,
  run,
  snapshot,
  tempDir,
  tempRepo,
  tree,
  unprivileged,
  windowText,
  write,
  type ParsedWindow,
  type Ran,
  lines,
  text,
  withFile,
  openWindow,
} from './harness.js';

afterAll(cleanup);

/** The window printed after an edit's one-line summary (and before any diff). */
function reportWindow(r: Ran): ParsedWindow {
  const [, ...rest] = r.stdout.split('\n');
  return parseWindow({ ...r, stdout: rest.join('\n') });
}

/**
 * Asserts an edit's whole stdout: the summary line, then the window of lines start..end of
 * `total` holding `contents` (LIDs as printed, checked for shape and uniqueness), then `after`
 * (a diff, or nothing). Returns the window's LIDs.
 */
function expectReport(
  r: Ran,
  summary: string,
  display: string,
  total: number,
  start: number,
  end: number,
  contents: readonly string[],
  after = '',
): ParsedWindow {
  const w = reportWindow(r);
  expectRun(r, {
    status: 0,
    stdout: `${summary}\n${windowText(display, total, start, end, w.lids, contents)}${after}`,
    stderr: '',
  });
  expectLids(w.lids, r);
  return w;
}

/** A refused command: `status`, nothing on stdout, `rt: ` lines on stderr matching `stderr`. */
function expectRefused(r: Ran, status: number, stderr: RegExp): void {
  expectRun(r, { status, stdout: '', stderr });
}

describe('rt edit: replacing lines with the text on stdin', () => {
  it('replaces exactly the line named by its LID, reports it and prints the region with fresh LIDs', () => {
    const { dir, file } = withFile(10);
    const w = openWindow(dir, 'f.txt');
    const r = run(['edit', 'f.txt', w.lidAt(2)], dir, { input: 'new\n' });
    const after = expectReport(r, 'edited f.txt: 2-2 → 2-2 (+0)', 'f.txt', 10, 1, 5, [
      'line 1',
      'new',
      'line 3',
      'line 4',
      'line 5',
    ]);
    expect(fs.readFileSync(file, 'utf8')).toBe(text(['line 1', 'new', ...lines(3, 10)]));
    // Unchanged lines keep their LIDs; the changed line has a new one, never seen before.
    expect([after.lidAt(1), after.lidAt(3), after.lidAt(4), after.lidAt(5)], r.text).toEqual([
      w.lidAt(1),
      w.lidAt(3),
      w.lidAt(4),
      w.lidAt(5),
    ]);
    expect(w.lids, r.text).not.toContain(after.lidAt(2));
  });

  it('replaces one line by several: edited f.txt: 2-2 → 2-3 (+1)', () => {
    const { dir, file } = withFile(10);
    const w = openWindow(dir, 'f.txt');
    const r = run(['edit', 'f.txt', w.lidAt(2)], dir, { input: 'a\nb\n' });
    const after = expectReport(r, 'edited f.txt: 2-2 → 2-3 (+1)', 'f.txt', 11, 1, 6, [
      'line 1',
      'a',
      'b',
      'line 3',
      'line 4',
      'line 5',
    ]);
    expect(fs.readFileSync(file, 'utf8')).toBe(text(['line 1', 'a', 'b', ...lines(3, 10)]));
    expect(after.lidAt(4), r.text).toBe(w.lidAt(3));
    expect(new Set([after.lidAt(2), after.lidAt(3), ...w.lids]).size, r.text).toBe(w.lids.length + 2);
  });

  it('replaces a range FROM..TO (LIDs) with fewer lines, with 3 lines of context each side', () => {
    const { dir, file } = withFile(20);
    const w = openWindow(dir, 'f.txt');
    const r = run(['edit', 'f.txt', w.lidAt(5), w.lidAt(8)], dir, { input: 'x\n' });
    const after = expectReport(r, 'edited f.txt: 5-8 → 5-5 (-3)', 'f.txt', 17, 2, 8, [
      'line 2',
      'line 3',
      'line 4',
      'x',
      'line 9',
      'line 10',
      'line 11',
    ]);
    expect(fs.readFileSync(file, 'utf8')).toBe(text([...lines(1, 4), 'x', ...lines(9, 20)]));
    expect(after.lidAt(6), r.text).toBe(w.lidAt(9));
  });

  it('accepts NUMBER:LID anchors and $ as TO (the last line)', () => {
    const { dir, file } = withFile(10);
    const w = openWindow(dir, 'f.txt');
    const r = run(['edit', 'f.txt', `8:${w.lidAt(8)}`, '$'], dir, { input: 'tail\n' });
    expectReport(r, 'edited f.txt: 8-10 → 8-8 (-2)', 'f.txt', 8, 5, 8, ['line 5', 'line 6', 'line 7', 'tail']);
    expect(fs.readFileSync(file, 'utf8')).toBe(text([...lines(1, 7), 'tail']));
  });

  it('takes the text byte for byte with exactly one trailing newline removed', () => {
    const { dir, file } = withFile(6);
    const w = openWindow(dir, 'f.txt');
    // Trailing blank line kept, tabs and spaces kept.
    let r = run(['edit', 'f.txt', w.lidAt(2)], dir, { input: '  indented\t \n\n' });
    expect(r.status, r.text).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toBe(text(['line 1', '  indented\t ', '', ...lines(3, 6)]));
    // No trailing newline at all: the text is the line.
    r = run(['edit', 'f.txt', w.lidAt(4)], dir, { input: 'no newline' });
    expect(r.status, r.text).toBe(0);
    // A lone newline is one empty line, not "no text".
    r = run(['edit', 'f.txt', w.lidAt(5)], dir, { input: '\n' });
    expect(r.status, r.text).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toBe(
      text(['line 1', '  indented\t ', '', 'line 3', 'no newline', '', 'line 6']),
    );
  });
});

describe('rt insert', () => {
  it('inserts before the line AT', () => {
    const { dir, file } = withFile(10);
    const w = openWindow(dir, 'f.txt');
    const r = run(['insert', 'f.txt', w.lidAt(4)], dir, { input: 'new a\nnew b\n' });
    const after = expectReport(r, 'inserted f.txt: 4-5 (+2)', 'f.txt', 12, 1, 8, [
      'line 1',
      'line 2',
      'line 3',
      'new a',
      'new b',
      'line 4',
      'line 5',
      'line 6',
    ]);
    expect(fs.readFileSync(file, 'utf8')).toBe(text([...lines(1, 3), 'new a', 'new b', ...lines(4, 10)]));
    expect(after.lidAt(6), r.text).toBe(w.lidAt(4));
  });

  it('inserts after the line AT with --after', () => {
    const { dir, file } = withFile(10);
    const w = openWindow(dir, 'f.txt');
    const r = run(['insert', 'f.txt', w.lidAt(4), '--after'], dir, { input: 'after 4\n' });
    expectReport(r, 'inserted f.txt: 5-5 (+1)', 'f.txt', 11, 2, 8, [
      'line 2',
      'line 3',
      'line 4',
      'after 4',
      'line 5',
      'line 6',
      'line 7',
    ]);
    expect(fs.readFileSync(file, 'utf8')).toBe(text([...lines(1, 4), 'after 4', ...lines(5, 10)]));
  });

  it("appends with '$' (and with end), without any view of the file", () => {
    const { dir, file } = withFile(10);
    let r = run(['insert', 'f.txt', '$'], dir, { input: 'appended\n' });
    expectReport(r, 'inserted f.txt: 11-11 (+1)', 'f.txt', 11, 8, 11, ['line 8', 'line 9', 'line 10', 'appended']);
    r = run(['insert', 'f.txt', 'end'], dir, { input: 'and more\nand more\n' });
    expectReport(r, 'inserted f.txt: 12-13 (+2)', 'f.txt', 13, 9, 13, [
      'line 9',
      'line 10',
      'appended',
      'and more',
      'and more',
    ]);
    expect(fs.readFileSync(file, 'utf8')).toBe(text([...lines(1, 10), 'appended', 'and more', 'and more']));
  });

  it("appends to an empty file with '$'", () => {
    const dir = tempDir();
    const file = write(dir, 'empty.txt', '');
    const r = run(['insert', 'empty.txt', '$'], dir, { input: 'first\n' });
    expectReport(r, 'inserted empty.txt: 1-1 (+1)', 'empty.txt', 1, 1, 1, ['first']);
    expect(fs.readFileSync(file, 'utf8')).toBe('first\n');
  });
});

describe('rt delete', () => {
  it('deletes the lines FROM..TO and prints the lines around the gap', () => {
    const { dir, file } = withFile(10);
    const w = openWindow(dir, 'f.txt');
    const r = run(['delete', 'f.txt', w.lidAt(3), w.lidAt(5)], dir);
    const after = expectReport(r, 'deleted f.txt: 3-5 (-3)', 'f.txt', 7, 1, 5, [
      'line 1',
      'line 2',
      'line 6',
      'line 7',
      'line 8',
    ]);
    expect(fs.readFileSync(file, 'utf8')).toBe(text([...lines(1, 2), ...lines(6, 10)]));
    expect(after.lids, r.text).toEqual([w.lidAt(1), w.lidAt(2), w.lidAt(6), w.lidAt(7), w.lidAt(8)]);
  });

  it('deletes one line when TO is left out', () => {
    const { dir, file } = withFile(10);
    const w = openWindow(dir, 'f.txt');
    const r = run(['delete', 'f.txt', `7:${w.lidAt(7)}`], dir);
    expectReport(r, 'deleted f.txt: 7-7 (-1)', 'f.txt', 9, 4, 9, [
      'line 4',
      'line 5',
      'line 6',
      'line 8',
      'line 9',
      'line 10',
    ]);
    expect(fs.readFileSync(file, 'utf8')).toBe(text([...lines(1, 6), ...lines(8, 10)]));
  });

  it('ignores stdin', () => {
    const { dir, file } = withFile(5);
    const w = openWindow(dir, 'f.txt');
    const r = run(['delete', 'f.txt', w.lidAt(1)], dir, { input: 'ignored\n' });
    expect(r.status, r.text).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toBe(text(lines(2, 5)));
  });
});

describe('a large change', () => {
  it('prints at most 200 new lines and says on stderr how to see the rest', () => {
    const { dir, file } = withFile(5);
    const input = text(range(1, 250).map((k) => `new ${k}`));
    const r = run(['insert', 'f.txt', '$'], dir, { input });
    expectRun(r, {
      status: 0,
      stdout: /^inserted f\.txt: 6-255 \(\+250\)\n--- f\.txt \(lines 3-\d+ of 255\) ---\n/,
      stderr: /^rt: .*not shown.*rt open f\.txt:\d+-255\n$/,
    });
    const w = reportWindow(r);
    expect(w.lines.length, r.text).toBeGreaterThanOrEqual(200);
    expect(fs.readFileSync(file, 'utf8')).toBe(numbered(5) + input);
  });
});

describe('rt create', () => {
  it('creates the file and its parent folders, and prints it with LIDs that can be edited at once', () => {
    const dir = tempDir();
    const r = run(['create', 'dir/sub/new.txt'], dir, { input: 'a\nb\n' });
    const w = expectReport(r, 'created dir/sub/new.txt: 1-2 (+2)', 'dir/sub/new.txt', 2, 1, 2, ['a', 'b']);
    const file = path.join(dir, 'dir/sub/new.txt');
    expect(fs.readFileSync(file, 'utf8')).toBe('a\nb\n');
    // The printed file counts as shown: its LIDs (and line numbers) can be used right away.
    const e = run(['edit', 'dir/sub/new.txt', w.lidAt(2)], dir, { input: 'B\n' });
    expect(e.status, e.text).toBe(0);
    const d = run(['delete', 'dir/sub/new.txt', '1'], dir);
    expect(d.status, d.text).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toBe('B\n');
  });

  it('refuses an existing file (exit 3), leaving it byte-identical, and says how to replace it', () => {
    const { dir, file } = withFile(3);
    const before = snapshot(file);
    const r = run(['create', 'f.txt'], dir, { input: 'other\n' });
    expectRefused(r, 3, /^rt: .*f\.txt.*exist[\s\S]*--force/);
    expect(snapshot(file)).toEqual(before);
  });

  it('replaces an existing file with --force', () => {
    const { dir, file } = withFile(3);
    const r = run(['create', '--force', 'f.txt'], dir, { input: 'other\n' });
    expectReport(r, 'replaced f.txt: 1-3 → 1-1 (-2)', 'f.txt', 1, 1, 1, ['other']);
    expect(fs.readFileSync(file, 'utf8')).toBe('other\n');
  });
});

describe('empty stdin is refused with the heredoc form', () => {
  const cases: Array<[string, (lid: string) => string[], RegExp]> = [
    ['edit', (lid) => ['edit', 'f.txt', lid], /rt edit f\.txt [0-9a-z]{4} <<'EOF'/],
    ['insert', (lid) => ['insert', 'f.txt', lid], /rt insert f\.txt [0-9a-z]{4} <<'EOF'/],
    ['insert $', () => ['insert', 'f.txt', '$'], /rt insert f\.txt '\$' <<'EOF'/],
  ];
  for (const [name, args, form] of cases) {
    it(`rt ${name}: exit 2, the file unchanged`, () => {
      const { dir, file } = withFile(5);
      const w = openWindow(dir, 'f.txt');
      const before = snapshot(file);
      const state = tree(dir);
      const r = run(args(w.lidAt(2)), dir, { input: '' });
      expectRefused(r, 2, /^rt: [\s\S]*<<'EOF'/);
      expect(r.stderr, r.text).toMatch(form);
      expect(snapshot(file)).toEqual(before);
      expect(tree(dir), 'nothing written, not even state').toEqual(state);
    });
  }

  it('rt create: exit 2, neither the file nor its folders are made', () => {
    const dir = tempDir();
    const r = run(['create', 'sub/new.txt'], dir, { input: '' });
    expectRefused(r, 2, /^rt: [\s\S]*rt create sub\/new\.txt <<'EOF'/);
    expect(fs.existsSync(path.join(dir, 'sub')), r.text).toBe(false);
  });
});

describe('--diff, RT_DIFF and --dry-run', () => {
  const diff = [
    '--- a/f.txt',
    '+++ b/f.txt',
    '@@ -2,7 +2,8 @@',
    ' line 2',
    ' line 3',
    ' line 4',
    '-line 5',
    '+five',
    '+five and a half',
    ' line 6',
    ' line 7',
    ' line 8',
    '',
  ].join('\n');
  const region = ['line 2', 'line 3', 'line 4', 'five', 'five and a half', 'line 6', 'line 7', 'line 8'];
  const edited = text([...lines(1, 4), 'five', 'five and a half', ...lines(6, 10)]);

  it('--diff appends a unified diff of the change after the region', () => {
    const { dir, file } = withFile(10);
    const w = openWindow(dir, 'f.txt');
    const r = run(['edit', 'f.txt', w.lidAt(5), '--diff'], dir, { input: 'five\nfive and a half\n' });
    expectReport(r, 'edited f.txt: 5-5 → 5-6 (+1)', 'f.txt', 11, 2, 9, region, diff);
    expect(fs.readFileSync(file, 'utf8')).toBe(edited);
  });

  it('RT_DIFF=1 does the same as --diff; RT_DIFF=0 does not', () => {
    const { dir, file } = withFile(10);
    const w = openWindow(dir, 'f.txt');
    const r = run(['edit', 'f.txt', w.lidAt(5)], dir, { input: 'five\nfive and a half\n', env: { RT_DIFF: '1' } });
    expectReport(r, 'edited f.txt: 5-5 → 5-6 (+1)', 'f.txt', 11, 2, 9, region, diff);
    expect(fs.readFileSync(file, 'utf8')).toBe(edited);
    const w2 = reportWindow(r);
    const r2 = run(['edit', 'f.txt', w2.lidAt(5)], dir, { input: 'FIVE\n', env: { RT_DIFF: '0' } });
    expect(r2.status, r2.text).toBe(0);
    expect(r2.stdout, r2.text).not.toMatch(/^(--- a\/|\+\+\+ b\/|@@ )/m);
  });

  it('the diff is a valid patch: applied to the old file it gives the new one', () => {
    const { dir, file } = withFile(30);
    const w = openWindow(dir, 'f.txt');
    const old = fs.readFileSync(file);
    const r = run(['delete', 'f.txt', w.lidAt(10), w.lidAt(14), '--diff'], dir);
    expect(r.status, r.text).toBe(0);
    const patchText = r.stdout.slice(r.stdout.indexOf('--- a/f.txt'));
    const work = tempDir();
    fs.writeFileSync(path.join(work, 'f.txt'), old);
    const p = spawnSync('patch', ['-p1', '--quiet', '--no-backup-if-mismatch'], { cwd: work, input: patchText });
    if (p.error) return; // no patch(1) here
    expect(p.status, `${p.stdout}${p.stderr}\n${r.text}`).toBe(0);
    expect(fs.readFileSync(path.join(work, 'f.txt')).equals(fs.readFileSync(file)), r.text).toBe(true);
  });

  // Each line keeps its \r in the diff, as in git diff, or patch refuses ("different line endings").
  it('the diff of a CRLF file is a valid patch of it', () => {
    const dir = tempDir();
    const file = write(dir, 'c.txt', 'a\r\nb\r\nc\r\nd\r\n');
    const w = openWindow(dir, 'c.txt');
    const old = fs.readFileSync(file);
    const r = run(['edit', 'c.txt', w.lidAt(2), '--diff'], dir, { input: 'B\n' });
    expect(r.status, r.text).toBe(0);
    expect(fs.readFileSync(file).toString('latin1')).toBe('a\r\nB\r\nc\r\nd\r\n');
    const patchText = r.stdoutBytes.subarray(r.stdoutBytes.indexOf('--- a/c.txt'));
    const work = tempDir();
    fs.writeFileSync(path.join(work, 'c.txt'), old);
    const p = spawnSync('patch', ['-p1', '--quiet', '--no-backup-if-mismatch', '-r', '-'], {
      cwd: work,
      input: patchText,
    });
    if (p.error) throw p.error;
    expect(p.status, `${p.stdout}${p.stderr}\n${r.text}`).toBe(0);
    expect(fs.readFileSync(path.join(work, 'c.txt')).equals(fs.readFileSync(file)), r.text).toBe(true);
  });

  it('the diff of a file starting with a BOM keeps it on line 1, so that it applies (git apply refused it)', () => {
    const dir = tempDir();
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const file = write(dir, 'b.txt', Buffer.concat([bom, Buffer.from('first\nsecond\nthird\n')]));
    const old = fs.readFileSync(file);
    const w = openWindow(dir, 'b.txt');
    const r = run(['edit', 'b.txt', w.lidAt(1), '--diff'], dir, { input: 'FIRST\n' });
    expect(r.status, r.text).toBe(0);
    expect(fs.readFileSync(file).equals(Buffer.concat([bom, Buffer.from('FIRST\nsecond\nthird\n')]))).toBe(true);
    const patchText = r.stdoutBytes.subarray(r.stdoutBytes.indexOf('--- a/b.txt'));
    expect(
      patchText.includes(Buffer.concat([Buffer.from('-'), bom, Buffer.from('first\n+'), bom, Buffer.from('FIRST\n')])),
      r.text,
    ).toBe(true);
    const work = tempRepo();
    fs.writeFileSync(path.join(work, 'b.txt'), old);
    const p = spawnSync('git', ['apply', '-'], { cwd: work, input: patchText });
    expect(p.status, `${p.stdout}${p.stderr}\n${r.text}`).toBe(0);
    expect(fs.readFileSync(path.join(work, 'b.txt')).equals(fs.readFileSync(file)), r.text).toBe(true);
  });

  it('--dry-run prints the diff and leaves the file byte-identical, mtime and inode unchanged', () => {
    const { dir, file } = withFile(10);
    const w = openWindow(dir, 'f.txt');
    const before = snapshot(file);
    const r = run(['edit', 'f.txt', w.lidAt(5), '--dry-run'], dir, { input: 'five\nfive and a half\n' });
    expectRun(r, { status: 0, stdout: diff, stderr: /^rt: .*dry run/ });
    expect(snapshot(file)).toEqual(before);
    // Nothing changed, so the LID is still good for the real edit.
    const r2 = run(['edit', 'f.txt', w.lidAt(5)], dir, { input: 'five\nfive and a half\n' });
    expectReport(r2, 'edited f.txt: 5-5 → 5-6 (+1)', 'f.txt', 11, 2, 9, region);
    expect(fs.readFileSync(file, 'utf8')).toBe(edited);
  });

  it('the same text again: says so, and leaves the file as it was (mtime and inode too)', () => {
    const { dir, file } = withFile(10);
    const w = openWindow(dir, 'f.txt');
    const before = snapshot(file);
    const r = run(['edit', 'f.txt', w.lidAt(5), w.lidAt(6)], dir, { input: 'line 5\nline 6\n' });
    expectRun(r, {
      status: 0,
      stdout: /^edited f\.txt: 5-6 → 5-6 \(\+0\)\n/,
      stderr: 'rt: f.txt is unchanged: the new text is the same as the old\n',
    });
    expect(snapshot(file)).toEqual(before);
    expect(r.stdout).toMatch(/^5:[0-9a-z]+\|line 5$/m);
  });

  it('--dry-run of insert, delete and create writes nothing', () => {
    const { dir, file } = withFile(10);
    const w = openWindow(dir, 'f.txt');
    const before = snapshot(file);
    const ins = run(['insert', 'f.txt', '$', '--dry-run'], dir, { input: 'x\n' });
    expectRun(ins, {
      status: 0,
      stdout: ['--- a/f.txt', '+++ b/f.txt', '@@ -8,3 +8,4 @@', ' line 8', ' line 9', ' line 10', '+x', ''].join('\n'),
      stderr: /^rt: .*dry run/,
    });
    const del = run(['delete', 'f.txt', w.lidAt(1), '--dry-run'], dir);
    expectRun(del, {
      status: 0,
      stdout: ['--- a/f.txt', '+++ b/f.txt', '@@ -1,4 +1,3 @@', '-line 1', ' line 2', ' line 3', ' line 4', ''].join(
        '\n',
      ),
      stderr: /^rt: .*dry run/,
    });
    expect(snapshot(file)).toEqual(before);
    const cr = run(['create', 'new/n.txt', '--dry-run'], dir, { input: 'n\n' });
    expectRun(cr, {
      status: 0,
      stdout: /^--- a\/new\/n\.txt\n\+\+\+ b\/new\/n\.txt\n@@ .* @@\n\+n\n$/,
      stderr: /^rt: .*dry run/,
    });
    expect(fs.existsSync(path.join(dir, 'new')), cr.text).toBe(false);
  });
});

describe('RT_READONLY=1', () => {
  it('refuses every edit with exit 4 and writes nothing, to the file or to the state', () => {
    const { dir, file } = withFile(10);
    const w = openWindow(dir, 'f.txt');
    const before = snapshot(file);
    const state = tree(dir);
    const env = { RT_READONLY: '1' };
    for (const [args, input] of [
      [['edit', 'f.txt', w.lidAt(2)], 'x\n'],
      [['insert', 'f.txt', '$'], 'x\n'],
      [['insert', 'f.txt', w.lidAt(2), '--after'], 'x\n'],
      [['delete', 'f.txt', w.lidAt(2), w.lidAt(4)], ''],
      [['create', 'g/new.txt'], 'x\n'],
      [['create', '--force', 'f.txt'], 'x\n'],
    ] as Array<[string[], string]>) {
      const r = run(args, dir, { input, env });
      expectRefused(r, 4, /^rt: .*RT_READONLY/);
    }
    expect(snapshot(file)).toEqual(before);
    expect(tree(dir), 'nothing written').toEqual(state);
  });

  it('--dry-run still works under it', () => {
    const { dir, file } = withFile(10);
    const w = openWindow(dir, 'f.txt');
    const before = snapshot(file);
    const r = run(['edit', 'f.txt', w.lidAt(2), '--dry-run'], dir, { input: 'two\n', env: { RT_READONLY: '1' } });
    expectRun(r, {
      status: 0,
      stdout: [
        '--- a/f.txt',
        '+++ b/f.txt',
        '@@ -1,5 +1,5 @@',
        ' line 1',
        '-line 2',
        '+two',
        ' line 3',
        ' line 4',
        ' line 5',
        '',
      ].join('\n'),
      stderr: /^rt: .*dry run/,
    });
    const c = run(['create', 'n.txt', '--dry-run'], dir, { input: 'n\n', env: { RT_READONLY: '1' } });
    expect(c.status, c.text).toBe(0);
    expect(fs.existsSync(path.join(dir, 'n.txt'))).toBe(false);
    expect(snapshot(file)).toEqual(before);
  });
});

// ---------------------------------------------------------------------------------------------
// Byte fidelity: every byte an edit did not touch stays as it was.

const b = (s: string) => Buffer.from(s, 'latin1');
/** A CRLF file with a BOM, tabs, a line of invalid UTF-8, one LF line and no final newline. */
const MIXED: Buffer[] = [
  b('\xef\xbb\xbffirst line\r\n'),
  b('\tindented\twith\ttabs\r\n'),
  b('\xff\xfe not utf-8 \x80\r\n'),
  b('middle line\r\n'),
  b('  spaces around  \r\n'),
  b('a bare LF line\n'),
  b('\t\r\n'),
  b('last line, no newline'),
];

function withMixed(mode?: number): { dir: string; file: string } {
  const dir = tempDir();
  const file = write(dir, 'm.txt', Buffer.concat(MIXED));
  if (mode !== undefined) fs.chmodSync(file, mode);
  return { dir, file };
}

function expectBytes(file: string, want: Buffer, r: Ran): void {
  const got = fs.readFileSync(file);
  expect(
    got.equals(want),
    `${r.text}\n--- want ${JSON.stringify(want.toString('latin1'))}\n--- got ` +
      ` ${JSON.stringify(got.toString('latin1'))}`,
  ).toBe(true);
}

describe('byte fidelity', () => {
  it('editing a middle line leaves every other byte identical; new lines end with \\r\\n', () => {
    const { dir, file } = withMixed();
    const w = openWindow(dir, 'm.txt');
    expect(w.total).toBe(8);
    const r = run(['edit', 'm.txt', w.lidAt(4)], dir, { input: 'replaced\nand \xe9 two\n' });
    expect(r.status, r.text).toBe(0);
    expectBytes(
      file,
      Buffer.concat([
        ...MIXED.slice(0, 3),
        b('replaced\r\n'),
        Buffer.from('and \xe9 two\r\n', 'utf8'),
        ...MIXED.slice(4),
      ]),
      r,
    );
  });

  it('the text on stdin is written byte for byte, invalid UTF-8 included', () => {
    const { dir, file } = withMixed();
    const w = openWindow(dir, 'm.txt');
    const r = run(['edit', 'm.txt', w.lidAt(5)], dir, { input: b('\xc3\x28 raw \xff bytes\t\n') });
    expect(r.status, r.text).toBe(0);
    expectBytes(file, Buffer.concat([...MIXED.slice(0, 4), b('\xc3\x28 raw \xff bytes\t\r\n'), ...MIXED.slice(5)]), r);
  });

  it('editing the last line keeps the missing final newline', () => {
    const { dir, file } = withMixed();
    const w = openWindow(dir, 'm.txt');
    const r = run(['edit', 'm.txt', w.lidAt(8)], dir, { input: 'new last\n' });
    expect(r.status, r.text).toBe(0);
    expectBytes(file, Buffer.concat([...MIXED.slice(0, 7), b('new last')]), r);
  });

  it('replacing the last line by several keeps the missing final newline', () => {
    const { dir, file } = withMixed();
    const w = openWindow(dir, 'm.txt');
    const r = run(['edit', 'm.txt', w.lidAt(8)], dir, { input: 'one\ntwo\n' });
    expect(r.status, r.text).toBe(0);
    expectBytes(file, Buffer.concat([...MIXED.slice(0, 7), b('one\r\ntwo')]), r);
  });

  it('deleting the last line keeps the missing final newline', () => {
    const { dir, file } = withMixed();
    const w = openWindow(dir, 'm.txt');
    const r = run(['delete', 'm.txt', w.lidAt(7), w.lidAt(8)], dir);
    expect(r.status, r.text).toBe(0);
    expectBytes(file, Buffer.concat([...MIXED.slice(0, 5), b('a bare LF line')]), r);
  });

  it("appending with '$' keeps the missing final newline and the other bytes", () => {
    const { dir, file } = withMixed();
    const r = run(['insert', 'm.txt', '$'], dir, { input: 'appended\n' });
    expect(r.status, r.text).toBe(0);
    expectBytes(file, Buffer.concat([...MIXED, b('\r\nappended')]), r);
  });

  it('inserting and deleting in the middle touch no other byte (BOM, tabs, LF line included)', () => {
    const { dir, file } = withMixed();
    const w = openWindow(dir, 'm.txt');
    let r = run(['insert', 'm.txt', w.lidAt(2)], dir, { input: 'before tabs\n' });
    expect(r.status, r.text).toBe(0);
    r = run(['delete', 'm.txt', w.lidAt(6)], dir);
    expect(r.status, r.text).toBe(0);
    expectBytes(file, Buffer.concat([MIXED[0]!, b('before tabs\r\n'), ...MIXED.slice(1, 5), ...MIXED.slice(6)]), r);
  });

  it('a plain LF file stays LF', () => {
    const { dir, file } = withFile(5);
    const w = openWindow(dir, 'f.txt');
    const r = run(['edit', 'f.txt', w.lidAt(3)], dir, { input: 'x\ny\n' });
    expect(r.status, r.text).toBe(0);
    expectBytes(file, b(text(['line 1', 'line 2', 'x', 'y', 'line 4', 'line 5'])), r);
  });

  it("new lines given with CRLF take the file's line ending: CRLF in a CRLF file, LF in an LF file", () => {
    const dir = tempDir();
    const crlf = write(dir, 'c.txt', 'a\r\nb\r\nc\r\n');
    const lf = write(dir, 'l.txt', 'a\nb\nc\n');
    const wc = openWindow(dir, 'c.txt');
    const wl = openWindow(dir, 'l.txt');
    let r = run(['edit', 'c.txt', wc.lidAt(2)], dir, { input: 'X\r\nY\r\n' });
    expect(r.status, r.text).toBe(0);
    expectBytes(crlf, b('a\r\nX\r\nY\r\nc\r\n'), r);
    r = run(['edit', 'l.txt', wl.lidAt(2)], dir, { input: 'X\r\nY\r\n' });
    expect(r.status, r.text).toBe(0);
    expectBytes(lf, b('a\nX\nY\nc\n'), r);
  });

  it('editing through a symbolic link edits the target and keeps the link', () => {
    const dir = tempDir();
    const real = write(dir, 'real.txt', numbered(5));
    fs.symlinkSync('real.txt', path.join(dir, 'link.txt'));
    const w = openWindow(dir, 'link.txt');
    const r = run(['edit', 'link.txt', w.lidAt(2)], dir, { input: 'two\n' });
    expect(r.status, r.text).toBe(0);
    expect(fs.lstatSync(path.join(dir, 'link.txt')).isSymbolicLink(), r.text).toBe(true);
    expect(fs.readFileSync(real, 'utf8')).toBe(text(['line 1', 'two', ...lines(3, 5)]));
  });

  // The write renames a temporary file over the target, which needs only the folder to be
  // writable: the file's own permission must still be honoured (exit 4, permission).
  it('refuses (exit 4) a file its user may not write, even in a writable folder', () => {
    const who = unprivileged();
    if (who === undefined) return; // running as root without a usable unprivileged user
    const dir = tempDir();
    const file = write(dir, 'ro.txt', numbered(5));
    if ('uid' in who) {
      fs.chownSync(dir, who.uid, who.gid);
      fs.chownSync(file, who.uid, who.gid);
    }
    fs.chmodSync(file, 0o444);
    const o = run(['open', 'ro.txt'], dir, who);
    expect(o.status, o.text).toBe(0);
    const before = snapshot(file);
    const r = run(['edit', 'ro.txt', parseWindow(o).lidAt(2)], dir, { ...who, input: 'x\n' });
    expectRefused(r, 4, /^rt: .*ro\.txt/);
    expect(snapshot(file)).toEqual(before);
  });

  for (const mode of [0o640, 0o755, 0o600]) {
    it(`keeps the file mode ${mode.toString(8)}`, () => {
      const { dir, file } = withMixed(mode);
      const w = openWindow(dir, 'm.txt');
      let r = run(['edit', 'm.txt', w.lidAt(4)], dir, { input: 'x\n' });
      expect(r.status, r.text).toBe(0);
      expect(fs.statSync(file).mode & 0o7777, r.text).toBe(mode);
      r = run(['insert', 'm.txt', '$'], dir, { input: 'y\n' });
      expect(r.status, r.text).toBe(0);
      expect(fs.statSync(file).mode & 0o7777, r.text).toBe(mode);
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Several edits from one read (every LID of an unchanged line stays valid)

describe('several edits from one read', () => {
  it('applies 8 edits, inserts and deletes top to bottom using only the LIDs of one open', () => {
    const n = 60;
    const dir = tempDir();
    const file = write(dir, 'code.txt', numbered(n, 'row '));
    const opened = run(['open', 'code.txt'], dir);
    const w = parseWindow(opened);
    expect(w.lines.length, opened.text).toBe(n);
    expectLids(w.lids, opened);
    const lid = (k: number) => w.lidAt(k);

    // The model: original row k is tracked by its identity, so positions follow the edits.
    type Row = { orig: number | null; text: string };
    let model: Row[] = range(1, n).map((k) => ({ orig: k, text: `row ${k}` }));
    const at = (k: number) => model.findIndex((r) => r.orig === k);
    const splice = (from: number, to: number, texts: string[]) => {
      const i = at(from);
      const j = at(to);
      model = [...model.slice(0, i), ...texts.map((t) => ({ orig: null, text: t })), ...model.slice(j + 1)];
    };
    const insertBefore = (k: number, texts: string[]) => {
      const i = at(k);
      model = [...model.slice(0, i), ...texts.map((t) => ({ orig: null, text: t })), ...model.slice(i)];
    };
    const insertAfter = (k: number, texts: string[]) => {
      const i = at(k) + 1;
      model = [...model.slice(0, i), ...texts.map((t) => ({ orig: null, text: t })), ...model.slice(i)];
    };

    const steps: Array<{ args: string[]; input?: string; apply: () => void }> = [
      { args: ['edit', 'code.txt', lid(3)], input: 'row three\n', apply: () => splice(3, 3, ['row three']) },
      {
        args: ['insert', 'code.txt', lid(8)],
        input: 'new A\nnew B\n',
        apply: () => insertBefore(8, ['new A', 'new B']),
      },
      { args: ['delete', 'code.txt', lid(12), lid(15)], apply: () => splice(12, 15, []) },
      {
        args: ['edit', 'code.txt', lid(20), lid(22)],
        input: 'twenty to twenty-two\n',
        apply: () => splice(20, 22, ['twenty to twenty-two']),
      },
      {
        args: ['insert', 'code.txt', lid(30), '--after'],
        input: 'after thirty\n\tindented\n',
        apply: () => insertAfter(30, ['after thirty', '\tindented']),
      },
      { args: ['delete', 'code.txt', lid(41)], apply: () => splice(41, 41, []) },
      { args: ['edit', 'code.txt', lid(45)], input: 'x\ny\nz\n', apply: () => splice(45, 45, ['x', 'y', 'z']) },
      { args: ['edit', 'code.txt', lid(59), '$'], input: 'the end\n', apply: () => splice(59, 60, ['the end']) },
    ];
    for (const step of steps) {
      const r = run(step.args, dir, step.input !== undefined ? { input: step.input } : {});
      expect(r.status, r.text).toBe(0);
      step.apply();
    }
    const want = model.map((r) => `${r.text}\n`).join('');
    expect(fs.readFileSync(file, 'utf8')).toBe(want);

    // Every untouched row kept the LID it was shown with.
    const again = openWindow(dir, 'code.txt');
    expect(again.lines.map((l) => l.content)).toEqual(model.map((r) => r.text));
    model.forEach((row, i) => {
      if (row.orig !== null) expect(again.lids[i], `row ${row.orig}`).toBe(lid(row.orig));
      else expect(w.lids, `new row ${row.text} has a fresh LID`).not.toContain(again.lids[i]);
    });
  });

  it('applies edits bottom to top from one read, too', () => {
    const dir = tempDir();
    const file = write(dir, 'f.txt', numbered(30));
    const w = openWindow(dir, 'f.txt');
    const steps: Array<[string[], string | undefined]> = [
      [['delete', 'f.txt', w.lidAt(28), w.lidAt(30)], undefined],
      [['insert', 'f.txt', w.lidAt(20), '--after'], 'after 20\n'],
      [['edit', 'f.txt', w.lidAt(10)], 'ten\n'],
      [['insert', 'f.txt', w.lidAt(1)], 'top\n'],
    ];
    for (const [args, input] of steps) {
      const r = run(args, dir, input !== undefined ? { input } : {});
      expect(r.status, r.text).toBe(0);
    }
    expect(fs.readFileSync(file, 'utf8')).toBe(
      text(['top', ...lines(1, 9), 'ten', ...lines(11, 20), 'after 20', ...lines(21, 27)]),
    );
  });
});

describe('edits without state, ranges given their own text, create --force, locks and odd names', () => {
  it(
    'without saved state, the LIDs an edit prints are the ones ' +
      'the next command reads: an edit by one of them hits that line',
    () => {
      for (const env of [{ RT_STATE: 'off' }]) {
        const dir = tempDir();
        const file = write(dir, 'm.txt', 'a\n}\n');
        const brace = openWindow(dir, 'm.txt', []).lidAt(2);
        // A "}" inserted before the first line: a history-keeping index would give the new one a
        // new LID and leave `brace` on line 3, but the next reading, from content alone, gives
        // line 1 the first "}" LID.
        const inserted = run(['insert', 'm.txt', openWindow(dir, 'm.txt').lidAt(1)], dir, { input: '}\n', env });
        expect(inserted.status, inserted.text).toBe(0);
        const printed = reportWindow(inserted);
        const next = parseWindow(run(['open', 'm.txt'], dir, { env }));
        expect(printed.lids, inserted.text).toEqual(next.lids);
        const third = printed.lidAt(3);
        const edited = run(['edit', 'm.txt', third], dir, { input: '} // end\n', env });
        expect(edited.status, edited.text).toBe(0);
        expect(fs.readFileSync(file, 'utf8')).toBe('}\na\n} // end\n');
        void brace;
      }
    },
  );

  it(
    'lines an edit gives the same content, at the start and end of its range, ' +
      'keep their LIDs; so does every line of a range given its own text again',
    () => {
      const { dir, file } = withFile(6);
      const w = openWindow(dir, 'f.txt');
      const r = run(['edit', 'f.txt', w.lidAt(2), w.lidAt(4)], dir, { input: 'line 2\nthree\nline 4\n' });
      const printed = reportWindow(r);
      expect(r.status, r.text).toBe(0);
      expect(printed.lidAt(2)).toBe(w.lidAt(2));
      expect(printed.lidAt(4)).toBe(w.lidAt(4));
      expect(printed.lidAt(3)).not.toBe(w.lidAt(3));
      expect(fs.readFileSync(file, 'utf8')).toBe(numbered(6).replace('line 3\n', 'three\n'));
      // The kept LIDs still name their lines for the next edit of the same read.
      expectRun(run(['edit', 'f.txt', w.lidAt(4)], dir, { input: 'four\n' }), { status: 0 });
      const same = run(['edit', 'f.txt', w.lidAt(5)], dir, { input: 'line 5\n' });
      expect(same.stderr).toMatch(/unchanged/);
      expect(reportWindow(same).lidAt(5)).toBe(w.lidAt(5));
      expectRun(run(['edit', 'f.txt', w.lidAt(5)], dir, { input: 'five\n' }), { status: 0 });
    },
  );

  it(
    'create --force --dry-run (and --diff) shows the diff from ' +
      'what the file holds: every old line out, every new one in',
    () => {
      const dir = tempDir();
      const file = write(dir, 'cf.txt', '1\n2\n3\n');
      const diff = '--- a/cf.txt\n+++ b/cf.txt\n@@ -1,3 +1,3 @@\n-1\n-2\n-3\n+1\n+TWO\n+3\n';
      expectRun(run(['create', '--force', '--dry-run', 'cf.txt'], dir, { input: '1\nTWO\n3\n' }), {
        status: 0,
        stdout: diff,
        stderr: /dry run/,
      });
      expect(fs.readFileSync(file, 'utf8')).toBe('1\n2\n3\n');
      const real = run(['create', '--force', '--diff', 'cf.txt'], dir, { input: '1\nTWO\n3\n' });
      expect(real.status, real.text).toBe(0);
      expect(real.stdout.startsWith('replaced cf.txt: 1-3 → 1-3 (+0)\n'), real.text).toBe(true);
      expect(real.stdout.endsWith(diff), real.text).toBe(true);
      expect(fs.readFileSync(file, 'utf8')).toBe('1\nTWO\n3\n');
      // --json: the counts agree with the diff.
      const json = JSON.parse(run(['create', '--force', '--json', 'cf.txt'], dir, { input: 'only\n' }).stdout);
      expect([json.old, json.new, json.delta]).toEqual([{ start: 1, count: 3 }, { start: 1, count: 1 }, -2]);
    },
  );

  it('create under a regular file says so; a name too long for the lock is refused before any folder is made', () => {
    const dir = tempDir();
    write(dir, 'u.txt', 'u\n');
    expectRefused(run(['create', 'u.txt/sub.txt'], dir, { input: 'x\n' }), 4, /^rt: u\.txt is not a folder/);
    const long = `${'a'.repeat(240)}.txt`;
    expectRefused(run(['create', `nd1/nd2/${long}`], dir, { input: 'x\n' }), 4, /too long/);
    expect(fs.existsSync(path.join(dir, 'nd1'))).toBe(false);
  });

  it(
    'a lock in the way is named by its path from the working ' +
      'directory, beside the real file when the path is a link',
    () => {
      const dir = tempDir();
      fs.mkdirSync(path.join(dir, 'sub', 'deep'), { recursive: true });
      write(dir, 'sub/k.txt', 'k\n');
      const lid = openWindow(dir, 'sub/k.txt').lidAt(1);
      fs.mkdirSync(path.join(dir, 'sub', '.k.txt.rt-lock'));
      expectRefused(
        run(['edit', 'sub/k.txt', lid], dir, { input: 'x\n' }),
        4,
        /sub\/\.k\.txt\.rt-lock is a folder.*\n.*rm -r sub\/\.k\.txt\.rt-lock/,
      );
      write(dir, 'sub/deep/real.txt', 'r\n');
      fs.symlinkSync('sub/deep/real.txt', path.join(dir, 'link.txt'));
      fs.mkdirSync(path.join(dir, 'sub', 'deep', '.real.txt.rt-lock'));
      const viaLink = openWindow(dir, 'link.txt').lidAt(1);
      expectRefused(
        run(['edit', 'link.txt', viaLink], dir, { input: 'x\n' }),
        4,
        /rm -r sub\/deep\/\.real\.txt\.rt-lock/,
      );
    },
  );

  it('a file whose name ends in a backslash is a file like any other (only a final / names a folder)', () => {
    const dir = tempDir();
    const file = write(dir, 'b\\', 'hi\n');
    write(dir, 'b', 'other\n');
    const w = openWindow(dir, 'b\\');
    expect(w.lines.map((l) => l.content)).toEqual(['hi']);
    expectRun(run(['edit', 'b\\', w.lidAt(1)], dir, { input: 'HI\n' }), { status: 0 });
    expect(fs.readFileSync(file, 'utf8')).toBe('HI\n');
    expect(fs.readFileSync(path.join(dir, 'b'), 'utf8')).toBe('other\n');
    expectRun(run(['create', 'c\\'], dir, { input: 'new\n' }), { status: 0 });
    expect(fs.readFileSync(path.join(dir, 'c\\'), 'utf8')).toBe('new\n');
  });
});
