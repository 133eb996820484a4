// 64-bit digests of bytes, 32-bit words and text: two 32-bit lanes with MurmurHash3's mixing
// (each taking every other word), crossed and finished with its avalanche step. They tell damaged or changed data
// from the data they were taken of (a chance of 2^-64 of missing a change), which is all rt's
// state needs; they are not meant to resist someone forging a collision. They are plain
// JavaScript so that no run has to load the crypto module, and on words they run at about the
// speed of sha256 in C.

import { fmix32 } from './hash.js';

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;
const D1 = 0x85ebca6b;
const D2 = 0xc2b2ae35;

/**
 * Digest of `words[from..to)` (all of them by default), as 16 hex digits. Lane a takes the even words, lane b the odd
 * ones.
 */
export function digestWords(words: Uint32Array | Int32Array, from = 0, to = words.length, seed = 0): string {
  let a = seed ^ WORDS_A;
  let b = seed ^ WORDS_B;
  let i = from;
  for (; i + 1 < to; i += 2) {
    let k = Math.imul(words[i]!, C1);
    k = Math.imul((k << 15) | (k >>> 17), C2);
    a ^= k;
    a = (Math.imul((a << 13) | (a >>> 19), 5) + 0xe6546b64) | 0;
    let m = Math.imul(words[i + 1]!, D1);
    m = Math.imul((m << 16) | (m >>> 16), D2);
    b ^= m;
    b = (Math.imul((b << 17) | (b >>> 15), 5) + 0x561ccd1b) | 0;
  }
  if (i < to) {
    let k = Math.imul(words[i]!, C1);
    k = Math.imul((k << 15) | (k >>> 17), C2);
    a ^= k;
  }
  return finish(a, b, to - from);
}

/** Digest of a byte string (its 32-bit words in the machine's byte order, then its last 0-3 bytes). */
export function digestBytes(bytes: Uint8Array): string {
  const whole = bytes.length >>> 2;
  // Unaligned bytes are copied (new Uint8Array(view) copies; a Buffer's slice would not, and its
  // .buffer is the whole pool it lies in).
  const words =
    bytes.byteOffset % 4 === 0
      ? new Uint32Array(bytes.buffer, bytes.byteOffset, whole)
      : new Uint32Array(new Uint8Array(bytes.subarray(0, whole * 4)).buffer);
  let tail = 0;
  for (let i = whole * 4; i < bytes.length; i++) tail = (tail << 8) | bytes[i]!;
  return digestWords(words, 0, whole, bytesSeed(bytes.length, tail));
}

/** Where digestWords starts its lanes a and b (each XORed with the seed). */
export const WORDS_A = 0x3c6ef372;
export const WORDS_B = 0x5be0cd19;

/** The seed of digestBytes' words: from the bytes' length and their last 0-3 bytes (`tail`, big-endian). */
export function bytesSeed(length: number, tail: number): number {
  return Math.imul(length, 0x9e3779b1) ^ tail;
}

/** Digest of text (its UTF-16 code units): digestWords of them, read from the string without copying them out. */
export function digestText(text: string): string {
  const a = textLanes(text, TEXT_A, TEXT_B);
  return finish(a, laneB, text.length);
}

/** Where digestText starts its lanes a and b. */
export const TEXT_A = 0x27d4eb2f ^ 0x3c6ef372;
export const TEXT_B = 0x27d4eb2f ^ 0x5be0cd19;

/** The digest of `n` code units whose lanes ended as `a` and `b` (taken elsewhere: see src/model/wasmDigest.ts). */
export function digestOfLanes(a: number, b: number, n: number): string {
  return finish(a, b, n);
}

/** Lane b as textLanes left it. */
let laneB = 0;

/**
 * The lanes of digestText: a returned, b left in laneB. A loop alone in its function, and the
 * odd last code unit mixed by the loop itself: V8 compiles the loop of a long text while it runs
 * (on-stack replacement), before anything after the loop has run and given it type feedback, and
 * such code was sent back to the interpreter at its end on every later call, thousands of times a
 * search. Here, what follows the loop needs none.
 */
function textLanes(text: string, a: number, b: number): number {
  const to = text.length;
  for (let i = 0; i < to; i += 2) {
    let k = Math.imul(text.charCodeAt(i), C1);
    k = Math.imul((k << 15) | (k >>> 17), C2);
    a ^= k;
    if (i + 1 === to) break;
    a = (Math.imul((a << 13) | (a >>> 19), 5) + 0xe6546b64) | 0;
    let m = Math.imul(text.charCodeAt(i + 1), D1);
    m = Math.imul((m << 16) | (m >>> 16), D2);
    b ^= m;
    b = (Math.imul((b << 17) | (b >>> 15), 5) + 0x561ccd1b) | 0;
  }
  laneB = b;
  return a;
}

function finish(a: number, b: number, n: number): string {
  a ^= n;
  b ^= n;
  a = (a + b) | 0;
  b = (b + a) | 0;
  a = fmix32(a);
  b = fmix32(b);
  a = (a + b) | 0;
  b = (b + a) | 0;
  return hex8(a) + hex8(b);
}

/** Two hex digits of each byte: a digest is taken of every index head and view read, thousands a search. */
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

function hex8(h: number): string {
  return HEX[h >>> 24]! + HEX[(h >>> 16) & 0xff]! + HEX[(h >>> 8) & 0xff]! + HEX[h & 0xff]!;
}
