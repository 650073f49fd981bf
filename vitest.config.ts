import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'
import { SlowFirstSequencer } from './tests/setup/slowFirstSequencer'

// Unit and validation files that change process-wide state another file would see: a solver
// family registered from outside (its parameters join every domain's spec table) and an
// environment variable. They run isolated, each in a process of its own; the rest share a
// process per worker (below).
const ISOLATED = ['tests/unit/sim/pluginFamily.test.ts', 'tests/unit/sim/conformance.test.ts', 'tests/unit/farm/farmWedge.test.ts']
const UNIT = {
  include: ['tests/unit/**/*.test.ts', 'tests/validation/**/*.test.ts'],
  setupFiles: ['tests/setup/registerFamilies.ts', 'tests/setup/typedArrayEquality.ts'],
  environment: 'node' as const,
  testTimeout: 60_000,
  // One test file per core (vitest's default leaves one core to its own process, which
  // mostly waits): on the 2-core CI machine unit tests take 13.5 min instead of 19.
  maxWorkers: availableParallelism(),
  // One kernel thread per file by default (src-main/sim/kernelCores.ts), since each core
  // already runs a file: beside another file, a 2-thread file's pool waited for the core that
  // file held (the smoke transport file took 88 s in CI against 26 alone). Tests of the
  // threads themselves ask for their thread counts.
  env: { EDDY_THREADS: '1' },
}

export default defineConfig({
  test: {
    // Longest test files first (tests/setup/slowFirstSequencer.ts says why).
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        // Files run one after another in a process per worker, sharing its loaded modules:
        // importing the solvers again for each of 230 files was about a fifth of the suite's
        // time (the whole suite 12.0 minutes here instead of 15.6 in the last isolated CI, on 2 cores).
        test: { ...UNIT, name: 'unit', exclude: ISOLATED, isolate: false },
      },
      {
        test: { ...UNIT, name: 'unit-isolated', include: ISOLATED },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          setupFiles: ['tests/setup/registerFamilies.ts', 'tests/setup/typedArrayEquality.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 120_000,
          // expect.poll waits on the UI's state (an edit reaching the services and the outliner
          // redrawn): vitest's default 1 s was too short once SwiftShader drew a heavy scene on
          // a loaded machine. A poll that passes returns at once, so this only slows failures.
          expect: { poll: { timeout: 10_000 } },
          fileParallelism: false,
          // The host's bakes on one kernel thread (src-main/sim/kernelCores.ts): Chromium's
          // software GPU keeps about a core busy beside them on the 2-core CI machine (the
          // liquid, rigid-body and long-bake files: 129 s with 2 threads, 117 with 1).
          env: { EDDY_THREADS: '1' },
        },
      },
    ],
  },
})
