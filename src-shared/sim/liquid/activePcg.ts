// PCG with MIC(0) for the ghost-fluid pressure (ghostFluid.ts) over its unknowns only.
//
// The liquid fills a tenth of a typical domain (the dam break: 3.2k of 32k cells at 32^3), but
// core/pcg.ts and the Stencil7 kernels sweep every cell, most of them rows with diag 0 that
// only write zeros. Here every vector kernel runs over the list of unknown cells (diag != 0,
// in increasing index order) and leaves the other entries at +0, which is exactly what the
// full sweeps keep there. Each kernel evaluates the same expressions in the same order as
// PcgSolver.solve, Stencil7Matrix.apply and Stencil7Mic0 (factor, apply), and reductions add
// per z-plane partial sums in plane order as vectorOps.ts does, so the iterates, iteration
// counts and result are the same bits (tests/unit/sim/liquid compares the two).
import type { SolveStats } from '../core/pcg'
import { MIC_SAFETY, MIC_TUNING, type Stencil7Matrix } from './stencil7'

/** Residual replacements allowed before accepting a drifted residual (as core/pcg.ts). */
const MAX_RESTARTS = 3

export class ActivePcg {
  readonly nx: number
  readonly ny: number
  readonly nz: number
  /** Unknown cells in increasing order; planeStart[k] .. planeStart[k+1] lie in plane k. */
  private readonly cells: Int32Array
  private readonly planeStart: Int32Array
  private count = 0
  private readonly prec: Float64Array
  private readonly r: Float64Array
  private readonly z: Float64Array
  private readonly s: Float64Array
  private readonly q: Float64Array

  constructor(nx: number, ny: number, nz: number) {
    this.nx = nx
    this.ny = ny
    this.nz = nz
    const n = nx * ny * nz
    this.cells = new Int32Array(n)
    this.planeStart = new Int32Array(nz + 1)
    this.prec = new Float64Array(n)
    this.r = new Float64Array(n)
    this.z = new Float64Array(n)
    this.s = new Float64Array(n)
    this.q = new Float64Array(n)
  }

  /** Number of unknowns of the last solve. */
  get unknowns(): number {
    return this.count
  }

  /** Lists the rows of m with diag != 0 and zeroes the scratch vectors for a new system. */
  private gather(m: Stencil7Matrix): void {
    const { nx, ny, nz, cells, planeStart } = this
    const plane = nx * ny
    const diag = m.diag
    let t = 0
    for (let k = 0; k < nz; k++) {
      planeStart[k] = t
      const end = (k + 1) * plane
      for (let c = k * plane; c < end; c++) if (diag[c] !== 0) cells[t++] = c
    }
    planeStart[nz] = t
    this.count = t
    this.prec.fill(0)
    this.r.fill(0)
    this.z.fill(0)
    this.s.fill(0)
    this.q.fill(0)
  }

  /** MIC(0) of m on the unknowns (Stencil7Mic0.factor). */
  private factor(m: Stencil7Matrix): void {
    const { nx, ny, cells, count, prec } = this
    const { diag, ax, ay, az } = m
    const plane = nx * ny
    const tuning = MIC_TUNING, safety = MIC_SAFETY
    for (let t = 0; t < count; t++) {
      const c = cells[t]
      const d = diag[c]
      let e = d
      if (c >= 1) {
        const a = ax[c - 1], p = prec[c - 1]
        e -= (a * p) ** 2 + tuning * a * (ay[c - 1] + az[c - 1]) * p * p
      }
      if (c >= nx) {
        const a = ay[c - nx], p = prec[c - nx]
        e -= (a * p) ** 2 + tuning * a * (ax[c - nx] + az[c - nx]) * p * p
      }
      if (c >= plane) {
        const a = az[c - plane], p = prec[c - plane]
        e -= (a * p) ** 2 + tuning * a * (ax[c - plane] + ay[c - plane]) * p * p
      }
      if (e < safety * d) e = d
      prec[c] = 1 / Math.sqrt(e)
    }
  }

  /** z = (L L^T)^-1 r on the unknowns (Stencil7Mic0.apply). */
  private precondition(m: Stencil7Matrix): void {
    const { nx, ny, nz, cells, count, prec, r, z } = this
    const { ax, ay, az } = m
    const plane = nx * ny
    const n = plane * nz
    for (let t = 0; t < count; t++) {
      const c = cells[t]
      const p = prec[c]
      let v = r[c]
      if (c >= 1) v -= ax[c - 1] * prec[c - 1] * z[c - 1]
      if (c >= nx) v -= ay[c - nx] * prec[c - nx] * z[c - nx]
      if (c >= plane) v -= az[c - plane] * prec[c - plane] * z[c - plane]
      z[c] = v * p
    }
    for (let t = count - 1; t >= 0; t--) {
      const c = cells[t]
      const p = prec[c]
      let v = z[c]
      if (c + 1 < n) v -= ax[c] * p * z[c + 1]
      if (c + nx < n) v -= ay[c] * p * z[c + nx]
      if (c + plane < n) v -= az[c] * p * z[c + plane]
      z[c] = v * p
    }
  }

  /** out = m x on the unknowns (Stencil7Matrix.apply). */
  private apply(m: Stencil7Matrix, x: Float64Array, out: Float64Array): void {
    const { nx, ny, nz, cells, count } = this
    const { diag, ax, ay, az } = m
    const plane = nx * ny
    const n = plane * nz
    for (let t = 0; t < count; t++) {
      const c = cells[t]
      let s = diag[c] * x[c]
      if (c >= 1) s += ax[c - 1] * x[c - 1]
      if (c + 1 < n) s += ax[c] * x[c + 1]
      if (c >= nx) s += ay[c - nx] * x[c - nx]
      if (c + nx < n) s += ay[c] * x[c + nx]
      if (c >= plane) s += az[c - plane] * x[c - plane]
      if (c + plane < n) s += az[c] * x[c + plane]
      out[c] = s
    }
  }

  /** Sum over the unknowns of a_c b_c, per plane then planes in order (vectorOps.ts). */
  private dot(a: Float64Array, b: Float64Array): number {
    const { nz, cells, planeStart } = this
    let total = 0
    for (let k = 0; k < nz; k++) {
      let s = 0
      const end = planeStart[k + 1]
      for (let t = planeStart[k]; t < end; t++) {
        const c = cells[t]
        s += a[c] * b[c]
      }
      total += s
    }
    return total
  }

  /** r = b - m x on the unknowns; returns ||r||_2. */
  private trueResidual(m: Stencil7Matrix, b: Float64Array, x: Float64Array): number {
    const { cells, count, r } = this
    this.apply(m, x, r)
    for (let t = 0; t < count; t++) {
      const c = cells[t]
      r[c] = b[c] - r[c]
    }
    return Math.sqrt(this.dot(r, r))
  }

  /**
   * Solves m x = b from the guess in x (PcgSolver.solve with a Stencil7Mic0 of m). Rows of m
   * with diag 0 must have b = 0 and x = 0 (ghostFluid.ts sees to both).
   */
  solve(m: Stencil7Matrix, b: Float64Array, x: Float64Array, tol: number, maxIt: number): SolveStats {
    this.gather(m)
    this.factor(m)
    const { cells, count, nz, planeStart, r, z, s, q } = this
    const bNorm = Math.sqrt(this.dot(b, b))
    if (bNorm === 0 || !Number.isFinite(bNorm)) {
      x.fill(0)
      return { iterations: 0, residual: bNorm === 0 ? 0 : Number.NaN, converged: bNorm === 0 }
    }
    const target = tol * bNorm
    let rNorm = this.trueResidual(m, b, x)
    if (rNorm <= target) return { iterations: 0, residual: rNorm / bNorm, converged: true }
    if (!(rNorm < bNorm)) {
      // The guess is worse than zero: start cold (see core/pcg.ts).
      x.fill(0)
      r.set(b)
      rNorm = bNorm
    }
    this.precondition(m)
    for (let t = 0; t < count; t++) s[cells[t]] = z[cells[t]]
    let sigma = this.dot(r, z)
    let iterations = 0
    let restarts = 0
    while (iterations < maxIt) {
      this.apply(m, s, q)
      const sq = this.dot(s, q)
      if (!(sq > 0)) break // breakdown: A or M^-1 not positive definite on this vector
      const alpha = sigma / sq
      // x += alpha s; r -= alpha q; |r|^2 per plane then in plane order (updateIterateSlab).
      let rr = 0
      for (let k = 0; k < nz; k++) {
        let part = 0
        const end = planeStart[k + 1]
        for (let t = planeStart[k]; t < end; t++) {
          const c = cells[t]
          x[c] += alpha * s[c]
          const rc = r[c] - alpha * q[c]
          r[c] = rc
          part += rc * rc
        }
        rr += part
      }
      rNorm = Math.sqrt(rr)
      iterations++
      if (rNorm <= target) {
        rNorm = this.trueResidual(m, b, x)
        if (rNorm <= target || restarts === MAX_RESTARTS) return { iterations, residual: rNorm / bNorm, converged: rNorm <= target }
        restarts++
        this.precondition(m)
        for (let t = 0; t < count; t++) s[cells[t]] = z[cells[t]]
        sigma = this.dot(r, z)
        continue
      }
      this.precondition(m)
      const sigmaNew = this.dot(r, z)
      const beta = sigmaNew / sigma
      for (let t = 0; t < count; t++) {
        const c = cells[t]
        s[c] = z[c] + beta * s[c]
      }
      sigma = sigmaNew
    }
    rNorm = this.trueResidual(m, b, x)
    return { iterations, residual: rNorm / bNorm, converged: rNorm <= target }
  }
}
