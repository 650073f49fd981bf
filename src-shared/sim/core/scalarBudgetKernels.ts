// ScalarBudget's passes over the grid (scalarBudget.ts) as kernel rows, split by z-planes over
// the kernels' threads: the amounts before and after the advection, the bounded weights and
// their use. They were TypeScript loops on the calling thread (about 8% of a 64^3 smoke frame,
// the kernels' threads waiting). The sums are per plane and then over the planes in order,
// so they are the same on every backend and thread count (no longer one running sum over all
// cells: the amounts differ from that in the last bits). Twins: wasm/assembly/scalarBudget.ts.
import { SOLID_THRESHOLD } from './advectKernels'
import { defineKernel, f32, f64, float, i32, int, ptr, size } from './kernelTable'

/**
 * Planes [k0, k1): partial[2k] = sum over the plane's fluid cells of (after - amb) - (before
 * - amb), partial[2k + 1] = the sum of |before - amb| (fluid: solid fraction below
 * SOLID_THRESHOLD, or every cell when solid is null).
 */
export function budgetSumsSlab(after: Float32Array, before: Float32Array, ambient: number, solid: Float32Array | null, plane: number, partial: Float64Array, k0: number, k1: number): void {
  for (let k = k0; k < k1; k++) {
    let e = 0
    let held = 0
    for (let c = k * plane; c < (k + 1) * plane; c++) {
      if (solid !== null && solid[c] >= SOLID_THRESHOLD) continue
      const b = before[c] - ambient
      e += after[c] - ambient - b
      held += b < 0 ? -b : b
    }
    partial[2 * k] = e
    partial[2 * k + 1] = held
  }
}

export const BUDGET_SUMS = defineKernel({
  name: 'budgetSums',
  args: [f32('after'), f32('before'), float('ambient'), ptr('solid', 'f32', { nullable: true }), int('plane'), f64('partial'), int('nz')],
  split: 'planes',
  range: (a) => a[6] as number,
  work: (a) => (a[4] as number) * (a[6] as number),
  ref: (after: Float32Array, before: Float32Array, ambient: number, solid: Float32Array | null, plane: number, partial: Float64Array, _nz: number, k0: number, k1: number) =>
    budgetSumsSlab(after, before, ambient, solid, plane, partial, k0, k1),
})

/** The bound a neighbour sets: its value if it is fluid and beyond the bound. */
function pick(bound: number, q: Float32Array, solid: Float32Array | null, c: number, raise: boolean): number {
  if (solid !== null && solid[c] >= SOLID_THRESHOLD) return bound
  const v = q[c]
  return raise ? (v > bound ? v : bound) : v < bound ? v : bound
}

/**
 * Planes [k0, k1) of one bounded pass (scalarBudget.ts): wt[c] = min(|q - amb|, room) on the
 * fluid cells whose room is positive, else 0, with room how far q_c may rise (raise = 1) to
 * the largest of itself and its fluid neighbours, or fall to the smallest; partial[k] = the
 * plane's sum of wt. Reads q only, so planes go in any order.
 */
export function budgetWeightsSlab(
  q: Float32Array,
  wt: Float32Array,
  ambient: number,
  solid: Float32Array | null,
  raise: number,
  nx: number,
  ny: number,
  nz: number,
  partial: Float64Array,
  k0: number,
  k1: number,
): void {
  const plane = nx * ny
  const up = raise !== 0
  for (let z = k0; z < k1; z++) {
    let weight = 0
    let c = z * plane
    for (let y = 0; y < ny; y++) {
      for (let x = 0; x < nx; x++, c++) {
        wt[c] = 0
        if (solid !== null && solid[c] >= SOLID_THRESHOLD) continue
        const v = q[c]
        const d = v - ambient
        if (d === 0) continue
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
          wt[c] = w
          weight += w
        }
      }
    }
    partial[z] = weight
  }
}

export const BUDGET_WEIGHTS = defineKernel({
  name: 'budgetWeights',
  args: [f32('q'), f32('wt'), float('ambient'), ptr('solid', 'f32', { nullable: true }), int('raise'), int('nx'), int('ny'), int('nz'), f64('partial')],
  split: 'planes',
  range: (a) => a[7] as number,
  work: (a) => 8 * (a[5] as number) * (a[6] as number) * (a[7] as number),
  ref: budgetWeightsSlab,
})

/** Planes [k0, k1): q -= k wt where wt is not 0. */
export function budgetApplySlab(q: Float32Array, wt: Float32Array, k: number, plane: number, k0: number, k1: number): void {
  for (let i = k0 * plane; i < k1 * plane; i++) if (wt[i] !== 0) q[i] -= k * wt[i]
}

export const BUDGET_APPLY = defineKernel({
  name: 'budgetApply',
  args: [f32('q'), f32('wt'), float('k'), int('plane'), int('nz')],
  split: 'planes',
  range: (a) => a[4] as number,
  work: (a) => (a[3] as number) * (a[4] as number),
  ref: (q: Float32Array, wt: Float32Array, k: number, plane: number, _nz: number, k0: number, k1: number) => budgetApplySlab(q, wt, k, plane, k0, k1),
})

/**
 * MeshScalarBudget's bounded weights (scalarBudget.ts) of cells [c0, c1) of an unstructured mesh:
 * wt[c] = min(|q_c - amb|, room_c) where that is above 0, else 0; room_c how far q_c may rise
 * (raise = 1) to the largest of itself and its face neighbours, or fall to the smallest. The
 * weights' sum stays with the caller, in cell order.
 */
export function meshBudgetWeightRows(cellFaceStart: Int32Array, cellFaces: Int32Array, faceCellA: Int32Array, faceCellB: Int32Array, q: Float64Array, ambient: number, raise: number, wt: Float64Array, c0: number, c1: number): void {
  const up = raise === 1
  for (let c = c0; c < c1; c++) {
    wt[c] = 0
    const v = q[c]
    const d = v - ambient
    if (d === 0) continue
    let bound = v
    for (let s = cellFaceStart[c]; s < cellFaceStart[c + 1]; s++) {
      const f = cellFaces[s]
      const o = faceCellA[f] === c ? faceCellB[f] : faceCellA[f]
      if (o < 0) continue
      const x = q[o]
      if (up ? x > bound : x < bound) bound = x
    }
    const room = up ? bound - v : v - bound
    const dev = d < 0 ? -d : d
    const w = room < dev ? room : dev
    if (w > 0) wt[c] = w
  }
}

export const MESH_BUDGET_WEIGHTS = defineKernel({
  name: 'meshBudgetWeightRows',
  args: [i32('cellFaceStart'), i32('cellFaces'), i32('faceCellA'), i32('faceCellB'), f64('q'), float('ambient'), int('raise'), f64('wt'), size('cells')],
  split: 'rows',
  range: (a) => a[8] as number,
  work: (a) => 8 * (a[8] as number),
  ref: meshBudgetWeightRows,
})
