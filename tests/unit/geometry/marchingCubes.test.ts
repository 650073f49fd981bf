// Marching cubes on hand-made fields: every configuration must give a closed, consistently
// oriented manifold, since the liquid mesh's watertightness rests on it.
import { describe, expect, it } from 'vitest'
import { CASE_START, CASE_TRIS } from '../../../src-shared/geometry/mcTables'
import { MarchingCubes, MeshBuffers } from '../../../src-shared/geometry/marchingCubes'
import type { NodeGrid } from '../../../src-shared/geometry/marchingCubes'
import { manifoldProblem, meshVolume, rng } from '../sim/liquid/surface/meshChecks'

function mesh(phi: Float32Array, g: NodeGrid): { positions: Float32Array; indices: Uint32Array } {
  const out = new MeshBuffers()
  new MarchingCubes().run(phi, g, out)
  return { positions: out.positions.slice(0, 3 * out.vertexCount), indices: out.indices.slice(0, 3 * out.triangleCount) }
}

/** A field of n^3 nodes with the boundary nodes outside (positive), values from f inside. */
function field(n: number, f: (i: number, j: number, k: number) => number): Float32Array {
  const phi = new Float32Array(n * n * n)
  for (let k = 0; k < n; k++) for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
    const border = i === 0 || j === 0 || k === 0 || i === n - 1 || j === n - 1 || k === n - 1
    phi[i + n * (j + n * k)] = border ? 1 : f(i, j, k)
  }
  return phi
}

describe('marching cubes tables', () => {
  it('have at most 5 triangles per case, none for the empty and full cube', () => {
    expect(CASE_START[1] - CASE_START[0]).toBe(0)
    expect(CASE_START[256] - CASE_START[255]).toBe(0)
    for (let c = 0; c < 256; c++) expect(CASE_START[c + 1] - CASE_START[c]).toBeLessThanOrEqual(15)
    expect(CASE_TRIS.length % 3).toBe(0)
  })

  it('every one of the 256 cube cases on its own is a closed, outward-facing surface', () => {
    // A 2x2x2 block of inside/outside corners in a 4^3 node grid whose border is outside.
    const g: NodeGrid = { origin: [0, 0, 0], h: 1, nx: 4, ny: 4, nz: 4 }
    for (let c = 1; c < 256; c++) {
      const phi = field(4, (i, j, k) => ((c >> (i - 1 + 2 * (j - 1) + 4 * (k - 1))) & 1 ? -1 : 1))
      const m = mesh(phi, g)
      expect(manifoldProblem(m.positions, m.indices), `case ${c}`).toBeNull()
      expect(meshVolume(m.positions, m.indices), `case ${c}`).toBeGreaterThan(0)
    }
  })
})

describe('marching cubes', () => {
  it('random sign fields (every ambiguous face and cube, exact zeros too) give closed manifolds', () => {
    const g: NodeGrid = { origin: [0, 0, 0], h: 0.1, nx: 9, ny: 9, nz: 9 }
    for (let seed = 1; seed <= 120; seed++) {
      const rand = rng(seed)
      // a quarter of the nodes exactly 0 (counts as outside, vertices must not collapse)
      const phi = field(9, () => (rand() < 0.25 ? 0 : rand() - 0.5))
      const m = mesh(phi, g)
      expect(manifoldProblem(m.positions, m.indices), `seed ${seed}`).toBeNull()
      // Pieces are oriented with inside on the back, so the total is the inside volume (> 0).
      expect(meshVolume(m.positions, m.indices)).toBeGreaterThan(0)
    }
  })

  it('a sampled sphere distance gives vertices on the sphere and the right volume', () => {
    const n = 21, h = 0.05, R = 0.35, c = 0.5
    const phi = field(n, (i, j, k) => Math.hypot(i * h - c, j * h - c, k * h - c) - R)
    const m = mesh(phi, { origin: [0, 0, 0], h, nx: n, ny: n, nz: n })
    expect(manifoldProblem(m.positions, m.indices)).toBeNull()
    let worst = 0
    for (let v = 0; v < m.positions.length; v += 3) {
      worst = Math.max(worst, Math.abs(Math.hypot(m.positions[v] - c, m.positions[v + 1] - c, m.positions[v + 2] - c) - R))
    }
    // Linear interpolation of a distance's zero along a grid edge: error O(h^2 / R).
    expect(worst).toBeLessThan(0.1 * h)
    // Inscribed polyhedron: a little under the sphere's volume at 7 nodes per radius.
    const V = (4 / 3) * Math.PI * R ** 3
    expect(Math.abs(meshVolume(m.positions, m.indices) / V - 1)).toBeLessThan(0.02)
  })
})
