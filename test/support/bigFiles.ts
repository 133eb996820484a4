// What the tests of big files share: a file of lines of all kinds, and a wait for the file
// system's clock.

import fs from 'node:fs';
import path from 'node:path';

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
