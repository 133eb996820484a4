// An edit of a big file whose saved index still describes it reads only the blocks around its
// change (src/store/bigEdit.ts) and copies the rest from the file as it writes (Unread in
// src/store/writeFile.ts): the bytes written, the LIDs and the line starts the index keeps must be
// those of the same edit made on the file read whole, and anything it cannot vouch for is left to
// that whole reading.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { hashLines } from '../../src/model/hash.js';
import { buildIndex, type LineIndex } from '../../src/model/lineIndex.js';
import { lineContent, splitLines, type FileLines } from '../../src/model/lines.js';
import { applyChanges, type PlannedChange } from '../../src/model/patch/plan.js';
import { BIG_EDIT_AT, editAround, type LidLookup, STREAM_LINES, wholeIndex } from '../../src/store/bigEdit.js';
import { contentDigest, saveIndex, statFile } from '../../src/store/indexedFile.js';
import { BLOCK, SavedIndex } from '../../src/store/savedIndex.js';
import { StateStore } from '../../src/store/state.js';
import { versionOf, writeTemp } from '../../src/store/writeFile.js';
import { readSettings } from '../../src/settings/env.js';
import { bigFile, savedAsWritten } from '../support/bigFiles.js';
import { cleanup, tempDir } from '../e2e/harness.js';

afterAll(cleanup);

const root = fs.realpathSync(tempDir());
fs.mkdirSync(path.join(root, '.rt'));
/** The store's messages, gathered while a test sets this; else a message fails the test. */
let said: string[] | undefined;
const store = new StateStore(root, readSettings({}), (m) => {
  if (!said) throw new Error(m);
  said.push(m);
});
afterEach(() => {
  said = undefined;
});

/** About 1.5 MB: a BOM, CRLF endings with some LF, tabs, invalid UTF-8, empty lines, and no final newline. */
const bigText = (lines?: number) => bigFile('\r\n', true, false, lines);

/** `bytes` at `rel` with its index saved, as rt's own write leaves them (see savedAsWritten). */
const indexed = (rel: string, bytes: Buffer, racy = false) => savedAsWritten(store, root, rel, bytes, racy);

/** A plan replacing `deleteCount` lines at `start` (0-based) with `insert`. */
function replacing(start: number, deleteCount: number, insert: string[]) {
  const hunk = {
    kind: 'range',
    op: 'edit',
    line: 0,
    from: { kind: 'line', line: start + 1 },
    to: { kind: 'line', line: start + deleteCount },
    rows: [],
  } as const;
  return (_lines: FileLines, _index: LineIndex): PlannedChange[] => [
    { start, deleteCount, insert: insert.map((t) => Buffer.from(t, 'latin1')), hunk: hunk as never },
  ];
}

/** The bytes an edit planned by editAround writes (its unread ranges copied from the file). */
function written(abs: string, parts: readonly Buffer[], unread: Parameters<typeof writeTemp>[5]): Buffer {
  const temp = `${abs}.out`;
  writeTemp(abs, parts, 'big.txt', temp, undefined, unread);
  const bytes = fs.readFileSync(temp);
  fs.rmSync(temp);
  return bytes;
}

/** Expects `rel` holding `original`, edited around lines start..start+deleteCount-1, to get the whole file's edit. */
function expectSameEdit(rel: string, original: Buffer, start: number, deleteCount: number, insert: string[]): void {
  expect(original.length).toBeGreaterThanOrEqual(BIG_EDIT_AT);
  const { abs, file, lines, index } = indexed(rel, original);
  const plan = replacing(start, deleteCount, insert);
  const big = editAround(store, file, versionOf(fs.lstatSync(abs)), plan);
  expect(big).toBeDefined();
  const whole = applyChanges(lines, index, plan(lines, index));
  const want = Buffer.concat(whole.parts);
  const got = written(abs, big!.applied.parts, big!.unread);
  expect(got.equals(want)).toBe(true);
  // The digest taken while writing is the one of the bytes written.
  expect(contentDigest(big!.applied.parts)).toBe(contentDigest([got]));
  expect([...big!.applied.index.lids]).toEqual([...whole.index.lids]);
  const after = splitLines(want);
  expect(big!.applied.lines.count).toBe(after.count);
  for (let i = 0; i < after.count; i += BLOCK) expect(big!.applied.lines.starts[i]).toBe(after.starts[i]);
  expect(big!.applied.lines.starts[after.count]).toBe(want.length);
}

describe('an edit of a big file read only around its change', () => {
  for (const [name, start, deleteCount, insert] of [
    ['a line in the middle', 20_000, 1, ['changed']],
    ['the first line (after the BOM)', 0, 1, ['first']],
    ['the last line (no final newline)', 39_999, 1, ['last']],
    ['two lines by two, across a block boundary', 2 * BLOCK - 1, 2, ['a\tb', 'c\xff']],
    ['a block of lines by none', 10_000, BLOCK, []],
    ['a line by two', 20_000, 1, ['two', 'lines']],
    ['a line by none, near the end', 39_990, 1, []],
    ['two lines inserted before the last', 39_999, 0, ['new', 'lines']],
    ['three lines by one, the last of them last in the file', 39_997, 3, ['end']],
    ['lines appended (the last line gains its ending)', 40_000, 0, ['more', 'lines']],
    ['the last line deleted (the one before it loses its ending)', 39_999, 1, []],
    ['an empty line put last', 39_999, 1, ['']],
    // The index made in place (spliceInPlace), or left to spliceIndex when a line may have moved.
    ['a line by an empty one (a content the file repeats)', 20_000, 1, ['']],
    ['ten lines by twelve new ones', 20_000, 10, Array.from({ length: 12 }, (_, i) => `new ${i}`)],
    ['two lines swapped (a line moved within the region)', 20_000, 2, ['\tmarker 20002 xx', '\tmarker 20001 x']],
  ] as const) {
    it(`writes the bytes and LIDs of the edit made on the whole file: ${name}`, () => {
      for (const [kind, original] of [
        ['crlf', bigText()],
        ['lf', bigFile('\n', false, true)],
      ] as const)
        expectSameEdit(`f-${start}-${deleteCount}-${insert.length}-${kind}.txt`, original, start, deleteCount, [
          ...insert,
        ]);
    });
  }

  it('reads the first bytes of the new content (they tell a binary file) when short lines go from its start', () => {
    // Short lines: the first blocks hold few bytes, and deleting some brings later ones to the start.
    const short = Buffer.from(Array.from({ length: 250_000 }, (_, n) => `${n.toString(36)}\n`).join(''));
    expectSameEdit('short.txt', short, 0, 5 * BLOCK, []);
    const { abs, file } = indexed('shorter.txt', short);
    const far = replacing(0, 9 * BLOCK, []);
    expect(editAround(store, file, versionOf(fs.lstatSync(abs)), far)).toBeUndefined();
  });

  it('leaves to a whole reading an edit that changes nothing', () => {
    const { abs, file, lines } = indexed('unchanged.txt', bigText());
    const same = lineContent(lines, 100).toString('latin1');
    expect(editAround(store, file, versionOf(fs.lstatSync(abs)), replacing(100, 1, [same]))).toBeUndefined();
  });

  it('leaves to a whole reading a small file, a racy stamp, and a line that is not the one indexed', () => {
    const small = indexed('small.txt', bigText(1000));
    expect(editAround(store, small.file, versionOf(fs.lstatSync(small.abs)), replacing(5, 1, ['x']))).toBeUndefined();
    const racy = indexed('racy.txt', bigText(), true);
    expect(editAround(store, racy.file, versionOf(fs.lstatSync(racy.abs)), replacing(5, 1, ['x']))).toBeUndefined();
    // An index saved for this stamp but of other content (as if the file changed within its stamp).
    const other = indexed('other.txt', bigText());
    const changed = Buffer.from(bigText());
    changed.write('MARKER', changed.indexOf('marker 20001 '), 'latin1');
    const lines = splitLines(changed);
    expect(saveIndex(store, 'other.txt', lines, buildIndex(hashLines(lines)), statFile(other.file))).toBe(true);
    expect(
      editAround(store, other.file, versionOf(fs.lstatSync(other.abs)), replacing(20_000, 1, ['x'])),
    ).toBeUndefined();
  });

  it('refuses to write when the file changed since it was read, nothing written', () => {
    const { abs, file } = indexed('moved.txt', bigText());
    const big = editAround(store, file, versionOf(fs.lstatSync(abs)), replacing(20_000, 1, ['x']))!;
    fs.appendFileSync(abs, 'more');
    expect(() => written(abs, big.applied.parts, big.unread)).toThrow(/changed while it was being edited/);
    expect(fs.readdirSync(root).filter((n) => n.startsWith('moved.txt.'))).toEqual([]);
  });
});

/** Changes the record of 0-based line `line` of `rel`'s saved index in the pack (one base64 character for another). */
function damageRecord(rel: string, line: number): void {
  const pack = path.join(root, '.rt', 'pack');
  const segment = fs
    .readdirSync(pack)
    .find((name) => fs.readFileSync(path.join(pack, name)).includes(`"path":"${rel}"`))!;
  const bytes = fs.readFileSync(path.join(pack, segment));
  const at = bytes.indexOf(',"records":"', bytes.indexOf(`"path":"${rel}"`)) + ',"records":"'.length + 16 * line;
  bytes[at] = bytes[at] === 0x41 ? 0x42 : 0x41;
  fs.writeFileSync(path.join(pack, segment), bytes);
}

/** A plan as planHunks makes it from line anchors: it looks up the lines it names (with `lookup`, where given). */
function naming(start: number, deleteCount: number, insert: string[]) {
  const plan = replacing(start, deleteCount, insert);
  return (lines: FileLines, index: LineIndex, lookup?: LidLookup): PlannedChange[] => {
    if (lookup && deleteCount > 0) {
      lookup.lidCodeAt(start);
      lookup.lidCodeAt(start + deleteCount - 1);
    }
    return plan(lines, index);
  };
}

describe('an edit of a big file whose index is read only around its change', () => {
  const LINES = STREAM_LINES + 4_000;
  for (const [name, start, deleteCount, insert] of [
    ['a line in the middle', 40_000, 1, ['changed']],
    ['the first line (after the BOM)', 0, 1, ['first']],
    ['the last line (no final newline)', LINES - 1, 1, ['last']],
    ['a line by two (every block after it moves)', 40_000, 1, ['two', 'lines']],
    ['a block of lines by none', 10_000, BLOCK, []],
    ['lines appended', LINES, 0, ['more', 'lines']],
    ['a line by an empty one (a content the file repeats)', 40_001, 1, ['']],
    ['a line by a repeated one and a unique one', 40_000, 1, ['', 'unique']],
    [
      'two lines swapped (a line moved within the region: the whole index read)',
      40_000,
      2,
      ['\tmarker 40002 xx', '\tmarker 40001 x'],
    ],
  ] as const) {
    it(`writes the bytes, LIDs and saved index of the edit made on the whole file: ${name}`, () => {
      const rel = `s-${start}-${deleteCount}-${insert.length}.txt`;
      const original = bigText(LINES);
      const { abs, file, lines, index } = indexed(rel, original);
      const plan = naming(start, deleteCount, [...insert]);
      const big = editAround(store, file, versionOf(fs.lstatSync(abs)), plan)!;
      expect(big).toBeDefined();
      expect(big.snapshot.saved!.partial ?? false).toBe(!name.includes('the whole index read'));
      const whole = applyChanges(lines, index, plan(lines, index));
      const want = Buffer.concat(whole.parts);
      const got = written(abs, big.applied.parts, big.unread);
      expect(got.equals(want)).toBe(true);
      // The LIDs of the lines around the change, the new ones among them, and the retired ones.
      const count = whole.index.lids.length;
      const around = (a: Uint32Array) => [
        ...a.subarray(Math.max(0, start - 4), Math.min(count, start + insert.length + 4)),
      ];
      expect(around(big.applied.index.lids)).toEqual(around(whole.index.lids));
      expect(big.applied.index.retired).toEqual(whole.index.retired);
      expect([...wholeIndex(big.applied.index).lids]).toEqual([...whole.index.lids]);
      // The index saved from the records kept is the whole edit's, every block's digest right.
      fs.writeFileSync(abs, got);
      const kept = { ...big.snapshot.saved!, start, end: start + deleteCount, inserted: insert.length };
      const after = splitLines(got);
      expect(saveIndex(store, rel, after, big.applied.index, statFile(file), { parts: [got], kept })).toBe(true);
      const records = SavedIndex.open(store, rel)!.records()!;
      expect([...records.lids]).toEqual([...whole.index.lids]);
      expect([...records.h1]).toEqual([...whole.index.h1]);
    });
  }

  it('leaves to a whole reading an index whose records far from the change prove damaged, and never trusts it', () => {
    const rel = 's-damaged.txt';
    const { abs, file } = indexed(rel, bigText(LINES));
    damageRecord(rel, 60_000);
    // (This store throws what it would say: the damage found in the first pass over the records.)
    expect(() => editAround(store, file, versionOf(fs.lstatSync(abs)), naming(40_000, 1, ['x']))).toThrow(
      /records of lines 59393-60416 are damaged/,
    );
    expect(SavedIndex.open(store, rel)).toBeUndefined();
  });

  it('checks every record before a pure deletion (no pass made) copies them and re-digests the blocks moved', () => {
    const rel = 's-damaged-deletion.txt';
    const { abs, file, lines, index } = indexed(rel, bigText(LINES));
    damageRecord(rel, 60_000);
    said = [];
    const plan = naming(20_000, 1, []);
    const big = editAround(store, file, versionOf(fs.lstatSync(abs)), plan);
    // Undefined: the file is read whole, as for no index; else its edit is saved from the records kept.
    const whole = applyChanges(lines, index, plan(lines, index));
    const want = Buffer.concat(whole.parts);
    const got = big ? written(abs, big.applied.parts, big.unread) : want;
    expect(got.equals(want)).toBe(true);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/records of lines 59393-60416 are damaged/);
    fs.writeFileSync(abs, got);
    const kept = big && { ...big.snapshot.saved!, start: 20_000, end: 20_001, inserted: 0 };
    const saved = big?.applied.index ?? whole.index;
    expect(saveIndex(store, rel, splitLines(got), saved, statFile(file), { parts: [got], ...(kept && { kept }) })).toBe(
      true,
    );
    const records = SavedIndex.open(store, rel)?.records();
    expect(said).toHaveLength(1);
    expect(records && [...records.lids]).toEqual([...whole.index.lids]);
    expect(records && [...records.h1]).toEqual([...whole.index.h1]);
    expect(records && [...records.h2]).toEqual([...whole.index.h2]);
  });

  it('finds a line named by LID where the view showed it, else by a pass over the records', () => {
    const { abs, file, index } = indexed('s-lookup.txt', bigText(LINES));
    let found: number[] = [];
    const plan = (_lines: FileLines, _index: LineIndex, lookup?: LidLookup): PlannedChange[] => {
      found = [
        lookup!.lineOf(index.lids[50_000]!, [50_001]),
        lookup!.lineOf(index.lids[60_000]!, [3]),
        lookup!.lineOf(1, []),
      ];
      return naming(50_000, 1, ['x'])(_lines, _index, lookup);
    };
    expect(editAround(store, file, versionOf(fs.lstatSync(abs)), plan)).toBeDefined();
    expect(found).toEqual([50_000, 60_000, -1]);
  });
});
