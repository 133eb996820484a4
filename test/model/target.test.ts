// open's PATH[:POSITION] (core/target.ts): the whole argument is the file when it exists; else
// a position after an existing file must parse, and a grep hit pasted as a PATH is split.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RtError } from '../../src/model/errors.js';
import { isLidText } from '../../src/model/lid.js';
import { SYMBOL, parseTarget, pastedPosition, symbolTarget } from '../../src/model/target.js';
import { runs } from '../support/runs.js';

/** `exists` of a tree holding these paths. */
const tree =
  (...paths: string[]) =>
  (p: string) =>
    paths.includes(p);

function refusal(f: () => unknown): RtError {
  try {
    f();
  } catch (error) {
    expect(error).toBeInstanceOf(RtError);
    return error as RtError;
  }
  throw new Error('not refused');
}

describe('parseTarget', () => {
  it.each([
    ['f.txt', tree('f.txt'), { kind: 'top', path: 'f.txt' }],
    ['f.txt:12', tree('f.txt'), { kind: 'line', path: 'f.txt', line: 12 }],
    ['f.txt:3-9', tree('f.txt'), { kind: 'range', path: 'f.txt', start: 3, end: 9 }],
    ['f.txt:kq3f', tree('f.txt'), { kind: 'lid', path: 'f.txt', lid: 'kq3f' }],
    ['f.txt:12:kq3f', tree('f.txt'), { kind: 'both', path: 'f.txt', line: 12, lid: 'kq3f' }],
    // A name with colons: the whole argument, when it exists, is the file.
    ['a:$', tree('a', 'a:$'), { kind: 'top', path: 'a:$' }],
    ['a:b:1', tree('a', 'a:b'), { kind: 'line', path: 'a:b', line: 1 }],
    // Nothing exists: a position that parses is still read (the file is then not found), else the whole is the path.
    ['nope:5', tree(), { kind: 'line', path: 'nope', line: 5 }],
    ['nope:$', tree(), { kind: 'top', path: 'nope:$' }],
    // A colon before a "/" is a folder's name, not a position's.
    ['d:x/f.txt', tree('d'), { kind: 'top', path: 'd:x/f.txt' }],
  ] as const)('%s', (arg, exists, want) => {
    expect(parseTarget(arg, exists)).toEqual(want);
  });

  it.each(['$', 'end', '1-', '-3', '+5', '1,5', '', 'x', '5:xyz', '1-$', '1:2'])(
    'f.txt:%s after an existing f.txt is bad usage naming the forms',
    (where) => {
      const e = refusal(() => parseTarget(`f.txt:${where}`, tree('f.txt')));
      expect(e.exitStatus).toBe(2);
      expect(e.message).toContain('PATH:LINE, PATH:START-END, PATH:LID, PATH:LINE:LID or PATH:@NAME');
      expect(e.details).toEqual({ path: 'f.txt', position: where });
      expect(e.hints.length).toBe(1);
    },
  );

  it('refuses whatever does not parse after an existing file, and takes the whole argument when it exists', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[^:/]{1,8}$/), fc.string({ maxLength: 8 }), (file, where) => {
        fc.pre(
          !/[:/]/.test(where) &&
            !/^(\d+|\d+-\d+)$/.test(where) &&
            !isLidText(where.toLowerCase()) &&
            !SYMBOL.test(where),
        );
        const arg = `${file}:${where}`;
        expect(refusal(() => parseTarget(arg, tree(file))).exitStatus).toBe(2);
        expect(parseTarget(arg, tree(file, arg))).toEqual({ kind: 'top', path: arg });
      }),
      { numRuns: runs(1000) },
    );
  });
});

describe('pastedPosition', () => {
  it.each([
    ['f.txt:166:kq3f', tree('f.txt'), { path: 'f.txt', rest: '166:kq3f' }],
    ['f.txt:kq3f', tree('f.txt'), { path: 'f.txt', rest: 'kq3f' }],
    ['f.txt:12', tree('f.txt'), { path: 'f.txt', rest: '12' }],
    ['f.txt:12', tree('f.txt', 'f.txt:12'), undefined],
    ['a:b:12', tree('a', 'a:b'), { path: 'a:b', rest: '12' }],
    ['nope:12', tree(), undefined],
    ['d:x/f.txt', tree('d'), undefined],
  ] as const)('%s', (arg, exists, want) => {
    expect(pastedPosition(arg, exists)).toEqual(want);
  });
});

describe('parseTarget: PATH:@NAME', () => {
  it.each([
    ['f.ts:@Cart', 'Cart'],
    ['f.ts:@Cart.add', 'Cart.add'],
    ['f.ts:@_private$', '_private$'],
    ['f.ts:@créer', 'créer'],
    ['f.ts:@Account.valid?', 'Account.valid?'],
    ['f.ts:@==', '=='],
    ['f.ts:@A.#secret', 'A.#secret'],
  ])('%s names a definition', (arg, name) => {
    expect(parseTarget(arg, tree('f.ts'))).toEqual({ kind: 'symbol', path: 'f.ts', name });
  });

  it.each(['f.ts:@', 'f.ts:@a@b'])('%s is bad usage after an existing file', (arg) => {
    expect(refusal(() => parseTarget(arg, tree('f.ts'))).exitStatus).toBe(2);
  });
});

describe('symbolTarget: PATH:@NAME as edit, insert and delete take it', () => {
  it.each([
    ['f.ts:@Cart.add', { path: 'f.ts', name: 'Cart.add' }],
    ['dir:x/f.ts:@total', { path: 'dir:x/f.ts', name: 'total' }],
    ['missing.ts:@a', { path: 'missing.ts', name: 'a' }],
  ])('%s names a definition', (arg, want) => {
    expect(symbolTarget(arg, tree('f.ts', 'dir:x/f.ts'))).toEqual(want);
  });

  it.each([
    ['f.ts', 'f.ts'],
    ['f.ts:12', 'f.ts'],
    ['f.ts:@', 'f.ts'],
    ['f.ts:@a b', 'f.ts'],
    [':@a', 'f.ts'],
    // A file whose name it is, as given, is that file.
    ['g.ts:@a', 'g.ts:@a'],
  ])('%s does not', (arg, existing) => {
    expect(symbolTarget(arg, tree(existing))).toBeUndefined();
  });
});
