// Matching is bounded in time (src/search/timeBudget.ts): a regular expression that backtracks for
// ever is stopped, and steps that are merely many are not. The time is the process's CPU time.

import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { OutOfTime, stepsInTime } from '../../src/search/timeBudget.js';

/** Busy for `ms` milliseconds of this process's CPU time (what the budget counts). */
function busy(ms: number): void {
  const cpu = () => {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  };
  const end = cpu() + ms;
  while (cpu() < end);
}

describe('stepsInTime', () => {
  it('runs every step, in order', () => {
    const ran: number[] = [];
    stepsInTime(
      5,
      (i) => ran.push(i),
      () => 0,
      1000,
    );
    expect(ran).toEqual([0, 1, 2, 3, 4]);
  });

  it('stops a regular expression that backtracks without end, naming its step', () => {
    const line = `${'a'.repeat(40)}b`;
    let error: unknown;
    try {
      stepsInTime(
        3,
        (i) => void (i === 1 && /(a+)+$/.test(line)),
        () => 100,
        100,
      );
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(OutOfTime);
    expect((error as OutOfTime).step).toBe(1);
    // The base and the allowances of steps 0 and 1.
    expect((error as OutOfTime).budgetMs).toBe(300);
  });

  it('gives the steps their allowances: many steps may take longer than the base in all', () => {
    let done = 0;
    stepsInTime(
      12,
      () => {
        busy(40);
        done++;
      },
      () => 100,
      100,
    );
    expect(done).toBeGreaterThanOrEqual(12);
  });

  it('bounds the whole: steps each within an allowance but together past the budget are stopped', () => {
    expect(() =>
      stepsInTime(
        40,
        () => busy(80),
        () => 0,
        500,
      ),
    ).toThrow(OutOfTime);
  });

  it(
    'counts CPU time: a step that waits longer than the ' +
      'budget without computing (the machine busy elsewhere) ends',
    () => {
      const cell = new Int32Array(new SharedArrayBuffer(4));
      let done = 0;
      stepsInTime(
        1,
        () => {
          Atomics.wait(cell, 0, 0, 600);
          done++;
        },
        () => 0,
        300,
      );
      expect(done).toBeGreaterThanOrEqual(1);
    },
  );

  it('sets the working directory back when a step is stopped in another', () => {
    const cwd = process.cwd();
    expect(() =>
      stepsInTime(
        1,
        () => {
          process.chdir(os.tmpdir());
          busy(5000);
        },
        () => 0,
        100,
      ),
    ).toThrow(OutOfTime);
    expect(process.cwd()).toBe(cwd);
  });

  it('tells `stopped` of a step stopped to be run again, from the working directory set back', () => {
    const cwd = process.cwd();
    const cell = new Int32Array(new SharedArrayBuffer(4));
    const startedIn: string[] = [];
    let stops = 0;
    stepsInTime(
      1,
      () => {
        startedIn.push(process.cwd());
        process.chdir(os.tmpdir());
        // The first run waits past the timer (no CPU spent): stopped, and run again.
        if (startedIn.length === 1) Atomics.wait(cell, 0, 0, 600);
      },
      () => 0,
      300,
      () => stops++,
    );
    process.chdir(cwd);
    expect(stops).toBeGreaterThanOrEqual(1);
    expect(startedIn.length).toBe(stops + 1);
    expect(new Set(startedIn)).toEqual(new Set([cwd]));
  });

  it('lets other errors through', () => {
    expect(() =>
      stepsInTime(
        1,
        () => {
          throw new Error('boom');
        },
        () => 0,
        1000,
      ),
    ).toThrow('boom');
  });
});
