import { describe, expect, it } from 'vitest'
import {
  boxSdf, cylinderSdf, ellipseSdf, ellipsoidSdf, eulerXYZDegToMatrix, PrimitiveSdf,
} from '../../../src-shared/geometry/primitiveSdf'
import { MeshSdf } from '../../../src-shared/geometry/signedDistance'
import { eulerXYZDegToQuaternion } from '../../../src-renderer/viewport/transformMath'
import { EddyError } from '../../../src-shared/api/errors'
import { cube, rng } from './meshes'

const apply = (m: Float64Array, v: number[]) => [0, 1, 2].map((i) => m[3 * i] * v[0] + m[3 * i + 1] * v[1] + m[3 * i + 2] * v[2])

describe('eulerXYZDegToMatrix', () => {
  it('is right-handed, X first, then Y, then Z', () => {
    const close = (a: number[], b: number[]) => a.forEach((x, i) => expect(x).toBeCloseTo(b[i], 14))
    close(apply(eulerXYZDegToMatrix([0, 0, 90]), [1, 0, 0]), [0, 1, 0])
    close(apply(eulerXYZDegToMatrix([90, 0, 0]), [0, 1, 0]), [0, 0, 1])
    close(apply(eulerXYZDegToMatrix([0, 90, 0]), [0, 0, 1]), [1, 0, 0])
    // +Y -> (X 90) -> +Z -> (Y 90) -> +X: the order matters.
    close(apply(eulerXYZDegToMatrix([90, 90, 0]), [0, 1, 0]), [1, 0, 0])
  })

  it("matches the viewport's quaternion for the same Euler angles", () => {
    const rand = rng(31)
    for (let n = 0; n < 50; n++) {
      const deg: [number, number, number] = [rand() * 720 - 360, rand() * 720 - 360, rand() * 720 - 360]
      const q = eulerXYZDegToQuaternion(deg)
      const { x, y, z, w } = q
      // Standard rotation matrix of a unit quaternion (column vectors).
      const ref = [
        1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
        2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
        2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
      ]
      const m = eulerXYZDegToMatrix(deg)
      for (let i = 0; i < 9; i++) expect(m[i]).toBeCloseTo(ref[i], 6) // Babylon stores float32-ish
    }
  })
})

/**
 * Minimum of f over [0,1]^2: a dense nu x nv grid, then 4 zooms around the best sample, each
 * a 41 x 41 grid over +-2 cells of the previous one.
 */
function minimise2(f: (u: number, v: number) => number, nu: number, nv: number): number {
  let best = Infinity, bu = 0, bv = 0
  for (let i = 0; i <= nu; i++) {
    for (let j = 0; j <= nv; j++) {
      const d = f(i / nu, j / nv)
      if (d < best) {
        best = d
        bu = i / nu
        bv = j / nv
      }
    }
  }
  let du = 1 / nu, dv = 1 / nv
  for (let round = 0; round < 4; round++) {
    const cu = bu, cv = bv
    du /= 10
    dv /= 10
    for (let i = -20; i <= 20; i++) {
      for (let j = -20; j <= 20; j++) {
        const d = f(cu + i * du, cv + j * dv)
        if (d < best) {
          best = d
          bu = cu + i * du
          bv = cv + j * dv
        }
      }
    }
  }
  return best
}

/** Minimum of f over [0, 1] the same way. */
function minimise1(f: (t: number) => number, n: number): number {
  let best = Infinity, bt = 0, dt = 1 / n
  for (let i = 0; i <= n; i++) {
    const d = f(i / n)
    if (d < best) {
      best = d
      bt = i / n
    }
  }
  for (let round = 0; round < 6; round++) {
    const ct = bt
    dt /= 10
    for (let i = -20; i <= 20; i++) {
      const d = f(ct + i * dt)
      if (d < best) {
        best = d
        bt = ct + i * dt
      }
    }
  }
  return best
}

const hypot3 = (a: number[], b: number[]) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2])

describe('analytic SDFs', () => {
  it('box: faces, edges, corners, inside', () => {
    expect(boxSdf(0, 0, 0, 1, 0.5, 0.25)).toBe(-0.25)
    expect(boxSdf(2, 0, 0, 1, 0.5, 0.25)).toBe(1)
    expect(boxSdf(2, 1.5, 0, 1, 0.5, 0.25)).toBeCloseTo(Math.SQRT2, 15)
    expect(boxSdf(-2, 1.5, -1.25, 1, 0.5, 0.25)).toBeCloseTo(Math.sqrt(3), 15)
    expect(boxSdf(0.9, 0.1, 0, 1, 0.5, 0.25)).toBeCloseTo(-0.1, 15)
    expect(boxSdf(1, 0.5, 0.25, 1, 0.5, 0.25)).toBe(0)
  })

  it('ellipsoid: the exact distance (never above a minimised surface distance, and equal to it)', () => {
    const [a, b, c] = [1, 0.5, 0.3]
    const surface = (u: number, v: number) => {
      const th = Math.PI * u, ph = 2 * Math.PI * v
      return [a * Math.sin(th) * Math.cos(ph), b * Math.sin(th) * Math.sin(ph), c * Math.cos(th)]
    }
    const rand = rng(8)
    let worstGap = 0
    for (let n = 0; n < 60; n++) {
      const p = [(rand() - 0.5) * 3, (rand() - 0.5) * 2, (rand() - 0.5) * 1.5]
      if (n % 3 === 0) for (let k = 0; k < 3; k++) p[k] *= 0.2 // many inside
      const d = ellipsoidSdf(p[0], p[1], p[2], a, b, c)
      const inside = (p[0] / a) ** 2 + (p[1] / b) ** 2 + (p[2] / c) ** 2 < 1
      expect(d < 0).toBe(inside)
      const ref = minimise2((u, v) => hypot3(surface(u, v), p), 100, 200)
      // A true distance cannot exceed the distance to any surface point...
      expect(Math.abs(d)).toBeLessThanOrEqual(ref + 1e-12)
      // ...and a minimisation over the surface finds it.
      worstGap = Math.max(worstGap, ref - Math.abs(d))
    }
    expect(worstGap).toBeLessThan(1e-8)
    // Symmetric cases and axis points.
    expect(ellipsoidSdf(0, 0, 0, a, b, c)).toBeCloseTo(-0.3, 14)
    expect(ellipsoidSdf(2, 0, 0, a, b, c)).toBeCloseTo(1, 14)
    expect(ellipsoidSdf(0, 0, -1, a, b, c)).toBeCloseTo(0.7, 14)
    expect(ellipsoidSdf(0.5, 0, 0, 0.5, 0.5, 0.5)).toBe(0)
    // Equal axes reduce to a sphere.
    expect(ellipsoidSdf(0.3, 0.4, 1.2, 1, 1, 1)).toBeCloseTo(Math.hypot(0.3, 0.4, 1.2) - 1, 12)
  })

  it('ellipse: the exact 2D distance', () => {
    const rand = rng(9)
    for (let n = 0; n < 100; n++) {
      const x = (rand() - 0.5) * 4, y = (rand() - 0.5) * 2
      const d = ellipseSdf(x, y, 1.2, 0.4)
      let ref = Infinity
      for (let i = 0; i < 20000; i++) {
        const t = (2 * Math.PI * i) / 20000
        ref = Math.min(ref, Math.hypot(1.2 * Math.cos(t) - x, 0.4 * Math.sin(t) - y))
      }
      expect(Math.abs(d)).toBeLessThanOrEqual(ref + 1e-12)
      expect(ref - Math.abs(d)).toBeLessThan(1e-6)
    }
  })

  it('cylinder: circular known answers and the elliptic case against sampling', () => {
    // radius 0.5, half height 1
    expect(cylinderSdf(0, 0, 0, 0.5, 0.5, 1)).toBe(-0.5)
    expect(cylinderSdf(2, 0, 0, 0.5, 0.5, 1)).toBe(1.5)
    expect(cylinderSdf(0, 3, 0, 0.5, 0.5, 1)).toBe(2)
    expect(cylinderSdf(1.5, 2, 0, 0.5, 0.5, 1)).toBeCloseTo(Math.SQRT2, 15)
    expect(cylinderSdf(0, 0.9, 0, 0.5, 0.5, 1)).toBeCloseTo(-0.1, 15)
    // Elliptic: radii 1 (x) and 0.4 (z), half height 0.5. The side's closest point for angle
    // t has y clamped to [-h, h]; a cap's is the 2D point itself if it is inside the ellipse,
    // else a boundary point: so the reference minimises over t only.
    const [a, c, h] = [1, 0.4, 0.5]
    const rand = rng(10)
    let worstGap = 0
    for (let n = 0; n < 60; n++) {
      const p = [(rand() - 0.5) * 3, (rand() - 0.5) * 2, (rand() - 0.5) * 1.5]
      const d = cylinderSdf(p[0], p[1], p[2], a, c, h)
      const in2d = (p[0] / a) ** 2 + (p[2] / c) ** 2 < 1
      const yc = Math.max(-h, Math.min(h, p[1]))
      const side = minimise1((t) => hypot3([a * Math.cos(2 * Math.PI * t), yc, c * Math.sin(2 * Math.PI * t)], p), 2000)
      const capY = Math.min(Math.abs(p[1] - h), Math.abs(p[1] + h))
      const cap = in2d ? capY : minimise1((t) => Math.hypot(a * Math.cos(2 * Math.PI * t) - p[0], capY, c * Math.sin(2 * Math.PI * t) - p[2]), 2000)
      const ref = Math.min(side, cap)
      const inside = in2d && Math.abs(p[1]) < h
      expect(d < 0).toBe(inside)
      expect(Math.abs(d)).toBeLessThanOrEqual(ref + 1e-12)
      worstGap = Math.max(worstGap, ref - Math.abs(d))
    }
    expect(worstGap).toBeLessThan(1e-8)
  })
})

describe('PrimitiveSdf', () => {
  it('uses the viewport unit shapes: 1 m box, 1 m diameter sphere and cylinder', () => {
    const id = { position: [0, 0, 0], rotation: [0, 0, 0], scale: [1, 1, 1] }
    expect(new PrimitiveSdf('box', id).distance(1, 0, 0)).toBe(0.5)
    expect(new PrimitiveSdf('sphere', id).distance(1, 0, 0)).toBe(0.5)
    expect(new PrimitiveSdf('cylinder', id).distance(1, 0, 0)).toBe(0.5)
    expect(new PrimitiveSdf('cylinder', id).distance(0, 1, 0)).toBe(0.5) // axis along Y
    expect(new PrimitiveSdf('cylinder', id).distance(0, 0, 0)).toBe(-0.5)
  })

  it('applies scale, rotation and position: a rotated box agrees with the mesh SDF of the same transform', () => {
    const t = { position: [0.3, 1.2, -0.7], rotation: [30, -45, 110], scale: [2, 0.5, 1.3] }
    const prim = new PrimitiveSdf('box', t)
    const m = eulerXYZDegToMatrix(t.rotation)
    const base = cube(0.5)
    const pos = new Float32Array(base.positions.length)
    for (let i = 0; i < pos.length; i += 3) {
      const v = apply(m, [base.positions[i] * t.scale[0], base.positions[i + 1] * t.scale[1], base.positions[i + 2] * t.scale[2]])
      for (let k = 0; k < 3; k++) pos[i + k] = v[k] + t.position[k]
    }
    const mesh = new MeshSdf({ positions: pos, indices: base.indices })
    const rand = rng(12)
    let worst = 0
    for (let n = 0; n < 2000; n++) {
      const x = t.position[0] + (rand() - 0.5) * 4, y = t.position[1] + (rand() - 0.5) * 4, z = t.position[2] + (rand() - 0.5) * 4
      worst = Math.max(worst, Math.abs(prim.distance(x, y, z) - mesh.distance(x, y, z)))
    }
    expect(worst).toBeLessThan(1e-6) // float32 mesh vertices
    // Bounds contain the shape's corners.
    for (let i = 0; i < pos.length; i += 3) {
      for (let k = 0; k < 3; k++) {
        expect(pos[i + k]).toBeGreaterThanOrEqual(prim.bounds.min[k] - 1e-6)
        expect(pos[i + k]).toBeLessThanOrEqual(prim.bounds.max[k] + 1e-6)
      }
    }
  })

  it('a non-uniformly scaled, rotated sphere is the exact ellipsoid distance', () => {
    const t = { position: [1, 2, 3], rotation: [0, 0, 90], scale: [2, 1, 0.6] }
    const s = new PrimitiveSdf('sphere', t)
    // Rotated 90 deg about Z: the long (x) axis now points along world y.
    expect(s.distance(1, 2 + 1.5, 3)).toBeCloseTo(0.5, 12)
    expect(s.distance(1 + 1.5, 2, 3)).toBeCloseTo(1, 12)
    expect(s.distance(1, 2, 3)).toBeCloseTo(-0.3, 12)
  })

  it('rejects bad parameters with INVALID_PARAM', () => {
    const ok = { position: [0, 0, 0], rotation: [0, 0, 0], scale: [1, 1, 1] }
    const bad: [string, object][] = [
      ['cone', ok],
      ['box', { ...ok, scale: [1, 0, 1] }],
      ['box', { ...ok, scale: [1, -1, 1] }],
      ['sphere', { ...ok, position: [0, NaN, 0] }],
      ['cylinder', { ...ok, rotation: [0, 0] }],
    ]
    for (const [shape, t] of bad) {
      try {
        new PrimitiveSdf(shape as 'box', t as typeof ok)
        expect.unreachable()
      } catch (e) {
        expect(e).toBeInstanceOf(EddyError)
        expect((e as EddyError).code).toBe('INVALID_PARAM')
      }
    }
  })
})
