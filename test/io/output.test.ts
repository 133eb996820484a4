// rt's stdout (src/io/output.ts): what is written comes out whole and in order, in its bytes,
// whatever the sizes of the pieces against the buffer they wait in.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FdSink } from '../../src/io/output.js';

describe('FdSink', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  /** Writes `pieces` through a sink to a file; gives the file's bytes and the bytes expected. */
  function written(pieces: Array<string | Uint8Array>, buffered = true): { got: Buffer; want: Buffer } {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-output-'));
    const file = path.join(dir, 'out');
    const fd = fs.openSync(file, 'w');
    const failed: string[] = [];
    const sink = new FdSink(
      fd,
      buffered,
      () => failed.push('closed'),
      (code) => failed.push(code),
    );
    for (const piece of pieces) sink.write(piece);
    sink.flush();
    fs.closeSync(fd);
    expect(failed).toEqual([]);
    const want = Buffer.concat(pieces.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : p)));
    return { got: fs.readFileSync(file), want };
  }

  it('keeps every byte and their order across the buffer: many-byte characters, views, a piece larger than it', () => {
    const bytes = Buffer.from([0xff, 0xfe, 0x00, 0x0a, 0xc3]);
    const pieces: Array<string | Uint8Array> = [];
    for (let i = 0; i < 40_000; i++) {
      pieces.push(i % 3 === 0 ? `line ${i}: é中😀\r\n` : bytes.subarray(i % 4));
      if (i % 9_999 === 0) pieces.push('x'.repeat(70_000), Buffer.alloc(0), '');
      if (i % 12_345 === 0) pieces.push(Buffer.alloc(200_000, 0x61).subarray(1));
    }
    const { got, want } = written(pieces);
    expect(got.equals(want)).toBe(true);
  });

  it('writes each piece at once when unbuffered', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-output-'));
    const file = path.join(dir, 'out');
    const fd = fs.openSync(file, 'w');
    const sink = new FdSink(
      fd,
      false,
      () => undefined,
      () => undefined,
    );
    let want = Buffer.alloc(0);
    for (const piece of ['a', Buffer.from('ü\n'), 'z'.repeat(100_000), 'é']) {
      sink.write(piece);
      want = Buffer.concat([want, typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece]);
      // On the file before any flush: nothing waits.
      expect(fs.readFileSync(file).equals(want)).toBe(true);
    }
    fs.closeSync(fd);
  });
});
