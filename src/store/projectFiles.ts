// The files of a project as a language service reads them (rt refs, rt rename): only what lies
// inside the root, after links are resolved; never a binary file, a FIFO or a device. Answers are
// kept for the command's run: the service asks about the same folders many times. The digest of
// each file read is kept too: a rename writes only files that are still what was analysed.

import fs from 'node:fs';
import path from 'node:path';
import { crypto } from '../io/builtins.js';
import { looksBinary } from '../model/binary.js';
import { readPlainFile } from './plainFile.js';
import { isInside } from './inside.js';

/** A source file larger than this is no source a language service should read. */
const SOURCE_LIMIT = 16 << 20;

export interface ConfinedFiles {
  /** The bytes of the text file `abs` inside the root; undefined when it is missing, outside, binary or too big. */
  bytes(abs: string): Buffer | undefined;
  fileExists(abs: string): boolean;
  directoryExists(abs: string): boolean;
  getDirectories(abs: string): string[];
  /** The digest of each file whose bytes were read, by its path as asked. */
  readonly digests: ReadonlyMap<string, string>;
}

/** A digest of a file's bytes. */
export function digestOf(bytes: Buffer): string {
  // (Loaded when first used: every command's start-up would load it otherwise.)
  return crypto().createHash('sha256').update(bytes).digest('base64');
}

/**
 * Whether `bytes`, a file read again (under its lock), are the bytes read before, whose digest is
 * `digest`: a file changed at all since may hold the name elsewhere, or a new reference.
 */
export function unchangedSince(digest: string | undefined, bytes: Buffer): boolean {
  return digest !== undefined && digestOf(bytes) === digest;
}

export function confinedFiles(root: string): ConfinedFiles {
  const real = new Map<string, string | undefined>();
  const digests = new Map<string, string>();
  /** The real path of `abs` when it exists inside the root. */
  const inside = (abs: string): string | undefined => {
    if (!path.isAbsolute(abs) || !isInside(root, abs)) return undefined;
    if (real.has(abs)) return real.get(abs);
    let found: string | undefined;
    try {
      found = fs.realpathSync.native(abs);
      if (!isInside(root, found)) found = undefined;
    } catch {
      found = undefined;
    }
    real.set(abs, found);
    return found;
  };
  const stat = (abs: string) => {
    const at = inside(abs);
    return at === undefined ? undefined : fs.statSync(at, { throwIfNoEntry: false });
  };
  return {
    bytes(abs) {
      const at = inside(abs);
      if (at === undefined) return undefined;
      const bytes = readPlainFile(at, SOURCE_LIMIT);
      if (bytes === undefined || looksBinary(bytes)) return undefined;
      digests.set(abs, digestOf(bytes));
      return bytes;
    },
    digests,
    fileExists: (abs) => stat(abs)?.isFile() === true,
    directoryExists: (abs) => stat(abs)?.isDirectory() === true,
    getDirectories(abs) {
      const at = inside(abs);
      if (at === undefined) return [];
      try {
        return fs
          .readdirSync(at, { withFileTypes: true })
          .filter((e) => e.isDirectory())
          .map((e) => e.name);
      } catch {
        return [];
      }
    },
  };
}
