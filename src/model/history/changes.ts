// What a step of the history keeps of a file it changed: not copies of the file, but
// its changed byte ranges on both sides, each a run of whole lines, with the LIDs of those
// lines. Either side is the other with those ranges put back: undo turns what the step wrote
// into what it found, redo the other way round, byte for byte.

import { sliceParts } from '../edit.js';
import type { EditSpan } from '../editSet.js';
import { hashLines, type LineHashes } from '../hash.js';
import { splitLines, type FileLines } from '../lines.js';

/**
 * One changed range as a step keeps it: lines from..to (0-based, end excluded) of each side, and
 * their bytes there. An edit's span widened to the lines whose ending it may have changed.
 */
export interface StepHunk {
  readonly before: StepSide;
  readonly after: StepSide;
}

export interface StepSide {
  /** First line (0-based) and the line after the last. */
  readonly from: number;
  readonly to: number;
  /** Byte offsets of those lines in the file of that side. */
  readonly start: number;
  readonly end: number;
}

/**
 * The changed ranges of a file that went from `before` to `after` by edits at `regions` (an
 * EditSet's spans, in file order): each region widened by one line on each side (the line before a change may
 * have lost or gained its ending at the end of the file), ranges that meet made one. Outside
 * them, the two sides hold the same lines, in the same order.
 */
export function hunksOf(before: FileLines, after: FileLines, regions: readonly EditSpan[]): StepHunk[] {
  const out: Array<{ bf: number; bt: number; af: number; at: number }> = [];
  for (const r of regions) {
    const widen = r.oldStart > 0 && r.newStart > 0 ? 1 : 0;
    const range = {
      bf: r.oldStart - widen,
      bt: Math.min(before.count, r.oldStart + r.oldCount + 1),
      af: r.newStart - widen,
      at: Math.min(after.count, r.newStart + r.newCount + 1),
    };
    const last = out[out.length - 1];
    if (last && range.bf <= last.bt) {
      last.bt = Math.max(last.bt, range.bt);
      last.at = Math.max(last.at, range.at);
    } else out.push(range);
  }
  return out.map(({ bf, bt, af, at }) => ({
    before: { from: bf, to: bt, start: before.starts[bf]!, end: before.starts[bt]! },
    after: { from: af, to: at, start: after.starts[af]!, end: after.starts[at]! },
  }));
}

/**
 * `file` (one side of a step: `from`) with each hunk's range replaced by the bytes of the other
 * side (`other[i]` for hunk i): the other side's file, byte for byte.
 */
export function swapHunks(
  file: Buffer,
  hunks: readonly StepHunk[],
  from: 'before' | 'after',
  other: readonly Buffer[],
): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  hunks.forEach((h, i) => {
    const side = h[from];
    parts.push(file.subarray(at, side.start), other[i]!);
    at = side.end;
  });
  parts.push(file.subarray(at));
  return Buffer.concat(parts);
}

/**
 * The LIDs of the file `swapHunks` makes: the lines outside the hunks keep theirs (`lids`, of
 * the side `from`), those inside take the ones they had on the other side (`otherLids[i]`).
 */
export function swapLids(
  lids: Uint32Array,
  hunks: readonly StepHunk[],
  from: 'before' | 'after',
  otherLids: readonly Uint32Array[],
): Uint32Array {
  const to = from === 'before' ? 'after' : 'before';
  const count = lids.length + hunks.reduce((n, h) => n + (h[to].to - h[to].from) - (h[from].to - h[from].from), 0);
  const out = new Uint32Array(count);
  let read = 0;
  let write = 0;
  hunks.forEach((h, i) => {
    const kept = lids.subarray(read, h[from].from);
    out.set(kept, write);
    write += kept.length;
    out.set(otherLids[i]!, write);
    write += otherLids[i]!.length;
    read = h[from].to;
  });
  out.set(lids.subarray(read), write);
  return out;
}

/** A file as `swapLines` makes it: its bytes in parts (never joined), its lines and their fingerprints. */
export interface SwappedFile {
  readonly parts: Buffer[];
  readonly size: number;
  readonly count: number;
  /** starts[i]: where line i begins; starts[count] = size. */
  readonly starts: Uint32Array;
  /** contentEnds[i]: where line i's content ends (before its line ending). */
  readonly contentEnds: Uint32Array;
  readonly hashes: LineHashes;
  /** Line i's content. */
  content(i: number): Buffer;
}

/**
 * What `swapHunks` makes, with its lines and their fingerprints, found by looking at the
 * changed ranges only: the lines outside them are `lines` (with their `hashes`) moved by the
 * change in length. Undefined when a range does not hold whole lines of the count the hunk
 * says (a damaged step): the caller then splits the joined bytes.
 */
export function swapLines(
  lines: FileLines,
  hashes: LineHashes,
  hunks: readonly StepHunk[],
  from: 'before' | 'after',
  other: readonly Buffer[],
): SwappedFile | undefined {
  const to = from === 'before' ? 'after' : 'before';
  const count = lines.count + hunks.reduce((n, h) => n + (h[to].to - h[to].from) - (h[from].to - h[from].from), 0);
  const starts = new Uint32Array(count + 1);
  const contentEnds = new Uint32Array(count);
  const h1 = new Uint32Array(count);
  const h2 = new Uint32Array(count);
  const parts: Buffer[] = [];
  let read = 0; // next line of `lines` to copy
  let write = 0; // next line of the result
  let delta = 0; // bytes the ranges so far added
  const copy = (until: number) => {
    for (let i = read; i < until; i++, write++) {
      starts[write] = lines.starts[i]! + delta;
      contentEnds[write] = lines.contentEnds[i]! + delta;
    }
    h1.set(hashes.h1.subarray(read, until), write - (until - read));
    h2.set(hashes.h2.subarray(read, until), write - (until - read));
  };
  let byte = 0;
  for (let k = 0; k < hunks.length; k++) {
    const h = hunks[k]!;
    const side = h[from];
    if (
      side.from < read ||
      side.to > lines.count ||
      lines.starts[side.from] !== side.start ||
      lines.starts[side.to] !== side.end
    )
      return undefined;
    copy(side.from);
    const bytes = other[k]!;
    // A range from the file's first byte whose other side starts with a BOM (create --force): the BOM is no line's
    // content, as a whole split says.
    if (side.start === 0 && bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
      return undefined;
    const region = splitLines(bytes, false);
    const wanted = h[to].to - h[to].from;
    const atEnd = side.to === lines.count;
    // Whole lines, each ended but maybe the file's last.
    if (region.count !== wanted || (!atEnd && wanted > 0 && bytes[bytes.length - 1] !== 0x0a)) return undefined;
    const at = side.start + delta;
    const regionHashes = hashLines(region);
    for (let r = 0; r < region.count; r++, write++) {
      starts[write] = at + region.starts[r]!;
      contentEnds[write] = at + region.contentEnds[r]!;
      h1[write] = regionHashes.h1[r]!;
      h2[write] = regionHashes.h2[r]!;
    }
    parts.push(lines.bytes.subarray(byte, side.start), bytes);
    byte = side.end;
    delta += bytes.length - (side.end - side.start);
    read = side.to;
  }
  copy(lines.count);
  parts.push(lines.bytes.subarray(byte));
  const size = lines.bytes.length + delta;
  starts[count] = size;
  return {
    parts,
    size,
    count,
    starts,
    contentEnds,
    hashes: { h1, h2 },
    content: (i) => sliceParts(parts, starts[i]!, contentEnds[i]!),
  };
}
