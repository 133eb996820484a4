// 4. Escape attempts: every path, after `..` and symbolic links, must lie inside the
// root; nothing outside it is read or written. Each attempt is checked against a fingerprint of
// the outside folder (names, modes, times, bytes), taken before and after. The race: a process
// swaps a folder, or a file, for a symbolic link to the outside while rt edits in a loop.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, openWindow, run, tempDir, tempRepo, write } from '../e2e/harness.js';
import { SCENARIO_TIMEOUT, pick } from './config.js';
import { Tally } from './figures.js';
import { plantEntries } from '../support/pack.js';
import { crashOf, fingerprint, runAsync, sleep, start, type Finished } from './proc.js';

afterAll(cleanup);

const SECRET = 'outside secret 7f3a';

/** A root with every kind of way out planted in it, and the outside folder it points to. */
function world(): { root: string; outside: string } {
  const root = tempRepo();
  const outside = tempDir('rt-stress-outside-');
  write(outside, 'f.txt', `${SECRET}\nline 2\n`);
  write(outside, 'sub/g.txt', `${SECRET} in sub\n`);
  fs.mkdirSync(path.join(outside, 'empty'));
  write(root, 'in.txt', 'inside\n');
  fs.symlinkSync(path.join(outside, 'f.txt'), path.join(root, 'link.txt'));
  fs.symlinkSync(outside, path.join(root, 'linkdir'));
  fs.symlinkSync('link.txt', path.join(root, 'chain.txt')); // a link to a link to the outside
  fs.symlinkSync(path.join(outside, 'missing.txt'), path.join(root, 'dangling.txt'));
  fs.symlinkSync(path.join(outside, 'nodir', 'x.txt'), path.join(root, 'dangling-deep.txt'));
  fs.mkdirSync(path.join(root, 'd'));
  fs.symlinkSync('../linkdir', path.join(root, 'd', 'up'));
  // A hard link is inside the root by its path: editing it replaces the link, never the outside file's bytes.
  fs.linkSync(path.join(outside, 'sub', 'g.txt'), path.join(root, 'hard.txt'));
  return { root, outside };
}

/** Attempts that must be refused with exit 4: [args, stdin]. */
function attempts(outside: string): Array<[string[], string]> {
  const targets = [
    '../' + path.basename(outside) + '/f.txt',
    path.join(outside, 'f.txt'),
    'link.txt',
    'chain.txt',
    'linkdir/f.txt',
    'linkdir/sub/g.txt',
    'd/up/f.txt',
    'd/../../' + path.basename(outside) + '/f.txt',
  ];
  const out: Array<[string[], string]> = [];
  for (const t of targets) {
    out.push([['open', t], '']);
    out.push([['open', `${t}:1`], '']);
    out.push([['scroll', t], '']);
    out.push([['grep-file', 'secret', t], '']);
    out.push([['edit', t, '1', '--force'], 'x\n']);
    out.push([['insert', t, '$'], 'x\n']);
    out.push([['delete', t, '1', '--force'], '']);
    out.push([['create', '--force', t], 'x\n']);
    out.push([['edit', t, '1', '--force', '--dry-run'], 'x\n']);
  }
  for (const t of [
    'linkdir/new.txt',
    'linkdir/empty/new.txt',
    'linkdir/newdir/new.txt',
    'd/up/new.txt',
    'dangling.txt',
    'dangling-deep.txt',
    path.join(outside, 'new.txt'),
    `../${path.basename(outside)}/new.txt`,
  ]) {
    out.push([['create', t], 'x\n']);
    out.push([['create', '--force', t], 'x\n']);
  }
  for (const t of ['linkdir', 'd/up', outside, '..', `../${path.basename(outside)}`]) {
    out.push([['grep', 'secret', t], '']);
    out.push([['find', 'txt', t], '']);
  }
  return out;
}

/** The bytes of `p` if it is a regular file itself (a link is not followed), else ''. */
function readNoFollow(p: string): string {
  try {
    const fd = fs.openSync(p, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    try {
      return fs.fstatSync(fd).isFile() ? fs.readFileSync(fd, 'utf8') : '';
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return '';
  }
}

describe('stress: escape attempts', () => {
  it(
    '.., absolute paths, symbolic links to files and folders outside: refused with exit 4, nothing outside touched',
    async () => {
      const tally = new Tally('4 escape: .., absolute, symlinks (refused)');
      const { root, outside } = world();
      const before = fingerprint(outside);
      for (const [args, input] of attempts(outside)) {
        const r = await runAsync(args, root, { input });
        tally.trials++;
        const crash = crashOf(r);
        if (crash) tally.fail('crashes', `${crash}\n${r.text}`);
        else if (r.status !== 4) tally.fail('escapes', `not refused with exit 4\n${r.text}`);
        else if (!/^rt: .+\nrt: .+/m.test(r.stderr))
          tally.fail('crashes', `the refusal does not say what to do instead\n${r.text}`);
        if (r.stdout.includes(SECRET)) tally.fail('escapes', `printed the outside file\n${r.text}`);
        if (fingerprint(outside) !== before) {
          tally.fail('escapes', `the outside folder changed\n${r.text}`);
          break;
        }
      }
      // A search of the whole root does not follow the links out of it.
      for (const args of [
        ['grep', 'secret'],
        ['grep', '-i', 'SECRET', '.'],
        ['grep', '--hidden', '--no-ignore', 'secret'],
        ['find', 'g.txt'],
        ['find', '--hidden', '--no-ignore', 'f.txt'],
      ]) {
        const r = await runAsync(args, root);
        tally.trials++;
        const crash = crashOf(r);
        if (crash) tally.fail('crashes', `${crash}\n${r.text}`);
        // hard.txt is a file of the root (its content is the root's to read); links out of the root are not followed.
        const leaked = r.stdout
          .toString('utf8')
          .split('\n')
          .filter((l) => l.includes(SECRET) && !l.startsWith('hard.txt:'));
        if (leaked.length || /(^|\/)(linkdir|d\/up)\//m.test(r.stdout.toString('utf8')))
          tally.fail('escapes', `the search read outside the root\n${r.text}`);
      }
      // The hard link is edited by replacing the link: the outside file keeps its bytes.
      const w = openWindow(root, 'hard.txt');
      const r = run(['edit', 'hard.txt', w.lidAt(1)], root, { input: 'edited inside\n' });
      tally.trials++;
      if (r.status !== 0) tally.fail('crashes', r.text);
      if (fs.readFileSync(path.join(outside, 'sub', 'g.txt'), 'utf8') !== `${SECRET} in sub\n`)
        tally.fail('escapes', 'editing a hard link changed the outside file');
      if (fingerprint(outside) !== before) tally.fail('escapes', 'the outside folder changed');
      tally.record();
      expect(tally.clean, tally.summary()).toBe(true);
    },
    SCENARIO_TIMEOUT,
  );

  it(
    'the state folder, or a folder in it, replaced by a symbolic link ' +
      'to the outside: rt works without state, nothing outside touched',
    async () => {
      const tally = new Tally('4 escape: .rt/ replaced by a symlink');
      const segment = '.rt/pack/pack-0000000001.jsonl';
      for (const planted of ['.rt', '.rt/pack', '.rt/set-aside', segment, '.rt/pack/lock']) {
        const { root, outside } = world();
        write(root, 'f.txt', 'a\nb\n');
        run(['open', 'f.txt'], root); // make .rt/ with its folders, and the pack's first segment
        write(outside, 'state/pack/.keep', '');
        // The segment and the lock (a token of a process gone), as a link would lead to them.
        write(outside, 'state/pack-0000000001.jsonl', fs.readFileSync(path.join(root, segment)));
        write(outside, 'state/lock', '99999999@host@0');
        // A damaged index, so that rt tries to set it aside (into .rt/set-aside).
        plantEntries(root, [['index:f.txt', '{']]);
        const before = fingerprint(outside);
        fs.rmSync(path.join(root, planted), { recursive: true, force: true });
        fs.symlinkSync(
          path.join(outside, 'state', planted === '.rt' ? '' : path.basename(planted)),
          path.join(root, planted),
        );
        const runs: Finished[] = [];
        runs.push(await runAsync(['open', 'f.txt'], root));
        runs.push(await runAsync(['insert', 'f.txt', '$'], root, { input: 'c\n' }));
        runs.push(await runAsync(['create', 'g.txt'], root, { input: 'g\n' }));
        runs.push(await runAsync(['grep', 'a'], root));
        runs.push(await runAsync(['scroll', 'f.txt'], root));
        for (const r of runs) {
          tally.trials++;
          const crash = crashOf(r);
          if (crash) tally.fail('crashes', `${planted}: ${crash}\n${r.text}`);
          else if (r.status !== 0)
            tally.fail('crashes', `${planted}: failed instead of working without state\n${r.text}`);
        }
        if (fs.readFileSync(path.join(root, 'f.txt'), 'utf8') !== 'a\nb\nc\n')
          tally.fail('lost', `${planted}: the insert is not in the file`);
        if (fingerprint(outside) !== before) tally.fail('escapes', `${planted} as a link: the outside folder changed`);
      }
      tally.record();
      expect(tally.clean, tally.summary()).toBe(true);
    },
    SCENARIO_TIMEOUT,
  );

  // The swapper: a process that replaces `what` by a symbolic link to the outside and puts it
  // back, over and over until killed, holding each state for a random fraction of a millisecond
  // to a few milliseconds, so that rt's checks and writes fall on either side of a swap.
  const SWAPPER = `
    const fs = require('fs');
    const [what, aside, to] = process.argv.slice(1);
    const hold = () => {
      const until = process.hrtime.bigint() + BigInt(Math.floor(Math.random() * 3e6));
      while (process.hrtime.bigint() < until);
    };
    for (;;) {
      try { fs.renameSync(what, aside); fs.symlinkSync(to, what); } catch {}
      hold();
      try { fs.unlinkSync(what); fs.renameSync(aside, what); } catch {}
      hold();
    }`;

  /** A root with d/f.txt and a process swapping d (or d/f.txt) for a link to an outside twin holding SECRET. */
  function startSwapping(kind: 'folder' | 'file') {
    const root = tempRepo();
    const outside = tempDir('rt-stress-outside-');
    write(root, 'd/f.txt', 'inside 1\ninside 2\n');
    write(outside, 'f.txt', `${SECRET}\nline 2\n`);
    const what = kind === 'folder' ? path.join(root, 'd') : path.join(root, 'd', 'f.txt');
    const to = kind === 'folder' ? outside : path.join(outside, 'f.txt');
    const before = fingerprint(outside);
    const swapper = spawn(process.execPath, ['-e', SWAPPER, what, `${what}.aside`, to], { stdio: 'ignore' });
    return { root, outside, what, before, swapper };
  }

  for (const kind of ['folder', 'file'] as const) {
    const reads = pick(10, 300);
    it(
      `a ${kind} swapped for a symbolic link to the outside while rt reads it in a loop (${reads} reads): ` +
        `nothing outside read`,
      async () => {
        const tally = new Tally(`4 escape: race, ${kind} swapped for a symlink, reads`);
        const { root, outside, before, swapper } = startSwapping(kind);
        try {
          for (let i = 0; i < reads; i++) {
            const args = [
              ['open', 'd/f.txt'],
              ['scroll', 'd/f.txt'],
              ['grep-file', 'i', 'd/f.txt'],
              ['grep', 'i', 'd'],
            ][i % 4]!;
            const r = await runAsync(args, root);
            tally.trials++;
            const crash = crashOf(r);
            if (crash) tally.fail('crashes', `${crash}\n${r.text}`);
            if (r.stdout.includes(SECRET)) tally.fail('escapes', `the outside file was printed\n${r.text}`);
          }
        } finally {
          swapper.kill('SIGKILL');
        }
        if (fingerprint(outside) !== before) tally.fail('escapes', 'the outside folder changed');
        tally.record();
        expect(tally.clean, tally.summary()).toBe(true);
      },
      SCENARIO_TIMEOUT,
    );

    const edits = pick(5, 150);
    it(
      `a ${kind} swapped for a symbolic link to the outside while rt edits in a loop (${edits} edits): ` +
        `nothing outside written`,
      async () => {
        const tally = new Tally(`4 escape: race, ${kind} swapped for a symlink`);
        const { root, outside, what, before, swapper } = startSwapping(kind);
        const statuses = new Map<string, number>();
        try {
          for (let i = 0; i < edits; i++) {
            const args =
              i % 3 === 0
                ? ['insert', 'd/f.txt', '$']
                : i % 3 === 1
                  ? ['edit', 'd/f.txt', '1', '--force']
                  : ['create', '--force', 'd/f.txt'];
            const r = await runAsync(args, root, { input: `edit ${i}\n` });
            tally.trials++;
            const key = `${args[0]} ${r.status}`;
            statuses.set(key, (statuses.get(key) ?? 0) + 1);
            const crash = crashOf(r);
            if (crash) tally.fail('crashes', `${crash}\n${r.text}`);
            if (fingerprint(outside) !== before) {
              tally.fail('escapes', `the outside folder changed\n${r.text}`);
              break;
            }
            // Read through a swapped link, the outside file would be printed, or copied into the root's file by the
            // edit.
            if (
              r.stdout.includes(SECRET) ||
              (kind === 'file' && [what, `${what}.aside`].some((p) => readNoFollow(p).includes(SECRET)))
            ) {
              tally.fail('escapes', `the outside file was read (printed, or copied into the root)\n${r.text}`);
              break;
            }
          }
        } finally {
          swapper.kill('SIGKILL');
          await new Promise((resolve) => swapper.once('exit', resolve));
        }
        // With the swapper stopped, the root's own file (in whichever of d and d.aside is the real folder) holds
        // nothing from outside.
        const folders = kind === 'folder' ? [what, `${what}.aside`] : [path.dirname(what)];
        for (const d of folders) {
          if (!fs.existsSync(d) || !fs.lstatSync(d).isDirectory()) continue;
          for (const name of fs.readdirSync(d))
            if (readNoFollow(path.join(d, name)).includes(SECRET))
              tally.fail('escapes', `${path.relative(root, path.join(d, name))} holds the outside file's bytes`);
        }
        tally.notes = [...statuses].map(([k, n]) => `${k}: ${n}`).join(', ');
        tally.record();
        expect(tally.clean, tally.summary()).toBe(true);
      },
      SCENARIO_TIMEOUT,
    );
  }
});

// The same swaps made deterministic: the test holds the file's lock, so that rt, having checked
// the path, waits; the swap is made while it waits (seen by its attempts to take the lock); then
// the lock is released and rt goes on with a path that now leads outside.
describe('a swap while rt waits for the lock, between its check and its write', () => {
  async function swapWhileWaiting(
    swap: (root: string, outside: string) => void,
    args: string[],
    input: string,
  ): Promise<{ root: string; outside: string; before: string; r: Finished }> {
    const root = tempRepo();
    const outside = tempDir('rt-stress-outside-');
    write(root, 'd/f.txt', 'inside 1\ninside 2\n');
    write(outside, 'f.txt', `${SECRET}\nline 2\n`);
    const before = fingerprint(outside);
    const lock = path.join(root, 'd', '.f.txt.rt-lock');
    fs.writeFileSync(lock, `${process.pid}@${os.hostname()}@held by the test`);
    // rt tries the lock by linking a draft beside it: the first draft says it has checked the path and is waiting.
    let waiting!: () => void;
    const attempted = new Promise<void>((resolve) => (waiting = resolve));
    const watcher = fs.watch(path.join(root, 'd'), (_event, name) => {
      if (name && String(name).startsWith('.f.txt.rt-lock.')) waiting();
    });
    const p = start(args, root, { input });
    let ended = false;
    try {
      await Promise.race([attempted, p.done.then(() => (ended = true))]);
    } finally {
      watcher.close();
    }
    if (ended) throw new Error(`rt ended before waiting for the lock\n${(await p.done).text}`);
    // Not at the very moment of an attempt (a draft written in the folder, then linked through the swapped path):
    // between two.
    await sleep(15);
    const held = fs.lstatSync(path.join(root, 'd')).isDirectory() ? lock : undefined;
    swap(root, outside);
    // Release the lock where the test put it (the real folder, wherever it is now).
    fs.rmSync(held && fs.existsSync(held) ? held : path.join(root, 'd.aside', '.f.txt.rt-lock'), { force: true });
    return { root, outside, before, r: await p.done };
  }

  const swapFolder = (root: string, outside: string) => {
    fs.renameSync(path.join(root, 'd'), path.join(root, 'd.aside'));
    fs.symlinkSync(outside, path.join(root, 'd'));
  };
  const swapFile = (root: string, outside: string) => {
    fs.renameSync(path.join(root, 'd', 'f.txt'), path.join(root, 'd', 'f.txt.aside'));
    fs.symlinkSync(path.join(outside, 'f.txt'), path.join(root, 'd', 'f.txt'));
  };

  for (const [what, swap] of [
    ['folder', swapFolder],
    ['file', swapFile],
  ] as const) {
    for (const args of [
      ['insert', 'd/f.txt', '$'],
      ['edit', 'd/f.txt', '1', '--force'],
      ['create', '--force', 'd/f.txt'],
    ]) {
      it(
        `the ${what} swapped for a link to the outside: rt ${args.join(' ')} writes nothing outside and reads ` +
          `nothing from there`,
        async () => {
          // rt's attempt at the lock can fall in the instant between the two steps of the swap
          // (the folder moved, the link not made yet): it then fails cleanly, proving nothing; try again.
          let tried = await swapWhileWaiting(swap, args, 'new line\n');
          for (let again = 0; again < 5 && /cannot lock .*ENOENT/.test(tried.r.stderr); again++)
            tried = await swapWhileWaiting(swap, args, 'new line\n');
          const { root, outside, before, r } = tried;
          expect(crashOf(r), r.text).toBeUndefined();
          expect(fingerprint(outside), `the outside folder changed\n${r.text}`).toBe(before);
          expect(r.stdout.toString('utf8'), r.text).not.toContain(SECRET);
          // The root's own file: in the real folder (set aside by the swap), or beside the link.
          const f = what === 'folder' ? path.join(root, 'd.aside', 'f.txt') : path.join(root, 'd', 'f.txt');
          if (fs.lstatSync(f).isFile())
            expect(fs.readFileSync(f, 'utf8'), `the outside file was copied into the root\n${r.text}`).not.toContain(
              SECRET,
            );
        },
      );
    }
  }
});
