// The full form of the reliability suite (npm run stress): the scenarios of test/stress with
// the counts and sizes of RT_STRESS=full, one file at a time so that their figures are not
// skewed by each other, and the property tests with their full counts (test/support/runs.ts;
// the default suite tries a fifth of them).

import fs from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

process.env.RT_STRESS ??= 'full';

const root = path.resolve(import.meta.dirname, '../..');

/** The test files whose properties count their runs with runs(). */
function propertyTests(): string[] {
  const files = fs.readdirSync(path.join(root, 'test'), { recursive: true, encoding: 'utf8' });
  return files
    .filter((f) => f.endsWith('.test.ts') && !f.startsWith('stress'))
    .filter((f) => fs.readFileSync(path.join(root, 'test', f), 'utf8').includes("support/runs.js'"))
    .map((f) => `test/${f}`);
}

export default defineConfig({
  root,
  test: {
    include: ['test/stress/**/*.test.ts', ...propertyTests()],
    globalSetup: ['test/stress/globalSetup.ts'],
    testTimeout: 1_200_000,
    hookTimeout: 120_000,
    maxWorkers: 1,
    fileParallelism: false,
  },
});
