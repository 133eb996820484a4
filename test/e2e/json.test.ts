// --json: one document per run, carrying what the text output carries, same exit status.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, run, tempRepo } from './harness.js';

afterAll(cleanup);

function json(args: readonly string[], cwd: string, input?: string) {
  const r = run([...args, '--json'], cwd, input === undefined ? {} : { input });
  const lines = r.stdout.split('\n').filter(Boolean);
  expect(lines, r.text).toHaveLength(1);
  return { status: r.status, doc: JSON.parse(lines[0]!) as Record<string, any>, r };
}

describe('--json', () => {
  const dir = tempRepo();
  fs.writeFileSync(
    path.join(dir, 'f.txt'),
    Buffer.concat([Buffer.from('alpha\r\nbeta\n'), Buffer.from([0xff, 0xfe]), Buffer.from('\ngamma')]),
  );

  it('open: the window with LIDs equal to the text output, and exact bytes of non-UTF-8 lines', () => {
    const { status, doc } = json(['open', 'f.txt'], dir);
    expect(status).toBe(0);
    const text = run(['open', 'f.txt'], dir).stdout.split('\n').slice(1, 5);
    expect(doc).toMatchObject({ command: 'open', path: 'f.txt', total: 4, start: 1, end: 4, above: 0, below: 0 });
    expect(doc.lines.map((l: any) => `${l.n}:${l.lid}`)).toEqual(text.map((t) => t.split('|')[0]));
    expect(doc.lines[0].text).toBe('alpha');
    expect(Buffer.from(doc.lines[2].base64, 'base64')).toEqual(Buffer.from([0xff, 0xfe]));
    expect(doc.lines[3]).not.toHaveProperty('base64');
  });

  it('edit: what changed, the fresh window and the diff; then grep, grep-file and find', () => {
    const lid = json(['open', 'f.txt'], dir).doc.lines[1].lid;
    const { status, doc } = json(['edit', 'f.txt', lid, '--diff'], dir, 'BETA\nbeta2\n');
    expect(status).toBe(0);
    expect(doc).toMatchObject({
      command: 'edit',
      path: 'f.txt',
      written: true,
      verb: 'edited',
      old: { start: 2, count: 1 },
      new: { start: 2, count: 2 },
      delta: 1,
    });
    expect(doc.window.lines.map((l: any) => l.text).slice(1, 3)).toEqual(['BETA', 'beta2']);
    expect(doc.diff).toContain('+BETA\n+beta2\n');

    const g = json(['grep', 'beta'], dir);
    expect(g.status).toBe(0);
    expect(g.doc.hits.map((h: any) => [h.path, h.n, h.text, h.hit])).toEqual([['f.txt', 3, 'beta2', true]]);
    const gf = json(['grep-file', '-i', '-C', '1', 'beta2', 'f.txt'], dir);
    expect(gf.doc.hits.map((h: any) => [h.n, h.hit])).toEqual([
      [2, false],
      [3, true],
      [4, false],
    ]);
    expect(json(['find', 'txt'], dir).doc).toEqual({ command: 'find', paths: ['f.txt'], more: null });
  });

  it('nothing found: an empty document with exit 1', () => {
    const { status, doc } = json(['grep', 'nowhere'], dir);
    expect(status).toBe(1);
    expect(doc).toEqual({ command: 'grep', hits: [], more: null });
  });

  it('the cap: "more" names the count and the command that shows them all', () => {
    fs.writeFileSync(path.join(dir, 'many.txt'), 'hit\n'.repeat(5));
    const { doc } = json(['grep-file', '--max', '2', 'hit', 'many.txt'], dir);
    expect(doc.hits).toHaveLength(2);
    expect(doc.more).toEqual({ hits: 3, files: 0, command: 'rt grep-file --max 5 hit many.txt' });
  });

  it('errors: {"error": {code, message, hints, exit}} on stdout with the same exit status', () => {
    const missing = json(['open', 'nope.txt'], dir);
    expect(missing.status).toBe(4);
    expect(missing.doc.error).toMatchObject({ code: 'not_found', exit: 4 });
    const stale = json(['edit', 'f.txt', 'zzzz'], dir, 'x\n');
    expect(stale.status).toBe(3);
    expect(stale.doc.error).toMatchObject({ code: 'stale', exit: 3 });
    const usage = json(['open', '--bogus', 'f.txt'], dir);
    expect(usage.status).toBe(2);
    expect(usage.doc.error).toMatchObject({ code: 'usage', exit: 2 });
  });

  it('--dry-run: the diff, nothing written', () => {
    const before = fs.readFileSync(path.join(dir, 'f.txt'));
    const { doc } = json(['insert', 'f.txt', '$', '--dry-run'], dir, 'omega\n');
    expect(doc).toMatchObject({ command: 'insert', written: false, dryRun: true });
    expect(doc.diff).toContain('+omega');
    expect(fs.readFileSync(path.join(dir, 'f.txt'))).toEqual(before);
  });
});
