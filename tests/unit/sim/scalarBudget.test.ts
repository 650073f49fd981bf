import { describe, expect, it } from 'vitest'
import { Prng } from '../../../src-shared/sim/core/prng'
import { MacGrid } from '../../../src-shared/sim/core/grid'
import { amountLeaving, type CellAdjacency, MeshScalarBudget, ScalarBudget } from '../../../src-shared/sim/core/scalarBudget'
import { CLOSED_BOX } from '../../../src-shared/sim/core/boundaries'
import { buildHybridMesh } from '../../../src-shared/sim/hybrid/hybridMesh'
import type { WasmKernelBackend } from '../../../src-shared/sim/wasm/wasmBackend'
import { everyBackendOfFile, sameBits } from './everyBackend'

const nx = 10, ny = 9, nz = 8
const n = nx * ny * nz
const at = (i: number, j: number, k: number) => i + nx * (j + ny * k)

/** Sum of f - ambient over the cells below half solid (float64). */
function amount(f: Float32Array, ambient: number, solid: Float32Array | null = null): number {
  let s = 0
  for (let c = 0; c < f.length; c++) if (solid === null || solid[c] < 0.5) s += f[c] - ambient
  return s
}

/** A smooth blob of smoke (0 outside, up to 1 inside, a plateau of 1 at its core). */
function blob(scale = 1): Float32Array {
  const f = new Float32Array(n)
  for (let k = 0; k < nz; k++)
    for (let j = 0; j < ny; j++)
      for (let i = 0; i < nx; i++) {
        const r = Math.hypot(i - 4.5, j - 4, k - 3.5)
        f[at(i, j, k)] = scale * (r < 1.5 ? 1 : r < 3.5 ? (3.5 - r) / 2 : 0)
      }
  return f
}

describe('ScalarBudget: a closed domain keeps the amount advection gained or lost', () => {
  it.each([
    ['lost 3%', 0.97],
    ['gained 3%', 1.03],
  ])('puts back what was %s, to float32 rounding, without passing any neighbour or touching ambient cells', (_l, factor) => {
    const before = blob()
    // An "advected" field: the blob with its edge cells scaled (a loss or gain at the front).
    const after = blob()
    for (let c = 0; c < n; c++) if (after[c] > 0 && after[c] < 1) after[c] *= factor
    const target = amount(before, 0)
    expect(Math.abs(amount(after, 0) / target - 1)).toBeGreaterThan(0.01)
    const copy = after.slice()
    const change = new ScalarBudget().restore(after, before, 0, null, nx, ny, nz)
    expect(Math.abs(amount(after, 0) / target - 1)).toBeLessThan(1e-6)
    expect(change).toBeCloseTo(amount(copy, 0) / target - 1, 6)
    for (let k = 0; k < nz; k++)
      for (let j = 0; j < ny; j++)
        for (let i = 0; i < nx; i++) {
          const c = at(i, j, k)
          // Air stays air; with a loss to put back, the plateau (no room to rise) stays 1.
          if (copy[c] === 0) expect(after[c]).toBe(0)
          if (copy[c] === 1 && factor < 1) expect(after[c]).toBe(1)
          // No value moves past the largest or smallest of its own and its neighbours' values.
          let lo = copy[c], hi = copy[c]
          for (const [a, b, d] of [[i - 1, j, k], [i + 1, j, k], [i, j - 1, k], [i, j + 1, k], [i, j, k - 1], [i, j, k + 1]]) {
            if (a < 0 || b < 0 || d < 0 || a >= nx || b >= ny || d >= nz) continue
            lo = Math.min(lo, copy[at(a, b, d)])
            hi = Math.max(hi, copy[at(a, b, d)])
          }
          expect(after[c]).toBeGreaterThanOrEqual(lo)
          expect(after[c]).toBeLessThanOrEqual(hi)
        }
  })

  it('measures heat from the ambient temperature, whatever its sign, and leaves a uniform field alone', () => {
    const amb = Math.fround(293.15)
    const rng = new Prng(3)
    const before = new Float32Array(n).fill(amb)
    for (let c = 0; c < n; c++) if (c % 3 === 0) before[c] = amb + (rng.next() - 0.5) * 20
    const after = before.slice()
    for (let c = 0; c < n; c++) if (after[c] !== amb) after[c] = amb + (after[c] - amb) * 0.95
    new ScalarBudget().restore(after, before, amb, null, nx, ny, nz)
    expect(Math.abs(amount(after, amb) - amount(before, amb))).toBeLessThan(1e-3)
    for (let c = 0; c < n; c++) if (before[c] === amb) expect(after[c]).toBe(amb)
    const uniform = new Float32Array(n).fill(0.7)
    const same = uniform.slice()
    expect(new ScalarBudget().restore(same, uniform, 0, null, nx, ny, nz)).toBe(0)
    expect(same).toEqual(uniform)
  })

  it('counts only the fluid cells: what obstacle cells hold is neither measured nor changed', () => {
    const solid = new Float32Array(n)
    for (let k = 2; k < 6; k++) for (let j = 2; j < 6; j++) solid[at(7, j, k)] = 1
    const before = blob()
    const after = blob(0.98)
    // Obstacle cells hold extended values that differ before and after: not smoke.
    for (let c = 0; c < n; c++) if (solid[c] >= 0.5) {
      before[c] = 5
      after[c] = 9
    }
    new ScalarBudget().restore(after, before, 0, solid, nx, ny, nz)
    expect(Math.abs(amount(after, 0, solid) / amount(before, 0, solid) - 1)).toBeLessThan(1e-6)
    for (let c = 0; c < n; c++) if (solid[c] >= 0.5) expect(after[c]).toBe(9)
  })

  it('spreads what the neighbours leave no room for in proportion to each value (a field of plateaus)', () => {
    // Every smoke cell equals all its smoke neighbours and touches air: raising has no room.
    const before = new Float32Array(n)
    for (let c = 0; c < n; c++) before[c] = c % 2 === 0 ? 0 : 1
    const after = before.slice()
    for (let c = 0; c < n; c++) after[c] *= 0.9
    new ScalarBudget().restore(after, before, 0, null, nx, ny, nz)
    expect(Math.abs(amount(after, 0) / amount(before, 0) - 1)).toBeLessThan(1e-6)
  })
})

describe('MeshScalarBudget: the same on cells of different volumes', () => {
  /** A chain of cells 0-1-2-...-(m-1), face f between cells f and f + 1, boundary faces at both ends. */
  function chain(volumes: number[]): CellAdjacency {
    const m = volumes.length
    const faceCellA: number[] = [], faceCellB: number[] = [], cellFaceStart = [0], cellFaces: number[] = []
    for (let f = 0; f < m - 1; f++) {
      faceCellA.push(f)
      faceCellB.push(f + 1)
    }
    for (let c = 0; c < m; c++) {
      if (c > 0) cellFaces.push(c - 1)
      if (c < m - 1) cellFaces.push(c)
      cellFaceStart.push(cellFaces.length)
    }
    return {
      cellCount: m,
      cellVolume: Float64Array.from(volumes),
      cellFaceStart: Int32Array.from(cellFaceStart),
      cellFaces: Int32Array.from(cellFaces),
      faceCellA: Int32Array.from(faceCellA),
      faceCellB: Int32Array.from(faceCellB),
    }
  }
  const total = (q: Float64Array, V: Float64Array) => q.reduce((s, x, c) => s + x * V[c], 0)

  it('restores sum V q (not sum q) within each value\'s neighbours, leaving empty cells and peaks alone', () => {
    const mesh = chain([1, 0.2, 3, 0.5, 2, 1, 0.7])
    const before = Float64Array.from([0, 0.2, 0.6, 1, 0.5, 0.1, 0])
    const after = Float64Array.from([0, 0.25, 0.5, 1, 0.45, 0.08, 0])
    const copy = after.slice()
    new MeshScalarBudget().restore(after, before, 0, mesh)
    expect(total(after, mesh.cellVolume)).toBeCloseTo(total(before, mesh.cellVolume), 12)
    expect(after[0]).toBe(0)
    expect(after[6]).toBe(0)
    expect(after[3]).toBe(1)
    for (let c = 1; c < 6; c++) {
      expect(after[c]).toBeGreaterThanOrEqual(Math.min(copy[c - 1], copy[c], copy[c + 1]))
      expect(after[c]).toBeLessThanOrEqual(Math.max(copy[c - 1], copy[c], copy[c + 1]))
    }
  })
})

describe('MeshScalarBudget on the kernels', () => {
  const backends = everyBackendOfFile()
  it('gives the TypeScript restore\'s bits on a hybrid mesh (the weights a row per cell), raising and lowering', () => {
    const mesh = buildHybridMesh({ grid: { nx: 10, ny: 10, nz: 10, dx: 0.1, origin: [0, 0, 0] }, obstacle: (x, y, z) => Math.hypot(x - 0.5, y - 0.45, z - 0.5) - 0.22, mode: 'hybrid', bandCells: 1, sides: CLOSED_BOX })
    const rng = new Prng(5)
    const before = new Float64Array(mesh.cellCount).map((_, c) => (mesh.cellCentre[3 * c + 1] < 0.5 ? rng.next() : 0))
    for (const factor of [0.9, 1.1]) {
      const after = before.map((x) => x * factor * (0.95 + 0.1 * rng.next()))
      const ref = after.slice()
      const refE = new MeshScalarBudget().restore(ref, before, 0.2, mesh)
      expect(Math.abs(refE)).toBeGreaterThan(1e-3)
      for (const [name, k] of backends) {
        const q = k.f64(mesh.cellCount)
        q.set(after)
        const e = new MeshScalarBudget(k).restore(q, before, 0.2, mesh)
        expect(Object.is(e, refE), name).toBe(true)
        expect(sameBits(q, ref), `${name}, factor ${factor}`).toBe(true)
        if (k.kind === 'wasm') expect((k as WasmKernelBackend).fallbacks, name).toBe(0)
      }
    }
  })
})

describe('amountLeaving: what a flow carries out through open sides', () => {
  it.each([0.3, 1.5, 2.25])('a uniform flow of %f cells a step out through +x takes that many cells of each row, and nothing through the upwind side', (shift) => {
    const vel = new MacGrid({ nx, ny, nz, dx: 0.1, origin: [0, 0, 0] })
    vel.u.fill(2)
    const c = shift / 2
    const smoke = new Float32Array(n).fill(0.5)
    const heat = new Float32Array(n).fill(300)
    const out = new Float64Array(2)
    const open = Uint8Array.from([1, 1, 0, 0, 0, 0])
    amountLeaving([smoke, heat], [0, 290], vel, c, open, null, out)
    expect(out[0]).toBeCloseTo(0.5 * shift * ny * nz, 9)
    expect(out[1]).toBeCloseTo(10 * shift * ny * nz, 7)
    // Closed sides: nothing leaves, however far the flow goes.
    amountLeaving([smoke, heat], [0, 290], vel, c, new Uint8Array(6), null, out)
    expect(out[0]).toBe(0)
  })
})
