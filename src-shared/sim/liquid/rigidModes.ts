// Rigid-motion coarse space for the full-stress viscosity solve (viscosity.ts 'full'; issue 19).
//
// The full stress div(nu (grad u + grad u^T)) charges nothing for a rigid motion (zero strain),
// so a stiff region (solid wax in its melt, a highly viscous blob) can translate and turn at
// the cost of its mass alone. The per-component multigrid cycle (viscousMultigrid.ts) inverts
// each component's own block, nu lap u_a, which does charge a rotation for its velocity
// gradient: on those few motions it is wrong by the stiffness ratio (1e6-1e7 on the melting
// bunny) and CG stalled (849-1537 iterations a substep there, Jacobi 430-778). A rotation of a
// region against soft surroundings is not a smooth field over the whole grid, so no
// geometric coarsening of the block sees it either; naming them does.
//
// So the preconditioner adds a coarse space Z of the rigid motions of each stiff region: the
// three translations and the three rotations about the region's centroid, sampled on the
// unknown faces of the region's cells (zero elsewhere), orthonormalised. With E = Z^T A Z,
//   M^-1 r = B^-1 r + Z E^-1 Z^T r
// (the additive two-level form: symmetric positive definite when B^-1 is, and exact on span Z,
// where A's energy is the mass plus the soft surroundings' shear). Building it costs one product
// with A per column; applying it, a dot product and an update over the regions' faces.
//
// A stiff region: a 6-connected set of liquid cells whose viscosity is at least STIFF_SHARE of
// the largest in the liquid, touching neither a solid cell nor the domain's sides (a region
// held by a wall cannot turn freely: on the viscous dam break the modes cost 0.6 s a frame to
// build and apply and saved nothing, 15.9 against 15.2 iterations); the MAX_REGIONS largest
// regions of at least MIN_REGION_CELLS cells are kept (tiny fragments are left to the cycle).
import { DenseCholesky } from '../core/amg/denseCholesky'
import { TS_KERNELS } from '../core/kernelBackend'
import type { KernelBackend } from '../core/kernelTypes'
import type { Preconditioner } from '../core/pcg'

export const STIFF_SHARE = 0.1
export const MAX_REGIONS = 16
export const MIN_REGION_CELLS = 8
const MODES = 6
const LIQUID = 1
const SOLID = 2

/** What the coarse space reads from a set-up viscosity system. */
export interface RigidModeSystem {
  readonly nx: number
  readonly ny: number
  readonly nz: number
  readonly nu: number
  readonly nv: number
  readonly n: number
  readonly unknown: Uint8Array
  apply(x: Float64Array, out: Float64Array): void
}

export class RigidModeSpace {
  /** Per region: its faces (stacked indices) and MODES orthonormal columns over them. */
  private faces: Int32Array[] = []
  private columns: Float64Array[] = []
  /** Cholesky factor of E = Z^T A Z (m x m, m = MODES x regions). */
  private chol = new DenseCholesky({ n: 0, dense: new Float64Array(0) })
  private m = 0
  private y = new Float64Array(0)
  private readonly seen: Uint8Array
  private readonly stack: Int32Array
  private readonly label: Int32Array

  /**
   * A column and its product with A (buildCoarseMatrix), kept from setup to setup: in the
   * kernels' memory, so the system's product runs on them rather than falling back to
   * TypeScript (six times a region every substep). z is zero between uses.
   */
  private z: Float64Array = new Float64Array(0)
  private Az: Float64Array = new Float64Array(0)

  /** kernels: the viscosity system's, whose memory the product reads (default TypeScript). */
  constructor(nx: number, ny: number, nz: number, private readonly kernels: KernelBackend = TS_KERNELS) {
    const cells = nx * ny * nz
    this.seen = new Uint8Array(cells)
    this.stack = new Int32Array(cells)
    this.label = new Int32Array(cells)
  }

  /** Number of regions of the last setup. */
  get regions(): number {
    return this.faces.length
  }

  /**
   * Finds the stiff regions of `kind` / `cellNu` and builds Z and E for `sys` (set up on the
   * same cells, spacing dx, origin). Returns the number of regions (0: nothing to add).
   */
  setup(sys: RigidModeSystem, kind: Uint8Array, cellNu: Float32Array, dx: number): number {
    const { nx, ny, nz } = sys
    const plane = nx * ny
    const cells = plane * nz
    let nuMax = 0
    for (let c = 0; c < cells; c++) if (kind[c] === LIQUID && cellNu[c] > nuMax) nuMax = cellNu[c]
    const threshold = STIFF_SHARE * nuMax
    const { seen, stack, label } = this
    seen.fill(0)
    // Flood fill the stiff cells into regions; label[c] = region, -1 = none.
    label.fill(-1)
    const sizes: number[] = []
    const held: boolean[] = []
    for (let c0 = 0; c0 < cells; c0++) {
      if (seen[c0] || kind[c0] !== LIQUID || !(cellNu[c0] >= threshold) || nuMax <= 0) continue
      const r = sizes.length
      let top = 0, size = 0, touches = false
      stack[top++] = c0
      seen[c0] = 1
      while (top > 0) {
        const c = stack[--top]
        label[c] = r
        size++
        const i = c % nx, j = ((c - i) / nx) % ny, k = (c - i - nx * j) / plane
        if (i === 0 || j === 0 || k === 0 || i === nx - 1 || j === ny - 1 || k === nz - 1) touches = true
        const visit = (d: number) => {
          if (kind[d] === SOLID) touches = true
          if (!seen[d] && kind[d] === LIQUID && cellNu[d] >= threshold) (seen[d] = 1), (stack[top++] = d)
        }
        if (i > 0) visit(c - 1)
        if (i < nx - 1) visit(c + 1)
        if (j > 0) visit(c - nx)
        if (j < ny - 1) visit(c + nx)
        if (k > 0) visit(c - plane)
        if (k < nz - 1) visit(c + plane)
      }
      sizes.push(size)
      held.push(touches)
    }
    // Keep the largest regions.
    const order = sizes.map((s, r) => r).filter((r) => sizes[r] >= MIN_REGION_CELLS && !held[r]).sort((a, b) => sizes[b] - sizes[a]).slice(0, MAX_REGIONS)
    const keep = new Int32Array(sizes.length).fill(-1)
    order.forEach((r, q) => (keep[r] = q))
    const R = order.length
    // Each kept region's faces: the unknown faces of its cells (a face between two cells of
    // the region is listed once: from its lower cell, or from the upper cell when the lower
    // one is not in the region).
    const lists: number[][] = Array.from({ length: R }, () => [])
    const pos: number[][] = Array.from({ length: R }, () => [])
    const { nu: ou, nv } = sys
    const ov = ou, ow = ou + nv
    const push = (q: number, f: number, x: number, y: number, z: number) => {
      if (!sys.unknown[f]) return
      lists[q].push(f)
      pos[q].push(x, y, z)
    }
    for (let k = 0; k < nz; k++) {
      for (let j = 0; j < ny; j++) {
        for (let i = 0; i < nx; i++) {
          const c = i + nx * (j + ny * k)
          const r = label[c]
          if (r < 0 || keep[r] < 0) continue
          const q = keep[r]
          const x = (i + 0.5) * dx, y = (j + 0.5) * dx, z = (k + 0.5) * dx
          const u0 = i + (nx + 1) * (j + ny * k)
          const v0 = ov + i + nx * (j + (ny + 1) * k)
          const w0 = ow + c
          // Lower faces unless the lower neighbour is in the same region (it lists them as its upper).
          if (!(i > 0 && label[c - 1] === r)) push(q, u0, x - 0.5 * dx, y, z)
          push(q, u0 + 1, x + 0.5 * dx, y, z)
          if (!(j > 0 && label[c - nx] === r)) push(q, v0, x, y - 0.5 * dx, z)
          push(q, v0 + nx, x, y + 0.5 * dx, z)
          if (!(k > 0 && label[c - plane] === r)) push(q, w0, x, y, z - 0.5 * dx)
          push(q, w0 + plane, x, y, z + 0.5 * dx)
        }
      }
    }
    this.faces = []
    this.columns = []
    for (let q = 0; q < R; q++) {
      const f = Int32Array.from(lists[q])
      const p = pos[q]
      const s = f.length
      let cx = 0, cy = 0, cz = 0
      for (let a = 0; a < s; a++) (cx += p[3 * a]), (cy += p[3 * a + 1]), (cz += p[3 * a + 2])
      cx /= s || 1
      cy /= s || 1
      cz /= s || 1
      // Columns: translations along x, y, z, then rotations about x, y, z (omega x (p - centroid)).
      const col = new Float64Array(MODES * s)
      for (let a = 0; a < s; a++) {
        const face = f[a]
        const comp = face < ov ? 0 : face < ow ? 1 : 2
        const rx = p[3 * a] - cx, ry = p[3 * a + 1] - cy, rz = p[3 * a + 2] - cz
        col[comp * s + a] = 1
        // omega = e_x: (0, -rz, ry); e_y: (rz, 0, -rx); e_z: (-ry, rx, 0).
        col[3 * s + a] = comp === 1 ? -rz : comp === 2 ? ry : 0
        col[4 * s + a] = comp === 0 ? rz : comp === 2 ? -rx : 0
        col[5 * s + a] = comp === 0 ? -ry : comp === 1 ? rx : 0
      }
      orthonormalise(col, s)
      this.faces.push(f)
      this.columns.push(col)
    }
    this.buildCoarseMatrix(sys)
    return R
  }

  /** E = Z^T A Z and its Cholesky factor (columns that vanished get an identity row). */
  private buildCoarseMatrix(sys: RigidModeSystem): void {
    const R = this.faces.length
    const m = MODES * R
    this.m = m
    const E = new Float64Array(m * m)
    if (this.z.length !== sys.n) {
      this.z = this.kernels.f64(sys.n)
      this.Az = this.kernels.f64(sys.n)
    }
    const { z, Az } = this
    for (let q = 0; q < R; q++) {
      const f = this.faces[q], col = this.columns[q], s = f.length
      for (let a = 0; a < MODES; a++) {
        for (let t = 0; t < s; t++) z[f[t]] = col[a * s + t]
        sys.apply(z, Az)
        for (let t = 0; t < s; t++) z[f[t]] = 0
        const ca = q * MODES + a
        for (let q2 = 0; q2 < R; q2++) {
          const f2 = this.faces[q2], col2 = this.columns[q2], s2 = f2.length
          for (let b = 0; b < MODES; b++) {
            let d = 0
            for (let t = 0; t < s2; t++) d += col2[b * s2 + t] * Az[f2[t]]
            E[(q2 * MODES + b) * m + ca] = d
          }
        }
      }
    }
    // Symmetrise (the products agree to rounding), then factor (core's dense factor grounds a
    // zero pivot: a mode with no faces contributes nothing).
    for (let a = 0; a < m; a++) for (let b = 0; b < a; b++) E[a * m + b] = E[b * m + a] = 0.5 * (E[a * m + b] + E[b * m + a])
    this.chol = new DenseCholesky({ n: m, dense: E })
    this.y = new Float64Array(m)
  }

  /** z += Z E^-1 Z^T r. */
  addCorrection(r: Float64Array, z: Float64Array): void {
    const { m, y, faces, columns } = this
    if (m === 0) return
    const R = faces.length
    for (let q = 0; q < R; q++) {
      const f = faces[q], col = columns[q], s = f.length
      for (let a = 0; a < MODES; a++) {
        let d = 0
        for (let t = 0; t < s; t++) d += col[a * s + t] * r[f[t]]
        y[q * MODES + a] = d
      }
    }
    this.chol.solve(y, y)
    for (let q = 0; q < R; q++) {
      const f = faces[q], col = columns[q], s = f.length
      for (let a = 0; a < MODES; a++) {
        const ya = y[q * MODES + a]
        if (ya === 0) continue
        for (let t = 0; t < s; t++) z[f[t]] += ya * col[a * s + t]
      }
    }
  }
}

/** Modified Gram-Schmidt on the MODES columns of length s (a column that vanishes stays 0). */
function orthonormalise(col: Float64Array, s: number): void {
  for (let a = 0; a < MODES; a++) {
    for (let b = 0; b < a; b++) {
      let d = 0
      for (let t = 0; t < s; t++) d += col[a * s + t] * col[b * s + t]
      for (let t = 0; t < s; t++) col[a * s + t] -= d * col[b * s + t]
    }
    let n2 = 0
    for (let t = 0; t < s; t++) n2 += col[a * s + t] * col[a * s + t]
    const scale = n2 > 1e-24 ? 1 / Math.sqrt(n2) : 0
    for (let t = 0; t < s; t++) col[a * s + t] *= scale
  }
}

/** B^-1 r + Z E^-1 Z^T r: a preconditioner with the rigid-motion coarse space added. */
export class WithRigidModes implements Preconditioner {
  constructor(
    private readonly base: Preconditioner,
    private readonly modes: RigidModeSpace,
  ) {}
  apply(r: Float64Array, z: Float64Array): void {
    this.base.apply(r, z)
    this.modes.addCorrection(r, z)
  }
}
