// End-to-end tests of concurrent edits and crashes: several rt processes editing one
// file at once never lose an edit, each resolving its anchors against the content the others
// left; an rt killed at any instant leaves the old file or the new one, whole, and the next run
// cleans up after it (temporary files, an abandoned lock) without waiting.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  cleanup,
  numbered,
  range,
  run,
  start as startRt,
  tempDir,
  write,
  line,
  lines,
  text,
  openWindow,
} from './harness.js';

/** Starts bin/rt asynchronously (stdin `input`, then closed); `done` settles once it is reaped. */
const start = (args: readonly string[], cwd: string, input = '') => startRt(args, cwd, { input });

afterAll(cleanup);

/** rt's leftovers in `dir`: temporary files and locks. */
function leftovers(dir: string): string[] {
  return fs.readdirSync(dir).filter((n) => n.includes('.rt-tmp-') || n.includes('.rt-lock'));
}

describe('concurrent edits of one file', () => {
  it("8 concurrent rt insert f '$' all land: no lost edit, the other lines intact", async () => {
    const dir = tempDir();
    // Big enough that each rt holds the lock for a while, so the writers really overlap.
    const size = 30_000;
    const file = write(dir, 'f.txt', numbered(size));
    const n = 8;
    const runs = range(1, n).map((k) => start(['insert', 'f.txt', '$'], dir, `appended by writer ${k}\n`));
    const results = await Promise.all(runs.map((s) => s.done));
    for (const r of results) expect(r.status, r.text).toBe(0);
    const got = fs.readFileSync(file, 'utf8').split('\n');
    expect(got.pop()).toBe('');
    expect(got.length).toBe(size + n);
    expect(got.slice(0, size).join('\n') === lines(1, size).join('\n'), 'the original lines are intact').toBe(true);
    expect(got.slice(size).sort()).toEqual(
      range(1, n)
        .map((k) => `appended by writer ${k}`)
        .sort(),
    );
    expect(leftovers(dir)).toEqual([]);
  });

  it('6 concurrent rt edit of distinct lines, by LIDs from one open, all land in place', async () => {
    const dir = tempDir();
    const file = write(dir, 'f.txt', numbered(40));
    const w = openWindow(dir, 'f.txt');
    // Some edits add lines and some remove them, so every edit moves the lines of the others.
    const edits: Array<[number, string]> = [
      [3, 'three a\nthree b\nthree c\n'],
      [8, 'eight\n'],
      [15, 'fifteen a\nfifteen b\n'],
      [22, 'twenty-two\n'],
      [30, 'thirty a\nthirty b\nthirty c\nthirty d\n'],
      [38, 'thirty-eight\n'],
    ];
    const runs = edits.map(([k, input]) => start(['edit', 'f.txt', w.lidAt(k)], dir, input));
    const results = await Promise.all(runs.map((s) => s.done));
    for (const r of results) expect(r.status, r.text).toBe(0);
    const want = range(1, 40).flatMap((k) => {
      const e = edits.find(([at]) => at === k);
      return e ? e[1].slice(0, -1).split('\n') : [line(k)];
    });
    expect(fs.readFileSync(file, 'utf8')).toBe(text(want));
    expect(leftovers(dir)).toEqual([]);
    // Every untouched line kept its LID.
    const again = openWindow(dir, 'f.txt');
    for (const k of range(1, 40).filter((k) => !edits.some(([at]) => at === k))) {
      expect(again.lidAt(want.indexOf(line(k)) + 1), line(k)).toBe(w.lidAt(k));
    }
  });

  it('concurrent inserts, deletes and appends by LID all land', async () => {
    const dir = tempDir();
    const file = write(dir, 'f.txt', numbered(30));
    const w = openWindow(dir, 'f.txt');
    const runs = [
      start(['insert', 'f.txt', w.lidAt(5)], dir, 'before 5\n'),
      start(['insert', 'f.txt', w.lidAt(10), '--after'], dir, 'after 10\n'),
      start(['delete', 'f.txt', w.lidAt(14), w.lidAt(16)], dir),
      start(['delete', 'f.txt', w.lidAt(20)], dir),
      start(['insert', 'f.txt', '$'], dir, 'appended\n'),
      start(['edit', 'f.txt', w.lidAt(25)], dir, 'twenty-five\n'),
    ];
    const results = await Promise.all(runs.map((s) => s.done));
    for (const r of results) expect(r.status, r.text).toBe(0);
    const want = [
      ...lines(1, 4),
      'before 5',
      ...lines(5, 10),
      'after 10',
      ...lines(11, 13),
      ...lines(17, 19),
      ...lines(21, 24),
      'twenty-five',
      ...lines(26, 30),
      'appended',
    ];
    expect(fs.readFileSync(file, 'utf8')).toBe(text(want));
  });

  it('two concurrent edits of one LID: one lands, the other is refused (exit 3) against the new content', async () => {
    const dir = tempDir();
    const file = write(dir, 'f.txt', numbered(10));
    const w = openWindow(dir, 'f.txt');
    const runs = [
      start(['edit', 'f.txt', w.lidAt(4)], dir, 'first writer\n'),
      start(['edit', 'f.txt', w.lidAt(4)], dir, 'second writer\n'),
    ];
    const results = await Promise.all(runs.map((s) => s.done));
    const won = results.filter((r) => r.status === 0);
    const lost = results.filter((r) => r.status !== 0);
    expect(won.length, results.map((r) => r.text).join('\n')).toBe(1);
    expect(lost[0]!.status, lost[0]!.text).toBe(3);
    expect(lost[0]!.stderr, lost[0]!.text).toMatch(new RegExp(`^rt: .*${w.lidAt(4)}`, 'm'));
    const winner = results[0]!.status === 0 ? 'first writer' : 'second writer';
    expect(fs.readFileSync(file, 'utf8')).toBe(text([...lines(1, 3), winner, ...lines(5, 10)]));
  });
});

// ---------------------------------------------------------------------------------------------
// Crashes: SIGKILL at any instant of an edit of a 20 MB file

describe('an rt killed mid-edit', () => {
  const ROWS = 100_000;
  /** Everything after line 1 of the big file: 20 MB that never changes. */
  function bigRest(): Buffer {
    const parts: string[] = [];
    for (let i = 2; i <= ROWS; i++) parts.push(`row ${i} `.padEnd(199, 'x'));
    return Buffer.from(`${parts.join('\n')}\n`);
  }
  const version = (k: number, rest: Buffer) => Buffer.concat([Buffer.from(`version ${k}\n`), rest]);

  it('leaves the old file or the new one, byte for byte; the next run cleans up at once', async () => {
    const dir = tempDir();
    const rest = bigRest();
    const file = write(dir, 'big.txt', version(0, rest));
    expect(fs.statSync(file).size).toBeGreaterThan(19_000_000);
    fs.chmodSync(file, 0o640);

    let current = 0;
    /** The LID of line 1 now (opening line 1 also marks it shown). */
    const lid1 = () => {
      const w = openWindow(dir, 'big.txt:1-2');
      expect(w.lines[0]!.content).toBe(`version ${current}`);
      return w.lidAt(1);
    };

    // How long one whole edit takes here, to spread the kills over it.
    const timed = start(['edit', 'big.txt', lid1()], dir, `version ${current + 1}\n`);
    const full = await timed.done;
    expect(full.status, full.text).toBe(0);
    current++;
    expect(fs.readFileSync(file).equals(version(current, rest))).toBe(true);

    const delays = [5, 20, 50, 100, 200, ...[0.3, 0.5, 0.65, 0.8, 0.9, 0.97].map((f) => Math.round(full.ms * f))];
    const outcomes: string[] = [];
    for (const delay of delays) {
      const next = current + 1;
      const p = start(['edit', 'big.txt', lid1()], dir, `version ${next}\n`);
      await new Promise((resolve) => setTimeout(resolve, delay));
      p.kill();
      const r = await p.done;
      const bytes = fs.readFileSync(file);
      const isOld = bytes.equals(version(current, rest));
      const isNew = !isOld && bytes.equals(version(next, rest));
      outcomes.push(
        `${delay}ms: ${r.signal ?? `exit ${r.status}`}, ${isOld ? 'old' : isNew ? 'new' : 'CORRUPT'}, ` +
          `leftovers ${JSON.stringify(leftovers(dir))}`,
      );
      expect(
        isOld || isNew,
        `after a kill at ${delay} ms the file is neither the old nor the new ` +
          `version\n${outcomes.join('\n')}\n${r.text}`,
      ).toBe(true);
      if (r.status === 0) expect(isNew, r.text).toBe(true);
      expect(fs.statSync(file).mode & 0o7777).toBe(0o640);
      if (isNew) current = next;
    }

    if (process.env.RT_TEST_VERBOSE) console.log(outcomes.join('\n'));
    // The next run succeeds promptly, whatever the kills left, and cleans up after them.
    // A lock the kills left is abandoned: waited for, it would refuse after 30 s (exit 4).
    const next = current + 1;
    const r = run(['edit', 'big.txt', lid1()], dir, { input: `version ${next}\n` });
    expect(r.status, `${r.text}\n${outcomes.join('\n')}`).toBe(0);
    expect(fs.readFileSync(file).equals(version(next, rest))).toBe(true);
    expect(leftovers(dir), outcomes.join('\n')).toEqual([]);
  }, 180_000);

  /** Starts an edit and kills it as soon as `appears` holds (polled without yielding), or after 10 s. */
  async function killWhen(dir: string, args: string[], input: string, appears: () => boolean): Promise<boolean> {
    const p = start(args, dir, input);
    await p.fed; // the busy-wait below would keep the input from reaching the child
    const deadline = Date.now() + 10_000;
    let seen = false;
    while (Date.now() < deadline && !(seen = appears())) {
      // busy-wait: the child runs on its own; a yield here could miss a short window
    }
    p.kill();
    await p.done;
    return seen;
  }

  /** The lock file in `dir` once its owner has written it (non-empty), else undefined. */
  function heldLock(dir: string): string | undefined {
    for (const n of fs.readdirSync(dir)) {
      if (!n.endsWith('.rt-lock')) continue;
      try {
        if (fs.statSync(path.join(dir, n)).size > 0) return n;
      } catch {
        // gone meanwhile
      }
    }
    return undefined;
  }

  /** Runs an rt edit that must finish, successfully, within `ms`; kills it otherwise. */
  async function expectPrompt(dir: string, args: string[], input: string, ms = 20_000): Promise<void> {
    const p = start(args, dir, input);
    const timer = setTimeout(() => p.kill(), ms);
    const r = await p.done;
    clearTimeout(timer);
    expect(r.signal, `still waiting after ${ms} ms (killed)\n${r.text}`).toBe(null);
    expect(r.status, r.text).toBe(0);
  }

  it(
    'leftovers whose PID runs again (reused by another program) ' +
      'are removed once over an hour old; fresh ones are kept',
    () => {
      const dir = tempDir();
      write(dir, 'f.txt', numbered(3));
      const w = openWindow(dir, 'f.txt:1-3');
      // PID 1 always runs: only the age tells these files were abandoned.
      const old = ['.f.txt.rt-tmp-1-aaaaaa', '.f.txt.rt-lock.1-bbbbbb'];
      const fresh = ['.f.txt.rt-tmp-1-cccccc', '.f.txt.rt-lock.1-dddddd'];
      const hoursAgo = new Date(Date.now() - 2 * 3600_000);
      for (const name of [...old, ...fresh]) write(dir, name, 'left over\n');
      for (const name of old) fs.utimesSync(path.join(dir, name), hoursAgo, hoursAgo);
      const r = run(['edit', 'f.txt', w.lidAt(2)], dir, { input: 'two\n' });
      expect(r.status, r.text).toBe(0);
      expect(leftovers(dir).sort()).toEqual([...fresh].sort());
    },
  );

  // Found by the stress suite of rt apply: an rt killed while breaking a dead lock left its
  // breaker file, which stayed for good and, beside a dead lock, stalled the next edit 10 s.
  it('a lock and its breaker left by killed rt processes go at once, and the breaker is cleaned up', () => {
    const dir = tempDir();
    write(dir, 'f.txt', 'a\n');
    const dead = 2 ** 22 + 9; // past pid_max: no process has it
    write(dir, '.f.txt.rt-lock', `${dead}@${require('node:os').hostname()}@1-abc`);
    write(dir, '.f.txt.rt-lock.break', `${dead}`);
    const r = run(['insert', 'f.txt', '$'], dir, { input: 'b\n' });
    expect(r.status, r.text).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8')).toBe('a\nb\n');
    expect(leftovers(dir), r.text).toEqual([]);
    // A breaker alone (its lock gone) is cleaned up by the next write of the file.
    write(dir, '.f.txt.rt-lock.break', `${dead}`);
    expect(run(['insert', 'f.txt', '$'], dir, { input: 'c\n' }).status).toBe(0);
    expect(leftovers(dir)).toEqual([]);
  });

  // A lock file can be found empty (a crash before its data reached the disk): it must not
  // block later edits for long.
  it('an empty lock file left by a crash (created, pid not yet written) does not block the next edit', async () => {
    const dir = tempDir();
    const file = write(dir, 'f.txt', numbered(20_000));
    const w = openWindow(dir, 'f.txt:1-3');
    // Make a real lock by killing an rt that holds it, then empty it as a kill just after the
    // exclusive create (or a power cut before the write reached the disk) would leave it.
    await killWhen(dir, ['edit', 'f.txt', w.lidAt(1)], 'one\n', () => heldLock(dir) !== undefined);
    const lock = heldLock(dir);
    expect(lock, 'no lock was left to empty').toBeDefined();
    fs.truncateSync(path.join(dir, lock!), 0);
    fs.writeFileSync(file, numbered(20_000)); // whatever the kill left, start again from line 1
    const w2 = openWindow(dir, 'f.txt:1-3');
    await expectPrompt(dir, ['edit', 'f.txt', w2.lidAt(1)], 'one\n');
    expect(fs.readFileSync(file, 'utf8')).toBe(`one\n${numbered(20_000).slice('line 1\n'.length)}`);
    expect(leftovers(dir)).toEqual([]);
  });

  it('a killed rt’s lock, linked from its draft in .rt/locks, is broken at once, its drafts swept', async () => {
    const dir = tempDir();
    const file = write(dir, 'f.txt', numbered(20_000));
    const w = openWindow(dir, 'f.txt:1-3');
    const pool = path.join(dir, '.rt', 'locks');
    let killed = 0;
    // Killed while it holds the file's lock, taken through a draft of its own kept in .rt/locks.
    const seen = await killWhen(dir, ['edit', 'f.txt', w.lidAt(1)], 'one\n', () => {
      const lock = heldLock(dir);
      if (lock === undefined) return false;
      try {
        const ino = fs.statSync(path.join(dir, lock)).ino;
        const draft = fs.readdirSync(pool).find((n) => fs.statSync(path.join(pool, n)).ino === ino);
        killed = Number(/^lock\.(\d+)-[0-9a-z]{6}$/.exec(draft ?? '')?.[1] ?? 0);
      } catch {
        // gone meanwhile: looked at again
      }
      return killed > 0;
    });
    expect(seen, 'no lock linked from a draft of .rt/locks was seen').toBe(true);
    fs.writeFileSync(file, numbered(20_000)); // whatever the kill left, start again from line 1
    const w2 = openWindow(dir, 'f.txt:1-3');
    await expectPrompt(dir, ['edit', 'f.txt', w2.lidAt(1)], 'one\n', 5_000);
    expect(fs.readFileSync(file, 'utf8')).toBe(`one\n${numbered(20_000).slice('line 1\n'.length)}`);
    expect(leftovers(dir)).toEqual([]);
    // The killed rt's drafts swept, and the next one's removed as it exited.
    expect(fs.readdirSync(pool)).toEqual([]);
  });

  it('a lock and a temporary file left by a killed rt do not block the next edit, which removes them', async () => {
    const dir = tempDir();
    const rest = bigRest();
    const file = write(dir, 'big.txt', version(0, rest));
    let w = openWindow(dir, 'big.txt:1-2');

    // Killed while holding the lock (before or while writing its temporary file).
    const lockSeen = await killWhen(
      dir,
      ['edit', 'big.txt', w.lidAt(1)],
      'version 1\n',
      () => heldLock(dir) !== undefined,
    );
    expect(lockSeen, 'the lock file never appeared').toBe(true);
    const left1 = leftovers(dir);
    expect(
      left1.some((n) => n.includes('.rt-lock')),
      `the killed rt left its lock: ${JSON.stringify(left1)}`,
    ).toBe(true);
    let bytes = fs.readFileSync(file);
    const was1 = bytes.equals(version(1, rest));
    expect(was1 || bytes.equals(version(0, rest))).toBe(true);

    w = openWindow(dir, 'big.txt:1-2');
    let r = run(['edit', 'big.txt', w.lidAt(1)], dir, { input: 'version 2\n' });
    expect(r.status, r.text).toBe(0);
    expect(fs.readFileSync(file).equals(version(2, rest))).toBe(true);
    expect(leftovers(dir), r.text).toEqual([]);

    // Killed while its temporary file exists.
    w = openWindow(dir, 'big.txt:1-2');
    const tmpSeen = await killWhen(dir, ['edit', 'big.txt', w.lidAt(1)], 'version 3\n', () =>
      fs.readdirSync(dir).some((n) => n.includes('.rt-tmp-')),
    );
    expect(tmpSeen, 'the temporary file never appeared').toBe(true);
    bytes = fs.readFileSync(file);
    expect(bytes.equals(version(2, rest)) || bytes.equals(version(3, rest))).toBe(true);
    const current = bytes.equals(version(3, rest)) ? 3 : 2;

    w = openWindow(dir, 'big.txt:1-2');
    expect(w.lines[0]!.content).toBe(`version ${current}`);
    r = run(['edit', 'big.txt', w.lidAt(1)], dir, { input: 'version 4\n' });
    expect(r.status, r.text).toBe(0);
    expect(fs.readFileSync(file).equals(version(4, rest))).toBe(true);
    expect(leftovers(dir), r.text).toEqual([]);
  }, 120_000);
});
