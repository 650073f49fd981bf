import { it } from 'vitest'
import { MacGrid, type GridSpec } from '../../../src-shared/sim/core/grid'
import { computeFaceFractions, type DomainSides } from '../../../src-shared/sim/core/boundaries'
import { PressureSolver } from '../../../src-shared/sim/core/pressure'

it('explore mg variants', () => {
  const sides: DomainSides = { xMin: 'closed', xMax: 'closed', yMin: 'closed', yMax: 'open', zMin: 'closed', zMax: 'closed' }
  for (const n of [64, 128]) {
    const spec: GridSpec = { nx: n, ny: n, nz: n, dx: 1 / n, origin: [0, 0, 0] }
    const fr = new MacGrid(spec)
    computeFaceFractions(null, sides, fr)
    for (const [smoother, sweeps] of [['rbgs', 2], ['rbgs', 1], ['rbgs', 2], ['rbgs', 3], ['rbgs', 4], ['jacobi', 2], ['jacobi', 3]] as const) {
      const vel = new MacGrid(spec)
      let s = 1
      for (const a of [vel.u, vel.v, vel.w]) for (let i = 0; i < a.length; i++) { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; a[i] = s / 2 ** 31 - 1 }
      const ps = new PressureSolver(spec, { preconditioner: 'multigrid', multigrid: { smoother, sweeps }, tolerance: 1e-6, warmStart: false })
      const t0 = performance.now()
      const st = ps.project(vel, fr)
      console.log(n, smoother, sweeps, st.iterations, (performance.now() - t0).toFixed(0), 'ms')
    }
  }
}, 600000)
