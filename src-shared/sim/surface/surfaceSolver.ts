// The surface family's solver: a SurfaceFluid (Stam 2003) on the cage's limit surface, stepped
// frame by frame under the scene. Two modes:
//   - fluid: three densities are the red, green and blue pigment of the paint. Emitters whose
//     shape holds a cell centre refill it towards their Density times Paint colour and pull the
//     flow there towards the tangent part of their Velocity (the smoke's refill rule:
//     blend 1 - exp(-rate h) per substep); gravity, Coriolis and vorticity confinement act in
//     the cage's own axes (world vectors turned by its rotation); drag decays the flow;
//   - reactionDiffusion: Gray-Scott (u, v) with random spots of v at the start; emitters hold
//     their cells at the spot state u = 0.25, v = 0.5 (Pearson 1993's perturbation).
// The frame: the posed display mesh with per-vertex colour and density (and u, v), per-patch
// colour textures, and the density as a regular shell volume (surfaceDisplay.ts).
import { EddyError } from '../../api/errors'
import { PrimitiveSdf } from '../../geometry/primitiveSdf'
import type { Vec3 } from '../../scene/types'
import { readCheckpoint, readOptionalF64, writeCheckpoint } from '../core/checkpoint'
import { Prng } from '../core/prng'
import type { FrameData } from '../frame'
import { cancelledError, emptyStepStats, phaseStats, type Solver, type StepControl, type StepStats } from '../solver'
import { runSubsteps } from '../substeps'
import { now } from '../wallClock'
import type { SurfaceInput, SurfacePayload, SurfaceSetup } from './compileSurface'
import { GrayScott } from './reactionDiffusion'
import { type CellColours, paintColours, patternColours, SurfaceDisplay } from './surfaceDisplay'
import { SurfaceFluid } from './surfaceFluid'

export const SURFACE_PHASES = ['sources', 'forces', 'flow', 'pattern'] as const

/** The spot state emitters and random seeds put into a reaction-diffusion run (Pearson 1993). */
const SPOT_U = 0.25
const SPOT_V = 0.5
/** Cells each side of a random spot's centre. */
const SPOT_RADIUS = 2

/** A world vector in the cage's own axes: R^T v for the row-major rotation R. */
function toCageAxes(R: Float64Array, v: Vec3): [number, number, number] {
  return [R[0] * v[0] + R[3] * v[1] + R[6] * v[2], R[1] * v[0] + R[4] * v[1] + R[7] * v[2], R[2] * v[0] + R[5] * v[1] + R[8] * v[2]]
}

export class SurfaceSolver implements Solver<SurfaceInput> {
  readonly fluid: SurfaceFluid
  readonly display: SurfaceDisplay
  private readonly pattern: GrayScott | null
  private t = 0
  private stats: StepStats = emptyStepStats(SURFACE_PHASES)
  private last: SurfacePayload | null = null
  private readonly weight: Float64Array
  private readonly world: Float64Array

  constructor(readonly setup: SurfaceSetup) {
    const rd = setup.mode === 'reactionDiffusion'
    this.fluid = new SurfaceFluid(setup.surface, setup.atlas, { N: setup.N, densities: rd ? 2 : 3, kernels: setup.kernels })
    this.display = new SurfaceDisplay(this.fluid)
    this.weight = this.fluid.grid.newCells()
    this.world = new Float64Array(this.fluid.metric.positions.length)
    this.pattern = rd ? new GrayScott(this.fluid, { Du: 0, Dv: 0, F: 0, k: 0 }) : null
    if (rd) this.seedPattern()
  }

  get time(): number {
    return this.t
  }

  /** u = 1, v = 0 everywhere, then the random spots. */
  private seedPattern(): void {
    const { grid } = this.fluid
    const [U, V] = this.fluid.density
    U.fill(1)
    V.fill(0)
    const rng = new Prng(this.setup.seed)
    for (let s = 0; s < this.setup.patternSeeds; s++) {
      const p = Math.floor(rng.next() * grid.P), ci = Math.floor(rng.next() * grid.N), cj = Math.floor(rng.next() * grid.N)
      for (let j = Math.max(0, cj - SPOT_RADIUS); j <= Math.min(grid.N - 1, cj + SPOT_RADIUS); j++) {
        for (let i = Math.max(0, ci - SPOT_RADIUS); i <= Math.min(grid.N - 1, ci + SPOT_RADIUS); i++) {
          U[grid.cell(p, i, j)] = SPOT_U
          V[grid.cell(p, i, j)] = SPOT_V
        }
      }
    }
    grid.fillScalar(U)
    grid.fillScalar(V)
  }

  step(dt: number, input: SurfaceInput, control?: StepControl): StepStats {
    const stats = emptyStepStats(SURFACE_PHASES)
    const f = input.family
    this.last = f
    const fluid = this.fluid
    if (f.mode === 'reactionDiffusion') {
      // Fixed steps of at most PATTERN_STEP (compileSurfaceInput sets min = max).
      const n = input.minSubsteps
      const h = dt / n
      this.pattern!.params = { Du: f.diffusionU, Dv: f.diffusionV, F: f.feed, k: f.kill }
      for (let s = 0; s < n; s++) {
        if (control?.shouldStop()) throw cancelledError(this.t + s * h)
        let t0 = now()
        this.sources(input, h, f)
        stats.ms.sources += now() - t0
        t0 = now()
        this.pattern!.step(h)
        stats.ms.pattern += now() - t0
        stats.substeps++
        this.guard(s * h + h)
      }
    } else {
      // Distances in patch parameters: one cell is 1/N, speeds are |u^i| (patch widths a second).
      const forces = { gravity: toCageAxes(f.rotation, f.gravity), rotationAxis: toCageAxes(f.rotation, f.spinAxis), rotationRate: f.spinRate, vorticity: f.vorticity }
      runSubsteps(dt, input, 1 / this.setup.N, this.t, {
        reach: 0,
        speed: () => this.maxSpeed(),
        substep: (h) => {
          let t0 = now()
          this.sources(input, h, f)
          stats.ms.sources += now() - t0
          t0 = now()
          if (f.drag > 0) fluid.damp(Math.exp(-f.drag * h))
          stats.ms.forces += now() - t0
          t0 = now()
          fluid.step(h, forces, f.colorDiffusion)
          stats.ms.flow += now() - t0
          stats.pressureIterations += fluid.lastProjection.iterations
          stats.pressureResidual = Math.max(stats.pressureResidual, fluid.lastProjection.residual)
        },
        guard: (end) => this.guard(end),
      }, stats, control)
    }
    this.t += dt
    this.stats = stats
    return stats
  }

  /** Largest |u^1|, |u^2| on the real faces, patch widths a second (NaN propagates). */
  private maxSpeed(): number {
    const { fx, fy, metric } = this.fluid
    let m = 0
    for (let k = 0; k < fx.length; k++) {
      const s = metric.xFaces.sqrtG[k]
      if (s > 0) { const u = Math.abs(fx[k] / s); if (!(u <= m)) m = u }
    }
    for (let k = 0; k < fy.length; k++) {
      const s = metric.yFaces.sqrtG[k]
      if (s > 0) { const u = Math.abs(fy[k] / s); if (!(u <= m)) m = u }
    }
    return m
  }

  private guard(offset: number): void {
    const bad = (a: Float64Array) => { for (let k = 0; k < a.length; k++) if (!Number.isFinite(a[k])) return true; return false }
    const { fluid } = this
    const what = bad(fluid.fx) || bad(fluid.fy) ? 'the flow' : fluid.density.some(bad) ? (this.pattern ? 'the pattern' : 'the paint') : null
    if (what) {
      const time = this.t + offset
      throw new EddyError('SIM_UNSTABLE', `Surface flow became unstable at t=${time.toFixed(4)} s: ${what} is no longer finite; lower the forces or raise max substeps`, { time })
    }
  }

  /** Cage-local cell centres in world space at this input's pose. */
  private worldCentres(f: SurfacePayload): void {
    const R = f.rotation, t = f.position, x = this.fluid.metric.positions, w = this.world
    for (let k = 0; k < x.length; k += 3) {
      const a = x[k], b = x[k + 1], c = x[k + 2]
      w[k] = t[0] + R[0] * a + R[1] * b + R[2] * c
      w[k + 1] = t[1] + R[3] * a + R[4] * b + R[5] * c
      w[k + 2] = t[2] + R[6] * a + R[7] * b + R[8] * c
    }
  }

  /** Emitters: refill the cells their shape holds (paint, or the spot state) and push the flow. */
  private sources(input: SurfaceInput, h: number, f: SurfacePayload): void {
    if (input.emitters.length === 0) return
    const { fluid, weight, world } = this
    const { grid } = fluid
    const { N, P } = grid
    this.worldCentres(f)
    for (const e of input.emitters) {
      const amount = 1 - Math.exp(-e.rate * h)
      if (!(amount > 0)) continue
      const sdf = new PrimitiveSdf(e.shape, e)
      const { min, max } = sdf.bounds
      weight.fill(0)
      let any = false
      for (let p = 0; p < P; p++) for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) {
        const c = grid.cell(p, i, j)
        const x = world[3 * c], y = world[3 * c + 1], z = world[3 * c + 2]
        if (x < min[0] || x > max[0] || y < min[1] || y > max[1] || z < min[2] || z > max[2]) continue
        if (sdf.distance(x, y, z) < 0) { weight[c] = amount; any = true }
      }
      if (!any) continue
      grid.fillScalar(weight)
      if (this.pattern) {
        fluid.blendDensity(0, weight, SPOT_U)
        fluid.blendDensity(1, weight, SPOT_V)
      } else {
        for (let d = 0; d < 3; d++) fluid.blendDensity(d, weight, e.density * e.paintColor[d])
        fluid.blendVelocity(weight, toCageAxes(f.rotation, e.velocity), true)
      }
    }
  }

  /** Per-cell display colour (linear RGB) and density. */
  private cellColours(f: SurfacePayload | null): CellColours {
    return this.pattern ? patternColours(this.fluid) : paintColours(this.fluid, f?.baseColor ?? this.setup.baseColor)
  }

  frame(): FrameData {
    const f = this.last
    const pose = f ?? this.setup.pose
    const { display } = this
    const c = this.cellColours(f)
    const n = display.vertexCount
    const color = new Float32Array(3 * n)
    display.sample(c.r, color, 3, 0)
    display.sample(c.g, color, 3, 1)
    display.sample(c.b, color, 3, 2)
    const attributes: NonNullable<ReturnType<SurfaceDisplay['mesh']>['attributes']> = {
      color: { components: 3, data: color },
      density: { components: 1, data: display.sample(c.density, new Float32Array(n)) },
    }
    if (this.pattern) {
      attributes.u = { components: 1, data: display.sample(this.fluid.density[0], new Float32Array(n)) }
      attributes.v = { components: 1, data: display.sample(this.fluid.density[1], new Float32Array(n)) }
    }
    const { N, P } = this.fluid.grid
    return {
      time: this.t,
      frame: 0,
      volumes: [display.shell('surfaceDensity', c.density, pose)],
      meshes: [display.mesh('surface', pose, attributes)],
      particles: [],
      textures: [{ name: 'color', width: N, height: N, layers: P, components: 3, data: display.textures(c.r, c.g, c.b) }],
      // The amounts on the surface (density times area, per field), for the log and for checks.
      stats: {
        substeps: this.stats.substeps,
        pressureIterations: this.stats.pressureIterations,
        surfaceArea: this.fluid.area(),
        ...Object.fromEntries(this.fluid.density.map((_, d) => [`amount${d}`, this.fluid.total(d)])),
        ...phaseStats(this.stats.ms),
      },
    }
  }

  checkpoint(): Uint8Array {
    const fl = this.fluid
    // The projection's last two step solves and their step lengths: the next guess is extrapolated from them.
    const pr = fl.projection
    return writeCheckpoint('surface', { t: this.t, N: this.setup.N, P: fl.grid.P, densities: fl.density.length, pressureSteps: pr.guess.steps }, [
      ['fx', fl.fx], ['fy', fl.fy], ['pressure', pr.p], ['pressurePrev', pr.guess.prev], ...fl.density.map((d, i) => [`density${i}`, d] as [string, Float64Array]),
    ])
  }

  restore(bytes: Uint8Array): void {
    const fl = this.fluid
    const c = readCheckpoint('surface', bytes)
    const m = c.meta as { t?: unknown; N?: unknown; P?: unknown; densities?: unknown }
    if (m.N !== this.setup.N || m.P !== fl.grid.P || m.densities !== fl.density.length || typeof m.t !== 'number') {
      throw new EddyError('INVALID_PARAM', `Checkpoint is not usable: it holds ${String(m.P)} patches x ${String(m.N)}^2 with ${String(m.densities)} fields, this surface has ${fl.grid.P} x ${this.setup.N}^2 with ${fl.density.length}`, { field: 'checkpoint' })
    }
    c.read('fx', fl.fx)
    c.read('fy', fl.fy)
    c.read('pressure', fl.projection.p)
    // (A checkpoint from before the extrapolated guess has no history: the next solve starts from p alone.)
    fl.projection.guess.restore((c.meta as { pressureSteps?: unknown }).pressureSteps, readOptionalF64(c, 'pressurePrev', fl.projection.p.length))
    fl.density.forEach((d, i) => c.read(`density${i}`, d))
    this.t = m.t
  }
}
