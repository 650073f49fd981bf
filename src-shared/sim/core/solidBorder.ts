// Cell-centred fields (smoke density, temperature) carried over from the fluid into the first
// two layers of obstacle cells before they are advected. Advection leaves obstacle cells alone
// (advect.ts: a cell at least SOLID_THRESHOLD solid is not advected into) and the solver clears
// them afterwards, but a back-trace that ends within a cell of an obstacle interpolates between
// fluid cells and obstacle cells all the same. With the obstacle cells at zero smoke and the
// ambient temperature, every substep blended those into the fluid beside the wall, so smoke
// thinned and cooled along obstacles. Filled by the breadth-first extension (extrapolate.ts:
// each takes the mean of its neighbours one layer nearer the fluid), they read as a constant
// extension of the fluid's values instead (Bridson 2015, ch. 4: quantities are extrapolated
// into solids so that interpolation near the wall sees plausible values). Two layers cover the
// trilinear stencil of back-traces that end up to a cell inside the wall, which the
// no-penetration condition keeps them from passing by much.
import { SOLID_THRESHOLD } from './advectKernels'
import { extrapolateLayers } from './extrapolate'

/** Layers of obstacle cells filled. */
const LAYERS = 2

// The layers depend on where the obstacles are, not on the values, so they are found once per
// obstacle version (a breadth-first pass over the whole grid, 10 ms at 96^3) and kept as a plan:
// each filled cell with the neighbours it averages, in extrapolateLayers' order. Each extend
// then costs what the border holds. A cell filled in layer L averages its neighbours whose
// final mark lies in (0, L + 1): the fluid (mark 1) and earlier layers, exactly those
// extrapolateLayers' average() reads (a later layer's cells are unmarked or queued then, the
// same layer's marked L + 1), in the same neighbour order, so the values are the same bits.

/** The fluid cells' marks and the border's plan, kept while the obstacles stay where they are. */
export class SolidBorder {
  /** 1 in fluid cells, 0 in obstacle cells (the known samples). */
  private known = new Uint8Array(0)
  /** extrapolateLayers' working copy of `known`, which it marks as it goes. */
  private marks = new Uint8Array(0)
  /** The values extrapolateLayers runs on while the plan is made (not read). */
  private scratch = new Float32Array(0)
  /** Filled cells, layer 1 first; cell targets[t] averages sources[start[t] .. start[t + 1]). */
  private targets = new Int32Array(0)
  private start = new Int32Array(1)
  private sources = new Int32Array(0)
  private count = 0
  private builtFor = -1

  /** Takes the fluid cells from the cell solid fractions when `version` (ObstacleField.version) changed. */
  update(solid: Float32Array, nx: number, ny: number, nz: number, version: number): void {
    if (version === this.builtFor) return
    this.builtFor = version
    const n = solid.length
    if (this.known.length !== n) {
      this.known = new Uint8Array(n)
      this.marks = new Uint8Array(n)
      this.scratch = new Float32Array(n)
    }
    for (let c = 0; c < n; c++) this.known[c] = solid[c] >= SOLID_THRESHOLD ? 0 : 1
    this.marks.set(this.known)
    const filled = extrapolateLayers(this.scratch, this.marks, nx, ny, nz, LAYERS)
    if (this.targets.length < filled) {
      this.targets = new Int32Array(filled)
      this.start = new Int32Array(filled + 1)
      this.sources = new Int32Array(6 * filled)
    }
    this.count = 0
    for (let layer = 1; layer <= LAYERS; layer++) this.plan(layer + 1, nx, ny, nz)
  }

  /** Appends the cells of final mark `lim` (one layer) with their sources. */
  private plan(lim: number, nx: number, ny: number, nz: number): void {
    const mark = this.marks
    const sxy = nx * ny
    let t = this.count
    let q = this.start[t]
    const take = (o: number): void => {
      const m = mark[o]
      if (m !== 0 && m < lim) this.sources[q++] = o
    }
    let c = 0
    for (let k = 0; k < nz; k++) {
      for (let j = 0; j < ny; j++) {
        for (let i = 0; i < nx; i++, c++) {
          if (mark[c] !== lim) continue
          if (i > 0) take(c - 1)
          if (i < nx - 1) take(c + 1)
          if (j > 0) take(c - nx)
          if (j < ny - 1) take(c + nx)
          if (k > 0) take(c - sxy)
          if (k < nz - 1) take(c + sxy)
          this.targets[t++] = c
          this.start[t] = q
        }
      }
    }
    this.count = t
  }

  /** Fills the obstacle cells next to the fluid in `f` (the fluid cells of the last update). */
  extend(f: Float32Array): void {
    const { targets, start, sources } = this
    for (let t = 0; t < this.count; t++) {
      let s = 0
      const a = start[t], b = start[t + 1]
      for (let q = a; q < b; q++) s += f[sources[q]]
      f[targets[t]] = s / (b - a)
    }
  }
}
