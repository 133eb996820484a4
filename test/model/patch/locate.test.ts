// locateHunk and hunkSplices (core/patch/locate.ts): where a context hunk goes (exact,
// then ignoring trailing whitespace, then surrounding whitespace; one place only, after its
// header and the previous hunk), and the splices it makes there.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  hunkSplices,
  indentShift,
  locateHunk,
  type LinesView,
  type Location,
} from '../../../src/model/patch/locate.js';
import type { PatchHunk, PatchRow } from '../../../src/model/patch/types.js';
import { runs } from '../../support/runs.js';

type ContextHunk = Extract<PatchHunk, { kind: 'context' }>;

const view = (lines: readonly string[]): LinesView => {
  const bufs = lines.map((l) => Buffer.from(l, 'latin1'));
  return { count: bufs.length, content: (i) => bufs[i]! };
};

/** A context hunk from rows written as in a patch (' a', '-b', '+c'). */
function hunk(rows: readonly string[], header?: string, endOfFile = false): ContextHunk {
  return {
    kind: 'context',
    line: 1,
    header: header === undefined ? undefined : Buffer.from(header, 'latin1'),
    rows: rows.map(
      (r, i): PatchRow => ({ tag: r[0] as PatchRow['tag'], text: Buffer.from(r.slice(1), 'latin1'), line: i + 2 }),
    ),
    endOfFile,
  };
}

const found = (start: number, oldCount: number, level: 0 | 1 | 2 | 3) => ({ found: true, start, oldCount, level });
// A hunk found nowhere was looked for down to the loosest level.
const miss = (reason: 'none' | 'many' | 'header', candidates: number[], level: 0 | 1 | 2 | 3 = 3) => ({
  found: false,
  reason,
  candidates,
  level,
});

describe('locateHunk', () => {
  it.each([
    // The levels.
    ['exact', ['a', 'b', 'c'], hunk([' b', '-c']), 0, found(1, 2, 0)],
    ['trailing whitespace in the file', ['a', 'b \t', 'c\r'], hunk([' b', '-c']), 0, found(1, 2, 1)],
    ['trailing whitespace in the hunk', ['a', 'b', 'c'], hunk([' b  ', '-c\v\f']), 0, found(1, 2, 1)],
    ['indentation differs', ['a', '  b', '\tc  '], hunk([' b', '-c']), 0, found(1, 2, 2)],
    ['a row matched at level 1 makes the hunk level 1', ['a', 'b', 'c '], hunk([' b', '-c']), 0, found(1, 2, 1)],
    ['inner whitespace is never ignored', ['a', 'b  c'], hunk(['-b c']), 0, miss('none', [])],
    [
      'other bytes than ASCII whitespace are not trimmed (a lone byte 0xa0 is no UTF-8 space)',
      ['a', '\u00a0b'],
      hunk(['-b']),
      0,
      miss('none', []),
    ],
    [
      'an empty row matches a line of whitespace at level 1',
      ['a', '  ', 'b'],
      hunk([' a', ' ', '-b']),
      0,
      found(0, 3, 1),
    ],
    // One place only, and a strict level is never traded for a loose one.
    ['two exact matches', ['x', 'a', 'y', 'a', 'z'], hunk(['-a']), 0, miss('many', [1, 3], 0)],
    ['three or more: the first three', ['a', 'a', 'a', 'a'], hunk(['-a']), 0, miss('many', [0, 1, 2], 0)],
    ['two at level 1 though none exact', ['a ', 'b', 'a\t'], hunk(['-a']), 0, miss('many', [0, 2], 1)],
    ['one exact wins over a loose one', ['a ', 'b', 'a', '  a'], hunk(['-a']), 0, found(2, 1, 0)],
    ['two exact are refused though one loose', ['a', 'b', 'a', ' a '], hunk(['-a', ' b']), 0, found(0, 2, 0)],
    [
      'several exact are refused, never resolved by a looser level',
      ['a', 'b', 'a', 'b', ' a'],
      hunk(['-a', ' b']),
      0,
      miss('many', [0, 2], 0),
    ],
    // After the previous hunk.
    ['from skips earlier matches', ['a', 'b', 'a', 'c'], hunk(['-a']), 1, found(2, 1, 0)],
    ['from at the match', ['a', 'b', 'a', 'c'], hunk(['-a']), 2, found(2, 1, 0)],
    ['nothing after from', ['a', 'b'], hunk(['-a']), 1, miss('none', [])],
    ['a hunk longer than the rest of the file', ['a', 'b'], hunk([' a', ' b', '-c']), 0, miss('none', [])],
    // A hunk of + rows alone appends at the end of the file.
    ['+ rows alone', ['a', 'b'], hunk(['+c']), 0, found(2, 0, 0)],
    ['+ rows alone into an empty file', [], hunk(['+c', '+d']), 0, found(0, 0, 0)],
    ['+ rows alone with a header', ['a', 'b'], hunk(['+c'], 'nowhere'), 1, found(2, 0, 0)],
    // *** End of File: only at the end.
    ['end of file', ['a', 'b', 'a'], hunk(['-a'], undefined, true), 0, found(2, 1, 0)],
    ['end of file, more rows', ['a', 'b', 'a', 'b'], hunk([' a', '-b'], undefined, true), 0, found(2, 2, 0)],
    ['end of file, loose', ['a', 'b', 'a '], hunk(['-a'], undefined, true), 0, found(2, 1, 1)],
    ['end of file, not there', ['a', 'b', 'c'], hunk(['-a'], undefined, true), 0, miss('none', [0])],
    ['end of file before from', ['a', 'b'], hunk(['-b'], undefined, true), 2, miss('none', [])],
  ] as const)('%s', (_name, lines, h, from, want) => {
    expect(locateHunk(view(lines), h, from)).toEqual(want);
  });

  describe('with a header: the first match at or after each line reading it', () => {
    const file = [
      'function a() {',
      '  return 1;',
      '}',
      'function b() {',
      '  return 1;',
      '}',
      'function c() {',
      '  x();',
      '  return 1;',
      '}',
    ];
    it.each([
      ['picks the match under its header', 'function b() {', 0, found(4, 1, 0)],
      ['the last function', 'function c() {', 0, found(8, 1, 0)],
      ['a header at a loose level', '  function b() {  ', 0, found(4, 1, 2)],
      ['a header line before each of two matches: ambiguous', '}', 0, miss('many', [4, 8], 0)],
      [
        "a header that is the hunk's own row: each of its lines its own match",
        '  return 1;',
        3,
        miss('many', [4, 8], 0),
      ],
      ['a header matching lines before different matches', 'function', 0, miss('header', [1, 4, 8])],
      ['no line reads the header', 'function d() {', 0, miss('header', [1, 4, 8])],
      ['the header before from does not count', 'function a() {', 3, miss('header', [4, 8])],
    ])('%s', (_name, header, from, want) => {
      expect(locateHunk(view(file), hunk(['-  return 1;'], header), from)).toEqual(want);
    });

    it('is ambiguous when several header lines are followed by different matches', () => {
      const twice = ['if (x) {', '  y();', '}', 'if (x) {', '  y();', '}'];
      expect(locateHunk(view(twice), hunk(['-  y();'], 'if (x) {'), 0)).toEqual(miss('many', [1, 4], 0));
      // The first header line is before from: only the second counts.
      expect(locateHunk(view(twice), hunk(['-  y();'], 'if (x) {'), 2)).toEqual(found(4, 1, 0));
    });

    it('takes a match starting at the header line itself (a hunk quoting its header as its first row)', () => {
      expect(locateHunk(view(['a', 'def f():', '  pass']), hunk([' def f():', '-  pass'], 'def f():'), 0)).toEqual(
        found(1, 2, 0),
      );
    });

    it('counts header lines followed by the same match once', () => {
      const f = ['h', 'h', 'x', 'h'];
      expect(locateHunk(view(f), hunk(['-x'], 'h'), 0)).toEqual(found(2, 1, 0));
    });

    it('is not found when the rows match only before every header line', () => {
      expect(locateHunk(view(['x', 'h', 'y']), hunk(['-x'], 'h'), 0)).toEqual(miss('none', [0]));
    });

    it('at the end of the file, after its header', () => {
      expect(locateHunk(view(['h', 'a', 'h', 'a']), hunk(['-a'], 'h', true), 0)).toEqual(found(3, 1, 0));
      expect(locateHunk(view(['a', 'h', 'b', 'a']), hunk(['-a'], 'h', true), 0)).toEqual(found(3, 1, 0));
      expect(locateHunk(view(['h', 'a', 'b', 'a']), hunk(['-a'], 'h', true), 0)).toEqual(found(3, 1, 0));
      // Not at the end: the candidates are wherever the rows match.
      expect(locateHunk(view(['a', 'b', 'a', 'h']), hunk(['-a'], 'h', true), 0)).toEqual(miss('none', [0, 2]));
    });
  });

  describe('nearest candidates of a hunk found nowhere', () => {
    it('are the starts where most rows match, ties to the nearest, nearest first', () => {
      const file = ['a', 'b', 'x', 'a', 'x', 'c', 'a', 'b', 'y', 'z', 'b'];
      // Rows a, b, c: start 0 has a, b (2); start 3 has a, c (2); start 6 has a, b (2); start 8 none; start 10 out of
      // range.
      expect(locateHunk(view(file), hunk([' a', ' b', '-c']), 0)).toEqual(miss('none', [0, 3, 6]));
      // From 1: only starts 3 and 6 have a row in its place.
      expect(locateHunk(view(file), hunk([' a', ' b', '-c']), 1)).toEqual(miss('none', [3, 6]));
      // Ties go to the nearest: four starts with one row each.
      const ties = ['q', 'a', 'q', 'a', 'q', 'a', 'q', 'a', 'q'];
      expect(locateHunk(view(ties), hunk(['-a', '-z']), 0)).toEqual(miss('none', [1, 3, 5]));
      expect(locateHunk(view(ties), hunk(['-a', '-z']), 2)).toEqual(miss('none', [3, 5, 7]));
    });

    it('prefer a better start far away to a worse one near', () => {
      // Starts 0, 2 and 4 have one row in place, start 6 two: 6 and the two nearest of the others.
      const file = ['a', 'q', 'a', 'q', 'a', 'q', 'a', 'b', 'q'];
      expect(locateHunk(view(file), hunk(['-a', '-b', '-c']), 0)).toEqual(miss('none', [0, 2, 6]));
    });

    it('count rows matching at any level', () => {
      expect(locateHunk(view(['q', '  a  ', 'q']), hunk(['-a', '-b']), 0)).toEqual(miss('none', [1]));
    });

    it('are none when no row matches anywhere', () => {
      expect(locateHunk(view(['q', 'r']), hunk(['-a']), 0)).toEqual(miss('none', []));
    });
  });

  describe("apply_patch's retry without trailing empty context rows", () => {
    it('finds a hunk whose last empty context rows stand for the final newline', () => {
      const h = hunk(['-a', '+b', ' ', ' ']);
      const at = locateHunk(view(['x', 'a']), h, 0);
      expect(at).toEqual(found(1, 1, 0));
      expect(hunkSplices(h, at as Location)).toEqual([{ start: 1, deleteCount: 1, insert: [Buffer.from('b')] }]);
    });

    it('keeps the empty rows when they match', () => {
      expect(locateHunk(view(['a', '', 'a']), hunk(['-a', ' ']), 0)).toEqual(found(0, 2, 0));
    });

    it('is not tried when the hunk is ambiguous with them', () => {
      expect(locateHunk(view(['a', '', 'a', '']), hunk(['-a', ' ']), 0)).toEqual(miss('many', [0, 2], 0));
    });

    it('reports the first miss when the retry finds nothing either', () => {
      expect(locateHunk(view(['a', 'q']), hunk(['-b', ' ']), 0)).toEqual(miss('none', []));
    });

    it('reports an ambiguity found by the retry', () => {
      expect(locateHunk(view(['a', 'q', 'a']), hunk(['-a', ' ']), 0)).toEqual(miss('many', [0, 2], 0));
    });

    it('is not tried when nothing but empty context rows is old', () => {
      expect(locateHunk(view(['a', 'b']), hunk([' ', '+x']), 0)).toEqual(miss('none', []));
    });

    it('is not tried when a + row follows the empty context row', () => {
      expect(locateHunk(view(['a']), hunk(['-a', ' ', '+x']), 0)).toEqual(miss('none', []));
    });
  });

  it('finds a 5-row hunk in 1,000,000 lines reading each line a few times, not once per place tried', () => {
    const lines = Array.from({ length: 1_000_000 }, (_, i) =>
      Buffer.from(`    const value${i % 1000} = compute(${i % 7});`),
    );
    lines[987_654] = Buffer.from('    const target = 1;');
    let reads = 0;
    const file: LinesView = { count: lines.length, content: (i) => (reads++, lines[i]!) };
    const h = hunk([
      ` ${lines[987_652]!}`,
      ` ${lines[987_653]!}`,
      '-    const target = 1;',
      '+    const target = 2;',
      ` ${lines[987_655]!}`,
      ` ${lines[987_656]!}`,
    ]);
    expect(locateHunk(file, h, 0)).toEqual(found(987_652, 5, 0));
    const missed = locateHunk(file, hunk([' nowhere', '-    const target = 3;']), 0);
    const withHeader = locateHunk(file, hunk(['-    const target = 1;'], '    const value0 = compute(0);'), 0);
    expect(missed).toMatchObject({ found: false, reason: 'none' });
    expect(withHeader).toEqual(found(987_654, 1, 0));
    // Each of the three searches reads a line about once (4.0 M reads in all when written); a
    // search that compared each place's rows afresh, or at every level, reads far more.
    expect(reads).toBeLessThan(3 * 2 * lines.length);
  });
});

describe('hunkSplices', () => {
  const at = (start: number, oldCount: number): Location => ({ found: true, start, oldCount, level: 0 });
  const text = (s: ReturnType<typeof hunkSplices>) =>
    s.map((x) => ({ ...x, insert: x.insert.map((b) => b.toString('latin1')) }));

  it.each([
    ['a replacement', [' a', '-b', '+B', ' c'], at(10, 3), [{ start: 11, deleteCount: 1, insert: ['B'] }]],
    ['a deletion', ['-a', '-b'], at(4, 2), [{ start: 4, deleteCount: 2, insert: [] }]],
    [
      'an insertion between context',
      [' a', '+x', '+y', ' b'],
      at(0, 2),
      [{ start: 1, deleteCount: 0, insert: ['x', 'y'] }],
    ],
    [
      '+ before - in one run',
      [' a', '+x', '-b', '-c', '+y', ' d'],
      at(2, 4),
      [{ start: 3, deleteCount: 2, insert: ['x', 'y'] }],
    ],
    [
      'two runs',
      ['-a', ' b', ' c', '+d', '-e', ' f'],
      at(5, 5),
      [
        { start: 5, deleteCount: 1, insert: [] },
        { start: 8, deleteCount: 1, insert: ['d'] },
      ],
    ],
    ['context only', [' a', ' b'], at(3, 2), []],
    ['+ rows alone, at the end', ['+x', '+'], at(7, 0), [{ start: 7, deleteCount: 0, insert: ['x', ''] }]],
    [
      'trailing empty context rows left out by the retry',
      ['-a', '+b', ' ', ' '],
      at(1, 1),
      [{ start: 1, deleteCount: 1, insert: ['b'] }],
    ],
  ] as const)('%s', (_name, rows, location, want) => {
    expect(text(hunkSplices(hunk(rows), location))).toEqual(want);
  });

  it('applied to the file, turn its old side into its new side', () => {
    const row = fc
      .tuple(fc.constantFrom(' ', '-', '+'), fc.constantFrom('a', 'b', 'c', ''))
      .map(([t, s]) => `${t}${s}`);
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 6 }),
        fc.array(row, { minLength: 1, maxLength: 8 }),
        fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 6 }),
        (before, rows, after) => {
          const old = rows.filter((r) => r[0] !== '+').map((r) => r.slice(1));
          const next = rows.filter((r) => r[0] !== '-').map((r) => r.slice(1));
          const file = [...before, ...old, ...after];
          const splices = hunkSplices(hunk(rows), at(before.length, old.length));
          const out = [...file];
          for (const s of [...splices].reverse())
            out.splice(s.start, s.deleteCount, ...s.insert.map((b) => b.toString('latin1')));
          expect(out).toEqual(
            old.length === 0 ? [...file.slice(0, before.length), ...next, ...after] : [...before, ...next, ...after],
          );
          // Splices are minimal: none is empty, and context rows are never inside one.
          for (const s of splices) expect(s.deleteCount + s.insert.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: runs(500) },
    );
  });
});

describe('the last level: Unicode punctuation read as ASCII, as apply_patch reads it', () => {
  const utf8View = (lines: readonly string[]): LinesView => {
    const bufs = lines.map((l) => Buffer.from(l, 'utf8'));
    return { count: bufs.length, content: (i) => bufs[i]! };
  };
  const utf8Hunk = (rows: readonly string[], header?: string): ContextHunk => ({
    kind: 'context',
    line: 1,
    header: header === undefined ? undefined : Buffer.from(header, 'utf8'),
    rows: rows.map(
      (r, i): PatchRow => ({ tag: r[0] as PatchRow['tag'], text: Buffer.from(r.slice(1), 'utf8'), line: i + 2 }),
    ),
    endOfFile: false,
  });

  it.each([
    [
      'an en dash and an em dash in the file, hyphens quoted',
      ['x', 'a \u2013 b \u2014 c'],
      utf8Hunk(['-a - b - c']),
      found(1, 1, 3),
    ],
    [
      'curly quotes in the file, straight ones quoted',
      ['say(\u201chi\u201d, \u2018x\u2019)'],
      utf8Hunk(['-say("hi", \'x\')']),
      found(0, 1, 3),
    ],
    [
      'straight quotes in the file, curly ones quoted',
      ['say("hi")'],
      utf8Hunk(['-say(\u201chi\u201d)']),
      found(0, 1, 3),
    ],
    ['a non-breaking space inside a line', ['a\u00a0b'], utf8Hunk(['-a b']), found(0, 1, 3)],
    ['a minus sign and a narrow no-break space', ['x \u2212 1\u202f%'], utf8Hunk(['-x - 1 %']), found(0, 1, 3)],
    ['with indentation too', ['    a \u2014 b'], utf8Hunk(['-a - b']), found(0, 1, 3)],
    [
      'a header read so',
      ['f(\u201cx\u201d) {', '  y', '}', 'g() {', '  y'],
      utf8Hunk(['-  y'], 'f("x") {'),
      found(1, 1, 3),
    ],
    ['other characters are never read as ASCII', ['caf\u00e9'], utf8Hunk(['-cafe']), miss('none', [])],
    ['an exact match wins over one at the last level', ['a \u2013 b', 'a - b'], utf8Hunk(['-a - b']), found(1, 1, 0)],
    [
      'two at the last level are ambiguous',
      ['a \u2013 b', 'a \u2014 b'],
      utf8Hunk(['-a - b']),
      miss('many', [0, 1], 3),
    ],
  ] as const)('%s', (_name, lines, h, want) => {
    expect(locateHunk(utf8View(lines), h, 0)).toEqual(want);
  });

  it('is never tried on bytes that are not UTF-8', () => {
    const file: LinesView = { count: 1, content: () => Buffer.from([0x61, 0xff, 0x20, 0xe2, 0x80, 0x93, 0x20, 0x62]) };
    expect(locateHunk(file, utf8Hunk(['-a\u00ff - b']), 0)).toMatchObject({ found: false });
  });
});

describe('indentShift: what the file indents more or less than the quoted rows', () => {
  const shiftOf = (lines: readonly string[], rows: readonly string[]) => {
    const h = hunk(rows);
    const at = locateHunk(view(lines), h, 0);
    if (!at.found) throw new Error('not found');
    const shift = indentShift(view(lines), h, at);
    const splices = hunkSplices(h, at, shift).map((x) => x.insert.map((b) => b.toString('latin1')));
    return {
      shift: shift && {
        remove: shift.remove.toString('latin1'),
        add: shift.add.toString('latin1'),
        ...(shift.tabs ? { tabs: shift.tabs } : {}),
        agreeing: shift.agreeing,
        rows: shift.rows,
      },
      splices,
    };
  };

  it.each([
    [
      'rows quoted 4 spaces short',
      ['def f(x):', '    if x:', '        return 1'],
      [' if x:', '-    return 1', '+    y = 1', '+    return y'],
      { remove: '', add: '    ', agreeing: 2, rows: 2 },
      [['        y = 1', '        return y']],
    ],
    [
      'rows quoted 4 spaces deep',
      ['if x:', '    return 1'],
      ['     if x:', '-        return 1', '+        return 2', '+    }'],
      { remove: '    ', add: '', agreeing: 2, rows: 2 },
      [['    return 2', '}']],
    ],
    [
      'a + row less indented than the shift takes off loses what it has',
      ['a', '  b'],
      ['-    a', '+  x', '+      b'],
      { remove: '    ', add: '', agreeing: 1, rows: 1 },
      [['x', '  b']],
    ],
    [
      'one tab in the file for 4 quoted spaces',
      ['\tif x:', '\t\treturn 1'],
      ['     if x:', '-        return 1', '+        return 2', '+          z'],
      { remove: '', add: '', tabs: { width: 4, more: 0 }, agreeing: 2, rows: 2 },
      [['\t\treturn 2', '\t\t  z']],
    ],
    [
      'a tab for 4 spaces, quoted a level short',
      ['\t\tif x:', '\t\t\treturn 1'],
      [' if x:', '-    return 1', '+    return 2'],
      { remove: '', add: '', tabs: { width: 4, more: 2 }, agreeing: 2, rows: 2 },
      [['\t\t\treturn 2']],
    ],
    [
      'a tab for 8 spaces',
      ['\tif x:', '\t\treturn 1'],
      ['         if x:', '-                return 1', '+                return 2'],
      { remove: '', add: '', tabs: { width: 8, more: 0 }, agreeing: 2, rows: 2 },
      [['\t\treturn 2']],
    ],
    [
      'one tab for the same spaces on every row is a plain shift',
      ['\tif x:', '\t    return 1'],
      ['     if x:', '-        return 1', '+        return 2'],
      { remove: '    ', add: '\t', agreeing: 2, rows: 2 },
      [['\t    return 2']],
    ],
    [
      'a tab for 2 quoted spaces on every row: + rows rewritten column by column',
      ['\tif x:', '\treturn 1'],
      ['   if x:', '-  return 1', '+\t\treturn 2', '+  return 3'],
      { remove: '', add: '', tabs: { width: 2, more: 0 }, agreeing: 2, rows: 2 },
      [['\t\treturn 2', '\treturn 3']],
    ],
    [
      'a + row indented otherwise than the quoted rows is written as given',
      ['  if x:', '  return 1'],
      ['     if x:', '-    return 1', '+\treturn 2', '+    return 3'],
      { remove: '  ', add: '', agreeing: 2, rows: 2 },
      [['\treturn 2', '  return 3']],
    ],
    [
      'blank rows say nothing and are written as given',
      ['  a', '', '  b'],
      [' a', ' ', '-b', '+', '+c', '+   '],
      { remove: '', add: '  ', agreeing: 2, rows: 2 },
      [['', '  c', '   ']],
    ],
    [
      'uneven: what most rows differ by wins',
      ['    a', '    b', '      c', '    d'],
      [' a', ' b', ' c', '-d', '+e'],
      { remove: '', add: '    ', agreeing: 3, rows: 4 },
      [['    e']],
    ],
    ['uneven, a tie: no shift', ['  a', '    b'], [' a', '-b', '+c'], undefined, [['c']]],
    ['matched exactly: no shift', ['  a', '  b'], ['   a', '-  b', '+  c'], undefined, [['  c']]],
    [
      'matched ignoring trailing whitespace only: no shift',
      ['  a ', '  b'],
      ['   a', '-  b', '+  c'],
      undefined,
      [['  c']],
    ],
    [
      'matched ignoring indentation that differs by nothing overall (rows differ unevenly, most by nothing)',
      ['  a', '  b', 'c'],
      ['   a', '   b', '-  c', '+  d'],
      undefined,
      [['  d']],
    ],
  ] as const)('%s', (_name, lines, rows, shift, splices) => {
    expect(shiftOf(lines, rows)).toEqual({ shift, splices });
  });
});
