// Interpolation on the hybrid mesh (sim/hybrid/hybridInterpolation.ts, seed 000 section 3.5)
// and point location (hybridLocate.ts): the fits reproduce exactly the fields their basis
// spans. Constant-basis vertex MLS: any uniform velocity at every vertex of hybrid, all-tet and
// all-hex meshes. Linear MLS (eq. 11): an affine velocity in tetrahedra and transition
// hexahedra. Staggered trilinear: an affine velocity in plain hexahedra. Scalars: an affine
// field in the interior, and no new extrema. Location agrees with the geometry.
import { describe, expect, it } from 'vitest'
import { grid, sampleFaces, slabMesh, sphere, sphereMesh } from './hybridFixtures'
import { CLOSED_BOX } from '../../../../src-shared/sim/core/boundaries'
import { Prng } from '../../../../src-shared/sim/core/prng'
import {
  ACCURATE_CONSTANT, ACCURATE_LINEAR, ACCURATE_MAC, HybridInterpolation,
} from '../../../../src-shared/sim/hybrid/hybridInterpolation'
import { HybridLocator } from '../../../../src-shared/sim/hybrid/hybridLocate'
import {
  buildHybridMesh, CELL_HEX, CELL_TET, CELL_TRANSITION, type HybridMesh,
} from '../../../../src-shared/sim/hybrid/hybridMesh'
import { barycentricCoordinates } from '../../../../src-shared/geometry/tetmesh/tetBarycentric'

const plainMesh = (n: number, mode: 'tetrahedra' | 'hexahedra') => buildHybridMesh({ grid: grid(n), obstacle: null, mode, bandCells: 2, sides: CLOSED_BOX })

/** An affine field b + A x with all nine gradient entries different. */
const affine = (x: number, y: number, z: number, out: number[]) => {
  out[0] = 0.3 + 1.1 * x - 0.7 * y + 0.4 * z
  out[1] = -0.5 + 0.2 * x + 0.9 * y - 1.3 * z
  out[2] = 0.8 - 0.6 * x + 0.5 * y + 0.25 * z
}

/** Up to `count` random points of the unit cube inside the fluid that `accept` takes, with their cells. */
function samplePoints(m: HybridMesh, loc: HybridLocator, count: number, seed: number, accept: (x: number, y: number, z: number, c: number) => boolean): [number, number, number, number][] {
  const rng = new Prng(seed), out: [number, number, number, number][] = []
  for (let s = 0; s < 200 * count && out.length < count; s++) {
    const x = rng.next(), y = rng.next(), z = rng.next()
    const c = loc.cellAt(x, y, z)
    if (c >= 0 && accept(x, y, z, c)) out.push([x, y, z, c])
  }
  return out
}

describe('hybrid interpolation', () => {
  it.each([
    ['hybrid slab', () => slabMesh(10)],
    ['all tetrahedra', () => plainMesh(8, 'tetrahedra')],
    ['all hexahedra', () => plainMesh(8, 'hexahedra')],
  ] as const)('%s: constant vertex MLS reproduces a uniform velocity at every vertex (1e-12)', (name, make) => {
    const m = make()
    const interp = new HybridInterpolation(m)
    expect(interp.vertexFitFailures).toBe(0)
    const U = [0.3, -1.7, 0.9]
    const z = sampleFaces(m, (_x, _y, _z, o) => { o[0] = U[0]; o[1] = U[1]; o[2] = U[2] })
    const vv = new Float64Array(3 * m.vertexCount)
    interp.vertexVelocities(z, vv)
    let worst = 0
    for (let v = 0; v < m.vertexCount; v++) for (let a = 0; a < 3; a++) worst = Math.max(worst, Math.abs(vv[3 * v + a] - U[a]))
    console.log(`${name}: ${m.vertexCount} vertices (${m.hexCount} hexahedra, ${m.tetCount} tetrahedra), worst vertex error ${worst.toExponential(2)}`)
    expect(worst).toBeLessThan(1e-12)
    // The fast field is then that velocity everywhere (partition of unity).
    const loc = new HybridLocator(m), out = new Float64Array(3)
    let fastWorst = 0
    for (const [x, y, zz, c] of samplePoints(m, loc, 300, 3, () => true)) {
      interp.fastVelocityAt(x, y, zz, c, vv, out, 0)
      for (let a = 0; a < 3; a++) fastWorst = Math.max(fastWorst, Math.abs(out[a] - U[a]))
    }
    expect(fastWorst).toBeLessThan(1e-12)
  })

  it('locator: points land in cells that hold them, -1 inside the sphere and outside the domain; lastInside stops on the surface', () => {
    const m = sphereMesh(16)
    const loc = new HybridLocator(m)
    const rng = new Prng(11), lambda = new Float64Array(4), h = m.grid.dx
    let hex = 0, tet = 0, solid = 0
    for (let s = 0; s < 4000; s++) {
      const x = rng.next(), y = rng.next(), z = rng.next()
      const c = loc.cellAt(x, y, z), d = sphere(x, y, z)
      // The polyhedral surface is within a few hundredths of a cube of the sphere (its chords' sagitta, h^2 / 8R).
      if (d < -0.08 * h) expect(c).toBe(-1)
      if (d > 0.08 * h) expect(c).toBeGreaterThanOrEqual(0)
      if (c < 0) { solid++; continue }
      if (c < m.hexCount) {
        hex++
        for (let a = 0; a < 3; a++) expect(Math.abs([x, y, z][a] - m.cellCentre[3 * c + a])).toBeLessThanOrEqual(0.5 * h + 1e-12)
      } else {
        tet++
        barycentricCoordinates(m.positions, m.tets, c - m.hexCount, x, y, z, lambda)
        for (let k = 0; k < 4; k++) expect(lambda[k]).toBeGreaterThan(-1e-9)
      }
    }
    expect(hex).toBeGreaterThan(500)
    expect(tet).toBeGreaterThan(500)
    expect(solid).toBeGreaterThan(50)
    expect(loc.cellAt(-1e-9, 0.5, 0.5)).toBe(-1)
    expect(loc.cellAt(0.5, 1 + 1e-9, 0.5)).toBe(-1)
    expect(loc.cellAt(NaN, 0.5, 0.5)).toBe(-1)
    expect(loc.cellAt(1, 1, 1)).toBeGreaterThanOrEqual(0)
    // Segments from the fluid towards the sphere's centre stop on its surface.
    const p = new Float64Array(3)
    let worst = 0
    for (let s = 0; s < 50; s++) {
      const th = rng.range(0, Math.PI), ph = rng.range(0, 2 * Math.PI)
      const ax = 0.5 + 0.4 * Math.sin(th) * Math.cos(ph), ay = 0.45 + 0.4 * Math.sin(th) * Math.sin(ph), az = 0.5 + 0.4 * Math.cos(th)
      const ca = loc.cellAt(ax, ay, az)
      expect(ca).toBeGreaterThanOrEqual(0)
      const c = loc.lastInside(ax, ay, az, ca, 0.5, 0.45, 0.5, p)
      expect(c).toBe(loc.cellAt(p[0], p[1], p[2]))
      worst = Math.max(worst, Math.abs(sphere(p[0], p[1], p[2])))
    }
    console.log(`locator: ${hex} points in hexahedra, ${tet} in tetrahedra, ${solid} outside; lastInside within ${(worst / h).toExponential(2)} h of the sphere`)
    expect(worst).toBeLessThan(0.08 * h)
  })

  it.each([
    ['hybrid slab', () => slabMesh(10)],
    ['hybrid sphere', () => sphereMesh(14)],
    ['all tetrahedra', () => plainMesh(8, 'tetrahedra')],
  ] as const)('%s: linear MLS (eq. 11) reproduces an affine velocity in tetrahedra and transition hexahedra', (name, make) => {
    const m = make()
    const interp = new HybridInterpolation(m), loc = new HybridLocator(m)
    const z = sampleFaces(m, affine)
    const out = new Float64Array(3), exact = [0, 0, 0], counts = [0, 0, 0], kinds = [0, 0, 0]
    let worst = 0
    const pts = samplePoints(m, loc, 600, 7, (_x, _y, _z, c) => m.cellKind[c] !== CELL_HEX)
    // Cell centres too (every tetrahedron and transition hexahedron, where the lists are precomputed).
    for (let c = 0; c < m.cellCount; c++) if (m.cellKind[c] !== CELL_HEX) pts.push([m.cellCentre[3 * c], m.cellCentre[3 * c + 1], m.cellCentre[3 * c + 2], c])
    for (const [x, y, zz, c] of pts) {
      counts[interp.accurateVelocityAt(x, y, zz, c, z, out, 0)]++
      kinds[m.cellKind[c]]++
      affine(x, y, zz, exact)
      for (let a = 0; a < 3; a++) worst = Math.max(worst, Math.abs(out[a] - exact[a]))
    }
    console.log(`${name}: ${kinds[CELL_TET]} samples in tetrahedra, ${kinds[CELL_TRANSITION]} in transition hexahedra; ${counts[ACCURATE_LINEAR]} linear fits, ${counts[ACCURATE_CONSTANT]} constant fallbacks; worst error ${worst.toExponential(2)}`)
    expect(kinds[CELL_TET]).toBeGreaterThan(100)
    if (name !== 'all tetrahedra') expect(kinds[CELL_TRANSITION]).toBeGreaterThan(20)
    expect(counts[ACCURATE_CONSTANT]).toBe(0)
    expect(worst).toBeLessThan(1e-10)
  })

  it.each([
    ['hybrid slab', () => slabMesh(10)],
    ['hybrid sphere', () => sphereMesh(14)],
    ['all hexahedra', () => plainMesh(8, 'hexahedra')],
  ] as const)('%s: staggered trilinear reproduces an affine velocity in plain hexahedra (MLS where the stencil is incomplete)', (name, make) => {
    const m = make()
    const interp = new HybridInterpolation(m), loc = new HybridLocator(m)
    const z = sampleFaces(m, affine)
    const out = new Float64Array(3), exact = [0, 0, 0], counts = [0, 0, 0]
    let worstMac = 0, worstFallback = 0
    for (const [x, y, zz, c] of samplePoints(m, loc, 1500, 9, (_x, _y, _z, c) => m.cellKind[c] === CELL_HEX)) {
      const how = interp.accurateVelocityAt(x, y, zz, c, z, out, 0)
      counts[how]++
      affine(x, y, zz, exact)
      let e = 0
      for (let a = 0; a < 3; a++) e = Math.max(e, Math.abs(out[a] - exact[a]))
      if (how === ACCURATE_MAC) worstMac = Math.max(worstMac, e)
      else worstFallback = Math.max(worstFallback, e)
    }
    console.log(`${name}: ${counts[ACCURATE_MAC]} staggered trilinear (worst ${worstMac.toExponential(2)}), ${counts[ACCURATE_LINEAR]} linear MLS by the walls (worst ${worstFallback.toExponential(2)}), ${counts[ACCURATE_CONSTANT]} constant`)
    expect(counts[ACCURATE_MAC]).toBeGreaterThan(300)
    expect(counts[ACCURATE_CONSTANT]).toBe(0)
    expect(worstMac).toBeLessThan(1e-12)
    expect(worstFallback).toBeLessThan(1e-10)
  })

  it('staggered trilinear reads a split grid face as the area-weighted mean of its triangles', () => {
    // Plain hexahedra next to transition ones reach split faces diagonally; constant per axis faces check the averaging.
    const m = sphereMesh(14)
    let split = 0
    for (let g = 0; g + 1 < m.gridFaceStart.length; g++) if (m.gridFaceStart[g + 1] - m.gridFaceStart[g] === 4) split++
    expect(split).toBeGreaterThan(0)
    const interp = new HybridInterpolation(m)
    // z = U . n: every split face averages back to U's component.
    const U = [0.4, -0.25, 1.5]
    const z = sampleFaces(m, (_x, _y, _z, o) => { o[0] = U[0]; o[1] = U[1]; o[2] = U[2] })
    const out = new Float64Array(3)
    let worst = 0, n = 0
    for (let c = 0; c < m.hexCount; c++) {
      if (m.cellKind[c] !== CELL_HEX) continue
      for (let d = 0; d < 8; d++) {
        const x = m.cellCentre[3 * c] + ((d & 1) - 0.5) * 0.9 * m.grid.dx
        const y = m.cellCentre[3 * c + 1] + (((d >> 1) & 1) - 0.5) * 0.9 * m.grid.dx
        const zz = m.cellCentre[3 * c + 2] + ((d >> 2) - 0.5) * 0.9 * m.grid.dx
        if (interp.accurateVelocityAt(x, y, zz, c, z, out, 0) === ACCURATE_MAC) n++
        for (let a = 0; a < 3; a++) worst = Math.max(worst, Math.abs(out[a] - U[a]))
      }
    }
    expect(n).toBeGreaterThan(1000)
    expect(worst).toBeLessThan(1e-12)
  })

  it('scalarAt reproduces an affine scalar in the interior and makes no new extrema', () => {
    const m = sphereMesh(14)
    const interp = new HybridInterpolation(m), loc = new HybridLocator(m), h = m.grid.dx
    const s = (x: number, y: number, z: number) => 0.2 + 1.3 * x - 0.8 * y + 0.6 * z
    const values = new Float64Array(m.cellCount)
    for (let c = 0; c < m.cellCount; c++) values[c] = s(m.cellCentre[3 * c], m.cellCentre[3 * c + 1], m.cellCentre[3 * c + 2])
    const interior = (x: number, y: number, z: number) => sphere(x, y, z) > h && Math.min(x, y, z, 1 - x, 1 - y, 1 - z) > h
    let worstHex = 0, worstTet = 0, nTet = 0
    for (const [x, y, z, c] of samplePoints(m, loc, 1500, 13, interior)) {
      const e = Math.abs(interp.scalarAt(x, y, z, c, values) - s(x, y, z))
      if (m.cellKind[c] === CELL_TET) { worstTet = Math.max(worstTet, e); nTet++ } else worstHex = Math.max(worstHex, e)
    }
    console.log(`scalarAt, affine: worst ${worstHex.toExponential(2)} in hexahedra, ${worstTet.toExponential(2)} in ${nTet} tetrahedron samples`)
    expect(nTet).toBeGreaterThan(100)
    expect(worstHex).toBeLessThan(1e-12)
    expect(worstTet).toBeLessThan(1e-10)
    // A step (0 below the plane x + y = 1, 1 above) stays within [0, 1] everywhere, boundary included.
    for (let c = 0; c < m.cellCount; c++) values[c] = m.cellCentre[3 * c] + m.cellCentre[3 * c + 1] > 1 ? 1 : 0
    let lo = Infinity, hi = -Infinity
    for (const [x, y, z, c] of samplePoints(m, loc, 3000, 17, () => true)) {
      const v = interp.scalarAt(x, y, z, c, values)
      lo = Math.min(lo, v); hi = Math.max(hi, v)
    }
    expect(lo).toBeGreaterThanOrEqual(0)
    expect(hi).toBeLessThanOrEqual(1)
  })

  it('scalarsAt gives two scalars the bits of two scalarAt calls, in every cell type (float32 and float64 values, a step that clamps)', () => {
    const m = sphereMesh(14)
    const interp = new HybridInterpolation(m), loc = new HybridLocator(m)
    const a = new Float32Array(m.cellCount), b = new Float64Array(m.cellCount)
    for (let c = 0; c < m.cellCount; c++) {
      const x = m.cellCentre[3 * c], y = m.cellCentre[3 * c + 1], z = m.cellCentre[3 * c + 2]
      a[c] = Math.sin(9 * x) * Math.cos(7 * y) + z
      b[c] = x + y > 1 ? 300 : 290 + 3 * z
    }
    const pair = new Float64Array(2), kinds = new Set<number>()
    for (const [x, y, z, c] of samplePoints(m, loc, 3000, 23, () => true)) {
      interp.scalarsAt(x, y, z, c, a, b, pair)
      expect(Object.is(pair[0], interp.scalarAt(x, y, z, c, a))).toBe(true)
      expect(Object.is(pair[1], interp.scalarAt(x, y, z, c, b))).toBe(true)
      kinds.add(m.cellKind[c])
    }
    expect(kinds.size).toBeGreaterThanOrEqual(3)
  })

  it('refuses arrays of the wrong size by name', () => {
    const m = slabMesh(4)
    const interp = new HybridInterpolation(m)
    expect(() => interp.vertexVelocities(new Float64Array(m.faceCount - 1), new Float64Array(3 * m.vertexCount))).toThrow(/face velocities/)
    expect(() => interp.vertexVelocities(new Float64Array(m.faceCount), new Float64Array(m.vertexCount))).toThrow(/vertices/)
    expect(() => new HybridInterpolation(m, 0)).toThrow(/epsilon/)
  })
})
