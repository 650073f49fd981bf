// The kernel table (src-shared/sim/core/kernelTable.ts): every row defined by core, the sparse
// kernels and the smoke folder has an export of its name in the compiled module taking
// exactly the values the row marshals (+ k0, k1 and possibly worker); the TypeScript
// forwarding runs the reference over the whole range, drops size-only arguments and sums
// partials in order; an extension row (defined outside core) runs on both backends.
import { afterAll, describe, expect, it } from 'vitest'
import { TS_KERNELS } from '../../../src-shared/sim/core/kernelBackend'
import '../../../src-shared/sim/core/kernelRows'
import { defineKernel, f64, int, kernelRow, kernelRows, runReference, size } from '../../../src-shared/sim/core/kernelTable'
import { DOT_BLOCKS, SPMV } from '../../../src-shared/sim/core/sparse/rows'
import '../../../src-shared/sim/core/sparse/product'
import { PARTICLE_FORCE } from '../../../src-shared/sim/smoke/vortexKernels'
import { createWasmBackend } from '../../../src-shared/sim/wasm/wasmBackend'

const wasm = createWasmBackend({ strict: true })
afterAll(() => wasm.dispose())

describe('kernel table', () => {
  it('lists core, sparse and extension rows, each with a matching WebAssembly export', () => {
    const rows = kernelRows()
    const names = rows.map((r) => r.name)
    for (const name of ['applyPoisson', 'restrict', 'advectCubic', 'spmv', 'gsRows', 'spgemmCount', 'spgemmFill', 'dotBlocks', 'particleForce', 'particleStrength']) expect(names).toContain(name)
    expect(kernelRow('spmv')).toBe(SPMV)
    expect(kernelRow('particleForce')).toBe(PARTICLE_FORCE)
    for (const row of rows) {
      const fn = wasm.kernels.exports[row.name] as unknown as { length: number }
      expect(typeof fn, row.name).toBe('function')
      // The export takes the marshalled values, k0, k1 and (kernels with per-thread scratch or
      // lent per-thread memory) worker.
      const worker = row.worker === true || row.args.some((a) => a.kind === 'scratch')
      expect(fn.length, row.name).toBe(row.wasmArgCount + (worker ? 3 : 2))
      expect(wasm.kernels.idOf(row.name)).toBeGreaterThan(0)
    }
  })

  it('forwards to the reference over the whole range, without size-only arguments', () => {
    const calls: unknown[][] = []
    const row = defineKernel({
      name: 'testOnlyScale',
      args: [f64('y'), int('factor'), size('n')],
      split: 'rows',
      range: (a) => a[2] as number,
      ref: (y: Float64Array, factor: number, k0: number, k1: number) => {
        calls.push([factor, k0, k1])
        for (let i = k0; i < k1; i++) y[i] *= factor
      },
    })
    const y = Float64Array.of(1, 2, 3, 4)
    expect(TS_KERNELS.run(row, y, 3, 3)).toBe(0)
    expect(Array.from(y)).toEqual([3, 6, 9, 4])
    expect(calls).toEqual([[3, 0, 3]])
    expect(row.wasmArgCount).toBe(2)
    expect(() => TS_KERNELS.run(row, y, 3)).toThrow(/takes 3 arguments/)
    // A row with no twin in the module is reported as such by the WebAssembly backend.
    expect(() => wasm.run(row, wasm.f64(4), 3, 3)).toThrow(/no export testOnlyScale/)
  })

  it('sums the partials of a reducing row in index order', () => {
    const a = Float64Array.of(1e16, 1, -1e16, 1, 5)
    const b = Float64Array.of(1, 1, 1, 1, 1)
    const partial = new Float64Array(3)
    // Blocks of 2 (each rounded on its own), then summed in block order.
    const got = runReference(DOT_BLOCKS, [a, b, 5, 2, partial])
    expect(Array.from(partial)).toEqual([1e16 + 1, -1e16 + 1, 5])
    expect(got).toBe(1e16 + 1 + (-1e16 + 1) + 5)
    const wa = wasm.f64(5)
    wa.set(a)
    const wb = wasm.f64(5)
    wb.set(b)
    expect(Object.is(wasm.run(DOT_BLOCKS, wa, wb, 5, 2, wasm.f64(3)), got)).toBe(true)
  })
})
