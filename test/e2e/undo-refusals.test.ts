// When rt undo and rt redo refuse, and what they say to run instead: the file checked is the
// file as it is now, --force puts a step back only as whole lines where it was, a move is made
// again only from the file it left, and no hint offers a command that would be refused the same.
// Each test guards a bug once found by hand and reproduced with real bytes; the comment above it
// tells that bug as it was.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, expectRun, numbered, openWindow, run, write, repoWith as repo } from './harness.js';
import { MOVE, read } from './history-fixture.js';

afterAll(cleanup);

describe('undo: the file checked is the file as it is now', () => {
  it("an outside writer that changes the file right after rt wrote it is not mistaken for rt's own version (undo " +
    'would splice offsets into it)', async () => {
    // An editor with auto-reload, a formatter on save, a dev server: a program reacting to the
    // write within milliseconds. The step's stamp is taken after that program wrote, so undo
    // trusts it and applies the step's byte offsets to other content: "linline 8", exit 0.
    let accepted: string | undefined;
    for (let attempt = 0; attempt < 5 && accepted === undefined; attempt++) {
      const dir = repo({ 'f.txt': numbered(20000) });
      run(['open', 'f.txt:5-15'], dir);
      const F = path.join(dir, 'f.txt');
      const watcher = spawn(
        process.execPath,
        [
          '-e',
          `const fs=require('fs');const F=${JSON.stringify(F)};
           fs.watch(${JSON.stringify(dir)},(e,n)=>{ if(n!=='f.txt')return; try{const b=fs.readFileSync(F);
             if(b.includes('EDITED')&&!b.includes('TOP')){
               fs.writeFileSync(F,Buffer.concat([Buffer.from('TOP\\n'),b]));process.exit(0);} }catch{} });
           setTimeout(()=>process.exit(1),8000); process.stdout.write('ready');`,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      const exited = new Promise<void>((resolve) => watcher.on('exit', () => resolve()));
      await new Promise<void>((resolve) => watcher.stdout!.once('data', () => resolve()));
      expect(run(['edit', 'f.txt', '10'], dir, { input: 'EDITED\n' }).status).toBe(0);
      await exited;
      const outside = read(dir, 'f.txt');
      expect(outside.subarray(0, 4).toString()).toBe('TOP\n');
      const u = run(['undo'], dir);
      const now = read(dir, 'f.txt');
      // Either refused with the file as the outside writer left it, or the whole step undone
      // around the new top line; never anything else.
      const wholeUndo = Buffer.concat([Buffer.from('TOP\n'), Buffer.from(numbered(20000))]);
      if (u.status === 0 && !now.equals(wholeUndo))
        accepted = `${u.text}\nfile now begins:\n${now.subarray(0, 120).toString()}`;
      if (u.status !== 0) expect(now.equals(outside), u.text).toBe(true);
    }
    expect(accepted).toBeUndefined();
  }, 120_000);
});

describe('undo --force: never puts the step back anywhere but whole lines where it was', () => {
  it(
    "a match of the step's bytes in the middle of a line is refused: no spliced line, no LID moved to another " +
      'line',
    () => {
      const dir = repo({ 'f.txt': 'a\nb\nc\n' });
      const w = openWindow(dir, 'f.txt');
      expect(run(['edit', 'f.txt', w.lidAt(1)], dir, { input: 'X\n' }).status).toBe(0);
      write(dir, 'f.txt', 'fooX\nb\nc\n'); // an editor changed the line the step wrote
      const r = run(['undo', '--force'], dir);
      // The line the step wrote is no longer as it left it: refused, nothing written.
      expectRun(r, { status: 3, stdout: '' });
      expect(read(dir, 'f.txt').toString()).toBe('fooX\nb\nc\n');
      // And whatever happens, the LID printed for "a" never names "b" (today: it does).
      const now = openWindow(dir, 'f.txt');
      const bAt = now.lines.find((l) => l.content === 'b');
      expect(bAt?.lid, now.lines.map((l) => `${l.lid}|${l.content}`).join('\n')).not.toBe(w.lidAt(1));
    },
  );

  it('after undo --force of a delete matched mid-line, no LID printed before the step names another line', () => {
    const dir = repo({ 'f.txt': 'a\nb\nc\nd\n' });
    const w = openWindow(dir, 'f.txt');
    expect(run(['delete', 'f.txt', w.lidAt(2)], dir).status).toBe(0);
    write(dir, 'f.txt', 'xa\nc\nd\n');
    run(['undo', '--force'], dir);
    const now = openWindow(dir, 'f.txt');
    for (const l of now.lines) {
      const shown = w.lines.find((s) => s.lid === l.lid);
      if (shown) expect(l.content, `LID ${l.lid} was printed for ${JSON.stringify(shown.content)}`).toBe(shown.content);
    }
  });

  it("the step's lines found at another place (another block, the other agent's work) are not undone there", () => {
    const dir = repo({ 'f.txt': 'A\nB\nC\nA\nB\nC\n' });
    const w = openWindow(dir, 'f.txt');
    expect(run(['edit', 'f.txt', w.lidAt(2)], dir, { input: 'Z\n' }).status).toBe(0);
    // Someone else: line 5 made Z (their own change), and the step's line 2 changed to W.
    write(dir, 'f.txt', 'A\nW\nC\nA\nZ\nC\n');
    const r = run(['undo', '--force'], dir);
    // Line 5 is not a line the step wrote: it must stay Z.
    expect(read(dir, 'f.txt').toString(), r.text).toBe('A\nW\nC\nA\nZ\nC\n');
    expect(r.status, r.text).toBe(3);
  });
});

describe('undo and redo: refusals say what to run instead', () => {
  it(
    'undo of a create whose file was deleted by hand does not offer ' +
      '--force (which is refused the same) nor rt open of a missing file',
    () => {
      const dir = repo({ 'f.txt': 'a\n' });
      const w = openWindow(dir, 'f.txt');
      run(['edit', 'f.txt', w.lidAt(1)], dir, { input: 'A\n' });
      expect(run(['create', 'new.txt'], dir, { input: 'n\n' }).status).toBe(0);
      fs.rmSync(path.join(dir, 'new.txt'));
      const r = run(['undo'], dir);
      expect(r.status, r.text).toBe(3);
      const forced = run(['undo', '--force'], dir);
      // If --force cannot do it, the refusal must not send the user there.
      if (forced.status !== 0) expect(r.stderr, r.text).not.toMatch(/add --force/);
      expect(r.stderr, r.text).not.toMatch(/rt open new\.txt/);
    },
  );

  it('--json with nothing to undo or redo still prints one JSON document', () => {
    const dir = repo({ 'f.txt': 'a\n' });
    for (const cmd of ['undo', 'redo']) {
      const r = run([cmd, '--json'], dir);
      expect(r.status, r.text).toBe(1);
      expect(() => JSON.parse(r.stdout), r.text).not.toThrow();
    }
  });
});

describe('undo and redo: what a refusal says to run instead, for files made or removed again', () => {
  // planFile's `!want.exists` branch throws refuse('exists again'), whose hints end with
  // "undo anyway ...: add --force"; --force is refused the same, with the same hint.
  it('undo of a delete whose file exists again does not offer --force, which is refused the same', () => {
    const dir = repo({ 't.txt': 'x\n' });
    openWindow(dir, 't.txt');
    expect(run(['apply'], dir, { input: '*** Delete File: t.txt\n' }).status).toBe(0);
    write(dir, 't.txt', 'new\n');
    const u = run(['undo'], dir);
    expect(u.status).toBe(3);
    const forced = run(['undo', '--force'], dir);
    if (forced.status !== 0) expect(u.stderr, `${u.text}\n${forced.text}`).not.toMatch(/--force/);
    expect(read(dir, 't.txt').toString()).toBe('new\n');
  });

  it('redo of a create whose file exists again does not offer --force, which is refused the same', () => {
    const dir = repo({});
    expect(run(['create', 'n.txt'], dir, { input: 'x\n' }).status).toBe(0);
    expect(run(['undo'], dir).status).toBe(0);
    write(dir, 'n.txt', 'mine\n');
    const r = run(['redo'], dir);
    expect(r.status).toBe(3);
    const forced = run(['redo', '--force'], dir);
    if (forced.status !== 0) expect(r.stderr, `${r.text}\n${forced.text}`).not.toMatch(/--force/);
    expect(read(dir, 'n.txt').toString()).toBe('mine\n');
  });

  // choose(): a step that is 'cleared' (undone, then its session wrote anew) is reported as
  // "undone already" with the hint "bring it back with: rt redo", and rt redo says nothing to redo.
  it('rt undo STEP of a step that can no longer be redone does not send the user to rt redo', () => {
    const dir = repo({ 'f.txt': 'a\nb\n' });
    const w = openWindow(dir, 'f.txt');
    expect(run(['edit', 'f.txt', w.lidAt(1)], dir, { input: 'X\n' }).status).toBe(0);
    expect(run(['undo'], dir).status).toBe(0);
    expect(run(['edit', 'f.txt', w.lidAt(2)], dir, { input: 'Y\n' }).status).toBe(0);
    const u = run(['undo', '1'], dir);
    expect(u.status).not.toBe(0);
    if (/rt redo/.test(u.stderr)) {
      const r = run(['redo'], dir);
      expect(r.status, `${u.text}\n${r.text}`).toBe(0);
    }
  });
});

describe('undo and redo: a move made again from the other file', () => {
  // A redo of a move checks the source first (planFile, `!target.exists`: refuse('changed') with
  // "redo anyway ...: add --force"; removed: "redo the rest of the step all the same: add --force"),
  // but the target is made from the source (fromOtherFile), which --force never relaxes: the
  // hint leads to a second refusal (exit 3), or to "no such file: a.txt" (exit 4).
  it('redo of a move whose source changed since the undo does not offer a --force that is refused the same', () => {
    const dir = repo({ 'a.txt': 'a\nb\n' });
    openWindow(dir, 'a.txt');
    expect(run(['apply'], dir, { input: MOVE }).status).toBe(0);
    expect(run(['undo'], dir).status).toBe(0);
    fs.appendFileSync(path.join(dir, 'a.txt'), 'c\n');
    const r = run(['redo'], dir);
    expect(r.status, r.text).toBe(3);
    const forced = run(['redo', '--force'], dir);
    if (forced.status !== 0) expect(r.stderr, `${r.text}\n${forced.text}`).not.toMatch(/--force/);
    expect(read(dir, 'a.txt').toString()).toBe('a\nb\nc\n');
  });

  it('redo of a move whose source was removed since the undo does not offer a --force that then fails', () => {
    const dir = repo({ 'a.txt': 'a\nb\n' });
    openWindow(dir, 'a.txt');
    expect(run(['apply'], dir, { input: MOVE }).status).toBe(0);
    expect(run(['undo'], dir).status).toBe(0);
    fs.rmSync(path.join(dir, 'a.txt'));
    const r = run(['redo'], dir);
    expect(r.status, r.text).toBe(3);
    const forced = run(['redo', '--force'], dir);
    if (forced.status !== 0) expect(r.stderr, `${r.text}\n${forced.text}`).not.toMatch(/--force/);
  });

  // fromOtherFile reads the target with readSnapshot, which throws the generic "no such file:
  // z.txt" / "check the path; list files with: rt find NAME" (exit 4, as for a typo in a path),
  // where every other file of a step removed since is "z.txt was removed since step 1 (...)
  // wrote it; nothing was undone", exit 3 (refused, exit 3, naming the file).
  it(
    'undo of a move whose target was removed since is refused ' +
      'as any removed file of a step (exit 3), not "no such file"',
    () => {
      const dir = repo({ 'a.txt': 'a\nb\n' });
      openWindow(dir, 'a.txt');
      expect(run(['apply'], dir, { input: MOVE }).status).toBe(0);
      fs.rmSync(path.join(dir, 'z.txt'));
      const u = run(['undo'], dir);
      expect(
        { status: u.status, removed: /z\.txt was removed since step 1/.test(u.stderr), find: /rt find/.test(u.stderr) },
        u.text,
      ).toEqual({ status: 3, removed: true, find: false });
      expect(fs.existsSync(path.join(dir, 'a.txt'))).toBe(false);
    },
  );

  // planFile gives a file made again one region, the whole file (`regions: [{ from: 0, to:
  // count }]`), and report() prints every region in full: the undo of a move of a 5,000-line
  // file prints 5,004 lines (a 1,000,000-line file: all of them), where the move itself printed
  // one line, and an edit or create prints at most 200 new lines, then "N more new lines not
  // shown: rt open ...". An agent's context is flooded by an undo.
  it('undo and redo of a move of a long file do not print the whole file', () => {
    const dir = repo({ 'a.txt': numbered(5000) });
    openWindow(dir, 'a.txt:1-5');
    const m = run(['apply'], dir, { input: MOVE });
    expect(m.status, m.text).toBe(0);
    const u = run(['undo'], dir);
    expect(u.status, u.text.slice(0, 2000)).toBe(0);
    const r = run(['redo'], dir);
    expect(r.status).toBe(0);
    expect(
      { undo: u.stdout.split('\n').length < 300, redo: r.stdout.split('\n').length < 300 },
      `undo printed ${u.stdout.split('\n').length} lines, redo ${r.stdout.split('\n').length}; the ` +
        `move ${m.stdout.split('\n').length}`,
    ).toEqual({ undo: true, redo: true });
  });
});
