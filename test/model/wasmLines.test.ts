// The WebAssembly line splitter (src/model/wasmLines.ts) gives what splitLines gives, for any
// bytes (wasmAssembled.test.ts checks its module is src/model/wasm/lines.wat).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitLines, type FileLines } from '../../src/model/lines.js';
import { lineMemory } from '../../src/model/wasmLines.js';
import { runs } from '../support/runs.js';

function plain(lines: FileLines) {
  return {
    bytes: Buffer.from(lines.bytes),
    bomLength: lines.bomLength,
    count: lines.count,
    starts: [...lines.starts],
    contentEnds: [...lines.contentEnds],
  };
}

/** `bytes` read into line memory (with `room` to spare) and split there. */
function viaWasm(bytes: Buffer, skipBom: boolean, expected?: number, spare = 1, guess?: number): FileLines {
  const memory = lineMemory(bytes.length + spare, guess);
  if (!memory) throw new Error('no WebAssembly here');
  bytes.copy(memory.bytes);
  return memory.lines(bytes.length, skipBom, expected);
}

describe('wasm line splitting', () => {
  it('splits as splitLines does: CRLF, lone CR, BOM, no final newline, empty lines, 16-byte edges', () => {
    const alphabet = fc.constantFrom(0x0a, 0x0d, 0x61, 0xef, 0xbb, 0xbf, 0x00, 0xff, 0x20);
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 200 }),
        fc.boolean(),
        fc.boolean(),
        fc.nat(40),
        (values, bom, skipBom, spare) => {
          const bytes = Buffer.from([...(bom ? [0xef, 0xbb, 0xbf] : []), ...values]);
          const want = plain(splitLines(bytes, skipBom));
          expect(plain(viaWasm(bytes, skipBom, undefined, spare + 1))).toEqual(want);
          // A right line count, one too low (the lines are counted then), one too high.
          expect(plain(viaWasm(bytes, skipBom, want.count))).toEqual(want);
          if (want.count > 0) expect(plain(viaWasm(bytes, skipBom, want.count - 1))).toEqual(want);
          expect(plain(viaWasm(bytes, skipBom, want.count + 3, 1, want.count + 3))).toEqual(want);
        },
      ),
      { numRuns: runs(3000) },
    );
  });

  it('gives views that survive growing the memory, on a file of many lines', () => {
    const text =
      Array.from({ length: 20_000 }, (_, i) =>
        i % 7 === 0 ? `line ${i}\r\n` : i % 11 === 0 ? '\n' : `x${'y'.repeat(i % 40)}\n`,
      ).join('') + 'last';
    const bytes = Buffer.from(text, 'latin1');
    // No line count known: the memory is made for the bytes alone and grown for the lines.
    const lines = viaWasm(bytes, true);
    expect(plain(lines)).toEqual(plain(splitLines(bytes)));
    expect(lines.bytes.equals(bytes)).toBe(true);
  });

  it('splits an empty file, and one of a lone newline', () => {
    expect(plain(viaWasm(Buffer.alloc(0), true))).toEqual(plain(splitLines(Buffer.alloc(0))));
    expect(plain(viaWasm(Buffer.from('\n'), true, 1))).toEqual(plain(splitLines(Buffer.from('\n'))));
    expect(plain(viaWasm(Buffer.from([0xef, 0xbb, 0xbf]), true))).toEqual(
      plain(splitLines(Buffer.from([0xef, 0xbb, 0xbf]))),
    );
  });
});
