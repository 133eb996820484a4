// 5. Damaged state: whatever is found under .rt/ — an entry of the pack or a whole segment cut
// short, bytes flipped, not JSON, another version's, a foreign document, an index that claims a
// different file, a folder, a FIFO or a symbolic link where a segment should be — rt sets it
// aside and rebuilds, never trusts it and never fails or hangs because of it; and the LIDs it
// then shows are the ones a fresh run gives (deterministic).

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, tempDir, write } from '../e2e/harness.js';
import { SCENARIO_TIMEOUT, SEED, pick, random } from './config.js';
import { Tally } from './figures.js';
import { corruptStateFiles, crashOf, numberedBytes, runAsync } from './proc.js';
import { packDir, packEntries, packSegments, plantEntries } from '../support/pack.js';

afterAll(cleanup);

type Rand = () => number;

/**
 * Ways to damage a state file (`file`, whose sibling `other` is a sound state file of another path): a segment of
 * the pack, or a copy of an entry's bytes planted back as its key's newest entry (see damageEntry).
 */
const DAMAGES: Record<string, (file: string, other: string, r: Rand) => void> = {
  truncated: (f, _o, r) => fs.truncateSync(f, Math.floor(r() * fs.statSync(f).size)),
  'bytes flipped': (f, _o, r) => {
    const b = fs.readFileSync(f);
    for (let k = 0; k < 1 + Math.floor(r() * 4); k++) {
      const at = Math.floor(r() * b.length);
      b[at] = b[at]! ^ (1 << Math.floor(r() * 8));
    }
    fs.writeFileSync(f, b);
  },
  'bytes appended': (f) => fs.appendFileSync(f, '{"more":1}'),
  'not JSON': (f) => fs.writeFileSync(f, 'this is not JSON {'),
  empty: (f) => fs.writeFileSync(f, ''),
  'another version': (f) => fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace(/"version":\d+/, '"version":999')),
  'foreign JSON': (f) =>
    fs.writeFileSync(f, JSON.stringify({ format: 'something-else', version: 1, path: 'x', data: [1, 2, 3] })),
  'claims another file': (f, o) => fs.copyFileSync(o, f),
  'a folder': (f) => {
    fs.rmSync(f);
    fs.mkdirSync(f);
    fs.writeFileSync(path.join(f, 'inside'), 'x');
  },
  'a FIFO': (f) => {
    fs.rmSync(f);
    const made = spawnSync('mkfifo', [f]);
    if (made.status !== 0) fs.writeFileSync(f, 'no mkfifo here');
  },
  'a link to a file outside': (f) => {
    fs.rmSync(f);
    fs.symlinkSync('/etc/hostname', f);
  },
  'a dangling link': (f) => {
    fs.rmSync(f);
    fs.symlinkSync('/nonexistent/x.json', f);
  },
};

/** Entries can be damaged in these ways (bytes for bytes); the others are of a file in the folder. */
const ENTRY_DAMAGES = [
  'truncated',
  'bytes flipped',
  'bytes appended',
  'not JSON',
  'empty',
  'another version',
  'foreign JSON',
  'claims another file',
];

/**
 * Damages the newest entry of `key` in `dir`'s pack as DAMAGES[kind] would a file holding its bytes (`other`: the key
 * whose entry it may claim to be), and plants the result as the key's newest entry, in an intact segment without a
 * digest of it: what the next rt reads for it.
 */
function damageEntry(dir: string, key: string, other: string, kind: string, r: Rand): void {
  const scratch = fs.mkdtempSync(path.join(dir, '..', 'rt-stress-entry-'));
  const entries = packEntries(dir);
  fs.writeFileSync(path.join(scratch, 'mine'), entries.get(key)!.bytes);
  fs.writeFileSync(path.join(scratch, 'other'), entries.get(other)!.bytes);
  DAMAGES[kind]!(path.join(scratch, 'mine'), path.join(scratch, 'other'), r);
  plantEntries(dir, [[key, fs.readFileSync(path.join(scratch, 'mine'))]]);
  fs.rmSync(scratch, { recursive: true, force: true });
}

/** The [number, LID, content] lines of a whole-file window, or the reason there are none. */
function windowOf(stdout: Buffer): string[] {
  return stdout
    .toString('utf8')
    .split('\n')
    .filter((l) => /^\d+:[0-9a-z]{4}\|/.test(l));
}

describe('stress: damaged state', () => {
  const trials = pick(12, 240);
  it(
    `${trials} state files damaged at random (index and view): set aside, rebuilt, the LIDs of a fresh run, ` +
      `never a failure or a hang`,
    async () => {
      const tally = new Tally('5 damaged state: random damage to .rt/ files');
      const r = random(SEED ^ 0x5);
      const kinds = Object.keys(DAMAGES);
      const contents: Record<string, Buffer> = {
        'a.txt': numberedBytes(3000, 40, 'alpha '),
        'b.txt': numberedBytes(40, 0, 'beta '),
        'c.txt': Buffer.from('}\n}\n\n}\n'),
      };
      // The LIDs of a fresh run: the same files in a folder rt has never seen.
      const fresh: Record<string, string[]> = {};
      const clean = tempDir('rt-stress-fresh-');
      for (const [name, bytes] of Object.entries(contents)) {
        write(clean, name, bytes);
        fresh[name] = windowOf((await runAsync(['open', name, '--window', '5000'], clean)).stdout);
      }
      const dir = tempDir('rt-stress-state-');
      for (const [name, bytes] of Object.entries(contents)) write(dir, name, bytes);
      const byKind = new Map<string, number>();
      for (let t = 0; t < trials; t++) {
        const name = Object.keys(contents)[t % 3]!;
        const kind = kinds[Math.floor(r() * kinds.length)]!;
        const stateKind = r() < 0.7 ? 'index' : 'view';
        byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
        // Sound state for every file first (scroll makes a view too).
        for (const n of Object.keys(contents)) await runAsync(['open', n], dir);
        // What the last trial's damage left in the pack's folder must be gone (set aside), leaving segments only.
        const odd = fs
          .readdirSync(packDir(dir))
          .filter((f) => !/^pack-\d{10}\.jsonl$/.test(f) || !fs.lstatSync(path.join(packDir(dir), f)).isFile());
        if (odd.length) {
          tally.fail('corruptState', `${odd.join(', ')} still in .rt/pack after the last trial`);
          for (const f of odd) fs.rmSync(path.join(packDir(dir), f), { recursive: true, force: true });
          continue;
        }
        const key = `${stateKind}:${name}`;
        let entries: ReturnType<typeof packEntries>;
        try {
          entries = packEntries(dir);
        } catch (error) {
          tally.fail('corruptState', `a damaged segment was left in .rt/pack: ${(error as Error).message}`);
          fs.rmSync(packDir(dir), { recursive: true, force: true });
          continue;
        }
        const other = [...entries.keys()].find((k) => k !== key && k.startsWith(`${stateKind}:`));
        const mine = entries.get(key);
        if (!mine || !other) {
          tally.fail('corruptState', `no ${stateKind} state for ${name}: ${[...entries.keys()].join(', ')}`);
          continue;
        }
        // Half the time the entry itself (its segment intact), else the whole segment holding it.
        const segment = mine.segment.file;
        const whole = !ENTRY_DAMAGES.includes(kind) || r() < 0.5;
        const otherSegment = packSegments(dir).find((g) => g.file !== segment)?.file;
        if (whole && kind === 'claims another file' && otherSegment) DAMAGES[kind]!(segment, otherSegment, r);
        else if (whole && kind !== 'claims another file') DAMAGES[kind]!(segment, '', r);
        else damageEntry(dir, key, other, kind, r);
        const target = `${whole ? 'segment holding the ' : ''}${stateKind}`;
        tally.trials++;
        // rt reads past the damage: a whole window, an edit, and a window again.
        const w = await runAsync(['open', name, '--window', '5000'], dir, { timeoutMs: 60_000 });
        const crash = crashOf(w);
        if (crash || w.status !== 0) {
          tally.fail(
            'crashes',
            `${kind} ${target}: ${crash ?? `exit ${w.status}`}${w.signal ? ' (hung, killed)' : ''}\n${w.text}`,
          );
          fs.rmSync(segment, { recursive: true, force: true });
          continue;
        }
        if (JSON.stringify(windowOf(w.stdout)) !== JSON.stringify(fresh[name]))
          tally.fail('corruptState', `${kind} ${target} of ${name}: the LIDs differ from a fresh run's`);
        const again = await runAsync(['open', name, '--window', '5000'], dir, { timeoutMs: 60_000 });
        if (crashOf(again) || again.status !== 0 || again.stderr !== '')
          tally.fail(
            'corruptState',
            `${kind} ${target} of ${name}: not rebuilt (the next run still complains)\n${again.text}`,
          );
        if (JSON.stringify(windowOf(again.stdout)) !== JSON.stringify(fresh[name]))
          tally.fail(
            'corruptState',
            `${kind} ${target} of ${name}: the LIDs differ from a fresh run's on the next run`,
          );
        for (const bad of corruptStateFiles(dir)) tally.fail('corruptState', `${kind} ${target}: left ${bad}`);
      }
      // An edit after all that damage still lands, and the untouched lines keep the fresh LIDs.
      const lines = windowOf((await runAsync(['open', 'b.txt', '--window', '100'], dir)).stdout);
      const lid = lines[9]!.slice(lines[9]!.indexOf(':') + 1, lines[9]!.indexOf('|'));
      const e = await runAsync(['edit', 'b.txt', lid], dir, { input: 'edited\n' });
      if (crashOf(e) || e.status !== 0) tally.fail('crashes', e.text);
      const after = windowOf((await runAsync(['open', 'b.txt', '--window', '100'], dir)).stdout);
      const kept = after.filter((l, i) => i !== 9 && l !== fresh['b.txt']![i]);
      if (kept.length)
        tally.fail('corruptState', `after an edit, untouched lines changed LIDs: ${kept.slice(0, 3).join(' ')}`);
      tally.notes = [...byKind].map(([k, n]) => `${k} ${n}`).join(', ');
      tally.record();
      expect(tally.clean, tally.summary()).toBe(true);
    },
    SCENARIO_TIMEOUT,
  );

  it(
    'files that are not rt state under .rt/ (a foreign file, ' +
      'a folder, a FIFO, a link) are left alone and never read',
    async () => {
      const dir = tempDir('rt-stress-state-');
      write(dir, 'f.txt', 'a\nb\n');
      await runAsync(['open', 'f.txt'], dir);
      write(dir, '.rt/notes.txt', 'mine');
      write(dir, '.rt/pack/unrelated.json', '{"not":"rt"}');
      fs.mkdirSync(path.join(dir, '.rt', 'pack', 'a-folder.json'));
      spawnSync('mkfifo', [path.join(dir, '.rt', 'pack', 'a-fifo.json')]);
      fs.symlinkSync('/etc/hostname', path.join(dir, '.rt', 'pack', 'a-link.json'));
      const r = await runAsync(['open', 'f.txt'], dir, { timeoutMs: 60_000 });
      expect(crashOf(r), r.text).toBeUndefined();
      expect(r.status, r.text).toBe(0);
      const e = await runAsync(['insert', 'f.txt', '$'], dir, { input: 'c\n', timeoutMs: 60_000 });
      expect(e.status, e.text).toBe(0);
      expect(fs.readFileSync(path.join(dir, '.rt/notes.txt'), 'utf8')).toBe('mine');
      expect(fs.readFileSync(path.join(dir, '.rt/pack/unrelated.json'), 'utf8')).toBe('{"not":"rt"}');
      for (const name of ['a-folder.json', 'a-fifo.json', 'a-link.json'])
        expect(fs.lstatSync(path.join(dir, '.rt', 'pack', name), { throwIfNoEntry: false }), name).toBeDefined();
    },
  );
});

describe('a segment of the pack replaced by something that is not a file', () => {
  // Found by the scenario above: a FIFO made rt wait forever, a folder gave an internal error
  // (and, once one had been set aside, stayed in place), a link was followed out of the root.
  it.each([
    ['a FIFO', 'index'],
    ['a FIFO', 'view'],
    ['a folder', 'index'],
    ['a folder', 'view'],
    ['a link to a file outside', 'index'],
    ['a link to a file outside', 'view'],
  ])('%s in place of the segment holding the %s: set aside, rebuilt, twice over', async (kind, stateKind) => {
    const dir = tempDir('rt-stress-state-');
    write(dir, 'f.txt', 'a\nb\n');
    const first = await runAsync(['open', 'f.txt'], dir);
    for (let round = 0; round < 2; round++) {
      const segment = packEntries(dir).get(`${stateKind}:f.txt`)!.segment.file;
      DAMAGES[kind]!(segment, '', () => 0);
      const r = await runAsync(['open', 'f.txt'], dir, { timeoutMs: 20_000 });
      expect(r.signal, `hung\n${r.text}`).toBe(null);
      expect(crashOf(r), r.text).toBeUndefined();
      expect(r.status, r.text).toBe(0);
      expect(r.stdout.equals(first.stdout), r.text).toBe(true);
      const again = await runAsync(['open', 'f.txt'], dir, { timeoutMs: 20_000 });
      expect({ status: again.status, stderr: again.stderr }, again.text).toEqual({ status: 0, stderr: '' });
      // Set aside: nothing but segments (regular files) left in the pack's folder.
      for (const name of fs.readdirSync(packDir(dir)))
        expect(fs.lstatSync(path.join(packDir(dir), name)).isFile(), `${name} left in .rt/pack`).toBe(true);
    }
  });

  it.each([['a FIFO'], ['a folder'], ['a link to a file outside'], ['a dangling link']])(
    "%s in place of the pack's lock: never waited on nor followed, state saved all the same",
    async (kind) => {
      const dir = tempDir('rt-stress-state-');
      write(dir, 'f.txt', 'a\nb\n');
      const first = await runAsync(['open', 'f.txt'], dir);
      const lock = path.join(packDir(dir), 'lock');
      fs.writeFileSync(lock, '');
      DAMAGES[kind]!(lock, '', () => 0);
      write(dir, 'g.txt', 'c\n');
      const r = await runAsync(['open', 'g.txt'], dir, { timeoutMs: 20_000 });
      expect(r.signal, `hung\n${r.text}`).toBe(null);
      expect(crashOf(r), r.text).toBeUndefined();
      expect(r.status, r.text).toBe(0);
      const again = await runAsync(['open', 'f.txt'], dir, { timeoutMs: 20_000 });
      expect({ status: again.status, stderr: again.stderr }, again.text).toEqual({ status: 0, stderr: '' });
      expect(again.stdout.equals(first.stdout), again.text).toBe(true);
      expect([...packEntries(dir).keys()].sort()).toEqual(['index:f.txt', 'index:g.txt', 'view:f.txt', 'view:g.txt']);
      expect(fs.readFileSync('/etc/hostname', 'utf8').length).toBeGreaterThan(0);
    },
  );
});
