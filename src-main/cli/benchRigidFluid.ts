// `eddy bench rigidfluid`: bakes the gears-and-bunnies example (Carlson 2004 Fig. 22: eight
// metal gears thrown into a pool holding three wooden bunnies) at the thesis's grid,
// 64 x 68 x 64 (resolution 68), at the thesis's 60 frames a second, and prints seconds per
// frame split as Tables 8 and 9 split it:
//   coupling: the liquid solver's 'rigid' phase (the rigid solver's step, rasterising the
//             bodies, eqs. 70-71 and the rigid projection 77-80; frame stats msRigid);
//   surface:  the 'levelSet' phase plus building the frame (the end-of-step redistance and the
//             surface mesh, when the example's Surface mesh is on, as it is);
//   fluid:    everything else (particles to grid, extension, viscosity, pressure, advection,
//             input and checks).
// Set next to the thesis's 28 s a frame (sec. 5.7.2: the optimised Gears & Bunnies run, 4 h 6 m
// for 8 s at 60 fps, Table 9; 1 h 9 m for its first second, Table 8, 69 s a frame) on a 2.8 GHz
// Pentium 4. Frames are stepped as a bake steps them, nothing is written to a cache. The
// default 12 frames (0.2 s) cover the gears' fall and their entry into the water, not the
// thesis's 8 s. Figures only, never a verdict.
import { GEARS_THESIS_RESOLUTION, gearsAndBunniesScene } from '../../src-shared/scene/examples/gearsAndBunnies'
import { LIQUID_PHASES } from '../../src-shared/sim/liquid/liquidSolver'
import type { PressurePreconditioner } from '../../src-shared/sim/liquid/liquidInput'
import { type KernelBackend, TS_KERNELS } from '../../src-shared/sim/core/kernelBackend'
import { kernelsLine, liquidBenchSolver, machineLine, stepLiquidFrames } from './liquidBenchLoop'

export interface RigidFluidBenchOptions {
  /** Cells along the tank's height (68: the thesis's 64 x 68 x 64). */
  res: number
  frames: number
  /** Where the liquid's kernel-table rows run (the marker move); default the TypeScript reference. */
  kernels?: KernelBackend
  /** The pressure solve's preconditioner (default auto, as the app bakes). */
  pressurePreconditioner?: PressurePreconditioner
}

/** The thesis's figure to compare with: optimised Gears & Bunnies, s per 60 fps frame (sec. 5.7.2). */
export const THESIS_SECONDS_PER_FRAME = 28
/** Its first second alone (Table 8, optimised: 1 h 9 m for 60 frames). */
export const THESIS_FIRST_SECOND_PER_FRAME = 69
/** Table 9's split of the optimised run (coupling, fluid, level set), for the printout. */
const THESIS_SHARES = { coupling: 9, fluid: 74, surface: 17 }
export const BENCH_FPS = 60
export const DEFAULT_BENCH_FRAMES = 12

export function benchRigidFluid(o: RigidFluidBenchOptions, log: (line: string) => void): Record<string, unknown> {
  const { doc, meshes } = gearsAndBunniesScene({ resolution: o.res })
  // The thesis's frame: 1/60 s (its timings enforced 60 fps).
  doc.meta = { ...doc.meta, fps: BENCH_FPS }
  const bodies = doc.objects.filter((x) => x.kind === 'rigidBody').length
  const kernels = o.kernels ?? TS_KERNELS
  const pressure = o.pressurePreconditioner ?? 'auto'
  const { solver, setupMs, domain } = liquidBenchSolver({ doc, meshes }, { kernels, shared: kernels.kind === 'wasm', pressurePreconditioner: pressure })
  const thesisGrid = o.res === GEARS_THESIS_RESOLUTION ? " (the thesis's grid)" : ''
  log(`eddy bench rigidfluid: gears-and-bunnies, ${solver.layout}${thesisGrid}, ${bodies} rigid bodies, ${o.frames} frames at ${BENCH_FPS} fps, surface mesh ${domain.params.meshSurface ? `on (x${domain.params.meshRefinement})` : 'off'}, pressure preconditioner ${pressure}`)
  log(`${machineLine()}; ${kernelsLine(kernels)}`)
  const run = stepLiquidFrames(solver, o.frames)
  const { wall, substeps, pressureIterations, particles, triangles } = run
  const totals: Record<string, number> = { ...run.phases, frame: run.frame }
  const perFrame = (ms: number) => ms / o.frames
  const coupling = totals.rigid
  const surface = totals.levelSet + totals.frame
  const fluid = wall - coupling - surface
  const msPerFrame = (wall + setupMs) / o.frames
  const ratio = msPerFrame / 1000 / THESIS_SECONDS_PER_FRAME
  log(`\n| phase | ms/frame | share |\n|---|---|---|`)
  for (const p of LIQUID_PHASES) log(`| ${p} | ${perFrame(totals[p]).toFixed(1)} | ${((100 * totals[p]) / wall).toFixed(0)}% |`)
  log(`| frame (redistance, surface mesh) | ${perFrame(totals.frame).toFixed(1)} | ${((100 * totals.frame) / wall).toFixed(0)}% |`)
  const other = wall - Object.values(totals).reduce((a, b) => a + b, 0)
  log(`| other (input, checks) | ${perFrame(other).toFixed(1)} | ${((100 * other) / wall).toFixed(0)}% |`)
  log(`\nAs Carlson 2004 Tables 8-9 split it (coupling = rigid; surface = levelSet + frame; fluid = the rest):`)
  log(`| part | s/frame | share | thesis share (Table 9, optimised) |\n|---|---|---|---|`)
  log(`| coupling | ${(perFrame(coupling) / 1000).toFixed(3)} | ${((100 * coupling) / wall).toFixed(0)}% | ${THESIS_SHARES.coupling}% |`)
  log(`| fluid | ${(perFrame(fluid) / 1000).toFixed(3)} | ${((100 * fluid) / wall).toFixed(0)}% | ${THESIS_SHARES.fluid}% |`)
  log(`| surface | ${(perFrame(surface) / 1000).toFixed(3)} | ${((100 * surface) / wall).toFixed(0)}% | ${THESIS_SHARES.surface}% |`)
  log(`| setup (once: body distance grids, seeding; spread over the frames) | ${(setupMs / o.frames / 1000).toFixed(3)} | | |`)
  log(`| total | ${(msPerFrame / 1000).toFixed(3)} | | |`)
  log(
    `\n${(msPerFrame / 1000).toFixed(2)} s/frame against the thesis's ${THESIS_SECONDS_PER_FRAME} s/frame (Pentium 4 2.8 GHz, 2004; ` +
      `${THESIS_FIRST_SECOND_PER_FRAME} s/frame over its first second): ratio ${ratio.toFixed(3)} (Eddy / thesis)`,
  )
  log(`substeps/frame ${(substeps / o.frames).toFixed(2)}, pressure iterations/substep ${(pressureIterations / Math.max(1, substeps)).toFixed(1)}, particles at end ${particles}, surface triangles at end ${triangles}`)
  return {
    scene: 'rigidfluid',
    pressurePreconditioner: pressure,
    kernels: kernels.kind,
    threads: kernels.threads,
    example: 'gears-and-bunnies',
    res: o.res,
    layout: solver.layout,
    frames: o.frames,
    fps: BENCH_FPS,
    bodies,
    msPerFrame,
    secondsPerFrame: msPerFrame / 1000,
    split: { fluidMsPerFrame: perFrame(fluid), couplingMsPerFrame: perFrame(coupling), surfaceMsPerFrame: perFrame(surface), setupMsPerFrame: setupMs / o.frames },
    phaseMsPerFrame: { ...Object.fromEntries(LIQUID_PHASES.map((p) => [p, perFrame(totals[p])])), frame: perFrame(totals.frame), other: perFrame(other) },
    setupMs,
    thesisSecondsPerFrame: THESIS_SECONDS_PER_FRAME,
    ratioToThesis: ratio,
    substepsPerFrame: substeps / o.frames,
    pressureIterationsPerSubstep: pressureIterations / Math.max(1, substeps),
    particles,
    triangles,
  }
}
