import { it } from 'vitest'
import { MacGrid, type GridSpec } from '../../../src-shared/sim/core/grid'
import { computeFaceFractions, type DomainSides } from '../../../src-shared/sim/core/boundaries'
import { PressureSolver, divergence } from '../../../src-shared/sim/core/pressure'

function rng(seed: number) { let s = seed >>> 0; return () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 4294967296 } }

it('explore', () => {
  const sides: DomainSides = { xMin: 'closed', xMax: 'closed', yMin: 'closed', yMax: 'open', zMin: 'closed', zMax: 'closed' }
  for (const n of [32, 64, 128]) {
    const spec: GridSpec = { nx: n, ny: n, nz: n, dx: 1 / n, origin: [0, 0, 0] }
    const fr = new MacGrid(spec)
    computeFaceFractions(null, sides, fr)
    for (const kind of ['multigrid', 'mic0'] as const) {
      if (kind === 'mic0' && n > 64 && !process.env.MIC) continue
      const vel = new MacGrid(spec)
      const r = rng(1)
      for (const a of [vel.u, vel.v, vel.w]) for (let i = 0; i < a.length; i++) a[i] = r() * 2 - 1
      const ps = new PressureSolver(spec, { preconditioner: kind, tolerance: 1e-6, warmStart: false })
      const t0 = performance.now()
      const st = ps.project(vel, fr)
      const t1 = performance.now()
      const div = new Float32Array(n * n * n)
      divergence(vel, fr, null, div)
      let m = 0; for (const d of div) m = Math.max(m, Math.abs(d))
      console.log(n, kind, st, (t1 - t0).toFixed(0) + ' ms', 'maxdiv*dx', m / n)
    }
  }
}, 300000)
