// Cut-cell fractions from a solid SDF sampled at grid corners (phi < 0 in the solid), for
// the variational pressure solve of Batty, Bertails & Bridson 2007 ("A fast variational
// framework for accurate solid-fluid coupling"), where face areas open to fluid weight the
// pressure gradient and cell volumes weight the kinetic energy.
//
// Input: phi at the (nx+1)(ny+1)(nz+1) corners, index i + (nx+1) * (j + (ny+1) * k),
// corner (i,j,k) at origin + (i, j, k) dx (sampleSdfGrid(..., { at: 'corner' })).
//
// Cell solid volume fraction: the cube is split into the 6 tetrahedra of Kuhn's (Freudenthal)
// triangulation around its main diagonal, phi is interpolated linearly in each, and the
// part of each tetrahedron where phi < 0 is integrated in closed form (tetNegativeFraction).
// The result is EXACT whenever phi is linear (affine) over the cell, i.e. for any plane, to
// rounding (~1e-15); for curved surfaces it is the volume under the piecewise-linear
// interpolant, second-order accurate in dx.
//
// Face open area fraction: Bridson, "Fluid Simulation for Computer Graphics", 2nd ed. (2015),
// cut-cell solid boundaries (the 2D "fraction inside", as in Batty's fraction_inside): the fraction of a square with phi < 0 from its 4
// corner values, by cases on the sign pattern (corner triangle, trapezoid, or, for
// diagonal sign patterns, two corner triangles chosen by the sign of the centre average);
// open = 1 - that. Also exact for linear phi (a straight cut gives a triangle or a
// trapezoid whose sides are found exactly by linear interpolation along the edges).
//
// Outputs use the MAC layout: cells nx*ny*nz at i + nx*(j + ny*k); u faces (normal x, at
// x = i dx) (nx+1)*ny*nz at i + (nx+1)*(j + ny*k); v faces nx*(ny+1)*nz at
// i + nx*(j + (ny+1)*k); w faces nx*ny*(nz+1) at i + nx*(j + ny*k).
//
// Narrow-band SDFs are fine if band >= sqrt(3) dx: every corner of a cut cell is then
// exact (the surface crosses the cell, so each corner is within one cell diagonal of it).
import { EddyError } from '../api/errors'

export interface FractionGridDims {
  nx: number
  ny: number
  nz: number
}

export type PhiArray = Float32Array | Float64Array

/**
 * Fraction of a tetrahedron's volume where the linear function with corner values f0..f3 is
 * negative. With the values sorted, "a" the magnitudes of the negative ones and "c" the
 * non-negative ones, it is (the volume of {phi > 0} is the divided difference of x_+^3 at
 * the corner values, i.e. sum_{f_i > 0} f_i^3 / prod_{j != i} (f_i - f_j)):
 *   1 negative:  a^3 / ((a + c1)(a + c2)(a + c3))            (corner tetrahedron)
 *   3 negative:  1 - c^3 / ((c + a1)(c + a2)(c + a3))
 *   2 negative:  1 - [c^2 d^2 + (a + b) c d (c + d) + a b (c^2 + c d + d^2)] / ((c + a)(c + b)(d + a)(d + b))
 * The last is the two positive-corner terms summed over a common denominator, which
 * removes the 1 / (c - d) cancellation, so every form is stable (all terms positive).
 * Zero counts as non-negative (fluid).
 */
export function tetNegativeFraction(f0: number, f1: number, f2: number, f3: number): number {
  // Sorting network for 4 values: ascending s0 <= s1 <= s2 <= s3.
  let s0 = f0, s1 = f1, s2 = f2, s3 = f3, t: number
  if (s1 < s0) { t = s0; s0 = s1; s1 = t }
  if (s3 < s2) { t = s2; s2 = s3; s3 = t }
  if (s2 < s0) { t = s0; s0 = s2; s2 = t }
  if (s3 < s1) { t = s1; s1 = s3; s3 = t }
  if (s2 < s1) { t = s1; s1 = s2; s2 = t }
  if (!(s0 < 0)) return 0
  if (s3 < 0) return 1
  if (!(s1 < 0)) {
    const a = -s0
    return (a * a * a) / ((a + s1) * (a + s2) * (a + s3))
  }
  if (s2 < 0) {
    const c = s3
    return 1 - (c * c * c) / ((c - s0) * (c - s1) * (c - s2))
  }
  const a = -s0, b = -s1, c = s2, d = s3
  const num = c * c * d * d + (a + b) * c * d * (c + d) + a * b * (c * c + c * d + d * d)
  return 1 - num / ((c + a) * (c + b) * (d + a) * (d + b))
}

/**
 * Fraction of a unit cube where phi < 0, from its corner values p{x}{y}{z}: the mean over
 * Kuhn's six tetrahedra 0-a-(a+b)-7 for the 6 axis orders (all of volume 1/6).
 * Exact for affine phi.
 */
export function cubeNegativeFraction(
  p000: number, p100: number, p010: number, p110: number,
  p001: number, p101: number, p011: number, p111: number,
): number {
  return (
    tetNegativeFraction(p000, p100, p110, p111) +
    tetNegativeFraction(p000, p100, p101, p111) +
    tetNegativeFraction(p000, p010, p110, p111) +
    tetNegativeFraction(p000, p010, p011, p111) +
    tetNegativeFraction(p000, p001, p101, p111) +
    tetNegativeFraction(p000, p001, p011, p111)
  ) / 6
}

/** Bridson's fraction_inside(phi_left, phi_right): the part of a segment where phi < 0. */
function segmentNegative(l: number, r: number): number {
  if (l < 0) return r < 0 ? 1 : l / (l - r)
  return r < 0 ? r / (r - l) : 0
}

/**
 * Fraction of a unit square where phi < 0 from corner values p{u}{v} (Bridson 2015, 2D
 * fraction inside; Batty's fraction_inside). Exact for affine phi.
 */
export function squareNegativeFraction(p00: number, p10: number, p01: number, p11: number): number {
  // Walk the corners in cyclic order c0..c3 and rotate to a canonical case.
  let c0 = p00, c1 = p10, c2 = p11, c3 = p01, t: number
  const n = (c0 < 0 ? 1 : 0) + (c1 < 0 ? 1 : 0) + (c2 < 0 ? 1 : 0) + (c3 < 0 ? 1 : 0)
  if (n === 0) return 0
  if (n === 4) return 1
  if (n === 1) {
    while (!(c0 < 0)) { t = c0; c0 = c1; c1 = c2; c2 = c3; c3 = t }
    // Corner triangle at c0.
    return 0.5 * segmentNegative(c0, c3) * segmentNegative(c0, c1)
  }
  if (n === 3) {
    while (c0 < 0) { t = c0; c0 = c1; c1 = c2; c2 = c3; c3 = t }
    // Everything but the corner triangle at the one non-negative corner c0.
    return 1 - 0.5 * (1 - segmentNegative(c0, c3)) * (1 - segmentNegative(c0, c1))
  }
  // Two negative corners: make c0 negative with its predecessor c3 non-negative.
  while (!(c0 < 0 && !(c3 < 0))) { t = c0; c0 = c1; c1 = c2; c2 = c3; c3 = t }
  if (c1 < 0) {
    // Adjacent (edge c0-c1 inside): a trapezoid, mean of the two crossing edges.
    return 0.5 * (segmentNegative(c0, c3) + segmentNegative(c1, c2))
  }
  // Diagonal (c0, c2 negative; never happens for affine phi): the centre value decides
  // whether the negative corners are joined through the middle.
  if (0.25 * (c0 + c1 + c2 + c3) < 0) {
    const out1 = 0.5 * (1 - segmentNegative(c0, c1)) * (1 - segmentNegative(c2, c1))
    const out3 = 0.5 * (1 - segmentNegative(c0, c3)) * (1 - segmentNegative(c2, c3))
    return 1 - out1 - out3
  }
  return 0.5 * segmentNegative(c0, c1) * segmentNegative(c0, c3) + 0.5 * segmentNegative(c2, c1) * segmentNegative(c2, c3)
}

function checkDims(phi: PhiArray, d: FractionGridDims, what: string): void {
  for (const [key, v] of [['nx', d.nx], ['ny', d.ny], ['nz', d.nz]] as const) {
    if (!Number.isInteger(v) || v < 1) throw new EddyError('INVALID_PARAM', `${what}: ${key} must be a positive integer, got ${v}`)
  }
  const need = (d.nx + 1) * (d.ny + 1) * (d.nz + 1)
  if (phi.length !== need) {
    throw new EddyError('INVALID_PARAM', `${what}: corner SDF has ${phi.length} values, a ${d.nx}x${d.ny}x${d.nz} grid needs ${need}`)
  }
}

function checkOut(out: Float32Array, need: number, what: string, name: string): void {
  if (out.length !== need) throw new EddyError('INVALID_PARAM', `${what}: ${name} has ${out.length} values, needs ${need}`)
}

/** Solid volume fraction (phi < 0) of every cell into `out` (nx*ny*nz), which is returned. */
export function cellSolidFractions(phi: PhiArray, dims: FractionGridDims, out: Float32Array): Float32Array {
  checkDims(phi, dims, 'cellSolidFractions')
  const { nx, ny, nz } = dims
  checkOut(out, nx * ny * nz, 'cellSolidFractions', 'out')
  const sx = nx + 1, sxy = (nx + 1) * (ny + 1)
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) {
      let c = sx * j + sxy * k
      let o = nx * (j + ny * k)
      for (let i = 0; i < nx; i++, c++, o++) {
        out[o] = cubeNegativeFraction(
          phi[c], phi[c + 1], phi[c + sx], phi[c + sx + 1],
          phi[c + sxy], phi[c + sxy + 1], phi[c + sxy + sx], phi[c + sxy + sx + 1],
        )
      }
    }
  }
  return out
}

/**
 * Open (fluid, phi >= 0) area fraction of every MAC face: u (nx+1)*ny*nz, v nx*(ny+1)*nz,
 * w nx*ny*(nz+1), layouts in the file comment.
 */
export function faceOpenFractions(phi: PhiArray, dims: FractionGridDims, out: { u: Float32Array; v: Float32Array; w: Float32Array }): void {
  checkDims(phi, dims, 'faceOpenFractions')
  const { nx, ny, nz } = dims
  checkOut(out.u, (nx + 1) * ny * nz, 'faceOpenFractions', 'u')
  checkOut(out.v, nx * (ny + 1) * nz, 'faceOpenFractions', 'v')
  checkOut(out.w, nx * ny * (nz + 1), 'faceOpenFractions', 'w')
  const sx = nx + 1, sxy = (nx + 1) * (ny + 1)
  const { u, v, w } = out
  // u face (i, j, k): corners (i, j..j+1, k..k+1).
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) {
      let c = sx * j + sxy * k
      let o = (nx + 1) * (j + ny * k)
      for (let i = 0; i <= nx; i++, c++, o++) {
        u[o] = 1 - squareNegativeFraction(phi[c], phi[c + sx], phi[c + sxy], phi[c + sx + sxy])
      }
    }
  }
  // v face (i, j, k): corners (i..i+1, j, k..k+1).
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j <= ny; j++) {
      let c = sx * j + sxy * k
      let o = nx * (j + (ny + 1) * k)
      for (let i = 0; i < nx; i++, c++, o++) {
        v[o] = 1 - squareNegativeFraction(phi[c], phi[c + 1], phi[c + sxy], phi[c + 1 + sxy])
      }
    }
  }
  // w face (i, j, k): corners (i..i+1, j..j+1, k).
  for (let k = 0; k <= nz; k++) {
    for (let j = 0; j < ny; j++) {
      let c = sx * j + sxy * k
      let o = nx * (j + ny * k)
      for (let i = 0; i < nx; i++, c++, o++) {
        w[o] = 1 - squareNegativeFraction(phi[c], phi[c + 1], phi[c + sx], phi[c + 1 + sx])
      }
    }
  }
}
