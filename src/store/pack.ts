// The packed store behind StateStore (see The store is a cache): every file's index and view live
// in a few immutable segment files under .rt/pack/, however many files rt has shown.
//
//   .rt/pack/pack-0000000042.jsonl   a segment: JSON lines, readable with standard tools
//     {"format":"rt-pack","version":1}                          its first line
//     {…one state document…}                                    one line per entry (an index, a view)
//     {"toc":[[KEY,OFFSET,LENGTH,SEQ,TOUCHED,CHECK],…]}         what it holds and where
//     {"tocAt":N,"check":"…"}                                   where the toc starts, and its digest
//   .rt/pack/tmp-PID-XXXXXX          a segment being written (removed when its process is gone)
//   .rt/pack/lock                    held while a segment is added and while segments are merged
//
// A command stages what it saves in its own temporary segment; at its end (and before a write
// releases its files' locks) the segment is renamed into place under a name no other holds: one
// file made per command, whatever it saved, and a kill at any point leaves either the whole
// segment or none of it. Every entry carries the sequence number of the segment it was first
// saved in; a key's newest entry is the one with the highest. Segments are never changed:
// readers keep them open, so a merge removing one never pulls it from under a reader. When there
// are more than MAX_SEGMENTS, the smallest are merged into one (their live entries copied as
// bytes, their sequence numbers kept), so that a save costs what it saved and the big segments
// (a big file's index) are rarely copied; a segment holding nothing live is removed.

import fs from 'node:fs';
import path from 'node:path';
import { digestText } from '../model/digest.js';
import { digestAscii, WASM_DIGEST_FROM } from '../model/wasmDigest.js';
import { type ScannedTable, scanTable } from '../model/wasmTable.js';
import { tempMark } from '../io/processes.js';
import { acquireLock, lockPoolIn, removeLockLeftovers, type Lock } from './lock.js';
import { READ_PLAIN } from './plainFile.js';
import { readAt, readInto } from './readAt.js';

const HEADER = '{"format":"rt-pack","version":1}\n';
const TRAILER_MAX = 256;
/** More segments than this, and the smallest are merged into one at the next save. */
const MAX_SEGMENTS = 8;
/** How many segments a merge leaves (the largest ones, untouched). */
const KEEP_AFTER_MERGE = 3;
/** A segment of which less than this part is live (and at least DEAD_BYTES is dead) is copied anew. */
const LIVE_PART = 0.5;
const DEAD_BYTES = 1 << 20;
const LOCK_WAIT_MS = 3000;
/**
 * The pack's lock is held for a save only (well under a second, a merge of big segments a few): one older than this
 * is broken whoever holds it, or a lock left by a killed rt whose PID another program took since, or by an rt of
 * another host (a container sharing the folder), would make every save wait LOCK_WAIT_MS and never merge again.
 */
const LOCK_STALE_MS = 60_000;
const SEGMENT = /^pack-(\d{10})\.jsonl$/;
/**
 * The highest sequence number a segment may have: the next ones must still be named by SEGMENT (ten digits), else
 * every later save would land under a name no rt lists. A planted or damaged segment numbered above is set aside.
 */
const MAX_SEQ = 9_000_000_000;
/** The largest table read: a bigger one (a damaged or planted trailer) is set aside, never read into memory. */
const MAX_TABLE = 256 << 20;
const TEMP_PREFIX = 'tmp-';
/** A tombstone: the key's newest entry is none (it was set aside). */
const NONE = -1;

/** One entry of a segment's table. */
export interface PackEntry {
  readonly key: string;
  readonly offset: number;
  /** Bytes of its one line without the newline; NONE for a tombstone. */
  readonly length: number;
  readonly seq: number;
  /** When it was saved (ms since the epoch): entries untouched for 30 days are dropped by a merge. */
  readonly touched: number;
  /** Digest of its text when the saver had it whole (a small document), else null (an index checks itself). */
  readonly check: string | null;
}

/** An entry as found, with what reads it. */
export interface Found {
  readonly entry: PackEntry;
  /** The file it lies in (a segment, or this run's temporary one), for messages. */
  readonly file: string;
  /** Bytes start..end of the entry (fewer at its end). */
  read(start: number, end: number): Buffer;
  /** Fills `into` with the entry's bytes from `start`; how many it read. */
  readInto(into: Uint8Array, start: number): number;
}

interface Segment {
  readonly name: string;
  readonly seq: number;
  readonly fd: number;
  readonly size: number;
  readonly identity: string;
  readonly table: Table;
  /** The pieces of it read and kept (see chunkedRead), by number. */
  readonly chunks: Map<number, Buffer>;
}

/** A segment that cannot be trusted: what to say when setting it aside. */
class DamagedSegment extends Error {}

/** Segments read in this process, by name: they never change, so a long-running server reads each once. */
const openSegments = new Map<string, Segment>();

export interface PackHooks {
  /** Called with a segment found damaged (it is then set aside whole) and why. */
  damaged(file: string, why: string): void;
  /** Whether the pack's folder is still a plain folder of ours (checked before each listing, never read through). */
  ownFolder(): boolean;
}

/** What staging an entry needs to know at the save, when another rt saved the same key since it was read. */
export interface Staged {
  /** Run again on the state as saved then (it loads and saves again): a view records what it showed on top. */
  readonly replay?: () => void;
  /** Whether this entry should still win over a newer one saved meanwhile (an index: whether its file is still the
   * version it describes). */
  readonly keep?: () => boolean;
}

export class Pack {
  /** The segments seen, newest sequence first; undefined until first needed. */
  private segments: Segment[] | undefined;
  /** Each key's newest entry, once this run has looked up many (see newestEntry). */
  private newest: Map<string, Newest> | undefined;
  private lookups = 0;
  /** The sequence number of each key's newest entry when this run first looked (0: none). */
  private readonly seen = new Map<string, number>();
  private highestSeen = 0;
  private staging: Staging | undefined;
  /** While a save replays what was staged: lookups see only what is saved. */
  private replaying = false;

  constructor(
    readonly dir: string,
    private readonly hooks: PackHooks,
  ) {}

  /** The newest entry of `key` (this run's own staged one first), or undefined when there is none. */
  find(key: string): Found | undefined {
    const staged = this.replaying ? undefined : this.staging?.find(key);
    if (staged) return staged;
    const hit = this.newestEntry(key);
    if (!this.seen.has(key)) this.seen.set(key, hit?.seq ?? 0);
    if (!hit || hit.segment.table.lengthOf(hit.row) === NONE) return undefined;
    return new SegmentFound(this.dir, hit.segment, hit.segment.table.at(hit.row, key));
  }

  /**
   * The newest entry of `key` and its segment: looked up in each segment's table, until this run has looked up
   * MANY_LOOKUPS keys in more than FEW_SEGMENTS; then from a map of every key's newest, made once (a search looks
   * up thousands).
   */
  private newestEntry(key: string): Newest | undefined {
    const segments = this.list();
    if (!this.newest && segments.length > FEW_SEGMENTS && ++this.lookups > MANY_LOOKUPS)
      this.newest = newestEntries(segments);
    if (this.newest) return this.newest.get(key);
    const segment = newestOf(segments, key);
    if (!segment) return undefined;
    const row = segment.table.row(key)!;
    return { segment, row, seq: segment.table.seqOf(row) };
  }

  /**
   * Stages an entry for `key`, its text produced by `produce` (see StateStore.saveText). Throws
   * when the staging file cannot be written.
   */
  stage(
    key: string,
    produce: (write: (part: string | Uint8Array) => void, patch: (at: number, part: string) => void) => void,
    staged: Staged = {},
    check: string | null = null,
  ): void {
    if (!this.seen.has(key)) this.seen.set(key, this.newestEntry(key)?.seq ?? 0);
    this.staging ??= Staging.open(this.dir);
    this.staging.add(key, produce, staged, check);
  }

  /** Stages a tombstone: `key` has no entry from now on (its entry was set aside). */
  forget(key: string): void {
    this.staging ??= Staging.open(this.dir);
    this.staging.tombstone(key);
  }

  /** Whether anything is staged. */
  get dirty(): boolean {
    return this.staging !== undefined;
  }

  /**
   * Adds what was staged to the store as one segment: under the pack's lock, what another rt saved
   * meanwhile under the same keys is looked at (views replayed onto it, an index kept only if it
   * still describes its file), the segment is given the next sequence number, and the store is
   * merged down when it holds too many segments. `sweep`: entries untouched since then are dropped
   * by a merge of every segment that holds one. Throws when the segment cannot be written.
   */
  save(sweepBefore?: number): void {
    const staging = this.staging;
    // Nothing staged: only a sweep that is due runs (merging what expired).
    if (!staging && sweepBefore === undefined) return;
    this.staging = undefined;
    let lock: Lock | undefined;
    const lockFile = path.join(this.dir, 'lock');
    for (let attempt = 0; attempt < 2 && !lock; attempt++) {
      try {
        lock = acquireLock(
          lockFile,
          'the state',
          LOCK_WAIT_MS,
          lockFile,
          LOCK_STALE_MS,
          lockPoolIn(path.dirname(this.dir)),
        );
      } catch {
        // A save without the lock is still whole and never overwrites another (it is linked under a
        // free name); it only skips the merge, and replays on what it saw. But something else than a
        // regular file at the lock or its breaker (a link, a FIFO, a folder) was planted, not left by
        // an rt: set aside, else no save would ever merge again and the pack would grow without bound.
        const planted = [lockFile, `${lockFile}.break`].filter((f) => {
          const st = fs.lstatSync(f, { throwIfNoEntry: false });
          return st !== undefined && !st.isFile();
        });
        if (attempt > 0 || planted.length === 0) break;
        for (const f of planted) this.hooks.damaged(f, 'it is not a lock rt made');
      }
    }
    try {
      this.segments = undefined;
      this.list();
      if (staging) this.settle(staging);
      if (staging && staging.count > 0) this.add(this.publish(staging));
      if (lock) {
        this.compact(sweepBefore);
        // What killed rt processes left (their staging files): gone at the next save, not the next day.
        this.removeLeftovers();
      }
    } finally {
      staging?.discard();
      lock?.release();
    }
  }

  /** Removes temporary segments of rt processes no longer running, and what a kill left of the lock. */
  removeLeftovers(): void {
    removeLockLeftovers(path.join(this.dir, 'lock'), [TEMP_PREFIX]);
  }

  /** Drops this run's staged entries (a refused command saves nothing more). */
  discard(): void {
    this.staging?.discard();
    this.staging = undefined;
  }

  /** Replays or drops staged entries whose key another rt saved since this run looked at it. */
  private settle(staging: Staging): void {
    for (const key of staging.keys()) {
      const newest = this.newestEntry(key)?.seq ?? 0;
      const saw = this.seen.get(key) ?? this.highestSeen;
      if (newest <= saw) continue;
      const staged = staging.staged(key);
      if (staged?.replay) {
        this.replaying = true;
        this.staging = staging;
        try {
          staged.replay();
        } finally {
          this.replaying = false;
          this.staging = undefined;
        }
      } else if (staged?.keep && !staged.keep()) staging.drop(key);
    }
  }

  /**
   * Writes a staged segment's table and links it into place under the next free sequence number: its
   * entries take that number (`own`), or keep their own (a merge's copies).
   */
  private publish(staging: Staging, own = true): number {
    for (let seq = this.highestSeen + 1; ; seq++) {
      staging.finish(own ? seq : undefined);
      try {
        fs.linkSync(staging.file, path.join(this.dir, segmentName(seq)));
        this.highestSeen = seq;
        return seq;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
  }

  /**
   * Merges the store down (under the lock): segments with nothing live are removed; when there are
   * more than MAX_SEGMENTS, the smallest are merged into one; a segment mostly dead is copied anew.
   */
  private compact(sweepBefore: number | undefined): void {
    // The listing made under the lock, with the segment this save added: no other rt merged or removed one since (a
    // merge takes the lock), and a segment a save without the lock added meanwhile is left to the next merge.
    const segments = this.list();
    // Many rows outside the biggest segment (a search saved thousands), or a sweep: from a map of every key's newest.
    const biggest = Math.max(0, ...segments.map((s) => s.table.size));
    const others = segments.reduce((n, s) => n + s.table.size, 0) - biggest;
    if (!this.newest && (others > MANY_LOOKUPS || sweepBefore !== undefined)) this.newest = newestEntries(segments);
    const live = this.newest ? liveEntries(segments, this.newest, sweepBefore) : liveEntriesAround(segments);
    const liveBytes = (s: Segment) => live.get(s)!.bytes;
    // The segment of the highest number stays, even with nothing live: its number must not be given again (a run
    // that saw it would take a later entry under it for one it had already seen).
    const top = segments[0];
    const empty = segments.filter((s) => s !== top && !live.get(s)!.count);
    const rest = segments.filter((s) => live.get(s)!.count);
    let merge: Segment[] = [];
    if (rest.length > MAX_SEGMENTS) {
      merge = [...rest].sort((a, b) => liveBytes(a) - liveBytes(b)).slice(0, rest.length - KEEP_AFTER_MERGE);
    }
    for (const s of rest) {
      const used = liveBytes(s);
      const expired = sweepBefore !== undefined && live.get(s)!.count < s.table.size;
      if (!merge.includes(s) && (expired || (s.size - used >= DEAD_BYTES && used < s.size * LIVE_PART))) merge.push(s);
    }
    if (merge.length > 0) {
      const into = Staging.open(this.dir);
      try {
        for (const s of merge) for (const e of live.get(s)!.entries()) into.copy(e, s.fd);
        if (into.count > 0) this.publish(into, false);
      } finally {
        into.discard();
      }
    }
    for (const s of [...empty, ...merge]) {
      try {
        fs.unlinkSync(path.join(this.dir, s.name));
      } catch {
        // Already removed by another rt's merge.
      }
    }
    this.segments = undefined;
  }

  /** Adds the segment this run just published as `seq` to its listing (it never changes: read back once). */
  private add(seq: number): void {
    const segment = this.segments && this.segment(segmentName(seq));
    if (!segment || segment === 'gone') {
      this.segments = undefined;
      return;
    }
    this.segments = [segment, ...this.segments!];
    if (this.newest) addNewest(this.newest, segment);
  }

  /**
   * The segments now in the folder, newest first, each read once per process (they never change);
   * damaged ones are set aside. A segment removed by another rt's merge between the listing and its
   * opening sends the listing round again: its entries are in the segment that merge made.
   */
  private list(): Segment[] {
    if (this.segments) return this.segments;
    for (let attempt = 0; ; attempt++) {
      let names: string[];
      try {
        names = this.hooks.ownFolder() ? fs.readdirSync(this.dir).filter((n) => SEGMENT.test(n)) : [];
      } catch {
        names = [];
      }
      const segments: Segment[] = [];
      let vanished = false;
      for (const name of names) {
        const segment = this.segment(name);
        if (segment === 'gone') vanished = true;
        else if (segment) segments.push(segment);
      }
      if (vanished && attempt < 5) continue;
      segments.sort((a, b) => b.seq - a.seq);
      this.segments = segments;
      // (A key's newest entry is looked up in each segment's table when asked, see newestEntry: a command needing a
      // few makes no map of every key, which was made at each listing, twice a command that saves.)
      this.newest = undefined;
      for (const segment of segments) this.highestSeen = Math.max(this.highestSeen, segment.seq);
      const here = new Set(names.map((n) => path.join(this.dir, n)));
      for (const [file, s] of openSegments)
        if (!here.has(file) && path.dirname(file) === this.dir) {
          // Gone from the folder: closed once no run of this process can be reading it (the next listing).
          openSegments.delete(file);
          closeLater.push(s.fd);
        }
      return segments;
    }
  }

  private segment(name: string): Segment | 'gone' | undefined {
    const file = path.join(this.dir, name);
    let fd: number;
    try {
      fd = fs.openSync(file, READ_PLAIN);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // A symbolic link in a segment's place is never followed: set aside (the link itself), as damage is.
      if (code === 'ELOOP') this.hooks.damaged(file, 'it is a symbolic link');
      return code === 'ENOENT' ? 'gone' : undefined;
    }
    const st = fs.fstatSync(fd);
    const identity = `${st.ino}:${st.size}:${st.mtimeMs}`;
    const known = openSegments.get(file);
    if (known && known.identity === identity) {
      fs.closeSync(fd);
      return known;
    }
    if (known) {
      openSegments.delete(file);
      closeLater.push(known.fd);
    }
    try {
      if (!st.isFile()) throw new DamagedSegment('it is not a regular file');
      const seq = Number(SEGMENT.exec(name)![1]);
      if (seq > MAX_SEQ) throw new DamagedSegment('its number is out of range');
      const table = readTable(fd, st.size, seq);
      const segment: Segment = { name, seq, fd, size: st.size, identity, table, chunks: new Map() };
      openSegments.set(file, segment);
      return segment;
    } catch (error) {
      fs.closeSync(fd);
      if (error instanceof DamagedSegment) this.hooks.damaged(file, error.message);
      return undefined;
    }
  }
}

/** File descriptors of segments gone from the folder, closed at the next command's listing. */
const closeLater: number[] = [];

/** Closes the segments an earlier command left open and that are gone (see Pack.list). */
export function closeGoneSegments(): void {
  for (const fd of closeLater.splice(0)) {
    try {
      fs.closeSync(fd);
    } catch {
      // already closed
    }
  }
}

function segmentName(seq: number): string {
  return `pack-${String(seq).padStart(10, '0')}.jsonl`;
}

/**
 * An entry of a segment as found: a class, not an object literal with a getter and closures, since a search makes one
 * for each file it prints (thousands), twice (its index and its view).
 */
class SegmentFound implements Found {
  constructor(
    private readonly dir: string,
    private readonly segment: Segment,
    readonly entry: PackEntry,
  ) {}

  // (Named only in messages: not joined for every entry read.)
  get file(): string {
    return path.join(this.dir, this.segment.name);
  }

  read(start: number, end: number): Buffer {
    const { entry } = this;
    return chunkedRead(this.segment, entry.offset + start, entry.offset + Math.min(end, entry.length));
  }

  readInto(into: Uint8Array, start: number): number {
    const { entry, segment } = this;
    const want = Math.max(0, Math.min(into.length, entry.length - start));
    // A read of this size or more costs less made as it is than through a chunk (read, kept, copied).
    if (want >= DIRECT_READ) return readInto(segment.fd, into.subarray(0, want), entry.offset + start);
    const bytes = chunkedRead(segment, entry.offset + start, entry.offset + start + want);
    into.set(bytes);
    return bytes.length;
  }
}

/**
 * Segments are read by the chunk of CHUNK bytes, kept in memory while CHUNKS_KEPT bytes allow (the
 * first read go first): a search printing hits of thousands of files reads their indexes
 * and views, small entries lying side by side, a few hundred reads in all rather than several a
 * file. A segment never changes, so a chunk read stays true while the segment is open.
 */
const CHUNK = 1 << 16;
/**
 * Reads into a caller's memory (see SegmentFound.readInto) of this many bytes or more are made
 * straight from the file.
 */
const DIRECT_READ = 1 << 12;
const CHUNKS_KEPT = 32 << 20;
/** The pieces kept, oldest read first. */
const keptChunks: Array<{ readonly segment: Segment; readonly n: number }> = [];
let chunkBytes = 0;

/** Bytes start..end of a segment (fewer at its end); a range wider than a piece is read as it is. */
function chunkedRead(segment: Segment, start: number, end: number): Buffer {
  if (end - start > CHUNK) return readAt(segment.fd, start, end);
  const first = Math.floor(start / CHUNK);
  const last = Math.floor(Math.max(start, end - 1) / CHUNK);
  const a = segmentChunk(segment, first);
  if (first === last) return a.subarray(start - first * CHUNK, Math.min(a.length, end - first * CHUNK));
  const b = segmentChunk(segment, last);
  return Buffer.concat([a.subarray(start - first * CHUNK), b.subarray(0, Math.max(0, end - last * CHUNK))]);
}

function segmentChunk(segment: Segment, n: number): Buffer {
  const known = segment.chunks.get(n);
  if (known) return known;
  const chunk = readAt(segment.fd, n * CHUNK, Math.min(segment.size, (n + 1) * CHUNK));
  segment.chunks.set(n, chunk);
  keptChunks.push({ segment, n });
  chunkBytes += chunk.length;
  while (chunkBytes > CHUNKS_KEPT) {
    const old = keptChunks.shift()!;
    chunkBytes -= old.segment.chunks.get(old.n)?.length ?? 0;
    old.segment.chunks.delete(old.n);
  }
  return chunk;
}

function entryIn(file: string, fd: number, entry: PackEntry): Found {
  return {
    entry,
    file,
    read: (start, end) => readAt(fd, entry.offset + start, entry.offset + Math.min(end, entry.length)),
    readInto: (into, start) =>
      readInto(fd, into.subarray(0, Math.max(0, Math.min(into.length, entry.length - start))), entry.offset + start),
  };
}

/**
 * A segment's table, checked: its rows by number, found by key. Columns, not an object a row: a table of 20,000 rows
 * is read by every command in its root, and its objects, with a map of every key's newest made again at each
 * listing, were most of what a small command spent there (with their collection).
 */
abstract class Table {
  abstract readonly size: number;
  /** Bytes of its entries. */
  abstract readonly bytes: number;
  /** The rows of its tombstones. */
  abstract readonly tombstones: readonly number[];
  /** The row of `key`, or undefined. */
  abstract row(key: string): number | undefined;
  abstract keyOf(row: number): string;
  abstract offsetOf(row: number): number;
  abstract lengthOf(row: number): number;
  abstract seqOf(row: number): number;
  abstract touchedOf(row: number): number;
  abstract checkOf(row: number): string | null;

  /** The entry of row `row` (its key given when known). */
  at(row: number, key = this.keyOf(row)): PackEntry {
    return {
      key,
      offset: this.offsetOf(row),
      length: this.lengthOf(row),
      seq: this.seqOf(row),
      touched: this.touchedOf(row),
      check: this.checkOf(row),
    };
  }
}

/** A table read by JSON.parse: the reference, for any table (see readTable). */
class ParsedTable extends Table {
  constructor(
    private readonly keys: readonly string[],
    /** Row i's offset, length, sequence number and time at 4i to 4i + 3. */
    private readonly numbers: Float64Array,
    private readonly checks: ReadonlyArray<string | null>,
    private readonly rows: ReadonlyMap<string, number>,
    readonly bytes: number,
    readonly tombstones: readonly number[],
  ) {
    super();
  }

  get size(): number {
    return this.keys.length;
  }

  row(key: string): number | undefined {
    return this.rows.get(key);
  }

  keyOf(row: number): string {
    return this.keys[row]!;
  }

  offsetOf(row: number): number {
    return this.numbers[4 * row]!;
  }

  lengthOf(row: number): number {
    return this.numbers[4 * row + 1]!;
  }

  seqOf(row: number): number {
    return this.numbers[4 * row + 2]!;
  }

  touchedOf(row: number): number {
    return this.numbers[4 * row + 3]!;
  }

  checkOf(row: number): string | null {
    return this.checks[row]!;
  }
}

/** A big table of the usual form, read in WebAssembly (see src/model/wasmTable.ts). */
class ScannedRows extends Table {
  private kept: number[] | undefined;

  constructor(private readonly scanned: ScannedTable) {
    super();
  }

  get size(): number {
    return this.scanned.size;
  }

  get bytes(): number {
    return this.scanned.bytes;
  }

  get tombstones(): readonly number[] {
    if (!this.kept) {
      this.kept = [];
      for (let r = 0; this.scanned.tombstoneCount > 0 && r < this.size; r++)
        if (this.scanned.lengthOf(r) === NONE) this.kept.push(r);
    }
    return this.kept;
  }

  row(key: string): number | undefined {
    const row = this.scanned.row(key);
    return row < 0 ? undefined : row;
  }

  keyOf(row: number): string {
    return this.scanned.keyOf(row);
  }

  offsetOf(row: number): number {
    return this.scanned.offsetOf(row);
  }

  lengthOf(row: number): number {
    return this.scanned.lengthOf(row);
  }

  seqOf(row: number): number {
    return this.scanned.seqOf(row);
  }

  touchedOf(row: number): number {
    return this.scanned.touchedOf(row);
  }

  checkOf(row: number): string | null {
    return this.scanned.checkOf(row);
  }
}

/**
 * The segment holding the newest entry of `key` (the highest sequence number; of equals, the first listed), of
 * `segments` listed newest first: a segment numbered no higher than an entry found holds none newer.
 */
function newestOf(segments: readonly Segment[], key: string): Segment | undefined {
  let found: Segment | undefined;
  let seq = Number.NEGATIVE_INFINITY;
  for (const segment of segments) {
    if (segment.seq <= seq) break;
    const row = segment.table.row(key);
    if (row !== undefined && segment.table.seqOf(row) > seq) {
      found = segment;
      seq = segment.table.seqOf(row);
    }
  }
  return found;
}

/** An entry found: its segment, its row there and its sequence number (no entry made until it is read). */
interface Newest {
  readonly segment: Segment;
  readonly row: number;
  readonly seq: number;
}

/** Keys looked up in each segment's table by a run before it makes a map of every key's newest entry. */
const MANY_LOOKUPS = 64;

/**
 * Segments few enough that a key is looked up in each of their tables however many keys a run
 * looks up: a few lookups in tables already hashed cost less than making the map (a warm grep
 * showing 10,000 files spent some 50 ms making it, and 9% more CPU than looking up in each).
 */
const FEW_SEGMENTS = 4;

/** Every key's newest entry in `segments` (listed newest first; of equal sequence numbers, the first listed). */
function newestEntries(segments: readonly Segment[]): Map<string, Newest> {
  const newest = new Map<string, Newest>();
  for (const segment of segments) addNewest(newest, segment);
  return newest;
}

/** Adds the entries of `segment` to `newest` where they are newer. */
function addNewest(newest: Map<string, Newest>, segment: Segment): void {
  const { table } = segment;
  for (let row = 0; row < table.size; row++) {
    const key = table.keyOf(row);
    const seq = table.seqOf(row);
    const known = newest.get(key);
    if (!known || known.seq < seq) newest.set(key, { segment, row, seq });
  }
}

/** The table of a segment of `size` bytes, checked; throws DamagedSegment when it cannot be trusted. */
function readTable(fd: number, size: number, seq: number): Table {
  if (size < HEADER.length || readAt(fd, 0, HEADER.length).toString('latin1') !== HEADER)
    throw new DamagedSegment('it is not an rt pack of this version');
  const tail = readAt(fd, Math.max(0, size - TRAILER_MAX), size).toString('latin1');
  const lineStart = tail.lastIndexOf('\n', tail.length - 2) + 1;
  let trailer: { tocAt?: unknown; check?: unknown };
  try {
    trailer = JSON.parse(tail.slice(lineStart));
  } catch {
    throw new DamagedSegment('it is truncated or damaged');
  }
  const tocEnd = size - (tail.length - lineStart);
  const tocAt = trailer.tocAt;
  if (typeof tocAt !== 'number' || !Number.isSafeInteger(tocAt) || tocAt < HEADER.length || tocAt >= tocEnd)
    throw new DamagedSegment('it is truncated or damaged');
  if (tocEnd - tocAt > MAX_TABLE) throw new DamagedSegment('its table is damaged');
  const bytes = readAt(fd, tocAt, tocEnd);
  // A big table of ASCII (every key a plain path) is checked over its bytes (see src/model/wasmDigest.ts).
  const fast = bytes.length >= WASM_DIGEST_FROM ? digestAscii(bytes) : undefined;
  if (fast !== undefined) {
    if (fast !== trailer.check) throw new DamagedSegment('its table is damaged');
    const scanned = scanTable(bytes, tocAt, seq, HEADER.length);
    if (scanned) return new ScannedRows(scanned);
  }
  const text = bytes.toString(fast === undefined ? 'utf8' : 'latin1');
  if (fast === undefined && digestText(text) !== trailer.check) throw new DamagedSegment('its table is damaged');
  let toc: unknown;
  try {
    toc = (JSON.parse(text) as { toc?: unknown }).toc;
  } catch {
    throw new DamagedSegment('its table is damaged');
  }
  if (!Array.isArray(toc)) throw new DamagedSegment('its table is damaged');
  const count = toc.length;
  const keys = new Array<string>(count);
  const numbers = new Float64Array(4 * count);
  const checks = new Array<string | null>(count);
  const rows = new Map<string, number>();
  const tombstones: number[] = [];
  let entryBytes = 0;
  for (let i = 0; i < count; i++) {
    const row: unknown = toc[i];
    // Checked before it is taken apart: a row that is no array (null, a number) would throw a TypeError, not
    // DamagedSegment, and the segment would be skipped on every run instead of set aside.
    if (!Array.isArray(row)) throw new DamagedSegment('its table is damaged');
    // (Taken by index: destructuring goes through the array's iterator until the code is optimised, and a table
    // of thousands of rows is read once a run, mostly before.)
    const key: unknown = row[0];
    const offset: unknown = row[1];
    const length: unknown = row[2];
    const entrySeq: unknown = row[3];
    const touched: unknown = row[4];
    const check: unknown = row[5];
    if (
      typeof key !== 'string' ||
      !Number.isSafeInteger(offset) ||
      !Number.isSafeInteger(length) ||
      !Number.isSafeInteger(entrySeq) ||
      typeof touched !== 'number' ||
      (check !== null && typeof check !== 'string') ||
      (entrySeq as number) > seq ||
      (offset as number) < HEADER.length ||
      (length as number) < NONE ||
      (offset as number) + Math.max(0, length as number) > tocAt
    )
      throw new DamagedSegment('its table is damaged');
    rows.set(key, i);
    // A key named twice: rt writes a table from a map of its keys, so this one was not written by rt.
    if (rows.size !== i + 1) throw new DamagedSegment('its table is damaged');
    keys[i] = key;
    numbers[4 * i] = offset as number;
    numbers[4 * i + 1] = length as number;
    numbers[4 * i + 2] = entrySeq as number;
    numbers[4 * i + 3] = touched;
    checks[i] = check as string | null;
    if (length === NONE) tombstones.push(i);
    else entryBytes += length as number;
  }
  return new ParsedTable(keys, numbers, checks, rows, entryBytes, tombstones);
}

/** The entries of a segment that are live (see liveEntries): how many, their bytes, and (when needed) which. */
interface Live {
  readonly count: number;
  readonly bytes: number;
  entries(): PackEntry[];
}

/**
 * The entries each segment holds that are live: the newest of their key across all segments, tombstones only while
 * an older entry of their key is left in another segment, and (with `sweepBefore`) not untouched since then (an index
 * is kept while a view of its file is not). Taken from `newest`, the map of every key's newest entry.
 */
function liveEntries(
  segments: readonly Segment[],
  newest: ReadonlyMap<string, Newest>,
  sweepBefore: number | undefined,
): Map<Segment, Live> {
  const viewed = new Set<string>();
  if (sweepBefore !== undefined)
    for (const [key, { segment, row }] of newest)
      if (key.startsWith('view') && segment.table.touchedOf(row) >= sweepBefore)
        viewed.add(key.slice(key.indexOf(':') + 1));
  const kept = new Map<Segment, number[]>(segments.map((s) => [s, []]));
  for (const [key, { segment, row }] of newest) {
    const table = segment.table;
    if (table.lengthOf(row) === NONE) {
      if (!heldElsewhere(segments, segment, key)) continue;
    } else if (
      sweepBefore !== undefined &&
      table.touchedOf(row) < sweepBefore &&
      !(key.startsWith('index:') && viewed.has(key.slice('index:'.length)))
    )
      continue;
    kept.get(segment)!.push(row);
  }
  return new Map(segments.map((s) => [s, liveOf(s, kept.get(s)!)]));
}

/**
 * liveEntries when a few keys lie outside the biggest segment (a command that saved a few), without a sweep: the
 * biggest is not gone through row by row, since an entry of it can be dead only if its key is in another segment
 * too, or if it is a tombstone (a save in a root of 20,000 entries made a map of them all).
 */
function liveEntriesAround(segments: readonly Segment[]): Map<Segment, Live> {
  const isLive = (s: Segment, r: number): boolean => {
    const key = s.table.keyOf(r);
    if (newestOf(segments, key) !== s) return false;
    return s.table.lengthOf(r) !== NONE || heldElsewhere(segments, s, key);
  };
  const big = segments.reduce<Segment | undefined>((a, s) => (a && a.table.size >= s.table.size ? a : s), undefined);
  const live = new Map<Segment, Live>();
  for (const s of segments) {
    if (s === big) continue;
    const kept: number[] = [];
    for (let r = 0; r < s.table.size; r++) if (isLive(s, r)) kept.push(r);
    live.set(s, liveOf(s, kept));
  }
  if (big) {
    const looked = new Set<string>();
    let dead = 0;
    let deadBytes = 0;
    for (const s of segments)
      for (let r = 0; s !== big && r < s.table.size; r++) {
        const key = s.table.keyOf(r);
        const row = big.table.row(key);
        if (row === undefined || looked.has(key)) continue;
        looked.add(key);
        if (!isLive(big, row)) {
          dead++;
          deadBytes += Math.max(0, big.table.lengthOf(row));
        }
      }
    // A tombstone whose key no other segment holds (they were looked at above) is dead.
    for (const row of big.table.tombstones) if (!looked.has(big.table.keyOf(row))) dead++;
    live.set(big, {
      count: big.table.size - dead,
      bytes: big.table.bytes - deadBytes,
      entries: () => {
        const kept: number[] = [];
        for (let r = 0; r < big.table.size; r++) if (isLive(big, r)) kept.push(r);
        return kept.map((r) => big.table.at(r));
      },
    });
  }
  return live;
}

/** Whether a segment of `segments` other than `segment` holds an entry of `key` (which keeps a tombstone live). */
function heldElsewhere(segments: readonly Segment[], segment: Segment, key: string): boolean {
  return segments.some((o) => o !== segment && o.table.row(key) !== undefined);
}

/** The live entries of `segment`, its rows `rows`. */
function liveOf(segment: Segment, rows: readonly number[]): Live {
  let bytes = 0;
  for (const r of rows) bytes += Math.max(0, segment.table.lengthOf(r));
  return { count: rows.length, bytes, entries: () => rows.map((r) => segment.table.at(r)) };
}

/** A segment being written by this run: its entries in a temporary file, its table in memory. */
class Staging {
  private position = HEADER.length;
  private readonly table = new Map<string, { entry: PackEntry; staged: Staged }>();
  /**
   * Bytes from `pendingAt` on not written to the file yet: thousands of small entries (a search's
   * views and indexes) go out in a few writes, not several each.
   */
  private pending = Buffer.allocUnsafe(PENDING);
  private pendingAt = 0;
  private pendingLength = 0;

  private constructor(
    readonly file: string,
    private readonly fd: number,
  ) {}

  static open(dir: string): Staging {
    const file = path.join(dir, `${TEMP_PREFIX}${tempMark()}`);
    const fd = fs.openSync(file, 'wx+');
    const staging = new Staging(file, fd);
    staging.writeAt(Buffer.from(HEADER, 'latin1'), 0);
    return staging;
  }

  get count(): number {
    return this.table.size;
  }

  keys(): string[] {
    return [...this.table.keys()];
  }

  staged(key: string): Staged | undefined {
    return this.table.get(key)?.staged;
  }

  find(key: string): Found | undefined {
    const known = this.table.get(key)?.entry;
    if (!known) return undefined;
    this.flushPending(); // read back from the file
    return known.length === NONE ? undefined : entryIn(this.file, this.fd, known);
  }

  add(
    key: string,
    produce: (write: (part: string | Uint8Array) => void, patch: (at: number, part: string) => void) => void,
    staged: Staged,
    check: string | null,
  ): void {
    const offset = this.position;
    produce(
      (part) => {
        const bytes = typeof part === 'string' ? Buffer.from(part, 'utf8') : part;
        this.writeAt(bytes, this.position);
        this.position += bytes.length;
      },
      (at, part) => this.writeAt(Buffer.from(part, 'utf8'), offset + at),
    );
    const length = this.position - offset;
    this.writeAt(NEWLINE, this.position++);
    this.table.delete(key); // most recent last
    this.table.set(key, { entry: { key, offset, length, seq: 0, touched: Date.now(), check }, staged });
  }

  tombstone(key: string): void {
    this.table.delete(key);
    const entry = { key, offset: HEADER.length, length: NONE, seq: 0, touched: Date.now(), check: null };
    this.table.set(key, { entry, staged: {} });
  }

  drop(key: string): void {
    this.table.delete(key);
  }

  /** Copies an entry of another segment (open as `fd`), keeping its sequence number and time. */
  copy(entry: PackEntry, fd: number): void {
    const offset = this.position;
    if (entry.length > 0) {
      const chunk = Buffer.allocUnsafe(Math.min(entry.length, 1 << 20));
      for (let done = 0; done < entry.length; ) {
        const got = readInto(fd, chunk.subarray(0, Math.min(chunk.length, entry.length - done)), entry.offset + done);
        if (got === 0) throw new Error('a segment ended early');
        this.writeAt(chunk.subarray(0, got), offset + done);
        done += got;
      }
      this.position += entry.length;
      this.writeAt(NEWLINE, this.position++);
    }
    this.table.set(entry.key, { entry: { ...entry, offset: entry.length > 0 ? offset : HEADER.length }, staged: {} });
  }

  /** Writes the table and trailer after the entries (`seq` for entries staged by this run; undefined: kept as they
   * are). */
  finish(seq: number | undefined): void {
    const rows = [...this.table.values()].map(({ entry: e }) => [
      e.key,
      e.offset,
      e.length,
      seq === undefined ? e.seq : seq,
      e.touched,
      e.check,
    ]);
    const toc = `${JSON.stringify({ toc: rows })}\n`;
    const trailer = `${JSON.stringify({ tocAt: this.position, check: digestText(toc) })}\n`;
    const bytes = Buffer.from(toc + trailer, 'utf8');
    this.flushPending();
    fs.ftruncateSync(this.fd, this.position);
    writeFully(this.fd, bytes, this.position);
    this.pendingAt = this.position + bytes.length;
  }

  discard(): void {
    try {
      fs.closeSync(this.fd);
    } catch {
      // closed already
    }
    try {
      fs.unlinkSync(this.file);
    } catch {
      // gone already
    }
  }

  /** Writes `bytes` at `at`: into the pending bytes when they fit there (appended or patched), else to the file. */
  private writeAt(bytes: Uint8Array, at: number): void {
    const end = this.pendingAt + this.pendingLength;
    if (at >= this.pendingAt && at + bytes.length <= end) {
      this.pending.set(bytes, at - this.pendingAt);
      return;
    }
    if (at === end && bytes.length <= PENDING) {
      if (this.pendingLength + bytes.length > PENDING) this.flushPending();
      if (this.pendingLength === 0) this.pendingAt = at;
      this.pending.set(bytes, this.pendingLength);
      this.pendingLength += bytes.length;
      return;
    }
    // Elsewhere (a patch of bytes gone out, or a big part): what is pending goes first, so that the file is in order.
    this.flushPending();
    writeFully(this.fd, bytes, at);
    if (at === end) this.pendingAt = at + bytes.length;
  }

  /** Writes the pending bytes to the file. */
  private flushPending(): void {
    if (this.pendingLength > 0) writeFully(this.fd, this.pending.subarray(0, this.pendingLength), this.pendingAt);
    this.pendingAt += this.pendingLength;
    this.pendingLength = 0;
  }
}

const PENDING = 1 << 20;

function writeFully(fd: number, bytes: Uint8Array, at: number): void {
  for (let done = 0; done < bytes.length; ) done += fs.writeSync(fd, bytes, done, bytes.length - done, at + done);
}

const NEWLINE = Buffer.from('\n');
