// The liquid's redistancing pass (reference: src-shared/sim/liquid/redistance.ts redistanceSlab;
// Carlson 2004 sec. 6.2.2 by fast sweeping, Zhao 2005): initial distances next to the sign
// changes, eight Gauss-Seidel sweeps of the Godunov upwind update over the band's row spans, then
// the sign of the input and the band cap. Sequential, on one thread (index range [0, 1)); the
// same float64 operations in the same order as the reference, so the same bits. (JavaScript's
// Math.min and wasm's f64.min agree, -0 and NaN included.)
import { rf32, rf64, ri32, wf32, wf64, wi32 } from './common'

/** redistance.ts axisTerm. */
@inline function axisTerm(p: f64, a: f64, b: f64, dx: f64): f64 {
  let t = Infinity
  if (p < 0 != a < 0) t = Math.min(t, (p / (p - a)) * dx)
  if (p < 0 != b < 0) t = Math.min(t, (p / (p - b)) * dx)
  if (t == Infinity) return 0
  const tt = t > 1e-6 * dx ? t : 1e-6 * dx
  return 1 / (tt * tt)
}

/** redistance.ts dilateRowSpans. */
function dilateRowSpans(spans: usize, nx: i32, ny: i32, nz: i32, m: i32): void {
  const rows = ny * nz, tmp = 2 * rows
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) {
      let lo = nx, hi = -1
      for (let q = max(0, j - m), q1 = min(ny - 1, j + m); q <= q1; q++) {
        const r = q + ny * k
        const a = ri32(spans, 2 * r), b = ri32(spans, 2 * r + 1)
        if (a < lo) lo = a
        if (b > hi) hi = b
      }
      const r = j + ny * k
      wi32(spans, tmp + 2 * r, lo)
      wi32(spans, tmp + 2 * r + 1, hi)
    }
  }
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) {
      let lo = nx, hi = -1
      for (let q = max(0, k - m), q1 = min(nz - 1, k + m); q <= q1; q++) {
        const r = j + ny * q
        const a = ri32(spans, tmp + 2 * r), b = ri32(spans, tmp + 2 * r + 1)
        if (a < lo) lo = a
        if (b > hi) hi = b
      }
      const r = j + ny * k
      wi32(spans, 2 * r, hi < lo ? nx : max(0, lo - m))
      wi32(spans, 2 * r + 1, hi < lo ? -1 : min(nx - 1, hi + m))
    }
  }
}

/** redistanceSlab over [b0, b1) = [0, 1), row spans in this thread's scratch block. */
export function redistance(phi: usize, d: usize, spansBase: usize, spansStride: usize, nx: i32, ny: i32, nz: i32, dx: f64, band: f64, b0: i32, b1: i32, worker: i32): void {
  if (b0 != 0 || b1 < 1) return
  redistanceField(phi, d, spansBase + <usize>worker * spansStride, nx, ny, nz, dx, band)
}

function redistanceField(phi: usize, d: usize, spans: usize, nx: i32, ny: i32, nz: i32, dx: f64, band: f64): void {
  const plane = nx * ny
  const n = plane * nz
  let i0 = nx, i1 = -1, j0 = ny, j1 = -1, k0 = nz, k1 = -1
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) {
      const r = j + ny * k
      wi32(spans, 2 * r, nx)
      wi32(spans, 2 * r + 1, -1)
      for (let i = 0; i < nx; i++) {
        const c = i + nx * (j + ny * k)
        const p = rf32(phi, c)
        const xm = i > 0 ? rf32(phi, c - 1) : p, xp = i < nx - 1 ? rf32(phi, c + 1) : p
        const ym = j > 0 ? rf32(phi, c - nx) : p, yp = j < ny - 1 ? rf32(phi, c + nx) : p
        const zm = k > 0 ? rf32(phi, c - plane) : p, zp = k < nz - 1 ? rf32(phi, c + plane) : p
        const neg = p < 0
        const crossing = neg != xm < 0 || neg != xp < 0 || neg != ym < 0 || neg != yp < 0 || neg != zm < 0 || neg != zp < 0
        if (!crossing) {
          wf64(d, c, band)
          continue
        }
        if (i < i0) i0 = i
        if (i > i1) i1 = i
        if (ri32(spans, 2 * r) == nx) wi32(spans, 2 * r, i)
        wi32(spans, 2 * r + 1, i)
        if (j < j0) j0 = j
        if (j > j1) j1 = j
        if (k < k0) k0 = k
        if (k > k1) k1 = k
        const cx = (i > 0 ? 1 : 0) + (i < nx - 1 ? 1 : 0), cy = (j > 0 ? 1 : 0) + (j < ny - 1 ? 1 : 0), cz = (k > 0 ? 1 : 0) + (k < nz - 1 ? 1 : 0)
        const gx = (xp - xm) / <f64>(cx != 0 ? cx : 1)
        const gy = (yp - ym) / <f64>(cy != 0 ? cy : 1)
        const gz = (zp - zm) / <f64>(cz != 0 ? cz : 1)
        const g = Math.sqrt(gx * gx + gy * gy + gz * gz) / dx
        let inv2: f64 = 0
        inv2 += axisTerm(p, xm, xp, dx)
        inv2 += axisTerm(p, ym, yp, dx)
        inv2 += axisTerm(p, zm, zp, dx)
        const byCrossing = 1 / Math.sqrt(inv2)
        const byGradient = g > 0 ? Math.abs(p) / g : byCrossing
        wf64(d, c, byGradient < byCrossing ? byGradient : byCrossing)
      }
    }
  }
  const margin = <i32>Math.ceil((band * Math.sqrt(3)) / dx) + 1
  const bi0 = max(0, i0 - margin), bi1 = min(nx - 1, i1 + margin)
  const bj0 = max(0, j0 - margin), bj1 = min(ny - 1, j1 + margin)
  const bk0 = max(0, k0 - margin), bk1 = min(nz - 1, k1 + margin)
  if (i0 <= i1) dilateRowSpans(spans, nx, ny, nz, margin)
  for (let s = 0; s < 8 && i0 <= i1; s++) {
    const di = s & 1 ? -1 : 1, dj = s & 2 ? -1 : 1, dk = s & 4 ? -1 : 1
    for (let kk = bk0; kk <= bk1; kk++) {
      const k = dk > 0 ? kk : bk1 - (kk - bk0)
      for (let jj = bj0; jj <= bj1; jj++) {
        const j = dj > 0 ? jj : bj1 - (jj - bj0)
        const r = j + ny * k
        const lo = ri32(spans, 2 * r), hi = ri32(spans, 2 * r + 1)
        for (let ii = lo; ii <= hi; ii++) {
          const i = di > 0 ? ii : hi - (ii - lo)
          const c = i + nx * r
          let a = Math.min(i > 0 ? rf64(d, c - 1) : band, i < nx - 1 ? rf64(d, c + 1) : band)
          let b = Math.min(j > 0 ? rf64(d, c - nx) : band, j < ny - 1 ? rf64(d, c + nx) : band)
          let e = Math.min(k > 0 ? rf64(d, c - plane) : band, k < nz - 1 ? rf64(d, c + plane) : band)
          // No neighbour below the node: it keeps its value (core/eikonalSweeps.ts).
          const dc = rf64(d, c)
          if (a >= dc && b >= dc && e >= dc) continue
          let t: f64
          if (a > b) {
            t = a
            a = b
            b = t
          }
          if (b > e) {
            t = b
            b = e
            e = t
          }
          if (a > b) {
            t = a
            a = b
            b = t
          }
          let x = a + dx
          if (x > b) {
            x = 0.5 * (a + b + Math.sqrt(2 * dx * dx - (a - b) * (a - b)))
            if (x > e) {
              const s3 = a + b + e
              const disc = s3 * s3 - 3 * (a * a + b * b + e * e - dx * dx)
              x = (s3 + Math.sqrt(disc > 0 ? disc : 0)) / 3
            }
          }
          if (x < dc) wf64(d, c, x)
        }
      }
    }
  }
  for (let c = 0; c < n; c++) {
    const dc = rf64(d, c)
    const v = dc < band ? dc : band
    wf32(phi, c, rf32(phi, c) < 0 ? -v : v)
  }
}

/** redistancePairSlab: index 0 field a (scratch da), index 1 field b (scratch db). */
export function redistancePair(a: usize, da: usize, b: usize, db: usize, spansBase: usize, spansStride: usize, nx: i32, ny: i32, nz: i32, dx: f64, band: f64, i0: i32, i1: i32, worker: i32): void {
  const spans = spansBase + <usize>worker * spansStride
  for (let i = i0; i < i1; i++) {
    if (i == 0) redistanceField(a, da, spans, nx, ny, nz, dx, band)
    else redistanceField(b, db, spans, nx, ny, nz, dx, band)
  }
}
