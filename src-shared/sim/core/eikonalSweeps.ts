// Fast sweeping for the eikonal equation |grad d| = 1 (Zhao 2005, "A fast sweeping method for
// eikonal equations", Math. Comp. 74): Gauss-Seidel over the nodes of a box of a regular grid
// in the eight diagonal orders (+-x, +-y, +-z), each node taking the smaller of its value and
// the Godunov upwind solution from its neighbours (Zhao eq. 2.3; its 3D closed form, section
// 2: with the per-axis neighbour minima sorted a <= b <= e, the largest root of
// sum (x - a_m)^2 = dx^2 over the axes whose a_m lies below x). One round of the eight sweeps
// reproduces a linear distance exactly and converges for the distance to a surface whose
// characteristics do not turn back on the grid; the nodes start from distances known near the
// surface and `far` elsewhere, and values are only ever lowered.
//
// Shared by the grid liquid's redistancing (liquid/redistance.ts, whose AssemblyScript twin
// repeats these operations in this order) and the tetrahedral liquid's far field
// (tetliquid/farField.ts).

/**
 * One round of the eight sweeps of d (float64 per node, nx*ny*nz, spacing dx) over the box
 * [i0, i1] x [j0, j1] x [k0, k1]; neighbours beyond the grid read `far`. With `spans`, row
 * (j, k) is swept over [spans[2r], spans[2r + 1]] only (r = j + ny k; empty when the second is
 * below the first), which must hold every node of the row the sweeps could lower: the others
 * are left as they are, as the whole box's sweeps would leave them, so the bits are the same.
 */
export function sweepEikonal(d: Float64Array, nx: number, ny: number, nz: number, dx: number, far: number, i0: number, i1: number, j0: number, j1: number, k0: number, k1: number, spans: Int32Array | null = null): void {
  const plane = nx * ny
  // `far` as a local number: merged straight from the parameter with the values read from d (the
  // ternaries below), it made V8 keep those reads as boxed heap numbers, one allocation each
  // (1.2 GB of garbage in a 4-frame tetrahedral dam break at resolution 96), at 2.2x the time.
  const outside = +far
  for (let s = 0; s < 8 && i0 <= i1; s++) {
    const di = s & 1 ? -1 : 1, dj = s & 2 ? -1 : 1, dk = s & 4 ? -1 : 1
    for (let kk = k0; kk <= k1; kk++) {
      const k = dk > 0 ? kk : k1 - (kk - k0)
      for (let jj = j0; jj <= j1; jj++) {
        const j = dj > 0 ? jj : j1 - (jj - j0)
        const r = j + ny * k
        const lo = spans === null ? i0 : spans[2 * r], hi = spans === null ? i1 : spans[2 * r + 1]
        for (let ii = lo; ii <= hi; ii++) {
          const i = di > 0 ? ii : hi - (ii - lo)
          const c = i + nx * r
          const a = Math.min(i > 0 ? d[c - 1] : outside, i < nx - 1 ? d[c + 1] : outside)
          const b = Math.min(j > 0 ? d[c - nx] : outside, j < ny - 1 ? d[c + nx] : outside)
          const e = Math.min(k > 0 ? d[c - plane] : outside, k < nz - 1 ? d[c + plane] : outside)
          // The update lies at least dx / sqrt(3) above the smallest neighbour (rounding stays
          // far below that), so a node with no neighbour below it keeps its value: skipping
          // the square roots there (a band's far nodes, all at `far`) keeps the same bits.
          const dc = d[c]
          if (a >= dc && b >= dc && e >= dc) continue
          const x = godunovUpdate(a, b, e, dx)
          if (x < dc) d[c] = x
        }
      }
    }
  }
}

/**
 * The Godunov upwind solution at a node whose per-axis neighbour minima are a, b, e (any
 * order): Zhao's closed form, the largest root of sum (x - a_m)^2 = dx^2 over the axes whose
 * a_m lies below it.
 */
export function godunovUpdate(a: number, b: number, e: number, dx: number): number {
  // Sort a <= b <= e.
  let t: number
  if (a > b) (t = a), (a = b), (b = t)
  if (b > e) (t = b), (b = e), (e = t)
  if (a > b) (t = a), (a = b), (b = t)
  let x = a + dx
  if (x > b) {
    x = 0.5 * (a + b + Math.sqrt(2 * dx * dx - (a - b) * (a - b)))
    if (x > e) {
      const s3 = a + b + e
      const disc = s3 * s3 - 3 * (a * a + b * b + e * e - dx * dx)
      x = (s3 + Math.sqrt(disc > 0 ? disc : 0)) / 3
    }
  }
  return x
}
