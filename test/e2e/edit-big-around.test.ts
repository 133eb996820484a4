// Edits of a big file whose saved index still describes it read only the blocks around their
// change and copy the rest of the file as bytes (src/store/bigEdit.ts): every other byte survives
// (a BOM, CRLF and LF, tabs, invalid UTF-8, no final newline), each edit is undone to the exact
// bytes before it, and a line changed since it was shown, by rt or by another program writing
// in place right after rt, is still refused.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { bigFile } from '../support/bigFiles.js';
import { age, cleanup, openWindow, run, tempRepo, write } from './harness.js';

afterAll(cleanup);

const LINES = 40_000;

/** About 1.5 MB: a BOM, CRLF endings with some LF, tabs, invalid UTF-8, empty lines, no final newline. */
const bigText = () => bigFile('\r\n', true, false, LINES);

/**
 * `bytes` with lines n..n+contents.length-1 (1-based, after the BOM) replaced by `contents`, each
 * ending with the file's own line ending (CRLF, as most of its lines), but a last line without one.
 */
function withLines(bytes: Buffer, n: number, contents: readonly Buffer[]): Buffer {
  let start = lineStart(bytes, n);
  const out: Buffer[] = [bytes.subarray(0, start)];
  for (const content of contents) {
    const end = bytes.indexOf(0x0a, start);
    out.push(content, Buffer.from(end === -1 ? '' : '\r\n'));
    start = end === -1 ? bytes.length : end + 1;
  }
  out.push(bytes.subarray(start));
  return Buffer.concat(out);
}

/** Where line `n` (1-based, after the BOM) starts. */
function lineStart(bytes: Buffer, n: number): number {
  let start = 3;
  for (let i = 1; i < n; i++) start = bytes.indexOf(0x0a, start) + 1;
  return start;
}

/** Shows lines `n`..`to` and gives the anchors of that range (FROM, and TO when it is another line). */
function shownRange(dir: string, n: number, to = n): string[] {
  const shown = openWindow(dir, `big.txt:${n}`);
  return n === to ? [shown.lidAt(n)] : [shown.lidAt(n), shown.lidAt(to)];
}

describe('edits in a row of a big file', () => {
  it('write exactly the lines they name, and are each undone to the bytes before them', () => {
    const dir = tempRepo();
    const original = bigText();
    expect(original.length).toBeGreaterThan(1 << 20);
    const file = write(dir, 'big.txt', original);
    age(file);
    const versions = [original];
    // The first edit reads the file whole (its index was taken just after the file changed); each
    // next one follows rt's own write, whose stamp is trusted alone, and reads only around its change.
    const edits: Array<[number, number, Buffer[]]> = [
      [20_001, 20_001, [Buffer.from('one')]],
      [LINES, LINES, [Buffer.from('the last')]],
      [1, 1, [Buffer.from('the first')]],
      [1024, 1025, [Buffer.from('a\tb'), Buffer.from([0x63, 0xff])]],
      [30_000, 30_000, [Buffer.from('thirty')]],
    ];
    for (const [n, to, contents] of edits) {
      const input = Buffer.concat([...contents.flatMap((c) => [c, Buffer.from('\n')])]);
      const r = run(['edit', 'big.txt', ...shownRange(dir, n, to)], dir, { input });
      expect(r.status, r.stderr).toBe(0);
      const want = withLines(versions[versions.length - 1]!, n, contents);
      expect(fs.readFileSync(file).equals(want)).toBe(true);
      versions.push(want);
    }
    for (let i = versions.length - 1; i > 0; i--) {
      const r = run(['undo'], dir);
      expect(r.status, r.stderr).toBe(0);
      expect(fs.readFileSync(file).equals(versions[i - 1]!)).toBe(true);
    }
    const redo = run(['redo'], dir);
    expect(redo.status, redo.stderr).toBe(0);
    expect(fs.readFileSync(file).equals(versions[1]!)).toBe(true);
  });

  it('insert and delete lines (the line count changes), and the index they leave shows the right lines', () => {
    const dir = tempRepo();
    const original = bigText();
    const file = write(dir, 'big.txt', original);
    age(file);
    // The first edit reads the file whole; the next ones follow rt's own write.
    expect(run(['edit', 'big.txt', ...shownRange(dir, 10)], dir, { input: 'ten\n' }).status).toBe(0);
    const v1 = withLines(original, 10, [Buffer.from('ten')]);
    const inserted = run(['insert', 'big.txt', ...shownRange(dir, 5000)], dir, { input: 'new\t1\nnew 2\n' });
    expect(inserted.status, inserted.stderr).toBe(0);
    const at5000 = lineStart(v1, 5000);
    const v2 = Buffer.concat([v1.subarray(0, at5000), Buffer.from('new\t1\r\nnew 2\r\n'), v1.subarray(at5000)]);
    expect(fs.readFileSync(file).equals(v2)).toBe(true);
    // A window far below is read by the checkpoints the insert saved: its line 30000 is the old 29998.
    expect(openWindow(dir, 'big.txt:30000').lines.find((l) => l.n === 30000)?.content).toMatch(/^\tmarker 29998 x*$/);
    const deleted = run(['delete', 'big.txt', ...shownRange(dir, 7000)], dir);
    expect(deleted.status, deleted.stderr).toBe(0);
    const v3 = Buffer.concat([v2.subarray(0, lineStart(v2, 7000)), v2.subarray(lineStart(v2, 7001))]);
    expect(fs.readFileSync(file).equals(v3)).toBe(true);
    // And by those the delete saved.
    const far = openWindow(dir, 'big.txt:30000');
    expect(far.total).toBe(LINES + 1);
    // Two lines added above it and one taken away: its line 30000 is the old 29999.
    expect(far.lines.find((l) => l.n === 30000)?.content).toMatch(/^\tmarker 29999 x*$/);
    expect(far.lines.find((l) => l.n === 30001)?.content).toMatch(/^\tmarker 30000 $/);
    for (const before of [v2, v1]) {
      expect(run(['undo'], dir).status).toBe(0);
      expect(fs.readFileSync(file).equals(before)).toBe(true);
    }
  });

  it('refuse a line changed since it was shown, by rt or by a write in place right after rt', () => {
    const dir = tempRepo();
    const file = write(dir, 'big.txt', bigText());
    age(file);
    expect(run(['edit', 'big.txt', ...shownRange(dir, 10)], dir, { input: 'ten\n' }).status).toBe(0);
    const stale = shownRange(dir, 20_001);
    expect(run(['edit', 'big.txt', ...stale], dir, { input: 'once\n' }).status).toBe(0);
    const before = fs.readFileSync(file);
    const again = run(['edit', 'big.txt', ...stale], dir, { input: 'twice\n' });
    expect(again.status).toBe(3);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    // Right after an edit by rt, another program rewrites a shown line in place, as many bytes,
    // and puts the content time back: the next edit of that line must not take it as rt's.
    const shown = shownRange(dir, 30_000);
    expect(run(['edit', 'big.txt', ...shownRange(dir, 10)], dir, { input: 'ten again\n' }).status).toBe(0);
    const st = fs.statSync(file, { bigint: true });
    const bytes = fs.readFileSync(file);
    const at = bytes.indexOf('marker 30000 ');
    const fd = fs.openSync(file, 'r+');
    fs.writeSync(fd, Buffer.from('MARKER'), 0, 6, at);
    fs.closeSync(fd);
    const ns = st.mtimeNs;
    execFileSync('touch', [
      '-m',
      '-d',
      `@${ns / 1_000_000_000n}.${String(ns % 1_000_000_000n).padStart(9, '0')}`,
      file,
    ]);
    const outside = fs.readFileSync(file);
    const refused = run(['edit', 'big.txt', ...shown], dir, { input: 'mine\n' });
    expect(refused.status).toBe(3);
    expect(fs.readFileSync(file).equals(outside)).toBe(true);
  });
});

describe('undo of a big edit made around its change', () => {
  it.each([
    ['an insert before line 1', ['insert', 'big.txt', '1', '--force'], [1, 3]],
    ['an edit of line 1', ['edit', 'big.txt', '1', '--force'], [1, 3]],
    ['an edit in the middle', ['edit', 'big.txt', '20001', '--force'], [20_000, 20_002]],
    ['an insert at the end', ['insert', 'big.txt', '$', '--force'], [LINES - 2, LINES]],
  ] as const)('gives back the LIDs shown before it: %s', (_, args, [from, to]) => {
    const dir = tempRepo();
    const lines = Array.from({ length: LINES }, (_, i) => `line ${String(i).padStart(6, '0')} of a big file, padded`);
    const file = write(dir, 'big.txt', `${lines.join('\n')}\n`);
    age(file);
    // A first edit reads the file whole (its index was taken just after the file changed); the one
    // after it follows rt's own write, and reads only around its change.
    expect(run(['edit', 'big.txt', '30000', '--force'], dir, { input: 'first\n' }).status).toBe(0);
    const before = openWindow(dir, `big.txt:${from}-${to}`).lids;
    expect(run([...args], dir, { input: 'NEW\n' }).status).toBe(0);
    expect(run(['undo'], dir).status).toBe(0);
    expect(openWindow(dir, `big.txt:${from}-${to}`).lids).toEqual(before);
  });
});

describe('edits of a big file whose index is read only around their change', () => {
  it('write the lines they name, leave an index every window reads, refuse a stale line, and are undone', () => {
    const lines = 70_000;
    const dir = tempRepo();
    const original = bigFile('\r\n', true, false, lines);
    const file = write(dir, 'big.txt', original);
    age(file);
    // The first edit reads the file whole; the next ones follow rt's own write.
    expect(run(['edit', 'big.txt', ...shownRange(dir, 10)], dir, { input: 'ten\n' }).status).toBe(0);
    const versions = [original, withLines(original, 10, [Buffer.from('ten')])];
    const last = () => versions[versions.length - 1]!;
    // By number and LID, and by LID alone (found where the view showed it).
    const stale = shownRange(dir, 40_001);
    const r1 = run(['edit', 'big.txt', `40001:${stale[0]}`], dir, { input: Buffer.from('forty\xff\n', 'latin1') });
    expect(r1.status, r1.stderr).toBe(0);
    versions.push(withLines(last(), 40_001, [Buffer.from('forty\xff', 'latin1')]));
    expect(fs.readFileSync(file).equals(last())).toBe(true);
    const r2 = run(['edit', 'big.txt', shownRange(dir, 50_000)[0]!], dir, { input: '\n' });
    expect(r2.status, r2.stderr).toBe(0);
    versions.push(withLines(last(), 50_000, [Buffer.alloc(0)]));
    expect(fs.readFileSync(file).equals(last())).toBe(true);
    // Two lines inserted: every block after them moves by other than whole blocks.
    const inserted = run(['insert', 'big.txt', ...shownRange(dir, 35_000)], dir, { input: 'new\t1\nnew 2\n' });
    expect(inserted.status, inserted.stderr).toBe(0);
    const at = lineStart(last(), 35_000);
    versions.push(Buffer.concat([last().subarray(0, at), Buffer.from('new\t1\r\nnew 2\r\n'), last().subarray(at)]));
    expect(fs.readFileSync(file).equals(last())).toBe(true);
    const deleted = run(['delete', 'big.txt', ...shownRange(dir, 60_000)], dir);
    expect(deleted.status, deleted.stderr).toBe(0);
    versions.push(
      Buffer.concat([last().subarray(0, lineStart(last(), 60_000)), last().subarray(lineStart(last(), 60_001))]),
    );
    expect(fs.readFileSync(file).equals(last())).toBe(true);
    // The index saved is read whole, every block's digest checked, and by its checkpoints far below.
    const far = openWindow(dir, 'big.txt:65000');
    expect(far.total).toBe(lines + 1);
    expect(far.lines.find((l) => l.n === 65_000)?.content).toMatch(/^\tmarker 64999 x*$/);
    const all = run(['grep-file', '-F', 'marker 69999 ', 'big.txt'], dir);
    expect(all.stderr).toBe('');
    expect(all.stdout.toString()).toContain(`70000:${openWindow(dir, 'big.txt:70000').lidAt(70_000)}|`);
    // The line changed since it was shown is refused, nothing written.
    const again = run(['edit', 'big.txt', `40001:${stale[0]}`], dir, { input: 'again\n' });
    expect(again.status).toBe(3);
    expect(fs.readFileSync(file).equals(last())).toBe(true);
    for (let i = versions.length - 1; i > 0; i--) {
      const r = run(['undo'], dir);
      expect(r.status, r.stderr).toBe(0);
      expect(fs.readFileSync(file).equals(versions[i - 1]!)).toBe(true);
    }
  });
});
