// Bilinear sampling of a surface flow's grids at a point of a patch (Stam 2003 sec. 4.3): the
// point is first walked into the patch that holds it (patchAtlas.ts locate, the paper's
// Clip), then the grid of that patch, with its filled outer layer, is interpolated. Vectors
// come back in the frame of the patch the walk started in (the Jacobians' transpose: they are
// signed permutations, so the inverse).
import { type AtlasPoint, locate, newAtlasPoint } from '../../geometry/patchAtlas'
import type { SurfaceGrid } from './surfaceGrid'

export class SurfaceSampler {
  private readonly pt: AtlasPoint = newAtlasPoint()
  /** The last sampleVector's result (contravariant components in the starting patch's frame). */
  readonly vec = new Float64Array(2)

  constructor(readonly grid: SurfaceGrid) {}

  /** Bilinear weights and lower index along one axis, clamped to the stored range [lo, hi]. */
  private static axis(g: number, lo: number, hi: number, out: Float64Array, slot: number): void {
    let i = Math.floor(g)
    if (i < lo) i = lo
    if (i > hi - 1) i = hi - 1
    let t = g - i
    t = t < 0 ? 0 : t > 1 ? 1 : t
    out[slot] = i
    out[slot + 1] = t
  }

  private readonly ax = new Float64Array(4)

  /** Cell field s (ghosts filled) at (x1, x2) of patch p. */
  sampleScalar(s: Float64Array, p: number, x1: number, x2: number): number {
    const pt = this.walk(p, x1, x2)
    return this.cellValue(s, pt.patch, pt.x1, pt.x2)
  }

  /** u^1 (x-face field ux) and u^2 (y-face field uy), ghosts filled, at (x1, x2) of p, in p's frame: this.vec. */
  sampleVector(ux: Float64Array, uy: Float64Array, p: number, x1: number, x2: number): Float64Array {
    const pt = this.walk(p, x1, x2)
    const v1 = this.xValue(ux, pt.patch, pt.x1, pt.x2), v2 = this.yValue(uy, pt.patch, pt.x1, pt.x2)
    const m = pt.m
    this.vec[0] = m[0] * v1 + m[2] * v2
    this.vec[1] = m[1] * v1 + m[3] * v2
    return this.vec
  }

  private walk(p: number, x1: number, x2: number): AtlasPoint {
    const pt = this.pt
    pt.patch = p
    pt.x1 = x1
    pt.x2 = x2
    pt.m[0] = 1; pt.m[1] = 0; pt.m[2] = 0; pt.m[3] = 1
    if (x1 < 0 || x1 > 1 || x2 < 0 || x2 > 1) locate(this.grid.atlas, pt)
    return pt
  }

  /** Cell field at (x1, x2) inside patch q. */
  cellValue(s: Float64Array, q: number, x1: number, x2: number): number {
    const { N } = this.grid
    const a = this.ax
    SurfaceSampler.axis(x1 * N - 0.5, -1, N, a, 0)
    SurfaceSampler.axis(x2 * N - 0.5, -1, N, a, 2)
    const g = this.grid
    const k = g.cell(q, a[0], a[2]), row = N + 2
    const tx = a[1], ty = a[3]
    return (1 - ty) * ((1 - tx) * s[k] + tx * s[k + 1]) + ty * ((1 - tx) * s[k + row] + tx * s[k + row + 1])
  }

  /** x-face field at (x1, x2) inside patch q. */
  xValue(f: Float64Array, q: number, x1: number, x2: number): number {
    const { N } = this.grid
    const a = this.ax
    SurfaceSampler.axis(x1 * N, -1, N + 1, a, 0)
    SurfaceSampler.axis(x2 * N - 0.5, -1, N, a, 2)
    const k = this.grid.xFace(q, a[0], a[2]), row = N + 3
    const tx = a[1], ty = a[3]
    return (1 - ty) * ((1 - tx) * f[k] + tx * f[k + 1]) + ty * ((1 - tx) * f[k + row] + tx * f[k + row + 1])
  }

  /** y-face field at (x1, x2) inside patch q. */
  yValue(f: Float64Array, q: number, x1: number, x2: number): number {
    const { N } = this.grid
    const a = this.ax
    SurfaceSampler.axis(x1 * N - 0.5, -1, N, a, 0)
    SurfaceSampler.axis(x2 * N, -1, N + 1, a, 2)
    const k = this.grid.yFace(q, a[0], a[2]), row = N + 2
    const tx = a[1], ty = a[3]
    return (1 - ty) * ((1 - tx) * f[k] + tx * f[k + 1]) + ty * ((1 - tx) * f[k + row] + tx * f[k + row + 1])
  }
}
