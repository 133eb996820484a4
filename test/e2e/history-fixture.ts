// What the tests of rt undo, redo and history share: reading files and the history's list, and
// editing that list as a damaged or interrupted history would leave it.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tree } from './harness.js';

export const read = (dir: string, rel: string) => fs.readFileSync(path.join(dir, rel));

/** Everything under dir: files (bytes), links, and .rt/history too. */
export const everything = (dir: string) => tree(dir);

/** The files of `dir` outside rt's state. */
export function files(dir: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(tree(dir)).filter(([rel]) => !rel.startsWith('.rt/') && !rel.startsWith('.git/')),
  );
}

export interface List {
  steps: Array<Record<string, unknown>>;
}
export const readList = (dir: string): List =>
  JSON.parse(fs.readFileSync(path.join(dir, '.rt/history/steps.json'), 'utf8')) as List;

/** Writes the history list `list` back, its latest step with `pending` (an undo or redo said to be under way). */
export function writeList(
  dir: string,
  list: List,
  pending: { direction: string; owner: { pid: number; host: string } },
): void {
  const steps = list.steps.map((s, i) =>
    i === list.steps.length - 1 ? { ...s, pending: { ...pending, time: Date.now() } } : s,
  );
  fs.writeFileSync(path.join(dir, '.rt/history/steps.json'), JSON.stringify({ ...list, steps }));
}

/** The owner of a process that has ended. */
export function deadOwner(): { pid: number; host: string } {
  const pid = spawnSync('true').pid!;
  return { pid, host: os.hostname() };
}

export const stepsFile = (dir: string) => path.join(dir, '.rt/history/steps.json');

/** Rewrites the history's list through `change`. */
export const editDoc = (
  dir: string,
  change: (doc: Record<string, any> & { steps: Array<Record<string, any>> }) => void,
) => {
  const doc = JSON.parse(fs.readFileSync(stepsFile(dir), 'utf8'));
  change(doc);
  fs.writeFileSync(stepsFile(dir), JSON.stringify(doc));
};
export const editSteps = editDoc;

/** An rt that said it was undoing or redoing a step, and was killed (pid 999999 is not running). */
export const deadPending = (direction: 'undo' | 'redo', session: unknown) => ({
  direction,
  owner: { pid: 999_999, host: os.hostname() },
  time: Date.now() - 1000,
  session,
});

export const MOVE = '*** Update File: a.txt\n*** Move to: z.txt\n';
