// Obstacle snapping after isosurface stuffing (Chentanez et al. 2007, sec. 3.3.1): the liquid
// meshed minus the obstacle, then vertices within an eighth of the lattice spacing of the
// obstacle projected onto it. Checked by amount: every tetrahedron keeps the stuffing's dihedral
// bounds and a positive volume, snapped vertices lie on the obstacle to 1e-9 of the spacing, the
// liquid-obstacle interface (boundary faces with three vertices on it) has the area of the
// contact disc to within half a rim band and converging, and a thin gap under the liquid (1/16
// of a spacing) is closed.
import { describe, expect, it } from 'vitest'
import { snapToObstacle } from '../../../src-shared/geometry/tetmesh/snapObstacle'
import { DIHEDRAL_BOUNDS_DEG, stuffIsosurface } from '../../../src-shared/geometry/tetmesh/stuffing'
import { tetMeshQuality } from '../../../src-shared/geometry/tetmesh/tetQuality'
import { buildTetTopology } from '../../../src-shared/sim/core/tetfv/tetTopology'

const floor = (_x: number, y: number) => y // negative inside the obstacle (below y = 0)
const ball = (cy: number, r: number) => (x: number, y: number, z: number) => Math.hypot(x, y - cy, z) - r

/** The liquid minus the obstacle, in the negative-inside convention: max(f_liquid, -f_obstacle). */
const minus = (liquid: (x: number, y: number, z: number) => number) => (x: number, y: number, z: number) => Math.max(liquid(x, y, z), -floor(x, y))

function contactArea(positions: Float64Array, tets: Int32Array, onObstacle: Uint8Array): number {
  const topo = buildTetTopology(positions, tets)
  let area = 0
  for (const f of topo.boundaryFaces) {
    const a = topo.faceVertices[3 * f], b = topo.faceVertices[3 * f + 1], c = topo.faceVertices[3 * f + 2]
    if (!(onObstacle[a] && onObstacle[b] && onObstacle[c])) continue
    const u = [0, 1, 2].map((k) => positions[3 * b + k] - positions[3 * a + k]), v = [0, 1, 2].map((k) => positions[3 * c + k] - positions[3 * a + k])
    area += 0.5 * Math.hypot(u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
  }
  return area
}

describe('obstacle snapping (dihedral bounds kept, vertices on the obstacle to 1e-9 h)', () => {
  it('a ball sunk into the floor, spacings 0.06 and 0.035: the contact disc within half a rim band (pi R h) and converging, bounds kept', () => {
    const errors: number[] = []
    for (const h of [0.06, 0.035]) {
      const r = 0.5, cy = 0.4
      const m = stuffIsosurface(minus(ball(cy, r)), { spacing: h, bounds: { min: [-0.6, -0.2, -0.6], max: [0.6, 1, 0.6] } })
      const { onObstacle, snapped } = snapToObstacle(m.positions, floor, h)
      const q = tetMeshQuality(m.positions, m.tets)
      let onFloor = 0
      for (let v = 0; v < m.vertexCount; v++) if (onObstacle[v]) { onFloor++; expect(Math.abs(m.positions[3 * v + 1])).toBeLessThan(1e-9 * h) }
      const area = contactArea(m.positions, m.tets, onObstacle), exact = Math.PI * (r * r - cy * cy)
      console.log(`h ${h}: ${m.tetCount} tets, ${onFloor} vertices on the floor (${snapped} snapped), contact ${area.toFixed(4)} vs ${exact.toFixed(4)}, dihedral ${q.minDihedral.toFixed(1)}-${q.maxDihedral.toFixed(1)}`)
      expect(q.minVolume).toBeGreaterThan(0)
      expect(q.minDihedral).toBeGreaterThan(DIHEDRAL_BOUNDS_DEG.min)
      expect(q.maxDihedral).toBeLessThan(DIHEDRAL_BOUNDS_DEG.max)
      // Faces at the rim have a vertex off the obstacle: the interface misses part of a band of
      // width about h around the disc (first order in h).
      const R = Math.sqrt(r * r - cy * cy)
      expect(Math.abs(area - exact)).toBeLessThan(Math.PI * R * h)
      errors.push(Math.abs(area - exact))
    }
    expect(errors[1]).toBeLessThan(errors[0])
  })

  it('a ball floating 1/16 of a spacing above the floor is snapped down onto it (the gap closed), bounds kept', () => {
    const h = 0.05, r = 0.5
    const liquid = ball(r + h / 16, r)
    const m = stuffIsosurface(minus(liquid), { spacing: h, bounds: { min: [-0.6, -0.2, -0.6], max: [0.6, 1.2, 0.6] } })
    let before = 0
    for (let v = 0; v < m.vertexCount; v++) if (Math.abs(m.positions[3 * v + 1]) < 1e-9 * h) before++
    const { onObstacle, snapped } = snapToObstacle(m.positions, floor, h)
    const q = tetMeshQuality(m.positions, m.tets)
    expect(q.minVolume).toBeGreaterThan(0)
    console.log(`gap h/16: ${before} vertices on the floor before, ${snapped} snapped; dihedral ${q.minDihedral.toFixed(1)}-${q.maxDihedral.toFixed(1)}`)
    expect(before).toBe(0)
    expect(snapped).toBeGreaterThan(0)
    expect(onObstacle.reduce((s, x) => s + x, 0)).toBe(snapped)
    expect(q.minDihedral).toBeGreaterThan(DIHEDRAL_BOUNDS_DEG.min)
    expect(q.maxDihedral).toBeLessThan(DIHEDRAL_BOUNDS_DEG.max)
  })
})
