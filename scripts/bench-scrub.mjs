// `npm run bench:scrub`: the scrubbing benchmarks in headless Chromium against the headless
// host, over cached 128^3 smoke (tests/bench/scrub.bench.ts with Playwright,
// tests/bench/scrubBare.bench.ts with Chromium driven bare): playback and random jumps, from a
// playhead move to the frame on the GPU, p50 and p95 printed. Figures only (issue 19's aim: a
// 95th percentile under 50 ms); each checks that the frame shown is the frame under the
// playhead. Installs and builds what is missing first, as npm test does.
import { join } from 'node:path'
import { CHROMIUM, ROOT, ensureBuild, ensureDebianPackages, ensureNodeModules, run } from './lib/ensure.mjs'

ensureNodeModules()
ensureDebianPackages([CHROMIUM])
ensureBuild()
const filter = process.argv.slice(2)
process.exit(run(join(ROOT, 'node_modules/.bin/vitest'), ['run', '--config', 'tests/bench/vitest.config.ts', ...(filter.length ? filter : ['scrub'])]))
