// What the tests of big files share: a file of lines of all kinds, a wait for the file
// system's clock, and a file with its index saved as rt's own write leaves them.

import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { hashLines } from '../../src/model/hash.js';
import { buildIndex } from '../../src/model/lineIndex.js';
import { splitLines } from '../../src/model/lines.js';
import { saveIndex, statFile } from '../../src/store/indexedFile.js';
import { resolveInRoot } from '../../src/store/root.js';
import type { StateStore } from '../../src/store/state.js';

/**
 * `lines` lines (about 1.5 MB for 40,000) of all kinds, line `n` (1-based) holding `marker n`:
 * tabs, empty lines, invalid UTF-8 (every 97th line), `eol` endings but LF on every 5th line,
 * optionally a BOM and no final newline.
 */
export function bigFile(eol: string, bom: boolean, finalNewline: boolean, lines = 40_000): Buffer {
  const parts: Buffer[] = bom ? [Buffer.from([0xef, 0xbb, 0xbf])] : [];
  for (let n = 1; n <= lines; n++) {
    const body =
      n % 97 === 0
        ? Buffer.from([0x61, 0xff, 0xfe, 0x09, 0x62])
        : n % 13 === 0
          ? Buffer.alloc(0)
          : Buffer.from(`\tmarker ${n} ${'x'.repeat(n % 50)}`, 'latin1');
    parts.push(body, Buffer.from(n === lines && !finalNewline ? '' : n % 5 === 0 ? '\n' : eol, 'latin1'));
  }
  return Buffer.concat(parts);
}

/** Waits until the file system's clock (as it stamps files in `dir`) has moved past what it stamps now: a tick. */
export function nextTick(dir: string): void {
  const probe = path.join(dir, '.tick');
  fs.writeFileSync(probe, '');
  const was = fs.statSync(probe, { bigint: true }).mtimeNs;
  for (;;) {
    fs.writeFileSync(probe, 'x');
    if (fs.statSync(probe, { bigint: true }).mtimeNs !== was) return;
  }
}

/**
 * `bytes` at `rel` (in the root `root` of `store`) with its index saved, as rt's own write leaves
 * them (its content written, its mode set a tick later): a stamp trusted alone (see
 * ownWriteSettled), unless `racy`.
 */
export function savedAsWritten(store: StateStore, root: string, rel: string, bytes: Buffer, racy = false) {
  const since = Date.now();
  const abs = path.join(root, rel);
  fs.writeFileSync(abs, bytes);
  nextTick(root);
  fs.chmodSync(abs, 0o644);
  const st = fs.statSync(abs, { bigint: true });
  const wrote = { ino: String(st.ino), mtimeNs: String(st.mtimeNs), size: Number(st.size) };
  const file = resolveInRoot({ dir: root, cwd: root }, rel);
  const lines = splitLines(bytes);
  const index = buildIndex(hashLines(lines));
  const own = racy ? {} : { writtenSince: since, wrote };
  expect(saveIndex(store, rel, lines, index, statFile(file), { parts: [bytes], ...own })).toBe(true);
  return { abs, file, lines, index };
}
