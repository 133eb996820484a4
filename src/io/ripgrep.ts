// ripgrep as an optional prefilter for literal searches. When `rg` is installed it finds, far
// faster than reading every file from Node, the files that contain the literal at all; rt then
// matches only those (with its own rules) and prints their hits with LIDs. It is never required,
// and its answer only narrows the candidates rt chose itself, so it can never add a file:
// - it is asked for a superset: --text (binary files too), no .ignore/.rgignore rules (rt applies
//   .ignore itself), no config file, case-insensitive only for ASCII literals;
// - files git tracks although an ignore rule matches them, which ripgrep skips, are listed by
//   git and searched by rt directly.
// RT_RIPGREP=off turns it off.

import path from 'node:path';
import { childProcess } from './builtins.js';

export interface PrefilterRequest {
  readonly literal: string;
  readonly ignoreCase: boolean;
  readonly hidden: boolean;
  readonly noIgnore: boolean;
  /** Absolute folders to search. */
  readonly dirs: readonly string[];
}

/**
 * Starts ripgrep; the promise gives the absolute paths of the files that may contain the literal,
 * or undefined when ripgrep cannot answer. It runs while rt lists its own candidates.
 */
export function ripgrepCandidates(request: PrefilterRequest, env: NodeJS.ProcessEnv): Promise<Set<string> | undefined> {
  if (['off', '0', 'no', 'false'].includes((env.RT_RIPGREP ?? '').toLowerCase())) return Promise.resolve(undefined);
  if (request.literal === '' || request.dirs.length === 0) return Promise.resolve(undefined);
  // Case folding beyond ASCII differs between ripgrep and JavaScript: rt alone decides those.
  if (request.ignoreCase && !/^[\x20-\x7e]*$/.test(request.literal)) return Promise.resolve(undefined);
  const args = ['--files-with-matches', '--null', '--fixed-strings', '--text', '--no-messages', '--no-config', '--no-ignore-dot'];
  if (request.ignoreCase) args.push('--ignore-case');
  if (request.hidden) args.push('--hidden');
  if (request.noIgnore) args.push('--no-ignore');
  args.push('--regexp', request.literal, '--', ...request.dirs);
  // Git's list of tracked files that ignore rules match is made at the same time.
  const tracked = request.noIgnore ? Promise.resolve([]) : trackedButIgnored(request.dirs);
  const found = output('rg', args, { env: { PATH: env.PATH ?? '', HOME: env.HOME ?? '' } }).then((r) => {
    if (!r || (r.status !== 0 && r.status !== 1)) return undefined; // not installed, or failed
    const files = new Set<string>();
    for (const p of r.stdout.toString('utf8').split('\0')) if (p) files.add(path.resolve(p));
    return files;
  });
  return Promise.all([found, tracked]).then(([files, extra]) => {
    if (files) for (const p of extra) files.add(p);
    return files;
  });
}

/** Files git tracks under `dirs` that an ignore rule matches (ripgrep skips them; git lists them). */
async function trackedButIgnored(dirs: readonly string[]): Promise<string[]> {
  const lists = await Promise.all(
    dirs.map(async (dir) => {
      const r = await output('git', ['-c', 'core.quotePath=off', 'ls-files', '-z', '--cached', '--ignored', '--exclude-standard'], { cwd: dir });
      if (!r || r.status !== 0) return [];
      return r.stdout.toString('utf8').split('\0').filter(Boolean).map((p) => path.join(dir, p));
    }),
  );
  return lists.flat();
}

/** Runs a program without waiting for it: its exit status and stdout, or undefined if it could not start. */
function output(command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv }): Promise<{ status: number | null; stdout: Buffer } | undefined> {
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
