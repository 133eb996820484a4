// 2. Concurrent writers: N rt processes, each making M edits of its own lines of one
// file (and of many files at once), all sharing the state folder, never lose an edit, and leave
// no corrupt state; rt processes reading the file meanwhile never fail and never see a torn file.
// Each writer works as an agent would: find its line (rt grep-file, or rt open of the whole
// file, both of which show it), then edit it, or insert after it, by its LID. No two writers touch the same line, so
// every edit must land.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, tempDir, write } from '../e2e/harness.js';
import { SCENARIO_TIMEOUT, pick } from './config.js';
import { Tally } from './figures.js';
import { corruptStateFiles, crashOf, leftovers, runAsync, type Finished } from './proc.js';

afterAll(cleanup);

const LINES = 400;
const original = (k: number) => `line ${k}`;

/** What writer w does with its j-th line: replace it, or insert a line after it. */
function opOf(w: number, j: number): 'edit' | 'insert' {
  return (w + j) % 3 === 2 ? 'insert' : 'edit';
}

/** The line writer w owns in round j (1-based), in a file of `n` writers. */
function lineOf(w: number, j: number, n: number): number {
  return 1 + w + j * n;
}

/** The file once every writer's M edits have landed. */
function expected(n: number, m: number): string {
  const out: string[] = [];
  for (let k = 1; k <= LINES; k++) {
    const w = (k - 1) % n;
    const j = Math.floor((k - 1) / n);
    if (j >= m) {
      out.push(original(k));
    } else if (opOf(w, j) === 'edit') {
      out.push(`w${w} j${j} replaced ${original(k)}`);
    } else {
      out.push(original(k), `w${w} j${j} inserted after ${original(k)}`);
    }
  }
  return out.map((l) => `${l}\n`).join('');
}

/** Writer w's round j on `file`: find its own line, then replace it or insert after it by its LID. */
async function oneEdit(dir: string, file: string, w: number, j: number, n: number, tally: Tally): Promise<void> {
  const k = lineOf(w, j, n);
  // Found as an agent would: by a search (which shows the hit), or by reading the whole file in
  // one window. Either way the line printed must be the one looked for.
  const found =
    j % 2 === 0
      ? await runAsync(['grep-file', `^${original(k)}$`, file], dir)
      : await runAsync(['open', file, '--window', '1000'], dir);
  const hit = new RegExp(`^(\\d+):([0-9a-z]{4})\\|${original(k)}$`, 'm').exec(found.stdout.toString('utf8'));
  const crash = crashOf(found);
  if (crash || found.status !== 0 || !hit) {
    tally.fail(crash ? 'crashes' : 'lost', `writer ${w} could not find ${original(k)} in ${file}\n${found.text}`);
    return;
  }
  const lid = hit[2]!;
  const r =
    opOf(w, j) === 'edit'
      ? await runAsync(['edit', file, lid], dir, { input: `w${w} j${j} replaced ${original(k)}\n` })
      : await runAsync(['insert', file, lid, '--after'], dir, { input: `w${w} j${j} inserted after ${original(k)}\n` });
  tally.trials++;
  const rc = crashOf(r);
  if (rc) tally.fail('crashes', `${rc}\n${r.text}`);
  else if (r.status !== 0) tally.fail('lost', `writer ${w}'s edit of its own line was refused\n${r.text}`);
}

/** Counts what is missing from `file` compared with the expected one. */
function checkFile(dir: string, file: string, want: string, tally: Tally): void {
  const got = fs.readFileSync(path.join(dir, file), 'utf8');
  if (got === want) return;
  const gotLines = new Set(got.split('\n'));
  const wantLines = new Set(want.split('\n'));
  const missing = [...wantLines].filter((l) => !gotLines.has(l));
  // A line that should not be there: an original line an edit should have replaced, or one
  // clobbered by an edit that landed on the wrong line.
  const extra = [...gotLines].filter((l) => !wantLines.has(l));
  for (const l of missing) tally.fail('lost', `missing from ${file}: ${l}`);
  for (const l of extra) tally.fail('lost', `in ${file} but not expected: ${l}`);
  if (!missing.length && !extra.length) tally.fail('torn', `${file} has every edit but is not the expected file`);
}

/** A reader: rt open and grep-file of `file` until `stop`; counts failures and torn views. */
async function reader(
  dir: string,
  file: string,
  stop: () => boolean,
  tally: Tally,
  reads: { n: number },
  valid = /^(line \d+|w\d+ j\d+ (replaced|inserted after) line \d+)$/,
): Promise<void> {
  for (let i = 0; !stop(); i++) {
    const args =
      i % 3 === 0
        ? ['open', file]
        : i % 3 === 1
          ? ['open', `${file}:${1 + ((i * 37) % 250)}`]
          : ['grep-file', 'line 1', file];
    const r: Finished = await runAsync(args, dir);
    reads.n++;
    const crash = crashOf(r);
    if (crash || r.status !== 0) {
      tally.fail('crashes', `a reader failed: ${crash ?? `exit ${r.status}`}\n${r.text}`);
      continue;
    }
    const shown = r.stdout
      .toString('utf8')
      .split('\n')
      .filter((l) => /^\d+:/.test(l));
    const numbers = shown.map((l) => Number(l.slice(0, l.indexOf(':'))));
    const torn = shown.filter((l) => !valid.test(l.slice(l.indexOf('|') + 1)));
    const gap = args[0] === 'open' && numbers.some((n, x) => x > 0 && n !== numbers[x - 1]! + 1);
    if (torn.length || gap || shown.length === 0) tally.fail('torn', `a reader saw a torn file\n${r.text}`);
  }
}

describe('stress: concurrent writers', () => {
  const n = pick(4, 8);
  const m = pick(5, 12);
  it(
    `${n} writers × ${m} edits on distinct lines of one file, with 2 readers: no edit lost, no reader fails`,
    async () => {
      const tally = new Tally(`2 concurrent: ${n} writers × ${m} edits, one file, 2 readers`);
      const dir = tempDir('rt-stress-conc-');
      write(dir, 'f.txt', Array.from({ length: LINES }, (_, i) => `${original(i + 1)}\n`).join(''));
      let writing = true;
      const reads = { n: 0 };
      const readers = [
        reader(dir, 'f.txt', () => !writing, tally, reads),
        reader(dir, 'f.txt', () => !writing, tally, reads),
      ];
      await Promise.all(
        Array.from({ length: n }, async (_, w) => {
          for (let j = 0; j < m; j++) await oneEdit(dir, 'f.txt', w, j, n, tally);
        }),
      );
      writing = false;
      await Promise.all(readers);
      checkFile(dir, 'f.txt', expected(n, m), tally);
      for (const bad of corruptStateFiles(dir)) tally.fail('corruptState', bad);
      for (const left of leftovers(dir)) tally.fail('strayTemp', left);
      tally.notes = `${reads.n} reads beside the writers`;
      tally.record();
      expect(tally.clean, tally.summary()).toBe(true);
    },
    SCENARIO_TIMEOUT,
  );

  const files = pick(5, 20);
  const nm = pick(3, 6);
  const rounds = pick(2, 4);
  it(
    `${nm} writers × ${rounds} rounds, each editing its own lines of ${files} files at once, one shared ` +
      `state folder: no edit lost`,
    async () => {
      const tally = new Tally(`2 concurrent: ${nm} writers × ${rounds} rounds × ${files} files, shared .rt`);
      const dir = tempDir('rt-stress-conc-');
      const names = Array.from({ length: files }, (_, i) => `sub${i % 3}/file${i}.txt`);
      for (const name of names)
        write(dir, name, Array.from({ length: LINES }, (_, i) => `${original(i + 1)}\n`).join(''));
      // Writer w makes its round j in every file before its next round: each file is edited by several writers at once.
      await Promise.all(
        Array.from({ length: nm }, async (_, w) => {
          for (let j = 0; j < rounds; j++) for (const name of names) await oneEdit(dir, name, w, j, nm, tally);
        }),
      );
      for (const name of names) checkFile(dir, name, expected(nm, rounds), tally);
      for (const bad of corruptStateFiles(dir)) tally.fail('corruptState', bad);
      for (const left of leftovers(dir)) tally.fail('strayTemp', left);
      tally.record();
      expect(tally.clean, tally.summary()).toBe(true);
    },
    SCENARIO_TIMEOUT,
  );
});

// A search's hit is printed from the reading it was found in: a file changed between the search
// and the print must not show a non-matching line as the hit (an agent editing "the hit" would
// edit the wrong line; the writers above, using grep-file, once saw their edits land one line off).
describe('stress: searches while the file changes', () => {
  const runs = pick(15, 200);
  it(
    `grep-file while another process inserts lines above the hit (${runs} searches): every hit printed matches`,
    async () => {
      const tally = new Tally('2 concurrent: grep-file hits while the file changes');
      const dir = tempDir('rt-stress-conc-');
      const file = write(
        dir,
        'f.txt',
        `${Array.from({ length: 2000 }, (_, i) => `filler ${i}`).join('\n')}\ntarget line\n`,
      );
      // An editor-like writer: puts a new line at the top, atomically, over and over.
      const writer = spawn(
        process.execPath,
        [
          '-e',
          `const fs=require('fs');let i=0;const f=${JSON.stringify(file)};for(;;){const b=fs.readFileSync(f);` +
            `fs.writeFileSync(f+'.new',Buffer.concat([Buffer.from('top '+(i++)+'\\n'),b]));fs.renameSync(f+'.new',f);}`,
        ],
        { stdio: 'ignore' },
      );
      try {
        for (let i = 0; i < runs; i++) {
          const r = await runAsync(['grep-file', '^target line$', 'f.txt'], dir);
          tally.trials++;
          const crash = crashOf(r);
          if (crash) tally.fail('crashes', `${crash}\n${r.text}`);
          const hits = r.stdout
            .toString('utf8')
            .split('\n')
            .filter((l) => /^\d+:[0-9a-z]{4}\|/.test(l));
          for (const h of hits) if (!h.endsWith('|target line')) tally.fail('torn', `a hit that does not match: ${h}`);
        }
      } finally {
        writer.kill('SIGKILL');
      }
      tally.record();
      expect(tally.clean, tally.summary()).toBe(true);
    },
    SCENARIO_TIMEOUT,
  );
});

// What a search or a window shows is recorded in the file's view state, which an edit checks
//. Processes saving it at once must not undo each other: found by the writers above,
// whose edits were refused as "not shown" right after grep-file had shown the line.
describe('stress: views saved at once', () => {
  // Found by the test below: the runs that lost the race to make .rt/ (mkdir: EEXIST) gave up
  // on state altogether, and what they showed was not recorded.
  it(`${pick(4, 30)} fresh roots, each opened by 10 rt at once: every one keeps state, none complains`, async () => {
    const tally = new Tally('2 concurrent: first runs at once in a fresh root');
    for (let round = 0; round < pick(4, 30); round++) {
      const dir = tempDir('rt-stress-fresh-');
      write(dir, 'f.txt', 'a\nb\n');
      const runs = await Promise.all(Array.from({ length: 10 }, () => runAsync(['open', 'f.txt'], dir)));
      for (const r of runs) {
        tally.trials++;
        if (crashOf(r) || r.status !== 0) tally.fail('crashes', r.text);
        else if (r.stderr !== '') tally.fail('corruptState', `a first run gave up on state\n${r.text}`);
      }
    }
    tally.record();
    expect(tally.clean, tally.summary()).toBe(true);
  });

  const rounds = pick(4, 20);
  const n = 6;
  it(
    `${rounds} rounds of ${n} searches at once, each showing one line: every line shown can then be edited`,
    async () => {
      const tally = new Tally(`2 concurrent: ${n} searches at once, then edits of what they showed`);
      for (let round = 0; round < rounds; round++) {
        const dir = tempDir('rt-stress-views-');
        write(dir, 'f.txt', Array.from({ length: 50 }, (_, i) => `${original(i + 1)}\n`).join(''));
        const searches = await Promise.all(
          Array.from({ length: n }, (_, w) => runAsync(['grep-file', `^${original(w * 7 + 1)}$`, 'f.txt'], dir)),
        );
        for (const [w, s] of searches.entries()) {
          // Quietly: the first runs in a fresh folder make .rt/ at once, and none may give up on state for it.
          if (s.stderr !== '') tally.fail('corruptState', `a search complained\n${s.text}`);
          const hit = /^(\d+):([0-9a-z]{4})\|/m.exec(s.stdout.toString('utf8'));
          if (!hit) {
            tally.fail('crashes', s.text);
            continue;
          }
          const e = await runAsync(['edit', 'f.txt', hit[2]!], dir, { input: `edited ${w}\n` });
          tally.trials++;
          if (crashOf(e)) tally.fail('crashes', e.text);
          else if (e.status !== 0)
            tally.fail('lost', `an edit of a line just shown by a search was refused\n${e.text}`);
        }
        for (const left of leftovers(dir)) tally.fail('strayTemp', left);
      }
      tally.record();
      expect(tally.clean, tally.summary()).toBe(true);
    },
    SCENARIO_TIMEOUT,
  );
});

// An edit prints the changed region with the new lines' LIDs, and an agent goes on with them
// (several edits from one read). Readers indexing the file meanwhile must not replace
// the index the edit saved with one of an older version, losing those LIDs.
describe('stress: LIDs printed by an edit, used at once beside readers', () => {
  const rounds = pick(4, 80);
  it(
    `${rounds} inserts, each followed by an edit of the new line by the LID the insert printed, with 2 ` +
      `readers: none refused`,
    async () => {
      const tally = new Tally('2 concurrent: new lines edited by the LIDs their insert printed, 2 readers');
      const dir = tempDir('rt-stress-newlids-');
      const file = write(dir, 'f.txt', Array.from({ length: 300 }, (_, i) => `${original(i + 1)}\n`).join(''));
      let writing = true;
      const reads = { n: 0 };
      const valid = /^(line \d+|new \d+( edited)?)$/;
      const readers = [
        reader(dir, 'f.txt', () => !writing, tally, reads, valid),
        reader(dir, 'f.txt', () => !writing, tally, reads, valid),
      ];
      try {
        for (let i = 0; i < rounds; i++) {
          const k = 1 + ((i * 13) % 280);
          const found = await runAsync(['open', 'f.txt', '--window', '1000'], dir);
          const hit = new RegExp(`^\\d+:([0-9a-z]{4})\\|${original(k)}$`, 'm').exec(found.stdout.toString('utf8'));
          if (!hit) {
            tally.fail('crashes', found.text);
            continue;
          }
          const ins = await runAsync(['insert', 'f.txt', hit[1]!, '--after'], dir, { input: `new ${i}\n` });
          const made = new RegExp(`^\\d+:([0-9a-z]{4})\\|new ${i}$`, 'm').exec(ins.stdout.toString('utf8'));
          if (crashOf(ins) || ins.status !== 0 || !made) {
            tally.fail('crashes', ins.text);
            continue;
          }
          const e = await runAsync(['edit', 'f.txt', made[1]!], dir, { input: `new ${i} edited\n` });
          tally.trials++;
          if (crashOf(e)) tally.fail('crashes', e.text);
          else if (e.status !== 0) tally.fail('lost', `the LID an insert had just printed was refused\n${e.text}`);
        }
      } finally {
        writing = false;
        await Promise.all(readers);
      }
      const text = fs.readFileSync(file, 'utf8');
      for (let i = 0; i < rounds; i++)
        if (!text.includes(`new ${i} edited\n`)) tally.fail('lost', `new ${i} was not edited`);
      tally.notes = `${reads.n} reads beside`;
      tally.record();
      expect(tally.clean, tally.summary()).toBe(true);
    },
    SCENARIO_TIMEOUT,
  );
});
