// The hybrid projection's passes as kernel rows (sim/hybrid/projectionKernels.ts, twins in
// wasm/assembly/hybridProjection.ts): on TypeScript and on 1, 2 and 3 WebAssembly threads the
// right-hand side is the negated hybridVolumeDivergence, the correction the loop z -= G p, and the
// largest relative divergence worstRelativeDivergence's, bit for bit, with NaN in the flow.
import { describe, expect, it } from 'vitest'
import { CLOSED_BOX } from '../../../../src-shared/sim/core/boundaries'
import { kernelCopy } from '../../../../src-shared/sim/core/kernelBackend'
import { Prng } from '../../../../src-shared/sim/core/prng'
import { buildHybridMesh, type HybridMesh } from '../../../../src-shared/sim/hybrid/hybridMesh'
import { hybridVolumeDivergence, worstRelativeDivergence } from '../../../../src-shared/sim/hybrid/hybridProjection'
import { HYBRID_CELL_FLUX, HYBRID_FACE_CORRECTION, HYBRID_RELATIVE_DIVERGENCE } from '../../../../src-shared/sim/hybrid/projectionKernels'
import { everyBackendOfFile, sameBits } from '../everyBackend'
import { grid, sphere, swirlFaces } from './hybridFixtures'

const BACKENDS = everyBackendOfFile()
const mesh: HybridMesh = buildHybridMesh({ grid: grid(12), obstacle: sphere, mode: 'hybrid', bandCells: 1, sides: { ...CLOSED_BOX, yMax: 'open' } })

describe('the hybrid projection\'s passes as kernel rows', () => {
  it('give the loops\' bits on every backend', () => {
    const n = mesh.cellCount, nf = mesh.faceCount
    const z = swirlFaces(mesh, 4, 3, 0.7, 0.6)
    z[nf - 9] = Number.NaN
    const rng = new Prng(11)
    const p = new Float64Array(n).map(() => rng.next() - 0.5)
    const inv = new Float64Array(nf).map((_, f) => (mesh.faceCellB[f] >= 0 || f % 5 === 0 ? 1 / mesh.faceDistance[f] : 0))
    const rhs = new Float64Array(n)
    hybridVolumeDivergence(mesh, z, rhs)
    for (let c = 0; c < n; c++) rhs[c] = -rhs[c]
    const corrected = z.slice()
    for (let f = 0; f < nf; f++) {
      if (inv[f] === 0) continue
      const b = mesh.faceCellB[f]
      corrected[f] -= ((b >= 0 ? p[b] : 0) - p[mesh.faceCellA[f]]) * inv[f]
    }
    const worst = worstRelativeDivergence(mesh, corrected, new Float64Array(n))
    expect(worst).toBeGreaterThan(0.01)
    const signedArea = new Float64Array(mesh.cellFaces.length).map((_, i) => mesh.cellFaceSign[i] * mesh.faceArea[mesh.cellFaces[i]])
    for (const [name, k] of BACKENDS) {
      const own = <T extends Float64Array | Int32Array>(a: T): T => kernelCopy(k, a)
      const start = own(mesh.cellFaceStart), faces = own(mesh.cellFaces), sa = own(signedArea)
      const zk = own(z.slice()), out = k.f64(n), ratio = k.f64(n)
      k.run(HYBRID_CELL_FLUX, start, faces, sa, zk, out, 1, n)
      expect(sameBits(out, rhs), `${name}: right-hand side`).toBe(true)
      k.run(HYBRID_FACE_CORRECTION, own(mesh.faceCellA), own(mesh.faceCellB), own(inv), own(p), zk, nf)
      expect(sameBits(zk, corrected), `${name}: corrected faces`).toBe(true)
      k.run(HYBRID_RELATIVE_DIVERGENCE, start, faces, sa, zk, ratio, n)
      let most = 0
      for (let c = 0; c < n; c++) if (ratio[c] > most) most = ratio[c]
      expect(Object.is(most, worst), `${name}: worst relative divergence`).toBe(true)
    }
  })
})
