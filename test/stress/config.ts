// The two forms of the reliability suite: the quick one runs inside `npm test` (small counts,
// a minute at most on two cores); the full one (`npm run stress`, RT_STRESS=full) runs the same
// scenarios with the counts and sizes the issue asks for.

export const FULL = process.env.RT_STRESS === 'full';

/** A count or size: the quick form's, or the full form's. */
export function pick<T>(quick: T, full: T): T {
  return FULL ? full : quick;
}

/** Seed of every random choice, printed with the figures so that a failure repeats (RT_STRESS_SEED overrides). */
export const SEED = Number(process.env.RT_STRESS_SEED ?? 20261122) >>> 0;

/** A small seeded generator (LCG): the same seed, the same trials. */
export function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Timeout of a test that runs a scenario: generous, for a machine busy with other work. */
export const SCENARIO_TIMEOUT = pick(240_000, 1_200_000);
