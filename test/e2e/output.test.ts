// How rt's output reaches its reader: whole and in order through a pipe, quietly cut short when
// the reader goes away, and refused with exit 4 when it cannot be written at all.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv, cleanup, numbered, RT_BIN, run, withFile, write } from './harness.js';

afterAll(cleanup);

/** Runs rt through `sh -c` so that its stdout can be a closed pipe or a full device. */
function shell(script: string, cwd: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync('sh', ['-c', script], {
    cwd,
    env: cleanEnv({ RT: `${process.execPath} ${RT_BIN}` }),
    encoding: 'utf8',
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('output', () => {
  it('a large window arrives whole and in order through a pipe', () => {
    const { dir } = withFile(1);
    write(dir, 'big.txt', numbered(60_000));
    const r = run(['open', 'big.txt:1-60000', '--window', '60000'], dir);
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('--- big.txt (lines 1-60000 of 60000) ---');
    for (const i of [1, 2, 30_000, 60_000]) expect(lines[i]).toMatch(new RegExp(`^${i}:[0-9a-z]{4}\\|line ${i}$`));
  });

  it('a reader that stops early (| head -1) ends rt quietly with exit 0', () => {
    const { dir } = withFile(1);
    write(dir, 'big.txt', numbered(60_000));
    const head = shell('$RT open big.txt:1-60000 --window 60000 | head -1', dir);
    expect(head.stdout).toBe('--- big.txt (lines 1-60000 of 60000) ---\n');
    expect(head.stderr).toBe('');
    // The status of rt itself, writing into a pipe whose reader is gone at once.
    const closed = shell('{ $RT open big.txt:1-60000 --window 60000; echo "status=$?" >&2; } | true', dir);
    expect(closed.stderr).toBe('status=0\n');
  });

  it('output that cannot be written (a full device) is exit 4, said on stderr', () => {
    if (!fs.existsSync('/dev/full')) return;
    const { dir } = withFile(1);
    write(dir, 'big.txt', numbered(10_000));
    const r = shell('$RT open big.txt:1-10000 --window 10000 >/dev/full; echo "status=$?" >&2', dir);
    expect(r.stderr).toBe('rt: cannot write the output: ENOSPC\nstatus=4\n');
  });

  it('stderr notices come after the stdout written before them, even into one pipe', () => {
    const { dir } = withFile(1);
    write(dir, path.join('sub', 'a.txt'), 'needle\n');
    // Both streams into one pipe: the hits come before the notice about the cap.
    for (let i = 0; i < 5; i++) write(dir, `n${i}.txt`, 'needle\nneedle\n');
    const r = shell('$RT grep -F needle --max 3 2>&1', dir);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.slice(0, 3).every((l) => /^\S+:\d+:[0-9a-z]{4}\|needle$/.test(l))).toBe(true);
    expect(lines.slice(3).join('\n')).toMatch(/more/);
  });
});
