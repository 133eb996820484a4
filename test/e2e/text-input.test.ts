// The text of an edit, from stdin: what edit, insert and create refuse to write,
// and what they say instead. Run through the built binary.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, expectRun, openWindow, run, tree, withFile } from './harness.js';

afterAll(cleanup);

describe('a NUL byte in the new text (found by a user trial: it made the file binary)', () => {
  it('edit, insert and create refuse it with exit 2, naming the line of the text holding it; none written', () => {
    const { dir, file } = withFile(5);
    const w = openWindow(dir, 'f.txt');
    const before = tree(dir);
    const text = 'fine\nbad\0byte\nfine too\n';
    const message = new RegExp(
      String.raw`^rt: line 2 of the new text holds a NUL byte \(its byte 4\): a NUL makes a text file binary, and ` +
        String.raw`rt does not read binary files; nothing was written\nrt: remove the NUL bytes from the text`,
    );
    for (const args of [
      ['edit', 'f.txt', w.lidAt(2)],
      ['insert', 'f.txt', w.lidAt(2)],
      ['insert', 'f.txt', '$'],
      ['create', 'new.txt'],
      ['create', '--force', 'f.txt'],
    ]) {
      expectRun(run(args, dir, { input: text }), { status: 2, stdout: '', stderr: message });
    }
    expect(tree(dir)).toEqual(before);
    expect(fs.existsSync(path.join(dir, 'new.txt'))).toBe(false);
    expect(fs.readFileSync(file, 'utf8')).toBe('line 1\nline 2\nline 3\nline 4\nline 5\n');
  });

  it('names the other lines holding one, and gives them in --json', () => {
    const { dir } = withFile(3);
    const w = openWindow(dir, 'f.txt');
    const text = `\0\n${'ok\n'.repeat(3)}a\0b\0\n\0\n\0\n\0\n\0\n\0\n`;
    const r = run(['edit', 'f.txt', w.lidAt(1)], dir, { input: text });
    expectRun(r, {
      status: 2,
      stdout: '',
      stderr: /^rt: line 1 of the new text holds a NUL byte \(its byte 1; lines 5, 6, 7, 8 and 2 more hold one too\)/,
    });
    const j = run(['edit', 'f.txt', w.lidAt(1), '--json'], dir, { input: text });
    expect(j.status, j.text).toBe(2);
    expect(JSON.parse(j.stdout).error, j.text).toMatchObject({
      code: 'input',
      exit: 2,
      lines: [1, 5, 6, 7, 8, 9, 10],
      byte: 1,
    });
    const two = run(['insert', 'f.txt', '$'], dir, { input: 'x\ny\0' });
    expectRun(two, { status: 2, stdout: '', stderr: /^rt: line 2 of the new text holds a NUL byte \(its byte 2\)/ });
  });

  it('a NUL written as an escape is text, and is written', () => {
    const { dir, file } = withFile(1);
    const w = openWindow(dir, 'f.txt');
    expect(run(['edit', 'f.txt', w.lidAt(1)], dir, { input: 'const nul = "\\0";\n' }).status).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toBe('const nul = "\\0";\n');
  });
});
