// Turns a level set whose zero crossings are right but whose values away from them are not
// distances (the particle estimate of levelSet.ts) into a signed distance, |grad phi| = 1
// (Carlson 2004 sec. 6.2.1-6.2.2: the level set should stay a signed distance; sec. 6.2.2
// reinitialises by a PDE, here by fast sweeping, Zhao 2005, which is O(N) too and needs no
// time step).
//
// 1. Cells next to a sign change start from the smaller of two estimates: the axis crossings
//    (t_a = |phi_c| / |phi_c - phi_n| dx by linear interpolation, combined as
//    1 / d^2 = sum_a 1 / t_a^2: exact for a plane when every axis shows a crossing, too large
//    when some axis's crossing lies beyond the neighbour) and |phi| / |grad phi| (central
//    differences: exact for any linear phi).
// 2. Every cell: eight Gauss-Seidel sweeps of the Godunov upwind update of the eikonal
//    equation, in the eight diagonal orders (core/eikonalSweeps.ts), keeping the smaller value, so step 1's
//    overestimates are corrected from better neighbours (a linear phi is reproduced exactly).
// 3. The sign of the input is kept; |phi| is capped at `band`.
//
// The whole pass is one kernel-table row (REDISTANCE, a range of one index: fast sweeping is
// sequential), so on the WebAssembly backend it runs as its AssemblyScript twin
// (wasm/assembly/redistance.ts) on the calling thread: the same float64 operations in the same
// order, the same bits. REDISTANCE_PAIR runs two fields' passes side by side on two threads (the
// liquid's marker surface and its tracked surface at the end of each step).
import { sweepEikonal } from '../core/eikonalSweeps'
import { TS_KERNELS } from '../core/kernelBackend'
import { defineKernel, f32, f64, float, int, scratch } from '../core/kernelTable'
import type { KernelBackend } from '../core/kernelTypes'

export class Redistancer {
  private readonly d: Float64Array
  private d2: Float64Array | null
  private readonly kernels: KernelBackend
  /** The reference's row spans (the WebAssembly twin takes per-thread scratch of its own). */
  private spans = new Int32Array(0)

  /**
   * kernels: where the pass runs; its allocator holds the scratch (and should hold phi).
   * scratch: n float64 of the kernels' memory to use instead (a pass writes all of it first);
   * pairScratch: another n for runPair's second field (else allocated at its first use).
   */
  constructor(
    private readonly n: number,
    kernels: KernelBackend = TS_KERNELS,
    scratch: Float64Array | null = null,
    pairScratch: Float64Array | null = null,
  ) {
    this.kernels = kernels
    this.d = scratch ?? kernels.f64(n)
    this.d2 = pairScratch
  }

  /** Redistances phi (cell centres of an nx*ny*nz grid with spacing dx) in place. */
  run(phi: Float32Array, nx: number, ny: number, nz: number, dx: number, band: number): void {
    this.kernels.run(REDISTANCE, phi, this.d, this.spansFor(ny, nz), nx, ny, nz, dx, band)
  }

  private spansFor(ny: number, nz: number): Int32Array {
    if (this.spans.length < 4 * ny * nz) this.spans = new Int32Array(4 * ny * nz)
    return this.spans
  }

  /**
   * run() on two fields of the same grid, side by side on the kernels' threads (each pass is
   * sequential, the two are independent: the same bits as two run() calls).
   */
  runPair(a: Float32Array, b: Float32Array, nx: number, ny: number, nz: number, dx: number, band: number): void {
    this.d2 ??= this.kernels.f64(this.n)
    this.kernels.run(REDISTANCE_PAIR, a, this.d, b, this.d2, this.spansFor(ny, nz), nx, ny, nz, dx, band)
  }
}

/** Redistancer.run's pass with scratch d (n float64); the range [0, 1) is the whole pass. */
export function redistanceSlab(phi: Float32Array, d: Float64Array, spans: Int32Array, nx: number, ny: number, nz: number, dx: number, band: number, b0: number, b1: number): void {
  if (b0 !== 0 || b1 < 1) return
  const plane = nx * ny
  const n = plane * nz
  // Bounding box of the cells next to a sign change (empty: i0 > i1), and each row's first and
  // last such cell (spans[2r], spans[2r + 1] for row r = j + ny k; empty: last < first).
  let i0 = nx, i1 = -1, j0 = ny, j1 = -1, k0 = nz, k1 = -1
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) {
      const r = j + ny * k
      spans[2 * r] = nx
      spans[2 * r + 1] = -1
      for (let i = 0; i < nx; i++) {
        const c = i + nx * (j + ny * k)
        const p = phi[c]
        const xm = i > 0 ? phi[c - 1] : p, xp = i < nx - 1 ? phi[c + 1] : p
        const ym = j > 0 ? phi[c - nx] : p, yp = j < ny - 1 ? phi[c + nx] : p
        const zm = k > 0 ? phi[c - plane] : p, zp = k < nz - 1 ? phi[c + plane] : p
        const crossing = p < 0 !== xm < 0 || p < 0 !== xp < 0 || p < 0 !== ym < 0 || p < 0 !== yp < 0 || p < 0 !== zm < 0 || p < 0 !== zp < 0
        if (!crossing) {
          d[c] = band
          continue
        }
        if (i < i0) i0 = i
        if (i > i1) i1 = i
        if (spans[2 * r] === nx) spans[2 * r] = i
        spans[2 * r + 1] = i
        if (j < j0) j0 = j
        if (j > j1) j1 = j
        if (k < k0) k0 = k
        if (k > k1) k1 = k
        // |phi| / |grad phi| (central differences, one-sided at the walls): exact for a
        // linear phi of any slope, and first order near a curved surface.
        const gx = (xp - xm) / ((i > 0 ? 1 : 0) + (i < nx - 1 ? 1 : 0) || 1)
        const gy = (yp - ym) / ((j > 0 ? 1 : 0) + (j < ny - 1 ? 1 : 0) || 1)
        const gz = (zp - zm) / ((k > 0 ? 1 : 0) + (k < nz - 1 ? 1 : 0) || 1)
        const g = Math.sqrt(gx * gx + gy * gy + gz * gz) / dx
        let inv2 = 0
        inv2 += axisTerm(p, xm, xp, dx)
        inv2 += axisTerm(p, ym, yp, dx)
        inv2 += axisTerm(p, zm, zp, dx)
        // The axis-crossing estimate is never below the true distance; take the smaller.
        const byCrossing = 1 / Math.sqrt(inv2)
        const byGradient = g > 0 ? Math.abs(p) / g : byCrossing
        d[c] = byGradient < byCrossing ? byGradient : byCrossing
      }
    }
  }
  // The sweeps only visit that box grown by `margin` cells. An upwind update is at least
  // dx / sqrt(3) above its smallest neighbour, and the cells next to a crossing start at or
  // below dx, so a cell more than band sqrt(3) / dx steps away from all of them can never
  // drop below `band`: skipping it changes nothing (same bits as sweeping the whole grid).
  const margin = Math.ceil((band * Math.sqrt(3)) / dx) + 1
  const bi0 = Math.max(0, i0 - margin), bi1 = Math.min(nx - 1, i1 + margin)
  const bj0 = Math.max(0, j0 - margin), bj1 = Math.min(ny - 1, j1 + margin)
  const bk0 = Math.max(0, k0 - margin), bk1 = Math.min(nz - 1, k1 + margin)
  // Within the box, each row only between its cells within `margin` (in every axis) of a
  // crossing: the others are farther than that in steps too, so they keep `band` as above.
  if (i0 <= i1) {
    dilateRowSpans(spans, nx, ny, nz, margin)
    sweepEikonal(d, nx, ny, nz, dx, band, bi0, bi1, bj0, bj1, bk0, bk1, spans)
  }
  for (let c = 0; c < n; c++) {
    const v = d[c] < band ? d[c] : band
    phi[c] = phi[c] < 0 ? -v : v
  }
}

/**
 * Row spans (first, last per row r = j + ny k, in spans[0, 2 ny nz)) grown to every cell within
 * m of a listed one along each axis: the interval hull over rows (j', k') with |j' - j| <= m
 * and |k' - k| <= m, widened by m and clipped to the row. spans[2 ny nz, 4 ny nz) is scratch.
 */
export function dilateRowSpans(spans: Int32Array, nx: number, ny: number, nz: number, m: number): void {
  const rows = ny * nz, tmp = 2 * rows
  // Along j into the scratch half, then along k back.
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) {
      let lo = nx, hi = -1
      for (let q = Math.max(0, j - m), q1 = Math.min(ny - 1, j + m); q <= q1; q++) {
        const r = q + ny * k
        if (spans[2 * r] < lo) lo = spans[2 * r]
        if (spans[2 * r + 1] > hi) hi = spans[2 * r + 1]
      }
      const r = j + ny * k
      spans[tmp + 2 * r] = lo
      spans[tmp + 2 * r + 1] = hi
    }
  }
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) {
      let lo = nx, hi = -1
      for (let q = Math.max(0, k - m), q1 = Math.min(nz - 1, k + m); q <= q1; q++) {
        const r = j + ny * q
        if (spans[tmp + 2 * r] < lo) lo = spans[tmp + 2 * r]
        if (spans[tmp + 2 * r + 1] > hi) hi = spans[tmp + 2 * r + 1]
      }
      const r = j + ny * k
      spans[2 * r] = hi < lo ? nx : Math.max(0, lo - m)
      spans[2 * r + 1] = hi < lo ? -1 : Math.min(nx - 1, hi + m)
    }
  }
}

/** Bytes of redistanceSlab's row spans for an nx*ny*nz grid (four int32 per row). */
export function redistanceSpanBytes(ny: number, nz: number): number {
  return 16 * ny * nz
}

/** redistanceSlab: one index, on the calling thread (no work to split). */
export const REDISTANCE = defineKernel({
  name: 'redistance',
  args: [f32('phi'), f64('d'), scratch('spans', (a) => redistanceSpanBytes(a[4] as number, a[5] as number)), int('nx'), int('ny'), int('nz'), float('dx'), float('band')],
  split: 'blocks',
  range: () => 1,
  work: () => 0,
  ref: redistanceSlab,
})

/** Two redistancings, index 0 field a (scratch da), index 1 field b (scratch db). */
export function redistancePairSlab(a: Float32Array, da: Float64Array, b: Float32Array, db: Float64Array, spans: Int32Array, nx: number, ny: number, nz: number, dx: number, band: number, i0: number, i1: number): void {
  for (let i = i0; i < i1; i++) {
    if (i === 0) redistanceSlab(a, da, spans, nx, ny, nz, dx, band, 0, 1)
    else redistanceSlab(b, db, spans, nx, ny, nz, dx, band, 0, 1)
  }
}

/** redistancePairSlab: one index per field, so the pool runs the two on two threads. */
export const REDISTANCE_PAIR = defineKernel({
  name: 'redistancePair',
  args: [f32('a'), f64('da'), f32('b'), f64('db'), scratch('spans', (a) => redistanceSpanBytes(a[6] as number, a[7] as number)), int('nx'), int('ny'), int('nz'), float('dx'), float('band')],
  split: 'blocks',
  range: () => 2,
  work: (a) => 2 * (a[5] as number) * (a[6] as number) * (a[7] as number),
  ref: redistancePairSlab,
})

/** 1 / t^2 for the nearer zero crossing towards neighbours a and b along one axis (0 if none). */
function axisTerm(p: number, a: number, b: number, dx: number): number {
  let t = Infinity
  if (p < 0 !== a < 0) t = Math.min(t, (p / (p - a)) * dx)
  if (p < 0 !== b < 0) t = Math.min(t, (p / (p - b)) * dx)
  if (t === Infinity) return 0
  // A crossing exactly at the centre: treat as a tiny distance rather than dividing by 0.
  const tt = t > 1e-6 * dx ? t : 1e-6 * dx
  return 1 / (tt * tt)
}
