// View state is written only when it learns something: a search repeated over lines already
// shown leaves it as it was, and what it recorded still backs bare line numbers.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packEntries, packSegments, rewritePack } from '../support/pack.js';
import { cleanup, numbered, run, tempDir, write } from './harness.js';

afterAll(cleanup);

/** The view of a.txt as the pack holds it: its text, and what was written when (a save adds a segment and a newer
 * entry). */
function viewEntry(dir: string): { text: string; written: string; touched: number } {
  const found = packEntries(dir).get('view:a.txt')!;
  const written = `${packSegments(dir).map((s) => s.name)}:${found.row.seq}:${found.row.touched}`;
  return { text: found.bytes.toString('utf8'), written, touched: found.row.touched };
}

describe('view state', () => {
  it("a search of two files records each file's shown lines in its own view only", () => {
    const dir = tempDir();
    write(dir, 'a.txt', 'one\nctx line\nsame MARK\nfour\n');
    write(dir, 'b.txt', 'alpha\nbeta\ngamma\ndelta\neps\nMARK b\nzeta\neta\ntheta\nctx line\n');
    expect(run(['grep', '-C1', '-F', 'MARK', 'a.txt', 'b.txt'], dir).status).toBe(0);
    // b.txt:10 holds a.txt:2's text, hence its LID; a.txt showed it, b.txt never did.
    const lid = /:(\w{4})\|/.exec(
      run(['grep-file', '-F', 'ctx line', 'b.txt'], dir, { env: { RT_STATE: 'off' } }).stdout,
    )![1];
    const r = run(['edit', 'b.txt', `10:${lid}`], dir, { input: 'edited\n' });
    expect(r.status, r.text).toBe(3);
    expect(r.stderr).toContain('line 10 of b.txt has not been shown since it last changed; nothing was written');
    expect(fs.readFileSync(path.join(dir, 'b.txt'), 'utf8')).toContain('theta\nctx line\n');
  });

  it('a repeated search does not rewrite it; a search showing new lines does', () => {
    const dir = tempDir();
    write(dir, 'a.txt', `${numbered(50)}needle one\n${numbered(5, 'x ')}needle two\n`);
    expect(run(['grep', '-F', 'needle one'], dir).status).toBe(0);
    const first = viewEntry(dir);
    expect(run(['grep', '-F', 'needle one'], dir).status).toBe(0);
    expect(viewEntry(dir)).toEqual(first);
    // A hit not shown before is recorded.
    expect(run(['grep', '-F', 'needle'], dir).status).toBe(0);
    const after = viewEntry(dir);
    expect(after.written).not.toBe(first.written);
    expect(after.text).not.toBe(first.text);
    expect(after.touched).toBeGreaterThanOrEqual(first.touched);
    // Both hits back bare line numbers: each was shown at its number.
    const r = run(['edit', 'a.txt', '57'], dir, { input: 'changed two\n' });
    expect(r.status, r.text).toBe(0);
    expect(run(['delete', 'a.txt', '51'], dir).status).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe(`${numbered(50)}${numbered(5, 'x ')}changed two\n`);
  });

  it('a view last written a day ago is written again, so that it is not swept as unused', () => {
    const dir = tempDir();
    write(dir, 'a.txt', 'needle\n');
    run(['grep', '-F', 'needle'], dir);
    const dayBefore = Date.now() - 2 * 86_400_000;
    rewritePack(
      dir,
      (key, bytes) =>
        key === 'view:a.txt' ? JSON.stringify({ ...JSON.parse(bytes.toString()), touched: dayBefore }) : bytes,
      (key, was) => (key === 'view:a.txt' ? dayBefore : was),
    );
    expect(viewEntry(dir).touched).toBe(dayBefore);
    run(['grep', '-F', 'needle'], dir);
    expect((JSON.parse(viewEntry(dir).text) as { touched: number }).touched).toBeGreaterThan(Date.now() - 60_000);
    // What the daily sweep goes by: when the entry was saved.
    expect(viewEntry(dir).touched).toBeGreaterThan(Date.now() - 60_000);
  });
});
