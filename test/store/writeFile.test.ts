// The check before an edit's rename (src/store/writeFile.ts): the target must still be the version
// read. A past bug: a same-size rewrite in place that keeps the mtime (cp
// --preserve=timestamps) kept size, mtime and inode, and was overwritten; its ctime tells.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RtError } from '../../src/model/errors.js';
import { replaceFile, versionOf } from '../../src/store/writeFile.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-write-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('replaceFile', () => {
  it('writes over the version it was given', () => {
    const file = path.join(dir, 'a.txt');
    fs.writeFileSync(file, 'one\n');
    replaceFile(file, [Buffer.from('two\n')], versionOf(fs.lstatSync(file)), 'a.txt');
    expect(fs.readFileSync(file, 'utf8')).toBe('two\n');
    expect(fs.readdirSync(dir).filter((n) => n.includes('rt-tmp'))).toEqual([]);
  });

  it(
    'refuses, writing nothing, a target whose size, mtime and ' +
      'inode are those read but whose ctime moved (rewritten in place)',
    () => {
      const file = path.join(dir, 'b.txt');
      fs.writeFileSync(file, 'read\n');
      const read = fs.lstatSync(file);
      // The outside rewrite: same size, same inode; the mtime set back as far as utimes can.
      fs.writeFileSync(file, 'REAd\n');
      fs.utimesSync(file, read.atime, read.mtime);
      const now = fs.lstatSync(file);
      expect([now.size, now.ino]).toEqual([read.size, read.ino]);
      expect(now.ctimeMs).not.toBe(read.ctimeMs);
      // What rt read, with the mtime as the system now reports it (utimes keeps microseconds only).
      const expected = { ...versionOf(read), mtimeMs: now.mtimeMs };
      expect(() => replaceFile(file, [Buffer.from('mine\n')], expected, 'b.txt')).toThrow(RtError);
      expect(fs.readFileSync(file, 'utf8')).toBe('REAd\n');
      expect(fs.readdirSync(dir).filter((n) => n.includes('rt-tmp'))).toEqual([]);
    },
  );
});
