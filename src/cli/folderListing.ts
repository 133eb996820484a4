// `rt open DIR` (SPEC §3), the ls of rt: the folder's entries, sorted, one a line — a folder with
// a final / and the number of files under it, a file with its number of lines (a binary file
// marked, not counted). The entries are those `rt find` lists (git's ignore rules, no hidden
// files unless --hidden or --no-ignore), a line each `NAME<TAB>COUNT`; at most the window's
// size (else the range cap), then a line on stderr saying how many more.

import fs from 'node:fs';
import path from 'node:path';
import { looksBinary, SNIFF_BYTES } from '../core/binary.js';
import { printable, shellQuote } from '../core/errors.js';
import { MAX_RANGE } from '../core/window.js';
import { comparePaths, listFiles } from '../io/listFiles.js';
import type { ResolvedPath } from '../io/root.js';
import type { Context } from './context.js';
import { listOptions } from './search.js';
import { explicitWindowSize } from './shared.js';
import type { Options } from './spec.js';

/** Bytes read at a time to count a file's lines. */
const CHUNK = 1 << 20;

interface Entry {
  readonly name: string;
  readonly folder: boolean;
  /** A folder's files (all of them, at any depth). */
  files: number;
}

export function listFolder(ctx: Context, options: Options, dir: ResolvedPath): number {
  const listed = listFiles(dir.abs, listOptions(options), ctx.root.dir, '');
  const entries = new Map<string, Entry>();
  for (const rel of listed.files) {
    const slash = rel.indexOf('/');
    const name = slash === -1 ? rel : rel.slice(0, slash);
    const entry = entries.get(name) ?? { name, folder: slash !== -1, files: 0 };
    entry.files++;
    entries.set(name, entry);
  }
  const sorted = [...entries.values()].sort((a, b) => comparePaths(a.name, b.name));
  const cap = explicitWindowSize(ctx, options) ?? MAX_RANGE;
  const shown = sorted.slice(0, cap);
  const rows = shown.map((e) => ({ ...e, ...(e.folder ? {} : linesOf(path.join(dir.abs, e.name))) }));
  if (ctx.json) {
    ctx.emit({
      command: 'open',
      path: dir.display,
      folder: true,
      entries: rows.map((r) => (r.folder ? { name: `${r.name}/`, kind: 'folder', files: r.files } : r.binary ? { name: r.name, kind: 'file', binary: true } : { name: r.name, kind: 'file', lines: r.lines ?? null })),
      more: sorted.length - shown.length,
    });
  } else {
    for (const r of rows) {
      const count = r.folder ? `${r.files} ${r.files === 1 ? 'file' : 'files'}` : r.binary ? 'binary' : r.lines === undefined ? 'unreadable' : `${r.lines} ${r.lines === 1 ? 'line' : 'lines'}`;
      ctx.out(`${printable(r.name)}${r.folder ? '/' : ''}\t${count}\n`);
    }
  }
  if (sorted.length > shown.length) {
    ctx.warn(`${sorted.length - shown.length} more entries not shown: rt open ${shellQuote(dir.display)} --window ${sorted.length}`);
  }
  if (sorted.length === 0) ctx.warn(`${dir.display} holds no file rt lists${options.hidden === true || options.ignore === false ? '' : ' (hidden and ignored files are left out: add --hidden or --no-ignore)'}`);
  return 0;
}

/** A file's line count (a last line without a newline counts), or that it is binary; lines undefined when it cannot be read. */
function linesOf(abs: string): { lines?: number; binary?: boolean } {
  let fd: number;
  try {
    fd = fs.openSync(abs, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch {
    return {};
  }
  try {
    if (!fs.fstatSync(fd).isFile()) return {};
    const buffer = Buffer.allocUnsafe(CHUNK);
    let lines = 0;
    let last = -1;
    let first = true;
    for (let at = 0; ; ) {
      const n = fs.readSync(fd, buffer, 0, CHUNK, at);
      if (n === 0) break;
      const part = buffer.subarray(0, n);
      if (first && looksBinary(part.subarray(0, SNIFF_BYTES))) return { binary: true };
      first = false;
      for (let i = part.indexOf(0x0a); i !== -1; i = part.indexOf(0x0a, i + 1)) lines++;
      last = part[n - 1]!;
      at += n;
    }
    return { lines: lines + (last !== -1 && last !== 0x0a ? 1 : 0) };
  } catch {
    return {};
  } finally {
    fs.closeSync(fd);
  }
}
