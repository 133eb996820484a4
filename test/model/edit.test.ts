import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applySplice, JOIN_BELOW, splitPieces, textLines } from '../../src/model/edit.js';
import { hashLines } from '../../src/model/hash.js';
import { buildIndex, type LineIndex } from '../../src/model/lineIndex.js';
import { lidToString } from '../../src/model/lid.js';
import { BOM, dominantEol, lineContent as contentOf, splitLines } from '../../src/model/lines.js';
import { runs } from '../support/runs.js';

const buf = (s: string | number[]) => (typeof s === 'string' ? Buffer.from(s, 'latin1') : Buffer.from(s));

function splice(file: Buffer, start: number, deleteCount: number, insert: string[]): string {
  const lines = splitLines(file);
  const index = buildIndex(hashLines(lines));
  return applySplice(
    lines,
    index,
    { start, deleteCount, insert: insert.map((s) => buf(s)) },
    dominantEol(lines),
  ).bytes.toString('latin1');
}

describe('applySplice', () => {
  it.each([
    ['replace a middle line', 'a\nb\nc\n', 1, 1, ['B'], 'a\nB\nc\n'],
    ['CRLF file takes CRLF', 'a\r\nb\r\nc\r\n', 1, 1, ['x', 'y'], 'a\r\nx\r\ny\r\nc\r\n'],
    ['append to a file without final newline', 'a\nb', 2, 0, ['c'], 'a\nb\nc'],
    ['replace the last line without final newline', 'a\nb', 1, 1, ['B'], 'a\nB'],
    ['delete the last line without final newline', 'a\nb\nc', 2, 1, [], 'a\nb'],
    ['delete the last line with final newline', 'a\nb\n', 1, 1, [], 'a\n'],
    ['delete every line', 'a\nb\n', 0, 2, [], ''],
    ['delete every line without final newline', 'a\nb', 0, 2, [], ''],
    ['insert at the top', 'a\n', 0, 0, ['x'], 'x\na\n'],
    ['insert into an empty file', '', 0, 0, ['x', 'y'], 'x\ny\n'],
    ['insert before a last line without newline', 'a', 0, 0, ['x'], 'x\na'],
    ['mixed endings: untouched lines keep theirs', 'a\r\nb\nc\r\n', 1, 1, ['B'], 'a\r\nB\r\nc\r\n'],
    ['an empty line', 'a\nb\n', 1, 1, [''], 'a\n\n'],
    ['an empty last line keeps its newline', 'a\nb', 1, 1, [''], 'a\n\n'],
    ['an empty line that becomes last keeps its newline', 'a\n\nb', 2, 1, [], 'a\n\n'],
  ])('%s', (_name, before, start, del, insert, after) => {
    expect(splice(buf(before), start, del, insert)).toBe(after);
  });

  it('keeps a BOM, tabs and invalid UTF-8 on other lines', () => {
    const file = Buffer.concat([BOM, buf('\tx\n'), buf([0xff, 0xfe, 0x0a]), buf('y\r\nz')]);
    const out = splice(file, 2, 1, ['Y']);
    expect(Buffer.from(out, 'latin1')).toEqual(
      Buffer.concat([BOM, buf('\tx\n'), buf([0xff, 0xfe, 0x0a]), buf('Y\nz')]),
    );
  });
});

describe('applySplice, a long line', () => {
  it('is written as the view given, the bytes about it kept (CRLF, BOM, invalid UTF-8, a final \\r)', () => {
    const long = Buffer.concat([Buffer.alloc(JOIN_BELOW + 1, 'z'), buf([0xff, 0x0d])]);
    for (const tail of ['c\r\n', 'c', '']) {
      const file = Buffer.concat([BOM, buf([0xc3, 0x28]), buf('\r\nb\r\n'), buf(tail)]);
      const lines = splitLines(file);
      const start = 1;
      const edit = { start, deleteCount: 1, insert: [long, buf('x')] };
      const result = applySplice(lines, buildIndex(hashLines(lines)), edit, dominantEol(lines));
      const expected = Buffer.concat([
        BOM,
        buf([0xc3, 0x28]),
        buf('\r\n'),
        long,
        buf('\r\nx'),
        buf(tail ? '\r\nc' : ''),
        buf(tail === 'c' ? '' : '\r\n'),
      ]);
      expect(Buffer.concat(result.parts).equals(expected)).toBe(true);
      expect(result.parts.some((p) => p.buffer === long.buffer && p.byteOffset === long.byteOffset)).toBe(true);
      expect({ ...result.lines, bytes: undefined }).toEqual({ ...splitLines(expected), bytes: undefined });
      expect(result.content(start).equals(long)).toBe(true);
    }
  });
});

describe('JOIN_BELOW', () => {
  it('a new line one byte shorter is joined with the region; one of JOIN_BELOW bytes is a part of its own', () => {
    const file = buf('a\nb\nc\n');
    const lines = splitLines(file);
    for (const [length, own] of [
      [JOIN_BELOW - 1, false],
      [JOIN_BELOW, true],
    ] as const) {
      const long = Buffer.alloc(length, 'z');
      const edit = { start: 1, deleteCount: 1, insert: [long] };
      const result = applySplice(lines, buildIndex(hashLines(lines)), edit, dominantEol(lines));
      expect(Buffer.concat(result.parts).toString('latin1')).toBe(`a\n${'z'.repeat(length)}\nc\n`);
      expect(result.parts.some((p) => p.buffer === long.buffer && p.byteOffset === long.byteOffset)).toBe(own);
      expect(result.parts.length, `${length}`).toBe(own ? 5 : 3);
    }
  });

  it('the line before the region of JOIN_BELOW bytes stays a view of the file; one byte shorter is joined', () => {
    for (const [length, own] of [
      [JOIN_BELOW - 2, false],
      [JOIN_BELOW - 1, true],
    ] as const) {
      // The line before the change with its newline: `length` + 1 bytes.
      const file = Buffer.concat([Buffer.alloc(length, 'y'), buf('\nb\nc\n')]);
      const lines = splitLines(file);
      const edit = { start: 1, deleteCount: 1, insert: [buf('B')] };
      const result = applySplice(lines, buildIndex(hashLines(lines)), edit, dominantEol(lines));
      expect(Buffer.concat(result.parts).equals(Buffer.concat([Buffer.alloc(length, 'y'), buf('\nB\nc\n')]))).toBe(
        true,
      );
      expect(
        result.parts.some((p) => p.buffer === file.buffer && p.length === length + 1),
        `${length}`,
      ).toBe(own);
    }
  });
});

describe('splitPieces', () => {
  it('gives the lines of the pieces one after the other as splitLines gives those of them joined', () => {
    const bytes = fc.uint8Array({ maxLength: 12 }).map((a) => Buffer.from(a.map((b) => [0x61, 0x0d, 0x0a][b % 3]!)));
    fc.assert(
      fc.property(fc.array(bytes, { maxLength: 5 }), (pieces) => {
        const joined = splitLines(Buffer.concat(pieces), false);
        const split = splitPieces(pieces);
        expect(split.count).toBe(joined.count);
        expect([...split.starts]).toEqual([...joined.starts]);
        expect([...split.contentEnds]).toEqual([...joined.contentEnds]);
      }),
      { numRuns: runs(400) },
    );
  });
});

describe('textLines', () => {
  it.each([
    ['a\nb\n', ['a', 'b'], '\n'],
    ['a\nb', ['a', 'b'], '\n'],
    ['a\r\nb\r\n', ['a', 'b'], '\r\n'],
    ['\n', [''], '\n'],
    ['\n\n', ['', ''], '\n'],
    ['x', ['x'], '\n'],
  ])('%j', (input, lines, eol) => {
    const t = textLines(buf(input));
    expect(t.lines.map((l) => l.toString('latin1'))).toEqual(lines);
    expect(t.eol).toBe(eol);
  });

  it('gives the lines as views of the text, not copies (a text of one 50 MB line is held once)', () => {
    const text = Buffer.from(`${'x'.repeat(10_000)}\r\nshort\n`);
    const { lines } = textLines(text);
    for (const line of lines) expect(line.buffer).toBe(text.buffer);
    expect(lines.map((l) => l.byteOffset - text.byteOffset)).toEqual([0, 10_002]);
  });
});

/** The simple model: lines with their own endings; an edit follows the documented rules by hand. */
interface ModelLine {
  content: Buffer;
  eol: '' | '\n' | '\r\n';
  /** The LID this line had in the initial read, if it is an original line. */
  lid?: string;
}

function modelSplice(lines: ModelLine[], start: number, del: number, insert: Buffer[]): ModelLine[] {
  const finalNewline = lines.length === 0 || lines[lines.length - 1]!.eol !== '';
  let crlf = 0;
  let lf = 0;
  for (const l of lines) l.eol === '\r\n' ? crlf++ : l.eol === '\n' ? lf++ : 0;
  const eol = crlf > lf ? '\r\n' : '\n';
  const out = [
    ...lines.slice(0, start),
    ...insert.map((content) => ({ content, eol }) as ModelLine),
    ...lines.slice(start + del),
  ].map((l) => ({ ...l }));
  out.forEach((l, i) => {
    if (i < out.length - 1 && l.eol === '') l.eol = eol;
  });
  const last = out[out.length - 1];
  if (last) last.eol = finalNewline || last.content.length === 0 ? last.eol || eol : '';
  return out;
}

const serialise = (bom: boolean, lines: ModelLine[]) =>
  Buffer.concat([bom ? BOM : Buffer.alloc(0), ...lines.flatMap((l) => [l.content, Buffer.from(l.eol, 'latin1')])]);

const lineContent = fc.oneof(
  fc.constantFrom('', '}', '\t{', 'return x;', '  // note'),
  fc.uint8Array({ maxLength: 6 }).map((a) => Buffer.from(a.filter((b) => b !== 0x0a)).toString('latin1')),
);
/** Files of up to `lines` lines of `content`, and edits of them: their new lines of `content` too. */
const fileOf = (content: fc.Arbitrary<string>, lines: number) =>
  fc.record({
    bom: fc.boolean(),
    lines: fc.array(fc.record({ content, eol: fc.constantFrom('\n', '\r\n') as fc.Arbitrary<'\n' | '\r\n'> }), {
      maxLength: lines,
    }),
    finalNewline: fc.boolean(),
  });
const editOf = (content: fc.Arbitrary<string>) =>
  fc.record({
    kind: fc.constantFrom('edit', 'insert', 'insertAfter', 'delete', 'append'),
    pick: fc.nat(),
    span: fc.integer({ min: 0, max: 3 }),
    text: fc.array(content, { minLength: 1, maxLength: 3 }),
  });

/** Content of a line that may be long: JOIN_BELOW bytes or more, written as a view of the text given, never joined. */
const longContent = fc.oneof(
  { weight: 4, arbitrary: lineContent },
  { weight: 1, arbitrary: fc.tuple(fc.nat(3), lineContent).map(([k, c]) => `${'y'.repeat(JOIN_BELOW - 2 + k)}${c}`) },
);

describe('edits addressed by LIDs from one read', () => {
  it.each([
    ['short lines', fileOf(lineContent, 25), editOf(lineContent), runs(400)],
    ['lines long enough to be written as views', fileOf(longContent, 6), editOf(longContent), runs(40)],
  ])("give exactly the model's bytes, and keep every untouched line's LID: %s", (_name, files, edits, numRuns) => {
    fc.assert(
      fc.property(files, fc.array(edits, { maxLength: 12 }), (f, ops) => {
        // A line ending in \r is written with \r\n so that it keeps it; the model, whose lines take the file's ending,
        // keeps content clean of final \r's (all of them).
        let model: ModelLine[] = f.lines.map((l) => ({
          content: Buffer.from(l.content.replace(/\r+$/, ''), 'latin1'),
          eol: l.eol,
        }));
        // Without a final newline, an empty last line is no line at all: only a non-empty one can lack it.
        if (model.length && !f.finalNewline && model[model.length - 1]!.content.length > 0)
          model[model.length - 1]!.eol = '';
        let bytes: Buffer = serialise(f.bom, model);
        let lines = splitLines(bytes);
        let index: LineIndex = buildIndex(hashLines(lines));
        const initialLids = Array.from(index.lids, lidToString);
        model.forEach((l, i) => (l.lid = initialLids[i]));

        for (const op of ops) {
          const originals = model.map((l, i) => ({ l, i })).filter(({ l }) => l.lid !== undefined);
          const text = op.text.map((t) => Buffer.from(t.replace(/\r+$/, ''), 'latin1'));
          let start: number;
          let del = 0;
          let insert: Buffer[] = text;
          if (op.kind === 'append') {
            start = model.length;
          } else {
            if (originals.length === 0) continue;
            const first = originals[op.pick % originals.length]!;
            // Resolve the LID from the initial read against the current index: that is the point.
            const at = Array.from(index.lids, lidToString).indexOf(first.l.lid!);
            expect(at).toBe(first.i);
            if (op.kind === 'insert') start = at;
            else if (op.kind === 'insertAfter') start = at + 1;
            else {
              // A range from this original line to a later original line (or itself).
              const later = originals.filter(({ i }) => i >= at);
              const last = later[Math.min(op.span, later.length - 1)]!;
              start = at;
              del = last.i - at + 1;
              if (op.kind === 'delete') insert = [];
            }
          }
          const result = applySplice(lines, index, { start, deleteCount: del, insert }, dominantEol(lines));
          model = modelSplice(model, start, del, insert);
          // Read from the parts before they are ever joined: each line's content, and whether anything changed.
          const expected = serialise(f.bom, model);
          const split = splitLines(expected);
          for (let i = 0; i < split.count; i++) expect(result.content(i).equals(contentOf(split, i))).toBe(true);
          expect(result.unchanged).toBe(expected.equals(bytes));
          // Before, the new lines (joined: one write for them all, not one a line), after; a long new line is a part of
          // its own, the very bytes given, and so is a long line before them.
          const before = start > 0 ? lines.starts[start]! - lines.starts[start - 1]! : 0;
          const long = insert.filter((c) => c.length >= JOIN_BELOW);
          if (long.length === 0 && before < JOIN_BELOW) expect(result.parts.length).toBe(3);
          for (const c of long)
            expect(result.parts.some((p) => p.buffer === c.buffer && p.byteOffset === c.byteOffset)).toBe(true);
          expect(Buffer.concat(result.parts).equals(expected)).toBe(true);
          bytes = Buffer.from(result.bytes);
          expect(bytes.equals(expected)).toBe(true);
          lines = splitLines(bytes);
          // The lines the edit engine derives are those a fresh split finds.
          expect({ ...result.lines, bytes: undefined }).toEqual({ ...lines, bytes: undefined });
          index = result.index;
          expect(index.lids.length).toBe(lines.count);
          const lids = Array.from(index.lids, lidToString);
          expect(new Set(lids).size).toBe(lids.length);
          model.forEach((l, i) => {
            if (l.lid !== undefined) expect(lids[i]).toBe(l.lid);
          });
          // The index must equal what reading the file afresh would fingerprint.
          const fresh = hashLines(lines);
          expect(Array.from(index.h1)).toEqual(Array.from(fresh.h1));
          expect(Array.from(index.h2)).toEqual(Array.from(fresh.h2));
        }
      }),
      { numRuns },
    );
  });
});
