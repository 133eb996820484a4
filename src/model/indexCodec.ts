// The compact encoding of a LineIndex inside its JSON state file.
//
// Each line is one 12-byte record (fingerprint h1, h2 and LID code, little-endian), so in
// base64 each line is exactly 16 characters: a window's LIDs are decoded from a slice of the
// records without decoding the rest. Retired LIDs are 10-byte records (code, day, line).

import type { LineIndex, Retired } from './lineIndex.js';

const _RECORD = 12;
/** Base64 characters of one line's record. */
export const RECORD_B64 = 16;

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * The records of lines from..to-1 as words: h1, h2 and LID of each line in turn; written into
 * `into` (when it is big enough) so that a caller going through a big index allocates once.
 */
export function recordWords(
  index: Pick<LineIndex, 'h1' | 'h2' | 'lids'>,
  from: number,
  to: number,
  into?: Uint32Array,
): Uint32Array {
  const n = to - from;
  const words = into && into.length >= n * 3 ? into.subarray(0, n * 3) : new Uint32Array(n * 3);
  for (let i = 0; i < n; i++) {
    words[i * 3] = index.h1[from + i]!;
    words[i * 3 + 1] = index.h2[from + i]!;
    words[i * 3 + 2] = index.lids[from + i]!;
  }
  return words;
}

/** Record words in base64 (12 bytes, so 16 characters, a line): consecutive ranges concatenate. */
export function encodeWords(words: Uint32Array): string {
  const buf = Buffer.from(words.buffer, words.byteOffset, words.byteLength);
  if (!LITTLE_ENDIAN) buf.swap32();
  const text = buf.toString('base64');
  if (!LITTLE_ENDIAN) buf.swap32();
  return text;
}

/** Record words → the index's arrays. */
export function splitWords(words: Uint32Array, count: number): Pick<LineIndex, 'h1' | 'h2' | 'lids'> {
  if (words.length !== count * 3)
    throw new Error(`index holds ${Math.floor(words.length / 3)} lines, expected ${count}`);
  const h1 = new Uint32Array(count);
  const h2 = new Uint32Array(count);
  const lids = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    h1[i] = words[i * 3]!;
    h2[i] = words[i * 3 + 1]!;
    lids[i] = words[i * 3 + 2]!;
  }
  return { h1, h2, lids };
}

/** Base64 (as text or as its ASCII bytes) of little-endian 32-bit words → the words. */
export function decodeWords(text: string | Uint8Array): Uint32Array {
  const bytes =
    typeof text === 'string'
      ? Buffer.from(text, 'base64')
      : Buffer.from(Buffer.from(text.buffer, text.byteOffset, text.byteLength).toString('latin1'), 'base64');
  if (bytes.length % 4 !== 0) throw new Error('index records are truncated');
  // Words need an aligned start: a small buffer may sit at any offset of Node's shared pool.
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : new Uint8Array(bytes);
  if (!LITTLE_ENDIAN) Buffer.from(aligned.buffer, aligned.byteOffset, aligned.length).swap32();
  return new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.length / 4);
}

/** Each base64 character's 6 bits, -1 for any other byte. */
const SIXBITS = new Int8Array(256).fill(-1);
for (const [i, c] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].entries())
  SIXBITS[c.charCodeAt(0)] = i;

/**
 * Records as written (16 base64 characters a line, as ASCII bytes) → their words, decoded in place
 * of decodeWords' two conversions (to a string and back to bytes): a search decodes a block of
 * records of every file it prints. Throws on a byte that is no base64 digit, or a partial record.
 */
export function decodeRecords(text: Uint8Array): Uint32Array {
  if (text.length % RECORD_B64 !== 0) throw new Error('index records are truncated');
  const words = new Uint32Array((text.length / RECORD_B64) * 3);
  decodeRecordsInto(text, 0, text.length, new Uint8Array(words.buffer));
  return words;
}

/**
 * decodeRecords of `text[start..end)` written into the words whose bytes are `out` (from its start; the caller gives
 * room for them): a search decoding a block of every file it prints reuses one memory for all.
 */
export function decodeRecordsInto(text: Uint8Array, start: number, end: number, out: Uint8Array): void {
  if ((end - start) % RECORD_B64 !== 0) throw new Error('index records are truncated');
  let o = 0;
  for (let i = start; i < end; i += 4) {
    const a = SIXBITS[text[i]!]!;
    const b = SIXBITS[text[i + 1]!]!;
    const c = SIXBITS[text[i + 2]!]!;
    const d = SIXBITS[text[i + 3]!]!;
    if ((a | b | c | d) < 0) throw new Error('index records are damaged');
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    out[o++] = n >>> 16;
    out[o++] = (n >>> 8) & 0xff;
    out[o++] = n & 0xff;
  }
  if (!LITTLE_ENDIAN) Buffer.from(out.buffer, out.byteOffset, o).swap32();
}

const RETIRED_RECORD = 10;

export function encodeRetired(retired: Retired): string {
  const n = retired.lids.length;
  const buf = Buffer.allocUnsafe(n * RETIRED_RECORD);
  for (let i = 0; i < n; i++) {
    buf.writeUInt32LE(retired.lids[i]!, i * RETIRED_RECORD);
    buf.writeUInt16LE(retired.days[i]!, i * RETIRED_RECORD + 4);
    buf.writeUInt32LE(retired.lines[i]!, i * RETIRED_RECORD + 6);
  }
  return buf.toString('base64');
}

export function decodeRetired(text: string): Retired {
  const buf = Buffer.from(text, 'base64');
  if (buf.length % RETIRED_RECORD !== 0) throw new Error('retired list is truncated');
  const n = buf.length / RETIRED_RECORD;
  const lids = new Uint32Array(n);
  const days = new Uint16Array(n);
  const lines = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    lids[i] = buf.readUInt32LE(i * RETIRED_RECORD);
    days[i] = buf.readUInt16LE(i * RETIRED_RECORD + 4);
    lines[i] = buf.readUInt32LE(i * RETIRED_RECORD + 6);
  }
  return { lids, days, lines };
}
