// What the free-surface liquid solver (Carlson 2004, chapters 3, 4 and 6) is given: a setup
// fixed for the whole bake (grid, material, heat, initial volumes) and, per step, the
// ordinary SimInput (obstacles, emitters with fluid 'liquid', CFL, substep bounds) plus the
// keyframable liquid-only part (heat sources). Everything is checked here once, with
// INVALID_PARAM errors that name the field, so the kernels never see NaN or absurd values.
import { EddyError } from '../../api/errors'
import type { PrimitiveShape } from '../../geometry/primitiveSdf'
import type { SignedDistanceField } from '../../geometry/signedDistance'
import type { Vec3 } from '../../scene/types'
import type { DomainSides } from '../core/boundaries'
import { type GridSpec, validateGridSpec } from '../core/grid'
import type { KernelBackend } from '../core/kernelTypes'
import type { SimInput } from '../solver'
import { type RigidBodySetup, type RigidPoseInput, validateRigidBodySetup, validateRigidPose } from './rigidInput'

/** Largest kinematic viscosity accepted, m^2/s (Carlson's drip sand used 5e4, table 6). */
export const MAX_VISCOSITY = 1e5
/** Largest number of marker particles per cell accepted at seeding. */
export const MAX_PARTICLES_PER_CELL = 64
/** Rough bytes per cell of the liquid solver's grids (velocity x3, fractions, obstacle fields, solver vectors). */
export const LIQUID_BYTES_PER_CELL = 260

export type ViscosityRamp = 'linear' | 'quadratic'

/** Kinematic viscosity (m^2/s): one value, or a function of temperature (Carlson 2004, sec. 4.3). */
export type ViscosityModel =
  | { model: 'constant'; value: number }
  | {
      model: 'temperature'
      /** Melting point, K: the centre of the transition zone. */
      meltingPoint: number
      /** Width of the transition zone, K (> 0). */
      transitionWidth: number
      ramp: ViscosityRamp
      /** Viscosity below the zone (the solid), m^2/s. */
      solid: number
      /** Viscosity above the zone (the melt), m^2/s. */
      liquid: number
    }

/**
 * 'carlson': div(nu grad u) per component, Carlson 2004 eq. 57 with the geometric-mean edge
 * viscosities of eq. 58 (the thesis's simplified stress, sec. 4.3 footnote 3).
 * 'full': div(nu (grad u + grad u^T)), the full stress of eq. 59-60, discretised as the
 * variational form of Batty & Bridson 2008 (couples u, v, w).
 */
export type ViscousStress = 'carlson' | 'full'

/** How the viscous solve treats solid walls: no tangential stress, or the wall's velocity. */
export type WallSlip = 'free' | 'no'

export interface HeatSetup {
  /** Thermal diffusion constant k of eq. 50, m^2/s (>= 0). */
  diffusion: number
  /** Temperature the liquid relaxes to and emitted-nothing cells report, K. */
  ambientTemperature: number
  /** Newtonian cooling towards ambient, 1/s (>= 0): dT/dt = -rate (T - ambient). */
  coolingRate: number
}

/** A body of liquid present at the start: inside of a signed distance field. */
export interface LiquidVolumeInit {
  id: string
  name: string
  shape: PrimitiveShape | 'mesh'
  /** Transform (world = position + R(rotation) (scale .* local)), as for obstacles. */
  position: Vec3
  rotation: Vec3
  scale: Vec3
  /** Shape 'mesh': the closed mesh's signed distance in its local space (MeshSdf). */
  mesh: SignedDistanceField | null
  /** Initial temperature, K. */
  temperature: number
  /** Initial velocity, m/s. */
  velocity: Vec3
}

/** Velocity transfer between markers and grid: PIC/FLIP blend, or affine (APIC). */
export type VelocityTransfer = 'flip' | 'apic'

/**
 * The viscous solve's preconditioner (viscosity.ts): 'multigrid', Carlson's 'jacobi', 'ic'
 * (incomplete Cholesky of the coupled matrix) or 'auto' (the default), which picks among them
 * by the system (viscosity.ts's file comment).
 */
export type ViscousPreconditioner = 'auto' | 'multigrid' | 'jacobi' | 'ic'
export const VISCOUS_PRECONDITIONERS: readonly ViscousPreconditioner[] = ['auto', 'multigrid', 'jacobi', 'ic']

/**
 * The pressure solve's preconditioner (ghostFluid.ts, activePcg.ts): geometric 'multigrid'
 * (pressureMultigrid.ts), 'mic', modified incomplete Cholesky (Bridson 2015), or 'auto' (the
 * default): multigrid for systems of at least MULTIGRID_MIN_UNKNOWNS unknowns, MIC(0) below.
 */
export type PressurePreconditioner = 'auto' | 'multigrid' | 'mic'
export const PRESSURE_PRECONDITIONERS: readonly PressurePreconditioner[] = ['auto', 'multigrid', 'mic']

export interface LiquidSetup {
  domainId: string
  domainName: string
  grid: GridSpec
  sides: DomainSides
  /** m/s^2, world Y up. */
  gravity: Vec3
  /**
   * How velocity goes between markers and grid (transfer.ts): 'flip', the PIC/FLIP blend set
   * by `flip`; 'apic', the affine particle-in-cell method (Jiang et al. 2015), which keeps
   * rotation and conserves angular momentum (`flip` is then not used).
   */
  transfer: VelocityTransfer
  /** FLIP share of the particle velocity update: 0 = PIC only (the thesis's markers), 1 = pure FLIP. */
  flip: number
  /** Marker particles seeded per cell (Carlson 2004, sec. 3.2.3; 8 is typical). */
  particlesPerCell: number
  /**
   * Random offset of each seeded marker within its sub-cell (ppc = m^3): 1 = anywhere in the
   * sub-cell, 0 = a regular lattice. Random placement avoids grid-aligned artefacts; its
   * irregular surface sets a still pool moving by a few mm/s while it settles.
   */
  jitter: number
  /** Hard cap on live particles (emitters stop adding at the cap). */
  maxParticles: number
  /** PRNG seed of the particle jitter. */
  seed: number
  viscosity: ViscosityModel
  viscousStress: ViscousStress
  wallSlip: WallSlip
  heat: HeatSetup
  volumes: LiquidVolumeInit[]
  /** Rigid bodies coupled two ways with the liquid (Carlson 2004 ch. 5, rigidCoupling.ts). */
  rigidBodies?: RigidBodySetup[]
  pressure: { tolerance: number; maxIterations: number; preconditioner?: PressurePreconditioner }
  viscositySolve: { tolerance: number; maxIterations: number; preconditioner?: ViscousPreconditioner }
  /**
   * Where the kernels that have a kernel-table row run (the marker move, markerKernels.ts),
   * and so where the arrays they touch are allocated; default the TypeScript reference.
   */
  kernels?: KernelBackend
}

export interface HeatSourceInput {
  id: string
  name: string
  /** Centre, m. */
  position: Vec3
  /** Radius of the heated ball, m. */
  radius: number
  /** Temperature the liquid in the ball is pulled to, K. */
  temperature: number
  /** How fast, 1/s: each substep h blends by 1 - exp(-rate h). */
  rate: number
}

/** The keyframable, liquid-only part of a step's input. */
export interface LiquidTimeInput {
  heatSources: HeatSourceInput[]
  /** Keyed poses of the setup's rigid bodies at this time (one per body, by id). */
  rigidPoses?: RigidPoseInput[]
}

/** SimInput with the liquid part as its family payload; emitters with fluid 'liquid' emit (see liquidSolver.ts). */
export type LiquidSimInput = SimInput<LiquidTimeInput>

// ---------------------------------------------------------------------------------------

function invalid(field: string, message: string, value: unknown): never {
  throw new EddyError('INVALID_PARAM', `Liquid ${field} ${message}`, { field, value })
}

function finite(field: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) invalid(field, `must be a finite number, got ${String(v)}`, v)
  return v
}

function inRange(field: string, v: unknown, lo: number, hi: number, unit: string): number {
  const x = finite(field, v)
  if (x < lo || x > hi) invalid(field, `must be between ${lo} and ${hi} ${unit}, got ${x}`, v)
  return x
}

function vec3(field: string, v: unknown): Vec3 {
  if (!Array.isArray(v) || v.length !== 3) invalid(field, 'must be three numbers', v)
  for (let a = 0; a < 3; a++) finite(`${field}[${a}]`, (v as unknown[])[a])
  return v as Vec3
}

function temperature(field: string, v: unknown): number {
  const t = finite(field, v)
  if (t < 0) invalid(field, `must be an absolute temperature >= 0 K, got ${t}`, v)
  return t
}

function viscosityValue(field: string, v: unknown): number {
  return inRange(field, v, 0, MAX_VISCOSITY, 'm^2/s (kinematic viscosity)')
}

function solveSettings(field: string, s: { tolerance: number; maxIterations: number } | undefined): void {
  if (typeof s !== 'object' || s === null) invalid(field, 'must be given', s)
  inRange(`${field}.tolerance`, s.tolerance, 1e-12, 0.1, '(relative residual)')
  const it = s.maxIterations
  if (typeof it !== 'number' || !Number.isInteger(it) || it < 1 || it > 100000) invalid(`${field}.maxIterations`, `must be a whole number from 1 to 100000, got ${String(it)}`, it)
}

/** Throws INVALID_PARAM naming the first bad field of the setup. */
export function validateLiquidSetup(setup: LiquidSetup, maxBytes?: number): void {
  if (typeof setup !== 'object' || setup === null) invalid('setup', 'must be an object', setup)
  validateGridSpec(setup.grid, maxBytes, LIQUID_BYTES_PER_CELL)
  const { nx, ny, nz } = setup.grid
  if (Math.min(nx, ny, nz) < 3) invalid('grid', `needs at least 3 cells along every axis, got ${nx}x${ny}x${nz}`, [nx, ny, nz])
  vec3('gravity', setup.gravity)
  if (setup.transfer !== 'flip' && setup.transfer !== 'apic') invalid('transfer', `must be "flip" or "apic", got ${String(setup.transfer)}`, setup.transfer)
  inRange('flip', setup.flip, 0, 1, '(0 = PIC, 1 = FLIP)')
  const ppc = setup.particlesPerCell
  if (typeof ppc !== 'number' || !Number.isInteger(ppc) || ppc < 1 || ppc > MAX_PARTICLES_PER_CELL) {
    invalid('particlesPerCell', `must be a whole number from 1 to ${MAX_PARTICLES_PER_CELL}, got ${String(ppc)}`, ppc)
  }
  inRange('jitter', setup.jitter, 0, 1, '(0 = regular lattice, 1 = anywhere in the sub-cell)')
  const mp = setup.maxParticles
  if (typeof mp !== 'number' || !Number.isInteger(mp) || mp < 1 || mp > 2 ** 28) invalid('maxParticles', `must be a whole number from 1 to ${2 ** 28}, got ${String(mp)}`, mp)
  if (typeof setup.seed !== 'number' || !Number.isInteger(setup.seed)) invalid('seed', `must be a whole number, got ${String(setup.seed)}`, setup.seed)
  const v = setup.viscosity
  if (typeof v !== 'object' || v === null) invalid('viscosity', 'must be given', v)
  if (v.model === 'constant') viscosityValue('viscosity.value', v.value)
  else if (v.model === 'temperature') {
    temperature('viscosity.meltingPoint', v.meltingPoint)
    const w = finite('viscosity.transitionWidth', v.transitionWidth)
    if (!(w > 0)) invalid('viscosity.transitionWidth', `must be above 0 K, got ${w}`, w)
    if (v.ramp !== 'linear' && v.ramp !== 'quadratic') invalid('viscosity.ramp', `must be "linear" or "quadratic", got ${String(v.ramp)}`, v.ramp)
    viscosityValue('viscosity.solid', v.solid)
    viscosityValue('viscosity.liquid', v.liquid)
  } else invalid('viscosity.model', `must be "constant" or "temperature", got ${String((v as { model: unknown }).model)}`, (v as { model: unknown }).model)
  if (setup.viscousStress !== 'carlson' && setup.viscousStress !== 'full') invalid('viscousStress', `must be "carlson" or "full", got ${String(setup.viscousStress)}`, setup.viscousStress)
  if (setup.wallSlip !== 'free' && setup.wallSlip !== 'no') invalid('wallSlip', `must be "free" or "no", got ${String(setup.wallSlip)}`, setup.wallSlip)
  const h = setup.heat
  if (typeof h !== 'object' || h === null) invalid('heat', 'must be given', h)
  inRange('heat.diffusion', h.diffusion, 0, 1e3, 'm^2/s')
  temperature('heat.ambientTemperature', h.ambientTemperature)
  inRange('heat.coolingRate', h.coolingRate, 0, 1e6, '1/s')
  solveSettings('pressure', setup.pressure)
  solveSettings('viscositySolve', setup.viscositySolve)
  const pp = setup.pressure.preconditioner
  if (pp !== undefined && !PRESSURE_PRECONDITIONERS.includes(pp)) invalid('pressure.preconditioner', `must be ${PRESSURE_PRECONDITIONERS.join(', ')}, got ${String(pp)}`, pp)
  const pre = setup.viscositySolve.preconditioner
  if (pre !== undefined && !VISCOUS_PRECONDITIONERS.includes(pre)) invalid('viscositySolve.preconditioner', `must be ${VISCOUS_PRECONDITIONERS.join(', ')}, got ${String(pre)}`, pre)
  if (!Array.isArray(setup.volumes)) invalid('volumes', 'must be a list', setup.volumes)
  for (let i = 0; i < setup.volumes.length; i++) {
    const b = setup.volumes[i]
    const f = `volumes[${i}] ("${String(b?.name)}")`
    if (b.shape !== 'box' && b.shape !== 'sphere' && b.shape !== 'cylinder' && b.shape !== 'mesh') invalid(`${f}.shape`, `must be box, sphere, cylinder or mesh, got ${String(b.shape)}`, b.shape)
    if (b.shape === 'mesh' && !b.mesh) invalid(`${f}.mesh`, 'is missing (shape "mesh" needs a closed mesh)', null)
    vec3(`${f}.position`, b.position)
    vec3(`${f}.rotation`, b.rotation)
    const s = vec3(`${f}.scale`, b.scale)
    if (!(s[0] > 0 && s[1] > 0 && s[2] > 0)) invalid(`${f}.scale`, 'must be above 0 on every axis', s)
    temperature(`${f}.temperature`, b.temperature)
    vec3(`${f}.velocity`, b.velocity)
  }
  if (setup.rigidBodies !== undefined) {
    if (!Array.isArray(setup.rigidBodies)) invalid('rigidBodies', 'must be a list', setup.rigidBodies)
    setup.rigidBodies.forEach(validateRigidBodySetup)
  }
}

/** Throws INVALID_PARAM naming the first bad field of a step's input (the liquid-relevant part). */
export function validateLiquidInput(input: LiquidSimInput): void {
  if (typeof input !== 'object' || input === null) invalid('input', 'must be an object', input)
  inRange('input.cfl', input.cfl, 1e-3, 100, 'cells per substep')
  const lo = input.minSubsteps, hi = input.maxSubsteps
  if (!Number.isInteger(lo) || lo < 1) invalid('input.minSubsteps', `must be a whole number >= 1, got ${String(lo)}`, lo)
  if (!Number.isInteger(hi) || hi < lo || hi > 10000) invalid('input.maxSubsteps', `must be a whole number from minSubsteps to 10000, got ${String(hi)}`, hi)
  if (typeof input.family !== 'object' || input.family === null || !Array.isArray(input.family.heatSources)) invalid('input.family.heatSources', 'must be a list', input.family)
  for (let i = 0; i < input.family.heatSources.length; i++) {
    const s = input.family.heatSources[i]
    const f = `heatSources[${i}] ("${String(s?.name)}")`
    vec3(`${f}.position`, s.position)
    const r = finite(`${f}.radius`, s.radius)
    if (!(r > 0)) invalid(`${f}.radius`, `must be above 0 m, got ${r}`, r)
    temperature(`${f}.temperature`, s.temperature)
    inRange(`${f}.rate`, s.rate, 0, 1e6, '1/s')
  }
  const poses = input.family.rigidPoses
  if (poses !== undefined) {
    if (!Array.isArray(poses)) invalid('input.family.rigidPoses', 'must be a list', poses)
    poses.forEach(validateRigidPose)
  }
  for (let i = 0; i < input.emitters.length; i++) {
    const e = input.emitters[i]
    if (e.fluid !== 'liquid') continue
    const f = `emitters[${i}] ("${e.name}")`
    vec3(`${f}.position`, e.position)
    vec3(`${f}.rotation`, e.rotation)
    const s = vec3(`${f}.scale`, e.scale)
    if (!(s[0] > 0 && s[1] > 0 && s[2] > 0)) invalid(`${f}.scale`, 'must be above 0 on every axis', s)
    vec3(`${f}.velocity`, e.velocity)
    temperature(`${f}.temperature`, e.temperature)
    inRange(`${f}.rate`, e.rate, 0, 1e6, 'refills per second')
  }
}

/** A setup with the thesis's defaults (PIC markers, 8 per cell, water-like, Carlson's stress), for tests and tools. */
export function defaultLiquidSetup(grid: GridSpec, sides: DomainSides, overrides: Partial<LiquidSetup> = {}): LiquidSetup {
  return {
    domainId: 'liquid',
    domainName: 'Liquid',
    grid,
    sides,
    gravity: [0, -9.81, 0],
    transfer: 'flip',
    flip: 0,
    particlesPerCell: 8,
    jitter: 1,
    maxParticles: 4_000_000,
    seed: 1,
    viscosity: { model: 'constant', value: 0 },
    viscousStress: 'carlson',
    wallSlip: 'free',
    heat: { diffusion: 0, ambientTemperature: 293.15, coolingRate: 0 },
    volumes: [],
    pressure: { tolerance: 1e-6, maxIterations: 1000 },
    viscositySolve: { tolerance: 1e-6, maxIterations: 2000 },
    ...overrides,
  }
}
