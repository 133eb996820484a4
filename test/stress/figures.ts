// The figures of a scenario: how many trials ran and how many of each failure were counted.
// Each test file records its rows in a folder the global set-up provides; the set-up prints
// them as one table at the end of the run (and the full form keeps them as JSON).

import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    figuresDir: string;
  }
}

/** Counts that must all be 0, and what they mean. */
export const COUNTS = {
  torn: 'files that are neither the old nor the new version',
  lost: 'edits that reported success but are not in the file',
  strayTemp: 'temporary or lock files left after the next run',
  corruptState: 'state files that do not parse or do not describe their file',
  escapes: 'writes (or reads, where checked) outside the root',
  crashes: 'runs with an exit status outside 0–4, a signal, or a stack trace',
  wrongLines: 'LIDs that named another line than the one they were printed for (not one indistinguishable from it)',
  wrongRestores: 'undos or redos that succeeded but left other bytes than the side of the step they restore',
  wrongRefusals: 'writes, undos or redos refused where the history says they must succeed',
  missedRefusals: 'undos or redos that succeeded where they must be refused (a file of the step changed since)',
  historyOutOfStep:
    'steps whose state in the history disagrees with their files after a kill (the undo or redo written, not marked)',
} as const;

export type Count = keyof typeof COUNTS;

export interface Row {
  readonly scenario: string;
  readonly trials: number;
  readonly counts: Record<Count, number>;
  /** What else is worth knowing (e.g. how the kills fell: old/new). */
  readonly notes?: string;
  readonly ms: number;
}

/** Counts for a scenario, filled in as its trials run. */
export class Tally {
  trials = 0;
  readonly counts: Record<Count, number> = {
    torn: 0,
    lost: 0,
    strayTemp: 0,
    corruptState: 0,
    escapes: 0,
    crashes: 0,
    wrongLines: 0,
    wrongRestores: 0,
    wrongRefusals: 0,
    missedRefusals: 0,
    historyOutOfStep: 0,
  };
  readonly problems: string[] = [];
  private readonly t0 = Date.now();
  notes = '';

  constructor(readonly scenario: string) {}

  /** Counts one failure of `kind`, keeping the first few descriptions for the assertion message. */
  fail(kind: Count, description: string): void {
    this.counts[kind]++;
    if (this.problems.length < 40) this.problems.push(`${kind}: ${description}`);
  }

  /** Records the row (even when the test then fails, so the table shows it). */
  record(): Row {
    const row: Row = {
      scenario: this.scenario,
      trials: this.trials,
      counts: { ...this.counts },
      ms: Date.now() - this.t0,
      ...(this.notes ? { notes: this.notes } : {}),
    };
    const dir = figuresDir();
    if (dir) fs.appendFileSync(path.join(dir, `${process.pid}.jsonl`), `${JSON.stringify(row)}\n`);
    return row;
  }

  /** Every count is 0 (the message lists the problems found). */
  get clean(): boolean {
    return this.cleanBut();
  }

  /** Every count but those of `known` (a gap being fixed, shown all the same) is 0. */
  cleanBut(...known: Count[]): boolean {
    return (Object.entries(this.counts) as Array<[Count, number]>).every(
      ([kind, n]) => n === 0 || known.includes(kind),
    );
  }

  summary(): string {
    return `${this.scenario}: ${this.trials} trials, ${JSON.stringify(this.counts)}\n${this.problems.join('\n')}`;
  }
}

function figuresDir(): string | undefined {
  try {
    return inject('figuresDir');
  } catch {
    return undefined; // run without the global set-up (a single file under another config)
  }
}

/** The rows as a table for a terminal. */
export function renderTable(rows: readonly Row[]): string {
  const head = [
    'scenario',
    'trials',
    'torn',
    'lost',
    'stray temp',
    'corrupt state',
    'escapes',
    'crashes',
    'wrong lines',
    'wrong restores',
    'wrong refusals',
    'missed refusals',
    'history out of step',
    'seconds',
  ];
  const body = rows.map((r) => [
    r.scenario,
    String(r.trials),
    ...(
      [
        'torn',
        'lost',
        'strayTemp',
        'corruptState',
        'escapes',
        'crashes',
        'wrongLines',
        'wrongRestores',
        'wrongRefusals',
        'missedRefusals',
        'historyOutOfStep',
      ] as const
    ).map((k) => String(r.counts[k] ?? 0)),
    (r.ms / 1000).toFixed(1),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  return [
    line(head),
    `|${widths.map((w, i) => (i === 0 ? ':' : '') + '-'.repeat(w + 1) + (i === 0 ? '' : ':')).join('|')}|`,
    ...body.map(line),
  ].join('\n');
}
