// A file's saved line index, one entry of the packed store (pack.ts), laid out so that a window of a big file is
// served by reading a few kilobytes of it rather than all of it:
//
//   {"format":"rt-index","version":5,"path":…,"touched":…,"file":{…stamp…},"racy":…,
//    "content":…,"lines":N,"checkpoints":[…],"blocks":"…","retiredLength":R,
//    "retiredCheck":"…","head":"…","records":"<16 characters a line>","retired":"<R characters>"}
//
// Everything before "records" is the head: it is parsed alone, and its own digest ("head")
// covers it. The records follow at a place the head determines, 16 base64 characters (12
// bytes: fingerprint and LID) a line, and are read by the block of 1,024 lines, each block
// checked against its digest in "blocks". The retired LIDs come last, checked by
// "retiredCheck". Whatever the reader takes, it has checked; the whole is still one JSON
// document, one line of its segment.

import fs from 'node:fs';
import path from 'node:path';
import { digestText, digestWords } from '../model/digest.js';
import {
  decodeRecords,
  decodeRecordsInto,
  decodeRetired,
  encodeRetired,
  encodeWords,
  RECORD_B64,
  recordWords,
  splitWords,
} from '../model/indexCodec.js';
import type { LineIndex, Retired } from '../model/lineIndex.js';
import { digestAscii, WASM_DIGEST_FROM } from '../model/wasmDigest.js';
import { digestRecords, recordMemory, type RecordMemory } from '../model/wasmRecords.js';
import type { StreamedIndex } from '../model/streamedSplice.js';
import type { StateEntry, StateStore } from './state.js';

/** A saved index read by the piece (see SavedIndex.streamed) proved damaged or could not be read again. */
export class UnreadIndex extends Error {
  constructor() {
    super('the saved index could not be read');
  }
}

export const INDEX_FORMAT = 'rt-index';
export const INDEX_VERSION = 5;
/** Lines per block: a checkpoint (byte offset of a line start) and a records digest each. */
export const BLOCK = 1024;
/** Digest characters per block in "blocks". */
const BLOCK_DIGEST = 16;
/** Indexes of this many lines or more are read into WebAssembly memory and decoded there (wasmRecords.ts). */
const WASM_RECORDS = 16 * BLOCK;
/**
 * Lines whose records are read into that memory at a time: the text of a big index is never held
 * whole, only its words (12 bytes a line, not 28); an edit copies the text of the lines it kept
 * from the segment again (see RecordsSource).
 */
const READ_PIECE = 64 * BLOCK;
/** Lines a pass over a big index (see SavedIndex.streamed) reads and decodes at a time: some 450 KiB of memory. */
const PASS_PIECE = 16 * BLOCK;
/** The words of a block wordsAt decodes (see SavedIndex.blockWords), made at its first use and reused. */
let blockMemory: Uint32Array | undefined;
let blockBytes: Uint8Array | undefined;
/** Lines an edit may add to a big index in place (see Records.room): memory never touched unless used. */
const ROOM = 64 * BLOCK;

const RECORDS_KEY = ',"records":"';
const RETIRED_KEY = '","retired":"';
const END = '"}';

/** What identifies a file's version without reading it. */
export interface FileStamp {
  size: number;
  mtimeNs: string;
  ctimeNs: string;
  ino: string;
}

/** The head of a saved index: everything but the records and the retired LIDs. */
export interface IndexHead {
  readonly format: string;
  readonly version: number;
  readonly path: string;
  readonly touched: number;
  readonly file: FileStamp;
  /** The file was indexed so soon after it changed that its stamp cannot be trusted alone. */
  readonly racy: boolean;
  /** For a racy stamp, a digest of the file's bytes (see contentDigest). */
  readonly content: string | null;
  readonly lines: number;
  /** Byte offset in the file of line 0, BLOCK, 2·BLOCK, … */
  readonly checkpoints: readonly number[];
  /** BLOCK_DIGEST characters per block: the digest of that block's record words. */
  readonly blocks: string;
  readonly retiredLength: number;
  readonly retiredCheck: string;
  /** Digest of every field above. */
  readonly head: string;
}

/** A saved index whose head has been read and checked; records and retired LIDs are read on demand. */
export class SavedIndex {
  private constructor(
    private readonly entry: StateEntry,
    readonly head: IndexHead,
    /** Byte offset of the first record. */
    private readonly recordsAt: number,
    /** The index's first bytes, read with its head: a small index is all there. */
    private readonly prefix: Buffer,
  ) {}

  /**
   * The saved index of `rel`, or undefined when there is none or it is not to be trusted (then
   * it is set aside, or, when it is of another version of rt, silently replaced later).
   */
  static open(store: StateStore, rel: string): SavedIndex | undefined {
    const entry = store.openForReading('index', rel);
    if (!entry) return undefined;
    const { text, recordsAt, prefix } = readHead(entry);
    if (text === undefined) return setAside(entry, 'it is not an rt state file of this version');
    let head: unknown;
    try {
      head = JSON.parse(`${text}}`);
    } catch {
      return setAside(entry, 'it is not valid JSON');
    }
    const h = head as Partial<IndexHead> | null;
    if (
      h &&
      typeof h === 'object' &&
      h.format === INDEX_FORMAT &&
      typeof h.version === 'number' &&
      h.version !== INDEX_VERSION
    )
      return undefined;
    if (!h || typeof h !== 'object' || h.format !== INDEX_FORMAT || h.version !== INDEX_VERSION)
      return setAside(entry, 'it is not an rt state file of this version');
    if (h.path !== rel) return setAside(entry, `it describes ${String(h.path)}`);
    if (!isHead(h)) return setAside(entry, 'it is damaged');
    if (entry.size !== recordsAt + h.lines * RECORD_B64 + RETIRED_KEY.length + h.retiredLength + END.length)
      return setAside(entry, 'it is truncated or damaged');
    return new SavedIndex(entry, h, recordsAt, prefix);
  }

  /** LID codes of lines from..to-1, or undefined when the index proved damaged or was replaced. */
  lids(from: number, to: number): Uint32Array | undefined {
    // A span of more than a block of a big index is read into WebAssembly's memory (a module made a
    // call: a line at a time, as an outline asks, that made one a line, half as slow again).
    if (to - from > BLOCK && to <= this.head.lines && this.head.lines >= WASM_RECORDS) {
      const first = Math.floor(from / BLOCK);
      const blocks = Array.from({ length: Math.ceil(to / BLOCK) - first }, (_, k) => first + k);
      const read = this.blocksRead(blocks);
      if (read === undefined) return undefined;
      if (read !== null) {
        const lids = read.lids.slice(from - first * BLOCK, to - first * BLOCK);
        read.done();
        return lids;
      }
    }
    const words = this.recordWords(from, to)?.words;
    if (!words) return undefined;
    const lids = new Uint32Array(to - from);
    for (let i = 0; i < lids.length; i++) lids[i] = words[i * 3 + 2]!;
    return lids;
  }

  /**
   * Fingerprints and LID codes of the lines `numbers` (0-based, ascending, each below the line count) as record words
   * (h1, h2 and LID of each line in turn), or undefined when the index proved damaged or was replaced. Only the
   * blocks holding them are read, each checked against its digest.
   */
  wordsAt(numbers: readonly number[]): Uint32Array | undefined {
    const out = new Uint32Array(numbers.length * 3);
    if (numbers.length === 0) return out;
    if (numbers[numbers.length - 1]! >= this.head.lines) return undefined;
    const blocks: number[] = [];
    for (const n of numbers) {
      const b = Math.floor(n / BLOCK);
      if (blocks[blocks.length - 1] !== b) blocks.push(b);
    }
    // A big index's blocks are read into WebAssembly's memory, decoded and checked there, at most
    // READ_PIECE lines of them at a time (all at once, a search hitting every block of 10,000,000
    // lines held 28 bytes a line of them: 1.8 times main's peak), the memory handed on between.
    if (this.head.lines >= WASM_RECORDS) {
      const group = READ_PIECE / BLOCK;
      let i = 0;
      for (let g = 0; g < blocks.length; g += group) {
        const some = blocks.slice(g, g + group);
        const read = this.blocksRead(some);
        if (read === undefined) return undefined;
        if (read === null) break; // no WebAssembly here: JavaScript reads them all below
        for (let k = 0; i < numbers.length && k < some.length; i++) {
          const n = numbers[i]!;
          while (k < some.length && some[k] !== Math.floor(n / BLOCK)) k++;
          if (k === some.length) break;
          const at = k * BLOCK + (n % BLOCK);
          out[i * 3] = read.h1[at]!;
          out[i * 3 + 1] = read.h2[at]!;
          out[i * 3 + 2] = read.lids[at]!;
        }
        read.done();
      }
      if (i === numbers.length) return out;
    }
    for (let i = 0; i < numbers.length; ) {
      // The lines of one block at a time: its records are read and checked once.
      const block = Math.floor(numbers[i]! / BLOCK);
      let j = i + 1;
      while (j < numbers.length && Math.floor(numbers[j]! / BLOCK) === block) j++;
      const words = this.blockWords(block);
      if (!words) return undefined;
      for (let k = i; k < j; k++) {
        const at = (numbers[k]! - block * BLOCK) * 3;
        out[k * 3] = words[at]!;
        out[k * 3 + 1] = words[at + 1]!;
        out[k * 3 + 2] = words[at + 2]!;
      }
      i = j;
    }
    return out;
  }

  /**
   * The record words of block `b`, checked against its digest (as recordWords checks them), in memory the next call
   * reuses; undefined when the index proved damaged or was replaced. A small index's records are decoded from the
   * bytes read with its head: a search reads a block of every file it prints, with no memory made for each.
   */
  private blockWords(b: number): Uint32Array | undefined {
    const lineEnd = Math.min(this.head.lines, (b + 1) * BLOCK);
    const start = this.recordsAt + b * BLOCK * RECORD_B64;
    const end = this.recordsAt + lineEnd * RECORD_B64;
    const within = end <= this.prefix.length;
    const text = within ? this.prefix : this.read(start, end);
    if (!text) return undefined;
    const from = within ? start : 0;
    const to = within ? end : text.length;
    if (to - from !== (lineEnd - b * BLOCK) * RECORD_B64) return this.damaged('its records are damaged');
    blockMemory ??= new Uint32Array(BLOCK * 3);
    blockBytes ??= new Uint8Array(blockMemory.buffer);
    try {
      decodeRecordsInto(text, from, to, blockBytes);
    } catch {
      return this.damaged('its records are damaged');
    }
    if (
      digestWords(blockMemory, 0, (lineEnd - b * BLOCK) * 3) !==
      this.head.blocks.slice(b * BLOCK_DIGEST, (b + 1) * BLOCK_DIGEST)
    )
      return this.damagedBlock(b);
    return blockMemory;
  }

  /**
   * Every line's fingerprint and LID, or undefined (damaged or replaced); with `text`, the
   * records as they are written in the index, checked, which an edit writes again unchanged for
   * the lines it keeps (see KeptRecords).
   */
  records(): Records | undefined {
    const lines = this.head.lines;
    const memory = lines >= WASM_RECORDS ? recordMemory(lines, BLOCK, READ_PIECE, ROOM) : undefined;
    if (memory) return this.recordsIn(memory);
    const read = this.recordWords(0, lines);
    return read && { ...splitWords(read.words, lines), text: read.text, room: 0 };
  }

  /**
   * The index read only where asked (see StreamedIndex): arrays of its line count, whose memory is
   * touched only where `load` puts the records of whole blocks, and passes over every record a
   * piece at a time (checked against the blocks' digests in the first); `check` makes that first
   * pass when none was made. Undefined (damaged or replaced) as records() is; a load or a pass
   * that finds it so throws UnreadIndex.
   */
  streamed(): (StreamedIndex & { check(): void }) | undefined {
    const retired = this.retired();
    if (!retired) return undefined;
    const lines = this.head.lines;
    const blocks = Math.ceil(lines / BLOCK);
    const loaded = new Uint8Array(blocks);
    const into = { h1: new Uint32Array(lines), h2: new Uint32Array(lines), lids: new Uint32Array(lines) };
    let checked = false;
    const memories: PieceMemories = {};
    const load = (from: number, to: number) => {
      for (let b = Math.floor(from / BLOCK); b < Math.ceil(to / BLOCK); b++) {
        if (loaded[b]) continue;
        let e = b + 1;
        while (e < Math.ceil(to / BLOCK) && !loaded[e]) e++;
        const first = b * BLOCK;
        const n = Math.min(lines, e * BLOCK) - first;
        const read = this.blocksIn(first, n);
        if (!read) throw new UnreadIndex();
        into.h1.set(read.h1, first);
        into.h2.set(read.h2, first);
        into.lids.set(read.lids, first);
        loaded.fill(1, b, e);
        b = e - 1;
      }
    };
    const pieces = (visit: (from: number, h1: Uint32Array, h2: Uint32Array, lids: Uint32Array) => void) => {
      if (!this.eachPiece(visit, !checked, memories)) throw new UnreadIndex();
      checked = true;
    };
    const check = () => {
      if (!checked) pieces(() => {});
    };
    return { ...into, retired, load, pieces, check };
  }

  /**
   * The records of the `n` lines from line `first` (whole blocks), decoded and checked in
   * WebAssembly's memory where it can be (the arrays are its views), else in JavaScript; undefined
   * when damaged or unreadable.
   */
  private blocksIn(first: number, n: number): Pick<LineIndex, 'h1' | 'h2' | 'lids'> | undefined {
    const b = first / BLOCK;
    const read = this.blocksRead(Array.from({ length: Math.ceil(n / BLOCK) }, (_, k) => b + k));
    if (read !== null) return read;
    const words = this.recordWords(first, first + n);
    return words && splitWords(words.words, n);
  }

  /**
   * The records of the blocks `blocks` (ascending, distinct), block blocks[k]'s lines from line k·BLOCK of the arrays
   * (views of WebAssembly's memory, which `done` hands on once they are no longer used): each run of neighbouring
   * blocks read, decoded and, in order, checked against its digests there. Undefined when damaged or unreadable; null
   * where WebAssembly cannot be had.
   */
  private blocksRead(
    blocks: readonly number[],
  ): (Pick<LineIndex, 'h1' | 'h2' | 'lids'> & { readonly done: () => void }) | undefined | null {
    const last = blocks[blocks.length - 1]!;
    // Only the file's last block may be short; it comes last.
    const n = (blocks.length - 1) * BLOCK + Math.min(BLOCK, this.head.lines - last * BLOCK);
    // [k, e): runs of neighbouring blocks, blocks[k]..blocks[e - 1].
    const runs: Array<[number, number]> = [];
    let longest = 0;
    for (let k = 0, e = 1; k < blocks.length; k = e++) {
      while (e < blocks.length && blocks[e] === blocks[k]! + (e - k)) e++;
      runs.push([k, e]);
      longest = Math.max(longest, Math.min(n, e * BLOCK) - k * BLOCK);
    }
    // The text of one run at a time: decoded into its place before the next is read.
    const memory = recordMemory(n, BLOCK, longest);
    if (!memory) return null;
    /** Whether the digests of `ranges` ([k, e): blocks[k]..blocks[e - 1], decoded) are the head's. */
    const digestsHold = (ranges: ReadonlyArray<readonly [number, number]>): boolean => {
      const digests = memory.digests();
      for (const [k, e] of ranges)
        if (!this.sameDigests(blocks[k]!, digests.slice(k * BLOCK_DIGEST, e * BLOCK_DIGEST))) return false;
      return true;
    };
    /** The text of `count` lines from blocks[k]'s first read into the text's start and decoded into place. */
    const readRun = (k: number, count: number): boolean | undefined => {
      const text = memory.text.subarray(0, count * RECORD_B64);
      const got = this.readInto(text, this.recordsAt + blocks[k]! * BLOCK * RECORD_B64);
      if (got === undefined) return undefined;
      return got === text.length && memory.decodeAt(k * BLOCK, count);
    };
    for (let r = 0; r < runs.length; r++) {
      const [k, e] = runs[r]!;
      const read = readRun(k, Math.min(n, e * BLOCK) - k * BLOCK);
      if (read === undefined) return memory.done();
      if (!read) {
        // The blocks before the first of this run that cannot be read are checked first, as
        // reading the blocks one after another would: they are read again a block at a time.
        let good = k;
        for (let b = k; b < e; b++) {
          const one = readRun(b, Math.min(n, (b + 1) * BLOCK) - b * BLOCK);
          if (one === undefined) return memory.done();
          if (!one) break;
          good = b + 1;
        }
        const held = digestsHold(good > k ? [...runs.slice(0, r), [k, good]] : runs.slice(0, r));
        memory.done();
        return held ? this.damaged('its records are damaged') : undefined;
      }
    }
    if (!digestsHold(runs)) return memory.done();
    return { ...memory.words(n), done: () => memory.done() };
  }

  /** Whether `digests` are those of blocks b.. in the head; else the index is set aside for the first that is not. */
  private sameDigests(b: number, digests: string): boolean {
    if (digests === this.head.blocks.slice(b * BLOCK_DIGEST, b * BLOCK_DIGEST + digests.length)) return true;
    let k = 0;
    while (
      digests.slice(k * BLOCK_DIGEST, (k + 1) * BLOCK_DIGEST) ===
      this.head.blocks.slice((b + k) * BLOCK_DIGEST, (b + k + 1) * BLOCK_DIGEST)
    )
      k++;
    this.damagedBlock(b + k);
    return false;
  }

  /**
   * Gives every record to `visit` a piece of PASS_PIECE lines at a time, decoded in WebAssembly's
   * memory where it can be (the piece's arrays are reused: a visit keeps none); with `check`,
   * each block checked against its digest. False when the index proved damaged or unreadable.
   */
  private eachPiece(
    visit: (from: number, h1: Uint32Array, h2: Uint32Array, lids: Uint32Array) => void,
    check: boolean,
    memories: PieceMemories,
  ): boolean {
    const lines = this.head.lines;
    for (let at = 0; at < lines; at += PASS_PIECE) {
      const n = Math.min(PASS_PIECE, lines - at);
      // The last piece, if shorter, has a memory of its own size: its last block's digest is of its lines alone.
      const memory =
        n === PASS_PIECE ? (memories.whole ??= recordMemory(n, BLOCK)) : (memories.last ??= recordMemory(n, BLOCK));
      if (!memory) {
        const read = this.recordWords(at, at + n);
        if (!read) return false;
        const { h1, h2, lids } = splitWords(read.words, n);
        visit(at, h1, h2, lids);
        continue;
      }
      const text = memory.text.subarray(0, n * RECORD_B64);
      const got = this.readInto(text, this.recordsAt + at * RECORD_B64);
      if (got !== text.length || !memory.decodeAt(0, n)) return this.damaged('its records are damaged') ?? false;
      if (check && !this.sameDigests(at / BLOCK, memory.digests().slice(0, Math.ceil(n / BLOCK) * BLOCK_DIGEST)))
        return false;
      const { h1, h2, lids } = memory.words(n);
      visit(at, h1, h2, lids);
    }
    return true;
  }

  /** records(), read into `memory` a piece at a time, and decoded and checked there (see wasmRecords.ts). */
  private recordsIn(memory: RecordMemory): Records | undefined {
    const lines = this.head.lines;
    const piece = memory.text.length / RECORD_B64;
    for (let at = 0; at < lines; at += piece) {
      const n = Math.min(piece, lines - at);
      const read = this.readInto(memory.text.subarray(0, n * RECORD_B64), this.recordsAt + at * RECORD_B64);
      if (read === undefined) return undefined;
      if (read !== n * RECORD_B64 || !memory.decodeAt(at, n)) return this.damaged('its records are damaged');
    }
    const records = memory.words(lines);
    const digests = memory.digests();
    if (digests !== this.head.blocks) {
      let b = 0;
      while (
        digests.slice(b * BLOCK_DIGEST, (b + 1) * BLOCK_DIGEST) ===
        this.head.blocks.slice(b * BLOCK_DIGEST, (b + 1) * BLOCK_DIGEST)
      )
        b++;
      return this.damagedBlock(b);
    }
    return { ...records, text: this.recordsText(), room: ROOM };
  }

  /** The records' text as it is in the index, read again from it a piece at a time (a segment never changes). */
  recordsText(): RecordsSource {
    const memories: PieceMemories = {};
    return {
      lines: this.head.lines,
      pieces: (visit) => {
        if (!this.eachPiece(visit, false, memories)) throw new Error('the saved index could not be read again');
      },
      copy: (from, to, write) => {
        const piece = Buffer.allocUnsafe(Math.min(PASS_PIECE, Math.max(0, to - from)) * RECORD_B64);
        for (let at = from; at < to; at += PASS_PIECE) {
          const bytes = piece.subarray(0, Math.min(PASS_PIECE, to - at) * RECORD_B64);
          if (this.readInto(bytes, this.recordsAt + at * RECORD_B64) !== bytes.length)
            throw new Error('the saved index could not be read again');
          write(bytes);
        }
      },
    };
  }

  /** The retired LIDs, or undefined (damaged or replaced). */
  retired(): Retired | undefined {
    const at = this.recordsAt + this.head.lines * RECORD_B64;
    const bytes = this.read(at, at + RETIRED_KEY.length + this.head.retiredLength + END.length);
    if (!bytes) return undefined;
    const text = bytes.toString('latin1');
    const body = text.slice(RETIRED_KEY.length, RETIRED_KEY.length + this.head.retiredLength);
    if (!text.startsWith(RETIRED_KEY) || !text.endsWith(END) || digestText(body) !== this.head.retiredCheck)
      return this.damaged('its retired LIDs are damaged');
    try {
      return decodeRetired(body);
    } catch (error) {
      return this.damaged(`its retired LIDs are damaged (${(error as Error).message})`);
    }
  }

  /**
   * Record words of lines from..to-1, every block they touch checked against its digest, and their text in the index.
   */
  private recordWords(from: number, to: number): { words: Uint32Array; text: Buffer } | undefined {
    if (from >= to) return { words: new Uint32Array(0), text: Buffer.alloc(0) };
    const first = Math.floor(from / BLOCK);
    const last = Math.ceil(to / BLOCK);
    const lineEnd = Math.min(this.head.lines, last * BLOCK);
    const bytes = this.read(this.recordsAt + first * BLOCK * RECORD_B64, this.recordsAt + lineEnd * RECORD_B64);
    if (!bytes) return undefined;
    let words: Uint32Array;
    try {
      words = decodeRecords(bytes);
    } catch {
      return this.damaged('its records are damaged');
    }
    if (words.length !== (lineEnd - first * BLOCK) * 3) return this.damaged('its records are damaged');
    for (let b = first; b < last; b++) {
      const start = (b - first) * BLOCK * 3;
      const end = Math.min(words.length, start + BLOCK * 3);
      if (digestWords(words, start, end) !== this.head.blocks.slice(b * BLOCK_DIGEST, (b + 1) * BLOCK_DIGEST)) {
        return this.damagedBlock(b);
      }
    }
    const skipped = from - first * BLOCK;
    return {
      words: words.subarray(skipped * 3, (to - first * BLOCK) * 3),
      text: bytes.subarray(skipped * RECORD_B64, (to - first * BLOCK) * RECORD_B64),
    };
  }

  /** Bytes of the index from `start` on into `into`: how many (fewer at its end). */
  private readInto(into: Buffer, start: number): number | undefined {
    try {
      return this.entry.readInto(into, start);
    } catch {
      return undefined;
    }
  }

  /** Bytes start..end of the index. */
  private read(start: number, end: number): Buffer | undefined {
    if (end <= this.prefix.length) return this.prefix.subarray(start, end); // read with the head
    const into = Buffer.allocUnsafe(Math.max(0, end - start));
    const got = this.readInto(into, start);
    return got === undefined ? undefined : into.subarray(0, got);
  }

  /** Sets the index aside for block `b`'s records, which do not match its digest. */
  private damagedBlock(b: number): undefined {
    return this.damaged(
      `its records of lines ${b * BLOCK + 1}-${Math.min(this.head.lines, (b + 1) * BLOCK)} are damaged`,
    );
  }

  private damaged(why: string): undefined {
    this.entry.setAside(why);
    return undefined;
  }
}

/** The memories a pass over an index's pieces decodes in, kept for the next pass: a full piece's and the last's. */
interface PieceMemories {
  whole?: RecordMemory | undefined;
  last?: RecordMemory | undefined;
}

/** Every line's fingerprint and LID of a saved index, as read, and its records' text. */
export type Records = Pick<LineIndex, 'h1' | 'h2' | 'lids'> & {
  readonly text: Buffer | RecordsSource;
  /**
   * Lines the arrays may grow by in place: views of the same memory of up to `room` more lines
   * (see wasmRecords.ts, words) can be made over their buffer (see spliceInPlace).
   */
  readonly room: number;
};

/** The records' text of a saved index, copied into another without being held whole. */
export interface RecordsSource {
  readonly lines: number;
  /** Gives the records of lines from..to-1 to `write`, a piece at a time (a piece is not kept: it is reused). */
  copy(from: number, to: number, write: (part: Uint8Array) => void): void;
  /** Gives every record decoded, a piece at a time (see SavedIndex.streamed). */
  pieces?(visit: (from: number, h1: Uint32Array, h2: Uint32Array, lids: Uint32Array) => void): void;
}

/** The records' text `text` as a RecordsSource. */
function sourceOf(text: Buffer | RecordsSource): RecordsSource {
  if (!(text instanceof Uint8Array)) return text;
  return {
    lines: text.length / RECORD_B64,
    copy: (from, to, write) => write(text.subarray(from * RECORD_B64, to * RECORD_B64)),
  };
}

/**
 * Records of the saved index an edit keeps as they are: its lines 0..start-1 stay where they
 * were, and its lines end.. follow the `inserted` new ones. Their text (16 characters a line)
 * and their blocks' digests are written again without encoding or digesting them anew, but for
 * blocks the edit moved.
 */
export interface KeptRecords {
  /** The records of every line of the saved index, as read from it (and checked). */
  readonly text: Buffer | RecordsSource;
  /** Its block digests ("blocks"). */
  readonly blocks: string;
  readonly start: number;
  readonly end: number;
  readonly inserted: number;
  /**
   * The index saved is filled in only around the change (see spliceStreamed): the digests of the
   * blocks after it that moved by other than whole blocks are taken from the records kept, read again.
   */
  readonly partial?: boolean;
}

/**
 * Saves the index of a file: `checkpoints` are the byte offsets of lines 0, BLOCK, 2·BLOCK, …
 * The records are written a slice at a time, so that a big index never exists as one string;
 * `kept`, after an edit, spares encoding those of the lines it kept.
 */
export function saveIndexFile(
  store: StateStore,
  rel: string,
  fields: { file: FileStamp; racy: boolean; content: string | null; lines: number; checkpoints: number[] },
  index: LineIndex,
  kept?: KeptRecords,
): boolean {
  const retired = encodeRetired(index.retired);
  const blockCount = Math.ceil(fields.lines / BLOCK);
  const head: Omit<IndexHead, 'head'> = {
    format: INDEX_FORMAT,
    version: INDEX_VERSION,
    path: rel,
    touched: Date.now(),
    ...fields,
    // The block digests are known once the records are encoded: the head is written with
    // placeholders of their exact length, filled in afterwards (before the file is renamed into place).
    blocks: '0'.repeat(blockCount * BLOCK_DIGEST),
    retiredLength: retired.length,
    retiredCheck: digestText(retired),
  };
  // A small index saved whole (no records kept from the saved one) is written in one piece, its
  // block digests and head digest worked out first: a search's first run saves thousands.
  if (!kept && fields.lines <= WRITE_SLICE) return saveSmallIndex(store, rel, head, fields, index, retired);
  const headText = `${JSON.stringify({ ...head, head: '0'.repeat(BLOCK_DIGEST) }).slice(0, -1)}${RECORDS_KEY}`;
  const blocksAt = Buffer.byteLength(headText.slice(0, headText.indexOf(`"blocks":"`) + `"blocks":"`.length));
  const headAt = Buffer.byteLength(headText.slice(0, headText.lastIndexOf(`"head":"`) + `"head":"`.length));
  return store.saveText(
    'index',
    rel,
    (write, patch) => {
      write(headText);
      // Each slice's words and text go through reused buffers: no garbage of the index's size.
      const scratch = new Uint32Array(Math.min(fields.lines, WRITE_SLICE) * 3);
      const text = Buffer.allocUnsafe(Math.min(fields.lines, WRITE_SLICE) * RECORD_B64);
      // The block digests, when the records are encoded from line 0 (so by whole blocks).
      let digests = '';
      const encode = (from: number, to: number, digest: boolean) => {
        for (let at = from; at < to; at += WRITE_SLICE) {
          const words = recordWords(index, at, Math.min(to, at + WRITE_SLICE), scratch);
          if (digest)
            for (let w = 0; w < words.length; w += BLOCK * 3)
              digests += digestWords(words, w, Math.min(words.length, w + BLOCK * 3));
          write(text.subarray(0, text.write(encodeWords(words), 'latin1')));
        }
      };
      const old = kept && keptLines(kept, fields.lines);
      let blocks = '';
      if (kept && old) {
        const source = sourceOf(kept.text);
        source.copy(0, old.before, write);
        encode(old.before, old.after, false);
        source.copy(kept.end, old.oldLines, write);
        // A partial index's blocks after the change, moved within blocks, from the records kept.
        const movedFrom = Math.ceil(old.after / BLOCK);
        const moved =
          kept.partial && old.shift % BLOCK !== 0 && movedFrom < blockCount
            ? movedDigests(source, movedFrom * BLOCK - old.shift, old.oldLines)
            : undefined;
        for (let b = 0; b < blockCount; b++) {
          if (moved && b >= movedFrom) {
            blocks += moved.slice((b - movedFrom) * BLOCK_DIGEST, (b - movedFrom + 1) * BLOCK_DIGEST);
            continue;
          }
          const from = b * BLOCK;
          const to = Math.min(fields.lines, from + BLOCK);
          // A block of the same kept lines as one of the saved index (not moved, or moved by whole blocks) keeps its
          // digest.
          const same =
            to <= old.before && Math.min(old.oldLines, from + BLOCK) === to
              ? b
              : from >= old.after && old.shift % BLOCK === 0
                ? b - old.shift / BLOCK
                : undefined;
          blocks +=
            same !== undefined
              ? kept.blocks.slice(same * BLOCK_DIGEST, (same + 1) * BLOCK_DIGEST)
              : digestWords(recordWords(index, from, to, scratch));
        }
      } else {
        // A big index's records are encoded and their block digests taken in WebAssembly, together:
        // each few blocks' text is a view of the module's memory that the next overwrites, which
        // `write` may take as the pack's does, its bytes copied or written before it returns.
        const fast = fields.lines >= WASM_RECORDS ? digestRecords(index, fields.lines, BLOCK, write) : undefined;
        if (fast === undefined) encode(0, fields.lines, true);
        blocks = fast ?? digests;
      }
      write(`${RETIRED_KEY}${retired}${END}`);
      patch(blocksAt, blocks);
      patch(headAt, headDigest({ ...head, blocks }));
    },
    // Should another rt save this file's index meanwhile, this one is kept only while the file is
    // still the version it describes (an index of an older reading loses to an edit's).
    () => isStill(path.join(store.rootDir, rel), fields.file),
  );
}

/**
 * saveIndexFile's text of an index of up to WRITE_SLICE lines saved whole, written in one piece:
 * the same bytes as its pieces and patches would leave.
 */
function saveSmallIndex(
  store: StateStore,
  rel: string,
  head: Omit<IndexHead, 'head'>,
  fields: { file: FileStamp; lines: number },
  index: LineIndex,
  retired: string,
): boolean {
  return store.saveText(
    'index',
    rel,
    // Made only once the store takes it (state kept and writable), then written in one piece.
    (write) => {
      const words = recordWords(index, 0, fields.lines, smallRecords);
      let blocks = '';
      for (let w = 0; w < words.length; w += BLOCK * 3)
        blocks += digestWords(words, w, Math.min(words.length, w + BLOCK * 3));
      const whole = { ...head, blocks };
      write(
        `${JSON.stringify({ ...whole, head: headDigest(whole) }).slice(0, -1)}${RECORDS_KEY}` +
          `${encodeWords(words)}${RETIRED_KEY}${retired}${END}`,
      );
    },
    () => isStill(path.join(store.rootDir, rel), fields.file),
  );
}

/**
 * The digests of the records of lines from..to-1 of the saved index `source`, by blocks of BLOCK
 * lines from `from` on (the last maybe shorter), their hex run together: its pieces read again and
 * gathered, a few blocks at a time, into arrays digested in WebAssembly where it can be.
 */
function movedDigests(source: RecordsSource, from: number, to: number): string {
  if (!source.pieces) throw new Error('the saved records cannot be read again by the piece');
  const size = PASS_PIECE + BLOCK;
  const buffer = { h1: new Uint32Array(size), h2: new Uint32Array(size), lids: new Uint32Array(size) };
  let held = 0;
  let hex = '';
  const digest = (n: number) => {
    const part = { h1: buffer.h1.subarray(0, n), h2: buffer.h2.subarray(0, n), lids: buffer.lids.subarray(0, n) };
    hex += digestRecords(part, n, BLOCK) ?? digestAll(part, n);
  };
  source.pieces((at, h1, h2, lids) => {
    for (let k = Math.max(0, from - at); k < h1.length && at + k < to; ) {
      const n = Math.min(h1.length - k, to - at - k, size - held);
      buffer.h1.set(h1.subarray(k, k + n), held);
      buffer.h2.set(h2.subarray(k, k + n), held);
      buffer.lids.set(lids.subarray(k, k + n), held);
      held += n;
      k += n;
      const whole = held - (held % BLOCK);
      if (whole >= PASS_PIECE) {
        digest(whole);
        buffer.h1.copyWithin(0, whole, held);
        buffer.h2.copyWithin(0, whole, held);
        buffer.lids.copyWithin(0, whole, held);
        held -= whole;
      }
    }
  });
  if (held > 0) digest(held);
  return hex;
}

/** digestRecords's digests, in JavaScript. */
function digestAll(index: Pick<LineIndex, 'h1' | 'h2' | 'lids'>, n: number): string {
  let hex = '';
  for (let from = 0; from < n; from += BLOCK) hex += digestWords(recordWords(index, from, Math.min(n, from + BLOCK)));
  return hex;
}

/** Whether the file at `abs` is still the version `stamp` describes. */
function isStill(abs: string, stamp: FileStamp): boolean {
  try {
    const st = fs.lstatSync(abs, { bigint: true });
    return (
      Number(st.size) === stamp.size &&
      String(st.mtimeNs) === stamp.mtimeNs &&
      String(st.ctimeNs) === stamp.ctimeNs &&
      String(st.ino) === stamp.ino
    );
  } catch {
    return false;
  }
}

/**
 * Where the kept records go in an index of `lines` lines: its lines 0..before-1 are those of
 * the saved index (of `oldLines` lines), and its lines after.. those the saved index has
 * `shift` lines earlier; undefined when the counts do not fit.
 */
function keptLines(
  kept: KeptRecords,
  lines: number,
): { before: number; after: number; shift: number; oldLines: number } | undefined {
  const oldLines = sourceOf(kept.text).lines;
  const after = kept.start + kept.inserted;
  const fits =
    Number.isInteger(oldLines) &&
    kept.start <= kept.end &&
    kept.end <= oldLines &&
    lines === oldLines - (kept.end - kept.start) + kept.inserted;
  return fits ? { before: kept.start, after, shift: after - kept.end, oldLines } : undefined;
}

/**
 * Lines whose records are encoded and written at a time: few writes, no string of all the
 * records, and each slice's text (64 KiB) small enough to live in V8's young heap (Node makes
 * strings over about 1 MB external, freed only by a full collection). Slices of 256 KiB left
 * several megabytes of them uncollected at a big file's first save, its peak of memory.
 */
const WRITE_SLICE = 4 * BLOCK;

/** The record words of a small index being saved (see saveSmallIndex), reused. */
const smallRecords = new Uint32Array(WRITE_SLICE * 3);

/** Sets a saved index aside, for `why` (a function, not a closure made at each open). */
function setAside(entry: StateEntry, why: string): undefined {
  entry.setAside(why);
  return undefined;
}

/**
 * The head's text (without its closing brace), where the records start, and the bytes read; text
 * undefined when there is no records key. The first read takes 64 KiB: the whole index of a file
 * of a few thousand lines, the head of one of a few million.
 */
const RECORDS_MARKER = Buffer.from(RECORDS_KEY, 'latin1');

function readHead(entry: StateEntry): { text: string | undefined; recordsAt: number; prefix: Buffer } {
  const marker = RECORDS_MARKER;
  for (let length = Math.min(entry.size, 1 << 16); ; length = Math.min(entry.size, length * 8)) {
    const bytes = entry.read(0, length);
    const at = bytes.indexOf(marker);
    if (at >= 0) return { text: bytes.subarray(0, at).toString('utf8'), recordsAt: at + marker.length, prefix: bytes };
    if (length >= entry.size) return { text: undefined, recordsAt: 0, prefix: bytes };
  }
}

/**
 * The digest of a head's fields. `read`: of a head read, to check it; the head of a big index
 * (checkpoints and block digests, some 25 characters a block: 250 KB for 10,000,000 lines) is
 * then digested in WebAssembly, its UTF-8 bytes being its code units when all are ASCII (once a
 * process, the JavaScript loop ran mostly before V8 had optimised it: 3-8 ms of a grep-file).
 * (digestAscii takes the spare memory an earlier module gave back, and keeps it: the next big
 * index's records make a memory of their own.)
 */
function headDigest(h: Omit<IndexHead, 'head'>, read = false): string {
  const f = h.file;
  const text =
    `${h.path}|${h.touched}|${h.lines}|${f.size}|${f.mtimeNs}|${f.ctimeNs}|${f.ino}|${h.racy}|${h.content}|` +
    `${h.checkpoints.join(',')}|${h.blocks}|${h.retiredLength}|${h.retiredCheck}`;
  const fast = read && text.length >= WASM_DIGEST_FROM ? digestAscii(Buffer.from(text, 'utf8')) : undefined;
  return fast ?? digestText(text);
}

/** Whether every item of `list` is a whole number, 0 or more (a loop: no closure made a head read). */
function offsetsAll(list: readonly unknown[]): boolean {
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (!Number.isSafeInteger(c) || (c as number) < 0) return false;
  }
  return true;
}

/** The shape a head must have, and its digest, before any field of it is used. */
function isHead(h: Partial<IndexHead>): h is IndexHead {
  const f = h.file as Partial<FileStamp> | undefined;
  return (
    Number.isSafeInteger(h.lines) &&
    h.lines! >= 0 &&
    typeof h.touched === 'number' &&
    typeof h.racy === 'boolean' &&
    (h.content === null || typeof h.content === 'string') &&
    Array.isArray(h.checkpoints) &&
    h.checkpoints.length === Math.ceil(h.lines! / BLOCK) &&
    offsetsAll(h.checkpoints) &&
    typeof h.blocks === 'string' &&
    h.blocks.length === h.checkpoints.length * BLOCK_DIGEST &&
    Number.isSafeInteger(h.retiredLength) &&
    h.retiredLength! >= 0 &&
    typeof h.retiredCheck === 'string' &&
    typeof f === 'object' &&
    f !== null &&
    typeof f.size === 'number' &&
    typeof f.mtimeNs === 'string' &&
    typeof f.ctimeNs === 'string' &&
    typeof f.ino === 'string' &&
    typeof h.head === 'string' &&
    h.head === headDigest(h as IndexHead, true)
  );
}
