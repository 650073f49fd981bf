// The liquid's level set from its marker particles (Zhu & Bridson 2005, "Animating sand as a
// fluid", the surface reconstruction):
//   phi(x) = |x - xbar| - rbar,   xbar = sum_i w_i x_i,   rbar = sum_i w_i r_i,
//   w_i = k(|x - x_i| / R) / sum_j k(|x - x_j| / R),   k(s) = max(0, (1 - s^2)^3).
// All particles share one radius here, so rbar = r. Unlike a union of spheres this stays flat
// over a flat layer of jittered particles instead of bumpy.
//
// phi lives on nodes of a grid `refinement` times finer than the simulation grid, padded by
// one node all round. The padding nodes are always "far from particles" (phi > 0), so the
// zero isosurface is closed even where liquid touches a domain wall: it is capped between
// the wall node and the padding node, at most h * r / R (<= h / 2) outside the wall.
// Particles within R of a wall are mirrored across it, so the surface reaches the wall.
//
// Cost is O(particles + nodes): particles are counting-sorted into buckets (flat Int32Arrays,
// positions copied in bucket order) and each one scatters its kernel weight to the nodes
// within R; one pass over the nodes then forms phi.
//
// The splat and phi run as a kernel-table row (surfaceSplatKernels.ts): on the WebAssembly
// backend, split by z-planes of nodes over its threads, the arrays in its memory.
import type { Vec3 } from '../../../scene/types'
import { TS_KERNELS } from '../../core/kernelBackend'
import type { KernelAllocator, KernelBackend } from '../../core/kernelTypes'
import { SURFACE_SPLAT } from './surfaceSplatKernels'

export interface NodeGrid {
  /** World position of node (0, 0, 0) (a padding node, one spacing outside the domain). */
  origin: Vec3
  /** Node spacing, m: simulation dx / refinement. */
  h: number
  nx: number
  ny: number
  nz: number
}

export interface LevelSetParams {
  positions: Float32Array
  count: number
  particleRadius: number
  /** Kernel support R in particle radii (2-4 in practice). */
  kernelScale: number
  /** Simulation grid: cell (0,0,0)'s minimum corner, cell size, cell counts. */
  origin: Vec3
  dx: number
  cells: [number, number, number]
  /** Level-set nodes per simulation cell edge, 1..4. */
  refinement: number
  /** Laplacian passes over the inside (phi < 0) nodes; 0 for none. */
  smoothing: number
}

function grow32(a: Int32Array<ArrayBuffer>, n: number): Int32Array<ArrayBuffer> {
  return a.length >= n ? a : new Int32Array(Math.max(n, Math.ceil(a.length * 1.5)))
}
/** a, or a larger array from alloc (its old contents not kept). */
function growF32(a: Float32Array, n: number, alloc: KernelAllocator): Float32Array {
  return a.length >= n ? a : alloc.f32(Math.max(n, Math.ceil(a.length * 1.5)))
}

/** Keeps its buffers between frames: after the first frame, compute() allocates only when the problem grows. */
export class ParticleLevelSet {
  /** Node values, index i + nx * (j + ny * k); valid up to grid's node count after compute(). */
  phi: Float32Array = new Float32Array(0)
  grid: NodeGrid = { origin: [0, 0, 0], h: 1, nx: 0, ny: 0, nz: 0 }
  /** phi at nodes with no particle within R: the largest value phi takes near particles (R - r). */
  far = 1
  private bucketStart = new Int32Array(0)
  private particleBucket = new Int32Array(0) // per particle, while sorting
  private sorted: Float32Array = new Float32Array(0) // positions in bucket order
  private sumX: Float32Array = new Float32Array(0) // per node: sum k (x_i - x), likewise y, z
  private sumY: Float32Array = new Float32Array(0)
  private sumZ: Float32Array = new Float32Array(0)
  /** Where the splat runs; the arrays it touches come from its allocator. */
  private readonly kernels: KernelBackend
  private readonly sums = { ws: this.phi, sx: this.sumX, sy: this.sumY, sz: this.sumZ }

  constructor(kernels: KernelBackend = TS_KERNELS) {
    this.kernels = kernels
  }

  compute(p: LevelSetParams): void {
    const r = p.refinement, h = p.dx / r
    const nx = p.cells[0] * r + 3, ny = p.cells[1] * r + 3, nz = p.cells[2] * r + 3
    const ox = p.origin[0] - h, oy = p.origin[1] - h, oz = p.origin[2] - h
    this.grid = { origin: [ox, oy, oz], h, nx, ny, nz }
    const nodes = nx * ny * nz
    const R = p.kernelScale * p.particleRadius
    const far = R - p.particleRadius
    this.far = far
    this.phi = growF32(this.phi, nodes, this.kernels)
    const phi = this.phi

    // Counting sort of the particles into buckets of B = 2R (flat Int32Arrays): the scatter
    // below then visits particles bucket by bucket, so the nodes it writes stay in cache and
    // the float32 sums are taken in an order that does not depend on the solver's numbering.
    const span = Math.max(1, Math.ceil((2 * R) / h))
    const B = span * h
    const bx = Math.ceil(nx / span), by = Math.ceil(ny / span), bz = Math.ceil(nz / span)
    const nb = bx * by * bz
    this.bucketStart = grow32(this.bucketStart, nb + 1)
    this.particleBucket = grow32(this.particleBucket, p.count)
    const start = this.bucketStart, of = this.particleBucket
    start.fill(0, 0, nb + 1)
    const pos = p.positions, n = p.count
    for (let i = 0; i < n; i++) {
      const b = bucketOf(pos[3 * i] - ox, pos[3 * i + 1] - oy, pos[3 * i + 2] - oz, B, bx, by, bz)
      of[i] = b
      start[b + 1]++
    }
    for (let b = 0; b < nb; b++) start[b + 1] += start[b]
    this.sorted = growF32(this.sorted, 3 * n, this.kernels)
    const sorted = this.sorted
    for (let i = 0; i < n; i++) {
      const s = start[of[i]]++ // start[b] is bucket b's write cursor here, restored below
      sorted[3 * s] = pos[3 * i]
      sorted[3 * s + 1] = pos[3 * i + 1]
      sorted[3 * s + 2] = pos[3 * i + 2]
    }
    for (let b = nb; b > 0; b--) start[b] = start[b - 1]
    start[0] = 0

    this.sumX = growF32(this.sumX, nodes, this.kernels)
    this.sumY = growF32(this.sumY, nodes, this.kernels)
    this.sumZ = growF32(this.sumZ, nodes, this.kernels)
    const S = this.sums
    S.ws = phi
    S.sx = this.sumX
    S.sy = this.sumY
    S.sz = this.sumZ
    // Mirror images across the domain walls (ghost particles): at a wall the kernel mean then
    // sees liquid on both sides, as it would in an unbounded pool, so phi there is about -r
    // and the surface meets the wall flush and square instead of rounding off a fraction of
    // a cell short of it (Zhu & Bridson's phi pulls in wherever the particles end).
    const lo = p.origin, hi = [lo[0] + p.cells[0] * p.dx, lo[1] + p.cells[1] * p.dx, lo[2] + p.cells[2] * p.dx]
    // Scatter: each particle adds k(|x - x_i| / R) and k * (x_i - x) to every node x within R,
    // then phi = |x - xbar| - r (surfaceSplatKernels.ts). This costs particles x (2R / h)^3
    // node visits, against nodes x (particles in a 3x3x3 block of buckets) for a gather: 27
    // against 216 per node for R = 0.75 dx, 8 particles per cell and refinement 2.
    this.kernels.run(SURFACE_SPLAT, S, sorted, n, nx, ny, nz, ox, oy, oz, h, R, lo[0], lo[1], lo[2], hi[0], hi[1], hi[2], p.particleRadius, far)
    for (let pass = 0; pass < p.smoothing; pass++) this.smoothInside()
  }

  /**
   * One Jacobi pass of phi <- phi + 1/2 (mean of 6 neighbours - phi) on interior nodes with
   * phi < 0 only. The particle level set has dimples between surface particles and bumps
   * in concave corners; smoothing the inside nodes irons them out,
   * and since outside nodes never move, the liquid cannot grow bridges across air gaps.
   * It does shrink thin features slightly (a node's neighbours outside pull it up).
   */
  private smoothInside(): void {
    const { nx, ny, nz } = this.grid
    const nodes = nx * ny * nz
    this.sumX = growF32(this.sumX, nodes, this.kernels) // free after compute(): the Jacobi target
    const src = this.phi, dst = this.sumX
    dst.set(src.subarray(0, nodes))
    const sy = nx, sz = nx * ny
    for (let k = 1; k < nz - 1; k++) for (let j = 1; j < ny - 1; j++) {
      const row = nx * (j + ny * k)
      for (let i = 1; i < nx - 1; i++) {
        const n = row + i, v = src[n]
        if (v >= 0) continue
        const mean = (src[n - 1] + src[n + 1] + src[n - sy] + src[n + sy] + src[n - sz] + src[n + sz]) / 6
        dst[n] = v + 0.5 * (mean - v)
      }
    }
    this.sumX = src
    this.phi = dst
  }
}

function bucketOf(x: number, y: number, z: number, B: number, bx: number, by: number, bz: number): number {
  // Particles outside the grid go to the edge buckets: the distance test still rejects them.
  const i = Math.min(bx - 1, Math.max(0, Math.floor(x / B)))
  const j = Math.min(by - 1, Math.max(0, Math.floor(y / B)))
  const k = Math.min(bz - 1, Math.max(0, Math.floor(z / B)))
  return i + bx * (j + by * k)
}
