// Reading and planting entries of rt's packed state (.rt/pack/, see src/store/pack.ts) from tests,
// as a user with standard tools could: a segment is JSON lines, its table on its second-to-last line.

import fs from 'node:fs';
import path from 'node:path';
import { digestText } from '../../src/model/digest.js';
import { readSettings } from '../../src/settings/env.js';
import type { PackEntry } from '../../src/store/pack.js';
import { StateStore, type StateDoc } from '../../src/store/state.js';

const HEADER = '{"format":"rt-pack","version":1}\n';
const SEGMENT = /^pack-(\d{10})\.jsonl$/;

/** A row of a segment's table, as rt reads it. */
export type PackRow = PackEntry;

export interface PackSegment {
  readonly name: string;
  readonly file: string;
  readonly seq: number;
  readonly rows: readonly PackRow[];
}

/** The pack folder of the state root `root`. */
export function packDir(root: string): string {
  return path.join(root, '.rt', 'pack');
}

/**
 * The segments of `root`'s pack, oldest first; one whose table does not parse throws, unless `lenient` (then it is
 * left out, as rt sets it aside).
 */
export function packSegments(root: string, lenient = false): PackSegment[] {
  const dir = packDir(root);
  const names = fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => SEGMENT.test(n)) : [];
  return names
    .flatMap((name) => {
      const file = path.join(dir, name);
      const text = fs.readFileSync(file, 'utf8');
      const lines = text.split('\n');
      let toc: { toc: unknown[][] };
      try {
        toc = JSON.parse(lines[lines.length - 3]!) as { toc: unknown[][] };
      } catch (error) {
        if (lenient) return [];
        throw error;
      }
      const rows = toc.toc.map(([key, offset, length, seq, touched, check]) => ({
        key: key as string,
        offset: offset as number,
        length: length as number,
        seq: seq as number,
        touched: touched as number,
        check: check as string | null,
      }));
      return [{ name, file, seq: Number(SEGMENT.exec(name)![1]), rows }];
    })
    .sort((a, b) => a.seq - b.seq);
}

/** Each key's newest entry (tombstones left out), with its bytes. */
export function packEntries(root: string): Map<string, { row: PackRow; segment: PackSegment; bytes: Buffer }> {
  const out = new Map<string, { row: PackRow; segment: PackSegment; bytes: Buffer }>();
  const newest = new Map<string, { row: PackRow; segment: PackSegment }>();
  for (const segment of packSegments(root, true))
    for (const row of segment.rows) {
      const known = newest.get(row.key);
      if (!known || known.row.seq < row.seq) newest.set(row.key, { row, segment });
    }
  for (const [key, { row, segment }] of newest) {
    if (row.length < 0) continue;
    const bytes = fs.readFileSync(segment.file).subarray(row.offset, row.offset + row.length);
    out.set(key, { row, segment, bytes });
  }
  return out;
}

/** The keys of `root`'s state of `kind` ('index' or 'view', any session), sorted. */
export function packKeys(root: string, kind?: string): string[] {
  return [...packEntries(root).keys()].filter((k) => !kind || k.startsWith(kind)).sort();
}

/** The newest entry's text of `key` (as `index:a.txt`, `view:a.txt`, `view~S:a.txt`), or undefined. */
export function packText(root: string, key: string): string | undefined {
  return packEntries(root).get(key)?.bytes.toString('utf8');
}

/**
 * Plants `bytes` as the newest entry of each of `keys`, in a new segment (whole and well formed,
 * as a damaged entry would sit in an intact segment): what the next rt reads for them. `touched`:
 * the time recorded for them (now by default); `check`: whether the table holds a digest of them.
 */
export function plantEntries(
  root: string,
  entries: ReadonlyArray<readonly [key: string, bytes: Buffer | string, touched?: number]>,
  options: { touched?: number; check?: boolean } = {},
): string {
  const dir = packDir(root);
  fs.mkdirSync(dir, { recursive: true });
  const seq = Math.max(0, ...packSegments(root).map((s) => s.seq)) + 1;
  const parts: Buffer[] = [Buffer.from(HEADER)];
  let at = HEADER.length;
  const rows: unknown[][] = [];
  for (const [key, given, when] of entries) {
    const bytes = Buffer.isBuffer(given) ? given : Buffer.from(given, 'utf8');
    const check = options.check ? digestText(bytes.toString('utf8')) : null;
    rows.push([key, at, bytes.length, seq, when ?? options.touched ?? Date.now(), check]);
    parts.push(bytes, Buffer.from('\n'));
    at += bytes.length + 1;
  }
  const toc = `${JSON.stringify({ toc: rows })}\n`;
  parts.push(Buffer.from(toc), Buffer.from(`${JSON.stringify({ tocAt: at, check: digestText(toc) })}\n`));
  const file = path.join(dir, `pack-${String(seq).padStart(10, '0')}.jsonl`);
  fs.writeFileSync(file, Buffer.concat(parts));
  return file;
}

/**
 * Rewrites the pack as one segment holding each key's newest entry, `edit` given the chance to
 * change each (return its new bytes, or null to drop it) and its time: the state as a hand or a
 * damage left it, in place of everything before.
 */
export function rewritePack(
  root: string,
  edit: (key: string, bytes: Buffer) => Buffer | string | null = (_k, b) => b,
  touched?: (key: string, was: number) => number,
): void {
  const kept: Array<[string, Buffer | string, number]> = [];
  for (const [key, { row, bytes }] of packEntries(root)) {
    const next = edit(key, bytes);
    if (next !== null) kept.push([key, next, touched ? touched(key, row.touched) : row.touched]);
  }
  for (const segment of packSegments(root)) fs.rmSync(segment.file);
  if (kept.length > 0) plantEntries(root, kept);
}

/** A small state document for tests of the store: a note about a path. */
export interface NoteDoc extends StateDoc {
  note: string;
}

export const noteDoc = (rel: string, note: string): NoteDoc => ({
  format: 'rt-test',
  version: 1,
  path: rel,
  touched: 0,
  note,
});

/** A store of `root` as a run of rt opens it, its warnings pushed to `warnings`. */
export const noteStore = (root: string, warnings: string[] = []): StateStore =>
  new StateStore(root, readSettings({}), (m) => warnings.push(m));

/** The note saved as the view of `rel`, or undefined. */
export const noteOf = (s: StateStore, rel: string): string | undefined =>
  s.load<NoteDoc>('view', rel, 'rt-test', 1)?.note;
