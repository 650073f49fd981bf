// The coupling's samples of a mesh body (meshBodyKernels.ts RASTERISE_MESH) on the WebAssembly
// kernels against the plain loop through the body's own phi (sampleBodyCells with
// RigidBody.phi, what rasterise does for any other body): the same bits on 1-3 threads, split
// or inline, for a turned concave mesh whose box reaches past twice its bounding radius (the
// quick exit) and past its distance grid (the extension outside it).
import { afterAll, describe, expect, it } from 'vitest'
import { type KernelBackend, TS_KERNELS } from '../../../../src-shared/sim/core/kernelBackend'
import { HALVES, POSE, RASTERISE_MESH, sampleBodyCells } from '../../../../src-shared/sim/liquid/meshBodyKernels'
import { RigidBody } from '../../../../src-shared/sim/rigid/rigidBody'
import type { WasmKernelBackend } from '../../../../src-shared/sim/wasm/wasmBackend'
import { createKernelBackend } from '../../../../src-main/sim/workerPool'
import { uPrism } from '../../rigid/meshes'

const dx = 0.05
const origin = [-1, -0.8, -0.9]
// 0.3 m across the body's centre; cells out to 2.4 bounding radii.
const box = { i0: 3, j0: 2, k0: 4, lx: 30, ly: 28, lz: 26 }

function body(): RigidBody {
  const q = [0.3, -0.5, 0.2, 0.8], l = Math.hypot(...q)
  return new RigidBody({ id: 'u', name: 'U', shape: 'mesh', mesh: uPrism(0.15), density: 700, position: [-0.2, -0.05, -0.15], orientation: q.map((x) => x / l), restitution: 0.3, friction: 0.5 }, 0)
}

function outputs(b: KernelBackend) {
  const cells = box.lx * box.ly * box.lz
  return { cp: b.f32(cells), halves: b.u8(cells * HALVES), count: b.u8(cells) }
}

function runRow(b: KernelBackend, rb: RigidBody) {
  const o = outputs(b)
  const g = rb.meshGrid!
  const data = b.f32(g.data.length)
  data.set(g.data)
  const pose = new Float64Array(POSE.length)
  pose[POSE.gdx] = g.dx; pose[POSE.gox] = g.ox; pose[POSE.goy] = g.oy; pose[POSE.goz] = g.oz
  pose.set(rb.rotation(), POSE.r)
  pose[POSE.bx] = rb.x[0]; pose[POSE.by] = rb.x[1]; pose[POSE.bz] = rb.x[2]; pose[POSE.rb] = rb.boundingRadius
  pose[POSE.o0] = origin[0]; pose[POSE.o1] = origin[1]; pose[POSE.o2] = origin[2]; pose[POSE.dx] = dx
  b.run(RASTERISE_MESH, o.cp, o.halves, o.count, data, pose, g.nx, g.ny, g.nz, box.i0, box.j0, box.k0, box.lx, box.ly, box.lz)
  return o
}

const bits = (a: Float32Array) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length))
const backends: KernelBackend[] = []
afterAll(async () => {
  for (const b of backends) await b.dispose()
})

describe('a mesh body sampled for the coupling on the WebAssembly kernels', () => {
  it("gives the body's own phi's bits (cell-centre distances, inside counts whole and by halves) on 1-3 threads, split or inline", () => {
    const rb = body()
    const ref = outputs(TS_KERNELS)
    sampleBodyCells((x, y, z) => rb.phi(x, y, z), ref.cp, ref.halves, ref.count, box, origin[0], origin[1], origin[2], dx, 0, box.lz)
    // The box holds the body's inside, cut cells and cells beyond the quick exit.
    const counts = Array.from(ref.count)
    expect(counts.filter((c) => c === 64).length).toBeGreaterThan(10)
    expect(counts.filter((c) => c > 0 && c < 64).length).toBeGreaterThan(100)
    expect(Math.max(...ref.cp)).toBeGreaterThan(2 * rb.boundingRadius)
    // Each axis's two halves hold the whole count; cut cells split unevenly somewhere.
    let uneven = 0
    for (let c = 0; c < counts.length; c++) for (let a = 0; a < 3; a++) {
      const lo = ref.halves[HALVES * c + 2 * a], hi = ref.halves[HALVES * c + 2 * a + 1]
      expect(lo + hi).toBe(counts[c])
      if (lo !== hi) uneven++
    }
    expect(uneven).toBeGreaterThan(100)
    const row = runRow(TS_KERNELS, rb)
    expect(bits(row.cp)).toEqual(bits(ref.cp))
    expect(Array.from(row.halves)).toEqual(Array.from(ref.halves))
    for (const [threads, minParallelWork] of [[1, 0], [2, 0], [3, 0], [3, 1e9]]) {
      const b = createKernelBackend('wasm', { threads, minParallelWork, strict: true, initialBytes: 1 << 20 })
      backends.push(b)
      const got = runRow(b, rb)
      expect((b as WasmKernelBackend).fallbacks).toBe(0)
      expect(bits(got.cp), `${threads} threads`).toEqual(bits(ref.cp))
      expect(Array.from(got.halves), `${threads} threads`).toEqual(Array.from(ref.halves))
      expect(Array.from(got.count), `${threads} threads`).toEqual(counts)
    }
  })
})
