// How many cases a property test tries. The default suite tries a fifth of a property's full
// count, so that it passes in minutes on a busy two-core machine; `npm run stress`
// (RT_STRESS=full) runs the same property files with their full counts.

const FULL = process.env.RT_STRESS === 'full';

/** The number of runs for a property whose full count is `full`. */
export function runs(full: number): number {
  return FULL ? full : Math.max(1, Math.ceil(full / 5));
}
