// The hybrid advection's other passes on the kernels: the vertex velocities (the constant fits'
// sums, HybridAdvection.vertexVelocities) and the frame's resampling at fixed points
// (HybridAdvection.sampleAt, its fits batched, all outputs or one kind) give HybridInterpolation's
// bits one point at a time, on TypeScript and on 1, 2 and 3 WebAssembly threads, with NaN in the fields.
import { describe, expect, it } from 'vitest'
import { CLOSED_BOX } from '../../../../src-shared/sim/core/boundaries'
import { Prng } from '../../../../src-shared/sim/core/prng'
import { HybridAdvection } from '../../../../src-shared/sim/hybrid/hybridAdvection'
import { HybridInterpolation } from '../../../../src-shared/sim/hybrid/hybridInterpolation'
import { buildHybridMesh, type HybridMesh } from '../../../../src-shared/sim/hybrid/hybridMesh'
import { everyBackendOfFile, sameBits } from '../everyBackend'
import { cellScalars, sphere, swirlFaces } from './hybridFixtures'

const mesh: HybridMesh = buildHybridMesh({ grid: { nx: 12, ny: 12, nz: 12, dx: 1 / 12, origin: [0, 0, 0] }, obstacle: sphere, mode: 'hybrid', bandCells: 1, sides: CLOSED_BOX })
const interp = new HybridInterpolation(mesh)
const BACKENDS = everyBackendOfFile()

const scalars = (seed: number) => cellScalars(mesh, seed)

describe('the hybrid advection\'s passes on the kernels', () => {
  it('vertexVelocities gives HybridInterpolation\'s bits on every backend', () => {
    const z = swirlFaces(mesh, 3, 2, 0.5, 0.4)
    z[11] = Number.NaN
    const ref = new Float64Array(3 * mesh.vertexCount)
    interp.vertexVelocities(z, ref)
    expect(ref.some((v) => v !== 0 && Number.isFinite(v))).toBe(true)
    for (const [name, k] of BACKENDS) {
      const out = new Float64Array(3 * mesh.vertexCount)
      new HybridAdvection(interp, undefined, k).vertexVelocities(z, out)
      expect(sameBits(out, ref), name).toBe(true)
    }
  })

  it('sampleAt gives scalarAt\'s and accurateVelocityAt\'s bits at two points in every cell, on every backend', () => {
    const z = swirlFaces(mesh, 5, 3, 0.8, 0.5)
    z[7] = Number.NaN
    const [a, b] = scalars(23)
    const rng = new Prng(41)
    // Two points a cell: more than the batches hold at once (cellCount), so they run in two.
    const n = 2 * mesh.cellCount
    const points = new Float64Array(3 * n), cells = new Int32Array(n)
    for (let q = 0; q < n; q++) {
      const c = q % mesh.cellCount, l = mesh.cellMeanEdge[c]
      cells[q] = c
      for (let d = 0; d < 3; d++) points[3 * q + d] = mesh.cellCentre[3 * c + d] + (rng.next() - 0.5) * 0.3 * l
    }
    const refA = new Float64Array(n), refB = new Float64Array(n), refV = new Float64Array(3 * n)
    for (let q = 0; q < n; q++) {
      const x = points[3 * q], y = points[3 * q + 1], w = points[3 * q + 2]
      refA[q] = interp.scalarAt(x, y, w, cells[q], a)
      refB[q] = interp.scalarAt(x, y, w, cells[q], b)
      interp.accurateVelocityAt(x, y, w, cells[q], z, refV, 3 * q)
    }
    let kinds = 0
    for (let c = 0; c < mesh.cellCount; c++) kinds |= 1 << mesh.cellKind[c]
    expect(kinds).toBe(7)
    for (const [name, k] of BACKENDS) {
      const oA = new Float64Array(n), oB = new Float64Array(n), oV = new Float64Array(3 * n)
      new HybridAdvection(interp, undefined, k).sampleAt(points, cells, n, a, b, z, oA, oB, oV)
      expect(sameBits(oA, refA), name).toBe(true)
      expect(sameBits(oB, refB), name).toBe(true)
      expect(sameBits(oV, refV), name).toBe(true)
      // Asked for one of the two (a remesh's carry, HybridFields.carryOnto), the same bits.
      const sA = new Float64Array(n), sB = new Float64Array(n), sV = new Float64Array(3 * n)
      const adv = new HybridAdvection(interp, undefined, k)
      adv.sampleAt(points, cells, n, a, b, z, sA, sB, null)
      adv.sampleAt(points, cells, n, a, b, z, null, null, sV)
      expect(sameBits(sA, refA) && sameBits(sB, refB) && sameBits(sV, refV), `${name}, one output at a time`).toBe(true)
    }
    expect(() => new HybridAdvection(interp).sampleAt(points, cells, n, a, b, z, new Float64Array(n), null, null)).toThrow(/both scalar outputs or neither/)
  })
})
