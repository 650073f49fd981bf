// One substep's M_t (and S_t) in the kernels' memory, for the traces' rows
// (traceDistanceKernel.ts): packed once, then asked for f+ = S_t.distance(back-trace) at as many
// batches of points as the substep has (advanceSurface's nodes, then contouring's vertices), or
// for the accurate velocity at the back-traces' ends (the new mesh's faces). The caller frees
// the copies with the rest of the substep's kernel memory (KernelBackend.scoped).
import { EddyError } from '../../api/errors'
import { kernelCopy } from '../core/kernelBackend'
import type { KernelBackend } from '../core/kernelTypes'
import type { ContouredSurface } from './contourGrid'
import type { MeshVelocity } from './meshVelocity'
import {
  TD_BAND, TD_DT, TD_EH, TD_ENX, TD_ENY, TD_ENZ, TD_EOX, TD_EOY, TD_EOZ, TD_GH, TD_GNX, TD_GNY, TD_GNZ, TD_GOX, TD_GOY, TD_GOZ, TD_HAS_BOUNDARY, TD_HAS_SURFACE, TD_HAS_TETS,
  TD_INV_CELL, TD_INX, TD_INY, TD_INZ, TD_IOX, TD_IOY, TD_IOZ, TD_REACH, TD_STACK, TRACE_DISTANCE_PARAMS, TRACE_DISTANCES, TRACE_VELOCITIES, type TraceAccurateArrays, type TraceSurfaceArrays, type TraceVelocityArrays,
} from './traceDistanceKernel'

/**
 * `a` where the kernels can read it, at least one element long (an empty field still gets a
 * place in the kernels' memory).
 */
function owned<T extends Float64Array | Float32Array | Int32Array>(kernels: KernelBackend, a: T): T {
  return kernelCopy(kernels, a.length > 0 ? a : (new (a.constructor as new (n: number) => T)(1)))
}

/** An Int32Array over the same memory (indices and triangle orders are below 2^31). */
const asInt32 = (a: Uint32Array | Int32Array) => (a instanceof Int32Array ? a : new Int32Array(a.buffer, a.byteOffset, a.length))

export class TraceDistanceRow {
  private readonly M: TraceVelocityArrays
  private Sf: TraceSurfaceArrays | null = null
  private A: TraceAccurateArrays | null = null
  private readonly params: Float64Array

  /** Back-traces over dt seconds through `velocity`; distances to `surface` when given. */
  constructor(private readonly kernels: KernelBackend, private readonly velocity: MeshVelocity, surface: ContouredSurface | null, dt: number) {
    const f64 = (a: Float64Array) => owned(kernels, a), f32 = (a: Float32Array) => owned(kernels, a), i32 = (a: Int32Array) => owned(kernels, a)
    const m = velocity.flatArrays()
    const b = m.boundary
    const none32 = new Float32Array(0), noneI = new Int32Array(0)
    this.M = {
      positions: f64(m.positions), tets: i32(m.tets), vertexVelocity: f64(m.vertexVelocity),
      cellStart: i32(m.index?.cellStart ?? noneI), cellTets: i32(m.index?.cellTets ?? noneI), boxes: f64(m.index?.boxes ?? new Float64Array(0)),
      bBounds: f32(b?.nodeBounds ?? none32), bInfo: i32(b?.nodeInfo ?? noneI), bOrder: i32(b?.triOrder ?? noneI), bVerts: f32(b?.triVerts ?? none32), bTet: i32(m.boundaryTet),
      ext: f64(m.ext.v),
    }
    const s = surface?.distanceArrays ?? null
    if (surface !== null) {
      this.Sf = {
        phi: f32(surface.phi), sBounds: f32(s?.bvh.nodeBounds ?? none32), sInfo: i32(s?.bvh.nodeInfo ?? noneI), sOrder: i32(s?.bvh.triOrder ?? noneI), sVerts: f32(s?.bvh.triVerts ?? none32),
        positions: f32(surface.positions), indices: i32(asInt32(surface.indices)), normals: f32(surface.normals),
        pnFace: f32(s?.pseudo.face ?? none32), pnEdge: f32(s?.pseudo.edge ?? none32), pnVertex: f32(s?.pseudo.vertex ?? none32),
      }
    }
    const P = (this.params = kernels.f64(TRACE_DISTANCE_PARAMS))
    P[TD_DT] = dt
    P[TD_HAS_TETS] = m.index !== null ? 1 : 0
    P[TD_HAS_BOUNDARY] = b !== null ? 1 : 0
    P[TD_HAS_SURFACE] = s !== null ? 1 : 0
    P[TD_REACH] = m.reach
    if (m.index !== null) {
      P[TD_IOX] = m.index.origin[0]; P[TD_IOY] = m.index.origin[1]; P[TD_IOZ] = m.index.origin[2]
      P[TD_INX] = m.index.dims[0]; P[TD_INY] = m.index.dims[1]; P[TD_INZ] = m.index.dims[2]
      P[TD_INV_CELL] = m.index.inverseCell
    }
    P[TD_EOX] = m.ext.origin[0]; P[TD_EOY] = m.ext.origin[1]; P[TD_EOZ] = m.ext.origin[2]; P[TD_EH] = m.ext.h
    P[TD_ENX] = m.ext.n[0]; P[TD_ENY] = m.ext.n[1]; P[TD_ENZ] = m.ext.n[2]
    if (surface !== null) {
      const g = surface.grid
      P[TD_GOX] = g.origin[0]; P[TD_GOY] = g.origin[1]; P[TD_GOZ] = g.origin[2]; P[TD_GH] = g.h
      P[TD_GNX] = g.nx; P[TD_GNY] = g.ny; P[TD_GNZ] = g.nz
      P[TD_BAND] = surface.band
    }
    P[TD_STACK] = Math.max(b?.maxDepth ?? 0, s?.bvh.maxDepth ?? 0) + 2
  }

  /** A place in the kernels' memory for n xyz triples (points, normals), to fill and pass to distances() or velocities(). */
  triples(n: number): Float64Array {
    return this.kernels.f64(3 * Math.max(1, n))
  }

  /**
   * f+ at the first n points of `points` (from triples()): a new array in the kernels' memory.
   * `meanwhile`: as in velocities().
   */
  distances(points: Float64Array, n: number, meanwhile: () => void = () => {}): Float64Array {
    if (this.Sf === null) throw new EddyError('INTERNAL', 'tetrahedral liquid traces: distances asked without a surface')
    const out = this.kernels.f64(Math.max(1, n))
    if (n > 0) this.kernels.begin(TRACE_DISTANCES, this.M, this.Sf, this.params, points, out, null, n)
    this.overlap(meanwhile)
    return out
  }

  /** Runs `meanwhile` while a begun job is out, then ends the job (also when meanwhile throws). */
  private overlap(meanwhile: () => void): void {
    try {
      meanwhile()
    } finally {
      this.kernels.finish()
    }
  }

  /**
   * n_i . M_t.accurate(back-trace of point i) for the first n points and normals (3 each, in
   * the kernels' memory, from triples()): a new array in the kernels' memory. `meanwhile`, when
   * given, runs on this thread while the kernels' other threads trace (KernelBackend.begin; this
   * thread takes the pieces left when it returns). It must not touch the kernels' memory: their
   * arrays, rows or allocator.
   */
  velocities(points: Float64Array, normals: Float64Array, n: number, meanwhile: () => void = () => {}): Float64Array {
    if (this.A === null) {
      const { topology, geometry, u } = this.velocity
      const { tetFaces, tetFaceSigns } = topology
      // sign x area is exact: the flux sign x area x u keeps whitneyVelocityAt's bits.
      const areas = new Float64Array(tetFaces.length)
      for (let e = 0; e < tetFaces.length; e++) areas[e] = tetFaceSigns[e] * geometry.faceAreas[tetFaces[e]]
      const K = this.kernels
      this.A = { tetFaces: owned(K, tetFaces), tetFaceAreas: owned(K, areas), u: owned(K, u), volumes: owned(K, geometry.volumes) }
    }
    const out = this.kernels.f64(Math.max(1, n))
    if (n > 0) this.kernels.begin(TRACE_VELOCITIES, this.M, this.A, this.params, points, normals, out, null, n)
    this.overlap(meanwhile)
    return out
  }
}
