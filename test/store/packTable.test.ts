// A segment's table as rt reads it (src/store/pack.ts, readTable): a big one of ASCII is checked
// over its bytes in WebAssembly, one with other characters over its decoded text; either way a
// table changed by one byte is set aside, never trusted.

import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { digestText } from '../../src/model/digest.js';
import { WASM_DIGEST_FROM } from '../../src/model/wasmDigest.js';
import { scanTable } from '../../src/model/wasmTable.js';
import { Pack } from '../../src/store/pack.js';
import {
  noteDoc as doc,
  noteOf as note,
  noteStore as store,
  packDir,
  packSegments,
  plantEntries,
} from '../support/pack.js';
import { runs } from '../support/runs.js';
import { tempFolders } from '../support/tempFolders.js';

const tempDir = tempFolders('rt-packtable-');

// The scan watched, so that a test can tell the WebAssembly reading was taken, not only JSON.parse's.
vi.mock('../../src/model/wasmTable.js', async (original) => {
  const real = await original<typeof import('../../src/model/wasmTable.js')>();
  return { ...real, scanTable: vi.fn(real.scanTable) };
});
const scans = vi.mocked(scanTable);

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

const ascii = many();

describe('a big table', () => {
  for (const [what, names] of [
    ['of ASCII', ascii],
    ['with other characters (é, a CJK name, an emoji)', many(['café.txt', '文件.md', 'x😀y.txt'])],
    [
      'of ASCII with names JSON escapes (a quote, a backslash, a tab)',
      many(['q"uote.txt', 'back\\slash.txt', 'tab\t.txt']),
    ],
  ] as const) {
    it(`${what} is read whole and checked`, () => {
      scans.mockClear();
      const { root } = bigTable(names);
      const again = store(root);
      for (const name of names) expect(note(again, name)).toBe(`n:${name}`);
      // Only the table of plain names is in the form the WebAssembly scan reads; the others go to JSON.parse.
      expect(scans.mock.results.some((r) => r.value !== undefined)).toBe(names === ascii);
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

describe('a big table whose digest holds', () => {
  it('but whose row does not check (an entry numbered after its segment) is set aside', () => {
    const names = many();
    const { root, file, tocAt } = bigTable(names);
    const bytes = fs.readFileSync(file);
    const toc = bytes.subarray(tocAt, bytes.lastIndexOf(0x0a, bytes.length - 2) + 1).toString('latin1');
    const changed = toc.replace(/(\["view:dir\/f7\.txt",\d+,\d+,)1,/, '$199,');
    expect(changed).not.toBe(toc);
    const trailer = `${JSON.stringify({ tocAt, check: digestText(changed) })}\n`;
    fs.writeFileSync(file, Buffer.concat([bytes.subarray(0, tocAt), Buffer.from(changed + trailer, 'latin1')]));
    const warnings: string[] = [];
    expect(note(store(root, warnings), 'dir/f8.txt')).toBeUndefined();
    expect(warnings.join('\n')).toMatch(/set aside/);
    expect(fs.existsSync(file)).toBe(false);
  });
});

describe('a table naming a key twice', () => {
  it('was not written by rt: the segment is set aside', () => {
    const root = tempDir();
    const file = plantEntries(root, [
      ['view:a.txt', JSON.stringify(doc('a.txt', 'one'))],
      ['view:a.txt', JSON.stringify(doc('a.txt', 'two'))],
    ]);
    const warnings: string[] = [];
    expect(note(store(root, warnings), 'a.txt')).toBeUndefined();
    expect(warnings.join('\n')).toMatch(/set aside/);
    expect(fs.existsSync(file)).toBe(false);
  });
});

describe('merges over a big segment', () => {
  // (A few keys saved a run: liveness looked up around the biggest segment; many: from a map of every key.)
  for (const most of [6, 40])
    it(`keep every key’s newest entry and drop the dead, whatever came, ${most} keys a save (property)`, () => {
      const KEYS = 150;
      const key = (k: number) => `view:a/folder/deep/enough/f${k}.txt`;
      const op = fc.record({
        saved: fc.uniqueArray(fc.nat(KEYS - 1), { maxLength: most }),
        forgot: fc.uniqueArray(fc.nat(KEYS - 1), { maxLength: 2 }),
      });
      fc.assert(
        fc.property(fc.array(op, { minLength: 1, maxLength: 14 }), (ops) => {
          const root = tempDir();
          const dir = packDir(root);
          fs.mkdirSync(dir, { recursive: true });
          const hooks = { damaged: () => {}, ownFolder: () => true };
          const model = new Map<string, string>();
          const put = (pack: Pack, k: number, text: string) => {
            pack.stage(key(k), (write) => write(text));
            model.set(key(k), text);
          };
          // First every key, as a search's first run leaves them: the biggest segment.
          const first = new Pack(dir, hooks);
          for (let k = 0; k < KEYS; k++) put(first, k, `first ${k}`);
          first.save();
          ops.forEach(({ saved, forgot }, i) => {
            const pack = new Pack(dir, hooks);
            for (const k of saved) put(pack, k, `${i}: ${k}`);
            for (const k of forgot.filter((k) => !saved.includes(k))) {
              pack.forget(key(k));
              model.delete(key(k));
            }
            pack.save();
            // Read by a run looking up every key (past 64, from a map of them all), and by runs looking up one.
            const again = new Pack(dir, hooks);
            const text = (pack: Pack, k: number) => {
              const found = pack.find(key(k));
              return found ? found.read(0, found.entry.length).toString() : undefined;
            };
            for (let k = 0; k < KEYS; k++) expect(text(again, k)).toBe(model.get(key(k)));
            for (const k of [0, i % KEYS, KEYS - 1]) expect(text(new Pack(dir, hooks), k)).toBe(model.get(key(k)));
            const names = fs.readdirSync(dir).filter((n) => n.startsWith('pack-'));
            expect(names.length).toBeLessThanOrEqual(9);
          });
          // No segment but the newest is left with nothing live: the newest entry of a key, a tombstone only over an
          // older entry it hides.
          const segments = packSegments(root);
          const rows = segments.flatMap((s) => s.rows);
          const newest = new Map<string, number>();
          for (const r of rows) newest.set(r.key, Math.max(newest.get(r.key) ?? 0, r.seq));
          for (const s of segments.slice(0, -1))
            expect(
              s.rows.some(
                (r) => newest.get(r.key) === r.seq && (r.length >= 0 || rows.filter((o) => o.key === r.key).length > 1),
              ),
            ).toBe(true);
        }),
        { numRuns: runs(100) },
      );
    });
});

describe('a big segment mostly dead', () => {
  it('is copied anew, its live entries kept', () => {
    const root = tempDir();
    const dir = packDir(root);
    fs.mkdirSync(dir, { recursive: true });
    const hooks = { damaged: () => {}, ownFolder: () => true };
    const key = (k: number) => `index:f${k}.txt`;
    const first = new Pack(dir, hooks);
    for (let k = 0; k < 40; k++) first.stage(key(k), (write) => write(`${k}:${'x'.repeat(40_000)}`));
    first.save();
    const again = new Pack(dir, hooks);
    for (let k = 0; k < 30; k++) again.stage(key(k), (write) => write(`new ${k}`));
    again.save();
    // 1.2 MB of its 1.6 MB dead: its 10 live entries copied into a new segment, and it removed.
    expect(fs.existsSync(path.join(dir, 'pack-0000000001.jsonl'))).toBe(false);
    const read = new Pack(dir, hooks);
    for (let k = 0; k < 40; k++) {
      const found = read.find(key(k))!;
      expect(found.read(0, 20).toString()).toBe(k < 30 ? `new ${k}` : `${k}:${'x'.repeat(20 - `${k}:`.length)}`);
    }
  });
});
