// The packed store under kills: four writers at once, each opening, searching and editing its own
// files with the state of every file in one .rt/pack, killed (SIGKILL) at random moments, many
// of them while saving. Afterwards every file's LIDs must be those its first reading gave (lines
// never changed) or those the last completed edit printed (lines it wrote), every segment in the
// pack must be whole, and nothing half-written may be trusted (no warning of state set aside).

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, tempRepo } from '../e2e/harness.js';
import { packSegments } from '../support/pack.js';
import { pick, random, SCENARIO_TIMEOUT, SEED } from './config.js';
import { Tally } from './figures.js';
import { crashOf, runAsync, start, type Finished } from './proc.js';

afterAll(cleanup);

const WRITERS = 4;
const FILES = pick(16, 40);
const ROUNDS = pick(10, 50);
const LINES = 60;

const HIT = /^(\d+):([0-9a-z]{4,})\|(.*)$/gm;

/** The lines of a window or an edit's region as printed: content → LID. */
function printed(stdout: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of stdout.matchAll(HIT)) out.set(m[3]!, m[2]!);
  return out;
}

/** Runs rt, killing it after `killMs` when given; the run, and whether it was killed. */
async function runMaybeKilled(
  args: string[],
  dir: string,
  killMs: number | undefined,
  input?: string,
): Promise<{ r: Finished; killed: boolean }> {
  const s = start(args, dir, input === undefined ? {} : { input });
  let killed = false;
  const timer = killMs === undefined ? undefined : setTimeout(() => ((killed = true), s.kill()), killMs);
  const r = await s.done;
  if (timer) clearTimeout(timer);
  return { r, killed: killed && r.signal !== null };
}

describe('stress: the packed store under kills', () => {
  it(
    `${WRITERS} writers, ${ROUNDS} rounds each over ${FILES} files, killed at random: LIDs as a fresh reading or ` +
      'the last completed edit gives them, no half-written state trusted',
    async () => {
      const tally = new Tally('pack kill: 4 writers SIGKILLed while saving the packed store');
      const dir = tempRepo();
      const names = Array.from({ length: FILES }, (_, f) => `d${f % 4}/f${f}.txt`);
      for (const [f, name] of names.entries()) {
        fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        const lines = Array.from({ length: LINES }, (_, i) => `file ${f} line ${i} common`);
        fs.writeFileSync(path.join(dir, name), `${lines.join('\n')}\n`);
      }
      // What each line's LID must stay: the first reading's, then what completed edits printed.
      const expected = new Map<string, Map<string, string>>();
      for (const name of names) {
        const r = await runAsync(['open', name, '--window', '1000'], dir);
        expected.set(name, printed(r.stdout.toString('utf8')));
      }
      let kills = 0;
      let completedEdits = 0;
      const writer = async (w: number) => {
        const next = random(SEED ^ (0x9ac0 + w));
        const mine = names.filter((_, f) => f % WRITERS === w);
        for (let round = 0; round < ROUNDS; round++) {
          const name = mine[Math.floor(next() * mine.length)]!;
          const kill = () => (next() < 0.5 ? 20 + Math.floor(next() * 400) : undefined);
          // A search across every file: a save of many indexes and views, killed or not.
          if (next() < 0.4) {
            const g = await runMaybeKilled(
              ['grep', '-F', `line ${Math.floor(next() * LINES)} common`, '.'],
              dir,
              kill(),
            );
            if (g.killed) kills++;
            else if (crashOf(g.r) || g.r.status !== 0) tally.fail('crashes', `grep: ${g.r.text}`);
          }
          const o = await runMaybeKilled(['open', name, '--window', '1000'], dir, kill());
          if (o.killed) {
            kills++;
            continue;
          }
          if (crashOf(o.r) || o.r.status !== 0) {
            tally.fail('crashes', `open: ${o.r.text}`);
            continue;
          }
          const shown = [...printed(o.r.stdout.toString('utf8'))];
          const [, lid] = shown[Math.floor(next() * shown.length)]!;
          const text = `w${w} round ${round} wrote this`;
          const e = await runMaybeKilled(['edit', name, lid], dir, kill(), `${text}\n`);
          tally.trials++;
          if (e.killed) {
            kills++;
            // Landed or not, the line it would have printed is no promise: what it wrote is checked as content only.
            continue;
          }
          if (crashOf(e.r) || e.r.status !== 0) {
            tally.fail('wrongRefusals', `edit of a line just shown: ${e.r.text}`);
            continue;
          }
          completedEdits++;
          const got = printed(e.r.stdout.toString('utf8')).get(text);
          if (got) expected.get(name)!.set(text, got);
          else tally.fail('lost', `edit printed no LID for its line: ${e.r.text}`);
        }
      };
      await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));

      // Every segment whole, every entry a document (nothing half-written linked into place).
      try {
        for (const segment of packSegments(dir)) {
          const bytes = fs.readFileSync(segment.file);
          for (const row of segment.rows)
            if (row.length >= 0) JSON.parse(bytes.subarray(row.offset, row.offset + row.length).toString('utf8'));
        }
      } catch (error) {
        tally.fail('corruptState', `a segment in .rt/pack is not whole: ${(error as Error).message}`);
      }
      for (const name of names) {
        const r = await runAsync(['open', name, '--window', '1000'], dir);
        if (crashOf(r) || r.status !== 0) tally.fail('crashes', `final open: ${r.text}`);
        if (/set aside|unusable/.test(r.stderr)) tally.fail('corruptState', `trusted nothing, but found: ${r.stderr}`);
        const now = printed(r.stdout.toString('utf8'));
        for (const [content, lid] of now) {
          const want = expected.get(name)!.get(content);
          if (want !== undefined && want !== lid)
            tally.fail('wrongLines', `${name}: "${content}" was ${want}, is ${lid}`);
        }
      }
      const temps = fs.readdirSync(path.join(dir, '.rt', 'pack')).filter((n) => n.startsWith('tmp-'));
      const segments = packSegments(dir).length;
      tally.notes = `${kills} kills, ${completedEdits} edits done, ${segments} segments, ${temps.length} temps`;
      tally.record();
      expect(tally.clean, tally.summary()).toBe(true);
      expect(kills).toBeGreaterThan(0);
    },
    SCENARIO_TIMEOUT,
  );
});
