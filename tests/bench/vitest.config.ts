// Benchmarks print figures and never fail on time; they are outside the unit project.
// Run: npx vitest run --config tests/bench/vitest.config.ts [file filter]
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['tests/bench/**/*.bench.ts'],
    setupFiles: ['tests/setup/registerFamilies.ts', 'tests/setup/typedArrayEquality.ts'],
    environment: 'node',
    testTimeout: 1_800_000,
    // The scrubbing benches write a 128^3 project and start the host and Chromium first.
    hookTimeout: 300_000,
    expect: { poll: { timeout: 10_000 } },
    fileParallelism: false,
  },
})
