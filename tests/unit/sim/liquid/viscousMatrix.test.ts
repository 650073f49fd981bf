// The assembled viscosity matrix (viscousMatrix.ts) is the system's operator: A x on the
// unknowns equals ViscositySystem.apply to rounding (1e-12 relative) for both stress forms, with
// no-slip walls (reflected ghost pairs), a solid block, a free surface and varying viscosity;
// it is symmetric to the last bit after assembly's sums (1e-12 relative); its lower triangle
// assembled alone has the same entries to the bit; and incomplete Cholesky of it solves the
// system to the solver's tolerance.
import { describe, expect, it } from 'vitest'
import { closedBoxFaces } from '../../../fixtures/viscousFaces'
import { CLOSED_BOX, openFlags } from '../../../../src-shared/sim/core/boundaries'
import type { GridSpec } from '../../../../src-shared/sim/core/grid'
import { Prng } from '../../../../src-shared/sim/core/prng'
import { AIR, LIQUID, SOLID, ViscositySystem } from '../../../../src-shared/sim/liquid/viscosity'
import { assembleViscousMatrix } from '../../../../src-shared/sim/liquid/viscousMatrix'

function setUp(stress: 'carlson' | 'full'): ViscositySystem {
  const n = 7
  const spec: GridSpec = { nx: n, ny: n, nz: n, dx: 0.1, origin: [0, 0, 0] }
  const N = n * n * n
  const kind = new Uint8Array(N), cellNu = new Float32Array(N), solid = new Float32Array(N), phi = new Float32Array(N)
  const prng = new Prng(21)
  for (let k = 0; k < n; k++) {
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < n; i++) {
        const c = i + n * (j + n * k)
        phi[c] = 0.1 * (j + 0.5 - 4.3 - 0.4 * Math.sin(i + k))
        kind[c] = phi[c] < 0 ? LIQUID : AIR
        cellNu[c] = 10 ** prng.range(-1, 3)
      }
    }
  }
  const sc = 3 + n * (1 + n * 3)
  kind[sc] = SOLID
  solid[sc] = 1
  const { fractions, vel } = closedBoxFaces(spec, solid, prng)
  const sys = new ViscositySystem(n, n, n)
  sys.setup(vel, fractions, kind, cellNu, 1 / 30, stress, 'no', openFlags(CLOSED_BOX), phi)
  return sys
}

describe('assembled viscosity matrix', () => {
  for (const stress of ['carlson', 'full'] as const) {
    it(`${stress}: A x equals the system's product on every unknown (1e-12 relative) and A is symmetric`, () => {
      const sys = setUp(stress)
      const { A, faces, rowOf } = assembleViscousMatrix(sys)
      expect(faces.length).toBeGreaterThan(100)
      const prng = new Prng(5)
      const x = new Float64Array(sys.n)
      for (const f of faces) x[f] = prng.range(-1, 1)
      const ref = new Float64Array(sys.n)
      sys.apply(x, ref)
      let err = 0, scale = 0
      for (let r = 0; r < A.n; r++) {
        let s = 0
        for (let p = A.rowPtr[r]; p < A.rowPtr[r + 1]; p++) s += A.val[p] * x[faces[A.col[p]]]
        err = Math.max(err, Math.abs(s - ref[faces[r]]))
        scale = Math.max(scale, Math.abs(ref[faces[r]]))
      }
      expect(err / scale).toBeLessThan(1e-12)
      // Symmetry: A_rc = A_cr.
      let asym = 0, big = 0
      for (let r = 0; r < A.n; r++) {
        for (let p = A.rowPtr[r]; p < A.rowPtr[r + 1]; p++) {
          const c = A.col[p]
          let t = 0
          for (let q = A.rowPtr[c]; q < A.rowPtr[c + 1]; q++) if (A.col[q] === r) t = A.val[q]
          asym = Math.max(asym, Math.abs(A.val[p] - t))
          big = Math.max(big, Math.abs(A.val[p]))
        }
      }
      expect(asym / big).toBeLessThan(1e-12)
      expect(rowOf[faces[3]]).toBe(3)
      // The full stress couples components; Carlson's does not.
      let cross = 0
      const comp = (f: number) => (f < sys.nu ? 0 : f < sys.nu + sys.nv ? 1 : 2)
      for (let r = 0; r < A.n; r++) for (let p = A.rowPtr[r]; p < A.rowPtr[r + 1]; p++) if (comp(faces[r]) !== comp(faces[A.col[p]]) && A.val[p] !== 0) cross++
      if (stress === 'full') expect(cross).toBeGreaterThan(0)
      else expect(cross).toBe(0)
      // The lower triangle alone (what incomplete Cholesky reads): the same entries, to the bit.
      const L = assembleViscousMatrix(sys, undefined, true).A
      const want: number[] = [], got: number[] = []
      for (let r = 0; r < A.n; r++) {
        for (let p = A.rowPtr[r]; p < A.rowPtr[r + 1]; p++) if (A.col[p] <= r) want.push(r, A.col[p], A.val[p])
        for (let p = L.rowPtr[r]; p < L.rowPtr[r + 1]; p++) got.push(r, L.col[p], L.val[p])
      }
      expect(got).toEqual(want)
    })

    it(`${stress}: PCG with its incomplete Cholesky reaches the Jacobi-PCG answer (1e-6 relative)`, () => {
      const a = setUp(stress)
      a.preconditioner = 'ic'
      expect(a.solve(1e-10, 2000).converged).toBe(true)
      expect(a.lastPreconditioner).toBe('ic')
      const b = setUp(stress)
      b.preconditioner = 'jacobi'
      b.solve(1e-10, 4000)
      let d = 0, s = 0
      for (let f = 0; f < a.n; f++) (d = Math.max(d, Math.abs(a.x[f] - b.x[f]))), (s = Math.max(s, Math.abs(b.x[f])))
      expect(d / s).toBeLessThan(1e-6)
    })
  }
})
