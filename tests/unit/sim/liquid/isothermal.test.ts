// When the liquid solver skips eq. 50's passes and the unresolved-temperature relaxation
// (liquidSolver.ts isothermalMarkers): only when every marker holds the same temperature and
// nothing would change it (no heat source with a rate; no cooling, or cooling towards exactly
// that temperature as float32); on the WebAssembly kernels too, by blocks on 1-3 threads.
import { afterAll, describe, expect, it } from 'vitest'
import type { KernelBackend } from '../../../../src-shared/sim/core/kernelBackend'
import { everyBackend } from '../everyBackend'
import type { HeatSourceInput } from '../../../../src-shared/sim/liquid/liquidInput'
import { isothermalMarkers } from '../../../../src-shared/sim/liquid/liquidSolver'

const markers = (...t: number[]) => ({ count: t.length, temp: Float32Array.from([...t, 999]) })
const source = (rate: number): HeatSourceInput => ({ id: 's', name: 'Lamp', position: [0, 0, 0], radius: 0.1, temperature: 400, rate })
const T = Math.fround(293.15)

describe('isothermal markers', () => {
  it('holds for one shared temperature with no source and no cooling, whatever the ambient', () => {
    expect(isothermalMarkers(markers(T, T, T), [], 293.15, 0)).toBe(true)
    expect(isothermalMarkers(markers(350, 350), [source(0)], 293.15, 0)).toBe(true)
    // Only the first `count` markers count (the array's spare room holds anything).
    expect(isothermalMarkers(markers(T), [], 293.15, 0)).toBe(true)
    expect(isothermalMarkers(markers(), [], 293.15, 0.5)).toBe(true)
  })

  it('holds with cooling only when the markers are already at the ambient temperature', () => {
    expect(isothermalMarkers(markers(T, T), [], 293.15, 0.5)).toBe(true)
    expect(isothermalMarkers(markers(350, 350), [], 293.15, 0.5)).toBe(false)
  })

  it('fails for a heat source with a rate, or one marker a float32 step apart', () => {
    expect(isothermalMarkers(markers(T, T), [source(2)], 293.15, 0)).toBe(false)
    const next = new Float32Array([T])
    new Uint32Array(next.buffer)[0] += 1
    expect(isothermalMarkers(markers(T, next[0], T), [], 293.15, 0)).toBe(false)
  })
})

const backends: KernelBackend[] = []
afterAll(async () => {
  for (const b of backends) await b.dispose()
})

describe('isothermal markers on the kernels', () => {
  it('counts every block of markers (one marker apart in the last block, NaN) on 1, 2 and 3 threads', () => {
    for (const [threads, b] of everyBackend(backends).slice(1)) {
      const n = 40_000 // three blocks of SPEED_BLOCK markers
      const temp = b.f32(n + 1).fill(T)
      temp[n] = 999 // beyond count: not read
      const p = { count: n, temp }
      expect(isothermalMarkers(p, [], 293.15, 0.5, b), `${threads}`).toBe(true)
      temp[n - 1] = 300
      expect(isothermalMarkers(p, [], 293.15, 0, b), `${threads}`).toBe(false)
      temp[n - 1] = T
      temp[20_000] = Number.NaN
      expect(isothermalMarkers(p, [], 293.15, 0, b), `${threads}`).toBe(false)
      temp[0] = Number.NaN
      expect(isothermalMarkers({ count: 1, temp }, [], 293.15, 0, b), `${threads}`).toBe(true)
      expect(isothermalMarkers({ count: 2, temp }, [], 293.15, 0, b), `${threads}`).toBe(false)
    }
  })
})
