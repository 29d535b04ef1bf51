import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine. Most test files
    // spend their time waiting on child processes, fsync and local servers, so there two run beside
    // each other in about 0.75x the wall time (338-366 s against 478 s), well under 10 minutes.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
