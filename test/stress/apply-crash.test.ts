// 1b. Crash safety of a batch: `rt apply` of a patch over three files of some 4 MB,
// killed (SIGKILL) at random moments — before its start-up completes, while it holds the locks,
// while it writes the new contents, between the commit and the last rename, after it is done.
// The next rt command in that root (an `rt open` of one file) finishes or undoes what the kill
// left and says so; after it every file of the batch is old or new, whole, and all of them
// together are the old batch or the new one, never a mix; no temporary file, journal or draft
// is left. (What a kill leaves of one file's own housekeeping — its lock, a lock draft, a
// temporary state file — is removed when that file is next written, as after a killed edit: a
// last apply over every file must leave nothing at all.) Half the kills, once earlier ones have
// found where the journal exists, are aimed at that window, short beside the whole run. A second
// form adds one file and deletes another in the same batch, so that the new batch also means a
// file created and a file removed.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, tempDir } from '../e2e/harness.js';
import { SCENARIO_TIMEOUT, SEED, pick, random } from './config.js';
import { Tally } from './figures.js';
import {
  corruptStateFiles,
  crashOf,
  leftovers,
  numberedBytes,
  runAsync,
  sleep,
  start,
  type Finished,
  LOCK_LEFTOVERS,
} from './proc.js';

afterAll(cleanup);

/** Lines per file: 25,000 lines of 150 bytes, 3.75 MB. */
const ROWS = 25_000;
const WIDTH = 150;
const MODE = 0o640;

/** The bytes of `bytes` with line k (1-based) replaced by `content` and `appended` added at the end. */
function edited(bytes: Buffer, k: number, content: string, appended: string): Buffer {
  let at = 0;
  for (let i = 1; i < k; i++) at = bytes.indexOf(0x0a, at) + 1;
  const end = bytes.indexOf(0x0a, at);
  return Buffer.concat([
    bytes.subarray(0, at),
    Buffer.from(content),
    bytes.subarray(end),
    Buffer.from(`${appended}\n`),
  ]);
}

/** What one path of a batch holds before and after it: bytes, or null for no file. */
interface Version {
  readonly old: Buffer | null;
  readonly new: Buffer | null;
}

/** How a kill fell, told by what it left before the next command ran. */
type Phase = 'nothing left' | 'locks left' | 'draft journal' | 'committed journal' | 'done';

/** What the kill left: its journal (committed or draft), locks and temporary files. */
function phaseOf(dir: string, files: Map<string, Version>): { phase: Phase; replaced: number } {
  const journal = journalFiles(dir);
  let replaced = 0;
  for (const [rel, v] of files) if (same(read(dir, rel), v.new)) replaced++;
  if (journal.some((n) => n.endsWith('.json'))) return { phase: 'committed journal', replaced };
  if (journal.some((n) => n.endsWith('.draft'))) return { phase: 'draft journal', replaced };
  if (replaced === files.size) return { phase: 'done', replaced };
  if (leftovers(dir).some((l) => l.endsWith('.rt-lock'))) return { phase: 'locks left', replaced };
  return { phase: 'nothing left', replaced };
}

function journalFiles(dir: string): string[] {
  try {
    return fs.readdirSync(path.join(dir, '.rt', 'journal'));
  } catch {
    return [];
  }
}

function read(dir: string, rel: string): Buffer | null {
  try {
    return fs.readFileSync(path.join(dir, rel));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function same(a: Buffer | null, b: Buffer | null): boolean {
  return a === null || b === null ? a === b : a.equals(b);
}

/**
 * What a kill may leave of one file's own housekeeping, as a killed `rt edit` does: its lock, the
 * draft of its lock, the file breaking a dead owner's lock, a temporary state file. rt removes
 * these when a command next writes that file (they stop no one meanwhile), not in every command.
 */
/**
 * Leftovers the next writer of their file (or of the history, for its data; of any file, for the pack's staged segment
 * and its lock) removes.
 */
const PER_FILE = new RegExp(
  `${LOCK_LEFTOVERS.source}|\\.json\\.tmp-\\d+-|^\\.rt\\/history\\/data\\/\\d+\\.bin\\.tmp-\\d+-`,
);

/**
 * Files a batch leaves while it runs and the next command must remove: its temporary files, journals and drafts,
 * anything set aside.
 */
function batchLeftovers(dir: string): string[] {
  const found = leftovers(dir).filter((l) => !PER_FILE.test(l));
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.includes('.rt-batch-')) found.push(path.relative(dir, p));
    }
  };
  walk(dir);
  for (const name of journalFiles(dir)) found.push(`.rt/journal/${name}`);
  for (const name of fs.existsSync(path.join(dir, '.rt', 'set-aside'))
    ? fs.readdirSync(path.join(dir, '.rt', 'set-aside'))
    : [])
    found.push(`.rt/set-aside/${name}`);
  return found.sort();
}

/** The LID rt shows now at line k of `rel` (opening it marks it shown); the run itself is returned too. */
async function lidAt(dir: string, rel: string, k: number): Promise<{ run: Finished; lid: string | undefined }> {
  const r = await runAsync(['open', `${rel}:${k}-${k}`], dir);
  const m = new RegExp(`^${k}:([0-9a-z]{4})\\|`, 'm').exec(r.stdout.toString('utf8'));
  return { run: r, lid: m?.[1] };
}

interface Counts {
  outcome: { old: number; new: number };
  phases: Record<Phase, number>;
  /** Kills that left a committed batch with only some of its files replaced (finished by the next command). */
  partlyReplaced: number;
  said: { finished: number; undid: number };
  /** Per-file leftovers (PER_FILE) found after a next command, for the next writer of their file to remove. */
  perFileLeft: Set<string>;
  /** Kills aimed at the window where earlier kills found a journal. */
  aimed: number;
}

/**
 * One crash scenario: `trials` kills of `rt apply` at random moments. `batch(trial, lids)` gives
 * the patch of a trial and what each of its paths holds before and after; `lines` says which
 * line of which updated file the trial edits (its LID is read first, which shows it).
 */
async function scenario(opts: {
  tally: Tally;
  dir: string;
  trials: number;
  seed: number;
  /** The updated files (the next command after a kill opens the first). */
  updated: readonly string[];
  batch: (trial: number, k: number, lids: readonly string[]) => { patch: string; files: Map<string, Version> };
}): Promise<Counts> {
  const { tally, dir, trials, updated } = opts;
  const next = random(opts.seed);
  const counts: Counts = {
    outcome: { old: 0, new: 0 },
    phases: { 'nothing left': 0, 'locks left': 0, 'draft journal': 0, 'committed journal': 0, done: 0 },
    partlyReplaced: 0,
    said: { finished: 0, undid: 0 },
    perFileLeft: new Set(),
    aimed: 0,
  };
  // How long a whole apply takes here (trial 0 measures it; then followed as the load changes).
  let applyMs = 1500;
  /** Delays of the kills that left a journal (draft or committed). */
  const journalDelays: number[] = [];
  let pending:
    | { trial: number; files: Map<string, Version>; status: number | null; phase: Phase; delay: number }
    | undefined;

  /**
   * After the next command ran (`r`): the batch is all old or all new, nothing is left, and the command said what it
   * did.
   */
  const check = (r: Finished) => {
    const p = pending!;
    pending = undefined;
    const crash = crashOf(r);
    if (crash || r.status !== 0)
      tally.fail(
        'crashes',
        `the command after trial ${p.trial}'s kill failed (${crash ?? `exit ${r.status}`})\n${r.text}`,
      );
    const finished = /finished a batch/.test(r.stderr);
    const undid = /undid a batch/.test(r.stderr);
    if (finished && p.trial > 0) counts.said.finished++;
    if (undid && p.trial > 0) counts.said.undid++;
    const wantFinished = p.phase === 'committed journal';
    const wantUndid = p.phase === 'draft journal';
    if (finished !== wantFinished || undid !== wantUndid)
      tally.fail(
        'crashes',
        `trial ${p.trial} (killed after ${p.delay} ms, ${p.phase}): the next command ` +
          (finished ? 'said it finished a batch' : undid ? 'said it undid a batch' : 'said nothing of a batch') +
          `\n${r.text}`,
      );
    let olds = 0;
    let news = 0;
    for (const [rel, v] of p.files) {
      const now = read(dir, rel);
      const isOld = same(now, v.old);
      const isNew = !isOld && same(now, v.new);
      if (isOld) olds++;
      else if (isNew) news++;
      else
        tally.fail(
          'torn',
          `trial ${p.trial} (killed after ${p.delay} ms, ${p.phase}): ${rel} ` +
            `is ${now === null ? 'missing' : `${now.length} bytes`}, neither the old version nor the new`,
        );
      if (now !== null && updated.includes(rel) && (fs.statSync(path.join(dir, rel)).mode & 0o7777) !== MODE)
        tally.fail(
          'torn',
          `trial ${p.trial}: ${rel}'s mode is now ${(fs.statSync(path.join(dir, rel)).mode & 0o7777).toString(8)}`,
        );
    }
    if (olds > 0 && news > 0)
      tally.fail(
        'torn',
        `trial ${p.trial} (killed after ${p.delay} ms, ${p.phase}): a mixed batch after the next ` +
          `command, ${news} files new and ${olds} old`,
      );
    if (p.status === 0 && news !== p.files.size)
      tally.fail('lost', `trial ${p.trial}: rt apply reported success, but ${olds} of its files are old`);
    if (p.trial > 0 && olds === p.files.size) counts.outcome.old++;
    else if (p.trial > 0 && news === p.files.size) counts.outcome.new++;
    for (const left of batchLeftovers(dir))
      tally.fail('strayTemp', `after trial ${p.trial} (${p.phase}) and the next command: ${left}`);
    for (const left of leftovers(dir)) if (PER_FILE.test(left)) counts.perFileLeft.add(left);
    for (const bad of corruptStateFiles(dir)) tally.fail('corruptState', `after trial ${p.trial}: ${bad}`);
    return { olds, news };
  };

  for (let trial = 0; trial <= trials + 1; trial++) {
    const k = 1 + Math.floor(next() * (ROWS - 1));
    // The first command after a kill: an open of the first file, at the line the trial edits.
    const lids: string[] = [];
    for (const [i, rel] of updated.entries()) {
      const shown = await lidAt(dir, rel, k);
      if (i === 0 && pending) check(shown.run);
      if (crashOf(shown.run) || shown.run.status !== 0 || !shown.lid) {
        tally.fail('crashes', `rt open ${rel}:${k} failed\n${shown.run.text}`);
        return counts;
      }
      lids.push(shown.lid);
    }
    if (trial === trials + 1) break; // that open was the command after the last kill
    const { patch, files } = opts.batch(trial, k, lids);
    const p = start(['apply'], dir, { input: patch });
    // Trial 0 is not killed: it measures an apply. The others die anywhere from before rt has
    // started to some time after it has finished; once kills have found a journal (the new
    // contents being written, or committed and being renamed into place), half of them are
    // aimed at that window, a few ms on either side, which is short beside the whole run.
    const aim = journalDelays.length >= 2 && next() < 0.5;
    const lo = Math.max(0, Math.min(...journalDelays) - 5);
    const hi = Math.max(...journalDelays) + 15;
    const delay =
      trial === 0 ? Infinity : aim ? Math.floor(lo + next() * (hi - lo)) : Math.floor(next() * applyMs * 1.2);
    if (aim && trial > 0) counts.aimed++;
    if (delay !== Infinity) {
      await p.fed;
      await Promise.race([sleep(delay), p.done]);
      p.kill();
    }
    const r = await p.done;
    if (trial > 0) tally.trials++;
    if (r.signal === null) {
      const crash = crashOf(r);
      if (crash || r.status !== 0) tally.fail('crashes', `trial ${trial}: ${crash ?? `exit ${r.status}`}\n${r.text}`);
      else applyMs = Math.round((applyMs + r.ms) / 2);
    }
    const { phase, replaced } = phaseOf(dir, files);
    if (phase === 'draft journal' || phase === 'committed journal') journalDelays.push(delay);
    if (trial > 0) {
      counts.phases[phase]++;
      if (phase === 'committed journal' && replaced < files.size) counts.partlyReplaced++;
    }
    pending = { trial, files, status: r.signal === null ? r.status : null, phase, delay };
  }
  return counts;
}

function notesOf(c: Counts, trials: number): string {
  const phases = Object.entries(c.phases)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  return (
    `${trials} kills: the batch ended all old ${c.outcome.old}, all new ${c.outcome.new}; what a kill ` +
    `left: ${phases} (committed with only some files replaced: ${c.partlyReplaced}); the next command said it ` +
    `finished a batch ${c.said.finished} times, undid one ${c.said.undid}; per-file leftovers (locks, lock ` +
    `drafts and breakers, state temporary files) seen after a next command, for their file's next ` +
    `writer: ${c.perFileLeft.size} distinct (a last apply over every file must remove them all); ${c.aimed} ` +
    `kills aimed at the journal's window`
  );
}

/**
 * The last word: an apply that is not killed, over every file, works and leaves nothing behind (the locks a kill left
 * included).
 */
async function finalApply(dir: string, updated: readonly string[], tally: Tally, extra = ''): Promise<void> {
  const patch = updated.map((rel) => `*** Update File: ${rel}\n@@ insert after $\n+after the kills\n`).join('') + extra;
  const before = updated.map((rel) => read(dir, rel)!);
  const r = await runAsync(['apply'], dir, { input: patch });
  if (crashOf(r) || r.status !== 0) tally.fail('crashes', `the apply after the kills: ${r.text}`);
  else
    updated.forEach((rel, i) => {
      if (!same(read(dir, rel), Buffer.concat([before[i]!, Buffer.from('after the kills\n')])))
        tally.fail('lost', `the apply after the kills is not in ${rel}`);
    });
  for (const left of [...leftovers(dir), ...batchLeftovers(dir)])
    tally.fail('strayTemp', `after the last apply: ${left}`);
  for (const bad of corruptStateFiles(dir)) tally.fail('corruptState', bad);
}

describe('stress: crash safety of rt apply', () => {
  const trials = pick(4, 200);
  it(
    `SIGKILL at random moments of ${trials} applies over 3 files of 3.75 MB: every batch all old or all new ` +
      `after the next command`,
    async () => {
      const tally = new Tally('1 crash: SIGKILL during rt apply over 3 files of 3.75 MB');
      const dir = tempDir('rt-stress-apply-crash-');
      const updated = ['one/f1.txt', 'two/f2.txt', 'f3.txt'];
      const current = new Map<string, Buffer>();
      for (const [i, rel] of updated.entries()) {
        fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
        const bytes = numberedBytes(ROWS, WIDTH, `f${i + 1} row `);
        fs.writeFileSync(path.join(dir, rel), bytes);
        fs.chmodSync(path.join(dir, rel), MODE);
        current.set(rel, bytes);
      }
      const counts = await scenario({
        tally,
        dir,
        trials,
        seed: SEED ^ 0xa1,
        updated,
        batch: (trial, k, lids) => {
          // Read the files as they are now: the previous kill left them old or new.
          for (const rel of updated) current.set(rel, read(dir, rel)!);
          const files = new Map<string, Version>();
          let patch = '*** Begin Patch\n';
          updated.forEach((rel, i) => {
            const text = `trial ${trial} ${rel} line ${k}`;
            const tail = `trial ${trial} ${rel} appended`;
            patch += `*** Update File: ${rel}\n@@ edit ${lids[i]}\n+${text}\n@@ insert after $\n+${tail}\n`;
            files.set(rel, { old: current.get(rel)!, new: edited(current.get(rel)!, k, text, tail) });
          });
          return { patch: `${patch}*** End Patch\n`, files };
        },
      });
      await finalApply(dir, updated, tally);
      tally.notes = notesOf(counts, tally.trials);
      tally.record();
      expect(tally.clean, tally.summary()).toBe(true);
    },
    SCENARIO_TIMEOUT,
  );

  const addTrials = pick(3, 200);
  it(
    `SIGKILL at random moments of ${addTrials} applies that update 2 files, add one and delete one: all old ` +
      `or all new, creation and removal included`,
    async () => {
      const tally = new Tally('1 crash: SIGKILL during rt apply updating 2 files, adding 1, deleting 1');
      const dir = tempDir('rt-stress-apply-crash-');
      const updated = ['u1.txt', 'sub/u2.txt'];
      for (const [i, rel] of updated.entries()) {
        fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
        fs.writeFileSync(path.join(dir, rel), numberedBytes(ROWS, WIDTH, `u${i + 1} row `));
        fs.chmodSync(path.join(dir, rel), MODE);
      }
      // Of x.txt and y.txt one exists: each batch deletes it and adds the other.
      fs.writeFileSync(path.join(dir, 'x.txt'), numberedBytes(ROWS, WIDTH, 'x row '));
      fs.chmodSync(path.join(dir, 'x.txt'), MODE);
      const counts = await scenario({
        tally,
        dir,
        trials: addTrials,
        seed: SEED ^ 0xa2,
        updated,
        batch: (trial, k, lids) => {
          const present = fs.existsSync(path.join(dir, 'x.txt')) ? 'x.txt' : 'y.txt';
          const absent = present === 'x.txt' ? 'y.txt' : 'x.txt';
          const files = new Map<string, Version>();
          const parts: string[] = [];
          updated.forEach((rel, i) => {
            const old = read(dir, rel)!;
            const text = `trial ${trial} ${rel} line ${k}`;
            const tail = `trial ${trial} ${rel} appended`;
            parts.push(`*** Update File: ${rel}\n@@ edit ${lids[i]}\n+${text}\n@@ insert after $\n+${tail}\n`);
            files.set(rel, { old, new: edited(old, k, text, tail) });
            // The added file comes between the two updates, the deleted one last.
            if (i === 0) {
              const added = Array.from({ length: 20_000 }, (_, j) => `trial ${trial} added ${absent} line ${j + 1}`);
              parts.push(`*** Add File: ${absent}\n${added.map((l) => `+${l}\n`).join('')}`);
              files.set(absent, { old: null, new: Buffer.from(added.map((l) => `${l}\n`).join('')) });
            }
          });
          parts.push(`*** Delete File: ${present}\n`);
          files.set(present, { old: read(dir, present)!, new: null });
          return { patch: `*** Begin Patch\n${parts.join('')}*** End Patch\n`, files };
        },
      });
      // The last apply also takes the locks of x.txt and y.txt: it replaces the one there and adds the other.
      const [present, absent] = fs.existsSync(path.join(dir, 'x.txt')) ? ['x.txt', 'y.txt'] : ['y.txt', 'x.txt'];
      await finalApply(
        dir,
        updated,
        tally,
        `*** Update File: ${present}\n@@ insert after $\n+after the kills\n*** Add File: ${absent}\n+after the kills\n`,
      );
      tally.notes = notesOf(counts, tally.trials);
      tally.record();
      expect(tally.clean, tally.summary()).toBe(true);
    },
    SCENARIO_TIMEOUT,
  );
});
