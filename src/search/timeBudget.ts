// A bound on the time a search spends matching. A JavaScript regular expression can backtrack
// for exponential time ((a+)+$ on a long line of a's ending otherwise), and a running match can
// be stopped by nothing in JavaScript: V8 stops it when vm's timeout runs out, which is how this
// bounds it (node:vm, loaded by the first search that needs it, and one timer for many files,
// not one each: some 40 µs a timer).
//
// What is stopped does not unwind: no catch or finally block runs. The steps given here must
// therefore leave nothing half done that matters: they read and compute, and write nothing (a
// file left open is closed by the exit; the working directory, which reading within a folder
// changes, is set back here).

/** The steps did not end within their budget: the step that was running, and the whole budget (ms). */
export class OutOfTime extends Error {
  constructor(
    readonly step: number,
    readonly budgetMs: number,
  ) {
    super(`step ${step} took more than ${budgetMs} ms`);
  }
}

/** The name under which the steps run, for the one line of script that calls them. */
const RUN = '__rtStepsInTime';

let script: import('node:vm').Script | undefined;

/**
 * Runs `step(0)` … `step(count - 1)` in order, all of them within `baseMs` and the allowance
 * of each step run (`allowanceMs(i)`, asked for only when the time is checked); throws
 * OutOfTime for the step running when that is spent (the steps before it have run). One timer
 * runs many steps: when it runs out while time remains (the steps it ran brought their own
 * allowances), the step it stopped is run again from its start under a timer of what remains,
 * once `stopped` is told (the working directory is set back first).
 *
 * The time counted is this process's CPU time, so that a machine busy with other work does not
 * stop a search that would end in time on its own: the timer (which counts the clock's time) is
 * set to what remains times the pace last seen, the clock's milliseconds a CPU millisecond took
 * while a timer ran (1 on an idle machine, where this is the clock's bound as before).
 */
export function stepsInTime(
  count: number,
  step: (i: number) => void,
  allowanceMs: (i: number) => number,
  baseMs: number,
  stopped: () => void = () => undefined,
): void {
  const cwd = process.cwd();
  const started = cpuMs();
  let granted = baseMs;
  let grantedThrough = -1;
  const remaining = (through: number) => {
    for (; grantedThrough < through; grantedThrough++) granted += allowanceMs(grantedThrough + 1);
    return started + granted - cpuMs();
  };
  let pace = 1;
  let next = 0;
  while (next < count) {
    const left = remaining(next);
    if (left <= 0) throw new OutOfTime(next, granted);
    const [wall, cpu] = [Date.now(), cpuMs()];
    try {
      inTime(() => {
        for (; next < count; next++) step(next);
      }, left * pace);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw error;
      if (process.cwd() !== cwd) process.chdir(cwd);
      stopped();
      pace = Math.min(MAX_PACE, Math.max(1, (Date.now() - wall) / Math.max(1, cpuMs() - cpu)));
    }
  }
}

/** The most clock time a CPU millisecond is given: a search on a machine that busy may be stopped early. */
const MAX_PACE = 20;

/** This process's CPU time, in ms. */
export function cpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

/** Runs `body`, stopping it (ERR_SCRIPT_EXECUTION_TIMEOUT) after `ms` milliseconds. */
function inTime(body: () => void, ms: number): void {
  const vm = process.getBuiltinModule('node:vm');
  script ??= new vm.Script(`globalThis.${RUN}()`);
  const holder = globalThis as unknown as Record<string, (() => void) | undefined>;
  holder[RUN] = body;
  try {
    script.runInThisContext({ timeout: Math.max(1, Math.ceil(ms)) });
  } finally {
    holder[RUN] = undefined;
  }
}
