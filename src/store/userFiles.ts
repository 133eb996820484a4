// What commands look at of the paths users name, outside rt's own reading of a file by its index:
// whether a path is a folder, whether it exists, a patch file read whole, a file read whole for
// its definitions.

import fs from 'node:fs';
import { READ_PLAIN } from './plainFile.js';
import path from 'node:path';
import { RtError, shellQuote } from '../model/errors.js';
import { inFolder } from './pinnedFolder.js';
import type { ResolvedPath } from './root.js';

/**
 * Whether a path names something other than a folder: only a file can be followed by a position (a folder `notes` does
 * not make `notes:draft` a bad position of it).
 */
export function namesNonFolder(abs: string): boolean {
  try {
    const st = fs.statSync(abs, { throwIfNoEntry: false });
    return st !== undefined && !st.isDirectory();
  } catch {
    // Not a path that names anything (a file in the place of a folder, a name too long).
    return false;
  }
}

/** Whether `abs` is a folder (followed through links); false when it names nothing. */
export function isFolder(abs: string): boolean {
  return fs.statSync(abs, { throwIfNoEntry: false })?.isDirectory() === true;
}

/** Whether `abs` names anything. */
export function exists(abs: string): boolean {
  return fs.existsSync(abs);
}

/** A patch bigger than this is no agent's: refused rather than read into memory. */
const PATCH_LIMIT = 256 << 20;

/** The patch file `name` (from `cwd`), read whole; refused when missing, unreadable, empty or too large. */
export function readPatchFile(cwd: string, name: string): Buffer {
  const file = path.resolve(cwd, name);
  let text: Buffer;
  try {
    if (fs.statSync(file).size > PATCH_LIMIT)
      throw new RtError('input', `the patch file ${name} is larger than ${PATCH_LIMIT >> 20} MiB`, [
        'split it into several patches',
      ]);
    text = fs.readFileSync(file);
  } catch (error) {
    if (error instanceof RtError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      throw new RtError('not_found', `no such patch file: ${name}`, [
        `check the path, or give the patch on standard input: rt apply <<'EOF'`,
      ]);
    throw new RtError('access', `cannot read the patch file ${name}: ${code ?? String(error)}`, [
      'check its permissions',
    ]);
  }
  if (text.length === 0)
    throw new RtError('input', `the patch file ${shellQuote(name)} is empty`, [
      'write the patch into it, or give it on standard input',
    ]);
  return text;
}

/**
 * The bytes of `file` as it is now, read within its folder (a link in its place is not followed);
 * `tooLarge` refuses a file of more than `limit` bytes.
 */
export function readWhole(file: ResolvedPath, limit: number, tooLarge: (size: number) => RtError): Buffer {
  return inFolder(path.dirname(file.abs), file.display, () => {
    const fd = fs.openSync(path.basename(file.abs), READ_PLAIN);
    try {
      const size = fs.fstatSync(fd).size;
      if (size > limit) throw tooLarge(size);
      return fs.readFileSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  });
}
