// A JavaScript pattern as a ripgrep pattern (src/search/ripgrepPattern.ts): rt asks ripgrep for the
// files with a line the translation matches and reads only those, so the translation must match
// at least every line rt's own matcher does. Checked here against ripgrep itself, on random
// patterns over lines of ASCII, punctuation, other scripts, emoji, bytes that are not UTF-8,
// CRLF endings, tabs and U+FEFF, with rt's matcher (both dialects, -i, -w) as the judge.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { compileMatcher, type LineMatcher } from '../../src/search/match.js';
import { byteRequired, pcrePattern, ripgrepPattern } from '../../src/search/ripgrepPattern.js';
import { runs } from '../support/runs.js';

const hasRipgrep = spawnSync('rg', ['--version']).status === 0;
/** Whether git here is built with PCRE (git grep -P). */
const hasGitPcre = (() => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-pcre-probe-'));
  fs.writeFileSync(path.join(dir, 'probe.txt'), 'y\n');
  const status = spawnSync('git', ['grep', '--no-index', '-P', '-q', '-e', 'x+', '--', 'probe.txt'], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: dir, LC_ALL: 'C' },
  }).status;
  fs.rmSync(dir, { recursive: true, force: true });
  return status === 1;
})();

/** The lines searched, as bytes (line 1 starts with a BOM). */
const LINES: Buffer[] = [
  Buffer.from('\ufeffabc def'),
  Buffer.from('useState(0) and useEffect'),
  Buffer.from('const aB_c = a-b; // a.b (c) [d] {e} ^f$ |g| +h* ?i'),
  Buffer.from('caf\u00e9 na\u00efve \u00c9t\u00e9 \u212aelvin \u017Fs'),
  Buffer.from('emoji \u{1F600} then ab'),
  Buffer.concat([Buffer.from('bad '), Buffer.from([0xff, 0xfe]), Buffer.from(' bytes ab c')]),
  Buffer.from('tab\there\tab\r'),
  Buffer.from('zero\u00a0width\ufeffjoin ab'),
  Buffer.from('   '),
  Buffer.from(''),
  Buffer.from('aaa bbb ccc abcabc'),
  Buffer.from('123 4.5 x=6 789'),
  Buffer.from('\\back\\slash & tilde~ hash# dash-- and&&'),
  // Characters JavaScript's "." leaves out, which rt's matches (a \r ending no line, U+2028, U+2029).
  Buffer.from('cr\rinside line\u2028sep\u2029par ab'),
];

/** Pieces of patterns: literals (some special to Rust), escapes, classes, groups, alternation, quantifiers, anchors. */
const piece = fc.constantFrom(
  'a',
  'b',
  'c',
  'ab',
  'abc',
  'use',
  'State',
  ' ',
  '-',
  '&',
  '~',
  '#',
  '=',
  '_',
  'é',
  'É',
  'k',
  's',
  '😀',
  '\ufffd',
  '\u00a0',
  '.',
  '\\.',
  '\\-',
  '\\/',
  '\\\\',
  '\\b',
  '\\B',
  '\\w',
  '\\W',
  '\\s',
  '\\S',
  '\\d',
  '\\D',
  '\\t',
  '^',
  '$',
  '[ab]',
  '[^a]',
  '[a-c]',
  '[\\w-]',
  '[-a]',
  '[a\\]]',
  '[.&~]',
  '[\\s\\d]',
  '[é]',
  '[]',
  '[^]',
  '[=a=]',
  '[:a:]',
  '(',
  ')',
  '(?:',
  '(?=',
  '(?!',
  '(?<=',
  '(?<!',
  '(?<n>',
  '|',
  '?',
  '*',
  '+',
  '{2}',
  '{1,}',
  '{0,2}',
  '{1,3}?',
  '*?',
  '+?',
  '{',
  '}',
  ']',
  '\\1',
  '\\x61',
  '\\u0061',
  '\\u{61}',
  '\\p{L}',
  '\\cA',
  '\\k<n>',
  '\\0',
);
const pattern = fc.array(piece, { minLength: 1, maxLength: 8 }).map((ps) => ps.join(''));

/**
 * Patterns made from a piece of one of the lines, each character kept or turned into something
 * else that still matches it (., a class, a class escape, a quantified atom, another case): rt's
 * matcher finds that line, so ripgrep must find it too — the cases a translation gets wrong.
 */
function fromLine(line: number, from: number, length: number, choices: number[]): string {
  const text = [
    ...LINES[line]!.toString('utf8')
      .replace(/^\ufeff/, '')
      .replace(/\r$/, ''),
  ];
  const part = text.slice(from % (text.length + 1), (from % (text.length + 1)) + length);
  return part
    .map((c, k) => {
      const choice = choices[k % choices.length]!;
      const lit = c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      const other = c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase();
      const forms = [
        lit,
        '.',
        /\s/.test(c) ? '\\s' : '\\S',
        /\w/.test(c) ? '\\w' : '\\W',
        /\d/.test(c) ? '\\d' : '\\D',
        c === 'z' ? '[^y]' : '[^z]',
        `[${lit}]`,
        /[a-z]/i.test(c) ? `[${c.toLowerCase()}-z${c.toUpperCase()}-Z]` : `${lit}+`,
        `${lit}{1,2}`,
        `${lit}?`,
        `(?:${lit})*`,
        `(?:${lit})`,
        `${lit}|zzz`,
        other.length === 1 ? other : lit,
      ];
      return forms[choice % forms.length]!;
    })
    .join('');
}
const lineDerived = fc
  .tuple(
    fc.integer({ min: 0, max: LINES.length - 1 }),
    fc.nat(40),
    fc.integer({ min: 1, max: 8 }),
    fc.array(fc.nat(), { minLength: 1, maxLength: 8 }),
  )
  .map(([line, from, length, choices]) => fromLine(line, from, length, choices));

/** Tests that start some 1,500 processes (ripgrep, git): seconds on an idle machine, far more on a loaded one. */
const SPAWNS_TIMEOUT = 180_000;

/**
 * Runs `check` on random patterns (both kinds), with and without -i and -w, that rt's matcher
 * takes, with that matcher; `numRuns` tries.
 */
function forRandomPatterns(
  numRuns: number,
  check: (p: string, ignoreCase: boolean, word: boolean, matcher: LineMatcher) => void,
): void {
  fc.assert(
    fc.property(fc.oneof(pattern, lineDerived), fc.boolean(), fc.boolean(), (p, ignoreCase, word) => {
      let matcher: LineMatcher;
      try {
        matcher = compileMatcher(p, { fixed: false, ignoreCase, word });
      } catch {
        return; // rt refuses the pattern: nothing to translate
      }
      check(p, ignoreCase, word, matcher);
    }),
    { numRuns: runs(numRuns) },
  );
}

describe.skipIf(!hasRipgrep)('ripgrepPattern', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-rgpattern-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'lines.txt');
  const bytes = Buffer.concat(LINES.flatMap((l, n) => [l, Buffer.from(n % 3 === 0 ? '\r\n' : '\n')]));
  fs.writeFileSync(file, bytes);

  /** 0-based numbers of the lines ripgrep finds with `regex`. */
  function ripgrepLines(regex: string, ignoreCase: boolean): Set<number> {
    const r = spawnSync(
      'rg',
      [
        '--no-config',
        '--text',
        '--line-number',
        '--no-filename',
        ...(ignoreCase ? ['--ignore-case'] : []),
        '--regexp',
        regex,
        file,
      ],
      { encoding: 'latin1' },
    );
    expect([0, 1], `rg refused ${JSON.stringify(regex)}: ${r.stderr}`).toContain(r.status);
    return new Set(
      r.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => Number(l.slice(0, l.indexOf(':'))) - 1),
    );
  }

  it(
    'matches at least every line rt matches (random patterns, -i, -w)',
    () => {
      let checked = 0;
      forRandomPatterns(1500, (p, ignoreCase, word, matcher) => {
        const translated = ripgrepPattern(p, ignoreCase);
        if (!translated) return;
        const found = ripgrepLines(translated.regex, ignoreCase);
        checked++;
        for (const n of matcher.matchingLines(bytes, 3, Infinity)) {
          expect(
            found.has(n),
            `${JSON.stringify(p)}${ignoreCase ? ' -i' : ''}${word ? ' -w' : ''} matches ` +
              `line ${n + 1}, ${JSON.stringify(translated.regex)} does not`,
          ).toBe(true);
        }
      });
      expect(checked).toBeGreaterThan(runs(1500) * 0.4);
    },
    SPAWNS_TIMEOUT,
  );

  it(
    'finds the lines where JavaScript and Rust differ: U+FEFF ' +
      'is white space, bytes that are not UTF-8 are characters',
    () => {
      const cases: Array<[string, boolean, number]> = [
        ['width\\sjoin', false, 7],
        ['width[\\s]join', false, 7],
        ['bad .. bytes', false, 5],
        ['bad \\S\\S bytes', false, 5],
        ['bad [^z][^z] bytes', false, 5],
        ['bad \\W+bytes', false, 5],
        ['bad \ufffd+ bytes', false, 5],
        ['bad \\D\\D bytes', false, 5],
        ['78\\d', false, 11],
        ['[0-9]89', false, 11],
        ['KELVIN', true, 3],
        ['[a-z]elvin \u017Fs', true, 3],
        ['CAF\u00c9', true, 3],
        ['emoji .+ ab', false, 4],
        ['(?<=\\bab)cabc', false, 10],
        ['cr.inside', false, 13],
        ['line.sep.par', false, 13],
        ['LINE.SEP', true, 13],
      ];
      for (const [p, ignoreCase, line] of cases) {
        expect(
          compileMatcher(p, { fixed: false, ignoreCase, word: false }).matchingLines(bytes, 3, Infinity),
          p,
        ).toContain(line);
        expect(
          ripgrepLines(ripgrepPattern(p, ignoreCase)!.regex, ignoreCase).has(line),
          `${p} -> ${ripgrepPattern(p, ignoreCase)!.regex}`,
        ).toBe(true);
      }
    },
  );

  it('the hard cases: \\k and \\p as bare letters, long quantifiers, \\n, counts ripgrep refuses', () => {
    const line = (text: string, p: string, ignoreCase = false) => {
      const dir2 = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-rgpattern-'));
      const f = path.join(dir2, 'line.txt');
      fs.writeFileSync(f, `${text}\n`);
      try {
        expect(
          compileMatcher(p, { fixed: false, ignoreCase, word: false }).matchingLines(fs.readFileSync(f), 0, Infinity),
          p,
        ).toEqual([0]);
        const translated = ripgrepPattern(p, ignoreCase);
        if (!translated) return; // not followed: rt searches without ripgrep
        const r = spawnSync(
          'rg',
          [
            '--no-config',
            '--text',
            '--count',
            ...(ignoreCase ? ['--ignore-case'] : []),
            '--regexp',
            translated.regex,
            f,
          ],
          { encoding: 'utf8' },
        );
        expect(r.stdout.trim(), `${p} -> ${translated.regex}: ${r.stderr}`).toBe('1');
      } finally {
        fs.rmSync(dir2, { recursive: true, force: true });
      }
    };
    line('k<x', '\\k<x|y>abc');
    line('p{a', '\\p{a|b}cde');
    line('p{a', '\\p{[}abc]');
    line('p{}xyz', '\\p{[\\}]xyz');
    line('abck<x', 'abc\\k<[>x]');
    line('p{', '(\\p{)|(}yzz)');
    line('abcp{x', 'abc\\p{[}x]', true);
    line('abc', `abc{${'0'.repeat(40)}1}`);
    line('abc', `abc{1,${'0'.repeat(40)}2}`);
    line('abc', 'abc\\n?');
    line('abc', 'abc(\\n)?');
    line('abc', 'abc|\\n');
    line('ab', 'abc{0,4294967296}');
    line(`abc${'x'.repeat(1000)}`, 'abc\\w{1000}');
    line(`abc${'x'.repeat(40)}`, 'abc\\w{33,}');
  });

  it('copies what it follows, and says which literal texts every match holds one of', () => {
    expect(ripgrepPattern('use[A-Z]tate', false)).toEqual({
      regex: 'use[A-Z]tate',
      literals: ['tate'],
      strength: 4,
      required: [['use'], ['tate']],
    });
    expect(ripgrepPattern('function\\s+use\\w+', false)).toEqual({
      regex: 'function(?:[\\s\\x{FEFF}])+use(?:\\w)+',
      literals: ['function'],
      strength: 8,
      required: [['function'], ['use']],
    });
    expect(ripgrepPattern('a\\.b(c|de)?', false)).toEqual({
      regex: 'a\\.b(?:(?:c|de))?',
      literals: ['a.b'],
      strength: 3,
      required: [['a.b']],
    });
    expect(ripgrepPattern('foo|barbaz', false)).toMatchObject({
      literals: ['foo', 'barbaz'],
      strength: 3,
      required: [['foo', 'barbaz']],
    });
    expect(ripgrepPattern('x(abc|defg)+y', false)).toMatchObject({
      literals: ['abc', 'defg'],
      strength: 3,
      required: [['x'], ['abc', 'defg'], ['y']],
    });
    expect(ripgrepPattern('(ab(cd)?ef)gh+i', false)).toMatchObject({
      literals: ['ab'],
      required: [['ab'], ['ef'], ['gh'], ['i']],
    });
    expect(ripgrepPattern('ab|\\w+', false)).toMatchObject({ literals: [], strength: 0, required: [] });
    expect(ripgrepPattern('caf\u00e9s', false)).toMatchObject({ literals: ['caf\u00e9s'], strength: 6 });
    expect(ripgrepPattern('(?<=x)abc\\b', false)?.regex).toBe('abc');
    expect(ripgrepPattern('x{2,}yz', false)).toEqual({
      regex: '(?:x){2,}yz',
      literals: ['yz'],
      strength: 2,
      required: [['x'], ['yz']],
    });
    expect(ripgrepPattern('caf\u00e9', true)?.regex).toBe('caf(?-u:.)+');
    expect(ripgrepPattern('[a-c]', true)?.regex).toBe('(?-u:.)+');
    expect(ripgrepPattern(`${'('.repeat(64)}abc${')'.repeat(64)}`, false)?.strength).toBe(3);
    // deeper than followed (no stack overflow)
    expect(ripgrepPattern(`${'('.repeat(20000)}abc${')'.repeat(20000)}`, false)).toBeUndefined();
    expect(ripgrepPattern('(ab', false)).toBeUndefined();
    expect(ripgrepPattern('ab)', false)).toBeUndefined();
  });
});

// Without ripgrep, `git grep -F` is asked for the lines holding a text of each of the pattern's
// sets (byteRequired of them): every line rt matches must, as bytes (with -i, in ASCII case).
describe('the literals of a pattern', () => {
  const asciiLower = (b: Buffer) => Buffer.from(b.map((c) => (c >= 0x41 && c <= 0x5a ? c + 32 : c)));
  const holds = (line: Buffer, literal: string, ignoreCase: boolean) =>
    ignoreCase ? asciiLower(line).includes(asciiLower(Buffer.from(literal))) : line.includes(Buffer.from(literal));
  const bytes = Buffer.concat(LINES.flatMap((l) => [l, Buffer.from('\n')]));

  it('every line rt matches holds a text of each set (random patterns, -i, -w); the strongest is the literals', () => {
    let checked = 0;
    forRandomPatterns(5000, (p, ignoreCase, _word, matcher) => {
      const translated = ripgrepPattern(p, ignoreCase);
      if (!translated) return;
      const strength = (set: readonly string[]) => (set.length ? Math.min(...set.map((l) => Buffer.byteLength(l))) : 0);
      expect(translated.strength).toBe(strength(translated.literals));
      expect(translated.required.every((set) => strength(set) <= translated.strength)).toBe(true);
      if (translated.strength > 0) expect(translated.required).toContainEqual(translated.literals);
      const required = byteRequired(translated.required, ignoreCase);
      if (required.length === 0) return;
      checked++;
      for (const n of matcher.matchingLines(bytes, 3, Infinity)) {
        for (const set of required) {
          expect(
            set.some((l) => holds(LINES[n]!, l, ignoreCase)),
            `${JSON.stringify(p)}${ignoreCase ? ' -i' : ''} matches line ${n + 1}, which holds none ` +
              `of ${JSON.stringify(set)}`,
          ).toBe(true);
        }
      }
    });
    expect(checked).toBeGreaterThan(runs(5000) * 0.1);
  });

  it('with -i, keeps the ASCII of each literal but s and k, which JavaScript folds from ſ and the Kelvin sign', () => {
    expect(byteRequired([['useState']], true)).toEqual([['tate']]);
    expect(byteRequired([['useStateHook']], true)).toEqual([['tateHoo']]);
    expect(byteRequired([['Kelvin', 'caf\u00e9 bar'], ['lookup']], true)).toEqual([['elvin', ' bar'], ['loo'], ['up']]);
    expect(byteRequired([['ks'], ['a']], true)).toEqual([]);
    expect(byteRequired([['useState', 'kk'], ['tate'], ['k']], false)).toEqual([['tate'], ['useState', 'kk']]);
    // git built with PCRE quotes a text as \Q…\E, which a \E inside it ends.
    expect(byteRequired([['Users\\Eve']], false)).toEqual([['Users\\'], ['Eve']]);
    expect(byteRequired([['a\\E', 'bc\\Ede']], false)).toEqual([['a\\', 'bc\\']]);
    const line = Buffer.from('u\u017Fe\u212Aey');
    expect(
      compileMatcher('USEKEY', { fixed: true, ignoreCase: true, word: false }).matchingLines(line, 0, Infinity),
    ).toEqual([0]);
    expect(byteRequired([['USEKEY']], true).every((set) => set.some((l) => holds(line, l, true)))).toBe(true);
  });
});

// Without ripgrep, git grep -P (in the C locale: PCRE on bytes) is asked for the lines matching
// pcrePattern's translation: it must find every line rt's matcher does, or fail (git stops when
// PCRE refuses a pattern or a match exceeds its limits; rt then asks for the literal texts).
describe.skipIf(!hasGitPcre)('pcrePattern', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-pcrepattern-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'lines.txt');
  const bytes = Buffer.concat(LINES.flatMap((l, n) => [l, Buffer.from(n % 3 === 0 ? '\r\n' : '\n')]));
  fs.writeFileSync(file, bytes);

  /** 0-based numbers of the lines git grep -P finds with `regex`, or undefined when git failed. */
  function gitLines(regex: string, ignoreCase: boolean): Set<number> | undefined {
    const args = [
      'grep',
      '--no-index',
      '--text',
      '--line-number',
      '-h',
      '--perl-regexp',
      ...(ignoreCase ? ['--ignore-case'] : []),
      '-e',
      regex,
      '--',
      'lines.txt',
    ];
    const r = spawnSync('git', args, {
      cwd: dir,
      encoding: 'latin1',
      env: { PATH: process.env.PATH, HOME: dir, LC_ALL: 'C', GIT_CONFIG_NOSYSTEM: '1' },
    });
    if (r.status !== 0 && r.status !== 1) return undefined;
    return new Set(
      r.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => Number(l.slice(0, l.indexOf(':'))) - 1),
    );
  }

  it(
    'matches at least every line rt matches (random patterns, -i, -w), or git refuses it',
    () => {
      let checked = 0;
      let refused = 0;
      forRandomPatterns(1500, (p, ignoreCase, word, matcher) => {
        const translated = pcrePattern(p, ignoreCase);
        if (!translated) return;
        const found = gitLines(translated.regex, ignoreCase);
        if (!found) {
          refused++;
          return;
        }
        checked++;
        for (const n of matcher.matchingLines(bytes, 3, Infinity)) {
          expect(
            found.has(n),
            `${JSON.stringify(p)}${ignoreCase ? ' -i' : ''}${word ? ' -w' : ''} matches ` +
              `line ${n + 1}, ${JSON.stringify(translated.regex)} does not`,
          ).toBe(true);
        }
      });
      expect(checked).toBeGreaterThan(runs(1500) * 0.4);
      expect(refused).toBeLessThan(checked / 20);
    },
    SPAWNS_TIMEOUT,
  );

  it(
    'finds the lines where JavaScript and PCRE on bytes differ: white space ' +
      'beyond ASCII, ſ and the Kelvin sign with -i, bytes that are not UTF-8',
    () => {
      const cases: Array<[string, boolean, number]> = [
        ['width\\sjoin', false, 7],
        ['zero\\swidth', false, 7],
        ['bad .. bytes', false, 5],
        ['bad \\S\\S bytes', false, 5],
        ['bad [^z][^z] bytes', false, 5],
        ['bad \ufffd+ bytes', false, 5],
        ['KELVIN', true, 3],
        ['[a-z]elvin \u017Fs', true, 3],
        ['\\welvin \\w\\w', true, 3],
        ['elvin SS', true, 3],
        ['CAF\u00c9', true, 3],
        ['caf\u00e9 na', false, 3],
        ['emoji .+ ab', false, 4],
        ['emoji . then', false, 4],
        ['cr.inside', false, 13],
        ['line.sep.par', false, 13],
        ['LINE.SEP', true, 13],
      ];
      for (const [p, ignoreCase, line] of cases) {
        expect(
          compileMatcher(p, { fixed: false, ignoreCase, word: false }).matchingLines(bytes, 3, Infinity),
          p,
        ).toContain(line);
        const regex = pcrePattern(p, ignoreCase)!.regex;
        expect(gitLines(regex, ignoreCase)?.has(line), `${p} -> ${regex}`).toBe(true);
      }
    },
  );
});

describe('pcrePattern, written for PCRE to run in bounded time', () => {
  it(
    'writes any text once however many escapes in a row it stands ' +
      'for, and a repeated character as a single repeat of bytes',
    () => {
      // (?s).*.*.*oops backtracks through each .* in turn: minutes on a file of long lines.
      expect(pcrePattern('\\u00e9\\u00e8\\u00e7oops', false)?.regex).toBe('(?s).*oops');
      expect(pcrePattern('\\p{L}+\\p{Ll}*x', false)?.regex).toBe('(?s).*x');
      // Two stretches of any text apart backtrack in the cube of a line's length: not given to PCRE.
      expect(pcrePattern('\\u0041x\\u0042y\\u0043oops', false)).toBeUndefined();
      // A group repeated keeps a frame of PCRE's JIT stack for each time: past its limit on a long line, git stops.
      expect(pcrePattern('abc\\s+def', false)?.regex).toBe('(?s)abc[\\s\\x80-\\xFF]{1,}def');
      expect(pcrePattern('x(?:.)+\\w{2,5}[a-c]*y', false)?.regex).toBe('(?s)x.{1,}\\w{2,5}[a-c]{0,}y');
      expect(pcrePattern('x\\w+y', true)?.regex).toBe('(?s)x[\\w\\x80-\\xFF]{1,}y');
      // [=a=] and [:a:] are POSIX syntax to PCRE, refused outside a class (git stops, and is asked again).
      expect(pcrePattern('[=a=][:b:]+', false)?.regex).toBe('(?s)[\\=a\\=][\\:b\\:]{1,}');
    },
  );
});
