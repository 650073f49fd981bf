// The viscosity system's operator and vector kernels visit only its unknown faces and the sites
// with a weight (viscosity.ts: UnknownFaceOps, listSites, listFaces). Rows that are not
// unknowns stay the identity, wall faces that sites read included (fails if apply leaves the
// sites' sums on them), and a system set up again over another liquid solves to the same bits
// as a fresh one (fails if a list or a scratch vector keeps the last setup's faces).
import { describe, expect, it } from 'vitest'
import { closedBoxFaces } from '../../../fixtures/viscousFaces'
import { CLOSED_BOX, openFlags } from '../../../../src-shared/sim/core/boundaries'
import type { GridSpec } from '../../../../src-shared/sim/core/grid'
import { Prng } from '../../../../src-shared/sim/core/prng'
import { AIR, LIQUID, SOLID, type ViscousPreconditioner, ViscositySystem } from '../../../../src-shared/sim/liquid/viscosity'
import { assembleViscousMatrix } from '../../../../src-shared/sim/liquid/viscousMatrix'

const n = 8

/** A free surface at height `level` (cells) over a solid cell, random viscosities, no-slip walls. */
function setUp(sys: ViscositySystem, level: number, stress: 'carlson' | 'full'): void {
  const spec: GridSpec = { nx: n, ny: n, nz: n, dx: 0.1, origin: [0, 0, 0] }
  const N = n * n * n
  const kind = new Uint8Array(N), cellNu = new Float32Array(N), solid = new Float32Array(N), phi = new Float32Array(N)
  const prng = new Prng(21)
  for (let k = 0; k < n; k++) {
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < n; i++) {
        const c = i + n * (j + n * k)
        phi[c] = 0.1 * (j + 0.5 - level - 0.4 * Math.sin(i + k))
        kind[c] = phi[c] < 0 ? LIQUID : AIR
        cellNu[c] = 10 ** prng.range(-1, 3)
      }
    }
  }
  const sc = 3 + n * (1 + n * 3)
  kind[sc] = SOLID
  solid[sc] = 1
  const { fractions, vel } = closedBoxFaces(spec, solid, prng)
  sys.setup(vel, fractions, kind, cellNu, 1 / 30, stress, 'no', openFlags(CLOSED_BOX), phi)
}

describe('viscosity system over its unknowns', () => {
  for (const stress of ['carlson', 'full'] as const) {
    it(`${stress}: apply is the identity off the unknowns (wall faces included) and the assembled matrix on them (1e-12)`, () => {
      const sys = new ViscositySystem(n, n, n)
      setUp(sys, 5.3, stress)
      const prng = new Prng(9)
      const x = new Float64Array(sys.n)
      for (let f = 0; f < sys.n; f++) x[f] = prng.range(-1, 1)
      const out = new Float64Array(sys.n)
      sys.apply(x, out)
      let unknowns = 0
      for (let f = 0; f < sys.n; f++) {
        if (sys.unknown[f]) unknowns++
        else expect(out[f]).toBe(x[f])
      }
      expect(sys.faceCount).toBe(unknowns)
      const { A, faces } = assembleViscousMatrix(sys)
      let err = 0, scale = 0
      for (let r = 0; r < A.n; r++) {
        let s = 0
        for (let p = A.rowPtr[r]; p < A.rowPtr[r + 1]; p++) s += A.val[p] * x[faces[A.col[p]]]
        err = Math.max(err, Math.abs(s - out[faces[r]]))
        scale = Math.max(scale, Math.abs(out[faces[r]]))
      }
      expect(err / scale).toBeLessThan(1e-12)
    })
  }

  for (const pre of ['jacobi', 'multigrid', 'ic'] as ViscousPreconditioner[]) {
    // More liquid, then less: the second setup's box (the cells within one of a liquid cell,
    // which setup's passes visit) is smaller than the first's, so what the first wrote beyond
    // it must not leak into the second.
    for (const [before, after] of [[3.1, 6.4], [6.4, 2.2]]) {
      it(`${pre}: set up again over ${after > before ? 'more' : 'less'} liquid, it solves to the same bits as a fresh system`, () => {
        const reused = new ViscositySystem(n, n, n)
        reused.preconditioner = pre
        setUp(reused, before, 'full')
        const first = reused.solve(1e-8, 500)
        expect(first.converged).toBe(true)
        setUp(reused, after, 'full')
        const again = reused.solve(1e-8, 500)
        const fresh = new ViscositySystem(n, n, n)
        fresh.preconditioner = pre
        setUp(fresh, after, 'full')
        const once = fresh.solve(1e-8, 500)
        expect(again.converged).toBe(true)
        expect(again.iterations).toBe(once.iterations)
        expect(again.iterations).toBeGreaterThan(1)
        expect(Buffer.from(reused.x.buffer).equals(Buffer.from(fresh.x.buffer))).toBe(true)
        for (const a of ['diagonal', 'invDiag', 'mass', 'rhs', 'unknown', 'wCell', 'wXY', 'wXZ', 'wYZ', 'gXY', 'gXZ', 'gYZ', 'cellFraction'] as const) {
          expect(Buffer.from(reused[a].buffer).equals(Buffer.from(fresh[a].buffer)), a).toBe(true)
        }
        // Rows that are not unknowns are the identity's (diagonal, its inverse and the mass 1).
        let identity = 0
        for (let f = 0; f < reused.n; f++) if (!reused.unknown[f] && reused.diagonal[f] === 1 && reused.invDiag[f] === 1 && reused.mass[f] === 1) identity++
        expect(identity).toBe(reused.n - reused.faceCount)
      })
    }
  }
})
