// Test meshes and reference answers for the rigid-body tests (not a test file itself).
import type { TriMesh } from '../../../src-shared/geometry/triMesh'

/**
 * Prism: a counter-clockwise polygon in the xy plane (`outline`, xy pairs) triangulated by
 * `caps` (index triples into the outline, counter-clockwise), extruded along z over
 * [z0, z0 + depth]. Closed, outward facing.
 */
export function prism(outline: number[], caps: number[], z0: number, depth: number): TriMesh {
  const n = outline.length / 2
  const pos: number[] = []
  for (let i = 0; i < n; i++) pos.push(outline[2 * i], outline[2 * i + 1], z0)
  for (let i = 0; i < n; i++) pos.push(outline[2 * i], outline[2 * i + 1], z0 + depth)
  const idx: number[] = []
  for (let t = 0; t < caps.length; t += 3) {
    idx.push(caps[t], caps[t + 2], caps[t + 1]) // bottom, facing -z
    idx.push(n + caps[t], n + caps[t + 1], n + caps[t + 2]) // top, facing +z
  }
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n
    idx.push(i, j, n + j, i, n + j, n + i)
  }
  return { positions: Float32Array.from(pos), indices: Uint32Array.from(idx) }
}

/** L-shaped prism: the union of [0,2]x[0,1] and [0,1]x[1,3] in xy, z in [0, 1], times `s`. */
export function lPrism(s = 1): TriMesh {
  const outline = [0, 0, 2, 0, 2, 1, 1, 1, 1, 3, 0, 3].map((v) => v * s)
  return prism(outline, [0, 1, 2, 0, 2, 3, 0, 3, 4, 0, 4, 5], 0, s)
}

/**
 * U-shaped prism, opening towards +y: [0,3]x[0,1] plus posts [0,1]x[1,2] and [2,3]x[1,2] in
 * xy, z in [0, 1], times `s`. Its cavity is [1,2]x[1,2] (times s).
 */
export function uPrism(s = 1): TriMesh {
  const outline = [0, 0, 3, 0, 3, 2, 2, 2, 2, 1, 1, 1, 1, 2, 0, 2].map((v) => v * s)
  // A(0) B(1) C(2) D(3) E(4) F(5) G(6) H(7): ABE, BCE, CDE, AEF, AFH, FGH.
  return prism(outline, [0, 1, 4, 1, 2, 4, 2, 3, 4, 0, 4, 5, 0, 5, 7, 5, 6, 7], 0, s)
}

/** Mass properties of an axis-aligned solid box [lo, hi] of density rho: textbook formulas. */
export function boxProperties(lo: number[], hi: number[], rho: number) {
  const a = hi[0] - lo[0], b = hi[1] - lo[1], c = hi[2] - lo[2]
  const m = rho * a * b * c
  const com = [0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1]), 0.5 * (lo[2] + hi[2])]
  const diag = [(m * (b * b + c * c)) / 12, (m * (a * a + c * c)) / 12, (m * (a * a + b * b)) / 12]
  return { m, com, diag }
}

/**
 * Inertia tensor (row-major 3x3) about `about` of boxes given by their mass properties, by
 * the parallel-axis theorem: I = sum_k [I_k + m_k (|d|^2 E - d d^T)], d = com_k - about.
 */
export function compositeInertia(parts: { m: number; com: number[]; diag: number[] }[], about: number[]): number[] {
  const I = new Array(9).fill(0)
  for (const p of parts) {
    const d = [p.com[0] - about[0], p.com[1] - about[1], p.com[2] - about[2]]
    const d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2]
    for (let r = 0; r < 3; r++) {
      for (let c = 0; c < 3; c++) {
        I[3 * r + c] += (r === c ? p.diag[r] : 0) + p.m * ((r === c ? d2 : 0) - d[r] * d[c])
      }
    }
  }
  return I
}
