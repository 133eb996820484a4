// What a rewrite across files prints (rt replace, rt rename): a dry run's changed lines as they
// are and as they would be (PATH:N:LID-OLD, PATH:N:LID+NEW) then its summary; after the write, its
// summary then each file's changed lines with their new LIDs (which count as shown). At most
// `max` lines either way, then how many more.

import { isUtf8 } from 'node:buffer';
import { lidToString } from '../model/lid.js';
import { jsonLine } from '../render/json.js';
import { renderLine } from '../render/window.js';
import type { FileReport, Planned } from '../store/fileChanges.js';
import type { Context } from './context.js';

/** A line a dry run would change, with its LID. */
export interface RewrittenLine {
  readonly n: number;
  readonly lid: string;
  readonly before: Buffer;
  readonly after: Buffer;
}

export interface RewriteReport {
  /** The lines a dry run would change in the file `abs`. */
  readonly lines: (abs: string) => readonly RewrittenLine[];
  /** A file's fields in --json beside its path and lines ({matches: 3}, {references: 2}). */
  readonly tally: (abs: string) => Record<string, unknown>;
  /** The line a dry run ends with. */
  readonly summary: string;
  /** The line the report of a write begins with. */
  readonly done: string;
  readonly max: number;
}

/** Prints the report of a rewrite (`reports` undefined: a dry run); the files of its --json document. */
export function printRewrite(
  ctx: Context,
  planned: readonly Planned[],
  reports: readonly FileReport[] | undefined,
  rewrite: RewriteReport,
): Array<Record<string, unknown>> {
  const { style } = ctx;
  const { max } = rewrite;
  let shown = 0;
  const json: Array<Record<string, unknown>> = [];
  if (!reports) {
    for (const p of planned) {
      const file = p.resolved.file;
      const changed = rewrite.lines(file.abs);
      const lines = changed.map((l) => ({
        n: l.n,
        lid: l.lid,
        ...side('before', l.before),
        ...side('after', l.after),
      }));
      json.push({ path: file.display, ...rewrite.tally(file.abs), lines });
      for (const l of changed) {
        if (shown++ >= max) continue;
        ctx.out(renderLine(l.n, l.lid, l.before, '-', style, file.display));
        ctx.out(renderLine(l.n, l.lid, l.after, '+', style, file.display));
      }
    }
    if (shown > max) ctx.out(`… ${count(shown - max, 'more line', 'more lines')} would change (--max N shows more)\n`);
    ctx.out(`${rewrite.summary}\n`);
    return json;
  }
  ctx.out(`${rewrite.done}\n`);
  for (const r of reports) {
    const p = r.planned;
    const file = p.resolved.file;
    const lines: Array<Record<string, unknown>> = [];
    const runs: Array<{ start: number; lids: string[] }> = [];
    for (const span of p.applied!.edits.spans()) {
      const lids: string[] = [];
      for (let k = 0; k < span.newCount; k++) {
        const i = span.newStart + k;
        const lid = lidToString(r.lids![i]!);
        const content = r.content!(i);
        lids.push(lid);
        lines.push({ ...jsonLine(i + 1, lid, content) });
        if (shown++ < max) ctx.out(renderLine(i + 1, lid, content, '|', style, file.display));
      }
      if (lids.length) runs.push({ start: span.newStart + 1, lids });
    }
    p.view!.recordRuns(runs, 'edit');
    p.view!.save();
    json.push({ path: file.display, ...rewrite.tally(file.abs), lines });
  }
  if (shown > max) ctx.out(`… ${count(shown - max, 'more changed line', 'more changed lines')} (--max N shows more)\n`);
  return json;
}

/** A line's text under `name` for --json, and its bytes in base64 under `${name}Base64` when they are not UTF-8. */
function side(name: 'before' | 'after', bytes: Buffer): Record<string, string> {
  const base64 = isUtf8(bytes) ? {} : { [`${name}Base64`]: bytes.toString('base64') };
  return { [name]: bytes.toString(), ...base64 };
}

export function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
