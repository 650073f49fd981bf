// Smoke with vortex particles: Selle, Rasmussen, Fedkiw 2005, "A vortex particle method for
// smoke, water and explosions". The grid solves the inviscid, incompressible Euler equations
// (Selle 2005, eqs. 1-2 with mu = 0) as in Fedkiw, Stam, Jensen 2001; vortex particles carry
// vorticity through the flow (eq. 3 without the viscous and curl f terms, sec. 4) and feed it
// back to the grid through a vorticity-confinement style body force f in eq. 1 (sec. 5).
//
// One substep h (a frame is split into CFL substeps between min and max substeps):
//   1. emitters refill density, temperature and inflow velocity; emitters seed particles
//   2. advect density, temperature, then velocity (semi-Lagrangian or MacCormack; the velocity
//      by advection-reflection by default, with a projection half way: reflectedAdvection)
//   3. forces: buoyancy, dissipation, grid vorticity confinement, vortex particle forces
//   4. obstacles placed at the end of the substep; closed faces take their velocity
//   5. pressure projection (PCG, multigrid or MIC(0))
//   6. particles: advect (RK2), stretch, delete those outside or inside obstacles
//   7. stability guard: NaN/Inf or a velocity no substep count could follow throws
// Substeps are sized by the CFL number and, if the artist sets one, by the 'Max rotation per
// substep' angle (plain advect-then-project keeps cos(angle) of a rotating flow's speed per
// substep; TURN_RATE in vortexKernels.ts).
// Everything is deterministic (no Math.random, no clocks in the numbers) and the state is
// fully checkpointable, so a restored bake continues bit for bit.
import { EddyError } from '../../api/errors'
import { PrimitiveSdf } from '../../geometry/primitiveSdf'
import { type AdvectOptions, Advector, SOLID_THRESHOLD } from '../core/advect'
import { enforceSolidVelocity, openFlags } from '../core/boundaries'
import { amountLeaving, ScalarBudget } from '../core/scalarBudget'
import { allocF32With, type AllocOptions, MacGrid } from '../core/grid'
import { type KernelBackend, kernelsOf } from '../core/kernelBackend'
import { PressureSolver } from '../core/pressure'
import type { SolveStats } from '../core/pcg'
import { VorticityConfinement } from '../core/vorticity'
import type { SmokeSetup } from './compileSmoke'
import type { FrameData, ParticleSet, Volume } from '../frame'
import { cancelledError, emptyStepStats, phaseStats, type FrameOptions, type Solver, type StepControl, type StepStats } from '../solver'
import { FrameBuffers, frameArray, frameCopy } from '../frameBuffers'
import { runSubsteps } from '../substeps'
import type { SmokeSimInput } from './smokeInput'
import { readCheckpoint, writeCheckpoint } from '../core/checkpoint'
import { emitFaces, emitScalars, sampleBox } from './emitters'
import { ObstacleField } from '../core/obstacleField'
import { SolidBorder } from '../core/solidBorder'
import { selleKernel, VortexParticles } from '../core/vortexParticles'
import { Prng } from '../core/prng'
import { seedFromEmitter, seedVortexBall } from '../core/vortexSeeding'
import { advectParticlesSlab, markLostParticles, stretchParticles, TURN_RATE } from './vortexKernels'
import { largestPartial } from '../core/vectorOps'
import { lerp3 } from '../core/interpolate'
import { now } from '../wallClock'
import { SMOKE_GUARD } from './guardKernels'

const CHECKPOINT_KIND = 'smoke'

/** Milliseconds from the host's monotonic clock (stats only; never feeds the numbers). */

/** Velocity beyond maxSubsteps * cfl * dx / dt times this is unstable (see guard()). */
export const INSTABILITY_FACTOR = 2

interface EmitterState {
  sdf: PrimitiveSdf
  key: string
  cellBox: Int32Array
  faceBoxes: [Int32Array, Int32Array, Int32Array]
  inside: [boolean, boolean, boolean, boolean]
  /** Unit local Y axis in world space (the cylinder axis of seeding). */
  axis: Float64Array
}

/** Relative residual of advection-reflection's half-step projection (reflectedAdvection). */
export const HALF_STEP_TOLERANCE = 1e-3

/** Timing phases of a substep, in the order it runs them (StepStats.ms). */
export const SMOKE_PHASES = ['advection', 'forces', 'vortexParticles', 'projection'] as const

function emptyStats(): StepStats {
  return emptyStepStats(SMOKE_PHASES)
}

export class SmokeSolver implements Solver<SmokeSimInput> {
  readonly setup: SmokeSetup
  /** MAC velocity, m/s. */
  readonly velocity: MacGrid
  /** Smoke density per cell. */
  readonly density: Float32Array
  /** Absolute temperature per cell, K. */
  readonly temperature: Float32Array
  readonly obstacles: ObstacleField
  readonly particles: VortexParticles
  readonly pressure: PressureSolver
  private readonly velTmp: MacGrid
  /** Advection-reflection's projected half-step velocity (setup.reflection), on first use. */
  private velHalf: MacGrid | null = null
  /**
   * The half step's projection's own warm start and solution (reflectedAdvection): its
   * right-hand side is the divergence half a step of self-advection makes, the substep's is what
   * the reflected half, the forces and the obstacles' motion leave, so each starts from its own
   * last answer rather than from the other's (on the Blender scene at 64^3 over 48 frames, 9.0
   * -> 8.2 iterations a substep). State, like phi: checkpointed.
   */
  private halfPhi: Float64Array | null = null
  private readonly scalarTmp: Float32Array
  private readonly scalarTmp2: Float32Array
  private readonly advector: Advector
  private readonly confinement: VorticityConfinement
  /** Spatially varying confinement strength ('strength' mode). */
  private readonly epsField: Float32Array
  private readonly prng: Prng
  private readonly kernels: KernelBackend
  private readonly emitterStates = new Map<string, EmitterState>()
  private readonly seeded = new Set<string>()
  private readonly scratch = new Float64Array(96)
  /** The obstacle cells the density and temperature are extended into before advection. */
  private readonly solidBorder = new SolidBorder()
  /** Keeps the smoke and heat through advection, less what leaves through open sides (scalarBudget.ts). */
  private readonly budget: ScalarBudget
  /** What the last advection carried out through open sides: smoke, heat (amountLeaving). */
  private readonly left = new Float64Array(2)
  private _time = 0
  private animFrame = 1
  private initialised = false
  private lastStats: StepStats = emptyStats()
  /** The arrays frame({ transient: true }) hands out, kept between frames. */
  private readonly frameBuffers = new FrameBuffers()

  constructor(setup: SmokeSetup) {
    this.setup = setup
    const { grid, shared } = setup
    const n = grid.nx * grid.ny * grid.nz
    this.kernels = kernelsOf({ kernels: setup.kernels, shared })
    this.budget = new ScalarBudget(this.kernels)
    // Everything a grid kernel touches comes from the backend's allocator.
    const alloc: AllocOptions = { shared, kernels: this.kernels }
    this.velocity = new MacGrid(grid, alloc)
    this.velTmp = new MacGrid(grid, alloc)
    this.density = allocF32With(n, alloc)
    this.temperature = allocF32With(n, alloc)
    this.scalarTmp = allocF32With(n, alloc)
    this.scalarTmp2 = allocF32With(n, alloc)
    this.epsField = allocF32With(n, alloc)
    this.obstacles = new ObstacleField(grid, setup.sides, alloc)
    this.advector = new Advector(grid, alloc)
    this.confinement = new VorticityConfinement(grid, alloc)
    this.pressure = new PressureSolver(grid, {
      preconditioner: setup.pressure.preconditioner,
      tolerance: setup.pressure.tolerance,
      maxIterations: setup.pressure.maxIterations,
      ...alloc,
    })
    this.particles = new VortexParticles(setup.maxParticles)
    this.prng = new Prng(setup.seed)
  }

  get time(): number {
    return this._time
  }

  /** Adds one vortex particle (omega in m^3/s, radius in m); false when the cap is reached. */
  addVortexParticle(x: number, y: number, z: number, wx: number, wy: number, wz: number, radius: number): boolean {
    return this.particles.add(x, y, z, wx, wy, wz, radius)
  }

  step(dt: number, input: SmokeSimInput, control?: StepControl): StepStats {
    if (typeof dt !== 'number' || !Number.isFinite(dt) || dt < 0) {
      throw new EddyError('INVALID_PARAM', `Time step must be a finite number of seconds >= 0 (got ${dt})`, { field: 'dt', value: dt })
    }
    const stats = emptyStats()
    if (!this.initialised) {
      this.temperature.fill(Math.fround(input.family.buoyancy.ambientTemperature))
      this.initialised = true
    }
    this.prepareEmitters(input)
    this.obstacles.update(input.obstacles, 0)
    this.seedVortexObjects(input)
    // The guard measures max |u| after every substep; the first substep measures it here.
    let measured = this.scanGuard().speed
    const maxAngle = input.family.maxRotation
    const turn = maxAngle > 0 ? { maxAngle, rate: () => this.turnRate() } : undefined
    runSubsteps(
      dt,
      input,
      this.setup.grid.dx,
      this._time,
      {
        reach: 0,
        speed: (offset) => {
          let umax = measured
          if (!(umax === umax)) this.unstable(offset, 'the velocity holds NaN')
          for (const e of input.emitters) {
            if (e.fluid === 'gas' && e.rate > 0) umax = Math.max(umax, Math.abs(e.velocity[0]), Math.abs(e.velocity[1]), Math.abs(e.velocity[2]))
          }
          return umax
        },
        substep: (h, offset) => this.substep(h, offset, input, stats, control),
        guard: (end) => {
          measured = this.guard(end, dt, input)
        },
        ...(turn ? { turn } : {}),
      },
      stats,
      control,
    )
    this._time += dt
    if (input.frameDt > 0) this.animFrame = input.frame + dt / input.frameDt
    stats.particleCount = this.particles.count
    this.lastStats = stats
    return stats
  }

  /** Largest rate (rad/s) at which the current flow turns its velocity (TURN_RATE per plane on the kernels, then the largest plane). */
  turnRate(): number {
    const { nx, ny, nz, dx } = this.setup.grid
    const v = this.velocity
    this.turnPartial ??= this.kernels.f64(nz)
    this.kernels.run(TURN_RATE, v.u, v.v, v.w, nx, ny, nz, dx, this.turnPartial)
    return largestPartial(this.turnPartial, nz)
  }

  /** Per-plane turn rates of turnRate(). */
  private turnPartial: Float64Array | null = null

  private unstable(offset: number, reason: string): never {
    const time = this._time + offset
    throw new EddyError(
      'SIM_UNSTABLE',
      `Simulation became unstable at t=${time.toFixed(4)} s: ${reason}; lower the time step / raise max substeps`,
      { time, reason },
    )
  }

  /**
   * NaN/Inf anywhere, or a speed no allowed substep count could follow (more than
   * INSTABILITY_FACTOR * maxSubsteps * cfl cells per frame), ends the bake with a typed error
   * instead of caching garbage. Returns max |u| (the next substep's CFL needs it).
   */
  private guard(offset: number, dt: number, input: SmokeSimInput): number {
    const { dx } = this.setup.grid
    const { speed: umax, scalarsFinite } = this.scanGuard()
    if (!(umax === umax)) this.unstable(offset, 'the velocity holds NaN')
    const bound = (INSTABILITY_FACTOR * input.maxSubsteps * input.cfl * dx) / dt
    if (!(umax <= bound)) this.unstable(offset, `speed ${umax.toPrecision(3)} m/s exceeds ${bound.toPrecision(3)} m/s (${INSTABILITY_FACTOR}x what ${input.maxSubsteps} substeps of CFL ${input.cfl} can follow)`)
    if (!scalarsFinite) this.unstable(offset, 'density or temperature holds NaN or Infinity')
    return umax
  }

  /** Per-plane results of SMOKE_GUARD (two a plane). */
  private guardPartial: Float64Array | null = null

  /**
   * The largest face speed (NaN if a face holds NaN) and whether every cell's density and
   * temperature are finite: one SMOKE_GUARD pass on the kernels (guardKernels.ts), then the
   * planes in order.
   */
  private scanGuard(): { speed: number; scalarsFinite: boolean } {
    const { nx, ny, nz } = this.setup.grid
    const v = this.velocity
    const planes = nz + 1
    this.guardPartial ??= this.kernels.f64(2 * planes)
    const p = this.guardPartial
    this.kernels.run(SMOKE_GUARD, v.u, v.v, v.w, this.density, this.temperature, nx, ny, nz, p, planes)
    let speed = 0
    let scalarsFinite = true
    for (let k = 0; k < planes; k++) {
      const m = p[2 * k]
      if (m > speed) speed = m
      else if (m !== m) speed = NaN
      if (p[2 * k + 1] !== 0) scalarsFinite = false
      if (speed !== speed) break
    }
    return { speed, scalarsFinite }
  }

  /** Emitter SDFs and index boxes, rebuilt only when an emitter's shape or placement changed. */
  private prepareEmitters(input: SmokeSimInput): void {
    const { nx, ny, nz, dx, origin } = this.setup.grid
    const alive = new Set<string>()
    for (const e of input.emitters) {
      alive.add(e.id)
      const key = `${e.shape}|${e.position.join(',')}|${e.rotation.join(',')}|${e.scale.join(',')}`
      const old = this.emitterStates.get(e.id)
      if (old && old.key === key) continue
      const sdf = new PrimitiveSdf(e.shape, { position: e.position, rotation: e.rotation, scale: e.scale })
      const { min, max } = sdf.bounds
      const cellBox = new Int32Array(6)
      const faceBoxes: [Int32Array, Int32Array, Int32Array] = [new Int32Array(6), new Int32Array(6), new Int32Array(6)]
      const inside: [boolean, boolean, boolean, boolean] = [
        sampleBox(min, max, nx, ny, nz, 0.5, 0.5, 0.5, dx, origin, cellBox),
        sampleBox(min, max, nx + 1, ny, nz, 0, 0.5, 0.5, dx, origin, faceBoxes[0]),
        sampleBox(min, max, nx, ny + 1, nz, 0.5, 0, 0.5, dx, origin, faceBoxes[1]),
        sampleBox(min, max, nx, ny, nz + 1, 0.5, 0.5, 0, dx, origin, faceBoxes[2]),
      ]
      // Local Y axis in world space: column 1 of R (primitiveSdf.ts convention).
      const r = Math.PI / 180
      const [a, b, c] = [e.rotation[0] * r, e.rotation[1] * r, e.rotation[2] * r]
      const axis = Float64Array.of(
        Math.cos(c) * Math.sin(b) * Math.sin(a) - Math.sin(c) * Math.cos(a),
        Math.sin(c) * Math.sin(b) * Math.sin(a) + Math.cos(c) * Math.cos(a),
        Math.cos(b) * Math.sin(a),
      )
      this.emitterStates.set(e.id, { sdf, key, cellBox, faceBoxes, inside, axis })
    }
    for (const id of [...this.emitterStates.keys()]) if (!alive.has(id)) this.emitterStates.delete(id)
  }

  /** Vortex-seed objects place their particles once, the first time they appear. */
  private seedVortexObjects(input: SmokeSimInput): void {
    const { dx } = this.setup.grid
    let added = 0
    for (const s of input.family.vortexSeeds) {
      if (this.seeded.has(s.id)) continue
      this.seeded.add(s.id)
      added += seedVortexBall(this.particles, this.prng, s, input.family.vortexParticles.radiusCells * dx)
    }
    if (added > 0) this.dropLostParticles()
  }

  private emit(h: number, tStart: number, input: SmokeSimInput): void {
    const { nx, ny, dx, origin } = this.setup.grid
    const solid = this.obstacles.hasObstacles ? this.obstacles.solid : null
    const v = this.velocity
    let seeded = 0
    for (const e of input.emitters) {
      if (e.fluid !== 'gas') continue
      const st = this.emitterStates.get(e.id)
      if (!st) continue
      if (e.rate > 0) {
        const a = 1 - Math.exp(-e.rate * h)
        if (st.inside[0]) emitScalars(this.density, this.temperature, solid, st.sdf, st.cellBox, e.density, e.temperature, a, nx, ny, dx, origin)
        if (st.inside[1]) emitFaces(v.u, 0, st.sdf, st.faceBoxes[0], e.velocity[0], a, nx, ny, dx, origin)
        if (st.inside[2]) emitFaces(v.v, 1, st.sdf, st.faceBoxes[1], e.velocity[1], a, nx, ny, dx, origin)
        if (st.inside[3]) emitFaces(v.w, 2, st.sdf, st.faceBoxes[2], e.velocity[2], a, nx, ny, dx, origin)
      }
      const rate = e.vortex.rate
      if (rate > 0) {
        // floor(rate t) counts particles due since the start of the bake: no carried fraction
        // to checkpoint, and any substep split gives the same total.
        const count = Math.max(0, Math.floor(rate * (tStart + h)) - Math.floor(rate * tStart))
        if (count > 0) seeded += seedFromEmitter(this.particles, this.prng, e, st.sdf, st.axis, count, e.vortex.radiusCells * dx, this.scratch)
      }
    }
    if (seeded > 0) this.dropLostParticles()
  }

  private dropLostParticles(): void {
    const { nx, ny, nz, dx, origin } = this.setup.grid
    const P = this.particles
    const phi = this.obstacles.hasObstacles ? this.obstacles.phi : null
    if (markLostParticles(P.px, P.py, P.pz, P.dead, phi, nx, ny, nz, dx, origin[0], origin[1], origin[2], 0, P.count) > 0) P.compact()
  }

  private substep(h: number, offset: number, input: SmokeSimInput, stats: StepStats, control?: StepControl): void {
    // Cancel is also honoured between the phases of a substep (a 128^3 substep takes seconds);
    // the state is abandoned then, and resume starts from a checkpoint.
    const stop = (): void => {
      if (control?.shouldStop()) throw cancelledError(this._time + offset)
    }
    const { nx, ny, nz, dx, origin } = this.setup.grid
    const vel = this.velocity
    const P = this.particles
    let t0 = now()
    this.emit(h, this._time + offset, input)

    // Advection: scalars by u^n, then u by itself (Selle 2005, eq. 1's (u . grad) u).
    const solid = this.obstacles.hasObstacles ? this.obstacles.solid : null
    const opts = { scheme: this.setup.advection, solid }
    // Density and temperature share each back-trace; beyond open sides they read the ambient
    // (no smoke, ambient temperature), so inflowing air flushes the border cells.
    const scalarOpts = { ...opts, open: openFlags(this.setup.sides), ambient: [0, Math.fround(input.family.buoyancy.ambientTemperature)] }
    if (solid !== null) {
      // Back-traces beside an obstacle read the fluid's values there, not the cleared cells'
      // (solidBorder.ts); clearSolidCells empties them again after the projection.
      this.solidBorder.update(solid, nx, ny, nz, this.obstacles.version)
      this.solidBorder.extend(this.density)
      this.solidBorder.extend(this.temperature)
    }
    // What leaves through open sides, by the same traces (before the fields are advected).
    const left = this.left
    if (scalarOpts.open.some((f) => f !== 0)) amountLeaving([this.density, this.temperature], scalarOpts.ambient, vel, h / dx, scalarOpts.open, solid, left)
    else left.fill(0)
    this.advector.advectScalars([this.scalarTmp, this.scalarTmp2], [this.density, this.temperature], vel, h, scalarOpts)
    // The smoke and heat the advection gained or lost go back (scalarBudget.ts), measured over
    // the fluid cells: a closed domain keeps its amounts, an open one loses what left.
    this.budget.restore(this.scalarTmp, this.density, 0, solid, nx, ny, nz, left[0])
    this.budget.restore(this.scalarTmp2, this.temperature, scalarOpts.ambient[1], solid, nx, ny, nz, left[1])
    this.density.set(this.scalarTmp)
    this.temperature.set(this.scalarTmp2)
    stop()
    let t1: number
    // The velocity's faces freeze only inside obstacles: every face with an open part moves
    // with the flow (ObstacleField.enclosed says why).
    const velOpts = { ...opts, solid: solid === null ? null : this.obstacles.enclosed }
    if (this.setup.reflection) {
      t1 = this.reflectedAdvection(h, velOpts, stats, t0, control)
    } else {
      this.advector.advectVelocity(this.velTmp, vel, h, velOpts)
      vel.copyFrom(this.velTmp)
      t1 = now()
      stats.ms.advection += t1 - t0
    }
    stop()

    // Forces (the f of Selle 2005, eq. 1).
    const { alpha, beta } = input.family.buoyancy
    // Temperatures are float32: compare with the float32 ambient, or air at rest would
    // feel (T - T_amb) = -6e-6 K of spurious buoyancy.
    const ambientTemperature = Math.fround(input.family.buoyancy.ambientTemperature)
    this.kernels.addBuoyancy(vel.v, this.density, this.temperature, alpha, beta, ambientTemperature, h, nx, ny, nz)
    this.dissipate(h, input)
    const vp = input.family.vortexParticles
    if (vp.mode === 'strength' && P.count > 0 && vp.strengthWeight > 0) {
      this.strengthConfinement(h, input)
    } else if (input.family.vorticity > 0) {
      this.confinement.apply(vel, input.family.vorticity, h) // Fedkiw 2001; Selle 2005, sec. 3
    }
    t0 = now()
    stats.ms.forces += t0 - t1
    if (vp.mode === 'force' && P.count > 0 && vp.confinement > 0) {
      // Selle 2005, sec. 5, regularised: eps_p = confinement r_p^2 / 6 in eps_p grad xi_p x
      // omega_p, no grid size in it (particleForceSlab), saturated (particleSaturation).
      this.particleSaturation()
      this.kernels.particleForce(vel.u, vel.v, vel.w, P.px, P.py, P.pz, P.fx, P.fy, P.fz, P.r, P.count, vp.confinement, h, nx, ny, nz, dx, origin[0], origin[1], origin[2])
    }
    t1 = now()
    stats.ms.vortexParticles += t1 - t0
    stop()

    // Obstacles at the end of the substep, then the projection (Selle 2005, eq. 2).
    const ob = this.obstacles
    ob.update(input.obstacles, offset + h)
    const solve = this.projectAroundObstacles(vel, control)
    stats.pressureIterations += solve.iterations
    stats.pressureResidual = Math.max(stats.pressureResidual, solve.residual)
    if (ob.hasObstacles) this.clearSolidCells(ambientTemperature)
    t0 = now()
    stats.ms.projection += t0 - t1

    // Particles ride the new divergence-free velocity (Selle 2005, sec. 4).
    if (P.count > 0) {
      advectParticlesSlab(P.px, P.py, P.pz, vel.u, vel.v, vel.w, nx, ny, nz, dx, origin[0], origin[1], origin[2], h, this.scratch, 0, P.count, P.r)
      stretchParticles(P.px, P.py, P.pz, P.wx, P.wy, P.wz, vel.u, vel.v, vel.w, nx, ny, nz, dx, origin[0], origin[1], origin[2], h, this.scratch, 0, P.count)
      this.dropLostParticles()
    }
    stats.ms.vortexParticles += now() - t0
  }

  /**
   * Closed faces take the obstacles' velocity (as they stand now), then `target` is projected
   * (Selle 2005, eq. 2); `tolerance` replaces the artist's for this solve.
   */
  private projectAroundObstacles(target: MacGrid, control: StepControl | undefined, tolerance?: number, solution?: Float64Array): SolveStats {
    const ob = this.obstacles
    enforceSolidVelocity(target, ob.fractions, ob.moving ? ob.velocity : null, this.kernels)
    return this.pressure.project(target, ob.fractions, {
      obstacle: ob.moving ? ob.velocity : null,
      fractionsVersion: ob.version,
      tolerance,
      solution,
      ...(control ? { shouldStop: () => control.shouldStop() } : {}),
    })
  }

  /**
   * The velocity's self-advection over h as advection-reflection (Zehnder, Narain and
   * Thomaszewski 2018, "An advection-reflection solver for detail-preserving fluid simulation",
   * ACM TOG 37(4)): advect a half step, ũ = A(u; u, h/2); project it, u' = P ũ; reflect,
   * û = 2 u' - ũ; advect the reflection by the projected velocity for the other half,
   * vel = A(û; u', h/2), which the substep's forces and final projection then finish.
   * Advect-then-project loses the part of the velocity the projection removes; for a flow
   * turning at Omega, where the projection supplies the centripetal push, that is a factor
   * cos(Omega h) of the swirl's speed every substep. Reflecting the half step's pressure
   * correction instead of discarding it turns that first-order loss into a second-order one (a
   * rigid rotation is kept whole: the reflected half cancels the other half's turn), for one
   * more half-step advection of the velocity and one more projection. The half step's
   * projection uses the obstacles where the substep starts; the final one, where it ends.
   * It stops at a relative residual of HALF_STEP_TOLERANCE (or the artist's, if looser): its
   * error is a pressure gradient, which the reflection doubles and the final projection removes
   * (on the Blender scene at 64^3 over 24 frames, 2.9 instead of 5.8 iterations a half-step
   * solve; the smoke's total and sum of u^2 moved by 1.3e-4 and 3.2e-4 of themselves, the
   * 0.5 rev/s vortex's spin kept not at all).
   * Returns the time at which the advection's share ended (the half projection's time is the
   * projection's).
   */
  private reflectedAdvection(h: number, opts: AdvectOptions, stats: StepStats, t0: number, control?: StepControl): number {
    const vel = this.velocity
    const tilde = this.velTmp
    this.velHalf ??= new MacGrid(this.setup.grid, { shared: this.setup.shared, kernels: this.kernels })
    const half = this.velHalf
    this.advector.advectVelocity(tilde, vel, h / 2, opts)
    half.copyFrom(tilde)
    let t1 = now()
    stats.ms.advection += t1 - t0
    this.halfPhi ??= this.pressure.newSolution()
    const solve = this.projectAroundObstacles(half, control, Math.max(this.setup.pressure.tolerance, HALF_STEP_TOLERANCE), this.halfPhi)
    // Its iterations are the projection's work; its residual (HALF_STEP_TOLERANCE) is not the
    // result's, which the substep's own projection sets.
    stats.pressureIterations += solve.iterations
    t0 = now()
    stats.ms.projection += t0 - t1
    reflect(half.u, tilde.u)
    reflect(half.v, tilde.v)
    reflect(half.w, tilde.w)
    this.advector.advectVelocityBy(vel, tilde, half, h / 2, opts)
    t1 = now()
    stats.ms.advection += t1 - t0
    return t1
  }

  /**
   * Selle 2005, sec. 5: "one can interpolate the grid based vorticity to the particle location
   * and reduce the strength of the particle based force as the grid based vorticity approaches
   * the particle's vorticity". P.f = omega_p max(0, 1 - (omega_grid(x_p) . omega^_p) /
   * |omega~_p(x_p)|): full force in still air, none once the grid spins about omega_p as fast
   * as the particle's peak vorticity. Without it a lone particle pumps vorticity without
   * bound (2 confinement |omega~_p| per second at its centre, 8x its own in a second at the
   * defaults), and the compact swirl it winds up is centrifugally unstable (its circulation
   * falls to 0 outwards, Rayleigh's criterion), so it wanders off its particle.
   */
  private particleSaturation(): void {
    const { nx, ny, nz, dx, origin } = this.setup.grid
    const P = this.particles
    const C = this.confinement
    C.computeVorticity(this.velocity)
    for (let p = 0; p < P.count; p++) {
      const a = P.wx[p], b = P.wy[p], c = P.wz[p]
      const len = Math.sqrt(a * a + b * b + c * c)
      const peak = selleKernel(0, P.r[p]) * len // |omega~_p(x_p)|, 1/s
      let f = 0
      if (peak > 0) {
        const gx = (P.px[p] - origin[0]) / dx - 0.5
        const gy = (P.py[p] - origin[1]) / dx - 0.5
        const gz = (P.pz[p] - origin[2]) / dx - 0.5
        const along = (lerp3(C.wx, nx, ny, nz, gx, gy, gz) * a + lerp3(C.wy, nx, ny, nz, gx, gy, gz) * b + lerp3(C.wz, nx, ny, nz, gx, gy, gz) * c) / len
        f = 1 - along / peak
        f = f > 1 ? 1 : f > 0 ? f : 0 // also NaN -> 0
      }
      P.fx[p] = f * a
      P.fy[p] = f * b
      P.fz[p] = f * c
    }
  }

  private dissipate(h: number, input: SmokeSimInput): void {
    const kd = input.family.dissipation.density
    const kt = input.family.dissipation.temperature
    if (kd > 0) {
      const f = Math.exp(-kd * h)
      const d = this.density
      for (let c = 0; c < d.length; c++) d[c] *= f
    }
    if (kt > 0) {
      const f = Math.exp(-kt * h)
      const T = this.temperature
      const amb = Math.fround(input.family.buoyancy.ambientTemperature)
      for (let c = 0; c < T.length; c++) T[c] = amb + (T[c] - amb) * f
    }
  }

  /**
   * Selle 2005, sec. 5, the simpler mode: eps(x) = grid eps + weight * sum of tent-splatted
   * particle peak vorticities, then Fedkiw's f = eps(x) h (N x omega) per cell.
   */
  private strengthConfinement(h: number, input: SmokeSimInput): void {
    const { nx, ny, nz, dx, origin } = this.setup.grid
    const P = this.particles
    const C = this.confinement
    const eps = this.epsField
    const vel = this.velocity
    eps.fill(input.family.vorticity)
    this.kernels.particleStrength(eps, P.px, P.py, P.pz, P.wx, P.wy, P.wz, P.r, P.count, input.family.vortexParticles.strengthWeight, nx, ny, nz, dx, origin[0], origin[1], origin[2])
    C.computeVorticity(vel)
    this.kernels.confinementForce(C.fx, C.fy, C.fz, C.wx, C.wy, C.wz, C.magnitude, 1, nx, ny, nz, dx)
    for (let c = 0; c < eps.length; c++) {
      C.fx[c] *= eps[c]
      C.fy[c] *= eps[c]
      C.fz[c] *= eps[c]
    }
    this.kernels.addCellForceToFaces(vel.u, vel.v, vel.w, C.fx, C.fy, C.fz, h, nx, ny, nz)
  }

  /** No smoke inside obstacles: solid cells hold zero density and ambient temperature. */
  private clearSolidCells(ambient: number): void {
    const s = this.obstacles.solid
    for (let c = 0; c < s.length; c++) {
      if (s[c] >= SOLID_THRESHOLD) {
        this.density[c] = 0
        this.temperature[c] = ambient
      }
    }
  }

  frame(opts: FrameOptions = {}): FrameData {
    const { nx, ny, nz, dx, origin } = this.setup.grid
    const dims: [number, number, number] = [nx, ny, nz]
    const o: [number, number, number] = [origin[0], origin[1], origin[2]]
    const volume = (name: string, components: 1 | 3, data: Float32Array): Volume => ({ name, components, dims: [...dims], voxelSize: dx, origin: [...o], data })
    // Transient: the grids' copies go into buffers kept between frames (40 MB a frame at 128^3).
    const kept = opts.transient ? this.frameBuffers : null
    const n = nx * ny * nz
    const vel = frameArray(kept, 'velocity', 3 * n)
    const { u, v, w } = this.velocity
    for (let k = 0; k < nz; k++) {
      for (let j = 0; j < ny; j++) {
        for (let i = 0; i < nx; i++) {
          const c = i + nx * (j + ny * k)
          const fu = i + (nx + 1) * (j + ny * k)
          const fv = i + nx * (j + (ny + 1) * k)
          vel[3 * c] = 0.5 * (u[fu] + u[fu + 1])
          vel[3 * c + 1] = 0.5 * (v[fv] + v[fv + nx])
          vel[3 * c + 2] = 0.5 * (w[c] + w[c + nx * ny])
        }
      }
    }
    const P = this.particles
    const positions = new Float32Array(3 * P.count)
    const vorticity = new Float32Array(3 * P.count)
    const ids = new Float32Array(P.count)
    const radius = new Float32Array(P.count)
    for (let p = 0; p < P.count; p++) {
      positions[3 * p] = P.px[p]
      positions[3 * p + 1] = P.py[p]
      positions[3 * p + 2] = P.pz[p]
      vorticity[3 * p] = P.wx[p]
      vorticity[3 * p + 1] = P.wy[p]
      vorticity[3 * p + 2] = P.wz[p]
      ids[p] = P.id[p]
      radius[p] = P.r[p]
    }
    const particles: ParticleSet = {
      name: 'vortexParticles',
      count: P.count,
      positions,
      attributes: { vorticity: { components: 3, data: vorticity }, id: { components: 1, data: ids }, radius: { components: 1, data: radius } },
    }
    const s = this.lastStats
    return {
      time: this._time,
      frame: this.animFrame,
      volumes: [volume('density', 1, frameCopy(kept, 'density', this.density)), volume('temperature', 1, frameCopy(kept, 'temperature', this.temperature)), volume('velocity', 3, vel)],
      meshes: [],
      particles: [particles],
      stats: {
        substeps: s.substeps,
        pressureIterations: s.pressureIterations,
        pressureResidual: s.pressureResidual,
        particleCount: P.count,
        cflMax: s.cflMax,
        ...phaseStats(s.ms),
      },
    }
  }

  checkpoint(): Uint8Array {
    const P = this.particles
    const { nx, ny, nz } = this.setup.grid
    const c = P.count
    return writeCheckpoint(
      CHECKPOINT_KIND,
      {
        dims: [nx, ny, nz],
        time: this._time,
        animFrame: this.animFrame,
        initialised: this.initialised,
        prng: this.prng.state,
        particleCount: c,
        nextParticleId: P.nextId,
        seeded: [...this.seeded],
      },
      [
        ['u', this.velocity.u],
        ['v', this.velocity.v],
        ['w', this.velocity.w],
        ['density', this.density],
        ['temperature', this.temperature],
        // The pressure solve starts from the previous phi (warm start), so it is state.
        ['phi', this.pressure.phi],
        // The half step's (advection-reflection) too, once it has solved.
        ...(this.halfPhi ? [['halfPhi', this.halfPhi] as [string, Float64Array]] : []),
        ['px', P.px.subarray(0, c)],
        ['py', P.py.subarray(0, c)],
        ['pz', P.pz.subarray(0, c)],
        ['wx', P.wx.subarray(0, c)],
        ['wy', P.wy.subarray(0, c)],
        ['wz', P.wz.subarray(0, c)],
        ['r', P.r.subarray(0, c)],
        ['id', P.id.subarray(0, c)],
      ],
    )
  }

  restore(bytes: Uint8Array): void {
    const ck = readCheckpoint(CHECKPOINT_KIND, bytes)
    const m = ck.meta as {
      dims: number[]
      time: number
      animFrame: number
      initialised: boolean
      prng: number
      particleCount: number
      nextParticleId: number
      seeded: string[]
    }
    const { nx, ny, nz } = this.setup.grid
    if (!Array.isArray(m.dims) || m.dims[0] !== nx || m.dims[1] !== ny || m.dims[2] !== nz) {
      throw new EddyError('INVALID_PARAM', `Checkpoint grid ${String(m.dims)} does not match this domain's ${nx}x${ny}x${nz}`, { field: 'checkpoint' })
    }
    const c = m.particleCount
    if (!Number.isInteger(c) || c < 0 || c > this.particles.maxCount) {
      throw new EddyError('INVALID_PARAM', `Checkpoint holds ${c} vortex particles, more than the ${this.particles.maxCount} allowed`, { field: 'checkpoint' })
    }
    ck.read('u', this.velocity.u)
    ck.read('v', this.velocity.v)
    ck.read('w', this.velocity.w)
    ck.read('density', this.density)
    ck.read('temperature', this.temperature)
    ck.read('phi', this.pressure.phi)
    if (ck.length('halfPhi') > 0) {
      this.halfPhi ??= this.pressure.newSolution()
      ck.read('halfPhi', this.halfPhi)
    } else this.halfPhi?.fill(0)
    const P = this.particles
    P.clear()
    P.reserve(c)
    ck.read('px', P.px.subarray(0, c))
    ck.read('py', P.py.subarray(0, c))
    ck.read('pz', P.pz.subarray(0, c))
    ck.read('wx', P.wx.subarray(0, c))
    ck.read('wy', P.wy.subarray(0, c))
    ck.read('wz', P.wz.subarray(0, c))
    ck.read('r', P.r.subarray(0, c))
    ck.read('id', P.id.subarray(0, c))
    P.dead.fill(0)
    P.count = c
    P.nextId = m.nextParticleId
    this._time = m.time
    this.animFrame = m.animFrame
    this.initialised = m.initialised
    this.prng.state = m.prng >>> 0
    this.seeded.clear()
    for (const id of m.seeded) this.seeded.add(id)
    this.emitterStates.clear()
    this.obstacles.invalidate()
    this.lastStats = emptyStats()
  }
}

/** Advection-reflection's û = 2 u' - ũ, in place over ũ (float32 like the fields). */
function reflect(projected: Float32Array, tilde: Float32Array): void {
  for (let i = 0; i < tilde.length; i++) tilde[i] = 2 * projected[i] - tilde[i]
}
