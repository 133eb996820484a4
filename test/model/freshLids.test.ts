import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  assignByKeys,
  CLAIMS_IN_WASM,
  contextKeys,
  contextKeysOf,
  freshLids,
  lookupBudget,
  settledByKeys,
} from '../../src/model/freshLids.js';
import { hashLines, type LineHashes } from '../../src/model/hash.js';
import { candidate, hasLetter, lidLengthFor, lidToString } from '../../src/model/lid.js';
import { buildIndex } from '../../src/model/lineIndex.js';
import { splitLines } from '../../src/model/lines.js';
import { CALL_LINES, claimMemory } from '../../src/model/wasmClaims.js';
import { applyModelOp, modelLines, modelOp, surroundings } from '../support/lidModel.js';
import { runs } from '../support/runs.js';

const hashesOf = (contents: readonly string[]) =>
  hashLines(splitLines(Buffer.from(contents.map((c) => `${c}\n`).join(''))));
const fresh = (contents: readonly string[]) => Array.from(buildIndex(hashesOf(contents)).lids, lidToString);
/** Checks that contextKeysOf keys lines from..to-1 as contextKeys does over the whole file. */
function expectKeysAsWhole(hashes: LineHashes, from: number, to: number, budget = lookupBudget()): void {
  const all = contextKeys(hashes);
  const some = contextKeysOf(hashes, from, to, budget);
  expect(Array.from(some.h1)).toEqual(Array.from(all.h1.subarray(from, to)));
  expect(Array.from(some.h2)).toEqual(Array.from(all.h2.subarray(from, to)));
}

const F_JS = [
  'function a() {',
  '  return 1;',
  '}',
  'function b() {',
  '  return 2;',
  '}',
  'function c() {',
  '  return 3;',
  '}',
];

describe('fresh LIDs of repeated lines come from their surroundings, not their rank', () => {
  it(
    "keeps b's and c's braces when a's function is deleted (the defect of rank: b's brace took a's LID, c's " +
      "took b's)",
    () => {
      const before = fresh(F_JS);
      const after = fresh(F_JS.slice(3));
      expect(after).toEqual(before.slice(3));
      expect(new Set(before).size).toBe(9);
    },
  );

  it('gives none of a run of equal lines an old LID once the run lost one: the bytes do not say which went', () => {
    const before = fresh(['x', '}', '}', '}', 'y']);
    const after = fresh(['x', '}', '}', 'y']);
    expect(after[0]).toBe(before[0]);
    expect(after[3]).toBe(before[4]);
    for (const lid of after.slice(1, 3)) expect(before.slice(1, 4)).not.toContain(lid);
  });

  it('keeps the LID of a line moved unchanged whose content occurs once (an import sort)', () => {
    const before = fresh(['import c;', 'import a;', 'import b;', '', 'run();']);
    const after = fresh(['import a;', 'import b;', 'import c;', '', 'run();']);
    expect(after[2]).toBe(before[0]);
    expect(after.slice(0, 2)).toEqual(before.slice(1, 3));
  });

  it(
    'settles a clash of first candidates by content, not by ' +
      'order: neither line of a clash keeps the contested LID',
    () => {
      // Two keys whose first 4-character candidates are the same value (the low 20 bits of the first half).
      const a: [number, number] = [0x12345, 7];
      const b: [number, number] = [0x12345 + (1 << 20), 9];
      const both = assignByKeys({ h1: Uint32Array.of(a[0], b[0]), h2: Uint32Array.of(a[1], b[1]) }, 4);
      const bAlone = assignByKeys({ h1: Uint32Array.of(b[0]), h2: Uint32Array.of(b[1]) }, 4);
      const aAlone = assignByKeys({ h1: Uint32Array.of(a[0]), h2: Uint32Array.of(a[1]) }, 4);
      expect(aAlone[0]).toBe(bAlone[0]); // the clash
      expect(both).not.toContain(aAlone[0]);
      // Deleting either line of the clash hands the other no LID the pair had shown.
      expect(Array.from(both)).not.toContain(bAlone[0]);
      expect(both[0]).not.toBe(both[1]);
    },
  );

  it('keys lines the same when counted around a region as when counted over the whole file', () => {
    const content = fc.constantFrom('', '}', '{', 'return x;', 'a', 'b', 'c');
    fc.assert(
      fc.property(fc.array(content, { maxLength: 120 }), fc.nat(), fc.nat(), (lines, x, y) => {
        const from = lines.length ? x % lines.length : 0;
        expectKeysAsWhole(hashesOf(lines), from, Math.min(lines.length, from + (y % 6)));
      }),
      { numRuns: runs(1000) },
    );
  });

  it(
    'keys lines the same when each is looked up in the file as when counted over the whole file: unique lines, ' +
      "long runs, the lookups' limit",
    () => {
      // Mostly unique lines (each one's content looked up), runs of repeated ones of any length
      // (a stretch reaching beyond the lookups' limit is counted instead), at either edge.
      const line = fc.oneof(
        fc.nat(1_000_000).map((k) => `unique ${k}`),
        fc.constantFrom('', '}', '{'),
        fc.array(fc.constant(''), { minLength: 2, maxLength: 30 }).map((run) => run.join('\n')),
      );
      fc.assert(
        fc.property(fc.array(line, { maxLength: 60 }), fc.nat(), fc.nat(), (parts, x, y) => {
          const lines = parts.length ? parts.join('\n').split('\n') : [];
          const from = lines.length ? x % lines.length : 0;
          expectKeysAsWhole(hashesOf(lines), from, Math.min(lines.length, from + (y % 4)));
        }),
        { numRuns: runs(2000) },
      );
    },
  );

  it(
    'keys lines the same by lookups as counted over the whole file when fingerprints share their first hash, at ' +
      "the lookups' limit and at the edges",
    () => {
      // Fingerprints made directly: h1 from few values, so that lines of one h1 differ in h2.
      const sameKeys = (h1: readonly number[], h2: readonly number[], budget = lookupBudget) => {
        const hashes = { h1: Uint32Array.from(h1), h2: Uint32Array.from(h2) };
        for (let from = 0; from <= h1.length; from++)
          for (let to = from; to <= Math.min(h1.length, from + 14); to++) expectKeysAsWhole(hashes, from, to, budget());
      };
      fc.assert(
        fc.property(fc.array(fc.tuple(fc.nat(3), fc.nat(3)), { maxLength: 30 }), (pairs) =>
          sameKeys(
            pairs.map((p) => p[0]),
            pairs.map((p) => p[1]),
          ),
        ),
        { numRuns: runs(200) },
      );
      // A stretch of 0 to 20 equal lines, bounded by unique lines or the file's edges, its content
      // (and another of its h1) repeated at the end: 12 lookups exactly, and one more.
      for (let length = 0; length <= 20; length++)
        for (let pad = 0; pad <= 1; pad++) {
          const h1 = [
            ...Array<number>(pad).fill(100),
            ...Array<number>(length).fill(5),
            ...Array<number>(pad).fill(200),
            5,
            5,
          ];
          const h2 = [
            ...Array<number>(pad).fill(100),
            ...Array<number>(length).fill(5),
            ...Array<number>(pad).fill(200),
            9,
            5,
          ];
          sameKeys(h1, h2);
          sameKeys(h1, h2, () => ({ lookups: 0 })); // a budget spent: counted
        }
    },
  );

  it("spends one budget of lookups over an edit's runs: a run whose stretch needs more leaves none to the next", () => {
    const h1 = Uint32Array.from({ length: 100 }, (_, i) => ((i >= 40 && i < 60) || i >= 95 ? 7 : 1000 + i));
    const h2 = Uint32Array.from(h1);
    const budget = lookupBudget();
    contextKeysOf({ h1, h2 }, 10, 11, budget); // a unique line: one lookup
    expect(budget.lookups).toBe(11);
    contextKeysOf({ h1, h2 }, 50, 51, budget); // in a stretch of 20 repeated lines: more than 11
    expect(budget.lookups).toBe(0);
  });

  it(
    'never gives, in a fresh reading after any one change, an old LID ' +
      'to another line than its own unless the two are indistinguishable',
    () => {
      // Few contents, so that repeated lines are the rule; a model line keeps its identity until changed.
      const content = fc.constantFrom('', '}', '{', 'return x;', 'a', 'b', '  x = 1;', 'c', 'd');
      const op = modelOp(content);
      let checked = 0;
      let excused = 0;
      fc.assert(
        fc.property(fc.array(content, { maxLength: 40 }), fc.array(op, { maxLength: 12 }), (initial, ops) => {
          let model = modelLines(initial);
          // Every LID printed so far: the line it named and what told that line apart then.
          const printed = new Map<string, { id: number; content: string; around: string }>();
          const read = () => {
            const contents = model.map((l) => l.content);
            // 6-character LIDs: what is tested is the keys; with 4 characters (20 bits), a key new to
            // the file may take a retired line's LID by chance, about once in 2^20 / (lines) readings,
            // which only saved state (the retired LIDs) rules out.
            const lids = Array.from(assignByKeys(contextKeys(hashesOf(contents)), 6), lidToString);
            expect(new Set(lids).size).toBe(lids.length);
            lids.forEach((lid, i) => {
              const line = model[i]!;
              const was = printed.get(lid);
              if (was && was.id !== line.id) {
                checked++;
                // Another line has it: allowed only when indistinguishable (same content, same stretch).
                expect(was.content).toBe(line.content);
                expect(surroundings(contents, i)).toBe(was.around);
                excused++;
              }
              printed.set(lid, { id: line.id, content: line.content, around: surroundings(contents, i) });
            });
          };
          read();
          for (const o of ops) {
            model = applyModelOp(model, o);
            read();
          }
        }),
        { numRuns: process.env.RT_RUNS ? Number(process.env.RT_RUNS) : runs(2000) },
      );
      expect(excused).toBeLessThanOrEqual(checked);
    },
  );
});

describe("assignByKeys settles clashes so that no line takes another line's LID", () => {
  // Keys whose candidates collide often: first halves from a small range, so clashes at every level abound.
  const key = fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }));
  const assign = (ks: ReadonlyArray<[number, number]>) =>
    assignByKeys({ h1: Uint32Array.from(ks, ([a]) => a * 4099), h2: Uint32Array.from(ks, ([, b]) => b * 8191) }, 4);

  it('a line added never takes the LID a line already there holds (it stays or both move on)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(key, { maxLength: 40, selector: ([a, b]) => `${a},${b}` }), key, (keys, added) => {
        if (keys.some(([a, b]) => a === added[0] && b === added[1])) return;
        const before = assign(keys);
        const after = assign([...keys, added]);
        expect(new Set(after).size).toBe(after.length);
        expect(Array.from(before)).not.toContain(after[keys.length]);
      }),
      { numRuns: runs(3000) },
    );
  });

  it('a line removed never hands its LID to another line', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(key, { minLength: 1, maxLength: 40, selector: ([a, b]) => `${a},${b}` }),
        fc.nat(),
        (keys, which) => {
          const gone = which % keys.length;
          const before = assign(keys);
          const after = assign(keys.filter((_, i) => i !== gone));
          expect(Array.from(after)).not.toContain(before[gone]);
        },
      ),
      { numRuns: runs(3000) },
    );
  });

  it('a line that changed never takes the LID of a line its old content had moved off its first candidate', () => {
    // X and W clash on their first candidates, so X holds its second; W then changes to Z,
    // whose first candidate is X's second. X goes back to its first, and still reserves its
    // second: Z does not take the LID X had.
    const cand = (a: number, b: number, k: number) => {
      const out: number[] = [];
      for (let j = 0; out.length <= k; j++) {
        const c = candidate(a, b, j, 4);
        if (hasLetter(c, 4)) out.push(c);
      }
      return out[k]!;
    };
    const X: [number, number] = [1000, 777];
    const W: [number, number] = [cand(...X, 0) + (1 << 20) * 3, 4242];
    expect(cand(...W, 0)).toBe(cand(...X, 0));
    const Z: [number, number] = [cand(...X, 1) + (1 << 20) * 5, 999];
    expect(cand(...Z, 0)).toBe(cand(...X, 1));
    const assign4 = (ks: ReadonlyArray<[number, number]>) =>
      assignByKeys({ h1: Uint32Array.from(ks, ([a]) => a), h2: Uint32Array.from(ks, ([, b]) => b) }, 4);
    const before = assign4([X, W]);
    expect(before[0]).toBe(cand(...X, 1));
    const after = assign4([X, Z]);
    expect(after[1]).not.toBe(before[0]);
  });
});

/** Fingerprints of `n` lines drawn from `contents` contents (many repeated), from a fixed seed. */
function synthetic(n: number, contents: number, from = 12345): LineHashes {
  const h1 = new Uint32Array(n);
  const h2 = new Uint32Array(n);
  let seed = from;
  for (let i = 0; i < n; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    const content = seed % contents;
    h1[i] = Math.imul(content ^ 0x5bd1e995, 0x9e3779b1) >>> 0;
    h2[i] = Math.imul(content + 0x27d4eb2f, 0x85ebca6b) >>> 0;
  }
  return { h1, h2 };
}

describe("a big file's fresh LIDs do not depend on how its claims and repeats are counted", () => {
  const digestOf = (lids: Uint32Array) => createHash('sha256').update(lids).digest('hex').slice(0, 16);

  // The digests are those of LIDs given before the sieve and the first claims were made to hold
  // less memory (the sieve's working arrays reused for the keys, 5-character claims counted in
  // file order): every LID stays what it was, at every length and in a sieve of several parts.
  it('gives the LIDs it gave, at 4, 5 and 6 characters', () => {
    const hashes = synthetic(20_000, 12_000);
    const keys = contextKeys(hashes);
    expect([4, 5, 6].map((length) => digestOf(assignByKeys(keys, length)))).toMatchInlineSnapshot(`
      [
        "2ade33c6b5c73072",
        "11ab6f2f4e5331a7",
        "3056d5961eaf777b",
      ]
    `);
  });

  it('gives the LIDs it gave to a file of 600,000 lines (a sieve of two parts)', () => {
    const hashes = synthetic(600_000, 500_000);
    expect(digestOf(buildIndex(hashes).lids)).toMatchInlineSnapshot(`"73a2aade7e4c1143"`);
  });
});

describe("a big file's first claims taken in WebAssembly give the LIDs JavaScript gives", () => {
  /** JavaScript's claims (the reference) against WebAssembly's, for every file however small. */
  const expectSameLids = (hashes: LineHashes): void => {
    // Where WebAssembly cannot be had freshLids takes JavaScript's claims, which would be compared with themselves.
    const n = hashes.h1.length;
    expect(claimMemory(n, lidLengthFor(n))).toBeDefined();
    expect(Array.from(freshLids(hashes, 0))).toEqual(Array.from(freshLids(hashes, Number.POSITIVE_INFINITY)));
  };
  // Many repeated lines (blank lines, braces), some unique ones, and runs of blank lines.
  const line = fc.oneof(
    fc.nat(1_000_000).map((k) => `unique ${k}`),
    fc.constantFrom('', '}', '{', '  }', 'return;'),
    fc.array(fc.constant(''), { minLength: 2, maxLength: 30 }).map((run) => run.join('\n')),
  );

  it("on random files of repeated lines, of every size up to past the small files' tables", () => {
    // The count of parts drawn first, evenly (some 3 lines a part, so up to some 10,000 lines): an array
    // left to fast-check's size would hold a few parts, never the 4,096 lines past the small tables.
    const parts = fc
      .noBias(fc.integer({ min: 0, max: 3000 }))
      .chain((count) => fc.array(line, { minLength: count, maxLength: count }));
    fc.assert(
      fc.property(parts, (drawn) => expectSameLids(hashesOf(drawn))),
      { numRuns: runs(60) },
    );
  });

  it('on keys whose candidates clash at every level, at 4 and 5 characters', () => {
    const key = fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }));
    fc.assert(
      fc.property(fc.array(key, { maxLength: 300 }), fc.constantFrom(4, 5), (pairs, length) => {
        const n = pairs.length;
        const h1 = Uint32Array.from(pairs, ([a]) => a * 4099);
        const h2 = Uint32Array.from(pairs, ([, b]) => b * 8191);
        const memory = claimMemory(n, length);
        if (!memory) throw new Error('no WebAssembly');
        memory.keys.set(h1);
        memory.keys.set(h2, n);
        const inWasm = memory.lidsOf(new Uint32Array(n));
        expect(Array.from(inWasm)).toEqual(Array.from(assignByKeys({ h1, h2 }, length)));
      }),
      { numRuns: runs(500) },
    );
  });

  it('on keys sharing their first candidates, whose clashes take several rounds, at 4 and 5 characters', () => {
    // Few first halves: lines clash at their first candidates, and part at their next ones unless
    // their second halves are equal too (a few are): those clash at every level.
    const key = fc.tuple(fc.integer({ min: 0, max: 63 }), fc.oneof(fc.nat(), fc.integer({ min: 0, max: 3 })));
    const keys = fc.array(key, { maxLength: 3000, size: 'large' });
    fc.assert(
      fc.property(keys, fc.constantFrom(4, 5), (pairs, length) => {
        const n = pairs.length;
        const h1 = Uint32Array.from(pairs, ([a]) => a * 0x10001);
        const h2 = Uint32Array.from(pairs, ([, b]) => b);
        const memory = claimMemory(n, length);
        if (!memory) throw new Error('no WebAssembly');
        memory.keys.set(h1);
        memory.keys.set(h2, n);
        expect(Array.from(memory.lidsOf(new Uint32Array(n)))).toEqual(Array.from(assignByKeys({ h1, h2 }, length)));
      }),
      { numRuns: runs(100) },
    );
  });

  it("settles the clashes of JavaScript's first claims as the reference does, at 4, 5 and 6 characters", () => {
    const key = fc.tuple(fc.integer({ min: 0, max: 63 }), fc.oneof(fc.nat(), fc.integer({ min: 0, max: 3 })));
    const keys = fc.array(key, { maxLength: 3000, size: 'large' });
    fc.assert(
      fc.property(keys, fc.constantFrom(4, 5, 6), (pairs, length) => {
        const h1 = Uint32Array.from(pairs, ([a]) => a * 0x10001);
        const h2 = Uint32Array.from(pairs, ([, b]) => b);
        expect(Array.from(settledByKeys({ h1, h2 }, length))).toEqual(Array.from(assignByKeys({ h1, h2 }, length)));
      }),
      { numRuns: runs(100) },
    );
    // Past the small files' tables: the first claims' bitmap, which the rounds add to, with keys
    // chained into each other's candidates so that clashes last many rounds.
    const big = fc.record({
      n: fc.integer({ min: 4096, max: 6000 }),
      seed: fc.nat(),
      kinds: fc.integer({ min: 1, max: 64 }),
    });
    fc.assert(
      fc.property(big, fc.constantFrom(4, 5, 6), ({ n, seed, kinds }, length) => {
        let x = seed | 1;
        const next = () => {
          x ^= x << 13;
          x ^= x >>> 17;
          x ^= x << 5;
          return x >>> 0;
        };
        const h1 = new Uint32Array(n);
        const h2 = new Uint32Array(n);
        for (let i = 0; i < n; i++) {
          h1[i] = (next() % kinds) * 0x10001 + (next() % 4 === 0 ? i : 0);
          h2[i] = next() % 3 === 0 ? next() % 4 : next();
        }
        expect(Array.from(settledByKeys({ h1, h2 }, length))).toEqual(Array.from(assignByKeys({ h1, h2 }, length)));
      }),
      { numRuns: runs(12) },
    );
    // A file of 6-character LIDs (over 3,000,000 lines) takes these, where WebAssembly would refuse it.
    const hashes = synthetic(20_000, 12_000);
    const reference = assignByKeys(contextKeys(hashes), 6);
    expect(Array.from(settledByKeys(contextKeys(hashes), 6))).toEqual(Array.from(reference));
  });

  it('around the sizes where the small tables and WebAssembly take over', () => {
    for (const n of [4095, 4096, 4097, CLAIMS_IN_WASM - 1, CLAIMS_IN_WASM, CLAIMS_IN_WASM + 1, 100_001]) {
      expectSameLids(synthetic(n, Math.ceil(n / 2), 777));
      expectSameLids(synthetic(n, 40, 777));
    }
  });

  it('refuses 6-character LIDs, whose bitmap would take 128 MiB (JavaScript sorts their claims)', () => {
    expect(claimMemory(10, 6)).toBeUndefined();
  });
});

describe("a big file's keys written in WebAssembly are contextKeys'", () => {
  /** The first word where two arrays differ, or -1. */
  const firstDifference = (a: Uint32Array, b: Uint32Array): number => {
    if (a.length !== b.length) return Math.min(a.length, b.length);
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
    return -1;
  };
  /** contextKeys (the reference) against writeKeys, at `length` characters. */
  const expectSameKeys = (hashes: LineHashes, length = 5): void => {
    const n = hashes.h1.length;
    const memory = claimMemory(n, length);
    if (!memory) throw new Error('no WebAssembly');
    memory.writeKeys(hashes);
    const reference = contextKeys(hashes);
    expect(firstDifference(memory.keys.subarray(0, n), reference.h1)).toBe(-1);
    expect(firstDifference(memory.keys.subarray(n, 2 * n), reference.h2)).toBe(-1);
  };
  // A content's fingerprints: a few common contents (braces, blank lines), their twins (the same
  // first fingerprint, another second: the sieve and the table's first test pass them), and
  // unique ones.
  const COMMON = 6;
  const fingerprints = (content: number): [number, number] => {
    const base = content >= 100 && content < 100 + COMMON ? content - 100 : content;
    return [Math.imul(base ^ 0x5bd1e995, 0x9e3779b1) >>> 0, Math.imul(content + 0x27d4eb2f, 0x85ebca6b) >>> 0];
  };
  const hashesOfContents = (contents: readonly number[]): LineHashes => {
    const h1 = new Uint32Array(contents.length);
    const h2 = new Uint32Array(contents.length);
    contents.forEach((c, i) => ([h1[i], h2[i]] = fingerprints(c)));
    return { h1, h2 };
  };
  /** `n` lines, each common with odds `common` (in runs of up to `run`), else unique, from `seed`. */
  const drawn = (n: number, common: number, run: number, seed: number): LineHashes => {
    let x = seed | 1;
    const next = () => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return (x >>> 0) / 2 ** 32;
    };
    const contents: number[] = [];
    let unique = 1000;
    while (contents.length < n) {
      if (next() < common) {
        const length = 1 + Math.floor(next() * run);
        for (let j = 0; j < length && contents.length < n; j++) {
          const c = Math.floor(next() * COMMON);
          contents.push(next() < 0.05 ? 100 + c : c);
        }
      } else contents.push(unique++);
    }
    return hashesOfContents(contents);
  };

  it('on random files of repeated lines, runs of them at the edges, all of them and none', () => {
    const segment = fc.oneof(
      fc.integer({ min: 0, max: COMMON - 1 }).map((c) => [c]),
      fc.integer({ min: 100, max: 100 + COMMON - 1 }).map((c) => [c]),
      fc.array(fc.integer({ min: 0, max: COMMON - 1 }), { minLength: 2, maxLength: 40 }),
      fc.integer({ min: 1000, max: 1_000_000 }).map((c) => [c]),
    );
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 400 }), fc.constantFrom(4, 5), (segments, length) => {
        expectSameKeys(hashesOfContents(segments.flat()), length);
      }),
      { numRuns: runs(200) },
    );
    for (const n of [0, 1, 2, 3, 100]) {
      expectSameKeys(drawn(n, 1, 40, 5));
      expectSameKeys(drawn(n, 0, 1, 5));
    }
  });

  it('around the lines of a call, stretches crossing from one call into the next', () => {
    const sizes = [CALL_LINES - 1, CALL_LINES, CALL_LINES + 1, 2 * CALL_LINES + 3];
    fc.assert(
      fc.property(
        fc.constantFrom(...sizes),
        fc.constantFrom(0, 0.1, 0.5, 0.9, 1),
        fc.constantFrom(1, 8, 200),
        fc.nat(),
        (n, common, run, seed) => expectSameKeys(drawn(n, common, run, seed)),
      ),
      { numRuns: runs(20) },
    );
    // A stretch across the first call's end, and one to the file's end.
    const contents = Array.from({ length: 2 * CALL_LINES + 5 }, (_, i) => 1000 + i);
    for (let i = CALL_LINES - 3; i < CALL_LINES + 4; i++) contents[i] = i % 2;
    for (let i = contents.length - 4; i < contents.length; i++) contents[i] = 2;
    contents[0] = 2;
    expectSameKeys(hashesOfContents(contents));
  });

  it("with more lines sharing a bucket than the claims' bitmap holds as a table, and a sieve of fewer bits", () => {
    // 4 characters: a bitmap of 128 KiB, a table of 32,768 slots; 200,000 lines sieved on 20 bits.
    expectSameKeys(drawn(40_000, 1, 40, 9), 4);
    expectSameKeys(drawn(200_000, 0.5, 8, 11), 4);
    expectSameKeys(drawn(70_000, 0.3, 8, 13), 5);
    // Six contents of some 33,000 lines each: parts whose table is too big for the bitmap, one
    // after another in the room past the flags.
    expectSameKeys(drawn(200_000, 1, 40, 17), 4);
  });

  it("with a part's table past the flags after another's: no entry of the earlier part kept", () => {
    // Part 0's twins fill half of its 131,072 slots past the flags; part 1's, in the same room,
    // would find every slot of its 65,536 held by part 0's entries were they not cleared (and
    // probe forever). X: imul(X, 0x9e3779b1) is 32,768 modulo 2^17, so each twin pair shares a slot.
    let inverse = 1;
    for (let i = 0; i < 5; i++) inverse = Math.imul(inverse, 2 - Math.imul(0x9e3779b1, inverse));
    const x = Math.imul(32_768, inverse) & 0x1ffff;
    const h1: number[] = [];
    const h2: number[] = [];
    for (let j = 0; j < 32_768; j++) h1.push(j, j), h2.push(0, x);
    for (let j = 0; j < 16_384; j++) h1.push((1 << 29) | j, (1 << 29) | j), h2.push(0, x);
    expectSameKeys({ h1: Uint32Array.from(h1), h2: Uint32Array.from(h2) }, 4);
  }, 60_000);

  it('on contents sharing h1 and the low bits of h2, each once (unique: keyed by their fingerprints)', () => {
    // Twins in the same slot of the exact table, amid unique lines and a stretch, one pair across
    // a call's end and one on the last line: only the second fingerprint tells them apart.
    const n = 70_000;
    const h1 = new Uint32Array(n);
    const h2 = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      h1[i] = Math.imul(i + 1, 0x9e3779b1) >>> 0;
      h2[i] = Math.imul(i + 7, 0x85ebca6b) >>> 0;
    }
    for (const [x, y] of [
      [10, 20],
      [CALL_LINES - 1, CALL_LINES],
      [40_000, n - 1],
    ] as const) {
      h1[y] = h1[x]!;
      h2[y] = (h2[x]! ^ 0x80000000) >>> 0;
    }
    h1[100] = h1[101] = 5;
    h2[100] = h2[101] = 6;
    expectSameKeys({ h1, h2 }, 4);
    expectSameKeys({ h1, h2 }, 5);
  });
});

describe("a small file's fresh LIDs do not depend on the files read before it in the process", () => {
  // A search reads thousands of small files, whose sieve and claims take the process's tables
  // (emptied for each): any claim or repeat left there from another file would move LIDs.
  it("gives each file the LIDs of WebAssembly's claims, read once, again, and after other files", () => {
    const files = [
      hashesOf(F_JS),
      synthetic(40, 30, 1),
      synthetic(900, 400, 2),
      synthetic(3000, 20, 3),
      hashesOf(['', '}', '', '}', 'a', 'a']),
    ];
    const reference = files.map((h) => Array.from(freshLids(h, 0)));
    for (const order of [
      [0, 0, 1, 1, 0],
      [2, 1, 0, 3, 4, 4, 1],
      [3, 3, 2, 4, 0, 2],
    ])
      for (const k of order) expect(Array.from(freshLids(files[k]!, Number.POSITIVE_INFINITY))).toEqual(reference[k]);
  });
});
