// Replays real commits of this repository: for each changed file, one `rt open` of the old
// version, then every hunk of the commit applied top to bottom with the LIDs of that single
// read (edit, insert --after, delete), unchecked. The result must equal the new version byte for byte.

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, run, tempDir } from './harness.js';

afterAll(cleanup);
const root = path.resolve(__dirname, '../..');
const git = (args: string[]) => spawnSync('git', ['-C', root, ...args], { maxBuffer: 1 << 28 });

interface Hunk {
  oldStart: number;
  oldCount: number;
  added: string[];
}

function hunksOf(diff: string): Hunk[] {
  const hunks: Hunk[] = [];
  const lines = diff.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/.exec(lines[i]!);
    if (!m) continue;
    const added: string[] = [];
    for (let j = i + 1; j < lines.length && !lines[j]!.startsWith('@@'); j++)
      if (lines[j]!.startsWith('+')) added.push(lines[j]!.slice(1));
    hunks.push({ oldStart: Number(m[1]), oldCount: m[2] === undefined ? 1 : Number(m[2]), added });
  }
  return hunks;
}

describe('replaying real commits by LIDs of one read', () => {
  const revs = git(['rev-list', '--max-count=40', '--no-merges', '--min-parents=1', 'HEAD'])
    .stdout.toString()
    .split('\n')
    .filter(Boolean);
  const changes: Array<{ rev: string; file: string }> = [];
  for (const rev of revs) {
    for (const file of git(['diff', '--name-only', '--diff-filter=M', `${rev}~1`, rev])
      .stdout.toString()
      .split('\n')
      .filter(Boolean)) {
      if (changes.length < 10) changes.push({ rev, file });
    }
  }

  it.skipIf(changes.length === 0)(
    'gives the new version of each file, byte for byte',
    () => {
      let replayed = 0;
      for (const { rev, file } of changes) {
        const before = git(['show', `${rev}~1:${file}`]).stdout;
        const after = git(['show', `${rev}:${file}`]).stdout;
        const diff = execFileSync('git', ['-C', root, 'diff', '-U0', '--no-color', `${rev}~1`, rev, '--', file], {
          encoding: 'latin1',
          maxBuffer: 1 << 28,
        });
        // A commit that adds or removes the final newline cannot be written with heredocs.
        if (before.includes(0) || diff.includes('\\ No newline at end of file')) continue;
        const dir = tempDir();
        fs.writeFileSync(path.join(dir, 'f'), before);
        const open = run(['open', 'f', '--window', '1000000'], dir);
        const lids: string[] = [];
        for (const line of open.stdout.split('\n')) {
          const m = /^(\d+):([0-9a-z]+)\|/.exec(line);
          if (m) lids[Number(m[1])] = m[2]!;
        }
        for (const h of hunksOf(diff)) {
          const text = h.added.length ? Buffer.from(`${h.added.join('\n')}\n`, 'latin1') : '';
          const args =
            h.oldCount === 0
              ? h.oldStart === 0
                ? ['insert', 'f', lids[1] ?? '$']
                : ['insert', 'f', lids[h.oldStart]!, '--after']
              : h.added.length === 0
                ? ['delete', 'f', lids[h.oldStart]!, lids[h.oldStart + h.oldCount - 1]!]
                : ['edit', 'f', lids[h.oldStart]!, lids[h.oldStart + h.oldCount - 1]!];
          // Unchecked: one hunk of several may leave the file in a state that does not parse (a comment opened by one
          // hunk, closed by the next), which the check refuses (rt apply would take the hunks as one change).
          const r = run(args, dir, { input: text, env: { RT_CHECK: 'off' } });
          expect(r.status, `${rev} ${file}\n${r.text}`).toBe(0);
        }
        expect(
          fs.readFileSync(path.join(dir, 'f')).equals(after),
          `${rev} ${file}: the result differs from the commit`,
        ).toBe(true);
        replayed++;
      }
      expect(replayed).toBeGreaterThan(0);
    },
    300_000,
  );
});
