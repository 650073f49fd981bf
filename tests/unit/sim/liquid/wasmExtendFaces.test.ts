// The liquid's velocity extension (extrapolate.ts EXTEND_FACES) on the WebAssembly kernels
// against the TypeScript extrapolateLayers, component by component: the same values and marks
// bit for bit, on 1-3 threads (components side by side, or all inline), for marks 0/1 on entry
// (the worklist path) and for marks already above 1 (the full-scan path), on lattices whose
// known samples reach the walls; the row first sets every unmarked sample to 0 (stale values
// beyond the extension's layers), on TypeScript and WebAssembly alike.
import { afterAll, describe, expect, it } from 'vitest'
import { type KernelBackend, TS_KERNELS } from '../../../../src-shared/sim/core/kernelBackend'
import { Prng } from '../../../../src-shared/sim/core/prng'
import { EXTEND_FACES, EXTEND_LAYERS, extrapolateLayers, faceListStride } from '../../../../src-shared/sim/liquid/extrapolate'
import type { WasmKernelBackend } from '../../../../src-shared/sim/wasm/wasmBackend'
import { createKernelBackend } from '../../../../src-main/sim/workerPool'

const nx = 13, ny = 9, nz = 11
const sizes = [(nx + 1) * ny * nz, nx * (ny + 1) * nz, nx * ny * (nz + 1)]

/** Three face lattices in b's memory: a blob of known samples (mark 1) with random values; some marks 2 when `above1`. */
function fields(b: KernelBackend, above1: boolean) {
  const prng = new Prng(above1 ? 3 : 8)
  const f = sizes.map((n) => b.f32(n)), m = sizes.map((n) => b.u8(n))
  for (let a = 0; a < 3; a++) {
    for (let c = 0; c < sizes[a]; c++) {
      const known = prng.next() < 0.18
      m[a][c] = known ? (above1 && prng.next() < 0.3 ? 2 : 1) : 0
      // Unknown samples hold stale values, which the row sets to 0 before extending.
      f[a][c] = known ? prng.range(-3, 3) : prng.range(-9, 9)
    }
  }
  return { f, m }
}

const bits = (a: Float32Array) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length))

const backends: KernelBackend[] = []
afterAll(async () => {
  for (const b of backends) await b.dispose()
})

describe('velocity extension on the WebAssembly kernels', () => {
  for (const above1 of [false, true]) {
    it(`gives extrapolateLayers' values and marks bit for bit (${above1 ? 'marks above 1 on entry: full scans' : 'marks 0/1: worklists'})`, () => {
      const ref = fields(TS_KERNELS, above1)
      const dims = [[nx + 1, ny, nz], [nx, ny + 1, nz], [nx, ny, nz + 1]]
      for (let a = 0; a < 3; a++) {
        for (let c = 0; c < sizes[a]; c++) if (ref.m[a][c] === 0) ref.f[a][c] = 0
        extrapolateLayers(ref.f[a], ref.m[a], dims[a][0], dims[a][1], dims[a][2], 4)
      }
      // The extension did something: samples beyond the known ones got values.
      expect(ref.m[0].filter((v) => v > 2).length).toBeGreaterThan(50)
      // The TypeScript row does the same as the plain steps above.
      const ts = fields(TS_KERNELS, above1)
      TS_KERNELS.run(EXTEND_FACES, ts.f[0], ts.f[1], ts.f[2], ts.m[0], ts.m[1], ts.m[2], nx, ny, nz, 4, new Int32Array(1), 0)
      for (let a = 0; a < 3; a++) expect(bits(ts.f[a]), `TypeScript row, component ${a}`).toEqual(bits(ref.f[a]))
      for (const [threads, minParallelWork] of [[1, 0], [2, 0], [3, 0], [3, 1e9]]) {
        const b = createKernelBackend('wasm', { threads, minParallelWork, strict: true, initialBytes: 1 << 20 })
        backends.push(b)
        const got = fields(b, above1)
        // Worklists the caller lends (the liquid: its pass scratch), left dirty by another pass.
        const stride = faceListStride(nx, ny, nz)
        const lists = b.i32((stride / 4) * threads).fill(-7)
        b.run(EXTEND_FACES, got.f[0], got.f[1], got.f[2], got.m[0], got.m[1], got.m[2], nx, ny, nz, 4, lists, stride)
        expect((b as WasmKernelBackend).fallbacks).toBe(0)
        for (let a = 0; a < 3; a++) {
          expect(bits(got.f[a]), `${threads} threads, component ${a}`).toEqual(bits(ref.f[a]))
          expect(Array.from(got.m[a])).toEqual(Array.from(ref.m[a]))
        }
      }
    })
  }
})

describe("a cell field's extension on the WebAssembly kernels (EXTEND_LAYERS: the liquid's temperature)", () => {
  /** The cell lattice nx x ny x nz from fields()' generator, stale values kept (the row does not zero them). */
  function cells(b: KernelBackend, above1: boolean) {
    const prng = new Prng(above1 ? 5 : 6)
    const n = nx * ny * nz
    const f = b.f32(n), m = b.u8(n)
    for (let c = 0; c < n; c++) {
      const known = prng.next() < 0.15
      m[c] = known ? (above1 && prng.next() < 0.3 ? 2 : 1) : 0
      f[c] = known ? prng.range(250, 350) : prng.range(-9, 9)
    }
    return { f, m }
  }

  for (const above1 of [false, true]) {
    it(`gives extrapolateLayers' values and marks bit for bit on 1-3 threads (${above1 ? 'marks above 1 on entry' : 'marks 0/1'})`, () => {
      const ref = cells(TS_KERNELS, above1)
      extrapolateLayers(ref.f, ref.m, nx, ny, nz, 3)
      expect(ref.m.filter((v) => v > 2).length).toBeGreaterThan(50)
      const ts = cells(TS_KERNELS, above1)
      TS_KERNELS.run(EXTEND_LAYERS, ts.f, ts.m, nx, ny, nz, 3, new Int32Array(1), 0)
      expect(bits(ts.f)).toEqual(bits(ref.f))
      for (const threads of [1, 2, 3]) {
        const b = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 20 })
        backends.push(b)
        const got = cells(b, above1)
        // The face extension's worklists, dirty, as the liquid lends them.
        const stride = faceListStride(nx, ny, nz)
        const lists = b.i32((stride / 4) * threads).fill(-7)
        b.run(EXTEND_LAYERS, got.f, got.m, nx, ny, nz, 3, lists, stride)
        expect((b as WasmKernelBackend).fallbacks).toBe(0)
        expect(bits(got.f), `${threads} threads`).toEqual(bits(ref.f))
        expect(Array.from(got.m)).toEqual(Array.from(ref.m))
      }
    })
  }
})
