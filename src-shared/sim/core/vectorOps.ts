// Vector kernels of the Krylov solvers, on Float64 vectors laid out like a cell field.
//
// Reductions are deterministic whatever the worker split: a slab kernel writes one Float64
// partial sum per z-plane into `partial`, and sumPartials adds the planes in order, so one
// thread and sixteen give the same bits (a cache of baked frames must not depend on the
// machine's core count). Kernels take cell planes [k0, k1) and the plane size nx*ny.

/** partial[k] = sum over plane k of a_c * b_c, for planes [k0, k1). */
export function dotPlanesSlab(a: Float64Array, b: Float64Array, plane: number, partial: Float64Array, k0: number, k1: number): void {
  for (let k = k0; k < k1; k++) {
    let s = 0
    const end = (k + 1) * plane
    for (let c = k * plane; c < end; c++) s += a[c] * b[c]
    partial[k] = s
  }
}

/** Sum of partial[0 .. n-1] in order. */
export function sumPartials(partial: Float64Array, n: number): number {
  let s = 0
  for (let k = 0; k < n; k++) s += partial[k]
  return s
}

/**
 * The largest of partial[0 .. n): NaN if one is NaN, 0 for none (what one pass gives: kernels
 * that reduce by a maximum write one partial per block or plane, in any split).
 */
export function largestPartial(partial: Float64Array, n: number): number {
  let m = 0
  for (let b = 0; b < n; b++) {
    const s = partial[b]
    if (s > m) m = s
    else if (s !== s) return NaN
  }
  return m
}

/** x += alpha s; r -= alpha q; partial[k] = |r|^2 over plane k. Planes [k0, k1). */
export function updateIterateSlab(
  x: Float64Array,
  r: Float64Array,
  s: Float64Array,
  q: Float64Array,
  alpha: number,
  plane: number,
  partial: Float64Array,
  k0: number,
  k1: number,
): void {
  for (let k = k0; k < k1; k++) {
    let rr = 0
    const end = (k + 1) * plane
    for (let c = k * plane; c < end; c++) {
      x[c] += alpha * s[c]
      const rc = r[c] - alpha * q[c]
      r[c] = rc
      rr += rc * rc
    }
    partial[k] = rr
  }
}

/** s = z + beta s over planes [k0, k1). */
export function updateSearchSlab(s: Float64Array, z: Float64Array, beta: number, plane: number, k0: number, k1: number): void {
  const end = k1 * plane
  for (let c = k0 * plane; c < end; c++) s[c] = z[c] + beta * s[c]
}
