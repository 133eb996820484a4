// The literal ending of a glob (find): find asks git only for names that end so, then
// matches the glob itself, so every name the glob matches must end with it.

import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { globMatcher, nameEnding } from '../../src/search/candidates.js';
import { runs } from '../support/runs.js';

describe('nameEnding', () => {
  it('is the literal text after the last wildcard of a plain glob', () => {
    expect(nameEnding('*.ts')).toBe('.ts');
    expect(nameEnding('*.test.ts')).toBe('.test.ts');
    expect(nameEnding('foo?.js')).toBe('.js');
    expect(nameEnding('a b*c d')).toBe('c d');
  });

  it('tells nothing for globs that end in a wildcard, hold /, brackets, braces, escapes or a leading !', () => {
    for (const glob of [
      '*',
      'foo*',
      '?',
      'src/*.ts',
      '*.[jt]s',
      '*.{ts,js}',
      '*\\.ts',
      '!*.ts',
      '*.+(ts)',
      '*.@(ts)',
      '*.ts!',
      '*.ts)',
    ]) {
      expect(nameEnding(glob), glob).toBe('');
    }
  });

  it('every name a glob matches ends with it (checked with picomatch itself)', () => {
    const globChar = fc.constantFrom('*', '?', 'a', 'b', '.', '-', '_', ' ', 't', 's');
    const nameChar = fc.constantFrom('a', 'b', '.', '-', '_', ' ', 't', 's', 'x');
    fc.assert(
      fc.property(fc.array(globChar, { minLength: 1, maxLength: 8 }), fc.array(nameChar, { maxLength: 10 }), (g, n) => {
        const glob = g.join('');
        const name = n.join('');
        const ending = nameEnding(glob);
        const matches = picomatch.makeRe(glob, { dot: true }).test(name);
        if (matches) expect(name.endsWith(ending)).toBe(true);
        // And the matcher find uses agrees with picomatch, at any depth.
        expect(globMatcher(glob)(`dir/${name}`)).toBe(matches);
      }),
      { numRuns: runs(3000) },
    );
  });
});
