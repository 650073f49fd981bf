// Flow past a sphere, against the analytic potential flow (Lamb, Hydrodynamics, art. 92): a
// uniform stream U from an open end of a channel to the other, the sphere of radius R a closed
// obstacle. One projection of the uniform field is the discrete potential flow (irrotational,
// divergence free, no flow through the sphere), whose streamwise speed on the sphere's
// equatorial plane at radius r is U (1 + R^3 / (2 r^3)): 1.33 U at 1.15 R, 1.5 U on the
// surface. The channel's walls are 4 radii from the sphere (blockage 4.9%, measured +0.3% at
// 2 R). This is the paper's case for tetrahedra at obstacles (seed 000 section 4: "grid-based
// simulation suffers from poor behavior at curved or angled boundaries"): conforming cells
// follow the sphere, voxelised ones make it a staircase. Tolerances from the measured errors
// (hybrid and all-tetrahedral about 1% at 1.15 R; all-hexahedral -20% at 24 cubes, -10% at 40)
// with margin; the domain's default resolution for this size is 40 cubes along its length.
import { describe, expect, it } from 'vitest'
import type { GridSpec } from '../../../src-shared/sim/core/grid'
import { HybridFields } from '../../../src-shared/sim/hybrid/hybridFields'
import { buildHybridMesh, FACE_OBSTACLE, type HybridMeshMode } from '../../../src-shared/sim/hybrid/hybridMesh'
import { HybridObstacles } from '../../../src-shared/sim/hybrid/hybridObstacles'

const R = 0.15, C = [0.8, 0.6, 0.6]
const sphere = (x: number, y: number, z: number) => Math.hypot(x - C[0], y - C[1], z - C[2]) - R
const SIDES = { xMin: 'open', xMax: 'open', yMin: 'closed', yMax: 'closed', zMin: 'closed', zMax: 'closed' } as const

/** Mean streamwise speed over 64 points of the equatorial circle of radius rr R, over U. */
function equatorSpeeds(mode: HybridMeshMode, n: number, radii: number[]): number[] {
  const dx = 2 / n
  const grid: GridSpec = { nx: n, ny: Math.round(1.2 / dx), nz: Math.round(1.2 / dx), dx, origin: [0, 0, 0] }
  const m = buildHybridMesh({ grid, obstacle: sphere, mode, bandCells: 2, sides: SIDES })
  const f = new HybridFields(m, 293.15)
  for (let q = 0; q < m.faceCount; q++) f.z[q] = m.faceKind[q] === FACE_OBSTACLE ? 0 : m.faceNormal[3 * q]
  f.setClosedFaces(new HybridObstacles([], 0))
  const stats = f.project(1e-10)
  expect(stats.converged).toBe(true)
  const out = new Float64Array(3)
  return radii.map((rr) => {
    let sum = 0, count = 0
    for (let k = 0; k < 64; k++) {
      const th = (2 * Math.PI * k) / 64
      const x = C[0], y = C[1] + rr * R * Math.cos(th), z = C[2] + rr * R * Math.sin(th)
      const c = f.cellAt(x, y, z)
      if (c < 0) continue
      f.interpolation.accurateVelocityAt(x, y, z, c, f.z, out, 0)
      sum += out[0]
      count++
    }
    // A voxelised sphere swallows some points beside it; conforming meshes keep them all.
    if (mode === 'hexahedra') expect(count).toBeGreaterThan(0)
    else expect(count).toBe(64)
    return sum / count
  })
}

const RADII = [1.15, 1.5, 2]
const exact = (rr: number) => 1 + 0.5 / rr ** 3

describe('potential flow past a sphere', () => {
  it.each([
    ['hybrid', 24, 0.03],
    ['hybrid', 40, 0.03],
    ['tetrahedra', 24, 0.03],
  ] as const)('%s mesh, %i cubes: the speed beside the sphere within %s of U (1 + R^3 / 2r^3)', (mode, n, tol) => {
    const speeds = equatorSpeeds(mode, n, RADII)
    const hex = equatorSpeeds('hexahedra', n, RADII)
    const err = (s: number[]) => s.map((v, i) => v / exact(RADII[i]) - 1)
    const pct = (e: number[]) => e.map((v, i) => `${RADII[i]} R ${(100 * v).toFixed(1)}%`).join(', ')
    console.log(`${mode} at ${n} cubes: ${pct(err(speeds))}; all-hexahedral: ${pct(err(hex))}`)
    for (const e of err(speeds)) expect(Math.abs(e)).toBeLessThan(tol)
    // The conforming mesh's error next to the sphere is well under the staircase's.
    expect(Math.abs(err(speeds)[0])).toBeLessThan(0.5 * Math.abs(err(hex)[0]))
  })
})
