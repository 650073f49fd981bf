// The surface mesher's deep interior (particleLevelSet.ts, `interior`): where the simulation's
// own level set says the liquid is deep, the mesher's nodes take a fixed inside value (-r)
// instead of their splatted one, and the markers whose every node within R is such a node are
// not splatted at all. Most of a full pool's markers are that deep (48% of the gears and
// bunnies' million), and the splat was most of the mesher's time.
//
// Which cells: "inside" cells, where the simulation's phi < -depth (2.5 dx for the liquid
// family) and that are not on the domain's sides; "deep" cells, inside cells whose neighbours
// within ceil(smoothing / refinement) cells are all inside; markers are skipped in cells whose
// neighbours within reachCells(R, dx) more are deep. Node (i, j, k) of the mesher's grid (one
// padding node all round, `refinement` nodes a cell) lies in cell floor((i - 1) / refinement)
// along each axis, clamped to the grid; a marker in cell c reaches nodes in cells within
// reachCells of c (its wall mirrors too, once clamped).
//
// What stays the same: every node outside the inside cells, to the bit. Its markers are all
// still splatted, in the same order, and the smoothing (a node a pass) cannot bring a deep
// node's value to it. So every cube of the marching cubes with no corner in an inside cell
// meshes as before (tests/unit/sim/liquid/surface/deepInterior.test.ts): the surface the air
// sees, wherever the simulation puts it less than 2.5 cells deep, and the caps on the domain's
// walls. What changes, deeper: the particle level set's interior bubbles (a node whose nearby
// markers' mean lies more than r away reads outside: hundreds of small closed pieces inside a
// pool, 5% of the gears' triangles) are filled, and so are voids thinner than the
// simulation's level set resolves (a thin gear deep in the pool is no longer wrapped in its
// own skin of liquid surface, which renders as a film of air around it).
import { defineKernel, f32, float, i32, int, type KernelArgs, ptr, size, u8 } from '../../core/kernelTable'
import { TS_KERNELS } from '../../core/kernelBackend'
import type { KernelAllocator, KernelBackend } from '../../core/kernelTypes'

/** Cells a marker's kernel (support R) reaches either side of its own, along an axis, allowing for rounding in its cell index. */
export function reachCells(R: number, dx: number): number {
  return Math.floor(R / dx + 1e-6) + 1
}

/** The cell index along an axis of node n (padding node 0 and the wall nodes clamp into the grid). */
function nodeCell(n: number, refinement: number, cells: number): number {
  return n <= 0 ? 0 : Math.min(cells - 1, Math.floor((n - 1) / refinement))
}

/** markDeepCells's scratch (the inside cells, the erosions' running counts, the count), grown as grids grow, from the kernels' allocator. */
export class DeepCellScratch {
  mask: Uint8Array = new Uint8Array(0)
  prefix: Int32Array = new Int32Array(0)
  /** The deep cells in all, then per cell plane. */
  result: Int32Array = new Int32Array(0)
  constructor(private readonly alloc: KernelAllocator = TS_KERNELS) {}
  ensure(cells: number, plane: number, planes: number): void {
    if (this.mask.length < cells) this.mask = this.alloc.u8(cells)
    if (this.prefix.length < cells + plane) this.prefix = this.alloc.i32(cells + plane)
    if (this.result.length < planes + 1) this.result = this.alloc.i32(planes + 1)
  }
}

/**
 * The deep cells and the markers' skip mask from the simulation's level set phi (cells
 * cnx * cny * cnz, negative inside), on `kernels` (one thread: a few passes over the cells, in
 * WebAssembly so that it needs no warming up, being run once a frame). A cell is inside when
 * phi < -depth and it is not on the domain's sides (their nodes include the wall nodes,
 * between which and the padding the mesh caps the liquid, and the nodes beside them, where
 * the markers pushed off the walls leave wrinkles); deep[c] = 1 where every cell within
 * `settle` along each axis is inside (the smoothing then cannot carry a deep node's value to a
 * node of a cell that is not inside); skip[c] = 1 where every cell within `reach` more is deep
 * (box erosions compose: settle + reach from the inside cells). Returns the number of deep
 * cells (0 when fewer than minInside cells are inside); scratch.result[1 + k] those of plane k.
 */
export function markDeepCells(kernels: KernelBackend, phi: Float32Array, depth: number, settle: number, reach: number, minInside: number, cnx: number, cny: number, cnz: number, deep: Uint8Array, skip: Uint8Array, scratch: DeepCellScratch): number {
  scratch.ensure(cnx * cny * cnz, cnx * cny, cnz)
  kernels.run(MARK_DEEP_CELLS, phi, scratch.mask, deep, skip, scratch.prefix, scratch.result, depth, settle, reach, minInside, cnx, cny, cnz)
  return scratch.result[0]
}

/**
 * markDeepCells's work, whole (its range is one index): result[0] = the deep cells (0, deep and
 * skip left as they were, when fewer than minInside cells are inside: too few to pay for the
 * passes), result[1 + k] = those of cell plane k.
 */
export function markDeepCellsSlab(phi: Float32Array, inside: Uint8Array, deep: Uint8Array, skip: Uint8Array, prefix: Int32Array, result: Int32Array, depth: number, settle: number, reach: number, minInside: number, cnx: number, cny: number, cnz: number, k0: number, k1: number): void {
  if (k0 !== 0 || k1 < 1) return
  let count = 0
  for (let k = 0, c = 0; k < cnz; k++) for (let j = 0; j < cny; j++) {
    const rowSide = k === 0 || j === 0 || k === cnz - 1 || j === cny - 1
    for (let i = 0; i < cnx; i++, c++) {
      const d = !rowSide && i > 0 && i < cnx - 1 && phi[c] < -depth ? 1 : 0
      inside[c] = d
      count += d
    }
  }
  result[0] = 0
  if (count === 0 || count < minInside) return
  erode(inside, deep, settle, cnx, cny, cnz, prefix)
  erode(inside, skip, settle + reach, cnx, cny, cnz, prefix)
  const plane = cnx * cny
  let total = 0
  for (let k = 0; k < cnz; k++) {
    let m = 0
    for (let c = k * plane; c < (k + 1) * plane; c++) m += deep[c]
    result[1 + k] = m
    total += m
  }
  result[0] = total
}

/**
 * out = the erosion of the 0/1 mask src by a box of half-width `radius` (a cell is 1 when every
 * cell within radius along each axis, inside the grid, is 1), one axis at a time through out,
 * each by running counts along the axis over contiguous rows or planes. src is left as it was.
 */
function erode(src: Uint8Array, out: Uint8Array, radius: number, cnx: number, cny: number, cnz: number, prefix: Int32Array): void {
  out.set(src.subarray(0, cnx * cny * cnz))
  if (radius <= 0) return
  // Along x (lines of cnx cells), y (cny rows of cnx a plane) and z (cnz planes).
  erodeAxis(out, radius, cnx, 1, cny * cnz, prefix)
  erodeAxis(out, radius, cny, cnx, cnz, prefix)
  erodeAxis(out, radius, cnz, cnx * cny, 1, prefix)
}

/**
 * Erodes m in place along one axis: the data is `outer` blocks of `len` slices of `inner`
 * contiguous cells; a cell stays 1 when the slices within radius of its own (inside the block)
 * are all 1 there. prefix: (len + 1) * inner counts.
 */
function erodeAxis(m: Uint8Array, radius: number, len: number, inner: number, outer: number, prefix: Int32Array): void {
  if (inner === 1) {
    // Contiguous lines: one running count each.
    for (let o = 0; o < outer; o++) {
      const base = o * len
      prefix[0] = 0
      for (let t = 0; t < len; t++) prefix[t + 1] = prefix[t] + m[base + t]
      for (let t = 0; t < len; t++) {
        const a = t - radius > 0 ? t - radius : 0, b = t + radius + 1 < len ? t + radius + 1 : len
        m[base + t] = prefix[b] - prefix[a] === b - a ? 1 : 0
      }
    }
    return
  }
  for (let o = 0; o < outer; o++) {
    const base = o * len * inner
    prefix.fill(0, 0, inner)
    for (let t = 0; t < len; t++) {
      const p0 = t * inner, p1 = p0 + inner, s = base + p0
      for (let u = 0; u < inner; u++) prefix[p1 + u] = prefix[p0 + u] + m[s + u]
    }
    for (let t = 0; t < len; t++) {
      const a = Math.max(0, t - radius), b = Math.min(len, t + radius + 1), span = b - a
      const pa = a * inner, pb = b * inner, s = base + t * inner
      for (let u = 0; u < inner; u++) m[s + u] = prefix[pb + u] - prefix[pa + u] === span ? 1 : 0
    }
  }
}

/**
 * Window planes [k0, k1) of the mesher's phi (nodes nx * ny a plane, grid planes from kBase,
 * nz in all): interior nodes whose cell is deep take `value`.
 */
export function surfaceDeepSlab(phi: Float32Array, deep: Uint8Array, nx: number, ny: number, nz: number, kBase: number, refinement: number, cnx: number, cny: number, cnz: number, value: number, k0: number, k1: number): void {
  for (let k = k0; k < k1; k++) {
    const K = kBase + k
    if (K < 1 || K > nz - 2) continue
    const cz = nodeCell(K, refinement, cnz)
    for (let j = 1; j < ny - 1; j++) {
      const cellRow = cnx * (nodeCell(j, refinement, cny) + cny * cz)
      const row = nx * (j + ny * k)
      for (let i = 1; i < nx - 1; i++) if (deep[cellRow + nodeCell(i, refinement, cnx)] !== 0) phi[row + i] = value
    }
  }
}

const num = (a: KernelArgs, i: number) => a[i] as number

/** surfaceDeepSlab over the window's planes [0, planes). */
export const SURFACE_DEEP = defineKernel({
  name: 'surfaceDeep',
  args: [f32('phi'), u8('deep'), int('nx'), int('ny'), int('nz'), int('kBase'), int('refinement'), int('cnx'), int('cny'), int('cnz'), float('value'), size('planes')],
  split: 'planes',
  range: (a) => num(a, 11),
  work: (a) => num(a, 2) * num(a, 3) * num(a, 11),
  ref: surfaceDeepSlab,
})

/** markDeepCellsSlab, whole, on one thread. */
export const MARK_DEEP_CELLS = defineKernel({
  name: 'markDeepCells',
  // phi may be the caller's own array (a test's): staged into the kernels' memory then.
  args: [ptr('phi', 'f32', { stage: (a) => (a[10] as number) * (a[11] as number) * (a[12] as number) }), u8('inside'), u8('deep'), u8('skip'), i32('prefix'), i32('result'), float('depth'), int('settle'), int('reach'), int('minInside'), int('cnx'), int('cny'), int('cnz')],
  split: 'blocks',
  range: () => 1,
  work: () => 1,
  ref: markDeepCellsSlab,
})
