// The procedural gear of the gears-and-bunnies example (gearMesh.ts): a watertight surface
// whose every triangle faces out of the solid, so the rigid solver weighs it right: the
// enclosed volume is the tooth outline's area minus the axle hole's, times the thickness.
import { describe, expect, it } from 'vitest'
import { isClosedSurface } from '../../../src-shared/geometry/closedSurface'
import { GEAR, gearMesh, gearOutline, outlineArea } from '../../../src-shared/scene/examples/gearMesh'
import { meshMassProperties } from '../../../src-shared/sim/rigid/massProperties'

describe('gear mesh', () => {
  const mesh = gearMesh()
  const p = mesh.positions, idx = mesh.indices

  it('is closed, with the size the example states', () => {
    expect(isClosedSurface(mesh)).toBe(true)
    expect(p.length / 3).toBe(576)
    expect(idx.length / 3).toBe(384)
    let r = 0, y0 = Infinity, y1 = -Infinity
    for (let i = 0; i < p.length; i += 3) {
      r = Math.max(r, Math.hypot(p[i], p[i + 2]))
      y0 = Math.min(y0, p[i + 1])
      y1 = Math.max(y1, p[i + 1])
    }
    expect(r).toBeCloseTo(GEAR.tipRadius, 6)
    expect(y1 - y0).toBeCloseTo(GEAR.thickness, 6)
  })

  it('encloses the outline area minus the hole times the thickness, centred on its axis', () => {
    const { outer, hole } = gearOutline(GEAR)
    const area = outlineArea(outer) - outlineArea(hole)
    expect(area).toBeGreaterThan(0)
    const m = meshMassProperties(mesh, 9000, { id: 'gear', name: 'Gear' })
    expect(m.volume).toBeGreaterThan(0)
    expect(m.volume / (area * GEAR.thickness)).toBeCloseTo(1, 6)
    for (const c of m.centerOfMass) expect(Math.abs(c)).toBeLessThan(1e-6)
    // A disc about its axis (y) has the largest moment of inertia.
    expect(m.inertia[4]).toBeGreaterThan(m.inertia[0])
    expect(m.inertia[4]).toBeGreaterThan(m.inertia[8])
  })

  it('winds every triangle outwards: caps up and down, teeth away from the axis, the hole towards it', () => {
    const at = (i: number) => [p[3 * i], p[3 * i + 1], p[3 * i + 2]]
    let caps = 0, walls = 0
    for (let t = 0; t < idx.length; t += 3) {
      const [a, b, c] = [at(idx[t]), at(idx[t + 1]), at(idx[t + 2])]
      const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]], v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]]
      const n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
      const len = Math.hypot(n[0], n[1], n[2])
      expect(len).toBeGreaterThan(0)
      const mid = [(a[0] + b[0] + c[0]) / 3, (a[1] + b[1] + c[1]) / 3, (a[2] + b[2] + c[2]) / 3]
      if (Math.abs(n[1]) / len > 0.99) {
        // A cap: its normal points away from the mid-plane.
        caps++
        expect(Math.sign(n[1])).toBe(Math.sign(mid[1]))
      } else {
        // A wall: outer walls face away from the axis, the hole's towards it.
        walls++
        expect(Math.abs(n[1]) / len).toBeLessThan(1e-6)
        const radial = (n[0] * mid[0] + n[2] * mid[2]) / len
        const onHole = Math.hypot(mid[0], mid[2]) < (GEAR.holeRadius + GEAR.rootRadius) / 2
        if (onHole) expect(radial).toBeLessThan(0)
        else {
          // Flanks lean: a point just outside along the normal is outside the solid's outline.
          const step = 1e-4
          const q = [mid[0] + (step * n[0]) / len, mid[2] + (step * n[2]) / len]
          expect(insideOutline(q, gearOutline(GEAR).outer), `triangle ${t / 3}`).toBe(false)
        }
      }
    }
    expect(caps).toBe(192)
    expect(walls).toBe(192)
  })
})

/** Even-odd point-in-polygon test in the (x, z) plane. */
function insideOutline(q: number[], poly: [number, number][]): boolean {
  let inside = false
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, zi] = poly[i], [xj, zj] = poly[j]
    if (zi > q[1] !== zj > q[1] && q[0] < ((xj - xi) * (q[1] - zi)) / (zj - zi) + xi) inside = !inside
  }
  return inside
}
