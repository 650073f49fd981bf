// Twins of src-shared/sim/surface/surfaceTransportKernels.ts: the surface transport's largest
// outflow per patch and its conservative MUSCL substep, patch by patch.
import { rf64, wf64 } from './common'

@inline function minmod(a: f64, b: f64): f64 {
  if (a > 0 && b > 0) return a < b ? a : b
  if (a < 0 && b < 0) return a > b ? a : b
  return 0
}

/** surfaceOutflowPatches over patches [p0, p1). */
export function surfaceOutflow(fx: usize, fy: usize, sqrtG: usize, N: i32, h: f64, partial: usize, p0: i32, p1: i32): void {
  const rowC = N + 2, rowX = N + 3
  for (let p = p0; p < p1; p++) {
    let worst: f64 = 0
    for (let j = 0; j < N; j++) {
      const c0 = p * rowC * rowC + 1 + rowC * (j + 1)
      const x0 = p * rowX * rowC + 1 + rowX * (j + 1)
      const y0 = p * rowC * rowX + 1 + rowC * (j + 1)
      for (let i = 0; i < N; i++) {
        const out = Math.max(0, -rf64(fx, x0 + i)) + Math.max(0, rf64(fx, x0 + i + 1)) + Math.max(0, -rf64(fy, y0 + i)) + Math.max(0, rf64(fy, y0 + i + rowC))
        const o = out / (rf64(sqrtG, c0 + i) * h)
        if (o > worst) worst = o
      }
    }
    wf64(partial, p, worst)
  }
}

@inline function faceMass(s: usize, F: f64, lo: i32, hi: i32, lo2: i32, hi2: i32, edge: bool, dth: f64): f64 {
  let r: f64
  if (F > 0) {
    const a = rf64(s, lo)
    r = a + (edge ? 0 : 0.5 * minmod(a - rf64(s, lo2), rf64(s, hi) - a))
  } else {
    const b = rf64(s, hi)
    r = b + (edge ? 0 : 0.5 * minmod(b - rf64(s, hi2), rf64(s, lo) - b))
  }
  return dth * F * r
}

/** surfaceTransportPatches over patches [p0, p1). */
export function surfaceTransport(s: usize, fx: usize, fy: usize, sqrtG: usize, change: usize, belowBase: usize, belowStride: usize, N: i32, dt: f64, h: f64, p0: i32, p1: i32, worker: i32): void {
  const below = belowBase + <usize>worker * belowStride
  const rowC = N + 2, rowX = N + 3
  const dth = dt * h
  for (let p = p0; p < p1; p++) {
    for (let j = 0; j < N; j++) {
      const c0 = p * rowC * rowC + 1 + rowC * (j + 1)
      const x0 = p * rowX * rowC + 1 + rowX * (j + 1)
      const y0 = p * rowC * rowX + 1 + rowC * (j + 1)
      const edgeHigh = j == N - 1
      let F = rf64(fx, x0)
      let left: f64 = F == 0 ? 0 : faceMass(s, F, c0 - 1, c0, c0 - 2, c0 + 1, true, dth)
      for (let i = 0; i < N; i++) {
        const c = c0 + i
        let ch: f64 = 0
        if (F != 0) ch += left
        F = rf64(fx, x0 + i + 1)
        const right: f64 = F == 0 ? 0 : faceMass(s, F, c, c + 1, c - 1, c + 2, i == N - 1, dth)
        if (F != 0) ch -= right
        const G0 = rf64(fy, y0 + i)
        if (G0 != 0) ch += j == 0 ? faceMass(s, G0, c - rowC, c, c - 2 * rowC, c + rowC, true, dth) : rf64(below, i)
        const G1 = rf64(fy, y0 + i + rowC)
        if (G1 != 0) {
          const up = faceMass(s, G1, c, c + rowC, c - rowC, c + 2 * rowC, edgeHigh, dth)
          ch -= up
          wf64(below, i, up)
        }
        wf64(change, c, ch)
        left = right
      }
    }
    for (let j = 0; j < N; j++) {
      const c0 = p * rowC * rowC + 1 + rowC * (j + 1)
      for (let i = 0; i < N; i++) wf64(s, c0 + i, rf64(s, c0 + i) + rf64(change, c0 + i) / (rf64(sqrtG, c0 + i) * h * h))
    }
  }
}

/** Cell i of densities a (lane 0) and b (lane 1). */
@inline function pair(a: usize, b: usize, i: i32): v128 {
  return f64x2.replace_lane(f64x2.splat(rf64(a, i)), 1, rf64(b, i))
}

/** minmod in each lane, as the scalar one: min where both are positive, max where both are negative, else 0. */
@inline function minmod2(x: v128, y: v128): v128 {
  const zero = f64x2.splat(0)
  const pos = v128.and(f64x2.gt(x, zero), f64x2.gt(y, zero))
  const neg = v128.and(f64x2.lt(x, zero), f64x2.lt(y, zero))
  const mn = v128.bitselect(x, y, f64x2.lt(x, y))
  const mx = v128.bitselect(x, y, f64x2.gt(x, y))
  return v128.bitselect(mn, v128.bitselect(mx, zero, neg), pos)
}

/** faceMass for the two lanes (F, edge and dth shared). */
@inline function faceMass2(a: usize, b: usize, F: f64, lo: i32, hi: i32, lo2: i32, hi2: i32, edge: bool, dth: f64): v128 {
  const half = f64x2.splat(0.5)
  let r: v128
  if (F > 0) {
    const u = pair(a, b, lo)
    r = f64x2.add(u, edge ? f64x2.splat(0) : f64x2.mul(half, minmod2(f64x2.sub(u, pair(a, b, lo2)), f64x2.sub(pair(a, b, hi), u))))
  } else {
    const v = pair(a, b, hi)
    r = f64x2.add(v, edge ? f64x2.splat(0) : f64x2.mul(half, minmod2(f64x2.sub(v, pair(a, b, hi2)), f64x2.sub(pair(a, b, lo), v))))
  }
  return f64x2.mul(f64x2.splat(dth * F), r)
}

/**
 * surfaceTransportPairPatches over patches [p0, p1): surfaceTransport's substep for a and b in
 * the lanes (change interleaved, two entries a cell; below 2N entries a thread).
 */
export function surfaceTransportPair(a: usize, b: usize, fx: usize, fy: usize, sqrtG: usize, change: usize, belowBase: usize, belowStride: usize, N: i32, dt: f64, h: f64, p0: i32, p1: i32, worker: i32): void {
  const below = belowBase + <usize>worker * belowStride
  const rowC = N + 2, rowX = N + 3
  const dth = dt * h
  const zero = f64x2.splat(0)
  for (let p = p0; p < p1; p++) {
    for (let j = 0; j < N; j++) {
      const c0 = p * rowC * rowC + 1 + rowC * (j + 1)
      const x0 = p * rowX * rowC + 1 + rowX * (j + 1)
      const y0 = p * rowC * rowX + 1 + rowC * (j + 1)
      const edgeHigh = j == N - 1
      let F = rf64(fx, x0)
      let left = F == 0 ? zero : faceMass2(a, b, F, c0 - 1, c0, c0 - 2, c0 + 1, true, dth)
      for (let i = 0; i < N; i++) {
        const c = c0 + i
        let ch = zero
        if (F != 0) ch = f64x2.add(ch, left)
        F = rf64(fx, x0 + i + 1)
        const right = F == 0 ? zero : faceMass2(a, b, F, c, c + 1, c - 1, c + 2, i == N - 1, dth)
        if (F != 0) ch = f64x2.sub(ch, right)
        const G0 = rf64(fy, y0 + i)
        if (G0 != 0) ch = f64x2.add(ch, j == 0 ? faceMass2(a, b, G0, c - rowC, c, c - 2 * rowC, c + rowC, true, dth) : v128.load(below + (<usize>i << 4)))
        const G1 = rf64(fy, y0 + i + rowC)
        if (G1 != 0) {
          const up = faceMass2(a, b, G1, c, c + rowC, c - rowC, c + 2 * rowC, edgeHigh, dth)
          ch = f64x2.sub(ch, up)
          v128.store(below + (<usize>i << 4), up)
        }
        v128.store(change + (<usize>c << 4), ch)
        left = right
      }
    }
    for (let j = 0; j < N; j++) {
      const c0 = p * rowC * rowC + 1 + rowC * (j + 1)
      for (let i = 0; i < N; i++) {
        const c = c0 + i
        const g = rf64(sqrtG, c)
        const v = f64x2.add(pair(a, b, c), f64x2.div(v128.load(change + (<usize>c << 4)), f64x2.splat(g * h * h)))
        // (b is written second: where b is a, both lanes hold the same value.)
        wf64(a, c, f64x2.extract_lane(v, 0))
        wf64(b, c, f64x2.extract_lane(v, 1))
      }
    }
  }
}
