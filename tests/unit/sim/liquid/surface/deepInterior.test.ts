// The surface mesher fills in the deep interior instead of splatting the markers there
// (surfaceDeepKernels.ts): every node outside the deep cells must keep its phi to the bit (its
// markers are all still splatted, in the same order), the deep nodes read -r, and most of a
// pool's markers must be skipped, on the TypeScript kernels and on 1-2 WebAssembly threads.
// With the liquid family's depth and its default smoothing, the mesh of a pool loses only its
// interior bubbles: the surface that reaches the air is the same triangles.
import { afterAll, describe, expect, it } from 'vitest'
import { TS_KERNELS } from '../../../../../src-shared/sim/core/kernelBackend'
import type { KernelBackend } from '../../../../../src-shared/sim/core/kernelTypes'
import { LiquidSurfacer } from '../../../../../src-shared/sim/liquid/surface/liquidSurface'
import { type LevelSetParams, ParticleLevelSet } from '../../../../../src-shared/sim/liquid/surface/particleLevelSet'
import { DeepCellScratch, markDeepCells, reachCells } from '../../../../../src-shared/sim/liquid/surface/surfaceDeepKernels'
import { createKernelBackend } from '../../../../../src-main/sim/workerPool'
import { rng } from './meshChecks'

const backends: KernelBackend[] = []
afterAll(async () => {
  for (const b of backends) await b.dispose()
})

const DX = 0.1
const CELLS: [number, number, number] = [20, 14, 18]
const ORIGIN: [number, number, number] = [0.2, -0.1, 0.05]
/** The pool: cells [1, 19) x [0, 10) x [0, 18) hold 8 jittered markers each (their box touches the floor and two walls). */
const POOL = { lo: [1, 0, 0], hi: [19, 10, 18] }

function pool(): LevelSetParams {
  const r = rng(11)
  const pts: number[] = []
  for (let k = POOL.lo[2]; k < POOL.hi[2]; k++) for (let j = POOL.lo[1]; j < POOL.hi[1]; j++) for (let i = POOL.lo[0]; i < POOL.hi[0]; i++) {
    for (let q = 0; q < 8; q++) pts.push(ORIGIN[0] + (i + r()) * DX, ORIGIN[1] + (j + r()) * DX, ORIGIN[2] + (k + r()) * DX)
  }
  return { positions: Float32Array.from(pts), count: pts.length / 3, particleRadius: (0.5 * DX) / 2, kernelScale: 3, origin: ORIGIN, dx: DX, cells: CELLS, refinement: 2, smoothing: 0 }
}

/** The pool box's signed distance at the cell centres (negative inside), capped at 3 dx as the solver's is. */
function poolPhi(): Float32Array {
  const [nx, ny, nz] = CELLS
  const phi = new Float32Array(nx * ny * nz)
  for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) {
    const c = [i + 0.5, j + 0.5, k + 0.5]
    // Outside distance per axis (0 inside) and the inside depth (negative of the nearest face).
    let out2 = 0, depth = Infinity
    for (let a = 0; a < 3; a++) {
      const below = POOL.lo[a] - c[a], above = c[a] - POOL.hi[a]
      const d = Math.max(below, above, 0)
      out2 += d * d
      depth = Math.min(depth, -below, -above)
    }
    const s = out2 > 0 ? Math.sqrt(out2) : -depth
    phi[i + nx * (j + ny * k)] = Math.max(-3, Math.min(3, s)) * DX
  }
  return phi
}

function sameBits(a: number, b: number): boolean {
  return Object.is(a, b)
}

function allBackends(): KernelBackend[] {
  const out: KernelBackend[] = [TS_KERNELS]
  for (const threads of [1, 2]) {
    const b = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 20 })
    backends.push(b)
    out.push(b)
  }
  return out
}

describe('the surface mesher fills in the deep interior', () => {
  it('nodes outside the deep cells keep their phi to the bit, deep nodes read -r, and most markers are skipped', () => {
    const p = pool()
    const phi = poolPhi()
    const depth = 1.5 * DX
    const [cnx, cny, cnz] = CELLS
    const deep = new Uint8Array(cnx * cny * cnz), skip = new Uint8Array(deep.length)
    const deepCount = markDeepCells(TS_KERNELS, phi, depth, 0, reachCells(p.kernelScale * p.particleRadius, DX), 0, cnx, cny, cnz, deep, skip, new DeepCellScratch())
    expect(deepCount).toBeGreaterThan(100)
    const full = new ParticleLevelSet()
    full.compute(p)
    const { nx, ny, nz } = full.grid
    const want = Float32Array.from(full.phi.subarray(0, nx * ny * nz))
    const cell = (n: number, cells: number) => (n <= 0 ? 0 : Math.min(cells - 1, Math.floor((n - 1) / p.refinement)))
    for (const b of allBackends()) {
      const ls = new ParticleLevelSet(b)
      ls.compute({ ...p, interior: { phi, depth } })
      // The pool's markers deeper than depth plus a cell are not splatted.
      expect(ls.sortedCount / p.count, b.kind).toBeLessThan(0.85)
      let deepNodes = 0, wrong = 0
      for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) {
        const m = i + nx * (j + ny * k)
        const interior = i > 0 && j > 0 && k > 0 && i < nx - 1 && j < ny - 1 && k < nz - 1
        const isDeep = interior && deep[cell(i, cnx) + cnx * (cell(j, cny) + cny * cell(k, cnz))] === 1
        if (isDeep) deepNodes++
        if (!sameBits(ls.phi[m], isDeep ? Math.fround(-p.particleRadius) : want[m])) wrong++
      }
      expect(deepNodes).toBeGreaterThan(1000)
      expect(wrong, `${b.kind} ${b.threads} threads`).toBe(0)
    }
  })

  it('the cells along the domain sides are never inside, a deep cell is `settle` cells inside, and a marker is skipped only where its reach is all deep', () => {
    const [cnx, cny, cnz] = CELLS
    const phi = new Float32Array(cnx * cny * cnz).fill(-1)
    const deep = new Uint8Array(phi.length), skip = new Uint8Array(phi.length)
    markDeepCells(TS_KERNELS, phi, 0.5, 1, 1, 0, cnx, cny, cnz, deep, skip, new DeepCellScratch())
    for (let k = 0; k < cnz; k++) for (let j = 0; j < cny; j++) for (let i = 0; i < cnx; i++) {
      const c = i + cnx * (j + cny * k)
      const side = Math.min(i, j, k, cnx - 1 - i, cny - 1 - j, cnz - 1 - k)
      expect(deep[c]).toBe(side >= 2 ? 1 : 0)
      expect(skip[c]).toBe(side >= 3 ? 1 : 0)
    }
    // R = 0.75 dx reaches one cell either side; R = dx (rounding) two.
    expect(reachCells(0.75, 1)).toBe(1)
    expect(reachCells(1, 1)).toBe(2)
  })

  it('the deep cells and the skip mask are the same on the TypeScript kernels and on WebAssembly, and too few inside cells turn them off', () => {
    const [cnx, cny, cnz] = CELLS
    const phi = poolPhi()
    const n = cnx * cny * cnz
    const want = { deep: new Uint8Array(n), skip: new Uint8Array(n), scratch: new DeepCellScratch() }
    const count = markDeepCells(TS_KERNELS, phi, 1.5 * DX, 1, 1, 0, cnx, cny, cnz, want.deep, want.skip, want.scratch)
    expect(count).toBeGreaterThan(200)
    let perPlane = 0
    for (let k = 0; k < cnz; k++) perPlane += want.scratch.result[1 + k]
    expect(perPlane).toBe(count)
    for (const b of allBackends().slice(1)) {
      const deep = b.u8(n), skip = b.u8(n), scratch = new DeepCellScratch(b)
      expect(markDeepCells(b, phi, 1.5 * DX, 1, 1, 0, cnx, cny, cnz, deep, skip, scratch)).toBe(count)
      expect(Array.from(deep)).toEqual(Array.from(want.deep))
      expect(Array.from(skip)).toEqual(Array.from(want.skip))
      expect(Array.from(scratch.result.subarray(0, cnz + 1))).toEqual(Array.from(want.scratch.result.subarray(0, cnz + 1)))
      // More inside cells asked for than there are: none deep.
      expect(markDeepCells(b, phi, 1.5 * DX, 1, 1, n, cnx, cny, cnz, deep, skip, scratch)).toBe(0)
    }
  })

  it('at the liquid family depth and default smoothing, every cube outside the inside cells meshes as before, and the bubbles inside go', () => {
    const p = pool()
    const phi = poolPhi()
    const depth = 2.5 * DX
    const input = { positions: p.positions, count: p.count, particleRadius: p.particleRadius, kernelScale: p.kernelScale, grid: { origin: p.origin, dx: DX, nx: CELLS[0], ny: CELLS[1], nz: CELLS[2] }, refinement: 2, smoothing: 1 }
    // The cells the simulation's level set puts deeper than depth (not on the domain's sides).
    const [cnx, cny, cnz] = CELLS
    const inside = new Uint8Array(cnx * cny * cnz)
    markDeepCells(TS_KERNELS, phi, depth, 0, 0, 0, cnx, cny, cnz, inside, new Uint8Array(inside.length), new DeepCellScratch())
    const h = DX / 2
    const cell = (n: number, cells: number) => (n <= 0 ? 0 : Math.min(cells - 1, Math.floor((n - 1) / 2)))
    const nodeInside = (i: number, j: number, k: number) => inside[cell(i, cnx) + cnx * (cell(j, cny) + cny * cell(k, cnz))] === 1
    // A triangle lies in one cube of nodes; it is outside when none of the cube's corners is inside.
    const split = (m: Mesh) => {
      const out = new Set<string>()
      let interior = 0
      for (let t = 0; t < m.indices.length / 3; t++) {
        const c = [0, 1, 2].map((a) => [0, 1, 2].reduce((s, v) => s + m.positions[3 * m.indices[3 * t + v] + a], 0) / 3)
        const n = c.map((x, a) => Math.floor((x - (p.origin[a] - h)) / h))
        let touches = false
        for (let d = 0; d < 8; d++) if (nodeInside(n[0] + (d & 1), n[1] + ((d >> 1) & 1), n[2] + (d >> 2))) touches = true
        if (touches) interior++
        else out.add(triangleKey(m, t))
      }
      return { out, interior }
    }
    const before = split(new LiquidSurfacer().surface(input))
    // The pool's top, sides and the caps where it meets the walls, and bubbles inside it.
    expect(before.out.size).toBeGreaterThan(4000)
    expect(before.interior).toBeGreaterThan(100)
    for (const b of allBackends()) {
      const after = split(new LiquidSurfacer(b).surface({ ...input, interior: { phi, depth } }))
      expect(after.out.size, `${b.kind} ${b.threads} threads`).toBe(before.out.size)
      for (const t of after.out) expect(before.out.has(t)).toBe(true)
      expect(after.interior).toBeLessThan(0.8 * before.interior)
    }
  })
})

type Mesh = { positions: Float32Array; indices: Uint32Array }

/** Triangle t as its sorted vertex coordinates. */
function triangleKey(m: Mesh, t: number): string {
  return [0, 1, 2].map((c) => Array.from(m.positions.subarray(3 * m.indices[3 * t + c], 3 * m.indices[3 * t + c] + 3)).join(',')).sort().join(';')
}
