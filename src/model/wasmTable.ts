// A pack segment's table read in WebAssembly (src/model/wasm/table.wat): its rows checked and taken
// into columns in the module's memory, its keys into a hash table there, so that a command needing a
// few entries of a table of 20,000 makes no object a row (JSON.parse made an array a row, and the
// reading an entry and a map of them, 40-60 ms of a small command in such a root, with their
// collection). Only the usual form is taken (see the .wat); anything else is left to the JavaScript
// reading, which stays the reference.

import { instantiate } from './wasmModule.js';

/** src/model/wasm/table.wat, assembled (wabt, SIMD on), in base64. */
export const TABLE_WASM =
  'AGFzbQEAAAABPglgAAF/YAABfGABfwF/YAJ/fwF/YAF/AGAHf39/fHx8fwF/YAR/f39/AX9gBn9/f39/fwF/YAV/f39/fwF/Ag8BA2VudgZtZW1vcnkCAAEDDQwAAQACAwQFAwYHCAgGKAV/AUEAC38BQQALfAFEAAAAAAAAAAALfwFBAAt8AUQAAAAAAAAAAAsHPAcFY291bnQAAAVieXRlcwABCnRvbWJzdG9uZXMAAgViZWdpbgAFBHNjYW4ABgVpbmRleAAKBGZpbmQACwqgCQwEACMBCwQAIwILBAAjAwuGAQMCfwF8AX8gAC0AAEEtRgRAQQEhBCAAQQFqIQALIAAhAQJAA0AgAC0AAEEwayECIAJBCUsNASADRAAAAAAAACRAoiACuKAhAyAAQQFqIQAMAAsLIAAgAUYgACABa0EPSyAAIAFrQQFLIAEtAABBMEZxcnIEQEEADwsgA5ogAyAEGyQEIAALCgAgAC0AACABRgsZACAAJABBACQBRAAAAAAAAAAAJAJBACQDC5gFAwZ/BHwBfyMAIQcgByAATwRAQQEPCwNAIAdB2wAQBEUEQEF/DwsgB0EBakEiEARFBEBBfw8LIAdBAmohCCAIIQcCQANAIAcgAE8EQEF/DwsgBy0AACEKIApBIkYNASAKQSBJIApB/wBPciAKQdwARnIEQEF/DwsgB0EBaiEHDAALCyAHIQkgCSAIayAGTwRAQX8PCyAHQQFqQSwQBEUEQEF/DwsgB0ECahADIQcgB0UEQEF/DwsjBCENIAdBLBAERQRAQX8PCyAHQQFqEAMhByAHRQRAQX8PCyMEIQ4gB0EsEARFBEBBfw8LIAdBAWoQAyEHIAdFBEBBfw8LIwQhDyAHQSwQBEUEQEF/DwsgB0EBahADIQcgB0UEQEF/DwsjBCEQIAdBLBAERQRAQX8PCyAHQQFqIQcgBygCAEHu6rHjBkYEQEEAIQwgB0EEaiEHBSAHQSIQBEUEQEF/DwsgB0EBaiEMQQAhEQNAIAwgEWotAAAhCiAKQTBrQQlNIApB4QBrQQVNckUEQEF/DwsgEUEBaiERIBFBEEkNAAsgDEEQakEiEARFBEBBfw8LIAxBEWohBwsgB0HdABAERQRAQX8PCyAHQQFqIQcgByAASwRAQX8PCyAPIARkIA0gBWNyIA5EAAAAAAAA8L9jIA1EAAAAAAAAAAAgDqWgIANkcnIEQEF/DwsgAiMBQTBsaiELIAsgDTkDACALIA45AwggCyAPOQMQIAsgEDkDGCALIAg2AiAgCyAJNgIkIAsgDDYCKCMBQQFqJAEgDkQAAAAAAAAAAGMEQCMDQQFqJAMFIwIgDqAkAgsgByQAIAcgAEYEQEEBDwsgB0EsEARFBEBBfw8LIAdBAWohByAHJAAgByABSQ0AC0EACzoBAX9BxbvyiHghAgJAA0AgACABTw0BIAIgAC0AAHNBk4OACGwhAiAAQQFqIQAMAAsLIAIgAkEPdnMLQwAgASAAayADIAJrRwRAQQAPCwJAA0AgACABTw0BIAAtAAAgAi0AAEcEQEEADwsgAEEBaiEAIAJBAWohAgwACwtBAQtxAQR/IAAgARAHIARxIQYDQCADIAZBAnRqIQcgBygCACEIIAhFBEAgBQRAIAcgBTYCAAtBfw8LIAIgCEEBa0EwbGohCSAAIAEgCSgCICAJKAIkEAgEQEF+IAhBAWsgBRsPCyAGQQFqIARxIQYMAAtBfwtGAQF/AkADQCAAIAFPDQEgAiAAQTBsaiEFIAUoAiAgBSgCJCACIAMgBCAAQQFqEAlBfkYEQEEADwsgAEEBaiEADAALC0EBCxAAIAAgASACIAMgBEEAEAkL';

interface Exports {
  count(): number;
  bytes(): number;
  tombstones(): number;
  begin(start: number): void;
  scan(end: number, stop: number, rows: number, tocAt: number, seq: number, first: number, keyMost: number): number;
  index(from: number, to: number, rows: number, slots: number, mask: number): number;
  find(key: number, keyEnd: number, rows: number, slots: number, mask: number): number;
}

/** Bytes of a row in the module's memory (see table.wat). */
const ROW = 48;
/** Bytes of the table text, then of rows, scanned a call (see wasmDigest.ts: the first code is slow). */
const SCAN_PIECE = 16 << 10;
const INDEX_PIECE = 512;
/** Room for a key looked up: a table with a key as long is left to the JavaScript reading. */
const KEY_ROOM = 64 << 10;

/** The rows of a table as scanned. */
export class ScannedTable {
  private readonly numbers: Float64Array;
  private readonly words: Uint32Array;
  private readonly text: Buffer;
  private decoded: string | undefined;

  constructor(
    memory: WebAssembly.Memory,
    private readonly exports: Exports,
    private readonly rowsAt: number,
    private readonly slotsAt: number,
    private readonly mask: number,
    private readonly keyAt: number,
    /** Where the table's text lies in memory, and its bytes. */
    private readonly textAt: number,
    private readonly textLength: number,
    /** How many rows. */
    readonly size: number,
    /** Bytes of their entries. */
    readonly bytes: number,
    /** How many are tombstones (length -1). */
    readonly tombstoneCount: number,
  ) {
    this.numbers = new Float64Array(memory.buffer, rowsAt, (size * ROW) / 8);
    this.words = new Uint32Array(memory.buffer, rowsAt, (size * ROW) / 4);
    this.text = Buffer.from(memory.buffer);
  }

  /** The row of `key`, or -1. */
  row(key: string): number {
    // A key longer than any of the table's, or not ASCII as all of them are, is not there. (Copied by hand: a
    // search looks up thousands, and Buffer's write cost more than the lookup.)
    const n = key.length;
    if (n >= KEY_ROOM - 1) return -1;
    const text = this.text;
    const at = this.keyAt;
    for (let i = 0; i < n; i++) {
      const c = key.charCodeAt(i);
      if (c >= 0x80) return -1;
      text[at + i] = c;
    }
    return this.exports.find(at, at + n, this.rowsAt, this.slotsAt, this.mask);
  }

  keyOf(row: number): string {
    const w = (row * ROW) / 4;
    return this.source().slice(this.words[w + 8]! - this.textAt, this.words[w + 9]! - this.textAt);
  }

  /** The table's text, decoded once: a key or check sliced from it costs less than decoding each from the bytes. */
  private source(): string {
    this.decoded ??= this.text.toString('latin1', this.textAt, this.textAt + this.textLength);
    return this.decoded;
  }

  offsetOf(row: number): number {
    return this.numbers[row * 6]!;
  }

  lengthOf(row: number): number {
    return this.numbers[row * 6 + 1]!;
  }

  seqOf(row: number): number {
    return this.numbers[row * 6 + 2]!;
  }

  touchedOf(row: number): number {
    return this.numbers[row * 6 + 3]!;
  }

  checkOf(row: number): string | null {
    const at = this.words[(row * ROW) / 4 + 10]!;
    return at === 0 ? null : this.source().slice(at - this.textAt, at - this.textAt + 16);
  }
}

/**
 * The table whose text is `bytes` (checked already against its digest) read in WebAssembly, its
 * entries to lie from `first` to `tocAt` and be numbered `seq` at most; undefined when it is not in
 * the usual form, a row does not check, a key is named twice, or WebAssembly cannot be had: the
 * caller then reads it in JavaScript (which says what is wrong with it, if anything is).
 */
export function scanTable(bytes: Uint8Array, tocAt: number, seq: number, first: number): ScannedTable | undefined {
  const prefix = '{"toc":[';
  const suffix = ']}\n';
  const n = bytes.length;
  if (n < prefix.length + suffix.length) return undefined;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix.charCodeAt(i)) return undefined;
  for (let i = 0; i < suffix.length; i++) if (bytes[n - suffix.length + i] !== suffix.charCodeAt(i)) return undefined;
  const at = 8;
  // Rows: at most one per 17 bytes of text (["",0,0,0,0,null] and its comma); the slack after the text
  // lets a row's last reads run past its end before the scan finds it cut short.
  const most = Math.floor(n / 17) + 1;
  const rowsAt = align(at + n + 64);
  const keyAt = rowsAt + most * ROW;
  const slotsAt = align(keyAt + KEY_ROOM);
  const instance = instantiate<Exports>(TABLE_WASM, slotsAt + 4 * 2 * most);
  if (!instance) return undefined;
  const { memory, exports } = instance;
  new Uint8Array(memory.buffer, at, n).set(bytes);
  const start = at + prefix.length;
  const end = at + n - suffix.length;
  exports.begin(start);
  let done = 0;
  for (let stop = start + SCAN_PIECE; done === 0; stop += SCAN_PIECE)
    done = exports.scan(end, stop, rowsAt, tocAt, seq, first, KEY_ROOM - 1);
  if (done < 0) return undefined;
  const count = exports.count();
  let slots = 1;
  while (slots < 2 * count) slots *= 2;
  const grown = slotsAt + 4 * slots;
  if (grown > memory.buffer.byteLength) return undefined;
  for (let from = 0; from < count; from += INDEX_PIECE)
    if (!exports.index(from, Math.min(count, from + INDEX_PIECE), rowsAt, slotsAt, slots - 1)) return undefined;
  return new ScannedTable(
    memory,
    exports,
    rowsAt,
    slotsAt,
    slots - 1,
    keyAt,
    at,
    n,
    count,
    exports.bytes(),
    exports.tombstones(),
  );
}

function align(at: number): number {
  return Math.ceil(at / 8) * 8;
}
