// Twins of src-shared/sim/core/scalarBudgetKernels.ts: the smoke's mass fixer's passes by
// z-planes (amounts, bounded weights, their use). Float32 data promoted to float64 on load and
// rounded on store, the same operations in the same order as the references.
import { rf32, rf64, wf32, wf64 } from './common'

// advectKernels.ts SOLID_THRESHOLD: a cell at least this solid is not fluid.
const SOLID_THRESHOLD: f64 = 0.5

/** budgetSumsSlab over planes [k0, k1). */
export function budgetSums(after: usize, before: usize, ambient: f64, solid: usize, plane: i32, partial: usize, nz: i32, k0: i32, k1: i32): void {
  for (let k = k0; k < k1; k++) {
    let e: f64 = 0
    let held: f64 = 0
    for (let c = k * plane; c < (k + 1) * plane; c++) {
      if (solid != 0 && rf32(solid, c) >= SOLID_THRESHOLD) continue
      const b = rf32(before, c) - ambient
      e += rf32(after, c) - ambient - b
      held += b < 0 ? -b : b
    }
    wf64(partial, 2 * k, e)
    wf64(partial, 2 * k + 1, held)
  }
}

@inline function pick(bound: f64, q: usize, solid: usize, c: i32, raise: bool): f64 {
  if (solid != 0 && rf32(solid, c) >= SOLID_THRESHOLD) return bound
  const v = rf32(q, c)
  return raise ? (v > bound ? v : bound) : v < bound ? v : bound
}

/** budgetWeightsSlab over planes [k0, k1). */
export function budgetWeights(q: usize, wt: usize, ambient: f64, solid: usize, raise: i32, nx: i32, ny: i32, nz: i32, partial: usize, k0: i32, k1: i32): void {
  const plane = nx * ny
  const up = raise != 0
  for (let z = k0; z < k1; z++) {
    let weight: f64 = 0
    let c = z * plane
    for (let y = 0; y < ny; y++) {
      for (let x = 0; x < nx; x++, c++) {
        wf32(wt, c, 0)
        if (solid != 0 && rf32(solid, c) >= SOLID_THRESHOLD) continue
        const v = rf32(q, c)
        const d = v - ambient
        if (d == 0) continue
        let bound = v
        if (x > 0) bound = pick(bound, q, solid, c - 1, up)
        if (x + 1 < nx) bound = pick(bound, q, solid, c + 1, up)
        if (y > 0) bound = pick(bound, q, solid, c - nx, up)
        if (y + 1 < ny) bound = pick(bound, q, solid, c + nx, up)
        if (z > 0) bound = pick(bound, q, solid, c - plane, up)
        if (z + 1 < nz) bound = pick(bound, q, solid, c + plane, up)
        const room = up ? bound - v : v - bound
        const dev = d < 0 ? -d : d
        const w = room < dev ? room : dev
        if (w > 0) {
          wf32(wt, c, w)
          weight += w
        }
      }
    }
    wf64(partial, z, weight)
  }
}

/** budgetApplySlab over planes [k0, k1). */
export function budgetApply(q: usize, wt: usize, k: f64, plane: i32, nz: i32, k0: i32, k1: i32): void {
  for (let i = k0 * plane; i < k1 * plane; i++) {
    const w = rf32(wt, i)
    if (w != 0) wf32(q, i, rf32(q, i) - k * w)
  }
}

/** meshBudgetWeightRows over cells [c0, c1). */
export function meshBudgetWeightRows(cellFaceStart: usize, cellFaces: usize, faceCellA: usize, faceCellB: usize, q: usize, ambient: f64, raise: i32, wt: usize, c0: i32, c1: i32): void {
  const up = raise == 1
  for (let c = c0; c < c1; c++) {
    wf64(wt, c, 0)
    const v = rf64(q, c)
    const d = v - ambient
    if (d == 0) continue
    let bound = v
    for (let s = load<i32>(cellFaceStart + (<usize>c << 2)), e = load<i32>(cellFaceStart + (<usize>(c + 1) << 2)); s < e; s++) {
      const f = load<i32>(cellFaces + (<usize>s << 2))
      const a = load<i32>(faceCellA + (<usize>f << 2))
      const o = a == c ? load<i32>(faceCellB + (<usize>f << 2)) : a
      if (o < 0) continue
      const x = rf64(q, o)
      if (up ? x > bound : x < bound) bound = x
    }
    const room = up ? bound - v : v - bound
    const dev = d < 0 ? -d : d
    const w = room < dev ? room : dev
    if (w > 0) wf64(wt, c, w)
  }
}
