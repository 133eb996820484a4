// A big edit scans the rest of its file for the new checkpoints (startsAfter, bigEdit.ts) and copies
// its unread ranges (writeWithUnread, writeFile.ts) 256 KiB at a time: a newline, a CRLF or a
// multi-byte character that falls exactly on a piece's last byte must change nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LineIndex } from '../../src/model/lineIndex.js';
import { splitLines, type FileLines } from '../../src/model/lines.js';
import { applyChanges, type PlannedChange } from '../../src/model/patch/plan.js';
import { editAround } from '../../src/store/bigEdit.js';
import { BLOCK } from '../../src/store/savedIndex.js';
import { StateStore } from '../../src/store/state.js';
import { versionOf, writeTemp } from '../../src/store/writeFile.js';
import { readSettings } from '../../src/settings/env.js';
import { savedAsWritten } from '../support/bigFiles.js';
import { cleanup, tempDir } from '../e2e/harness.js';

afterAll(cleanup);
const root = fs.realpathSync(tempDir());
fs.mkdirSync(path.join(root, '.rt'));
const store = new StateStore(root, readSettings({}), (m) => {
  throw new Error(m);
});
const PIECE = 1 << 18;

/** `count` lines of `width` bytes each (ending included), `eol` endings; block-start lines `extra` bytes longer. */
function fixed(count: number, width: number, eol: string, extra = 0, utf8 = false): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const w = width + (i % BLOCK === 0 ? extra : 0) - eol.length;
    let body = `line ${i} `;
    if (utf8) body += '\u00e9\u20ac'.repeat(40);
    const b = Buffer.from(body, 'utf8');
    const line = Buffer.alloc(w, 'x'.charCodeAt(0));
    b.copy(line, 0, 0, Math.min(b.length, w));
    parts.push(line, Buffer.from(eol, 'latin1'));
  }
  return Buffer.concat(parts);
}

function expectSameEdit(rel: string, original: Buffer, start: number, deleteCount: number, insert: string[]) {
  const { abs, file, lines, index } = savedAsWritten(store, root, rel, original);
  const plan = (_l: FileLines, _i: LineIndex): PlannedChange[] => [
    {
      start,
      deleteCount,
      insert: insert.map((t) => Buffer.from(t, 'latin1')),
      hunk: {
        kind: 'range',
        op: 'edit',
        line: 0,
        from: { kind: 'line', line: start + 1 },
        to: { kind: 'line', line: start + deleteCount },
        rows: [],
      } as never,
    },
  ];
  const big = editAround(store, file, versionOf(fs.lstatSync(abs)), plan);
  expect(big, 'taken by the big edit').toBeDefined();
  const whole = applyChanges(lines, index, plan(lines, index));
  const want = Buffer.concat(whole.parts);
  const temp = `${abs}.out`;
  writeTemp(abs, big!.applied.parts, 'big.txt', temp, undefined, big!.unread);
  const got = fs.readFileSync(temp);
  fs.rmSync(temp);
  expect(got.equals(want)).toBe(true);
  expect([...big!.applied.index.lids]).toEqual([...whole.index.lids]);
  const after = splitLines(want);
  expect(big!.applied.lines.count).toBe(after.count);
  for (let i = 0; i < after.count; i += BLOCK)
    expect(big!.applied.lines.starts[i], `checkpoint ${i}`).toBe(after.starts[i]);
}

describe('a big edit at its 256 KiB pieces’ boundaries', () => {
  it('a newline on the last byte of every piece, the line after it a new checkpoint (512 lines added)', () => {
    // 512-byte lines: every scan piece (from a checkpoint) ends on a newline, and every other one
    // starts line 512 mod 1024.
    // (More blocks than the first ten read: the rest is scanned, not read.)
    const original = fixed(24 * BLOCK + 7, 512, '\n');
    expect(PIECE % 512).toBe(0);
    expectSameEdit(
      'nl.txt',
      original,
      14 * BLOCK + 100,
      1,
      Array.from({ length: 513 }, (_, i) => `new ${i}`),
    );
    expectSameEdit('nl-del.txt', original, 14 * BLOCK + 100, 513, []);
  });
  it('a CRLF split across two pieces, and a file of exactly 8 pieces', () => {
    const crlf = fixed(24 * BLOCK + 3, 512, '\r\n', 2);
    expectSameEdit(
      'crlf.txt',
      crlf,
      14 * BLOCK + 50,
      1,
      Array.from({ length: 513 }, (_, i) => `new ${i}`),
    );
    const exact = fixed(24 * BLOCK, 512, '\n');
    expect(exact.length).toBe(48 * PIECE);
    expectSameEdit('exact.txt', exact, 13 * BLOCK + 5, 1, ['a', 'b']);
  });
  it('multi-byte characters across piece boundaries, no final newline', () => {
    const text = fixed(16 * BLOCK + 11, 509, '\n', 0, true);
    const noFinal = text.subarray(0, text.length - 1);
    expectSameEdit('utf8.txt', noFinal, 12 * BLOCK + 10, 0, ['inserted']);
    expectSameEdit('utf8-b.txt', noFinal, 12 * BLOCK + 1, 2, ['x']);
  });
});
