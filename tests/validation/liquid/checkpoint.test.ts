// Bit-exact continuation and determinism of the liquid solver. The scene uses every piece of
// state: FLIP blend, temperature-dependent viscosity with the full stress, heat diffusion,
// cooling and a heat source, a liquid emitter (PRNG draws), a moving obstacle.
//
// Tolerance: none — restored runs and repeated runs must match bit for bit (every marker
// array and every frame volume).
import { describe, expect, it } from 'vitest'
import type { FrameData } from '../../../src-shared/sim/frame'
import { LiquidSolver } from '../../../src-shared/sim/liquid/liquidSolver'
import type { LiquidSimInput } from '../../../src-shared/sim/liquid/liquidInput'
import type { EmitterInput, ObstacleInput } from '../../../src-shared/sim/solver'
import { boxVolume, liquidInput, liquidSetup } from './liquidScenes'

const grid = { nx: 12, ny: 12, nz: 12, dx: 0.1, origin: [0, 0, 0] as [number, number, number] }
const setup = liquidSetup(grid, [boxVolume([0, 0, 0], [0.5, 0.6, 1.2], 340)], {
  flip: 0.5,
  viscosity: { model: 'temperature', meltingPoint: 330, transitionWidth: 10, ramp: 'quadratic', solid: 100, liquid: 1e-3 },
  viscousStress: 'full',
  wallSlip: 'no',
  heat: { diffusion: 1e-3, ambientTemperature: 300, coolingRate: 0.2 },
})

function paddle(f: number): ObstacleInput {
  const t = f / 24
  return {
    id: 'paddle',
    name: 'paddle',
    shape: 'box',
    position: [0.8, 0.3 + 0.2 * t, 0.6],
    rotation: [0, 0, 0],
    scale: [0.15, 0.3, 0.6],
    positionRate: [0, 0.2, 0],
    rotationRate: [0, 0, 0],
    scaleRate: [0, 0, 0],
    linearVelocity: [0, 0.2, 0],
    angularVelocity: [0, 0, 0],
    mesh: null,
    meshId: null,
  }
}

const tap: EmitterInput = {
  id: 'tap',
  name: 'tap',
  shape: 'sphere',
  position: [0.9, 1.0, 0.6],
  rotation: [0, 0, 0],
  scale: [0.2, 0.2, 0.2],
  fluid: 'liquid',
  density: 1,
  temperature: 360,
  velocity: [-0.5, -1, 0],
  rate: 30,
}

function input(f: number): LiquidSimInput {
  return liquidInput(f, {
    obstacles: [paddle(f)],
    emitters: [tap],
    family: { heatSources: [{ id: 'h', name: 'h', position: [0.2, 0.2, 0.6], radius: 0.3, temperature: 400, rate: 2 }] },
  })
}

function run(s: LiquidSolver, from: number, to: number): FrameData {
  for (let f = from; f < to; f++) {
    const inp = input(f)
    s.step(inp.frameDt, inp)
  }
  return s.frame()
}

function bits(a: Float32Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength)
}

function expectSameFrame(a: FrameData, b: FrameData): void {
  expect(a.time).toBe(b.time)
  expect(a.frame).toBe(b.frame)
  expect(a.particles[0].count).toBe(b.particles[0].count)
  expect(bits(a.particles[0].positions)).toEqual(bits(b.particles[0].positions))
  for (const key of Object.keys(a.particles[0].attributes)) {
    expect(bits(a.particles[0].attributes[key].data)).toEqual(bits(b.particles[0].attributes[key].data))
  }
  expect(a.volumes.length).toBe(b.volumes.length)
  for (let v = 0; v < a.volumes.length; v++) expect(bits(a.volumes[v].data)).toEqual(bits(b.volumes[v].data))
}

describe('liquid checkpoint and determinism', () => {
  it('restores bit for bit and continues identically', () => {
    const a = new LiquidSolver(setup)
    run(a, 0, 6)
    const bytes = a.checkpoint()
    const atCheckpoint = a.frame()
    // The density drift's last potential, its next solve's warm start (ghostFluid.ts).
    const driftOf = (s: LiquidSolver) => (s as unknown as { pressure: { qDrift: Float64Array } }).pressure.qDrift
    const drift = Float64Array.from(driftOf(a))
    expect(drift.some((v) => v !== 0)).toBe(true)
    const endA = run(a, 6, 12)
    const b = new LiquidSolver(setup)
    b.restore(bytes)
    expectSameFrame(b.frame(), { ...atCheckpoint, stats: {} })
    expect(new Uint8Array(driftOf(b).buffer, driftOf(b).byteOffset, driftOf(b).byteLength)).toEqual(new Uint8Array(drift.buffer))
    const endB = run(b, 6, 12)
    expectSameFrame(endA, endB)
    expect(endA.particles[0].count).toBeGreaterThan(atCheckpoint.particles[0].count) // the emitter ran
    console.log(`liquid checkpoint: ${bytes.length} bytes for ${atCheckpoint.particles[0].count} markers on 12^3`)
  })

  it('two runs of the same scene are identical', () => {
    const a = run(new LiquidSolver(setup), 0, 10)
    const b = run(new LiquidSolver(setup), 0, 10)
    expectSameFrame(a, b)
  })

  it('rejects a checkpoint from another grid or solver', () => {
    const other = new LiquidSolver({ ...setup, grid: { ...grid, nx: 10 } })
    const bytes = new LiquidSolver(setup).checkpoint()
    expect(() => other.restore(bytes)).toThrow(/does not match/)
    expect(() => other.restore(new Uint8Array(8))).toThrow(/not usable/)
  })
})
