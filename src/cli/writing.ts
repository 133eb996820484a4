// What the commands that write (edit, insert, delete, create, apply; replace plans its own) share:
// their flags read, and their batch run through the one transaction (store/fileChanges.ts), its
// outcome reported.

import type { FileChange } from '../model/patch/types.js';
import { finishBatchesIn } from '../store/recovery.js';
import { writeChanges, type WriteFlags, type WriteOrigin } from '../store/fileChanges.js';
import type { Context } from './context.js';
import { reportWrites } from './writeReport.js';

export type { WriteFlags, WriteOrigin } from '../store/fileChanges.js';

/** The options of a command that writes, parsed; one it does not take counts as not given. */
export interface WriteOptions {
  readonly force?: boolean;
  readonly dryRun: boolean;
  readonly diff: boolean;
  /** False with --no-check. */
  readonly check: boolean;
  readonly indent?: 'auto' | 'keep' | undefined;
}

export function writeFlags(ctx: Context, options: WriteOptions): WriteFlags {
  return {
    force: options.force ?? false,
    dryRun: options.dryRun,
    diff: options.diff || ctx.settings.diff,
    // Unless --no-check or RT_CHECK=off.
    check: options.check && ctx.settings.check,
    indent: (options.indent ?? ctx.settings.indent) === 'auto',
  };
}

/** Runs `changes` as one batch: all of them are written, or none. */
export async function runWrites(
  ctx: Context,
  changes: readonly FileChange[],
  flags: WriteFlags,
  origin: WriteOrigin,
): Promise<void> {
  await writeChanges(
    ctx,
    changes,
    { flags, origin, readOnly: ctx.settings.readOnly },
    {
      // Left incomplete: the files written are reported in text, and named in the one JSON document of the refusal.
      refusalFirst: ctx.json,
      report: (planned, reports) => reportWrites(ctx, planned, flags, origin, reports === undefined, reports),
    },
  );
}

/**
 * Finishes what a killed rt left of a batch in this root (the rule "All or nothing"), before the
 * command runs: in .rt/journal/, and in the system's temporary folder where a root without state
 * keeps its journal. Under RT_READONLY, only says that one waits.
 */
export function finishInterruptedBatches(ctx: Context): void {
  const readOnly = ctx.settings.readOnly;
  finishBatchesIn(ctx, ctx.root.dir, readOnly);
  // Every other root the command's paths lead into (a nested repository's), before a file of it is
  // read: a batch journaled or marked there is finished first.
  ctx.onStateRoot = (dir) => finishBatchesIn(ctx, dir, readOnly);
}
