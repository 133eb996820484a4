// Temporary folders for a test file's tests, removed after them.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

/**
 * Called at a test file's top level: returns a maker of folders named `prefix…`, all removed after the file's tests.
 */
export function tempFolders(prefix: string): () => string {
  const made: string[] = [];
  afterAll(() => {
    for (const d of made) fs.rmSync(d, { recursive: true, force: true });
  });
  return () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    made.push(d);
    return d;
  };
}
