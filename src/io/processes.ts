// Whether a process of this machine is still running, and removing the temporary files and lock
// drafts that rt processes no longer running left behind.

import fs from 'node:fs';
import os from 'node:os';
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

/** The rt process that owns a piece of work left in the state (a batch's journal, an undo under way). */
export interface Owner {
  readonly pid: number;
  readonly host: string;
  /** When it started, as Linux counts it (see processStart): a PID used again is not taken for it. */
  readonly start?: string;
}

export function thisProcess(): Owner {
  const start = processStart(process.pid);
  return { pid: process.pid, host: os.hostname(), ...(start ? { start } : {}) };
}

/**
 * Whether `owner`, another process, may still run: its PID is alive on this machine and,
 * where its start is known, started when it did; else the work (written at `writtenMs`) is
 * less than an hour old.
 */
export function ownerRuns(owner: Owner, writtenMs: number): boolean {
  if (owner.host !== os.hostname() || owner.pid === process.pid || !isRunning(owner.pid)) return false;
  if (owner.start !== undefined) return processStart(owner.pid) === owner.start;
  return Date.now() - writtenMs < ABANDONED_MS;
}

/** Whether process `pid` started after `ms` (wall time), by /proc; false where that cannot be told. */
function startedAfter(pid: number, ms: number): boolean {
  const ticks = Number(processStart(pid));
  const boot = bootTime();
  if (!Number.isFinite(ticks) || boot === undefined) return false;
  // Clock ticks of 10 ms (USER_HZ is 100 on Linux); a second of slack for the clocks' rounding.
  return boot + ticks * 10 > ms + 1000;
}

let boot: number | null | undefined;

/** When the machine started, in ms (btime of /proc/stat); undefined elsewhere. */
function bootTime(): number | undefined {
  if (boot === undefined) {
    try {
      const m = /^btime (\d+)$/m.exec(fs.readFileSync('/proc/stat', 'utf8'));
      boot = m ? Number(m[1]) * 1000 : null;
    } catch {
      boot = null;
    }
  }
  return boot ?? undefined;
}

/** When process `pid` started, as Linux counts it (field 22 of /proc/PID/stat); undefined elsewhere. */
function processStart(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
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
    const mark = TEMP_MARK_END.exec(name);
    // Exactly PREFIX + mark: not a file of the user's that happens to start so.
    if (!mark || !prefixes.some((p) => p.length === mark.index && name.startsWith(p))) continue;
    const pid = Number(mark[1]);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) continue;
    const file = path.join(dir, name);
    try {
      const st = fs.lstatSync(file);
      // A process of that PID that started after the file was written is another (the PID was used again).
      if (st.isDirectory() || (isRunning(pid) && now - st.mtimeMs < ABANDONED_MS && !startedAfter(pid, st.mtimeMs)))
        continue;
      fs.rmSync(file, { force: true });
    } catch {
      // Gone meanwhile, or not ours to remove.
    }
  }
}
