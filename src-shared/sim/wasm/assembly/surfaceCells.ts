// Twins of src-shared/sim/surface/surfaceCellKernels.ts: padded cells to unknowns and back.

/** surfaceGatherPatches over patches [p0, p1): two cells a step along each row (lane-wise the same products). */
export function surfaceGather(s: usize, sqrtG: usize, rhs: usize, x: usize, N: i32, p0: i32, p1: i32): void {
  const rowC = N + 2
  for (let p = p0; p < p1; p++) {
    for (let j = 0; j < N; j++) {
      const c0 = p * rowC * rowC + 1 + rowC * (j + 1), u0 = p * N * N + N * j
      let sc = s + (<usize>c0 << 3), gc = sqrtG + (<usize>c0 << 3)
      let rc = rhs + (<usize>u0 << 3), xc = x + (<usize>u0 << 3)
      const end = sc + (<usize>(N & ~1) << 3)
      for (; sc < end; sc += 16, gc += 16, rc += 16, xc += 16) {
        const v = v128.load(sc)
        v128.store(rc, f64x2.mul(v128.load(gc), v))
        v128.store(xc, v)
      }
      if ((N & 1) != 0) {
        const v = load<f64>(sc)
        store<f64>(rc, load<f64>(gc) * v)
        store<f64>(xc, v)
      }
    }
  }
}

/** surfaceScatterPatches over patches [p0, p1). */
export function surfaceScatter(x: usize, s: usize, N: i32, p0: i32, p1: i32): void {
  const rowC = N + 2
  for (let p = p0; p < p1; p++) {
    for (let j = 0; j < N; j++) {
      const c0 = p * rowC * rowC + 1 + rowC * (j + 1), u0 = p * N * N + N * j
      memory.copy(s + (<usize>(c0) << 3), x + (<usize>(u0) << 3), <usize>N << 3)
    }
  }
}
