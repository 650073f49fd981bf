// The liquid mesh's vertex normals on the kernels (liquid/surface/normals.ts: the faces' sums as
// one serial row, the normalisation split over the threads; twin wasm/assembly/surfaceNormals.ts)
// against geometry/triMesh.ts areaWeightedNormals, bit for bit, on 1-3 threads: a mesh with
// shared vertices, degenerate faces (a repeated vertex, collinear corners), unused vertices and
// coordinates so large the sums overflow (zero normals there, never NaN).
import { afterAll, describe, expect, it } from 'vitest'
import { areaWeightedNormals } from '../../../../src-shared/geometry/triMesh'
import { NORMALS_ACCUMULATE, NORMALS_NORMALIZE } from '../../../../src-shared/sim/liquid/surface/normals'
import type { SlabPool } from '../../../../src-shared/sim/parallel/slabPool'
import type { WasmKernelBackend } from '../../../../src-shared/sim/wasm/wasmBackend'
import { createKernelBackend } from '../../../../src-main/sim/workerPool'

const backends: WasmKernelBackend[] = []
afterAll(async () => {
  for (const b of backends) await b.dispose()
})

function mesh(): { positions: Float32Array; indices: Uint32Array; nv: number; nt: number } {
  const nv = 3000, nt = 5000
  let s = 12345
  const r = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296)
  const positions = Float32Array.from({ length: 3 * nv }, () => r() * 2 - 1)
  for (let v = 2990; v < 2995; v++) positions[3 * v] = 3e38 // overflowing cross products
  const indices = new Uint32Array(3 * nt)
  for (let t = 0; t < nt; t++) {
    // Vertices 2995.. are never used; some faces repeat a vertex.
    indices[3 * t] = Math.floor(r() * 2995)
    indices[3 * t + 1] = t % 17 === 0 ? indices[3 * t] : Math.floor(r() * 2995)
    indices[3 * t + 2] = Math.floor(r() * 2995)
  }
  return { positions, indices, nv, nt }
}

describe('liquid mesh normals on the kernels', () => {
  it('give the bits of areaWeightedNormals on 1-3 threads', () => {
    const m = mesh()
    const want = new Float32Array(3 * m.nv)
    areaWeightedNormals(m.positions, m.nv, m.indices, m.nt, want, new Float64Array(3 * m.nv))
    expect(want.every((x) => Number.isFinite(x))).toBe(true)
    expect(want.subarray(3 * 2995).every((x) => x === 0)).toBe(true)
    for (const threads of [1, 2, 3]) {
      const b = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 22 }) as WasmKernelBackend
      backends.push(b)
      const positions = b.f32(m.positions.length)
      positions.set(m.positions)
      const ints = b.i32(m.indices.length)
      const indices = new Uint32Array(ints.buffer, ints.byteOffset, ints.length)
      indices.set(m.indices)
      const acc = b.f64(3 * m.nv).fill(7), out = b.f32(3 * m.nv).fill(7)
      b.run(NORMALS_ACCUMULATE, positions, indices, m.nt, acc, m.nv)
      b.run(NORMALS_NORMALIZE, acc, out, m.nv)
      expect(new Uint32Array(out.buffer, out.byteOffset, out.length), `${threads} threads`).toEqual(new Uint32Array(want.buffer))
      if (threads > 1) expect((b.runner as SlabPool).parallelJobs).toBe(1)
    }
  })
})
