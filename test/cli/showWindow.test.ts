// showWindow (src/cli/shared.ts): a window is written as its lines are read, a part at a time,
// never held whole in memory; the parts joined are the window rt always printed.

import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { Context, type Sink } from '../../src/cli/context.js';
import { showWindow } from '../../src/cli/shared.js';
import { readSettings } from '../../src/settings/env.js';
import { RtError } from '../../src/model/errors.js';
import { lidToString } from '../../src/model/lid.js';
import type { IndexedFile } from '../../src/store/indexedFile.js';
import { ViewState } from '../../src/store/views.js';
import { jsonWindow } from '../../src/render/json.js';
import { renderWindow } from '../../src/render/window.js';

/** The LID text rt prints for the code fakeFile gives line i (0-based). */
const lidText = (i: number) => lidToString(i);

/**
 * A file of `total` lines "line N", whose reads are logged in `log`; `failAt`: a read from that line on fails as a file
 * changed meanwhile.
 */
function fakeFile(total: number, log: string[], failAt = Infinity): IndexedFile {
  return {
    path: { abs: '/nowhere/f.txt', stateRoot: '/nowhere', rel: 'f.txt', display: 'f.txt' },
    total,
    contents(from, to) {
      log.push(`read ${from}-${to}`);
      if (to > failAt)
        throw new RtError('access', 'f.txt changed while it was read', ['run the command again'], { changed: true });
      return Array.from({ length: to - from }, (_, i) => Buffer.from(`line ${from + i + 1}`));
    },
    lids: (from, to) => Uint32Array.from({ length: to - from }, (_, i) => from + i),
    lineOf: () => -1,
    retiredLine: () => undefined,
    persist: () => undefined,
  };
}

function run(total: number, start: number, end: number, json: boolean, failAt = Infinity) {
  const log: string[] = [];
  const chunks: Buffer[] = [];
  const sink: Sink = { write: (c) => (log.push('write'), chunks.push(Buffer.from(c))) };
  const ctx = new Context(
    os.tmpdir(),
    readSettings({ RT_STATE: 'off' }),
    { stdout: sink, stderr: { write: () => true } },
    { isTTY: false, read: () => Buffer.alloc(0) },
    os.tmpdir(),
    json,
    'never',
  );
  const file = fakeFile(total, log, failAt);
  let error: unknown;
  try {
    showWindow(
      ctx,
      'open',
      file,
      { start, end },
      ViewState.load(ctx.stateOf({ stateRoot: os.tmpdir() }), 'f.txt'),
      null,
    );
  } catch (e) {
    error = e;
  }
  return { log, out: Buffer.concat(chunks), error };
}

describe('showWindow', () => {
  it('writes a long window part by part as it reads it: the first part before the second is read', () => {
    const { log, out } = run(20_000, 1, 20_000, false);
    const reads = log.filter((e) => e.startsWith('read'));
    expect(reads.length).toBeGreaterThan(3);
    expect(log.indexOf('write')).toBeLessThan(log.indexOf(reads[1]!));
    const lids = Array.from({ length: 20_000 }, (_, i) => i);
    const whole = renderWindow({
      display: 'f.txt',
      total: 20_000,
      start: 1,
      end: 20_000,
      lines: lids.map((i) => Buffer.from(`line ${i + 1}`)),
      lids: lids.map(lidText),
    });
    expect(out.equals(whole)).toBe(true);
  });

  it('reads a window of a few hundred lines whole before writing anything', () => {
    const { log } = run(1000, 301, 500, false);
    expect(log).toEqual(['read 300-500', 'write', 'write', 'write']);
  });

  it('--json: the parts joined are the one document, unchanged', () => {
    for (const [total, start, end] of [
      [20_000, 3000, 15_000],
      [10, 2, 9],
      [0, 0, 0],
    ] as const) {
      const { out } = run(total, start, end, true);
      const n = total ? end - start + 1 : 0;
      const lids = Array.from({ length: n }, (_, i) => lidText(start - 1 + i));
      const lines = Array.from({ length: n }, (_, i) => Buffer.from(`line ${start + i}`));
      expect(out.toString()).toBe(
        `${JSON.stringify({ command: 'open', ...jsonWindow('f.txt', total, start, lids, lines) })}\n`,
      );
    }
  });

  it('a file that changes after the first part was written ends the window with an error that is not retried', () => {
    const { error, out } = run(20_000, 1, 20_000, false, 10_000);
    expect(error).toBeInstanceOf(RtError);
    expect((error as RtError).exitStatus).toBe(4);
    expect((error as RtError).details.changed).toBeUndefined();
    expect((error as RtError).message).toMatch(
      /^f\.txt changed while its lines were printed: the window above stops before line \d+$/,
    );
    expect(out.length).toBeGreaterThan(0);
    // In the first part, it is retried (retryOnChange), nothing written.
    const early = run(20_000, 1, 20_000, false, 100);
    expect((early.error as RtError).details.changed).toBe(true);
    expect(early.out.length).toBe(0);
  });
});
