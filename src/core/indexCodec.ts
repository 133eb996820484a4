// The compact encoding of a LineIndex inside its JSON state file.
//
// Each line is one 12-byte record (fingerprint h1, h2 and LID code, little-endian), so in
// base64 each line is exactly 16 characters: a window's LIDs are decoded from a slice of the
// string without decoding the rest. Retired LIDs are 10-byte records (code, day, line).

import type { LineIndex, Retired } from './lineIndex.js';

const RECORD = 12;
const RECORD_B64 = 16;

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Records of lines from..to-1 in base64 (12 bytes, so 16 characters, a line): consecutive ranges concatenate. */
export function encodeRecordRange(index: LineIndex, from: number, to: number): string {
  const n = to - from;
  const words = new Uint32Array(n * 3);
  for (let i = 0; i < n; i++) {
    words[i * 3] = index.h1[from + i]!;
    words[i * 3 + 1] = index.h2[from + i]!;
    words[i * 3 + 2] = index.lids[from + i]!;
  }
  const buf = Buffer.from(words.buffer, 0, n * RECORD);
  if (!LITTLE_ENDIAN) buf.swap32();
  return buf.toString('base64');
}

export function decodeRecords(text: string, count: number): Pick<LineIndex, 'h1' | 'h2' | 'lids'> {
  const words = decodeWords(text);
  if (words.length !== count * 3) throw new Error(`index holds ${Math.floor(words.length / 3)} lines, expected ${count}`);
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

/** Base64 of little-endian 32-bit words → the words (copied to an aligned buffer). */
function decodeWords(text: string): Uint32Array {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length % 4 !== 0) throw new Error('index records are truncated');
  const aligned = new Uint8Array(bytes.length);
  aligned.set(bytes);
  const out = Buffer.from(aligned.buffer);
  if (!LITTLE_ENDIAN) out.swap32();
  return new Uint32Array(aligned.buffer);
}

/** LID codes of lines from..to-1 (0-based), decoded from their slice of the records alone. */
export function decodeLidRange(text: string, from: number, to: number): Uint32Array {
  const words = decodeWords(text.slice(from * RECORD_B64, to * RECORD_B64));
  const lids = new Uint32Array(to - from);
  for (let i = 0; i < lids.length; i++) lids[i] = words[i * 3 + 2]!;
  return lids;
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
