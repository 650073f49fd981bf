// The viscosity solve on the kernel backends (viscousKernels.ts VISCOUS_APPLY and sparse/rows.ts
// IC_FACTOR and IC_SOLVE, twins wasm/assembly/viscous.ts and sparse.ts icFactor and icSolve): the
// product, incomplete Cholesky's factor and solves and the whole PCG give the TypeScript
// reference's bits on 1, 2 and 3 WebAssembly threads, for both stress forms, with walls, a solid
// cell, a free surface and viscosities over four decades. The WebAssembly backends are strict,
// so the test fails if any array the kernels read lies outside their memory (a silent fallback
// to TypeScript).
import { afterAll, describe, expect, it } from 'vitest'
import { closedBoxFaces } from '../../../fixtures/viscousFaces'
import { everyBackend } from '../everyBackend'
import { CLOSED_BOX, openFlags } from '../../../../src-shared/sim/core/boundaries'
import type { GridSpec } from '../../../../src-shared/sim/core/grid'
import type { KernelBackend } from '../../../../src-shared/sim/core/kernelBackend'
import { Prng } from '../../../../src-shared/sim/core/prng'
import { AIR, LIQUID, SOLID, type ViscousPreconditioner, ViscositySystem } from '../../../../src-shared/sim/liquid/viscosity'

const n = 10

/** floating: the stiff lump sits off the floor, a region the full stress's rigid modes take (rigidModes.ts). */
function setUp(kernels: KernelBackend, stress: 'carlson' | 'full', floating = false): ViscositySystem {
  const sys = new ViscositySystem(n, n, n, kernels)
  const spec: GridSpec = { nx: n, ny: n, nz: n, dx: 0.1, origin: [0, 0, 0] }
  const N = n * n * n
  const kind = new Uint8Array(N), cellNu = new Float32Array(N), solid = new Float32Array(N), phi = new Float32Array(N)
  const prng = new Prng(33)
  for (let k = 0; k < n; k++) {
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < n; i++) {
        const c = i + n * (j + n * k)
        phi[c] = 0.1 * (j + 0.5 - 6.2 - 0.5 * Math.sin(i + 0.7 * k))
        kind[c] = phi[c] < 0 ? LIQUID : AIR
        // A stiff lump (the wax) in softer liquid: the contrast 'auto' sends to incomplete Cholesky.
        const lump = i > 3 && i < 7 && k > 3 && k < 7 && (floating ? j > 0 && j < 4 : j < 4)
        cellNu[c] = lump ? 1e4 : 10 ** prng.range(-1, 1)
      }
    }
  }
  const sc = 2 + n * (1 + n * 2)
  kind[sc] = SOLID
  solid[sc] = 1
  const { fractions, vel } = closedBoxFaces(spec, solid, prng)
  sys.setup(vel, fractions, kind, cellNu, 1 / 30, stress, 'no', openFlags(CLOSED_BOX), phi)
  return sys
}

const owned: KernelBackend[] = []
afterAll(async () => {
  for (const b of owned) await b.dispose()
})

describe('the viscosity solve on every kernel backend', () => {
  const backends = everyBackend(owned)
  for (const stress of ['carlson', 'full'] as const) {
    for (const pre of ['ic', 'auto', 'jacobi'] as ViscousPreconditioner[]) {
      it(`${stress}, ${pre}: the same product and solution bits as TypeScript`, () => {
        let refApply: Float64Array | null = null, refX: Float64Array | null = null, refIterations = -1
        for (const [name, kernels] of backends) {
          const sys = setUp(kernels, stress)
          sys.preconditioner = pre
          const x = kernels.f64(sys.n), out = kernels.f64(sys.n)
          const prng = new Prng(4)
          for (let f = 0; f < sys.n; f++) x[f] = prng.range(-1, 1)
          sys.apply(x, out)
          const st = sys.solve(1e-8, 2000)
          expect(st.converged, name).toBe(true)
          // With the full stress, incomplete Cholesky takes the lump's rigid motions, though it
          // stands on the floor (rigidModes.ts 'all'; their kernels on this backend).
          if (stress === 'full' && pre !== 'jacobi') expect(sys.rigidModeRegions, name).toBe(1)
          if (refApply === null) {
            refApply = Float64Array.from(out)
            refX = Float64Array.from(sys.x)
            refIterations = st.iterations
            expect(st.iterations).toBeGreaterThan(3)
            if (pre !== 'jacobi') expect(sys.lastPreconditioner).toBe(pre === 'ic' || stress === 'full' ? 'ic' : 'multigrid')
          } else {
            expect(Array.from(out), name).toEqual(Array.from(refApply))
            expect(Array.from(sys.x), name).toEqual(Array.from(refX!))
            expect(st.iterations, name).toBe(refIterations)
          }
        }
      })
    }
  }

  it('full stress, multigrid with the rigid modes of a floating stiff lump: the same solution bits as TypeScript', () => {
    let refX: Float64Array | null = null, refIterations = -1
    for (const [name, kernels] of backends) {
      const sys = setUp(kernels, 'full', true)
      sys.preconditioner = 'multigrid'
      const st = sys.solve(1e-8, 2000)
      expect(st.converged, name).toBe(true)
      // The lump's six modes were built (one product with A each, on the kernels: a strict
      // backend throws if the columns lie outside its memory) and used.
      expect(sys.rigidModeRegions, name).toBe(1)
      if (refX === null) {
        refX = Float64Array.from(sys.x)
        refIterations = st.iterations
      } else {
        expect(Array.from(sys.x), name).toEqual(Array.from(refX))
        expect(st.iterations, name).toBe(refIterations)
      }
    }
  })
})
