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
// Cost is O(particles + nodes): particles are counting-sorted into buckets (positions copied in
// bucket order, in pieces on the kernels' threads: bucketSortKernels.ts) and each one scatters
// its kernel weight to the nodes within R; one pass over the nodes then forms phi.
//
// The splat and phi run as a kernel-table row (surfaceSplatKernels.ts): on the WebAssembly
// backend, split by z-planes of nodes over its threads, the arrays in its memory.
import type { Vec3 } from '../../../scene/types'
import { reuseOrGrow } from '../../core/growCapacity'
import { TS_KERNELS } from '../../core/kernelBackend'
import type { KernelAllocator, KernelBackend } from '../../core/kernelTypes'
import { SURFACE_SPLAT } from './surfaceSplatKernels'
import { SURFACE_SMOOTH } from './surfaceSmoothKernels'
import { DeepCellScratch, markDeepCells, reachCells, SURFACE_DEEP } from './surfaceDeepKernels'
import { BUCKET_COUNT, BUCKET_SCATTER, bucketCursors } from './bucketSortKernels'
import type { NodeGrid } from '../../../geometry/marchingCubes'

export type { NodeGrid }

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
  /**
   * The simulation's level set of the same particles on its cells (negative inside, a signed
   * distance down to at least -depth), when the caller has one: nodes well inside the cells
   * deeper than `depth` take -particleRadius and the particles that reach only such nodes are
   * not splatted (surfaceDeepKernels.ts), when at least DEEP_MIN_SHARE of the cells are that deep.
   */
  interior?: { phi: Float32Array; depth: number } | null
}

/**
 * The deep interior is filled in only where at least this share of the cells is inside: its
 * passes over every cell and node cost about what splatting the markers of a tenth of the
 * cells does (the dam break at 96^3, 5% deep, meshed no faster with it).
 */
export const DEEP_MIN_SHARE = 0.1

function grow32(a: Int32Array<ArrayBuffer>, n: number): Int32Array<ArrayBuffer> {
  return reuseOrGrow(a, n, (m) => new Int32Array(m))
}
/** a, or a larger array from alloc (its old contents not kept). */
function growF32(a: Float32Array, n: number, alloc: KernelAllocator): Float32Array {
  return reuseOrGrow(a, n, (m) => alloc.f32(m))
}

/**
 * Keeps its buffers between frames: after the first frame, it allocates only when the problem
 * grows. prepare() sorts the particles; computePlanes() then gives phi on any window of node
 * z-planes, so a mesher can sweep the grid a window at a time and hold a few planes of sums
 * instead of four full node grids (at 128^3 and refinement 2 those were 278 MB).
 */
export class ParticleLevelSet {
  /** Node values of planes [base, base + planes): index i + nx * (j + ny * (k - base)). */
  phi: Float32Array = new Float32Array(0)
  /** First node plane phi holds, and how many. */
  base = 0
  planes = 0
  grid: NodeGrid = { origin: [0, 0, 0], h: 1, nx: 0, ny: 0, nz: 0 }
  /** phi at nodes with no particle within R: the largest value phi takes near particles (R - r). */
  far = 1
  private bucketStart = new Int32Array(0)
  /** Per particle its bucket (-1: skipped), per piece and bucket the count and then the write cursor, per piece its first non-finite particle: the sort's (bucketSortKernels.ts). */
  private particleBucket: Int32Array = new Int32Array(0)
  private bucketHist: Int32Array = new Int32Array(0)
  private pieceBad: Int32Array = new Int32Array(0)
  /** The particles' positions copied into the kernels' memory (WebAssembly). */
  private staged: Float32Array = new Float32Array(0)
  private sorted: Float32Array = new Float32Array(0) // positions in bucket order
  private sumX: Float32Array = new Float32Array(0) // per node: sum k (x_i - x), likewise y, z
  private sumY: Float32Array = new Float32Array(0)
  private sumZ: Float32Array = new Float32Array(0)
  /** Where the splat runs; the arrays it touches come from its allocator. */
  private readonly kernels: KernelBackend
  private readonly sums = { ws: this.phi, sx: this.sumX, sy: this.sumY, sz: this.sumZ }
  // What prepare() worked out for computePlanes().
  private R = 1
  private radius = 1
  private smoothing = 0
  private bucketSize = 1
  private bucketPlane = 1
  private bucketLayers = 1
  private lo: Vec3 = [0, 0, 0]
  private hi: Vec3 = [0, 0, 0]
  /** planeBalance's array. */
  private balance = new Float64Array(0)
  /** The deep cells of `interior` (0: none this frame), the cells whose particles are skipped, and the erosions' scratch. */
  private deepCells = 0
  private deep: Uint8Array = new Uint8Array(0)
  private skip: Uint8Array = new Uint8Array(0)
  private readonly deepScratch: DeepCellScratch
  private cells: [number, number, number] = [0, 0, 0]
  private refinement = 1
  /** Particles prepare() sorted (those not skipped as deep). */
  sortedCount = 0

  /**
   * kernels: where the splat runs. borrowed: kernel memory nothing else uses while the level
   * set is computed (the liquid solver's pass scratch, between steps): the sorted particles and
   * the windows go there when they fit, and into the kernels' own blocks when not.
   */
  constructor(
    kernels: KernelBackend = TS_KERNELS,
    private readonly borrowed: Float64Array | null = null,
  ) {
    this.kernels = kernels
    this.deepScratch = new DeepCellScratch(kernels)
  }

  /** phi on every node plane (prepare, then one window over the whole grid). */
  compute(p: LevelSetParams): void {
    this.prepare(p, Infinity)
    this.computePlanes(0, this.grid.nz)
  }

  /**
   * The node grid for p, and the particles counting-sorted into buckets; computePlanes()
   * windows will span at most windowPlanes planes. Returns -1, or the first particle with a
   * non-finite coordinate, for the caller to report (the sort's first pass reads every position
   * anyway, so the check costs no pass of its own); the sort itself is what it was without it.
   */
  prepare(p: LevelSetParams, windowPlanes: number): number {
    const r = p.refinement, h = p.dx / r
    const nx = p.cells[0] * r + 3, ny = p.cells[1] * r + 3, nz = p.cells[2] * r + 3
    const ox = p.origin[0] - h, oy = p.origin[1] - h, oz = p.origin[2] - h
    this.grid = { origin: [ox, oy, oz], h, nx, ny, nz }
    const R = p.kernelScale * p.particleRadius
    this.R = R
    this.radius = p.particleRadius
    this.smoothing = p.smoothing
    this.far = R - p.particleRadius
    // Mirror images across the domain walls (ghost particles, surfaceSplatKernels.ts): at a
    // wall the kernel mean sees liquid on both sides, as it would in an unbounded pool, so phi
    // there is about -r and the surface meets the wall flush and square instead of rounding
    // off a fraction of a cell short of it (Zhu & Bridson's phi pulls in wherever the
    // particles end).
    this.lo = [p.origin[0], p.origin[1], p.origin[2]]
    this.hi = [p.origin[0] + p.cells[0] * p.dx, p.origin[1] + p.cells[1] * p.dx, p.origin[2] + p.cells[2] * p.dx]

    // Counting sort of the particles into buckets of B = 2R: the scatter
    // then visits particles bucket by bucket, so the nodes it writes stay in cache, the float32
    // sums are taken in an order that does not depend on the solver's numbering, and the
    // particles near a window of z-planes are one run of the sorted array (buckets are
    // numbered z-layer by z-layer).
    const span = Math.max(1, Math.ceil((2 * R) / h))
    const B = span * h
    const bx = Math.ceil(nx / span), by = Math.ceil(ny / span), bz = Math.ceil(nz / span)
    this.bucketSize = B
    this.bucketPlane = bx * by
    this.bucketLayers = bz
    const nb = bx * by * bz
    this.bucketStart = grow32(this.bucketStart, nb + 1)
    const start = this.bucketStart
    const n = p.count
    const [cnx, cny, cnz] = p.cells
    this.cells = [cnx, cny, cnz]
    this.refinement = r
    this.deepCells = 0
    // The deep interior (surfaceDeepKernels.ts).
    if (p.interior) {
      const cn = cnx * cny * cnz
      if (this.deep.length < cn) {
        this.deep = this.kernels.u8(cn)
        this.skip = this.kernels.u8(cn)
      }
      // A smoothing pass moves a node's value one node further: keep the deep nodes that
      // many nodes (rounded up to cells) inside the inside cells.
      this.deepCells = markDeepCells(this.kernels, p.interior.phi, p.interior.depth, Math.ceil(this.smoothing / r), reachCells(R, p.dx), Math.ceil(DEEP_MIN_SHARE * cn), cnx, cny, cnz, this.deep, this.skip, this.deepScratch)
    }
    // The sort on the kernels (bucketSortKernels.ts), in pieces of the particle list: counts,
    // cursors, scatter.
    const pieces = Math.max(1, Math.min(4 * this.kernels.threads, Math.ceil(n / 4096)))
    const alloc = this.kernels
    this.particleBucket = reuseOrGrow(this.particleBucket, n, (m) => alloc.i32(m))
    this.bucketHist = reuseOrGrow(this.bucketHist, pieces * nb, (m) => alloc.i32(m))
    this.pieceBad = reuseOrGrow(this.pieceBad, pieces, (m) => alloc.i32(m))
    const pos = this.inKernelMemory(p.positions, 3 * n)
    const skip = this.deepCells > 0 ? this.skip : null
    this.kernels.run(BUCKET_COUNT, pos, this.particleBucket, this.bucketHist, this.pieceBad, skip, n, pieces, nb, ox, oy, oz, B, bx, by, bz, p.origin[0], p.origin[1], p.origin[2], 1 / p.dx, cnx, cny, cnz)
    let bad = -1
    for (let t = 0; t < pieces && bad < 0; t++) bad = this.pieceBad[t]
    const kept = bucketCursors(this.bucketHist, this.bucketHist, start, pieces, nb)
    this.sortedCount = kept
    this.lend(3 * kept, Math.min(nz, windowPlanes + 2 * this.smoothing) * nx * ny)
    this.sorted = growF32(this.sorted, 3 * kept, this.kernels)
    this.kernels.run(BUCKET_SCATTER, pos, this.particleBucket, this.bucketHist, this.sorted, n, pieces, nb)
    return bad
  }

  /**
   * positions[0 .. length) where the kernels can read them: as they are when the kernels hold
   * them (on TypeScript; a transient liquid frame's, liquidSolver.ts), else copied into the
   * kernels' memory.
   */
  private inKernelMemory(positions: Float32Array, length: number): Float32Array {
    if (this.kernels.holds(positions)) return positions
    this.staged = growF32(this.staged, length, this.kernels)
    this.staged.set(positions.subarray(0, length))
    return this.staged
  }

  /** Whether node planes [a, b) cross a cell plane holding deep cells (markDeepCells's counts). */
  private anyDeep(a: number, b: number): boolean {
    const r = this.refinement, cnz = this.cells[2], perPlane = this.deepScratch.result
    const cz = (n: number) => (n <= 0 ? 0 : Math.min(cnz - 1, Math.floor((n - 1) / r)))
    for (let k = cz(a); k <= cz(b - 1); k++) if (perPlane[1 + k] > 0) return true
    return false
  }

  /** The sorted positions and four window arrays as views of the borrowed block, if they fit. */
  private lend(positions: number, room: number): void {
    const b = this.borrowed
    if (b === null || (positions + 4 * room) * 4 > b.byteLength) return
    const f = new Float32Array(b.buffer, b.byteOffset, positions + 4 * room)
    this.sorted = f.subarray(0, positions)
    let at = positions
    this.phi = f.subarray(at, (at += room))
    this.sumX = f.subarray(at, (at += room))
    this.sumY = f.subarray(at, (at += room))
    this.sumZ = f.subarray(at, at + room)
  }

  /**
   * phi on node planes [k0, k1) after prepare(), smoothed as prepare's params ask: the same
   * bits as the whole grid's phi there. Afterwards phi holds planes [base, base + planes),
   * which covers [k0, k1) (with `smoothing` planes more each side, where the grid has them).
   */
  computePlanes(k0: number, k1: number): void {
    const { nx, ny, nz, h } = this.grid
    const [ox, oy, oz] = this.grid.origin
    // Smoothing pass s reads pass s - 1 one plane further out: start that many planes wider.
    const a = Math.max(0, k0 - this.smoothing), b = Math.min(nz, k1 + this.smoothing)
    const plane = nx * ny
    // Room for this window with both halos even where the grid's end cuts one off, so later
    // windows of the same length fit: the kernels' arena cannot free a block a bigger one replaces.
    const room = Math.min(nz, k1 - k0 + 2 * this.smoothing) * plane
    this.phi = growF32(this.phi, room, this.kernels)
    this.sumX = growF32(this.sumX, room, this.kernels)
    this.sumY = growF32(this.sumY, room, this.kernels)
    this.sumZ = growF32(this.sumZ, room, this.kernels)
    const S = this.sums
    S.ws = this.phi
    S.sx = this.sumX
    S.sy = this.sumY
    S.sz = this.sumZ
    // The particles within R of these planes: whole bucket layers, one more each side for
    // rounding. (A wall mirror is never nearer an interior node than its particle is.) The
    // others would add nothing here, so the sums are the same bits as over every particle.
    const B = this.bucketSize, R = this.R, last = this.bucketLayers - 1
    const layerA = Math.max(0, Math.min(last, Math.floor((a * h - R) / B) - 1))
    const layerB = Math.max(0, Math.min(last, Math.floor(((b - 1) * h + R) / B) + 1))
    const first = this.bucketStart[layerA * this.bucketPlane], end = this.bucketStart[(layerB + 1) * this.bucketPlane]
    const lo = this.lo, hi = this.hi
    // Scatter: each particle adds k(|x - x_i| / R) and k * (x_i - x) to every node x within R,
    // then phi = |x - xbar| - r (surfaceSplatKernels.ts). This costs particles x (2R / h)^3
    // node visits, against nodes x (particles in a 3x3x3 block of buckets) for a gather: 27
    // against 216 per node for R = 0.75 dx, 8 particles per cell and refinement 2.
    // A window no particle reaches (the air above a pool) is `far` throughout, as the splat
    // would make it, and nothing inside it to smooth.
    this.base = a
    this.planes = b - a
    const deep = this.deepCells > 0
    if (first === end && !deep) {
      this.phi.fill(this.far, 0, (b - a) * plane)
      return
    }
    if (first === end) this.phi.fill(this.far, 0, (b - a) * plane)
    else this.kernels.run(SURFACE_SPLAT, S, this.sorted, first, end, nx, ny, nz, a, b - a, ox, oy, oz, h, R, lo[0], lo[1], lo[2], hi[0], hi[1], hi[2], this.radius, this.far, this.planeBalance(a, b))
    if (deep && this.anyDeep(a, b)) {
      const [cnx, cny, cnz] = this.cells
      this.kernels.run(SURFACE_DEEP, this.phi, this.deep, nx, ny, nz, a, this.refinement, cnx, cny, cnz, -this.radius, b - a)
    }
    for (let pass = 1; pass <= this.smoothing; pass++) {
      // Planes still exact after this pass: one fewer each side, except at the grid's ends
      // (whose planes the smoothing never changes).
      this.smoothInside(a === 0 ? 1 : a + pass, b === nz ? nz - 1 : b - pass)
    }
  }

  /**
   * The splat's work over node planes [a, b) for the threads' split (cumulative, length
   * b - a + 1): a plane gets a share of the splats of the particles whose buckets lie within R
   * of it (a particle's (2R / h)^3 nodes spread over its 2R / h planes), and its own nodes.
   * Where a pool's liquid fills the lower planes of a window, an even split of the planes left
   * one thread most of the splats. The split never changes the bits.
   */
  private planeBalance(a: number, b: number): Float64Array {
    const { nx, ny, h } = this.grid
    const B = this.bucketSize, R = this.R, last = this.bucketLayers - 1, start = this.bucketStart, bp = this.bucketPlane
    const perPlane = Math.max(1, (2 * R) / h) ** 2
    if (this.balance.length < b - a + 1) this.balance = new Float64Array(b - a + 1)
    const w = this.balance
    w[0] = 0
    for (let k = a; k < b; k++) {
      const la = Math.max(0, Math.min(last, Math.floor((k * h - R) / B)))
      const lb = Math.max(0, Math.min(last, Math.floor((k * h + R) / B)))
      const near = start[(lb + 1) * bp] - start[la * bp]
      w[k - a + 1] = w[k - a] + perPlane * near + nx * ny
    }
    return w
  }

  /**
   * One Jacobi pass of phi <- phi + 1/2 (mean of 6 neighbours - phi) on the interior nodes of
   * grid planes [ka, kb) with phi < 0 only (the other planes of the window are copied). The
   * particle level set has dimples between surface particles and bumps in concave corners;
   * smoothing the inside nodes irons them out, and since outside nodes never move, the liquid
   * cannot grow bridges across air gaps. It does shrink thin features slightly (a node's
   * neighbours outside pull it up). A kernel row (surfaceSmoothKernels.ts), split over planes.
   */
  private smoothInside(ka: number, kb: number): void {
    const { nx, ny } = this.grid
    const src = this.phi, dst = this.sumX // free after the splat: the Jacobi target
    this.kernels.run(SURFACE_SMOOTH, src, dst, nx, ny, ka - this.base, kb - this.base, this.planes)
    this.sumX = src
    this.phi = dst
  }
}
