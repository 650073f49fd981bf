// Scene helpers for the rigid-body validation tests (not a test file itself).
import type { RigidBodyDesc } from '../../../src-shared/sim/rigid/rigidWorld'
import type { RigidBody } from '../../../src-shared/sim/rigid/rigidBody'

export const G = 9.81

/** Quaternion (x, y, z, w) of a rotation by `deg` degrees about `axis`. */
export function axisAngle(axis: number[], deg: number): [number, number, number, number] {
  const h = (deg * Math.PI) / 360, l = Math.hypot(axis[0], axis[1], axis[2])
  const s = Math.sin(h) / l
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(h)]
}

/** A box description with the defaults the tests share (overridable). */
export function boxDesc(id: string, size: number[], position: number[], extra: Partial<RigidBodyDesc> = {}): RigidBodyDesc {
  return { id, name: id, shape: 'box', scale: size, density: 500, position, orientation: [0, 0, 0, 1], restitution: 0.3, friction: 0.5, ...extra }
}

/** World positions of a body's local points (body coordinates, xyz), flattened. */
export function worldPoints(b: RigidBody, local: ArrayLike<number>): number[] {
  const r = b.rotation(), out: number[] = []
  for (let i = 0; i < local.length; i += 3) {
    const x = local[i], y = local[i + 1], z = local[i + 2]
    out.push(b.x[0] + r[0] * x + r[1] * y + r[2] * z, b.x[1] + r[3] * x + r[4] * y + r[5] * z, b.x[2] + r[6] * x + r[7] * y + r[8] * z)
  }
  return out
}

/** Corners of an axis-aligned box of half extents h (body coordinates), flattened. */
export function corners(h: number[]): number[] {
  const out: number[] = []
  for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const sz of [-1, 1]) out.push(sx * h[0], sy * h[1], sz * h[2])
  return out
}

/** Largest distance between corresponding points of two flattened lists. */
export function maxDisplacement(a: number[], b: number[]): number {
  let m = 0
  for (let i = 0; i < a.length; i += 3) m = Math.max(m, Math.hypot(a[i] - b[i], a[i + 1] - b[i + 1], a[i + 2] - b[i + 2]))
  return m
}

/** Kinetic energy, translational plus rotational (w . I w / 2 with the world inertia). */
export function kineticEnergy(bodies: RigidBody[]): number {
  const I = new Float64Array(9)
  let e = 0
  for (const b of bodies) {
    b.worldInertia(I)
    const w = b.w
    const iw = [I[0] * w[0] + I[1] * w[1] + I[2] * w[2], I[3] * w[0] + I[4] * w[1] + I[5] * w[2], I[6] * w[0] + I[7] * w[1] + I[8] * w[2]]
    e += 0.5 * b.mass * (b.v[0] ** 2 + b.v[1] ** 2 + b.v[2] ** 2) + 0.5 * (w[0] * iw[0] + w[1] * iw[1] + w[2] * iw[2])
  }
  return e
}
