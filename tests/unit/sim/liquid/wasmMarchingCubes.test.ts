// The surface mesher's marching cubes on the kernel layer (surface/kernelMarchingCubes.ts, rows
// marchingCubesKernels.ts, twins wasm/assembly/marchingCubes.ts) against the plain serial sweep
// (geometry/marchingCubes.ts): the same vertices and triangles, bit for bit and in the same
// order, over the whole grid at once and a window of planes at a time as the mesher feeds it,
// on the TypeScript reference and on WebAssembly with 1, 2 and 3 threads; and the liquid
// surface built on either backend is the same mesh.
import { afterAll, describe, expect, it } from 'vitest'
import { MarchingCubes, MeshBuffers, type NodeGrid } from '../../../../src-shared/geometry/marchingCubes'
import { type KernelBackend, TS_KERNELS } from '../../../../src-shared/sim/core/kernelBackend'
import { KernelMarchingCubes } from '../../../../src-shared/sim/liquid/surface/kernelMarchingCubes'
import { LiquidSurfacer } from '../../../../src-shared/sim/liquid/surface/liquidSurface'
import { createKernelBackend } from '../../../../src-main/sim/workerPool'

function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 4294967296
  }
}

const GRID: NodeGrid = { origin: [0.3, -0.2, 0.1], h: 0.05, nx: 23, ny: 19, nz: 21 }

/** Blobs, a thin sheet and noise: one-sided rows, ambiguous faces, exact zeros and a NaN. */
function field(seed: number): Float32Array {
  const { nx, ny, nz } = GRID
  const r = rng(seed)
  const blobs = Array.from({ length: 6 }, () => [r() * nx, r() * ny, r() * nz, 2 + 4 * r()])
  const phi = new Float32Array(nx * ny * nz)
  for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) {
    let d = Math.abs(j - 0.3 * ny) - 0.6 // a sheet
    for (const [x, y, z, rad] of blobs) d = Math.min(d, Math.hypot(i - x, j - y, k - z) - rad)
    phi[i + nx * (j + ny * k)] = d + 0.4 * (r() - 0.5)
  }
  for (let n = 0; n < phi.length; n += 37) phi[n] = 0
  phi[5 + nx * (4 + ny * 6)] = Number.NaN
  return phi
}

function reference(phi: Float32Array): { positions: Float32Array; indices: Uint32Array } {
  const out = new MeshBuffers()
  new MarchingCubes().run(phi, GRID, out)
  return { positions: out.positions.slice(0, 3 * out.vertexCount), indices: out.indices.slice(0, 3 * out.triangleCount) }
}

/** The kernel sweep on backend b, windows of `window` planes as LiquidSurfacer sends them. */
function onKernels(b: KernelBackend, phi: Float32Array, window: number): { positions: Float32Array; indices: Uint32Array } {
  const { nx, ny, nz } = GRID
  const plane = nx * ny
  const cubes = new KernelMarchingCubes(b)
  const out = new MeshBuffers()
  const win = b.f32(Math.min(nz, window + 1) * plane)
  cubes.begin(GRID, out)
  for (let k0 = 0; ; k0 += window) {
    const k1 = Math.min(nz, k0 + window + 1)
    win.set(phi.subarray(k0 * plane, k1 * plane))
    cubes.addPlanes(win, k0, k1)
    if (k1 === nz) break
  }
  return { positions: out.positions.slice(0, 3 * out.vertexCount), indices: out.indices.slice(0, 3 * out.triangleCount) }
}

function sameBits(a: Float32Array | Uint32Array, b: Float32Array | Uint32Array): boolean {
  if (a.length !== b.length) return false
  const x = new Uint32Array(a.buffer, a.byteOffset, a.length), y = new Uint32Array(b.buffer, b.byteOffset, b.length)
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false
  return true
}

const backends: KernelBackend[] = []
afterAll(async () => {
  for (const b of backends) await (b as { dispose?: () => Promise<void> }).dispose?.()
})

describe('marching cubes on the kernels', () => {
  const phi = field(7)
  const ref = reference(phi)

  it('the reference rows give the serial sweep, whole and by windows of 1, 4 and 8 planes', () => {
    // A mesh with many pieces and ambiguous cases.
    expect(ref.indices.length / 3).toBeGreaterThan(1500)
    for (const window of [GRID.nz, 8, 4, 1]) {
      const got = onKernels(TS_KERNELS, phi, window)
      expect(sameBits(got.positions, ref.positions), `positions, windows of ${window}`).toBe(true)
      expect(sameBits(got.indices, ref.indices), `indices, windows of ${window}`).toBe(true)
    }
  })

  it('WebAssembly gives it bit for bit on 1, 2 and 3 threads, whole and by windows', () => {
    for (const threads of [1, 2, 3]) {
      const b = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 20 })
      backends.push(b)
      for (const window of [GRID.nz, 5]) {
        const got = onKernels(b, phi, window)
        expect(sameBits(got.positions, ref.positions), `${threads} threads, windows of ${window}: positions`).toBe(true)
        expect(sameBits(got.indices, ref.indices), `${threads} threads, windows of ${window}: indices`).toBe(true)
      }
      // A second sweep with the same object (arrays kept, a bigger mesh).
      const cubes = new KernelMarchingCubes(b)
      const out = new MeshBuffers()
      for (const seed of [3, 11]) {
        const p = field(seed), want = reference(p)
        const win = b.f32(p.length)
        win.set(p)
        cubes.begin(GRID, out)
        cubes.addPlanes(win, 0, GRID.nz)
        expect(sameBits(out.indices.slice(0, 3 * out.triangleCount), want.indices), `seed ${seed}`).toBe(true)
        expect(sameBits(out.positions.slice(0, 3 * out.vertexCount), want.positions), `seed ${seed}`).toBe(true)
      }
    }
  })

  it("the liquid surface's mesh is the same on WebAssembly as on the TypeScript kernels", () => {
    const r = rng(5)
    const n = 6000, dx = 0.1
    const positions = new Float32Array(3 * n)
    for (let q = 0; q < n; q++) {
      // A pool with a wave and some drops, over a 20 x 14 x 80 cell grid (several windows).
      const x = r() * 2, z = r() * 8, drop = q % 10 === 0
      positions.set([x, drop ? 0.6 + r() * 0.6 : r() * (0.3 + 0.1 * Math.sin(3 * z)), z], 3 * q)
    }
    const input = { positions, count: n, particleRadius: 0.25 * dx, grid: { origin: [0, 0, 0] as [number, number, number], dx, nx: 20, ny: 14, nz: 80 }, smoothing: 1 }
    const want = new LiquidSurfacer().surface(input)
    expect(want.indices.length / 3).toBeGreaterThan(2000)
    const b = createKernelBackend('wasm', { threads: 2, minParallelWork: 0, strict: true, initialBytes: 1 << 20 })
    backends.push(b)
    const got = new LiquidSurfacer(b).surface(input)
    expect(sameBits(got.positions, want.positions)).toBe(true)
    expect(sameBits(got.indices, want.indices)).toBe(true)
    expect(sameBits(got.normals, want.normals)).toBe(true)
  })
})
