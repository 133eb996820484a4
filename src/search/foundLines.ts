// What both prefilters print for each line they find (ripgrep --null --line-number, git grep -z
// -n): PATH \0 NUMBER, one separator byte (":" from ripgrep, \0 from git), the LINE, \n. A path
// may hold \n (not \0); a line may hold \0 (not \n); the last line may lack its \n.

import { isUtf8 } from 'node:buffer';

/**
 * The most lines found in one file that rt matches its pattern in one by one, as a prefilter
 * printed them: past that, matching the whole file at once costs less (and a file dense with
 * hits would overflow a Map). Such a file is searched by rt itself.
 */
export const MAX_LINES_READ = 4096;

/** The lines a prefilter found in one file. */
export interface FileFound {
  /** 1-based numbers of the lines found, as printed (a file under two PATHs given is printed twice). */
  readonly numbers: number[];
  /** Each line's bytes (without its \n) by number, when asked for and not `crowded`. */
  lines: Map<number, Buffer> | undefined;
  /** More than MAX_LINES_READ lines found: their bytes are not kept, and rt searches the file itself. */
  crowded: boolean;
}

/**
 * Parses a prefilter's lines by path as printed; with `keepLines`, each line's bytes too. A path
 * that is not valid UTF-8 (see pathBytes.ts) goes to `undecodable`, its lines skipped.
 */
export function parseFound(out: Buffer, keepLines: boolean, undecodable: string[] = []): Map<string, FileFound> {
  const files = new Map<string, FileFound>();
  let lastRaw: Buffer | undefined;
  let file: FileFound | undefined;
  // The last path's lines are skipped.
  let skipped = false;
  for (let at = 0; at < out.length; ) {
    const nul = out.indexOf(0, at);
    if (nul === -1) break;
    // A file's lines come one after another: its path is decoded once.
    const raw = out.subarray(at, nul);
    if (!lastRaw || !raw.equals(lastRaw)) {
      const name = raw.toString('utf8');
      skipped = !isUtf8(raw);
      if (skipped) {
        if (!undecodable.includes(name)) undecodable.push(name);
      } else {
        file = files.get(name);
        if (!file) files.set(name, (file = { numbers: [], lines: keepLines ? new Map() : undefined, crowded: false }));
      }
    }
    lastRaw = raw;
    let n = 0;
    let p = nul + 1;
    for (; out[p]! >= 0x30 && out[p]! <= 0x39; p++) n = n * 10 + out[p]! - 0x30;
    // p is at the separator.
    const end = out.indexOf(0x0a, p + 1);
    at = end === -1 ? out.length : end + 1;
    if (skipped || !file) continue;
    file.numbers.push(n);
    const lines = file.lines;
    if (!lines || lines.has(n)) continue;
    if (lines.size >= MAX_LINES_READ) {
      file.lines = undefined;
      file.crowded = true;
    } else lines.set(n, out.subarray(Math.min(p + 1, out.length), end === -1 ? out.length : end));
  }
  return files;
}
