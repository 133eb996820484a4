// Line fingerprints: two 32-bit hashes of each line's content bytes.
//
// h1 is FNV-1a; h2 sums FNV's running state at every byte, so it depends on the whole path the
// state took, not only on where it ended (one multiply per byte buys both). Together they act as
// a 64-bit fingerprint: the line diff compares fingerprints instead of keeping every old line's
// text in the index, and takes two different lines for the same one with negligible odds.

import type { FileLines } from './lines.js';
import { hashLong } from './wasmHash.js';

export interface LineHashes {
  readonly h1: Uint32Array;
  readonly h2: Uint32Array;
}

/** Fingerprints every line's content (line endings excluded). */
export function hashLines(lines: FileLines): LineHashes {
  const { bytes, starts, contentEnds, count } = lines;
  const h1 = new Uint32Array(count);
  const h2 = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    h1[i] = hashRange(bytes, starts[i]!, contentEnds[i]!);
    h2[i] = secondHash;
  }
  return { h1, h2 };
}

/**
 * Fingerprints the line starting at `start` of bytes that run to `end` (its content: up to its
 * `\n`, and without a `\r` right before it; a last line without `\n` runs to `end`, a `\r` there
 * kept), at `at` of h1 and h2 as hashLines gives it. Returns where its `\n` is, or `end`. One pass
 * both finds the line's end and hashes it: a reader of a big file calls nothing else a line.
 */
export function hashLineAt(
  bytes: Uint8Array,
  start: number,
  end: number,
  h1: Uint32Array,
  h2: Uint32Array,
  at: number,
): number {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  // The state before the last byte: the content's, should that byte be a \r ending it.
  let beforeA = a;
  let beforeB = b;
  let p = start;
  for (; p < end; p++) {
    const byte = bytes[p]!;
    if (byte === 0x0a) break;
    beforeA = a;
    beforeB = b;
    a = Math.imul(a ^ byte, 0x01000193);
    b = (b + a) | 0;
  }
  let length = p - start;
  if (p < end && length > 0 && bytes[p - 1] === 0x0d) {
    a = beforeA;
    b = beforeB;
    length--;
  }
  h1[at] = fmix32(a ^ length) >>> 0;
  h2[at] = fmix32(b ^ Math.imul(length, 0x5bd1e995)) >>> 0;
  return p;
}

/** Fingerprint of one byte string, the same as hashLines gives for a line with that content. */
export function hashBytes(content: Uint8Array): [number, number] {
  const first = hashRange(content, 0, content.length);
  return [first, secondHash];
}

// hashRange returns the first hash and leaves the second here, to avoid allocating per line.
let secondHash = 0;

/**
 * Lines this long or longer are hashed in WebAssembly (see hashLong), where WebAssembly can be had:
 * below it, JavaScript's loop, optimised after the first lines, costs less than the module's setup.
 */
export const LONG_LINE = 256 << 10;

/** FNV-1a's state and the sum of its states, carried through hashLong. */
const chain = new Int32Array(2);

/**
 * The chain over start..end in JavaScript, from and into `chain`. A function of its own, its state
 * read from 32-bit words: with the loop in hashRange beside the call to hashLong, V8 ran lines of
 * 150-255 KiB at some 4 ns a byte (1.8 times main's first open of a file of them); here, at 1.2,
 * faster than hashRange's own loop ever ran them (a file of 250 KiB lines: 0.37 -> 0.21 s).
 */
function chainJs(bytes: Uint8Array, start: number, end: number): void {
  let a = chain[0]!;
  let b = chain[1]!;
  for (let p = start; p < end; p++) {
    a = Math.imul(a ^ bytes[p]!, 0x01000193);
    b = (b + a) | 0;
  }
  chain[0] = a;
  chain[1] = b;
}

function hashRange(bytes: Uint8Array, start: number, end: number): number {
  chain[0] = 0x811c9dc5; // FNV-1a
  chain[1] = 0x9747b28c; // the sum of FNV's states
  // (hashLong leaves the chain as it was where it cannot run.)
  if (end - start < LONG_LINE || !hashLong(bytes, start, end, chain)) chainJs(bytes, start, end);
  const a = chain[0]!;
  const b = chain[1]!;
  secondHash = fmix32(b ^ Math.imul(end - start, 0x5bd1e995)) >>> 0;
  return fmix32(a ^ (end - start)) >>> 0;
}

/** MurmurHash3's finaliser: spreads every input bit over the whole word. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}

/** Hex name for a string, used to name state files (not a security boundary). */
export function hashString(text: string): string {
  const [a, b] = hashBytes(Buffer.from(text, 'utf8'));
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}
