import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'
import { SlowFirstSequencer } from './tests/setup/slowFirstSequencer'

export default defineConfig({
  test: {
    // Longest test files first (tests/setup/slowFirstSequencer.ts says why).
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts', 'tests/validation/**/*.test.ts'],
          setupFiles: ['tests/setup/registerFamilies.ts'],
          environment: 'node',
          testTimeout: 60_000,
          // One test file per core (vitest's default leaves one core to its own process, which
          // mostly waits): on the 2-core CI machine unit tests take 13.5 min instead of 19.
          maxWorkers: availableParallelism(),
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          setupFiles: ['tests/setup/registerFamilies.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
})
