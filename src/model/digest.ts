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
  const pairsEnd = from + (Math.max(0, to - from) & ~1);
  const a = pairLanes(words, from, pairsEnd, seed ^ WORDS_A, seed ^ WORDS_B);
  return finish(pairsEnd < to ? lastWord(a, words[pairsEnd]!) : a, wordsB, to - from);
}

/** Lane b as pairLanes left it. */
let wordsB = 0;

/**
 * The lanes of digestWords over the pairs of words from..to (an even count), from lanes `a` and
 * `b`: a returned, b left in wordsB.
 */
function pairLanes(words: Uint32Array | Int32Array, from: number, to: number, a: number, b: number): number {
  for (let i = from; i < to; i += 2) {
    let k = Math.imul(words[i]!, C1);
    k = Math.imul((k << 15) | (k >>> 17), C2);
    a ^= k;
    a = (Math.imul((a << 13) | (a >>> 19), 5) + 0xe6546b64) | 0;
    let m = Math.imul(words[i + 1]!, D1);
    m = Math.imul((m << 16) | (m >>> 16), D2);
    b ^= m;
    b = (Math.imul((b << 17) | (b >>> 15), 5) + 0x561ccd1b) | 0;
  }
  wordsB = b;
  return a;
}

/** Lane a after an odd count of words' last word `word`. */
function lastWord(a: number, word: number): number {
  let k = Math.imul(word, C1);
  k = Math.imul((k << 15) | (k >>> 17), C2);
  return a ^ k;
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
  return digestWords(words, 0, whole, bytesSeedOf(bytes, 0, bytes.length));
}

/** Where digestWords starts its lanes a and b (each XORed with the seed). */
export const WORDS_A = 0x3c6ef372;
export const WORDS_B = 0x5be0cd19;

/** The seed of digestBytes' words: from the bytes' length and their last 0-3 bytes (`tail`, big-endian). */
function bytesSeed(length: number, tail: number): number {
  return Math.imul(length, 0x9e3779b1) ^ tail;
}

/** The seed of digestBytes' words of bytes start..end of `bytes` (see bytesSeed). */
export function bytesSeedOf(bytes: Uint8Array, start: number, end: number): number {
  let tail = 0;
  for (let i = start + ((end - start) & ~3); i < end; i++) tail = (tail << 8) | bytes[i]!;
  return bytesSeed(end - start, tail);
}

/** Bytes of parts staged at a time for their digest (see digestParts): an even count of words at most. */
const STAGE_BYTES = 1 << 16;

/**
 * digestBytes of the bytes of `parts` one after the other, without joining them: the words of a
 * part read in place where they lie at a 4-byte boundary of its memory, the others copied through
 * a small buffer (a history step's data, written to its file in parts: see encodeStepData).
 */
export function digestParts(parts: readonly Uint8Array[]): string {
  let length = 0;
  for (const part of parts) length += part.length;
  const whole = length >>> 2;
  // The last 0-3 bytes, which digestBytes folds into its seed.
  let tail = 0;
  let at = 0;
  for (const part of parts) {
    for (let i = Math.max(0, whole * 4 - at); i < part.length; i++) tail = (tail << 8) | part[i]!;
    at += part.length;
  }
  const seed = bytesSeed(length, tail);
  let a = seed ^ WORDS_A;
  let b = seed ^ WORDS_B;
  // No more than the words there are (a small step's data is digested a call of `rt mcp`).
  const stage = new Uint32Array(Math.min(STAGE_BYTES, (whole * 4 + 7) & ~7) / 4);
  const staged = new Uint8Array(stage.buffer);
  let filled = 0;
  // Bytes still to go into words (the tail goes into none).
  let left = whole * 4;
  for (const part of parts) {
    for (let p = 0; p < part.length && left > 0; ) {
      if (filled === 0 && (part.byteOffset + p) % 4 === 0 && left >= 8 && part.length - p >= 8) {
        const words = (Math.min(part.length - p, left) >>> 3) << 1;
        a = pairLanes(new Uint32Array(part.buffer, part.byteOffset + p, words), 0, words, a, b);
        b = wordsB;
        p += words * 4;
        left -= words * 4;
        continue;
      }
      const n = Math.min(part.length - p, staged.length - filled, left);
      staged.set(part.subarray(p, p + n), filled);
      filled += n;
      p += n;
      left -= n;
      if (filled === staged.length) {
        a = pairLanes(stage, 0, stage.length, a, b);
        b = wordsB;
        filled = 0;
      }
    }
  }
  const words = filled >>> 2;
  a = pairLanes(stage, 0, words & ~1, a, b);
  b = wordsB;
  if (words & 1) a = lastWord(a, stage[words - 1]!);
  return finish(a, b, whole);
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
