// A search printing the hits of many files reads each file's saved index and view from the pack:
// an entry found damaged there (its head, its records, a view) is set aside and never trusted, the
// file is read instead, and the hits keep the LIDs `rt open` shows. Real bytes: CRLF, a BOM, a last
// line without a newline.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, run, tempRepo, write } from './harness.js';
import { git } from './search-fixture.js';

afterAll(cleanup);

const hasRipgrep = spawnSync('rg', ['--version']).status === 0;
const FILES = 24;

function name(i: number): string {
  return `d${i % 3}/f${String(i).padStart(2, '0')}.txt`;
}

function content(i: number): Buffer {
  const eol = i % 4 === 1 ? '\r\n' : '\n';
  const lines = [`line one of ${i}`, `needle first ${i}`, 'plain', 'plain', `  needle(${i});`, 'last'];
  const text = lines.join(eol) + (i % 5 === 2 ? '' : eol);
  return Buffer.concat([i % 6 === 3 ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), Buffer.from(text)]);
}

/** Changes one byte of the pack entry of `kind` for `rel`, at the first place `pick` finds in its line. */
function damage(dir: string, kind: 'index' | 'view', rel: string, pick: (line: string) => number): void {
  const pack = path.join(dir, '.rt', 'pack');
  for (const file of fs.readdirSync(pack).filter((n) => n.endsWith('.jsonl'))) {
    const bytes = fs.readFileSync(path.join(pack, file));
    const text = bytes.toString('latin1');
    const marker = `{"format":"rt-${kind}","version":`;
    for (let at = text.indexOf(marker); at !== -1; at = text.indexOf(marker, at + 1)) {
      const end = text.indexOf('\n', at);
      const line = text.slice(at, end);
      if (!line.includes(`"path":${JSON.stringify(rel)}`)) continue;
      const k = at + pick(line);
      // Another character of the same kind (a digit for a digit, a letter for a letter): the length stays.
      bytes[k] = bytes[k] === 0x30 ? 0x31 : bytes[k] === 0x41 ? 0x42 : /[0-9]/.test(text[k]!) ? 0x30 : 0x41;
      fs.writeFileSync(path.join(pack, file), bytes);
      return;
    }
  }
  throw new Error(`no ${kind} entry of ${rel}`);
}

describe.skipIf(!hasRipgrep)('a search of many files with damaged entries in the pack', () => {
  it('sets them aside, reads those files, and prints the same hits with the LIDs rt open shows', () => {
    const dir = tempRepo();
    for (let i = 0; i < FILES; i++) write(dir, name(i), content(i));
    git(dir, ['add', '.']);
    const settled = Date.now() / 1000 - 60;
    for (let i = 0; i < FILES; i++) fs.utimesSync(path.join(dir, name(i)), settled, settled);
    const args = ['grep', '--max', '1000', '-F', 'needle'];
    const first = run(args, dir);
    expect(first.status, first.text).toBe(0);
    expect(first.stdout.split('\n').length - 1).toBe(2 * FILES);
    const warm = run(args, dir);
    expect(warm.stdout).toBe(first.stdout);
    expect(warm.stderr).toBe('');

    // An index's head (its saved time), another's records, and a view (a LID it holds).
    damage(dir, 'index', name(5), (line) => line.indexOf('"touched":') + '"touched":'.length + 3);
    damage(dir, 'index', name(9), (line) => line.indexOf('"records":"') + '"records":"'.length + 20);
    damage(dir, 'view', name(13), (line) => line.indexOf('"seen":["') + '"seen":["'.length + 1);
    const after = run(args, dir);
    expect(after.status, after.text).toBe(0);
    expect(after.stdout, after.text).toBe(first.stdout);
    for (const rel of [name(5), name(9), name(13)])
      expect(after.stderr, after.text).toMatch(new RegExp(`state of ${rel.replace('.', '\\.')} in .* was set aside`));
    expect(after.stderr.split('\n').length - 1, after.text).toBe(3);

    // Rebuilt: the next search trusts what this one saved, and says nothing.
    const again = run(args, dir);
    expect(again.stdout).toBe(first.stdout);
    expect(again.stderr, again.text).toBe('');

    // Each hit's LID is the one rt open shows at that line.
    for (const hit of again.stdout.trimEnd().split('\n')) {
      const [rel, n, lid] = hit.split('|')[0]!.split(':') as [string, string, string];
      const open = run(['open', `${rel}:${n}`, '--window', '1'], dir);
      expect(open.stdout, open.text).toContain(`${n}:${lid}|`);
    }
  });
});
