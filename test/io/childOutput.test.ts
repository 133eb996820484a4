// Running a program beside rt's work (src/io/childOutput.ts): its output is kept up to a bound.

import { describe, expect, it } from 'vitest';
import { childOutput } from '../../src/io/childOutput.js';

describe('childOutput', () => {
  const print = (bytes: number) => ['-e', `process.stdout.write(Buffer.alloc(${bytes}, 0x61))`];

  it('gives the exit status and all that was printed', async () => {
    const r = await childOutput(
      process.execPath,
      ['-e', 'process.stdout.write(Buffer.alloc(3_000_000, 0x61)); process.exitCode = 3'],
      {},
    );
    expect(r?.status).toBe(3);
    expect(r?.stdout.length).toBe(3_000_000);
  });

  it('stops a program printing more than maxBytes, and gives nothing (as for a failure)', async () => {
    expect(await childOutput(process.execPath, print(3_000_000), { maxBytes: 1_000_000 })).toBeUndefined();
    expect(
      await childOutput(process.execPath, ['-e', 'setInterval(() => process.stdout.write("x".repeat(65536)), 1)'], {
        maxBytes: 1_000_000,
      }),
    ).toBeUndefined();
  });

  it('keeps what was written to stderr when asked, under the same bound', async () => {
    const both = ['-e', 'process.stdout.write("out"); process.stderr.write(Buffer.alloc(2_000_000, 0x62))'];
    const r = await childOutput(process.execPath, both, { stderr: true });
    expect(r?.stdout.toString()).toBe('out');
    expect(r?.stderr.length).toBe(2_000_000);
    expect((await childOutput(process.execPath, both, {}))?.stderr.length).toBe(0);
    expect(await childOutput(process.execPath, both, { stderr: true, maxBytes: 1_000_000 })).toBeUndefined();
    let seen = 0;
    const watchStderr = (chunk: Buffer) => (seen += chunk.length) < 100_000;
    expect(await childOutput(process.execPath, both, { stderr: true, watchStderr })).toBeUndefined();
    expect(seen).toBeGreaterThanOrEqual(100_000);
    expect((await childOutput(process.execPath, both, { stderr: true, watchStderr: () => true }))?.stderr.length).toBe(
      2_000_000,
    );
  });

  it('gives nothing for a program that cannot start', async () => {
    expect(await childOutput('/nonexistent/program', [], {})).toBeUndefined();
  });
});
