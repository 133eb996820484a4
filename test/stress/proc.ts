// What the stress scenarios share: rt started asynchronously (so that it can be killed or run
// beside others), and checks made on real bytes — leftovers, state files, a folder's fingerprint.

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { runAsync, start, type Finished } from '../e2e/harness.js';
import type { Tally } from './figures.js';

export { runAsync, start, type Finished, type Started, type StartOptions } from '../e2e/harness.js';

/**
 * What makes a run a crash: a signal, a status outside 0–4, a stack trace or an internal error, a stderr line without
 * `rt: `.
 */
export function crashOf(r: Finished): string | undefined {
  if (r.signal) return `killed by ${r.signal}`;
  if (r.status === null || r.status < 0 || r.status > 4) return `exit status ${r.status}`;
  if (/^\s+at \S|internal error|TypeError|RangeError|ReferenceError|FATAL ERROR|heap out of memory/m.test(r.stderr))
    return 'stack trace or internal error on stderr';
  const isHelp = /^Usage: rt/m.test(r.stdout.toString('utf8') + r.stderr);
  if (!isHelp && r.stderr.split('\n').some((l) => l !== '' && !l.startsWith('rt: ')))
    return 'a stderr line without "rt: "';
  return undefined;
}

/** Whether `d` is the folder of rt's packed state (where a segment is staged as tmp-PID-…, beside the lock). */
const isPack = (d: string) => path.basename(d) === 'pack' && path.basename(path.dirname(d)) === '.rt';
/** Whether `d` is the folder of the lock drafts a process keeps for reuse (`lock.PID-…`, removed as it exits). */
const isLocks = (d: string) => path.basename(d) === 'locks' && path.basename(path.dirname(d)) === '.rt';

/**
 * Leftovers of a killed rt that the next command taking the same lock removes, not any command:
 * locks and their drafts beside a file, the pack's staged segments and lock, and the lock drafts
 * kept for reuse in `.rt/locks` (swept by the next rt that takes a lock of that root).
 */
export const LOCK_LEFTOVERS = /\.rt-lock($|\.)|^\.rt\/pack\/(tmp-\d+-|lock($|\.))|^\.rt\/locks\/lock\./;

/**
 * rt's leftovers under `dir` (recursively, .rt/ included): temporary files, locks and their drafts (beside
 * the lock, or kept for reuse in `.rt/locks`), the pack's staged segments and lock.
 */
export function leftovers(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory() && !e.isSymbolicLink()) walk(p);
      else if (
        /\.rt-tmp-|\.rt-lock|\.tmp-\d+-/.test(e.name) ||
        (/^(tmp-\d+-|lock($|\.))/.test(e.name) && isPack(d)) ||
        (/^lock\./.test(e.name) && isLocks(d))
      )
        found.push(path.relative(dir, p));
    }
  };
  walk(dir);
  return found.sort();
}

/**
 * State under `dir/.rt` that is not sound: a segment of the pack whose header, table or trailer
 * does not parse, or a key whose newest entry is not a JSON document with rt's format, version
 * and the path of its key. (rt sets such segments and entries aside itself; a run must never
 * leave one behind.)
 */
export function corruptStateFiles(dir: string): string[] {
  const bad: string[] = [];
  const pack = path.join(dir, '.rt', 'pack');
  let names: string[] = [];
  try {
    names = fs.readdirSync(pack).filter((n) => /^pack-\d{10}\.jsonl$/.test(n));
  } catch {
    return bad;
  }
  const newest = new Map<string, { seq: number; name: string; bytes: Buffer | null }>();
  for (const name of names) {
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(path.join(pack, name));
    } catch (error) {
      // Removed by a merge since it was listed: its entries are in the segment the merge made.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      bad.push(`pack/${name}: ${(error as Error).message.slice(0, 80)}`);
      continue;
    }
    try {
      const lines = bytes.toString('latin1').split('\n');
      if (lines[0] !== '{"format":"rt-pack","version":1}' || lines.at(-1) !== '') throw new Error('no header or end');
      const trailer = JSON.parse(lines.at(-2)!) as { tocAt: number };
      const toc = (JSON.parse(bytes.subarray(trailer.tocAt).toString('utf8').split('\n')[0]!) as { toc: unknown[][] })
        .toc;
      for (const [key, offset, length, seq] of toc as Array<[string, number, number, number]>) {
        const known = newest.get(key);
        if (known && known.seq >= seq) continue;
        newest.set(key, { seq, name, bytes: length < 0 ? null : bytes.subarray(offset, offset + length) });
      }
    } catch (error) {
      bad.push(`pack/${name}: ${(error as Error).message.slice(0, 80)}`);
    }
  }
  for (const [key, { name, bytes }] of newest) {
    if (!bytes) continue;
    try {
      const doc = JSON.parse(bytes.toString('utf8')) as { format?: unknown; version?: unknown; path?: unknown };
      if (typeof doc.format !== 'string' || typeof doc.version !== 'number' || typeof doc.path !== 'string')
        bad.push(`pack/${name} ${key}: not an rt state document`);
      else if (doc.path !== key.slice(key.indexOf(':') + 1)) bad.push(`pack/${name} ${key}: describes ${doc.path}`);
    } catch (error) {
      bad.push(`pack/${name} ${key}: ${(error as Error).message.slice(0, 80)}`);
    }
  }
  return bad;
}

/**
 * A fingerprint of everything under `dir`: each entry's name, type, mode, modification time
 * and bytes (a symbolic link by its target), and each folder's own modification time, so that
 * a file created and removed again inside it still shows.
 */
export function fingerprint(dir: string): string {
  const h = crypto.createHash('sha256');
  const walk = (d: string) => {
    const st = fs.lstatSync(d, { bigint: true });
    h.update(`D ${path.relative(dir, d)} ${st.mode} ${st.mtimeNs}\n`);
    for (const name of fs.readdirSync(d).sort()) {
      const p = path.join(d, name);
      const s = fs.lstatSync(p, { bigint: true });
      if (s.isDirectory()) walk(p);
      else if (s.isSymbolicLink()) h.update(`L ${path.relative(dir, p)} -> ${fs.readlinkSync(p)}\n`);
      else {
        const digest = crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex');
        h.update(`F ${path.relative(dir, p)} ${s.mode} ${s.mtimeNs} ${digest}\n`);
      }
    }
  };
  walk(dir);
  return h.digest('hex');
}

/** Lines `line 1` … `line n` as one buffer (each ended by `\n`), built without a string per line for big n. */
export function numberedBytes(n: number, width = 0, prefix = 'line '): Buffer {
  const parts: string[] = [];
  for (let i = 1; i <= n; i++) parts.push(width ? `${prefix}${i} `.padEnd(width, 'x') : `${prefix}${i}`);
  return Buffer.from(`${parts.join('\n')}\n`);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * One trial of a kill scenario: rt `args` started in `dir` and SIGKILLed after a random delay of
 * up to 1.2 × `timing.ms` (trial 0 is not killed: it measures a whole run); a run that ended
 * unkilled must have exited 0, and moves `timing.ms` toward its time. Then the next command, an
 * `rt open` of `opened`, which finishes or undoes what the kill left. The run, and the delay.
 */
export async function killedTrial(
  args: readonly string[],
  dir: string,
  opened: string,
  trial: number,
  next: () => number,
  timing: { ms: number },
  tally: Tally,
): Promise<{ run: Finished; delay: number }> {
  const p = start(args, dir);
  const delay = trial === 0 ? Number.POSITIVE_INFINITY : Math.floor(next() * timing.ms * 1.2);
  if (delay !== Number.POSITIVE_INFINITY) {
    await Promise.race([sleep(delay), p.done]);
    p.kill();
  }
  const run = await p.done;
  if (trial > 0) tally.trials++;
  if (run.signal === null) {
    const crash = crashOf(run);
    if (crash || run.status !== 0)
      tally.fail('crashes', `trial ${trial}: ${crash ?? `exit ${run.status}`}\n${run.text}`);
    else timing.ms = Math.round((timing.ms + run.ms) / 2);
  }
  const after = await runAsync(['open', `${opened}:1-1`], dir);
  if (crashOf(after) || after.status !== 0) tally.fail('crashes', `the open after trial ${trial}: ${after.text}`);
  return { run, delay };
}
