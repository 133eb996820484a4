// Batches a killed rt left (the rule "All or nothing"): finished before a command reads a file of
// their root, each one that recovery completes recorded as the step it was.

import { journalDir, recoverBatches, type RecoveredStep } from './journal.js';
import { recordRecoveredStep } from './stepRecord.js';
import type { Workspace } from './transaction.js';

/**
 * Finishes the batches a killed rt left in the journal folders of `root`, or that its marks lead
 * to. `readOnly` (RT_READONLY): only says that one waits.
 */
export function finishBatchesIn(ws: Workspace, root: string, readOnly: boolean): void {
  const record = (step: RecoveredStep) => recordRecoveredStep(ws, step);
  for (const dir of [journalDir(root, true), journalDir(root, false)])
    recoverBatches(dir, root, (m) => ws.warn(m), readOnly, record);
}
