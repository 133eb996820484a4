// The fast way to a path below a folder (below) agrees with path.relative wherever it answers.

import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { below, isInside } from '../../src/store/inside.js';

const part = fc.constantFrom('a', 'b', '.', '..', '', '.rt', 'x y', 'é', '.a', 'a.');
const posix = fc.array(part, { minLength: 0, maxLength: 5 }).map((parts) => `/${parts.join('/')}`);

describe('below', () => {
  it('is path.relative for a path strictly inside, and undefined where it cannot tell', () => {
    fc.assert(
      fc.property(posix, posix, (dir, target) => {
        const fast = below(dir, target);
        const rel = path.relative(dir, target);
        if (fast !== undefined) expect(fast).toBe(rel);
        expect(isInside(dir, target)).toBe(
          rel === '' || (!rel.startsWith('../') && rel !== '..' && !path.isAbsolute(rel)),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('answers for the normal paths a search lists', () => {
    expect(below('/r', '/r/a/b.ts')).toBe('a/b.ts');
    expect(below('/r/', '/r/a')).toBe('a');
    expect(below('/', '/a/b')).toBe('a/b');
    expect(below('/r', '/r')).toBeUndefined();
    expect(below('/r', '/rr/a')).toBeUndefined();
    expect(below('/r', '/r/./a')).toBeUndefined();
    expect(below('/r', '/r/../a')).toBeUndefined();
    expect(below('/r', '/r//a')).toBeUndefined();
    expect(below('/r', '/r/a/')).toBeUndefined();
    expect(below('r', 'r/a')).toBeUndefined();
  });

  it('takes no folder as normal before one was checked, and checks each new one', async () => {
    // A fresh copy of the module: the folder it remembers is none yet.
    vi.resetModules();
    const fresh = await import('../../src/store/inside.js');
    expect(fresh.below('', '/etc/passwd')).toBeUndefined();
    expect(fresh.isInside('', '/etc/passwd')).toBe(false);
    expect(fresh.below('/r', '/r/a')).toBe('a');
    expect(fresh.below('/r/../s', '/r/../s/a')).toBeUndefined();
    expect(fresh.below('/r', '/r/b')).toBe('b');
  });
});
