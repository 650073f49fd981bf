// Keeping smoke and heat through advection (a mass fixer), less what leaves through open sides.
//
// Semi-Lagrangian transport and MacCormack on top of it are not conservative: the discrete
// flow map of the back-traces (trilinear weights of RK2 departure points) does not give each
// source cell a total weight of exactly 1, and MacCormack's error estimate is read at the
// nearest sample of the departure stencil, which in converging or diverging flow some cells
// share and others miss. In a rising thermal these errors do not cancel: a ball of smoke 30 K
// above ambient in a closed 1 m box lost 10.7% of its smoke and heat in 2 s at 32^3 and 7.4%
// at 64^3 (the default scheme; semi-Lagrangian -11.7% / +4.0%), against the 2% a second that
// issue 12 set (tests/validation/smoke/transport.test.ts now holds it to 0.1%).
//
// Locally conservative semi-Lagrangian schemes (Lentine, Gretarsson and Fedkiw 2011, "An
// unconditionally stable fully conservative semi-Lagrangian method", JCP 230) normalise each
// source cell's total weight; that keeps the amount but no longer carries a constant field
// unchanged where the weights are not 1 (tried here: it cut the 32^3 loss to 1.5% but left
// the 64^3 one, which is MacCormack's, and it would make a uniform field noisy, which
// tests/validation/smoke/uniformAroundObstacle.test.ts forbids). So the amount is restored
// afterwards, as the "mass fixers" of semi-Lagrangian tracer transport in atmospheric models
// do (Rasch and Williamson 1990, "Computational aspects of moisture transport in global models
// of the atmosphere", QJRMS 116; Priestley 1993, "A quasi-conservative version of the
// semi-Lagrangian advection scheme", MWR 121), with the bounds of Bermejo and Conde 2002 ("A
// conservative quasi-monotone semi-Lagrangian scheme", MWR 130): the advection's gain or loss E
// over the fluid cells is put back (or taken away) in proportion to a weight per fluid cell,
//   w_i = min(|q_i - q_amb|, room_i),  q_i <- q_i - E w_i / sum_j w_j  (while |E| <= sum w),
// where room_i is how far q_i may rise (E < 0) to the largest value among itself and its six
// fluid neighbours, or fall (E > 0) to the smallest. So a value never passes its neighbours':
// no new extremum anywhere (a plateau, such as the inside of a ball of smoke, has no room and
// is not touched), and air at the ambient value (no smoke, ambient temperature) never changes,
// so nothing appears where there was nothing. A field the advection carried exactly (the
// ambient everywhere, or any uniform field: E = 0) is left as it is. Distributing by |q - q_amb|
// alone (the multiplicative fixer) raised the inside of a 30 K thermal's ball to 1.033 times
// its density and heat over 1.3 s. A remainder the rooms cannot take (not seen in the tests)
// is spread in proportion to |q_i - q_amb|.
//
// In a domain with open sides the amount to keep is what was there less what the flow carried
// out through them (amountLeaving): each cell within reach of an open side is traced forward
// (the RK2 trace the advection runs, over +dt), and the share of a cell-wide segment centred on
// where it lands that lies beyond an open side has left, per axis (exact for a uniform flow: a
// shift of f cells takes f of the border cell out). What flows in from beyond an open side is
// at the ambient value and brings nothing.
import { backtrace, SOLID_THRESHOLD } from './advectKernels'
import type { MacGrid } from './grid'
import { kernelCopy, TS_KERNELS } from './kernelBackend'
import type { KernelBackend } from './kernelTypes'
import { BUDGET_APPLY, BUDGET_SUMS, BUDGET_WEIGHTS, MESH_BUDGET_WEIGHTS } from './scalarBudgetKernels'

/** Bounded passes before the remainder is spread by |q - q_amb| alone. */
const BOUNDED_PASSES = 3

/**
 * Restores the amount of a cell-centred field after advection; holds the weights' scratch
 * between substeps. Its passes over the grid are kernel rows by planes
 * (scalarBudgetKernels.ts): sums per plane, then over the planes in order.
 */
export class ScalarBudget {
  private weights: Float32Array = new Float32Array(0)
  private partial: Float64Array = new Float64Array(0)

  /** kernels: where the passes run; the fields handed to restore() live in their memory (default TypeScript). */
  constructor(private readonly kernels: KernelBackend = TS_KERNELS) {}

  /**
   * Gives `after` (the advected field) the amount `before` held over the fluid cells (solid
   * fraction below SOLID_THRESHOLD; all cells when solid is null), measured from `ambient`, on
   * an nx * ny * nz grid, less `left` (what left through open sides: amountLeaving). Returns
   * the relative change put back, E / sum |before - ambient| (0 when there is nothing to
   * restore).
   */
  restore(after: Float32Array, before: Float32Array, ambient: number, solid: Float32Array | null, nx: number, ny: number, nz: number, left = 0): number {
    const n = after.length
    // Float64 sums: a 128^3 field's float32 sum would carry its own 1e-4 error.
    if (this.partial.length < 2 * nz) this.partial = this.kernels.f64(2 * nz)
    const p = this.partial
    this.kernels.run(BUDGET_SUMS, after, before, ambient, solid, nx * ny, p, nz)
    let e = 0
    let held = 0
    for (let k = 0; k < nz; k++) {
      e += p[2 * k]
      held += p[2 * k + 1]
    }
    e += left
    if (!(held > 0) || e === 0 || !Number.isFinite(e)) return 0
    if (this.weights.length !== n) this.weights = this.kernels.f32(n)
    const total = e
    for (let pass = 0; pass < BOUNDED_PASSES && e !== 0; pass++) e = this.boundedPass(after, ambient, solid, nx, ny, nz, e)
    if (e !== 0) spreadByDeparture(after, ambient, solid, e)
    return total / held
  }

  /** One pass of the bounded weights (see above; the rooms all measured before any value changes); returns what is left of E. */
  private boundedPass(q: Float32Array, ambient: number, solid: Float32Array | null, nx: number, ny: number, nz: number, e: number): number {
    const raise = e < 0
    const p = this.partial
    this.kernels.run(BUDGET_WEIGHTS, q, this.weights, ambient, solid, raise ? 1 : 0, nx, ny, nz, p)
    let weight = 0
    for (let k = 0; k < nz; k++) weight += p[k]
    if (!(weight > 0)) return e
    // All of E when the rooms hold it; otherwise every room filled and the rest returned.
    const all = Math.abs(e) <= weight
    const k = all ? e / weight : raise ? -1 : 1
    this.kernels.run(BUDGET_APPLY, q, this.weights, k, nx * ny, nz)
    return all ? 0 : e + (raise ? weight : -weight)
  }
}

/** The last resort: E taken back in proportion to |q - q_amb| (the multiplicative fixer). */
function spreadByDeparture(q: Float32Array, ambient: number, solid: Float32Array | null, e: number): void {
  let weight = 0
  for (let c = 0; c < q.length; c++) {
    if (solid !== null && solid[c] >= SOLID_THRESHOLD) continue
    const d = q[c] - ambient
    weight += d < 0 ? -d : d
  }
  if (!(weight > 0)) return
  const k = e / weight
  for (let c = 0; c < q.length; c++) {
    if (solid !== null && solid[c] >= SOLID_THRESHOLD) continue
    const d = q[c] - ambient
    if (d !== 0) q[c] = ambient + (d - k * (d < 0 ? -d : d))
  }
}

/** Cells and their faces as the hybrid mesh holds them (hybridMesh.ts): -1 beyond a boundary face. */
export interface CellAdjacency {
  readonly cellCount: number
  readonly cellVolume: Float64Array
  readonly cellFaceStart: Int32Array
  readonly cellFaces: Int32Array
  readonly faceCellA: Int32Array
  readonly faceCellB: Int32Array
}

/**
 * The same restoration on an unstructured mesh of cells of different volumes: the amount is
 * sum V_i (q_i - q_amb), each cell's room is measured against its face neighbours, and a cell
 * takes E V_i w_i / sum_j V_j w_j of the amount, i.e. its value moves by E w_i / sum_j V_j w_j.
 */
export class MeshScalarBudget {
  private weights: Float64Array = new Float64Array(0)
  private adjacency: (Pick<CellAdjacency, 'cellFaceStart' | 'cellFaces' | 'faceCellA' | 'faceCellB'> & { mesh: CellAdjacency }) | null = null

  /** kernels: where the bounded weights' row runs when they hold the scalar (default: here, TypeScript). */
  constructor(private readonly kernels: KernelBackend = TS_KERNELS) {}

  /**
   * As ScalarBudget.restore, over every cell of `mesh`, less `left` (sum V (q - ambient) that
   * left through open sides); returns E / sum V |before - ambient|.
   */
  restore(after: Float64Array, before: Float64Array, ambient: number, mesh: CellAdjacency, left = 0): number {
    const n = mesh.cellCount
    const V = mesh.cellVolume
    let e = 0
    let held = 0
    for (let c = 0; c < n; c++) {
      const b = before[c] - ambient
      e += V[c] * (after[c] - ambient - b)
      held += V[c] * (b < 0 ? -b : b)
    }
    e += left
    if (!(held > 0) || e === 0 || !Number.isFinite(e)) return 0
    if (this.weights.length !== n) this.weights = this.kernels.f64(n)
    const total = e
    for (let pass = 0; pass < BOUNDED_PASSES && e !== 0; pass++) e = this.boundedPass(after, ambient, mesh, e)
    if (e !== 0) {
      let weight = 0
      for (let c = 0; c < n; c++) weight += V[c] * Math.abs(after[c] - ambient)
      if (weight > 0) for (let c = 0; c < n; c++) after[c] -= (e / weight) * Math.abs(after[c] - ambient)
    }
    return total / held
  }

  private boundedPass(q: Float64Array, ambient: number, mesh: CellAdjacency, e: number): number {
    const raise = e < 0
    const { cellCount: n, cellVolume: V } = mesh
    const wt = this.weights
    // The weights, a row per cell (on the kernels when they hold q); their sum here, in cell order.
    const { kernels } = this
    const on = kernels !== TS_KERNELS && kernels.holds(q) && kernels.holds(wt)
    const A = on ? this.kernelAdjacency(mesh) : mesh
    ;(on ? kernels : TS_KERNELS).run(MESH_BUDGET_WEIGHTS, A.cellFaceStart, A.cellFaces, A.faceCellA, A.faceCellB, q, ambient, raise ? 1 : 0, wt, n)
    let weight = 0
    for (let c = 0; c < n; c++) {
      const w = wt[c]
      if (w > 0) weight += V[c] * w
    }
    if (!(weight > 0)) return e
    const all = Math.abs(e) <= weight
    const k = all ? e / weight : raise ? -1 : 1
    for (let c = 0; c < n; c++) if (wt[c] !== 0) q[c] -= k * wt[c]
    return all ? 0 : e + (raise ? weight : -weight)
  }

  /** The mesh's adjacency where the kernels reach it (copied once per mesh). */
  private kernelAdjacency(mesh: CellAdjacency): Pick<CellAdjacency, 'cellFaceStart' | 'cellFaces' | 'faceCellA' | 'faceCellB'> {
    const held = this.adjacency
    if (held !== null && held.mesh === mesh) return held
    const k = this.kernels
    const copy = (a: Int32Array) => (k.holds(a) ? a : kernelCopy(k, a))
    const made = { mesh, cellFaceStart: copy(mesh.cellFaceStart), cellFaces: copy(mesh.cellFaces), faceCellA: copy(mesh.faceCellA), faceCellB: copy(mesh.faceCellB) }
    this.adjacency = made
    return made
  }

}

/**
 * What the advection of cell-centred fields by `vel` over dt = c dx carries out through the
 * open sides (open[0..5]: xMin, xMax, yMin, yMax, zMin, zMax; nonzero = open), per field:
 * out[f] = sum over the fluid cells within reach of an open side of (fields[f] - ambients[f])
 * times the share of the cell-wide segment around its forward trace's landing point that lies
 * beyond an open side (per axis, multiplied).
 */
export function amountLeaving(fields: readonly Float32Array[], ambients: readonly number[], vel: MacGrid, c: number, open: Uint8Array, solid: Float32Array | null, out: Float64Array): void {
  const { nx, ny, nz, u, v, w } = vel
  out.fill(0)
  let speed = 0
  for (const a of [u, v, w]) for (let i = 0; i < a.length; i++) speed = Math.max(speed, Math.abs(a[i]))
  // Reach in cells (the trace's length plus a cell), all cells when the speed is not finite.
  const reach = Number.isFinite(speed) ? Math.ceil(Math.abs(c) * speed) + 1 : Math.max(nx, ny, nz)
  const vtmp = new Float64Array(3)
  const p = new Float64Array(3)
  const oxLo = open[0] !== 0, oxHi = open[1] !== 0, oyLo = open[2] !== 0, oyHi = open[3] !== 0, ozLo = open[4] !== 0, ozHi = open[5] !== 0
  let cell = 0
  for (let k = 0; k < nz; k++) {
    const nearZ = (ozLo && k < reach) || (ozHi && k >= nz - reach)
    for (let j = 0; j < ny; j++) {
      const nearYZ = nearZ || (oyLo && j < reach) || (oyHi && j >= ny - reach)
      for (let i = 0; i < nx; i++, cell++) {
        if (!nearYZ && !((oxLo && i < reach) || (oxHi && i >= nx - reach))) continue
        if (solid !== null && solid[cell] >= SOLID_THRESHOLD) continue
        // Forward: the back-trace over -dt from the cell's centre.
        backtrace(u, v, w, nx, ny, nz, i + 0.5, j + 0.5, k + 0.5, -c, vtmp, p)
        let kept = 1
        if (oxLo) kept *= segmentInside(p[0])
        if (oxHi) kept *= segmentInside(nx - p[0])
        if (oyLo) kept *= segmentInside(p[1])
        if (oyHi) kept *= segmentInside(ny - p[1])
        if (ozLo) kept *= segmentInside(p[2])
        if (ozHi) kept *= segmentInside(nz - p[2])
        if (kept === 1) continue
        for (let f = 0; f < fields.length; f++) out[f] += (fields[f][cell] - ambients[f]) * (1 - kept)
      }
    }
  }
}

/**
 * Share of a cell-wide segment inside a side, from its centre's distance inside the side in
 * cell widths (negative beyond it): the outflow rule of amountLeaving, and of the hybrid gas's
 * open sides (HybridAdvection.insideOpenSides).
 */
export function segmentInside(depth: number): number {
  const s = depth + 0.5
  return s > 1 ? 1 : s > 0 ? s : 0
}
