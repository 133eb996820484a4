// End-to-end tests of `rt scroll`: next/previous windows overlapping by 2 lines,
// remembered across processes in `.rt/`, and followed through external changes to the file.

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
  tempDir,
  windowText,
  write,
  type Ran,
} from './harness.js';

afterAll(cleanup);

const lines = (a: number, b: number) => range(a, b).map((n) => `line ${n}`);

function withNumbered(n = 300): string {
  const dir = tempDir();
  write(dir, 'a.txt', numbered(n));
  return dir;
}

/** `r` printed exactly lines start..end of a numbered file (contents `line N`, shifted by `offset`). */
function expectWindow(r: Ran, start: number, end: number, total = 300, contents = lines(start, end)): void {
  const w = parseWindow(r);
  expectRun(r, { status: 0, stdout: windowText('a.txt', total, start, end, w.lids, contents), stderr: '' });
  expectLids(w.lids, r);
}

/** Nothing further: nothing on stdout, exit 0, an rt: note on stderr. */
function expectNothingFurther(r: Ran, word: RegExp): void {
  expectRun(r, { status: 0, stdout: '', stderr: /^rt: / });
  expect(r.stderr, r.text).toMatch(word);
}

describe('rt scroll', () => {
  it('+ with no earlier view opens the top, exactly as open does', () => {
    const dir = withNumbered();
    const other = withNumbered();
    const opened = run(['open', 'a.txt'], other);
    const r = run(['scroll', 'a.txt', '+'], dir);
    expectRun(r, { status: 0, stdout: opened.stdout, stderr: '' });
    expectWindow(r, 1, 100);
  });

  it('with no direction it goes forward', () => {
    const dir = withNumbered();
    expectWindow(run(['scroll', 'a.txt'], dir), 1, 100);
    expectWindow(run(['scroll', 'a.txt'], dir), 99, 198);
  });

  it('each next window overlaps the last one by 2 lines, until the end', () => {
    const dir = withNumbered();
    const first = run(['open', 'a.txt'], dir);
    expectWindow(first, 1, 100);
    const second = run(['scroll', 'a.txt', '+'], dir);
    expectWindow(second, 99, 198);
    const third = run(['scroll', 'a.txt', '+'], dir);
    expectWindow(third, 197, 296);
    const last = run(['scroll', 'a.txt', '+'], dir);
    expectWindow(last, 295, 300);
    // The overlapping lines carry the same LIDs in both windows.
    expect(parseWindow(second).lidAt(99)).toBe(parseWindow(first).lidAt(99));
    expect(parseWindow(second).lidAt(100)).toBe(parseWindow(first).lidAt(100));
    expect(parseWindow(last).lidAt(295)).toBe(parseWindow(third).lidAt(295));
  });

  it('+ at the end prints nothing on stdout, exits 0 and says so on stderr', () => {
    const dir = withNumbered();
    run(['open', 'a.txt:250-300'], dir);
    expectNothingFurther(run(['scroll', 'a.txt', '+'], dir), /end/);
    // and again: still at the end
    expectNothingFurther(run(['scroll', 'a.txt', '+'], dir), /end/);
  });

  it('+ on a file shorter than a window: the top, then nothing further', () => {
    const dir = withNumbered(5);
    expectWindow(run(['scroll', 'a.txt', '+'], dir), 1, 5, 5);
    expectNothingFurther(run(['scroll', 'a.txt', '+'], dir), /end/);
  });

  it('- goes back, overlapping by 2 lines, until the top', () => {
    const dir = withNumbered();
    run(['open', 'a.txt'], dir);
    for (let i = 0; i < 3; i++) run(['scroll', 'a.txt', '+'], dir); // 295-300
    expectWindow(run(['scroll', 'a.txt', '-'], dir), 197, 296);
    expectWindow(run(['scroll', 'a.txt', '-'], dir), 99, 198);
    expectWindow(run(['scroll', 'a.txt', '-'], dir), 1, 100);
    expectNothingFurther(run(['scroll', 'a.txt', '-'], dir), /top/);
    expectWindow(run(['scroll', 'a.txt', '+'], dir), 99, 198);
  });

  it(
    'when the last line of the last view was deleted outside rt, the ' +
      'next window starts 2 lines before its place: no line is stepped over',
    () => {
      const dir = withNumbered(50);
      expectWindow(run(['open', 'a.txt', '--window', '10'], dir), 1, 10, 50);
      // Lines 8-12 deleted by another program: "line 13" is line 8 now, never shown.
      write(dir, 'a.txt', numbered(50).replace(/line (8|9|10|11|12)\n/g, ''));
      const r = run(['scroll', 'a.txt'], dir);
      expectWindow(r, 6, 15, 45, ['line 6', 'line 7', ...lines(13, 20)]);
      // The whole view deleted: the next window is the top.
      const gone = withNumbered(50);
      run(['open', 'a.txt:1-10'], gone);
      write(gone, 'a.txt', numbered(50).split('\n').slice(10).join('\n'));
      expectWindow(run(['scroll', 'a.txt', '--window', '10'], gone), 1, 10, 40, lines(11, 20));
    },
  );

  it('windows of 1 or 2 lines move on at each scroll, both ways (the overlap is less than a window)', () => {
    const dir = withNumbered(6);
    expectWindow(run(['open', 'a.txt:3', '--window', '1'], dir), 3, 3, 6);
    expectWindow(run(['scroll', 'a.txt'], dir), 4, 4, 6);
    expectWindow(run(['scroll', 'a.txt', '-'], dir), 3, 3, 6);
    expectWindow(run(['scroll', 'a.txt', '-'], dir), 2, 2, 6);
    const two = withNumbered(6);
    expectWindow(run(['open', 'a.txt:1-2', '--window', '2'], two), 1, 2, 6);
    expectWindow(run(['scroll', 'a.txt'], two), 2, 3, 6);
    expectWindow(run(['scroll', 'a.txt'], two), 3, 4, 6);
    expectWindow(run(['scroll', 'a.txt'], two), 4, 5, 6);
    expectWindow(run(['scroll', 'a.txt'], two), 5, 6, 6);
    expectNothingFurther(run(['scroll', 'a.txt'], two), /end/);
    expectWindow(run(['scroll', 'a.txt', '-'], two), 4, 5, 6);
  });

  it('--json with nothing further: no lines, the note, every line behind it, and the last view', () => {
    const dir = withNumbered();
    run(['open', 'a.txt:250-300'], dir);
    const end = run(['scroll', '--json', 'a.txt'], dir);
    expectRun(end, { status: 0 });
    expect(JSON.parse(end.stdout)).toEqual({
      command: 'scroll',
      path: 'a.txt',
      total: 300,
      start: 0,
      end: 0,
      above: 300,
      below: 0,
      lines: [],
      note: 'at the end',
      last: { start: 250, end: 300 },
    });
    run(['open', 'a.txt:1-40'], dir);
    const top = run(['scroll', '--json', 'a.txt', '-'], dir);
    expect(JSON.parse(top.stdout)).toEqual({
      command: 'scroll',
      path: 'a.txt',
      total: 300,
      start: 0,
      end: 0,
      above: 0,
      below: 300,
      lines: [],
      note: 'at the top',
      last: { start: 1, end: 40 },
    });
  });

  it('- after a window in the middle gives the window before it', () => {
    const dir = withNumbered();
    run(['open', 'a.txt:150-170'], dir);
    // A range opened without --window: the window before it has the default 100 lines and
    // shares the range's first 2 lines.
    expectWindow(run(['scroll', 'a.txt', '-'], dir), 52, 151);
  });

  it('remembers --window from the last open', () => {
    const dir = withNumbered();
    expectWindow(run(['open', 'a.txt', '--window', '10'], dir), 1, 10);
    expectWindow(run(['scroll', 'a.txt', '+'], dir), 9, 18);
    expectWindow(run(['scroll', 'a.txt', '+'], dir), 17, 26);
    expectWindow(run(['scroll', 'a.txt', '-'], dir), 9, 18);
  });

  it('remembers --window from an open of a line', () => {
    const dir = withNumbered();
    expectWindow(run(['open', 'a.txt:150', '--window', '11'], dir), 145, 155);
    expectWindow(run(['scroll', 'a.txt', '+'], dir), 154, 164);
    expectWindow(run(['scroll', 'a.txt', '-'], dir), 145, 155);
    expectWindow(run(['scroll', 'a.txt', '-'], dir), 136, 146);
  });

  it('--window on scroll sets the size of that window', () => {
    const dir = withNumbered();
    run(['open', 'a.txt', '--window', '10'], dir);
    expectWindow(run(['scroll', 'a.txt', '+', '--window', '20'], dir), 9, 28);
  });

  it('RT_WINDOW sets the size when no --window was given', () => {
    const dir = withNumbered();
    const env = { RT_WINDOW: '15' };
    expectWindow(run(['scroll', 'a.txt', '+'], dir, { env }), 1, 15);
    expectWindow(run(['scroll', 'a.txt', '+'], dir, { env }), 14, 28);
  });

  it('after a range opened without --window, windows are 100 lines', () => {
    const dir = withNumbered();
    run(['open', 'a.txt:10-20'], dir);
    expectWindow(run(['scroll', 'a.txt', '+'], dir), 19, 118);
  });

  it("after lines were inserted above, + continues from where the last window's last line is now", () => {
    const dir = withNumbered();
    const before = run(['open', 'a.txt'], dir);
    expectWindow(before, 1, 100);
    fs.writeFileSync(path.join(dir, 'a.txt'), `${numbered(5, 'new ')}${numbered(300)}`);
    const r = run(['scroll', 'a.txt', '+'], dir);
    // "line 99" and "line 100" are now lines 104 and 105: the next window starts there.
    expectWindow(r, 104, 203, 305, lines(99, 198));
    expect(parseWindow(r).lidAt(104)).toBe(parseWindow(before).lidAt(99));
    expect(parseWindow(r).lidAt(105)).toBe(parseWindow(before).lidAt(100));
  });

  it("after lines were deleted above, + continues from where the last window's last line is now", () => {
    const dir = withNumbered();
    run(['open', 'a.txt', '--window', '50'], dir); // 1-50
    run(['scroll', 'a.txt', '+'], dir); // 49-98
    const text = numbered(300).split('\n');
    text.splice(0, 10); // lines 1-10 gone
    fs.writeFileSync(path.join(dir, 'a.txt'), text.join('\n'));
    // "line 97" and "line 98" are now lines 87 and 88.
    expectWindow(run(['scroll', 'a.txt', '+'], dir), 87, 136, 290, lines(97, 146));
  });

  it('after lines were inserted above, - goes back from where the last window is now', () => {
    const dir = withNumbered();
    run(['open', 'a.txt:101-200'], dir);
    fs.writeFileSync(path.join(dir, 'a.txt'), `${numbered(5, 'new ')}${numbered(300)}`);
    // The last window (line 101-200) is now 106-205; the one before it ends on 107.
    expectWindow(run(['scroll', 'a.txt', '-'], dir), 8, 107, 305, [...lines(3, 102)]);
  });

  it('a view is per file', () => {
    const dir = withNumbered();
    write(dir, 'b.txt', numbered(300));
    run(['open', 'a.txt', '--window', '10'], dir);
    run(['scroll', 'a.txt', '+'], dir);
    const b = run(['scroll', 'b.txt', '+'], dir);
    const w = parseWindow(b);
    expectRun(b, { status: 0, stdout: windowText('b.txt', 300, 1, 100, w.lids, lines(1, 100)), stderr: '' });
    expectWindow(run(['scroll', 'a.txt', '+'], dir), 17, 26);
  });

  it('the view is found from another working directory (it belongs to the file, not the cwd)', () => {
    const dir = withNumbered();
    fs.mkdirSync(path.join(dir, '.git')); // make dir the root wherever rt runs below it
    fs.mkdirSync(path.join(dir, 'sub'));
    run(['open', 'a.txt', '--window', '10'], dir);
    const r = run(['scroll', '../a.txt', '+'], path.join(dir, 'sub'));
    const w = parseWindow(r);
    expectRun(r, { status: 0, stdout: windowText('../a.txt', 300, 9, 18, w.lids, lines(9, 18)), stderr: '' });
  });

  it('an empty file scrolls to its empty header', () => {
    const dir = tempDir();
    write(dir, 'e.txt', '');
    expectRun(run(['scroll', 'e.txt', '+'], dir), { status: 0, stdout: '--- e.txt (empty file) ---\n', stderr: '' });
  });

  it('refuses what open refuses: missing (4), binary (4), outside the root (4), a bad direction (2)', () => {
    const dir = withNumbered();
    write(dir, 'bin.dat', Buffer.from([0x61, 0x00]));
    for (const [args, status] of [
      [['scroll', 'a.tx', '+'], 4],
      [['scroll', 'bin.dat', '+'], 4],
      [['scroll', '../a.txt', '+'], 4],
      [['scroll', '.rt/.gitignore', '+'], 4],
      [['scroll', 'a.txt', 'next'], 2],
      [['scroll', 'a.txt', '++'], 2],
      [['scroll', 'a.txt', '+', '--window', 'x'], 2],
    ] as const) {
      expectRun(run(args, dir), { status, stdout: '', stderr: /^rt: / });
    }
    expectRun(run(['scroll', 'a.tx', '+'], dir), { status: 4, stdout: '', stderr: /a\.txt/ });
  });
});
