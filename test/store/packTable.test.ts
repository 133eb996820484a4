// A segment's table as rt reads it (src/store/pack.ts, readTable): a big one of ASCII is checked
// over its bytes in WebAssembly, one with other characters over its decoded text; either way a
// table changed by one byte is set aside, never trusted.

import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WASM_DIGEST_FROM } from '../../src/model/wasmDigest.js';
import { noteDoc as doc, noteOf as note, noteStore as store, packSegments } from '../support/pack.js';
import { tempFolders } from '../support/tempFolders.js';

const tempDir = tempFolders('rt-packtable-');

/** A root whose one segment holds the views of `names`, its table past WASM_DIGEST_FROM bytes. */
function bigTable(names: readonly string[]): { root: string; file: string; tocAt: number } {
  const root = tempDir();
  const s = store(root);
  for (const name of names) s.save('view', name, doc(name, `n:${name}`));
  s.flush();
  const [segment] = packSegments(root);
  const lines = fs.readFileSync(segment!.file, 'utf8').split('\n');
  const { tocAt } = JSON.parse(lines[lines.length - 2]!) as { tocAt: number };
  expect(Buffer.byteLength(lines[lines.length - 3]!)).toBeGreaterThan(WASM_DIGEST_FROM);
  return { root, file: segment!.file, tocAt };
}

const many = (extra: string[] = []) => [...Array.from({ length: 400 }, (_, i) => `dir/f${i}.txt`), ...extra];

describe('a big table', () => {
  for (const [what, names] of [
    ['of ASCII', many()],
    ['with other characters (é, a CJK name, an emoji)', many(['café.txt', '文件.md', 'x😀y.txt'])],
  ] as const) {
    it(`${what} is read whole and checked`, () => {
      const { root } = bigTable(names);
      const again = store(root);
      for (const name of names) expect(note(again, name)).toBe(`n:${name}`);
    });

    it(`${what}: one byte changed in it sets the segment aside`, () => {
      const { root, file, tocAt } = bigTable(names);
      const bytes = fs.readFileSync(file);
      // A digit of an offset near the table's end (an offset off by one still parses).
      const at = bytes.lastIndexOf(Buffer.from(',1,'), bytes.length - 60) - 1;
      expect(at).toBeGreaterThan(tocAt);
      bytes[at] = bytes[at] === 0x31 ? 0x32 : 0x31;
      fs.writeFileSync(file, bytes);
      const warnings: string[] = [];
      expect(note(store(root, warnings), names[names.length - 1]!)).toBeUndefined();
      expect(warnings.join('\n')).toMatch(/set aside/);
      expect(fs.existsSync(file)).toBe(false);
    });
  }
});
