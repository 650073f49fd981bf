// What an artist's brush does to a surface flow, by amount: a painted source adds exactly its
// amount of density, centred where it was painted; a drag adds the tangent part of the world
// velocity change where it was dragged (on the flat top of a slab, the velocity itself).
import { describe, expect, it } from 'vitest'
import { sphereLikeCage, voxelCage } from '../../../src-shared/geometry/voxelCages'
import { centroid, fluidOn } from './scenes'

describe('painting on a surface flow', () => {
  it('a source painted at a point of a sphere-like surface adds its amount within 1e-12 and its centre lies within one cell of the point', () => {
    const fl = fluidOn(sphereLikeCage(), 16)
    // A point of the limit surface: a cell centre.
    const g = fl.grid, k = g.cell(3, 5, 7)
    const at: [number, number, number] = [fl.metric.positions[3 * k], fl.metric.positions[3 * k + 1], fl.metric.positions[3 * k + 2]]
    const area = fl.addSource(0, at, 0.08, 2.5)
    expect(area).toBeGreaterThan(0)
    expect(Math.abs(fl.total(0) - 2.5)).toBeLessThan(1e-12)
    const c = centroid(fl)
    const cell = Math.sqrt(fl.metric.cells.sqrtG[k]) * g.h
    // The centroid of a patch of a curved surface lies a little inside it: compare along the surface.
    expect(Math.hypot(c[0] - at[0], c[1] - at[1], c[2] - at[2])).toBeLessThan(cell)
  })

  it('a drag on the flat top of a slab sets the flow under the brush centre to the dragged velocity (its tangent part) within 2% (the faces take the falloff interpolated from the cells beside them)', () => {
    const cells: [number, number, number][] = []
    for (let i = 0; i < 6; i++) for (let k = 0; k < 6; k++) cells.push([i, 0, k])
    const fl = fluidOn(voxelCage(cells), 16)
    fl.addImpulse([0.1, 0.5, 0.2], 0.3, [0.8, 0.5, -0.4])
    // The velocity at the brush centre, from the face fluxes around its cell: u = F / sqrt(g) on
    // the faces, d y / d x^i u^i in the world.
    const g = fl.grid
    let best = -1, bestD = Infinity
    for (let p = 0; p < g.P; p++) for (let j = 0; j < g.N; j++) for (let i = 0; i < g.N; i++) {
      const k = g.cell(p, i, j), x = fl.metric.positions
      const d = Math.hypot(x[3 * k] - 0.1, x[3 * k + 1] - 0.5, x[3 * k + 2] - 0.2)
      if (d < bestD) { bestD = d; best = p * 1e6 + i + 1000 * j }
    }
    const p = Math.floor(best / 1e6), i = best % 1000, j = Math.floor((best % 1e6) / 1000)
    const X = fl.metric.xFaces, Y = fl.metric.yFaces
    const fxa = g.xFace(p, i, j), fxb = g.xFace(p, i + 1, j), fya = g.yFace(p, i, j), fyb = g.yFace(p, i, j + 1)
    const u1 = 0.5 * (fl.fx[fxa] / X.sqrtG[fxa] + fl.fx[fxb] / X.sqrtG[fxb]), u2 = 0.5 * (fl.fy[fya] / Y.sqrtG[fya] + fl.fy[fyb] / Y.sqrtG[fyb])
    const c = g.cell(p, i, j), du = fl.metric.cells.du.subarray(3 * c, 3 * c + 3), dv = fl.metric.cells.dv.subarray(3 * c, 3 * c + 3)
    const w = [0, 1, 2].map((d) => u1 * du[d] + u2 * dv[d])
    // Tangent part of (0.8, 0.5, -0.4) on the plane y = 0.5, scaled by the falloff at that cell.
    const fall = (1 - (bestD / 0.3) ** 2) ** 2
    expect(Math.abs(w[0] - 0.8 * fall)).toBeLessThan(0.02 * 0.8)
    expect(Math.abs(w[1])).toBeLessThan(1e-9)
    expect(Math.abs(w[2] + 0.4 * fall)).toBeLessThan(0.02 * 0.8)
  })
})
