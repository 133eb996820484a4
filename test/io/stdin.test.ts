// Reading an edit's text (src/io/stdin.ts): a regular file given as stdin is read into one buffer
// of its size, from where its descriptor stands; the bytes are those a read in pieces gives.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readAll, readPieces } from '../../src/io/stdin.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-stdin-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** What `read` gives of a file holding `bytes`, its descriptor first moved `skip` bytes on. */
function readFrom(bytes: Buffer, read: (fd: number) => Buffer, skip = 0): Buffer {
  const file = path.join(dir, 'text');
  fs.writeFileSync(file, bytes);
  const fd = fs.openSync(file, 'r');
  try {
    if (skip) fs.readSync(fd, Buffer.alloc(skip), 0, skip, null);
    return read(fd);
  } finally {
    fs.closeSync(fd);
  }
}

describe('readAll', () => {
  // Sizes around the pieces' 64 KiB, and a text of one long line.
  const texts = [
    Buffer.from('one line\n'),
    Buffer.from('a\r\nb\n\xff\xfe', 'latin1'),
    Buffer.alloc((1 << 16) - 1, 'x'),
    Buffer.alloc(1 << 16, 'y'),
    Buffer.alloc((1 << 16) + 1, 'z'),
    Buffer.concat([Buffer.alloc(300_000, 'var a=1;'), Buffer.from('\n')]),
  ];

  it('reads a file whole, the bytes a read in pieces gives', () => {
    for (const text of texts) {
      const whole = readFrom(text, readAll);
      expect(whole.equals(text)).toBe(true);
      expect(whole.equals(readFrom(text, readPieces))).toBe(true);
    }
  });

  it('reads from where the descriptor stands, not from the file’s start', () => {
    for (const text of texts)
      for (const skip of [1, text.length - 1, text.length]) {
        const rest = readFrom(text, readAll, skip);
        expect(rest.equals(text.subarray(skip))).toBe(true);
        expect(rest.equals(readFrom(text, readPieces, skip))).toBe(true);
      }
  });

  it('reads an empty file as nothing', () => {
    expect(readFrom(Buffer.alloc(0), readAll).length).toBe(0);
  });

  it('reads what a file holds past the size it had when read began (a file still growing)', () => {
    const file = path.join(dir, 'growing');
    fs.writeFileSync(file, 'first\n');
    const fd = fs.openSync(file, 'r');
    const stat = fs.fstatSync;
    try {
      // The file grows between its size being taken and its reading.
      (fs as { fstatSync: typeof fs.fstatSync }).fstatSync = ((...args: Parameters<typeof fs.fstatSync>) => {
        const st = stat(...args);
        fs.appendFileSync(file, 'second\n');
        return st;
      }) as typeof fs.fstatSync;
      expect(readAll(fd).toString()).toBe('first\nsecond\n');
    } finally {
      (fs as { fstatSync: typeof fs.fstatSync }).fstatSync = stat;
      fs.closeSync(fd);
    }
  });
});
