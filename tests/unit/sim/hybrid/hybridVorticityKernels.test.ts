// The hybrid vorticity's per-cell passes as kernel rows (sim/hybrid/hybridVorticityKernels.ts,
// wasm/assembly/hybridVorticity.ts): HybridVorticity.compute on the WebAssembly kernels over 1,
// 2 and 3 threads gives the TypeScript run's velocities, gradients, vorticity and magnitudes bit
// for bit, with the tetrahedra's deferred corrections and NaN in the field; and the TypeScript
// compute is the composition of the exported one-pass functions, bit for bit. The confinement
// force (a row per cell) is eta = hybridCellGradient(|omega|) put through the formula here, and
// the forces' row over faces (eq. 5) gives the same bits on every backend.
import { describe, expect, it } from 'vitest'
import { CLOSED_BOX } from '../../../../src-shared/sim/core/boundaries'
import { buildHybridMesh, type HybridMesh } from '../../../../src-shared/sim/hybrid/hybridMesh'
import { kernelCopy, TS_KERNELS as TS } from '../../../../src-shared/sim/core/kernelBackend'
import { Prng } from '../../../../src-shared/sim/core/prng'
import { addCellForcesToFaces, HYBRID_FACE_FORCES } from '../../../../src-shared/sim/hybrid/hybridForces'
import { DIFFERING_BLOCK, HYBRID_DIFFERING_WORDS } from '../../../../src-shared/sim/hybrid/hybridVorticityKernels'
import {
  correctTetVelocities, hybridCellGradient, HybridVorticity, hybridCellVelocities, hybridCellVelocityGradients, hybridVorticityFromGradients, TET_VELOCITY_CORRECTIONS, TET_VELOCITY_RELAXATION,
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

  it('plainVelocities: the cells\' plain fit (hybridCellVelocities), a hexahedron\'s the same bits as compute()\'s, on every backend, leaving compute()\'s cache right', () => {
    const z = faceVelocities(4), z2 = faceVelocities(5)
    const n = mesh.cellCount
    const plain = new Float64Array(3 * n)
    hybridCellVelocities(mesh, new HybridVorticity(mesh).ops, z, plain)
    for (const [threads, k] of everyBackendOfFile()) {
      const v = new HybridVorticity(mesh, undefined, k)
      v.compute(z)
      const corrected = Float64Array.from(v.velocity)
      // Another field's plain velocities in between: compute(z) must still answer z's.
      v.plainVelocities(z2)
      const u = v.plainVelocities(z)
      expect(sameBits(u, plain), `${threads}`).toBe(true)
      expect(sameBits(u.subarray(0, 3 * mesh.hexCount), corrected.subarray(0, 3 * mesh.hexCount)), `${threads}: hexahedra`).toBe(true)
      // The tetrahedra's corrections are what differs.
      let differ = 0
      for (let i = 3 * mesh.hexCount; i < 3 * n; i++) if (u[i] !== corrected[i]) differ++
      expect(differ, `${threads}: tetrahedra`).toBeGreaterThan(3 * mesh.tetCount * 0.9)
      v.compute(z)
      expect(sameBits(v.velocity, corrected), `${threads}: compute after`).toBe(true)
      v.compute(z2)
      const fresh = new HybridVorticity(mesh)
      fresh.compute(z2)
      expect(sameBits(v.velocity, fresh.velocity), `${threads}: a new field`).toBe(true)
    }
  })

  it('the confinement force: eps h (N x omega), N from hybridCellGradient of |omega|, the same bits on every backend, uniform and per cell', () => {
    const z = faceVelocities(5)
    const n = mesh.cellCount
    const ref = new HybridVorticity(mesh)
    ref.compute(z)
    const eta = new Float64Array(3 * n)
    hybridCellGradient(mesh, ref.ops, ref.magnitude, eta)
    const rng = new Prng(3)
    const field = new Float64Array(n).map(() => rng.next())
    const expected = (eps: (c: number) => number) => {
      const f = new Float64Array(3 * n).fill(0.25)
      for (let c = 0; c < n; c++) {
        const ex = eta[3 * c], ey = eta[3 * c + 1], ez = eta[3 * c + 2], h = mesh.cellMeanEdge[c]
        const len = Math.sqrt(ex * ex + ey * ey + ez * ez) + (1e-3 * ref.magnitude[c]) / h
        if (!(len > 0)) continue
        const s = (eps(c) * h) / len
        const a = ref.omega[3 * c], b = ref.omega[3 * c + 1], d = ref.omega[3 * c + 2]
        f[c] += s * (ey * d - ez * b); f[n + c] += s * (ez * a - ex * d); f[2 * n + c] += s * (ex * b - ey * a)
      }
      return f
    }
    const uniform = expected(() => 0.4), perCell = expected((c) => field[c])
    for (const [name, k] of [['TypeScript', undefined] as const, ...BACKENDS]) {
      const v = new HybridVorticity(mesh, ref.ops, k)
      v.compute(z)
      for (const [eps, want] of [[0.4, uniform], [field, perCell]] as const) {
        const alloc = () => (k ? k.f64(n) : new Float64Array(n))
        const fx = alloc(), fy = alloc(), fz = alloc()
        fx.fill(0.25); fy.fill(0.25); fz.fill(0.25)
        v.addConfinement(eps, fx, fy, fz)
        const got = new Float64Array(3 * n)
        got.set(fx); got.set(fy, n); got.set(fz, 2 * n)
        expect(sameBits(got, want), `${name}, ${typeof eps === 'number' ? 'uniform' : 'per cell'}`).toBe(true)
      }
      if (k) expect((k as WasmKernelBackend).fallbacks, name).toBe(0)
    }
  })

  it('the forces on the faces (eq. 5) as a row: addCellForcesToFaces\' bits on every backend', () => {
    const n = mesh.cellCount, nf = mesh.faceCount
    const rng = new Prng(8)
    const fx = new Float64Array(n).map(() => rng.next() - 0.5), fy = new Float64Array(n).map(() => rng.next() - 0.5), fz = new Float64Array(n).map(() => rng.next() - 0.5)
    fy[7] = Number.NaN
    const z0 = faceVelocities(6)
    const want = z0.slice()
    addCellForcesToFaces(mesh, fx, fy, fz, 0.03, want)
    for (const [name, k] of BACKENDS) {
      const own = <T extends Float64Array | Int32Array | Uint8Array>(a: T): T => kernelCopy(k, a)
      const z = own(z0.slice())
      k.run(HYBRID_FACE_FORCES, own(mesh.faceKind), own(mesh.faceCellA), own(mesh.faceCellB), own(mesh.cellVolume), own(mesh.faceNormal), own(fx), own(fy), own(fz), 0.03, z, nf)
      expect(sameBits(z, want), name).toBe(true)
      expect((k as WasmKernelBackend).fallbacks, name).toBe(0)
    }
  })

  it('counts the entries whose bits differ (the compute cache\'s check), -0 and NaN payloads included, on every backend', () => {
    const n = 3 * DIFFERING_BLOCK + 17
    const a = new Float64Array(n).map((_, i) => Math.sin(i))
    const b = a.slice()
    b[5] = -b[5]
    b[DIFFERING_BLOCK + 3] = Number.NaN
    a[DIFFERING_BLOCK + 3] = Number.NaN
    a[2 * DIFFERING_BLOCK] = 0
    b[2 * DIFFERING_BLOCK] = -0
    b[n - 1] += 1e-16 * Math.abs(b[n - 1]) + Number.MIN_VALUE
    // A NaN with another payload: the same value to ===, other bits.
    new DataView(b.buffer).setUint32(8 * (DIFFERING_BLOCK + 9) + 4, 0x7ff80001, true)
    new DataView(a.buffer).setUint32(8 * (DIFFERING_BLOCK + 9) + 4, 0x7ff80000, true)
    new DataView(a.buffer).setUint32(8 * (DIFFERING_BLOCK + 9), 0, true)
    new DataView(b.buffer).setUint32(8 * (DIFFERING_BLOCK + 9), 0, true)
    for (const [name, k] of [['TypeScript', TS] as const, ...BACKENDS]) {
      const A = kernelCopy(k, a), B = kernelCopy(k, b)
      const partial = k.f64(Math.ceil(n / DIFFERING_BLOCK))
      expect(k.run(HYBRID_DIFFERING_WORDS, A, B, n, partial), name).toBe(4)
      expect(k.run(HYBRID_DIFFERING_WORDS, A, kernelCopy(k, a), n, partial), name).toBe(0)
    }
  })
})
