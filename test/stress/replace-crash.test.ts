// Crash safety of a project-wide change: `rt replace` over 50 files, killed (SIGKILL) at random
// moments, from before its start-up completes to after it is done. The next rt command in that root
// (an `rt open` of one of the files) finishes or undoes what the kill left; after it every file is
// the old version or the new one, whole, and all 50 together are the old batch or the new one,
// never a mix; no journal, draft or temporary file is left. Last, a replacement that is not killed,
// then one `rt undo`, which must give back every byte of every file.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, tempDir } from '../e2e/harness.js';
import { SCENARIO_TIMEOUT, SEED, pick, random } from './config.js';
import { Tally } from './figures.js';
import { corruptStateFiles, crashOf, killedTrial, leftovers, runAsync, LOCK_LEFTOVERS } from './proc.js';

afterAll(cleanup);

const FILES = 50;
/** Lines per file, and every how many lines the token stands. */
const ROWS = 2_000;
const EVERY = 100;

const name = (i: number) => `d${i % 5}/f${i}.ts`;

/** File `i` with `token` on every EVERY-th line (a valid TypeScript file, so that the syntax check passes). */
function fileWith(i: number, token: string): Buffer {
  const lines: string[] = [];
  for (let k = 0; k < ROWS; k++)
    lines.push(k % EVERY === 0 ? `export const v${k} = ${token}(${k});` : `// file ${i} line ${k} ${'x'.repeat(40)}`);
  lines.push(`function ${token}(n: number): number {`, '  return n;', '}');
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** Files a batch leaves while it runs and the next command must remove: temporary files, journals, drafts. */
function batchLeftovers(dir: string): string[] {
  const found = leftovers(dir).filter((l) => !LOCK_LEFTOVERS.test(l));
  for (const sub of ['journal', 'set-aside']) {
    const d = path.join(dir, '.rt', sub);
    if (fs.existsSync(d)) for (const n of fs.readdirSync(d)) found.push(`.rt/${sub}/${n}`);
  }
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory() && e.name !== '.rt' && e.name !== '.git') walk(path.join(d, e.name));
      else if (e.name.includes('.rt-batch-')) found.push(path.relative(dir, path.join(d, e.name)));
    }
  };
  walk(dir);
  return found.sort();
}

describe('stress: crash safety of rt replace', () => {
  const trials = pick(6, 60);
  it(
    `SIGKILL at random moments of ${trials} replacements over ${FILES} files: all old or all new after the next ` +
      'command, and one undo gives back every byte',
    async () => {
      const tally = new Tally(`1 crash: SIGKILL during rt replace over ${FILES} files`);
      const dir = tempDir('rt-stress-replace-crash-');
      let token = 'tok0';
      for (let i = 0; i < FILES; i++) {
        fs.mkdirSync(path.join(dir, path.dirname(name(i))), { recursive: true });
        fs.writeFileSync(path.join(dir, name(i)), fileWith(i, token));
      }
      const next = random(SEED ^ 0x5e);
      const outcome = { old: 0, new: 0 };
      const timing = { ms: 3000 };
      for (let trial = 0; trial <= trials; trial++) {
        const to = `tok${trial + 1}`;
        const { run: r, delay } = await killedTrial(
          ['replace', '-w', '-F', token, to],
          dir,
          name(0),
          trial,
          next,
          timing,
          tally,
        );
        let olds = 0;
        let news = 0;
        for (let i = 0; i < FILES; i++) {
          const now = fs.readFileSync(path.join(dir, name(i)));
          if (now.equals(fileWith(i, token))) olds++;
          else if (now.equals(fileWith(i, to))) news++;
          else tally.fail('torn', `trial ${trial} (killed after ${delay} ms): ${name(i)} is neither old nor new`);
        }
        if (olds > 0 && news > 0)
          tally.fail('torn', `trial ${trial} (killed after ${delay} ms): ${news} files new and ${olds} old`);
        if (r.signal === null && r.status === 0 && news !== FILES)
          tally.fail('lost', `trial ${trial}: rt replace reported success, but ${olds} files are old`);
        if (trial > 0 && olds === FILES) outcome.old++;
        if (news === FILES) {
          if (trial > 0) outcome.new++;
          token = to;
        }
        for (const left of batchLeftovers(dir)) tally.fail('strayTemp', `after trial ${trial}: ${left}`);
        for (const bad of corruptStateFiles(dir)) tally.fail('corruptState', `after trial ${trial}: ${bad}`);
      }
      // The last word: a replacement not killed, then one undo, which gives every byte back.
      const before = Array.from({ length: FILES }, (_, i) => fs.readFileSync(path.join(dir, name(i))));
      const last = await runAsync(['replace', '-w', '-F', token, 'final'], dir);
      if (crashOf(last) || last.status !== 0) tally.fail('crashes', `the last replacement: ${last.text}`);
      for (let i = 0; i < FILES; i++)
        if (!fs.readFileSync(path.join(dir, name(i))).equals(fileWith(i, 'final')))
          tally.fail('lost', `the last replacement is not in ${name(i)}`);
      const undo = await runAsync(['undo'], dir);
      if (crashOf(undo) || undo.status !== 0) tally.fail('crashes', `the undo: ${undo.text}`);
      for (let i = 0; i < FILES; i++)
        if (!fs.readFileSync(path.join(dir, name(i))).equals(before[i]!))
          tally.fail('wrongRestores', `the undo left ${name(i)} other than before the replacement`);
      // Every leftover of the kills, lock drafts included, is gone once commands that take those locks ran.
      for (const left of leftovers(dir)) tally.fail('strayTemp', `after the last undo: ${left}`);
      tally.notes =
        `${tally.trials} kills: all old ${outcome.old}, all new ${outcome.new}; ` +
        `a whole replacement of ${FILES * (ROWS / EVERY + 1)} lines took about ${timing.ms} ms`;
      tally.record();
      expect(tally.clean, tally.summary()).toBe(true);
    },
    SCENARIO_TIMEOUT,
  );
});
