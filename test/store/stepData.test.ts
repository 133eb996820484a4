// A history step's data as stored (encodeStepData and History.record in src/store/history.ts):
// written in parts, its new bytes given in pieces, its digest taken over the parts; the bytes the
// head-then-joined-body encoding gave, property-tested against it (kept here as the reference), in
// the data file a step writes as in the blob, and read back by the history.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { digestBytes } from '../../src/model/digest.js';
import { encodeStepData, History, INLINE_MAX, type FileData, type NewFileData } from '../../src/store/history.js';
import { readSettings } from '../../src/settings/env.js';
import { StateStore } from '../../src/store/state.js';

/** The data as one step would have it, its new bytes joined. */
function joined(data: readonly NewFileData[]): FileData[] {
  return data.map((f) => ({ ...f, afterBytes: f.afterBytes.map((b) => (Buffer.isBuffer(b) ? b : Buffer.concat(b))) }));
}

/** The encoding as it was first written: the body joined, then joined again after its head. */
function reference(given: readonly NewFileData[]): Buffer {
  const data = joined(given);
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
const file: fc.Arbitrary<NewFileData> = fc.record(
  {
    movedTo: fc.nat(3),
    movedFrom: fc.nat(3),
    hunks: fc.array(fc.record({ before: span, after: span }), { maxLength: 3 }),
    beforeBytes: fc.array(bytes, { maxLength: 3 }),
    // New bytes whole, or in pieces (a range cut from the parts of a new file).
    afterBytes: fc.array(fc.oneof(bytes, fc.array(bytes, { maxLength: 4 })), { maxLength: 3 }),
    beforeLids: fc.array(lids, { maxLength: 3 }),
    afterLids: fc.array(lids, { maxLength: 3 }),
  },
  { requiredKeys: ['hunks', 'beforeBytes', 'afterBytes', 'beforeLids', 'afterLids'] },
);

describe('encodeStepData', () => {
  it('gives the bytes of the joined encoding, new bytes whole or in pieces', () => {
    fc.assert(
      fc.property(fc.array(file, { maxLength: 4 }), (data) => {
        expect(encodeStepData(data).equals(reference(data))).toBe(true);
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

describe("a step's data file", () => {
  const roots: string[] = [];
  afterAll(() => {
    for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
  });
  const side = { exists: true, size: 0, digest: null };
  const fileOf = { path: 'f.txt', abs: '/x/f.txt', before: side, after: side, added: 1, removed: 1 };

  it('holds the bytes of the joined encoding, written in parts, and is read back as the step joined (property)', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-stepdata-'));
    roots.push(root);
    const history = History.of(new StateStore(root, readSettings({}), () => undefined))!;
    // Data too big to be kept inline (each old range padded past INLINE_MAX), each range matching its hunk's span.
    const ranges = fc.array(fc.tuple(bytes, fc.array(bytes, { minLength: 1, maxLength: 4 })), {
      minLength: 1,
      maxLength: 3,
    });
    const step = fc.tuple(ranges, lids).map(([given, words]): NewFileData[] => {
      const before = given.map(([b]) => Buffer.concat([Buffer.alloc(INLINE_MAX, 'x'), b]));
      return [
        {
          hunks: given.map(([, a], k) => ({
            before: { from: 0, to: 1, start: 0, end: before[k]!.length },
            after: { from: 0, to: 1, start: 0, end: a.reduce((n, piece) => n + piece.length, 0) },
          })),
          beforeBytes: before,
          afterBytes: given.map(([, a]) => a),
          beforeLids: [words],
          afterLids: [],
        },
      ];
    });
    fc.assert(
      fc.property(step, (data) => {
        const recorded = history.record(
          { time: Date.now(), session: null, command: 'rt edit', files: [fileOf] },
          data,
        )!;
        expect(recorded.inline).toBeUndefined();
        const stored = fs.readFileSync(path.join(root, '.rt', 'history', 'data', `${recorded.id}.bin`));
        expect(stored.equals(reference(data))).toBe(true);
        expect(recorded.bytes).toBe(stored.length);
        const back = history.data(recorded.id)!;
        expect(back.map((f) => f.afterBytes.map((b) => b.toString('hex')))).toEqual(
          joined(data).map((f) => f.afterBytes.map((b) => b.toString('hex'))),
        );
      }),
      { numRuns: 60 },
    );
  });

  it('killed between its parts, leaves a temporary file only: no step, no data under its id', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-stepdata-'));
    roots.push(root);
    const history = History.of(new StateStore(root, readSettings({}), () => undefined))!;
    // Big enough to be written on its own (parts smaller are gathered into one write).
    const old = Buffer.alloc(1 << 16, 'o');
    const data: NewFileData[] = [
      {
        hunks: [{ before: { from: 0, to: 1, start: 0, end: old.length }, after: { from: 0, to: 1, start: 0, end: 4 } }],
        beforeBytes: [old],
        afterBytes: [[Buffer.from('ne'), Buffer.from('w\n')]],
        beforeLids: [Uint32Array.of(1)],
        afterLids: [Uint32Array.of(2)],
      },
    ];
    const folder = path.join(root, '.rt', 'history', 'data');
    // A kill after the head and the old bytes are written (two writes): nothing after runs, nothing is cleaned up.
    let writes = 0;
    const write = fs.writeSync;
    const writeSync = vi.spyOn(fs, 'writeSync').mockImplementation(((...args: Parameters<typeof fs.writeSync>) => {
      const target = fs.readlinkSync(`/proc/self/fd/${args[0]}`);
      if (target.startsWith(folder) && ++writes === 3) throw new Error('killed');
      return (write as (...a: unknown[]) => number)(...args);
    }) as typeof fs.writeSync);
    const rmSync = vi.spyOn(fs, 'rmSync').mockImplementation(() => undefined);
    try {
      expect(() => history.record({ time: 1, session: null, command: 'rt edit', files: [fileOf] }, data)).toThrow(
        'killed',
      );
    } finally {
      writeSync.mockRestore();
      rmSync.mockRestore();
    }
    const left = fs.readdirSync(folder);
    expect(left).toHaveLength(1);
    expect(left[0]).toMatch(/^1\.bin\.tmp-/);
    expect(fs.statSync(path.join(folder, left[0]!)).size).toBeLessThan(reference(data).length);
    const again = History.of(new StateStore(root, readSettings({}), () => undefined))!;
    expect(again.steps()).toEqual([]);
    expect(again.data(1)).toBeUndefined();
  });
});
