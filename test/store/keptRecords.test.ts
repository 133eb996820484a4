// After an edit, the saved index writes the records of the lines the edit kept as it read them
// (src/store/savedIndex.ts, KeptRecords): the file must be the one encoding every record anew gives.

import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { applySplice } from '../../src/model/edit.js';
import { hashLines } from '../../src/model/hash.js';
import { buildIndex, type LineIndex } from '../../src/model/lineIndex.js';
import { dominantEol, splitLines } from '../../src/model/lines.js';
import { BLOCK, SavedIndex, saveIndexFile } from '../../src/store/savedIndex.js';
import { StateStore } from '../../src/store/state.js';
import { cleanup, tempDir } from '../e2e/harness.js';
import { packText } from '../support/pack.js';
import { runs } from '../support/runs.js';
import { readSettings } from '../../src/settings/env.js';

afterAll(cleanup);

const stamp = { size: 1, mtimeNs: '1', ctimeNs: '1', ino: '1' };

function save(store: StateStore, rel: string, index: LineIndex, kept?: Parameters<typeof saveIndexFile>[4]): void {
  const lines = index.lids.length;
  const checkpoints = Array.from({ length: Math.ceil(lines / BLOCK) }, (_, b) => b * 100);
  expect(saveIndexFile(store, rel, { file: stamp, racy: false, content: null, lines, checkpoints }, index, kept)).toBe(
    true,
  );
}

/** The saved index of `rel` as JSON, but for when it was written (and the head's digest, which covers that). */
function saved(root: string, rel: string): Record<string, unknown> {
  const { touched: _t, head: _h, ...rest } = JSON.parse(packText(root, `index:${rel}`)!) as Record<string, unknown>;
  return rest;
}

describe('an edit saving the records it kept as they were read', () => {
  it('writes the index that encoding every record gives, and reads back the same LIDs', () => {
    const root = tempDir();
    const store = new StateStore(root, readSettings({}), (m) => {
      throw new Error(m);
    });
    let n = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3 * BLOCK + 300 }),
        fc.nat(),
        // Deletions and insertions of whole blocks too, which keep later blocks' digests.
        fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constantFrom(BLOCK, BLOCK + 1, 2 * BLOCK)),
        fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constantFrom(BLOCK, BLOCK - 1)),
        (count, at, deleteCount, inserted) => {
          const rel = `f${n++}.txt`;
          const text = Array.from({ length: count }, (_, i) => `line ${i % 97}\n`).join('');
          const lines = splitLines(Buffer.from(text));
          save(store, rel, buildIndex(hashLines(lines)));
          const records = SavedIndex.open(store, rel)!.records()!;
          const retired = SavedIndex.open(store, rel)!.retired()!;
          const blocks = SavedIndex.open(store, rel)!.head.blocks;
          const start = count ? at % (count + 1) : 0;
          const del = Math.min(deleteCount, count - start);
          const insert = Array.from({ length: inserted }, (_, i) => Buffer.from(`new ${i % 5}`));
          const edited = applySplice(
            lines,
            { h1: records.h1, h2: records.h2, lids: records.lids, retired },
            { start, deleteCount: del, insert },
            dominantEol(lines),
          ).index;

          save(store, `${rel}.kept`, edited, { text: records.text, blocks, start, end: start + del, inserted });
          save(store, `${rel}.anew`, edited);
          store.flush();
          const { path: _a, ...kept } = saved(root, `${rel}.kept`);
          const { path: _b, ...anew } = saved(root, `${rel}.anew`);
          expect(kept).toEqual(anew);
          expect(Array.from(SavedIndex.open(store, `${rel}.kept`)!.records()!.lids)).toEqual(Array.from(edited.lids));
        },
      ),
      { numRuns: runs(60) },
    );
  });

  it('saves a big index whose block digests (taken in WebAssembly) check when it is read again', () => {
    const root = tempDir();
    const store = new StateStore(root, readSettings({}), (m) => {
      throw new Error(m);
    });
    const text = Array.from({ length: 20 * BLOCK + 7 }, (_, i) => `line ${i % 997}\n`).join('');
    const index = buildIndex(hashLines(splitLines(Buffer.from(text))));
    save(store, 'big.txt', index);
    store.flush();
    const records = SavedIndex.open(store, 'big.txt')!.records();
    expect(records && Array.from(records.lids)).toEqual(Array.from(index.lids));
  });
});

describe('a small index saved whole, written in one piece', () => {
  it('has the bytes of the same index written in pieces (an edit keeping records), and reads back', () => {
    const root = tempDir();
    const store = new StateStore(root, readSettings({}), (m) => {
      throw new Error(m);
    });
    // Around the blocks and the one piece's limit (4 blocks): over it, both are written in pieces.
    for (const count of [1, 2, BLOCK - 1, BLOCK, BLOCK + 1, 4 * BLOCK - 1, 4 * BLOCK, 4 * BLOCK + 1, 4 * BLOCK + 2]) {
      const rel = `g${count}.txt`;
      const text = Array.from({ length: count }, (_, i) => `line ${i % 89}\n`).join('');
      const lines = splitLines(Buffer.from(text));
      save(store, rel, buildIndex(hashLines(lines)));
      const before = SavedIndex.open(store, rel)!;
      const records = before.records()!;
      // One line deleted at the middle: the edit's index, saved from the records kept and whole.
      const start = count >> 1;
      const edited = applySplice(
        lines,
        { h1: records.h1, h2: records.h2, lids: records.lids, retired: before.retired()! },
        { start, deleteCount: 1, insert: [] },
        dominantEol(lines),
      ).index;
      save(store, `${rel}.kept`, edited, {
        text: records.text,
        blocks: before.head.blocks,
        start,
        end: start + 1,
        inserted: 0,
      });
      save(store, `${rel}.anew`, edited);
      store.flush();
      // But for its path, when it was written and the head's digest, which covers both.
      const bare = (key: string) =>
        packText(root, `index:${key}`)!
          .replace(/"path":"[^"]*"/, '')
          .replace(/"touched":\d+/, '')
          .replace(/"head":"[0-9a-f]+"/, '');
      expect(bare(`${rel}.anew`)).toBe(bare(`${rel}.kept`));
      const anew = SavedIndex.open(store, `${rel}.anew`)!;
      expect(anew).toBeDefined();
      expect(Array.from(anew.records()!.lids)).toEqual(Array.from(edited.lids));
      expect(anew.retired()).toEqual(edited.retired);
    }
  });
});

describe('a small index not kept (RT_STATE=off)', () => {
  it('is not encoded at all: the store refuses it before its records are read', () => {
    const store = new StateStore(tempDir(), readSettings({ RT_STATE: 'off' }), () => undefined);
    const unread = () => {
      throw new Error('the records were read');
    };
    const index = {
      retired: buildIndex(hashLines(splitLines(Buffer.from('a\n')))).retired,
      get h1(): Uint32Array {
        return unread();
      },
      get h2(): Uint32Array {
        return unread();
      },
      get lids(): Uint32Array {
        return unread();
      },
    } as unknown as LineIndex;
    const fields = { file: stamp, racy: false, content: null, lines: 100, checkpoints: [0] };
    expect(saveIndexFile(store, 'off.txt', fields, index)).toBe(false);
  });
});
