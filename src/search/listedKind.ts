// What `rt find` lists of the paths git (or the walk) gives: text files, and links to them.

import fs from 'node:fs';
import { looksBinary, SNIFF_BYTES } from '../model/binary.js';
import { readPlainFile } from '../store/plainFile.js';
import { isInside } from '../store/root.js';
import { throughLinkedFolder, type Candidate } from './candidates.js';

/**
 * Whether a listed path is printed ('listed'): a regular file that does not look binary (one that
 * cannot be read is printed: its kind cannot be told), or a symbolic link to such a file (read
 * through only when it leads inside the root `root`; a link out of it is printed unread);
 * 'binary' for a binary file or a link to one; 'no' for anything else.
 */
export function listedKind(abs: string, root: string): 'listed' | 'binary' | 'no' {
  // Read as a regular file, not through a link, nor waiting on a FIFO.
  const head = readPlainFile(abs, SNIFF_BYTES, true);
  if (head) return looksBinary(head) ? 'binary' : 'listed';
  // Not read: a symbolic link, an unreadable file, anything but a regular file, or nothing there
  // (gone, a dangling link, a file where a folder was).
  try {
    const st = fs.lstatSync(abs);
    if (!st.isSymbolicLink()) return st.isFile() ? 'listed' : 'no';
    const real = fs.realpathSync(abs);
    if (!fs.statSync(real).isFile()) return 'no';
    return isInside(root, real) ? listedKind(real, root) : 'listed';
  } catch {
    return 'no';
  }
}

/**
 * The first `max` paths of `found` (relative to the folder searched, whose absolute path with a
 * final separator is `absPrefix`; sorted) that find prints: text files and links to them (see
 * listedKind), reached through no link (`walked`: the listing came from a walk, which follows
 * none); with the binary files met on the way, and the index in `found` where it stopped.
 */
export function firstListed(
  rootDir: string,
  absPrefix: string,
  place: (rel: string) => Candidate,
  found: readonly string[],
  max: number,
  walked: boolean,
): { files: Candidate[]; binary: string[]; next: number } {
  const files: Candidate[] = [];
  const binary: string[] = [];
  const throughLink = throughLinkedFolder();
  let next = 0;
  for (; next < found.length && files.length < max; next++) {
    const file = place(found[next]!);
    if (!walked && throughLink(absPrefix, found[next]!)) continue;
    const kind = listedKind(file.abs, rootDir);
    if (kind === 'listed') files.push(file);
    else if (kind === 'binary') binary.push(file.display);
  }
  return { files, binary, next };
}

/** Whether anything is at `abs` (a link to nothing: false). */
export function pathExists(abs: string): boolean {
  return fs.existsSync(abs);
}

/** Whether `abs` is a folder (or a link to one). */
export function isFolder(abs: string): boolean {
  return fs.statSync(abs, { throwIfNoEntry: false })?.isDirectory() === true;
}
