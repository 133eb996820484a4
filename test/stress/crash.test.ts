// 1. Crash safety: rt killed (SIGKILL) at random moments while it edits a ~20 MB file
// leaves the old file or the new one, whole, with its mode; the next rt run works and removes
// what the killed one left (temporary files, its lock, temporary state files).

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, openWindow, run, tempDir, write } from '../e2e/harness.js';
import { SCENARIO_TIMEOUT, SEED, pick, random } from './config.js';
import { Tally } from './figures.js';
import { corruptStateFiles, crashOf, leftovers, numberedBytes, runAsync, sleep, start } from './proc.js';

afterAll(cleanup);

const ROWS = 100_000;
const TRIALS = pick(4, 40);

/** The file with line k (1-based) replaced by `content`. */
function withLine(bytes: Buffer, k: number, content: string): Buffer {
  let at = 0;
  for (let i = 1; i < k; i++) at = bytes.indexOf(0x0a, at) + 1;
  const end = bytes.indexOf(0x0a, at);
  return Buffer.concat([bytes.subarray(0, at), Buffer.from(content), bytes.subarray(end)]);
}

/** The LID rt shows now at line k (opening it marks it shown), with the content shown. */
async function lidAt(dir: string, k: number, tally: Tally): Promise<{ lid: string; content: string } | undefined> {
  const r = await runAsync(['open', `big.txt:${k}-${k}`], dir);
  const crash = crashOf(r);
  if (crash || r.status !== 0) {
    tally.fail('crashes', `the run after a kill failed (${crash ?? `exit ${r.status}`})\n${r.text}`);
    return undefined;
  }
  const m = /^(\d+):([0-9a-z]{4})\|(.*)$/m.exec(r.stdout.toString('utf8'));
  return m ? { lid: m[2]!, content: m[3]! } : undefined;
}

describe('stress: crash safety', () => {
  it(
    `SIGKILL at random moments of ${TRIALS} edits of a 20 MB file: no torn file, nothing left behind`,
    async () => {
      const tally = new Tally('1 crash: SIGKILL during edits of a 20 MB file');
      const next = random(SEED ^ 0x1);
      const dir = tempDir('rt-stress-crash-');
      const file = path.join(dir, 'big.txt');
      let current = numberedBytes(ROWS, 200, 'row ');
      fs.writeFileSync(file, current);
      fs.chmodSync(file, 0o640);

      // How long a whole edit takes here (measured, then followed as the machine's load changes).
      let editMs = 2000;
      const outcomes = { old: 0, new: 0, leftByKill: 0 };
      for (let trial = 0; trial <= TRIALS; trial++) {
        const k = 1 + Math.floor(next() * ROWS);
        const shown = await lidAt(dir, k, tally);
        if (!shown) break;
        const expectedOld = current;
        const text = `trial ${trial} at ${k}`;
        const expectedNew = withLine(current, k, text);
        const p = start(['edit', 'big.txt', shown.lid], dir, { input: `${text}\n` });
        // Trial 0 is not killed: it measures an edit. The others die anywhere from before rt
        // has read its input to after it has finished.
        const delay = trial === 0 ? Infinity : Math.floor(next() * editMs * 1.1);
        let killed = false;
        if (delay !== Infinity) {
          await p.fed;
          await Promise.race([sleep(delay), p.done]);
          killed = true;
          p.kill();
        }
        const r = await p.done;
        if (trial > 0) tally.trials++;
        if (r.signal === null) {
          const crash = crashOf(r);
          if (crash || r.status !== 0) tally.fail('crashes', `${crash ?? `exit ${r.status}`}\n${r.text}`);
          else editMs = Math.round((editMs + r.ms) / 2);
        }
        const bytes = fs.readFileSync(file);
        const isOld = bytes.equals(expectedOld);
        const isNew = !isOld && bytes.equals(expectedNew);
        if (!isOld && !isNew)
          tally.fail(
            'torn',
            `trial ${trial}: killed after ${delay} ms, the file is ${bytes.length} bytes, neither version`,
          );
        else if (r.status === 0 && !isNew)
          tally.fail('lost', `trial ${trial}: rt reported success, the file is the old one`);
        if ((fs.statSync(file).mode & 0o7777) !== 0o640)
          tally.fail('torn', `trial ${trial}: mode is now ${(fs.statSync(file).mode & 0o7777).toString(8)}`);
        if (killed) {
          if (isOld) outcomes.old++;
          if (isNew) outcomes.new++;
          if (leftovers(dir).length) outcomes.leftByKill++;
        }
        current = isNew ? expectedNew : isOld ? expectedOld : bytes;
        const bad = corruptStateFiles(dir);
        if (bad.length) tally.fail('corruptState', `trial ${trial}: ${bad.join(', ')}`);
      }

      // The next run after the last kill: it works, edits, and leaves nothing behind.
      const last = await lidAt(dir, 1, tally);
      if (last) {
        const r = await runAsync(['edit', 'big.txt', last.lid], dir, { input: 'after the kills\n' });
        if (crashOf(r) || r.status !== 0) tally.fail('crashes', `the edit after the kills: ${r.text}`);
        else if (!fs.readFileSync(file).equals(withLine(current, 1, 'after the kills')))
          tally.fail('lost', 'the edit after the kills is not in the file');
      }
      for (const left of leftovers(dir)) tally.fail('strayTemp', left);
      for (const bad of corruptStateFiles(dir)) tally.fail('corruptState', bad);
      tally.notes =
        `kills leaving the old file ${outcomes.old}, the new ${outcomes.new}; kills leaving temporary files ` +
        `or lock drafts (removed by the next run that writes) ${outcomes.leftByKill}`;
      tally.record();
      expect(tally.clean, tally.summary()).toBe(true);
    },
    SCENARIO_TIMEOUT,
  );
});

describe('the run after a kill', () => {
  it('removes the temporary state files and lock drafts a killed rt left (and keeps those of a live one)', () => {
    const dir = tempDir('rt-stress-crash-');
    write(dir, 'f.txt', 'a\nb\n');
    const w = openWindow(dir, 'f.txt');
    const pack = path.join(dir, '.rt', 'pack');
    expect(fs.readdirSync(pack).filter((n) => n.startsWith('pack-'))).toHaveLength(1);
    // A process that has exited: its pid names no running process now.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    }).stdout;
    // Segments being staged when their process was killed, and one a live process stages.
    const deadTemp = path.join(pack, `tmp-${dead}-abcdef`);
    const liveTemp = path.join(pack, `tmp-${process.pid}-abcdef`);
    fs.writeFileSync(deadTemp, '{"format":"rt-pack","version":1}\n{"format":"rt-index"');
    fs.writeFileSync(liveTemp, '{"format":"rt-pack","version":1}\n{"format":"rt-index"');
    // A draft of the pack's lock (written, then linked into place) left by a kill between the two.
    const deadDraft = path.join(pack, `lock.${dead}-abcdef`);
    fs.writeFileSync(deadDraft, `${dead}@host@0`);
    const r = run(['edit', 'f.txt', w.lidAt(1)], dir, { input: 'A\n' });
    expect(r.status, r.text).toBe(0);
    expect(fs.existsSync(deadTemp), "the dead process's temporary state file is still there").toBe(false);
    expect(fs.existsSync(liveTemp), "the live process's temporary state file was removed").toBe(true);
    expect(fs.existsSync(deadDraft), "the dead process's draft of a state lock is still there").toBe(false);
  });
});
