// Semi-Lagrangian advection on the hybrid mesh (seed 000 section 3.3, after Stam 1999): the
// velocity at a point x at t + dt is the velocity found at x', traced back from x through the
// current flow. Following section 3.5 the trace uses the fast field (constant-basis MLS vertex
// velocities, linearly interpolated: HybridInterpolation.fastVelocityAt) and the value carried
// forward is the accurate one (staggered trilinear in plain hexahedra, linear MLS elsewhere:
// accurateVelocityAt), so the repeated interpolation does not smear the flow.
//
//   Faces: each face's centre is traced back and the accurate velocity there projected on the
//     face's normal. Closed faces (walls, obstacles) keep their prescribed normal velocity
//     (copied from zOld; the solver sets them). The traces run first; the end points that take
//     the linear MLS fit (in tetrahedra and transition hexahedra, and in plain hexahedra whose
//     staggered stencil misses a face: most of the cost) are then fitted as one batch on the
//     kernels (linearFitKernel.ts: over the threads on WebAssembly), each the same bits as the
//     fit one at a time.
//   Cells: scalars (density, temperature) traced back from cell centres, HybridInterpolation.scalarAt.
//   Points: massless tracker particles moved forward with the fast field (section 3; the paper
//     recomputes the vertex velocities before moving them, as the caller does here).
//
// Every trace is second-order Runge-Kutta (midpoint): v1 = u(x0), xm = x0 + s v1 / 2,
// x1 = x0 + s v(xm), s = -dt back, +dt forward. A trace that leaves the fluid (a wall, an
// obstacle) stops at the last point inside along its segment (HybridLocator.lastInside); the
// midpoint is clamped the same way. Everything runs over flat typed arrays in index order, so
// the result is deterministic; nothing is allocated per sample.
import { EddyError } from '../../api/errors'
import { TS_KERNELS } from '../core/kernelBackend'
import { segmentInside } from '../core/scalarBudget'
import type { KernelBackend } from '../core/kernelTypes'
import type { HybridInterpolation } from './hybridInterpolation'
import { HybridLocator } from './hybridLocate'
import { CELL_HEX, FACE_OBSTACLE, FACE_WALL, type HybridMesh, openSidesOf } from './hybridMesh'
import { LINEAR_FIT_POINTS, LINEAR_FIT_SCRATCH } from './linearFitKernel'

/**
 * The batch of linear fits of one advectFaces call: the mesh's face centres, normals and fit
 * neighbourhoods where the kernels reach them (copies in the WebAssembly memory; the mesh's
 * own arrays on TypeScript), the old face velocities, and per point its place, faces, length
 * unit, answer and face.
 */
class FitBatch {
  readonly C: Float64Array
  readonly N: Float64Array
  readonly faces: Int32Array
  readonly z: Float64Array
  readonly at: Float64Array
  readonly start: Int32Array
  readonly end: Int32Array
  readonly len: Float64Array
  readonly out: Float64Array
  readonly face: Int32Array
  readonly work = new Float64Array(LINEAR_FIT_SCRATCH)

  constructor(mesh: HybridMesh, neighbourFaces: Int32Array, readonly kernels: KernelBackend) {
    const copy = kernels.kind !== 'ts'
    const nf = mesh.faceCount
    const own = <T extends Float64Array | Int32Array>(a: T, make: (n: number) => T): T => {
      if (!copy) return a
      const b = make(a.length)
      b.set(a)
      return b
    }
    this.C = own(mesh.faceCentre, (n) => kernels.f64(n))
    this.N = own(mesh.faceNormal, (n) => kernels.f64(n))
    this.faces = own(neighbourFaces, (n) => kernels.i32(n))
    this.z = copy ? kernels.f64(nf) : new Float64Array(0)
    this.at = kernels.f64(3 * nf)
    this.start = kernels.i32(nf)
    this.end = kernels.i32(nf)
    this.len = kernels.f64(nf)
    this.out = kernels.f64(3 * nf)
    this.face = new Int32Array(nf)
  }
}

export type PointArray = Float64Array | Float32Array

export class HybridAdvection {
  readonly mesh: HybridMesh
  readonly locator: HybridLocator
  /** Traces of the last call that left the fluid and were stopped at its boundary. */
  clampedTraces = 0
  private readonly vel = new Float64Array(3)
  private readonly pos = new Float64Array(3)
  /** A trace's unclamped end (traceEnd). */
  private readonly end = new Float64Array(3)
  /** Open domain sides: xMin, xMax, yMin, yMax, zMin, zMax. */
  private readonly open: boolean[]
  private readonly pair = new Float64Array(2)
  private left = false
  private readonly batch: FitBatch | null

  /** kernels: where the faces' linear fits run (their arrays are copied there once). */
  constructor(readonly interpolation: HybridInterpolation, locator?: HybridLocator, kernels: KernelBackend = TS_KERNELS) {
    this.mesh = interpolation.mesh
    if (locator && locator.mesh !== this.mesh) throw new EddyError('INVALID_PARAM', 'hybrid advection: the locator was built for another mesh than the interpolation')
    this.locator = locator ?? new HybridLocator(this.mesh)
    this.batch = interpolation.neighbourFaces.length > 0 ? new FitBatch(this.mesh, interpolation.neighbourFaces, kernels) : null
    this.open = openSidesOf(this.mesh)
  }

  /**
   * The share of a trace's end that lies inside the open sides (1 when it ended inside the
   * domain or left through walls only): the unclamped end (by default the last trace's) with a
   * cell-wide segment around it (the cube's edge, or the mean edge of the tetrahedron it was
   * clamped to), per open side. A departure half a cell beyond an open side reads the ambient
   * value alone, one on the side half of it: the grid smoke's ghost layer (core/advectKernels.ts
   * openSidesSlab), since air that crossed an open side came from outside.
   */
  insideOpenSides(cell: number, end: Float64Array = this.end): number {
    const { open, mesh } = this
    const { nx, ny, nz, dx, origin } = mesh.grid
    const w = cell < mesh.hexCount ? dx : mesh.cellMeanEdge[cell]
    let kept = 1
    if (open[0]) kept *= segmentInside((end[0] - origin[0]) / w)
    if (open[1]) kept *= segmentInside((origin[0] + nx * dx - end[0]) / w)
    if (open[2]) kept *= segmentInside((end[1] - origin[1]) / w)
    if (open[3]) kept *= segmentInside((origin[1] + ny * dx - end[1]) / w)
    if (open[4]) kept *= segmentInside((end[2] - origin[2]) / w)
    if (open[5]) kept *= segmentInside((origin[2] + nz * dx - end[2]) / w)
    return kept
  }

  /**
   * RK2 (midpoint) trace of `step` (negative: back in time) from (x, y, z) in cell c through
   * the fast field; the end point in this.pos, its cell returned, this.left set when it was
   * clamped to the fluid's boundary.
   */
  private trace(x: number, y: number, z: number, c: number, step: number, vertexVel: Float64Array): number {
    const { locator, pos, end } = this
    this.traceEnd(x, y, z, c, step, vertexVel, end)
    const ex = end[0], ey = end[1], ez = end[2]
    let ce = locator.cellAt(ex, ey, ez)
    this.left = ce < 0
    if (ce < 0) ce = locator.lastInside(x, y, z, c, ex, ey, ez, pos, 0)
    else { pos[0] = ex; pos[1] = ey; pos[2] = ez }
    return ce
  }

  /**
   * The end of the RK2 trace from (x, y, z) in cell c over `step` seconds (forward for a
   * positive step) into out, not clamped to the domain (its midpoint is, as every trace's).
   */
  traceEnd(x: number, y: number, z: number, c: number, step: number, vertexVel: Float64Array, out: Float64Array): void {
    const { interpolation: interp, locator, vel, pos } = this
    this.fast(x, y, z, c, vertexVel)
    const h = 0.5 * step
    let mx = x + h * vel[0], my = y + h * vel[1], mz = z + h * vel[2]
    let cm = locator.cellAt(mx, my, mz)
    if (cm < 0) {
      cm = locator.lastInside(x, y, z, c, mx, my, mz, pos, 0)
      mx = pos[0]; my = pos[1]; mz = pos[2]
    }
    // A tetrahedron's search just computed the midpoint's barycentric coordinates there.
    if (cm >= 0 && cm === locator.lastTetCell) interp.fastVelocityInTet(cm, locator.weights, vertexVel, vel, 0)
    else this.fast(mx, my, mz, cm, vertexVel)
    out[0] = x + step * vel[0]
    out[1] = y + step * vel[1]
    out[2] = z + step * vel[2]
  }

  /**
   * The fast field at (x, y, z) in cell c into this.vel: in a tetrahedron from the locator's
   * kept barycentric terms (the same bits as fastVelocityAt, without rebuilding them).
   */
  private fast(x: number, y: number, z: number, c: number, vertexVel: Float64Array): void {
    if (c >= this.mesh.hexCount) this.interpolation.fastVelocityInTet(c, this.locator.barycentricIn(c, x, y, z), vertexVel, this.vel, 0)
    else this.interpolation.fastVelocityAt(x, y, z, c, vertexVel, this.vel, 0)
  }

  private checkStep(what: string, dt: number, vertexVel: Float64Array): void {
    if (!Number.isFinite(dt) || dt < 0) throw new EddyError('INVALID_PARAM', `hybrid advection (${what}): the time step must be finite and not negative (got ${dt})`)
    if (vertexVel.length !== 3 * this.mesh.vertexCount) throw new EddyError('INVALID_PARAM', `hybrid advection (${what}): ${vertexVel.length} vertex velocity numbers for ${this.mesh.vertexCount} vertices (3 each)`)
  }

  /**
   * zNew = the face velocities advected by dt (section 3.3): each face's centre traced back
   * with the fast field (vertexVel, from interpolation.vertexVelocities(zOld)), the accurate
   * velocity of zOld there projected on the face's normal; closed faces copy zOld.
   */
  advectFaces(zOld: Float64Array, vertexVel: Float64Array, dt: number, zNew: Float64Array): void {
    const { faceCount, faceKind, faceCentre: C, faceNormal: N, faceCellA } = this.mesh
    this.checkStep('faces', dt, vertexVel)
    if (zOld.length !== faceCount || zNew.length !== faceCount) throw new EddyError('INVALID_PARAM', `hybrid advection (faces): ${zOld.length} old and ${zNew.length} new face velocities for ${faceCount} faces`)
    if (zOld === zNew) throw new EddyError('INVALID_PARAM', 'hybrid advection (faces): zOld and zNew must be different arrays (the traces read zOld while zNew is written)')
    const { interpolation: interp, pos, vel, batch } = this
    const { cellKind, cellMeanEdge } = this.mesh
    const { neighbourStart } = interp
    let clamped = 0
    let points = 0
    for (let f = 0; f < faceCount; f++) {
      const kind = faceKind[f]
      if (kind === FACE_WALL || kind === FACE_OBSTACLE) {
        zNew[f] = zOld[f]
        continue
      }
      // The centre lies on cell a's boundary: its fields are defined there, no search needed.
      const c = this.trace(C[3 * f], C[3 * f + 1], C[3 * f + 2], faceCellA[f], -dt, vertexVel)
      if (this.left) clamped++
      // accurateVelocityAt: the staggered trilinear in a plain hexahedron when its stencil is
      // whole, else the linear fit over the cell's neighbourhood, in the batch below.
      if (cellKind[c] === CELL_HEX && interp.macVelocityAt(pos[0], pos[1], pos[2], c, zOld, vel, 0)) {
        zNew[f] = vel[0] * N[3 * f] + vel[1] * N[3 * f + 1] + vel[2] * N[3 * f + 2]
        continue
      }
      if (batch !== null && neighbourStart[c + 1] > neighbourStart[c]) {
        batch.at[3 * points] = pos[0]; batch.at[3 * points + 1] = pos[1]; batch.at[3 * points + 2] = pos[2]
        batch.start[points] = neighbourStart[c]
        batch.end[points] = neighbourStart[c + 1]
        batch.len[points] = cellMeanEdge[c]
        batch.face[points++] = f
        continue
      }
      interp.accurateVelocityAt(pos[0], pos[1], pos[2], c, zOld, vel, 0)
      zNew[f] = vel[0] * N[3 * f] + vel[1] * N[3 * f + 1] + vel[2] * N[3 * f + 2]
    }
    if (batch !== null && points > 0) {
      const z = batch.z.length > 0 ? batch.z : zOld
      if (z !== zOld) z.set(zOld)
      const eps = interp.epsilonFactor
      batch.kernels.run(LINEAR_FIT_POINTS, batch.C, batch.N, z, batch.faces, batch.at, batch.start, batch.end, batch.len, eps * eps, batch.out, batch.work, points)
      const { out, face } = batch
      for (let q = 0; q < points; q++) {
        const f = face[q]
        zNew[f] = out[3 * q] * N[3 * f] + out[3 * q + 1] * N[3 * f + 1] + out[3 * q + 2] * N[3 * f + 2]
      }
    }
    this.clampedTraces = clamped
  }

  /**
   * out = the cell-centred scalar `values` advected by dt: each centre traced back, scalarAt
   * there; with `values2`, out2 the same for a second scalar from the same traces (density and
   * temperature ride one flow: tracing twice would find the same points).
   */
  advectCells(
    values: Float64Array | Float32Array,
    vertexVel: Float64Array,
    dt: number,
    out: Float64Array | Float32Array,
    values2: Float64Array | Float32Array | null = null,
    out2: Float64Array | Float32Array | null = null,
    ambients: readonly [number, number] | null = null,
  ): void {
    const { cellCount, cellCentre: C } = this.mesh
    this.checkStep('cells', dt, vertexVel)
    for (const [v, o] of values2 === null ? [[values, out]] : [[values, out], [values2, out2]]) {
      if (v === null || o === null || v.length !== cellCount || o.length !== cellCount) throw new EddyError('INVALID_PARAM', `hybrid advection (cells): ${v?.length ?? 'no'} values and ${o?.length ?? 'no'} outputs for ${cellCount} cells`)
      if (v === o) throw new EddyError('INVALID_PARAM', 'hybrid advection (cells): values and out must be different arrays')
    }
    // Each output is written while both inputs are still read.
    if (values2 !== null && (out === out2 || out === values2 || out2 === values)) throw new EddyError('INVALID_PARAM', 'hybrid advection (cells): the two scalars need four different arrays')
    const { interpolation: interp, pos, pair } = this
    let clamped = 0
    for (let c = 0; c < cellCount; c++) {
      const e = this.trace(C[3 * c], C[3 * c + 1], C[3 * c + 2], c, -dt, vertexVel)
      // With ambients, departures beyond an open side read the ambient value there.
      let inside = 1
      if (this.left) {
        clamped++
        if (ambients !== null) inside = this.insideOpenSides(e)
      }
      if (values2 === null) {
        const a = interp.scalarAt(pos[0], pos[1], pos[2], e, values)
        out[c] = inside === 1 ? a : ambients![0] + (a - ambients![0]) * inside
      } else {
        interp.scalarsAt(pos[0], pos[1], pos[2], e, values, values2, pair)
        out[c] = inside === 1 ? pair[0] : ambients![0] + (pair[0] - ambients![0]) * inside
        out2![c] = inside === 1 ? pair[1] : ambients![1] + (pair[1] - ambients![1]) * inside
      }
    }
    this.clampedTraces = clamped
  }

  /**
   * Moves `count` tracker particles (px, py, pz) forward by dt with the fast field (RK2). A
   * particle whose step leaves the fluid stops at the last point inside; one that starts
   * outside stays put. Both are counted, and flagged 1 in `lost` when given (0 otherwise).
   * Returns the count.
   */
  advectPoints(px: PointArray, py: PointArray, pz: PointArray, count: number, vertexVel: Float64Array, dt: number, lost?: Uint8Array): number {
    this.checkStep('points', dt, vertexVel)
    if (!(Number.isInteger(count) && count >= 0 && count <= px.length && count <= py.length && count <= pz.length)) {
      throw new EddyError('INVALID_PARAM', `hybrid advection (points): ${count} particles but coordinate arrays of ${px.length}, ${py.length}, ${pz.length}`)
    }
    if (lost && lost.length < count) throw new EddyError('INVALID_PARAM', `hybrid advection (points): a lost-flag array of ${lost.length} for ${count} particles`)
    const { locator, pos } = this
    let n = 0
    for (let p = 0; p < count; p++) {
      const x = px[p], y = py[p], z = pz[p]
      const c = locator.cellAt(x, y, z)
      let out = c < 0
      if (!out) {
        this.trace(x, y, z, c, dt, vertexVel)
        out = this.left
        px[p] = pos[0]; py[p] = pos[1]; pz[p] = pos[2]
      }
      if (out) n++
      if (lost) lost[p] = out ? 1 : 0
    }
    this.clampedTraces = n
    return n
  }
}
