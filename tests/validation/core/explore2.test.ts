import { it } from 'vitest'
import { MacGrid, type GridSpec } from '../../../src-shared/sim/core/grid'
import { computeFaceFractions, type DomainSides } from '../../../src-shared/sim/core/boundaries'
import { MultigridPreconditioner, gaussSeidelColorSlab, restrictSlab } from '../../../src-shared/sim/core/multigrid'
import { FluidComponents } from '../../../src-shared/sim/core/components'
import { applyPoissonSlab } from '../../../src-shared/sim/core/poisson'
import { Mic0Preconditioner } from '../../../src-shared/sim/core/mic0'

it('explore2', () => {
  const sides: DomainSides = { xMin: 'closed', xMax: 'closed', yMin: 'closed', yMax: 'open', zMin: 'closed', zMax: 'closed' }
  const n = 128
  const spec: GridSpec = { nx: n, ny: n, nz: n, dx: 1 / n, origin: [0, 0, 0] }
  const fr = new MacGrid(spec)
  computeFaceFractions(null, sides, fr)
  const N = n ** 3
  const r = new Float64Array(N).map(() => Math.random())
  const z = new Float64Array(N)
  const T = (label: string, f: () => void, reps = 3) => { f(); const t0 = performance.now(); for (let i = 0; i < reps; i++) f(); console.log(label, ((performance.now() - t0) / reps).toFixed(1), 'ms') }
  const comps = new FluidComponents(n, n, n)
  T('components', () => comps.build(fr.u, fr.v, fr.w))
  T('matvec', () => applyPoissonSlab(z, r, fr.u, fr.v, fr.w, n, n, n, 0, n))
  T('gs color', () => gaussSeidelColorSlab(z, r, fr.u, fr.v, fr.w, n, n, n, 0, 0, n))
  const mg = new MultigridPreconditioner(n, n, n)
  T('mg setup', () => mg.setup(fr.u, fr.v, fr.w))
  const l0 = mg.levels[0], l1 = mg.levels[1]
  T('restrict', () => restrictSlab(l1.b, r, n, n, n, l1.nx, l1.ny, l0.tx!, l0.ty!, l0.tz!, l0.scratch, 0, l1.nz))
  T('vcycle', () => mg.apply(r, z))
  const mic = new Mic0Preconditioner(n, n, n)
  T('mic factor', () => mic.factor(fr.u, fr.v, fr.w))
  T('mic apply', () => mic.apply(r, z))
}, 300000)
