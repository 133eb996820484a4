// `rt open DIR`, the ls of rt: a header line (`--- DIR (N entries) ---`, as a file's
// window has one), then the folder's entries, sorted, one a line — a folder with
// a final / and the number of files under it (binary ones included), a file with its number of
// lines (a binary file marked, not counted). The files are those `rt find` considers (git's
// ignore rules, no hidden files unless --hidden or --no-ignore; a file git still lists but that
// is gone, or under a folder now a link, is not), a line each `NAME<TAB>COUNT`; at most the
// window's size (else the range cap), then a line on stderr saying how many more.

import fs from 'node:fs';
import path from 'node:path';
import { BOM } from '../model/lines.js';
import { looksBinary, SNIFF_BYTES } from '../model/binary.js';
import { printable, RtError } from '../model/errors.js';
import { MAX_RANGE } from '../model/window.js';
import { comparePaths, listFiles } from '../search/listFiles.js';
import { isInside, type ResolvedPath } from '../store/root.js';
import type { Context } from './context.js';
import { absPrefixOf, commandLine, listOptions, noteUndecodable, throughLinkedFolder } from './search.js';
import { explicitWindowSize } from './shared.js';

/** The options of `rt open DIR`. */
export interface FolderOptions {
  readonly window: number | undefined;
  readonly hidden: boolean;
  readonly ignore: boolean;
}

/** Bytes read at a time to count a file's lines. */
const CHUNK = 1 << 20;

interface Entry {
  readonly name: string;
  readonly folder: boolean;
  /** A folder's files (all of them, at any depth). */
  files: number;
}

/** What a file entry shows: its lines, that it is binary, or that it is a link out of the root (not read). */
type FileCount = { lines?: number; binary?: boolean; outside?: boolean };

export function listFolder(ctx: Context, options: FolderOptions, dir: ResolvedPath): number {
  try {
    fs.readdirSync(dir.abs);
  } catch (error) {
    throw new RtError(
      'access',
      `cannot read the folder ${dir.display}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      ['check its permissions'],
    );
  }
  const listOpts = listOptions(options);
  const listed = listFiles(dir.abs, listOpts, ctx.root.dir, '');
  const throughLink = throughLinkedFolder();
  const absPrefix = absPrefixOf(dir.abs);
  const entries = new Map<string, Entry>();
  for (const rel of listed.files) {
    // What git lists that is no file of the folder now: gone, a link to a folder or to nothing,
    // under a folder now a link; a nested repository git lists as one path is a folder.
    if (throughLink(absPrefix, rel)) continue;
    const kind = kindOf(path.join(dir.abs, rel));
    if (kind === 'none') continue;
    const slash = rel.indexOf('/');
    const isFolder = slash !== -1 || kind === 'folder';
    const name = slash === -1 ? rel : rel.slice(0, slash);
    const entry = entries.get(name) ?? { name, folder: isFolder, files: 0 };
    entry.files += kind === 'folder' ? listFiles(path.join(dir.abs, rel), listOpts, ctx.root.dir, '').files.length : 1;
    entries.set(name, entry);
  }
  noteUndecodable(
    ctx,
    listed.undecodable.map((rel) => path.join(dir.abs, rel)),
  );
  const sorted = [...entries.values()].sort((a, b) => comparePaths(a.name, b.name));
  const cap = explicitWindowSize(ctx, options) ?? MAX_RANGE;
  const shown = sorted.slice(0, cap);
  const rows = shown.map((e) => ({ ...e, ...(e.folder ? {} : countOf(path.join(dir.abs, e.name), ctx.root.dir)) }));
  ctx.emit({
    command: 'open',
    path: dir.display,
    folder: true,
    entries: rows.map((r) =>
      r.folder
        ? { name: `${r.name}/`, kind: 'folder', files: r.files }
        : r.binary
          ? { name: r.name, kind: 'file', binary: true }
          : r.outside
            ? { name: r.name, kind: 'link', outside: true }
            : { name: r.name, kind: 'file', lines: r.lines ?? null },
    ),
    more: sorted.length - shown.length,
  });
  // A header as a file's window has: the folder, and how many entries it holds (which of them, when capped).
  const held =
    shown.length < sorted.length
      ? `entries 1-${shown.length} of ${sorted.length}`
      : `${sorted.length} ${sorted.length === 1 ? 'entry' : 'entries'}`;
  if (ctx.text) ctx.out(`${ctx.style.header(`--- ${printable(dir.display)} (${held}) ---`)}\n`);
  for (const r of ctx.text ? rows : []) {
    const count = r.folder
      ? `${r.files} ${r.files === 1 ? 'file' : 'files'}`
      : r.binary
        ? 'binary'
        : r.outside
          ? 'a link out of the root (not read)'
          : r.lines === undefined
            ? 'unreadable'
            : `${r.lines} ${r.lines === 1 ? 'line' : 'lines'}`;
    ctx.out(`${printable(r.name)}${r.folder ? '/' : ''}\t${count}\n`);
  }
  if (sorted.length > shown.length) {
    const flags = [
      '--window',
      String(sorted.length),
      ...(options.hidden ? ['--hidden'] : []),
      ...(!options.ignore ? ['--no-ignore'] : []),
    ];
    const more = sorted.length - shown.length;
    ctx.warn(
      `${more} more ${more === 1 ? 'entry' : 'entries'} not shown: ${commandLine('open', flags, [dir.display])}`,
    );
  }
  if (sorted.length === 0)
    ctx.warn(
      `${dir.display} holds no file rt lists${options.hidden || !options.ignore ? '' : ' (hidden and ignored files are left out: add --hidden or --no-ignore)'}`,
    );
  return 0;
}

/**
 * What a listed path is now: a file (or a link to one), a folder (a nested repository git lists as one path), or
 * nothing rt lists.
 */
function kindOf(abs: string): 'file' | 'folder' | 'none' {
  const st = fs.lstatSync(abs, { throwIfNoEntry: false });
  if (!st) return 'none';
  if (st.isFile()) return 'file';
  if (st.isDirectory()) return 'folder';
  if (!st.isSymbolicLink()) return 'none';
  return fs.statSync(abs, { throwIfNoEntry: false })?.isFile() ? 'file' : 'none';
}

/** A file's count: read itself, or through a link to a file inside the root; a link out of the root is not read. */
function countOf(abs: string, root: string): FileCount {
  const st = fs.lstatSync(abs, { throwIfNoEntry: false });
  if (st?.isSymbolicLink()) {
    let real: string;
    try {
      real = fs.realpathSync.native(abs);
    } catch {
      return {};
    }
    return isInside(root, real) ? linesOf(real) : { outside: true };
  }
  return linesOf(abs);
}

/**
 * A file's line count as rt counts lines (a BOM is no content; a last line without a newline counts), or that it is
 * binary.
 */
function linesOf(abs: string): FileCount {
  let fd: number;
  try {
    fd = fs.openSync(abs, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW);
  } catch {
    return {};
  }
  try {
    if (!fs.fstatSync(fd).isFile()) return {};
    const buffer = Buffer.allocUnsafe(CHUNK);
    let lines = 0;
    let last = -1;
    let size = 0;
    let bom = 0;
    for (let at = 0; ; ) {
      const n = fs.readSync(fd, buffer, 0, CHUNK, at);
      if (n === 0) break;
      const part = buffer.subarray(0, n);
      if (at === 0) {
        if (looksBinary(part.subarray(0, SNIFF_BYTES))) return { binary: true };
        if (n >= 3 && part.subarray(0, 3).equals(BOM)) bom = 3;
      }
      for (let i = part.indexOf(0x0a); i !== -1; i = part.indexOf(0x0a, i + 1)) lines++;
      last = part[n - 1]!;
      at += n;
      size = at;
    }
    return { lines: lines + (size > bom && last !== 0x0a ? 1 : 0) };
  } catch {
    return {};
  } finally {
    fs.closeSync(fd);
  }
}
