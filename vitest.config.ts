import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Prints the reliability figures (test/stress) at the end of the run.
    globalSetup: ['test/stress/globalSetup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // End-to-end tests spawn the built binary; two cores are all these machines have.
    maxWorkers: 2,
  },
});
