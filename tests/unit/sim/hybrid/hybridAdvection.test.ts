// Semi-Lagrangian advection on the hybrid mesh (sim/hybrid/hybridAdvection.ts, seed 000
// sections 3.3 and 3.5): a uniform flow stays uniform to rounding across the tet/hex
// transition (and past an obstacle); an affine scalar is carried exactly by a uniform flow; a
// tracker particle in a rigid rotation comes back after one revolution; traces that leave the
// fluid stop on its boundary; the kinematics are deterministic.
import { describe, expect, it } from 'vitest'
import { sampleFaces, slabMesh, sphere, sphereMesh } from './hybridFixtures'
import { HybridAdvection } from '../../../../src-shared/sim/hybrid/hybridAdvection'
import { HybridInterpolation } from '../../../../src-shared/sim/hybrid/hybridInterpolation'

describe('hybrid semi-Lagrangian advection', () => {
  it.each([
    ['hybrid slab', () => slabMesh(12)],
    ['hybrid sphere', () => sphereMesh(14)],
  ] as const)('%s: a uniform flow stays uniform (1e-10) for 6 steps of 1.5 cells', (name, make) => {
    const m = make()
    const interp = new HybridInterpolation(m)
    const adv = new HybridAdvection(interp)
    const U = [0.9, 0.35, -0.2]
    let z = sampleFaces(m, (_x, _y, _z, o) => { o[0] = U[0]; o[1] = U[1]; o[2] = U[2] })
    const exact = z.slice()
    let zNew: Float64Array = new Float64Array(m.faceCount)
    const vv = new Float64Array(3 * m.vertexCount)
    const dt = (1.5 * m.grid.dx) / Math.hypot(U[0], U[1], U[2])
    let clamped = 0
    for (let step = 0; step < 6; step++) {
      interp.vertexVelocities(z, vv)
      adv.advectFaces(z, vv, dt, zNew)
      clamped += adv.clampedTraces
      ;[z, zNew] = [zNew, z]
    }
    let worst = 0
    for (let f = 0; f < m.faceCount; f++) worst = Math.max(worst, Math.abs(z[f] - exact[f]))
    console.log(`${name}: ${m.faceCount} faces (${m.tetCount} tetrahedra), 6 steps of 1.5 cells: worst face error ${worst.toExponential(2)}, ${clamped} traces stopped at the boundary`)
    expect(clamped).toBeGreaterThan(0)
    expect(worst).toBeLessThan(1e-10)
  })

  it('an affine scalar is carried exactly by a uniform flow away from the walls', () => {
    const m = slabMesh(12)
    const interp = new HybridInterpolation(m)
    const adv = new HybridAdvection(interp)
    const U = [0.6, -0.3, 0.45]
    const z = sampleFaces(m, (_x, _y, _z, o) => { o[0] = U[0]; o[1] = U[1]; o[2] = U[2] })
    const vv = new Float64Array(3 * m.vertexCount)
    interp.vertexVelocities(z, vv)
    const s = (x: number, y: number, zz: number) => 1 + 2 * x - 0.5 * y + 0.7 * zz
    const C = m.cellCentre, values = new Float64Array(m.cellCount), out = new Float64Array(m.cellCount)
    for (let c = 0; c < m.cellCount; c++) values[c] = s(C[3 * c], C[3 * c + 1], C[3 * c + 2])
    const dt = 0.1
    adv.advectCells(values, vv, dt, out)
    const margin = 2 * m.grid.dx
    let worst = 0, n = 0
    for (let c = 0; c < m.cellCount; c++) {
      const x = C[3 * c] - U[0] * dt, y = C[3 * c + 1] - U[1] * dt, zz = C[3 * c + 2] - U[2] * dt
      if (Math.min(x, y, zz, 1 - x, 1 - y, 1 - zz) < margin) continue
      worst = Math.max(worst, Math.abs(out[c] - s(x, y, zz)))
      n++
    }
    console.log(`advectCells: ${n} interior cells (of ${m.cellCount}), worst error ${worst.toExponential(2)}`)
    expect(n).toBeGreaterThan(200)
    expect(worst).toBeLessThan(1e-10)
    // Two scalars from one set of traces: each the bits of its own call.
    const second = new Float64Array(m.cellCount), outA = new Float64Array(m.cellCount), outB = new Float64Array(m.cellCount), alone = new Float64Array(m.cellCount)
    for (let c = 0; c < m.cellCount; c++) second[c] = Math.sin(7 * C[3 * c]) * Math.cos(5 * C[3 * c + 1]) + C[3 * c + 2]
    adv.advectCells(values, vv, dt, outA, second, outB)
    adv.advectCells(second, vv, dt, alone)
    for (let c = 0; c < m.cellCount; c++) {
      expect(Object.is(outA[c], out[c])).toBe(true)
      expect(Object.is(outB[c], alone[c])).toBe(true)
    }
    expect(alone.some((v, c) => v !== second[c])).toBe(true)
  })

  it('a rigid rotation carries tracker particles once round and back to within a few percent of the radius', () => {
    const m = slabMesh(20)
    const interp = new HybridInterpolation(m)
    const adv = new HybridAdvection(interp)
    const omega = 2 * Math.PI, cx = 0.5, cy = 0.5
    const z = sampleFaces(m, (x, y, _z, o) => { o[0] = -omega * (y - cy); o[1] = omega * (x - cx); o[2] = 0 })
    const vv = new Float64Array(3 * m.vertexCount)
    interp.vertexVelocities(z, vv)
    const radius = 0.25, count = 8
    const px = new Float64Array(count), py = new Float64Array(count), pz = new Float64Array(count)
    for (let p = 0; p < count; p++) {
      const a = (2 * Math.PI * p) / count
      px[p] = cx + radius * Math.cos(a); py[p] = cy + radius * Math.sin(a); pz[p] = 0.3 + 0.05 * p
    }
    const x0 = px.slice(), y0 = py.slice(), z0 = pz.slice()
    const steps = 200
    let lost = 0, worstRadius = 0
    for (let s = 0; s < steps; s++) {
      lost += adv.advectPoints(px, py, pz, count, vv, 1 / steps)
      for (let p = 0; p < count; p++) worstRadius = Math.max(worstRadius, Math.abs(Math.hypot(px[p] - cx, py[p] - cy) - radius))
    }
    let worstReturn = 0, worstZ = 0
    for (let p = 0; p < count; p++) {
      worstReturn = Math.max(worstReturn, Math.hypot(px[p] - x0[p], py[p] - y0[p], pz[p] - z0[p]))
      worstZ = Math.max(worstZ, Math.abs(pz[p] - z0[p]))
    }
    console.log(`rotation, ${count} particles at r = ${radius}, ${steps} RK2 steps through the slab of tetrahedra: back within ${(100 * worstReturn / radius).toFixed(2)}% of r, radius drift at most ${(100 * worstRadius / radius).toFixed(2)}%, height drift ${(100 * worstZ / radius).toFixed(3)}%`)
    expect(lost).toBe(0)
    expect(worstReturn / radius).toBeLessThan(0.03)
    expect(worstRadius / radius).toBeLessThan(0.03)
  })

  it('particles and traces that leave the fluid stop on its boundary; particles outside stay put, flagged', () => {
    const m = sphereMesh(14)
    const interp = new HybridInterpolation(m)
    const adv = new HybridAdvection(interp)
    const U = [1, 0, 0]
    const z = sampleFaces(m, (_x, _y, _z, o) => { o[0] = U[0]; o[1] = U[1]; o[2] = U[2] })
    const vv = new Float64Array(3 * m.vertexCount)
    interp.vertexVelocities(z, vv)
    // 0: towards the x = 1 wall; 1: into the sphere (its leftmost point is x = 0.28 at y = 0.45, z = 0.5);
    // 2: stays inside; 3: starts inside the sphere; 4: starts outside the domain.
    const px = Float64Array.of(0.95, 0.2, 0.05, 0.5, 1.5), py = Float64Array.of(0.3, 0.45, 0.1, 0.45, 0.5), pz = Float64Array.of(0.5, 0.5, 0.1, 0.5, 0.5)
    const lost = new Uint8Array(5)
    const n = adv.advectPoints(px, py, pz, 5, vv, 0.2, lost)
    expect(n).toBe(4)
    expect(Array.from(lost)).toEqual([1, 1, 0, 1, 1])
    expect(px[0]).toBeLessThanOrEqual(1)
    expect(px[0]).toBeGreaterThan(1 - 1e-6)
    expect(Math.abs(sphere(px[1], py[1], pz[1]))).toBeLessThan(0.08 * m.grid.dx)
    expect(px[2]).toBeCloseTo(0.25, 12)
    expect([px[3], px[4]]).toEqual([0.5, 1.5])
    console.log(`stopped at the wall at x = ${px[0]}, on the sphere ${(sphere(px[1], py[1], pz[1]) / m.grid.dx).toExponential(2)} h from it`)
  })

  it('is deterministic: the same rotation advected twice gives the same bits', () => {
    const m = sphereMesh(12)
    const interp = new HybridInterpolation(m)
    const adv = new HybridAdvection(interp)
    const z = sampleFaces(m, (x, y, zz, o) => { o[0] = -(y - 0.5) + 0.1 * zz; o[1] = x - 0.5; o[2] = 0.3 * x * y })
    const vv = new Float64Array(3 * m.vertexCount)
    interp.vertexVelocities(z, vv)
    const a = new Float64Array(m.faceCount), b = new Float64Array(m.faceCount)
    adv.advectFaces(z, vv, 0.05, a)
    new HybridAdvection(new HybridInterpolation(m)).advectFaces(z, vv, 0.05, b)
    expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(true)
    const t0 = performance.now()
    for (let r = 0; r < 3; r++) { interp.vertexVelocities(z, vv); adv.advectFaces(z, vv, 0.05, a) }
    const ms = (performance.now() - t0) / 3
    console.log(`advectFaces: ${m.faceCount} faces (${m.tetCount} tetrahedra, ${m.hexCount} hexahedra), ${ms.toFixed(1)} ms per step with the vertex fit (${((1e6 * ms) / m.faceCount).toFixed(0)} ns per face)`)
  })

  it('refuses bad input by name', () => {
    const m = slabMesh(4)
    const adv = new HybridAdvection(new HybridInterpolation(m))
    const z = new Float64Array(m.faceCount), vv = new Float64Array(3 * m.vertexCount)
    expect(() => adv.advectFaces(z, vv, 0.1, z)).toThrow(/different arrays/)
    expect(() => adv.advectFaces(z, vv, NaN, new Float64Array(m.faceCount))).toThrow(/time step/)
    expect(() => adv.advectFaces(z, new Float64Array(3), 0.1, new Float64Array(m.faceCount))).toThrow(/vertex velocity/)
    expect(() => adv.advectCells(new Float64Array(2), vv, 0.1, new Float64Array(2))).toThrow(/cells/)
    const a = new Float64Array(m.cellCount), b = new Float64Array(m.cellCount)
    expect(() => adv.advectCells(a, vv, 0.1, b, b, a)).toThrow(/four different arrays/)
    expect(() => adv.advectPoints(new Float64Array(2), new Float64Array(2), new Float64Array(1), 2, vv, 0.1)).toThrow(/particles/)
  })
})
