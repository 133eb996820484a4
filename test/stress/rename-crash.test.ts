// Crash safety of a rename across a project: `rt rename` of a function declared in one file and
// called from 20 others, killed (SIGKILL) at random moments, from before its language service has
// started to after the batch is done. The next rt command in that root (an `rt open`) finishes or
// undoes what the kill left; after it every file is the old version or the new one, whole, and all
// 21 together are the old batch or the new one, never a mix; no journal, draft or temporary file is
// left. Last, a rename that is not killed, then one `rt undo`, which must give back every byte.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, tempDir } from '../e2e/harness.js';
import { SCENARIO_TIMEOUT, SEED, pick, random } from './config.js';
import { Tally } from './figures.js';
import { corruptStateFiles, crashOf, killedTrial, leftovers, runAsync, LOCK_LEFTOVERS } from './proc.js';

afterAll(cleanup);

const FILES = 20;
/** Lines per calling file, and every how many lines a call stands. */
const ROWS = 400;
const EVERY = 20;

const name = (i: number) => `d${i % 4}/f${i}.ts`;

/** The file declaring the function `token`. */
function libWith(token: string): Buffer {
  return Buffer.from(`// the function renamed\nexport function ${token}(n: number): number {\n  return n;\n}\n`);
}

/** Calling file `i`: imports `token` and calls it on every EVERY-th line (CRLF in every third file). */
function fileWith(i: number, token: string): Buffer {
  const lines = [`import { ${token} } from '../lib';`];
  for (let k = 0; k < ROWS; k++)
    lines.push(k % EVERY === 0 ? `export const v${k} = ${token}(${k});` : `// file ${i} line ${k} ${'x'.repeat(40)}`);
  const eol = i % 3 === 0 ? '\r\n' : '\n';
  return Buffer.from(`${lines.join(eol)}${eol}`);
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

/** Every file as `token` makes it: the library, then the callers. */
const versions = (token: string) => [libWith(token), ...Array.from({ length: FILES }, (_, i) => fileWith(i, token))];
const paths = ['lib.ts', ...Array.from({ length: FILES }, (_, i) => name(i))];

describe('stress: crash safety of rt rename', () => {
  const trials = pick(5, 40);
  it(
    `SIGKILL at random moments of ${trials} renames over ${FILES + 1} files: all old or all new after the next ` +
      'command, and one undo gives back every byte',
    async () => {
      const tally = new Tally(`1 crash: SIGKILL during rt rename over ${FILES + 1} files`);
      const dir = tempDir('rt-stress-rename-crash-');
      let token = 'tok0';
      paths.forEach((p, i) => {
        fs.mkdirSync(path.join(dir, path.dirname(p)), { recursive: true });
        fs.writeFileSync(path.join(dir, p), versions(token)[i]!);
      });
      const next = random(SEED ^ 0x7e);
      const outcome = { old: 0, new: 0 };
      const timing = { ms: 3000 };
      for (let trial = 0; trial <= trials; trial++) {
        const to = `tok${trial + 1}`;
        const { run: r, delay } = await killedTrial(
          ['rename', `lib.ts:@${token}`, to],
          dir,
          name(0),
          trial,
          next,
          timing,
          tally,
        );
        const old = versions(token);
        const renamed = versions(to);
        let olds = 0;
        let news = 0;
        paths.forEach((p, i) => {
          const now = fs.readFileSync(path.join(dir, p));
          if (now.equals(old[i]!)) olds++;
          else if (now.equals(renamed[i]!)) news++;
          else tally.fail('torn', `trial ${trial} (killed after ${delay} ms): ${p} is neither old nor new`);
        });
        if (olds > 0 && news > 0)
          tally.fail('torn', `trial ${trial} (killed after ${delay} ms): ${news} files new and ${olds} old`);
        if (r.signal === null && r.status === 0 && news !== paths.length)
          tally.fail('lost', `trial ${trial}: rt rename reported success, but ${olds} files are old`);
        if (trial > 0 && olds === paths.length) outcome.old++;
        if (news === paths.length) {
          if (trial > 0) outcome.new++;
          token = to;
        }
        for (const left of batchLeftovers(dir)) tally.fail('strayTemp', `after trial ${trial}: ${left}`);
        for (const bad of corruptStateFiles(dir)) tally.fail('corruptState', `after trial ${trial}: ${bad}`);
      }
      // The last word: a rename not killed, then one undo, which gives every byte back.
      const before = paths.map((p) => fs.readFileSync(path.join(dir, p)));
      const last = await runAsync(['rename', `lib.ts:@${token}`, 'final'], dir);
      if (crashOf(last) || last.status !== 0) tally.fail('crashes', `the last rename: ${last.text}`);
      const finals = versions('final');
      paths.forEach((p, i) => {
        if (!fs.readFileSync(path.join(dir, p)).equals(finals[i]!))
          tally.fail('lost', `the last rename is not in ${p}`);
      });
      const undo = await runAsync(['undo'], dir);
      if (crashOf(undo) || undo.status !== 0) tally.fail('crashes', `the undo: ${undo.text}`);
      paths.forEach((p, i) => {
        if (!fs.readFileSync(path.join(dir, p)).equals(before[i]!))
          tally.fail('wrongRestores', `the undo left ${p} other than before the rename`);
      });
      // Every leftover of the kills, lock drafts included, is gone once commands that take those locks ran.
      for (const left of leftovers(dir)) tally.fail('strayTemp', `after the last undo: ${left}`);
      tally.notes =
        `${tally.trials} kills: all old ${outcome.old}, all new ${outcome.new}; ` +
        `a whole rename of ${FILES * (ROWS / EVERY + 1) + 1} places took about ${timing.ms} ms`;
      tally.record();
      expect(tally.clean, tally.summary()).toBe(true);
    },
    SCENARIO_TIMEOUT,
  );
});
