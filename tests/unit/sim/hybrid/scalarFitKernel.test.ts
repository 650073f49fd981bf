// The hybrid mesh's batched scalar fits (sim/hybrid/scalarFitKernel.ts, twin
// wasm/assembly/hybridScalarFit.ts): the batch gives scalarsAt's bits at every point, on
// TypeScript and on 1, 2 and 3 WebAssembly threads, for one scalar and two, with NaN in a
// field and a neighbourhood too flat for the linear basis (the weighted mean answers, alone and
// beside full neighbourhoods in the twin's pairs); and
// advectCells with the batch on the kernels gives the TypeScript run's bits.
import { describe, expect, it } from 'vitest'
import { CLOSED_BOX } from '../../../../src-shared/sim/core/boundaries'
import { kernelCopy, TS_KERNELS } from '../../../../src-shared/sim/core/kernelBackend'
import type { KernelBackend } from '../../../../src-shared/sim/core/kernelTypes'
import { Prng } from '../../../../src-shared/sim/core/prng'
import { HybridAdvection } from '../../../../src-shared/sim/hybrid/hybridAdvection'
import { HybridInterpolation } from '../../../../src-shared/sim/hybrid/hybridInterpolation'
import { buildHybridMesh, type HybridMesh } from '../../../../src-shared/sim/hybrid/hybridMesh'
import { SCALAR_FIT_POINTS, SCALAR_FIT_SCRATCH, scalarFitAt } from '../../../../src-shared/sim/hybrid/scalarFitKernel'
import { everyBackendOfFile, sameBits } from '../everyBackend'
import { cellScalars, sphere, swirlFaces } from './hybridFixtures'

const mesh: HybridMesh = buildHybridMesh({ grid: { nx: 12, ny: 12, nz: 12, dx: 1 / 12, origin: [0, 0, 0] }, obstacle: sphere, mode: 'hybrid', bandCells: 1, sides: CLOSED_BOX })
const interp = new HybridInterpolation(mesh)
const EPS2 = interp.epsilonFactor * interp.epsilonFactor
const BACKENDS = everyBackendOfFile()

const scalars = (seed: number) => cellScalars(mesh, seed)

/** A batch: a point near the centre of every listed cell, on backend k. */
function batch(k: KernelBackend, seed: number) {
  const rng = new Prng(seed)
  const cells: number[] = []
  for (let c = 0; c < mesh.cellCount; c++) if (interp.ringStart[c + 1] > interp.ringStart[c]) cells.push(c)
  const n = cells.length
  const put = <T extends Float64Array | Int32Array>(x: T): T => kernelCopy(k, x)
  const at = k.f64(3 * n), start = k.i32(n), end = k.i32(n), len = k.f64(n)
  for (let q = 0; q < n; q++) {
    const c = cells[q], l = mesh.cellMeanEdge[c]
    for (let d = 0; d < 3; d++) at[3 * q + d] = mesh.cellCentre[3 * c + d] + (rng.next() - 0.5) * 0.5 * l
    start[q] = interp.ringStart[c]
    end[q] = interp.ringStart[c + 1]
    len[q] = l
  }
  const [a, b] = scalars(seed + 1)
  return { cells, n, at, start, end, len, a: put(a), b: put(b), C: put(mesh.cellCentre), ring: put(interp.ringCells), outA: k.f64(n), outB: k.f64(n) }
}

describe('the hybrid scalar fits on the kernels', () => {
  it('every backend gives scalarsAt\'s bits at every point, for two scalars and for one', () => {
    const ref = batch(TS_KERNELS, 3)
    const pair = new Float64Array(2)
    let fits = 0
    for (let q = 0; q < ref.n; q++) {
      const c = ref.cells[q]
      if (interp.scalarTrilinear(ref.at[3 * q], ref.at[3 * q + 1], ref.at[3 * q + 2], c)) continue
      fits++
    }
    expect(fits).toBeGreaterThan(1000)
    for (const [name, k] of BACKENDS) {
      const b = batch(k, 3)
      k.run(SCALAR_FIT_POINTS, b.C, b.ring, b.start, b.end, b.at, b.len, EPS2, b.a, b.b, b.outA, b.outB, null, b.n)
      const one = k.f64(b.n)
      k.run(SCALAR_FIT_POINTS, b.C, b.ring, b.start, b.end, b.at, b.len, EPS2, b.a, null, one, null, null, b.n)
      for (let q = 0; q < b.n; q++) {
        const c = b.cells[q], x = b.at[3 * q], y = b.at[3 * q + 1], z = b.at[3 * q + 2]
        if (interp.scalarTrilinear(x, y, z, c)) continue
        interp.scalarsAt(x, y, z, c, ref.a, ref.b, pair)
        if (!Object.is(b.outA[q], pair[0]) || !Object.is(b.outB[q], pair[1]) || !Object.is(one[q], pair[0])) throw new Error(`${name}, point ${q}: ${b.outA[q]}, ${b.outB[q]}, ${one[q]} against ${pair[0]}, ${pair[1]}`)
      }
    }
  })

  it('a neighbourhood whose cells all lie in one plane: the weighted mean, clamped, on every backend', () => {
    // Four centres in the plane z = 0.5: the linear basis's Z term is unconstrained.
    const C = Float64Array.of(0.4, 0.5, 0.5, 0.6, 0.5, 0.5, 0.5, 0.4, 0.5, 0.5, 0.6, 0.5)
    const list = Int32Array.of(0, 1, 2, 3), a = Float64Array.of(1, 2, 3, 4), b = Float64Array.of(5, 5, 6, 6)
    const out = new Float64Array(2)
    scalarFitAt(C, list, 0, 4, 0.52, 0.47, 0.5, 0.1, EPS2, a, b, new Float64Array(SCALAR_FIT_SCRATCH), out, 0)
    // The weights are those of eq. 9 in units of the length: the mean of a is theirs.
    let sw = 0, swa = 0
    for (let i = 0; i < 4; i++) {
      const X = (C[3 * i] - 0.52) / 0.1, Y = (C[3 * i + 1] - 0.47) / 0.1, Z = (C[3 * i + 2] - 0.5) / 0.1
      const w = 1 / (X * X + Y * Y + Z * Z + EPS2)
      sw += w * w
      swa += w * w * a[i]
    }
    expect(out[0]).toBeCloseTo(swa / sw, 12)
    for (const [name, k] of BACKENDS) {
      const put = <T extends Float64Array | Int32Array>(x: T): T => kernelCopy(k, x)
      const oa = k.f64(1), ob = k.f64(1)
      k.run(SCALAR_FIT_POINTS, put(C), put(list), put(Int32Array.of(0)), put(Int32Array.of(4)), put(Float64Array.of(0.52, 0.47, 0.5)), put(Float64Array.of(0.1)), EPS2, put(a), put(b), oa, ob, null, 1)
      expect(sameBits([oa[0], ob[0]], out), name).toBe(true)
    }
    // The same flat neighbourhood beside full ones, in both lanes of the twin's pairs and alone
    // at the end: C gains four centres off the plane, lists of 4 and 8 cells alternate.
    const C8 = Float64Array.of(...C, 0.45, 0.45, 0.42, 0.55, 0.5, 0.61, 0.5, 0.56, 0.47, 0.47, 0.52, 0.58)
    const list8 = Int32Array.of(0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 6, 7)
    const a8 = Float64Array.of(1, 2, 3, 4, 2.5, 1.5, 3.5, 0.5), b8 = Float64Array.of(5, 5, 6, 6, 7, 4, 5.5, 6.5)
    const starts = [0, 4, 0, 4, 0], ends = [4, 12, 4, 12, 4]
    const pts = [0.52, 0.47, 0.5, 0.5, 0.5, 0.51, 0.49, 0.53, 0.5, 0.48, 0.52, 0.47, 0.51, 0.5, 0.5]
    const want = new Float64Array(2 * starts.length), one = new Float64Array(2)
    for (let q = 0; q < starts.length; q++) {
      scalarFitAt(C8, list8, starts[q], ends[q], pts[3 * q], pts[3 * q + 1], pts[3 * q + 2], 0.1, EPS2, a8, b8, new Float64Array(SCALAR_FIT_SCRATCH), one, 0)
      want[2 * q] = one[0]; want[2 * q + 1] = one[1]
    }
    expect(want[0]).toBe(out[0])
    expect(want[2]).not.toBe(want[0])
    for (const [name, k] of BACKENDS) {
      const put = <T extends Float64Array | Int32Array>(x: T): T => kernelCopy(k, x)
      const n = starts.length, oa = k.f64(n), ob = k.f64(n)
      k.run(SCALAR_FIT_POINTS, put(C8), put(list8), put(Int32Array.from(starts)), put(Int32Array.from(ends)), put(Float64Array.from(pts)), put(new Float64Array(n).fill(0.1)), EPS2, put(a8), put(b8), oa, ob, null, n)
      const got = new Float64Array(2 * n)
      for (let q = 0; q < n; q++) { got[2 * q] = oa[q]; got[2 * q + 1] = ob[q] }
      expect(sameBits(got, want), `${name}, flat beside full`).toBe(true)
    }
  })

  it('advectCells with the fits on the kernels: the TypeScript run\'s bits on every backend', () => {
    const z = swirlFaces(mesh, 9, 3, 0.8, 0.5)
    const vv = new Float64Array(3 * mesh.vertexCount)
    interp.vertexVelocities(z, vv)
    const [a, b] = scalars(17)
    const ref1 = new Float64Array(mesh.cellCount), ref2 = new Float64Array(mesh.cellCount)
    new HybridAdvection(interp).advectCells(a, vv, 0.04, ref1, b, ref2)
    for (const [name, k] of BACKENDS.slice(1)) {
      const o1 = new Float64Array(mesh.cellCount), o2 = new Float64Array(mesh.cellCount), alone = new Float64Array(mesh.cellCount)
      const adv = new HybridAdvection(interp, undefined, k)
      adv.advectCells(a, vv, 0.04, o1, b, o2)
      adv.advectCells(a, vv, 0.04, alone)
      expect(sameBits(o1, ref1), name).toBe(true)
      expect(sameBits(o2, ref2), name).toBe(true)
      expect(sameBits(alone, ref1), name).toBe(true)
    }
  })

})
