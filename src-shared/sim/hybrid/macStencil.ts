// The staggered (MAC) trilinear velocity of seed 000 section 3.5 in plain hexahedra, over the
// grid faces of the hybrid mesh's lattice, as free functions over its arrays: what
// HybridInterpolation answers in a plain hexahedron, and what the face-value row
// (faceValueKernel.ts, wasm/assembly/hybridMac.ts) computes on the kernels, in the same
// operations and order so both give the same bits.
//
// Component a of the velocity lives on the axis-a grid faces (whole coordinates along a, half
// ones across). A grid face is one mesh face (macSingle, its normal's sign along a in macSign),
// a face split into a transition cell's triangles (the area-weighted mean of their normal
// velocities), or none (inside a tetrahedral band or a solid): then the stencil is not whole
// and the caller takes the linear fit instead (NaN).

/** The arrays the stencil reads (HybridInterpolation's tables and the mesh's grid-face lists). */
export interface MacTables {
  /** Per grid face its one mesh face, -1 for a split face or none. */
  readonly macSingle: Int32Array
  /** That face's normal component along the grid face's axis. */
  readonly macSign: Float64Array
  /** Per grid face, its mesh faces gridFaces[gridFaceStart[g] .. gridFaceStart[g + 1] - 1]. */
  readonly gridFaceStart: Int32Array
  readonly gridFaces: Int32Array
  readonly faceNormal: Float64Array
  readonly faceArea: Float64Array
}

/** floor(u) kept to {c - 1, c}: the lower of the two face layers around a point of cube c. */
export function floorNear(u: number, c: number): number {
  const f = Math.floor(u)
  return f < c - 1 ? c - 1 : f > c ? c : f
}

/** The +a velocity on grid face g that is not one whole mesh face: the area-weighted mean of a split face's triangles, NaN with none. */
export function macFaceValue(T: MacTables, g: number, a: number, zf: Float64Array): number {
  const { gridFaceStart, gridFaces, faceNormal, faceArea } = T
  const s = gridFaceStart[g], e = gridFaceStart[g + 1]
  if (s === e) return NaN
  let q = 0, area = 0
  for (let i = s; i < e; i++) {
    const f = gridFaces[i]
    q += faceArea[f] * faceNormal[3 * f + a] * zf[f]
    area += faceArea[f]
  }
  return q / area
}

/** stencilAt's answer: the first grid face, the two row strides, the three weights. */
const STENCIL = new Float64Array(6)

/**
 * The axis-a grid faces' stencil around grid point (gx, gy, gz) of cube (ci, cj, ck) into
 * STENCIL; false when it reaches outside the grid.
 */
function stencilAt(a: number, gx: number, gy: number, gz: number, ci: number, cj: number, ck: number, nx: number, ny: number, nz: number): boolean {
  const u = a === 0 ? gx : gx - 0.5, v = a === 1 ? gy : gy - 0.5, w = a === 2 ? gz : gz - 0.5
  const i0 = a === 0 ? ci : floorNear(u, ci), j0 = a === 1 ? cj : floorNear(v, cj), k0 = a === 2 ? ck : floorNear(w, ck)
  const fx = nx + (a === 0 ? 1 : 0), fy = ny + (a === 1 ? 1 : 0), fz = nz + (a === 2 ? 1 : 0)
  if (i0 < 0 || j0 < 0 || k0 < 0 || i0 + 1 >= fx || j0 + 1 >= fy || k0 + 1 >= fz) return false
  const axisOffset = a === 0 ? 0 : a === 1 ? (nx + 1) * ny * nz : (nx + 1) * ny * nz + nx * (ny + 1) * nz
  STENCIL[0] = axisOffset + i0 + fx * (j0 + fy * k0)
  STENCIL[1] = fx
  STENCIL[2] = fy
  STENCIL[3] = u - i0
  STENCIL[4] = v - j0
  STENCIL[5] = w - k0
  return true
}

/**
 * Component a by staggered trilinear interpolation of the axis-a grid faces around grid point
 * (gx, gy, gz) (world / h from the origin) in cube (ci, cj, ck) of an nx x ny x nz grid, the
 * whole faces from single and sign (MacTables' macSingle and macSign), split faces from `split`
 * (null: whole faces only, a split one counting as missing); NaN when a stencil face is
 * outside the grid or has no mesh face.
 */
export function macComponentAt(single: Int32Array, sign: Float64Array, split: MacTables | null, zf: Float64Array, a: number, gx: number, gy: number, gz: number, ci: number, cj: number, ck: number, nx: number, ny: number, nz: number): number {
  if (!stencilAt(a, gx, gy, gz, ci, cj, ck, nx, ny, nz)) return NaN
  const base = STENCIL[0], fx = STENCIL[1], fy = STENCIL[2], tx = STENCIL[3], ty = STENCIL[4], tz = STENCIL[5]
  let sum = 0
  for (let d = 0; d < 8; d++) {
    const g = base + (d & 1) + fx * ((d & 2 ? 1 : 0) + fy * (d & 4 ? 1 : 0))
    // A whole face: its mesh face's velocity along +a; a split or missing one: macFaceValue.
    const f = single[g]
    const value = f >= 0 ? zf[f] * sign[g] : split === null ? NaN : macFaceValue(split, g, a, zf)
    if (value !== value) return NaN
    sum += (d & 1 ? tx : 1 - tx) * (d & 2 ? ty : 1 - ty) * (d & 4 ? tz : 1 - tz) * value
  }
  return sum
}

/**
 * The staggered trilinear velocity's component along the unit normal (n0, n1, n2) at grid point
 * (gx, gy, gz) in cube `cube`: for a normal along an axis (its other two components exactly 0:
 * every hexahedral and transition face) that axis's component alone, so only its stencil need
 * be whole; otherwise all three. NaN when a stencil it needs is not whole.
 */
export function macNormalAt(T: MacTables, zf: Float64Array, gx: number, gy: number, gz: number, cube: number, nx: number, ny: number, nz: number, n0: number, n1: number, n2: number): number {
  const ci = cube % nx, r = (cube - ci) / nx, cj = r % ny, ck = (r - cj) / ny
  const { macSingle: S, macSign: G } = T
  if (n1 === 0 && n2 === 0) return macComponentAt(S, G, T, zf, 0, gx, gy, gz, ci, cj, ck, nx, ny, nz) * n0
  if (n0 === 0 && n2 === 0) return macComponentAt(S, G, T, zf, 1, gx, gy, gz, ci, cj, ck, nx, ny, nz) * n1
  if (n0 === 0 && n1 === 0) return macComponentAt(S, G, T, zf, 2, gx, gy, gz, ci, cj, ck, nx, ny, nz) * n2
  const u = macComponentAt(S, G, T, zf, 0, gx, gy, gz, ci, cj, ck, nx, ny, nz)
  const v = macComponentAt(S, G, T, zf, 1, gx, gy, gz, ci, cj, ck, nx, ny, nz)
  const w = macComponentAt(S, G, T, zf, 2, gx, gy, gz, ci, cj, ck, nx, ny, nz)
  if (!(u === u && v === v && w === w)) return NaN
  return u * n0 + v * n1 + w * n2
}

/**
 * The +a velocities of every grid face as macComponentAt reads a whole face (zf[f] times its
 * sign), NaN for a split or missing one, for grid faces [g0, g1): one table the hexahedral traces
 * read with a single load a stencil face (macGridComponentAt) instead of three chained ones.
 */
export function macGridValues(single: Int32Array, sign: Float64Array, zf: Float64Array, zGrid: Float64Array, g0: number, g1: number): void {
  for (let g = g0; g < g1; g++) {
    const f = single[g]
    zGrid[g] = f >= 0 ? zf[f] * sign[g] : NaN
  }
}

/**
 * macComponentAt over whole faces only (split === null), its face values read from the table
 * macGridValues made: the same stencil, values and sums, so the same bits.
 */
export function macGridComponentAt(zGrid: Float64Array, a: number, gx: number, gy: number, gz: number, ci: number, cj: number, ck: number, nx: number, ny: number, nz: number): number {
  if (!stencilAt(a, gx, gy, gz, ci, cj, ck, nx, ny, nz)) return NaN
  const base = STENCIL[0], fx = STENCIL[1], fy = STENCIL[2], tx = STENCIL[3], ty = STENCIL[4], tz = STENCIL[5]
  let sum = 0
  for (let d = 0; d < 8; d++) {
    const value = zGrid[base + (d & 1) + fx * ((d & 2 ? 1 : 0) + fy * (d & 4 ? 1 : 0))]
    if (value !== value) return NaN
    sum += (d & 1 ? tx : 1 - tx) * (d & 2 ? ty : 1 - ty) * (d & 4 ? tz : 1 - tz) * value
  }
  return sum
}
