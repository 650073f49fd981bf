import { describe, expect, it } from 'vitest'
import {
  CLOSED_BOX,
  computeFaceFractions,
  enforceSolidVelocity,
  solidFractionFromSdf,
  writeRigidObstacleVelocity,
} from '../../../src-shared/sim/core/boundaries'
import { type GridSpec, MacGrid } from '../../../src-shared/sim/core/grid'

const spec: GridSpec = { nx: 4, ny: 3, nz: 2, dx: 1, origin: [0, 0, 0] }
const cell = (i: number, j: number, k: number) => i + 4 * (j + 3 * k)

describe('solid fraction from a signed distance', () => {
  it('is 1/2 on the surface, 0 and 1 beyond half a cell diagonal, linear between', () => {
    const phi = new Float32Array([0, 0.9, -0.9, 0.3, -Math.sqrt(3) / 4])
    const out = new Float32Array(5)
    solidFractionFromSdf(phi, 1, out)
    expect(out[0]).toBeCloseTo(0.5, 6)
    expect(out[1]).toBe(0)
    expect(out[2]).toBe(1)
    expect(out[3]).toBeCloseTo(0.5 - 0.3 / Math.sqrt(3), 6)
    expect(out[4]).toBeCloseTo(0.75, 6)
  })
})

describe('face open fractions', () => {
  it('closes every domain face of a closed box and opens the interior', () => {
    const f = new MacGrid(spec)
    computeFaceFractions(null, CLOSED_BOX, f)
    for (let k = 0; k < 2; k++)
      for (let j = 0; j < 3; j++) {
        expect(f.u[f.uIndex(0, j, k)]).toBe(0)
        expect(f.u[f.uIndex(4, j, k)]).toBe(0)
        expect(f.u[f.uIndex(2, j, k)]).toBe(1)
      }
    expect(f.v[f.vIndex(1, 0, 0)]).toBe(0)
    expect(f.v[f.vIndex(1, 3, 1)]).toBe(0)
    expect(f.w[f.wIndex(2, 1, 0)]).toBe(0)
    expect(f.w[f.wIndex(2, 1, 2)]).toBe(0)
    expect(f.w[f.wIndex(2, 1, 1)]).toBe(1)
  })

  it('opens only the sides asked for, and uses 1 - max(solid) across a face', () => {
    const solid = new Float32Array(24)
    solid[cell(1, 1, 0)] = 1
    solid[cell(2, 1, 0)] = 0.25
    solid[cell(0, 2, 1)] = 0.5
    const f = new MacGrid(spec)
    computeFaceFractions(solid, { ...CLOSED_BOX, yMax: 'open', xMin: 'open' }, f)
    expect(f.u[f.uIndex(1, 1, 0)]).toBe(0) // next to a full solid
    expect(f.u[f.uIndex(2, 1, 0)]).toBe(0)
    expect(f.u[f.uIndex(3, 1, 0)]).toBe(0.75)
    expect(f.v[f.vIndex(2, 1, 0)]).toBe(0.75)
    // Open sides: 1 - solid of the inside cell; closed sides 0.
    expect(f.u[f.uIndex(0, 2, 1)]).toBe(0.5)
    expect(f.u[f.uIndex(0, 0, 0)]).toBe(1)
    expect(f.u[f.uIndex(4, 0, 0)]).toBe(0)
    expect(f.v[f.vIndex(0, 3, 1)]).toBe(0.5)
    expect(f.v[f.vIndex(3, 3, 1)]).toBe(1)
    expect(f.v[f.vIndex(3, 0, 1)]).toBe(0)
  })

  it('uses the inside cell on every open side', () => {
    const solid = new Float32Array(24)
    solid[cell(3, 2, 1)] = 0.5 // the max corner
    solid[cell(0, 0, 0)] = 0.25 // the min corner
    const f = new MacGrid(spec)
    const open = { xMin: 'open', xMax: 'open', yMin: 'open', yMax: 'open', zMin: 'open', zMax: 'open' } as const
    computeFaceFractions(solid, open, f)
    expect([f.u[f.uIndex(4, 2, 1)], f.v[f.vIndex(3, 3, 1)], f.w[f.wIndex(3, 2, 2)]]).toEqual([0.5, 0.5, 0.5])
    expect([f.u[f.uIndex(0, 0, 0)], f.v[f.vIndex(0, 0, 0)], f.w[f.wIndex(0, 0, 0)]]).toEqual([0.75, 0.75, 0.75])
    expect([f.u[f.uIndex(4, 0, 0)], f.v[f.vIndex(0, 3, 0)], f.w[f.wIndex(0, 0, 2)]]).toEqual([1, 1, 1])
  })

  it('treats a Uint8 mask as 0/1 solid', () => {
    const mask = new Uint8Array(24)
    mask[cell(2, 1, 1)] = 255
    const f = new MacGrid(spec)
    computeFaceFractions(mask, CLOSED_BOX, f)
    expect(f.w[f.wIndex(2, 1, 1)]).toBe(0)
    expect(f.u[f.uIndex(3, 1, 1)]).toBe(0)
    expect(f.u[f.uIndex(3, 0, 1)]).toBe(1)
  })
})

describe('solid velocity', () => {
  it('sets closed faces to the obstacle velocity and leaves open ones alone', () => {
    const solid = new Float32Array(24)
    solid[cell(1, 1, 0)] = 1
    const f = new MacGrid(spec)
    computeFaceFractions(solid, CLOSED_BOX, f)
    const obs = new MacGrid(spec)
    // Spinning about the z axis through the solid cell's centre, and moving up.
    writeRigidObstacleVelocity(obs, solid, [1.5, 1.5, 0.5], [0, 2, 0], [0, 0, 1])
    // Left face of the solid cell, at (1, 1.5, 0.5): v + w x r = (0, 2, 0) + (0, 0, 1) x (-0.5, 0, 0) = (0, 1.5, 0).
    expect(obs.u[obs.uIndex(1, 1, 0)]).toBeCloseTo(0, 6)
    expect(obs.v[obs.vIndex(1, 1, 0)]).toBeCloseTo(2, 6) // bottom face at (1.5, 1, 0.5): omega x r = (0.5, 0, 0)
    expect(obs.u[obs.uIndex(1, 0, 0)]).toBe(0) // not next to the solid: untouched
    const vel = new MacGrid(spec)
    vel.fill(7)
    enforceSolidVelocity(vel, f, obs)
    expect(vel.v[vel.vIndex(1, 1, 0)]).toBeCloseTo(2, 6)
    expect(vel.v[vel.vIndex(1, 2, 0)]).toBeCloseTo(2, 6)
    expect(vel.u[vel.uIndex(0, 0, 0)]).toBe(0) // closed domain wall
    expect(vel.u[vel.uIndex(2, 0, 0)]).toBe(7) // open interior face
    const still = new MacGrid(spec)
    still.fill(3)
    enforceSolidVelocity(still, f)
    expect(still.v[still.vIndex(1, 1, 0)]).toBe(0)
  })
})
