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

/** The fluid cells' marks for extrapolateLayers, kept while the obstacles stay where they are. */
export class SolidBorder {
  /** 1 in fluid cells, 0 in obstacle cells (the known samples). */
  private known = new Uint8Array(0)
  /** extrapolateLayers' working copy of `known`, which it marks as it goes. */
  private marks = new Uint8Array(0)
  private dims: [number, number, number] = [0, 0, 0]
  private builtFor = -1

  /** Takes the fluid cells from the cell solid fractions when `version` (ObstacleField.version) changed. */
  update(solid: Float32Array, nx: number, ny: number, nz: number, version: number): void {
    if (version === this.builtFor) return
    this.builtFor = version
    if (this.known.length !== solid.length) {
      this.known = new Uint8Array(solid.length)
      this.marks = new Uint8Array(solid.length)
    }
    for (let c = 0; c < solid.length; c++) this.known[c] = solid[c] >= SOLID_THRESHOLD ? 0 : 1
    this.dims = [nx, ny, nz]
  }

  /** Fills the obstacle cells next to the fluid in `f` (the fluid cells of the last update). */
  extend(f: Float32Array): void {
    this.marks.set(this.known)
    extrapolateLayers(f, this.marks, this.dims[0], this.dims[1], this.dims[2], LAYERS)
  }
}
