// The bodies of the liquid-only pressure solve as walls whose velocity the pressure itself
// sets (the implicit coupling of Batty, Bertails and Bridson 2007, "A fast variational
// framework for accurate solid-fluid coupling", sec. 4, written for the ghost-fluid matrix).
//
// The liquid-only solve (rigidFluid.ts step 5) sees each wet body as a wall moving with the
// body's velocity V = (v, omega). Its pressure pushes the body: impulse rho dx^3 S q, with q
// the solve's velocity potential (ghostFluid.ts) and S the body's rows, one per face it
// covers next to a liquid cell c, g = s share [e_a ; n_a (r x n)] (s = +1 when the liquid is
// below the face along its axis a, -1 above; share the part of the face the body covers; r
// from the centre of mass, n the body's outward normal nearest the face: the torque arm that
// matches the wall velocity e_a . v + n_a n . (omega x r), rigidFaceKernels.ts wallVelocity,
// less a bias that keeps a uniform pressure from turning the body: faceArm).
// The wall's flux enters the right-hand side as b_c -= g . V. With V = V* + M^-1 rho dx^3 S q
// (V* the body's velocity before the pressure: its last velocity, its collisions and its
// weight), the solve is
//     (A + S^T C S) q = b(V*),   C = rho dx^3 M^-1   (M: mass and world inertia, 6x6),
// symmetric positive definite: a rank-6 term per body. Solving the walls' velocity with the
// pressure is what keeps light bodies stable: a wooden plank 2.4 cells thick, its walls
// moving at a velocity predicted before the solve and the solve's pressure applied after,
// swung between the two and blew up within a frame (the block catapult), as explicit
// partitioned coupling does when the liquid a body must move outweighs it ("added mass").
// And what the liquid gains the body loses, face by face, within the solve's tolerance.
import type { MacGrid } from '../core/grid'
import { FACE_STRIDE, type OwnedFaces } from './ownedFaces'
import * as kinds from './viscosity'

const LIQUID = kinds.LIQUID

export class CoupledWalls {
  /** Rows: the liquid cell of each and its 6 coefficients g (body b's rows are rowStart[b] .. rowStart[b + 1]). */
  private cell = new Int32Array(256)
  private g = new Float64Array(6 * 256)
  private rowStart = new Int32Array(1)
  private rows = 0
  /** Per body: C = rho dx^3 M^-1 (row-major 6x6, block diagonal). */
  private C = new Float64Array(0)
  private bodies = 0
  private readonly t = new Float64Array(6)
  /** Per body: prepare()'s C S_b x (6 values). */
  private uBody = new Float64Array(0)

  constructor(
    private readonly nx: number,
    private readonly ny: number,
    private readonly nz: number,
  ) {}

  /** Whether any rows were built (no rows: the plain liquid solve). */
  get active(): boolean {
    return this.rows > 0
  }

  /**
   * The rows of each body with use[b] = 1: faces it owns (faces: rigidCoupling.ts's list, with
   * their torque arms) that `closed` shuts by share = fractions - closed > 0, next to a LIQUID
   * cell. mass and invInertia (9 per body, world) give C; scale = rho dx^3.
   */
  build(nb: number, use: Uint8Array, faces: OwnedFaces, fractions: MacGrid, closed: MacGrid, kind: Uint8Array, mass: Float64Array, invInertia: Float64Array, scale: number): void {
    const { nx, ny, nz } = this
    if (this.rowStart.length < nb + 1) this.rowStart = new Int32Array(nb + 1)
    if (this.C.length < 36 * nb) this.C = new Float64Array(36 * nb)
    this.bodies = nb
    this.rows = 0
    const fr0 = [fractions.u, fractions.v, fractions.w], fr1 = [closed.u, closed.v, closed.w]
    const { start, face, arm } = faces
    for (let bi = 0; bi < nb; bi++) {
      this.rowStart[bi] = this.rows
      if (!use[bi]) continue
      const C = this.C.subarray(36 * bi, 36 * bi + 36)
      C.fill(0)
      for (let d = 0; d < 3; d++) C[7 * d] = scale / mass[bi]
      for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) C[6 * (3 + r) + 3 + c] = scale * invInertia[9 * bi + 3 * r + c]
      for (let t = start[bi]; t < start[bi + 1]; t++) {
        const o = FACE_STRIDE * t
        const a = face[o], f = face[o + 1], i = face[o + 2], j = face[o + 3], k = face[o + 4]
        const share = fr0[a][f] - fr1[a][f]
        if (!(share > 0)) continue
        const ex = a === 0 ? 1 : 0, ey = a === 1 ? 1 : 0, ez = a === 2 ? 1 : 0
        const loIn = ex ? i > 0 : ey ? j > 0 : k > 0
        const hiIn = ex ? i < nx : ey ? j < ny : k < nz
        const lo = loIn ? i - ex + nx * (j - ey + ny * (k - ez)) : -1
        const hi = hiIn ? i + nx * (j + ny * k) : -1
        const loLiquid = lo >= 0 && kind[lo] === LIQUID
        const hiLiquid = hi >= 0 && kind[hi] === LIQUID
        if (!loLiquid && !hiLiquid) continue
        const tx = arm[3 * t], ty = arm[3 * t + 1], tz = arm[3 * t + 2]
        if (loLiquid) this.push(lo, share, a, tx, ty, tz)
        if (hiLiquid) this.push(hi, -share, a, tx, ty, tz)
      }
    }
    this.rowStart[nb] = this.rows
  }

  private push(c: number, s: number, a: number, tx: number, ty: number, tz: number): void {
    if (this.rows === this.cell.length) {
      const cell = new Int32Array(2 * this.rows)
      cell.set(this.cell)
      this.cell = cell
      const g = new Float64Array(12 * this.rows)
      g.set(this.g)
      this.g = g
    }
    const o = 6 * this.rows
    const g = this.g
    g[o] = a === 0 ? s : 0
    g[o + 1] = a === 1 ? s : 0
    g[o + 2] = a === 2 ? s : 0
    g[o + 3] = s * tx
    g[o + 4] = s * ty
    g[o + 5] = s * tz
    this.cell[this.rows++] = c
  }

  /** Drops rows whose cell is not an unknown of the assembled matrix (diag 0): they must not touch it. */
  restrict(diag: Float64Array): void {
    let m = 0
    for (let b = 0; b < this.bodies; b++) {
      const start = this.rowStart[b], end = this.rowStart[b + 1]
      this.rowStart[b] = m
      for (let r = start; r < end; r++) {
        if (diag[this.cell[r]] === 0) continue
        this.cell[m] = this.cell[r]
        for (let d = 0; d < 6; d++) this.g[6 * m + d] = this.g[6 * r + d]
        m++
      }
    }
    this.rowStart[this.bodies] = m
    this.rows = m
  }

  /** out += S^T C S x: the operator's rank-6 term per body (prepare(x), then scatter(out)). */
  addTo(x: Float64Array, out: Float64Array): void {
    this.prepare(x)
    this.scatter(out)
  }

  /**
   * The first half of addTo, which reads x alone: C S_b x per body. The solve's operator
   * (activePcg.ts) runs it while the kernels' other threads compute m x into out.
   */
  prepare(x: Float64Array): void {
    const { rowStart, t } = this
    if (this.uBody.length < 6 * this.bodies) this.uBody = new Float64Array(6 * this.bodies)
    const u = this.uBody
    for (let bi = 0; bi < this.bodies; bi++) {
      if (rowStart[bi] === rowStart[bi + 1]) continue
      this.impulseOf(bi, x, t)
      const C = this.C
      const oc = 36 * bi
      for (let r = 0; r < 6; r++) {
        let s = 0
        for (let c = 0; c < 6; c++) s += C[oc + 6 * r + c] * t[c]
        u[6 * bi + r] = s
      }
    }
  }

  /** The second half of addTo: out += S_b^T (C S_b x) per body, in body and row order. */
  scatter(out: Float64Array): void {
    const { cell, g, rowStart } = this
    const u = this.uBody
    for (let bi = 0; bi < this.bodies; bi++) {
      const start = rowStart[bi], end = rowStart[bi + 1]
      if (start === end) continue
      const b = 6 * bi
      for (let r = start; r < end; r++) {
        const o = 6 * r
        out[cell[r]] += g[o] * u[b] + g[o + 1] * u[b + 1] + g[o + 2] * u[b + 2] + g[o + 3] * u[b + 3] + g[o + 4] * u[b + 4] + g[o + 5] * u[b + 5]
      }
    }
  }

  /** S_b x for body bi into out (6): the pressure's impulse on it over rho dx^3. */
  impulseOf(bi: number, x: Float64Array, out: Float64Array): void {
    const { cell, g, rowStart } = this
    out.fill(0)
    for (let r = rowStart[bi]; r < rowStart[bi + 1]; r++) {
      const xc = x[cell[r]]
      const o = 6 * r
      for (let d = 0; d < 6; d++) out[d] += g[o + d] * xc
    }
  }

  /** The velocity change C S_b q of body bi (6: linear, angular) into out. */
  velocityChange(bi: number, q: Float64Array, out: Float64Array): void {
    const t = this.t
    this.impulseOf(bi, q, t)
    const oc = 36 * bi
    for (let r = 0; r < 6; r++) {
      let s = 0
      for (let c = 0; c < 6; c++) s += this.C[oc + 6 * r + c] * t[c]
      out[r] = s
    }
  }
}
