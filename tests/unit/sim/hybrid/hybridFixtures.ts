// Meshes the hybrid-mesh unit tests share: a unit box with a sphere of radius R in it, and a
// slab of band cubes through an otherwise hexahedral grid; face velocities sampled from a field,
// or a seeded swirl with noise.
import { CLOSED_BOX } from '../../../../src-shared/sim/core/boundaries'
import type { GridSpec } from '../../../../src-shared/sim/core/grid'
import { Prng } from '../../../../src-shared/sim/core/prng'
import { buildHybridMesh, CUBE_BAND, CUBE_HEX, FACE_INTERIOR, type HybridMesh } from '../../../../src-shared/sim/hybrid/hybridMesh'

export const grid = (n: number): GridSpec => ({ nx: n, ny: n, nz: n, dx: 1 / n, origin: [0, 0, 0] })
export const R = 0.22
export const sphere = (x: number, y: number, z: number): number => Math.hypot(x - 0.5, y - 0.45, z - 0.5) - R

/** No obstacle: a slab of band cubes (two thick, normal to x) through the middle of a hexahedral grid. */
export function slabMesh(n: number): HybridMesh {
  const roles = new Uint8Array(n * n * n)
  for (let k = 0, c = 0; k < n; k++) for (let j = 0; j < n; j++) for (let i = 0; i < n; i++, c++) {
    roles[c] = i === n / 2 - 1 || i === n / 2 ? CUBE_BAND : CUBE_HEX
  }
  return buildHybridMesh({ grid: grid(n), obstacle: null, mode: 'hybrid', bandCells: 2, sides: CLOSED_BOX, cubeRoles: roles })
}

export const sphereMesh = (n: number): HybridMesh => buildHybridMesh({ grid: grid(n), obstacle: sphere, mode: 'hybrid', bandCells: 2, sides: CLOSED_BOX })

/** z_f = u(face centre) . n_f on every face, walls included. */
export function sampleFaces(m: HybridMesh, u: (x: number, y: number, z: number, out: number[]) => void): Float64Array {
  const z = new Float64Array(m.faceCount), v = [0, 0, 0]
  for (let f = 0; f < m.faceCount; f++) {
    u(m.faceCentre[3 * f], m.faceCentre[3 * f + 1], m.faceCentre[3 * f + 2], v)
    z[f] = v[0] * m.faceNormal[3 * f] + v[1] * m.faceNormal[3 * f + 1] + v[2] * m.faceNormal[3 * f + 2]
  }
  return z
}

/**
 * Interior faces' normal velocities (m/s) of a swirl about the vertical axis through (0.5, ., 0.5)'s
 * x-y centre (angular speed `spin`), an upward `lift` and uniform noise of amplitude `noise`
 * (seeded); closed and open faces 0.
 */
export function swirlFaces(m: HybridMesh, seed: number, spin: number, lift: number, noise: number): Float64Array {
  const rng = new Prng(seed)
  const z = new Float64Array(m.faceCount)
  const C = m.faceCentre, N = m.faceNormal
  for (let f = 0; f < m.faceCount; f++) {
    if (m.faceKind[f] !== FACE_INTERIOR) continue
    const x = C[3 * f] - 0.5, y = C[3 * f + 1] - 0.5
    z[f] = -spin * y * N[3 * f] + spin * x * N[3 * f + 1] + lift * N[3 * f + 2] + noise * (rng.next() - 0.5)
  }
  return z
}

/** Two cell scalars for the fit tests: a in [0, 1) with a NaN near the end, b a temperature 290-310 K (seeded). */
export function cellScalars(m: HybridMesh, seed: number): [Float64Array, Float64Array] {
  const rng = new Prng(seed)
  const a = new Float64Array(m.cellCount).map(() => rng.next())
  const b = new Float64Array(m.cellCount).map(() => 290 + 20 * rng.next())
  a[m.cellCount - 5] = Number.NaN
  return [a, b]
}
