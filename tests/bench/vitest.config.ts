// Benchmarks print figures and never fail on time; they are outside the unit project.
// Run: npx vitest run --config tests/bench/vitest.config.ts [file filter]
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['tests/bench/**/*.bench.ts'],
    setupFiles: ['tests/setup/registerFamilies.ts'],
    environment: 'node',
    testTimeout: 1_800_000,
    fileParallelism: false,
  },
})
