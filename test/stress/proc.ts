// What the stress scenarios share: rt started asynchronously (so that it can be killed or run
// beside others), and checks made on real bytes — leftovers, state files, a folder's fingerprint.

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Finished } from '../e2e/harness.js';

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

/** rt's leftovers under `dir` (recursively, .rt/ included): temporary files, locks and their drafts. */
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
      else if (/\.rt-tmp-|\.rt-lock|\.tmp-\d+-/.test(e.name)) found.push(path.relative(dir, p));
    }
  };
  walk(dir);
  return found.sort();
}

/**
 * State files under `dir/.rt` that are not sound: a JSON document that does not parse, or one
 * without rt's format, version and path. (rt sets such files aside itself; a run must never
 * leave one behind.)
 */
export function corruptStateFiles(dir: string): string[] {
  const bad: string[] = [];
  for (const kind of ['index', 'view']) {
    const d = path.join(dir, '.rt', kind);
    let names: string[] = [];
    try {
      names = fs.readdirSync(d);
    } catch {
      continue;
    }
    for (const name of names.filter((n) => n.endsWith('.json'))) {
      try {
        const doc = JSON.parse(fs.readFileSync(path.join(d, name), 'utf8')) as {
          format?: unknown;
          version?: unknown;
          path?: unknown;
        };
        if (typeof doc.format !== 'string' || typeof doc.version !== 'number' || typeof doc.path !== 'string')
          bad.push(`${kind}/${name}: not an rt state document`);
      } catch (error) {
        bad.push(`${kind}/${name}: ${(error as Error).message.slice(0, 80)}`);
      }
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
