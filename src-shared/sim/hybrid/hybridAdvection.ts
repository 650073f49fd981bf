// Semi-Lagrangian advection on the hybrid mesh (seed 000 section 3.3, after Stam 1999): the
// velocity at a point x at t + dt is the velocity found at x', traced back from x through the
// current flow. Following section 3.5 the trace uses the fast field (constant-basis MLS vertex
// velocities, linearly interpolated: HybridInterpolation.fastVelocityAt) and the value carried
// forward is the accurate one (staggered trilinear in plain hexahedra, linear MLS elsewhere:
// accurateVelocityAt), so the repeated interpolation does not smear the flow.
//
//   Faces: each face's centre is traced back and the accurate velocity there projected on the
//     face's normal. Closed faces (walls, obstacles) keep their prescribed normal velocity
//     (copied from zOld; the solver sets them). Faces whose trace lies among hexahedra (its
//     start, midpoint and end in hexahedral cubes: most of a hybrid mesh's) are traced on the
//     kernels first (hexTraceKernel.ts), with the staggered value where its stencil is whole;
//     the others are traced whole by a second row (fullTraceKernel.ts: tetrahedra located by a
//     walk or the locator's index, clamps by bisection). Then a third row answers every face
//     still open where its trace ended (faceValueKernel.ts): the staggered value in a plain
//     hexahedron whose stencil is whole, else the linear MLS fit (in tetrahedra and
//     transition hexahedra, and in plain hexahedra whose staggered stencil misses a face: most
//     of the cost; over the threads on WebAssembly), each the same bits as the fit one at a
//     time. (Walking the faces on the calling thread to queue the fits, as before that row, took
//     17 ms a frame of the ramp jet's hybrid mesh beside the fits' 100.)
//   Cells: scalars (density, temperature) traced back from cell centres, HybridInterpolation.scalarAt;
//     cells whose trace lies among hexahedra on the kernels first, the others by the second
//     row, as the faces'; the scalar
//     fits of the others batched on the kernels after the traces (scalarFitKernel.ts).
//   Points: massless tracker particles moved forward with the fast field (section 3; the paper
//     recomputes the vertex velocities before moving them, as the caller does here).
//
// Every trace is second-order Runge-Kutta (midpoint): v1 = u(x0), xm = x0 + s v1 / 2,
// x1 = x0 + s v(xm), s = -dt back, +dt forward. A trace that leaves the fluid (a wall, an
// obstacle) stops at the last point inside along its segment (HybridLocator.lastInside); the
// midpoint is clamped the same way. Everything runs over flat typed arrays in index order, so
// the result is deterministic; nothing is allocated per sample.
import { EddyError } from '../../api/errors'
import { kernelCopy, TS_KERNELS } from '../core/kernelBackend'
import { segmentInside } from '../core/scalarBudget'
import type { KernelBackend } from '../core/kernelTypes'
import type { HybridInterpolation } from './hybridInterpolation'
import { HybridLocator } from './hybridLocate'
import { FULL_TRACE_PARAMS, FULL_TRACES, type FullTraceMesh, TP_END_ONLY, TP_HEX_COUNT, TP_INV_CELL, TP_INV_H, TP_INX, TP_INY, TP_INZ, TP_IOX, TP_IOY, TP_IOZ, TP_NX, TP_NY, TP_NZ, TP_OX, TP_OY, TP_OZ, TP_STEP } from './fullTraceKernel'
import { ACCURATE_FACE_VALUES, FACE_VALUE_DONE, FACE_VALUE_DONE_CLAMPED, type FaceValueMesh } from './faceValueKernel'
import { HEX_CELL_TRACES, HEX_FACE_TRACES, HEX_TRACE_DONE, HEX_TRACE_FULL, type HexTraceMesh, MAC_GRID_VALUES } from './hexTraceKernel'
import { CELL_HEX, type HybridMesh, openSidesOf } from './hybridMesh'
import { SCALAR_FIT_POINTS, SCALAR_FIT_SCRATCH } from './scalarFitKernel'
import { LINEAR_FIT_POINTS, LINEAR_FIT_SCRATCH } from './linearFitKernel'
import { HYBRID_CELL_VELOCITIES } from './hybridVorticityKernels'

/**
 * A batch of linear fits at given points (sampleAt: the frame's resampling, a remesh's carry):
 * the fit neighbourhoods where the kernels reach them, and per point its place, faces, length
 * unit, answer and index.
 */
class FitBatch {
  readonly faces: Int32Array
  /** The faces' normal classes (faceNormalClasses.ts); the lists are sorted by them. */
  readonly codes: Uint8Array
  readonly at: Float64Array
  readonly start: Int32Array
  readonly end: Int32Array
  readonly len: Float64Array
  readonly out: Float64Array
  readonly face: Int32Array
  readonly work = new Float64Array(LINEAR_FIT_SCRATCH)

  /** neighbourFaces and faceClass: HybridInterpolation's, already in the kernels' memory. */
  constructor(nf: number, neighbourFaces: Int32Array, faceClass: Uint8Array, readonly kernels: KernelBackend) {
    this.faces = neighbourFaces
    this.codes = faceClass
    this.at = kernels.f64(3 * nf)
    this.start = kernels.i32(nf)
    this.end = kernels.i32(nf)
    this.len = kernels.f64(nf)
    this.out = kernels.f64(3 * nf)
    this.face = new Int32Array(nf)
  }
}

/**
 * What the advection's kernels (the hexahedral traces, the scalar fits; the velocity fits keep
 * their own batch) read and write, where they reach it: the mesh arrays (copied once on WebAssembly), the copies of a call's face
 * velocities, cell scalars and vertex velocities (on WebAssembly; the caller's own arrays on
 * TypeScript), the traces' answers per face or cell (hexTraceKernel.ts).
 */
class KernelArrays {
  readonly mesh: HexTraceMesh
  /** The mesh's staggered tables (HybridInterpolation's). */
  readonly macSingle: Int32Array
  readonly macSign: Float64Array
  /** The face velocities by grid face (hexTraceKernel.ts MAC_GRID_VALUES), remade from each call's. */
  readonly zGrid: Float64Array
  readonly copies: boolean
  readonly zOld: Float64Array
  readonly zNew: Float64Array
  readonly vv: Float64Array
  /** Two cell scalars and their advected values. */
  readonly sA: Float64Array
  readonly sB: Float64Array
  readonly oA: Float64Array
  readonly oB: Float64Array
  /**
   * The traces' answers (hexTraceKernel.ts, fullTraceKernel.ts), the faces' and the cells'
   * apart: the faces' value row (faceValueKernel.ts) reads its own while the cells are advected.
   */
  readonly faceTrace: TraceAnswers
  readonly cellTrace: TraceAnswers
  /** The scalar fits' batch (scalarFitKernel.ts): the cells' two-rings, per point its place, list, length unit, answers; its cell and open-side share (TypeScript). */
  readonly ringCells: Int32Array
  readonly fitAt: Float64Array
  readonly fitStart: Int32Array
  readonly fitEnd: Int32Array
  readonly fitLen: Float64Array
  readonly fitA: Float64Array
  readonly fitB: Float64Array
  readonly fitCell: Int32Array
  readonly fitInside: Float64Array
  /** The constant fits' coefficients per vertex (HybridInterpolation.vertexCoefficients) and their faces. */
  readonly vertexFaceStart: Int32Array
  readonly vertexFaces: Int32Array
  readonly vertexCoefficients: Float64Array
  /** The TypeScript reference's scratch (WebAssembly lends each thread its own). */
  readonly fitWork = new Float64Array(SCALAR_FIT_SCRATCH)
  /**
   * The whole traces' row (fullTraceKernel.ts): the mesh's and the tetrahedra locator's arrays,
   * its parameters, and per face or cell the clamp flag and the unclamped end; the cells a
   * traceEnds call picks.
   */
  readonly traceMesh: FullTraceMesh
  readonly traceParams: Float64Array
  readonly end: Float64Array
  readonly pick: Uint8Array
  /** The face-value row's arrays (faceValueKernel.ts) and its TypeScript scratch. */
  readonly faceValueMesh: FaceValueMesh
  readonly faceWork = new Float64Array(LINEAR_FIT_SCRATCH)

  constructor(mesh: HybridMesh, interp: HybridInterpolation, locator: HybridLocator, readonly kernels: KernelBackend) {
    const own = <T extends Float64Array | Int32Array | Uint8Array>(a: T) => kernelCopy(kernels, a)
    this.mesh = {
      faceCentre: own(mesh.faceCentre), faceNormal: own(mesh.faceNormal), faceCellA: own(mesh.faceCellA), faceKind: own(mesh.faceKind),
      cellCentre: own(mesh.cellCentre), hexVertices: own(mesh.hexVertices), cubeHex: own(mesh.cubeHex), hexCube: own(mesh.hexCube),
      cellKind: own(mesh.cellKind),
    }
    this.macSingle = own(interp.macSingle)
    this.macSign = own(interp.macSign)
    this.zGrid = kernels.f64(interp.macSingle.length)
    this.copies = kernels.kind !== 'ts'
    const nf = mesh.faceCount, nc = mesh.cellCount
    const copy = (n: number) => (this.copies ? kernels.f64(n) : new Float64Array(0))
    this.zOld = copy(nf)
    this.zNew = copy(nf)
    this.vv = copy(3 * mesh.vertexCount)
    this.sA = copy(nc)
    this.sB = copy(nc)
    this.oA = copy(nc)
    this.oB = copy(nc)
    const answers = (n: number): TraceAnswers => ({ at: kernels.f64(3 * n), cell: kernels.i32(n), status: kernels.u8(n), left: kernels.u8(n) })
    this.faceTrace = answers(nf)
    this.cellTrace = answers(nc)
    this.ringCells = own(interp.ringCells)
    this.fitAt = kernels.f64(3 * nc)
    this.fitStart = kernels.i32(nc)
    this.fitEnd = kernels.i32(nc)
    this.fitLen = kernels.f64(nc)
    this.fitA = kernels.f64(nc)
    this.fitB = kernels.f64(nc)
    this.fitCell = new Int32Array(nc)
    this.fitInside = new Float64Array(nc)
    this.vertexFaceStart = own(mesh.vertexFaceStart)
    this.vertexFaces = own(mesh.vertexFaces)
    this.vertexCoefficients = own(interp.vertexCoefficients)
    // A mesh without tetrahedra has no index: one-element stand-ins (never read: no band cube).
    const index = locator.tetrahedra?.flatIndex() ?? null
    const some = <T extends Float64Array | Int32Array>(a: T | undefined, empty: T): T => own(a !== undefined && a.length > 0 ? a : empty)
    this.traceMesh = {
      cubeRole: own(mesh.cubeRole), cubeHex: this.mesh.cubeHex, cellCentre: this.mesh.cellCentre, hexVertices: this.mesh.hexVertices,
      tets: some(mesh.tets, new Int32Array(4)), frames: some(index?.frames, new Float64Array(13)), boxes: some(index?.boxes, new Float64Array(6)),
      neighbours: some(index?.neighbours, new Int32Array(4)), indexStart: some(index?.cellStart, new Int32Array(2)), indexTets: some(index?.cellTets, new Int32Array(1)),
    }
    const P = (this.traceParams = kernels.f64(FULL_TRACE_PARAMS))
    const { grid } = mesh
    P[TP_HEX_COUNT] = mesh.hexCount
    P[TP_NX] = grid.nx; P[TP_NY] = grid.ny; P[TP_NZ] = grid.nz
    P[TP_OX] = grid.origin[0]; P[TP_OY] = grid.origin[1]; P[TP_OZ] = grid.origin[2]
    P[TP_INV_H] = 1 / grid.dx
    if (index !== null) {
      P[TP_IOX] = index.origin[0]; P[TP_IOY] = index.origin[1]; P[TP_IOZ] = index.origin[2]
      P[TP_INX] = index.dims[0]; P[TP_INY] = index.dims[1]; P[TP_INZ] = index.dims[2]
      P[TP_INV_CELL] = index.inverseCell
    }
    this.end = kernels.f64(3 * Math.max(nf, nc))
    this.pick = kernels.u8(nc)
    const m = this.mesh
    this.faceValueMesh = {
      faceCentre: m.faceCentre, faceNormal: m.faceNormal, faceArea: own(mesh.faceArea), hexCube: m.hexCube, cellKind: m.cellKind, macSingle: this.macSingle, macSign: this.macSign,
      gridFaceStart: own(mesh.gridFaceStart), gridFaces: own(mesh.gridFaces), neighbourStart: own(interp.neighbourStart), neighbourFaces: own(interp.neighbourFaces),
      faceClass: own(interp.faceClass), cellMeanEdge: own(mesh.cellMeanEdge),
    }
  }
}

export type PointArray = Float64Array | Float32Array

/** Per face (or cell) its trace's end, the cell there, its case (HEX_TRACE_*) and whether a whole trace was stopped at the fluid's boundary. */
interface TraceAnswers {
  readonly at: Float64Array
  readonly cell: Int32Array
  readonly status: Uint8Array
  readonly left: Uint8Array
}

/** A fit batch's point n: its place, its neighbourhood [s, e) in the batch's list and its length unit. */
function queuePoint(at: Float64Array, start: Int32Array, end: Int32Array, len: Float64Array, n: number, x: number, y: number, z: number, s: number, e: number, l: number): void {
  at[3 * n] = x; at[3 * n + 1] = y; at[3 * n + 2] = z
  start[n] = s
  end[n] = e
  len[n] = l
}

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
  private readonly kernelArrays: KernelArrays

  /** kernels: where the faces' linear fits run (their arrays are copied there once). */
  constructor(readonly interpolation: HybridInterpolation, locator?: HybridLocator, kernels: KernelBackend = TS_KERNELS) {
    this.mesh = interpolation.mesh
    if (locator && locator.mesh !== this.mesh) throw new EddyError('INVALID_PARAM', 'hybrid advection: the locator was built for another mesh than the interpolation')
    this.locator = locator ?? new HybridLocator(this.mesh)
    this.kernelArrays = new KernelArrays(this.mesh, interpolation, this.locator, kernels)
    const V = this.kernelArrays.faceValueMesh
    this.batch = interpolation.neighbourFaces.length > 0 ? new FitBatch(this.mesh.faceCount, V.neighbourFaces, V.faceClass, kernels) : null
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
    let cm = locator.cellAt(mx, my, mz, c)
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

  /** The velocity fit batch's first n points (eq. 11) over z (in the kernels' memory) into batch.out. */
  private velocityFits(z: Float64Array, n: number): void {
    const K = this.kernelArrays, batch = this.batch!, eps = this.interpolation.epsilonFactor
    batch.kernels.run(LINEAR_FIT_POINTS, K.mesh.faceCentre, K.mesh.faceNormal, z, batch.faces, batch.codes, batch.at, batch.start, batch.end, batch.len, eps * eps, batch.out, batch.work, n)
  }

  /** The scalar fit batch's first n points over a (and b unless null; in the kernels' memory) into K.fitA (K.fitB). */
  private scalarFits(a: Float64Array, b: Float64Array | null, n: number): void {
    const K = this.kernelArrays, eps = this.interpolation.epsilonFactor
    K.kernels.run(SCALAR_FIT_POINTS, K.mesh.cellCentre, K.ringCells, K.fitStart, K.fitEnd, K.fitAt, K.fitLen, eps * eps, a, b, K.fitA, b === null ? null : K.fitB, K.fitWork, n)
  }

  /** a where the kernels reach it: a itself when they hold it (always on TypeScript), else `copy` filled from it. */
  private reach(a: Float64Array, copy: Float64Array): Float64Array {
    const K = this.kernelArrays
    if (!K.copies || K.kernels.holds(a)) return a
    copy.set(a)
    return copy
  }

  /** Where a row writes an output the caller asked for in `out`: out itself when the kernels hold it, else `copy` (copied to out after). */
  private target(out: Float64Array, copy: Float64Array): Float64Array {
    const K = this.kernelArrays
    return !K.copies || K.kernels.holds(out) ? out : copy
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
    this.beginFaces(zOld, vertexVel, dt, zNew)
    this.finishFaces()
  }

  /** advectFaces' work in flight (beginFaces), until finishFaces. */
  private facesInFlight: { zOld: Float64Array; zNew: Float64Array; zOut: Float64Array } | null = null

  /**
   * advectFaces in two halves: the traces, then the faces' values started on the kernels'
   * other threads (KernelBackend.begin), so the caller can advect the cells meanwhile (their
   * rows then run on its thread alone). Until finishFaces the caller must not write zOld or
   * read zNew, and may make no other advectFaces or sampleAt call.
   */
  beginFaces(zOld: Float64Array, vertexVel: Float64Array, dt: number, zNew: Float64Array): void {
    const { faceCount, hexCount, grid } = this.mesh
    this.checkStep('faces', dt, vertexVel)
    if (zOld.length !== faceCount || zNew.length !== faceCount) throw new EddyError('INVALID_PARAM', `hybrid advection (faces): ${zOld.length} old and ${zNew.length} new face velocities for ${faceCount} faces`)
    if (zOld === zNew) throw new EddyError('INVALID_PARAM', 'hybrid advection (faces): zOld and zNew must be different arrays (the traces read zOld while zNew is written)')
    if (this.facesInFlight !== null) throw new EddyError('INTERNAL', 'hybrid advection (faces): begun again before finishFaces')
    const K = this.kernelArrays, T = K.faceTrace
    // The faces whose whole trace lies among hexahedra, on the kernels (hexTraceKernel.ts).
    const z = this.reach(zOld, K.zOld)
    const vv = this.reach(vertexVel, K.vv)
    const zOut = this.target(zNew, K.zNew)
    const { origin, dx, nx, ny, nz } = grid
    K.kernels.run(MAC_GRID_VALUES, K.macSingle, K.macSign, z, K.zGrid, K.macSingle.length)
    K.kernels.run(HEX_FACE_TRACES, K.mesh, vv, z, K.zGrid, dt, hexCount, nx, ny, nz, origin[0], origin[1], origin[2], 1 / dx, zOut, T.at, T.cell, T.status, faceCount)
    // The rest traced whole (fullTraceKernel.ts), each from its centre in cell a: it lies on
    // that cell's boundary, where its fields are defined, so no search is needed.
    this.fullTraces(faceCount, K.mesh.faceCentre, K.mesh.faceCellA, -dt, false, vv, T)
    // Every face still open takes the accurate velocity at its trace's end (faceValueKernel.ts).
    const eps = this.interpolation.epsilonFactor
    K.kernels.begin(ACCURATE_FACE_VALUES, K.faceValueMesh, z, nx, ny, nz, origin[0], origin[1], origin[2], 1 / dx, eps * eps, T.at, T.cell, T.left, T.status, zOut, K.faceWork, faceCount)
    this.facesInFlight = { zOld, zNew, zOut }
  }

  /** advectFaces' second half: waits for the faces' values, then answers those the row left (faces whose cell lists no neighbourhood: the fit gathered here). */
  finishFaces(): void {
    const flight = this.facesInFlight
    if (flight === null) return
    this.facesInFlight = null
    const K = this.kernelArrays
    K.kernels.finish()
    const { zOld, zNew, zOut } = flight
    if (zOut !== zNew) zNew.set(zOut)
    const { faceCount, faceNormal: N } = this.mesh
    const { status, at, cell, left } = K.faceTrace
    const vel = this.vel
    let clamped = 0
    for (let f = 0; f < faceCount; f++) {
      const st = status[f]
      if (st === FACE_VALUE_DONE) continue
      if (st === FACE_VALUE_DONE_CLAMPED) {
        clamped++
        continue
      }
      if (st === HEX_TRACE_FULL && left[f] !== 0) clamped++
      this.interpolation.accurateVelocityAt(at[3 * f], at[3 * f + 1], at[3 * f + 2], cell[f], zOld, vel, 0)
      zNew[f] = vel[0] * N[3 * f] + vel[1] * N[3 * f + 1] + vel[2] * N[3 * f + 2]
    }
    this.clampedTraces = clamped
  }

  /**
   * out = the cell-centred scalar `values` advected by dt: each centre traced back, scalarAt
   * there; with `values2`, out2 the same for a second scalar from the same traces (density and
   * temperature ride one flow: tracing twice would find the same points).
   */
  advectCells(
    values: Float64Array,
    vertexVel: Float64Array,
    dt: number,
    out: Float64Array,
    values2: Float64Array | null = null,
    out2: Float64Array | null = null,
    ambients: readonly [number, number] | null = null,
  ): void {
    const { cellCount, hexCount, grid } = this.mesh
    this.checkStep('cells', dt, vertexVel)
    for (const [v, o] of values2 === null ? [[values, out]] : [[values, out], [values2, out2]]) {
      if (v === null || o === null || v.length !== cellCount || o.length !== cellCount) throw new EddyError('INVALID_PARAM', `hybrid advection (cells): ${v?.length ?? 'no'} values and ${o?.length ?? 'no'} outputs for ${cellCount} cells`)
      if (v === o) throw new EddyError('INVALID_PARAM', 'hybrid advection (cells): values and out must be different arrays')
    }
    // Each output is written while both inputs are still read.
    if (values2 !== null && (out === out2 || out === values2 || out2 === values)) throw new EddyError('INVALID_PARAM', 'hybrid advection (cells): the two scalars need four different arrays')
    const { interpolation: interp, pos, pair, kernelArrays: K } = this
    // The cells whose whole trace lies among hexahedra, on the kernels (hexTraceKernel.ts);
    // the others below, each as it was before that row existed.
    const two = values2 !== null
    const a = this.reach(values, K.sA), b = two ? this.reach(values2!, K.sB) : null
    const vv = this.reach(vertexVel, K.vv)
    const oA = this.target(out, K.oA), oB = two ? this.target(out2!, K.oB) : null
    const { origin, dx, nx, ny, nz } = grid
    const T = K.cellTrace
    K.kernels.run(HEX_CELL_TRACES, K.mesh, vv, a, b, dt, hexCount, nx, ny, nz, origin[0], origin[1], origin[2], 1 / dx, oA, oB, T.at, T.cell, T.status, cellCount)
    if (oA !== out) out.set(oA.subarray(0, cellCount))
    if (two && oB !== out2) out2!.set(oB!.subarray(0, cellCount))
    this.fullTraces(cellCount, K.mesh.cellCentre, null, -dt, false, vv, T)
    const { status, at, cell, left } = T, end = K.end
    const { ringStart } = interp
    const { cellMeanEdge } = this.mesh
    let clamped = 0
    let points = 0
    for (let c = 0; c < cellCount; c++) {
      const st = status[c]
      if (st === HEX_TRACE_DONE) continue
      const e = cell[c]
      pos[0] = at[3 * c]; pos[1] = at[3 * c + 1]; pos[2] = at[3 * c + 2]
      // With ambients, departures beyond an open side read the ambient value there.
      let inside = 1
      if (st === HEX_TRACE_FULL && left[c] !== 0) {
        clamped++
        if (ambients !== null) {
          this.end[0] = end[3 * c]; this.end[1] = end[3 * c + 1]; this.end[2] = end[3 * c + 2]
          inside = this.insideOpenSides(e)
        }
      }
      // The scalar fits join a batch on the kernels (scalarFitKernel.ts) where the cell has its
      // two-ring listed; the trilinear among hexahedra, and any other fit, are taken here.
      if (ringStart[e + 1] > ringStart[e] && !interp.scalarTrilinear(pos[0], pos[1], pos[2], e)) {
        queuePoint(K.fitAt, K.fitStart, K.fitEnd, K.fitLen, points, pos[0], pos[1], pos[2], ringStart[e], ringStart[e + 1], cellMeanEdge[e])
        K.fitCell[points] = c
        K.fitInside[points++] = inside
        continue
      }
      if (values2 === null) {
        const s = interp.scalarAt(pos[0], pos[1], pos[2], e, values)
        out[c] = inside === 1 ? s : ambients![0] + (s - ambients![0]) * inside
      } else {
        interp.scalarsAt(pos[0], pos[1], pos[2], e, values, values2, pair)
        out[c] = inside === 1 ? pair[0] : ambients![0] + (pair[0] - ambients![0]) * inside
        out2![c] = inside === 1 ? pair[1] : ambients![1] + (pair[1] - ambients![1]) * inside
      }
    }
    if (points > 0) {
      this.scalarFits(a, b, points)
      const { fitA, fitB, fitCell, fitInside } = K
      for (let q = 0; q < points; q++) {
        const c = fitCell[q], inside = fitInside[q]
        out[c] = inside === 1 ? fitA[q] : ambients![0] + (fitA[q] - ambients![0]) * inside
        if (two) out2![c] = inside === 1 ? fitB[q] : ambients![1] + (fitB[q] - ambients![1]) * inside
      }
    }
    this.clampedTraces = clamped
  }

  /**
   * The whole traces (fullTraceKernel.ts) of the indices [0, n) the hexahedral row left
   * (status HEX_TRACE_FULL) or traceEnds picked, from starts (3 per index, in the kernels'
   * memory) in startCell (null: the index is the cell), through the vertex velocities vv (in
   * the kernels' memory); into T's at, cell and left, and K.end.
   */
  private fullTraces(n: number, starts: Float64Array, startCell: Int32Array | null, step: number, endOnly: boolean, vv: Float64Array, T: TraceAnswers): void {
    const K = this.kernelArrays
    const P = K.traceParams
    P[TP_STEP] = step
    P[TP_END_ONLY] = endOnly ? 1 : 0
    const pick = endOnly ? K.pick : T.status, value = endOnly ? 1 : HEX_TRACE_FULL
    K.kernels.run(FULL_TRACES, K.traceMesh, P, vv, pick, value, starts, startCell, T.at, T.cell, T.left, K.end, n)
  }

  /**
   * The unclamped ends of RK2 traces over `step` (forward for a positive step) from the centres
   * of the cells whose select[c] is 1, through vertexVel (traceEnd for each, as one kernel
   * row): the end of cell c at [3c, 3c + 3) of the returned array, valid until the next call.
   */
  traceEnds(select: Uint8Array, step: number, vertexVel: Float64Array): Float64Array {
    const K = this.kernelArrays
    const nc = this.mesh.cellCount
    this.checkStep('trace ends', Math.abs(step), vertexVel)
    if (select.length !== nc) throw new EddyError('INVALID_PARAM', `hybrid advection (trace ends): ${select.length} flags for ${nc} cells`)
    K.pick.set(select)
    this.fullTraces(nc, K.mesh.cellCentre, null, step, true, this.reach(vertexVel, K.vv), K.cellTrace)
    return K.end
  }

  /**
   * HybridInterpolation.vertexVelocities (the constant fits, eqs. 7-10: u_v = sum_f c_vf z_f)
   * on the kernels, a row per vertex (the cell velocities' row: the same sums in the same
   * order, so the same bits).
   */
  vertexVelocities(z: Float64Array, out: Float64Array): void {
    const { vertexCount, faceCount } = this.mesh
    const K = this.kernelArrays
    if (z.length !== faceCount || out.length !== 3 * vertexCount) throw new EddyError('INVALID_PARAM', `hybrid vertex velocities: ${z.length} face velocities for ${faceCount} faces, output of ${out.length} numbers for ${vertexCount} vertices (3 each)`)
    const o = this.target(out, K.vv)
    K.kernels.run(HYBRID_CELL_VELOCITIES, K.vertexFaceStart, K.vertexFaces, K.vertexCoefficients, this.reach(z, K.zOld), o, vertexCount)
    if (o !== out) out.set(o)
  }

  /**
   * Two cell scalars and the velocity at fixed points, each in its known cell (the frame's
   * resampling of the band's cubes, HybridFields.resample): scalarAt of a and b into outA and
   * outB, accurateVelocityAt of zFaces into outVel (xyz per point), each the same bits as those
   * calls. Their fits go to the kernels in batches, as the advection's do. outA and outB null:
   * the velocity alone; outVel null: the scalars alone (a remesh's carry, HybridFields.carryOnto).
   */
  sampleAt(points: Float64Array, cells: Int32Array, count: number, a: Float64Array, b: Float64Array, zFaces: Float64Array, outA: Float64Array | null, outB: Float64Array | null, outVel: Float64Array | null): void {
    const { interpolation: interp, kernelArrays: K, batch, pair, vel } = this
    const { cellCount, faceCount, cellMeanEdge, cellKind } = this.mesh
    if (a.length !== cellCount || b.length !== cellCount || zFaces.length !== faceCount) throw new EddyError('INVALID_PARAM', `hybrid sampling: ${a.length} and ${b.length} cell values and ${zFaces.length} face velocities for ${cellCount} cells and ${faceCount} faces`)
    if ((outA === null) !== (outB === null)) throw new EddyError('INVALID_PARAM', 'hybrid sampling: both scalar outputs or neither')
    if (points.length < 3 * count || cells.length < count || (outA !== null && (outA.length < count || outB!.length < count)) || (outVel !== null && outVel.length < 3 * count)) throw new EddyError('INVALID_PARAM', `hybrid sampling: arrays shorter than ${count} points`)
    const sa = this.reach(a, K.sA), sb = this.reach(b, K.sB), z = this.reach(zFaces, K.zOld)
    const { ringStart, neighbourStart } = interp
    // The batches hold at most this many points (their arrays are sized by cells and faces).
    const chunk = Math.min(cellCount, faceCount)
    for (let from = 0; from < count; from += chunk) {
      const to = Math.min(count, from + chunk)
      let scalars = 0, vectors = 0
      for (let q = from; q < to; q++) {
        const x = points[3 * q], y = points[3 * q + 1], w = points[3 * q + 2], c = cells[q]
        if (outA === null) {
          // No scalars asked for.
        } else if (ringStart[c + 1] > ringStart[c] && !interp.scalarTrilinear(x, y, w, c)) {
          queuePoint(K.fitAt, K.fitStart, K.fitEnd, K.fitLen, scalars, x, y, w, ringStart[c], ringStart[c + 1], cellMeanEdge[c])
          K.fitCell[scalars++] = q
        } else {
          interp.scalarsAt(x, y, w, c, a, b, pair)
          outA[q] = pair[0]
          outB![q] = pair[1]
        }
        // accurateVelocityAt's choice: the staggered trilinear in a plain hexahedron whose
        // stencil is whole, else the linear fit over the cell's listed neighbourhood.
        if (outVel === null) continue
        if (cellKind[c] === CELL_HEX && interp.macVelocityAt(x, y, w, c, zFaces, vel, 0)) {
          outVel[3 * q] = vel[0]; outVel[3 * q + 1] = vel[1]; outVel[3 * q + 2] = vel[2]
        } else if (batch !== null && neighbourStart[c + 1] > neighbourStart[c]) {
          queuePoint(batch.at, batch.start, batch.end, batch.len, vectors, x, y, w, neighbourStart[c], neighbourStart[c + 1], cellMeanEdge[c])
          batch.face[vectors++] = q
        } else {
          interp.accurateVelocityAt(x, y, w, c, zFaces, vel, 0)
          outVel[3 * q] = vel[0]; outVel[3 * q + 1] = vel[1]; outVel[3 * q + 2] = vel[2]
        }
      }
      if (scalars > 0) {
        this.scalarFits(sa, sb, scalars)
        for (let i = 0; i < scalars; i++) {
          const q = K.fitCell[i]
          outA![q] = K.fitA[i]
          outB![q] = K.fitB[i]
        }
      }
      if (vectors > 0) {
        this.velocityFits(z, vectors)
        const { out, face } = batch!
        for (let i = 0; i < vectors; i++) {
          const q = face[i]
          outVel![3 * q] = out[3 * i]; outVel![3 * q + 1] = out[3 * i + 1]; outVel![3 * q + 2] = out[3 * i + 2]
        }
      }
    }
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
