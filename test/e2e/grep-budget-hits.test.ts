// A past bug: the time bound of a search also bounded printing its hits (building the index,
// re-reading and re-checking every hit), so 2,000,000 hits of a literal ended with exit 2, 'the
// pattern backtracks too much'. The bound now grows with the bytes read (1 s a MiB).

import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, run, tempDir, write } from './harness.js';

afterAll(cleanup);

describe('a literal with 2,000,000 hits, --max raised to see them all', () => {
  it('prints them (exit 0), not "the pattern backtracks too much"', () => {
    const dir = tempDir();
    let text = '';
    for (let i = 0; i < 2_000_000; i++) text += `a${(i * 7919) % 1_000_003}\n`;
    write(dir, 'f.txt', text);
    const r = run(['grep', '--max', '3000000', '-F', 'a', 'f.txt'], dir);
    expect({ status: r.status, stderr: r.stderr }, r.text.slice(0, 2000)).toEqual({ status: 0, stderr: '' });
    expect(r.stdout.split('\n').length - 1).toBe(2_000_000);
  }, 300_000);
});
