// Isosurface stuffing (F. Labelle and J. R. Shewchuk, "Isosurface stuffing: fast tetrahedral
// meshes with good dihedral angles", ACM Trans. Graph. 26(3), SIGGRAPH 2007): fills the
// region where a signed distance function is negative with tetrahedra whose dihedral angles
// are provably bounded, in the manner of Marching Cubes:
//  1. a background lattice of tetrahedra (bccLattice.ts: the BCC lattice; gradedLattice.ts:
//     its graded version over a balanced octree) and the sign of f at its vertices;
//  2. cut points where lattice edges cross the surface (cutPoints.ts, root finding on f);
//  3. lattice vertices too close to the surface warped onto it (warp.ts);
//  4. each background tetrahedron filled from the stencil table (stencils.ts).
//
// Sign convention: the input sdf(x, y, z) is NEGATIVE INSIDE and positive outside (the
// repository's convention, see signedDistance.ts and primitiveSdf.ts; the paper and the
// seed's f are positive inside). It must be continuous and 1-Lipschitz (|sdf| at most the
// distance to the zero set, as any true signed distance is): the graded mode relies on that
// to find where the surface can be.
//
// Parameters and bounds. The paper's abstract bounds the dihedral angles of the uniform mesh
// between 10.7 and 164.8 degrees, or with other parameters between 8.9 and 158.8. The
// parameter pairs are alpha_long = 0.24999, alpha_short = 0.41189 (our default; Zheng's
// isostuffer implementation of the paper uses 0.25 / 0.41189) and alpha_long = 0.21509,
// alpha_short = 0.35900 (used by Epic's TIsosurfaceStuffing, which cites the paper for
// them). Two points where this implementation had to choose (see warp.ts and the
// keepAllOnSurface option): the order of warping (a kernel of the violation digraph), and
// dropping background tetrahedra whose four vertices all end on the surface. On smooth and
// sharp shapes (sphere, torus, boxes, plates, unions, noisy level sets, the bunny) every
// tetrahedron we produced is well inside the bounds (about 12 to 156 degrees with either
// pair); a synthetic adversary that sets arbitrary signs and cut positions on every lattice
// edge reaches about 9.3 degrees with the default pair, in the pyramid stencil whose
// on-surface apex was warped along a red edge towards an inside vertex of the same
// tetrahedron while both cut points sit at their alpha thresholds (neither diagonal of the
// pyramid's base does better), so the bound is checked by tests on shapes rather than
// inherited from the proof.
//
// The graded mode (gradedLattice.ts) keeps every tetrahedron that the surface can touch a
// finest BCC one, so the same stencils, parameters and bounds apply there; its interior
// tetrahedra are the graded background shapes (BCC, bisected and quadrisected BCC,
// half-pyramids), with dihedral angles between 45 and 120 degrees. The paper grades closer
// to the surface (its octree only forces finest leaves around the octants the surface
// crosses) and analyses the stencils on graded tetrahedra too; we do not reproduce that
// analysis: our band of finest leaves is wider (about three spacings on each side of the
// surface), which costs tetrahedra near the surface but keeps the uniform case's argument.
import { EddyError } from '../../api/errors'
import { addBccVertices, bccGridForBounds, bccVertexCount, isBccOuterVertex, visitBccTets, type TetVisitor } from './bccLattice'
import { CutPoints, type ScalarField3 } from './cutPoints'
import { LatticeVertices } from './latticeVertices'
import { CODE_ALL_IN, CODE_ALL_ON, EDGE_A, EDGE_B, IN, ON, OUT, PARITY_PAIR, STENCIL_SLOTS, STENCIL_START, parityFromA } from './stencils'
import { warpVertices } from './warp'
import { evaluateLattice } from './evaluateLattice'
import type { SignedDistanceField } from '../signedDistance'
import { buildGradedLattice } from './gradedLattice'

/** Warping parameters of the paper's 10.7-164.8 degree bounds (the default). */
export const ALPHA_LONG = 0.24999
export const ALPHA_SHORT = 0.41189
export const DIHEDRAL_BOUNDS_DEG: Readonly<{ min: number; max: number }> = { min: 10.7, max: 164.8 }
/** The paper's alternative parameters, bounds 8.9-158.8 degrees. */
export const ALPHA_LONG_ALT = 0.21509
export const ALPHA_SHORT_ALT = 0.359
export const DIHEDRAL_BOUNDS_ALT_DEG: Readonly<{ min: number; max: number }> = { min: 8.9, max: 158.8 }

export interface StuffingOptions {
  /** Edge of the lattice cubes (the long edge length), the finest one in graded mode. */
  spacing: number
  /** A box that contains the whole region where sdf <= 0. */
  bounds: { min: ArrayLike<number>; max: ArrayLike<number> }
  /** 'uniform' (default): one lattice size everywhere; 'graded': fine at the surface, coarse inside. */
  mode?: 'uniform' | 'graded'
  /** Graded mode: the largest interior cube edge is spacing * 2^maxCoarsening (default 5). */
  maxCoarsening?: number
  alphaLong?: number
  alphaShort?: number
  /** Root finding stops when |sdf| <= rootTolerance * spacing (default 1e-9). */
  rootTolerance?: number
  /**
   * Keep a background tetrahedron whose four vertices all lie on the surface when sdf < 0 at
   * its centroid (default false: drop it, so its faces become boundary). Such a tetrahedron
   * is a background tetrahedron flattened by up to four warps; on ordinary shapes we
   * measured them down to 6 degrees and up to 171, outside the bounds, so by default they
   * go (they are rare: about one in a thousand output tetrahedra at coarse resolutions).
   */
  keepAllOnSurface?: boolean
}

export interface StuffingStats {
  latticeVertices: number
  cutPoints: number
  warpedVertices: number
  /** Background tetrahedra visited (all of the lattice's). */
  backgroundTets: number
  /** Output tetrahedra that are whole, unwarped background tetrahedra (interior shapes). */
  wholeTets: number
  /** Graded mode: octree leaves per level, finest first. */
  leavesPerLevel?: number[]
}

export interface StuffedMesh {
  /** Vertex positions, xyz. */
  positions: Float64Array
  /** Four vertex indices per tetrahedron, positively oriented (det[b - a, c - a, d - a] > 0). */
  tets: Int32Array
  /**
   * Per tetrahedron: the SHAPE_* code (bccLattice.ts) of an untouched background tetrahedron
   * (all four vertices inside, none moved), whose volume, face areas and normals are those of
   * the standard shape scaled by a power of two; 0 for tetrahedra made by the stencils or
   * with a warped vertex.
   */
  tetShape: Uint8Array
  /** 1 for vertices on the isosurface (cut points and warped or zero lattice vertices), the mesh boundary. */
  boundary: Uint8Array
  /** Per output vertex: the lattice vertex it is (possibly warped), or -1 for a cut point. */
  latticeVertex: Int32Array
  vertexCount: number
  tetCount: number
  stats: StuffingStats
}

/**
 * Fills { sdf < 0 } with tetrahedra by isosurface stuffing. See the file comment for the
 * sign convention and the guarantee. `shape` is the signed distance as a function, or a field
 * object (a mesh's MeshSdf), whose hinted queries then fill the lattice faster with the same
 * values. Throws INVALID_PARAM for bad options or when the shape reaches beyond `bounds`.
 */
export function stuffIsosurface(shape: ScalarField3 | SignedDistanceField, opts: StuffingOptions): StuffedMesh {
  // A field object (a mesh's MeshSdf) also serves the lattice's values with hints (evaluateLattice.ts).
  const field = typeof shape === 'function' ? null : shape
  const sdf: ScalarField3 = typeof shape === 'function' ? shape : (x, y, z) => shape.distance(x, y, z)
  const h = opts.spacing
  if (!(h > 0) || !Number.isFinite(h)) throw new EddyError('INVALID_PARAM', `isosurface stuffing: spacing must be a positive number, got ${h}`)
  const alphaLong = opts.alphaLong ?? ALPHA_LONG, alphaShort = opts.alphaShort ?? ALPHA_SHORT
  if (!(alphaLong >= 0 && alphaLong < 0.5 && alphaShort >= 0 && alphaShort < 0.5)) {
    throw new EddyError('INVALID_PARAM', 'isosurface stuffing: alphaLong and alphaShort must be in [0, 0.5)')
  }
  const tol = (opts.rootTolerance ?? 1e-9) * h
  const mode = opts.mode ?? 'uniform'
  if (mode !== 'uniform' && mode !== 'graded') throw new EddyError('INVALID_PARAM', `isosurface stuffing: unknown mode "${String(mode)}"`)

  let lat: LatticeVertices
  let visitAll: (v: TetVisitor) => void
  let isOuter: (id: number) => boolean
  let leavesPerLevel: number[] | undefined
  const graded = mode === 'graded' ? buildGradedLattice(sdf, opts.bounds.min, opts.bounds.max, h, opts.maxCoarsening ?? 5, field, !(opts.keepAllOnSurface ?? false)) : null
  if (graded === null || 'finestOnly' in graded) {
    // Uniform, asked for, or graded where the octree could not coarsen inside the shape or
    // too little to pay for itself (gradedLattice.ts GRADING_PAYS); the octree's leaves are
    // reported as the finest level's, the level the mesh has.
    if (graded !== null) leavesPerLevel = [graded.leaves, ...new Array<number>(opts.maxCoarsening ?? 5).fill(0)]
    const grid = bccGridForBounds(opts.bounds.min, opts.bounds.max, h)
    lat = new LatticeVertices(bccVertexCount(grid))
    addBccVertices(grid, lat)
    evaluateLattice(lat, sdf, field)
    visitAll = (v) => visitBccTets(grid, v, lat.label)
    isOuter = (id) => isBccOuterVertex(grid, id)
  } else {
    lat = graded.lattice
    visitAll = (v) => graded.visitTets(v)
    isOuter = (id) => graded.isOuter(id)
    leavesPerLevel = graded.leavesPerLevel
  }
  for (let v = 0; v < lat.count; v++) {
    if (lat.label[v] !== OUT && isOuter(v)) {
      throw new EddyError('INVALID_PARAM', 'isosurface stuffing: the shape reaches beyond the given bounds (sdf <= 0 on the lattice boundary)')
    }
  }
  const mesh = stuffLattice(sdf, lat, visitAll, { alphaLong, alphaShort, tolerance: tol, keepAllOnSurface: opts.keepAllOnSurface ?? false })
  if (leavesPerLevel) mesh.stats.leavesPerLevel = leavesPerLevel
  return mesh
}

/**
 * Stuffing over a lattice the caller built (vertices evaluated and labelled by
 * evaluateLattice, tetrahedra listed by visitAll): cut points, warping, stencils. The uniform
 * and graded modes above and the hybrid gas's band of tetrahedra around obstacles
 * (bandLattice.ts) all end here. `tolerance` is the root finding's |sdf| stop, in length units;
 * `pinned` vertices are never warped (warp.ts).
 */
export function stuffLattice(
  sdf: ScalarField3,
  lat: LatticeVertices,
  visitAll: (v: TetVisitor) => void,
  opts: { alphaLong: number; alphaShort: number; tolerance: number; keepAllOnSurface: boolean; pinned?: Uint8Array },
): StuffedMesh {
  const core = new StuffingCore(sdf, lat, opts.tolerance, opts.keepAllOnSurface)
  visitAll(core.cutter)
  const warped = warpVertices(lat, core.cuts, opts.alphaLong, opts.alphaShort, opts.pinned)
  visitAll(core)
  return core.result(warped)
}

/** Pass 1 visitor: cut points of every edge of a tetrahedron with both IN and OUT vertices. */
class CutCollector implements TetVisitor {
  constructor(private readonly core: StuffingCore) {}
  visit(a: number, b: number, c: number, d: number, _shape: number): void {
    const L = this.core.lat.label
    const la = L[a], lb = L[b], lc = L[c], ld = L[d]
    const mask = (1 << la) | (1 << lb) | (1 << lc) | (1 << ld)
    if ((mask & (1 << IN)) === 0 || (mask & (1 << OUT)) === 0) return
    const core = this.core
    if (la + lb === IN + OUT && la !== ON) core.cut(a, b)
    if (la + lc === IN + OUT && la !== ON) core.cut(a, c)
    if (la + ld === IN + OUT && la !== ON) core.cut(a, d)
    if (lb + lc === IN + OUT && lb !== ON) core.cut(b, c)
    if (lb + ld === IN + OUT && lb !== ON) core.cut(b, d)
    if (lc + ld === IN + OUT && lc !== ON) core.cut(c, d)
  }
}

/** Pass 2: fills every background tetrahedron from the stencil table and collects the output. */
class StuffingCore implements TetVisitor {
  readonly cuts = new CutPoints()
  readonly cutter: CutCollector
  private readonly vOut: Int32Array
  private cOut: Int32Array = new Int32Array(0)
  private positions = new Float64Array(3 * 1024)
  private boundary = new Uint8Array(1024)
  private fromLattice = new Int32Array(1024)
  private tets = new Int32Array(4 * 4096)
  private shapes = new Uint8Array(4096)
  private nv = 0
  private nt = 0
  private visited = 0
  private whole = 0
  private readonly local = new Int32Array(4)
  private readonly slotId = new Int32Array(10)

  constructor(private readonly sdf: ScalarField3, readonly lat: LatticeVertices, private readonly tol: number, private readonly keepAllOn: boolean) {
    this.cutter = new CutCollector(this)
    this.vOut = new Int32Array(lat.count).fill(-1)
  }

  cut(a: number, b: number): void {
    this.cuts.ensure(this.lat, this.sdf, a, b, this.tol)
  }

  visit(a: number, b: number, c: number, d: number, shape: number): void {
    this.visited++
    const L = this.lat.label
    const code = L[a] + 3 * L[b] + 9 * L[c] + 27 * L[d]
    if (code === CODE_ALL_IN) {
      this.pushTet(this.vertexOut(a), this.vertexOut(b), this.vertexOut(c), this.vertexOut(d), shape)
      this.whole++
      return
    }
    let entry = 4 * code
    const start = STENCIL_START
    if (start[entry] === start[entry + 1]) return // no IN vertex: nothing inside
    if (code === CODE_ALL_ON && !(this.keepAllOn && this.centroidInside(a, b, c, d))) return
    const pair = PARITY_PAIR[code]
    if (pair !== 0) entry += this.parityBits(pair, a, b, c, d)
    const v = this.local
    v[0] = a; v[1] = b; v[2] = c; v[3] = d
    const ids = this.slotId
    ids.fill(-1)
    const slots = STENCIL_SLOTS
    for (let t = start[entry], end = start[entry + 1]; t < end; t++) {
      const o = 4 * t
      this.pushTet(this.slot(slots[o], ids), this.slot(slots[o + 1], ids), this.slot(slots[o + 2], ids), this.slot(slots[o + 3], ids), 0)
    }
  }

  /** Parity-rule bits (stencils.ts) for the quadrilaterals on the IN-IN long edge `pair`. */
  private parityBits(pair: number, a: number, b: number, c: number, d: number): number {
    const L = this.lat.label, ic = this.lat.ic
    let A: number, B: number, N0: number, N1: number
    if (pair === 1) { A = a; B = b; N0 = c; N1 = d } else { A = c; B = d; N0 = a; N1 = b }
    const corner = pair === 2 ? 1 : 0
    let bits = 0
    const ax = ic[3 * A], ay = ic[3 * A + 1], az = ic[3 * A + 2]
    const bx = ic[3 * B], by = ic[3 * B + 1], bz = ic[3 * B + 2]
    if (L[N0] === OUT && !parityFromA(ax, ay, az, bx, by, bz, ic[3 * N0], ic[3 * N0 + 1], ic[3 * N0 + 2], corner)) bits |= 1
    if (L[N1] === OUT && !parityFromA(ax, ay, az, bx, by, bz, ic[3 * N1], ic[3 * N1 + 1], ic[3 * N1 + 2], corner)) bits |= 2
    return bits
  }

  private centroidInside(a: number, b: number, c: number, d: number): boolean {
    const p = this.lat.pos
    const x = 0.25 * (p[3 * a] + p[3 * b] + p[3 * c] + p[3 * d])
    const y = 0.25 * (p[3 * a + 1] + p[3 * b + 1] + p[3 * c + 1] + p[3 * d + 1])
    const z = 0.25 * (p[3 * a + 2] + p[3 * b + 2] + p[3 * c + 2] + p[3 * d + 2])
    return this.sdf(x, y, z) < 0
  }

  /** Output vertex of stencil slot s (0..3 lattice vertex, 4..9 cut point) of the current tetrahedron. */
  private slot(s: number, ids: Int32Array): number {
    if (ids[s] >= 0) return ids[s]
    const v = this.local
    let id: number
    if (s < 4) id = this.vertexOut(v[s])
    else {
      const e = s - 4
      const c = this.cuts.get(v[EDGE_A[e]], v[EDGE_B[e]])
      if (c < 0) throw new EddyError('INTERNAL', 'isosurface stuffing: a stencil asked for a cut point that was never computed')
      id = this.cutOut(c)
    }
    ids[s] = id
    return id
  }

  private vertexOut(v: number): number {
    let id = this.vOut[v]
    if (id < 0) {
      const p = this.lat.pos
      id = this.pushVertex(p[3 * v], p[3 * v + 1], p[3 * v + 2], this.lat.label[v] === ON ? 1 : 0)
      this.vOut[v] = id
      this.fromLattice[id] = v
    }
    return id
  }

  private cutOut(c: number): number {
    if (this.cOut.length < this.cuts.count) {
      const grown = new Int32Array(Math.max(this.cuts.count, 2 * this.cOut.length)).fill(-1)
      grown.set(this.cOut)
      this.cOut = grown
    }
    let id = this.cOut[c]
    if (id < 0) {
      const p = this.cuts.pos
      id = this.pushVertex(p[3 * c], p[3 * c + 1], p[3 * c + 2], 1)
      this.cOut[c] = id
      this.fromLattice[id] = -1
    }
    return id
  }

  private pushVertex(x: number, y: number, z: number, onSurface: number): number {
    const id = this.nv
    if (id === this.boundary.length) {
      const pos = new Float64Array(2 * this.positions.length); pos.set(this.positions); this.positions = pos
      const bd = new Uint8Array(2 * this.boundary.length); bd.set(this.boundary); this.boundary = bd
      const fl = new Int32Array(2 * this.fromLattice.length); fl.set(this.fromLattice); this.fromLattice = fl
    }
    this.positions[3 * id] = x; this.positions[3 * id + 1] = y; this.positions[3 * id + 2] = z
    this.boundary[id] = onSurface
    this.nv = id + 1
    return id
  }

  private pushTet(a: number, b: number, c: number, d: number, shape: number): void {
    const o = 4 * this.nt
    if (o === this.tets.length) {
      const t = new Int32Array(2 * this.tets.length); t.set(this.tets); this.tets = t
      const s = new Uint8Array(2 * this.shapes.length); s.set(this.shapes); this.shapes = s
    }
    const t = this.tets
    t[o] = a; t[o + 1] = b; t[o + 2] = c; t[o + 3] = d
    this.shapes[this.nt] = shape
    this.nt++
  }

  result(warped: number): StuffedMesh {
    return {
      positions: this.positions.slice(0, 3 * this.nv),
      tets: this.tets.slice(0, 4 * this.nt),
      tetShape: this.shapes.slice(0, this.nt),
      boundary: this.boundary.slice(0, this.nv),
      latticeVertex: this.fromLattice.slice(0, this.nv),
      vertexCount: this.nv,
      tetCount: this.nt,
      stats: {
        latticeVertices: this.lat.count,
        cutPoints: this.cuts.count,
        warpedVertices: warped,
        backgroundTets: this.visited,
        wholeTets: this.whole,
      },
    }
  }
}
