// The state of the hybrid-mesh smoke on one mesh and the operators built for it: face normal
// velocities z, cell density and temperature, the projection (hybridProjection.ts), the MLS
// interpolation and semi-Lagrangian advection (hybridInterpolation.ts, hybridAdvection.ts) and
// the cell operators of the forces (hybridVorticity.ts, hybridForces.ts). A remesh (a moving
// obstacle) makes a new HybridFields and carries the old state over by interpolation
// (carryOnto): face velocities read with the accurate (eq. 11) interpolant at the new face
// centres, cell values with the scalar fit at the new cell centres (faces and cells the move
// left plain hexahedra keep their values); what was inside the obstacle before takes the
// obstacle's velocity and no smoke.
import { PressureGuess } from '../core/pressureGuess'
import { EddyError } from '../../api/errors'
import { kernelCopy, TS_KERNELS } from '../core/kernelBackend'
import { MeshScalarBudget } from '../core/scalarBudget'
import type { AmgOptions } from '../core/amg/amgHierarchy'
import type { KernelBackend } from '../core/kernelTypes'
import type { PrimitiveSdf } from '../../geometry/primitiveSdf'
import type { Vec3 } from '../../scene/types'
import { bucketByCube, type CubeBuckets, visitBox } from './cubeBuckets'
import { HybridAdvection } from './hybridAdvection'
import { addCellBuoyancy, HYBRID_FACE_FORCES } from './hybridForces'
import type { HybridPayload, HybridSimInput } from './hybridInput'
import { HybridInterpolation } from './hybridInterpolation'
import { HybridLocator } from './hybridLocate'
import { CELL_HEX, CUBE_BAND, CUBE_HEX, FACE_INTERIOR, FACE_OBSTACLE, FACE_OPEN, FACE_WALL, type HybridMesh, openSidesOf } from './hybridMesh'
import type { HybridObstacles } from './hybridObstacles'
import { HybridProjection, type HybridProjectStats } from './hybridProjection'
import { HybridVorticity } from './hybridVorticity'
import type { TrackerParticles } from './trackerParticles'

/** A state interpolated onto a new mesh (HybridFields.carryOnto), per face and per cell. */
export interface CarriedState {
  z: Float64Array
  density: Float64Array
  temperature: Float64Array
}

export class HybridFields {
  readonly z: Float64Array
  readonly density: Float64Array
  readonly temperature: Float64Array
  readonly locator: HybridLocator
  readonly interpolation: HybridInterpolation
  readonly advection: HybridAdvection
  readonly projection: HybridProjection
  /** The next step solve's start: the pressure extrapolated from the last two (core/pressureGuess.ts). */
  readonly guess: PressureGuess
  readonly vorticity: HybridVorticity
  /** Vertex velocities of the last advect() (the fast field), 3 per vertex. */
  readonly vertexVelocity: Float64Array
  readonly fx: Float64Array
  readonly fy: Float64Array
  readonly fz: Float64Array
  private readonly zTmp: Float64Array
  private readonly sTmp: Float64Array
  private readonly sTmp2: Float64Array
  private lost = new Uint8Array(0)
  private readonly openSides: boolean[]
  /** Keeps the smoke and heat through advection, less what leaves through open sides. */
  private readonly budget: MeshScalarBudget
  /** What the last advection carried out through open sides: smoke, heat (amountLeaving). */
  private readonly left = new Float64Array(2)
  private readonly traceEndPoint = new Float64Array(3)
  /** Per cell, how far its centre lies from the nearest open side (openSideGaps; found once). */
  private openSideGap: Float64Array | null = null
  /** 1 for the cells amountLeaving traces (within reach of an open side). */
  private readonly nearOpenSide: Uint8Array
  /** What lies beyond an open side: no smoke, the ambient temperature. */
  private readonly ambients: readonly [number, number]
  private readonly v3 = new Float64Array(3)
  private readonly p3 = new Float64Array(3)
  private readonly kernels: KernelBackend
  /** Eq. 5's row (hybridForces.ts HYBRID_FACE_FORCES): the mesh's arrays where the kernels read them. */
  private readonly faceForceArrays: { faceKind: Uint8Array; faceCellA: Int32Array; faceCellB: Int32Array; cellVolume: Float64Array; faceNormal: Float64Array }
  /** The wall and obstacle faces, found once (setClosedFaces). */
  private closedFaces: Int32Array | null = null
  /** The band cubes' centres and cells, found once (resample). */
  private bandSamples: BandSamples | null = null
  /** The cells and the open faces by grid cube (emit), on first use. */
  private emitBuckets: { cells: CubeBuckets; faces: CubeBuckets } | null = null

  /**
   * @param obstacles the placement this mesh was built for: a later remesh extrapolates this
   *   mesh's flow into what the obstacles vacated (carryOnto).
   * @param kernels where the pressure solve, the advection's traces and fits and the vorticity's passes run (HybridProjection, HybridAdvection, HybridVorticity).
   * @param coarsening the pressure multigrid's (HybridProjection): 'aggregation' where the mesh
   *   is rebuilt every substep around a moving obstacle (HybridSetup.keyframedObstacles).
   */
  constructor(readonly mesh: HybridMesh, readonly ambientTemperature: number, readonly obstacles: HybridObstacles | null = null, kernels: KernelBackend = TS_KERNELS, coarsening: AmgOptions['coarsening'] = 'splitting') {
    const nf = mesh.faceCount, nc = mesh.cellCount
    this.openSides = openSidesOf(mesh)
    this.ambients = [0, ambientTemperature]
    // The state lives where the kernels read it, so their rows take it without copies.
    this.z = kernels.f64(nf)
    this.zTmp = kernels.f64(nf)
    this.density = kernels.f64(nc)
    this.temperature = kernels.f64(nc).fill(ambientTemperature)
    this.sTmp = kernels.f64(nc)
    this.sTmp2 = kernels.f64(nc)
    // The per-cell forces live where the kernels read them (the confinement and eq. 5 are rows).
    this.fx = kernels.f64(nc)
    this.fy = kernels.f64(nc)
    this.fz = kernels.f64(nc)
    this.kernels = kernels
    this.budget = new MeshScalarBudget(kernels)
    const own = <T extends Float64Array | Int32Array | Uint8Array>(a: T): T => kernelCopy(kernels, a)
    this.faceForceArrays = {
      faceKind: own(mesh.faceKind), faceCellA: own(mesh.faceCellA), faceCellB: own(mesh.faceCellB), cellVolume: own(mesh.cellVolume), faceNormal: own(mesh.faceNormal),
    }
    this.vertexVelocity = kernels.f64(3 * mesh.vertexCount)
    this.nearOpenSide = new Uint8Array(nc)
    this.locator = new HybridLocator(mesh)
    this.interpolation = new HybridInterpolation(mesh)
    this.advection = new HybridAdvection(this.interpolation, this.locator, kernels)
    this.projection = new HybridProjection(mesh, kernels, coarsening)
    this.guess = new PressureGuess(mesh.cellCount, kernels)
    this.vorticity = new HybridVorticity(mesh, undefined, kernels)
  }

  /** The solved pressure (dt/rho times the physical one): the next solve's warm start. */
  get pressure(): Float64Array {
    return this.projection.p
  }

  cellAt(x: number, y: number, z: number): number {
    return this.locator.cellAt(x, y, z)
  }

  /**
   * The cells' largest plain speed (NaN when a cell's is NaN): their plain velocities' (without
   * the tetrahedra's gradient corrections, which refine a tetrahedron's velocity for the
   * vorticity and do not bound it better).
   */
  cellSpeed(): number {
    const u = this.vorticity.plainVelocities(this.z)
    let m2 = 0
    for (let c = 0; c < this.mesh.cellCount; c++) {
      const s = u[3 * c] * u[3 * c] + u[3 * c + 1] * u[3 * c + 1] + u[3 * c + 2] * u[3 * c + 2]
      if (s > m2 || s !== s) m2 = s
    }
    return Math.sqrt(m2)
  }

  /** Largest speed the next substep must follow: the cells' (cellSpeed, unless the caller has it) and the emitters' inflow. */
  maxSpeed(input: HybridSimInput, cells = this.cellSpeed()): number {
    let m = cells
    for (const e of input.emitters) if (e.fluid === 'gas' && e.rate > 0) m = Math.max(m, Math.hypot(e.velocity[0], e.velocity[1], e.velocity[2]))
    return m
  }

  /**
   * An emitter over one substep: cells whose centres are inside move towards its density and
   * temperature by a = 1 - exp(-rate h), faces whose centres are inside towards its velocity's
   * normal component (the grid smoke's rule, emitters.ts there).
   */
  emit(sdf: PrimitiveSdf, a: number, density: number, temperature: number, velocity: Vec3): void {
    const { mesh } = this
    const { min, max } = sdf.bounds
    // Only the points of the cubes under the emitter's box (cubeBuckets.ts); each updates alone, so the order changes nothing.
    const buckets = (this.emitBuckets ??= {
      cells: bucketByCube(mesh.grid, mesh.cellCentre, mesh.cellCount, null),
      faces: bucketByCube(mesh.grid, mesh.faceCentre, mesh.faceCount, (f) => mesh.faceKind[f] === FACE_INTERIOR || mesh.faceKind[f] === FACE_OPEN),
    })
    const C = mesh.cellCentre
    visitBox(mesh.grid, buckets.cells, min, max, (c) => {
      const x = C[3 * c], y = C[3 * c + 1], z = C[3 * c + 2]
      if (x < min[0] || y < min[1] || z < min[2] || x > max[0] || y > max[1] || z > max[2]) return
      if (sdf.distance(x, y, z) > 0) return
      this.density[c] += a * (density - this.density[c])
      this.temperature[c] += a * (temperature - this.temperature[c])
    })
    const F = mesh.faceCentre, N = mesh.faceNormal
    visitBox(mesh.grid, buckets.faces, min, max, (f) => {
      const x = F[3 * f], y = F[3 * f + 1], z = F[3 * f + 2]
      if (x < min[0] || y < min[1] || z < min[2] || x > max[0] || y > max[1] || z > max[2]) return
      if (sdf.distance(x, y, z) > 0) return
      const un = velocity[0] * N[3 * f] + velocity[1] * N[3 * f + 1] + velocity[2] * N[3 * f + 2]
      this.z[f] += a * (un - this.z[f])
    })
  }

  /** Section 3.3: vertex velocities, then density, temperature, face velocities and tracker particles carried by h. */
  advect(h: number, trackers: TrackerParticles): void {
    const { advection, vertexVelocity: vv } = this
    advection.vertexVelocities(this.z, vv)
    // The faces' values (most of the advection's cost) run on the kernels' other threads while
    // this thread advects the cells (HybridAdvection.beginFaces): the cells' passes that are
    // not kernel rows no longer leave those threads waiting. Neither reads what the other writes.
    advection.beginFaces(this.z, vv, h, this.zTmp)
    try {
      const left = this.left
      if (this.openSides.some((o) => o)) this.amountLeaving(vv, h, left)
      else left.fill(0)
      advection.advectCells(this.density, vv, h, this.sTmp, this.temperature, this.sTmp2, this.ambients)
      // The smoke and heat are kept, less what left through open sides: semi-Lagrangian
      // transport on the mesh does not keep them (a 30 K thermal in a closed box lost 6.7% in
      // 2 s on a 24-cube hybrid mesh, 12.5% all-hexahedral, and gained 5.5% on a 16-cube hybrid
      // mesh), so what it gained or lost goes back (core/scalarBudget.ts).
      this.budget.restore(this.sTmp, this.density, 0, this.mesh, left[0])
      this.budget.restore(this.sTmp2, this.temperature, this.ambientTemperature, this.mesh, left[1])
      this.density.set(this.sTmp)
      this.temperature.set(this.sTmp2)
    } finally {
      advection.finishFaces()
    }
    this.z.set(this.zTmp)
    if (trackers.count > 0) {
      if (this.lost.length < trackers.count) this.lost = new Uint8Array(trackers.x.length)
      const lost = this.lost.subarray(0, trackers.count)
      lost.fill(0)
      // A particle the flow carries against a wall or an obstacle stays there (clamped to the
      // last point inside, as the back-traces are): dropping them lost 17% of the desk toy's
      // in 144 frames. Only those leaving through an open side are gone.
      if (advection.advectPoints(trackers.x, trackers.y, trackers.z, trackers.count, vv, h, lost) > 0 && this.dropLeaving(trackers, lost)) trackers.compact(lost)
    }
  }

  /**
   * What the cells' advection over h carries out through the open sides, sum V (q - q_amb),
   * smoke into out[0] and heat into out[1]: each cell within reach of an open side is traced
   * forward, and the share of a cell-wide segment around the trace's end that lies beyond an
   * open side has left (HybridAdvection.insideOpenSides; the grid smoke's rule,
   * core/scalarBudget.ts amountLeaving).
   */
  private amountLeaving(vv: Float64Array, h: number, out: Float64Array): void {
    const { mesh, openSides: open } = this
    const { dx } = mesh.grid
    let v2 = 0
    for (let i = 0; i < vv.length; i += 3) v2 = Math.max(v2, vv[i] * vv[i] + vv[i + 1] * vv[i + 1] + vv[i + 2] * vv[i + 2])
    const reach = Number.isFinite(v2) ? Math.sqrt(v2) * h + 2 * dx : Infinity
    const near = this.nearOpenSide
    const gap = this.openSideGap ?? (this.openSideGap = openSideGaps(mesh, open))
    let any = false
    for (let c = 0; c < mesh.cellCount; c++) {
      near[c] = gap[c] < reach ? 1 : 0
      if (near[c] !== 0) any = true
    }
    out[0] = 0
    out[1] = 0
    if (!any) return
    let d = 0
    let t = 0
    // Each near cell's trace on the kernels (HybridAdvection.traceEnds), summed here in cell order.
    const ends = this.advection.traceEnds(near, h, vv)
    const end = this.traceEndPoint
    for (let c = 0; c < mesh.cellCount; c++) {
      if (near[c] === 0) continue
      end[0] = ends[3 * c]; end[1] = ends[3 * c + 1]; end[2] = ends[3 * c + 2]
      const kept = this.advection.insideOpenSides(c, end)
      if (kept === 1) continue
      const share = mesh.cellVolume[c] * (1 - kept)
      d += share * this.density[c]
      t += share * (this.temperature[c] - this.ambientTemperature)
    }
    out[0] = d
    out[1] = t
  }

  /**
   * Keeps the flags (1 = drop) of the clamped particles within a cell of an open side of the
   * domain and clears the others; whether any is left to drop.
   */
  private dropLeaving(trackers: TrackerParticles, lost: Uint8Array): boolean {
    const { nx, ny, nz, dx, origin } = this.mesh.grid
    const open = this.openSides
    let any = false
    for (let p = 0; p < trackers.count; p++) {
      if (!lost[p]) continue
      const u = (trackers.x[p] - origin[0]) / dx, v = (trackers.y[p] - origin[1]) / dx, w = (trackers.z[p] - origin[2]) / dx
      const leaving = (open[0] && u < 1) || (open[1] && u > nx - 1) || (open[2] && v < 1) || (open[3] && v > ny - 1) || (open[4] && w < 1) || (open[5] && w > nz - 1)
      lost[p] = leaving ? 1 : 0
      if (leaving) any = true
    }
    return any
  }

  /**
   * Section 3.2: buoyancy and vorticity confinement per cell (plus `extra`, the vortex
   * particles' forces already in fx, fy, fz), on the faces by eq. 5; then dissipation.
   */
  addForces(h: number, p: HybridPayload): void {
    const n = this.mesh.cellCount
    addCellBuoyancy(n, this.density, this.temperature, p.buoyancy, this.fy)
    if (p.vorticity > 0) {
      this.vorticity.compute(this.z)
      this.vorticity.addConfinement(p.vorticity, this.fx, this.fy, this.fz)
    }
    if (!(Number.isFinite(h) && h >= 0)) throw new EddyError('INVALID_PARAM', `hybrid forces: the time step must be a finite number of seconds >= 0 (got ${h})`)
    // addCellForcesToFaces as a row over the faces.
    const F = this.faceForceArrays
    this.kernels.run(HYBRID_FACE_FORCES, F.faceKind, F.faceCellA, F.faceCellB, F.cellVolume, F.faceNormal, this.fx, this.fy, this.fz, h, this.z, this.mesh.faceCount)
    this.fx.fill(0); this.fy.fill(0); this.fz.fill(0)
    const kd = Math.exp(-p.dissipation.density * h), kt = Math.exp(-p.dissipation.temperature * h)
    if (kd !== 1) for (let c = 0; c < n; c++) this.density[c] *= kd
    if (kt !== 1) {
      const T0 = this.ambientTemperature
      for (let c = 0; c < n; c++) this.temperature[c] = T0 + (this.temperature[c] - T0) * kt
    }
  }

  /** Closed faces take the solid's normal velocity: 0 on walls, the obstacle's rigid motion on obstacle faces. */
  setClosedFaces(obstacles: HybridObstacles): void {
    const { mesh, v3 } = this
    const F = mesh.faceCentre, N = mesh.faceNormal
    const closed = this.closedFaces ?? (this.closedFaces = closedFacesOf(mesh))
    // Obstacles at rest give every closed face 0, as the walls (velocityAt's rigid motion is 0 there).
    const rest = obstacles.atRest
    for (let i = 0; i < closed.length; i++) {
      const f = closed[i]
      if (rest || mesh.faceKind[f] === FACE_WALL) this.z[f] = 0
      else {
        obstacles.velocityAt(F[3 * f], F[3 * f + 1], F[3 * f + 2], v3)
        this.z[f] = v3[0] * N[3 * f] + v3[1] * N[3 * f + 1] + v3[2] * N[3 * f + 2]
      }
    }
  }


  /**
   * Makes z divergence free. dt: the length of the step it ends, whose solve then starts from
   * the pressure extrapolated in time (core/pressureGuess.ts); without it, from the last solve.
   */
  project(tolerance: number, dt?: number): HybridProjectStats {
    return this.guess.around(this.projection.p, dt, () => this.projection.project(this.z, { tolerance, maxIterations: 1000 }))
  }

  /**
   * Density, temperature and velocity on the domain's grid (cell centres; the raymarcher's and
   * VDB export's volumes): a hexahedron's own values, the interpolants at band cube centres,
   * nothing (ambient) in solid cubes.
   */
  resample(density: Float32Array, temperature: Float32Array, velocity: Float32Array): void {
    const { mesh } = this
    const { nx, ny, nz } = mesh.grid
    // A hexahedron's velocity is its plain fit (the corrections change tetrahedra only).
    const u = this.vorticity.plainVelocities(this.z)
    for (let q = 0, n = nx * ny * nz; q < n; q++) {
      const role = mesh.cubeRole[q]
      if (role === CUBE_HEX) {
        const c = mesh.cubeHex[q]
        density[q] = this.density[c]
        temperature[q] = this.temperature[c]
        velocity[3 * q] = u[3 * c]; velocity[3 * q + 1] = u[3 * c + 1]; velocity[3 * q + 2] = u[3 * c + 2]
      } else temperature[q] = this.ambientTemperature
    }
    const band = this.bandSamples ?? (this.bandSamples = bandCubeSamples(mesh, this.locator))
    const { count, cube } = band
    this.advection.sampleAt(band.points, band.cells, count, this.density, this.temperature, this.z, band.density, band.temperature, band.velocity)
    for (let i = 0; i < count; i++) {
      const q = cube[i]
      density[q] = band.density[i]
      temperature[q] = band.temperature[i]
      velocity[3 * q] = band.velocity[3 * i]; velocity[3 * q + 1] = band.velocity[3 * i + 1]; velocity[3 * q + 2] = band.velocity[3 * i + 2]
    }
  }

  /**
   * This state interpolated onto `mesh` (the new mesh after an obstacle moved; see the file
   * comment), in plain arrays: the caller frees this mesh's kernel memory before the new mesh's
   * fields take theirs and loadCarried() it. Cells nothing covers get no smoke and the new
   * mesh's ambient temperature, as a new mesh starts.
   *
   * Away from the band both meshes are the same plain hexahedra: such a cell on a cube that held
   * a plain hexahedron before, and such a face on a grid face that held one square face between
   * plain hexahedra before, keep their values (the trilinear reads at their own places would
   * return them). The rest, near the obstacles, are read where this mesh holds their places, in
   * batches whose fits run on the kernels (HybridAdvection.sampleAt).
   */
  carryOnto(mesh: HybridMesh, obstacles: HybridObstacles, ambientTemperature: number): CarriedState {
    const old = this.mesh
    const out: CarriedState = { z: new Float64Array(mesh.faceCount), density: new Float64Array(mesh.cellCount), temperature: new Float64Array(mesh.cellCount).fill(ambientTemperature) }
    const points = new Float64Array(3 * Math.max(mesh.cellCount, mesh.faceCount))
    const cells = new Int32Array(Math.max(mesh.cellCount, mesh.faceCount))
    const which = new Int32Array(Math.max(mesh.cellCount, mesh.faceCount))
    const p = this.p3
    // Cells.
    const C = mesh.cellCentre
    let n = 0
    for (let c = 0; c < mesh.cellCount; c++) {
      if (mesh.cellKind[c] === CELL_HEX) {
        const was = old.cubeHex[mesh.hexCube[c]]
        if (was >= 0 && old.cellKind[was] === CELL_HEX) {
          out.density[c] = this.density[was]
          out.temperature[c] = this.temperature[was]
          continue
        }
      }
      const oc = this.locateOrPushOut(C[3 * c], C[3 * c + 1], C[3 * c + 2], p)
      if (oc < 0) continue
      points[3 * n] = p[0]; points[3 * n + 1] = p[1]; points[3 * n + 2] = p[2]
      cells[n] = oc
      which[n++] = c
    }
    if (n > 0) {
      const a = new Float64Array(n), b = new Float64Array(n)
      this.advection.sampleAt(points, cells, n, this.density, this.temperature, this.z, a, b, null)
      for (let i = 0; i < n; i++) {
        out.density[which[i]] = a[i]
        out.temperature[which[i]] = b[i]
      }
    }
    // Faces.
    const F = mesh.faceCentre, N = mesh.faceNormal, ON = old.faceNormal, v3 = this.v3
    n = 0
    for (let f = 0; f < mesh.faceCount; f++) {
      const was = unchangedFace(mesh, old, f)
      if (was >= 0) {
        // The same square, its normal along the same axis either way (+-1 exactly).
        const s = N[3 * f] * ON[3 * was] + N[3 * f + 1] * ON[3 * was + 1] + N[3 * f + 2] * ON[3 * was + 2]
        out.z[f] = s > 0 ? this.z[was] : -this.z[was]
        continue
      }
      const oc = this.locateOrPushOut(F[3 * f], F[3 * f + 1], F[3 * f + 2], p)
      if (oc < 0) {
        obstacles.velocityAt(F[3 * f], F[3 * f + 1], F[3 * f + 2], v3)
        out.z[f] = v3[0] * N[3 * f] + v3[1] * N[3 * f + 1] + v3[2] * N[3 * f + 2]
        continue
      }
      points[3 * n] = p[0]; points[3 * n + 1] = p[1]; points[3 * n + 2] = p[2]
      cells[n] = oc
      which[n++] = f
    }
    if (n > 0) {
      const vel = new Float64Array(3 * n)
      this.advection.sampleAt(points, cells, n, this.density, this.temperature, this.z, null, null, vel)
      for (let i = 0; i < n; i++) {
        const f = which[i]
        out.z[f] = vel[3 * i] * N[3 * f] + vel[3 * i + 1] * N[3 * f + 1] + vel[3 * i + 2] * N[3 * f + 2]
      }
    }
    return out
  }

  /** The state another mesh's carryOnto() found for this one; the pressure starts from zero. */
  loadCarried(state: CarriedState): void {
    if (state.z.length !== this.mesh.faceCount || state.density.length !== this.mesh.cellCount || state.temperature.length !== this.mesh.cellCount) {
      throw new EddyError('INTERNAL', `hybrid remesh: a carried state of ${state.z.length} faces and ${state.density.length} cells for a mesh of ${this.mesh.faceCount} and ${this.mesh.cellCount}`)
    }
    this.z.set(state.z)
    this.density.set(state.density)
    this.temperature.set(state.temperature)
  }

  /**
   * The cell of this mesh holding (x, y, z), the point in out. A point the obstacles covered
   * when this mesh was built (a keyframed obstacle has moved off it since) is first pushed out
   * along their distance's gradient to a quarter cell outside, so the flow beside the obstacle
   * is extrapolated into what it vacated: giving that sliver the obstacle's own velocity left
   * a wake that grew by half a cell of wrong flow every substep (the potential flow of a moving
   * sphere was 50% off after six frames). -1 when nothing is found.
   */
  private locateOrPushOut(x: number, y: number, z: number, out: Float64Array): number {
    out[0] = x; out[1] = y; out[2] = z
    const c = this.locator.cellAt(x, y, z)
    if (c >= 0 || !this.obstacles) return c
    const phi = this.obstacles.field()
    if (!phi) return -1
    const h = this.mesh.grid.dx, e = 1e-3 * h
    let px = x, py = y, pz = z
    for (let it = 0; it < 4; it++) {
      const d = phi(px, py, pz)
      const gx = (phi(px + e, py, pz) - phi(px - e, py, pz)) / (2 * e)
      const gy = (phi(px, py + e, pz) - phi(px, py - e, pz)) / (2 * e)
      const gz = (phi(px, py, pz + e) - phi(px, py, pz - e)) / (2 * e)
      const g = Math.hypot(gx, gy, gz)
      if (!(g > 0)) return -1
      const step = (0.25 * h - d) / g
      px += (step * gx) / g; py += (step * gy) / g; pz += (step * gz) / g
      const found = this.locator.cellAt(px, py, pz)
      if (found >= 0) {
        out[0] = px; out[1] = py; out[2] = pz
        return found
      }
    }
    return -1
  }

  /** A restored state (the same mesh rebuilt from the checkpoint's obstacle placements). */
  load(state: { z: Float64Array; density: Float64Array; temperature: Float64Array; p: Float64Array; pPrev: Float64Array | null; pressureSteps: unknown }): void {
    if (state.z.length !== this.mesh.faceCount || state.density.length !== this.mesh.cellCount) {
      throw new EddyError('INVALID_PARAM', `Checkpoint is not usable: it holds ${state.z.length} faces and ${state.density.length} cells, the mesh rebuilt from its obstacles has ${this.mesh.faceCount} and ${this.mesh.cellCount}`, { field: 'checkpoint' })
    }
    this.loadCarried(state)
    this.projection.p.set(state.p)
    this.guess.restore(state.pressureSteps, state.pPrev)
  }
}

/**
 * Per cell the distance from its centre to the nearest open side of the domain (Infinity with
 * none): a cell is within reach r of an open side when this is below r.
 */
function openSideGaps(mesh: HybridMesh, open: readonly boolean[]): Float64Array {
  const { nx, ny, nz, dx, origin } = mesh.grid
  const lo0 = origin[0], lo1 = origin[1], lo2 = origin[2]
  const hi0 = lo0 + nx * dx, hi1 = lo1 + ny * dx, hi2 = lo2 + nz * dx
  const C = mesh.cellCentre
  const gap = new Float64Array(mesh.cellCount)
  for (let c = 0; c < mesh.cellCount; c++) {
    const x = C[3 * c], y = C[3 * c + 1], z = C[3 * c + 2]
    let g = Infinity
    if (open[0]) g = Math.min(g, x - lo0)
    if (open[1]) g = Math.min(g, hi0 - x)
    if (open[2]) g = Math.min(g, y - lo1)
    if (open[3]) g = Math.min(g, hi1 - y)
    if (open[4]) g = Math.min(g, z - lo2)
    if (open[5]) g = Math.min(g, hi2 - z)
    gap[c] = g
  }
  return gap
}

/** The faces of kind FACE_WALL or FACE_OBSTACLE, in face order. */
function closedFacesOf(mesh: HybridMesh): Int32Array {
  const list: number[] = []
  for (let f = 0; f < mesh.faceCount; f++) if (mesh.faceKind[f] === FACE_WALL || mesh.faceKind[f] === FACE_OBSTACLE) list.push(f)
  return Int32Array.from(list)
}

/** The band cubes whose centre lies in a cell: where resample() interpolates, and its answers. */
interface BandSamples {
  count: number
  /** Grid index of each cube. */
  cube: Int32Array
  points: Float64Array
  cells: Int32Array
  density: Float64Array
  temperature: Float64Array
  velocity: Float64Array
}

function bandCubeSamples(mesh: HybridMesh, locator: HybridLocator): BandSamples {
  const { nx, ny, nz, dx, origin } = mesh.grid
  const cube: number[] = [], cells: number[] = [], points: number[] = []
  for (let k = 0, q = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++, q++) {
    if (mesh.cubeRole[q] !== CUBE_BAND) continue
    const x = origin[0] + (i + 0.5) * dx, y = origin[1] + (j + 0.5) * dx, z = origin[2] + (k + 0.5) * dx
    const c = locator.cellAt(x, y, z)
    if (c < 0) continue
    cube.push(q)
    cells.push(c)
    points.push(x, y, z)
  }
  const count = cube.length
  return { count, cube: Int32Array.from(cube), points: Float64Array.from(points), cells: Int32Array.from(cells), density: new Float64Array(count), temperature: new Float64Array(count), velocity: new Float64Array(3 * count) }
}

/** Whether a face's cells are plain hexahedra (b may be none: a domain side). */
function betweenPlainHexahedra(mesh: HybridMesh, f: number): boolean {
  const b = mesh.faceCellB[f]
  return mesh.cellKind[mesh.faceCellA[f]] === CELL_HEX && (b < 0 || mesh.cellKind[b] === CELL_HEX)
}

/**
 * The face of `old` that face f of `mesh` is unchanged from, or -1: f lies between plain
 * hexahedra on a grid face that held exactly one face of the same kind between plain
 * hexahedra in `old` (both meshes share the grid).
 */
function unchangedFace(mesh: HybridMesh, old: HybridMesh, f: number): number {
  const g = mesh.faceGridFace[f]
  if (g < 0 || !betweenPlainHexahedra(mesh, f)) return -1
  const s = old.gridFaceStart[g]
  if (old.gridFaceStart[g + 1] - s !== 1) return -1
  const was = old.gridFaces[s]
  if (old.faceKind[was] !== mesh.faceKind[f] || (old.faceCellB[was] < 0) !== (mesh.faceCellB[f] < 0) || !betweenPlainHexahedra(old, was)) return -1
  return was
}
