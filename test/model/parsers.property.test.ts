// Property tests of the two parsers every command's arguments go through: anchors and
// open's PATH[:LINE | :START-END | :LID] targets. Whatever the text, they return a well-formed
// result or refuse with an RtError of bad usage (exit 2) — never another exception — and the
// forms they accept mean exactly what the spec says.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAnchor } from '../../src/model/anchor.js';
import { RtError } from '../../src/model/errors.js';
import { isLidText, LID_ALPHABET } from '../../src/model/lid.js';
import { parseTarget } from '../../src/model/target.js';
import { runs } from '../support/runs.js';

const RUNS = { numRuns: runs(2000) };

/** Any text an argument can hold: unicode, control characters, digits, colons and dashes. */
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.stringMatching(/^[0-9:$a-zA-Z -]{0,14}$/),
  fc.constantFrom(
    '',
    ' ',
    '$',
    'end',
    'END',
    '0',
    '-1',
    '00',
    '1e3',
    '9'.repeat(30),
    ':',
    '1:',
    ':1',
    'kq3f:1',
    '1:KQ3F',
    '1:kq3f:2',
    '\u0000',
    '١٢',
  ),
);

/** An LID as rt prints them: 4 to 6 characters of the alphabet, at least one a letter. */
const lid = fc
  .array(fc.constantFrom(...LID_ALPHABET), { minLength: 4, maxLength: 6 })
  .map((cs) => cs.join(''))
  .filter((t) => /[a-z]/.test(t));

const lineNumber = fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER });

/** Runs `f`; an RtError of bad usage counts as a refusal; any other exception fails the property. */
function refusedOrValue<T>(f: () => T): { value: T } | { refused: RtError } {
  try {
    return { value: f() };
  } catch (error) {
    expect(error).toBeInstanceOf(RtError);
    expect((error as RtError).exitStatus).toBe(2);
    expect((error as RtError).message.length).toBeGreaterThan(0);
    expect((error as RtError).hints.length).toBeGreaterThan(0);
    return { refused: error as RtError };
  }
}

describe('parseAnchor, for any text', () => {
  it('returns an anchor of a known kind or refuses as bad usage; never throws anything else', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const got = refusedOrValue(() => parseAnchor(text));
        if (!('value' in got)) return;
        const a = got.value;
        expect(a.text).toBe(text);
        const t = text.trim();
        switch (a.kind) {
          case 'end':
            expect(['$', 'end']).toContain(t);
            break;
          case 'line':
            expect(t).toMatch(/^\d+$/);
            expect(Number.isSafeInteger(a.line) && a.line >= 1).toBe(true);
            expect(a.line).toBe(Math.min(Number(t), Number.MAX_SAFE_INTEGER));
            break;
          case 'lid':
            expect(isLidText(a.lid)).toBe(true);
            expect(a.lid).toBe(t);
            break;
          case 'both':
            expect(isLidText(a.lid)).toBe(true);
            expect(a.line).toBe(Math.min(Number(t.slice(0, t.indexOf(':'))), Number.MAX_SAFE_INTEGER));
            expect(a.lid).toBe(t.slice(t.indexOf(':') + 1));
            break;
        }
      }),
      RUNS,
    );
  });

  it('reads every LID, line number and NUMBER:LID as that, with spaces around them or not', () => {
    fc.assert(
      fc.property(lid, lineNumber, fc.constantFrom('', ' ', '\t', '  \n'), (l, n, pad) => {
        expect(parseAnchor(`${pad}${l}${pad}`)).toMatchObject({ kind: 'lid', lid: l });
        expect(parseAnchor(`${pad}${n}${pad}`)).toMatchObject({ kind: 'line', line: n });
        expect(parseAnchor(`${pad}${n}:${l}${pad}`)).toMatchObject({ kind: 'both', line: n, lid: l });
      }),
      RUNS,
    );
  });

  it('refuses line 0, uppercase LIDs and digits-only "LIDs" as bad usage', () => {
    fc.assert(
      fc.property(lid, (l) => {
        for (const bad of ['0', `0:${l}`, l.toUpperCase(), `1:${l.toUpperCase()}`, `${l}:1`, `1:${l}:2`, '-1']) {
          const got = refusedOrValue(() => parseAnchor(bad));
          expect('refused' in got, `${bad} was accepted`).toBe(true);
        }
      }),
      { numRuns: runs(300) },
    );
  });

  it('reads a line number past 2^53 as the last one it can name (past the end of any file), not as bad usage', () => {
    fc.assert(
      fc.property(lid, fc.integer({ min: 17, max: 400 }), (l, digits) => {
        expect(parseAnchor('9'.repeat(digits))).toMatchObject({ kind: 'line', line: Number.MAX_SAFE_INTEGER });
        expect(parseAnchor(`${'9'.repeat(digits)}:${l}`)).toMatchObject({
          kind: 'both',
          line: Number.MAX_SAFE_INTEGER,
          lid: l,
        });
      }),
      { numRuns: runs(100) },
    );
  });
});

describe('parseTarget, for any text', () => {
  it('returns a target whose path is a prefix of the argument, or refuses as bad usage', () => {
    fc.assert(
      fc.property(anyText, anyText, fc.boolean(), (p, where, exists) => {
        const arg = `${p}:${where}`;
        const got = refusedOrValue(() => parseTarget(arg, () => exists));
        if (!('value' in got)) return;
        const t = got.value;
        expect(arg.startsWith(t.path)).toBe(true);
        if (exists) expect(t).toEqual({ kind: 'top', path: arg });
        if (t.kind === 'both') {
          // LINE:LID: the position is what follows the last colon but one.
          expect(`${t.path}:${arg.slice(t.path.length + 1)}`).toBe(arg);
          expect(arg.slice(t.path.length + 1)).toMatch(/^\d+:[0-9a-z]{4,6}$/);
          expect(t.path.length).toBeGreaterThan(0);
        } else if (t.kind !== 'top') {
          // The position is what follows the last colon, and nothing else.
          expect(t.path).toBe(arg.slice(0, arg.lastIndexOf(':')));
          expect(t.path.length).toBeGreaterThan(0);
        }
        if (t.kind === 'range') expect(t.start <= t.end && t.start >= 1).toBe(true);
        if (t.kind === 'line' || t.kind === 'both') expect(Number.isSafeInteger(t.line) && t.line >= 1).toBe(true);
        if (t.kind === 'lid' || t.kind === 'both') expect(isLidText(t.lid)).toBe(true);
      }),
      RUNS,
    );
  });

  it('reads PATH:N, PATH:A-B and PATH:LID of a path that does not exist as given; a path that exists wins', () => {
    const pathText = fc.stringMatching(/^[^\u0000]{1,20}$/).filter((s) => !s.startsWith(':'));
    fc.assert(
      fc.property(pathText, lineNumber, lineNumber, lid, (p, a, b, l) => {
        const none = () => false;
        expect(parseTarget(`${p}:${a}`, none)).toEqual({ kind: 'line', path: p, line: a });
        // A path ending in :DIGITS is read as PATH:LINE:LID (line 0 refused as bad usage).
        const lineThenLid = /^(.+):(\d+)$/.exec(p);
        if (!lineThenLid) expect(parseTarget(`${p}:${l}`, none)).toEqual({ kind: 'lid', path: p, lid: l });
        else if (Number(lineThenLid[2]) < 1)
          expect('refused' in refusedOrValue(() => parseTarget(`${p}:${l}`, none))).toBe(true);
        else
          expect(parseTarget(`${p}:${l}`, none)).toEqual({
            kind: 'both',
            path: lineThenLid[1],
            line: Math.min(Number(lineThenLid[2]), Number.MAX_SAFE_INTEGER),
            lid: l,
          });
        expect(parseTarget(`${p}:${a}:${l}`, none)).toEqual({ kind: 'both', path: p, line: a, lid: l });
        // PATH:LINE that exists as a file: the LID is of that file.
        expect(parseTarget(`${p}:${a}:${l}`, (x) => x === `${p}:${a}`)).toEqual({
          kind: 'lid',
          path: `${p}:${a}`,
          lid: l,
        });
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(parseTarget(`${p}:${lo}-${hi}`, none)).toEqual({ kind: 'range', path: p, start: lo, end: hi });
        if (lo < hi) expect('refused' in refusedOrValue(() => parseTarget(`${p}:${hi}-${lo}`, none))).toBe(true);
        expect(parseTarget(`${p}:${a}`, (x) => x === `${p}:${a}`)).toEqual({ kind: 'top', path: `${p}:${a}` });
        expect(parseTarget(p.replace(/:/g, '_'), none)).toEqual({ kind: 'top', path: p.replace(/:/g, '_') });
      }),
      RUNS,
    );
  });
});
