// A path ripgrep printed is taken as it is when it is absolute and normal already, else resolved
// (src/search/ripgrep.ts, absolute): either way it must be what path.resolve gives.

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { absolute } from '../../src/search/ripgrep.js';

describe('a path ripgrep printed', () => {
  it.runIf(path.sep === '/')('is what path.resolve gives, whether taken as it is or resolved', () => {
    const names = [
      '/a/b.txt',
      '/a//b.txt',
      '//a',
      '/a/./b',
      '/a/../b',
      '/a/b/.',
      '/a/b/..',
      '/a/b/',
      '/a/.b',
      '/a/..b',
      '/a/a..b.txt',
      '/a/...',
      '/a/b c/ü.txt',
      'a/b.txt',
      './a',
      '../a',
    ];
    for (const name of names) expect(absolute(name), name).toBe(path.resolve(name));
  });
});
