// The rounds that settle a big file's clashing fresh LIDs (see freshLids.ts, assignByKeys) over
// two sets of codes (claimed at least once, at least twice: the first claims' own, a bitmap of
// every code and a table of the few claimed twice, or two bitmaps), with no table of lines: where
// the JavaScript reference keeps the claims made in rounds in maps, the holder of each code
// settled and the set of lines to move on, these rounds read all they need from the two sets and
// from each line's code held.
//
// They give the same LIDs because of what assignByKeys keeps true after every round: the lines
// that move on in the next round are exactly the lines whose code held is claimed more than once
// (a line moved this round, or one holding a code a reserve of this round claimed again, which is
// what its holders and first claims find). And a line's reserve is always the candidate with a
// letter after the one it holds: its place among its candidates is found again from its code.

import type { CodeSet } from './lid.js';

/**
 * Rounds after which lines still clashing (only lines of one key could) take the first free
 * candidate in file order.
 */
export const MAX_LEVELS = 32;

/**
 * Whether a code's value of `length` characters holds a letter (a digit of 10 or more), as
 * lid.ts's hasLetter tells, all digits tested at once, each in its own 5 bits: a digit's top bit,
 * or its low 4 bits and 6 carrying into it (no carry leaves a digit). The loops over every line
 * of a big file run it twice a line (claims.wat does the same).
 */
export function letterTest(length: number): (value: number) => boolean {
  const mask = 2 ** (5 * length) - 1;
  const low = 0x1ef7bdef & mask;
  const six = 0x0c6318c6 & mask;
  const high = 0x21084210 & mask;
  return (value) => (high & (value | ((value & low) + six))) !== 0;
}

/** A file's claims: the codes claimed at least once, at least twice. */
export interface Claims {
  readonly once: CodeSet;
  readonly twice: CodeSet;
}

/**
 * Settles the LIDs (codes of `length` characters) of a file whose first claims are taken: `lids`
 * holds each line's first candidate with a letter, `claims` every line's first two such
 * candidates, and `pending` the lines (in file order) whose code is claimed twice.
 * `holdersOf(codes)` gives, in file order, every line whose code in `lids` is one of `codes`
 * and claimed twice (it may give more of those claimed twice). `moveOn`, when given, makes each
 * round's moves in place of the loops below (in WebAssembly, see wasmClaims.ts).
 */
export function settleClashes(
  k1: Uint32Array,
  k2: Uint32Array,
  lids: Uint32Array,
  length: number,
  claims: Claims,
  pending: Uint32Array,
  holdersOf: (codes: Uint32Array) => Uint32Array,
  moveOn?: MoveOn,
): void {
  const { once, twice } = claims;
  const mask = 2 ** (5 * length) - 1;
  const kind = ((length - 4) << 30) >>> 0;
  const hasLetter = letterTest(length);
  /** The index of the first candidate with a letter after the k-th of line i's. */
  const nextLetter = (i: number, k: number): number => {
    const a = k1[i]!;
    const step = k2[i]! | 1;
    do k++;
    while (!hasLetter((a + Math.imul(k, step)) & mask));
    return k;
  };
  const valueAt = (i: number, k: number) => (k1[i]! + Math.imul(k, k2[i]! | 1)) & mask;
  /** The index among its candidates of the code line i holds. */
  const heldAt = (i: number): number => {
    const held = lids[i]! & mask;
    let k = 0;
    while (valueAt(i, k) !== held) k++;
    return k;
  };
  let moving = pending;
  for (let round = 1; moving.length > 0; round++) {
    if (round > MAX_LEVELS) {
      // The first code nobody claims, after the reserve, line by line in file order (the order the lines move in).
      for (const i of moving) {
        let k = nextLetter(i, nextLetter(i, heldAt(i)));
        while (once.has((kind | valueAt(i, k)) >>> 0)) k = nextLetter(i, k);
        lids[i] = (kind | valueAt(i, k)) >>> 0;
        once.add(lids[i]!);
      }
      return;
    }
    if (moveOn) {
      const { contested, staying } = moveOn(moving);
      moving = contested.length === 0 ? staying : union(staying, holdersOf(contested));
      continue;
    }
    // Each line takes its reserve and reserves the next; a code claimed twice for the first time is
    // listed, unless nobody claimed it before this round: no line holds it then (a line holds only
    // its first code or a reserve of an earlier round), so no holder is looked for. Two lines of
    // keys clashing round after round claim only such codes, and each round would scan every line.
    const reserves = new Uint32Array(moving.length);
    const before = new Uint8Array(moving.length);
    for (let j = 0; j < moving.length; j++) {
      const i = moving[j]!;
      const held = nextLetter(i, heldAt(i));
      lids[i] = (kind | valueAt(i, held)) >>> 0;
      reserves[j] = (kind | valueAt(i, nextLetter(i, held))) >>> 0;
      before[j] = once.has(reserves[j]!) ? 1 : 0;
    }
    const contested = new Uint32Array(moving.length);
    let count = 0;
    for (let j = 0; j < moving.length; j++) {
      const reserve = reserves[j]!;
      if (!once.has(reserve)) once.add(reserve);
      else if (!twice.has(reserve)) {
        twice.add(reserve);
        if (before[j]) contested[count++] = reserve;
      }
    }
    const staying = new Uint32Array(moving.length);
    let stay = 0;
    for (const i of moving) if (twice.has(lids[i]!)) staying[stay++] = i;
    moving =
      count === 0 ? staying.slice(0, stay) : union(staying.subarray(0, stay), holdersOf(contested.subarray(0, count)));
  }
}

/**
 * A round's moves (see settleClashes): each of the lines `moving` (in file order) takes its
 * reserve (in `lids`) and claims the next candidate with a letter; gives the codes claimed twice
 * for the first time that were claimed before the round, and the lines, in file order, whose code
 * is now claimed twice.
 */
export type MoveOn = (moving: Uint32Array) => { contested: Uint32Array; staying: Uint32Array };

/** The lines of two sorted lists, each once, sorted. */
function union(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length || j < b.length) {
    const x = j >= b.length || (i < a.length && a[i]! <= b[j]!) ? a[i++]! : b[j++]!;
    if (n === 0 || out[n - 1] !== x) out[n++] = x;
  }
  return out.slice(0, n);
}
