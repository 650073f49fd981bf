// Marching cubes (geometry/marchingCubes.ts) as two kernel-table rows, so the surface mesher's
// cubes run split over node slices on the WebAssembly backend's threads (twins in
// wasm/assembly/marchingCubes.ts) and give the mesh geometry/marchingCubes.ts gives, to the bit
// and in the same order.
//
// The serial sweep makes, for each node slice s in turn, the vertices on slice s's x and y
// edges (S_s), then for s > 0 those on the z edges of the slab between slices s - 1 and s
// (Z_s-1), then that slab's triangles (T_s-1). A slice's share of vertices and triangles
// depends on that slice and the one below only, so:
//  1. MC_COUNT counts them per slice (each thread its own slices);
//  2. the caller adds the counts up in the sweep's order (each slice's first vertex and
//     triangle: `bases`);
//  3. MC_WRITE writes each slice's vertices and triangles at its bases. A thread whose slices
//     start at s rebuilds the vertex numbers of slice s - 1's edges (which another thread, or
//     the previous window, wrote) by counting them again in the same order.
// Both rows skip the node rows that lie wholly on one side, as the serial sweep does; a
// crossed edge is always visited.
//
// A call covers the slices [s0, s0 + units) of a window of node planes held from grid plane
// `base` (the first window starts at slice 0; each later one at the slice after the last one
// done, whose predecessor is still in the window).
import { classifyNodeRows, cornerBits, lerpT, oneSidedCubeRow } from '../../../geometry/marchingCubes'
import { CASE_START, CASE_TRIS, EDGE_AXIS, EDGE_CORNERS } from '../../../geometry/mcTables'
import { defineKernel, f32, float, i32, int, type KernelArgs, scratch, size } from '../../core/kernelTable'

/** The tables the rows read: CASE_START, CASE_TRIS, and per cube edge (x, y, z of its first corner, axis). */
export interface McTables {
  caseStart: Int32Array
  caseTris: Int32Array
  edges: Int32Array
}

/** The tables in arrays from `alloc` (the kernels' memory, for the twins). */
export function mcTables(alloc: (n: number) => Int32Array): McTables {
  const caseStart = alloc(CASE_START.length)
  caseStart.set(CASE_START)
  const caseTris = alloc(CASE_TRIS.length)
  caseTris.set(CASE_TRIS)
  const edges = alloc(48)
  for (let e = 0; e < 12; e++) {
    const c = EDGE_CORNERS[2 * e]
    edges.set([c & 1, (c >> 1) & 1, (c >> 2) & 1, EDGE_AXIS[e]], 4 * e)
  }
  return { caseStart, caseTris, edges }
}

/** Int32 values of per-thread scratch MC_WRITE needs: five edge maps of a slice and two row kinds. */
export function mcWriteScratchLength(nx: number, ny: number): number {
  return 5 * nx * ny + 2 * ny
}

/**
 * counts[3u], counts[3u + 1], counts[3u + 2] for units u in [k0, k1): vertices of S_s, of
 * Z_s-1 and triangles of T_s-1, s = s0 + u (0, 0 for the last two at s = 0). rows: 2 ny Int32.
 */
export function mcCountSlab(phi: Float32Array, counts: Int32Array, caseStart: Int32Array, rows: Int32Array, nx: number, ny: number, base: number, s0: number, k0: number, k1: number): void {
  const plane = nx * ny
  // Row kinds of the slice below (lo) and this one (hi): each slice is classified once, as hi,
  // and is the next unit's lo (the first unit's lo is classified first).
  let lo = 0, hi = ny
  if (k0 < k1 && s0 + k0 > 0) classifyNodeRows(phi, (s0 + k0 - 1 - base) * plane, nx, ny, rows, lo)
  for (let u = k0; u < k1; u++) {
    const s = s0 + u, hiAt = (s - base) * plane
    classifyNodeRows(phi, hiAt, nx, ny, rows, hi)
    let cv = 0
    for (let j = 0; j < ny; j++) {
      if (rows[hi + j] !== 0 && (j + 1 === ny || rows[hi + j + 1] === rows[hi + j])) continue
      for (let i = 0; i < nx; i++) {
        const n = hiAt + i + nx * j, inside = phi[n] < 0
        if (i + 1 < nx && phi[n + 1] < 0 !== inside) cv++
        if (j + 1 < ny && phi[n + nx] < 0 !== inside) cv++
      }
    }
    counts[3 * u] = cv
    let cz = 0, ct = 0
    if (s > 0) {
      const loAt = hiAt - plane
      for (let j = 0; j < ny; j++) {
        if (rows[lo + j] !== 0 && rows[lo + j] === rows[hi + j]) continue
        for (let i = 0; i < nx; i++) {
          const n = loAt + i + nx * j
          if (phi[n] < 0 !== phi[n + plane] < 0) cz++
        }
      }
      for (let j = 0; j + 1 < ny; j++) {
        if (oneSidedCubeRow(rows, lo, hi, j)) continue
        const row = loAt + nx * j
        let left = cornerBits(phi, row, nx, plane)
        for (let i = 0; i + 1 < nx; i++) {
          const right = cornerBits(phi, row + i + 1, nx, plane)
          const cube = left | (right << 1)
          left = right
          ct += (caseStart[cube + 1] - caseStart[cube]) / 3
        }
      }
    }
    counts[3 * u + 1] = cz
    counts[3 * u + 2] = ct
    const swap = lo
    lo = hi
    hi = swap
  }
}

/**
 * The x and y edge vertices of the slice at phi offset `at` (grid slice s) into maps xm, ym
 * (offsets xo, yo of `maps`) numbered from `first`; their positions into pos when `write`.
 */
function sliceVertices(phi: Float32Array, at: number, nx: number, ny: number, rows: Int32Array, r: number, maps: Int32Array, xo: number, yo: number, first: number, pos: Float32Array, write: boolean, ox: number, oy: number, z: number, h: number): void {
  let v = first
  for (let j = 0; j < ny; j++) {
    if (rows[r + j] !== 0 && (j + 1 === ny || rows[r + j + 1] === rows[r + j])) continue
    const y = oy + j * h
    for (let i = 0; i < nx; i++) {
      const n = at + i + nx * j, a = phi[n], m = i + nx * j
      maps[xo + m] = -1
      maps[yo + m] = -1
      if (i + 1 < nx) {
        const b = phi[n + 1]
        if (a < 0 !== b < 0) {
          if (write) {
            pos[3 * v] = ox + (i + lerpT(a, b)) * h
            pos[3 * v + 1] = y
            pos[3 * v + 2] = z
          }
          maps[xo + m] = v++
        }
      }
      if (j + 1 < ny) {
        const b = phi[n + nx]
        if (a < 0 !== b < 0) {
          if (write) {
            pos[3 * v] = ox + i * h
            pos[3 * v + 1] = y + lerpT(a, b) * h
            pos[3 * v + 2] = z
          }
          maps[yo + m] = v++
        }
      }
    }
  }
}

/**
 * The vertices and triangles of units [k0, k1) at their bases: bases[0] is the first vertex of
 * S_s0-1 (any value when s0 = 0), and unit u's first vertex of S_s, of Z_s-1 and first triangle
 * of T_s-1 are bases[1 + 3u], bases[2 + 3u], bases[3 + 3u]. pos: xyz per vertex; idx: three
 * vertices per triangle. scratch: mcWriteScratchLength Int32.
 */
export function mcWriteSlab(
  phi: Float32Array,
  pos: Float32Array,
  idx: Int32Array,
  bases: Int32Array,
  caseStart: Int32Array,
  caseTris: Int32Array,
  edges: Int32Array,
  work: Int32Array,
  nx: number,
  ny: number,
  base: number,
  s0: number,
  ox: number,
  oy: number,
  oz: number,
  h: number,
  k0: number,
  k1: number,
): void {
  if (k0 >= k1) return
  const plane = nx * ny
  // The maps of the slice below (lo) and this one (hi) trade places after each slice.
  let xLo = 0, yLo = plane, xHi = 2 * plane, yHi = 3 * plane
  const zm = 4 * plane
  let rLo = 5 * plane, rHi = 5 * plane + ny
  const first = s0 + k0
  if (first > 0) {
    // Slice first - 1's vertex numbers, written by another thread or the previous window.
    const at = (first - 1 - base) * plane
    classifyNodeRows(phi, at, nx, ny, work, rLo)
    sliceVertices(phi, at, nx, ny, work, rLo, work, xLo, yLo, k0 === 0 ? bases[0] : bases[1 + 3 * (k0 - 1)], pos, false, ox, oy, 0, h)
  }
  for (let u = k0; u < k1; u++) {
    const s = s0 + u, at = (s - base) * plane
    classifyNodeRows(phi, at, nx, ny, work, rHi)
    sliceVertices(phi, at, nx, ny, work, rHi, work, xHi, yHi, bases[1 + 3 * u], pos, true, ox, oy, oz + s * h, h)
    if (s > 0) {
      const k = s - 1, loAt = at - plane
      // z-edge vertices of slab k (none along a row on one side in both slices)
      let v = bases[2 + 3 * u]
      for (let j = 0; j < ny; j++) {
        if (work[rLo + j] !== 0 && work[rLo + j] === work[rHi + j]) continue
        for (let i = 0; i < nx; i++) {
          const n = loAt + i + nx * j
          const a = phi[n], b = phi[n + plane]
          if (a < 0 !== b < 0) {
            pos[3 * v] = ox + i * h
            pos[3 * v + 1] = oy + j * h
            pos[3 * v + 2] = oz + (k + lerpT(a, b)) * h
            work[zm + i + nx * j] = v++
          } else work[zm + i + nx * j] = -1
        }
      }
      let t = bases[3 + 3 * u]
      for (let j = 0; j + 1 < ny; j++) {
        if (oneSidedCubeRow(work, rLo, rHi, j)) continue
        const row = loAt + nx * j
        let left = cornerBits(phi, row, nx, plane)
        for (let i = 0; i + 1 < nx; i++) {
          const right = cornerBits(phi, row + i + 1, nx, plane)
          const cube = left | (right << 1)
          left = right
          if (cube === 0 || cube === 255) continue
          const m = i + nx * j
          for (let c = caseStart[cube]; c < caseStart[cube + 1]; c += 3, t++) {
            for (let q = 0; q < 3; q++) {
              const e = 4 * caseTris[c + q]
              const slot = m + edges[e] + nx * edges[e + 1], upper = edges[e + 2] === 1, axis = edges[e + 3]
              idx[3 * t + q] = axis === 0 ? work[(upper ? xHi : xLo) + slot] : axis === 1 ? work[(upper ? yHi : yLo) + slot] : work[zm + slot]
            }
          }
        }
      }
    }
    let swap = xLo
    xLo = xHi
    xHi = swap
    swap = yLo
    yLo = yHi
    yHi = swap
    swap = rLo
    rLo = rHi
    rHi = swap
  }
}

const num = (a: KernelArgs, i: number) => a[i] as number

/** mcCountSlab over the window's units [0, units). */
export const MC_COUNT = defineKernel({
  name: 'mcCount',
  args: [f32('phi'), i32('counts'), i32('caseStart'), scratch('rows', (a) => 8 * num(a, 5)), int('nx'), int('ny'), int('base'), int('s0'), size('units')],
  split: 'planes',
  range: (a) => num(a, 8),
  work: (a) => 2 * num(a, 4) * num(a, 5) * num(a, 8),
  ref: mcCountSlab,
})

/** mcWriteSlab over the window's units [0, units). */
export const MC_WRITE = defineKernel({
  name: 'mcWrite',
  args: [
    f32('phi'),
    f32('pos'),
    i32('idx'),
    i32('bases'),
    i32('caseStart'),
    i32('caseTris'),
    i32('edges'),
    scratch('work', (a) => 4 * mcWriteScratchLength(num(a, 8), num(a, 9))),
    int('nx'),
    int('ny'),
    int('base'),
    int('s0'),
    float('ox'),
    float('oy'),
    float('oz'),
    float('h'),
    size('units'),
    size('balance'),
  ],
  split: 'planes',
  range: (a) => num(a, 16),
  work: (a) => 2 * num(a, 8) * num(a, 9) * num(a, 16),
  // The slices' nodes and what MC_COUNT found in them (kernelMarchingCubes.ts): the surface
  // crosses some slices of a window and not others.
  balance: (a) => a[17] as Float64Array | null,
  ref: mcWriteSlab,
})
