// A step whose data is small keeps it in its entry of the history's list (`inline`), with no data
// file: undone and redone byte for byte; a big step keeps its data file; data damaged in the list
// is set aside and its step dropped, never written into a file.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, openWindow, run, repoWith as repo } from './harness.js';
import { editDoc, readList } from './history-fixture.js';

afterAll(cleanup);

const dataFiles = (dir: string) => {
  const data = path.join(dir, '.rt/history/data');
  return fs.existsSync(data) ? fs.readdirSync(data) : [];
};

describe('a step kept in the list', () => {
  it('is undone and redone byte for byte (CRLF, no final newline, invalid UTF-8), with no data file', () => {
    const before = Buffer.from('one\r\ntw\xffo\r\nthree', 'latin1');
    const dir = repo({ 'f.txt': before });
    const w = openWindow(dir, 'f.txt');
    const e = run(['edit', 'f.txt', w.lidAt(2), w.lidAt(3)], dir, { input: Buffer.from('T\xfe\r\nend', 'latin1') });
    expect(e.status, e.text).toBe(0);
    const after = fs.readFileSync(path.join(dir, 'f.txt'));
    expect(after).not.toEqual(before);
    const step = readList(dir).steps[0]!;
    expect(typeof step.inline).toBe('string');
    expect(step.bytes).toBe(Buffer.from(step.inline as string, 'base64').length);
    expect(dataFiles(dir)).toEqual([]);
    const u = run(['undo'], dir);
    expect(u.status, u.text).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'f.txt'))).toEqual(before);
    expect(openWindow(dir, 'f.txt').lids).toEqual(w.lids);
    const r = run(['redo'], dir);
    expect(r.status, r.text).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'f.txt'))).toEqual(after);
  });

  it('a big step keeps its data in a file of its own', () => {
    const dir = repo({ 'f.txt': 'a\nb\n' });
    const w = openWindow(dir, 'f.txt');
    const long = `${'x'.repeat(3000)}\n`;
    expect(run(['edit', 'f.txt', w.lidAt(1)], dir, { input: long }).status).toBe(0);
    const step = readList(dir).steps[0]!;
    expect(step.inline).toBeUndefined();
    expect(dataFiles(dir)).toEqual(['1.bin']);
    expect(fs.statSync(path.join(dir, '.rt/history/data/1.bin')).size).toBe(step.bytes);
    expect(run(['undo'], dir).status).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8')).toBe('a\nb\n');
  });

  it('data damaged in the list is set aside and its step dropped, never written into the file', () => {
    const dir = repo({ 'f.txt': 'alpha\nbeta\n' });
    const w = openWindow(dir, 'f.txt');
    expect(run(['edit', 'f.txt', w.lidAt(1)], dir, { input: 'ALPHA\n' }).status).toBe(0);
    // The bytes of the side before ("alpha") changed in place, the length kept: only the digest tells.
    editDoc(dir, (doc) => {
      const blob = Buffer.from(doc.steps[0]!.inline, 'base64');
      const at = blob.indexOf('alpha');
      expect(at).toBeGreaterThan(0);
      blob.write('ALPHZ', at);
      doc.steps[0]!.inline = blob.toString('base64');
    });
    const u = run(['undo'], dir);
    expect(u.status, u.text).not.toBe(0);
    expect(u.stderr).toMatch(/data of step 1 .* is missing or damaged/);
    expect(u.stderr).toMatch(/the data of step 1 in \.rt\/history\/steps\.json was set aside \(it is damaged\)/);
    expect(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8')).toBe('ALPHA\nbeta\n');
    expect(fs.readdirSync(path.join(dir, '.rt/set-aside'))).toContain('index-step-1.inline');
    expect(readList(dir).steps).toEqual([]);
    // Not a string at all: taken for missing data, the step dropped as well.
    expect(run(['edit', 'f.txt', openWindow(dir, 'f.txt').lidAt(2)], dir, { input: 'BETA\n' }).status).toBe(0);
    editDoc(dir, (doc) => (doc.steps[0]!.inline = 7));
    expect(run(['undo'], dir).status).not.toBe(0);
    expect(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8')).toBe('ALPHA\nBETA\n');
  });
});
