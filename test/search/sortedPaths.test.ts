// The lookup of tracked files in git's own output (`git ls-files -z --cached`), by halving: it
// must answer exactly as a set of the listed paths would, for any paths (non-ASCII, with
// separators and prefixes of one another), in git's byte order or — should git ever print
// another order — in any order at all.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { halvingFinds, sortedPaths } from '../../src/search/listFiles.js';
import { runs } from '../support/runs.js';

const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
const listing = (paths: readonly string[]) => Buffer.from(paths.map((p) => `${p}\0`).join(''));

/** Path-like strings that share prefixes and sort close to each other ("a", "a/b", "a-b", "a.b", "é"). */
const part = fc.constantFrom('a', 'b', 'ab', 'a-b', 'a.b', 'a b', '.x', 'é', '文', 'z~');
const relPath = fc.array(part, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));

describe('sortedPaths', () => {
  it('finds every listed path and no other, in git order', () => {
    fc.assert(
      fc.property(fc.uniqueArray(relPath, { maxLength: 40 }), fc.array(relPath, { maxLength: 20 }), (listed, asked) => {
        const out = listing([...listed].sort(byBytes));
        const tracked = sortedPaths(out);
        for (const p of [...listed, ...asked]) {
          expect(tracked.has(p)).toBe(listed.includes(p));
          // In git's order, halving alone finds them (the search end to end is only a safeguard).
          expect(halvingFinds(out.toString('latin1'), Buffer.from(p).toString('latin1'))).toBe(listed.includes(p));
        }
      }),
      { numRuns: runs(500) },
    );
  });

  it('answers the same whatever the order of the output', () => {
    fc.assert(
      fc.property(fc.uniqueArray(relPath, { maxLength: 30 }), fc.array(relPath, { maxLength: 20 }), (listed, asked) => {
        const tracked = sortedPaths(listing(listed));
        for (const p of [...listed, ...asked]) expect(tracked.has(p)).toBe(listed.includes(p));
      }),
      { numRuns: runs(500) },
    );
  });

  it('answers the same past the questions it answers by halving (then from a set of the paths)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(relPath, { maxLength: 30 }), fc.array(relPath, { maxLength: 20 }), (listed, asked) => {
        const tracked = sortedPaths(listing([...listed].sort(byBytes)));
        const questions = [...listed, ...asked, '', 'a/'];
        for (let round = 0; round < 300 / questions.length + 2; round++)
          for (const p of questions) expect(tracked.has(p)).toBe(listed.includes(p));
      }),
      { numRuns: runs(100) },
    );
  });

  it('tells a path from its prefixes and extensions, and repeats (a file in conflict) change nothing', () => {
    const tracked = sortedPaths(listing(['a', 'a-b', 'a/b', 'a/b', 'a/b', 'a/bc', 'b']));
    expect(['a', 'a-b', 'a/b', 'a/bc', 'b'].every((p) => tracked.has(p))).toBe(true);
    expect(['', 'a/', 'a-', 'a/b/', 'a/bcd', 'bb', 'c'].some((p) => tracked.has(p))).toBe(false);
    expect(sortedPaths(Buffer.alloc(0)).has('a')).toBe(false);
  });
});
