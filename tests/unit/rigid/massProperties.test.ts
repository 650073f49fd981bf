// Mass properties (massProperties.ts) against answers from outside the code: textbook
// formulas for boxes, spheres and cylinders, the parallel-axis composition of an L-shaped
// block, containment bounds for a tessellated sphere, and a brute-force quadrature for the
// Stanford bunny.
import { describe, expect, it } from 'vitest'
import bunny from 'bunny'
import { meshMassProperties, primitiveMassProperties } from '../../../src-shared/sim/rigid/massProperties'
import { boxMesh, cylinderMesh, ellipsoidMesh } from '../../../src-shared/sim/rigid/tessellate'
import { isClosedSurface } from '../../../src-shared/geometry/closedSurface'
import { EddyError } from '../../../src-shared/api/errors'
import type { TriMesh } from '../../../src-shared/geometry/triMesh'
import { cube, flipped, withoutTriangles } from '../geometry/meshes'
import { boxProperties, compositeInertia, lPrism } from './meshes'

const obj = { id: 'obj-1', name: 'Block' }

function translated(mesh: TriMesh, t: number[]): TriMesh {
  const p = Float32Array.from(mesh.positions)
  for (let i = 0; i < p.length; i += 3) {
    p[i] += t[0]
    p[i + 1] += t[1]
    p[i + 2] += t[2]
  }
  return { positions: p, indices: mesh.indices }
}

/** Largest |a - b| over entries, relative to the largest |b|. */
function relErr(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let scale = 0, err = 0
  for (let i = 0; i < b.length; i++) scale = Math.max(scale, Math.abs(b[i]))
  for (let i = 0; i < b.length; i++) err = Math.max(err, Math.abs(a[i] - b[i]))
  return err / scale
}

function diag3(d: number[]): number[] {
  return [d[0], 0, 0, 0, d[1], 0, 0, 0, d[2]]
}

describe('mesh mass properties against textbook boxes', () => {
  it('unit cube (12 triangles) far from the origin: V = 1, m = rho, COM = its centre, I = m/6 E, all within 1e-9 relative', () => {
    // Far from the origin so that forgetting to subtract a reference point would lose digits.
    const mp = meshMassProperties(translated(cube(0.5), [1000, -2000, 500]), 800, obj)
    expect(Math.abs(mp.volume - 1)).toBeLessThan(1e-9)
    expect(Math.abs(mp.mass - 800)).toBeLessThan(800e-9)
    expect(relErr(mp.centerOfMass, [1000, -2000, 500])).toBeLessThan(1e-9)
    expect(relErr(mp.inertia, diag3([800 / 6, 800 / 6, 800 / 6]))).toBeLessThan(1e-9)
  })

  it('scaled box 0.3 x 1.2 x 2 (subdivided faces) equals the textbook box and primitiveMassProperties within 1e-9', () => {
    const s = [0.3, 1.2, 2]
    const t = boxMesh(s[0] / 2, s[1] / 2, s[2] / 2, [3, 5, 7])
    expect(isClosedSurface(t)).toBe(true)
    const mp = meshMassProperties(t, 650, obj)
    const ref = boxProperties([-s[0] / 2, -s[1] / 2, -s[2] / 2], [s[0] / 2, s[1] / 2, s[2] / 2], 650)
    expect(Math.abs(mp.mass / ref.m - 1)).toBeLessThan(1e-6) // float32 vertices
    expect(relErr(mp.inertia, diag3(ref.diag))).toBeLessThan(1e-6)
    expect(Math.hypot(...mp.centerOfMass)).toBeLessThan(1e-7)
    const prim = primitiveMassProperties('box', s, 650, obj)
    expect(Math.abs(prim.mass / ref.m - 1)).toBeLessThan(1e-12)
    expect(relErr(prim.inertia, diag3(ref.diag))).toBeLessThan(1e-12)
  })

  it('rotated cube: inertia = R I R^T with off-diagonal products, within 1e-6', () => {
    // Rotate a 2 x 1 x 0.5 box by 30 degrees about z: I_world = R diag(Ixx, Iyy, Izz) R^T.
    const t = boxMesh(1, 0.5, 0.25, [2, 2, 2])
    const c = Math.cos(Math.PI / 6), s = Math.sin(Math.PI / 6)
    const p = Float32Array.from(t.positions)
    for (let i = 0; i < p.length; i += 3) {
      const x = t.positions[i], y = t.positions[i + 1]
      p[i] = c * x - s * y
      p[i + 1] = s * x + c * y
    }
    const mp = meshMassProperties({ positions: p, indices: t.indices }, 1000, obj)
    const ref = boxProperties([-1, -0.5, -0.25], [1, 0.5, 0.25], 1000)
    const [a, b, cc] = ref.diag
    const expected = [c * c * a + s * s * b, c * s * (a - b), 0, c * s * (a - b), s * s * a + c * c * b, 0, 0, 0, cc]
    expect(relErr(mp.inertia, expected)).toBeLessThan(1e-6)
  })
})

describe('primitive mass properties', () => {
  it('sphere of diameter 1 m: V = pi/6, I = 2/5 m r^2 on each axis (exact)', () => {
    const mp = primitiveMassProperties('sphere', [1, 1, 1], 1000, obj)
    expect(mp.volume).toBeCloseTo(Math.PI / 6, 14)
    expect(relErr(mp.inertia, diag3([0.4 * mp.mass * 0.25, 0.4 * mp.mass * 0.25, 0.4 * mp.mass * 0.25]))).toBeLessThan(1e-14)
  })

  it('tessellated sphere (icosphere, 2562 vertices) lies between the analytic balls of its inradius and circumradius', () => {
    // The polyhedron contains the ball of radius r_in (its nearest face plane) and is inside
    // the unit ball, and volume and each I_ii = integral of (y^2 + z^2) grow with the set.
    const t = ellipsoidMesh(1, 1, 1, 4)
    const mp = meshMassProperties(t, 1, obj)
    const p = t.positions, idx = t.indices
    let rin = Infinity
    for (let k = 0; k < idx.length; k += 3) {
      const a = 3 * idx[k], b = 3 * idx[k + 1], c = 3 * idx[k + 2]
      const u = [p[b] - p[a], p[b + 1] - p[a + 1], p[b + 2] - p[a + 2]], v = [p[c] - p[a], p[c + 1] - p[a + 1], p[c + 2] - p[a + 2]]
      const n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
      rin = Math.min(rin, Math.abs(n[0] * p[a] + n[1] * p[a + 1] + n[2] * p[a + 2]) / Math.hypot(n[0], n[1], n[2]))
    }
    const ball = (r: number) => primitiveMassProperties('sphere', [2 * r, 2 * r, 2 * r], 1, obj)
    const lo = ball(rin), hi = ball(1.000001)
    expect(rin).toBeGreaterThan(0.99)
    expect(mp.volume).toBeGreaterThan(lo.volume)
    expect(mp.volume).toBeLessThan(hi.volume)
    for (const d of [0, 4, 8]) {
      expect(mp.inertia[d]).toBeGreaterThan(lo.inertia[d])
      expect(mp.inertia[d]).toBeLessThan(hi.inertia[d])
    }
    // And the tessellation error itself is small: within 0.5% of the analytic ball.
    expect(Math.abs(mp.volume / hi.volume - 1)).toBeLessThan(0.005)
  })

  it('ellipsoid 0.6 x 1 x 1.6: V = pi/6 abc, I = m/5 (b^2 + c^2, ...) with semi-axes; a fine tessellation agrees within 0.5%', () => {
    const s = [0.6, 1, 1.6]
    const mp = primitiveMassProperties('sphere', s, 900, obj)
    const a = 0.3, b = 0.5, c = 0.8
    const m = (900 * 4 * Math.PI * a * b * c) / 3
    expect(Math.abs(mp.mass / m - 1)).toBeLessThan(1e-14)
    expect(relErr(mp.inertia, diag3([(m * (b * b + c * c)) / 5, (m * (a * a + c * c)) / 5, (m * (a * a + b * b)) / 5]))).toBeLessThan(1e-14)
    const mesh = meshMassProperties(ellipsoidMesh(a, b, c, 4), 900, obj)
    expect(Math.abs(mesh.mass / m - 1)).toBeLessThan(0.005)
    expect(relErr(mesh.inertia, mp.inertia)).toBeLessThan(0.005)
  })

  it('elliptic cylinder 0.8 x 1.5 x 0.4 along Y: V = pi a c h, I = m (c^2/4 + h^2/12, (a^2+c^2)/4, a^2/4 + h^2/12); a 256-gon prism agrees within 0.1%', () => {
    const mp = primitiveMassProperties('cylinder', [0.8, 1.5, 0.4], 700, obj)
    const a = 0.4, c = 0.2, h = 1.5
    const m = 700 * Math.PI * a * c * h
    expect(Math.abs(mp.mass / m - 1)).toBeLessThan(1e-14)
    expect(relErr(mp.inertia, diag3([m * ((c * c) / 4 + (h * h) / 12), (m * (a * a + c * c)) / 4, m * ((a * a) / 4 + (h * h) / 12)]))).toBeLessThan(1e-14)
    const t = cylinderMesh(a, c, h / 2, 256)
    expect(isClosedSurface(t)).toBe(true)
    const mesh = meshMassProperties(t, 700, obj)
    expect(Math.abs(mesh.mass / m - 1)).toBeLessThan(0.001)
    expect(relErr(mesh.inertia, mp.inertia)).toBeLessThan(0.001)
  })
})

describe('concave mesh', () => {
  it('L-shaped block: mass, COM and full inertia tensor equal the parallel-axis sum of its two boxes within 1e-6', () => {
    const s = 0.5, rho = 1200
    const mp = meshMassProperties(lPrism(s), rho, obj)
    // [0,2]x[0,1]x[0,1] and [0,1]x[1,3]x[0,1], times s.
    const p1 = boxProperties([0, 0, 0], [2 * s, s, s], rho)
    const p2 = boxProperties([0, s, 0], [s, 3 * s, s], rho)
    const m = p1.m + p2.m
    const com = [0, 1, 2].map((k) => (p1.m * p1.com[k] + p2.m * p2.com[k]) / m)
    expect(Math.abs(mp.mass / m - 1)).toBeLessThan(1e-6)
    expect(relErr(mp.centerOfMass, com)).toBeLessThan(1e-6)
    const I = compositeInertia([p1, p2], com)
    // The product of inertia I_xy is nonzero for an L: a diagonal-only answer fails here.
    expect(Math.abs(I[1])).toBeGreaterThan(0.1 * I[0])
    expect(relErr(mp.inertia, I)).toBeLessThan(1e-6)
  })
})

/**
 * Volume integrals of 1, x, y, z, x^2, y^2, z^2, xy, yz, zx over a closed mesh by
 * quadrature over an n x n grid of lines along x: each line crosses the surface at points
 * where it enters (normal x < 0) and leaves (> 0); the integral of f along the line inside
 * the solid is sum over crossings of sign(n_x) F(x_hit), F the antiderivative of f in x.
 * Midpoint rule in (y, z); triangles binned by their yz bounds.
 */
function columnQuadrature(mesh: TriMesh, n: number): number[] {
  const p = mesh.positions, idx = mesh.indices
  let y0 = Infinity, y1 = -Infinity, z0 = Infinity, z1 = -Infinity
  for (let i = 0; i < p.length; i += 3) {
    y0 = Math.min(y0, p[i + 1]); y1 = Math.max(y1, p[i + 1])
    z0 = Math.min(z0, p[i + 2]); z1 = Math.max(z1, p[i + 2])
  }
  const hy = (y1 - y0) / n, hz = (z1 - z0) / n
  const bins: number[][] = Array.from({ length: n * n }, () => [])
  for (let t = 0; t < idx.length; t += 3) {
    const ys = [p[3 * idx[t] + 1], p[3 * idx[t + 1] + 1], p[3 * idx[t + 2] + 1]]
    const zs = [p[3 * idx[t] + 2], p[3 * idx[t + 1] + 2], p[3 * idx[t + 2] + 2]]
    const j0 = Math.max(0, Math.floor((Math.min(...ys) - y0) / hy)), j1 = Math.min(n - 1, Math.floor((Math.max(...ys) - y0) / hy))
    const k0 = Math.max(0, Math.floor((Math.min(...zs) - z0) / hz)), k1 = Math.min(n - 1, Math.floor((Math.max(...zs) - z0) / hz))
    for (let k = k0; k <= k1; k++) for (let j = j0; j <= j1; j++) bins[j + n * k].push(t)
  }
  const s = new Array(10).fill(0)
  for (let k = 0; k < n; k++) {
    for (let j = 0; j < n; j++) {
      // Cell centres nudged by an irrational fraction so no line passes exactly through an edge.
      const y = y0 + (j + 0.5 + 1e-4 * Math.SQRT2) * hy, z = z0 + (k + 0.5 + 1e-4 * Math.PI) * hz
      for (const t of bins[j + n * k]) {
        const a = 3 * idx[t], b = 3 * idx[t + 1], c = 3 * idx[t + 2]
        // Barycentric coordinates of (y, z) in the triangle's yz projection.
        const d = (p[b + 1] - p[a + 1]) * (p[c + 2] - p[a + 2]) - (p[c + 1] - p[a + 1]) * (p[b + 2] - p[a + 2])
        if (d === 0) continue
        const u = ((y - p[a + 1]) * (p[c + 2] - p[a + 2]) - (p[c + 1] - p[a + 1]) * (z - p[a + 2])) / d
        const v = ((p[b + 1] - p[a + 1]) * (z - p[a + 2]) - (y - p[a + 1]) * (p[b + 2] - p[a + 2])) / d
        if (u < 0 || v < 0 || u + v > 1) continue
        const x = p[a] + u * (p[b] - p[a]) + v * (p[c] - p[a])
        // d is the x component of (b - a) x (c - a): the outward normal's x direction.
        const sg = d > 0 ? 1 : -1
        const F = [x, (x * x) / 2, y * x, z * x, (x * x * x) / 3, y * y * x, z * z * x, (y * x * x) / 2, y * z * x, (z * x * x) / 2]
        for (let q = 0; q < 10; q++) s[q] += sg * F[q]
      }
    }
  }
  return s.map((v) => v * hy * hz)
}

describe('Stanford bunny', () => {
  it('mass, centre of mass and inertia agree with a 300 x 300 line quadrature: V and I within 0.1%, COM within 0.1% of the size', () => {
    const mesh: TriMesh = { positions: Float32Array.from(bunny.positions.flat()), indices: Uint32Array.from(bunny.cells.flat()) }
    expect(isClosedSurface(mesh)).toBe(true)
    const rho = 2.5
    const mp = meshMassProperties(mesh, rho, obj)
    const q = columnQuadrature(mesh, 300)
    const V = q[0]
    const com = [q[1] / V, q[2] / V, q[3] / V]
    const sxx = q[4] - V * com[0] * com[0], syy = q[5] - V * com[1] * com[1], szz = q[6] - V * com[2] * com[2]
    const sxy = q[7] - V * com[0] * com[1], syz = q[8] - V * com[1] * com[2], szx = q[9] - V * com[2] * com[0]
    const I = [syy + szz, -sxy, -szx, -sxy, sxx + szz, -syz, -szx, -syz, sxx + syy].map((v) => rho * v)
    expect(Math.abs(mp.volume / V - 1)).toBeLessThan(0.001)
    expect(Math.abs(mp.mass / (rho * V) - 1)).toBeLessThan(0.001)
    // The bunny is about 10 units across.
    expect(Math.hypot(mp.centerOfMass[0] - com[0], mp.centerOfMass[1] - com[1], mp.centerOfMass[2] - com[2])).toBeLessThan(0.01)
    expect(relErr(mp.inertia, I)).toBeLessThan(0.001)
  })
})

describe('refusals', () => {
  const code = (f: () => unknown): string | undefined => {
    try {
      f()
    } catch (e) {
      if (e instanceof EddyError) return `${e.code}: ${e.message}`
      throw e
    }
    return undefined
  }

  it('refuses an open mesh, naming the object', () => {
    const open = withoutTriangles(cube(0.5), (t) => t === 3)
    expect(code(() => meshMassProperties(open, 1000, obj))).toMatch(/^INVALID_PARAM: Rigid body "Block": its mesh is not closed/)
  })

  it('refuses a closed mesh with zero volume (a double-sided square) and an inside-out one', () => {
    const flat: TriMesh = {
      positions: Float32Array.from([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]),
      indices: Uint32Array.from([0, 1, 2, 0, 2, 3, 0, 2, 1, 0, 3, 2]),
    }
    expect(code(() => meshMassProperties(flat, 1000, obj))).toMatch(/"Block": its mesh encloses no volume/)
    expect(code(() => meshMassProperties(flipped(cube(0.5)), 1000, obj))).toMatch(/"Block": its mesh is inside out/)
  })

  it('refuses a density that is zero, negative or not finite, for meshes and primitives', () => {
    for (const rho of [0, -5, NaN, Infinity]) {
      expect(code(() => meshMassProperties(cube(0.5), rho, obj))).toMatch(/"Block": density must be a positive finite number/)
      expect(code(() => primitiveMassProperties('box', [1, 1, 1], rho, obj))).toMatch(/"Block": density must be a positive finite number/)
    }
  })

  it('refuses a zero or non-finite scale', () => {
    expect(code(() => primitiveMassProperties('sphere', [1, 0, 1], 1000, obj))).toMatch(/"Block": scale must be positive/)
    expect(code(() => primitiveMassProperties('cylinder', [1, NaN, 1], 1000, obj))).toMatch(/"Block": scale must be positive/)
  })
})
