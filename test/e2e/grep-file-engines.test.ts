// rt grep-file of a big file through ripgrep and without it (rt's own matcher, which reads the file
// a piece at a time for a literal): the same bytes out, whatever the file holds (a BOM, CRLF endings,
// bytes that are not UTF-8, a last line without a newline or ending in \r, a line longer than a piece) and
// whatever its saved index (none, one that describes it, one made before it changed), with the
// LIDs `rt open` shows.

import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { age, cleanup, parseWindow, run, tempDir, write, type Ran } from './harness.js';

afterAll(cleanup);

const realRg = spawnSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).stdout.trim();

/** A folder holding `rg`, which logs its arguments (one run a line) to `log`, then runs the real one. */
function loggingRg(): { bin: string; log: string } {
  const bin = tempDir('rt-bin-');
  const log = path.join(bin, 'log');
  write(bin, 'rg', `#!/bin/sh\necho "$*" >> ${log}\nexec ${realRg} "$@"\n`);
  chmodSync(path.join(bin, 'rg'), 0o755);
  write(bin, 'log', '');
  return { bin, log };
}

/**
 * Lines of filler (1.2 MB of them: a smaller file is read whole, without ripgrep), with a hit every
 * 97 lines, so that some sit across the 256 KiB pieces read, and CRLF endings.
 */
function filler(): Buffer {
  const lines: string[] = [];
  for (let i = 1; i <= 50_000; i++) lines.push(i % 97 === 0 ? `row ${i} has a needle in it` : `row ${i} plain text`);
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

const FILES: Record<string, Buffer> = {
  'mixed.txt': Buffer.concat([
    Buffer.from('\ufeffneedle first\r\nplain\r\ncaf'),
    Buffer.from([0xe9, 0xff]),
    Buffer.from(' needle here\r\nNEEDLE upper\n'),
    filler(),
    Buffer.from('needles, needle\nlast needle'),
  ]),
  'cr-last.txt': Buffer.concat([Buffer.from('one\n'), filler(), Buffer.from('needle\r\nneedle\r')]),
  'long.txt': Buffer.concat([
    Buffer.from('short needle\n'),
    Buffer.alloc(600_000, 'a'),
    Buffer.from('needle'),
    Buffer.alloc(600_000, 'b'),
    Buffer.from('\nend'),
  ]),
};

/** The changes that make a saved index stale: a line changed and one added. */
function changed(bytes: Buffer): Buffer {
  const text = bytes.toString('latin1').replace('plain', 'plain needle');
  return Buffer.concat([Buffer.from('needle new first\n'), Buffer.from(text, 'latin1')]);
}

type State = 'warm' | 'stale' | 'none';

/** A folder with the files, their index as `state` says, and a copy of its .rt/ to restore before each run. */
function folder(state: State): { dir: string; restore(): void } {
  const dir = tempDir('rt-grep-file-');
  for (const [name, bytes] of Object.entries(FILES)) {
    const file = write(dir, name, bytes);
    // Old enough that the index made of it is trusted without reading the file.
    age(file);
    if (state !== 'none') expect(run(['open', name], dir).status).toBe(0);
    if (state === 'stale') {
      write(dir, name, changed(bytes));
      age(file);
    }
  }
  const saved = path.join(tempDir('rt-saved-'), 'rt');
  if (state !== 'none') cpSync(path.join(dir, '.rt'), saved, { recursive: true });
  return {
    dir,
    restore() {
      rmSync(path.join(dir, '.rt'), { recursive: true, force: true });
      if (state !== 'none') cpSync(saved, path.join(dir, '.rt'), { recursive: true });
    },
  };
}

/** The LIDs `rt open` shows for the lines `r` printed (NUMBER:LID|… or NUMBER:LID-…) are the ones printed. */
function expectOpenLids(r: Ran, dir: string, name: string): void {
  const printed = [...r.stdout.matchAll(/^(\d+):([0-9a-z]+)[|-]/gm)].map((m) => [Number(m[1]), m[2]!] as const);
  if (printed.length === 0) return;
  const window = parseWindow(run(['open', name, '--window', '100000'], dir));
  for (const [n, lid] of printed) expect(lid, `line ${n}\n${r.text}`).toBe(window.lidAt(n));
}

const EVERY: string[][] = [
  ['-F', 'needle'],
  ['ne+dle'],
  ['-i', 'NEEDLE'],
  ['-w', 'needle'],
  ['-c', '-F', 'needle'],
  ['-C', '1', '-F', 'needle'],
  ['--max', '2', '-F', 'needle'],
  ['--json', '-F', 'needle'],
  ['-o', 'ne+dle'],
  ['-e', 'first', '-e', 'needle'],
];
const SOME: string[][] = [
  ['-F', 'needle'],
  ['-i', 'NEEDLE'],
  ['-C', '1', '-F', 'needle'],
];

describe.skipIf(!realRg)('rt grep-file through ripgrep and without it', () => {
  for (const state of ['warm', 'stale', 'none'] as const) {
    it(`prints the same bytes both ways, with the LIDs rt open shows (index: ${state})`, () => {
      const { dir, restore } = folder(state);
      const rg = loggingRg();
      for (const args of state === 'warm' ? EVERY : SOME) {
        for (const name of Object.keys(FILES)) {
          restore();
          const through = run(['grep-file', ...args, name], dir, { env: { PATH: `${rg.bin}:${process.env.PATH}` } });
          restore();
          const without = run(['grep-file', ...args, name], dir, { env: { PATH: '/nonexistent' } });
          expect(through.stderr, through.text).toBe('');
          expect(
            { status: without.status, stdout: without.stdoutBytes.toString('latin1') },
            `${through.text}\n${without.text}`,
          ).toEqual({ status: through.status, stdout: through.stdoutBytes.toString('latin1') });
          if (args.includes('-C') || args.join(' ') === '-F needle') expectOpenLids(through, dir, name);
        }
      }
      // ripgrep was asked, for the literal and for the expression's translation.
      const asked = readFileSync(rg.log, 'utf8');
      expect(asked).toMatch(/--fixed-strings --regexp needle -- \S*mixed\.txt/);
      if (state === 'warm') expect(asked).toMatch(/--regexp \S*ne\S*dle -- \S*long\.txt/);
    });
  }
});
