// Cell-centred fields (smoke density, temperature) carried over from the fluid into the first
// two layers of obstacle cells before they are advected. Advection leaves obstacle cells alone
// (advect.ts: a cell at least SOLID_THRESHOLD solid is not advected into) and the solver clears
// them afterwards, but a back-trace that ends within a cell of an obstacle interpolates between
// fluid cells and obstacle cells all the same. With the obstacle cells at zero smoke and the
// ambient temperature, every substep blended those into the fluid beside the wall, so smoke
// thinned and cooled along obstacles. Filled with the mean of their neighbours nearer the fluid,
// they read as a constant extension of the fluid's values instead (Bridson 2015, ch. 4:
// quantities are extrapolated into solids so that interpolation near the wall sees plausible
// values). Two layers cover the trilinear stencil of back-traces that end up to a cell inside
// the wall, which the no-penetration condition keeps them from passing by much.
import { SOLID_THRESHOLD } from './advectKernels'

/** The obstacle cells next to the fluid and the cells each one takes its value from. */
export class SolidBorder {
  /** Cells to fill, layer 1 (touching the fluid) first, then layer 2. */
  private targets = new Int32Array(0)
  /** sources[starts[t] .. starts[t + 1]) are the cells target t averages. */
  private starts = new Int32Array(1)
  private sources = new Int32Array(0)
  private builtFor = -1

  /** Rebuilds the lists from the cell solid fractions when `version` (ObstacleField.version) changed. */
  update(solid: Float32Array, nx: number, ny: number, nz: number, version: number): void {
    if (version === this.builtFor) return
    this.builtFor = version
    const n = nx * ny * nz
    // 0 fluid, 1 layer one, 2 layer two, 3 deeper inside.
    const layer = new Uint8Array(n)
    for (let c = 0; c < n; c++) layer[c] = solid[c] >= SOLID_THRESHOLD ? 3 : 0
    const targets: number[] = []
    const starts: number[] = [0]
    const sources: number[] = []
    const found: number[] = []
    const plane = nx * ny
    for (const [from, to] of [[0, 1], [1, 2]] as const) {
      const marked: number[] = []
      for (let c = 0; c < n; c++) {
        if (layer[c] !== 3) continue
        const i = c % nx, j = Math.floor(c / nx) % ny, k = Math.floor(c / plane)
        found.length = 0
        if (i > 0 && layer[c - 1] === from) found.push(c - 1)
        if (i < nx - 1 && layer[c + 1] === from) found.push(c + 1)
        if (j > 0 && layer[c - nx] === from) found.push(c - nx)
        if (j < ny - 1 && layer[c + nx] === from) found.push(c + nx)
        if (k > 0 && layer[c - plane] === from) found.push(c - plane)
        if (k < nz - 1 && layer[c + plane] === from) found.push(c + plane)
        if (found.length === 0) continue
        targets.push(c)
        for (const s of found) sources.push(s)
        starts.push(sources.length)
        marked.push(c)
      }
      // Relabelled after the scan, so a layer's cells take values from the layer before only.
      for (const c of marked) layer[c] = to
    }
    this.targets = Int32Array.from(targets)
    this.starts = Int32Array.from(starts)
    this.sources = Int32Array.from(sources)
  }

  /** Fills the obstacle cells next to the fluid in `f` (the lists of the last update). */
  extend(f: Float32Array): void {
    const { targets, starts, sources } = this
    for (let t = 0; t < targets.length; t++) {
      let sum = 0
      const s0 = starts[t], s1 = starts[t + 1]
      for (let s = s0; s < s1; s++) sum += f[sources[s]]
      f[targets[t]] = sum / (s1 - s0)
    }
  }
}
