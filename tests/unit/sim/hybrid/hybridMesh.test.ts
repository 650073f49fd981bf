// The hybrid mesh (sim/hybrid/hybridMesh.ts, seed 000 section 3.1): closed cells (the outward
// area vectors of every cell sum to zero, which is what makes eq. 3 exact for uniform flow),
// the volume it covers against the analytic fluid volume, transition faces split into four
// triangles whose areas sum to the square they replace, and the two limits of the band width.
import { describe, expect, it } from 'vitest'
import { CLOSED_BOX } from '../../../../src-shared/sim/core/boundaries'
import type { GridSpec } from '../../../../src-shared/sim/core/grid'
import {
  buildHybridMesh, CELL_HEX, CELL_TET, CELL_TRANSITION, FACE_INTERIOR, FACE_OBSTACLE, FACE_WALL, type HybridMesh, type HybridMeshMode,
} from '../../../../src-shared/sim/hybrid/hybridMesh'

const grid = (n: number): GridSpec => ({ nx: n, ny: n, nz: n, dx: 1 / n, origin: [0, 0, 0] })
const R = 0.22
const sphere = (x: number, y: number, z: number) => Math.hypot(x - 0.5, y - 0.45, z - 0.5) - R

function mesh(n: number, mode: HybridMeshMode, band = 2): HybridMesh {
  return buildHybridMesh({ grid: grid(n), obstacle: sphere, mode, bandCells: band, sides: CLOSED_BOX })
}

/** Largest |sum of outward area vectors| over the cells, relative to the cell's total area. */
function worstClosure(m: HybridMesh): number {
  let worst = 0
  for (let c = 0; c < m.cellCount; c++) {
    let sx = 0, sy = 0, sz = 0, total = 0
    for (let i = m.cellFaceStart[c]; i < m.cellFaceStart[c + 1]; i++) {
      const f = m.cellFaces[i], s = m.cellFaceSign[i] * m.faceArea[f]
      sx += s * m.faceNormal[3 * f]; sy += s * m.faceNormal[3 * f + 1]; sz += s * m.faceNormal[3 * f + 2]
      total += m.faceArea[f]
    }
    worst = Math.max(worst, Math.hypot(sx, sy, sz) / total)
  }
  return worst
}

function totalVolume(m: HybridMesh): number {
  let v = 0
  for (let c = 0; c < m.cellCount; c++) v += m.cellVolume[c]
  return v
}

describe('hybrid mesh', () => {
  const fluidVolume = 1 - (4 / 3) * Math.PI * R ** 3

  it.each(['hybrid', 'tetrahedra'] as const)('%s: every cell is closed (area vectors sum to 1e-12) and the cells fill the fluid volume within 0.5%%', (mode) => {
    const m = mesh(20, mode)
    expect(m.tetCount).toBeGreaterThan(0)
    expect(worstClosure(m)).toBeLessThan(1e-12)
    expect(Math.abs(totalVolume(m) / fluidVolume - 1)).toBeLessThan(0.005)
    // Obstacle faces lie on the sphere.
    let worst = 0
    for (let f = 0; f < m.faceCount; f++) {
      if (m.faceKind[f] !== FACE_OBSTACLE) continue
      for (let i = m.faceVertexStart[f]; i < m.faceVertexStart[f + 1]; i++) {
        const v = m.faceVertices[i]
        worst = Math.max(worst, Math.abs(sphere(m.positions[3 * v], m.positions[3 * v + 1], m.positions[3 * v + 2])))
      }
    }
    expect(worst).toBeLessThan(1e-9)
    expect(m.quality!.minDihedral).toBeGreaterThan(8)
    expect(m.quality!.maxDihedral).toBeLessThan(165)
    console.log(`${mode}: ${m.hexCount} hexahedra, ${m.tetCount} tetrahedra, dihedral ${m.quality!.minDihedral.toFixed(1)}-${m.quality!.maxDihedral.toFixed(1)} deg`)
  })

  it('hybrid: transition hexahedra see four triangles where a square was; hexahedra stay out of the band', () => {
    const m = mesh(20, 'hybrid')
    let split = 0
    for (let g = 0; g + 1 < m.gridFaceStart.length; g++) {
      const n = m.gridFaceStart[g + 1] - m.gridFaceStart[g]
      if (n <= 1) continue
      expect(n).toBe(4)
      let area = 0
      for (let i = m.gridFaceStart[g]; i < m.gridFaceStart[g + 1]; i++) area += m.faceArea[m.gridFaces[i]]
      expect(area).toBeCloseTo(m.grid.dx ** 2, 14)
      split++
    }
    expect(split).toBeGreaterThan(100)
    const kinds = [0, 0, 0]
    for (let c = 0; c < m.cellCount; c++) kinds[m.cellKind[c]]++
    expect(kinds[CELL_HEX]).toBeGreaterThan(kinds[CELL_TRANSITION])
    expect(kinds[CELL_TRANSITION]).toBeGreaterThan(0)
    expect(kinds[CELL_TET]).toBe(m.tetCount)
    // Every hexahedron face towards a tetrahedron is an interior face with the hexahedron as b.
    for (let f = 0; f < m.faceCount; f++) {
      const b = m.faceCellB[f]
      if (b >= 0 && b < m.hexCount && m.faceCellA[f] >= m.hexCount) expect(m.faceKind[f]).toBe(FACE_INTERIOR)
    }
  })

  it('hexahedra: no tetrahedra; the obstacle is voxelised (closed faces on cube boundaries)', () => {
    const m = mesh(20, 'hexahedra')
    expect(m.tetCount).toBe(0)
    expect(worstClosure(m)).toBeLessThan(1e-12)
    let obstacleFaces = 0, wallFaces = 0
    for (let f = 0; f < m.faceCount; f++) {
      if (m.faceKind[f] === FACE_OBSTACLE) obstacleFaces++
      if (m.faceKind[f] === FACE_WALL) wallFaces++
    }
    expect(wallFaces).toBe(6 * 20 * 20)
    expect(obstacleFaces).toBeGreaterThan(100)
    expect(Math.abs(totalVolume(m) / fluidVolume - 1)).toBeLessThan(0.05)
  })

  it('an obstacle through a wall: the wall stays flat (its vertices are never warped off it) at every resolution', () => {
    // A slab tilted 30 degrees about z whose lower edge goes through the floor, as the ramp jet's.
    const c = Math.cos(Math.PI / 6), s = Math.sin(Math.PI / 6)
    const slab = (x: number, y: number, z: number) => {
      const u = c * (x - 1) + s * (y - 0.45), v = -s * (x - 1) + c * (y - 0.45)
      const q = [Math.abs(u) - 0.8, Math.abs(v) - 0.06, Math.abs(z - 1) - 0.8]
      return Math.min(Math.max(q[0], q[1], q[2]), 0) + Math.hypot(Math.max(q[0], 0), Math.max(q[1], 0), Math.max(q[2], 0))
    }
    for (let n = 14; n <= 24; n++) {
      const m = buildHybridMesh({ grid: { nx: n, ny: n, nz: n, dx: 2 / n, origin: [0, 0, 0] }, obstacle: slab, mode: 'tetrahedra', bandCells: 2, sides: CLOSED_BOX })
      expect(worstClosure(m)).toBeLessThan(1e-12)
      for (let f = 0; f < m.faceCount; f++) {
        if (m.faceKind[f] !== FACE_WALL) continue
        // A wall face's normal is an axis and its centre on the box.
        const nrm = [m.faceNormal[3 * f], m.faceNormal[3 * f + 1], m.faceNormal[3 * f + 2]].map(Math.abs)
        expect(Math.max(...nrm)).toBeCloseTo(1, 12)
      }
    }
  })

  it('refuses a band narrower than one cube and a NaN distance by name', () => {
    expect(() => buildHybridMesh({ grid: grid(8), obstacle: sphere, mode: 'hybrid', bandCells: 0, sides: CLOSED_BOX })).toThrow(/band of tetrahedra/)
    expect(() => buildHybridMesh({ grid: grid(8), obstacle: () => NaN, mode: 'hybrid', bandCells: 2, sides: CLOSED_BOX })).toThrow(/NaN/)
  })
})
