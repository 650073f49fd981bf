// Twin of src-shared/sim/surface/surfaceCorrectionKernels.ts: the surface projection's flux
// correction, gathered face by face in the reference's order.
import { rf64, ri32, wf64 } from './common'

@inline function potAt(pot: usize, u: usize, c: i32): f64 {
  return rf64(pot, ri32(u, c))
}

@inline function nodeW(wN: usize, N: i32, p: i32, i: i32, j: i32): f64 {
  return rf64(wN, p * (N + 1) * (N + 1) + i + (N + 1) * j)
}

/** nodeTerm of the reference for a node with w != 0: (w / 4)(b . p) along x, (w / 4)(a . p) along y. */
@inline function nodeTerm(pot: usize, u: usize, w: f64, N: i32, p: i32, i: i32, j: i32, alongX: bool): f64 {
  const rowC = N + 2, c11 = p * rowC * rowC + i + 1 + rowC * (j + 1)
  const p00 = potAt(pot, u, c11 - rowC - 1), p10 = potAt(pot, u, c11 - rowC), p01 = potAt(pot, u, c11 - 1), p11 = potAt(pot, u, c11)
  const first = alongX ? p01 : p10, last = alongX ? p10 : p01
  return (w / 4) * (first - p00 + p11 - last)
}

/** surfaceCorrectionPatches over patches [p0, p1). */
export function surfaceCorrection(pot: usize, u: usize, wX: usize, wY: usize, wN: usize, dfx: usize, dfy: usize, N: i32, p0: i32, p1: i32): void {
  const rowC = N + 2, rowX = N + 3, rowY = N + 2
  for (let p = p0; p < p1; p++) {
    const xb = p * rowX * (N + 2), yb = p * rowY * (N + 3), cb = p * rowC * rowC
    for (let j = -1; j <= N; j++) for (let i = -1; i <= N + 1; i++) {
      const f = xb + i + 1 + rowX * (j + 1)
      let v: f64 = 0
      if (i >= 0 && i <= N) {
        if (j >= 0 && j < N) {
          const c = cb + i + 1 + rowC * (j + 1)
          v += -rf64(wX, f) * (potAt(pot, u, c) - potAt(pot, u, c - 1))
          const w0 = nodeW(wN, N, p, i, j)
          if (w0 != 0) v -= nodeTerm(pot, u, w0, N, p, i, j, true)
          const w1 = nodeW(wN, N, p, i, j + 1)
          if (w1 != 0) v -= nodeTerm(pot, u, w1, N, p, i, j + 1, true)
        } else {
          const jn = j < 0 ? 0 : N
          const w = nodeW(wN, N, p, i, jn)
          if (w != 0) v -= nodeTerm(pot, u, w, N, p, i, jn, true)
        }
      }
      wf64(dfx, f, v)
    }
    for (let j = -1; j <= N + 1; j++) for (let i = -1; i <= N; i++) {
      const f = yb + i + 1 + rowY * (j + 1)
      let v: f64 = 0
      if (j >= 0 && j <= N) {
        if (i >= 0 && i < N) {
          const c = cb + i + 1 + rowC * (j + 1)
          v += -rf64(wY, f) * (potAt(pot, u, c) - potAt(pot, u, c - rowC))
          const w0 = nodeW(wN, N, p, i, j)
          if (w0 != 0) v -= nodeTerm(pot, u, w0, N, p, i, j, false)
          const w1 = nodeW(wN, N, p, i + 1, j)
          if (w1 != 0) v -= nodeTerm(pot, u, w1, N, p, i + 1, j, false)
        } else {
          const iN = i < 0 ? 0 : N
          const w = nodeW(wN, N, p, iN, j)
          if (w != 0) v -= nodeTerm(pot, u, w, N, p, iN, j, false)
        }
      }
      wf64(dfy, f, v)
    }
  }
}

/** surfaceDivergencePatches over patches [p0, p1). */
export function surfaceDivergence(fx: usize, fy: usize, out: usize, N: i32, h: f64, scale: f64, p0: i32, p1: i32): void {
  const rowX = N + 3, rowC = N + 2
  for (let p = p0; p < p1; p++) {
    for (let j = 0; j < N; j++) {
      const x0 = p * rowX * rowC + 1 + rowX * (j + 1), y0 = p * rowC * rowX + 1 + rowC * (j + 1), u0 = p * N * N + N * j
      for (let i = 0; i < N; i++) {
        const d = h * (rf64(fx, x0 + i + 1) - rf64(fx, x0 + i) + rf64(fy, y0 + i + rowC) - rf64(fy, y0 + i))
        wf64(out, u0 + i, scale < 0 ? -d : d)
      }
    }
  }
}
