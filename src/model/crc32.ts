// CRC-32 (zlib's: the reflected polynomial 0xedb88320) of bytes made of pieces whose CRCs are
// known, without reading those pieces again: zlib's crc32_combine, in JavaScript. With it a file
// whose CRC was taken a chunk at a time when it was read gives, after an edit, the CRC of the
// new file from the chunks the edit kept and the few bytes it wrote (see ChunkCrcs).

const POLY = 0xedb88320;

/** a·b modulo the polynomial (both polynomials in zlib's reflected order). */
function multmodp(a: number, b: number): number {
  let p = 0;
  for (let m = 0x80000000; m !== 0; m >>>= 1) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}

/** x^(2^k) modulo the polynomial, k = 0..31: made when first needed, not by every run that loads this file. */
let X2N: number[] | undefined;

function powers(): number[] {
  const x2n = [0x40000000];
  for (let k = 1; k < 32; k++) x2n.push(multmodp(x2n[k - 1]!, x2n[k - 1]!));
  return x2n;
}

/** x^(n·2^k) modulo the polynomial. */
function x2nmodp(n: number, k: number): number {
  X2N ??= powers();
  let p = 0x80000000;
  for (; n > 0; n = Math.floor(n / 2), k++) if (n % 2) p = multmodp(X2N[k & 31]!, p);
  return p;
}

/** The operator that moves a CRC past `length` bytes (see combineWith). */
export function shiftFor(length: number): number {
  return x2nmodp(length, 3);
}

/** CRC of A then B, from CRC `a` of A, CRC `b` of B and shiftFor(B's length). */
export function combineWith(a: number, b: number, shift: number): number {
  return (multmodp(shift, a) ^ b) >>> 0;
}

/** CRC of A then B, from their CRCs and B's length. */
export function crc32Combine(a: number, b: number, lengthB: number): number {
  return combineWith(a, b, shiftFor(lengthB));
}

/** zlib.crc32's shape: the CRC of `bytes` continuing `crc`. */
export type Crc32 = (bytes: Uint8Array, crc?: number) => number;

/**
 * `crc` continued over `bytes` by `crc32`, but for no bytes `crc` itself: zlib's crc32 of no data
 * at all may answer 0, its "initial value" (as Node's zlib.crc32 does, once the function calling
 * it is optimized, for an empty buffer), which would drop what came before.
 */
export function crcOn(crc32: Crc32, bytes: Uint8Array, crc: number): number {
  return bytes.length === 0 ? crc : crc32(bytes, crc);
}

/**
 * The CRC of each CHUNK-byte chunk of `bytes` (the last one shorter), taken as their whole's is:
 * any range of them then has its CRC from the chunks it covers and the bytes at its two ends.
 */
export class ChunkCrcs {
  static readonly CHUNK = 1 << 16;
  private static shift: number | undefined;
  /** CRC of the whole. */
  readonly whole: number;
  private readonly chunks: Uint32Array;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly crc32: Crc32,
  ) {
    const n = Math.ceil(bytes.length / ChunkCrcs.CHUNK);
    this.chunks = new Uint32Array(n);
    for (let c = 0; c < n; c++) this.chunks[c] = crc32(bytes.subarray(c * ChunkCrcs.CHUNK, (c + 1) * ChunkCrcs.CHUNK));
    this.whole = this.range(0, bytes.length);
  }

  /** CRC of bytes from..to-1. */
  range(from: number, to: number): number {
    const size = ChunkCrcs.CHUNK;
    const first = Math.ceil(from / size);
    const last = Math.floor(to / size);
    if (first >= last) return crcOn(this.crc32, this.bytes.subarray(from, to), 0);
    const shift = (ChunkCrcs.shift ??= shiftFor(size));
    let crc = crcOn(this.crc32, this.bytes.subarray(from, first * size), 0);
    for (let c = first; c < last; c++) crc = combineWith(crc, this.chunks[c]!, shift);
    return crcOn(this.crc32, this.bytes.subarray(last * size, to), crc);
  }

  /** Whether `part` is a range of these bytes (the same memory), and which. */
  rangeOf(part: Uint8Array): { from: number; to: number } | undefined {
    if (part.buffer !== this.bytes.buffer) return undefined;
    const from = part.byteOffset - this.bytes.byteOffset;
    return from >= 0 && from + part.length <= this.bytes.length ? { from, to: from + part.length } : undefined;
  }
}
