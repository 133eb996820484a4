// Running a program beside rt's own work: its exit status and output, without waiting for it.

import { childProcess } from './builtins.js';

/** More output than this (1 GiB) is not kept: the program is stopped, as if it had failed. */
const MAX_OUTPUT = 1 << 30;

/**
 * Runs a program without waiting for it: its exit status and stdout, or undefined if it could
 * not start or printed more than `maxBytes` (then it is killed).
 */
export function childOutput(command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; maxBytes?: number }): Promise<{ status: number | null; stdout: Buffer } | undefined> {
  const { maxBytes = MAX_OUTPUT, ...spawnOptions } = options;
  return new Promise((resolve) => {
    let child;
    try {
      child = childProcess().spawn(command, args, { ...spawnOptions, stdio: ['ignore', 'pipe', 'ignore'] });
    } catch {
      resolve(undefined);
      return;
    }
    const chunks: Buffer[] = [];
    let bytes = 0;
    let tooMuch = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (tooMuch) return;
      bytes += chunk.length;
      if (bytes <= maxBytes) chunks.push(chunk);
      else {
        tooMuch = true;
        chunks.length = 0;
        child.kill();
      }
    });
    child.on('error', () => resolve(undefined));
    child.on('close', (status) => resolve(tooMuch ? undefined : { status, stdout: Buffer.concat(chunks) }));
  });
}
