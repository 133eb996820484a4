// scanTable (src/model/wasmTable.ts) reads a pack table of the usual form as JSON.parse and the
// JavaScript checks read it, and leaves every other table to them.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanTable } from '../../src/model/wasmTable.js';
import { runs } from '../support/runs.js';

type Row = [key: string, offset: number, length: number, seq: number, touched: number, check: string | null];

const FIRST = 33;
const TOC_AT = 10_000_000;
const SEQ = 7;

const text = (rows: readonly unknown[]) => Buffer.from(`${JSON.stringify({ toc: rows })}\n`, 'utf8');

const plainKey = fc.stringMatching(/^(index|view):[ -!#-[\]-~]{0,40}$/);
const row = (key: fc.Arbitrary<string>) =>
  fc.tuple(
    key,
    fc.integer({ min: FIRST, max: TOC_AT - 1000 }),
    fc.integer({ min: -1, max: 1000 }),
    fc.integer({ min: -3, max: SEQ }),
    fc.integer({ min: 0, max: 2 ** 45 }),
    fc.option(fc.stringMatching(/^[0-9a-f]{16}$/), { nil: null }),
  ) as fc.Arbitrary<Row>;
const rows = fc.uniqueArray(row(plainKey), { selector: (r) => r[0], maxLength: 60 });

describe('scanTable', () => {
  it('reads every row of a table of the usual form, and finds each key (property)', () => {
    fc.assert(
      fc.property(rows, fc.array(plainKey, { maxLength: 5 }), (given, others) => {
        const table = scanTable(text(given), TOC_AT, SEQ, FIRST)!;
        expect(table).toBeDefined();
        expect(table.size).toBe(given.length);
        expect(table.bytes).toBe(given.reduce((n, r) => n + Math.max(0, r[2]), 0));
        expect(table.tombstoneCount).toBe(given.filter((r) => r[2] === -1).length);
        given.forEach((r, i) => {
          expect(table.row(r[0])).toBe(i);
          expect([
            table.keyOf(i),
            table.offsetOf(i),
            table.lengthOf(i),
            table.seqOf(i),
            table.touchedOf(i),
            table.checkOf(i),
          ]).toEqual(r);
        });
        for (const key of others) expect(table.row(key)).toBe(given.findIndex((r) => r[0] === key));
        expect(table.row('view:é')).toBe(-1);
      }),
      { numRuns: runs(500) },
    );
  });

  it('reads a big table in pieces, every row found', () => {
    const given: Row[] = Array.from({ length: 20_000 }, (_, i) => [
      `index:d${i % 100}/f${i}.js`,
      FIRST + i * 100,
      i % 97 === 0 ? -1 : 99,
      SEQ,
      1795914471846 + i,
      i % 2 ? 'da96e7ef7d69a4e6' : null,
    ]);
    const table = scanTable(text(given), TOC_AT, SEQ, FIRST)!;
    expect(table.size).toBe(given.length);
    for (const i of [0, 1, 96, 97, 9_999, 19_999]) {
      expect(table.row(given[i]![0])).toBe(i);
      expect(table.lengthOf(i)).toBe(given[i]![2]);
      expect(table.checkOf(i)).toBe(given[i]![5]);
    }
  });

  it('leaves to JSON.parse what is not in the usual form, and refuses what does not check', () => {
    const good: Row = ['index:a.txt', 40, 10, 3, 1795914471846, null];
    expect(scanTable(text([good]), TOC_AT, SEQ, FIRST)).toBeDefined();
    expect(scanTable(text([]), TOC_AT, SEQ, FIRST)?.size).toBe(0);
    for (const bad of [
      text([['index:"q".txt', 40, 10, 3, 1, null]]), // an escape
      text([['index:a\\b.txt', 40, 10, 3, 1, null]]),
      text([['index:tab\t.txt', 40, 10, 3, 1, null]]),
      text([['index:café.txt', 40, 10, 3, 1, null]]), // not ASCII
      text([['index:a.txt', 40, 10, 3, 1.5, null]]), // a fraction
      text([['index:a.txt', 40, 10, 3, 1e21, null]]),
      text([['index:a.txt', 40, 10, 3, 1, 'ABCDEF0123456789']]), // not lower hex
      text([['index:a.txt', 40, 10, 3, 1, 'abc']]),
      text([['index:a.txt', 40, 10, 3, 1, 7]]),
      text([['index:a.txt', 40, 10, 3, 1]]), // a field short
      text([['index:a.txt', 40, 10, 3, 1, null, 0]]),
      text([good, good]), // a key twice
      text([['index:a.txt', 40, 10, SEQ + 1, 1, null]]), // what the checks refuse
      text([['index:a.txt', FIRST - 1, 10, 3, 1, null]]),
      text([['index:a.txt', 40, -2, 3, 1, null]]),
      text([['index:a.txt', TOC_AT - 5, 10, 3, 1, null]]),
      text([['index:a.txt', 1e16, 10, 3, 1, null]]),
      Buffer.from('{"toc":[["index:a.txt",040,10,3,1,null]]}\n'), // a leading zero, which JSON.parse refuses
      Buffer.from('{"toc":[["index:a.txt",40,10,-01,1,null]]}\n'),
      Buffer.from('{"toc":[["index:a.txt",40,10,3,01795914471846,null]]}\n'),
      Buffer.from('{"toc": []}\n'),
      Buffer.from('{"toc":[["index:a.txt",40,10,3,1,null] ]}\n'),
      Buffer.from('{"toc":[["index:a.txt",40,10,3,1,null],]}\n'),
      Buffer.from('{"toc":[["index:a.txt",40,10,3,1,null]]}'),
      Buffer.from('{"toc":[["index:a.txt",40,10,3,1,nul]]}\n'),
      Buffer.from('{"toc":[["index:a.txt",40,10,3,-,null]]}\n'),
      Buffer.from('{"toc":[["index:a.txt",40,10,3,1,null]'),
    ])
      expect(scanTable(bad, TOC_AT, SEQ, FIRST), bad.toString()).toBeUndefined();
  });
});
