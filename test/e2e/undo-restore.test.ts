// What rt undo and rt redo restore: bytes, modes, links, a BOM, folders, LIDs shown before the
// step, the order of redo, and each session's own steps; a file made whole by an undo or redo is
// taken for what rt wrote. Each test guards a bug once found by hand and reproduced with real
// bytes; the comment above it tells that bug as it was.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, openWindow, parseWindow, run, tempDir, tree, repoWith as repo } from './harness.js';
import { editSteps, read } from './history-fixture.js';

afterAll(cleanup);

describe('undo: what undo restores', () => {
  it('undo of create --force gives the old lines back the LIDs a window showed before the step', () => {
    const dir = repo({ 'f.txt': 'old1\nold2\nold3\n' });
    const w0 = openWindow(dir, 'f.txt');
    expect(run(['delete', 'f.txt', w0.lidAt(1)], dir).status).toBe(0);
    const before = openWindow(dir, 'f.txt');
    expect(run(['create', '--force', 'f.txt'], dir, { input: 'new\nold3\n' }).status).toBe(0);
    const u = run(['undo'], dir);
    expect(u.status, u.text).toBe(0);
    expect(read(dir, 'f.txt').toString()).toBe('old2\nold3\n');
    expect(openWindow(dir, 'f.txt').lids).toEqual(before.lids);
  });

  it("undo of a delete restores the file's mode (an executable script stays executable)", () => {
    const dir = repo({ 'run.sh': '#!/bin/sh\necho hi\n' });
    fs.chmodSync(path.join(dir, 'run.sh'), 0o755);
    expect(run(['apply'], dir, { input: '*** Delete File: run.sh\n' }).status).toBe(0);
    const u = run(['undo'], dir);
    expect(u.status, u.text).toBe(0);
    expect(fs.statSync(path.join(dir, 'run.sh')).mode & 0o777).toBe(0o755);
  });

  it(
    'undo of the delete of a symbolic link brings back the ' +
      'link, not a copy of what it led to; redo removes it again',
    () => {
      const dir = repo({ 'target.txt': 't\n' });
      fs.symlinkSync('target.txt', path.join(dir, 'link.txt'));
      const before = tree(dir);
      expect(run(['apply'], dir, { input: '*** Delete File: link.txt\n' }).status).toBe(0);
      const after = tree(dir);
      const u = run(['undo'], dir);
      expect(u.status, u.text).toBe(0);
      expect(u.stdout).toContain('restored link.txt: a symbolic link to target.txt');
      expect(tree(dir)['link.txt'], u.text).toBe(before['link.txt']); // "-> target.txt"
      const r = run(['redo'], dir);
      expect(r.status, r.text).toBe(0);
      expect(tree(dir)['link.txt']).toBeUndefined();
      expect(tree(dir)['target.txt']).toBe(after['target.txt']);
      expect(run(['undo'], dir).status).toBe(0);
      expect(tree(dir)['link.txt']).toBe('-> target.txt');
    },
  );

  it(
    'undo of moving a symbolic link (rt apply Move to) removes the moved ' +
      'file and brings back the link; a link changed since is refused on redo',
    () => {
      const dir = repo({ 'sub/target.txt': 'a\nb\n' });
      fs.symlinkSync('sub/target.txt', path.join(dir, 'link.txt'));
      const w = openWindow(dir, 'link.txt');
      const m = run(['apply'], dir, {
        input:
          `*** Begin Patch\n*** Update File: link.txt\n*** Move to: moved.txt\n@@ edit ${w.lidAt(1)}\n+A\n*** ` +
          `End Patch\n`,
      });
      expect(m.status, m.text).toBe(0);
      expect(tree(dir)['link.txt']).toBeUndefined();
      const u = run(['undo'], dir);
      expect(u.status, u.text).toBe(0);
      expect(tree(dir)['link.txt']).toBe('-> sub/target.txt');
      expect(tree(dir)['moved.txt']).toBeUndefined();
      expect(fs.readFileSync(path.join(dir, 'sub/target.txt'), 'utf8')).toBe('a\nb\n');
      // The link now leads elsewhere: not the link the undo made, so redo is refused.
      fs.rmSync(path.join(dir, 'link.txt'));
      fs.symlinkSync('elsewhere.txt', path.join(dir, 'link.txt'));
      const r = run(['redo'], dir);
      expect(r.status, r.text).toBe(3);
      expect(tree(dir)['link.txt']).toBe('-> elsewhere.txt');
    },
  );
});

describe('redo: the order of redo', () => {
  it('redo brings back the step undone last (here after rt undo STEP of an older one)', () => {
    const dir = repo({ 'f.txt': 'f\n', 'g.txt': 'g\n' });
    const wf = openWindow(dir, 'f.txt');
    const wg = openWindow(dir, 'g.txt');
    run(['edit', 'f.txt', wf.lidAt(1)], dir, { input: 'F\n' }); // step 1
    run(['edit', 'g.txt', wg.lidAt(1)], dir, { input: 'G\n' }); // step 2
    expect(run(['undo', '1'], dir).status).toBe(0);
    expect(run(['undo'], dir).status).toBe(0); // step 2: undone last
    const r = run(['redo'], dir);
    expect(r.stdout, r.text).toMatch(/^redid step 2 /);
    expect(read(dir, 'g.txt').toString()).toBe('G\n');
    expect(read(dir, 'f.txt').toString()).toBe('f\n');
  });
});

describe('undo and redo: the digest of a file made whole by an undo or redo', () => {
  // src/model/digest.ts digestBytes: for a Buffer whose byteOffset is not a multiple of 4 it takes
  // `new Uint32Array(bytes.slice(0, whole * 4).buffer)`; Buffer#slice is a view, not a copy, so
  // the words digested are the first words of the underlying ArrayBuffer (the start of the
  // history's data file), not the file's. An undo or redo that makes a file whole hands
  // contentDigest a subarray of the data file (stepping.ts contentOf → takeStep's `updated`), so
  // the side it records gets a wrong digest about 3 times in 4, and the next redo/undo of that
  // step is refused: "n.txt changed since step 1 was undone" while nothing touched it.
  it('create, undo, redo, undo: the second undo is not refused as "changed" (nothing changed the file)', () => {
    const failures: string[] = [];
    for (const content of ['a\n', 'ab\n', 'abc\n', 'abcd\nxyz\n', 'hello world\n']) {
      const dir = repo({});
      expect(run(['create', 'n.txt'], dir, { input: content }).status).toBe(0);
      expect(run(['undo'], dir).status).toBe(0);
      const redo = run(['redo'], dir);
      expect(redo.status, redo.text).toBe(0);
      const u = run(['undo'], dir);
      if (u.status !== 0) failures.push(`${JSON.stringify(content)}: ${u.stderr.trim()}`);
    }
    expect(failures).toEqual([]);
  });

  it('delete, undo, redo: the redo of the delete is not refused as "changed"', () => {
    const failures: string[] = [];
    for (const content of ['a\n', 'ab\n', 'abc\n', 'abcd\nxyz\n', 'hello world\n']) {
      const dir = repo({ 't.txt': content });
      openWindow(dir, 't.txt');
      expect(run(['apply'], dir, { input: '*** Delete File: t.txt\n' }).status).toBe(0);
      expect(run(['undo'], dir).status).toBe(0);
      const r = run(['redo'], dir);
      if (r.status !== 0) failures.push(`${JSON.stringify(content)}: ${r.stderr.trim()}`);
    }
    expect(failures).toEqual([]);
  });

  it('move, undo, redo: the redo of the move is not refused as "changed"', () => {
    const dir = repo({ 'a.txt': 'a\nb\nc\n' });
    openWindow(dir, 'a.txt');
    expect(run(['apply'], dir, { input: '*** Update File: a.txt\n*** Move to: z.txt\n' }).status).toBe(0);
    expect(run(['undo'], dir).status).toBe(0);
    const r = run(['redo'], dir);
    expect(r.status, r.text).toBe(0);
    expect(read(dir, 'z.txt').toString()).toBe('a\nb\nc\n');
  });
});

describe('undo and redo: a UTF-8 BOM', () => {
  // swapLines (core/history/changes.ts) splits the restored range with splitLines(bytes, false):
  // a whole-file hunk (create --force) starts at byte 0, so when the side restored has a BOM and
  // the file now has none, the BOM becomes content of line 1: the window printed shows it, and
  // the saved index's fingerprint of line 1 is that of BOM+text. As soon as anything else
  // changes the file, the index is reconciled against the real fingerprints and line 1 loses
  // the LID the window before the step showed (stepping.ts also keeps `bomLength: current.bomLength`).
  it(
    'undo of create --force over a file with a BOM: line 1 ' +
      'keeps its LID afterwards, and is printed without the BOM',
    () => {
      const dir = repo({ 'f.txt': Buffer.from('\xef\xbb\xbfalpha\nbeta\n', 'latin1') });
      const w = openWindow(dir, 'f.txt');
      expect(run(['create', '--force', 'f.txt'], dir, { input: 'x\ny\n' }).status).toBe(0);
      const u = run(['undo'], dir);
      expect(u.status, u.text).toBe(0);
      expect(read(dir, 'f.txt').toString('latin1')).toBe('\xef\xbb\xbfalpha\nbeta\n');
      const printed = parseWindow(u);
      // An outside writer appends a line: every line kept keeps its LID.
      fs.appendFileSync(path.join(dir, 'f.txt'), 'gamma\n');
      const after = openWindow(dir, 'f.txt');
      expect({ lids: after.lids.slice(0, 2), line1: printed.lines[0]?.content }, u.text).toEqual({
        lids: w.lids,
        line1: 'alpha',
      });
    },
  );
});

describe('undo and redo: folders', () => {
  // An undo of a delete writes the file back into its folder; when the folder was removed since
  // (rm -r, git checkout of another branch), the undo is refused as if a folder had been
  // swapped for a link ("the folder of d/f.txt was moved or replaced after rt checked it", exit
  // 4), although a redo makes again the folders of the files it makes (stepping.ts step():
  // `made` only for redo).
  it('undo of a delete whose folder was removed since makes the folder again (as redo does for a create)', () => {
    const dir = repo({ 'd/f.txt': 'x\n' });
    openWindow(dir, 'd/f.txt');
    expect(run(['apply'], dir, { input: '*** Delete File: d/f.txt\n' }).status).toBe(0);
    fs.rmdirSync(path.join(dir, 'd'));
    const u = run(['undo'], dir);
    expect(u.status, u.text).toBe(0);
    expect(read(dir, 'd/f.txt').toString()).toBe('x\n');
  });

  // The step's `folders` are those its first run made; a redo that finds a folder already there
  // (made by the user after the undo) does not make it, but the next undo removes it all the same.
  it('an undo after a redo does not remove a folder the user made in between', () => {
    const dir = repo({});
    expect(run(['create', 'a/b/f.txt'], dir, { input: 'x\n' }).status).toBe(0);
    expect(run(['undo'], dir).status).toBe(0);
    fs.mkdirSync(path.join(dir, 'a')); // the user's own folder
    expect(run(['redo'], dir).status).toBe(0);
    const u = run(['undo'], dir);
    expect(u.status, u.text).toBe(0);
    expect(fs.existsSync(path.join(dir, 'a')), u.text).toBe(true);
  });

  // folderOfStep checks a step's folder lexically (no `..`, not absolute, inside the root) and
  // then rmdirs the path, which follows a link inside the root: a planted `folders` entry
  // "lnk/victim" removes an empty folder outside the root (nothing outside the root is written).
  it('a folder of a step reached through a symbolic link is not removed outside the root', () => {
    const dir = repo({});
    const outside = tempDir('rt-outside-');
    fs.mkdirSync(path.join(outside, 'victim'));
    fs.symlinkSync(outside, path.join(dir, 'lnk'));
    expect(run(['create', 'n.txt'], dir, { input: 'x\n' }).status).toBe(0);
    editSteps(dir, (doc) => (doc.steps[0]!.folders = ['lnk/victim']));
    const u = run(['undo'], dir);
    expect(fs.existsSync(path.join(outside, 'victim')), u.text).toBe(true);
  });
});

describe('undo and redo: sessions', () => {
  // rt help redo: "Brings back the earliest of the steps this session undid". choose() looks for
  // redo among the steps the session *made* (steps.filter(s => s.session === session)): session A
  // that undid B's step with rt undo STEP cannot redo it ("nothing to redo in session A"), while
  // B, who undid nothing, can (and so takes back A's undo).
  it("a session that undid another session's step with rt undo STEP can redo it; the other session cannot", () => {
    const dir = repo({ 'f.txt': 'a\nb\n' });
    const B = { RT_SESSION: 'B' };
    const A = { RT_SESSION: 'A' };
    const lid = parseWindow(run(['open', 'f.txt'], dir, { env: B })).lidAt(1);
    expect(run(['edit', 'f.txt', lid], dir, { env: B, input: 'X\n' }).status).toBe(0);
    expect(run(['undo', '1'], dir, { env: A }).status).toBe(0);
    const byA = run(['redo'], dir, { env: A });
    expect(byA.status, byA.text).toBe(0);
    expect(read(dir, 'f.txt').toString()).toBe('X\nb\n');
  });
});
