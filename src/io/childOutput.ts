// Running a program beside rt's own work: its exit status and output, without waiting for it.

import type { Readable } from 'node:stream';
import { childProcess } from './builtins.js';

/** More output than this (1 GiB) is not kept: the program is stopped, as if it had failed. */
const MAX_OUTPUT = 1 << 30;

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
  },
): Promise<{ status: number | null; stdout: Buffer; stderr: Buffer } | undefined> {
  const { maxBytes = MAX_OUTPUT, stderr = false, watchStderr, ...spawnOptions } = options;
  return new Promise((resolve) => {
    let child: ReturnType<ReturnType<typeof childProcess>['spawn']>;
    try {
      child = childProcess().spawn(command, args, {
        ...spawnOptions,
        stdio: ['ignore', 'pipe', stderr ? 'pipe' : 'ignore'],
      });
    } catch {
      resolve(undefined);
      return;
    }
    let stopped = false;
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
    child.on('error', () => resolve(undefined));
    child.on('close', (status) =>
      resolve(stopped ? undefined : { status, stdout: Buffer.concat(out), stderr: Buffer.concat(err) }),
    );
  });
}
