// What the tests of rt apply's batches share: a root whose files were each opened whole (so
// every line counts as shown), with the LIDs rt printed for them.

import { openWindow, tempRepo, write } from './harness.js';

export function repoOpened(files: Record<string, string>): { dir: string; lids: Record<string, string[]> } {
  const dir = tempRepo();
  const lids: Record<string, string[]> = {};
  for (const [rel, content] of Object.entries(files)) {
    write(dir, rel, content);
    lids[rel] = [...openWindow(dir, rel).lids];
  }
  return { dir, lids };
}
