// 6. Large and odd files: a 200 MB file (full form only), one line of 10 MB, a file of nothing
// but \r\n, an empty file, and a file that another process keeps rewriting while rt opens and
// edits it. rt must never crash, never print a window that mixes two versions of the file, and
// never write a torn file; every edit must give exactly the bytes asked for.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, tempDir, write } from '../e2e/harness.js';
import { FULL, SCENARIO_TIMEOUT, pick } from './config.js';
import { Tally } from './figures.js';
import { crashOf, numberedBytes, runAsync, type Finished } from './proc.js';

afterAll(cleanup);

/** The [number, LID, content] of each line a window printed. */
function shownLines(r: Finished): Array<{ n: number; lid: string; content: string }> {
  return r.stdout
    .toString('utf8')
    .split('\n')
    .map((l) => /^(\d+):([0-9a-z]{4,6})\|(.*)$/s.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ n: Number(m[1]), lid: m[2]!, content: m[3]! }));
}

/** Runs rt and counts a crash or an unexpected status; returns the run. */
async function step(
  tally: Tally,
  args: string[],
  dir: string,
  want: number,
  input?: string | Buffer,
): Promise<Finished> {
  const r = await runAsync(args, dir, input === undefined ? {} : { input });
  tally.trials++;
  const crash = crashOf(r);
  if (crash) tally.fail('crashes', `${crash}\n${r.text}`);
  else if (r.status !== want) tally.fail('crashes', `exit ${r.status}, ${want} expected\n${r.text}`);
  return r;
}

/** Expects the file to hold exactly `want`, counting a torn file otherwise. */
function expectBytes(tally: Tally, file: string, want: Buffer, what: string): void {
  const got = fs.readFileSync(file);
  if (!got.equals(want))
    tally.fail('torn', `${what}: ${path.basename(file)} is ${got.length} bytes, not the ${want.length} expected`);
}

describe('stress: large and odd files', () => {
  it.runIf(FULL)(
    'a 200 MB file: opened in the middle, edited there, every other byte kept',
    async () => {
      const tally = new Tally('6 large: a 200 MB file, opened and edited');
      const dir = tempDir('rt-stress-large-');
      const rows = 2_000_000;
      const bytes = numberedBytes(rows, 100, 'row ');
      const file = write(dir, 'huge.txt', bytes);
      const mid = rows / 2;
      const w = await step(tally, ['open', `huge.txt:${mid}`], dir, 0);
      const at = shownLines(w).find((l) => l.n === mid);
      if (!at?.content.startsWith(`row ${mid} `))
        tally.fail('torn', `the window does not show row ${mid}\n${w.text.slice(0, 500)}`);
      if (at) {
        await step(tally, ['edit', 'huge.txt', at.lid], dir, 0, 'the middle, edited\n');
        const start = bytes.indexOf(`row ${mid} `);
        const end = bytes.indexOf(0x0a, start);
        expectBytes(
          tally,
          file,
          Buffer.concat([bytes.subarray(0, start), Buffer.from('the middle, edited'), bytes.subarray(end)]),
          'after the edit',
        );
        const again = await step(tally, ['open', `huge.txt:${mid - 1}-${mid + 1}`], dir, 0);
        const lids = shownLines(again).map((l) => l.lid);
        if (!lids.includes(shownLines(w).find((l) => l.n === mid - 1)!.lid))
          tally.fail('corruptState', 'the line above the edit lost its LID');
      }
      tally.record();
      expect(tally.clean, tally.summary()).toBe(true);
    },
    SCENARIO_TIMEOUT,
  );

  it(
    'odd files: one 10 MB line, only \\r\\n, empty: opened, edited, refused where they should be, byte for byte',
    async () => {
      const tally = new Tally('6 odd: 10 MB line, only \\r\\n, empty file');
      const dir = tempDir('rt-stress-odd-');

      // One line of 10 MB, no final newline: shown cut (display only), edited whole.
      const long = Buffer.alloc(10 * 1024 * 1024, 'x');
      const longFile = write(dir, 'long.txt', long);
      const w = await step(tally, ['open', 'long.txt'], dir, 0);
      const line = shownLines(w)[0];
      if (!line || !/… \[\+\d+ chars\]$/.test(line.content) || w.stdout.length > 10_000)
        tally.fail('torn', `the 10 MB line is not cut for display\n${w.text.slice(0, 300)}`);
      await step(tally, ['grep-file', 'x{5}', 'long.txt'], dir, 0);
      if (line) {
        await step(tally, ['insert', 'long.txt', line.lid, '--after'], dir, 0, 'after\n');
        // The file had no final newline: it still has none, and the long line gains one.
        expectBytes(tally, longFile, Buffer.concat([long, Buffer.from('\nafter')]), 'insert after the 10 MB line');
        await step(tally, ['edit', 'long.txt', line.lid], dir, 0, 'short now\n');
        expectBytes(tally, longFile, Buffer.from('short now\nafter'), 'edit of the 10 MB line');
      }
      // An edit whose text is one 10 MB line.
      await step(tally, ['insert', 'long.txt', '$'], dir, 0, Buffer.concat([long, Buffer.from('\n')]));
      expectBytes(tally, longFile, Buffer.concat([Buffer.from('short now\nafter\n'), long]), 'a 10 MB line inserted');

      // Nothing but \r\n: empty lines, CRLF kept, the new line takes CRLF.
      const crlf = Buffer.from('\r\n'.repeat(1000));
      const crlfFile = write(dir, 'crlf.txt', crlf);
      const c = await step(tally, ['open', 'crlf.txt:500-501'], dir, 0);
      const l500 = shownLines(c).find((l) => l.n === 500);
      if (l500?.content !== '') tally.fail('torn', `line 500 of the \\r\\n file is not shown empty\n${c.text}`);
      if (l500) {
        await step(tally, ['edit', 'crlf.txt', l500.lid], dir, 0, 'x\n');
        expectBytes(
          tally,
          crlfFile,
          Buffer.from(`${'\r\n'.repeat(499)}x\r\n${'\r\n'.repeat(500)}`),
          'edit of an empty CRLF line',
        );
      }
      await step(tally, ['delete', 'crlf.txt', '1', '1000'], dir, 3); // never shown: refused
      expectBytes(tally, crlfFile, Buffer.from(`${'\r\n'.repeat(499)}x\r\n${'\r\n'.repeat(500)}`), 'a refused delete');

      // The empty file: a window of nothing; an edit of line 1 is refused; an insert appends.
      const emptyFile = write(dir, 'empty.txt', '');
      const e = await step(tally, ['open', 'empty.txt'], dir, 0);
      if (shownLines(e).length !== 0) tally.fail('torn', `the empty file shows lines\n${e.text}`);
      await step(tally, ['edit', 'empty.txt', '1', '--force'], dir, 2, 'x\n');
      await step(tally, ['delete', 'empty.txt', '1', '--force'], dir, 2);
      expectBytes(tally, emptyFile, Buffer.alloc(0), 'refused edits of the empty file');
      await step(tally, ['insert', 'empty.txt', '$'], dir, 0, 'first\n');
      expectBytes(tally, emptyFile, Buffer.from('first\n'), 'an insert into the empty file');
      tally.record();
      expect(tally.clean, tally.summary()).toBe(true);
    },
    SCENARIO_TIMEOUT,
  );

  // The rewriter: replaces the file with version k (lines `v{k} line {i}`, a count that varies
  // with k) over and over, atomically (rename) or in place (truncate and write, as many tools do).
  const REWRITER = `
    const fs = require('fs');
    const [file, mode] = process.argv.slice(1);
    for (let k = 1; ; k++) {
      const n = 200 + (k * 37) % 300;
      let s = '';
      for (let i = 1; i <= n; i++) s += 'v' + k + ' line ' + i + '\\n';
      if (mode === 'rename') { fs.writeFileSync(file + '.w', s); fs.renameSync(file + '.w', file); }
      else fs.writeFileSync(file, s);
    }`;

  for (const mode of ['rename', 'in place'] as const) {
    const runs = pick(10, 200);
    it(
      `a file rewritten ${mode} by another process while rt opens and edits it (${runs} runs): no crash, no ` +
        `mixed window, no torn write`,
      async () => {
        const tally = new Tally(`6 changing: file rewritten ${mode} while rt reads and edits`);
        const dir = tempDir('rt-stress-changing-');
        const file = write(dir, 'f.txt', 'v0 line 1\n');
        const rewriter = spawn(process.execPath, ['-e', REWRITER, file, mode === 'rename' ? 'rename' : 'inplace'], {
          stdio: 'ignore',
        });
        let landed = 0;
        try {
          for (let i = 0; i < runs; i++) {
            const args =
              i % 3 === 0
                ? ['insert', 'f.txt', '$']
                : i % 3 === 1
                  ? ['open', `f.txt:${1 + (i % 150)}`]
                  : ['open', 'f.txt', '--window', '500'];
            const r = await runAsync(args, dir, { input: `rt ${i}\n` });
            tally.trials++;
            const crash = crashOf(r);
            if (crash) tally.fail('crashes', `${crash}\n${r.text}`);
            if (args[0] === 'insert' && r.status === 0) landed++;
            // A window shows one version: line n is `v{k} line n` with one k for all of them
            // (rt's own appended lines aside). In place, a reader may catch the other tool
            // half-way through its write: then the window is a prefix of one version.
            const all = shownLines(r);
            // In place, the last line may be the other tool's half-written one: not rt's doing.
            const shown = (mode === 'in place' ? all.slice(0, -1) : all).filter((l) => !/^rt \d+$/.test(l.content));
            const versions = new Set(shown.map((l) => /^v(\d+) line (\d+)$/.exec(l.content)?.[1] ?? 'other'));
            const misnumbered = shown.filter((l) => /^v\d+ line (\d+)$/.exec(l.content)?.[1] !== String(l.n));
            if (
              r.status === 0 &&
              args[0] === 'open' &&
              (versions.size > 1 || versions.has('other') || misnumbered.length)
            ) {
              tally.fail(
                'torn',
                `a window mixes versions or lines: ${[...versions].slice(0, 5).join(',')} ${misnumbered
                  .slice(0, 2)
                  .map((l) => `${l.n}:${l.content}`)
                  .join(' ')}\n${r.text.slice(0, 600)}`,
              );
            }
          }
        } finally {
          rewriter.kill('SIGKILL');
          await new Promise((resolve) => rewriter.once('exit', resolve));
        }
        // Last, with the rewriter stopped: the file is one whole version, or one whole version
        // with rt's line after it (a write by rt is never mixed with one by the other tool).
        if (mode === 'rename') {
          const text = fs.readFileSync(file, 'utf8');
          const m = /^v(\d+) line 1\n/.exec(text);
          const k = m ? Number(m[1]) : -1;
          const n = 200 + ((k * 37) % 300);
          const whole = Array.from({ length: n }, (_, j) => `v${k} line ${j + 1}\n`).join('');
          if (!(text === whole || (text.startsWith(whole) && /^(rt \d+\n)+$/.test(text.slice(whole.length)))))
            tally.fail('torn', `the file is not one whole version (with rt's lines after it): ${text.length} bytes`);
        }
        tally.notes = `${landed} inserts landed between rewrites`;
        tally.record();
        expect(tally.clean, tally.summary()).toBe(true);
      },
      SCENARIO_TIMEOUT,
    );
  }
});
