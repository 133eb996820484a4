// Running a program beside rt's own work: its exit status and output, without waiting for it.

import { childProcess } from './builtins.js';

/** Runs a program without waiting for it: its exit status and stdout, or undefined if it could not start. */
export function childOutput(command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv }): Promise<{ status: number | null; stdout: Buffer } | undefined> {
  return new Promise((resolve) => {
    let child;
    try {
      child = childProcess().spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'ignore'] });
    } catch {
      resolve(undefined);
      return;
    }
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', () => resolve(undefined));
    child.on('close', (status) => resolve({ status, stdout: Buffer.concat(chunks) }));
  });
}
