// `eddy bench liquid|viscous|bunny`: bakes a liquid scene in this process through the same
// createBakeSolver the bake runner uses, surface mesh included, and prints ms/frame by phase.
//   liquid:  the dam break of ../shared/peers/blender_liquid.py (examples/damBreak.ts);
//   viscous: the same plus a viscosity (blender_viscous.py; Blender's default strength 0.2);
//   bunny:   the melting-bunny example at the thesis grid (35 x 28 x 38 at resolution 38), to
//            set next to Carlson 2004's 0.55 s/frame (Table 6).
// Frames are stepped as a bake steps them (frame f of the output is one frame after f - 1)
// but nothing is written to a cache, so disk time is not in the figure (Blender's includes
// writing its VDB and mesh caches). Figures only, never a verdict.
import { damBreakScene } from '../../src-shared/scene/examples/damBreak'
import { meltingBunnyScene } from '../../src-shared/scene/examples/meltingBunny'
import type { ExampleScene } from '../../src-shared/scene/examples/types'
import type { PressurePreconditioner, ViscousPreconditioner } from '../../src-shared/sim/liquid/liquidInput'
import { LIQUID_PHASES } from '../../src-shared/sim/liquid/liquidSolver'
import { type KernelBackend, TS_KERNELS } from '../../src-shared/sim/core/kernelBackend'
import { kernelsLine, liquidBenchSolver, machineLine, stepLiquidFrames } from './liquidBenchLoop'

export const LIQUID_BENCH_SCENES = ['liquid', 'viscous', 'bunny'] as const
export type LiquidBenchScene = (typeof LIQUID_BENCH_SCENES)[number]

export interface LiquidBenchOptions {
  scene: LiquidBenchScene
  res: number
  frames: number
  /** viscous only: kinematic viscosity, m²/s. */
  viscosity: number
  /** The viscous solve's preconditioner (default 'auto', as the app bakes). */
  viscousPreconditioner?: ViscousPreconditioner
  /** The pressure solve's preconditioner (default auto, as the app bakes). */
  pressurePreconditioner?: PressurePreconditioner
  /** Where the liquid's kernel-table rows run (the marker move); default the TypeScript reference. */
  kernels?: KernelBackend
}

/** Solver phases in the order a substep runs them (then the mesh, timed here). */
const PHASES = LIQUID_PHASES

function sceneFor(o: LiquidBenchOptions): ExampleScene {
  if (o.scene === 'bunny') return meltingBunnyScene({ resolution: o.res })
  return damBreakScene({ resolution: o.res, viscosity: o.scene === 'viscous' ? o.viscosity : 0 })
}

export function benchLiquid(o: LiquidBenchOptions, log: (line: string) => void): Record<string, unknown> {
  const scene = sceneFor(o)
  const { doc } = scene
  const pre = o.viscousPreconditioner ?? 'auto'
  const kernels = o.kernels ?? TS_KERNELS
  const pressure = o.pressurePreconditioner ?? 'auto'
  const { solver, setupMs, domain } = liquidBenchSolver(scene, { viscousPreconditioner: pre, pressurePreconditioner: pressure, kernels, shared: kernels.kind === 'wasm' })
  const what = (o.scene === 'viscous' ? `, viscosity ${o.viscosity} m²/s (full stress)` : '') + (o.scene === 'liquid' ? '' : `, viscous preconditioner ${pre}`) + `, pressure preconditioner ${pressure}`
  log(`eddy bench ${o.scene}: ${solver.layout}, ${o.frames} frames at ${doc.meta.fps} fps${what}, surface mesh on (x${domain.params.meshRefinement})`)
  log(`${machineLine()}; ${kernelsLine(kernels)}`)
  const run = stepLiquidFrames(solver, o.frames)
  const { wall, substeps, pressureIterations, viscosityIterations, particles, triangles } = run
  const totals: Record<string, number> = { ...run.phases, surface: run.frame }
  // The first frame's setup (SDFs of meshes, seeding) is in the bake's time as in Blender's.
  const msPerFrame = (wall + setupMs) / o.frames
  const simMsPerFrame = (wall - totals.surface + setupMs) / o.frames
  log(`\n| phase | ms/frame | share |\n|---|---|---|`)
  for (const p of [...PHASES, 'surface']) log(`| ${p} | ${(totals[p] / o.frames).toFixed(1)} | ${((100 * totals[p]) / wall).toFixed(0)}% |`)
  // Input compilation, the CFL and blow-up checks and the end-of-step redistance are outside the phases.
  const other = wall - Object.values(totals).reduce((a, b) => a + b, 0)
  log(`| other (input, checks, redistance) | ${(other / o.frames).toFixed(1)} | ${((100 * other) / wall).toFixed(0)}% |`)
  log(`| setup (once, spread over the frames) | ${(setupMs / o.frames).toFixed(1)} | |`)
  log(`| total (wall) | ${msPerFrame.toFixed(1)} | 100% |`)
  log(
    `\nsubsteps/frame ${(substeps / o.frames).toFixed(2)}, pressure iterations/substep ${(pressureIterations / Math.max(1, substeps)).toFixed(1)}, ` +
      `viscosity iterations/substep ${(viscosityIterations / Math.max(1, substeps)).toFixed(1)}, particles at end ${particles}, surface triangles at end ${triangles}`,
  )
  return {
    scene: o.scene,
    res: o.res,
    layout: solver.layout,
    frames: o.frames,
    ...(o.scene === 'viscous' ? { viscosity: o.viscosity } : {}),
    viscousPreconditioner: pre,
    pressurePreconditioner: pressure,
    kernels: kernels.kind,
    threads: kernels.threads,
    msPerFrame,
    simMsPerFrame,
    phaseMsPerFrame: { ...Object.fromEntries([...PHASES, 'surface'].map((p) => [p, totals[p] / o.frames])), other: other / o.frames },
    setupMs,
    substepsPerFrame: substeps / o.frames,
    pressureIterationsPerSubstep: pressureIterations / Math.max(1, substeps),
    viscosityIterationsPerSubstep: viscosityIterations / Math.max(1, substeps),
    particles,
    triangles,
  }
}
