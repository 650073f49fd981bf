// The pressure multigrid's smoother and residual (reference: src-shared/sim/liquid/
// pressureMgKernels.ts): the same float64 expressions in the same order, over the listed
// unknowns [q0, q1) of one level's Stencil7-shaped operator.
import { colourPairAt, rf64, ri32, wf64 } from './common'
import { stencil7Row } from './stencil7Row'

/** relaxCell. */
@inline function relaxCell(x: usize, b: usize, diag: usize, ax: usize, ay: usize, az: usize, c: i32, fresh: i32, nx: i32, plane: i32, n: i32): void {
  if (fresh != 0) {
    wf64(x, c, rf64(b, c) / rf64(diag, c))
    return
  }
  let s = rf64(b, c)
  if (c >= 1) s -= rf64(ax, c - 1) * rf64(x, c - 1)
  if (c + 1 < n) s -= rf64(ax, c) * rf64(x, c + 1)
  if (c >= nx) s -= rf64(ay, c - nx) * rf64(x, c - nx)
  if (c + nx < n) s -= rf64(ay, c) * rf64(x, c + nx)
  if (c >= plane) s -= rf64(az, c - plane) * rf64(x, c - plane)
  if (c + plane < n) s -= rf64(az, c) * rf64(x, c + plane)
  wf64(x, c, s / rf64(diag, c))
}

/** relaxPlane: one colour's listed cells of lattice plane k. */
function relaxPlane(x: usize, b: usize, diag: usize, ax: usize, ay: usize, az: usize, order: usize, at: usize, colour: i32, k: i32, fresh: i32, nx: i32, plane: i32, n: i32, sz: i32): void {
  const base = colour * (sz + 1)
  const end = ri32(at, base + k + 1)
  if (fresh == 0 && k >= 1 && k + 2 <= sz) {
    // An inner plane: every neighbour is in the lattice, so relaxCell's six tests all hold.
    for (let q = ri32(at, base + k); q < end; q++) {
      const c = ri32(order, q)
      let s = rf64(b, c)
      s -= rf64(ax, c - 1) * rf64(x, c - 1)
      s -= rf64(ax, c) * rf64(x, c + 1)
      s -= rf64(ay, c - nx) * rf64(x, c - nx)
      s -= rf64(ay, c) * rf64(x, c + nx)
      s -= rf64(az, c - plane) * rf64(x, c - plane)
      s -= rf64(az, c) * rf64(x, c + plane)
      wf64(x, c, s / rf64(diag, c))
    }
    return
  }
  if (fresh != 0) {
    for (let q = ri32(at, base + k); q < end; q++) relaxCell(x, b, diag, ax, ay, az, ri32(order, q), 1, nx, plane, n)
  } else {
    for (let q = ri32(at, base + k); q < end; q++) relaxCell(x, b, diag, ax, ay, az, ri32(order, q), 0, nx, plane, n)
  }
}

/** pmgSmoothSlab (over blocks [q0, q1)). */
export function pmgSmooth(x: usize, b: usize, diag: usize, ax: usize, ay: usize, az: usize, order: usize, at: usize, cuts: usize, first: i32, fresh: i32, nx: i32, plane: i32, n: i32, sz: i32, q0: i32, q1: i32): void {
  const second = 1 - first
  for (let t = q0; t < q1; t++) {
    const k0 = ri32(cuts, t), k1 = ri32(cuts, t + 1)
    const s0 = k0 == 0 ? 0 : k0 + 1, s1 = k1 == sz ? sz : k1 - 1
    for (let k = k0; k <= k1; k++) {
      if (k < k1) relaxPlane(x, b, diag, ax, ay, az, order, at, first, k, fresh, nx, plane, n, sz)
      if (k - 1 >= s0 && k - 1 < s1) relaxPlane(x, b, diag, ax, ay, az, order, at, second, k - 1, 0, nx, plane, n, sz)
    }
  }
}

/** pmgSmoothSeamsSlab (over blocks [q0, q1)). */
export function pmgSmoothSeams(x: usize, b: usize, diag: usize, ax: usize, ay: usize, az: usize, order: usize, at: usize, cuts: usize, first: i32, nx: i32, plane: i32, n: i32, sz: i32, q0: i32, q1: i32): void {
  const second = 1 - first
  for (let t = q0; t < q1; t++) {
    const k0 = ri32(cuts, t), k1 = ri32(cuts, t + 1)
    if (k1 <= k0) continue
    const low = k0 > 0 ? k0 : -1, high = k1 < sz ? k1 - 1 : -1
    if (low >= 0) relaxPlane(x, b, diag, ax, ay, az, order, at, second, low, 0, nx, plane, n, sz)
    if (high >= 0 && high != low) relaxPlane(x, b, diag, ax, ay, az, order, at, second, high, 0, nx, plane, n, sz)
  }
}

/** pmgResidualSlab (over colour pairs [q0, q1)). */
export function pmgResidual(r: usize, b: usize, x: usize, diag: usize, ax: usize, ay: usize, az: usize, order: usize, red: i32, count: i32, nx: i32, plane: i32, n: i32, q0: i32, q1: i32): void {
  for (let colour = 0; colour < 2; colour++) {
    const end = colourPairAt(colour, q1, red, count)
    for (let q = colourPairAt(colour, q0, red, count); q < end; q++) {
      const c = ri32(order, q)
      wf64(r, c, rf64(b, c) - stencil7Row(diag, ax, ay, az, x, c, nx, plane, n))
    }
  }
}

const PACK_BITS: i32 = 10
const MASK: i32 = (1 << PACK_BITS) - 1

/** pmgProlongSlab (over colour pairs [q0, q1)). */
export function pmgProlong(xf: usize, xc: usize, order: usize, ijk: usize, cx: i32, cplane: i32, red: i32, count: i32, q0: i32, q1: i32): void {
  for (let colour = 0; colour < 2; colour++) {
    const end = colourPairAt(colour, q1, red, count)
    for (let q = colourPairAt(colour, q0, red, count); q < end; q++) {
      const p = ri32(ijk, q)
      const i = p & MASK, j = (p >> PACK_BITS) & MASK, k = p >> (2 * PACK_BITS)
      const c = ri32(order, q)
      wf64(xf, c, rf64(xf, c) + rf64(xc, (i >> 1) + cx * (j >> 1) + cplane * (k >> 1)))
    }
  }
}

/** pmgRestrictSlab (over colour pairs [q0, q1)). */
export function pmgRestrict(bc: usize, rf: usize, order: usize, ijk: usize, alpha: f64, sx: i32, sy: i32, sz: i32, red: i32, count: i32, q0: i32, q1: i32): void {
  const plane = sx * sy
  for (let colour = 0; colour < 2; colour++) {
    const end = colourPairAt(colour, q1, red, count)
    for (let q = colourPairAt(colour, q0, red, count); q < end; q++) {
      const p = ri32(ijk, q)
      const I = p & MASK, J = (p >> PACK_BITS) & MASK, K = p >> (2 * PACK_BITS)
      const i1 = min(2 * I + 2, sx), j1 = min(2 * J + 2, sy), k1 = min(2 * K + 2, sz)
      let s: f64 = 0
      for (let k = 2 * K; k < k1; k++) for (let j = 2 * J; j < j1; j++) for (let i = 2 * I; i < i1; i++) s += rf64(rf, i + sx * j + plane * k)
      wf64(bc, ri32(order, q), alpha * s)
    }
  }
}
