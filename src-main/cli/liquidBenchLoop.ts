// What the liquid benches (benchLiquid.ts, benchRigidFluid.ts) share: the solver built the way
// the bake runner builds it, a machine line, and the frame loop that adds up the solver's
// phases, the time to build each frame (redistance, surface mesh) and the solver's counters.
import { availableParallelism, cpus } from 'node:os'
import type { ExampleScene } from '../../src-shared/scene/examples/types'
import type { CompileOptions } from '../../src-shared/sim/compile'
import type { KernelBackend } from '../../src-shared/sim/core/kernelTypes'
import type { BakeSolver } from '../../src-shared/sim/family'
import { LIQUID_PHASES, type LiquidStepStats } from '../../src-shared/sim/liquid/liquidSolver'
import { createBakeSolver } from '../../src-shared/sim/registry'

/** The example's liquid domain's bake solver and how long building it took (SDFs of meshes, seeding). */
export function liquidBenchSolver(scene: ExampleScene, opts: CompileOptions = {}): { solver: BakeSolver; setupMs: number; domain: ExampleScene['doc']['objects'][number] } {
  const { doc, meshes } = scene
  const domain = doc.objects.find((x) => x.kind === 'domain')!
  const started = performance.now()
  const solver = createBakeSolver(doc, domain.id, { ...opts, resolveMesh: (id) => meshes.find((m) => m.id === id) })
  return { solver, setupMs: performance.now() - started, domain }
}

/** Which kernels the liquid's kernel-table rows ran on. */
export function kernelsLine(kernels: KernelBackend): string {
  return kernels.kind === 'wasm' ? `WebAssembly kernels on ${kernels.threads} thread${kernels.threads === 1 ? '' : 's'}` : 'TypeScript kernels on 1 thread'
}

export function machineLine(): string {
  return `machine: ${cpus()[0]?.model ?? 'unknown cpu'}, ${availableParallelism()} cores, node ${process.version}`
}

export interface LiquidFrameTotals {
  /** Milliseconds per solver phase (LIQUID_PHASES) summed over the frames. */
  phases: Record<string, number>
  /** Milliseconds spent building frames (frame()) summed. */
  frame: number
  /** Wall time of the whole loop, ms. */
  wall: number
  substeps: number
  pressureIterations: number
  viscosityIterations: number
  /** Markers and surface triangles in the last frame. */
  particles: number
  triangles: number
}

/** Steps frames 1..frames as a bake does (nothing written to a cache) and adds up the figures. */
export function stepLiquidFrames(solver: BakeSolver, frames: number): LiquidFrameTotals {
  const out: LiquidFrameTotals = { phases: Object.fromEntries(LIQUID_PHASES.map((p) => [p, 0])), frame: 0, wall: 0, substeps: 0, pressureIterations: 0, viscosityIterations: 0, particles: 0, triangles: 0 }
  const loopStart = performance.now()
  for (let f = 1; f <= frames; f++) {
    const stats = solver.stepFrame(f) as LiquidStepStats
    for (const p of LIQUID_PHASES) out.phases[p] += stats.ms[p] ?? 0
    out.substeps += stats.substeps
    out.pressureIterations += stats.pressureIterations
    out.viscosityIterations += stats.viscosityIterations
    const t = performance.now()
    // Transient, as the bake runner takes it: read here, dropped before the next step.
    const frame = solver.frame({ transient: true })
    out.frame += performance.now() - t
    out.particles = frame.particles[0]?.count ?? 0
    out.triangles = (frame.meshes[0]?.indices.length ?? 0) / 3
  }
  out.wall = performance.now() - loopStart
  return out
}
