// A big file rt keeps no index of cannot have had a line shown: an edit naming one of its lines
// is refused before the file is read whole (indexing it only to say so cost seconds), with the
// message the full reading gives where it can be said without indexing, and nothing written.

import fs from 'node:fs';
import path from 'node:path';
import { packKeys } from '../support/pack.js';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, expectRun, parseWindow, run, tempRepo, write } from './harness.js';

afterAll(cleanup);

/** Over a MiB of CRLF lines, with a BOM, some lines repeated, and no final newline: `count` lines. */
function bigText(count: number): Buffer {
  const lines: string[] = [];
  for (let i = 1; i <= count; i++) lines.push(i % 7 === 0 ? '}' : `const value${i} = compute(${i}); // é`);
  return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(lines.join('\r\n'))]);
}

const LINES = 40_000;

function bigRepo(): { dir: string; file: string; bytes: Buffer } {
  const dir = tempRepo();
  const bytes = bigText(LINES);
  expect(bytes.length).toBeGreaterThan(1 << 20);
  return { dir, file: write(dir, 'big.txt', bytes), bytes };
}

function indexed(dir: string): boolean {
  return packKeys(dir, 'index').length > 0;
}

describe('an edit of a big file with no index', () => {
  it('naming an LID never shown is refused (exit 3), and nothing is written, to the file or the state', () => {
    const { dir, file, bytes } = bigRepo();
    expectRun(run(['edit', 'big.txt', 'kq3f'], dir, { input: 'x\n' }), {
      status: 3,
      stdout: '',
      stderr:
        'rt: kq3f has not been shown in big.txt since its line last changed; nothing was written\n' +
        'rt: see its lines first: rt open big.txt\nrt: or, to edit without looking, add --force\n',
    });
    expectRun(run(['insert', 'big.txt', '3:kq3f', '--after'], dir, { input: 'x\n' }), {
      status: 3,
      stdout: '',
      stderr: /^rt: kq3f has not been shown in big\.txt[^]*to insert without looking, add --force\n$/,
    });
    expect(run(['delete', 'big.txt', 'kq3f', '--json'], dir).status).toBe(3);
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
    expect(indexed(dir)).toBe(false);
  });

  it('naming a line number is refused as when the file is read: unshown (exit 3), or past its end (exit 2)', () => {
    const { dir, file, bytes } = bigRepo();
    expectRun(run(['edit', 'big.txt', '5'], dir, { input: 'x\n' }), {
      status: 3,
      stdout: '',
      stderr: 'rt: line 5 of big.txt has not been shown since it last changed\nrt: see it first: rt open big.txt:5\n',
    });
    // The last line has no newline: it counts.
    expectRun(run(['delete', 'big.txt', String(LINES + 1)], dir), {
      status: 2,
      stdout: '',
      stderr:
        `rt: line ${LINES + 1} is past the end of big.txt (${LINES} lines)\n` +
        `rt: see its end: rt open big.txt:${LINES}\n`,
    });
    expect(run(['edit', 'big.txt', String(LINES)], dir, { input: 'x\n' }).status).toBe(3);
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
    expect(indexed(dir)).toBe(false);
  });

  it('counts the lines of a file read in several pieces: its last line is unshown, the next past its end', () => {
    const dir = tempRepo();
    const count = 200_000;
    const body = Array.from({ length: count }, (_, i) => `line ${i} ${'x'.repeat(i % 40)}`).join('\n');
    for (const [name, text] of [
      ['newline.txt', `${body}\n`],
      ['none.txt', body],
    ] as const) {
      expect(fs.statSync(write(dir, name, text)).size).toBeGreaterThan(5 << 20);
      expect(run(['edit', name, String(count)], dir, { input: 'x\n' }).status).toBe(3);
      expectRun(run(['delete', name, String(count + 1)], dir), {
        status: 2,
        stdout: '',
        stderr:
          `rt: line ${count + 1} is past the end of ${name} (${count} lines)\n` +
          `rt: see its end: rt open ${name}:${count}\n`,
      });
    }
    expect(indexed(dir)).toBe(false);
  });

  it('from a patch, the refusal names the patch line', () => {
    const { dir } = bigRepo();
    const patch = '*** Begin Patch\n*** Update File: big.txt\n@@ edit kq3f\n+x\n*** End Patch\n';
    expectRun(run(['apply'], dir, { input: patch }), {
      status: 3,
      stdout: '',
      stderr: /^rt: patch line 3: kq3f has not been shown in big\.txt/,
    });
  });

  it('an insert at the end, --force, and RT_STATE=off are not refused', () => {
    const { dir, file, bytes } = bigRepo();
    expectRun(run(['insert', 'big.txt', '$'], dir, { input: 'tail\n' }), { status: 0, stdout: /^inserted big\.txt/ });
    expect(fs.readFileSync(file).equals(Buffer.concat([bytes, Buffer.from('\r\ntail')]))).toBe(true);
    fs.rmSync(path.join(dir, '.rt'), { recursive: true });
    expectRun(run(['edit', 'big.txt', '1', '--force'], dir, { input: 'first\n' }), {
      status: 0,
      stdout: /^edited big\.txt: 1-1/,
    });
    fs.rmSync(path.join(dir, '.rt'), { recursive: true });
    const off = { RT_STATE: 'off' };
    const lid = parseWindow(run(['open', 'big.txt:2-2'], dir, { env: off })).lidAt(2);
    const r = run(['edit', 'big.txt', lid], dir, { env: off, input: 'second\n' });
    expect(r.status, r.text).toBe(0);
    expect(fs.readFileSync(file, 'latin1').split('\r\n').slice(0, 2)).toEqual(['\u00ef\u00bb\u00bffirst', 'second']);
  });

  it('a line shown once an index exists is edited as before; one not shown is refused as before', () => {
    const { dir } = bigRepo();
    const w = parseWindow(run(['open', 'big.txt:10-12'], dir));
    expectRun(run(['edit', 'big.txt', w.lidAt(11)], dir, { input: 'eleven\n' }), { status: 0 });
    expectRun(run(['edit', 'big.txt', '300'], dir, { input: 'x\n' }), {
      status: 3,
      stderr:
        'rt: line 300 of big.txt has not been shown since it last changed\nrt: see it first: rt open big.txt:300\n',
    });
  });
});
