import { describe, expect, it } from 'vitest'
import { addBuoyancy, addUniformAcceleration } from '../../../src-shared/sim/core/forces'
import { type GridSpec, MacGrid, ScalarField } from '../../../src-shared/sim/core/grid'

const spec: GridSpec = { nx: 4, ny: 5, nz: 3, dx: 0.1, origin: [0, 0, 0] }

describe('buoyancy', () => {
  it('lifts hot cells, sinks dense ones, on v faces only, averaging the two cells of a face', () => {
    const vel = new MacGrid(spec)
    const rho = new ScalarField(spec)
    const temp = new ScalarField(spec)
    temp.data.fill(300)
    // One hot cell and one dense cell.
    temp.data[temp.index(1, 2, 1)] = 310
    rho.data[rho.index(3, 1, 0)] = 2
    const params = { alpha: 0.5, beta: 0.2, ambientTemperature: 300 }
    addBuoyancy(vel, rho.data, temp.data, params, 0.1)
    expect(vel.u.every((x) => x === 0)).toBe(true)
    expect(vel.w.every((x) => x === 0)).toBe(true)
    // Faces below and above the hot cell each get half of beta * 10 K * dt.
    expect(vel.v[vel.vIndex(1, 2, 1)]).toBeCloseTo(0.5 * 0.2 * 10 * 0.1, 6)
    expect(vel.v[vel.vIndex(1, 3, 1)]).toBeCloseTo(0.1, 6)
    // Dense cell: -alpha * rho * dt shared the same way; the bottom border face takes the full
    // value of its one cell.
    expect(vel.v[vel.vIndex(3, 1, 0)]).toBeCloseTo(-0.5 * 0.5 * 2 * 0.1, 6)
    expect(vel.v[vel.vIndex(3, 2, 0)]).toBeCloseTo(-0.05, 6)
    rho.data.fill(0)
    rho.data[rho.index(0, 0, 2)] = 1
    const v2 = new MacGrid(spec)
    addBuoyancy(v2, rho.data, null, params, 1)
    expect(v2.v[v2.vIndex(0, 0, 2)]).toBeCloseTo(-0.5, 6)
    expect(v2.v[v2.vIndex(2, 2, 2)]).toBe(0)
  })

  it('adds a uniform acceleration (gravity) to every face', () => {
    const vel = new MacGrid(spec)
    addUniformAcceleration(vel, 0, -9.81, 0, 0.01)
    expect(vel.v.every((x) => Math.abs(x + 0.0981) < 1e-6)).toBe(true)
    expect(vel.u.every((x) => x === 0)).toBe(true)
  })
})
