// The lines of a file holding a literal, found a piece of the file at a time (search/literalScan.ts):
// the same lines, in the same order, as rt's matcher finds in the whole file read at once, across
// the pieces' boundaries, in lines longer than a piece, with a BOM, CRLF endings, bytes that are
// not UTF-8 and no final newline.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { literalLines } from '../../src/search/literalScan.js';
import { compileMatcher } from '../../src/search/match.js';
import { bomLengthOf } from '../../src/search/searchable.js';
import { runs } from '../support/runs.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-literal-scan-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let files = 0;

/** What literalLines finds in `bytes` (written to a file), and what the whole-file matcher finds. */
function both(bytes: Buffer, needle: string, limit: number) {
  const file = path.join(dir, `f${files++}`);
  fs.writeFileSync(file, bytes);
  const all = compileMatcher(needle, { fixed: true, ignoreCase: false, word: false }).matchingLines(
    bytes,
    bomLengthOf(bytes),
    Infinity,
  );
  const scanned = literalLines(file, Buffer.from(needle), limit);
  fs.rmSync(file);
  return { scanned, expected: { lines: all.slice(0, limit), total: all.length } };
}

/** A file of `size` bytes or so from `parts`, `needle` placed where `at` says. */
function built(parts: readonly string[], size: number, needle: string, at: readonly number[]): Buffer {
  const chunks: Buffer[] = [];
  let length = 0;
  for (let i = 0; length < size; i++) {
    const part = Buffer.from(parts[i % parts.length]!, 'latin1');
    chunks.push(part);
    length += part.length;
  }
  const bytes = Buffer.concat(chunks);
  for (const place of at) bytes.write(needle, Math.min(place, bytes.length - needle.length), 'utf8');
  return bytes;
}

describe('literalLines', () => {
  it('finds the lines the whole-file matcher finds, a piece at a time', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('ab', 'NEEDLE', '\n', '\r\n', '\xff', 'NEED', 'LE', 'x'.repeat(3000)), {
          minLength: 1,
          maxLength: 40,
        }),
        fc.constantFrom('NEEDLE', 'N', 'E', 'LEN', 'b\xff'),
        fc.integer({ min: 1, max: 700_000 }),
        fc.array(fc.integer({ min: 0, max: 700_000 }), { maxLength: 30 }),
        fc.boolean(),
        fc.oneof(fc.integer({ min: 0, max: 50 }), fc.constant(Number.MAX_SAFE_INTEGER)),
        (parts, needle, size, at, bom, limit) => {
          let bytes = built(parts, size, needle, at);
          if (bom) bytes = Buffer.concat([Buffer.from('\ufeff'), bytes]);
          const { scanned, expected } = both(bytes, needle, limit);
          expect(scanned).toEqual(expected);
        },
      ),
      { numRuns: runs(60) },
    );
  });

  it('finds a literal across the boundary of two pieces, and in a line longer than a piece', () => {
    const piece = 256 * 1024;
    for (const offset of [-7, -6, -5, -3, -1, 0, 1, 5]) {
      const bytes = Buffer.alloc(3 * piece + 100, 'a');
      bytes.write('NEEDLE', piece + offset, 'latin1');
      bytes.write('\n', 2 * piece + 10, 'latin1');
      bytes.write('NEEDLE', 2 * piece - 2, 'latin1');
      bytes.write('\nNEEDLE\n', 3 * piece - 4, 'latin1');
      const { scanned, expected } = both(bytes, 'NEEDLE', 10);
      expect(scanned).toEqual(expected);
      expect(scanned!.lines).toEqual([0, 2]);
    }
  });

  it('counts a line once however many times it holds the literal, and a BOM is no part of line 1', () => {
    const bytes = Buffer.from('\ufeffNEEDLE NEEDLE\r\nno\r\nNEEDLENEEDLE', 'utf8');
    expect(both(bytes, 'NEEDLE', 5).scanned).toEqual({ lines: [0, 2], total: 2 });
    expect(both(bytes, '\ufeffNEEDLE', 5).scanned).toEqual({ lines: [], total: 0 });
    expect(both(bytes, 'NEEDLE', 1).scanned).toEqual({ lines: [0], total: 2 });
    expect(both(bytes, 'NEEDLE', 0).scanned).toEqual({ lines: [], total: 2 });
  });

  it('is undefined for a file that cannot be read', () => {
    expect(literalLines(path.join(dir, 'missing'), Buffer.from('x'), 1)).toBeUndefined();
    expect(literalLines(dir, Buffer.from('x'), 1)).toBeUndefined();
  });
});
