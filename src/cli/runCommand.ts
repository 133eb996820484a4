// A command's run once its operands and options are read, from a command line (by commander) or
// from a tool call's fields (rt mcp): the same checks, in the same order, then its handler.

import { dropSpareMemory } from '../model/wasmModule.js';
import { forgetSniffed } from '../store/indexedFile.js';
import type { Context } from './context.js';
import { parseOptions, switchesGiven, type GivenOptions } from './options.js';
import type { Args, CommandSpec } from './spec.js';
import { finishInterruptedBatches } from './writing.js';

/** Runs `spec` with `args` and `given`; its exit status. */
export async function runCommand(spec: CommandSpec, ctx: Context, args: Args, given: GivenOptions): Promise<number> {
  spec.checkOperands?.(ctx.cwd, args, switchesGiven(spec.options, given));
  if (spec.touchesFiles !== false) {
    void ctx.session; // a bad RT_SESSION is refused before the command does anything
    finishInterruptedBatches(ctx);
  }
  try {
    return (await spec.run(ctx, args, parseOptions(spec.options, given))) ?? 0;
  } finally {
    // Bytes a search kept are forgotten first, even if the flush throws: a server's next call reads anew.
    forgetSniffed();
    // A big file's scan may leave a memory given back for claims that did not follow.
    dropSpareMemory();
    // What the command saved of the state lands now, as one segment per root (see The store is a cache).
    ctx.flushState();
  }
}
