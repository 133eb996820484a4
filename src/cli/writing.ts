// What the commands that write (edit, insert, delete, create, apply; replace plans its own) share:
// their flags read, and their batch run through the one transaction (store/fileChanges.ts), its
// outcome reported.

import path from 'node:path';
import { quotePath, RtError } from '../model/errors.js';
import type { FileChange, PatchHunk } from '../model/patch/types.js';
import { symbolTarget } from '../model/target.js';
import { finishBatchesIn } from '../store/recovery.js';
import { writeChanges, type WriteFlags, type WriteOrigin } from '../store/fileChanges.js';
import { namesNonFolder } from '../store/userFiles.js';
import type { Context } from './context.js';
import { symbolsFor } from './symbols.js';
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
  const namesDefinitions = changes.some((c) => c.kind === 'update' && c.hunks.some((h) => h.kind === 'symbol'));
  // How a refusal of a name several definitions have says to name one.
  const named = (display: string, qualifiedName: string) =>
    origin.patch ? `@@ … @${qualifiedName}` : `rt ${origin.command} ${quotePath(`${display}:@${qualifiedName}`)}`;
  await writeChanges(
    ctx,
    changes,
    {
      flags,
      origin,
      readOnly: ctx.settings.readOnly,
      ...(namesDefinitions ? { symbols: symbolsFor(ctx, named) } : {}),
    },
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

/** `PATH:@NAME`, the definition NAME in PATH, as edit, insert and delete take it; undefined for any other PATH. */
export function definitionNamed(ctx: Context, pathArg: string): { path: string; name: string } | undefined {
  return symbolTarget(pathArg, (p) => namesNonFolder(path.resolve(ctx.cwd, p)));
}

/** Writes to the definition `target` names (rt edit PATH:@NAME, …): a batch of one change of its whole range. */
export function writeDefinition(
  ctx: Context,
  target: { path: string; name: string },
  op: Extract<PatchHunk, { kind: 'symbol' }>['op'],
  rows: readonly Buffer[],
  flags: WriteFlags,
  command: WriteOrigin['command'],
): Promise<void> {
  const hunk: PatchHunk = { kind: 'symbol', op, line: 0, name: target.name, rows };
  const change: FileChange = { kind: 'update', line: 0, path: target.path, moveTo: undefined, hunks: [hunk] };
  return runWrites(ctx, [change], flags, { command, patch: false });
}

/**
 * What edit, insert and delete write at: the definition PATH:@NAME names, when `pathArg` is one
 * (its whole range is the lines written, so no `operand`, FROM or AT, may be given beside it);
 * else the operand, which must then be given (refused as commander refuses a missing operand).
 */
export function definitionOr(
  ctx: Context,
  command: 'edit' | 'delete' | 'insert',
  pathArg: string,
  operand: { readonly name: string; readonly value: string | undefined },
): { readonly definition: { path: string; name: string } } | { readonly operand: string } {
  const definition = definitionNamed(ctx, pathArg);
  if (definition) {
    if (operand.value !== undefined) throw linesBesideDefinition(pathArg, command);
    return { definition };
  }
  const noName = /^(.+):@$/.exec(pathArg);
  if (noName && !namesNonFolder(path.resolve(ctx.cwd, pathArg)))
    throw new RtError('usage', `a name is missing after @ in ${pathArg}: PATH:@NAME names a definition`, [
      `name one: rt ${command} ${quotePath(`${noName[1]}:@NAME`)}; ` +
        `see their names: rt outline ${quotePath(noName[1]!)}`,
    ]);
  if (operand.value === undefined)
    throw new RtError('usage', `missing required argument '${operand.name}'`, [
      `see the usage with: rt help ${command}`,
    ]);
  return { operand: operand.value };
}

function linesBesideDefinition(pathArg: string, command: 'edit' | 'delete' | 'insert'): RtError {
  const insert = command === 'insert';
  const alone = `rt ${command} ${quotePath(pathArg)}${command === 'delete' ? '' : " <<'EOF'"}`;
  const file = quotePath(pathArg.slice(0, pathArg.lastIndexOf(':')));
  return new RtError(
    'usage',
    `${pathArg} names a definition, whose lines are its whole range: give no ${insert ? 'AT' : 'FROM or TO'} beside it`,
    [
      `${command} it so: ${alone}${insert ? ' (--after to insert after it)' : ''}`,
      `to ${command} at lines of it, name the file alone: rt ${command} ${file} …`,
    ],
  );
}
