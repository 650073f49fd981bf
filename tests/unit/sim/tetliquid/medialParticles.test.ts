// Thickening's medial-axis estimation (seed 003 section 3.4.1, sim/tetliquid/thickening.ts)
// must find thin parts and nothing else. S's vertices lie on the zero set of the function the
// tracker contoured, refined off the grid's linear crossing (contourGrid.ts), so a vertex can
// sit a tenth of a cell outside the grid's own zero set. A ray traced by the grid alone then
// "left the liquid" right where it entered: on a sloshing tank every wrinkled patch of surface
// made medial particles of radius 0.05 cells, whose mesh padding (gamma_mesh over 4 finest
// edges) lifted the surface by centimetres and grew bumps of 40-75 mm on a 30 mm wave. Here a
// deep pool whose vertices sit 0.12 cell above the grid's zero set makes no particle, and a
// sheet 0.6 cell thick beside it makes them, with its half thickness as their radius.
import { describe, expect, it } from 'vitest'
import { ContouredSurface, contourNodeGrid } from '../../../../src-shared/sim/tetliquid/contourGrid'
import { initialSurface } from '../../../../src-shared/sim/tetliquid/surfaceTracking'
import { medialParticles } from '../../../../src-shared/sim/tetliquid/thickening'

const BOX = { min: [0, 0, 0] as [number, number, number], max: [1, 1, 1] as [number, number, number] }
const RES = 32
const H = 1 / RES
const BAND = 6 * H

/** Negative inside the box: its walls are solid, as Solids.room says. */
const room = (x: number, y: number, z: number) => Math.max(-x, x - 1, -y, y - 1, -z, z - 1)

/** A pool 0.4 deep, optionally with a horizontal sheet `sheet` thick centred at y = 0.75 over x < 0.5. */
function scene(sheet: number) {
  const pool = (x: number, y: number) => y - 0.4
  const slab = (x: number, y: number) => Math.max(Math.abs(y - 0.75) - sheet / 2, x - 0.5)
  return (x: number, y: number, z: number) => (sheet > 0 ? Math.min(pool(x, y), slab(x, y)) : pool(x, y))
}

/** S contoured from the grid, its vertices refined with the field moved up by `lift` (as a back-trace's f+ may differ from the grid). */
function surfaceOf(field: (x: number, y: number, z: number) => number, lift: number): ContouredSurface {
  const g = contourNodeGrid(BOX, H)
  const phi = initialSurface(g, BAND, [{ name: 'water', field: { distance: field }, velocity: [0, 0, 0] }])
  return ContouredSurface.contour(phi, g, BAND, (x, y, z) => field(x, y - lift, z))
}

describe("thickening's medial particles", () => {
  for (const lift of [0, 0.12 * H]) {
    it(`a deep pool has none${lift ? ", with S's vertices 0.12 cell above the grid's zero set" : ''}`, () => {
      const s = surfaceOf(scene(0), lift)
      const p = medialParticles(s, s.normals, 1.2 * H, room)
      expect(p.count).toBe(0)
    })

    it(`a sheet 0.6 cell thick has them along its middle, radius 0.3 cell within 0.1 cell${lift ? ", with S's vertices 0.12 cell above the grid's zero set" : ''}`, () => {
      const s = surfaceOf(scene(0.6 * H), lift)
      const p = medialParticles(s, s.normals, 1.2 * H, room)
      let onSheet = 0
      for (let i = 0; i < p.count; i++) {
        const x = p.positions[3 * i], y = p.positions[3 * i + 1]
        // Only the sheet is thin: every particle lies in it, none over the pool.
        expect(Math.abs(y - 0.75 - lift / 2), `particle at ${x}, ${y}`).toBeLessThan(0.2 * H)
        expect(x).toBeLessThan(0.5 + H)
        expect(Math.abs(p.radii[i] - 0.3 * H)).toBeLessThan(0.1 * H)
        onSheet++
      }
      // Both faces of the sheet shoot rays: at least one particle per cell of its top face (15 x 30 cells away from walls and edge).
      expect(onSheet).toBeGreaterThan(15 * 30)
    })
  }
})
