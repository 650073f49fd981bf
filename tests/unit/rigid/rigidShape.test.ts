// Body geometry (rigidShape.ts, tessellate.ts): closed outward display meshes whose vertices
// lie on the shape, signed distances that agree with the exact ones of primitiveSdf.ts and
// MeshSdf, and gradients that agree with finite differences of the distance.
import { describe, expect, it } from 'vitest'
import { RigidShape } from '../../../src-shared/sim/rigid/rigidShape'
import { boxSdf, cylinderSdf, ellipsoidSdf } from '../../../src-shared/geometry/primitiveSdf'
import { MeshSdf } from '../../../src-shared/geometry/signedDistance'
import { isClosedSurface } from '../../../src-shared/geometry/closedSurface'
import { meshVolumeIntegrals } from '../../../src-shared/sim/rigid/massProperties'
import { rng } from '../geometry/meshes'
import { uPrism } from './meshes'

const obj = { id: 'o', name: 'Shape' }

const primitives: [string, RigidShape, (x: number, y: number, z: number) => number][] = [
  ['box 0.4 x 1 x 0.7', new RigidShape('box', [0.4, 1, 0.7], null, 500, obj), (x, y, z) => boxSdf(x, y, z, 0.2, 0.5, 0.35)],
  ['sphere 0.8', new RigidShape('sphere', [0.8, 0.8, 0.8], null, 500, obj), (x, y, z) => Math.hypot(x, y, z) - 0.4],
  ['ellipsoid 0.6 x 1 x 0.4', new RigidShape('sphere', [0.6, 1, 0.4], null, 500, obj), (x, y, z) => ellipsoidSdf(x, y, z, 0.3, 0.5, 0.2)],
  ['cylinder 0.5 x 1.2 x 0.5', new RigidShape('cylinder', [0.5, 1.2, 0.5], null, 500, obj), (x, y, z) => cylinderSdf(x, y, z, 0.25, 0.25, 0.6)],
  ['elliptic cylinder 0.8 x 0.5 x 0.4', new RigidShape('cylinder', [0.8, 0.5, 0.4], null, 500, obj), (x, y, z) => cylinderSdf(x, y, z, 0.4, 0.2, 0.25)],
]

describe('primitive shapes', () => {
  for (const [label, shape, exact] of primitives) {
    it(`${label}: display mesh closed and outward, vertices on the surface within 1e-6, bounding radius covers them`, () => {
      const mesh = { positions: shape.positions, indices: shape.indices }
      expect(isClosedSurface(mesh)).toBe(true)
      expect(meshVolumeIntegrals(mesh, 0, 0, 0)[0]).toBeGreaterThan(0)
      expect(shape.normals.length).toBe(shape.positions.length)
      let maxR = 0
      for (let i = 0; i < shape.samples.length; i += 3) {
        const x = shape.samples[i], y = shape.samples[i + 1], z = shape.samples[i + 2]
        expect(Math.abs(exact(x, y, z))).toBeLessThan(1e-6)
        maxR = Math.max(maxR, Math.hypot(x, y, z))
      }
      expect(maxR).toBeLessThanOrEqual(shape.boundingRadius * (1 + 1e-6))
      expect(maxR).toBeGreaterThan(shape.boundingRadius * 0.98)
    })

    it(`${label}: phi is the exact SDF; the gradient is a unit vector matching central differences within 1e-3 (ellipses 1e-2) within 0.02 m of the surface`, () => {
      const rand = rng(7)
      const g = new Float64Array(3)
      const h = 1e-6
      let checked = 0
      for (let k = 0; k < 2000 && checked < 300; k++) {
        const x = (rand() - 0.5) * 1.6, y = (rand() - 0.5) * 1.6, z = (rand() - 0.5) * 1.6
        const d = shape.phiGrad(x, y, z, g, 0)
        expect(Math.abs(d - exact(x, y, z))).toBeLessThan(1e-12)
        expect(Math.abs(shape.phi(x, y, z) - d)).toBeLessThan(1e-12)
        expect(Math.abs(Math.hypot(g[0], g[1], g[2]) - 1)).toBeLessThan(1e-9)
        // Contacts live within a few percent of the size of the surface; the ellipsoid's
        // gradient is the normal at an estimate of the closest point, exact on the surface.
        if (Math.abs(d) > 0.02) continue
        const fd = [exact(x + h, y, z) - exact(x - h, y, z), exact(x, y + h, z) - exact(x, y - h, z), exact(x, y, z + h) - exact(x, y, z - h)].map((v) => v / (2 * h))
        const fl = Math.hypot(fd[0], fd[1], fd[2])
        if (Math.abs(fl - 1) > 1e-3) continue // at a crease (box edge, cylinder rim) the SDF has no gradient
        const tol = label.startsWith('ellipsoid') || label.startsWith('elliptic') ? 0.01 : 1e-3
        expect(Math.hypot(g[0] - fd[0], g[1] - fd[1], g[2] - fd[2])).toBeLessThan(tol)
        checked++
      }
      expect(checked).toBeGreaterThan(20)
    })
  }

  it('ellipsoid and cylinder support points are on the surface, farthest along the direction (1e-9)', () => {
    const out = new Float64Array(3)
    const rand = rng(3)
    for (const [, shape, exact] of [primitives[2], primitives[4]]) {
      for (let k = 0; k < 50; k++) {
        const d = [rand() - 0.5, rand() - 0.5, rand() - 0.5]
        expect(shape.supportPoint(d[0], d[1], d[2], out)).toBe(true)
        expect(Math.abs(exact(out[0], out[1], out[2]))).toBeLessThan(1e-9)
        const best = out[0] * d[0] + out[1] * d[1] + out[2] * d[2]
        let far = -Infinity
        for (let i = 0; i < shape.samples.length; i += 3) far = Math.max(far, shape.samples[i] * d[0] + shape.samples[i + 1] * d[1] + shape.samples[i + 2] * d[2])
        expect(far).toBeLessThanOrEqual(best + 1e-9)
      }
    }
  })
})

describe('mesh shape (concave U block)', () => {
  const s = 0.4
  const mesh = uPrism(s)
  const shape = new RigidShape('mesh', null, mesh, 700, obj)
  const exact = new MeshSdf(mesh)
  const c = shape.comOffset

  it('is centred on its centre of mass: COM (0.6, 0.333, 0.2) in object coordinates within 1e-6; display mesh = object mesh - COM', () => {
    // U = [0,3]x[0,1] (area 3, centroid y 0.5) + two [1x1] posts (centroid y 1.5): y = (1.5 + 3) / 5 ... times s.
    expect(Math.abs(c[0] - 1.5 * s)).toBeLessThan(1e-6)
    expect(Math.abs(c[1] - ((3 * 0.5 + 2 * 1.5) / 5) * s)).toBeLessThan(1e-6)
    expect(Math.abs(c[2] - 0.5 * s)).toBeLessThan(1e-6)
    for (let i = 0; i < mesh.positions.length; i++) expect(shape.positions[i]).toBeCloseTo(mesh.positions[i] - c[i % 3], 6)
  })

  it('grid distance matches the exact mesh distance within 1/4 cell near the surface, with the right sign everywhere (cavity included)', () => {
    const rand = rng(11)
    const dx = (3 * s) / 48
    let near = 0
    for (let k = 0; k < 3000; k++) {
      const x = -0.1 + rand() * (3 * s + 0.2), y = -0.1 + rand() * (2 * s + 0.2), z = -0.1 + rand() * (s + 0.2)
      const d = exact.distance(x, y, z)
      const g = shape.phi(x - c[0], y - c[1], z - c[2])
      if (Math.abs(d) > 1.5 * dx) {
        expect(Math.sign(g)).toBe(Math.sign(d))
      } else {
        // Trilinear interpolation is exact on flat faces and rounds the creases.
        expect(Math.abs(g - d)).toBeLessThan(0.25 * dx)
        near++
      }
    }
    expect(near).toBeGreaterThan(100)
    // The middle of the cavity is outside, 0.5 s = 8 cells from the surfaces around it:
    // beyond the grid's band of 4 cells, so it reads +band.
    expect(shape.phi(1.5 * s - c[0], 1.5 * s - c[1], 0.5 * s - c[2])).toBeCloseTo(4 * dx, 6)
    expect(shape.phi(1.5 * s - c[0], 0.5 * s - c[1], 0.5 * s - c[2])).toBeCloseTo(-4 * dx, 6)
  })

  it('grid gradient points along the exact distance gradient near faces (within 0.1)', () => {
    const rand = rng(5)
    const g = new Float64Array(3)
    const h = 1e-4
    let n = 0
    for (let k = 0; k < 3000 && n < 200; k++) {
      const x = rand() * 3 * s, y = rand() * 2 * s, z = rand() * s
      const d = exact.distance(x, y, z)
      if (Math.abs(d) > 0.02) continue
      const fd = [exact.distance(x + h, y, z) - exact.distance(x - h, y, z), exact.distance(x, y + h, z) - exact.distance(x, y - h, z), exact.distance(x, y, z + h) - exact.distance(x, y, z - h)].map((v) => v / (2 * h))
      if (Math.abs(Math.hypot(fd[0], fd[1], fd[2]) - 1) > 1e-3) continue
      // Away from edges (near two face planes at once), where the grid rounds the crease.
      const planes = [[0, 1, 2, 3], [0, 1, 2], [0, 1]]
      const nearPlanes = [x, y, z].filter((v, i) => planes[i].some((e) => Math.abs(v - e * s) < 0.05)).length
      if (nearPlanes > 1) continue
      shape.phiGrad(x - c[0], y - c[1], z - c[2], g, 0)
      expect(Math.hypot(g[0] - fd[0], g[1] - fd[1], g[2] - fd[2])).toBeLessThan(0.1)
      n++
    }
    expect(n).toBeGreaterThan(20)
  })

  it('samples include points along its long edges, not only its 16 corners', () => {
    expect(shape.sampleCount).toBeGreaterThan(16 * 4)
    for (let i = 0; i < shape.samples.length; i += 3) {
      expect(Math.abs(exact.distance(shape.samples[i] + c[0], shape.samples[i + 1] + c[1], shape.samples[i + 2] + c[2]))).toBeLessThan(1e-6)
    }
  })
})

describe('mesh distance grids shared by content', () => {
  const gridOf = (s: RigidShape) => (s as unknown as { grid: unknown }).grid
  it('copies of one mesh share one grid; a different mesh of the same size, or another resolution, gets its own', () => {
    const a = new RigidShape('mesh', null, uPrism(0.3), 700, obj)
    const b = new RigidShape('mesh', null, uPrism(0.3), 2000, obj)
    expect(gridOf(b)).toBe(gridOf(a))
    // Same vertex and triangle counts, other positions: its own grid, with its own distances.
    const c = new RigidShape('mesh', null, uPrism(0.31), 700, obj)
    expect(gridOf(c)).not.toBe(gridOf(a))
    expect(c.phi(0, 0, 0)).not.toBe(a.phi(0, 0, 0))
    const d = new RigidShape('mesh', null, uPrism(0.3), 700, obj, { sdfResolution: 24 })
    expect(gridOf(d)).not.toBe(gridOf(a))
  })
})
