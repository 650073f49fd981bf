// The cells' labels from the markers (levelSet.ts classifyCells; classifyKernel.ts classifySlab
// and its twin wasm/assembly/classify.ts): against a plain count written here, and the twin
// against the reference bit for bit on 1, 2 and 3 threads, split by equal planes and by a
// skewed balance. Markers outside the grid, on cell faces and at NaN count nowhere or in the
// cell above, as Math.floor puts them.
import { afterAll, describe, expect, it } from 'vitest'
import type { GridSpec } from '../../../../src-shared/sim/core/grid'
import { type KernelBackend, TS_KERNELS } from '../../../../src-shared/sim/core/kernelBackend'
import { classifyCells } from '../../../../src-shared/sim/liquid/levelSet'
import { MarkerParticles } from '../../../../src-shared/sim/liquid/markers'
import { AIR, LIQUID, SOLID } from '../../../../src-shared/sim/liquid/viscosity'
import type { SlabPool } from '../../../../src-shared/sim/parallel/slabPool'
import type { WasmKernelBackend } from '../../../../src-shared/sim/wasm/wasmBackend'
import { createKernelBackend } from '../../../../src-main/sim/workerPool'

const SPEC: GridSpec = { nx: 11, ny: 7, nz: 9, dx: 0.1, origin: [-0.3, 0.2, 0.05] }

function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 4294967296
  }
}

function label(b: KernelBackend, seed: number, balance: Float64Array | null) {
  const { nx, ny, nz, dx, origin } = SPEC
  const n = nx * ny * nz
  const r = rng(seed)
  const p = new MarkerParticles(600, 16, false, b)
  for (let q = 0; q < 600; q++) {
    // Mostly the lower half, some beyond every side, some exactly on cell faces.
    let x = origin[0] + (r() * (nx + 2) - 1) * dx
    const y = origin[1] + (r() * 0.6 * ny - 0.5) * dx
    let z = origin[2] + (r() * (nz + 2) - 1) * dx
    if (q % 17 === 3) x = origin[0] + Math.round(r() * nx) * dx
    if (q % 19 === 5) z = origin[2] + Math.round(r() * nz) * dx
    p.add(q === 9 ? NaN : x, y, q === 10 ? NaN : z, 0, 0, 0, 290)
  }
  const solid = b.f32(n)
  for (let c = 0; c < n; c++) solid[c] = c % 13 === 0 ? 0.5 : c % 7 === 0 ? 0.49 : 0
  const count = b.i32(n).fill(-5), kind = b.u8(n).fill(9), liquid = b.i32(nz).fill(-1)
  const cells = classifyCells(p, SPEC, solid, count, kind, b, liquid, balance)
  return { p, solid, count: Int32Array.from(count), kind: Uint8Array.from(kind), cells }
}

const backends: KernelBackend[] = []
afterAll(async () => {
  for (const b of backends) await b.dispose()
})

describe('the cells\' labels from the markers', () => {
  it('the reference counts every marker in the cell Math.floor puts it in, and labels solid >= 0.5, liquid, air', () => {
    const { nx, ny, nz, dx, origin } = SPEC
    const got = label(TS_KERNELS, 3, null)
    const want = new Int32Array(nx * ny * nz)
    let inside = 0
    for (let q = 0; q < got.p.count; q++) {
      const ijk = [got.p.px[q], got.p.py[q], got.p.pz[q]].map((v, a) => Math.floor((v - origin[a]) * (1 / dx)))
      if (!ijk.every((v, a) => v >= 0 && v < [nx, ny, nz][a])) continue
      want[ijk[0] + nx * (ijk[1] + ny * ijk[2])]++
      inside++
    }
    expect(Array.from(got.count)).toEqual(Array.from(want))
    // Some markers outside the grid, most inside.
    expect(inside).toBeGreaterThan(300)
    expect(inside).toBeLessThan(got.p.count - 20)
    let liquid = 0
    for (let c = 0; c < want.length; c++) {
      const k = got.solid[c] >= 0.5 ? SOLID : want[c] > 0 ? LIQUID : AIR
      expect(got.kind[c]).toBe(k)
      if (k === LIQUID) liquid++
    }
    expect(got.cells).toBe(liquid)
    expect(liquid).toBeGreaterThan(50)
  })

  it('WebAssembly gives the same counts and labels on 1, 2 and 3 threads, with and without a balance', () => {
    const ref = label(TS_KERNELS, 7, null)
    const skewed = new Float64Array(SPEC.nz + 2)
    for (let k = 0; k <= SPEC.nz; k++) skewed[k + 1] = skewed[k] + (k < 2 ? 50 : 1)
    for (const threads of [1, 2, 3]) {
      const b = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 20 })
      backends.push(b)
      for (const balance of [null, skewed]) {
        const got = label(b, 7, balance)
        expect(Array.from(got.count), `${threads} threads`).toEqual(Array.from(ref.count))
        expect(Array.from(got.kind), `${threads} threads`).toEqual(Array.from(ref.kind))
        expect(got.cells).toBe(ref.cells)
      }
      if (threads > 1) expect(((b as WasmKernelBackend).runner as SlabPool).parallelJobs).toBeGreaterThanOrEqual(2)
    }
  })
})
