// A sharp blob (a cylinder of density 1, radius 4 cells, no smoothing) carried 30 cells by a
// uniform flow, along x and along the diagonal. The exact answer is the initial blob translated
// by 30 cells: same mass, centroid 30 cells on. Limited MacCormack (Selle et al. 2008) used to
// land 0.7-1.4 cells short with up to +13% mass: its limiter clipped the Lax-Wendroff overshoot
// at the front and the undershoot behind on their own; the clipped amounts now go to neighbours
// with room (advectKernels.ts, conservative limiting).
//
// The app runs at 4 cells per substep by default (the domain's CFL), so blobs travel 1-4 cells
// per step. There Selle's correction was added whole cells downstream of where its error
// estimate was made, and the limiter clipped it inside the new blob: along x the blob landed
// 0.63 / 0.41 / 0.21 cell short with +5.2 / +3.7 / +2.0% mass at 1.3 / 2.5 / 3.75 cells per
// step, along the diagonal 0.13 / 0.38 / 0.44 cell with +1.0 / +3.5 / +5.3%. The estimate is
// now read at the departure stencil's sample nearest to the arrival (advectKernels.ts,
// errorSample): 0.015 cell and 0.04% along x, 0.15 cell and 1.3% along the diagonal at most.
// The default CFL 4 is measured at 3.75 cells per step (8 steps of 30 cells): at a whole number
// of cells per step along x, linear interpolation is an exact shift and the test would say
// nothing.
import { afterAll, describe, expect, it } from 'vitest'
import { type AdvectionScheme, Advector } from '../../../src-shared/sim/core/advect'
import { type AllocOptions, type GridSpec, MacGrid } from '../../../src-shared/sim/core/grid'
import type { KernelBackend } from '../../../src-shared/sim/core/kernelBackend'
import { createKernelBackend } from '../../../src-main/sim/workerPool'

const N = 48
const NZ = 4
const spec: GridSpec = { nx: N, ny: N, nz: NZ, dx: 1 / N, origin: [0, 0, 0] }
const DIST = 30

/**
 * The blob carried DIST cells in round(DIST / cfl) steps; with options.kernels, on those kernels
 * and as the first of a pair of fields (advectScalars: the smoke solver's path), the second
 * being the blob mirrored in x.
 */
function carry(scheme: AdvectionScheme, cfl: number, dir: [number, number], options: AllocOptions = {}): { lag: number; mass: number; field: Float32Array } {
  const vel = new MacGrid(spec, options)
  const len = Math.hypot(dir[0], dir[1])
  vel.u.fill(dir[0] / len)
  vel.v.fill(dir[1] / len)
  const steps = Math.round(DIST / cfl)
  const dt = (DIST * spec.dx) / steps
  const alloc = (n: number) => (options.kernels ? options.kernels.f32(n) : new Float32Array(n))
  let a = alloc(N * N * NZ)
  let b = alloc(a.length)
  let a2 = alloc(a.length)
  let b2 = alloc(a.length)
  for (let k = 0; k < NZ; k++)
    for (let j = 0; j < N; j++)
      for (let i = 0; i < N; i++)
        if (Math.hypot(i + 0.5 - 8.3, j + 0.5 - 8.6) < 4) {
          a[i + N * (j + N * k)] = 1
          a2[N - 1 - i + N * (j + N * k)] = 1
        }
  const moments = (f: Float32Array) => {
    let m = 0
    let x = 0
    let y = 0
    for (let c = 0; c < f.length; c++) {
      m += f[c]
      x += f[c] * ((c % N) + 0.5)
      y += f[c] * ((Math.floor(c / N) % N) + 0.5)
    }
    return [m, x / m, y / m]
  }
  const [m0, x0, y0] = moments(a)
  const adv = new Advector(spec, options)
  for (let s = 0; s < steps; s++) {
    if (options.kernels) {
      adv.advectScalars([b, b2], [a, a2], vel, dt, { scheme })
      ;[a2, b2] = [b2, a2]
    } else adv.advectScalar(b, a, vel, dt, { scheme })
    ;[a, b] = [b, a]
  }
  const [m1, x1, y1] = moments(a)
  return { lag: Math.hypot(x1 - x0 - (DIST * dir[0]) / len, y1 - y0 - (DIST * dir[1]) / len), mass: m1 / m0 - 1, field: Float32Array.from(a) }
}

let wasm: KernelBackend | null = null
afterAll(async () => {
  await wasm?.dispose()
})

describe('a sharp blob carried 30 cells by a uniform flow (MacCormack, the default)', () => {
  // [cells per step, direction, lag tolerance (cells), mass tolerance (fraction), what the code
  // before errorSample gave (lag, mass)]
  it.each([
    [0.4, [1, 0], 0.25, 0.01, '0.11 cell, +0.06%'],
    [0.7, [1, 0], 0.25, 0.01, '0.11 cell, +0.5%'],
    [1.3, [1, 0], 0.25, 0.01, '0.63 cell, +5.2%'],
    [2.5, [1, 0], 0.25, 0.01, '0.41 cell, +3.7%'],
    [3.75, [1, 0], 0.25, 0.01, '0.21 cell, +2.0%'],
    [0.4, [1, 1], 0.4, 0.03, '0.26 cell, +1.1%'],
    [0.7, [1, 1], 0.4, 0.03, '0.33 cell, +2.6%'],
    [1.3, [1, 1], 0.4, 0.03, '0.13 cell, +1.0%'],
    [2.5, [1, 1], 0.4, 0.03, '0.38 cell, +3.5%'],
    [3.75, [1, 1], 0.4, 0.03, '0.44 cell, +5.3%'],
  ] as const)('%f cells per step along (%j): centroid within %f cell of the exact translation, mass within %f (was %s)', (cfl, dir, cells, mass, _was) => {
    const r = carry('maccormack', cfl, [dir[0], dir[1]])
    console.log(`blob ${cfl} cells/step dir ${dir}: lag ${r.lag.toFixed(3)} cells, mass ${(r.mass * 100).toFixed(2)}%`)
    expect(r.lag).toBeLessThan(cells)
    expect(Math.abs(r.mass)).toBeLessThan(mass)
  })

  it.each([
    [1.3, [1, 0]],
    [3.75, [1, 1]],
  ] as const)('%f cells per step along (%j): the WebAssembly kernels (2 threads, a pair of fields) give the same bits', (cfl, dir) => {
    wasm ??= createKernelBackend('wasm', { threads: 2 })
    const ref = carry('maccormack', cfl, [dir[0], dir[1]])
    const got = carry('maccormack', cfl, [dir[0], dir[1]], { kernels: wasm })
    expect(got.field).toEqual(ref.field)
  })

  it('semi-Lagrangian (exact in a uniform flow up to rounding) lands within 0.05 cell, mass within 0.1%', () => {
    const r = carry('semi-lagrangian', 0.7, [1, 1])
    expect(r.lag).toBeLessThan(0.05)
    expect(Math.abs(r.mass)).toBeLessThan(0.001)
  })
})
