// A lower bound on the distance to the contoured surface S where the contouring grid only holds
// its clamp (+-band). The mesher's graded octree (geometry/tetmesh/gradedLattice.ts) refines a
// cell while |f(centre)| is below its half diagonal plus three spacings, so with f clamped to
// +-band (three spacings) it refined every cell to the finest level: the "graded" mesh was the
// uniform one plus transition tetrahedra. Chentanez et al. 2007 grade the mesh coarser inside
// from the distance's far field (section 3.2; Bargteil et al.'s octree with fast marching).
// Here the far field is a bound, which is all the octree and the stuffing's signs need:
//  - the grid's cells are grouped in blocks of B x B x B; a block is near when one of its
//    grid edges changes sign (marching cubes puts S in exactly the cells with such an edge,
//    and its vertex refinement keeps them on their edges, so S lies inside the near blocks;
//    the values' magnitudes play no part: beyond the traced band they are decaying lower
//    bounds, surfaceTracking.ts);
//  - the exact Euclidean distance transform of the near blocks over the block grid
//    (Felzenszwalb and Huttenlocher 2004: lower envelopes of parabolas, one axis at a time)
//    gives each block the distance D, in block sides, from its centre to the nearest near
//    block's centre; a point in the block is then at least (D - sqrt 3) B h from S (each box
//    reaches half its diagonal, sqrt(3) B h / 2, from its centre).
// The bound is piecewise constant (jumps between blocks) and never above the distance: the
// octree refines wherever S may be, and its coarse tetrahedra lie where the sign is certain.
import type { NodeGrid } from '../../geometry/marchingCubes'

/** Cells per block side. */
const B = 2

export class FarBound {
  private readonly bx: number
  private readonly by: number
  private readonly bz: number
  /** Per block: the lower bound on the distance to S, m. */
  private readonly bound: Float32Array

  constructor(phi: Float32Array, private readonly grid: NodeGrid) {
    const { nx, ny, nz } = grid
    const bx = (this.bx = Math.max(1, Math.ceil((nx - 1) / B)))
    const by = (this.by = Math.max(1, Math.ceil((ny - 1) / B)))
    const bz = (this.bz = Math.max(1, Math.ceil((nz - 1) / B)))
    const nb = bx * by * bz
    // Squared distances in block units: 0 at near blocks, "infinite" elsewhere.
    const d2 = new Float64Array(nb).fill(1e20)
    let any = false
    // Marks the blocks whose closed boxes hold node (i, j, k): a node on a block face belongs
    // to the blocks on both sides.
    const mark = (i: number, j: number, k: number) => {
      const i0 = Math.max(0, Math.ceil(i / B) - 1), i1 = Math.min(bx - 1, Math.floor(i / B))
      const j0 = Math.max(0, Math.ceil(j / B) - 1), j1 = Math.min(by - 1, Math.floor(j / B))
      const k0 = Math.max(0, Math.ceil(k / B) - 1), k1 = Math.min(bz - 1, Math.floor(k / B))
      for (let c = k0; c <= k1; c++) for (let b = j0; b <= j1; b++) for (let a = i0; a <= i1; a++) d2[a + bx * (b + by * c)] = 0
      any = true
    }
    const sx = 1, sy = nx, sz = nx * ny
    for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) {
      const row = nx * (j + ny * k)
      for (let i = 0; i < nx; i++) {
        const n = row + i, inside = phi[n] < 0
        // The edges to the +x, +y and +z neighbours; an edge that changes sign holds a vertex of S.
        if ((i + 1 < nx && phi[n + sx] < 0 !== inside) || (j + 1 < ny && phi[n + sy] < 0 !== inside) || (k + 1 < nz && phi[n + sz] < 0 !== inside)) {
          mark(i, j, k)
          if (i + 1 < nx) mark(i + 1, j, k)
          if (j + 1 < ny) mark(i, j + 1, k)
          if (k + 1 < nz) mark(i, j, k + 1)
        }
      }
    }
    this.bound = new Float32Array(nb)
    if (!any) return // no S: nothing is known but the sign
    const m = Math.max(bx, by, bz)
    const line = new Float64Array(m), out = new Float64Array(m), v = new Int32Array(m), z = new Float64Array(m + 1)
    const pass = (n: number, stride: number, starts: number[]) => {
      for (const s0 of starts) {
        for (let q = 0; q < n; q++) line[q] = d2[s0 + q * stride]
        edt1(line, n, out, v, z)
        for (let q = 0; q < n; q++) d2[s0 + q * stride] = out[q]
      }
    }
    const starts = (count: number, f: (t: number) => number) => Array.from({ length: count }, (_, t) => f(t))
    pass(bx, 1, starts(by * bz, (t) => bx * t))
    pass(by, bx, starts(bx * bz, (t) => (t % bx) + bx * by * Math.floor(t / bx)))
    pass(bz, bx * by, starts(bx * by, (t) => t))
    const side = B * grid.h
    for (let q = 0; q < nb; q++) {
      const d = Math.sqrt(d2[q]) - Math.sqrt(3)
      // float32 rounds: keep the bound below the float64 value it stands for
      this.bound[q] = d > 0 ? Math.fround(d * side * (1 - 1e-6)) : 0
    }
  }

  /**
   * A lower bound on the distance from (x, y, z) to S (0 near S, and everywhere when S is
   * empty: then nothing is known but the sign).
   */
  at(x: number, y: number, z: number): number {
    const g = this.grid, s = B * g.h
    const a = Math.min(this.bx - 1, Math.max(0, Math.floor((x - g.origin[0]) / s)))
    const b = Math.min(this.by - 1, Math.max(0, Math.floor((y - g.origin[1]) / s)))
    const c = Math.min(this.bz - 1, Math.max(0, Math.floor((z - g.origin[2]) / s)))
    return this.bound[a + this.bx * (b + this.by * c)]
  }
}

/**
 * One dimension of the squared Euclidean distance transform (Felzenszwalb and Huttenlocher
 * 2004, algorithm DT(f)): out[q] = min_p (q - p)^2 + f[p], by the lower envelope of the
 * parabolas rooted at each p. v holds the envelope's parabolas, z the boundaries between them.
 */
function edt1(f: Float64Array, n: number, out: Float64Array, v: Int32Array, z: Float64Array): void {
  let k = 0
  v[0] = 0
  z[0] = -Infinity
  z[1] = Infinity
  for (let q = 1; q < n; q++) {
    let s = (f[q] + q * q - (f[v[k]] + v[k] * v[k])) / (2 * q - 2 * v[k])
    while (s <= z[k]) {
      k--
      s = (f[q] + q * q - (f[v[k]] + v[k] * v[k])) / (2 * q - 2 * v[k])
    }
    k++
    v[k] = q
    z[k] = s
    z[k + 1] = Infinity
  }
  k = 0
  for (let q = 0; q < n; q++) {
    while (z[k + 1] < q) k++
    out[q] = (q - v[k]) * (q - v[k]) + f[v[k]]
  }
}
