// Rigid-motion coarse space for the full-stress viscosity solve (viscosity.ts 'full'; issue 19).
//
// The full stress div(nu (grad u + grad u^T)) charges nothing for a rigid motion (zero strain),
// so a stiff region (solid wax in its melt, a highly viscous blob) can translate and turn at
// the cost of its mass alone. The per-component multigrid cycle (viscousMultigrid.ts) inverts
// each component's own block, nu lap u_a, which does charge a rotation for its velocity
// gradient: on those few motions it is wrong by the stiffness ratio (1e6-1e7 on the melting
// bunny) and CG stalled (849-1537 iterations a substep there, Jacobi 430-778). A rotation of a
// region against soft surroundings is not a smooth field over the whole grid, so no
// geometric coarsening of the block sees it either; naming them does. Incomplete Cholesky
// (viscousMatrix.ts) factors each face's own sites only, so it too leaves a stiff body's slow
// motions to the iteration, also where the body stands on a wall (viscosity.ts
// incompleteCholesky has the figures).
//
// So the preconditioner adds a coarse space Z of the rigid motions of each stiff region: the
// three translations and the three rotations about the region's centroid, sampled on the
// unknown faces of the region's cells (zero elsewhere). With E = Z^T A Z,
//   M^-1 r = B^-1 r + Z E^-1 Z^T r
// (the additive two-level form: symmetric positive definite when B^-1 is, and exact on span Z,
// where A's energy is the mass plus the soft surroundings' shear; the map depends on span Z
// only, not on the basis). The basis is kept as sampled, not orthonormalised, because it is
// sparse: a face of component c has three entries, 1 in translation c and its lever arms in
// the two rotations that move it (omega x r), so applying Z^T and Z reads three numbers a face
// (rigidModeKernels.ts). Building it costs one product with A per column.
//
// A stiff region: a 6-connected set of liquid cells whose viscosity is at least STIFF_SHARE of
// the largest in the liquid. The cycle takes only those touching neither a solid cell nor the
// domain's sides ('free': a region held by a wall cannot turn freely: on the viscous dam break
// the modes cost 0.6 s a frame to build and apply and saved nothing, 15.9 against 15.2
// iterations); incomplete Cholesky takes them all ('all'). The MAX_REGIONS largest regions of
// at least MIN_REGION_CELLS cells are kept (tiny fragments are left to the base).
import { DenseCholesky } from '../core/amg/denseCholesky'
import { TS_KERNELS } from '../core/kernelBackend'
import type { KernelBackend } from '../core/kernelTypes'
import { reuseOrGrow } from '../core/growCapacity'
import { IcSpace } from '../core/sparse/incompleteCholesky'
import type { Preconditioner } from '../core/pcg'
import { RIGID_MODES, RIGID_MODES_ADD, RIGID_MODES_DOT } from './rigidModeKernels'

export const STIFF_SHARE = 0.1
export const MAX_REGIONS = 16
export const MIN_REGION_CELLS = 8
const MODES = RIGID_MODES
const LIQUID = 1
const SOLID = 2

/**
 * Which stiff regions setup takes: 'free' leaves out those touching a solid or the domain's
 * sides (the cycle's choice: see the file comment), 'all' takes them too (incomplete
 * Cholesky's: see viscosity.ts).
 */
export type StiffRegions = 'free' | 'all'

/** What the coarse space reads from a set-up viscosity system. */
export interface RigidModeSystem {
  readonly nx: number
  readonly ny: number
  readonly nz: number
  readonly nu: number
  readonly nv: number
  readonly n: number
  readonly unknown: Uint8Array
  /** A x on the unknown rows (out's other rows are left as they are). */
  applyUnknowns(x: Float64Array, out: Float64Array): void
}

export class RigidModeSpace {
  /** Regions of the last setup. */
  private count = 0
  /**
   * What the kernels read, in the kernels' memory (rigidModeKernels.ts has the layout): the
   * regions' faces, u then v then w within a region (segments at start[3 q + c]), each face's
   * two lever arms, and the coarse vector y (MODES a region).
   */
  private readonly space: IcSpace
  private faces: Int32Array = new Int32Array(0)
  private arms: Float64Array = new Float64Array(0)
  private start: Int32Array = new Int32Array(1)
  private y: Float64Array = new Float64Array(0)
  /** Cholesky factor of E = Z^T A Z (m x m, m = MODES x regions). */
  private chol = new DenseCholesky({ n: 0, dense: new Float64Array(0) })
  private m = 0
  private readonly seen: Uint8Array
  private readonly stack: Int32Array
  private readonly label: Int32Array
  /** setup's listed faces and their bucket (3 region + component), reused. */
  private listed = new Int32Array(0)
  private bucket = new Int32Array(0)

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
    this.space = new IcSpace(kernels)
  }

  /** Number of regions of the last setup. */
  get regions(): number {
    return this.count
  }

  /**
   * Finds the stiff regions of `kind` / `cellNu` and builds Z and E for `sys` (set up on the
   * same cells, spacing dx, origin). Returns the number of regions (0: nothing to add).
   */
  setup(sys: RigidModeSystem, kind: Uint8Array, cellNu: Float32Array, dx: number, regions: StiffRegions = 'free'): number {
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
    const stiff = (d: number) => !seen[d] && kind[d] === LIQUID && cellNu[d] >= threshold
    for (let c0 = 0; c0 < cells; c0++) {
      if (nuMax <= 0 || !stiff(c0)) continue
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
        for (let side = 0; side < 6; side++) {
          const axis = side >> 1, up = side & 1
          const at = axis === 0 ? i : axis === 1 ? j : k
          if (up ? at === (axis === 0 ? nx : axis === 1 ? ny : nz) - 1 : at === 0) continue
          const d = c + (up ? 1 : -1) * (axis === 0 ? 1 : axis === 1 ? nx : plane)
          if (kind[d] === SOLID) touches = true
          if (stiff(d)) (seen[d] = 1), (stack[top++] = d)
        }
      }
      sizes.push(size)
      held.push(touches)
    }
    // Keep the largest regions.
    const order = sizes.map((s, r) => r).filter((r) => sizes[r] >= MIN_REGION_CELLS && (regions === 'all' || !held[r])).sort((a, b) => sizes[b] - sizes[a]).slice(0, MAX_REGIONS)
    const keep = new Int32Array(sizes.length).fill(-1)
    order.forEach((r, q) => (keep[r] = q))
    const R = order.length
    this.count = R
    this.m = MODES * R
    if (R === 0) return 0
    // Each kept region's faces: the unknown faces of its cells (a face between two cells of
    // the region is listed once: from its lower cell, or from the upper cell when the lower
    // one is not in the region), in cell order, bucketed by region and component.
    const { nu: ov, nv, unknown } = sys
    const ow = ov + nv
    const listed = (this.listed = reuseOrGrow(this.listed, 6 * cells, (length) => new Int32Array(length)))
    const bucket = (this.bucket = reuseOrGrow(this.bucket, 6 * cells, (length) => new Int32Array(length)))
    const counts = new Int32Array(3 * R + 1)
    let n = 0
    const add = (f: number, key: number) => {
      listed[n] = f
      bucket[n++] = key
      counts[key + 1]++
    }
    for (let c = 0; c < cells; c++) {
      const r = label[c]
      if (r < 0 || keep[r] < 0) continue
      const key = 3 * keep[r]
      const i = c % nx, j = ((c - i) / nx) % ny, k = (c - i - nx * j) / plane
      const u0 = c + ((c / nx) | 0), v0 = ov + c + nx * k, w0 = ow + c
      if (!(i > 0 && label[c - 1] === r) && unknown[u0]) add(u0, key)
      if (unknown[u0 + 1]) add(u0 + 1, key)
      if (!(j > 0 && label[c - nx] === r) && unknown[v0]) add(v0, key + 1)
      if (unknown[v0 + nx]) add(v0 + nx, key + 1)
      if (!(k > 0 && label[c - plane] === r) && unknown[w0]) add(w0, key + 2)
      if (unknown[w0 + plane]) add(w0 + plane, key + 2)
    }
    const start = (this.start = this.space.i32('start', 3 * R + 1))
    start[0] = 0
    for (let b = 0; b < 3 * R; b++) start[b + 1] = start[b] + counts[b + 1]
    const faces = (this.faces = this.space.i32('faces', n))
    const next = start.slice(0, 3 * R)
    for (let t = 0; t < n; t++) faces[next[bucket[t]]++] = listed[t]
    // Lever arms about each region's centroid (the mean of its faces' centres).
    const arms = (this.arms = this.space.f64('arms', 2 * n))
    const centre = new Float64Array(3)
    for (let q = 0; q < R; q++) {
      let cx = 0, cy = 0, cz = 0
      const t0 = start[3 * q], t1 = start[3 * q + 3]
      for (let t = t0; t < t1; t++) {
        this.faceCentre(faces[t], nx, ny, ov, ow, dx, centre)
        cx += centre[0]
        cy += centre[1]
        cz += centre[2]
      }
      const s = t1 - t0 || 1
      cx /= s
      cy /= s
      cz /= s
      for (let t = t0; t < t1; t++) {
        const f = faces[t]
        this.faceCentre(f, nx, ny, ov, ow, dx, centre)
        const rx = centre[0] - cx, ry = centre[1] - cy, rz = centre[2] - cz
        // omega x r: about x (0, -rz, ry), about y (rz, 0, -rx), about z (-ry, rx, 0). A face
        // of component c takes the two rotations that move it, in increasing order of axis.
        const comp = f < ov ? 0 : f < ow ? 1 : 2
        arms[2 * t] = comp === 0 ? rz : comp === 1 ? -rz : ry
        arms[2 * t + 1] = comp === 0 ? -ry : comp === 1 ? rx : -rx
      }
    }
    this.y = this.space.f64('y', this.m)
    this.buildCoarseMatrix(sys)
    return R
  }

  /** The centre of stacked face f, metres from the grid's origin, into out. */
  private faceCentre(f: number, nx: number, ny: number, ov: number, ow: number, dx: number, out: Float64Array): void {
    if (f < ov) {
      const i = f % (nx + 1), row = (f - i) / (nx + 1), j = row % ny, k = (row - j) / ny
      out[0] = i * dx
      out[1] = (j + 0.5) * dx
      out[2] = (k + 0.5) * dx
    } else if (f < ow) {
      const g = f - ov, i = g % nx, row = (g - i) / nx, j = row % (ny + 1), k = (row - j) / (ny + 1)
      out[0] = (i + 0.5) * dx
      out[1] = j * dx
      out[2] = (k + 0.5) * dx
    } else {
      const g = f - ow, i = g % nx, row = (g - i) / nx, j = row % ny, k = (row - j) / ny
      out[0] = (i + 0.5) * dx
      out[1] = (j + 0.5) * dx
      out[2] = k * dx
    }
  }

  /** E = Z^T A Z (one product with A per column, Z^T of it by the kernel) and its Cholesky factor. */
  private buildCoarseMatrix(sys: RigidModeSystem): void {
    const { m, faces, arms, start } = this
    const R = m / MODES
    const E = new Float64Array(m * m)
    if (this.z.length !== sys.n) {
      this.z = this.kernels.f64(sys.n)
      this.Az = this.kernels.f64(sys.n)
    }
    const { z, Az } = this
    const column = this.space.f64('column', m)
    for (let q = 0; q < R; q++) {
      for (let a = 0; a < MODES; a++) {
        // Column a of region q: translation along a (a < 3), else rotation about axis a - 3.
        for (let comp = 0; comp < 3; comp++) {
          const arm = a < 3 ? -1 : modeArm(comp, a - 3)
          if (a < 3 ? comp !== a : arm < 0) continue
          for (let t = start[3 * q + comp]; t < start[3 * q + comp + 1]; t++) z[faces[t]] = a < 3 ? 1 : arms[2 * t + arm]
        }
        sys.applyUnknowns(z, Az)
        for (let t = start[3 * q]; t < start[3 * q + 3]; t++) z[faces[t]] = 0
        this.kernels.run(RIGID_MODES_DOT, Az, faces, arms, start, R, column)
        const ca = q * MODES + a
        for (let b = 0; b < m; b++) E[b * m + ca] = column[b]
      }
    }
    // Symmetrise (the products agree to rounding), then factor (core's dense factor grounds a
    // zero pivot: a mode with no faces contributes nothing).
    for (let a = 0; a < m; a++) for (let b = 0; b < a; b++) E[a * m + b] = E[b * m + a] = 0.5 * (E[a * m + b] + E[b * m + a])
    this.chol = new DenseCholesky({ n: m, dense: E })
  }

  /**
   * z += Z E^-1 Z^T r: one pass over the regions' faces for the dot products and one for the
   * update, three entries a face (rigidModeKernels.ts).
   */
  addCorrection(r: Float64Array, z: Float64Array): void {
    const { m, y, faces, arms, start, kernels } = this
    if (m === 0) return
    const R = m / MODES
    kernels.run(RIGID_MODES_DOT, r, faces, arms, start, R, y)
    this.chol.solve(y, y)
    kernels.run(RIGID_MODES_ADD, z, faces, arms, start, R, y)
  }
}

/**
 * Which of a component-comp face's two lever arms (0 or 1) rotation about `axis` uses, or -1
 * when that rotation does not move it (rigidModeKernels.ts: a u face takes the rotations
 * about y and z, a v face about x and z, a w face about x and y).
 */
function modeArm(comp: number, axis: number): number {
  if (axis === comp) return -1
  return axis < 3 - comp - axis ? 0 : 1
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
