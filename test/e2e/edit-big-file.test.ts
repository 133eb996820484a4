// Edits of files of 1 MiB and more, which rt reads into WebAssembly memory and splits there
// (src/model/wasmLines.ts, through readSnapshot): the bytes of every other line survive (CRLF,
// a BOM, tabs, invalid UTF-8, a missing final newline), with or without a saved index, and
// whether the saved index's line count is right or not.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bigFile } from '../support/bigFiles.js';
import { age, cleanup, openWindow, run, tempDir, tempRepo, unprivileged, write } from './harness.js';

afterAll(cleanup);

/** `bytes` with its line `n` (1-based, counted after any BOM) replaced by `content`. */
function withLine(bytes: Buffer, n: number, content: string): Buffer {
  const bom = bytes[0] === 0xef ? 3 : 0;
  let start = bom;
  for (let i = 1; i < n; i++) start = bytes.indexOf(0x0a, start) + 1;
  let end = bytes.indexOf(0x0a, start);
  if (end === -1) end = bytes.length;
  const contentEnd = end > start && bytes[end - 1] === 0x0d ? end - 1 : end;
  return Buffer.concat([bytes.subarray(0, start), Buffer.from(content), bytes.subarray(contentEnd)]);
}

describe('editing a big file', () => {
  for (const [name, eol, bom, finalNewline] of [
    ['LF, final newline', '\n', false, true],
    ['CRLF with some LF, a BOM, no final newline', '\r\n', true, false],
  ] as const) {
    it(`changes only the line it names (${name}), by the saved index and without one`, () => {
      const dir = tempRepo();
      const original = bigFile(eol, bom, finalNewline);
      expect(original.length).toBeGreaterThan(1 << 20);
      const file = write(dir, 'big.txt', original);
      age(file);
      // Another name of the file (a hard link of the user's) keeps the old content; rt's second
      // name of it, given for the rename (src/store/renameOver.ts), is gone once rt has exited.
      fs.linkSync(file, path.join(dir, 'big-link.txt'));
      const shown = openWindow(dir, 'big.txt:20001');
      const at = { lid: shown.lidAt(20001) };
      const edited = run(['edit', 'big.txt', at.lid], dir, { input: 'changed 20001\n' });
      expect(edited.status, edited.stderr).toBe(0);
      let want = withLine(original, 20001, 'changed 20001');
      expect(fs.readFileSync(file).equals(want)).toBe(true);
      // Right away (the index is "racy": checked by the file's digest), then with no index.
      const again = openWindow(dir, 'big.txt:39999');
      const last = { lid: again.lidAt(40000) };
      expect(run(['edit', 'big.txt', last.lid], dir, { input: 'last one\n' }).status).toBe(0);
      want = withLine(want, 40000, 'last one');
      expect(fs.readFileSync(file).equals(want)).toBe(true);
      fs.rmSync(path.join(dir, '.rt'), { recursive: true, force: true });
      const fresh = openWindow(dir, 'big.txt:2');
      const first = { lid: fresh.lidAt(1) };
      expect(run(['edit', 'big.txt', first.lid], dir, { input: 'first\n' }).status).toBe(0);
      want = withLine(want, 1, 'first');
      expect(fs.readFileSync(file).equals(want)).toBe(true);
      expect(fs.readFileSync(path.join(dir, 'big-link.txt')).equals(original)).toBe(true);
      expect(fs.readdirSync(dir).filter((name) => name.includes('.rt-'))).toEqual([]);
    });
  }

  it('reads a file whose lines no longer number what its saved index says', () => {
    const dir = tempRepo();
    const original = bigFile('\n', false, true);
    const file = write(dir, 'big.txt', original);
    age(file);
    openWindow(dir, 'big.txt:10');
    // Twice as many lines since (another program wrote it): more lines than the memory was made for.
    const doubled = Buffer.concat([original, original]);
    fs.writeFileSync(file, doubled);
    age(file, 1800);
    const shown = openWindow(dir, 'big.txt:79999');
    expect(shown.total).toBe(80_000);
    const at = { lid: shown.lidAt(80000) };
    expect(run(['edit', 'big.txt', at.lid], dir, { input: 'the end\n' }).status).toBe(0);
    expect(fs.readFileSync(file).equals(withLine(doubled, 80000, 'the end'))).toBe(true);
  });
});

describe('a batch of big files killed in a rename', () => {
  // A batch's files are renamed into place after its commit point; killed between two of them,
  // the next rt finishes the batch, writing each file still the version the batch read (size,
  // mtime, ctime, inode). The second name a big file was given before its rename (renameOver)
  // is a hard link, which moves the file's ctime: killed between that link and the rename, the
  // file was taken as changed by someone else, and the batch left half done (b.txt written,
  // a.txt's new content thrown away). A batch's renames give no second name.
  it('is finished whole by the next rt', () => {
    const dir = tempRepo();
    const hook = write(
      tempDir('rt-big-hook-'),
      'hook.cjs',
      `const fs = require('fs');
const path = require('path');
const rename = fs.renameSync;
fs.renameSync = function (a, b) {
  if (path.basename(String(b)) === process.env.KILL_AT) process.kill(process.pid, 'SIGKILL');
  return rename.apply(this, arguments);
};
`,
    );
    const lines = (first: string) => `${first}\n${Array.from({ length: 150_000 }, (_, i) => `line ${i}`).join('\n')}\n`;
    for (const name of ['a', 'b']) {
      write(dir, `${name}.txt`, lines(name));
      age(path.join(dir, `${name}.txt`));
      openWindow(dir, `${name}.txt`);
    }
    expect(fs.statSync(path.join(dir, 'a.txt')).size).toBeGreaterThan(1 << 20);
    const patch = '*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-b\n+B\n';
    const killed = run(['apply'], dir, { input: patch, env: { NODE_OPTIONS: `--require ${hook}`, KILL_AT: 'a.txt' } });
    expect(killed.status).toBe(null);
    const next = run(['open', 'a.txt:1'], dir);
    expect(next.status, next.text).toBe(0);
    expect(next.stderr).toMatch(/finished a batch \(rt apply\)/);
    expect(next.stderr).not.toMatch(/incomplete/);
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe(lines('A'));
    expect(fs.readFileSync(path.join(dir, 'b.txt'), 'utf8')).toBe(lines('B'));
    expect(fs.readdirSync(dir).filter((name) => name.includes('.rt-'))).toEqual([]);
  });
});

describe('a big file of another user in a sticky folder (as /tmp)', () => {
  // The sticky bit lets only a file's owner rename over it or remove it: the edit is refused
  // (exit 4, nothing written). The second name renameOver gave the file first (a hard link,
  // which protected_hardlinks allows to a user who may read and write the file) could not be
  // removed either: a refusal left .f.txt.rt-tmp-PID-XXXXXX, a name of the other user's file
  // that neither this user nor its next edit could remove. A sticky folder gives no second name
  // to a file of another user.
  it('is refused with nothing left beside it', (ctx) => {
    const who = unprivileged();
    if (who === undefined || !('uid' in who)) return ctx.skip(); // needs root, to edit as another user
    const dir = tempDir('rt-big-sticky-');
    fs.chmodSync(dir, 0o1777);
    const file = write(dir, 'f.txt', `${Array.from({ length: 150_000 }, (_, i) => `line ${i}`).join('\n')}\n`);
    fs.chmodSync(file, 0o666);
    expect(fs.statSync(file).size).toBeGreaterThan(1 << 20);
    const before = fs.readFileSync(file);
    const o = run(['open', 'f.txt:2'], dir, who);
    expect(o.status, o.text).toBe(0);
    const lid = /^2:([0-9a-z]+)\|/m.exec(o.stdout)![1]!;
    const r = run(['edit', 'f.txt', lid], dir, { ...who, input: 'x\n' });
    expect(r.status, r.text).toBe(4);
    expect(r.stderr).toMatch(/cannot write f\.txt: EPERM/);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    expect(fs.statSync(file).nlink).toBe(1);
    expect(fs.readdirSync(dir).filter((name) => name.includes('.rt-tmp-'))).toEqual([]);
  });
});
