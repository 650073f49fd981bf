// The surface mesher sweeps the node grid a window of z-planes at a time (particleLevelSet.ts
// computePlanes, marchingCubes.ts addPlanes) so that it holds a few planes instead of four
// node grids. Windows must give exactly what one sweep over the whole grid gives: the same phi
// bits on every plane (smoothing halos, particles near a window's edge, wall mirrors) and the
// same mesh, on the TypeScript kernels and on 1-3 WebAssembly threads.
import { afterAll, describe, expect, it } from 'vitest'
import { TS_KERNELS } from '../../../../../src-shared/sim/core/kernelBackend'
import type { KernelBackend } from '../../../../../src-shared/sim/core/kernelTypes'
import { LiquidSurfacer, WINDOW_PLANES } from '../../../../../src-shared/sim/liquid/surface/liquidSurface'
import { MarchingCubes, MeshBuffers } from '../../../../../src-shared/geometry/marchingCubes'
import { type LevelSetParams, ParticleLevelSet } from '../../../../../src-shared/sim/liquid/surface/particleLevelSet'
import { createKernelBackend } from '../../../../../src-main/sim/workerPool'
import { rng } from './meshChecks'

const backends: KernelBackend[] = []
afterAll(async () => {
  for (const b of backends) await b.dispose()
})

/** A blob of jittered particles touching the z = 0 and z = top walls (or only the bottom third: windows above it hold none), with a few strays. */
function params(smoothing: number, bottomOnly = false): LevelSetParams {
  const r = rng(7)
  const dx = 0.1, cells: [number, number, number] = [7, 6, 12]
  const pts: number[] = []
  for (let q = 0; q < 1500; q++) {
    const z = r() * cells[2] * dx * (bottomOnly ? 0.3 : 1)
    const rad = 0.22 + 0.08 * Math.sin(9 * z)
    const a = 2 * Math.PI * r(), s = rad * Math.sqrt(r())
    pts.push(0.35 + s * Math.cos(a), 0.3 + s * Math.sin(a), z)
  }
  for (let q = 0; q < 20; q++) pts.push(r() * 0.7, r() * 0.6, r() * (bottomOnly ? 0.36 : 1.2))
  return { positions: Float32Array.from(pts), count: pts.length / 3, particleRadius: 0.025, kernelScale: 3, origin: [0.1, -0.2, 0.3], dx, cells, refinement: 3, smoothing }
}

function sameBits(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false
  return true
}

describe('the level set and mesh a window of node planes at a time', () => {
  for (const [smoothing, bottomOnly] of [[0, false], [1, false], [3, false], [1, true]] as const) {
    it(`phi on windows of 1, 4 and 9 planes equals the whole grid's, smoothing ${smoothing}${bottomOnly ? ', particles in the bottom third' : ''}`, () => {
      const p = params(smoothing, bottomOnly)
      const whole = new ParticleLevelSet()
      whole.compute(p)
      const { nx, ny, nz } = whole.grid
      const plane = nx * ny
      const full = Float32Array.from(whole.phi.subarray(0, nx * ny * nz))
      expect(full.some((v) => v < 0) && full.some((v) => v > 0)).toBe(true)
      // The smoothing moved inside nodes, so a wrong halo would show.
      if (smoothing > 0) {
        const raw = new ParticleLevelSet()
        raw.compute({ ...p, smoothing: 0 })
        expect(sameBits(raw.phi.subarray(0, full.length), full)).toBe(false)
      }
      const kernels: KernelBackend[] = [TS_KERNELS]
      for (const threads of [1, 2, 3]) {
        const b = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 20 })
        backends.push(b)
        kernels.push(b)
      }
      for (const b of kernels) {
        const ls = new ParticleLevelSet(b)
        ls.prepare(p, 9)
        for (const size of [1, 4, 9]) {
          const got = new Float32Array(full.length).fill(NaN)
          for (let k0 = 0; k0 < nz; k0 += size) {
            const k1 = Math.min(nz, k0 + size)
            ls.computePlanes(k0, k1)
            expect(ls.base).toBeLessThanOrEqual(k0)
            expect(ls.base + ls.planes).toBeGreaterThanOrEqual(k1)
            got.set(ls.phi.subarray((k0 - ls.base) * plane, (k1 - ls.base) * plane), k0 * plane)
          }
          expect(sameBits(got, full), `${b.kind} ${b.threads} threads, windows of ${size}`).toBe(true)
        }
      }
    })
  }

  it('marching cubes fed a window at a time gives the one-sweep mesh, vertex for vertex', () => {
    const p = params(1)
    const ls = new ParticleLevelSet()
    ls.compute(p)
    const whole = new MeshBuffers()
    new MarchingCubes().run(ls.phi, ls.grid, whole)
    expect(whole.triangleCount).toBeGreaterThan(500)
    const nz = ls.grid.nz
    for (const size of [1, 5, 32]) {
      const cubes = new MarchingCubes(), out = new MeshBuffers()
      const windowed = new ParticleLevelSet()
      windowed.prepare(p, size + 1)
      cubes.begin(windowed.grid, out)
      for (let k0 = 0; k0 < nz; k0 += size) {
        const k1 = Math.min(nz, k0 + size)
        windowed.computePlanes(Math.max(0, k0 - 1), k1)
        cubes.addPlanes(windowed.phi, windowed.base, k1)
      }
      expect(out.vertexCount, `windows of ${size}`).toBe(whole.vertexCount)
      expect(sameBits(out.positions.subarray(0, 3 * out.vertexCount), whole.positions.subarray(0, 3 * whole.vertexCount))).toBe(true)
      expect(sameBits(out.indices.subarray(0, 3 * out.triangleCount), whole.indices.subarray(0, 3 * whole.triangleCount))).toBe(true)
    }
  })

  it('in a borrowed block another pass left NaN in, or in its own arrays when the block is too small: the same mesh', () => {
    const p = params(2)
    const input = { positions: p.positions, count: p.count, particleRadius: p.particleRadius, kernelScale: p.kernelScale, grid: { origin: p.origin, dx: p.dx, nx: p.cells[0], ny: p.cells[1], nz: p.cells[2] }, refinement: p.refinement, smoothing: p.smoothing }
    const want = new LiquidSurfacer().surface(input)
    expect(want.indices.length).toBeGreaterThan(1500)
    const ls = new ParticleLevelSet()
    ls.prepare(p, WINDOW_PLANES + 1)
    const plane = ls.grid.nx * ls.grid.ny
    // Room for the sorted positions and four windows (float32), in float64 values.
    const fits = Math.ceil((3 * p.count + 4 * Math.min(ls.grid.nz, WINDOW_PLANES + 1 + 2 * p.smoothing) * plane) / 2)
    for (const size of [fits, fits - 1]) {
      const block = new Float64Array(size)
      const s = new LiquidSurfacer(undefined, block)
      for (let frame = 0; frame < 2; frame++) {
        block.fill(Number.NaN)
        const got = s.surface(input)
        expect(sameBits(got.positions, want.positions), `block of ${size}`).toBe(true)
        expect(sameBits(got.indices, want.indices)).toBe(true)
      }
      // The block was used exactly when it fits.
      expect(block.some((v) => !Number.isNaN(v))).toBe(size === fits)
    }
  })
})
