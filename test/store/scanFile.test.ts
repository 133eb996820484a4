// A big file's first reading a piece at a time (src/store/scanFile.ts) must find the lines, and
// fingerprint them, exactly as reading it whole does, wherever the pieces' edges fall.

import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { looksBinary, SNIFF_BYTES } from '../../src/model/binary.js';
import { hashLines } from '../../src/model/hash.js';
import { splitLines } from '../../src/model/lines.js';
import { lineHasher } from '../../src/model/wasmHash.js';
import { BLOCK } from '../../src/store/savedIndex.js';
import { scanFile } from '../../src/store/scanFile.js';
import { cleanup, tempDir } from '../e2e/harness.js';
import { runs } from '../support/runs.js';

afterAll(cleanup);

function scanned(bytes: Buffer, piece: number, wasm = true): ReturnType<typeof scanFile> {
  const file = path.join(tempDir(), 'f.txt');
  fs.writeFileSync(file, bytes);
  const fd = fs.openSync(file, 'r');
  try {
    return scanFile(fd, bytes.length, piece, 0, wasm);
  } finally {
    fs.closeSync(fd);
  }
}

function whole(bytes: Buffer): { h1: number[]; h2: number[]; count: number; checkpoints: number[] } {
  const lines = splitLines(bytes);
  const hashes = hashLines(lines);
  const checkpoints: number[] = [];
  for (let i = 0; i < lines.count; i += BLOCK) checkpoints.push(lines.starts[i]!);
  return { h1: Array.from(hashes.h1), h2: Array.from(hashes.h2), count: lines.count, checkpoints };
}

/** A scan in pieces of `piece` bytes, in the shape `whole` gives (or why there is none). */
function scannedAsWhole(bytes: Buffer, piece: number, wasm = true): ReturnType<typeof whole> | undefined | 'binary' {
  const scan = scanned(bytes, piece, wasm);
  return scan === undefined || scan === 'binary'
    ? scan
    : { h1: Array.from(scan.h1), h2: Array.from(scan.h2), count: scan.count, checkpoints: scan.checkpoints };
}

const line = fc.oneof(
  // (A line starting with a BOM's bytes is content: only the file's first bytes can be its BOM.)
  fc.constantFrom('', 'x', 'tail\r', 'lone\rcr', '\t{', 'même', '\u00ef\u00bb\u00bfbom'),
  fc.uint8Array({ maxLength: 12 }).map((a) => Buffer.from(a.filter((b) => b !== 0x0a && b !== 0)).toString('latin1')),
);

describe('scanFile', () => {
  it('sizes its arrays by the first piece: no more than a few lines past the file, not a power of two', () => {
    // 9,000 lines of 8 bytes in pieces of 8 KiB: the first piece's 1,024 lines and more tell the file's.
    const bytes = Buffer.from(`${Array.from({ length: 9000 }, (_, i) => `${i}`.padStart(7, '0')).join('\n')}\n`);
    for (const wasm of [true, false]) {
      const scan = scanned(bytes, 8192 + 1024, wasm);
      if (!scan || scan === 'binary') throw new Error('no scan');
      expect(scan.count).toBe(9000);
      // (The estimate: the first piece's lines × the size × 1.05 / its bytes.)
      expect(scan.h1.buffer.byteLength / 4).toBeLessThanOrEqual(Math.ceil(9000 * 1.05) + 1);
      expect(scan.h2.buffer.byteLength / 4).toBe(scan.h1.buffer.byteLength / 4);
    }
  });

  it.each([
    ['in WebAssembly', true],
    ['in JavaScript', false],
  ])('gives the lines, fingerprints and block offsets that reading the file whole gives (%s)', (_, wasm) => {
    // Where WebAssembly cannot be had the scan is JavaScript's, and this would compare it with itself.
    if (wasm) expect(lineHasher(200, 16 * BLOCK, BLOCK)).toBeDefined();
    fc.assert(
      fc.property(
        fc.boolean(),
        // Up to some 2,600 lines: three blocks' offsets.
        fc.array(fc.tuple(line, fc.constantFrom('\n', '\r\n')), { maxLength: 2600, size: 'max' }),
        fc.boolean(),
        fc.integer({ min: 1, max: 200 }),
        (bom, lines, finalNewline, piece) => {
          let text = lines.map(([content, eol]) => content + eol).join('');
          if (!finalNewline && lines.length) text = text.replace(/\r?\n$/, '') || 'x';
          const bytes = Buffer.concat([
            bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0),
            Buffer.from(text, 'latin1'),
          ]);
          const scan = scanned(bytes, piece, wasm);
          // (No assertion's value is returned: fast-check takes a returned false as a failure.)
          if (looksBinary(bytes.subarray(0, SNIFF_BYTES))) {
            expect(scan).toBe('binary');
            return;
          }
          if (scan === undefined || scan === 'binary') {
            expect(scan).toEqual(whole(bytes));
            return;
          }
          expect({
            h1: Array.from(scan.h1),
            h2: Array.from(scan.h2),
            count: scan.count,
            checkpoints: scan.checkpoints,
          }).toEqual(whole(bytes));
        },
      ),
      { numRuns: runs(150) },
    );
  });

  it('fingerprints two lines at a time in WebAssembly as reading the file whole does, whatever their lengths', () => {
    // Lines up to several times the 16 bytes their ends are looked for at once, side by side
    // with lines of other lengths, `\r` at their ends or not, cut by pieces anywhere.
    const long = fc.oneof(
      line,
      fc
        .uint8Array({ maxLength: 70 })
        .map((a) => Buffer.from(a.filter((b) => b !== 0x0a && b !== 0)).toString('latin1')),
      fc.nat(80).map((k) => `${'r'.repeat(k)}\r`),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(long, fc.constantFrom('\n', '\r\n')), { maxLength: 1500, size: 'max' }),
        fc.boolean(),
        fc.integer({ min: 16, max: 4000 }),
        (lines, finalNewline, piece) => {
          let text = lines.map(([content, eol]) => content + eol).join('');
          if (!finalNewline && lines.length) text = text.replace(/\r?\n$/, '') || 'x';
          const bytes = Buffer.from(text, 'latin1');
          if (looksBinary(bytes.subarray(0, SNIFF_BYTES))) return;
          expect(scannedAsWhole(bytes, piece)).toEqual(whole(bytes));
        },
      ),
      { numRuns: runs(100) },
    );
  });

  it('marks where each line numbered a multiple of the block starts, the first or the second of a pair', () => {
    // A scan's calls all start at a multiple of BLOCK, so only a small block, and a start anywhere,
    // put a mark on either line of the two the module fingerprints side by side.
    fc.assert(
      fc.property(
        fc.array(fc.tuple(line, fc.constantFrom('\n', '\r\n')), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 7 }),
        fc.nat(20),
        fc.integer({ min: 1, max: 64 }),
        (lines, block, at, max) => {
          const bytes = Buffer.from(`a${lines.map(([content, eol]) => content + eol).join('')}`, 'latin1');
          const split = splitLines(bytes);
          const hashes = hashLines(split);
          const hasher = lineHasher(bytes.length, 64, block)!;
          try {
            hasher.bytes.set(bytes);
            const h1 = new Uint32Array(at + 64);
            const h2 = new Uint32Array(at + 64);
            const marks: number[] = [];
            const count = hasher.hash(0, bytes.length, max, h1, h2, at, (start) => marks.push(start));
            expect(count).toBe(Math.min(max, split.count));
            expect(Array.from(h1.subarray(at, at + count))).toEqual(Array.from(hashes.h1.subarray(0, count)));
            expect(Array.from(h2.subarray(at, at + count))).toEqual(Array.from(hashes.h2.subarray(0, count)));
            const wanted: number[] = [];
            for (let i = 0; i < count; i++) if ((at + i) % block === 0) wanted.push(split.starts[i]!);
            expect(marks).toEqual(wanted);
            expect(hasher.next).toBe(split.starts[count]);
          } finally {
            hasher.done();
          }
        },
      ),
      { numRuns: runs(200) },
    );
  });

  it('reads a first piece of more lines than its arrays first hold, then the pieces after it', () => {
    // Lines of 1 to 12 bytes: a first piece of 8 KiB holds some 1,200 to 4,000 of them, past the
    // arrays' first 1,024 (doubled through it, then made the size its lines suggest), around
    // every block's and call's edge; pieces of 8 KiB and of 8 KiB ± 1 after it.
    for (const wasm of [true, false]) {
      for (const piece of [8191, 8192, 8193]) {
        for (const seed of [1, 2, 3]) {
          const lines: string[] = [];
          for (let i = 0; i < 9000; i++) lines.push('abcdefghijk'.slice(0, Math.imul(i + seed, 2654435761) >>> 29));
          const bytes = Buffer.from(`${lines.join('\n')}\n`);
          expect(scannedAsWhole(bytes, piece, wasm)).toEqual(whole(bytes));
        }
      }
    }
  });

  it('says when a file looks binary, from its first 8 KiB as a whole reading would', () => {
    expect(scanned(Buffer.concat([Buffer.from('text\n'), Buffer.from([0]), Buffer.from('\nmore\n')]), 3)).toBe(
      'binary',
    );
    expect(scanned(Buffer.concat([Buffer.from('a\n'.repeat(5000)), Buffer.from([0])]), 64)).not.toBe('binary');
  });

  it('gives up, when asked, on a file whose first piece holds few lines', () => {
    const bytes = Buffer.from(`${'x'.repeat(30)}\n${'y'.repeat(30)}\nshort\n`);
    expect(scanned(bytes, 16)).not.toBeUndefined();
    const file = path.join(tempDir(), 'long.txt');
    fs.writeFileSync(file, bytes);
    const fd = fs.openSync(file, 'r');
    try {
      expect(scanFile(fd, bytes.length, 16, 2)).toBeUndefined();
      expect(scanFile(fd, bytes.length, 40, 1)).not.toBeUndefined();
    } finally {
      fs.closeSync(fd);
    }
  });

  it('does not give up on a long line after a first piece of enough lines', () => {
    const bytes = Buffer.from(`a\nb\nc\n${'x'.repeat(50)}\nend\n`);
    const file = path.join(tempDir(), 'later.txt');
    fs.writeFileSync(file, bytes);
    const fd = fs.openSync(file, 'r');
    try {
      const scan = scanFile(fd, bytes.length, 8, 3);
      expect(
        scan && scan !== 'binary'
          ? { h1: Array.from(scan.h1), h2: Array.from(scan.h2), count: scan.count, checkpoints: scan.checkpoints }
          : scan,
      ).toEqual(whole(bytes));
    } finally {
      fs.closeSync(fd);
    }
  });

  it('reads lines of about half a piece and of a piece, where its buffer is grown or not', () => {
    // A piece of 16 bytes: lines carried over of 7 to 17 bytes (with CRLF and without a final newline).
    const lengths = [7, 8, 9, 15, 16, 17, 1, 8, 16, 0, 9];
    for (const eol of ['\n', '\r\n']) {
      const text = lengths.map((n, i) => `${String.fromCharCode(97 + i).repeat(n)}${eol}`).join('');
      for (const bytes of [Buffer.from(text), Buffer.from(`${text}tail`)]) {
        expect(scannedAsWhole(bytes, 16)).toEqual(whole(bytes));
      }
    }
  });

  it('reads a line longer than many pieces, and gives up on a file that ends early', () => {
    for (const text of [`${'x'.repeat(100)}\nshort\n`, `a\n${'y'.repeat(99)}\r\nb`, 'z'.repeat(101)]) {
      const bytes = Buffer.from(text);
      expect(scannedAsWhole(bytes, 16)).toEqual(whole(bytes));
    }
    const file = path.join(tempDir(), 'short.txt');
    fs.writeFileSync(file, 'a\nb\n');
    const fd = fs.openSync(file, 'r');
    try {
      expect(scanFile(fd, 100, 2)).toBeUndefined();
    } finally {
      fs.closeSync(fd);
    }
  });
});
