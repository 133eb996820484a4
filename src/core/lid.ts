// LIDs: short, lowercase line IDs derived from a line's content.
//
// An LID is held as a 32-bit code: the top two bits give its length (4, 5 or 6 characters),
// the rest its value, printed as base-32 digits from an alphabet without i, l, o and u (so it
// is never misread). A line's candidates are a fixed sequence of values hashed from its
// fingerprint: it takes the first one that contains a letter and is not taken by another line
// of the file or retired. With no saved state every line therefore gets the same LID on any
// machine; duplicate lines take successive candidates in file order.

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

function hasLetter(value: number, length: number): boolean {
  for (let j = 0; j < length; j++) if (((value >>> (5 * j)) & 31) >= 10) return true;
  return false;
}

/** The k-th candidate code for a line with fingerprint (h1, h2). */
export function candidate(h1: number, h2: number, k: number, length: number): number {
  let x = (h1 ^ Math.imul(k, 0x9e3779b9)) + Math.imul(h2, k + 1);
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  const value = (x >>> 0) & (2 ** (5 * length) - 1);
  return (((length - 4) << 30) | value) >>> 0;
}

/** Gives a line its first free candidate and marks it used. */
export function assignLid(h1: number, h2: number, length: number, used: LidSet): number {
  for (let k = 0; ; k++) {
    const code = candidate(h1, h2, k, length);
    if (hasLetter(code & 0x3fffffff, length) && !used.has(code)) {
      used.add(code);
      return code;
    }
  }
}

/**
 * A set of LID codes. Codes of 4 and 5 characters live in bitmaps (128 KiB and 4 MiB, made on
 * first use), which beat any hash table at a million lines; 6-character codes in a hash table.
 */
export class LidSet {
  private bits4: Uint8Array | undefined;
  private bits5: Uint8Array | undefined;
  private readonly wide = new Set<number>();

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
    for (let i = 0; i < codes.length; i++) this.add(codes[i]!);
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
