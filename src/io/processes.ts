// Whether a process of this machine is still running, and removing the temporary files and lock
// drafts that rt processes no longer running left behind.

import fs from 'node:fs';
import path from 'node:path';

/** A temporary file this old was not left by a run still going, whatever its PID now names. */
const ABANDONED_MS = 60 * 60 * 1000;

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The mark that ends the name of each temporary file (and lock draft) rt makes: its PID and six
 * random letters or digits. Only names ending exactly so are ever removed as rt's leftovers.
 */
export function tempMark(): string {
  return `${process.pid}-${Math.random().toString(36).slice(2, 8).padEnd(6, '0')}`;
}

/** A name's ending made by tempMark, with the PID as group 1. */
export const TEMP_MARK_END = /(\d+)-[0-9a-z]{6}$/;

/**
 * Removes the files of `dir` named PREFIX + tempMark() (for one of `prefixes`) that an rt process
 * left: its PID no longer runs, or the file is over an hour old (the PID may have been reused by
 * another program). Housekeeping: it never fails.
 */
export function removeLeftovers(dir: string, prefixes: readonly string[]): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  const now = Date.now();
  for (const name of names) {
    const prefix = prefixes.find((p) => name.startsWith(p));
    if (!prefix) continue;
    const mark = TEMP_MARK_END.exec(name);
    // Exactly PREFIX + mark: not a file of the user's that happens to start so.
    if (!mark || mark.index !== prefix.length) continue;
    const pid = Number(mark[1]);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) continue;
    const file = path.join(dir, name);
    try {
      const st = fs.lstatSync(file);
      if (st.isDirectory() || (isRunning(pid) && now - st.mtimeMs < ABANDONED_MS)) continue;
      fs.rmSync(file, { force: true });
    } catch {
      // Gone meanwhile, or not ours to remove.
    }
  }
}
