// `eddy bench surface`: steps the surface flow solver (Stam 2003) on two cages and prints steps
// per second:
//   - 450 patches x 32^2, the size of the paper's head model (about 450 patches at 32 x 32, one
//     frame every 5 s on a 1 GHz Pentium III): the boundary of a 9 x 9 x 8 block of cubes, whose
//     450 quads are the patches (its corners are valence-3 extraordinary vertices);
//   - a cube cage at 6 x 32^2 cells: a cube's quads each touch four valence-3 vertices, so it is
//     subdivided once into 24 patches, at 16^2 each (the same 6,144 cells).
// Each step is the solver's whole step (1/30 s) with three densities painted as blobs, gravity
// of 1 m/s^2 along -y scaled by the density, and a little diffusion, from a swirl of half a
// patch a second. Setup (limit evaluation of the metric, matrix assembly) is
// printed apart, and so is the first step: it builds the diffusion systems and the solvers'
// vectors and first touches their memory (about 0.3-0.45 s at 450 x 32^2, against 0.14-0.2 s
// for a later step), a cost a run pays once, which would otherwise weigh a tenth in a
// ten-step average. Figures only, never a verdict.
import { buildLimitSurface } from '../../src-shared/geometry/catmullClarkEval'
import { buildPatchAtlas } from '../../src-shared/geometry/patchAtlas'
import { sphereLikeCage, voxelCage } from '../../src-shared/geometry/voxelCages'
import type { PolyMesh } from '../../src-shared/geometry/catmullClark'
import { SurfaceFluid } from '../../src-shared/sim/surface/surfaceFluid'
import { TS_KERNELS } from '../../src-shared/sim/core/kernelBackend'
import type { KernelBackend } from '../../src-shared/sim/core/kernelTypes'
import { kernelsLine } from './liquidBenchLoop'

export interface SurfaceBenchOptions {
  /** Cells per patch edge on the 450-patch cage. */
  N: number
  steps: number
  /** Where the linear solves run (default TypeScript). */
  kernels?: KernelBackend
}

/** The paper's figure: one frame every 5 s at ~450 patches x 32^2 (sec. 5). */
export const PAPER_SECONDS_PER_STEP = 5

function headSizedCage(): PolyMesh {
  const cells: [number, number, number][] = []
  for (let i = 0; i < 9; i++) for (let j = 0; j < 8; j++) for (let k = 0; k < 9; k++) cells.push([i, j, k])
  return voxelCage(cells, 1 / 9)
}

function run(cage: PolyMesh, N: number, steps: number, kernels: KernelBackend): { patches: number; setupMs: number; firstStepMs: number; msPerStep: number; iterations: number; phases: Record<string, number> } {
  const t0 = performance.now()
  const S = buildLimitSurface(cage)
  const fluid = new SurfaceFluid(S, buildPatchAtlas(S.faces), { N, densities: 3, kernels })
  const setupMs = performance.now() - t0
  // A swirl to start from: u^1 = 0.5, u^2 = 0.25 patch widths a second on every face, projected.
  const sx = fluid.metric.xFaces.sqrtG, sy = fluid.metric.yFaces.sqrtG
  for (let f = 0; f < fluid.fx.length; f++) fluid.fx[f] = 0.5 * sx[f]
  for (let f = 0; f < fluid.fy.length; f++) fluid.fy[f] = 0.25 * sy[f]
  fluid.project()
  // Three colours painted at three points of the surface (cell centres of three patches).
  const pos = fluid.metric.positions, g = fluid.grid
  for (let d = 0; d < fluid.density.length; d++) {
    const c = g.cell(Math.floor((d * g.P) / 3), g.N >> 1, g.N >> 1)
    fluid.addSource(d, [pos[3 * c], pos[3 * c + 1], pos[3 * c + 2]], 0.3, 0.1)
  }
  const step = () => fluid.step(1 / 30, { gravity: [0, -1, 0] }, 1e-4)
  const t1 = performance.now()
  step()
  const firstStepMs = performance.now() - t1
  const before = { ...fluid.phaseMs }
  const t2 = performance.now()
  let iterations = 0
  for (let s = 0; s < steps; s++) {
    step()
    iterations += fluid.lastProjection.iterations
  }
  const phases: Record<string, number> = {}
  for (const [name, ms] of Object.entries(fluid.phaseMs)) phases[name] = (ms - before[name as keyof typeof before]) / steps
  return { patches: fluid.grid.P, setupMs, firstStepMs, msPerStep: (performance.now() - t2) / steps, iterations: iterations / steps, phases }
}

export function benchSurface(o: SurfaceBenchOptions, log: (line: string) => void): Record<string, unknown> {
  log(`eddy bench surface: ${o.steps} steps each after a first one, three densities, gravity, diffusion`)
  const kernels = o.kernels ?? TS_KERNELS
  log(kernelsLine(kernels))
  const head = run(headSizedCage(), o.N, o.steps, kernels)
  const headCells = head.patches * o.N * o.N
  log(`| cage | patches x cells | setup s | first step ms | ms/step | steps/s | PCG iterations/step |`)
  log(`|---|---|---|---|---|---|---|`)
  log(`| 9x9x8 block (the paper's head size) | ${head.patches} x ${o.N}^2 = ${headCells} | ${(head.setupMs / 1000).toFixed(1)} | ${head.firstStepMs.toFixed(0)} | ${head.msPerStep.toFixed(0)} | ${(1000 / head.msPerStep).toFixed(2)} | ${head.iterations.toFixed(0)} |`)
  const cube = run(sphereLikeCage(), 16, o.steps, kernels)
  log(`| cube (6 x 32^2 cells) | ${cube.patches} x 16^2 = ${cube.patches * 256} | ${(cube.setupMs / 1000).toFixed(1)} | ${cube.firstStepMs.toFixed(0)} | ${cube.msPerStep.toFixed(0)} | ${(1000 / cube.msPerStep).toFixed(2)} | ${cube.iterations.toFixed(0)} |`)
  log(`\nms a step by phase, head-sized cage: ${Object.entries(head.phases).map(([name, ms]) => `${name} ${ms.toFixed(1)}`).join(', ')}`)
  const ratio = head.msPerStep / 1000 / PAPER_SECONDS_PER_STEP
  log(`head-sized cage: ${(head.msPerStep / 1000).toFixed(2)} s/step against the paper's ${PAPER_SECONDS_PER_STEP} s on a 1 GHz Pentium III: ratio ${ratio.toFixed(3)} (Eddy / paper); the issue's aim is 30 steps/s`)
  return {
    scene: 'surface',
    kernels: kernels.kind,
    threads: kernels.threads,
    patches: head.patches,
    N: o.N,
    cells: headCells,
    steps: o.steps,
    setupMs: head.setupMs,
    firstStepMs: head.firstStepMs,
    msPerStep: head.msPerStep,
    stepsPerSecond: 1000 / head.msPerStep,
    pcgIterationsPerStep: head.iterations,
    phaseMsPerStep: head.phases,
    paperSecondsPerStep: PAPER_SECONDS_PER_STEP,
    ratioToPaper: ratio,
    cube: { patches: cube.patches, cells: cube.patches * 256, msPerStep: cube.msPerStep, stepsPerSecond: 1000 / cube.msPerStep },
  }
}
