// The hybrid vorticity's per-cell passes as kernel rows (sim/hybrid/hybridVorticityKernels.ts,
// wasm/assembly/hybridVorticity.ts): HybridVorticity.compute on the WebAssembly kernels over 1,
// 2 and 3 threads gives the TypeScript run's velocities, gradients, vorticity and magnitudes bit
// for bit, with the tetrahedra's deferred corrections and NaN in the field; and the TypeScript
// compute is the composition of the exported one-pass functions, bit for bit.
import { describe, expect, it } from 'vitest'
import { CLOSED_BOX } from '../../../../src-shared/sim/core/boundaries'
import { buildHybridMesh, type HybridMesh } from '../../../../src-shared/sim/hybrid/hybridMesh'
import {
  correctTetVelocities, HybridVorticity, hybridCellVelocities, hybridCellVelocityGradients, hybridVorticityFromGradients, TET_VELOCITY_CORRECTIONS, TET_VELOCITY_RELAXATION,
} from '../../../../src-shared/sim/hybrid/hybridVorticity'
import type { WasmKernelBackend } from '../../../../src-shared/sim/wasm/wasmBackend'
import { everyBackendOfFile, sameBits } from '../everyBackend'
import { sphere, swirlFaces } from './hybridFixtures'

const mesh: HybridMesh = buildHybridMesh({ grid: { nx: 12, ny: 12, nz: 12, dx: 1 / 12, origin: [0, 0, 0] }, obstacle: sphere, mode: 'hybrid', bandCells: 1, sides: CLOSED_BOX })

const BACKENDS = everyBackendOfFile().slice(1)


const faceVelocities = (seed: number) => swirlFaces(mesh, seed, 2, 0, 0.3)

describe('the hybrid vorticity passes on the kernels', () => {
  it('compute on TypeScript is the exported passes in turn, bit for bit', () => {
    const z = faceVelocities(1)
    const v = new HybridVorticity(mesh)
    v.compute(z)
    const n = mesh.cellCount
    const u = new Float64Array(3 * n), g = new Float64Array(9 * n), w = new Float64Array(3 * n), m = new Float64Array(n)
    hybridCellVelocities(mesh, v.ops, z, u)
    hybridCellVelocityGradients(mesh, v.ops, u, g)
    for (let k = 0; k < TET_VELOCITY_CORRECTIONS; k++) {
      correctTetVelocities(mesh, v.ops, z, g, u, TET_VELOCITY_RELAXATION)
      hybridCellVelocityGradients(mesh, v.ops, u, g)
    }
    hybridVorticityFromGradients(n, g, w, m)
    expect(sameBits(v.velocity, u)).toBe(true)
    expect(sameBits(v.gradient, g)).toBe(true)
    expect(sameBits(v.omega, w)).toBe(true)
    expect(sameBits(v.magnitude, m)).toBe(true)
    expect(mesh.tetCount).toBeGreaterThan(500)
  })

  it('compute on 1, 2 and 3 WebAssembly threads gives the TypeScript bits, NaN included', () => {
    const z = faceVelocities(2)
    z[mesh.faceCount >> 1] = Number.NaN
    const ref = new HybridVorticity(mesh)
    ref.compute(z)
    expect(ref.magnitude.some((x) => Number.isNaN(x))).toBe(true)
    for (const [threads, k] of BACKENDS) {
      const v = new HybridVorticity(mesh, ref.ops, k)
      v.compute(z)
      expect((k as WasmKernelBackend).fallbacks).toBe(0)
      for (const key of ['velocity', 'gradient', 'omega', 'magnitude'] as const) expect(sameBits(v[key], ref[key]), `${threads}: ${key}`).toBe(true)
      // A new field is computed again (not the cached answer).
      const z2 = faceVelocities(3)
      ref.compute(z2)
      v.compute(z2)
      expect(sameBits(v.omega, ref.omega), `${threads}, second field`).toBe(true)
      ref.compute(z)
    }
  })
})
