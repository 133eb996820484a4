// 2b. Concurrent batches: two `rt apply` at once over overlapping files — batch A
// writes f1, f2, f3 and batch B f3, f2, f4, named in that order in its patch, the reverse of
// the shared ones' order in A — never wait on each other for ever (every file's lock is taken
// in one fixed order), never lose or half-apply a batch, and leave nothing behind. Rounds of
// two kinds: each batch appends a marker line to each of its files (both must land); and each
// batch replaces, by the LID an `rt open` showed before either started, one line of each of its
// files — the same line in the shared files (one batch wins, the other is refused as stale,
// exit 3, writing nothing) or different lines (both land).

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, tempDir } from '../e2e/harness.js';
import { SCENARIO_TIMEOUT, pick } from './config.js';
import { Tally } from './figures.js';
import { corruptStateFiles, crashOf, leftovers, runAsync, start, type Finished } from './proc.js';

afterAll(cleanup);

/** Lines per file (some 500 KB): long enough that the two batches' writes, under their locks, overlap in time. */
const LINES = 20_000;
/** A round whose batches have not both ended by then is counted as a deadlock (they are killed). */
const ROUND_LIMIT_MS = 20_000;
const FILES = ['f1.txt', 'sub/f2.txt', 'f3.txt', 'sub/f4.txt'] as const;
const A = [FILES[0], FILES[1], FILES[2]] as const;
const B = [FILES[2], FILES[1], FILES[3]] as const;
const original = (file: string, k: number) => `${path.basename(file, '.txt')} line ${k}`;

function readLines(dir: string, file: string): string[] {
  const text = fs.readFileSync(path.join(dir, file), 'utf8');
  return text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
}

/** What a batch does to one file's lines. */
type Change = (lines: string[]) => string[];

interface Batch {
  readonly name: 'A' | 'B';
  readonly files: readonly string[];
  readonly patch: string;
  /** Its change of each of its files, and the marker lines it writes there. */
  readonly change: (file: string) => Change;
  readonly marker: (file: string) => string;
}

/** Files a run leaves behind: temporary files, locks and their drafts, batch temporary files, journals. */
function strays(dir: string): string[] {
  const found = leftovers(dir);
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.includes('.rt-batch-')) found.push(path.relative(dir, p));
    }
  };
  walk(dir);
  const journal = path.join(dir, '.rt', 'journal');
  if (fs.existsSync(journal)) for (const name of fs.readdirSync(journal)) found.push(`.rt/journal/${name}`);
  return found;
}

/**
 * Checks a round: every file is its lines before with the changes of the batches that succeeded
 * applied (in either order: they ran at once), and a refused batch's markers are nowhere.
 */
function checkRound(
  dir: string,
  round: string,
  before: Map<string, string[]>,
  batches: readonly Batch[],
  ok: readonly boolean[],
  tally: Tally,
): void {
  for (const file of FILES) {
    const old = before.get(file)!;
    const now = readLines(dir, file);
    const landing = batches.filter((b, i) => ok[i] && b.files.includes(file));
    const orders = landing.length === 2 ? [landing, [landing[1]!, landing[0]!]] : [landing];
    const fits = orders.some((order) => {
      const want = order.reduce((lines, b) => b.change(file)(lines), old);
      return want.length === now.length && want.every((l, i) => l === now[i]);
    });
    if (fits) continue;
    // What went wrong: a marker of a batch that succeeded missing or repeated (lost), a marker
    // of a refused one present (half-applied), or lines that are neither (torn).
    let explained = false;
    for (const [i, b] of batches.entries()) {
      if (!b.files.includes(file)) continue;
      const n = now.filter((l) => l === b.marker(file)).length;
      if (ok[i] && n !== 1) {
        tally.fail('lost', `${round}: batch ${b.name} succeeded, but its line is in ${file} ${n} times`);
        explained = true;
      }
      if (!ok[i] && n !== 0) {
        tally.fail('torn', `${round}: batch ${b.name} was refused, but its line is in ${file}: a half-applied batch`);
        explained = true;
      }
    }
    if (!explained)
      tally.fail(
        'torn',
        `${round}: ${file} is not its old lines with the batches that succeeded applied (${now.length} ` +
          `lines, ${old.length} before)`,
      );
  }
  for (const [i, b] of batches.entries()) {
    if (ok[i]) continue;
    for (const file of FILES.filter((f) => !b.files.includes(f)))
      if (readLines(dir, file).includes(b.marker(file)))
        tally.fail('torn', `${round}: batch ${b.name}'s line is in ${file}, which it does not name`);
  }
}

/** Runs the two batches at once; returns whether each was written (exit 0), counting hangs and crashes. */
async function race(
  dir: string,
  round: string,
  batches: readonly Batch[],
  allowStale: boolean,
  tally: Tally,
  times: number[],
): Promise<boolean[] | undefined> {
  const t0 = Date.now();
  const runs: Finished[] = await Promise.all(
    batches.map((b) => start(['apply'], dir, { input: b.patch, timeoutMs: ROUND_LIMIT_MS }).done),
  );
  times.push(Date.now() - t0);
  let sound = true;
  const ok = runs.map((r, i) => {
    tally.trials++;
    if (r.signal === 'SIGKILL' && r.ms >= ROUND_LIMIT_MS - 100) {
      tally.fail(
        'crashes',
        `${round}: batch ${batches[i]!.name} did not end within ${ROUND_LIMIT_MS / 1000} s (a deadlock?)\n${r.text}`,
      );
      sound = false;
      return false;
    }
    const crash = crashOf(r);
    if (crash) {
      tally.fail('crashes', `${round}: batch ${batches[i]!.name}: ${crash}\n${r.text}`);
      sound = false;
      return false;
    }
    if (r.status === 3 && allowStale) return false;
    if (r.status !== 0) {
      tally.fail('lost', `${round}: batch ${batches[i]!.name} was refused (exit ${r.status})\n${r.text}`);
      return false;
    }
    return true;
  });
  return sound ? ok : undefined;
}

/** The LID `rt open` shows at line k of `file`, which it marks shown. */
async function lidOf(dir: string, file: string, k: number, tally: Tally): Promise<string | undefined> {
  const r = await runAsync(['open', `${file}:${k}-${k}`], dir);
  const m = new RegExp(`^${k}:([0-9a-z]{4})\\|(.*)$`, 'm').exec(r.stdout.toString('utf8'));
  if (crashOf(r) || r.status !== 0 || !m) tally.fail('crashes', `rt open ${file}:${k} failed\n${r.text}`);
  else if (m[2] !== original(file, k)) tally.fail('torn', `line ${k} of ${file} is ${m[2]}, not ${original(file, k)}`);
  return m?.[1];
}

function setUp(): string {
  const dir = tempDir('rt-stress-apply-conc-');
  for (const file of FILES) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(
      path.join(dir, file),
      Array.from({ length: LINES }, (_, i) => `${original(file, i + 1)}\n`).join(''),
    );
  }
  return dir;
}

const snapshot = (dir: string) => new Map(FILES.map((f) => [f, readLines(dir, f)] as const));
const percentile = (xs: readonly number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? 0;

describe('stress: concurrent rt apply batches over overlapping files', () => {
  const rounds = pick(4, 50);
  it(
    `${rounds} rounds of two batches at once (A: f1 f2 f3; B: f3 f2 f4), each appending a line to each of ` +
      `its files: no deadlock, both land whole`,
    async () => {
      const tally = new Tally(`2 concurrent: ${rounds} rounds of 2 rt apply at once over overlapping files, appends`);
      const dir = setUp();
      const times: number[] = [];
      for (let r = 0; r < rounds; r++) {
        const round = `append round ${r}`;
        const batches = (['A', 'B'] as const).map((name): Batch => {
          const files = name === 'A' ? A : B;
          const marker = (file: string) => `${name} r${r} appended to ${file}`;
          return {
            name,
            files,
            marker,
            change: (file) => (lines) => [...lines, marker(file)],
            patch:
              '*** Begin Patch\n' +
              files.map((f) => `*** Update File: ${f}\n@@ insert after $\n+${marker(f)}\n`).join('') +
              '*** End Patch\n',
          };
        });
        const before = snapshot(dir);
        const ok = await race(dir, round, batches, false, tally, times);
        if (ok) checkRound(dir, round, before, batches, ok, tally);
        for (const left of strays(dir)) tally.fail('strayTemp', `${round}: ${left}`);
      }
      for (const bad of corruptStateFiles(dir)) tally.fail('corruptState', bad);
      tally.notes =
        `both batches of a round ended within ${(percentile(times, 0.5) / 1000).toFixed(2)} s ` +
        `(median), ${(Math.max(...times) / 1000).toFixed(2)} s at most (limit ${ROUND_LIMIT_MS / 1000} s)`;
      tally.record();
      expect(tally.clean, tally.summary()).toBe(true);
    },
    SCENARIO_TIMEOUT,
  );

  const lidRounds = pick(4, 50);
  it(
    `${lidRounds} rounds of two batches at once replacing lines by the LIDs shown before, the same lines of ` +
      `the shared files or not: one refused as stale, or both land; never lost or half-applied`,
    async () => {
      const tally = new Tally(
        `2 concurrent: ${lidRounds} rounds of 2 rt apply at once over overlapping files, by LIDs read before`,
      );
      const dir = setUp();
      const times: number[] = [];
      const outcomes = {
        conflict: { aWins: 0, bWins: 0, both: 0, neither: 0 },
        apart: { both: 0, aOnly: 0, bOnly: 0, neither: 0 },
      };
      for (let r = 0; r < lidRounds; r++) {
        // Even rounds: both batches replace the same line of f2 and f3. Odd rounds: B the line after A's.
        const conflict = r % 2 === 0;
        const round = `${conflict ? 'conflicting' : 'separate'} LID round ${r}`;
        const kA = 10 + 3 * r;
        const kB = conflict ? kA : kA + 1;
        const batches: Batch[] = [];
        for (const name of ['A', 'B'] as const) {
          const files = name === 'A' ? A : B;
          const k = name === 'A' ? kA : kB;
          const marker = (file: string) => `${name} r${r} replaced line ${k} of ${file}`;
          const lids: string[] = [];
          for (const f of files) {
            const lid = await lidOf(dir, f, k, tally);
            if (lid) lids.push(lid);
          }
          if (lids.length !== files.length) break;
          batches.push({
            name,
            files,
            marker,
            change: (file) => (lines) => lines.map((l) => (l === original(file, k) ? marker(file) : l)),
            patch:
              '*** Begin Patch\n' +
              files.map((f, i) => `*** Update File: ${f}\n@@ edit ${lids[i]}\n+${marker(f)}\n`).join('') +
              '*** End Patch\n',
          });
        }
        if (batches.length !== 2) break;
        const before = snapshot(dir);
        const ok = await race(dir, round, batches, true, tally, times);
        if (ok) {
          checkRound(dir, round, before, batches, ok, tally);
          const [a, b] = ok;
          if (conflict) {
            if (a && b)
              outcomes.conflict.both++; // and counted lost above: one replaced the other's line
            else if (a) outcomes.conflict.aWins++;
            else if (b) outcomes.conflict.bWins++;
            else outcomes.conflict.neither++;
          } else if (a && b) outcomes.apart.both++;
          else if (a) outcomes.apart.aOnly++;
          else if (b) outcomes.apart.bOnly++;
          else outcomes.apart.neither++;
        }
        for (const left of strays(dir)) tally.fail('strayTemp', `${round}: ${left}`);
      }
      for (const bad of corruptStateFiles(dir)) tally.fail('corruptState', bad);
      const c = outcomes.conflict;
      const s = outcomes.apart;
      tally.notes =
        `same lines: A won ${c.aWins}, B won ${c.bWins} (the other refused as stale), both written ${c.both}, ` +
        `both refused ${c.neither}; different lines: both written ${s.both}, only A ${s.aOnly}, only ` +
        `B ${s.bOnly}, neither ${s.neither}; rounds took ${(percentile(times, 0.5) / 1000).toFixed(2)} s ` +
        `(median), ${(Math.max(...times) / 1000).toFixed(2)} s at most`;
      tally.record();
      // Two batches that replace the same line cannot both be written, and one of them always can;
      // two that replace different lines both are (the second resolves its LIDs against the first's result).
      expect(c.both + c.neither, `${tally.summary()}\n${tally.notes}`).toBe(0);
      expect(s.aOnly + s.bOnly + s.neither, `${tally.summary()}\n${tally.notes}`).toBe(0);
      expect(tally.clean, `${tally.summary()}\n${tally.notes}`).toBe(true);
    },
    SCENARIO_TIMEOUT,
  );
});
