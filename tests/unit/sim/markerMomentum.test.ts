// The markers' momentum balance (markerMomentum.ts) visits each face of the bodies' boxes
// once, per z-plane on the kernel layer (markerMomentumKernels.ts), and gives its term to the
// body that claims it. This checks that against the rule written body by body (each body's own
// box, the face kept when the cell above it, or below it on the box's far side, is nearest
// that body's centre; each plane summed on its own, then the planes added in order): the same
// sums to the bit, with overlapping boxes, boxes clipped by the walls, and bodies that moved
// since the last call (cells outside every current box keep stale owners), on the TypeScript
// reference and on 1, 2 and 3 WebAssembly threads. (The balance's physics is checked by
// amount in tests/validation/rigidfluid/momentum.test.ts.)
import { afterAll, describe, expect, it } from 'vitest'
import { MacGrid, type GridSpec } from '../../../src-shared/sim/core/grid'
import type { KernelBackend } from '../../../src-shared/sim/core/kernelBackend'
import { GhostFluidPressure } from '../../../src-shared/sim/liquid/ghostFluid'
import { type BalancedBody, MarkerMomentumBalance } from '../../../src-shared/sim/liquid/markerMomentum'
import { LIQUID } from '../../../src-shared/sim/liquid/viscosity'
import { everyBackend } from './everyBackend'

const grid: GridSpec = { nx: 20, ny: 18, nz: 16, dx: 0.05, origin: [0, 0, 0] }
let seed = 7
const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32)

/** The balance's sums, body by body over each body's own box, plane by plane. */
function bodyByBody(bal: MarkerMomentumBalance, bodies: BalancedBody[], use: Uint8Array, vel: MacGrid, start: MacGrid, fr: MacGrid, kind: Uint8Array, phi: Float32Array, splat: Float64Array[], markerMass: number, cellMass: number): Float64Array {
  const { owner, boxes } = bal as unknown as { owner: Int32Array; boxes: Int32Array }
  const { nx, ny, nz } = grid
  const out = new Float64Array(3 * bodies.length)
  const comps = [vel.u, vel.v, vel.w], starts = [start.u, start.v, start.w], frs = [fr.u, fr.v, fr.w]
  for (let b = 0; b < bodies.length; b++) {
    if (!use[b]) continue
    const o = 6 * b
    for (let a = 0; a < 3; a++) {
      const ex = a === 0 ? 1 : 0, ey = a === 1 ? 1 : 0, ez = a === 2 ? 1 : 0
      const fnx = nx + ex, fny = ny + ey, step = ex ? 1 : ey ? nx : nx * ny, top = ex ? nx : ey ? ny : nz
      const boxHi = boxes[o + 2 * a + 1]
      let sum = 0
      for (let k = boxes[o + 4]; k < boxes[o + 5] + ez; k++) {
        let plane = 0
        for (let j = boxes[o + 2]; j < boxes[o + 3] + ey; j++) for (let i = boxes[o]; i < boxes[o + 1] + ex; i++) {
          const f = i + fnx * (j + fny * k)
          const open = frs[a][f]
          if (!(open > 0)) continue
          const idx = ex ? i : ey ? j : k
          const c = i + nx * (j + ny * k)
          const hiC = idx < top ? c : -1, loC = idx > 0 ? c - step : -1
          const hiL = hiC >= 0 && kind[hiC] === LIQUID, loL = loC >= 0 && kind[loC] === LIQUID
          if (!hiL && !loL) continue
          if (owner[idx < boxHi ? c : c - step] !== b) continue
          let theta = 1
          if (hiL && !loL && loC >= 0) theta = GhostFluidPressure.theta(phi[hiC], phi[loC])
          else if (loL && !hiL && hiC >= 0) theta = GhostFluidPressure.theta(phi[loC], phi[hiC])
          plane += (cellMass * open * theta - markerMass * splat[a][2 * f + 1]) * (comps[a][f] - starts[a][f])
        }
        sum += plane
      }
      out[3 * b + a] = sum
    }
  }
  return out
}

const owned: KernelBackend[] = []
afterAll(async () => {
  for (const b of owned) await b.dispose()
})

describe('markers momentum balance', () => {
  for (const [label, kernels] of everyBackend(owned)) {
    it(`gives each body the same sums, to the bit, as the rule applied body by body (5 bodies, overlapping and wall-clipped boxes, two calls with the bodies moved between): ${label}`, () => {
      seed = 7
      const n = grid.nx * grid.ny * grid.nz
      const vel = new MacGrid(grid, { kernels }), start = new MacGrid(grid, { kernels }), fr = new MacGrid(grid, { kernels })
      for (const g of [vel, start, fr]) for (const arr of [g.u, g.v, g.w]) for (let f = 0; f < arr.length; f++) arr[f] = g === fr ? (rand() < 0.2 ? 0 : rand()) : rand() - 0.5
      const kind = kernels.u8(n), phi = kernels.f32(n)
      for (let c = 0; c < n; c++) { kind[c] = rand() < 0.7 ? LIQUID : 0; phi[c] = rand() - 0.6 }
      const splat = [vel.u.length, vel.v.length, vel.w.length].map((len) => {
        const s = kernels.f64(2 * len)
        for (let f = 0; f < s.length; f++) s[f] = rand() * 8
        return s
      })
      // Small boxes (about 7 cells) in a 20 x 18 x 16 grid: two overlapping near the middle, one
      // clipped by the walls' corner, so after the move most cells' owners are stale.
      const at = [[0.4, 0.4, 0.4], [0.45, 0.42, 0.38], [0.2, 0.6, 0.2], [0.97, 0.03, 0.4], [0.7, 0.2, 0.6]]
      const bodies: BalancedBody[] = at.map((x) => ({ x: new Float64Array(x), v: new Float64Array(3), boundingRadius: 0.02 + 0.015 * rand() }))
      const use = new Uint8Array([1, 1, 0, 1, 1])
      const bal = new MarkerMomentumBalance(grid, bodies.length, [0, 0, 0], undefined, kernels)
      const mass = new Float64Array([1, 2, 3, 4, 5])
      for (let call = 0; call < 2; call++) {
        if (call === 1) for (const b of bodies) { b.x[0] -= 0.17; b.x[2] += 0.11 }
        const v0 = bodies.map((b) => Float64Array.from(b.v))
        bal.apply(bodies, use, mass, vel, start, fr, kind, phi, splat, 0.125, 1)
        const expected = bodyByBody(bal, bodies, use, vel, start, fr, kind, phi, splat, 0.125, 1)
        expect(Array.from(expected).filter((x) => x !== 0).length, 'non-zero sums').toBeGreaterThan(8)
        expect(Array.from(bal.given)).toEqual(Array.from(expected))
        for (let b = 0; b < bodies.length; b++) for (let d = 0; d < 3; d++) expect(bodies[b].v[d]).toBe(v0[b][d] + expected[3 * b + d] / mass[b])
      }
    })
  }
})
