// Multigrid preconditioner for the surface solver's projection over all patches (the paper
// solves it by PCG, noting multigrid as the faster choice). Coarse levels aggregate 2 x 2 cells
// of each patch into one (piecewise-constant prolongation P) down to one cell a patch, with
// Galerkin operators A_c = P^T A P, so patch edges and their transitions carry down without
// any geometry. One V-cycle is
//   x = 0; s damped Jacobi sweeps (the first from x = 0 is just omega D^-1 b); x += alpha P
//   (V-cycle of P^T (b - A x)); s damped Jacobi sweeps,
// with a fixed number of symmetric multicolour Gauss-Seidel sweeps on the coarsest level: a
// fixed symmetric linear map, as PCG needs (McAdams, Sifakis and Teran 2010 use the same
// construction on grids; Jacobi's M = D / omega is symmetric, so equal sweeps before and after
// keep it so). Piecewise-constant aggregation under-corrects smooth errors (the Galerkin
// operator is about half a rediscretised one); alpha = 2 scales the correction back (Braess
// 1995's remedy).
// Why Jacobi: on the head-sized cage (450 patches x 32^2) two sweeps with omega = 0.85 took 12
// PCG iterations a step where one multicolour Gauss-Seidel sweep took 17, and a Jacobi sweep is
// one streaming product where Gauss-Seidel's colour-ordered gathers cost about three: 2.15
// against 2.99 s a step (WebAssembly, 2 threads); on a cube cage 6 against 11 iterations.
// Every level whose rows are a patch stencil (edge n >= 3) works in float32 (patchStencil32.ts:
// half the bytes a sweep streams, four rows a SIMD vector), with the 2 x 2 transfers as
// structured kernels; the levels below, a few thousand unknowns, stay float64 CSR, and PCG's own
// vectors, product and residual stay float64 throughout. Between float32 levels the cycle is a
// W-cycle: each coarse level is visited twice, the second time on what the first left of its
// right-hand side (x_c = B b_c + B (b_c - A_c B b_c), i.e. B_2 = 2 B - B A_c B, symmetric when B
// is). On the head-sized cage it halves the PCG iterations (11-12 -> 6 a step) for about twice
// the cycle's cost (5.1-5.7 -> 10.2-10.5 ms; the coarse levels' patch-edge rows, gathered one by
// one, are about half of a coarse sweep): the projection 114-125 -> 101-104 ms a step, alternated.
// Four sweeps a side on the finest level and one on each level below: with the W-cycle, the
// same right-hand sides (six steps of the bench's flow, solved alternately in one process) took
// 4 iterations and 62-63 ms a solve, against 6 and 84.5 ms with two a side everywhere, 5 and
// 66-75 with three and one, 4 and 65-77 with five or six and one; a V-cycle with four and one
// took 13 iterations and 135 ms.
// Float32 alone (2026-12-05, second session) took the V-cycle from 20.6 to 5.1-8 ms in one hour
// (the float64 planes' sweeps streamed 80 bytes a row); the projection 169-174 -> 115-119 ms a
// step, alternated.
// omega is capped per level by Gershgorin's bound so that omega lambda_max(D^-1 A) < 1.9: the
// metric's mixed terms make some off-diagonals positive, and a sweep must still contract.
import type { Preconditioner } from '../core/pcg'
import { kernelCopy, TS_KERNELS } from '../core/kernelBackend'
import type { KernelBackend } from '../core/kernelTypes'
import { copyCsr, type CsrMatrix, symmetrised, transposeCsr } from '../core/sparse/csr'
import { galerkinOn } from '../core/sparse/product'
import { MulticolorGaussSeidel, spmv, spmvAdd, spResidual } from '../core/sparse/ops'
import { JACOBI_ROWS, SCALE_BLOCKS, SPARSE_BLOCK } from '../core/sparse/rows'
import { type PatchStencil, patchStencilOf, stencilJacobi, stencilResidual } from './patchStencil'
import { NARROW_SCALE, type PatchStencil32, PROLONG_ADD32, RESTRICT32, SCALE32, stencil32Jacobi, stencil32Of, stencil32Residual } from './patchStencil32'

/** A float32 level's operator and vectors (all in the kernels' memory). */
interface Single {
  S: PatchStencil32
  invDiag: Float32Array
  x: Float32Array
  y: Float32Array
  b: Float32Array
  r: Float32Array
  /** The next level's b and x in float32 where that level works in float64 (else null). */
  cb: Float32Array | null
  cx: Float32Array | null
}

interface Level {
  /** Cells a patch edge. */
  n: number
  A: CsrMatrix
  /** The float32 path (levels whose rows are a patch stencil); null on float64 levels, whose fields below are then used. */
  single: Single | null
  /** A's inner rows as float64 stencil planes on a float64 level (patchStencil.ts: the same bits as its CSR rows), null where it has none. */
  stencil: PatchStencil | null
  /** The coarsest level's Gauss-Seidel (null elsewhere). */
  gs: MulticolorGaussSeidel | null
  /** omega / A_uu: the damped Jacobi sweep's scaling (empty on the coarsest level). */
  invDiag: Float64Array
  /** alpha P to the next coarser level and R = P^T (null on the coarsest), in the kernels' memory. */
  P: CsrMatrix | null
  R: CsrMatrix | null
  x: Float64Array
  /** The Jacobi sweep's other iterate (swapped with x after each sweep). */
  y: Float64Array
  b: Float64Array
  r: Float64Array
}

/** Jacobi's damping where Gershgorin's bound allows it. */
const OMEGA = 0.85
/** Largest omega lambda_max(D^-1 A) allowed (below 2, where damped Jacobi stops contracting). */
const CONTRACTION = 1.9

/** omega / A_uu, omega = min(OMEGA, CONTRACTION / max_u (1 + sum_v |A_uv| / A_uu)). */
function jacobiScaling(A: CsrMatrix): Float64Array {
  const { n, rowPtr, col, val } = A
  const inv = new Float64Array(n)
  let bound = 1
  for (let u = 0; u < n; u++) {
    let d = 0, off = 0
    for (let q = rowPtr[u]; q < rowPtr[u + 1]; q++) {
      if (col[q] === u) d = val[q]
      else off += Math.abs(val[q])
    }
    inv[u] = d > 0 ? 1 / d : 0
    if (d > 0) bound = Math.max(bound, 1 + off / d)
  }
  const omega = Math.min(OMEGA, CONTRACTION / bound)
  for (let u = 0; u < n; u++) inv[u] *= omega
  return inv
}

/** Piecewise-constant P: row u has a single 1 in column agg[u]. */
function aggregationP(agg: Int32Array, coarse: number): CsrMatrix {
  const n = agg.length
  const rowPtr = new Int32Array(n + 1)
  for (let u = 0; u < n; u++) rowPtr[u + 1] = u + 1
  return { n, cols: coarse, rowPtr, col: Int32Array.from(agg), val: new Float64Array(n).fill(1) }
}

export class SurfaceMultigrid implements Preconditioner {
  private readonly levels: Level[] = []
  /** A's float64 stencil planes (the projection's product shares them), null if it has none. */
  readonly finestStencil: PatchStencil | null
  /** The caller's r and z during apply (the finest level reads r and writes z in place). */
  private r64: Float64Array
  private z64: Float64Array
  private readonly none = new Float64Array(0)

  /**
   * A over P patches of N x N unknowns each (index p N^2 + i + N j). sweeps, coarseSweeps:
   * damped Jacobi sweeps each way on the finest level and on each level below (at least one); coarsest: symmetric Gauss-Seidel sweep pairs on
   * the coarsest level; visits: cycles a float32 level runs on the float32 level below it (1: a
   * V-cycle, 2: a W-cycle there). kernels: where the sweeps and products run; A must be in its memory, and
   * each coarse level is copied there.
   */
  constructor(A: CsrMatrix, readonly P: number, N: number, readonly kernels: KernelBackend = TS_KERNELS, readonly alpha = 2, readonly sweeps = 4, readonly coarsest = 10, readonly visits = 2, readonly coarseSweeps = 1) {
    if (!(sweeps >= 1) || !(coarseSweeps >= 1)) throw new Error(`SurfaceMultigrid: at least one Jacobi sweep a side is needed on every level (got ${sweeps} on the finest, ${coarseSweeps} below)`)
    this.finestStencil = patchStencilOf(A, P, N, kernels)
    this.r64 = this.z64 = this.none
    let cur = A, n = N
    // Float32 while the levels are patch stencils; once a level is not, it and all below are float64.
    let single = true
    for (;;) {
      const last = n <= 1
      // (A coarse level's float64 planes are built outside the kernels' memory: only their float32 copy is kept.)
      const planes = last ? null : cur === A ? this.finestStencil : patchStencilOf(cur, P, n, TS_KERNELS)
      single = single && planes !== null
      const level: Level = single
        ? { n, A: cur, single: this.singleLevel(planes as PatchStencil, cur), stencil: null, gs: null, invDiag: kernels.f64(0), P: null, R: null, x: kernels.f64(0), y: kernels.f64(0), b: kernels.f64(0), r: kernels.f64(0) }
        : {
            n,
            A: cur,
            single: null,
            stencil: last || planes === null ? null : cur === A ? planes : patchStencilOf(cur, P, n, kernels),
            gs: last ? new MulticolorGaussSeidel(cur, kernels) : null,
            invDiag: last ? kernels.f64(0) : kernelCopy(kernels, jacobiScaling(cur)),
            P: null,
            R: null,
            // (The finest level's x and b are the caller's z and r: apply.)
            x: kernels.f64(cur === A ? 0 : cur.n),
            y: kernels.f64(cur.n),
            b: kernels.f64(cur === A ? 0 : cur.n),
            r: kernels.f64(cur.n),
          }
      this.levels.push(level)
      if (last) break
      const nc = (n + 1) >> 1
      const agg = new Int32Array(cur.n)
      for (let p = 0; p < P; p++) for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) agg[p * n * n + i + n * j] = p * nc * nc + (i >> 1) + nc * (j >> 1)
      const Pc = aggregationP(agg, P * nc * nc)
      const R = copyCsr(transposeCsr(Pc), kernels)
      // The Galerkin product on the kernels' threads (product.ts; the same bits as galerkin()),
      // P's copy there only for the product's duration; symmetrised to the last bit (its sums
      // pair each entry with its mirror in different orders), as the float32 levels' symmetric
      // planes need (patchStencil32.ts).
      cur = copyCsr(symmetrised(kernels.scoped(() => galerkinOn(kernels, cur, copyCsr(Pc, kernels), R))), kernels)
      if (!level.single) {
        level.R = R
        // The correction's alpha folded into P's entries (each row a single alpha).
        level.P = copyCsr({ ...Pc, val: Pc.val.map(() => alpha) }, kernels)
      }
      n = nc
    }
    // A float32 level above a float64 one hands its restriction and takes the correction through float32 copies.
    for (let l = 0; l + 1 < this.levels.length; l++) {
      const L = this.levels[l].single, C = this.levels[l + 1]
      if (L && !C.single) {
        L.cb = kernels.f32(C.A.n)
        L.cx = kernels.f32(C.A.n)
      }
    }
  }

  /** A float32 level for the stencil planes S of A. */
  private singleLevel(S: PatchStencil, A: CsrMatrix): Single {
    const k = this.kernels
    const invDiag = k.f32(A.n)
    invDiag.set(jacobiScaling(A))
    return { S: stencil32Of(S, k), invDiag, x: k.f32(A.n), y: k.f32(A.n), b: k.f32(A.n), r: k.f32(A.n), cb: null, cx: null }
  }

  get depth(): number {
    return this.levels.length
  }

  /** Levels that work in float32 (from the finest down). */
  get singleLevels(): number {
    return this.levels.filter((L) => L.single).length
  }

  /**
   * z = the V-cycle applied to r. The finest level works on the caller's r and z in place (both
   * in the kernels' memory, as PcgSolver's vectors are): copying 2 x 3.7 MB in and out took
   * about a tenth of a cycle at 450 x 32^2. On a float32 finest level the first sweep reads r
   * (rounding it once) and the last writes z.
   */
  apply(r: Float64Array, z: Float64Array): void {
    const top = this.levels[0]
    if (top.single) {
      this.r64 = r
      this.z64 = z
      try {
        this.cycle(0)
      } finally {
        // (Not keeping the caller's vectors alive.)
        this.r64 = this.z64 = this.none
      }
      return
    }
    const { b, x } = top
    top.b = r
    top.x = z
    // Each sweep swaps x and y, and a level sweeps as often after its coarse correction as
    // before: the iterate ends in z.
    this.cycle(0)
    top.b = b
    top.x = x
  }

  private cycle(l: number): void {
    const L = this.levels[l]
    if (L.single) return this.cycle32(l, L.single)
    if (L.gs) {
      L.x.fill(0)
      for (let s = 0; s < this.coarsest; s++) L.gs.symmetricSweep(L.x, L.b)
      return
    }
    this.smooth(L, true)
    // Residual, restricted by R = P^T (a sum over each aggregate), the coarse cycle, and its
    // correction prolongated (alpha P): all kernels.
    if (L.stencil) stencilResidual(this.kernels, L.stencil, L.x, L.b, L.r)
    else spResidual(this.kernels, L.A, L.x, L.b, L.r)
    const C = this.levels[l + 1]
    spmv(this.kernels, L.R as CsrMatrix, L.r, C.b)
    this.cycle(l + 1)
    spmvAdd(this.kernels, L.P as CsrMatrix, C.x, L.x)
    this.smooth(L, false)
  }

  /** cycle() on a float32 level: the same steps through patchStencil32's kernels. */
  private cycle32(l: number, L: Single): void {
    const k = this.kernels, { n } = this.levels[l], P = this.P
    const sweeps = l === 0 ? this.sweeps : this.coarseSweeps
    for (let s = 0; s < sweeps; s++) {
      if (s > 0) stencil32Jacobi(k, L.S, L.x, L.b, L.invDiag, L.y)
      else if (l === 0) k.run(NARROW_SCALE, this.r64, L.b, L.invDiag, L.y, n, P)
      else k.run(SCALE32, L.b, L.invDiag, L.y, n, P)
      this.swap(L)
    }
    stencil32Residual(k, L.S, L.x, L.b, L.r)
    const C = this.levels[l + 1]
    if (C.single) {
      const c = C.single
      k.run(RESTRICT32, L.r, c.b, n, P)
      this.cycle(l + 1)
      k.run(PROLONG_ADD32, c.x, L.x, this.alpha, n, P)
      // The W-cycle's second visit: the coarse level's cycle again on what its first left of
      // its right-hand side (c.r becomes its b: each visit restricts into b afresh).
      for (let visit = 1; visit < this.visits; visit++) {
        stencil32Residual(k, c.S, c.x, c.b, c.r)
        const b = c.b
        c.b = c.r
        c.r = b
        this.cycle(l + 1)
        k.run(PROLONG_ADD32, c.x, L.x, this.alpha, n, P)
      }
    } else {
      const cb = L.cb as Float32Array, cx = L.cx as Float32Array
      k.run(RESTRICT32, L.r, cb, n, P)
      C.b.set(cb)
      this.cycle(l + 1)
      cx.set(C.x)
      k.run(PROLONG_ADD32, cx, L.x, this.alpha, n, P)
    }
    for (let s = 0; s < sweeps; s++) {
      if (l === 0 && s === sweeps - 1) {
        stencil32Jacobi(k, L.S, L.x, L.b, L.invDiag, this.z64)
        return
      }
      stencil32Jacobi(k, L.S, L.x, L.b, L.invDiag, L.y)
      this.swap(L)
    }
  }

  private swap(L: Single): void {
    const x = L.x
    L.x = L.y
    L.y = x
  }

  /**
   * `sweeps` damped Jacobi sweeps x <- x + omega D^-1 (b - A x), each into y, then swapped.
   * fromZero: x starts at 0 (each level does, for PCG's fixed linear map), so the first sweep is
   * x = omega D^-1 b, without the product or the zero fill (only a zero's sign can differ).
   */
  private smooth(L: Level, fromZero: boolean): void {
    const { A } = L
    const sweeps = L === this.levels[0] ? this.sweeps : this.coarseSweeps
    for (let s = 0; s < sweeps; s++) {
      if (fromZero && s === 0) this.kernels.run(SCALE_BLOCKS, L.y, L.invDiag, L.b, A.n, SPARSE_BLOCK)
      else if (L.stencil) stencilJacobi(this.kernels, L.stencil, L.x, L.b, L.invDiag, L.y)
      else this.kernels.run(JACOBI_ROWS, A.rowPtr, A.col, A.val, L.x, L.b, L.invDiag, L.y, A.n)
      const x = L.x
      L.x = L.y
      L.y = x
    }
  }
}
