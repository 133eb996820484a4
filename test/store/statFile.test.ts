// A file's stamp, taken without following a link (src/store/indexedFile.ts, statFile): a regular
// file's size, times and inode; anything else at its path refused, each with its own message (a
// link swapped in since the path was resolved, a folder, a FIFO).

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { statFile } from '../../src/store/indexedFile.js';
import type { ResolvedPath } from '../../src/store/root.js';
import { cleanup, tempDir, write } from '../e2e/harness.js';

afterAll(cleanup);

const root = fs.realpathSync(tempDir());

/** `rel` as resolved inside the root before anything was swapped at it. */
function resolved(rel: string): ResolvedPath {
  return { abs: path.join(root, rel), stateRoot: root, rel, display: rel };
}

function refusal(rel: string): string {
  try {
    statFile(resolved(rel));
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${rel} was not refused`);
}

describe('statFile', () => {
  it("gives a regular file's stamp", () => {
    write(root, 'f.txt', 'abc\n');
    const st = fs.statSync(path.join(root, 'f.txt'), { bigint: true });
    expect(statFile(resolved('f.txt'))).toEqual({
      size: 4,
      mtimeNs: String(st.mtimeNs),
      ctimeNs: String(st.ctimeNs),
      ino: String(st.ino),
    });
  });

  it('refuses a link (to a file or a folder), a folder and a FIFO, each as what it is', () => {
    write(root, 'target.txt', 'x\n');
    fs.symlinkSync(path.join(root, 'target.txt'), path.join(root, 'link.txt'));
    fs.mkdirSync(path.join(root, 'dir'));
    fs.symlinkSync(path.join(root, 'dir'), path.join(root, 'dir-link'));
    expect(refusal('link.txt')).toBe(
      'link.txt was replaced by a symbolic link while rt was using it; nothing was read through it',
    );
    expect(refusal('dir-link')).toBe(
      'dir-link was replaced by a symbolic link while rt was using it; nothing was read through it',
    );
    expect(refusal('dir')).toBe('dir is a directory');
    if (spawnSync('mkfifo', [path.join(root, 'fifo')]).status === 0)
      expect(refusal('fifo')).toBe('fifo is not a regular file');
  });
});
