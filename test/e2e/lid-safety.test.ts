// The five ways an LID printed for one line came to name another line with the same text (issue
// 18), each run through the built binary: an LID names its own line, or is refused.
//
// f.js holds three functions a, b, c, each `function x() {` / `  return N;` / `}`; its three `}`
// lines are the repeated lines at stake.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packKeys } from '../support/pack.js';
import { cleanup, expectRun, parseWindow, run, tempDir, write } from './harness.js';

afterAll(cleanup);

const F_JS = 'function a() {\n  return 1;\n}\nfunction b() {\n  return 2;\n}\nfunction c() {\n  return 3;\n}\n';
const AFTER_DELETE = 'function b() {\n  return 2;\n}\nfunction c() {\n  return 3;\n}\n';

function gitInit(dir: string): void {
  const r = spawnSync('git', ['init', '-q', dir]);
  if (r.status !== 0) throw new Error(`git init: ${r.stderr}`);
}

/** Opens f.js whole, deletes a's function by its LIDs, and returns b's brace's LID as the edit printed it. */
function deleteA(cwd: string, file: string, env: Record<string, string> = {}): string {
  const opened = parseWindow(run(['open', file], cwd, { env }));
  const deleted = run(['delete', file, opened.lidAt(1), opened.lidAt(3)], cwd, { env });
  expectRun(deleted, { status: 0, stdout: /^deleted / });
  const region = parseWindow({ ...deleted, stdout: deleted.stdout.split('\n').slice(1).join('\n') });
  const brace = region.lines.find((l) => l.n === 3);
  expect(brace?.content, deleted.text).toBe('}');
  return brace!.lid;
}

describe('an LID printed for a repeated line names that line, or is refused', () => {
  it('1. nested repository: the edit from the parent and the insert from the nested one share one index', () => {
    const p = tempDir();
    gitInit(p);
    gitInit(path.join(p, 'pkg'));
    write(p, 'pkg/f.js', F_JS);
    const lid = deleteA(p, 'pkg/f.js');
    const r = run(['insert', 'f.js', lid, '--after'], path.join(p, 'pkg'), { input: '// after b\n' });
    expectRun(r, { status: 0, stdout: /^inserted f\.js: 4-4 \(\+1\)\n/ });
    expect(fs.readFileSync(path.join(p, 'pkg/f.js'), 'utf8')).toBe(
      'function b() {\n  return 2;\n}\n// after b\nfunction c() {\n  return 3;\n}\n',
    );
    // One state folder, the nested repository's own, whichever folder rt ran from.
    expect(packKeys(path.join(p, 'pkg'), 'index')).toEqual(['index:f.js']);
    expect(packKeys(p)).toEqual([]);
  });

  it('2. state deleted between the delete and the insert: the insert lands after b, or is refused', () => {
    const dir = tempDir();
    write(dir, 'f.js', F_JS);
    const lid = deleteA(dir, 'f.js');
    fs.rmSync(path.join(dir, '.rt'), { recursive: true });
    // With the state gone, nothing counts as shown: refused until the line is seen again...
    const refused = run(['insert', 'f.js', lid, '--after'], dir, { input: '// after b\n' });
    expectRun(refused, { status: 3, stdout: '', stderr: /has not been shown/ });
    expect(fs.readFileSync(path.join(dir, 'f.js'), 'utf8')).toBe(AFTER_DELETE);
    // ...and once seen, the same LID names b's brace: a fresh reading gives it the LID it had.
    const again = parseWindow(run(['open', 'f.js'], dir));
    expect(again.lidAt(3)).toBe(lid);
    expectRun(run(['insert', 'f.js', lid, '--after'], dir, { input: '// after b\n' }), {
      status: 0,
      stdout: /^inserted f\.js: 4-4 \(\+1\)\n/,
    });
    expect(fs.readFileSync(path.join(dir, 'f.js'), 'utf8')).toBe(
      'function b() {\n  return 2;\n}\n// after b\nfunction c() {\n  return 3;\n}\n',
    );
  });

  it(
    '3. RT_STATE=off, several edits from one read: the LID ' + "the delete printed for b's brace replaces b's brace",
    () => {
      const dir = tempDir();
      write(dir, 'f.js', F_JS);
      const env = { RT_STATE: 'off' };
      const lid = deleteA(dir, 'f.js', env);
      const r = run(['edit', 'f.js', lid], dir, { env, input: '}  // end of b\n' });
      expectRun(r, {
        status: 0,
        stdout: /^edited f\.js: 3-3 → 3-3 \(\+0\)\n/,
        stderr: /RT_STATE=off: .*cannot check which lines it has shown/,
      });
      expect(fs.readFileSync(path.join(dir, 'f.js'), 'utf8')).toBe(
        'function b() {\n  return 2;\n}  // end of b\nfunction c() {\n  return 3;\n}\n',
      );
    },
  );

  it('4. insert refuses an LID never shown in that file, even one another file shows for the same text', () => {
    const dir = tempDir();
    const licence = '// SPDX-License-Identifier: MIT';
    write(dir, 'src/goods.ts', `${licence}\nexport const goods = 1;\nexport const more = 2;\n`);
    write(dir, 'src/index.ts', `${licence}\nexport * from './goods';\n`);
    const shown = parseWindow(run(['open', 'src/goods.ts:1-3'], dir));
    const lid = shown.lidAt(1);
    const before = fs.readFileSync(path.join(dir, 'src/index.ts'));
    const r = run(['insert', 'src/index.ts', lid, '--after'], dir, { input: 'x\n' });
    expectRun(r, {
      status: 3,
      stdout: '',
      stderr:
        /line 1 \(\w{4}\) of src\/index\.ts has not been shown in this file[^]*rt open src\/index\.ts:1[^]*--force/,
    });
    expect(fs.readFileSync(path.join(dir, 'src/index.ts'))).toEqual(before);
    // As a bare number is refused there, so is 1:LID; --force takes it.
    expectRun(run(['insert', 'src/index.ts', `1:${lid}`, '--after'], dir, { input: 'x\n' }), { status: 3, stdout: '' });
    expectRun(run(['insert', 'src/index.ts', lid, '--after', '--force'], dir, { input: 'x\n' }), {
      status: 0,
      stdout: /^inserted /,
    });
    expect(fs.readFileSync(path.join(dir, 'src/index.ts'), 'utf8')).toBe(`${licence}\nx\nexport * from './goods';\n`);
  });

  it('5. a line moved unchanged keeps its LID, by rt or by anything else, with state or without', () => {
    const dir = tempDir();
    write(dir, 'i.ts', "import c from 'c';\nimport a from 'a';\nimport b from 'b';\n\nrun();\n");
    const before = parseWindow(run(['open', 'i.ts'], dir));
    const lidOfC = before.lidAt(1);
    // An import sort by another program.
    write(dir, 'i.ts', "import a from 'a';\nimport b from 'b';\nimport c from 'c';\n\nrun();\n");
    const sorted = parseWindow(run(['open', 'i.ts'], dir));
    expect(sorted.lidAt(3)).toBe(lidOfC);
    expect(sorted.lids.slice(0, 2)).toEqual(before.lids.slice(1, 3));
    expectRun(run(['edit', 'i.ts', lidOfC], dir, { input: "import c from 'c2';\n" }), { status: 0 });
    // And by rt: a sort made by one edit of the three lines.
    fs.rmSync(path.join(dir, '.rt'), { recursive: true });
    write(dir, 'j.ts', 'const z = 1;\nconst x = 2;\nconst y = 3;\n');
    const j = parseWindow(run(['open', 'j.ts'], dir));
    const edited = run(['edit', 'j.ts', j.lidAt(1), j.lidAt(3)], dir, {
      input: 'const x = 2;\nconst y = 3;\nconst z = 1;\n',
    });
    expectRun(edited, { status: 0 });
    const region = parseWindow({ ...edited, stdout: edited.stdout.split('\n').slice(1).join('\n') });
    expect(region.lids).toEqual([j.lidAt(2), j.lidAt(3), j.lidAt(1)]);
    // After rm -rf .rt, a fresh reading gives them the same LIDs.
    fs.rmSync(path.join(dir, '.rt'), { recursive: true });
    expect(parseWindow(run(['open', 'j.ts'], dir)).lids).toEqual(region.lids);
  });

  it(
    'create --force carries the saved LIDs to the new content: ' +
      'kept lines keep theirs, retired ones are not handed out',
    () => {
      const dir = tempDir();
      write(dir, 'f.txt', 'alpha\nbeta\ngamma\n');
      const first = parseWindow(run(['open', 'f.txt'], dir));
      expectRun(run(['edit', 'f.txt', first.lidAt(2)], dir, { input: 'BETA\n' }), { status: 0 });
      const created = run(['create', '--force', 'f.txt'], dir, { input: 'alpha\nbeta\ngamma\ndelta\n' });
      expectRun(created, { status: 0, stdout: /^replaced f\.txt: / });
      const region = parseWindow({ ...created, stdout: created.stdout.split('\n').slice(1).join('\n') });
      expect(region.lidAt(1)).toBe(first.lidAt(1));
      expect(region.lidAt(3)).toBe(first.lidAt(3));
      // beta's LID was retired when it became BETA: the beta written again is another line.
      expect(region.lidAt(2)).not.toBe(first.lidAt(2));
      expectRun(run(['edit', 'f.txt', first.lidAt(2)], dir, { input: 'x\n' }), { status: 3, stdout: '' });
    },
  );
});
