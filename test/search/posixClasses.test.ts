// POSIX classes written as JavaScript (src/search/posixClasses.ts): rt's matcher, given the
// pattern written out, must select the very lines ripgrep selects with the pattern as given
// (with -i too), and so must what the prefilters build from it (a superset, checked by ripgrep).

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { compileMatcher, matchesLine } from '../../src/search/match.js';
import { RtError } from '../../src/model/errors.js';
import { withPosixClasses } from '../../src/search/posixClasses.js';
import { ripgrepPattern } from '../../src/search/ripgrepPattern.js';

const hasRipgrep = spawnSync('rg', ['--version']).status === 0;

/**
 * Lines of every kind of character the classes tell apart (ASCII, controls, ſ and the Kelvin sign, other scripts,
 * emoji).
 */
const LINES = [
  'abc',
  '123',
  'X y',
  ':a',
  '\u017F',
  '\u212A',
  '-',
  'tab\there',
  '\u{1F600}',
  '\u00e9',
  '\u0001ctl\u007f',
  '~!@',
  '_',
  'A_1',
  'F00d',
  '',
  ' ',
  '[]',
  '^',
  'K',
];

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-posix-'));
const file = path.join(dir, 'lines.txt');
fs.writeFileSync(file, `${LINES.join('\n')}\n`);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The 0-based lines ripgrep selects with `pattern` (in its own dialect). */
function ripgrepLines(pattern: string, ignoreCase: boolean): number[] {
  const r = spawnSync(
    'rg',
    ['--no-config', '--text', '-n', '--no-heading', ...(ignoreCase ? ['-i'] : []), '-e', pattern, file],
    { encoding: 'utf8' },
  );
  if (r.status !== 0 && r.status !== 1) throw new Error(`rg ${pattern}: ${r.stderr}`);
  return r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => Number(l.split(':')[0]) - 1);
}

/** The 0-based lines rt's matcher selects with `pattern` (POSIX classes written out). */
function rtLines(pattern: string, ignoreCase: boolean): number[] {
  const matcher = compileMatcher(withPosixClasses(pattern), { fixed: false, ignoreCase, word: false });
  return LINES.flatMap((line, i) => (matchesLine(matcher, Buffer.from(line)) ? [i] : []));
}

const NAMES = [
  'alnum',
  'alpha',
  'ascii',
  'blank',
  'cntrl',
  'digit',
  'graph',
  'lower',
  'print',
  'punct',
  'space',
  'upper',
  'word',
  'xdigit',
];

describe('withPosixClasses', () => {
  it.each([
    ['[[:digit:]]', '[0-9]'],
    ['x[[:digit:]]+y', 'x[0-9]+y'],
    ['[^[:space:],]', '[^\\t\\n\\v\\f\\r ,]'],
    ['[[:alpha:][:digit:]_]', '[A-Za-z0-9_]'],
    ['[[:^digit:]]', '[^0-9]'],
    ['[^[:^digit:]]', '[0-9]'],
    ['[a[:^digit:]]', '(?:[a]|[^0-9])'],
    ['[^a[:^digit:]]', '(?:(?![a])[0-9])'],
    ['[[:digit:]-z]', '[0-9\\-z]'], // a "-" after a POSIX class is itself, as in ripgrep
    ['[-[:digit:]]', '[-0-9]'],
    ['[[:digit:]-]', '[0-9-]'],
    ['\\[[:digit:]]', '\\[[:digit:]]'], // an escaped "[", then a class of ":digt" (as in ripgrep)
    ['[:digit:]', '[:digit:]'], // outside a class it is a class of ":digt", as in ripgrep
    ['[a-z]', '[a-z]'],
    // A "]" first in a class is the character itself to ripgrep; JavaScript would read [] as an empty class.
    ['[][:digit:]]x', '[\\]0-9]x'],
    ['[^][:alpha:]]', '[^\\]A-Za-z]'],
    ['[]a]', '[\\]a]'],
    ['[^]a]', '[^\\]a]'],
    ['[]-a]', '[\\]\\-a]'], // no range starts at that "]"
    ['[]-]', '[\\]-]'],
    ['a\\[]', 'a\\[]'], // an escaped "[" opens no class
  ])('%s → %s', (pattern, expected) => {
    expect(withPosixClasses(pattern)).toBe(expected);
  });

  it.each([
    ['[[:DIGIT:]]', /unknown POSIX class \[:DIGIT:\]/],
    ['[[:foo:]]', /unknown POSIX class/],
    ['[a-[:digit:]]', /a range cannot end at the POSIX class/],
    ['[[:digit:]&&[:xdigit:]]', /set operation/],
    ['[[:digit:]--x]', /set operation/],
    ['[[:digit:][a]]', /nested class/],
    ['[[:digit:]', /is not closed/],
  ])('%s is refused, exit 2 (ripgrep reads it otherwise, or refuses it)', (pattern, message) => {
    let error: unknown;
    try {
      withPosixClasses(pattern);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RtError);
    expect((error as RtError).message).toMatch(message);
    expect((error as RtError).exitStatus).toBe(2);
  });
});

describe.skipIf(!hasRipgrep)('rt selects the lines ripgrep selects', () => {
  const fixed = [
    ...NAMES.flatMap((name) => [`[[:${name}:]]`, `[[:^${name}:]]`, `[^[:${name}:]]`]),
    '[^[:space:],]',
    '[a[:^alpha:]]',
    '[^1[:^digit:]]',
    '[[:^alpha:][:^digit:]]',
    '[^[:^alpha:][:^lower:]x]',
    '[[:digit:]-z]',
    '[[:space:]-z]',
    '[[:alpha:]-[:digit:]]',
    '^[[:upper:]][[:lower:]]+$',
    '[][:digit:]]',
    '[^][:alpha:]]',
    '[]a]',
    '[^]a]',
    '[]]',
    '[^]]',
    '[]-a]',
    '[^]-a]',
    '[]-]',
    '[]-[:digit:]]',
  ];
  it.each(
    fixed.flatMap(
      (p) =>
        [
          [p, false],
          [p, true],
        ] as const,
    ),
  )('%s (-i: %s)', (pattern, ignoreCase) => {
    expect(rtLines(pattern, ignoreCase)).toEqual(ripgrepLines(pattern, ignoreCase));
  });

  it('random classes of POSIX classes, negated or not, and characters', () => {
    const item = fc.oneof(
      fc.constantFrom(...NAMES).chain((name) => fc.boolean().map((negated) => `[:${negated ? '^' : ''}${name}:]`)),
      fc.constantFrom('a', 'Z', '_', '1', ',', 'a-c', '\\]', '\\^', ' ', '\u00e9'),
    );
    const cls = fc
      .tuple(fc.boolean(), fc.boolean(), fc.array(item, { minLength: 1, maxLength: 4 }))
      .map(([negated, bracket, items]) => `[${negated ? '^' : ''}${bracket ? ']' : ''}${items.join('')}]`);
    fc.assert(
      fc.property(cls, fc.boolean(), (pattern, ignoreCase) => {
        // (ripgrep refuses a class that can match nothing, such as [^[:alpha:][:^alpha:]]; rt matches no line.)
        const refused =
          spawnSync('rg', ['--no-config', ...(ignoreCase ? ['-i'] : []), '-e', pattern, file]).status === 2;
        if (refused) {
          expect(rtLines(pattern, ignoreCase)).toEqual([]);
          return;
        }
        expect(rtLines(pattern, ignoreCase)).toEqual(ripgrepLines(pattern, ignoreCase));
        // The prefilter's translation of the written-out pattern finds at least those lines.
        const translated = ripgrepPattern(withPosixClasses(pattern), ignoreCase);
        expect(translated).toBeDefined();
        const found = new Set(ripgrepLines(translated!.regex, ignoreCase));
        for (const line of rtLines(pattern, ignoreCase))
          expect(found.has(line), `${pattern} → ${translated!.regex}: line ${line}`).toBe(true);
      }),
      { numRuns: 40 },
    );
  });
});
