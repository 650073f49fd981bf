// Vorticity on a curved surface and its confinement force (Stam 2003 Appendix A's curl; Fedkiw,
// Stam and Jensen 2001's confinement):
//   omega = (1 / sqrt(g)) (d_1 u_2 - d_2 u_1),   u_i = g_ij u^j (covariant components),
// the component of the curl along the surface normal. On the MAC grid it is natural at the
// nodes: d_1 u_2 from the two y-faces either side of a node, d_2 u_1 from the two x-faces.
// Cell values are the mean of their four nodes. The confinement force is
//   f = eps dx omega (n x N),  N = grad|omega| / |grad|omega||, dx the cell's size on the surface,
// with grad^i = g^ij d_j, and n x v for a tangent vector v written (n x v)^1 = -v_2 / sqrt(g),
// (n x v)^2 = v_1 / sqrt(g) (the quarter turn in the tangent plane, counterclockwise about n).
import { TS_KERNELS } from '../core/kernelBackend'
import type { KernelAllocator } from '../core/kernelTypes'
import type { SurfaceGrid } from './surfaceGrid'
import type { SurfaceMetric } from './surfaceMetric'
import type { SurfaceSampler } from './surfaceSampling'

export class SurfaceVorticity {
  /** omega at the cell centres (ghosts filled). */
  readonly omega: Float64Array
  /** The confinement force's contravariant components at the cell centres. */
  readonly f1: Float64Array
  readonly f2: Float64Array
  private readonly node: Float64Array
  private readonly cx: Float64Array
  private readonly cy: Float64Array

  /** alloc: where omega and the force live (the force rows read them: surfaceForceKernels.ts). */
  constructor(readonly grid: SurfaceGrid, readonly metric: SurfaceMetric, readonly sampler: SurfaceSampler, alloc: KernelAllocator = TS_KERNELS) {
    this.omega = alloc.f64(grid.P * grid.cellBlock)
    this.f1 = alloc.f64(grid.P * grid.cellBlock)
    this.f2 = alloc.f64(grid.P * grid.cellBlock)
    this.node = new Float64Array(grid.P * (grid.N + 1) * (grid.N + 1))
    this.cx = grid.newXFaces()
    this.cy = grid.newYFaces()
  }

  /** omega from the face velocities ux, uy (u^1, u^2 with ghosts filled). */
  compute(ux: Float64Array, uy: Float64Array): void {
    const { grid, metric, sampler, node, omega, cx, cy } = this
    const { N, P, h } = grid
    const X = metric.xFaces, Y = metric.yFaces
    // Covariant u_1 on the real x-faces and u_2 on the real y-faces (the other contravariant
    // component interpolated there); the ghosts from the neighbours (a quarter turn carries
    // covariant components as it carries contravariant ones: the Jacobians are orthogonal).
    for (let p = 0; p < P; p++) {
      for (let j = 0; j < N; j++) for (let i = 0; i <= N; i++) {
        const f = grid.xFace(p, i, j)
        const g11 = X.du[3 * f] ** 2 + X.du[3 * f + 1] ** 2 + X.du[3 * f + 2] ** 2
        const g12 = X.du[3 * f] * X.dv[3 * f] + X.du[3 * f + 1] * X.dv[3 * f + 1] + X.du[3 * f + 2] * X.dv[3 * f + 2]
        cx[f] = g11 * ux[f] + g12 * sampler.yValue(uy, p, i * h, (j + 0.5) * h)
      }
      for (let j = 0; j <= N; j++) for (let i = 0; i < N; i++) {
        const f = grid.yFace(p, i, j)
        const g22 = Y.dv[3 * f] ** 2 + Y.dv[3 * f + 1] ** 2 + Y.dv[3 * f + 2] ** 2
        const g12 = Y.du[3 * f] * Y.dv[3 * f] + Y.du[3 * f + 1] * Y.dv[3 * f + 1] + Y.du[3 * f + 2] * Y.dv[3 * f + 2]
        cy[f] = g12 * sampler.xValue(ux, p, (i + 0.5) * h, j * h) + g22 * uy[f]
      }
    }
    grid.syncShared(cx, cy)
    grid.fillVector(cx, cy)
    for (let p = 0; p < P; p++) {
      for (let j = 0; j <= N; j++) for (let i = 0; i <= N; i++) {
        const k = p * (N + 1) * (N + 1) + i + (N + 1) * j
        const sg = metric.nodes.sqrtG[k]
        if (!(sg > 0)) { node[k] = NaN; continue }
        const d1u2 = (cy[grid.yFace(p, i, j)] - cy[grid.yFace(p, i - 1, j)]) / h
        const d2u1 = (cx[grid.xFace(p, i, j)] - cx[grid.xFace(p, i, j - 1)]) / h
        node[k] = (d1u2 - d2u1) / sg
      }
      for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) {
        const k = p * (N + 1) * (N + 1) + i + (N + 1) * j, r = N + 1
        // Mean of the four nodes (a node at an extraordinary vertex has none: the other three).
        let s = 0, n = 0
        for (const v of [node[k], node[k + 1], node[k + r], node[k + r + 1]]) if (v === v) { s += v; n++ }
        omega[grid.cell(p, i, j)] = n ? s / n : 0
      }
    }
    grid.fillScalar(omega)
  }

  /** The confinement force at the cells, strength eps (after compute()). */
  confinement(eps: number): void {
    const { grid, metric, omega, f1, f2 } = this
    const { N, P, h } = grid
    const C = metric.cells
    const row = N + 2
    for (let p = 0; p < P; p++) for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) {
      const c = grid.cell(p, i, j)
      // Covariant gradient of |omega| by central differences (ghost cells at patch edges).
      const a1 = (Math.abs(omega[c + 1]) - Math.abs(omega[c - 1])) / (2 * h)
      const a2 = (Math.abs(omega[c + row]) - Math.abs(omega[c - row])) / (2 * h)
      // Its length: sqrt(g^ij a_i a_j).
      const len = Math.sqrt(Math.max(0, C.g11[c] * a1 * a1 + 2 * C.g12[c] * a1 * a2 + C.g22[c] * a2 * a2))
      if (!(len > 1e-12)) { f1[c] = 0; f2[c] = 0; continue }
      // N covariant = a / len; n x N has contravariant (-N_2, N_1) / sqrt(g).
      // The cell's own size on the surface, sqrt(area) = h g^(1/4), is the confinement's length.
      const s = (eps * h * Math.sqrt(C.sqrtG[c]) * omega[c]) / (len * C.sqrtG[c])
      f1[c] = -s * a2
      f2[c] = s * a1
    }
    grid.fillScalar(f1)
    grid.fillScalar(f2)
  }
}
