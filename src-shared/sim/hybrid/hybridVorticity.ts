// Cell-centred velocity, velocity gradient, vorticity and vorticity confinement on the hybrid
// mesh (hybridMesh.ts; Feldman, O'Brien, Klingner 2005, seed 000), for the body forces of
// section 3.2. The velocity state is one normal velocity z_f per face (section 3.1), so every
// cell quantity here is reconstructed from it:
//
// - Cell velocity: the least-squares u_c with n_i . u_c = z_i over the cell's own faces (the
//   constant fit of eq. 7, N u = z, without the moving weights of eq. 9: the faces are all at
//   about the same distance from the centre). Rows are weighted by the face area A_i, so a
//   transition hexahedron's side split into four triangles (Figure 3) counts like the square it
//   replaces: u_c = M_c^-1 sum_i A_i n_i z_i, M_c = sum_i A_i n_i n_i^T. For a box M_c = 2 h^2 I
//   and u_c is the mean of opposite faces (Carlson 2004, eq. 6, as the grid smoke does). Every
//   cell reproduces a uniform field exactly (its rows are then consistent). Per step this is one multiply-add per
//   cell-face entry: the vectors A_i M_c^-1 n_i are precomputed once per mesh.
// - Gradient of a cell field s: weighted least squares over the face-neighbour cells,
//   min sum_k w_k (d_k . g - (s_k - s_c))^2 with d_k = x_k - x_c and w_k = A_k / |d_k|^2 (the
//   area of the shared face, for the same reason as above; the 1/|d|^2 makes every row a
//   difference quotient). For a box among boxes the normal matrix is 2 h^2 I and g is the
//   central difference (s_+ - s_-) / 2h per axis, the grid smoke's vorticitySlab. Affine fields
//   are reproduced exactly wherever the neighbours span space. Again precomputed: grad s_c =
//   sum_k W_k (s_k - s_c) with W_k = M^+ w_k d_k.
// - Walls, obstacles and open sides: a ONE-SIDED fit (the boundary face is simply not a row).
//   This is what vorticitySlab does at the grid border, and the face's own normal velocity is no
//   help: it fixes one component at the wall and says nothing of the tangential slip, whose
//   variation is exactly the wall vorticity. Where the face neighbours alone are too flat a
//   stencil (a tetrahedron on a wall or an obstacle has three, nearly coplanar:
//   GRADIENT_RING_FLOOR) the fit takes in their face neighbours too, still one-sided. Directions
//   nothing resolves (a domain one cell thick) are dropped by the pseudo-inverse M^+ (eigenvalues
//   below GRADIENT_RANK_FLOOR of the largest), giving a zero derivative there, as
//   vorticitySlab's iz = 0.
// - Tetrahedra: the fit over a tetrahedron's own four faces is exact for uniform flow but not
//   for linear flow (its face centroids are not placed symmetrically about its centroid, as a
//   box's are), and the gradient, differencing neighbours a third of an edge apart, turns an
//   O(h |grad u|) velocity error into an O(|grad u|) one: a rigid rotation's vorticity came out
//   22% off (median) in the tetrahedra. So the tetrahedra's velocities get a deferred
//   correction: refit with the linear part of the flow between the centre and each face taken
//   out, z_i - n_i . G (x_i - x_c), G the current gradient, then a new gradient
//   (correctTetVelocities; TET_VELOCITY_CORRECTIONS passes, under-relaxed). A uniform field is
//   untouched (G = 0), linear fields become a fixed point, boxes are untouched.
// - Vorticity omega = curl u from the gradient; confinement (Fedkiw, Stam, Jensen 2001; Selle,
//   Rasmussen, Fedkiw 2005, sec. 3) f = eps h (N x omega), N = eta / (|eta| + 1e-3 |omega| / h),
//   eta = grad |omega| by the same least squares, h the cell's mean edge length (the grid's dx
//   for a hexahedron): the smoke family's confinementForceSlab cell by cell, same regulariser.
import { EddyError } from '../../api/errors'
import { kernelCopy, TS_KERNELS } from '../core/kernelBackend'
import type { KernelBackend } from '../core/kernelTypes'
import { FACE_INTERIOR, type HybridMesh } from './hybridMesh'
import { cellVelocityRows, correctTetRows, DIFFERING_BLOCK, HYBRID_CELL_VELOCITIES, HYBRID_CONFINEMENT, HYBRID_DIFFERING_WORDS, scalarGradientAt, HYBRID_CORRECT_TETS, HYBRID_VELOCITY_GRADIENTS, HYBRID_VORTICITY, velocityGradientRows, vorticityRows } from './hybridVorticityKernels'

/** Gradient fits drop the directions whose normal-matrix eigenvalue is below this x the largest. */
export const GRADIENT_RANK_FLOOR = 1e-6
/**
 * A one-ring gradient fit whose smallest/largest eigenvalue ratio is below this takes in the
 * second ring. A box has 1 inside and 0.5 at a wall or in a corner (one-sided, as the grid);
 * interior tetrahedra are above 0.1 all but a handful; a tetrahedron on a wall or an obstacle
 * (three neighbours, nearly coplanar) is mostly below 0.05, and there cell-velocity errors would
 * be amplified 5-40x into the gradient.
 */
export const GRADIENT_RING_FLOOR = 0.1
/** Deferred corrections of the tetrahedra's cell velocities per compute() (see the file comment). */
export const TET_VELOCITY_CORRECTIONS = 2
/**
 * Under-relaxation of each correction. Measured on the stuffed (BCC) tetrahedra: with full
 * steps the lattice's error alternates in sign and shrinks only by 2/3 per correction (the
 * gradient of the correction is -2/3 of the error it corrects), so a step of 1/(1 + 2/3)
 * removes that mode at once (rigid rotation, all tetrahedra at 24^3, two corrections: median
 * vorticity error 9.9% with full steps, 0.0% with this one; 22% with none).
 */
export const TET_VELOCITY_RELAXATION = 0.6
/** Smallest eigenvalue ratio of a cell's face-normal matrix M_c accepted (else the cell is degenerate). */
export const VELOCITY_CONDITION_FLOOR = 1e-9

/** The per-mesh precomputation (see the file comment). */
export interface HybridCellOperators {
  readonly cellCount: number
  /** Per cell-face entry (mesh.cellFaces order): A_i M_c^-1 n_i (3 each), so u_c = sum_i velocityWeight_i z_i. */
  readonly velocityWeight: Float64Array
  /** The gradient stencil of cell c: gradientCells[gradientStart[c] .. gradientStart[c + 1] - 1]. */
  readonly gradientStart: Int32Array
  readonly gradientCells: Int32Array
  /** W_k = M^+ w_k d_k (3 per stencil entry): grad s_c = sum_k W_k (s_k - s_c). */
  readonly gradientWeight: Float64Array
  /** Per cell: how many directions its gradient fit resolves (3 unless the domain is one cell thick). */
  readonly gradientRank: Uint8Array
  /** Per cell: 1 when its one-ring fit was too flat and the second ring joined (GRADIENT_RING_FLOOR). */
  readonly gradientTwoRing: Uint8Array
}

/**
 * Pseudo-inverse of the symmetric 3x3 matrix a (row-major, 9 doubles; overwritten) into out[o..o+8]
 * by cyclic Jacobi rotations (Numerical Recipes' jacobi): the eigenpairs (lambda_i, v_i) give
 * sum v_i v_i^T / lambda_i over lambda_i >= floor x the largest. v: 9 doubles of scratch.
 * Returns the number of eigenvalues kept and leaves the smallest/largest ratio in v[0].
 */
function pseudoInverse3(a: Float64Array, floor: number, out: Float64Array, o: number, v: Float64Array): number {
  v.fill(0)
  v[0] = v[4] = v[8] = 1
  for (let sweep = 0; sweep < 50; sweep++) {
    const off = a[1] * a[1] + a[2] * a[2] + a[5] * a[5]
    const diag = a[0] * a[0] + a[4] * a[4] + a[8] * a[8]
    if (!(off > 1e-32 * diag)) break
    for (let pq = 0; pq < 3; pq++) {
      const p = pq === 2 ? 1 : 0
      const q = pq === 0 ? 1 : 2
      const apq = a[3 * p + q]
      if (apq === 0) continue
      const theta = (a[3 * q + q] - a[3 * p + p]) / (2 * apq)
      const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1))
      const c = 1 / Math.sqrt(t * t + 1)
      const s = t * c
      // a <- P^T a P and v <- v P with P the rotation in the (p, q) plane.
      for (let k = 0; k < 3; k++) {
        const akp = a[3 * k + p], akq = a[3 * k + q]
        a[3 * k + p] = c * akp - s * akq
        a[3 * k + q] = s * akp + c * akq
        const vkp = v[3 * k + p], vkq = v[3 * k + q]
        v[3 * k + p] = c * vkp - s * vkq
        v[3 * k + q] = s * vkp + c * vkq
      }
      for (let k = 0; k < 3; k++) {
        const apk = a[3 * p + k], aqk = a[3 * q + k]
        a[3 * p + k] = c * apk - s * aqk
        a[3 * q + k] = s * apk + c * aqk
      }
    }
  }
  const l0 = a[0], l1 = a[4], l2 = a[8]
  const top = Math.max(l0, l1, l2)
  for (let i = 0; i < 9; i++) out[o + i] = 0
  let rank = 0
  for (let e = 0; e < 3; e++) {
    const l = e === 0 ? l0 : e === 1 ? l1 : l2
    if (!(top > 0) || !(l >= floor * top)) continue
    rank++
    const x = v[e], y = v[3 + e], z = v[6 + e]
    const inv = 1 / l
    out[o] += x * x * inv; out[o + 1] += x * y * inv; out[o + 2] += x * z * inv
    out[o + 3] += y * x * inv; out[o + 4] += y * y * inv; out[o + 5] += y * z * inv
    out[o + 6] += z * x * inv; out[o + 7] += z * y * inv; out[o + 8] += z * z * inv
  }
  v[0] = top > 0 ? Math.min(l0, l1, l2) / top : 0
  return rank
}

/**
 * Gathers cell c's gradient stencil into cells[0 ..] with the linking face area in area[]:
 * its face neighbours across interior faces, and with twoRing their face neighbours too
 * (each once, c left out; a second-ring cell carries the area of the face it was reached
 * through). stamp: per-cell marks (stamp[k] === mark means taken). Returns the count.
 */
function gatherStencil(mesh: HybridMesh, c: number, twoRing: boolean, cells: Int32Array, area: Float64Array, stamp: Int32Array, mark: number): number {
  const { cellFaceStart, cellFaces, faceCellA, faceCellB, faceKind, faceArea } = mesh
  let n = 0
  stamp[c] = mark
  for (let i = cellFaceStart[c]; i < cellFaceStart[c + 1]; i++) {
    const f = cellFaces[i]
    if (faceKind[f] !== FACE_INTERIOR) continue
    const k = faceCellA[f] === c ? faceCellB[f] : faceCellA[f]
    if (stamp[k] === mark) continue
    stamp[k] = mark
    cells[n] = k; area[n++] = faceArea[f]
  }
  if (!twoRing) return n
  const first = n
  for (let q = 0; q < first; q++) {
    const k = cells[q]
    for (let i = cellFaceStart[k]; i < cellFaceStart[k + 1]; i++) {
      const f = cellFaces[i]
      if (faceKind[f] !== FACE_INTERIOR) continue
      const l = faceCellA[f] === k ? faceCellB[f] : faceCellA[f]
      if (stamp[l] === mark) continue
      stamp[l] = mark
      cells[n] = l; area[n++] = faceArea[f]
    }
  }
  return n
}

/** The weighted normal matrix sum w d d^T (w = A / |d|^2) of a stencil into M (row-major). */
function stencilMatrix(mesh: HybridMesh, c: number, cells: Int32Array, area: Float64Array, n: number, M: Float64Array): void {
  const centre = mesh.cellCentre
  const cx = centre[3 * c], cy = centre[3 * c + 1], cz = centre[3 * c + 2]
  M.fill(0)
  for (let q = 0; q < n; q++) {
    const k = cells[q]
    const dx = centre[3 * k] - cx, dy = centre[3 * k + 1] - cy, dz = centre[3 * k + 2] - cz
    const w = area[q] / (dx * dx + dy * dy + dz * dz)
    M[0] += w * dx * dx; M[1] += w * dx * dy; M[2] += w * dx * dz
    M[4] += w * dy * dy; M[5] += w * dy * dz; M[8] += w * dz * dz
  }
  M[3] = M[1]; M[6] = M[2]; M[7] = M[5]
}

/** Builds the cell velocity and gradient weights of a mesh (once per mesh; see the file comment). */
export function buildHybridCellOperators(mesh: HybridMesh): HybridCellOperators {
  const { cellCount, cellFaceStart, cellFaces, faceArea, faceNormal, cellCentre } = mesh
  const entries = cellFaces.length
  const velocityWeight = new Float64Array(3 * entries)
  const gradientRank = new Uint8Array(cellCount)
  const gradientTwoRing = new Uint8Array(cellCount)
  const M = new Float64Array(9), inv = new Float64Array(9), v = new Float64Array(9)
  for (let c = 0; c < cellCount; c++) {
    const i0 = cellFaceStart[c], i1 = cellFaceStart[c + 1]
    // Cell velocity: M_c = sum A n n^T over the cell's faces.
    M.fill(0)
    for (let i = i0; i < i1; i++) {
      const f = cellFaces[i], A = faceArea[f]
      const nx = faceNormal[3 * f], ny = faceNormal[3 * f + 1], nz = faceNormal[3 * f + 2]
      M[0] += A * nx * nx; M[1] += A * nx * ny; M[2] += A * nx * nz
      M[4] += A * ny * ny; M[5] += A * ny * nz; M[8] += A * nz * nz
    }
    M[3] = M[1]; M[6] = M[2]; M[7] = M[5]
    if (pseudoInverse3(M, VELOCITY_CONDITION_FLOOR, inv, 0, v) < 3) {
      throw new EddyError('INVALID_PARAM', `hybrid vorticity: cell ${c} is degenerate (its face normals do not span space, eigenvalue ratio ${v[0].toExponential(2)}); the cell velocity is undefined`, { cell: c })
    }
    for (let i = i0; i < i1; i++) {
      const f = cellFaces[i], A = faceArea[f]
      const nx = faceNormal[3 * f], ny = faceNormal[3 * f + 1], nz = faceNormal[3 * f + 2]
      velocityWeight[3 * i] = A * (inv[0] * nx + inv[1] * ny + inv[2] * nz)
      velocityWeight[3 * i + 1] = A * (inv[3] * nx + inv[4] * ny + inv[5] * nz)
      velocityWeight[3 * i + 2] = A * (inv[6] * nx + inv[7] * ny + inv[8] * nz)
    }
  }

  // Gradient stencils: the face neighbours, plus the second ring where they are too flat.
  const stamp = new Int32Array(cellCount).fill(-1)
  let scratchCells = new Int32Array(64), scratchArea = new Float64Array(64)
  const gradientStart = new Int32Array(cellCount + 1)
  let cap = entries + 64 // one-ring stencils fit; a two-ring cell may grow it
  let gradientCells = new Int32Array(cap)
  let gradientWeight = new Float64Array(3 * cap)
  let at = 0
  for (let c = 0; c < cellCount; c++) {
    // Worst case for this cell: its faces' neighbours' faces.
    let bound = 0
    for (let i = cellFaceStart[c]; i < cellFaceStart[c + 1]; i++) {
      const f = cellFaces[i]
      const k = mesh.faceCellA[f] === c ? mesh.faceCellB[f] : mesh.faceCellA[f]
      bound += 1 + (k >= 0 ? cellFaceStart[k + 1] - cellFaceStart[k] : 0)
    }
    if (bound > scratchCells.length) { scratchCells = new Int32Array(2 * bound); scratchArea = new Float64Array(2 * bound) }
    let n = gatherStencil(mesh, c, false, scratchCells, scratchArea, stamp, 2 * c)
    stencilMatrix(mesh, c, scratchCells, scratchArea, n, M)
    let rank = pseudoInverse3(M, GRADIENT_RANK_FLOOR, inv, 0, v)
    if (v[0] < GRADIENT_RING_FLOOR) {
      n = gatherStencil(mesh, c, true, scratchCells, scratchArea, stamp, 2 * c + 1)
      stencilMatrix(mesh, c, scratchCells, scratchArea, n, M)
      rank = pseudoInverse3(M, GRADIENT_RANK_FLOOR, inv, 0, v)
      gradientTwoRing[c] = 1
    }
    gradientRank[c] = rank
    if (at + n > cap) {
      cap = Math.max(2 * cap, at + n)
      const gc = new Int32Array(cap); gc.set(gradientCells); gradientCells = gc
      const gw = new Float64Array(3 * cap); gw.set(gradientWeight); gradientWeight = gw
    }
    const cx = cellCentre[3 * c], cy = cellCentre[3 * c + 1], cz = cellCentre[3 * c + 2]
    for (let q = 0; q < n; q++) {
      const k = scratchCells[q]
      const dx = cellCentre[3 * k] - cx, dy = cellCentre[3 * k + 1] - cy, dz = cellCentre[3 * k + 2] - cz
      const w = scratchArea[q] / (dx * dx + dy * dy + dz * dz)
      gradientCells[at] = k
      gradientWeight[3 * at] = w * (inv[0] * dx + inv[1] * dy + inv[2] * dz)
      gradientWeight[3 * at + 1] = w * (inv[3] * dx + inv[4] * dy + inv[5] * dz)
      gradientWeight[3 * at + 2] = w * (inv[6] * dx + inv[7] * dy + inv[8] * dz)
      at++
    }
    gradientStart[c + 1] = at
  }
  return {
    cellCount, velocityWeight, gradientStart, gradientCells: gradientCells.slice(0, at), gradientWeight: gradientWeight.slice(0, 3 * at), gradientRank, gradientTwoRing,
  }
}

function checkLength(what: string, a: ArrayLike<number>, n: number): void {
  if (a.length < n) throw new EddyError('INVALID_PARAM', `hybrid vorticity: ${what} has ${a.length} values, needs ${n}`)
}

/** The operators must be this mesh's (a remesh makes new ones). */
function checkOps(mesh: HybridMesh, ops: HybridCellOperators): void {
  if (ops.cellCount !== mesh.cellCount || ops.velocityWeight.length !== 3 * mesh.cellFaces.length) {
    throw new EddyError('INVALID_PARAM', `hybrid vorticity: the cell operators were built for another mesh (${ops.cellCount} cells, this one has ${mesh.cellCount})`)
  }
}

/** Cell velocities (xyz per cell, m/s) from the face normal velocities z (see the file comment). */
export function hybridCellVelocities(mesh: HybridMesh, ops: HybridCellOperators, z: Float64Array, out: Float64Array): void {
  checkOps(mesh, ops)
  checkLength('the face velocity', z, mesh.faceCount)
  checkLength('the cell velocity output', out, 3 * mesh.cellCount)
  cellVelocityRows(mesh.cellFaceStart, mesh.cellFaces, ops.velocityWeight, z, out, 0, mesh.cellCount)
}

/** Gradient (xyz per cell) of the cell scalar s (one value per cell) by the least-squares weights. */
export function hybridCellGradient(mesh: HybridMesh, ops: HybridCellOperators, s: Float64Array, out: Float64Array): void {
  checkOps(mesh, ops)
  checkLength('the scalar', s, mesh.cellCount)
  checkLength('the gradient output', out, 3 * mesh.cellCount)
  const { gradientStart, gradientCells, gradientWeight: W } = ops
  for (let c = 0; c < mesh.cellCount; c++) scalarGradientAt(gradientStart, gradientCells, W, s, c, out, 3 * c)
}

/**
 * Velocity gradient per cell from cell velocities u (xyz per cell): out[9c + 3r + q] = du_r/dx_q
 * (1/s), the layout of the grid smoke's cellVelocityGradient.
 */
export function hybridCellVelocityGradients(mesh: HybridMesh, ops: HybridCellOperators, u: Float64Array, out: Float64Array): void {
  checkOps(mesh, ops)
  checkLength('the cell velocity', u, 3 * mesh.cellCount)
  checkLength('the velocity gradient output', out, 9 * mesh.cellCount)
  velocityGradientRows(ops.gradientStart, ops.gradientCells, ops.gradientWeight, u, out, 0, mesh.cellCount)
}

/**
 * The deferred correction of the tetrahedra's cell velocities (see the file comment): with
 * G the current gradient (9 per cell), u' = sum_i velocityWeight_i (z_i - n_i . G_c (x_i - x_c))
 * over the cell's faces and u_c += relax (u' - u_c), for the tetrahedra only (cells
 * hexCount ..): a box's correction is identically zero (opposite faces cancel, and a split
 * side's triangles have the square's area-weighted centroid), so boxes keep their plain fit.
 */
export function correctTetVelocities(mesh: HybridMesh, ops: HybridCellOperators, z: Float64Array, grad: Float64Array, out: Float64Array, relax = 1): void {
  checkOps(mesh, ops)
  checkLength('the face velocity', z, mesh.faceCount)
  checkLength('the velocity gradient', grad, 9 * mesh.cellCount)
  checkLength('the cell velocity output', out, 3 * mesh.cellCount)
  correctTetRows(mesh.cellFaceStart, mesh.cellFaces, mesh.faceNormal, mesh.faceCentre, mesh.cellCentre, ops.velocityWeight, z, grad, out, relax, mesh.hexCount, 0, mesh.tetCount)
}

/** omega = curl u (xyz per cell) and |omega| from the velocity gradients (9 per cell). */
export function hybridVorticityFromGradients(cellCount: number, grad: Float64Array, omega: Float64Array, magnitude: Float64Array): void {
  vorticityRows(grad, omega, magnitude, 0, cellCount)
}

/**
 * The smoke family's vorticity confinement on the hybrid mesh: owns the cell fields of one mesh.
 * compute(z) fills velocity, gradient, omega and magnitude; addConfinement then adds
 * eps h (N x omega) to per-cell force arrays, which addCellForcesToFaces (hybridForces.ts,
 * eq. 5) puts on the faces.
 */
export class HybridVorticity {
  readonly ops: HybridCellOperators
  /** Cell velocity, xyz per cell (m/s). */
  readonly velocity: Float64Array
  /** Velocity gradient, 9 per cell: du_r/dx_q at 9c + 3r + q (1/s). */
  readonly gradient: Float64Array
  /** Vorticity, xyz per cell (1/s), and its magnitude. */
  readonly omega: Float64Array
  readonly magnitude: Float64Array
  /** A per-cell confinement strength copied where the kernels read it (addConfinement's 'field' mode on WebAssembly). */
  private fieldCopy: Float64Array | null = null
  /**
   * The face velocities and corrections of the last compute(), bit for bit: a substep asks for
   * the same field several times (its speed limit, the guard after it, the next substep's
   * limit, the vortex particles' forces and the confinement), and each asks once.
   */
  private readonly lastZ: Float64Array
  /** Per block of faces, how many differ from lastZ (HYBRID_DIFFERING_WORDS' partials). */
  private readonly differing: Float64Array
  private lastCorrections = -1
  /** plainVelocities' output, made on first use. */
  private plain: Float64Array | null = null

  /** Where compute() runs, and the arrays its rows read there (copies in the WebAssembly memory; the mesh's and ops' own on TypeScript). */
  private readonly kernels: KernelBackend
  private readonly k: {
    cellFaceStart: Int32Array; cellFaces: Int32Array; faceNormal: Float64Array; faceCentre: Float64Array; cellCentre: Float64Array
    velocityWeight: Float64Array; gradientStart: Int32Array; gradientCells: Int32Array; gradientWeight: Float64Array; meanEdge: Float64Array
    /** compute()'s face velocities (a copy on WebAssembly). */
    z: Float64Array | null
  }

  /** kernels: where compute() runs (its outputs are allocated there). */
  constructor(readonly mesh: HybridMesh, ops?: HybridCellOperators, kernels: KernelBackend = TS_KERNELS) {
    const n = mesh.cellCount
    this.ops = ops ?? buildHybridCellOperators(mesh)
    this.kernels = kernels
    const copies = kernels.kind !== 'ts'
    const own = <T extends Float64Array | Int32Array>(a: T): T => kernelCopy(kernels, a)
    const o = this.ops
    this.k = {
      cellFaceStart: own(mesh.cellFaceStart), cellFaces: own(mesh.cellFaces), faceNormal: own(mesh.faceNormal), faceCentre: own(mesh.faceCentre),
      cellCentre: own(mesh.cellCentre), velocityWeight: own(o.velocityWeight), gradientStart: own(o.gradientStart), gradientCells: own(o.gradientCells),
      gradientWeight: own(o.gradientWeight), meanEdge: own(mesh.cellMeanEdge), z: copies ? kernels.f64(mesh.faceCount) : null,
    }
    this.velocity = kernels.f64(3 * n)
    this.gradient = kernels.f64(9 * n)
    this.omega = kernels.f64(3 * n)
    this.magnitude = kernels.f64(n)
    this.lastZ = kernels.f64(mesh.faceCount)
    this.differing = kernels.f64(Math.ceil(mesh.faceCount / DIFFERING_BLOCK))
  }

  /**
   * Cell velocity, its gradient and the vorticity from the face normal velocities z, with
   * `corrections` deferred corrections of the tetrahedra's velocities (0: the plain fit), each
   * pass a kernel row over the cells (hybridVorticityKernels.ts).
   */
  compute(z: Float64Array, corrections = TET_VELOCITY_CORRECTIONS): void {
    const { mesh, kernels, k } = this
    checkLength('the face velocity', z, mesh.faceCount)
    if (this.unchanged(z, corrections)) return
    // The caller's z when the kernels hold it, else a copy where they do.
    const zk = k.z === null || kernels.holds(z) ? z : k.z
    if (zk !== z) zk.set(z.subarray(0, mesh.faceCount))
    const n = mesh.cellCount
    kernels.run(HYBRID_CELL_VELOCITIES, k.cellFaceStart, k.cellFaces, k.velocityWeight, zk, this.velocity, n)
    kernels.run(HYBRID_VELOCITY_GRADIENTS, k.gradientStart, k.gradientCells, k.gradientWeight, this.velocity, this.gradient, n)
    for (let c = 0; c < corrections && mesh.tetCount > 0; c++) {
      kernels.run(HYBRID_CORRECT_TETS, k.cellFaceStart, k.cellFaces, k.faceNormal, k.faceCentre, k.cellCentre, k.velocityWeight, zk, this.gradient, this.velocity, TET_VELOCITY_RELAXATION, mesh.hexCount, mesh.tetCount)
      kernels.run(HYBRID_VELOCITY_GRADIENTS, k.gradientStart, k.gradientCells, k.gradientWeight, this.velocity, this.gradient, n)
    }
    kernels.run(HYBRID_VORTICITY, this.gradient, this.omega, this.magnitude, n)
  }

  /**
   * The plain cell velocities of z (the area-weighted constant fit over each cell's own faces,
   * without the tetrahedra's deferred corrections), xyz per cell, one row over the cells into a
   * buffer of their own (compute()'s results are untouched). What the substep's speed limit and
   * the resampled hexahedra need: a hexahedron's velocity is this fit whatever the corrections
   * (they change tetrahedra only), and a speed limit needs no gradient, which compute() would
   * form three times after every projection only to be thrown away.
   */
  plainVelocities(z: Float64Array): Float64Array {
    const { mesh, kernels, k } = this
    checkLength('the face velocity', z, mesh.faceCount)
    const zk = k.z === null || kernels.holds(z) ? z : k.z
    // (compute() copies its z in again whenever it recomputes; its cached results do not read it.)
    if (zk !== z) zk.set(z.subarray(0, mesh.faceCount))
    const out = this.plain ?? (this.plain = kernels.f64(3 * mesh.cellCount))
    kernels.run(HYBRID_CELL_VELOCITIES, k.cellFaceStart, k.cellFaces, k.velocityWeight, zk, out, mesh.cellCount)
    return out
  }

  /** Whether z and corrections are those of the last compute() (bitwise, a row over blocks); else remembers them. */
  private unchanged(z: Float64Array, corrections: number): boolean {
    const nf = this.mesh.faceCount
    // On the kernels when they hold z (the solver's own), else the reference here.
    const where = this.kernels.holds(z) ? this.kernels : TS_KERNELS
    if (corrections === this.lastCorrections && where.run(HYBRID_DIFFERING_WORDS, z, this.lastZ, nf, this.differing) === 0) return true
    this.lastZ.set(z.subarray(0, nf))
    this.lastCorrections = corrections
    return false
  }


  /**
   * Adds the confinement force eps h (N x omega) (m/s^2) of the last compute() to fx, fy, fz
   * (per cell). epsilon: dimensionless (~0.1-1 for smoke), one number or one per cell (the
   * 'strength' mode's field).
   */
  addConfinement(epsilon: number | Float64Array, fx: Float64Array, fy: Float64Array, fz: Float64Array): void {
    const { mesh, kernels, k } = this
    const n = mesh.cellCount
    let field = typeof epsilon === 'number' ? null : epsilon
    if (field === null) {
      if (!(Number.isFinite(epsilon) && (epsilon as number) >= 0)) throw new EddyError('INVALID_PARAM', `hybrid vorticity: the confinement strength must be a finite number >= 0 (got ${String(epsilon)})`)
      if (epsilon === 0) return
    } else checkLength('the confinement strength field', field, n)
    checkLength('fx', fx, n); checkLength('fy', fy, n); checkLength('fz', fz, n)
    const uniform = field === null ? (epsilon as number) : 0
    if (field !== null && kernels.kind !== 'ts') {
      const copy = this.fieldCopy ?? (this.fieldCopy = kernels.f64(n))
      copy.set(field.subarray(0, n))
      field = copy
    }
    // eta = grad |omega| (hybridCellGradient's sums) and the force, a row per cell.
    kernels.run(HYBRID_CONFINEMENT, k.gradientStart, k.gradientCells, k.gradientWeight, this.omega, this.magnitude, k.meanEdge, field, uniform, fx, fy, fz, n)
  }

}
