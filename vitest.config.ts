import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Prints the reliability figures (test/stress) at the end of the run.
    globalSetup: ['test/stress/globalSetup.ts'],
    // A guard against a hang, not a speed goal: on a busy two-core machine (other work beside
    // the suite) an end-to-end test that spawns rt a hundred times takes minutes.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // End-to-end tests spawn the built binary; two cores are all these machines have.
    maxWorkers: 2,
  },
});
