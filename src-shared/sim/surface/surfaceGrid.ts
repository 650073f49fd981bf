// The grids of a surface flow (Stam 2003 sec. 4.1-4.2, Figure 7): every patch's parameter
// square is cut into N x N cells with one extra layer of cells around it. Scalars live at cell
// centres, the flux density sqrt(g) u^1 on the vertical edges ("x-faces", Figure 7's squares)
// and sqrt(g) u^2 on the horizontal ones ("y-faces", diamonds): the MAC layout. The outer
// layer is filled from the neighbouring patches after every update through the transition
// maps of patchAtlas.ts (sec. 4.2): here each ghost sample's source is found once, by carrying
// its position across the edge, and kept in a table.
//
// Index layout per patch p (all arrays are flat over the patches):
//   cells   (i, j), i, j in [-1, N]:             p (N+2)^2      + (i+1) + (N+2)(j+1)
//   x-faces (i, j), i in [-1, N+1], j in [-1, N]: p (N+3)(N+2)   + (i+1) + (N+3)(j+1), at (i h, (j + 1/2) h)
//   y-faces (i, j), i in [-1, N], j in [-1, N+1]: p (N+2)(N+3)   + (i+1) + (N+2)(j+1), at ((i + 1/2) h, j h)
// The faces on a patch's own edge (x-faces i = 0 and N, y-faces j = 0 and N) are real in both
// patches that share it; sharedPairs lists them so they can be kept equal.
import { type AtlasPoint, type PatchAtlas, locate, newAtlasPoint } from '../../geometry/patchAtlas'
import type { KernelBackend } from '../core/kernelTypes'
import { SURFACE_FILL_SCALAR, SURFACE_FILL_VECTOR } from './surfaceGhostKernels'

/** A source of a ghost sample: the array (0 cells, 1 x-faces, 2 y-faces), its index, and a sign. */
interface GhostTable {
  dst: Int32Array
  srcKind: Uint8Array
  src: Int32Array
  sign: Int8Array
}

export class SurfaceGrid {
  readonly N: number
  readonly P: number
  readonly h: number
  readonly cellBlock: number
  readonly xBlock: number
  readonly yBlock: number
  /** Ghost cells from neighbours' real cells. */
  readonly cellGhosts: GhostTable
  /** Ghost x- and y-faces from neighbours' real faces (a component may arrive as the other one, with a sign). */
  readonly faceGhosts: GhostTable
  /** Pairs of real faces on a shared edge: kind (1 x, 2 y) and index in each patch, and the sign between their values. */
  readonly shared: GhostTable
  /** Faces on an open edge of the surface (x-faces, then y-faces offset by the x count): no flux crosses them. */
  readonly openFaces: Int32Array
  /** The ghost tables in a kernel backend's memory, once useKernels() has been called. */
  private fills: { kernels: KernelBackend; cellDst: Int32Array; cellSrc: Int32Array; faceDst: Int32Array; faceKind: Int32Array; faceSrc: Int32Array; faceSign: Float64Array } | null = null

  constructor(readonly atlas: PatchAtlas, N: number) {
    this.N = N
    this.P = atlas.patchCount
    this.h = 1 / N
    this.cellBlock = (N + 2) * (N + 2)
    this.xBlock = (N + 3) * (N + 2)
    this.yBlock = (N + 2) * (N + 3)
    this.cellGhosts = this.buildCellGhosts()
    this.faceGhosts = this.buildFaceGhosts()
    this.shared = this.buildShared()
    this.openFaces = this.buildOpenFaces()
  }

  private buildOpenFaces(): Int32Array {
    const { N, P, atlas } = this
    const nx = P * this.xBlock
    const out: number[] = []
    for (let p = 0; p < P; p++) {
      for (let t = 0; t < N; t++) {
        if (atlas.neighbour[4 * p + 0] < 0) out.push(nx + this.yFace(p, t, 0))
        if (atlas.neighbour[4 * p + 1] < 0) out.push(this.xFace(p, N, t))
        if (atlas.neighbour[4 * p + 2] < 0) out.push(nx + this.yFace(p, t, N))
        if (atlas.neighbour[4 * p + 3] < 0) out.push(this.xFace(p, 0, t))
      }
    }
    return Int32Array.from(out)
  }

  /** Zero flux through the surface's open edges (a wall along the rim). */
  closeOpenEdges(fx: Float64Array, fy: Float64Array): void {
    const nx = this.P * this.xBlock
    for (const f of this.openFaces) {
      if (f < nx) fx[f] = 0
      else fy[f - nx] = 0
    }
  }

  cell(p: number, i: number, j: number): number {
    return p * this.cellBlock + i + 1 + (this.N + 2) * (j + 1)
  }
  xFace(p: number, i: number, j: number): number {
    return p * this.xBlock + i + 1 + (this.N + 3) * (j + 1)
  }
  yFace(p: number, i: number, j: number): number {
    return p * this.yBlock + i + 1 + (this.N + 2) * (j + 1)
  }
  /** Index of real cell (i, j) of patch p among the P N^2 unknowns. */
  unknown(p: number, i: number, j: number): number {
    return p * this.N * this.N + i + this.N * j
  }

  newCells(): Float64Array {
    return new Float64Array(this.P * this.cellBlock)
  }
  newXFaces(): Float64Array {
    return new Float64Array(this.P * this.xBlock)
  }
  newYFaces(): Float64Array {
    return new Float64Array(this.P * this.yBlock)
  }

  /** Fills the ghost cells of a scalar field from the neighbours (sec. 4.2, eqs. 23-26). */
  fillScalar(s: Float64Array): void {
    const f = this.fills
    if (f && f.kernels.holds(s)) {
      f.kernels.run(SURFACE_FILL_SCALAR, s, f.cellDst, f.cellSrc, f.cellDst.length)
      return
    }
    const { dst, src } = this.cellGhosts
    for (let t = 0; t < dst.length; t++) s[dst[t]] = s[src[t]]
  }

  /** Fills the ghost faces of a flux field from the neighbours' faces, turned by the transitions' Jacobians. */
  fillVector(fx: Float64Array, fy: Float64Array): void {
    const f = this.fills
    const nx = this.P * this.xBlock
    if (f && f.kernels.holds(fx) && f.kernels.holds(fy)) {
      f.kernels.run(SURFACE_FILL_VECTOR, fx, fy, f.faceDst, f.faceKind, f.faceSrc, f.faceSign, nx, f.faceDst.length)
      return
    }
    const { dst, srcKind, src, sign } = this.faceGhosts
    for (let t = 0; t < dst.length; t++) {
      const v = sign[t] * (srcKind[t] === 1 ? fx[src[t]] : fy[src[t]])
      const d = dst[t]
      if (d < nx) fx[d] = v
      else fy[d - nx] = v
    }
  }

  /**
   * Runs fillScalar and fillVector as kernel rows on `kernels` (surfaceGhostKernels.ts; the same
   * bits), its threads splitting the tables, for fields in its memory (others keep the loops
   * here). Refused, leaving the loops here, if a ghost's source is itself a ghost:
   * the entries would then depend on their order.
   */
  useKernels(kernels: KernelBackend): void {
    const nx = this.P * this.xBlock
    const cells = this.cellGhosts, faces = this.faceGhosts
    const cellIsGhost = new Uint8Array(this.P * this.cellBlock)
    for (const d of cells.dst) cellIsGhost[d] = 1
    for (const q of cells.src) if (cellIsGhost[q]) return
    const faceIsGhost = new Uint8Array(nx + this.P * this.yBlock)
    for (const d of faces.dst) faceIsGhost[d] = 1
    for (let t = 0; t < faces.src.length; t++) if (faceIsGhost[faces.srcKind[t] === 1 ? faces.src[t] : nx + faces.src[t]]) return
    const copy = <T extends Int32Array | Float64Array>(to: T, from: ArrayLike<number>): T => {
      to.set(from)
      return to
    }
    this.fills = {
      kernels,
      cellDst: copy(kernels.i32(cells.dst.length), cells.dst),
      cellSrc: copy(kernels.i32(cells.src.length), cells.src),
      faceDst: copy(kernels.i32(faces.dst.length), faces.dst),
      faceKind: copy(kernels.i32(faces.dst.length), faces.srcKind),
      faceSrc: copy(kernels.i32(faces.src.length), faces.src),
      faceSign: copy(kernels.f64(faces.sign.length), faces.sign),
    }
  }

  /** Makes the two copies of every face on a shared edge equal (their mean), and closes the open edges. */
  syncShared(fx: Float64Array, fy: Float64Array): void {
    this.closeOpenEdges(fx, fy)
    const { dst, srcKind, src, sign } = this.shared
    const nx = this.P * this.xBlock
    for (let t = 0; t < dst.length; t++) {
      const d = dst[t]
      const a = d < nx ? fx[d] : fy[d - nx]
      const b = sign[t] * (srcKind[t] === 1 ? fx[src[t]] : fy[src[t]])
      const m = 0.5 * (a + b)
      if (d < nx) fx[d] = m
      else fy[d - nx] = m
      if (srcKind[t] === 1) fx[src[t]] = sign[t] * m
      else fy[src[t]] = sign[t] * m
    }
  }

  /** Where the point (x1, x2) of patch p lands once walked into the patch that holds it. */
  private landing(p: number, x1: number, x2: number, pt: AtlasPoint): void {
    pt.patch = p
    pt.x1 = x1
    pt.x2 = x2
    pt.m[0] = 1; pt.m[1] = 0; pt.m[2] = 0; pt.m[3] = 1
    locate(this.atlas, pt)
  }

  private buildCellGhosts(): GhostTable {
    const { N, P, h } = this
    const dst: number[] = [], src: number[] = []
    const pt = newAtlasPoint()
    for (let p = 0; p < P; p++) {
      for (let j = -1; j <= N; j++) for (let i = -1; i <= N; i++) {
        if (i >= 0 && i < N && j >= 0 && j < N) continue
        this.landing(p, (i + 0.5) * h, (j + 0.5) * h, pt)
        const qi = Math.min(N - 1, Math.floor(pt.x1 * N)), qj = Math.min(N - 1, Math.floor(pt.x2 * N))
        dst.push(this.cell(p, i, j))
        src.push(this.cell(pt.patch, qi, qj))
      }
    }
    return { dst: Int32Array.from(dst), srcKind: new Uint8Array(dst.length), src: Int32Array.from(src), sign: new Int8Array(dst.length).fill(1) }
  }

  /**
   * The face of the neighbour at the landing point of a face sample of patch p (component
   * `comp`: 1 = u^1, 2 = u^2): the component it becomes (M e_comp has one non-zero entry, +-1)
   * and that face's index.
   */
  private faceSource(pt: AtlasPoint, comp: number): { kind: number; index: number; sign: number } {
    const { N } = this
    const m = pt.m
    const c0 = comp === 1 ? m[0] : m[1], c1 = comp === 1 ? m[2] : m[3]
    if (c0 !== 0) {
      const i = Math.round(pt.x1 * N), j = Math.min(N - 1, Math.floor(pt.x2 * N))
      return { kind: 1, index: this.xFace(pt.patch, i, j), sign: c0 }
    }
    const i = Math.min(N - 1, Math.floor(pt.x1 * N)), j = Math.round(pt.x2 * N)
    return { kind: 2, index: this.yFace(pt.patch, i, j), sign: c1 }
  }

  private buildFaceGhosts(): GhostTable {
    const { N, P, h } = this
    const dst: number[] = [], kind: number[] = [], src: number[] = [], sign: number[] = []
    const pt = newAtlasPoint()
    const nx = P * this.xBlock
    for (let p = 0; p < P; p++) {
      for (let j = -1; j <= N; j++) for (let i = -1; i <= N + 1; i++) {
        if (i >= 0 && i <= N && j >= 0 && j < N) continue
        this.landing(p, i * h, (j + 0.5) * h, pt)
        const s = this.faceSource(pt, 1)
        dst.push(this.xFace(p, i, j)); kind.push(s.kind); src.push(s.index); sign.push(s.sign)
      }
      for (let j = -1; j <= N + 1; j++) for (let i = -1; i <= N; i++) {
        if (i >= 0 && i < N && j >= 0 && j <= N) continue
        this.landing(p, (i + 0.5) * h, j * h, pt)
        const s = this.faceSource(pt, 2)
        dst.push(nx + this.yFace(p, i, j)); kind.push(s.kind); src.push(s.index); sign.push(s.sign)
      }
    }
    return { dst: Int32Array.from(dst), srcKind: Uint8Array.from(kind), src: Int32Array.from(src), sign: Int8Array.from(sign) }
  }

  /** Each shared edge face once: p's copy (dst) and the neighbour's (src, with the sign between them). */
  private buildShared(): GhostTable {
    const { N, P, h, atlas } = this
    const dst: number[] = [], kind: number[] = [], src: number[] = [], sign: number[] = []
    const pt = newAtlasPoint()
    const nx = P * this.xBlock
    // A point a quarter cell inside the neighbour, then back onto the edge: the neighbour's face.
    const add = (p: number, e: number, x1: number, x2: number, comp: number, own: number): void => {
      const q = atlas.neighbour[4 * p + e]
      if (q < p) return // once per pair (and nothing on an open edge)
      const out = 0.25 * h
      const dx = e === 1 ? out : e === 3 ? -out : 0, dy = e === 2 ? out : e === 0 ? -out : 0
      this.landing(p, x1 + dx, x2 + dy, pt)
      // Snap back onto the shared edge in the neighbour's frame.
      const f = atlas.neighbourEdge[4 * p + e]
      if (f === 0) pt.x2 = 0
      else if (f === 1) pt.x1 = 1
      else if (f === 2) pt.x2 = 1
      else pt.x1 = 0
      const s = this.faceSource(pt, comp)
      dst.push(own); kind.push(s.kind); src.push(s.index); sign.push(s.sign)
    }
    for (let p = 0; p < P; p++) {
      for (let j = 0; j < N; j++) {
        add(p, 3, 0, (j + 0.5) * h, 1, this.xFace(p, 0, j))
        add(p, 1, 1, (j + 0.5) * h, 1, this.xFace(p, N, j))
      }
      for (let i = 0; i < N; i++) {
        add(p, 0, (i + 0.5) * h, 0, 2, nx + this.yFace(p, i, 0))
        add(p, 2, (i + 0.5) * h, 1, 2, nx + this.yFace(p, i, N))
      }
    }
    return { dst: Int32Array.from(dst), srcKind: Uint8Array.from(kind), src: Int32Array.from(src), sign: Int8Array.from(sign) }
  }
}
