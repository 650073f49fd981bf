// The solver a domain bakes with, behind one shape for the bake loop: build it from the scene,
// compile each frame's input, step it, and hand out frames (with the liquid's surface mesh
// added here, so the cache, the viewport and the exporters get meshes like any other data).
import { EddyError } from '../api/errors'
import { evaluateObject } from '../scene/keyframes'
import type { SceneDocument } from '../scene/types'
import { type CompileOptions, compileInput, compileScene, type MeshSdfCache } from './compile'
import type { FrameData } from './frame'
import { compileLiquidInput, compileLiquidScene, type LiquidSurfaceSettings } from './liquid/compileLiquid'
import { LiquidSolver } from './liquid/liquidSolver'
import { LiquidSurfacer } from './liquid/surface/liquidSurface'
import { SmokeSolver } from './smoke/smokeSolver'
import type { SimInput, Solver, StepControl, StepStats } from './solver'

export type SolverKind = 'smoke' | 'liquid'

export interface BakeSolver {
  kind: SolverKind
  grid: [number, number, number]
  /** Steps one frame's dt under the scene evaluated at animation frame `frame`. */
  stepFrame(frame: number, control?: StepControl): StepStats
  /** The current state as cache data (for a liquid: particles, volumes and the surface mesh). */
  frame(): FrameData
  checkpoint(): Uint8Array
  restore(bytes: Uint8Array): void
}

export function solverKindOf(doc: SceneDocument, domainId: string, frame = doc.meta.frameStart): SolverKind {
  const domain = doc.objects.find((o) => o.id === domainId)
  const kind = domain ? evaluateObject(domain, doc.tracks, frame).solver : undefined
  if (kind === 'smoke' || kind === 'liquid') return kind
  throw new EddyError('INVALID_PARAM', `Domain "${domain?.name ?? domainId}" has no known solver (got ${String(kind)})`, { objectId: domainId, field: 'solver' })
}

function wrap(kind: SolverKind, solver: Solver, grid: [number, number, number], input: (frame: number) => SimInput, frame: () => FrameData): BakeSolver {
  return {
    kind,
    grid,
    stepFrame(f, control) {
      const i = input(f)
      return solver.step(i.frameDt, i, control)
    },
    frame,
    checkpoint: () => solver.checkpoint(),
    restore: (bytes) => solver.restore(bytes),
  }
}

function surfaceFrame(solver: LiquidSolver, settings: LiquidSurfaceSettings, surfacer: LiquidSurfacer, ppc: number): FrameData {
  const fd = solver.frame()
  const ps = fd.particles[0]
  if (!settings.enabled || !ps) return fd
  const g = solver.setup.grid
  fd.meshes.push(
    surfacer.surface({
      positions: ps.positions,
      count: ps.count,
      // About half the marker spacing (dx / cbrt(ppc)), as the mesher expects.
      particleRadius: (0.5 * g.dx) / Math.cbrt(ppc),
      grid: { origin: [g.origin[0], g.origin[1], g.origin[2]], dx: g.dx, nx: g.nx, ny: g.ny, nz: g.nz },
      refinement: settings.refinement,
      smoothing: settings.smoothing,
      minDropVolume: settings.minDropVolume,
    }),
  )
  return fd
}

/** Builds the domain's solver from the scene at the bake's first frame; throws on bad scenes. */
export function createBakeSolver(doc: SceneDocument, domainId: string, opts: CompileOptions = {}): BakeSolver {
  const fps = doc.meta.fps
  const time = (frame: number) => (frame - 1) / fps
  if (solverKindOf(doc, domainId) === 'liquid') {
    const c = compileLiquidScene(doc, domainId, opts)
    const solver = new LiquidSolver(c.setup)
    const surfacer = new LiquidSurfacer()
    const meshes: MeshSdfCache = c.meshes
    const g = c.setup.grid
    return wrap(
      'liquid',
      solver,
      [g.nx, g.ny, g.nz],
      (f) => compileLiquidInput(doc, domainId, time(f), fps, { meshes }),
      () => surfaceFrame(solver, c.surface, surfacer, c.setup.particlesPerCell),
    )
  }
  const setup = compileScene(doc, domainId, opts)
  const solver = new SmokeSolver(setup)
  const g = setup.grid
  return wrap(
    'smoke',
    solver,
    [g.nx, g.ny, g.nz],
    (f) => compileInput(doc, domainId, time(f), fps, { meshes: setup.meshes }),
    () => solver.frame(),
  )
}
