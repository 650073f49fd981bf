// Exact signed distances of the scene's primitive shapes (obstacles and emitters are a box,
// sphere or cylinder, or a mesh). The shapes are the viewport's unit shapes: a 1 m cube, a
// sphere of diameter 1 m and a cylinder of diameter 1 m and height 1 m along local Y, all
// centred on the origin, then scaled per axis by `scale`, rotated by `rotation` (XYZ Euler
// degrees applied X first, then Y, then Z: R = Rz Ry Rx, right-handed; see
// src-renderer/viewport/transformMath.ts) and moved to `position`:
//   world = position + R * (scale .* local).
// Rotation and translation preserve distances, so the SDF is that of the scaled shape at
// R^T (p - position). Per-axis scale is honoured exactly: a scaled box is a box, a scaled
// sphere an ellipsoid and a scaled cylinder an elliptic cylinder, whose exact distances use
// Eberly's robust bisection ("Distance from a Point to an Ellipse, an Ellipsoid, or a
// Hyperellipsoid", Geometric Tools 2013), not the usual scaled-space approximation.
import { EddyError } from '../api/errors'
import type { Vec3 } from './vec3'
import type { SignedDistanceField } from './signedDistance'

export type PrimitiveShape = 'box' | 'sphere' | 'cylinder'

export interface PrimitiveTransform {
  /** Centre, m. */
  position: ArrayLike<number>
  /** XYZ Euler degrees, X applied first. */
  rotation: ArrayLike<number>
  /** Per-axis scale of the unit shape (> 0). */
  scale: ArrayLike<number>
}

/** Row-major R = Rz(c) Ry(b) Rx(a) for XYZ Euler degrees [a, b, c] (column vectors, right-handed). */
export function eulerXYZDegToMatrix(deg: ArrayLike<number>, out: Float64Array = new Float64Array(9)): Float64Array {
  const r = Math.PI / 180
  const ca = Math.cos(deg[0] * r), sa = Math.sin(deg[0] * r)
  const cb = Math.cos(deg[1] * r), sb = Math.sin(deg[1] * r)
  const cc = Math.cos(deg[2] * r), sc = Math.sin(deg[2] * r)
  out[0] = cc * cb; out[1] = cc * sb * sa - sc * ca; out[2] = cc * sb * ca + sc * sa
  out[3] = sc * cb; out[4] = sc * sb * sa + cc * ca; out[5] = sc * sb * ca - cc * sa
  out[6] = -sb; out[7] = cb * sa; out[8] = cb * ca
  return out
}

/** Exact SDF of the axis-aligned box |x| <= hx, |y| <= hy, |z| <= hz. */
export function boxSdf(x: number, y: number, z: number, hx: number, hy: number, hz: number): number {
  const qx = Math.abs(x) - hx, qy = Math.abs(y) - hy, qz = Math.abs(z) - hz
  // Outside: distance to the nearest point of the box; inside: to the nearest face.
  const ox = qx > 0 ? qx : 0, oy = qy > 0 ? qy : 0, oz = qz > 0 ? qz : 0
  const inside = Math.max(qx, qy, qz)
  return Math.sqrt(ox * ox + oy * oy + oz * oz) + (inside < 0 ? inside : 0)
}

/** Exact SDF of the ellipsoid (x/a)^2 + (y/b)^2 + (z/c)^2 <= 1 (a, b, c > 0). */
export function ellipsoidSdf(x: number, y: number, z: number, a: number, b: number, c: number): number {
  const g = (x / a) * (x / a) + (y / b) * (y / b) + (z / c) * (z / c) - 1
  if (g === 0) return 0
  // Eberly works in the first octant with e0 >= e1 >= e2: sort the axes (with their coordinates).
  let e0 = a, e1 = b, e2 = c
  let y0 = Math.abs(x), y1 = Math.abs(y), y2 = Math.abs(z)
  let t: number
  if (e0 < e1) { t = e0; e0 = e1; e1 = t; t = y0; y0 = y1; y1 = t }
  if (e1 < e2) { t = e1; e1 = e2; e2 = t; t = y1; y1 = y2; y2 = t }
  if (e0 < e1) { t = e0; e0 = e1; e1 = t; t = y0; y0 = y1; y1 = t }
  const d = distanceEllipsoidOctant(e0, e1, e2, y0, y1, y2)
  return g < 0 ? -d : d
}

/** Exact SDF of the ellipse (x/a)^2 + (y/b)^2 <= 1 in 2D (a, b > 0). */
export function ellipseSdf(x: number, y: number, a: number, b: number): number {
  const g = (x / a) * (x / a) + (y / b) * (y / b) - 1
  if (g === 0) return 0
  let y0 = Math.abs(x), y1 = Math.abs(y)
  let e0 = a, e1 = b
  if (e0 < e1) {
    e0 = b; e1 = a
    y0 = Math.abs(y); y1 = Math.abs(x)
  }
  const d = distanceEllipseQuadrant(e0, e1, y0, y1)
  return g < 0 ? -d : d
}

/**
 * Exact SDF of the cylinder along Y with elliptic cross-section (x/a)^2 + (z/c)^2 <= 1 and
 * |y| <= h. The solid is a product (disc x interval), so outside its distance is the
 * Euclidean combination of the two factors' distances and inside the larger (less negative)
 * of them.
 */
export function cylinderSdf(x: number, y: number, z: number, a: number, c: number, h: number): number {
  const dr = a === c ? Math.sqrt(x * x + z * z) - a : ellipseSdf(x, z, a, c)
  const dy = Math.abs(y) - h
  const ox = dr > 0 ? dr : 0, oy = dy > 0 ? dy : 0
  const inside = Math.max(dr, dy)
  return Math.sqrt(ox * ox + oy * oy) + (inside < 0 ? inside : 0)
}

const KIND_BOX = 0, KIND_SPHERE = 1, KIND_CYLINDER = 2

/** SDF of a transformed unit primitive; see the file comment for the conventions. */
export class PrimitiveSdf implements SignedDistanceField {
  readonly shape: PrimitiveShape
  /** World-space axis-aligned bounds (of the transformed bounding box of the shape). */
  readonly bounds: { min: Vec3; max: Vec3 }
  private readonly kind: number
  private readonly m: Float64Array
  private readonly tx: number
  private readonly ty: number
  private readonly tz: number
  // Half extents (box), semi-axes (sphere), radii + half height (cylinder).
  private readonly hx: number
  private readonly hy: number
  private readonly hz: number
  private readonly uniform: boolean

  /** Throws INVALID_PARAM for an unknown shape, non-finite transform or a scale <= 0. */
  constructor(shape: PrimitiveShape, transform: PrimitiveTransform) {
    const kind = shape === 'box' ? KIND_BOX : shape === 'sphere' ? KIND_SPHERE : shape === 'cylinder' ? KIND_CYLINDER : -1
    if (kind < 0) throw new EddyError('INVALID_PARAM', `PrimitiveSdf: unknown shape "${String(shape)}" (box, sphere or cylinder)`)
    const { position: p, rotation: r, scale: s } = transform
    for (const [key, v] of [['position', p], ['rotation', r], ['scale', s]] as const) {
      if (!v || v.length < 3 || !Number.isFinite(v[0]) || !Number.isFinite(v[1]) || !Number.isFinite(v[2])) {
        throw new EddyError('INVALID_PARAM', `PrimitiveSdf: ${key} must be 3 finite numbers`, { key })
      }
    }
    if (!(s[0] > 0 && s[1] > 0 && s[2] > 0)) {
      throw new EddyError('INVALID_PARAM', `PrimitiveSdf: scale must be > 0 on every axis, got [${s[0]}, ${s[1]}, ${s[2]}]`, { key: 'scale' })
    }
    this.shape = shape
    this.kind = kind
    this.m = eulerXYZDegToMatrix(r)
    this.tx = p[0]
    this.ty = p[1]
    this.tz = p[2]
    this.hx = 0.5 * s[0]
    this.hy = 0.5 * s[1]
    this.hz = 0.5 * s[2]
    this.uniform = kind === KIND_SPHERE ? s[0] === s[1] && s[1] === s[2] : kind === KIND_CYLINDER ? s[0] === s[2] : true
    // World AABB of the rotated box of half extents h: half width_i = sum_j |R_ij| h_j.
    const m = this.m
    const ex = Math.abs(m[0]) * this.hx + Math.abs(m[1]) * this.hy + Math.abs(m[2]) * this.hz
    const ey = Math.abs(m[3]) * this.hx + Math.abs(m[4]) * this.hy + Math.abs(m[5]) * this.hz
    const ez = Math.abs(m[6]) * this.hx + Math.abs(m[7]) * this.hy + Math.abs(m[8]) * this.hz
    this.bounds = { min: [p[0] - ex, p[1] - ey, p[2] - ez], max: [p[0] + ex, p[1] + ey, p[2] + ez] }
  }

  distance(x: number, y: number, z: number): number {
    const m = this.m
    const px = x - this.tx, py = y - this.ty, pz = z - this.tz
    // local = R^T (p - position)
    const lx = m[0] * px + m[3] * py + m[6] * pz
    const ly = m[1] * px + m[4] * py + m[7] * pz
    const lz = m[2] * px + m[5] * py + m[8] * pz
    switch (this.kind) {
      case KIND_BOX:
        return boxSdf(lx, ly, lz, this.hx, this.hy, this.hz)
      case KIND_SPHERE:
        return this.uniform ? Math.sqrt(lx * lx + ly * ly + lz * lz) - this.hx : ellipsoidSdf(lx, ly, lz, this.hx, this.hy, this.hz)
      default:
        return cylinderSdf(lx, ly, lz, this.hx, this.hz, this.hy)
    }
  }
}

// --- Eberly 2013 -------------------------------------------------------------------------
// Bisection on the root s of F(s) = sum (r_i z_i / (s + r_i))^2 - 1 (his GetRoot), which is
// monotone on the bracket, so it always converges; stops when the midpoint no longer moves
// (full double precision) or after MAX_BISECT steps (only reached for points within ~1e-30
// of the surface, where the distance is ~0 anyway).
const MAX_BISECT = 200

function getRoot2(r0: number, z0: number, z1: number, g: number): number {
  const n0 = r0 * z0
  let s0 = z1 - 1
  let s1 = g < 0 ? 0 : Math.sqrt(n0 * n0 + z1 * z1) - 1
  let s = 0
  for (let i = 0; i < MAX_BISECT; i++) {
    s = 0.5 * (s0 + s1)
    if (s === s0 || s === s1) break
    const a = n0 / (s + r0), b = z1 / (s + 1)
    const f = a * a + b * b - 1
    if (f > 0) s0 = s
    else if (f < 0) s1 = s
    else break
  }
  return s
}

function getRoot3(r0: number, r1: number, z0: number, z1: number, z2: number, g: number): number {
  const n0 = r0 * z0, n1 = r1 * z1
  let s0 = z2 - 1
  let s1 = g < 0 ? 0 : Math.sqrt(n0 * n0 + n1 * n1 + z2 * z2) - 1
  let s = 0
  for (let i = 0; i < MAX_BISECT; i++) {
    s = 0.5 * (s0 + s1)
    if (s === s0 || s === s1) break
    const a = n0 / (s + r0), b = n1 / (s + r1), c = z2 / (s + 1)
    const f = a * a + b * b + c * c - 1
    if (f > 0) s0 = s
    else if (f < 0) s1 = s
    else break
  }
  return s
}

/** Distance from (y0, y1), y >= 0, to the ellipse with semi-axes e0 >= e1 > 0 (Eberly, DistancePointEllipse). */
function distanceEllipseQuadrant(e0: number, e1: number, y0: number, y1: number): number {
  if (y1 > 0) {
    if (y0 > 0) {
      const z0 = y0 / e0, z1 = y1 / e1
      const g = z0 * z0 + z1 * z1 - 1
      if (g === 0) return 0
      const r0 = (e0 / e1) * (e0 / e1)
      const s = getRoot2(r0, z0, z1, g)
      const x0 = (r0 * y0) / (s + r0), x1 = y1 / (s + 1)
      return Math.sqrt((x0 - y0) * (x0 - y0) + (x1 - y1) * (x1 - y1))
    }
    return Math.abs(y1 - e1)
  }
  const numer0 = e0 * y0, denom0 = e0 * e0 - e1 * e1
  if (numer0 < denom0) {
    // Inside near the major axis: the closest point is off the axis (evolute region).
    const xde0 = numer0 / denom0
    const x0 = e0 * xde0, x1 = e1 * Math.sqrt(Math.max(0, 1 - xde0 * xde0))
    return Math.sqrt((x0 - y0) * (x0 - y0) + x1 * x1)
  }
  return Math.abs(y0 - e0)
}

/** Distance from y >= 0 to the ellipsoid with semi-axes e0 >= e1 >= e2 > 0 (Eberly, DistancePointEllipsoid). */
function distanceEllipsoidOctant(e0: number, e1: number, e2: number, y0: number, y1: number, y2: number): number {
  if (y2 > 0) {
    if (y1 > 0) {
      if (y0 > 0) {
        const z0 = y0 / e0, z1 = y1 / e1, z2 = y2 / e2
        const g = z0 * z0 + z1 * z1 + z2 * z2 - 1
        if (g === 0) return 0
        const r0 = (e0 / e2) * (e0 / e2), r1 = (e1 / e2) * (e1 / e2)
        const s = getRoot3(r0, r1, z0, z1, z2, g)
        const x0 = (r0 * y0) / (s + r0), x1 = (r1 * y1) / (s + r1), x2 = y2 / (s + 1)
        return Math.sqrt((x0 - y0) * (x0 - y0) + (x1 - y1) * (x1 - y1) + (x2 - y2) * (x2 - y2))
      }
      return distanceEllipseQuadrant(e1, e2, y1, y2)
    }
    if (y0 > 0) return distanceEllipseQuadrant(e0, e2, y0, y2)
    return Math.abs(y2 - e2)
  }
  const denom0 = e0 * e0 - e2 * e2, denom1 = e1 * e1 - e2 * e2
  const numer0 = e0 * y0, numer1 = e1 * y1
  if (numer0 < denom0 && numer1 < denom1) {
    const xde0 = numer0 / denom0, xde1 = numer1 / denom1
    const discr = 1 - xde0 * xde0 - xde1 * xde1
    if (discr > 0) {
      const x0 = e0 * xde0, x1 = e1 * xde1, x2 = e2 * Math.sqrt(discr)
      return Math.sqrt((x0 - y0) * (x0 - y0) + (x1 - y1) * (x1 - y1) + x2 * x2)
    }
  }
  return distanceEllipseQuadrant(e0, e1, y0, y1)
}
