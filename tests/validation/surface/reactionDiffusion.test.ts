// The surface solver's diffusion and reaction-diffusion mode, checked by amount:
//   - diffusion (eq. 18, the metric Laplacian, implicit) of a Gaussian on the flat top of a slab,
//     across patch edges, against the heat kernel: exp(-r^2/r0^2) becomes
//     r0^2/(r0^2 + 4kt) exp(-r^2/(r0^2 + 4kt));
//   - the Gray-Scott reaction (Pearson 1993) of a uniform state against the ODE integrated
//     finely (diffusion leaves a uniform field alone).
import { describe, expect, it } from 'vitest'
import { sphereLikeCage, voxelCage } from '../../../src-shared/geometry/voxelCages'
import { buildLimitSurface } from '../../../src-shared/geometry/catmullClarkEval'
import { buildPatchAtlas } from '../../../src-shared/geometry/patchAtlas'
import { SurfaceFluid } from '../../../src-shared/sim/surface/surfaceFluid'
import { GrayScott } from '../../../src-shared/sim/surface/reactionDiffusion'

function fluid(cage: Parameters<typeof buildLimitSurface>[0], N: number, densities: number): SurfaceFluid {
  const S = buildLimitSurface(cage)
  return new SurfaceFluid(S, buildPatchAtlas(S.faces), { N, densities })
}

describe('surface diffusion and reaction-diffusion', () => {
  for (const N of [8, 16]) {
    it(`a Gaussian diffusing on the flat top of a slab (${N}^2 cells a patch) matches the heat kernel within 3% (L2) after 1 s`, () => {
      const cells: [number, number, number][] = []
      for (let i = 0; i < 6; i++) for (let k = 0; k < 6; k++) cells.push([i, 0, k])
      const fl = fluid(voxelCage(cells), N, 1)
      const g = fl.grid, pos = fl.metric.positions, s = fl.density[0]
      const c = [0.2, 0.5, -0.1], r0 = 0.3, k = 0.01, T = 1
      const at = (q: number, width2: number, amp: number) => amp * Math.exp(-((pos[3 * q] - c[0]) ** 2 + (pos[3 * q + 2] - c[2]) ** 2) / width2) * (Math.abs(pos[3 * q + 1] - c[1]) < 1e-9 ? 1 : 0)
      for (let p = 0; p < g.P; p++) for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) { const q = g.cell(p, i, j); s[q] = at(q, r0 * r0, 1) }
      g.fillScalar(s)
      const steps = 40
      for (let t = 0; t < steps; t++) fl.diffuse(0, k, T / steps)
      const w2 = r0 * r0 + 4 * k * T
      let e2 = 0, r2 = 0
      for (let p = 0; p < g.P; p++) for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) {
        const q = g.cell(p, i, j), a = fl.metric.cells.sqrtG[q]
        const exact = at(q, w2, (r0 * r0) / w2)
        e2 += (s[q] - exact) ** 2 * a
        r2 += exact * exact * a
      }
      const err = Math.sqrt(e2 / r2)
      console.log(`${N}^2: L2 against the heat kernel ${err.toFixed(4)}`)
      expect(err).toBeLessThan(0.03)
    }, 60_000)
  }

  it('Gray-Scott: a uniform state on a sphere-like surface follows the reaction ODE within 1e-6 over 5 s (dt 0.1)', () => {
    const fl = fluid(sphereLikeCage(), 8, 2)
    const params = { Du: 2e-5, Dv: 1e-5, F: 0.04, k: 0.06 }
    const gs = new GrayScott(fl, params)
    fl.density[0].fill(0.6)
    fl.density[1].fill(0.3)
    for (let t = 0; t < 50; t++) gs.step(0.1)
    // Reference: the ODE by RK4 at dt = 1e-3.
    let u = 0.6, v = 0.3
    const f = (a: number, b: number) => [-a * b * b + params.F * (1 - a), a * b * b - (params.F + params.k) * b]
    for (let t = 0; t < 5000; t++) {
      const h = 1e-3
      const k1 = f(u, v), k2 = f(u + (h / 2) * k1[0], v + (h / 2) * k1[1]), k3 = f(u + (h / 2) * k2[0], v + (h / 2) * k2[1]), k4 = f(u + h * k3[0], v + h * k3[1])
      u += (h / 6) * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0])
      v += (h / 6) * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1])
    }
    const g = fl.grid
    let worst = 0
    for (let p = 0; p < g.P; p++) for (let j = 0; j < g.N; j++) for (let i = 0; i < g.N; i++) {
      const q = g.cell(p, i, j)
      worst = Math.max(worst, Math.abs(fl.density[0][q] - u), Math.abs(fl.density[1][q] - v))
    }
    console.log(`Gray-Scott uniform state after 5 s: u ${u.toFixed(6)}, v ${v.toFixed(6)}; largest cell difference ${worst.toExponential(2)}`)
    expect(Math.abs(u - 0.6) + Math.abs(v - 0.3)).toBeGreaterThan(0.01)
    expect(worst).toBeLessThan(1e-6)
  })
})
