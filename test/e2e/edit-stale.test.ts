// End-to-end tests of stale and unshown anchors in edits: an anchor that no longer
// names the line that was shown, or a range over lines never shown, is refused with exit 3, the
// file left byte-identical and the state untouched, and the message says where the line is now
// or which `rt open` to run.

import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, expectRun, run, snapshot, tree, type Ran, lines, text, withFile, openWindow } from './harness.js';

afterAll(cleanup);

/**
 * Runs a command that must be refused: exit `status`, nothing on stdout, `rt: ` lines on stderr
 * matching every pattern, and nothing written: the file byte-identical (mtime and inode too),
 * and no file of the folder (the state in .rt/ included) changed.
 */
function expectRefused(
  dir: string,
  file: string,
  args: string[],
  input: string | undefined,
  patterns: RegExp[],
  status = 3,
  checkState = true,
): Ran {
  const before = snapshot(file);
  const state = tree(dir);
  const r = run(args, dir, input !== undefined ? { input } : {});
  expectRun(r, { status, stdout: '', stderr: /^rt: / });
  for (const p of patterns) expect(r.stderr, r.text).toMatch(p);
  expect(snapshot(file), `file changed\n${r.text}`).toEqual(before);
  if (checkState) expect(tree(dir), `something was written\n${r.text}`).toEqual(state);
  return r;
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('an LID whose line changed since it was shown', () => {
  it('an LID of a line changed externally is refused (exit 3) with the rt open to run', () => {
    const { dir, file } = withFile(10);
    const w = openWindow(dir, 'f.txt');
    fs.writeFileSync(file, text([...lines(1, 4), 'line 5 changed by an editor', ...lines(6, 10)]));
    for (const [cmd, input] of [
      ['edit', 'x\n'],
      ['insert', 'x\n'],
      ['delete', undefined],
    ] as const) {
      expectRefused(dir, file, [cmd, 'f.txt', w.lidAt(5)], input, [
        new RegExp(`^rt: .*${w.lidAt(5)}`, 'm'),
        /rt open f\.txt/,
      ]);
    }
    // As the end of a range, too.
    expectRefused(dir, file, ['edit', 'f.txt', w.lidAt(3), w.lidAt(5)], 'x\n', [
      new RegExp(w.lidAt(5)),
      /rt open f\.txt/,
    ]);
  });

  it('an LID of a line deleted externally is refused', () => {
    const { dir, file } = withFile(10);
    const w = openWindow(dir, 'f.txt');
    fs.writeFileSync(file, text([...lines(1, 6), ...lines(8, 10)]));
    expectRefused(dir, file, ['edit', 'f.txt', w.lidAt(7)], 'x\n', [
      new RegExp(`^rt: .*${w.lidAt(7)}`, 'm'),
      /rt open f\.txt/,
    ]);
    expectRefused(dir, file, ['delete', 'f.txt', w.lidAt(6), w.lidAt(7)], undefined, [
      new RegExp(w.lidAt(7)),
      /rt open f\.txt/,
    ]);
  });

  it('an LID of a line rt itself changed or deleted is refused, even when the old content comes back elsewhere', () => {
    const { dir, file } = withFile(10);
    const w = openWindow(dir, 'f.txt');
    let r = run(['edit', 'f.txt', w.lidAt(2)], dir, { input: 'two\n' });
    expect(r.status, r.text).toBe(0);
    r = run(['delete', 'f.txt', w.lidAt(9)], dir);
    expect(r.status, r.text).toBe(0);
    expectRefused(dir, file, ['edit', 'f.txt', w.lidAt(2)], 'x\n', [new RegExp(w.lidAt(2)), /rt open f\.txt/]);
    expectRefused(dir, file, ['insert', 'f.txt', w.lidAt(9), '--after'], 'x\n', [
      new RegExp(w.lidAt(9)),
      /rt open f\.txt/,
    ]);
    // "line 2" is written back by someone else: the retired LID still does not name it.
    fs.writeFileSync(file, text(lines(1, 10)));
    expectRefused(dir, file, ['delete', 'f.txt', w.lidAt(2)], undefined, [/rt open f\.txt/]);
  });

  it('an unknown LID is refused (exit 3) naming the LID', () => {
    const { dir, file } = withFile(10);
    openWindow(dir, 'f.txt');
    expectRefused(dir, file, ['edit', 'f.txt', 'zzzz'], 'x\n', [/^rt: .*zzzz/m]);
    expectRefused(dir, file, ['delete', 'f.txt', 'zzzz'], undefined, [/^rt: .*zzzz/m]);
    expectRefused(dir, file, ['insert', 'f.txt', 'zzzz'], 'x\n', [/^rt: .*zzzz/m]);
  });

  it('control: the LID of an unchanged line still names it after an external insertion above', () => {
    const { dir, file } = withFile(10);
    const w = openWindow(dir, 'f.txt');
    fs.writeFileSync(file, text(['inserted 1', 'inserted 2', ...lines(1, 10)]));
    const r = run(['edit', 'f.txt', w.lidAt(5)], dir, { input: 'five\n' });
    expect(r.status, r.text).toBe(0);
    expect(r.stdout.split('\n')[0], r.text).toBe('edited f.txt: 7-7 → 7-7 (+0)');
    expect(fs.readFileSync(file, 'utf8')).toBe(
      text(['inserted 1', 'inserted 2', ...lines(1, 4), 'five', ...lines(6, 10)]),
    );
  });
});

describe('a bare line number', () => {
  it('after an external insertion above it is refused, saying where the shown line is now', () => {
    const { dir, file } = withFile(10);
    const w = openWindow(dir, 'f.txt');
    fs.writeFileSync(file, text(['new first line', ...lines(1, 10)]));
    // Line 5 was shown as `line 5`, which is now line 6.
    const here = new RegExp(`${w.lidAt(5)}.*(now )?line 6|line 6.*${w.lidAt(5)}`);
    expectRefused(dir, file, ['edit', 'f.txt', '5'], 'x\n', [here]);
    expectRefused(dir, file, ['delete', 'f.txt', '5'], undefined, [here]);
    expectRefused(dir, file, ['insert', 'f.txt', '5'], 'x\n', [here]);
    expectRefused(dir, file, ['edit', 'f.txt', '3', '5'], 'x\n', [
      new RegExp(`${w.lidAt(3)}.*line 4|line 4.*${w.lidAt(3)}`),
    ]);
  });

  it('whose line was changed externally is refused', () => {
    const { dir, file } = withFile(10);
    const w = openWindow(dir, 'f.txt');
    fs.writeFileSync(file, text([...lines(1, 4), 'line five', ...lines(6, 10)]));
    expectRefused(dir, file, ['edit', 'f.txt', '5'], 'x\n', [new RegExp(w.lidAt(5)), /rt open f\.txt/]);
  });

  it('past the end now, after an external deletion, is refused and never applied to another line', () => {
    const { dir, file } = withFile(10);
    const w = openWindow(dir, 'f.txt');
    fs.writeFileSync(file, text(lines(3, 10)));
    const r = run(['delete', 'f.txt', '10'], dir);
    expect([2, 3], r.text).toContain(r.status);
    expect(fs.readFileSync(file, 'utf8')).toBe(text(lines(3, 10)));
    expectRefused(dir, file, ['edit', 'f.txt', '8'], 'x\n', [
      new RegExp(`${w.lidAt(8)}.*line 6|line 6.*${w.lidAt(8)}`),
    ]);
  });

  it('never shown is refused (exit 3) with the rt open that shows it', () => {
    const { dir, file } = withFile(100);
    openWindow(dir, 'f.txt:1-10');
    expectRefused(dir, file, ['edit', 'f.txt', '50'], 'x\n', [/^rt: .*50/m, /rt open f\.txt:50\b/]);
    expectRefused(dir, file, ['insert', 'f.txt', '50'], 'x\n', [/rt open f\.txt:50\b/]);
  });

  it('of a file never opened is refused (exit 3)', () => {
    const { dir, file } = withFile(10);
    expectRefused(dir, file, ['edit', 'f.txt', '2'], 'x\n', [/rt open f\.txt/], 3, false);
    expectRefused(dir, file, ['delete', 'f.txt', '2', '3'], undefined, [/rt open f\.txt/], 3, false);
  });

  // BUG: in a folder where rt never ran, a refused edit still creates .rt/ (.gitignore, swept,
  // index/, view/), though "a refused command writes nothing, to the file or to the state".
  it('refused in a folder rt never ran in, it creates no .rt/', () => {
    const { dir, file } = withFile(10);
    expectRefused(dir, file, ['edit', 'f.txt', '2'], 'x\n', [/rt open f\.txt/]);
    expectRefused(dir, file, ['edit', 'f.txt', 'zzzz'], 'x\n', [/zzzz/]);
  });

  it('that different lines were shown at (after an insertion by rt) is refused as ambiguous', () => {
    const { dir, file } = withFile(10);
    const w = openWindow(dir, 'f.txt');
    const r = run(['insert', 'f.txt', w.lidAt(4)], dir, { input: 'new\n' });
    expect(r.status, r.text).toBe(0);
    // Line 7 was shown as `line 7` by open and as `line 6` in the region printed by the insert.
    expectRefused(dir, file, ['edit', 'f.txt', '7'], 'x\n', [new RegExp(w.lidAt(6)), new RegExp(w.lidAt(7))]);
  });

  it('control: a number shown in the region printed by an edit (same line count) is accepted', () => {
    const { dir, file } = withFile(10);
    const w = openWindow(dir, 'f.txt');
    const r = run(['edit', 'f.txt', w.lidAt(4)], dir, { input: 'four\n' });
    expect(r.status, r.text).toBe(0);
    const r2 = run(['edit', 'f.txt', '6'], dir, { input: 'six\n' });
    expect(r2.status, r2.text).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toBe(text([...lines(1, 3), 'four', 'line 5', 'six', ...lines(7, 10)]));
  });
});

describe('NUMBER:LID anchors', () => {
  it('that disagree are refused, saying where the LID is now', () => {
    const { dir, file } = withFile(10);
    const w = openWindow(dir, 'f.txt');
    expectRefused(dir, file, ['edit', 'f.txt', `5:${w.lidAt(6)}`], 'x\n', [new RegExp(`${w.lidAt(6)}.*line 6`)]);
    fs.writeFileSync(file, text(['new first line', ...lines(1, 10)]));
    expectRefused(dir, file, ['edit', 'f.txt', `5:${w.lidAt(5)}`], 'x\n', [new RegExp(`${w.lidAt(5)}.*line 6`)]);
    expectRefused(dir, file, ['delete', 'f.txt', `2:${w.lidAt(2)}`, `5:${w.lidAt(5)}`], undefined, [
      new RegExp(esc(w.lidAt(2))),
    ]);
  });

  it('control: NUMBER:LID that agree are accepted', () => {
    const { dir, file } = withFile(10);
    const w = openWindow(dir, 'f.txt');
    fs.writeFileSync(file, text(['new first line', ...lines(1, 10)]));
    const r = run(['edit', 'f.txt', `6:${w.lidAt(5)}`], dir, { input: 'five\n' });
    expect(r.status, r.text).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toBe(text(['new first line', ...lines(1, 4), 'five', ...lines(6, 10)]));
  });
});

describe('a range over lines never shown', () => {
  it('with LIDs at both ends is refused (exit 3) with the rt open that shows the rest; --force allows it', () => {
    const { dir, file } = withFile(100);
    const top = openWindow(dir, 'f.txt:1-10');
    const far = openWindow(dir, 'f.txt:50', ['--window', '1']);
    expect(far.lids.length).toBe(1);
    const args = ['delete', 'f.txt', `5:${top.lidAt(5)}`, far.lidAt(50)];
    expectRefused(dir, file, args, undefined, [/^rt: .*(11|not been shown)/m, /rt open '?f\.txt:11-49'?/]);
    expectRefused(dir, file, ['edit', 'f.txt', top.lidAt(5), far.lidAt(50)], 'x\n', [/rt open '?f\.txt:11-49'?/]);
    const r = run([...args, '--force'], dir);
    expect(r.status, r.text).toBe(0);
    expect(r.stdout.split('\n')[0], r.text).toBe('deleted f.txt: 5-50 (-46)');
    expect(fs.readFileSync(file, 'utf8')).toBe(text([...lines(1, 4), ...lines(51, 100)]));
  });

  it('with line numbers (rt delete f 5 30 after seeing lines 1-10) is refused with the rt open to run', () => {
    const { dir, file } = withFile(100);
    openWindow(dir, 'f.txt:1-10');
    expectRefused(dir, file, ['delete', 'f.txt', '5', '30'], undefined, [/rt open '?f\.txt:/]);
    expectRefused(dir, file, ['edit', 'f.txt', '5', '30'], 'x\n', [/rt open '?f\.txt:/]);
  });

  // --force also covers an unshown line named by its number (it still refuses a stale one).
  it('with line numbers: --force allows it', () => {
    const { dir, file } = withFile(100);
    openWindow(dir, 'f.txt:1-10');
    const r = run(['delete', 'f.txt', '5', '30', '--force'], dir);
    expect(r.status, r.text).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toBe(text([...lines(1, 4), ...lines(31, 100)]));
  });

  it('--force never applies a stale line number: a number whose shown line moved is still refused', () => {
    const { dir, file } = withFile(10);
    const w = openWindow(dir, 'f.txt');
    fs.writeFileSync(file, text(['new first line', ...lines(1, 10)]));
    expectRefused(dir, file, ['edit', 'f.txt', '5', '--force'], 'x\n', [new RegExp(`${w.lidAt(5)}.*line 6`)]);
    expectRefused(dir, file, ['delete', 'f.txt', '2', '5', '--force'], undefined, [
      new RegExp(`${w.lidAt(2)}.*line 3`),
    ]);
  });

  it('covering a shown line that changed externally since is refused; --force allows it', () => {
    const { dir, file } = withFile(20);
    const w = openWindow(dir, 'f.txt');
    fs.writeFileSync(file, text([...lines(1, 6), 'line 7 changed', ...lines(8, 20)]));
    const args = ['edit', 'f.txt', w.lidAt(5), w.lidAt(9)];
    expectRefused(dir, file, args, 'x\n', [/^rt: .*7/m, /rt open '?f\.txt:7(-7)?'?/]);
    const r = run([...args, '--force'], dir, { input: 'x\n' });
    expect(r.status, r.text).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toBe(text([...lines(1, 4), 'x', ...lines(10, 20)]));
  });

  it('control: after opening the missing lines the same range is accepted', () => {
    const { dir, file } = withFile(100);
    const top = openWindow(dir, 'f.txt:1-10');
    const far = openWindow(dir, 'f.txt:50', ['--window', '1']);
    openWindow(dir, 'f.txt:11-49');
    const r = run(['delete', 'f.txt', top.lidAt(5), far.lidAt(50)], dir);
    expect(r.status, r.text).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toBe(text([...lines(1, 4), ...lines(51, 100)]));
  });
});
