// The hybrid mesh's face normals by direction, for the linear MLS fit (linearFitKernel.ts).
// A face's row in eq. 11's normal matrix is w^2 (p p^T) (x) (n n^T): 60 products a face. Most
// faces of a hybrid mesh share a few directions: the hexahedra's and the transition faces' are
// the three axes, and the body-centred cubic lattice's tetrahedra (isosurface stuffing) have
// faces across the six face diagonals of the cube, (1, +-1, 0) / sqrt 2 and its turns; only the
// tetrahedra cut or warped at an obstacle's surface have others (on the ramp jet's hybrid mesh
// 86% of the fits' face entries are in one of these nine classes, 98% on the all-tetrahedral
// one). For faces of one direction c, n n^T = c c^T is shared, so their rows sum to
// (sum_f w_f^2 p_f p_f^T) (x) c c^T: 10 sums a face instead of 60, and the right-hand side's
// sum_f w_f^2 z_f p_f (x) n_f = (sum_f w_f^2 s_f z_f p_f) (x) c (s_f = +-1, n_f = s_f c): 4
// instead of 12. A normal within CLASS_TOLERANCE of +-c (per component) takes c's products
// exactly (0, +-1/2, 1), a change far below the fit's own accuracy.
//
// Codes (one byte a face): 0 for any other direction; 2k + 2 + (1 if n = -c_k) for class k.

/** Largest per-component distance from +-c at which a unit normal counts as direction c. */
export const CLASS_TOLERANCE = 1e-12

/** Directions: the three axes, then the six face diagonals. */
export const CLASS_COUNT = 9

const H = Math.SQRT1_2

/** c_k (x, y, z) for each class k: the right-hand side's factors. */
export const CLASS_DIRECTION = new Float64Array([
  1, 0, 0, 0, 1, 0, 0, 0, 1,
  H, H, 0, H, -H, 0, H, 0, H, H, 0, -H, 0, H, H, 0, H, -H,
])

/**
 * c_k c_k^T for each class k in the fit's order of the six products of n (xx, yx, yy, zx, zy,
 * zz), exact: the diagonals' halves are 1/2, not H * H (which rounds above it).
 */
export const CLASS_PRODUCTS = new Float64Array([
  1, 0, 0, 0, 0, 0,
  0, 0, 1, 0, 0, 0,
  0, 0, 0, 0, 0, 1,
  0.5, 0.5, 0.5, 0, 0, 0,
  0.5, -0.5, 0.5, 0, 0, 0,
  0.5, 0, 0, 0.5, 0, 0.5,
  0.5, 0, 0, -0.5, 0, 0.5,
  0, 0, 0.5, 0, 0.5, 0.5,
  0, 0, 0.5, 0, -0.5, 0.5,
])

/** The code of unit normal (x, y, z): 0 unless it is +-c_k within CLASS_TOLERANCE. */
export function normalClassCode(x: number, y: number, z: number): number {
  const D = CLASS_DIRECTION
  for (let k = 0; k < CLASS_COUNT; k++) {
    const cx = D[3 * k], cy = D[3 * k + 1], cz = D[3 * k + 2]
    for (let negative = 0; negative < 2; negative++) {
      const s = negative === 1 ? -1 : 1
      if (Math.abs(x - s * cx) <= CLASS_TOLERANCE && Math.abs(y - s * cy) <= CLASS_TOLERANCE && Math.abs(z - s * cz) <= CLASS_TOLERANCE) return 2 * k + 2 + negative
    }
  }
  return 0
}

/** Every face's code (faceNormal: 3 per face). */
export function faceNormalClasses(faceNormal: Float64Array): Uint8Array {
  const n = faceNormal.length / 3
  const codes = new Uint8Array(n)
  for (let f = 0; f < n; f++) codes[f] = normalClassCode(faceNormal[3 * f], faceNormal[3 * f + 1], faceNormal[3 * f + 2])
  return codes
}

/**
 * Sorts each list faces[start[c] .. start[c + 1] - 1] by class, stably: the faces of no class
 * first, then class 0, 1, ... (the fit sums a class's faces in one run). Counting sorts.
 */
export function sortListsByClass(start: Int32Array, faces: Int32Array, codes: Uint8Array): void {
  const counts = new Int32Array(CLASS_COUNT + 2)
  let longest = 0
  for (let c = 0; c + 1 < start.length; c++) longest = Math.max(longest, start[c + 1] - start[c])
  const scratch = new Int32Array(longest)
  for (let c = 0; c + 1 < start.length; c++) {
    const s = start[c], e = start[c + 1]
    if (e - s < 2) continue
    counts.fill(0)
    for (let i = s; i < e; i++) counts[(codes[faces[i]] >> 1) + 1]++
    for (let k = 1; k < counts.length; k++) counts[k] += counts[k - 1]
    for (let i = s; i < e; i++) scratch[counts[codes[faces[i]] >> 1]++] = faces[i]
    faces.set(scratch.subarray(0, e - s), s)
  }
}
