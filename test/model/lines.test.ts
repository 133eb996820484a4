import { describe, expect, it } from 'vitest';
import { dominantEol, endsWithNewline, joinLines, lineContent, lineEnding, splitLines } from '../../src/model/lines.js';
import { looksBinary } from '../../src/model/binary.js';

const bytes = (...parts: Array<string | number[]>) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

describe('splitLines / joinLines', () => {
  const cases: Array<{ name: string; input: Buffer; contents: string[]; endings: string[]; bom?: number }> = [
    { name: 'empty file', input: bytes(''), contents: [], endings: [] },
    { name: 'a single newline', input: bytes('\n'), contents: [''], endings: ['\n'] },
    { name: 'LF lines', input: bytes('a\nb\n'), contents: ['a', 'b'], endings: ['\n', '\n'] },
    { name: 'no final newline', input: bytes('a\nb'), contents: ['a', 'b'], endings: ['\n', ''] },
    { name: 'CRLF lines', input: bytes('a\r\nb\r\n'), contents: ['a', 'b'], endings: ['\r\n', '\r\n'] },
    { name: 'mixed endings', input: bytes('a\r\nb\nc'), contents: ['a', 'b', 'c'], endings: ['\r\n', '\n', ''] },
    { name: 'lone CR stays content', input: bytes('a\rb\n\r'), contents: ['a\rb', '\r'], endings: ['\n', ''] },
    { name: 'only CRLF', input: bytes('\r\n\r\n'), contents: ['', ''], endings: ['\r\n', '\r\n'] },
    { name: 'tabs', input: bytes('\tx\t\n'), contents: ['\tx\t'], endings: ['\n'] },
    { name: 'BOM', input: bytes([0xef, 0xbb, 0xbf], 'a\nb\n'), contents: ['a', 'b'], endings: ['\n', '\n'], bom: 3 },
    { name: 'BOM only', input: bytes([0xef, 0xbb, 0xbf]), contents: [], endings: [], bom: 3 },
    { name: 'blank lines', input: bytes('\n\n\n'), contents: ['', '', ''], endings: ['\n', '\n', '\n'] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const lines = splitLines(c.input);
      expect(lines.count).toBe(c.contents.length);
      expect(lines.bomLength).toBe(c.bom ?? 0);
      expect(Array.from({ length: lines.count }, (_, i) => lineContent(lines, i).toString('utf8'))).toEqual(c.contents);
      expect(Array.from({ length: lines.count }, (_, i) => lineEnding(lines, i))).toEqual(c.endings);
      expect(joinLines(lines).equals(c.input)).toBe(true);
    });
  }

  it('keeps invalid UTF-8 bytes exactly', () => {
    const input = bytes('ok\n', [0xff, 0xfe, 0x80, 0x0a], [0xc3, 0x28], '\r\n', [0xe9], 'end');
    const lines = splitLines(input);
    expect(lines.count).toBe(4);
    expect(lineContent(lines, 1)).toEqual(Buffer.from([0xff, 0xfe, 0x80]));
    expect(lineContent(lines, 2)).toEqual(Buffer.from([0xc3, 0x28]));
    expect(lineEnding(lines, 2)).toBe('\r\n');
    expect(lineContent(lines, 3)).toEqual(Buffer.from([0xe9, 0x65, 0x6e, 0x64]));
    expect(joinLines(lines).equals(input)).toBe(true);
  });

  it('round-trips random bytes', () => {
    for (let trial = 0; trial < 200; trial++) {
      const input = Buffer.from(
        Array.from(
          { length: trial },
          () => [0x0a, 0x0d, 0x41, 0xff, 0x09, 0xef, 0xbb, 0xbf][Math.floor(Math.random() * 8)]!,
        ),
      );
      expect(joinLines(splitLines(input)).equals(input)).toBe(true);
    }
  });

  it('a line count given as a hint, right or wrong, gives the same lines as none', () => {
    for (let trial = 0; trial < 200; trial++) {
      const input = Buffer.from(
        Array.from({ length: trial }, () => [0x0a, 0x0d, 0x41, 0xef, 0xbb, 0xbf][Math.floor(Math.random() * 6)]!),
      );
      const plain = splitLines(input);
      for (const hint of [0, 1, plain.count - 1, plain.count, plain.count + 1, plain.count * 3].filter((h) => h >= 0)) {
        const hinted = splitLines(input, true, hint);
        expect({ ...hinted, bytes: undefined }).toEqual({ ...plain, bytes: undefined });
      }
    }
  });
});

describe('dominantEol / endsWithNewline', () => {
  it('picks the majority line ending', () => {
    expect(dominantEol(splitLines(bytes('a\r\nb\r\nc\n')))).toBe('\r\n');
    expect(dominantEol(splitLines(bytes('a\nb\r\nc\n')))).toBe('\n');
    expect(dominantEol(splitLines(bytes('single')))).toBe('\n');
  });
  it('tells whether the file ends with a newline', () => {
    expect(endsWithNewline(splitLines(bytes('a\n')))).toBe(true);
    expect(endsWithNewline(splitLines(bytes('a')))).toBe(false);
    expect(endsWithNewline(splitLines(bytes('')))).toBe(true);
  });
});

describe('looksBinary', () => {
  it.each([
    ['plain text', bytes('hello\tworld\r\n'), false],
    ['empty', bytes(''), false],
    ['Latin-1 text', bytes([0x63, 0x61, 0x66, 0xe9, 0x0a]), false],
    ['a NUL byte', bytes('abc', [0], 'def'), true],
    ['mostly control bytes', bytes([1, 2, 3, 4, 5, 6, 0x41]), true],
    ['ANSI colour codes', bytes('\x1b[31mred\x1b[0m\n'), false],
  ])('%s', (_name, input, expected) => {
    expect(looksBinary(input)).toBe(expected);
  });
  it('looks at the first 8 KiB only', () => {
    const late = Buffer.concat([Buffer.alloc(9000, 0x61), Buffer.from([0])]);
    expect(looksBinary(late)).toBe(false);
  });
});
