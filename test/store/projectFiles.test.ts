// The files a language service reads: nothing outside the root, and the digest of each file read,
// by which a rename refuses a file that changed at all between the analysis and its lock.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { confinedFiles, unchangedSince } from '../../src/store/projectFiles.js';

const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt-projectfiles-')));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('confinedFiles digests', () => {
  it('keeps the digest of each file read; any byte changed since (not the name) is a change', () => {
    const a = path.join(dir, 'a.ts');
    const before = Buffer.from('export const foo = 1;\r\nfoo;\n');
    fs.writeFileSync(a, before);
    const files = confinedFiles(dir);
    expect(files.bytes(a)).toEqual(before);
    const digest = files.digests.get(a);
    expect(unchangedSince(digest, before)).toBe(true);
    // A comment added above: every row moves, the name's count on each row may not.
    expect(unchangedSince(digest, Buffer.concat([Buffer.from('// x\n'), before]))).toBe(false);
    expect(unchangedSince(digest, Buffer.from('export const foo = 1;\nfoo;\n'))).toBe(false);
    expect(unchangedSince(digest, Buffer.from('export const foo = 1;\r\nfoo;\nfoo;\n'))).toBe(false);
  });

  it('has no digest for a file never read, nor one outside the root: never unchanged', () => {
    const files = confinedFiles(dir);
    const outside = path.join(os.tmpdir(), 'rt-projectfiles-outside.ts');
    expect(files.bytes(outside)).toBeUndefined();
    expect(files.digests.has(outside)).toBe(false);
    expect(unchangedSince(files.digests.get(path.join(dir, 'b.ts')), Buffer.from(''))).toBe(false);
  });
});
