// The surface flow's live mode (Stam 2003's program: paint and push the flow by dragging on the
// surface and watch it move): one SurfaceFluid on the cage's limit surface, stepped at the
// pace of the wall clock by the viewport's worker, with brush strokes applied between steps.
// Everything here is in the cage's own axes with its scale applied (the worker's caller turns
// world points, drags and gravity into them), so the flow is that of the baked family.
import { buildLimitSurface } from '../../geometry/catmullClarkEval'
import { buildPatchAtlas } from '../../geometry/patchAtlas'
import { type CellColours, paintColours, SurfaceDisplay } from './surfaceDisplay'
import { SurfaceFluid } from './surfaceFluid'

export interface LiveSurfaceSettings {
  /** Cage-local acceleration felt by paint (tangent part, scaled by density), m/s^2. */
  gravity: [number, number, number]
  /** Velocity decay rate, 1/s. */
  drag: number
  colorDiffusion: number
  vorticity: number
  baseColor: [number, number, number]
}

export interface LiveStroke {
  /** Cage-local point on the surface, m. */
  at: [number, number, number]
  radius: number
  /** Linear RGB of the paint; all zero pushes without painting. */
  color: [number, number, number]
  /** Cage-local drag velocity, m/s: the flow under the brush is pulled towards it (zero: the brush only paints). */
  velocity: [number, number, number]
  /** Seconds the brush was held for this stroke (paint laid is proportional). */
  dt: number
}

/** Paint laid per second under a held brush, in density units (about full strength in a quarter second). */
export const BRUSH_PAINT_RATE = 4
/** The longest step the live flow takes, s: a slow frame is not allowed to jump the flow far. */
export const MAX_LIVE_STEP = 1 / 20

export class LiveSurface {
  readonly fluid: SurfaceFluid
  readonly display: SurfaceDisplay
  private readonly colours: CellColours
  private readonly pending: LiveStroke[] = []

  constructor(positions: ArrayLike<number>, faces: number[][], N: number, public settings: LiveSurfaceSettings) {
    const surface = buildLimitSurface({ positions: Array.from(positions), faces })
    this.fluid = new SurfaceFluid(surface, buildPatchAtlas(surface.faces), { N, densities: 3 })
    this.display = new SurfaceDisplay(this.fluid)
    this.colours = paintColours(this.fluid, settings.baseColor)
  }

  /** Queues a stroke for the next step. */
  stroke(s: LiveStroke): void {
    this.pending.push(s)
  }

  /** Applies the queued strokes, then steps the flow by dt (at most MAX_LIVE_STEP). */
  step(dt: number): void {
    const { fluid } = this
    for (const s of this.pending.splice(0)) {
      const area = Math.PI * s.radius * s.radius
      for (let d = 0; d < 3; d++) if (s.color[d] > 0) fluid.addSource(d, s.at, s.radius, BRUSH_PAINT_RATE * s.dt * area * s.color[d])
      if (s.velocity.some((v) => v !== 0)) fluid.addImpulse(s.at, s.radius, s.velocity, true)
    }
    const h = Math.min(Math.max(dt, 0), MAX_LIVE_STEP)
    if (h === 0) return
    const { gravity, drag, colorDiffusion, vorticity } = this.settings
    if (drag > 0) fluid.damp(Math.exp(-drag * h))
    fluid.step(h, { gravity, vorticity }, colorDiffusion)
  }

  /** Vertex colours of the display mesh, linear RGB, into `out` (3 per display vertex). */
  vertexColours(out: Float32Array): Float32Array {
    const c = paintColours(this.fluid, this.settings.baseColor, this.colours)
    this.display.sample(c.r, out, 3, 0)
    this.display.sample(c.g, out, 3, 1)
    this.display.sample(c.b, out, 3, 2)
    return out
  }

  /** Paint on the surface (density times area, the three pigments summed). */
  paint(): number {
    return this.fluid.total(0) + this.fluid.total(1) + this.fluid.total(2)
  }
}
