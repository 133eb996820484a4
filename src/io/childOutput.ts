// Running a program beside rt's own work: its exit status and output, without waiting for it.

import fs from 'node:fs';
import os from 'node:os';
import type { Readable } from 'node:stream';
import { childProcess } from './builtins.js';

/** More output than this (1 GiB) is not kept: the program is stopped, as if it had failed. */
const MAX_OUTPUT = 1 << 30;

/** Linux's O_TMPFILE (with O_DIRECTORY, as the kernel wants it): a file with no name, gone when closed. */
const O_TMPFILE = 0o20000000 | 0o200000;
/** How often the size of output written to a file is looked at (see MAX_OUTPUT), in ms. */
const FILE_WATCH_MS = 100;

/**
 * Runs a program without waiting for it: its exit status and stdout (and, with `stderr`, what it
 * wrote there), or undefined if it could not start, wrote more than `maxBytes` to either, or
 * `watchStderr`, shown each piece of stderr as it comes, returned false (then it is killed).
 */
export function childOutput(
  command: string,
  args: readonly string[],
  options: {
    cwd?: string;
    env?: NodeJS.ProcessEnv;
    maxBytes?: number;
    stderr?: boolean;
    watchStderr?: (chunk: Buffer) => boolean;
    /**
     * Its stdout written to a file with no name (see outputFile) rather than a pipe, where one can be made, and read
     * once it ends: a program printing megabytes waits on a pipe each time it fills (ripgrep printing 1.8 MB of hits
     * took 120-150 ms into a pipe, 55-80 into a file, and more CPU).
     */
    stdoutInFile?: boolean;
  },
): Promise<{ status: number | null; stdout: Buffer; stderr: Buffer } | undefined> {
  const { maxBytes = MAX_OUTPUT, stderr = false, watchStderr, stdoutInFile = false, ...spawnOptions } = options;
  return new Promise((resolve) => {
    const file = stdoutInFile ? outputFile() : undefined;
    let child: ReturnType<ReturnType<typeof childProcess>['spawn']>;
    try {
      child = childProcess().spawn(command, args, {
        ...spawnOptions,
        stdio: ['ignore', file ?? 'pipe', stderr ? 'pipe' : 'ignore'],
      });
    } catch {
      if (file !== undefined) fs.closeSync(file);
      resolve(undefined);
      return;
    }
    let stopped = false;
    let ended = false;
    // Output written to the file is looked at now and then: past maxBytes the program is stopped, as from a pipe.
    const watch =
      file === undefined
        ? undefined
        : setInterval(() => {
            if (!stopped && fs.fstatSync(file).size > maxBytes) {
              stopped = true;
              child.kill();
            }
          }, FILE_WATCH_MS);
    /** The file's output (undefined past maxBytes); the file closed, once. */
    const end = (read: boolean): Buffer | undefined => {
      if (ended) return undefined;
      ended = true;
      if (watch) clearInterval(watch);
      if (file === undefined) return undefined;
      try {
        return read ? readWhole(file, maxBytes) : undefined;
      } finally {
        fs.closeSync(file);
      }
    };
    const collect = (stream: Readable | null, watch?: (chunk: Buffer) => boolean): Buffer[] => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      stream?.on('data', (chunk: Buffer) => {
        if (stopped) return;
        bytes += chunk.length;
        if (bytes <= maxBytes && (!watch || watch(chunk))) chunks.push(chunk);
        else {
          stopped = true;
          child.kill();
        }
      });
      return chunks;
    };
    const out = collect(child.stdout);
    const err = collect(child.stderr, watchStderr);
    child.on('error', () => {
      end(false);
      resolve(undefined);
    });
    child.on('close', (status) => {
      if (ended) return;
      let stdout: Buffer | undefined;
      try {
        stdout = file === undefined ? Buffer.concat(out) : end(!stopped);
      } catch {
        stdout = undefined; // the file could not be read back: as if the program had failed
      }
      resolve(stopped || !stdout ? undefined : { status, stdout, stderr: Buffer.concat(err) });
    });
  });
}

/**
 * A file with no name in the system's temporary folder (Linux's O_TMPFILE), open for reading and writing, for a
 * program's output: nothing is left behind whatever happens to rt. Undefined where none can be made (another system,
 * a file system without it, a temporary folder that cannot be written): the caller reads a pipe.
 */
function outputFile(): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    return fs.openSync(os.tmpdir(), O_TMPFILE | fs.constants.O_RDWR, 0o600);
  } catch {
    return undefined;
  }
}

/** The bytes of the file open as `fd` from its start; undefined when they are more than `most`. */
function readWhole(fd: number, most: number): Buffer | undefined {
  const size = fs.fstatSync(fd).size;
  if (size > most) return undefined;
  const bytes = Buffer.allocUnsafe(size);
  let got = 0;
  while (got < size) {
    const n = fs.readSync(fd, bytes, got, size - got, got);
    if (n === 0) break;
    got += n;
  }
  return got === size ? bytes : bytes.subarray(0, got);
}
