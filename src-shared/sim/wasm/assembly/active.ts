// The ghost-fluid pressure's PCG kernels over the unknown cells (reference:
// src-shared/sim/liquid/activeKernels.ts): the 7-point product and the vector updates with
// per-plane partial sums, over the unknowns cells[planeStart[k] .. planeStart[k + 1]) of planes
// [k0, k1). The same float64 expressions in the same order as the references: the same bits.
import { rf64, ri32, wf64 } from './common'
import { stencil7Row } from './stencil7Row'

/** activeApplySlab. */
export function activeApply(out: usize, x: usize, diag: usize, ax: usize, ay: usize, az: usize, cells: usize, planeStart: usize, nx: i32, ny: i32, nz: i32, k0: i32, k1: i32): void {
  const plane = nx * ny
  const n = plane * nz
  const end = ri32(planeStart, k1)
  for (let t = ri32(planeStart, k0); t < end; t++) {
    const c = ri32(cells, t)
    wf64(out, c, stencil7Row(diag, ax, ay, az, x, c, nx, plane, n))
  }
}

/** activeDotSlab. */
export function activeDot(a: usize, b: usize, cells: usize, planeStart: usize, partial: usize, k0: i32, k1: i32): void {
  for (let k = k0; k < k1; k++) {
    let s: f64 = 0
    const end = ri32(planeStart, k + 1)
    for (let t = ri32(planeStart, k); t < end; t++) {
      const c = ri32(cells, t)
      s += rf64(a, c) * rf64(b, c)
    }
    wf64(partial, k, s)
  }
}

/** activeUpdateIterateSlab. */
export function activeUpdateIterate(x: usize, r: usize, s: usize, q: usize, alpha: f64, cells: usize, planeStart: usize, partial: usize, k0: i32, k1: i32): void {
  for (let k = k0; k < k1; k++) {
    let part: f64 = 0
    const end = ri32(planeStart, k + 1)
    for (let t = ri32(planeStart, k); t < end; t++) {
      const c = ri32(cells, t)
      wf64(x, c, rf64(x, c) + alpha * rf64(s, c))
      const rc = rf64(r, c) - alpha * rf64(q, c)
      wf64(r, c, rc)
      part += rc * rc
    }
    wf64(partial, k, part)
  }
}

/** activeUpdateSearchSlab. */
export function activeUpdateSearch(s: usize, z: usize, beta: f64, cells: usize, planeStart: usize, k0: i32, k1: i32): void {
  const end = ri32(planeStart, k1)
  for (let t = ri32(planeStart, k0); t < end; t++) {
    const c = ri32(cells, t)
    wf64(s, c, rf64(z, c) + beta * rf64(s, c))
  }
}

/** Spins until the band counter at p reaches `planes` (a plane takes microseconds). */
@inline function waitUntil(p: usize, planes: i32): void {
  while (atomic.load<i32>(p) < planes) {}
}

/**
 * activeMicApplySlab, pipelined across threads: band b publishes in progress[b] the planes
 * its forward solve has finished and in progress[bands + b] those its backward solve has, and
 * waits (spinning: a plane takes microseconds) for band b - 1's forward plane k before its own
 * plane k, and for band b + 1's backward plane k before its own. Seq-cst atomics order the
 * plain z stores before the counter a neighbour reads. Run on one thread over several bands,
 * every wait is already met.
 */
export function activeMicApply(r: usize, z: usize, prec: usize, ax: usize, ay: usize, az: usize, cells: usize, bandStart: usize, progress: usize, nx: i32, ny: i32, nz: i32, bands: i32, b0: i32, b1: i32): void {
  const plane = nx * ny
  const n = plane * nz
  for (let b = b0; b < b1; b++) {
    const below = progress + (<usize>(b - 1) << 2)
    const mine = progress + (<usize>b << 2)
    for (let k = 0; k < nz; k++) {
      if (b > 0) waitUntil(below, k + 1)
      const end = ri32(bandStart, k * bands + b + 1)
      // The last value written, and its cell: along a run of unknowns the next cell's x
      // neighbour is that one, taken from the register instead of read back from memory just
      // after its store (that round trip was on the chain of dependent operations from cell to
      // cell). The same value, so the same bits.
      let last: i32 = -2
      let zLast: f64 = 0
      for (let t = ri32(bandStart, k * bands + b); t < end; t++) {
        const c = ri32(cells, t)
        const p = rf64(prec, c)
        let v = rf64(r, c)
        if (c >= 1) v -= rf64(ax, c - 1) * rf64(prec, c - 1) * select<f64>(zLast, rf64(z, c - 1), c - 1 == last)
        if (c >= nx) v -= rf64(ay, c - nx) * rf64(prec, c - nx) * rf64(z, c - nx)
        if (c >= plane) v -= rf64(az, c - plane) * rf64(prec, c - plane) * rf64(z, c - plane)
        zLast = v * p
        last = c
        wf64(z, c, zLast)
      }
      atomic.store<i32>(mine, k + 1)
    }
  }
  for (let b = b1 - 1; b >= b0; b--) {
    const above = progress + (<usize>(bands + b + 1) << 2)
    const mine = progress + (<usize>(bands + b) << 2)
    for (let k = nz - 1; k >= 0; k--) {
      if (b < bands - 1) waitUntil(above, nz - k)
      const start = ri32(bandStart, k * bands + b)
      // As the forward solve: the x neighbour (c + 1) is the cell just written.
      let last: i32 = -2
      let zLast: f64 = 0
      for (let t = ri32(bandStart, k * bands + b + 1) - 1; t >= start; t--) {
        const c = ri32(cells, t)
        const p = rf64(prec, c)
        let v = rf64(z, c)
        if (c + 1 < n) v -= rf64(ax, c) * p * select<f64>(zLast, rf64(z, c + 1), c + 1 == last)
        if (c + nx < n) v -= rf64(ay, c) * p * rf64(z, c + nx)
        if (c + plane < n) v -= rf64(az, c) * p * rf64(z, c + plane)
        zLast = v * p
        last = c
        wf64(z, c, zLast)
      }
      atomic.store<i32>(mine, nz - k)
    }
  }
}

/**
 * activeMicFactorSlab, pipelined like activeMicApply's forward solve: band b factors plane k
 * once band b - 1 has published it in progress[b - 1]. (a p)^2 is evaluated as (a p) (a p),
 * which is what JavaScript's ** 2 gives for a float64 (exact squaring, one rounding).
 */
export function activeMicFactor(prec: usize, diag: usize, ax: usize, ay: usize, az: usize, cells: usize, bandStart: usize, progress: usize, nx: i32, ny: i32, nz: i32, bands: i32, tuning: f64, safety: f64, b0: i32, b1: i32): void {
  const plane = nx * ny
  for (let b = b0; b < b1; b++) {
    const below = progress + (<usize>(b - 1) << 2)
    const mine = progress + (<usize>b << 2)
    for (let k = 0; k < nz; k++) {
      if (b > 0) waitUntil(below, k + 1)
      const end = ri32(bandStart, k * bands + b + 1)
      for (let t = ri32(bandStart, k * bands + b); t < end; t++) {
        const c = ri32(cells, t)
        const d = rf64(diag, c)
        let e = d
        if (c >= 1) {
          const a = rf64(ax, c - 1), p = rf64(prec, c - 1)
          const ap = a * p
          e -= ap * ap + tuning * a * (rf64(ay, c - 1) + rf64(az, c - 1)) * p * p
        }
        if (c >= nx) {
          const a = rf64(ay, c - nx), p = rf64(prec, c - nx)
          const ap = a * p
          e -= ap * ap + tuning * a * (rf64(ax, c - nx) + rf64(az, c - nx)) * p * p
        }
        if (c >= plane) {
          const a = rf64(az, c - plane), p = rf64(prec, c - plane)
          const ap = a * p
          e -= ap * ap + tuning * a * (rf64(ax, c - plane) + rf64(ay, c - plane)) * p * p
        }
        if (e < safety * d) e = d
        wf64(prec, c, 1 / Math.sqrt(e))
      }
      atomic.store<i32>(mine, k + 1)
    }
  }
}

/** activeRowCountSlab over cell planes [k0, k1). */
export function activeRowCount(diag: usize, rowCount: usize, nx: i32, ny: i32, k0: i32, k1: i32): void {
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < ny; j++) {
      let n: i32 = 0
      const row = nx * (j + ny * k)
      for (let c = row; c < row + nx; c++) n += rf64(diag, c) != 0 ? 1 : 0
      store<i32>(rowCount + (<usize>(ny * k + j) << 2), n)
    }
  }
}

/** activeListSlab over cell planes [k0, k1). */
export function activeList(diag: usize, cells: usize, planeStart: usize, plane: i32, k0: i32, k1: i32): void {
  for (let k = k0; k < k1; k++) {
    let t = ri32(planeStart, k)
    const end = (k + 1) * plane
    for (let c = k * plane; c < end; c++) {
      if (rf64(diag, c) != 0) {
        store<i32>(cells + (<usize>t << 2), c)
        t++
      }
    }
  }
}
