// The liquid's extension into the air layer by layer over z-planes (extendPlanes.ts
// EXTEND_LAYER, driven by extendInLayers) against the sequential extrapolateLayers, lattice by
// lattice: the same values and marks bit for bit on TypeScript and on 1-3 WebAssembly threads
// (every layer split, however small), for marks 0/1 on entry (the per-plane lists) and for
// marks already above 1 (the full scans), on lattices whose known samples reach the walls, with
// the lists and counts left dirty by another pass; samples beyond the layers keep their values.
// Rows of 37 samples meet the WebAssembly twin's sixteen-sample scan whole, overlapping and
// scalar; rows of 13 its scalar path.
import { afterAll, describe, expect, it } from 'vitest'
import type { KernelBackend } from '../../../../src-shared/sim/core/kernelBackend'
import { Prng } from '../../../../src-shared/sim/core/prng'
import { extendInLayers, extensionCountInts, extensionListInts } from '../../../../src-shared/sim/liquid/extendPlanes'
import { extrapolateLayers } from '../../../../src-shared/sim/core/extrapolate'
import type { WasmKernelBackend } from '../../../../src-shared/sim/wasm/wasmBackend'
import { everyBackend } from '../everyBackend'

const ny = 9, nz = 11
let nx = 37

const owned: KernelBackend[] = []
afterAll(async () => {
  for (const b of owned) await b.dispose()
})
const backends = everyBackend(owned)

/**
 * Lattices (dims) in b's memory: known samples (mark 1, random values) in a ball that reaches
 * the walls and sprinkled at random elsewhere; some marks 2 when `above1`.
 */
function lattices(b: KernelBackend, dims: number[][], seed: number, above1: boolean) {
  const prng = new Prng(seed)
  const f: Float32Array[] = [], m: Uint8Array[] = []
  for (const [sx, sy, sz] of dims) {
    const n = sx * sy * sz
    const fa = b.f32(n), ma = b.u8(n)
    for (let c = 0; c < n; c++) {
      const i = c % sx, j = Math.floor(c / sx) % sy, k = Math.floor(c / (sx * sy))
      const isKnown = (i - 3) ** 2 + (j - 3) ** 2 + (k - 4) ** 2 < 12 || prng.next() < 0.01
      ma[c] = isKnown ? (above1 && prng.next() < 0.3 ? 2 : 1) : 0
      fa[c] = isKnown ? prng.range(-3, 3) : prng.range(-9, 9)
    }
    f.push(fa)
    m.push(ma)
  }
  return { f, m }
}

const bits = (a: Float32Array) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length))

/** `lone`: instead of `above1`'s, a single mark 3 in the middle of a row, far from the others (only the twin's sixteen-sample scan sees it). */
function check(cells: number, above1: boolean, layers: number, lone = false) {
  const dims = cells ? [[nx, ny, nz]] : [[nx + 1, ny, nz], [nx, ny + 1, nz], [nx, ny, nz + 1]]
  const seed = 2 * cells + (above1 ? 1 : 0) + 3
  const made = (b: KernelBackend) => {
    const x = lattices(b, dims, seed, above1)
    if (lone) {
      const c = 20 + nx * (5 + ny * 8)
      x.m[0][c] = 3
      x.f[0][c] = 7
    }
    return x
  }
  const ref = made(backends[0][1])
  for (let a = 0; a < dims.length; a++) {
    extrapolateLayers(ref.f[a], ref.m[a], dims[a][0], dims[a][1], dims[a][2], layers)
  }
  // The extension reached every layer.
  expect(ref.m[0].filter((v) => v === layers + 1).length).toBeGreaterThan(40)
  for (const [name, b] of backends) {
    const got = made(b)
    const lists = b.i32(extensionListInts(nx, ny, nz, cells)).fill(-7)
    const counts = b.i32(extensionCountInts(nz, cells)).fill(12345)
    const [fu, fv = fu, fw = fu] = got.f
    const [mu, mv = mu, mw = mu] = got.m
    extendInLayers(b, { fu, fv, fw, mu, mv, mw }, nx, ny, nz, cells, layers, lists, counts)
    if (name !== 'TypeScript') expect((b as WasmKernelBackend).fallbacks, name).toBe(0)
    for (let a = 0; a < dims.length; a++) {
      expect(bits(got.f[a]), `${name}, lattice ${a}`).toEqual(bits(ref.f[a]))
      expect(Array.from(got.m[a]), `${name}, lattice ${a} marks`).toEqual(Array.from(ref.m[a]))
    }
  }
}

describe('the extension layer by layer over planes (EXTEND_LAYER)', () => {
  for (const above1 of [false, true]) {
    const how = above1 ? 'marks above 1 on entry: full scans' : 'marks 0/1: per-plane lists'
    for (const width of [37, 13]) {
      it(`gives extrapolateLayers' values and marks on the three face lattices, bit for bit (${how}, rows of ${width})`, () => {
        nx = width
        check(0, above1, 4)
      })
      it(`gives extrapolateLayers' values and marks on a cell lattice, bit for bit (${how}, rows of ${width})`, () => {
        nx = width
        check(1, above1, 3)
      })
    }
  }

  it("gives extrapolateLayers' values and marks with one entry mark above 1 in the middle of a row (full scans)", () => {
    nx = 37
    check(1, false, 3, true)
  })

  it('stops where extrapolateLayers stops: a lone known sample extends exactly its layers, nothing beyond', () => {
    nx = 37
    for (const [name, b] of backends) {
      const n = nx * ny * nz
      const f = b.f32(n).fill(5), m = b.u8(n)
      const c0 = 6 + nx * (4 + ny * 5)
      m[c0] = 1
      f[c0] = 2
      extendInLayers(b, { fu: f, fv: f, fw: f, mu: m, mv: m, mw: m }, nx, ny, nz, 1, 3, b.i32(extensionListInts(nx, ny, nz, 1)), b.i32(extensionCountInts(nz, 1)))
      // Samples within 3 steps (Manhattan) of the known one got its value; the rest kept theirs.
      for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) {
        const d = Math.abs(i - 6) + Math.abs(j - 4) + Math.abs(k - 5), c = i + nx * (j + ny * k)
        expect([m[c], f[c]], `${name} (${i}, ${j}, ${k})`).toEqual(d === 0 ? [1, 2] : d <= 3 ? [d + 1, 2] : [0, 5])
      }
    }
  })
})
