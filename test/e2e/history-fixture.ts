// What the tests of rt undo, redo and history share: reading files and the history's list, and
// editing that list as a damaged or interrupted history would leave it.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { digestText } from '../../src/model/digest.js';
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
export const readList = (dir: string): List => wholeList(dir) as unknown as List;

/**
 * The history's list as rt reads it: steps.json with the changes of its log (steps.log, when its base is that list)
 * replayed: steps taken out by id, then each put in place of the one of its id or at the end.
 */
export function wholeList(dir: string): Record<string, any> & { steps: Array<Record<string, any>> } {
  const doc = JSON.parse(fs.readFileSync(stepsFile(dir), 'utf8'));
  const log = path.join(dir, '.rt/history/steps.log');
  if (!fs.existsSync(log)) return doc;
  const [head, ...changes] = fs
    .readFileSync(log, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  if (JSON.parse(head!).base !== digestText(fs.readFileSync(stepsFile(dir), 'utf8'))) return doc;
  for (const line of changes) {
    const c = JSON.parse(line.slice(line.indexOf(' ') + 1));
    doc.steps = doc.steps.filter((s: { id: number }) => !c.del.includes(s.id));
    for (const step of c.put) {
      const at = doc.steps.findIndex((s: { id: number }) => s.id === step.id);
      if (at === -1) doc.steps.push(step);
      else doc.steps[at] = step;
    }
    doc.next = c.next;
    doc.undos = c.undos;
  }
  return doc;
}

/** Writes the history's list whole, as rt writes it every so often: steps.json, and no log. */
export function writeWholeList(dir: string, doc: unknown): void {
  fs.writeFileSync(stepsFile(dir), JSON.stringify(doc));
  fs.rmSync(path.join(dir, '.rt/history/steps.log'), { force: true });
}

/** Writes the history list `list` back, its latest step with `pending` (an undo or redo said to be under way). */
export function writeList(
  dir: string,
  list: List,
  pending: { direction: string; owner: { pid: number; host: string } },
): void {
  const steps = list.steps.map((s, i) =>
    i === list.steps.length - 1 ? { ...s, pending: { ...pending, time: Date.now() } } : s,
  );
  writeWholeList(dir, { ...list, steps });
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
  const doc = wholeList(dir);
  change(doc);
  writeWholeList(dir, doc);
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
