// `eddy bench smoke`: the scene of ../shared/peers/blender_smoke.py (2 m domain, 0.3 m
// source cube, 0.4 m obstacle cube, vorticity 0.1), baked for N frames at 24 fps; prints
// ms/frame split by stage and the pressure iterations. Figures only, never a verdict.
import { availableParallelism, cpus } from 'node:os'
import { blenderSmokeScene } from '../../src-shared/sim/smoke/benchScene'
import { compileSmokeInput, compileSmokeScene } from '../../src-shared/sim/smoke/compileSmoke'
import { SMOKE_PHASES, SmokeSolver } from '../../src-shared/sim/smoke/smokeSolver'
import type { KernelKind } from '../../src-shared/sim/core/kernelBackend'
import { createKernelBackend } from '../sim/workerPool'

export interface SmokeBenchOptions {
  res: number
  frames: number
  threads: number
  pressure: 'mic' | 'mg'
  kernels: KernelKind
}

const STAGES = SMOKE_PHASES

export async function benchSmoke(o: SmokeBenchOptions, log: (line: string) => void): Promise<Record<string, unknown>> {
  const doc = blenderSmokeScene(o.res)
  const domain = doc.objects.find((x) => x.kind === 'domain')!
  domain.params.pressureSolver = o.pressure === 'mic' ? 'mic0' : 'multigrid'
  const kernels = createKernelBackend(o.kernels, { threads: o.threads })
  try {
    const setup = compileSmokeScene(doc, domain.id, { kernels, shared: o.kernels === 'wasm' })
    const solver = new SmokeSolver(setup)
    const fps = doc.meta.fps
    const g = setup.grid
    log(`eddy bench smoke: grid ${g.nx}x${g.ny}x${g.nz} (dx ${g.dx.toFixed(4)} m), ${o.frames} frames at ${fps} fps, kernels ${o.kernels}, threads ${kernels.threads}, pressure ${o.pressure === 'mic' ? 'MIC(0)-PCG' : 'MGPCG'}`)
    log(`machine: ${cpus()[0]?.model ?? 'unknown cpu'}, ${availableParallelism()} cores, node ${process.version}`)
    const totals: Record<string, number> = Object.fromEntries(STAGES.map((s) => [s, 0]))
    let iterations = 0
    let substeps = 0
    let maxResidual = 0
    const started = performance.now()
    for (let f = 0; f < o.frames; f++) {
      const input = compileSmokeInput(doc, domain.id, f / fps, fps, { meshes: setup.meshes })
      const stats = solver.step(1 / fps, input)
      for (const s of STAGES) totals[s] += stats.ms[s]
      iterations += stats.pressureIterations
      substeps += stats.substeps
      maxResidual = Math.max(maxResidual, stats.pressureResidual)
    }
    const wall = performance.now() - started
    const msPerFrame = wall / o.frames
    log(`\n| stage | ms/frame | share |\n|---|---|---|`)
    for (const s of STAGES) log(`| ${s} | ${(totals[s] / o.frames).toFixed(1)} | ${((100 * totals[s]) / wall).toFixed(0)}% |`)
    log(`| total (wall) | ${msPerFrame.toFixed(1)} | 100% |`)
    log(`\nsubsteps/frame ${(substeps / o.frames).toFixed(2)}, pressure iterations/substep ${(iterations / Math.max(1, substeps)).toFixed(1)}, worst final residual ${maxResidual.toExponential(2)}, vortex particles at end ${solver.frame().particles[0]?.count ?? 0}`)
    const result = {
      scene: 'smoke',
      res: o.res,
      grid: [g.nx, g.ny, g.nz],
      frames: o.frames,
      kernels: o.kernels,
      threads: kernels.threads,
      pressure: o.pressure,
      msPerFrame,
      stageMsPerFrame: Object.fromEntries(STAGES.map((s) => [s, totals[s] / o.frames])),
      pressureIterationsPerSubstep: iterations / Math.max(1, substeps),
      substepsPerFrame: substeps / o.frames,
    }
    return result
  } finally {
    await (kernels as { dispose?: () => Promise<void> }).dispose?.()
  }
}
