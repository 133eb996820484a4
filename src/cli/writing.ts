// What the commands that write (edit, insert, delete, create, apply) share: their flags read, and
// their batch run through the one transaction (store/fileChanges.ts), its outcome reported.

import type { FileChange } from '../model/patch/types.js';
import { finishBatchesIn } from '../store/recovery.js';
import { writeChanges, type WriteFlags, type WriteOrigin } from '../store/fileChanges.js';
import type { Context } from './context.js';
import type { Options } from './spec.js';
import { reportWrites } from './writeReport.js';

export type { WriteFlags, WriteOrigin } from '../store/fileChanges.js';

export function writeFlags(ctx: Context, options: Options): WriteFlags {
  return {
    force: options.force === true,
    dryRun: options.dryRun === true,
    diff: options.diff === true || isOn(ctx.env.RT_DIFF),
    check: checksOn(ctx, options.check === false),
    indent: (typeof options.indent === 'string' ? options.indent : ctx.env.RT_INDENT) === 'auto',
  };
}

export function isOn(value: string | undefined): boolean {
  return value !== undefined && !['', '0', 'false', 'no', 'off'].includes(value.toLowerCase());
}

/** Whether writes are checked: yes, unless --no-check or RT_CHECK=off. */
export function checksOn(ctx: Context, noCheckGiven: boolean): boolean {
  const env = ctx.env.RT_CHECK;
  return !noCheckGiven && !(env !== undefined && ['0', 'false', 'no', 'off'].includes(env.toLowerCase()));
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
    { flags, origin, readOnly: isOn(ctx.env.RT_READONLY) },
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
  const readOnly = isOn(ctx.env.RT_READONLY);
  finishBatchesIn(ctx, ctx.root.dir, readOnly);
  // Every other root the command's paths lead into (a nested repository's), before a file of it is
  // read: a batch journaled or marked there is finished first.
  ctx.onStateRoot = (dir) => finishBatchesIn(ctx, dir, readOnly);
}
