// Stable fluids on a Catmull-Clark surface (Stam 2003): the state is the flux density
// F^i = sqrt(g) u^i on every patch's MAC faces (u^i = d x^i / dt, the velocity in the patch's
// parameters) and any number of densities at the cell centres. A step is the paper's eq. 14,
// add force -> advect -> project for the velocity and add source -> diffuse -> advect for the
// densities:
//   - forces are world vectors made tangent: a^i = g^ij (a . d y / d x_j) (sec. 5: gravity
//     scaled by the density there, so paint runs down; Coriolis -2 Omega (axis . n)(n x u)
//     for a surface turning about an axis);
//   - the velocity's advection is semi-Lagrangian in the parameters (eqs. 19-20: with
//     contravariant components the back-trace is x - dt u), the back-traces walking across
//     patches and vectors turned by the transitions' Jacobians (sec. 4.3); densities move
//     by the conservative flux form of surfaceTransport.ts (the file says why);
//   - diffusion of a density is implicit, (sqrt(g) + k dt L) rho' = sqrt(g) rho with L the
//     metric Laplacian (eq. 18) in the symmetric form of surfaceProjection.ts;
//   - the projection is surfaceProjection.ts over all patches at once.
import type { LimitSurface } from '../../geometry/catmullClarkEval'
import type { PatchAtlas } from '../../geometry/patchAtlas'
import { TS_KERNELS } from '../core/kernelBackend'
import type { KernelBackend } from '../core/kernelTypes'
import { AXPY_BLOCKS, SPARSE_BLOCK } from '../core/sparse/rows'
import { SURFACE_ADVECT_VELOCITY, SURFACE_VELOCITIES } from './surfaceAdvectKernels'
import { SURFACE_GATHER, SURFACE_SCATTER } from './surfaceCellKernels'
import { SURFACE_FORCES, SURFACE_GRAVITY, SURFACE_GRAVITY_COEF } from './surfaceForceKernels'
import { type DiffusionSystem, REFINED_MIN_UNKNOWNS, SurfaceDiffusionSystems } from './surfaceDiffusion'
import { now } from '../wallClock'
import { LockstepPcg } from './lockstepPcg'
import { RefinedDiffusion } from './refinedDiffusion'
import { SurfaceGrid } from './surfaceGrid'
import { computeMetric, type SurfaceMetric } from './surfaceMetric'
import { SurfaceProjection } from './surfaceProjection'
import { SurfaceSampler } from './surfaceSampling'
import { SurfaceTransport } from './surfaceTransport'
import { SurfaceVorticity } from './surfaceVorticity'

export interface SurfaceFluidOptions {
  /** Cells per patch edge (16-128 in the studio). */
  N: number
  /** Density fields (colours). */
  densities: number
  /** Ignore the metric (flat parameter squares), for the paper's Figure 3 comparison. */
  flatMetric?: boolean
  /**
   * Where the linear solves (the projection's multigrid PCG, the diffusions' PCG) run: the
   * WebAssembly kernels over the bake's threads, or TypeScript here (the default).
   */
  kernels?: KernelBackend
  /**
   * Unknowns (patches x N^2) from which the densities' diffusion is solved in float32 under
   * float64 refinement (surfaceDiffusion.ts REFINED_MIN_UNKNOWNS by default; 0: always).
   */
  refinedDiffusionFrom?: number
}

export interface SurfaceForces {
  /** World acceleration made tangent and scaled by the summed density (paint running down), m/s^2. */
  gravity?: readonly [number, number, number]
  /** Surface turning about this unit axis at this rate (rad/s): Coriolis. */
  rotationAxis?: readonly [number, number, number]
  rotationRate?: number
  /** Vorticity confinement strength (Fedkiw, Stam and Jensen 2001) with the surface's curl; 0 or absent: off. */
  vorticity?: number
}

/**
 * A diffusion's relative residual and iteration cap. The residual bounds what a step can do
 * wrong: the system (sqrt(g) h^2 + k dt L) rho' = sqrt(g) h^2 rho has L's columns summing to
 * zero, so the paint a step creates or loses is 1^T r, about 1e-6 of the paint there is, far
 * below the validation's 1% over 200 steps and an 8-bit colour step. 1e-8 took 14-15
 * iterations a step on the head-sized cage of `bench surface`, 1e-6 takes 8.
 */
const DIFFUSION_TOLERANCE = 1e-6
const DIFFUSION_MAX_ITERATIONS = 500

export class SurfaceFluid {
  readonly grid: SurfaceGrid
  readonly metric: SurfaceMetric
  readonly projection: SurfaceProjection
  readonly kernels: KernelBackend
  /** Flux densities sqrt(g) u^1 (x-faces) and sqrt(g) u^2 (y-faces). */
  readonly fx: Float64Array
  readonly fy: Float64Array
  /** Densities at the cell centres (ghosts filled after every update). */
  readonly density: Float64Array[]
  private readonly ux: Float64Array
  private readonly uy: Float64Array
  private readonly tmpX: Float64Array
  private readonly tmpY: Float64Array
  private readonly tmpC: Float64Array
  /** The atlas's neighbour and neighbourEdge in the kernels' memory (the advection row walks departures across patches). */
  private readonly neighbour: Int32Array
  private readonly neighbourEdge: Int32Array
  readonly sampler: SurfaceSampler
  private readonly transport: SurfaceTransport
  private readonly vort: SurfaceVorticity
  /** Diffusion systems by rate and step (built at the first diffusion). */
  private diffusion: SurfaceDiffusionSystems | null = null
  /** diffuseAll's solver and its right-hand sides and solutions (every density's, n apart), made at its first use. */
  private lockstep: LockstepPcg | null = null
  private readonly refinedDiffusionFrom: number
  /** The refinement solver of the diffusions, by system count (refinedDiffusion.ts). */
  private readonly refined = new Map<number, RefinedDiffusion>()
  private rhsAll: Float64Array | null = null
  private solAll: Float64Array | null = null
  private readonly rhs: Float64Array
  private readonly sol: Float64Array
  /** Last step's projection figures. */
  lastProjection = { iterations: 0, residual: 0 }

  constructor(readonly surface: LimitSurface, readonly atlas: PatchAtlas, options: SurfaceFluidOptions) {
    this.grid = new SurfaceGrid(atlas, options.N)
    this.kernels = options.kernels ?? TS_KERNELS
    this.refinedDiffusionFrom = options.refinedDiffusionFrom ?? REFINED_MIN_UNKNOWNS
    // The ghost fills on the bake's threads (a TypeScript backend keeps the grid's own loops).
    if (this.kernels.kind !== 'ts') this.grid.useKernels(this.kernels)
    // In the kernels' memory, where the rows over patches read it.
    this.metric = computeMetric(surface, this.grid, options.flatMetric ?? false, this.kernels)
    this.projection = new SurfaceProjection(this.grid, this.metric, this.kernels)
    const g = this.grid
    // Every field lives in the kernels' memory, where the rows over patches run.
    const k = this.kernels
    this.fx = k.f64(g.P * g.xBlock)
    this.fy = k.f64(g.P * g.yBlock)
    this.ux = k.f64(g.P * g.xBlock)
    this.uy = k.f64(g.P * g.yBlock)
    this.tmpX = k.f64(g.P * g.xBlock)
    this.tmpY = k.f64(g.P * g.yBlock)
    this.neighbour = k.i32(atlas.neighbour.length)
    this.neighbour.set(atlas.neighbour)
    this.neighbourEdge = k.i32(atlas.neighbourEdge.length)
    this.neighbourEdge.set(atlas.neighbourEdge)
    this.tmpC = k.f64(g.P * g.cellBlock)
    this.density = Array.from({ length: options.densities }, () => k.f64(g.P * g.cellBlock))
    this.sampler = new SurfaceSampler(g)
    this.transport = new SurfaceTransport(g, this.metric, this.kernels)
    this.vort = new SurfaceVorticity(g, this.metric, this.sampler, this.kernels)
    const n = g.P * g.N * g.N
    this.rhs = this.kernels.f64(n)
    this.sol = this.kernels.f64(n)
  }

  /** Total of density d over the surface, sum of rho sqrt(g) h^2 (the area element). */
  total(d: number): number {
    const { grid, metric } = this
    const { N, P, h } = grid
    const s = this.density[d]
    let t = 0
    for (let p = 0; p < P; p++) for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) {
      const k = grid.cell(p, i, j)
      t += s[k] * metric.cells.sqrtG[k]
    }
    return t * h * h
  }

  /**
   * Paints density d around a world point: `amount` (density times area) spread over the cells
   * whose centres lie within `radius`, weighted by (1 - (r / radius)^2)^2 and their area, so
   * the total rises by exactly `amount`. Returns the area reached (0: no cell within radius).
   */
  addSource(d: number, at: readonly [number, number, number], radius: number, amount: number): number {
    const w = this.brush(at, radius)
    if (!(w.total > 0)) return 0
    const s = this.density[d]
    // Density rises by amount fo / total in each cell: times its area, amount in all.
    for (let t = 0; t < w.cells.length; t++) s[w.cells[t]] += (amount * w.falloff[t]) / w.total
    this.grid.fillScalar(s)
    return w.area
  }

  /**
   * Pushes the flow around a world point (an artist's drag): the tangent part of the world
   * velocity dv (m/s) with the same falloff as addSource, at full strength at its centre. By
   * default added to the flow there; with `blend` the flow is pulled towards it instead (a
   * brush dragged at some speed moves the paint under it at about that speed, however many
   * strokes it sends).
   */
  addImpulse(at: readonly [number, number, number], radius: number, dv: readonly [number, number, number], blend = false): void {
    const w = this.brush(at, radius)
    if (!(w.total > 0)) return
    // Falloff per cell (1 at the centre), then per face as the mean of the two cells beside it.
    const fall = this.tmpC
    fall.fill(0)
    for (let t = 0; t < w.cells.length; t++) fall[w.cells[t]] = w.falloff[t]
    this.grid.fillScalar(fall)
    this.blendVelocity(fall, dv, blend)
  }

  /**
   * Moves the flow with per-cell weights w (0..1, ghosts filled) using the tangent part of the
   * world vector `v` at each face: `blend` pulls each face towards it, F += w (T(v) - F) (an
   * emitter holding its velocity); otherwise adds it, F += w T(v) (a drag's push).
   */
  blendVelocity(weight: Float64Array, v: readonly [number, number, number], blend: boolean): void {
    const { grid, metric, fx, fy } = this
    const { N, P } = grid
    for (const axisIndex of [1, 2] as const) {
      const S = axisIndex === 1 ? metric.xFaces : metric.yFaces
      const F = axisIndex === 1 ? fx : fy
      // The weight at a face: the mean of the two cells beside it (the bilinear sample there to
      // rounding), so the faces the weights leave alone, nearly all of them, cost two reads.
      const across = axisIndex === 1 ? 1 : N + 2
      for (let p = 0; p < P; p++) for (let j = 0; j <= (axisIndex === 1 ? N - 1 : N); j++) for (let i = 0; i <= (axisIndex === 1 ? N : N - 1); i++) {
        const c = grid.cell(p, i, j)
        const k = 0.5 * (weight[c - across] + weight[c])
        if (!(k > 0)) continue
        const f = axisIndex === 1 ? grid.xFace(p, i, j) : grid.yFace(p, i, j)
        // The face's tangents read in place (no views made per face).
        const o = 3 * f, du = S.du, dv2 = S.dv
        const c1 = v[0] * du[o] + v[1] * du[o + 1] + v[2] * du[o + 2], c2 = v[0] * dv2[o] + v[1] * dv2[o + 1] + v[2] * dv2[o + 2]
        const u = S.sqrtG[f] * (axisIndex === 1 ? S.g11[f] * c1 + S.g12[f] * c2 : S.g12[f] * c1 + S.g22[f] * c2)
        F[f] += blend ? k * (u - F[f]) : k * u
      }
    }
    grid.syncShared(fx, fy)
  }

  /** Pulls density d towards `target` with per-cell weights w (0..1): rho += w (target - rho) (an emitter refilling its volume). */
  blendDensity(d: number, weight: Float64Array, target: number): void {
    const s = this.density[d]
    for (let k = 0; k < s.length; k++) if (weight[k] > 0) s[k] += weight[k] * (target - s[k])
    this.grid.fillScalar(s)
  }

  /** Scales the flow by `factor` (drag over a step: exp(-drag dt)). */
  damp(factor: number): void {
    const { fx, fy } = this
    for (let f = 0; f < fx.length; f++) fx[f] *= factor
    for (let f = 0; f < fy.length; f++) fy[f] *= factor
  }

  /** The cells a brush at `at` reaches: their indices, falloffs, sum of falloff times area, and area. */
  private brush(at: readonly [number, number, number], radius: number): { cells: number[]; falloff: number[]; total: number; area: number } {
    const { grid, metric } = this
    const { N, P, h } = grid
    const cells: number[] = [], falloff: number[] = []
    let total = 0, area = 0
    const r2 = radius * radius
    for (let p = 0; p < P; p++) for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) {
      const c = grid.cell(p, i, j)
      const x = metric.positions
      const d2 = (x[3 * c] - at[0]) ** 2 + (x[3 * c + 1] - at[1]) ** 2 + (x[3 * c + 2] - at[2]) ** 2
      if (d2 >= r2) continue
      const fo = (1 - d2 / r2) ** 2
      const a = metric.cells.sqrtG[c] * h * h
      cells.push(c)
      falloff.push(fo)
      total += fo * a
      area += a
    }
    return { cells, falloff, total, area }
  }

  /** Surface area (sum of sqrt(g) h^2 over the cells). */
  area(): number {
    const { grid, metric } = this
    const { N, P, h } = grid
    let t = 0
    for (let p = 0; p < P; p++) for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) t += metric.cells.sqrtG[grid.cell(p, i, j)]
    return t * h * h
  }

  /** u^i = F^i / sqrt(g) on the real faces, ghosts from the neighbours. */
  private velocities(): void {
    const { grid, fx, fy, ux, uy } = this
    this.kernels.run(SURFACE_VELOCITIES, fx, fy, this.metric.xFaces.sqrtG, this.metric.yFaces.sqrtG, ux, uy, grid.N, grid.P)
    grid.fillVector(ux, uy)
  }

  /**
   * Milliseconds spent in each part of step() since the fluid was made, by the host's clock
   * (stats for the bench, never fed to the numbers): forces, the velocity's advection, the
   * projection, the diffusions, the transport.
   */
  readonly phaseMs = { forces: 0, advection: 0, projection: 0, diffusion: 0, transport: 0 }

  /** One step of dt seconds. */
  step(dt: number, forces: SurfaceForces = {}, diffusion = 0): void {
    const ms = this.phaseMs
    let t = now()
    const lap = (): number => {
      const at = now()
      const d = at - t
      t = at
      return d
    }
    this.addForces(dt, forces)
    ms.forces += lap()
    this.advectVelocity(dt)
    ms.advection += lap()
    const st = this.projection.projectStep(this.fx, this.fy, dt)
    this.lastProjection = { iterations: st.iterations, residual: st.residual }
    // (u is not recomputed here: every reader of it, the next step's forces and advection and
    // vorticity(), recomputes it from the fluxes first.)
    ms.projection += lap()
    // One flow carries every density: its substep count is found once.
    const substeps = this.transport.substeps(this.fx, this.fy, dt)
    if (diffusion > 0) this.diffuseAll(diffusion, dt)
    ms.diffusion += lap()
    for (const s of this.density) this.grid.fillScalar(s)
    this.transport.advectAll(this.density, this.fx, this.fy, dt, substeps)
    ms.transport += lap()
  }

  /** Makes the current flux field divergence free (after setting it directly), to a relative residual `tolerance`. */
  project(tolerance = 1e-6): void {
    this.grid.syncShared(this.fx, this.fy)
    const st = this.projection.project(this.fx, this.fy, tolerance)
    this.lastProjection = { iterations: st.iterations, residual: st.residual }
    this.velocities()
  }

  /** The vorticity (curl along the normal, 1/s) at the cell centres of the current flow. */
  vorticity(): Float64Array {
    this.velocities()
    this.vort.compute(this.ux, this.uy)
    return this.vort.omega
  }

  private addForces(dt: number, forces: SurfaceForces): void {
    const G = forces.gravity, axis = forces.rotationAxis, rate = forces.rotationRate ?? 0
    const eps = forces.vorticity ?? 0
    if (!G && !(axis && rate !== 0) && !(eps > 0)) return
    const coriolis = axis !== undefined && rate !== 0
    // The face velocities only where Coriolis or the confinement reads them (gravity alone does
    // not; the advection makes its own).
    if (coriolis || eps > 0) this.velocities()
    if (eps > 0) {
      this.vort.compute(this.ux, this.uy)
      this.vort.confinement(eps)
    }
    const { grid, metric, fx, fy } = this
    const rho = this.tmpC
    if (G) {
      // rho = 0 + s_0 + s_1 + ..., density by density (1 s = s exactly), on the kernels' threads.
      rho.fill(0)
      for (const s of this.density) this.kernels.run(AXPY_BLOCKS, rho, 1, s, rho.length, SPARSE_BLOCK)
    }
    // Per face (surfaceForceKernels.ts): gravity scaled by the density there, Coriolis
    // -2 Omega (axis . n)(n x u), made tangent (a^i = g^ij a . d y / d x_j), the confinement
    // added, F^i += dt sqrt(g) a^i.
    const g = G ?? [0, 0, 0], ax = axis ?? [0, 0, 0]
    if (G && !coriolis && !(eps > 0)) {
      // Gravity alone: each face's acceleration per unit density, formed once per G.
      const k = this.gravityCoefficients(G)
      this.kernels.run(SURFACE_GRAVITY, fx, fy, rho, k.kx, k.ky, dt, grid.N, grid.P)
      grid.syncShared(fx, fy)
      return
    }
    this.kernels.run(
      SURFACE_FORCES, fx, fy, G ? rho : null, coriolis ? this.ux : null, coriolis ? this.uy : null, eps > 0 ? this.vort.f1 : null, eps > 0 ? this.vort.f2 : null,
      metric.xFaces, metric.yFaces, g[0], g[1], g[2], ax[0], ax[1], ax[2], rate, dt, grid.N, grid.h, grid.P,
    )
    grid.syncShared(fx, fy)
  }

  /** The faces' gravity per unit density for G (surfaceForceKernels.ts SURFACE_GRAVITY_COEF), kept until G changes. */
  private gravityCoefficients(G: readonly [number, number, number]): { kx: Float64Array; ky: Float64Array } {
    let c = this.gravityCoef
    if (c && c.g[0] === G[0] && c.g[1] === G[1] && c.g[2] === G[2]) return c
    const { grid, metric } = this
    c ??= { g: [0, 0, 0], kx: this.kernels.f64(grid.P * grid.xBlock), ky: this.kernels.f64(grid.P * grid.yBlock) }
    c.g = [G[0], G[1], G[2]]
    this.kernels.run(SURFACE_GRAVITY_COEF, metric.xFaces, metric.yFaces, G[0], G[1], G[2], c.kx, c.ky, grid.N, grid.P)
    this.gravityCoef = c
    return c
  }

  /** gravityCoefficients' arrays and the G they were formed for (null until gravity first acts alone). */
  private gravityCoef: { g: [number, number, number]; kx: Float64Array; ky: Float64Array } | null = null

  /**
   * Semi-Lagrangian advection of the face velocities by themselves (sec. 4.3): one kernel row
   * over the patches, departures outside a patch walked across the atlas in the row.
   */
  private advectVelocity(dt: number): void {
    this.velocities()
    const { grid, metric, ux, uy, tmpX, tmpY } = this
    const { N, P, h } = grid
    this.kernels.run(SURFACE_ADVECT_VELOCITY, ux, uy, metric.xFaces.sqrtG, metric.yFaces.sqrtG, tmpX, tmpY, this.neighbour, this.neighbourEdge, N, dt, h, P)
    this.fx.set(tmpX)
    this.fy.set(tmpY)
    grid.syncShared(this.fx, this.fy)
  }

  /**
   * Every density diffused at rate k over dt (diffuse's system for each, one matrix): by float64
   * refinement of float32 solves where the Laplacian has stencil planes (refinedDiffusion.ts),
   * else float64 Jacobi-CG in lockstep (lockstepPcg.ts); either way each density gets the bits
   * diffuse(d, k, dt) alone gives it.
   */
  diffuseAll(k: number, dt: number): void {
    const { grid, metric } = this
    const { N, P } = grid
    const D = this.density.length
    const n = P * N * N
    if (D === 0) return
    const sys = this.diffusionSystems().get(k, dt)
    if (!this.rhsAll || this.rhsAll.length !== D * n) {
      this.rhsAll = this.kernels.f64(D * n)
      this.solAll = this.kernels.f64(D * n)
    }
    const rhs = this.rhsAll, sol = this.solAll as Float64Array
    for (let d = 0; d < D; d++) this.kernels.run(SURFACE_GATHER, this.density[d], metric.cells.sqrtG, rhs.subarray(d * n, (d + 1) * n), sol.subarray(d * n, (d + 1) * n), N, P)
    this.solveDiffusion(sys, rhs, sol, D)
    for (let d = 0; d < D; d++) {
      this.kernels.run(SURFACE_SCATTER, sol.subarray(d * n, (d + 1) * n), this.density[d], N, P)
      grid.fillScalar(this.density[d])
    }
  }

  /** count diffusion systems of `sys` (right-hand sides rhs, guesses sol: count vectors n apart) to DIFFUSION_TOLERANCE. */
  private solveDiffusion(sys: DiffusionSystem, rhs: Float64Array, sol: Float64Array, count: number): void {
    const n = this.grid.P * this.grid.N * this.grid.N
    if (sys.single) {
      let solver = this.refined.get(count)
      if (!solver) this.refined.set(count, (solver = new RefinedDiffusion(n, count, this.kernels)))
      solver.solve(sys.A, sys.single.A32, sys.single.invDiag32, rhs, sol, DIFFUSION_TOLERANCE, DIFFUSION_MAX_ITERATIONS)
      return
    }
    if (!this.lockstep || this.lockstep.count !== count) this.lockstep = new LockstepPcg(n, count, this.kernels)
    this.lockstep.solve(sys.A, sys.invDiag, rhs, sol, DIFFUSION_TOLERANCE, DIFFUSION_MAX_ITERATIONS)
  }

  /** The diffusion systems (built at the first diffusion). */
  private diffusionSystems(): SurfaceDiffusionSystems {
    if (!this.diffusion) {
      const { grid, metric, projection } = this
      const { N, P, h } = grid
      const areaOf = new Float64Array(P * N * N)
      for (let p = 0; p < P; p++) for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) areaOf[grid.unknown(p, i, j)] = metric.cells.sqrtG[grid.cell(p, i, j)]
      this.diffusion = new SurfaceDiffusionSystems(projection.A, areaOf, h, this.kernels, projection.pre.finestStencil, this.refinedDiffusionFrom)
    }
    return this.diffusion
  }

  /** Implicit diffusion of density d at rate k (m^2/s: the metric makes L the surface's own Laplacian) over dt: (sqrt(g) h^2 + k dt L) rho' = sqrt(g) h^2 rho (eq. 18). */
  diffuse(d: number, k: number, dt: number): void {
    const s = this.density[d]
    const { grid, metric, rhs, sol } = this
    const { N, P } = grid
    const sys = this.diffusionSystems().get(k, dt)
    this.kernels.run(SURFACE_GATHER, s, metric.cells.sqrtG, rhs, sol, N, P)
    this.solveDiffusion(sys, rhs, sol, 1)
    this.kernels.run(SURFACE_SCATTER, sol, s, N, P)
    grid.fillScalar(s)
  }
}
