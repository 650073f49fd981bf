// The liquid substep's whole-grid passes (reference: src-shared/sim/liquid/cellPassKernels.ts):
// the same tests, the same float64 arithmetic rounded to float32 on store.
import { rf32, rf64, ri32, ru8, wf32 } from './common'

const AIR: u8 = 0
const LIQUID: u8 = 1
const SOLID: u8 = 2

/** clearOutsideLiquidSlab over cell planes [k0, k1). */
export function clearOutsideLiquid(kind: usize, marks: usize, plane: i32, k0: i32, k1: i32): void {
  const end = k1 * plane
  for (let c = k0 * plane; c < end; c++) if (load<u8>(kind + <usize>c) != LIQUID) store<u8>(marks + <usize>c, 0)
}

/** fillUnmarkedSlab over cell planes [k0, k1). */
export function fillUnmarked(values: usize, marks: usize, value: f64, plane: i32, k0: i32, k1: i32): void {
  const end = k1 * plane
  for (let c = k0 * plane; c < end; c++) if (ru8(marks, c) == 0) wf32(values, c, value)
}

/** heatReachSlab over cell planes [k0, k1). */
export function heatReach(temp: usize, tempOld: usize, marks: usize, reach: usize, plane: i32, k0: i32, k1: i32): void {
  const end = k1 * plane
  for (let c = k0 * plane; c < end; c++) {
    const m = ru8(marks, c)
    if (m == 0) store<f32>(temp + (<usize>c << 2), load<f32>(tempOld + (<usize>c << 2)))
    store<u8>(reach + <usize>c, m != 0 && m <= 3 ? 1 : 0)
  }
}

/** planeSumsSlab over cell planes [k0, k1) (integer sums: exact in float64). */
export function planeSums(count: usize, plane: i32, out: usize, k0: i32, k1: i32): void {
  for (let k = k0; k < k1; k++) {
    let s: f64 = 0
    const end = (k + 1) * plane
    for (let c = k * plane; c < end; c++) s += <f64>ri32(count, c)
    store<f64>(out + (<usize>k << 3), s)
  }
}

/** countLabelSlab over cell planes [k0, k1). */
export function countLabel(kind: usize, value: i32, plane: i32, partial: usize, k0: i32, k1: i32): void {
  for (let k = k0; k < k1; k++) {
    let n: i32 = 0
    const end = (k + 1) * plane
    for (let c = k * plane; c < end; c++) n += ru8(kind, c) == value ? 1 : 0
    store<f64>(partial + (<usize>k << 3), <f64>n)
  }
}

/** dst = a + b over float32 elements [f0, f1), four at a time (the same rounding). */
@inline function addRange(dst: usize, a: usize, b: usize, f0: i32, f1: i32): void {
  let f = f0
  for (; f + 3 < f1; f += 4) {
    const at = <usize>f << 2
    v128.store(dst + at, f32x4.add(v128.load(a + at), v128.load(b + at)))
  }
  for (; f < f1; f++) {
    const at = <usize>f << 2
    store<f32>(dst + at, load<f32>(a + at) + load<f32>(b + at))
  }
}

/** addFacesSlab over cell planes [k0, k1). */
export function addFaces(
  du: usize, dv: usize, dw: usize, au: usize, av: usize, aw: usize, bu: usize, bv: usize, bw: usize,
  nx: i32, ny: i32, nz: i32, k0: i32, k1: i32,
): void {
  const pu = (nx + 1) * ny, pv = nx * (ny + 1), pw = nx * ny
  addRange(du, au, bu, pu * k0, pu * k1)
  addRange(dv, av, bv, pv * k0, pv * k1)
  addRange(dw, aw, bw, pw * k0, pw * (k1 == nz ? nz + 1 : k1))
}

/** labelCellsSlab over cell planes [k0, k1). */
export function labelCells(phi: usize, kind: usize, weights: usize, out: usize, bulk: f64, slope: f64, dx: f64, eps: f64, ofs: f64, plane: i32, k0: i32, k1: i32): void {
  const end = k1 * plane
  for (let c = k0 * plane; c < end; c++) {
    const v = rf32(phi, c) - ofs
    const b = ((bulk - rf64(weights, 4 * c)) / slope) * dx
    const u = b < v ? b : v
    let label = load<u8>(kind + <usize>c)
    if (label != SOLID) {
      label = u < 0 ? LIQUID : AIR
      store<u8>(kind + <usize>c, label)
    }
    wf32(out, c, label == LIQUID ? (u < -eps ? u : -eps) : u > eps ? u : eps)
  }
}
