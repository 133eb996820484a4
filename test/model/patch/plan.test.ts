// Planning and applying a file's hunks (src/model/patch/plan.ts): anchors against the file as
// read, overlaps refused, and — the property rt apply promises — the bytes and LIDs of the same
// edits made one by one, whatever their order and however they sit against each other.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAnchor, type AnchorWorld } from '../../../src/model/anchor.js';
import { applySplice } from '../../../src/model/edit.js';
import { RtError } from '../../../src/model/errors.js';
import { hashLines } from '../../../src/model/hash.js';
import { lidToString } from '../../../src/model/lid.js';
import { buildIndex, retiredLine, type LineIndex } from '../../../src/model/lineIndex.js';
import { dominantEol, splitLines, type FileLines } from '../../../src/model/lines.js';
import { applyChanges, planHunks } from '../../../src/model/patch/plan.js';
import type { PatchHunk } from '../../../src/model/patch/types.js';
import { runs } from '../../support/runs.js';

const b = (s: string) => Buffer.from(s, 'latin1');

function target(text: string) {
  const lines = splitLines(b(text));
  const index = buildIndex(hashLines(lines));
  const world: AnchorWorld = {
    display: 'f.txt',
    total: lines.count,
    lineOf: (code) => index.lids.indexOf(code),
    lidCodeAt: (i) => index.lids[i]!,
    retiredLine: (code) => retiredLine(index.retired, code),
    shownAt: () => null,
    force: true,
  };
  return { display: 'f.txt', lines, index, world, wasSeen: undefined, lid: (i: number) => lidToString(index.lids[i]!) };
}

const edit = (from: string, to: string, rows: string[], line = 1): PatchHunk => ({
  kind: 'range',
  op: 'edit',
  line,
  from: parseAnchor(from),
  to: parseAnchor(to),
  rows: rows.map(b),
});
const del = (from: string, to: string, line = 1): PatchHunk => ({
  kind: 'range',
  op: 'delete',
  line,
  from: parseAnchor(from),
  to: parseAnchor(to),
  rows: [],
});
const ins = (at: string, after: boolean, rows: string[], line = 1): PatchHunk => ({
  kind: 'insert',
  line,
  at: parseAnchor(at),
  after,
  rows: rows.map(b),
});

function applied(text: string, hunks: (t: ReturnType<typeof target>) => PatchHunk[]): string {
  const t = target(text);
  const changes = planHunks(t, hunks(t));
  return applyChanges(t.lines, t.index, changes).lines.bytes.toString('latin1');
}

describe('planHunks and applyChanges', () => {
  it.each([
    [
      'hunks in any order',
      'a\nb\nc\nd\n',
      (t: ReturnType<typeof target>) => [edit(t.lid(3), t.lid(3), ['D']), edit(t.lid(0), t.lid(0), ['A'])],
      'A\nb\nc\nD\n',
    ],
    [
      'two inserts after one line: the later nearer to it, as one by one',
      'a\nb\n',
      (t: ReturnType<typeof target>) => [ins(t.lid(0), true, ['1']), ins(t.lid(0), true, ['2'])],
      'a\n2\n1\nb\n',
    ],
    [
      'two inserts before one line: in patch order',
      'a\nb\n',
      (t: ReturnType<typeof target>) => [ins(t.lid(1), false, ['1']), ins(t.lid(1), false, ['2'])],
      'a\n1\n2\nb\n',
    ],
    [
      'after a line, then before the next',
      'a\nb\n',
      (t: ReturnType<typeof target>) => [ins(t.lid(1), false, ['B']), ins(t.lid(0), true, ['A'])],
      'a\nA\nB\nb\n',
    ],
    [
      'an insert after the line above a replaced range goes before it',
      'a\nb\nc\n',
      (t: ReturnType<typeof target>) => [edit(t.lid(1), t.lid(1), ['B']), ins(t.lid(0), true, ['x'])],
      'a\nx\nB\nc\n',
    ],
    [
      'an insert before the line below a deleted range goes after the gap',
      'a\nb\nc\n',
      (t: ReturnType<typeof target>) => [ins(t.lid(2), false, ['x']), del(t.lid(1), t.lid(1))],
      'a\nx\nc\n',
    ],
    [
      'appends, and an insert after the last line, as one by one',
      'a\n',
      (t: ReturnType<typeof target>) => [ins('$', false, ['1']), ins(t.lid(0), true, ['2']), ins('$', false, ['3'])],
      'a\n2\n1\n3\n',
    ],
    [
      'a CRLF file emptied, then appended to: LF, as one by one',
      'x\r\ny\r\n',
      (t: ReturnType<typeof target>) => [del(t.lid(0), t.lid(1)), ins('$', false, ['z'])],
      'z\n',
    ],
    [
      'a file without final newline, appended to',
      'a\nb',
      (t: ReturnType<typeof target>) => [ins('$', false, ['c']), edit(t.lid(0), t.lid(0), ['A'])],
      'A\nb\nc',
    ],
  ])('%s', (_name, text, hunks, want) => {
    expect(applied(text, hunks)).toBe(want);
  });

  it.each([
    [
      'ranges that share a line',
      (t: ReturnType<typeof target>) => [edit(t.lid(0), t.lid(1), ['x'], 2), del(t.lid(1), t.lid(2), 4)],
      /patch line 4 overlaps the hunk at patch line 2: both touch line 2/,
    ],
    [
      'an insert anchored on a replaced line',
      (t: ReturnType<typeof target>) => [del(t.lid(1), t.lid(2), 2), ins(t.lid(1), true, ['x'], 3)],
      /both touch line 2/,
    ],
  ])('refuses %s (exit 2, naming both)', (_name, hunks, message) => {
    const t = target('a\nb\nc\nd\n');
    let error: unknown;
    try {
      planHunks(t, hunks(t));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RtError);
    expect((error as RtError).exitStatus).toBe(2);
    expect((error as RtError).message).toMatch(message);
  });

  it('gives the bytes and LIDs of the same edits made one by one (property)', () => {
    const line = fc.constantFrom('}', '', 'a', 'b', '\tx', 'y\r');
    const file = fc.tuple(fc.array(line, { maxLength: 14 }), fc.constantFrom('\n', '\r\n'), fc.boolean());
    type Op = { kind: 'edit' | 'delete' | 'before' | 'after' | 'append'; at: number; len: number; rows: string[] };
    const op = fc.record({
      kind: fc.constantFrom('edit', 'delete', 'before', 'after', 'append'),
      at: fc.nat(6),
      len: fc.integer({ min: 1, max: 3 }),
      rows: fc.array(line, { minLength: 1, maxLength: 3 }),
    }) as fc.Arbitrary<Op>;
    fc.assert(
      fc.property(file, fc.array(op, { maxLength: 8 }), ([rows, eol, finalNewline], ops) => {
        const text = rows.length ? rows.join(eol) + (finalNewline ? eol : '') : '';
        const t = target(text);
        const n = t.lines.count;
        // The ops that make sense on this file and touch no line a range claims (as planHunks
        // requires); inserts may share an anchor, or stand beside a range.
        const claimed = new Set<number>();
        const anchors = new Set<number>();
        const hunks: PatchHunk[] = [];
        const resolved: Array<{ op: Op; from: number; to: number }> = [];
        for (const o of ops) {
          if (o.kind === 'append') {
            hunks.push(ins('$', false, o.rows));
            resolved.push({ op: o, from: n, to: n });
            continue;
          }
          if (n === 0) continue;
          const from = o.at % n;
          const range = o.kind === 'edit' || o.kind === 'delete';
          const to = range ? Math.min(n, from + o.len) : from + 1;
          let free = true;
          for (let i = from; i < to; i++) if (claimed.has(i) || (range && anchors.has(i))) free = false;
          if (!free) continue;
          for (let i = from; i < to; i++) (range ? claimed : anchors).add(i);
          if (o.kind === 'edit') hunks.push(edit(t.lid(from), t.lid(to - 1), o.rows));
          else if (o.kind === 'delete') hunks.push(del(t.lid(from), t.lid(to - 1)));
          else hunks.push(ins(t.lid(from), o.kind === 'after', o.rows));
          resolved.push({ op: o, from, to });
        }
        const planned = planHunks(t, hunks);
        const batch = applyChanges(t.lines, t.index, planned);
        // One by one: each anchor found again by its LID in the file as the edits before left it.
        let lines: FileLines = t.lines;
        let index: LineIndex = t.index;
        for (const { op: o, from, to } of resolved) {
          const at = (i: number) => index.lids.indexOf(t.index.lids[i]!);
          const splice =
            o.kind === 'append'
              ? { start: lines.count, deleteCount: 0, insert: o.rows.map(b) }
              : o.kind === 'edit' || o.kind === 'delete'
                ? { start: at(from), deleteCount: to - from, insert: o.kind === 'edit' ? o.rows.map(b) : [] }
                : { start: at(from) + (o.kind === 'after' ? 1 : 0), deleteCount: 0, insert: o.rows.map(b) };
          const r = applySplice(lines, index, splice, dominantEol(lines));
          lines = splitLines(r.bytes);
          index = r.index;
        }
        expect(batch.lines.bytes.toString('latin1')).toBe(lines.bytes.toString('latin1'));
        expect([...batch.index.lids]).toEqual([...index.lids]);
      }),
      { numRuns: runs(2000) },
    );
  });
});

describe('planHunks: context hunks found leniently', () => {
  const ctx = (rows: string[], header?: string, line = 3): PatchHunk => ({
    kind: 'context',
    line,
    header: header === undefined ? undefined : Buffer.from(header, 'utf8'),
    rows: rows.map((r, i) => ({
      tag: r[0] as ' ' | '-' | '+',
      text: Buffer.from(r.slice(1), 'utf8'),
      line: line + 1 + i,
    })),
    endOfFile: false,
  });
  /** The file of `text` as UTF-8 (target takes one character a byte). */
  const utf8Target = (text: string) => target(Buffer.from(text, 'utf8').toString('latin1'));

  function planned(text: string, hunks: PatchHunk[]) {
    const t = utf8Target(text);
    const result = applyChanges(t.lines, t.index, planHunks(t, hunks));
    return {
      bytes: result.lines.bytes.toString('utf8'),
      lenient: result.lenient.map((m) => ({
        hunkLine: m.hunkLine,
        level: m.level,
        shift: m.shift && {
          remove: m.shift.remove.toString(),
          add: m.shift.add.toString(),
          agreeing: m.shift.agreeing,
          rows: m.shift.rows,
        },
      })),
    };
  }

  it('shifts the + rows of a hunk quoted 4 spaces short by 4 spaces, and says so', () => {
    const text = 'class A:\n    def f(self, x):\n        if x:\n            return 1\n        return 2\n';
    expect(
      planned(text, [ctx(['     if x:', '-        return 1', '+        y = x * 2', '+', '+        return y'])]),
    ).toEqual({
      bytes:
        'class A:\n    def f(self, x):\n        if x:\n' +
        '            y = x * 2\n\n            return y\n        return 2\n',
      lenient: [{ hunkLine: 3, level: 2, shift: { remove: '', add: '    ', agreeing: 2, rows: 2 } }],
    });
  });

  it('says nothing of a hunk found exactly, or one whose shift moves no row', () => {
    expect(planned('  a\n  b\n', [ctx(['   a', '-  b', '+  c'])]).lenient).toEqual([]);
    expect(planned('  a\n  b\n', [ctx([' a', '-b'])])).toEqual({ bytes: '  a\n', lenient: [] });
  });

  it('says that a hunk matched only with Unicode punctuation read as ASCII', () => {
    expect(planned('x = "a \u2014 b"\ny = 1\n', [ctx([' x = "a - b"', '-y = 1', '+y = 2'])])).toEqual({
      bytes: 'x = "a \u2014 b"\ny = 2\n',
      lenient: [{ hunkLine: 3, level: 3, shift: undefined }],
    });
  });

  function refusal(text: string, hunk: PatchHunk): RtError {
    try {
      planHunks(utf8Target(text), [hunk]);
    } catch (error) {
      expect(error).toBeInstanceOf(RtError);
      return error as RtError;
    }
    throw new Error('not refused');
  }

  it('says that an LID hunk takes only + rows when @@ edit LID comes with - rows', () => {
    const e = refusal('def f(x):\n    return 1\n', ctx(['-def f(x):', '+def g(x):'], 'edit g60s'));
    expect(e.exitStatus).toBe(3);
    expect(e.message).toBe(
      `no line of f.txt reads "edit g60s" (the hunk's @@ line) after the hunk before it: ` +
        'an LID hunk takes only + rows (the LIDs name the lines it replaces, so - rows are not needed), ' +
        "and with - or context rows the @@ line is read as a context hunk's text; nothing was written; nearest:",
    );
    expect(e.hints).toHaveLength(2);
    expect(e.hints[0]).toMatch(/^ {2}1:[0-9a-z]{4}\|def f\(x\):$/);
    expect(e.hints[1]).toBe(
      'write @@ edit g60s followed by the new lines alone, as + rows (drop the - and context rows)',
    );
  });

  it('says that the rows of a hunk indented whole all read as context rows', () => {
    const e = refusal('if x:\n    return 1\n', ctx(['   if x:', '   -    return 1', '   +    return 2']));
    expect(e.message).toMatch(
      new RegExp(
        "^the hunk's context and removed lines match nowhere in f\\.txt: every row of the hunk starts with " +
          "the same indentation \\(3 spaces\\), so each reads as a context row \\(a row's first character is " +
          'its tag\\); nothing was written',
      ),
    );
    expect(e.hints).toContain(
      "remove that indentation: each row starts with its tag, ' ' (context), - (removed) or + (added)",
    );
  });

  it('does not say so of context rows that are only indented', () => {
    const e = refusal('if x:\n    return 1\n', ctx(['   if y:', '       return 1']));
    expect(e.message).not.toMatch(/indentation/);
  });
});

describe('planHunks: hunks naming a definition', () => {
  // Definitions of the file `A\nB\n\nf1\nf2\n\ng1\n` as an outline gives them: f at 4-5, g at 7.
  const TEXT = 'A\nB\n\nf1\nf2\n\ng1\n';
  const SPANS: Record<string, { line: number; start: number; end: number }> = {
    f: { line: 5, start: 4, end: 5 },
    g: { line: 7, start: 7, end: 7 },
    a: { line: 1, start: 1, end: 1 },
    b: { line: 2, start: 2, end: 2 },
  };
  const sym = (op: 'edit' | 'delete' | 'before' | 'after', name: string, rows: string[] = []): PatchHunk => ({
    kind: 'symbol',
    op,
    line: 1,
    name,
    rows: rows.map(b),
  });
  function withDefinitions(text: string, seen?: (lid: string) => boolean, shown?: (lids: Uint32Array) => boolean) {
    const t = target(text);
    return {
      ...t,
      wasSeen: seen,
      definition: (name: string) => SPANS[name]!,
      ...(shown ? { definitionShown: shown } : {}),
    };
  }
  const applyTo = (text: string, hunks: PatchHunk[]) => {
    const t = withDefinitions(text);
    return applyChanges(t.lines, t.index, planHunks(t, hunks)).lines.bytes.toString('latin1');
  };

  it.each([
    ['an edit replaces the whole range', [sym('edit', 'f', ['F'])], 'A\nB\n\nF\n\ng1\n'],
    ['a delete takes the blank lines after it when one is before it', [sym('delete', 'f')], 'A\nB\n\ng1\n'],
    ['a delete in a block of lines leaves the blank lines after it', [sym('delete', 'b')], 'A\n\nf1\nf2\n\ng1\n'],
    ['a delete first in the file takes the blank lines after it', [sym('delete', 'a')], 'B\n\nf1\nf2\n\ng1\n'],
    ['before goes above its first line', [sym('before', 'f', ['x'])], 'A\nB\n\nx\nf1\nf2\n\ng1\n'],
    ['after goes below its last line', [sym('after', 'f', ['x'])], 'A\nB\n\nf1\nf2\nx\n\ng1\n'],
    [
      'lines before and after it go with its edit',
      [sym('edit', 'f', ['F']), sym('before', 'f', ['x']), sym('after', 'f', ['y'])],
      'A\nB\n\nx\nF\ny\n\ng1\n',
    ],
    [
      'after the last definition of a file without a final newline',
      [sym('after', 'g', ['x'])],
      'A\nB\n\nf1\nf2\n\ng1\nx\n',
    ],
  ])('%s', (_, hunks, want) => {
    expect(applyTo(TEXT, hunks)).toBe(want);
  });

  it('the new lines take the line of the definition for their indentation', () => {
    const t = withDefinitions(TEXT);
    expect(planHunks(t, [sym('before', 'f', ['x'])])[0]).toMatchObject({ start: 3, deleteCount: 0, indentAt: 4 });
  });

  it('refuses an edit of the definition and a hunk of lines inside it', () => {
    const t = withDefinitions(TEXT);
    expect(() => planHunks(t, [sym('edit', 'f', ['F']), { ...edit(t.lid(4), t.lid(4), ['x']), line: 2 }])).toThrow(
      /overlaps/,
    );
  });

  it('shown: every line seen, or the definition shown as such with these very LIDs; else exit 3 naming rt open', () => {
    const t = target(TEXT);
    const lids = (from: number, to: number) => Array.from(t.index.lids.subarray(from, to), lidToString);
    const f = lids(3, 5);
    const seen = (shown: string[]) => (lid: string) => shown.includes(lid);
    const same = (lids: Uint32Array) => lids.length === 2 && lids.every((c, i) => lidToString(c) === f[i]);
    expect(() => planHunks(withDefinitions(TEXT, seen(f)), [sym('delete', 'f')])).not.toThrow();
    expect(() => planHunks(withDefinitions(TEXT, seen([]), same), [sym('delete', 'f')])).not.toThrow();
    const refused = (() => {
      try {
        planHunks(
          withDefinitions(TEXT, seen([f[0]!]), () => false),
          [sym('delete', 'f')],
        );
      } catch (error) {
        return error as RtError;
      }
      throw new Error('not refused');
    })();
    expect(refused.exitStatus).toBe(3);
    expect(refused.message).toBe(
      '@f (lines 4-5 of f.txt) has not been shown since it last changed; nothing was written',
    );
    expect(refused.hints).toEqual(['see it first: rt open f.txt:@f', 'or, to delete it without looking, add --force']);
  });
});
