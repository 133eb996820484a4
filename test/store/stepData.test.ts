// A history step's data as stored (encodeStepData in src/store/history.ts): the body copied once,
// into the blob itself; the bytes the head-then-joined-body encoding gave, property-tested against
// it (kept here as the reference), and read back by the history.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { digestBytes } from '../../src/model/digest.js';
import { encodeStepData, type FileData } from '../../src/store/history.js';

/** The encoding as it was first written: the body joined, then joined again after its head. */
function reference(data: readonly FileData[]): Buffer {
  const payload: Buffer[] = [];
  for (const f of data) payload.push(...f.beforeBytes, ...f.afterBytes);
  for (const f of data)
    for (const l of [...f.beforeLids, ...f.afterLids]) payload.push(Buffer.from(l.buffer, l.byteOffset, l.byteLength));
  const body = Buffer.concat(payload);
  const header = Buffer.from(
    JSON.stringify({
      check: digestBytes(body),
      files: data.map((f) => ({
        ...(f.movedTo === undefined ? {} : { movedTo: f.movedTo }),
        ...(f.movedFrom === undefined ? {} : { movedFrom: f.movedFrom }),
        hunks: f.hunks,
        before: f.beforeBytes.map((b) => b.length),
        after: f.afterBytes.map((b) => b.length),
        beforeLids: f.beforeLids.map((l) => l.length),
        afterLids: f.afterLids.map((l) => l.length),
      })),
    }),
  );
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  return Buffer.concat([length, header, body]);
}

/** Bytes at any offset of a bigger buffer, as lines cut from a file are. */
const bytes = fc
  .tuple(fc.uint8Array({ maxLength: 40 }), fc.nat(7))
  .map(([b, at]) => Buffer.concat([Buffer.alloc(at), Buffer.from(b)]).subarray(at));
/** LIDs in words that may lie at any 4-byte offset of a bigger array. */
const lids = fc
  .tuple(fc.array(fc.nat(2 ** 32 - 1), { maxLength: 5 }), fc.nat(3))
  .map(([words, at]) => new Uint32Array([...Array<number>(at).fill(0), ...words]).subarray(at));
const span = fc.record({ from: fc.nat(100), to: fc.nat(100), start: fc.nat(1000), end: fc.nat(1000) });
const file: fc.Arbitrary<FileData> = fc.record(
  {
    movedTo: fc.nat(3),
    movedFrom: fc.nat(3),
    hunks: fc.array(fc.record({ before: span, after: span }), { maxLength: 3 }),
    beforeBytes: fc.array(bytes, { maxLength: 3 }),
    afterBytes: fc.array(bytes, { maxLength: 3 }),
    beforeLids: fc.array(lids, { maxLength: 3 }),
    afterLids: fc.array(lids, { maxLength: 3 }),
  },
  { requiredKeys: ['hunks', 'beforeBytes', 'afterBytes', 'beforeLids', 'afterLids'] },
);

describe('encodeStepData', () => {
  it('gives the bytes of the joined encoding, its body at a 4-byte boundary in memory', () => {
    fc.assert(
      fc.property(fc.array(file, { maxLength: 4 }), (data) => {
        const blob = encodeStepData(data);
        expect(blob.equals(reference(data))).toBe(true);
        // The body's words read in place by its digest, not copied out first.
        expect((blob.byteOffset + 4 + blob.readUInt32LE(0)) % 4).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('encodes a step of a long line as the joined encoding does', () => {
    const line = Buffer.alloc(3_000_001, 'var a=1;');
    const data: FileData[] = [
      {
        hunks: [
          { before: { from: 0, to: 1, start: 0, end: line.length }, after: { from: 0, to: 1, start: 0, end: 3 } },
        ],
        beforeBytes: [line],
        afterBytes: [Buffer.from('b;\n')],
        beforeLids: [Uint32Array.of(7)],
        afterLids: [Uint32Array.of(9)],
      },
    ];
    expect(encodeStepData(data).equals(reference(data))).toBe(true);
  });
});
