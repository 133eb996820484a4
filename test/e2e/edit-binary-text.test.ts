// A past bug: new text of control bytes (binary by the rule 'mostly non-text') was
// written, and rt then refused the file it wrote, the edit that would repair it included. Text
// that would make the file look binary is now refused (exit 2), as a NUL is.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, run, tempDir, write } from './harness.js';

afterAll(cleanup);

describe('new text of control bytes', () => {
  it('create: refused (exit 2, nothing written), or the file it writes stays readable by rt', () => {
    const dir = tempDir();
    const r = run(['create', 'ctl.txt'], dir, { input: Buffer.from('\x01\x02\x03\x04\n') });
    if (r.status === 0) {
      const open = run(['open', 'ctl.txt'], dir);
      expect(open.status, `${r.text}\n${open.text}`).toBe(0);
    } else {
      expect(r.status, r.text).toBe(2);
      expect(fs.existsSync(path.join(dir, 'ctl.txt'))).toBe(false);
    }
  });

  it('edit: refused, or the file stays editable by rt', () => {
    const dir = tempDir();
    write(dir, 'f.txt', 'one\n');
    const lid = /^1:(\w{4})\|/m.exec(run(['open', 'f.txt'], dir).stdout)![1]!;
    const r = run(['edit', 'f.txt', lid], dir, { input: Buffer.from('\x1f\x1e\x1d\x1c\x01\x02\n') });
    if (r.status === 0) {
      const lid2 = /^1:(\w{4})\|/m.exec(r.stdout)![1]!;
      const again = run(['edit', 'f.txt', lid2], dir, { input: 'one\n' });
      expect(again.status, `${r.text}\n${again.text}`).toBe(0);
    } else expect(r.status, r.text).toBe(2);
  });
});
