// The entries of a folder as `rt open DIR` lists them: the files `rt find` considers, grouped by
// the folder's own entries (a folder with the number of files under it), and each file's count of
// lines (or that it is binary, or a link out of the root).

import fs from 'node:fs';
import path from 'node:path';
import { looksBinary, SNIFF_BYTES } from '../model/binary.js';
import { RtError } from '../model/errors.js';
import { BOM } from '../model/lines.js';
import { isInside, type ResolvedPath, type Root } from '../store/root.js';
import { absPrefixOf, throughLinkedFolder } from './candidates.js';
import { comparePaths, listFiles, type ListOptions } from './listFiles.js';

/** Bytes read at a time to count a file's lines. */
const CHUNK = 1 << 20;

export interface FolderEntry {
  readonly name: string;
  readonly folder: boolean;
  /** A folder's files (all of them, at any depth). */
  files: number;
}

/** What a file entry shows: its lines, that it is binary, or that it is a link out of the root (not read). */
export type FileCount = { lines?: number; binary?: boolean; outside?: boolean };

/**
 * The entries of `dir`, sorted, and the files under it left out for names that are not valid
 * UTF-8 (absolute paths, decoded); refused (exit 4) when the folder cannot be read.
 */
export function folderEntries(
  root: Root,
  dir: ResolvedPath,
  list: ListOptions,
): { entries: FolderEntry[]; undecodable: string[] } {
  try {
    fs.readdirSync(dir.abs);
  } catch (error) {
    throw new RtError(
      'access',
      `cannot read the folder ${dir.display}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      ['check its permissions'],
    );
  }
  const listed = listFiles(dir.abs, list, root.dir, '');
  const throughLink = throughLinkedFolder();
  const absPrefix = absPrefixOf(dir.abs);
  const entries = new Map<string, FolderEntry>();
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
    entry.files += kind === 'folder' ? listFiles(path.join(dir.abs, rel), list, root.dir, '').files.length : 1;
    entries.set(name, entry);
  }
  return {
    entries: [...entries.values()].sort((a, b) => comparePaths(a.name, b.name)),
    undecodable: listed.undecodable.map((rel) => path.join(dir.abs, rel)),
  };
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
export function countOf(abs: string, root: string): FileCount {
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
