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

/** Lines longer than this are not kept. */
const KEEP = 2500;

/** What literalLines finds in `bytes` (written to a file), and what the whole-file matcher finds. */
function both(bytes: Buffer, needle: string, limit: number, keep = KEEP) {
  const file = path.join(dir, `f${files++}`);
  fs.writeFileSync(file, bytes);
  const all = compileMatcher(needle, { fixed: true, ignoreCase: false, word: false }).matchingLines(
    bytes,
    bomLengthOf(bytes),
    Infinity,
  );
  const scanned = literalLines(file, Buffer.from(needle), limit, keep);
  fs.rmSync(file);
  // Each line kept as read: its bytes to its \n (a BOM and a \r before the \n too).
  const raw: Buffer[] = [];
  for (let at = 0; at < bytes.length; ) {
    const nl = bytes.indexOf(0x0a, at);
    raw.push(bytes.subarray(at, nl === -1 ? bytes.length : nl));
    at = nl === -1 ? bytes.length : nl + 1;
  }
  const lines = all.slice(0, limit);
  const found = new Map(lines.filter((n) => raw[n]!.length <= keep).map((n) => [n + 1, raw[n]!]));
  return { scanned, expected: { lines, total: all.length, found } };
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
  for (const place of at) bytes.write(needle, Math.max(0, Math.min(place, bytes.length - needle.length)), 'utf8');
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
        fc.constantFrom(KEEP, Infinity),
        (parts, needle, size, at, bom, limit, keep) => {
          let bytes = built(parts, size, needle, at);
          if (bom) bytes = Buffer.concat([Buffer.from('\ufeff'), bytes]);
          const { scanned, expected } = both(bytes, needle, limit, keep);
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
      const { scanned, expected } = both(bytes, 'NEEDLE', 10, Infinity);
      expect(scanned).toEqual(expected);
      expect(scanned!.lines).toEqual([0, 2]);
    }
  });

  it('keeps a line hit as read when it starts in a piece before the hit', () => {
    const piece = 256 * 1024;
    const bytes = Buffer.alloc(2 * piece, 'a');
    bytes.write('\n', piece / 2, 'latin1');
    bytes.write('NEEDLE', piece + piece / 2, 'latin1');
    bytes.write('\r\n', 2 * piece - 2, 'latin1');
    const { scanned, expected } = both(bytes, 'NEEDLE', 10, Infinity);
    expect(scanned).toEqual(expected);
    expect(scanned!.found.get(2)!.length).toBe(2 * piece - 1 - (piece / 2 + 1));
  });

  it('counts a line once however many times it holds the literal, and a BOM is no part of line 1', () => {
    const bytes = Buffer.from('\ufeffNEEDLE NEEDLE\r\nno\r\nNEEDLENEEDLE', 'utf8');
    const line1 = Buffer.from('\ufeffNEEDLE NEEDLE\r');
    const line3 = Buffer.from('NEEDLENEEDLE');
    const found = (entries: Array<[number, Buffer]>) => new Map(entries);
    expect(both(bytes, 'NEEDLE', 5).scanned).toEqual({
      lines: [0, 2],
      total: 2,
      found: found([
        [1, line1],
        [3, line3],
      ]),
    });
    expect(both(bytes, '\ufeffNEEDLE', 5).scanned).toEqual({ lines: [], total: 0, found: found([]) });
    expect(both(bytes, 'NEEDLE', 1).scanned).toEqual({ lines: [0], total: 2, found: found([[1, line1]]) });
    expect(both(bytes, 'NEEDLE', 0).scanned).toEqual({ lines: [], total: 2, found: found([]) });
  });

  it('is undefined for a file that cannot be read', () => {
    expect(literalLines(path.join(dir, 'missing'), Buffer.from('x'), 1, KEEP)).toBeUndefined();
    expect(literalLines(dir, Buffer.from('x'), 1, KEEP)).toBeUndefined();
  });
});
