import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashLines } from '../../src/model/hash.js';
import { splitLines } from '../../src/model/lines.js';
import { pairLines, pairUniqueMoves } from '../../src/model/pairing.js';
import { applyModelOp, modelLines, modelOp } from '../support/lidModel.js';
import { runs } from '../support/runs.js';

const hashesOf = (contents: readonly string[]) =>
  hashLines(splitLines(Buffer.from(contents.map((c) => `${c}\n`).join(''))));
const content = fc.constantFrom('', '}', '{', 'return x;', 'a', 'b', 'c', 'd', 'e');

/**
 * For each pair (i, j) of equal lines: whether it lies on some longest common subsequence of a and b (by dynamic
 * programming).
 */
function onSomeLcs(a: readonly string[], b: readonly string[]): (i: number, j: number) => boolean {
  const w = b.length + 1;
  const fwd = new Int32Array((a.length + 1) * w);
  const bwd = new Int32Array((a.length + 1) * w);
  for (let p = 0; p < a.length; p++)
    for (let q = 0; q < b.length; q++)
      fwd[(p + 1) * w + q + 1] =
        a[p] === b[q] ? fwd[p * w + q]! + 1 : Math.max(fwd[p * w + q + 1]!, fwd[(p + 1) * w + q]!);
  for (let p = a.length - 1; p >= 0; p--)
    for (let q = b.length - 1; q >= 0; q--)
      bwd[p * w + q] =
        a[p] === b[q] ? bwd[(p + 1) * w + q + 1]! + 1 : Math.max(bwd[(p + 1) * w + q]!, bwd[p * w + q + 1]!);
  const total = fwd[a.length * w + b.length]!;
  return (p, q) => a[p] === b[q] && fwd[p * w + q]! + 1 + bwd[(p + 1) * w + q + 1]! === total;
}

const once = (ls: readonly string[], c: string) => ls.filter((x) => x === c).length === 1;

describe('pairLines', () => {
  it(
    'pairs lines as one longest common subsequence does (the ' +
      'line diff), or by content occurring once on both sides',
    () => {
      fc.assert(
        fc.property(fc.array(content, { maxLength: 30 }), fc.array(content, { maxLength: 30 }), (a, b) => {
          const match = pairLines(hashesOf(a), hashesOf(b));
          expect(new Set(Array.from(match).filter((i) => i >= 0)).size).toBe(
            Array.from(match).filter((i) => i >= 0).length,
          );
          const onLcs = onSomeLcs(a, b);
          match.forEach((i, j) => {
            if (i < 0) return;
            expect(a[i]).toBe(b[j]);
            if (!(once(a, a[i]!) && once(b, b[j]!)))
              expect(onLcs(i, j), `${i}↔${j} in ${JSON.stringify(a)} → ${JSON.stringify(b)}`).toBe(true);
          });
        }),
        { numRuns: runs(2000) },
      );
    },
  );

  it(
    'names every line by its own identity through any one change, whether its window is ' +
      'paired by every longest common subsequence or, too large for that, by the line diff',
    () => {
      fc.assert(
        fc.property(fc.array(content, { maxLength: 40 }), modelOp(content), fc.boolean(), (initial, o, large) => {
          const before = modelLines(initial);
          const after = applyModelOp(before, o);
          const a = before.map((l) => l.content);
          const b = after.map((l) => l.content);
          // No window small enough: every one is paired as thousands of changed lines would be.
          const match = pairLines(hashesOf(a), hashesOf(b), large ? 0 : undefined);
          match.forEach((i, j) => {
            if (i >= 0)
              expect(before[i]!.id, `${o.kind}: ${i}↔${j} in ${JSON.stringify(a)} → ${JSON.stringify(b)}`).toBe(
                after[j]!.id,
              );
          });
        }),
        { numRuns: runs(5000) },
      );
    },
  );

  it('keeps unchanged lines far from a change paired, however large the file', () => {
    const n = 200_000;
    const a = Array.from({ length: n }, (_, i) => (i % 4 === 0 ? '' : i % 4 === 2 ? '}' : `line ${i}`));
    const b = a.slice();
    b.splice(100_000, 3, 'new');
    const match = pairLines(hashesOf(a), hashesOf(b));
    let paired = 0;
    match.forEach((i, j) => {
      if (i >= 0) {
        expect(a[i]).toBe(b[j]);
        paired++;
      }
    });
    expect(paired).toBe(n - 3);
  });
});

describe('pairUniqueMoves', () => {
  const old = ['import b;', 'import a;', 'x', 'y', 'x'];
  it('pairs a line moved unchanged whose content occurs once in each file', () => {
    const now = ['import a;', 'import b;', 'x', 'y', 'x'];
    expect(pairUniqueMoves(hashesOf(old), hashesOf(now), [0, 1], [0, 1])).toEqual([
      [1, 0],
      [0, 1],
    ]);
  });
  it('pairs nothing for a line rewritten in place, nor for content the files hold twice', () => {
    expect(pairUniqueMoves(hashesOf(old), hashesOf(['import c;', 'import a;', 'x', 'y', 'x']), [0], [0])).toEqual([]);
    expect(pairUniqueMoves(hashesOf(old), hashesOf(['x', 'import a;', 'import b;', 'y', 'x']), [0, 2], [0, 2])).toEqual(
      [[0, 2]],
    );
  });
});
