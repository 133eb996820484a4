// Running a program beside rt's own work: its exit status and output, without waiting for it.

import type { Readable } from 'node:stream';
import { childProcess } from './builtins.js';

/** More output than this (1 GiB) is not kept: the program is stopped, as if it had failed. */
const MAX_OUTPUT = 1 << 30;

/**
 * Runs a program without waiting for it: its exit status and stdout (and, with `stderr`, what it
 * wrote there), or undefined if it could not start or wrote more than `maxBytes` to stdout, or
 * `maxStderr` to stderr (then it is killed).
 */
export function childOutput(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; maxBytes?: number; stderr?: boolean; maxStderr?: number },
): Promise<{ status: number | null; stdout: Buffer; stderr: Buffer } | undefined> {
  const { maxBytes = MAX_OUTPUT, stderr = false, maxStderr = MAX_OUTPUT, ...spawnOptions } = options;
  return new Promise((resolve) => {
    let child;
    try {
      child = childProcess().spawn(command, args, { ...spawnOptions, stdio: ['ignore', 'pipe', stderr ? 'pipe' : 'ignore'] });
    } catch {
      resolve(undefined);
      return;
    }
    let tooMuch = false;
    const collect = (stream: Readable | null, max: number): Buffer[] => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      stream?.on('data', (chunk: Buffer) => {
        if (tooMuch) return;
        bytes += chunk.length;
        if (bytes <= max) chunks.push(chunk);
        else {
          tooMuch = true;
          child.kill();
        }
      });
      return chunks;
    };
    const out = collect(child.stdout, maxBytes);
    const err = collect(child.stderr, maxStderr);
    child.on('error', () => resolve(undefined));
    child.on('close', (status) => resolve(tooMuch ? undefined : { status, stdout: Buffer.concat(out), stderr: Buffer.concat(err) }));
  });
}
