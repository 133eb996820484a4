// The full form of the reliability suite (npm run stress): the scenarios of test/stress with
// the counts and sizes of RT_STRESS=full, one file at a time so that their figures are not
// skewed by each other.

import path from 'node:path';
import { defineConfig } from 'vitest/config';

process.env.RT_STRESS ??= 'full';

export default defineConfig({
  root: path.resolve(import.meta.dirname, '../..'),
  test: {
    include: ['test/stress/**/*.test.ts'],
    globalSetup: ['test/stress/globalSetup.ts'],
    testTimeout: 1_200_000,
    hookTimeout: 120_000,
    maxWorkers: 1,
    fileParallelism: false,
  },
});
