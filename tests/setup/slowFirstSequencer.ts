// Test files in order of how long they take, longest first, so the two workers of the 2-core
// CI machine finish together. Vitest orders by its own cache of durations, but a fresh clone
// has none, and then it orders by file size. The longest file (the tetrahedral dam break,
// about 4.5 minutes) is a small file, so it started 14 minutes into the run and finished
// alone, about 2.5 minutes after every other file. Files in SLOW (seconds each took in a full
// unit run on the 2-core machine, 2026-12-07, one kernel thread a file, those of about 15 s
// or more) go first, longest first. The rest keep vitest's order.
// To refresh the table, read the durations (endTime - startTime) from
// test-results/vitest-unit.json after `npm test`.
import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

const SLOW = new Map<string, number>([
  ['tests/unit/bake/bigGrid.test.ts', 141],
  ['tests/validation/tetliquid/stillPool.test.ts', 98],
  ['tests/validation/tetliquid/standingWave.test.ts', 82],
  ['tests/unit/farm/farmWedge.test.ts', 69],
  ['tests/validation/surface/surfaceFlow.test.ts', 69],
  ['tests/unit/geometry/tetmesh.test.ts', 65],
  ['tests/validation/tetliquid/damBreakVolume.test.ts', 62],
  ['tests/validation/rigidfluid/rigidFluid.test.ts', 60],
  ['tests/validation/hybrid/smokeBudget.test.ts', 54],
  ['tests/unit/cli/exampleAndLiquidBench.test.ts', 51],
  ['tests/unit/bake/bakeUpdates.test.ts', 45],
  ['tests/validation/rigidfluid/momentum.test.ts', 42],
  ['tests/validation/smoke/transport.test.ts', 39],
  ['tests/validation/hybrid/rampJet.test.ts', 36],
  ['tests/unit/sim/amgTetmesh.test.ts', 30],
  ['tests/unit/geometry/catmullClarkBoundaryFan.test.ts', 24],
  ['tests/unit/farm/slurmEngine.test.ts', 23],
  ['tests/validation/liquid/viscousBlock.test.ts', 23],
  ['tests/unit/sim/amg.test.ts', 23],
  ['tests/validation/core/multigrid.test.ts', 23],
  ['tests/validation/smoke/vortexParticleForce.test.ts', 23],
  ['tests/unit/sim/tetliquid/contouring.test.ts', 22],
  ['tests/validation/rigidfluid/spin.test.ts', 19],
  ['tests/unit/geometry/tetLocator.test.ts', 17],
  ['tests/unit/cli/render.test.ts', 17],
  ['tests/validation/hybrid/movingSphere.test.ts', 16],
  ['tests/validation/core/advection.test.ts', 15],
  ['tests/validation/liquid/standingWave.test.ts', 15],
])

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files)
    const root = this.ctx.config.root
    const seconds = (s: TestSpecification) => SLOW.get(relative(root, s.moduleId).split('\\').join('/')) ?? 0
    // Array.prototype.sort is stable: equal (unlisted) files keep vitest's order. Projects stay
    // apart: only files of one project are compared (npm test runs them one at a time anyway),
    // the unit files and the isolated unit files counting as one.
    const group = (s: TestSpecification) => s.project.name.replace(/-isolated$/, '')
    return ordered
      .map((s, i) => ({ s, i }))
      .sort((a, b) => (group(a.s) !== group(b.s) ? a.i - b.i : seconds(b.s) - seconds(a.s) || a.i - b.i))
      .map(({ s }) => s)
  }
}
