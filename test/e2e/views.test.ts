// View state is written only when it learns something: a search repeated over lines already
// shown leaves it as it was, and what it recorded still backs bare line numbers.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, numbered, run, tempDir, write } from './harness.js';

afterAll(cleanup);

function viewFile(dir: string): string {
  const views = path.join(dir, '.rt', 'view');
  return path.join(views, fs.readdirSync(views)[0]!);
}

describe('view state', () => {
  it('a repeated search does not rewrite it; a search showing new lines does', () => {
    const dir = tempDir();
    write(dir, 'a.txt', `${numbered(50)}needle one\n${numbered(5, 'x ')}needle two\n`);
    expect(run(['grep', '-F', 'needle one'], dir).status).toBe(0);
    const file = viewFile(dir);
    const first = fs.readFileSync(file, 'utf8');
    const past = new Date(Date.now() - 60_000);
    fs.utimesSync(file, past, past);
    const before = fs.statSync(file).mtimeMs;
    expect(run(['grep', '-F', 'needle one'], dir).status).toBe(0);
    expect(fs.statSync(file).mtimeMs).toBe(before);
    expect(fs.readFileSync(file, 'utf8')).toBe(first);
    // A hit not shown before is recorded.
    expect(run(['grep', '-F', 'needle'], dir).status).toBe(0);
    expect(fs.statSync(file).mtimeMs).toBeGreaterThan(before);
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
    const file = viewFile(dir);
    const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as { touched: number };
    fs.writeFileSync(file, JSON.stringify({ ...doc, touched: Date.now() - 2 * 86_400_000 }));
    run(['grep', '-F', 'needle'], dir);
    expect((JSON.parse(fs.readFileSync(file, 'utf8')) as { touched: number }).touched).toBeGreaterThan(
      Date.now() - 60_000,
    );
  });
});
