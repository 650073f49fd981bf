// Small liquid scenes and measurements shared by the liquid validation tests. The solver is
// driven directly, with a hand-made input, so a test places exactly the volumes it needs.
import { expect } from 'vitest'
import { defaultParams } from '../../../src-shared/scene/defaults'
import { CLOSED_BOX } from '../../../src-shared/sim/core/boundaries'
import type { GridSpec } from '../../../src-shared/sim/core/grid'
import { defaultLiquidSetup, type LiquidSetup, type LiquidSimInput, type LiquidVolumeInit } from '../../../src-shared/sim/liquid/liquidInput'
import { LiquidSolver } from '../../../src-shared/sim/liquid/liquidSolver'
import type { Vec3 } from '../../../src-shared/scene/types'
import type { SignedDistanceField } from '../../../src-shared/geometry/signedDistance'
import { wasmKernels } from '../bakeKernels'

export const FPS = 24

/** A cube of side `size` m with `res` cells per side, minimum corner at the origin. */
export function cubeGrid(res: number, size = 1, ny = res, nz = res): GridSpec {
  return { nx: res, ny, nz, dx: size / res, origin: [0, 0, 0] }
}

/** A box of liquid from min to max corner (world), at temperature t. */
export function boxVolume(min: Vec3, max: Vec3, temperature = 293.15, velocity: Vec3 = [0, 0, 0]): LiquidVolumeInit {
  return {
    id: `box${min.join('_')}`,
    name: 'box',
    shape: 'box',
    position: [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2],
    rotation: [0, 0, 0],
    scale: [max[0] - min[0], max[1] - min[1], max[2] - min[2]],
    mesh: null,
    temperature,
    velocity,
  }
}

/**
 * A layer of liquid filling the domain up to the height surface y = top(x, z) (world), at
 * temperature t: a 'mesh' volume whose field is the vertical gap (y - top) / sqrt(1 + |grad
 * top|^2), the first-order distance to the surface (exact sign, 1-Lipschitz for gentle
 * slopes). The domain's walls bound it sideways and below.
 */
export function layerVolume(top: (x: number, z: number) => number, temperature = 293.15): LiquidVolumeInit {
  const e = 1e-4
  const field: SignedDistanceField = {
    distance(x: number, y: number, z: number): number {
      const h = top(x, z)
      const gx = (top(x + e, z) - top(x - e, z)) / (2 * e)
      const gz = (top(x, z + e) - top(x, z - e)) / (2 * e)
      return (y - h) / Math.sqrt(1 + gx * gx + gz * gz)
    },
  }
  return { id: 'layer', name: 'layer', shape: 'mesh', position: [0, 0, 0], rotation: [0, 0, 0], scale: [1, 1, 1], mesh: field, temperature, velocity: [0, 0, 0] }
}

/** A closed box's setup on single-threaded WebAssembly kernels, as a bake runs them (../bakeKernels.ts). */
export function liquidSetup(grid: GridSpec, volumes: LiquidVolumeInit[], overrides: Partial<LiquidSetup> = {}): LiquidSetup {
  return defaultLiquidSetup(grid, CLOSED_BOX, { volumes, kernels: wasmKernels().kernels, ...overrides })
}

/** The input of frame f (frame index f covers t = f / fps). */
export function liquidInput(f: number, extra: Partial<LiquidSimInput> = {}): LiquidSimInput {
  return {
    time: f / FPS,
    frame: f + 1,
    fps: FPS,
    timeScale: 1,
    frameDt: 1 / FPS,
    cfl: 1,
    minSubsteps: 1,
    maxSubsteps: 40,
    obstacles: [],
    emitters: [],
    family: { heatSources: [] },
    ...extra,
  }
}

export interface LiquidRun {
  solver: LiquidSolver
  /** Wall-clock ms per frame (figures only). */
  msPerFrame: number
}

/** Runs frames [from, from + count) on solver (new one from setup if not given). */
export function runLiquid(setup: LiquidSetup, count: number, solver?: LiquidSolver, from = 0, input: (f: number) => LiquidSimInput = (f) => liquidInput(f)): LiquidRun {
  const s = solver ?? new LiquidSolver(setup)
  const t0 = performance.now()
  for (let f = from; f < from + count; f++) {
    const inp = input(f)
    s.step(inp.frameDt, inp)
  }
  return { solver: s, msPerFrame: (performance.now() - t0) / Math.max(1, count) }
}

/** Highest marker y, m. */
export function topOfLiquid(s: LiquidSolver): number {
  const p = s.particles
  let m = -Infinity
  for (let q = 0; q < p.count; q++) m = Math.max(m, p.py[q])
  return m
}

/** Mean of the top 2% of marker heights (robust against a single splashing marker), m. */
export function surfaceHeight(s: LiquidSolver): number {
  const p = s.particles
  const ys = Array.from(p.py.subarray(0, p.count)).sort((a, b) => b - a)
  const n = Math.max(1, Math.floor(ys.length * 0.02))
  let sum = 0
  for (let q = 0; q < n; q++) sum += ys[q]
  return sum / n
}

/** Largest |u| of the markers, m/s. */
export function maxParticleSpeed(s: LiquidSolver): number {
  const p = s.particles
  let m = 0
  for (let q = 0; q < p.count; q++) m = Math.max(m, Math.hypot(p.vx[q], p.vy[q], p.vz[q]))
  return m
}

/** Largest |u| on faces touching a liquid cell, m/s. */
export function maxLiquidFaceSpeed(s: LiquidSolver): number {
  const { nx, ny, nz } = s.setup.grid
  const { u, v, w } = s.velocity
  const kind = s.kind
  const liquid = (i: number, j: number, k: number) => i >= 0 && j >= 0 && k >= 0 && i < nx && j < ny && k < nz && kind[i + nx * (j + ny * k)] === 1
  let m = 0
  for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i <= nx; i++) if (liquid(i - 1, j, k) || liquid(i, j, k)) m = Math.max(m, Math.abs(u[i + (nx + 1) * (j + ny * k)]))
  for (let k = 0; k < nz; k++) for (let j = 0; j <= ny; j++) for (let i = 0; i < nx; i++) if (liquid(i, j - 1, k) || liquid(i, j, k)) m = Math.max(m, Math.abs(v[i + nx * (j + (ny + 1) * k)]))
  for (let k = 0; k <= nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) if (liquid(i, j, k - 1) || liquid(i, j, k)) m = Math.max(m, Math.abs(w[i + nx * (j + ny * k)]))
  return m
}

/** Number of liquid cells of the last substep. */
export function liquidCellCount(s: LiquidSolver): number {
  let n = 0
  for (let c = 0; c < s.kind.length; c++) if (s.kind[c] === 1) n++
  return n
}

/** The liquid settings and substep limits a new domain gets in the app (the specs' defaults). */
export function appDefaults(): { setup: Partial<LiquidSetup>; input: Partial<LiquidSimInput> } {
  const d = defaultParams('domain')
  const num = (key: string): number => {
    expect(typeof d[key], `domain default ${key}`).toBe('number')
    return d[key] as number
  }
  const str = (key: string): string => {
    expect(typeof d[key], `domain default ${key}`).toBe('string')
    return d[key] as string
  }
  const tolerance = num('liquidTolerance')
  return {
    setup: {
      transfer: str('velocityTransfer') === 'apic' ? 'apic' : 'flip',
      flip: num('flip'),
      particlesPerCell: num('particlesPerCell'),
      jitter: 1,
      viscosity: { model: 'constant', value: num('viscosity') },
      viscousStress: str('viscousStress') === 'full' ? 'full' : 'carlson',
      wallSlip: str('wallSlip') === 'free' ? 'free' : 'no',
      pressure: { tolerance, maxIterations: 2000 },
      viscositySolve: { tolerance, maxIterations: 4000 },
    },
    input: { cfl: num('cfl'), minSubsteps: num('minSubsteps'), maxSubsteps: num('maxSubsteps') },
  }
}
