// LIDs: short, lowercase line IDs derived from a line's content.
//
// An LID is held as a 32-bit code: the top two bits give its length (4, 5 or 6 characters),
// the rest its value, printed as base-32 digits from an alphabet without i, l, o and u (so it
// is never misread). A line's candidates are a fixed sequence of values hashed from its key
// (freshLids.ts: its content, and for a repeated line its surroundings): with no saved state it
// takes the first one that contains a letter and that no other line claims, so every line gets
// the same LID on any machine; a line new to a file with history takes its first candidate
// not in use and not retired.

import { spread } from './intMap.js';

export const LID_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const DIGIT_VALUES = new Int8Array(128).fill(-1);
for (let i = 0; i < LID_ALPHABET.length; i++) DIGIT_VALUES[LID_ALPHABET.charCodeAt(i)] = i;

export const LID_PATTERN = /^[0-9a-hjkmnp-tv-z]{4,6}$/;

/** LID length for a file of `lineCount` lines: 4 characters up to 100,000 lines. */
export function lidLengthFor(lineCount: number): number {
  if (lineCount <= 100_000) return 4;
  if (lineCount <= 3_000_000) return 5;
  return 6;
}

export function lidToString(code: number): string {
  const length = 4 + (code >>> 30);
  const value = code & 0x3fffffff;
  let out = '';
  for (let j = length - 1; j >= 0; j--) out += LID_ALPHABET[(value >>> (5 * j)) & 31];
  return out;
}

/** The code of an LID string, or -1 when the string is not an LID. */
export function parseLid(text: string): number {
  if (!LID_PATTERN.test(text) || !/[a-z]/.test(text)) return -1;
  let value = 0;
  for (let i = 0; i < text.length; i++) value = value * 32 + DIGIT_VALUES[text.charCodeAt(i)]!;
  return (((text.length - 4) << 30) | value) >>> 0;
}

export function isLidText(text: string): boolean {
  return parseLid(text) !== -1;
}

export function hasLetter(value: number, length: number): boolean {
  for (let j = 0; j < length; j++) if (((value >>> (5 * j)) & 31) >= 10) return true;
  return false;
}

/**
 * The k-th candidate code for a line with fingerprint (h1, h2): double hashing, h1 + k·h2 with
 * h2 made odd, so a line's candidates run through the whole space before repeating.
 */
export function candidate(h1: number, h2: number, k: number, length: number): number {
  const value = ((h1 + Math.imul(k, h2 | 1)) >>> 0) & (length === 4 ? 0xfffff : length === 5 ? 0x1ffffff : 0x3fffffff);
  return (((length - 4) << 30) | value) >>> 0;
}

/**
 * A set of LID codes. Codes of 4 and 5 characters live in bitmaps (128 KiB and 4 MiB, made on
 * first use), which beat any hash table at a million lines; 6-character codes (files of more
 * than 3,000,000 lines) in an open-addressing table of 32-bit words.
 */
/** What the allocator needs of the codes in use. */
export interface CodeSet {
  has(code: number): boolean;
  add(code: number): void;
}

/**
 * The codes of a few lists, checked by scanning them: for a handful of lookups (the few new
 * lines of an edit) cheaper than building a LidSet of a big file's every code.
 */
export class ScannedCodes implements CodeSet {
  private readonly added = new Set<number>();

  constructor(private readonly lists: readonly Uint32Array[]) {}

  has(code: number): boolean {
    // indexOf, not includes: V8 scans a typed array for it with SIMD, some four times as fast.
    return this.added.has(code) || this.lists.some((list) => list.indexOf(code) !== -1);
  }

  add(code: number): void {
    this.added.add(code);
  }
}

export class LidSet implements CodeSet {
  private bits4: Uint8Array | undefined;
  private bits5: Uint8Array | undefined;
  private readonly wide = new CodeTable();

  has(code: number): boolean {
    const bits = this.bitsFor(code, false);
    if (bits === null) return this.wide.has(code);
    if (bits === undefined) return false;
    const value = code & 0x3fffffff;
    return (bits[value >>> 3]! & (1 << (value & 7))) !== 0;
  }

  add(code: number): void {
    const bits = this.bitsFor(code, true);
    if (bits === null || bits === undefined) {
      this.wide.add(code);
      return;
    }
    const value = code & 0x3fffffff;
    bits[value >>> 3]! |= 1 << (value & 7);
  }

  addAll(codes: Uint32Array): void {
    // Most codes of a file share one length: its bitmap is looked up once.
    let kind = -1;
    let bits: Uint8Array | null | undefined;
    for (let i = 0; i < codes.length; i++) {
      const code = codes[i]!;
      if (code >>> 30 !== kind) {
        kind = code >>> 30;
        bits = this.bitsFor(code, true);
      }
      if (bits) {
        const value = code & 0x3fffffff;
        bits[value >>> 3]! |= 1 << (value & 7);
      } else this.wide.add(code);
    }
  }

  /** The bitmap for code's length (undefined: not made yet), or null for 6-character codes. */
  private bitsFor(code: number, create: boolean): Uint8Array | null | undefined {
    switch (code >>> 30) {
      case 0:
        if (!this.bits4 && create) this.bits4 = new Uint8Array(1 << 17);
        return this.bits4;
      case 1:
        if (!this.bits5 && create) this.bits5 = new Uint8Array(1 << 22);
        return this.bits5;
      default:
        return null;
    }
  }
}

/** A growable open-addressing set of non-zero 32-bit codes (a JS Set of millions of numbers is slow and large). */
export class CodeTable {
  private table: Uint32Array;
  private count = 0;

  /** `expected`: about how many codes it will hold (it grows past them). */
  constructor(expected = 1 << 15) {
    this.table = new Uint32Array(CodeTable.sizeFor(expected));
  }

  private static sizeFor(expected: number): number {
    let size = 64;
    while (size < expected * 2 && size < 1 << 16) size *= 2;
    return size;
  }

  /**
   * Empties the table for about `expected` codes, when its size is the one the constructor would
   * give it (then true); else false, and it is left as it was.
   */
  reuse(expected: number): boolean {
    if (this.table.length !== CodeTable.sizeFor(expected)) return false;
    this.table.fill(0);
    this.count = 0;
    return true;
  }

  has(code: number): boolean {
    const mask = this.table.length - 1;
    for (let slot = spread(code) & mask; ; slot = (slot + 1) & mask) {
      const v = this.table[slot]!;
      if (v === code) return true;
      if (v === 0) return false;
    }
  }

  add(code: number): void {
    if ((this.count + 1) * 2 > this.table.length) this.grow();
    const mask = this.table.length - 1;
    for (let slot = spread(code) & mask; ; slot = (slot + 1) & mask) {
      const v = this.table[slot]!;
      if (v === code) return;
      if (v === 0) {
        this.table[slot] = code;
        this.count++;
        return;
      }
    }
  }

  private grow(): void {
    const old = this.table;
    this.table = new Uint32Array(old.length * 2);
    this.count = 0;
    for (let i = 0; i < old.length; i++) if (old[i] !== 0) this.add(old[i]!);
  }
}
