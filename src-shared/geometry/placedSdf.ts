// A signed distance field moved into the world: world = position + R(rotation) (scale .* local),
// the viewport's convention for obstacles (primitiveSdf.ts). Its placement can change every
// substep without allocating, which is what moving obstacles need.
//
// Distances: local = R^T (p - position) ./ scale, and the result is min(scale) * d_local. That
// is exact for uniform scale; for non-uniform scale it is a 1-Lipschitz under-estimate with
// the exact sign (a local step of at most |dp| / min(scale) maps back to at most |dp|), which
// is what solid fractions (sign near the surface) and sampling hints (Lipschitz) rely on.
import { eulerXYZDegToMatrix } from './primitiveSdf'
import type { SignedDistanceField } from './signedDistance'

export class PlacedSdf implements SignedDistanceField {
  inner: SignedDistanceField
  private readonly m = new Float64Array(9)
  private tx = 0
  private ty = 0
  private tz = 0
  private isx = 1
  private isy = 1
  private isz = 1
  private minScale = 1

  constructor(inner: SignedDistanceField) {
    this.inner = inner
    eulerXYZDegToMatrix([0, 0, 0], this.m)
  }

  /** position (m), rotation (XYZ Euler degrees), scale applied here (1,1,1 when `inner` is already scaled). */
  place(px: number, py: number, pz: number, rx: number, ry: number, rz: number, sx: number, sy: number, sz: number): void {
    this.tx = px
    this.ty = py
    this.tz = pz
    const m = this.m
    // eulerXYZDegToMatrix without its array argument allocation.
    const r = Math.PI / 180
    const ca = Math.cos(rx * r), sa = Math.sin(rx * r)
    const cb = Math.cos(ry * r), sb = Math.sin(ry * r)
    const cc = Math.cos(rz * r), sc = Math.sin(rz * r)
    m[0] = cc * cb; m[1] = cc * sb * sa - sc * ca; m[2] = cc * sb * ca + sc * sa
    m[3] = sc * cb; m[4] = sc * sb * sa + cc * ca; m[5] = sc * sb * ca - cc * sa
    m[6] = -sb; m[7] = cb * sa; m[8] = cb * ca
    this.isx = 1 / sx
    this.isy = 1 / sy
    this.isz = 1 / sz
    this.minScale = Math.min(sx, sy, sz)
  }

  /** World-space corner i (0..7, bit 0 = x max, 1 = y max, 2 = z max) of a local box, into out. */
  corner(min: ArrayLike<number>, max: ArrayLike<number>, c: number, out: Float64Array): void {
    const lx = (c & 1 ? max[0] : min[0]) / this.isx
    const ly = (c & 2 ? max[1] : min[1]) / this.isy
    const lz = (c & 4 ? max[2] : min[2]) / this.isz
    const m = this.m
    out[0] = this.tx + m[0] * lx + m[1] * ly + m[2] * lz
    out[1] = this.ty + m[3] * lx + m[4] * ly + m[5] * lz
    out[2] = this.tz + m[6] * lx + m[7] * ly + m[8] * lz
  }

  distance(x: number, y: number, z: number): number {
    return this.distanceBanded(x, y, z, Infinity)
  }

  distanceBanded(x: number, y: number, z: number, band: number): number {
    const m = this.m
    const px = x - this.tx, py = y - this.ty, pz = z - this.tz
    const lx = (m[0] * px + m[3] * py + m[6] * pz) * this.isx
    const ly = (m[1] * px + m[4] * py + m[7] * pz) * this.isy
    const lz = (m[2] * px + m[5] * py + m[8] * pz) * this.isz
    const s = this.minScale
    const inner = this.inner
    return s * (inner.distanceBanded ? inner.distanceBanded(lx, ly, lz, band / s) : inner.distance(lx, ly, lz))
  }

  distanceFrom(x: number, y: number, z: number, band: number, prev: number, step: number, side = 0): number {
    const inner = this.inner
    if (!inner.distanceFrom) return this.distanceBanded(x, y, z, band)
    const m = this.m
    const px = x - this.tx, py = y - this.ty, pz = z - this.tz
    const lx = (m[0] * px + m[3] * py + m[6] * pz) * this.isx
    const ly = (m[1] * px + m[4] * py + m[7] * pz) * this.isy
    const lz = (m[2] * px + m[5] * py + m[8] * pz) * this.isz
    const s = this.minScale
    return s * inner.distanceFrom(lx, ly, lz, band / s, prev / s, step / s, side / s)
  }
}
