// Bad liquid setups and inputs fail early with INVALID_PARAM errors that name the field; a
// blow-up fails with SIM_UNSTABLE instead of caching NaN frames.
import { describe, expect, it } from 'vitest'
import type { LiquidSetup } from '../../../src-shared/sim/liquid/liquidInput'
import { LiquidSolver } from '../../../src-shared/sim/liquid/liquidSolver'
import { boxVolume, liquidInput, liquidSetup } from './liquidScenes'
import { errorOf } from '../../fixtures/errorOf'

const grid = { nx: 8, ny: 8, nz: 8, dx: 0.1, origin: [0, 0, 0] as [number, number, number] }
const good = liquidSetup(grid, [boxVolume([0, 0, 0], [0.4, 0.4, 0.8])])


const temp = (extra: object) => ({ model: 'temperature', meltingPoint: 330, transitionWidth: 10, ramp: 'linear', solid: 1e4, liquid: 1e-3, ...extra })

describe('liquid input validation', () => {
  it.each<[string, Partial<LiquidSetup> | Record<string, unknown>, string]>([
    ['viscosity below 0', { viscosity: { model: 'constant', value: -1 } }, 'viscosity.value'],
    ['viscosity above 1e5', { viscosity: { model: 'constant', value: 2e5 } }, 'viscosity.value'],
    ['viscosity NaN', { viscosity: { model: 'constant', value: NaN } }, 'viscosity.value'],
    ['solid viscosity above 1e5', { viscosity: temp({ solid: 1e6 }) }, 'viscosity.solid'],
    ['melting point below 0 K', { viscosity: temp({ meltingPoint: -5 }) }, 'viscosity.meltingPoint'],
    ['transition width 0', { viscosity: temp({ transitionWidth: 0 }) }, 'viscosity.transitionWidth'],
    ['unknown ramp', { viscosity: temp({ ramp: 'cubic' }) }, 'viscosity.ramp'],
    ['ambient temperature NaN', { heat: { diffusion: 0, ambientTemperature: NaN, coolingRate: 0 } }, 'heat.ambientTemperature'],
    ['ambient temperature below 0 K', { heat: { diffusion: 0, ambientTemperature: -1, coolingRate: 0 } }, 'heat.ambientTemperature'],
    ['negative diffusion', { heat: { diffusion: -1, ambientTemperature: 300, coolingRate: 0 } }, 'heat.diffusion'],
    ['flip above 1', { flip: 2 }, 'flip'],
    ['particles per cell 0', { particlesPerCell: 0 }, 'particlesPerCell'],
    ['jitter NaN', { jitter: NaN }, 'jitter'],
    ['stress form', { viscousStress: 'newtonian' }, 'viscousStress'],
    ['absurd resolution', { grid: { ...grid, nx: 100000 } }, 'nx'],
    ['grid too thin', { grid: { ...grid, ny: 2 } }, 'grid'],
    ['cell size 0', { grid: { ...grid, dx: 0 } }, 'dx'],
    ['volume temperature below 0 K', { volumes: [boxVolume([0, 0, 0], [0.2, 0.2, 0.2], -3)] }, 'volumes[0] ("box").temperature'],
    ['volume temperature Infinity', { volumes: [boxVolume([0, 0, 0], [0.2, 0.2, 0.2], Infinity)] }, 'volumes[0] ("box").temperature'],
    ['volume with zero scale', { volumes: [boxVolume([0, 0, 0], [0, 0.2, 0.2])] }, 'volumes[0] ("box").scale'],
    ['mesh volume without a mesh', { volumes: [{ ...boxVolume([0, 0, 0], [0.2, 0.2, 0.2]), shape: 'mesh' }] }, 'volumes[0] ("box").mesh'],
  ])('%s', (_label, override, field) => {
    const e = errorOf(() => new LiquidSolver({ ...good, ...(override as Partial<LiquidSetup>) }))
    expect(e.code).toBe('INVALID_PARAM')
    expect(String(e.details?.field)).toContain(field)
    expect(e.message.length).toBeGreaterThan(10)
  })

  it('rejects bad per-step input naming the field', () => {
    const s = new LiquidSolver(good)
    const bad = liquidInput(0, { family: { heatSources: [{ id: 'h', name: 'lamp', position: [0, 0, 0], radius: 0.1, temperature: NaN, rate: 1 }] } })
    const e = errorOf(() => s.step(1 / 24, bad))
    expect(e.code).toBe('INVALID_PARAM')
    expect(String(e.details?.field)).toBe('heatSources[0] ("lamp").temperature')
    const e2 = errorOf(() => s.step(NaN, liquidInput(0)))
    expect(e2.details?.field).toBe('dt')
    const e3 = errorOf(() => s.step(1 / 24, liquidInput(0, { cfl: 0 })))
    expect(e3.details?.field).toBe('input.cfl')
  })

  it('stops with SIM_UNSTABLE instead of caching NaN', () => {
    const s = new LiquidSolver(liquidSetup(grid, [boxVolume([0, 0, 0], [0.4, 0.4, 0.8], 300, [0, 0, 0])], { gravity: [0, -1e9, 0] }))
    const e = errorOf(() => {
      for (let f = 0; f < 5; f++) s.step(1 / 24, liquidInput(f, { maxSubsteps: 2 }))
    })
    expect(e.code).toBe('SIM_UNSTABLE')
  })
})
