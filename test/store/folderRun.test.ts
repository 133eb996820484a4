// FolderRun (src/store/pinnedFolder.ts): a run of files read one after another enters each
// folder once, names each file within it, refuses a folder swapped for a link, and goes back to
// where it started.

import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FolderRun } from '../../src/store/pinnedFolder.js';
import type { ResolvedPath } from '../../src/store/root.js';
import { tempFolders } from '../support/tempFolders.js';

const tempDir = tempFolders('rt-folder-run-');
const startedIn = process.cwd();
afterEach(() => process.chdir(startedIn));

const file = (abs: string): ResolvedPath => ({
  abs,
  stateRoot: path.dirname(abs),
  rel: path.basename(abs),
  display: abs,
});

describe('FolderRun', () => {
  it('reads each file within its folder, entered once a run, and returns at done', () => {
    const root = fs.realpathSync(tempDir());
    for (const rel of ['a/x', 'a/y', 'b/z']) {
      fs.mkdirSync(path.join(root, path.dirname(rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), rel);
    }
    const run = new FolderRun();
    const seen: string[] = [];
    const read = (dir: string, name: string) =>
      run.in(file(path.join(root, dir, name)), (pinned) => {
        seen.push(`${process.cwd()}|${pinned.abs}|${fs.readFileSync(pinned.abs, 'utf8')}`);
      });
    read('a', 'x');
    // The folder's path now leads elsewhere: the file is still read in the folder entered.
    fs.renameSync(path.join(root, 'a'), path.join(root, 'moved'));
    fs.mkdirSync(path.join(root, 'a'));
    fs.writeFileSync(path.join(root, 'a', 'y'), 'planted');
    read('a', 'y');
    read('b', 'z');
    run.done();
    expect(seen).toEqual([
      `${path.join(root, 'a')}|x|a/x`,
      `${path.join(root, 'a')}|y|a/y`,
      `${path.join(root, 'b')}|z|b/z`,
    ]);
    expect(process.cwd()).toBe(startedIn);
  });

  it('enters the folder again after forget (a step stopped in time set the working directory back)', () => {
    const root = fs.realpathSync(tempDir());
    fs.mkdirSync(path.join(root, 'a'));
    fs.writeFileSync(path.join(root, 'a', 'x'), 'ax');
    fs.writeFileSync(path.join(root, 'x'), 'planted where rt started');
    process.chdir(root);
    const run = new FolderRun();
    const read = () => run.in(file(path.join(root, 'a', 'x')), (pinned) => fs.readFileSync(pinned.abs, 'utf8'));
    expect(read()).toBe('ax');
    process.chdir(root); // as stepsInTime does when it stops a step
    run.forget();
    expect(read()).toBe('ax');
    run.done();
    expect(process.cwd()).toBe(root);
  });

  it('refuses a folder swapped for a link before it is entered, and is back where it started', () => {
    const root = fs.realpathSync(tempDir());
    const elsewhere = fs.realpathSync(tempDir());
    fs.writeFileSync(path.join(elsewhere, 'f'), 'outside');
    fs.symlinkSync(elsewhere, path.join(root, 'c'));
    const run = new FolderRun();
    expect(() => run.in(file(path.join(root, 'c', 'f')), () => 'read')).toThrow(/moved or replaced/);
    run.done();
    expect(process.cwd()).toBe(startedIn);
  });
});
