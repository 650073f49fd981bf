// Free-surface liquid with implicit variable viscosity and heat: the melting-and-flowing
// solver of Carlson 2004 (chapters 3 and 4) with the free-surface treatment of chapter 6.
//
// Marker particles carry the liquid (sec. 3.2.3), its velocity and its temperature (sec. 4.2);
// the MAC grid (sec. 3.2.1) is rebuilt from them every substep. One substep h:
//   1. obstacles placed at the end of the substep; cells labelled liquid / air / solid from
//      the markers (sec. 3.2.3.3); emitters refill; the free surface: a level set moved with
//      the liquid and corrected by the markers (sec. 6.2.3-6.2.4, surfaceTracker.ts), which
//      relabels the cells and gives the pressure its phi
//   2. particles -> grid: face velocities and cell temperatures (trilinear weights), extended
//      into the air (sec. 6.3.2); a copy is kept for the FLIP update
//   3. heat: sources, ambient cooling, LOD diffusion (eqs. 50-55, heat.ts)
//   4. viscosity per cell from temperature (sec. 4.3, melting.ts)
//   5. body forces (gravity), eq. 43
//   6. implicit variable viscous diffusion, eqs. 44-49 and 57-58 (viscosity.ts)
//   7. pressure projection, eqs. 29-36, with p = 0 at the surface by the ghost fluid method
//      and Neumann / moving-wall conditions at obstacles (ghostFluid.ts); then, with the same
//      matrix, the drift that brings the markers back to their seeded density
//      (densityCorrection.ts)
//   8. velocity extended into the air band again (sec. 6.3.2): faces the markers reached keep
//      their own velocity plus the solve's change (carryChangeToMarkerFaces), the others take
//      the extension; obstacle faces re-imposed
//   9. grid -> particles (PIC, a PIC/FLIP blend, or APIC), particles moved by RK2 (eq. 21) in
//      u + drift and pushed out of obstacles; the free surface's level set advected (eq. 91)
//      in the same u + drift
// Substeps follow the CFL condition (eq. 19) only: viscosity is implicit, so eq. 20 does not
// apply (the point of sec. 4.1). Everything is deterministic and checkpointable.
import { EddyError } from '../../api/errors'
import { enforceSolidVelocity, openFlags } from '../core/boundaries'
import { addUniformAcceleration } from '../core/forces'
import { MacGrid } from '../core/grid'
import { TS_KERNELS } from '../core/kernelBackend'
import type { KernelBackend } from '../core/kernelTypes'
import type { FrameData, ParticleSet, Volume } from '../frame'
import { ObstacleField } from '../core/obstacleField'
import { Prng } from '../core/prng'
import { emptyStepStats, phaseStats, type FrameOptions, type Solver, type StepControl, type StepStats } from '../solver'
import { FrameBuffers, frameArray, frameCopy } from '../frameBuffers'
import { runSubsteps } from '../substeps'
import { extendInLayers, extensionCountInts, extensionListInts, type ExtensionFields } from './extendPlanes'
import { ACTIVE_PCG_SCRATCH_CELLS } from './activePcg'
import { GhostFluidPressure } from './ghostFluid'
import { HeatSolver } from './heat'
import { readLiquidCheckpoint, writeLiquidCheckpoint } from './liquidCheckpoint'
import { type HeatSourceInput, type LiquidSetup, type LiquidSimInput, validateLiquidInput, validateLiquidSetup } from './liquidInput'
import { LiquidEmitter, seedVolumes, volumeSdf } from './liquidSeeding'
import { ADD_FACES, CLEAR_OUTSIDE_LIQUID, COUNT_LABEL, FILL_UNMARKED, HEAT_REACH, PLANE_SUMS } from './cellPassKernels'
import { classifyCells, closeSolidFaces, LEVEL_SET_SCRATCH_CELLS, LevelSetScratch, levelSetVolume, particleLevelSet } from './levelSet'
import { MarkerParticles } from './markers'
import { cellViscosity } from './melting'
import { extendThroughClosedSides, type GridToParticles, ParticleMover } from './particleMotion'
import { RigidFluid } from './rigidFluid'
import { SurfaceTracker } from './surfaceTracker'
import { MARKER_SPEED, SPEED_BLOCK } from './speedKernel'
import { MARKERS_OFF_TEMPERATURE } from './markerTemperatureKernel'
import { largestPartial } from '../core/vectorOps'
import { APPLY_CHANGE, type FaceMarks, MARK_CHANGE } from './changeCarryKernels'
import { DensityCorrection, DRIFT_TOLERANCE } from './densityCorrection'
import { INTERLEAVE_MARKERS, interleaveMarkersSlab } from './frameArrayKernel'
import { ParticleTransfer, splatSumsLength } from './transfer'
import * as kinds from './viscosity'
import { now } from '../wallClock'

// Imported values used in per-cell / per-marker loops are copied into module constants: an
// imported binding can cost a property load (or a getter call, under vitest's module runner)
// on every use in a hot loop.
const LIQUID = kinds.LIQUID

/** Milliseconds from the host's monotonic clock (stats only; never feeds the numbers). */

/** Rings of faces/cells the velocity and temperature are extended into the air. */
export const EXTRAPOLATION_LAYERS = 4
/** A speed above maxSubsteps * cfl cells per frame times this is a blow-up. */
export const INSTABILITY_FACTOR = 2

/**
 * Timing phases, in the order a substep runs them (StepStats.ms, wall-clock ms, not
 * deterministic): levelSet (cells, level set, and the once-per-step redistancing), toGrid,
 * extend (velocity and temperature into the air), heat, viscosity, pressure, move (grid ->
 * particles and advection, one fused pass).
 */
export const LIQUID_PHASES = ['levelSet', 'toGrid', 'extend', 'heat', 'viscosity', 'pressure', 'rigid', 'move'] as const

export interface LiquidStepStats extends StepStats {
  /** Viscosity PCG iterations summed over the substeps. */
  viscosityIterations: number
  /** Largest final relative residual of the viscosity solves. */
  viscosityResidual: number
  /** Liquid cells after the last substep. */
  liquidCells: number
  /** Markers added by emitters / removed (left through open sides, lost in solids). */
  particlesAdded: number
  particlesRemoved: number
}

function emptyStats(): LiquidStepStats {
  return { ...emptyStepStats(LIQUID_PHASES), viscosityIterations: 0, viscosityResidual: 0, liquidCells: 0, particlesAdded: 0, particlesRemoved: 0 }
}

export class LiquidSolver implements Solver<LiquidSimInput> {
  readonly setup: LiquidSetup
  readonly particles: MarkerParticles
  /** Grid velocity of the last substep (after projection and extension), m/s. */
  readonly velocity: MacGrid
  /** Cell temperature of the last substep, K (liquid cells, extended a few cells into the air). */
  readonly temperature: Float32Array
  /** Signed distance to the markers' boundary of the last substep, m (negative in the liquid). */
  readonly phi: Float32Array
  /** The level set the pressure's theta reads (surfaceTracker.ts label: the tracked surface). */
  private readonly phiRaw: Float32Array
  /** Cell kinds of the last substep (viscosity.ts AIR / LIQUID / SOLID). */
  readonly kind: Uint8Array
  /** Kinematic viscosity per cell of the last substep, m^2/s (0 outside the liquid). */
  readonly viscosity: Float32Array
  readonly obstacles: ObstacleField
  private readonly velOld: MacGrid
  /** carryChangeToMarkerFaces: the solve's change per face and its extension marks. */
  private readonly change: MacGrid
  private readonly changeMarks: FaceMarks
  /** The markers' splat marks (markU, markV, markW) as APPLY_CHANGE's struct. */
  private readonly knownMarks: FaceMarks
  /** The markers' density error and the drift that removes it (densityCorrection.ts). */
  private readonly density: DensityCorrection
  private readonly drift: MacGrid
  /** velocity + drift, for the tracked surface's advection (substeps with a drift); the storage of `change`. */
  private readonly advectVel: MacGrid
  private readonly tempOld: Float32Array
  private readonly count: Int32Array
  /** maxParticleSpeed's largest speed per block of markers (scratch; grows with the markers). */
  private speedPartial: Float64Array
  /** classifyCells' liquid cells per plane (scratch). */
  private readonly liquidPerPlane: Int32Array
  private readonly markU: Uint8Array
  /**
   * Kernel memory the substep's passes use in turn (the level set's sums, the splat's, the
   * extensions' worklists, the pressure's solver scratch) and leave nothing in: free between
   * steps, where the frame's surface mesher borrows it (family.ts).
   */
  readonly passScratch: Float64Array
  /** The extensions' per-plane lists and counts (extendPlanes.ts). */
  private readonly extendLists: Int32Array
  private readonly extendCounts: Int32Array
  /** Where the marker, splat, pressure and extension kernels run. */
  private readonly kernels: KernelBackend
  private readonly markV: Uint8Array
  private readonly markW: Uint8Array
  private readonly markT: Uint8Array
  private readonly markT2: Uint8Array
  /** 1 where markers take the grid velocity: liquid cells and two layers around them (else spray). */
  private readonly reach: Uint8Array
  /** Per-plane sums of COUNT_LABEL (the substep's liquid cells) and PLANE_SUMS (markers per plane), in turn. */
  private readonly labelPartial: Float64Array
  private readonly open: Uint8Array
  /**
   * Face open fractions of the obstacles with every face of a SOLID cell closed: a face lying
   * exactly on an obstacle's surface can read open while the cell behind it is solid, and the
   * pressure must not see that cell as air (the liquid would drain into the obstacle). The
   * obstacle field's own fractions, closed in place.
   */
  private readonly fractions: MacGrid
  private fractionsVersion = -1
  /** Obstacle distance at cell corners for pushing markers out (particleMotion.ts extendThroughClosedSides). */
  private readonly pushPhi: Float32Array
  private readonly closed: Uint8Array
  private readonly transfer: ParticleTransfer
  private readonly mover: ParticleMover
  /** Cumulative markers per cell plane, for splitting the splats among threads (updatePlaneWork). */
  private readonly planeWork: Float64Array
  private readonly g2p: GridToParticles
  private readonly heat: HeatSolver
  /** The viscous system, made at the first viscous substep (viscous()). */
  private visc: kinds.ViscositySystem | null = null
  /** Its cycleRest before it is made (checkpoints carry it either way). */
  private viscousCycleRest = 0
  private readonly pressure: GhostFluidPressure
  private readonly prng: Prng
  private readonly levelSetScratch: LevelSetScratch
  /** The free surface the pressure reads: advected and corrected by the markers (surfaceTracker.ts). */
  private readonly surface: SurfaceTracker
  private readonly emitters = new Map<string, LiquidEmitter>()
  private _time = 0
  private animFrame = 1
  private initialised = false
  /** this.phi holds the raw estimate of the last substep, not yet redistanced (redistancePhi). */
  private phiPending = false
  /** The fastest marker as the last substep's guard measured it, for the next substep's speed (null: measure). */
  private guardedSpeed: number | null = null
  private lastStats: LiquidStepStats = emptyStats()
  /** Rigid bodies coupled two ways with the liquid (rigidFluid.ts); null when the scene has none. */
  private readonly rigid: RigidFluid | null
  /**
   * With rigid bodies: the liquid's own velocity at the start of the substep (after the
   * transfer and extension, before the bodies' motion is written into their faces), and the
   * change the pressure pre-pass and viscosity made (rigidFluid.ts step 5).
   */
  private readonly liquidStart: MacGrid | null
  private readonly viscousChange: MacGrid | null
  /** The arrays frame({ transient: true }) hands out, kept between frames. */
  private readonly frameBuffers: FrameBuffers

  constructor(setup: LiquidSetup) {
    validateLiquidSetup(setup)
    this.setup = setup
    const { grid } = setup
    const { nx, ny, nz } = grid
    const n = nx * ny * nz
    // What the marker splat and move touch comes from the kernels' allocator (splatKernels.ts,
    // markerKernels.ts).
    const kernels = setup.kernels ?? TS_KERNELS
    const alloc = { kernels }
    this.velocity = new MacGrid(grid, alloc)
    this.velOld = new MacGrid(grid, alloc)
    this.kernels = kernels
    this.frameBuffers = new FrameBuffers(kernels.kind === 'wasm' ? (length) => kernels.f32(length) : null)
    // The extensions (extendPlanes.ts EXTEND_LAYER) run on the kernels too.
    this.change = new MacGrid(grid, alloc)
    this.changeMarks = { mu: kernels.u8((nx + 1) * ny * nz), mv: kernels.u8(nx * (ny + 1) * nz), mw: kernels.u8(nx * ny * (nz + 1)) }
    this.density = new DensityCorrection(nx, ny, nz, kernels)
    this.drift = new MacGrid(grid, alloc)
    // The change is dead once carried to the markers' faces (step 8), and MARK_CHANGE rewrites
    // every face of it before the next read; the surface's advection velocity is written
    // whole after that (step 9): one grid serves both.
    this.advectVel = this.change
    this.temperature = kernels.f32(n)
    this.tempOld = kernels.f32(n)
    this.phi = kernels.f32(n)
    this.phiRaw = kernels.f32(n) // in the kernels' memory: the pressure's assembly row reads it
    // The labels and counts come from a kernel row (classifyKernel.ts).
    this.kind = kernels.u8(n)
    this.viscosity = new Float32Array(n)
    this.count = kernels.i32(n)
    this.liquidPerPlane = kernels.i32(nz)
    this.speedPartial = kernels.f64(0)
    this.markU = kernels.u8((nx + 1) * ny * nz)
    this.markV = kernels.u8(nx * (ny + 1) * nz)
    this.markW = kernels.u8(nx * ny * (nz + 1))
    this.knownMarks = { mu: this.markU, mv: this.markV, mw: this.markW }
    this.markT = kernels.u8(n)
    this.markT2 = kernels.u8(n)
    this.reach = kernels.u8(n)
    this.labelPartial = kernels.f64(nz)
    this.open = openFlags(setup.sides)
    this.closed = this.open.map((o) => 1 - o)
    // The obstacles' fields in the kernels' memory; their face fractions are closed around
    // solid cells in place (closeSolidFaces after each rebuild): nothing in the liquid reads
    // them unclosed, so it keeps no second set.
    this.obstacles = new ObstacleField(grid, setup.sides, alloc)
    this.fractions = this.obstacles.fractions
    this.pushPhi = kernels.f32((nx + 1) * (ny + 1) * (nz + 1))
    // Kernel memory the substep's passes use in turn, each rewriting what it reads and leaving
    // nothing another pass reads: the level set's sums and redistancing scratch (step 1), the
    // splat's sums (step 2, without bodies: their coupling reads the face sums after the
    // pressure), the extensions' worklists (steps 2 and 8), the pressure's solver scratch (step
    // 7); between steps the frame's surface mesher borrows it. One block the size of the
    // largest instead of one each (about 190 MB less at 128^3).
    const rigidBodies = (setup.rigidBodies?.length ?? 0) > 0
    const passScratch = kernels.f64(Math.max(ACTIVE_PCG_SCRATCH_CELLS * n, LEVEL_SET_SCRATCH_CELLS * n, rigidBodies ? 0 : splatSumsLength(nx, ny, nz)))
    this.passScratch = passScratch
    this.transfer = new ParticleTransfer(grid, kernels, rigidBodies ? null : passScratch)
    // APIC (transfer.ts): the markers carry C_p, and FLIP's share is not blended in.
    this.transfer.apic = setup.transfer === 'apic'
    this.g2p = { transfer: this.transfer, velOld: this.velOld, temp: this.temperature, tempOld: this.tempOld, flip: this.flipShare(), gx: 0, gy: 0, gz: 0 }
    this.mover = new ParticleMover(grid, kernels)
    this.heat = new HeatSolver(grid)
    // The extensions' per-plane lists (the face lattices' serve the cells' too), in the pass
    // scratch when it has room.
    const listInts = extensionListInts(nx, ny, nz, 0)
    this.extendLists = 4 * listInts <= passScratch.byteLength ? new Int32Array(passScratch.buffer, passScratch.byteOffset, listInts) : kernels.i32(listInts)
    this.extendCounts = kernels.i32(extensionCountInts(nz, 0))
    this.pressure = new GhostFluidPressure(nx, ny, nz, kernels, passScratch, setup.pressure.preconditioner ?? 'auto')
    this.particles = new MarkerParticles(setup.maxParticles, Math.min(setup.maxParticles, 1024), setup.transfer === 'apic', kernels)
    this.prng = new Prng(setup.seed)
    this.levelSetScratch = new LevelSetScratch(n, kernels, passScratch)
    this.planeWork = new Float64Array(nz + 2)
    this.transfer.balance = this.planeWork
    this.levelSetScratch.balance = this.planeWork
    this.surface = new SurfaceTracker(grid, 3 * grid.dx, kernels)
    this.rigid = setup.rigidBodies?.length ? new RigidFluid(setup.rigidBodies, grid, setup.sides, setup.gravity, this.obstacles.phi, kernels) : null
    // (In the kernels' memory: the markers' momentum balance reads it there, markerMomentumKernels.ts.)
    this.liquidStart = this.rigid ? new MacGrid(grid, { kernels }) : null
    this.viscousChange = this.rigid ? new MacGrid(grid) : null
    this.temperature.fill(setup.heat.ambientTemperature)
    this.phi.fill(3 * grid.dx)
  }

  /** FLIP's share of the grid -> particle velocity update: setup.flip, or 0 with APIC (pure APIC). */
  private flipShare(): number {
    return this.setup.transfer === 'apic' ? 0 : this.setup.flip
  }

  get time(): number {
    return this._time
  }

  /** Seeds the initial volumes (once, before the first substep). */
  private initialise(): void {
    const { grid, particlesPerCell, volumes } = this.setup
    seedVolumes(this.particles, this.prng, grid, particlesPerCell, this.setup.jitter, volumes)
    // The tracked free surface starts as the volumes' own surface (their signed distances),
    // not the markers' bumpy estimate of it (surfaceTracker.ts).
    this.surface.initialiseFromShapes(grid, volumes.map(volumeSdf))
    this.initialised = true
  }

  step(dt: number, input: LiquidSimInput, control?: StepControl): LiquidStepStats {
    if (typeof dt !== 'number' || !Number.isFinite(dt) || dt < 0) {
      throw new EddyError('INVALID_PARAM', `Time step must be a finite number of seconds >= 0 (got ${dt})`, { field: 'dt', value: dt })
    }
    validateLiquidInput(input)
    if (!this.initialised) this.initialise()
    // A body starting inside an obstacle is refused before anything moves (rigidFluid.ts).
    this.rigid?.checkPlacement(input.obstacles)
    const stats = emptyStats()
    const { dx } = this.setup.grid
    const g = this.setup.gravity
    this.guardedSpeed = null
    runSubsteps(
      dt,
      input,
      dx,
      this._time,
      {
        // Speed a substep must follow: the fastest marker or emitter, plus what gravity adds
        // over a cell (Bridson 2015 ch. 3: u_max + sqrt(5 dx |g|)).
        reach: Math.sqrt(5 * dx * Math.hypot(g[0], g[1], g[2])),
        speed: (offset) => {
          // The last substep's guard measured these same markers (nothing moves them between).
          let umax = this.guardedSpeed ?? this.maxParticleSpeed()
          this.guardedSpeed = null
          if (!(umax === umax)) this.unstable(offset, 'a particle velocity is NaN')
          for (const e of input.emitters) {
            if (e.fluid === 'liquid' && e.rate > 0) umax = Math.max(umax, Math.abs(e.velocity[0]), Math.abs(e.velocity[1]), Math.abs(e.velocity[2]))
          }
          // Bodies too: no surface point may cross more than the CFL number of cells (sec. 5.7.1).
          if (this.rigid) umax = Math.max(umax, this.rigid.maxSpeed())
          return umax
        },
        substep: (h, offset) => this.substep(h, offset, input, stats),
        guard: (end) => this.guard(end, dt, input),
      },
      stats,
      control,
    )
    const tr = now()
    // The markers' surface (redistancePhi), and the tracked surface: advection and the markers'
    // corrections bend its phi away from a distance; once a step it is made one again (sec.
    // 6.2.2), keeping its sign. Both on the kernels' threads side by side.
    const { nx: gx, ny: gy, nz: gz } = this.setup.grid
    if (this.surface.ready && this.phiPending) {
      this.levelSetScratch.redistancer.runPair(this.phi, this.surface.phi, gx, gy, gz, dx, 3 * dx)
      this.phiPending = false
    } else {
      this.redistancePhi()
      if (this.surface.ready) this.levelSetScratch.redistancer.run(this.surface.phi, gx, gy, gz, dx, 3 * dx)
    }
    stats.ms.levelSet += now() - tr
    this._time += dt
    if (input.frameDt > 0) this.animFrame = input.frame + dt / input.frameDt
    stats.particleCount = this.particles.count
    this.lastStats = stats
    return stats
  }

  /**
   * Turns the last substep's raw marker distance into a signed distance (levelSet.ts). Only
   * the frame output and volume figures read this.phi, so it is done once per step instead
   * of every substep; the result is the same bits as redistancing inside the last substep.
   */
  private redistancePhi(): void {
    if (!this.phiPending) return
    const { nx, ny, nz, dx } = this.setup.grid
    this.levelSetScratch.redistancer.run(this.phi, nx, ny, nz, dx, 3 * dx)
    this.phiPending = false
  }

  /** The markers' largest velocity component, NaN if one is NaN (speedKernel.ts, on the kernels). */
  private maxParticleSpeed(): number {
    const p = this.particles
    this.kernels.run(MARKER_SPEED, p, this.blockPartial(p.count), p.count)
    return largestPartial(this.speedPartial, Math.ceil(p.count / SPEED_BLOCK))
  }

  /** One float64 per SPEED_BLOCK markers in the kernels' memory (the per-block rows' partials), grown as the markers grow. */
  private blockPartial(count: number): Float64Array {
    const blocks = Math.ceil(count / SPEED_BLOCK)
    if (this.speedPartial.length < blocks) this.speedPartial = this.kernels.f64(blocks + 16)
    return this.speedPartial
  }

  private unstable(offset: number, reason: string): never {
    const time = this._time + offset
    throw new EddyError('SIM_UNSTABLE', `Liquid simulation became unstable at t=${time.toFixed(4)} s: ${reason}; lower the time step / raise max substeps`, { time, reason })
  }

  /**
   * The splats' balance (transfer.ts): cumulative markers per cell plane from this substep's
   * counts, plus a share for each plane's own cells (zeroing and means), and one more plane
   * for the w faces' top lattice plane.
   */
  private updatePlaneWork(): void {
    const { nx, ny, nz } = this.setup.grid
    const plane = nx * ny
    const w = this.planeWork, sums = this.labelPartial
    const own = 0.05 * plane
    this.kernels.run(PLANE_SUMS, this.count, plane, sums, nz)
    w[0] = 0
    for (let k = 0; k < nz; k++) w[k + 1] = w[k] + sums[k] + own
    w[nz + 1] = w[nz] + own
  }

  /** NaN, or a speed no allowed substep count could follow, stops the bake with SIM_UNSTABLE. */
  private guard(offset: number, dt: number, input: LiquidSimInput): void {
    const umax = this.maxParticleSpeed()
    this.guardedSpeed = umax
    if (!(umax === umax)) this.unstable(offset, 'a particle velocity is NaN')
    if (dt > 0) {
      const bound = (INSTABILITY_FACTOR * input.maxSubsteps * input.cfl * this.setup.grid.dx) / dt
      if (!(umax <= bound)) this.unstable(offset, `speed ${umax.toPrecision(3)} m/s exceeds ${bound.toPrecision(3)} m/s`)
    }
  }

  private substep(h: number, offset: number, input: LiquidSimInput, stats: LiquidStepStats): void {
    const { setup, particles: p, velocity: vel, velOld, temperature: temp, tempOld, kind, count, open } = this
    const { grid } = setup
    const { nx, ny, nz, dx } = grid
    const ph = stats.ms
    let tp = now()
    const lap = (key: string): void => {
      const t = now()
      ph[key] += t - tp
      tp = t
    }
    // 1. Obstacles at the end of the substep, cells, emitters, level set.
    const obs = this.obstacles
    obs.update(input.obstacles, offset + h)
    if (obs.version !== this.fractionsVersion) {
      closeSolidFaces(obs.fractions, obs.solid, this.fractions)
      extendThroughClosedSides(obs.phi, this.pushPhi, nx, ny, nz, this.closed)
      this.fractionsVersion = obs.version
    }
    classifyCells(p, grid, obs.solid, count, kind, this.kernels, this.liquidPerPlane, this.planeWork)
    const added = this.emit(input, h)
    if (added > 0) classifyCells(p, grid, obs.solid, count, kind, this.kernels, this.liquidPerPlane, this.planeWork)
    this.updatePlaneWork()
    stats.particlesAdded += added
    particleLevelSet(p, grid, count, kind, this.phiRaw, this.phi, 3 * dx, this.levelSetScratch, this.closed, false)
    this.phiPending = true
    // The pressure's surface: the advected level set corrected by the markers (Carlson sec.
    // 6.2.3-6.2.4, surfaceTracker.ts), started from the initial volumes' shapes; the cells
    // relabelled from it. (Restored from a checkpoint without one: from the markers' estimate.)
    const surface = this.surface
    if (!surface.ready) surface.initialise(this.phiRaw)
    surface.correct(p, grid, this.levelSetScratch.sums, kind)
    surface.label(this.levelSetScratch.sums, kind, setup.particlesPerCell, this.phiRaw)
    lap('levelSet')
    // 1b. Rigid bodies: keys, activation, collisions and motion over h (rigidFluid.ts steps 1-2).
    // 2. Particles -> grid, extended into the air; closed faces carry the obstacle velocity.
    // With bodies the splat starts first, on the kernels' other threads, and the rigid step
    // runs here meanwhile: it reads and writes the bodies, the coupling's arrays, the cells'
    // kinds and phiRaw, none of which the splat reads, and nothing the splat writes
    // (KernelBackend.begin). Most of the rigid step is this thread's own work (collisions, the
    // faces' lists), which left the other threads waiting.
    const rigid = this.rigid
    if (rigid) {
      this.transfer.beginToGrid(p, vel, temp, this.markU, this.markV, this.markW, this.markT)
      lap('toGrid')
      try {
        rigid.advance(h, offset, input.frame + (input.frameDt > 0 ? offset / input.frameDt : 0), input.family.rigidPoses ?? [], kind, count)
        rigid.holdPushedMarkers(kind, count, this.phiRaw, h)
      } finally {
        // (Also when the rigid step throws: the other threads must be done with the splat.)
        lap('rigid')
        this.transfer.finishToGrid()
      }
    } else this.transfer.toGrid(p, vel, temp, this.markU, this.markV, this.markW, this.markT)
    lap('toGrid')
    this.extendVelocity(false)
    // u^n on the faces wet bodies cover: their rigid velocity (sec. 5.4).
    if (rigid) {
      this.liquidStart!.copyFrom(vel)
      rigid.imposeRigidVelocity(vel, this.fractions)
    }
    velOld.copyFrom(vel)
    // Temperature: liquid cells are the known ones; the air band is extended from them.
    const plane = nx * ny
    this.kernels.run(CLEAR_OUTSIDE_LIQUID, kind, this.markT, plane, nz)
    this.markT2.set(this.markT)
    this.extendCells(temp, this.markT)
    this.kernels.run(FILL_UNMARKED, temp, this.markT, setup.heat.ambientTemperature, plane, nz)
    tempOld.set(temp)
    lap('extend')
    // 3. Heat (eq. 50 without convection, which the markers did).
    const heat = setup.heat
    // A liquid whose markers all hold one temperature, with no heat source on and nothing to
    // cool towards another temperature, keeps it: eq. 50's passes and the relaxation of the
    // unresolved temperature (step 9) would only add rounding noise, at the cost of two
    // passes over the grid and a splat of every marker. (temp == tempOld then: no increment.)
    const isothermal = isothermalMarkers(p, input.family.heatSources, heat.ambientTemperature, heat.coolingRate, this.kernels, this.blockPartial(p.count))
    if (!isothermal) {
      this.heat.applySources(temp, kind, input.family.heatSources, h)
      this.heat.cool(temp, kind, heat.ambientTemperature, heat.coolingRate, h)
      this.heat.diffuse(temp, kind, heat.diffusion, h)
    }
    // Three layers, so that a marker within two cells of the liquid (where markers use the
    // grid, `reach`) interpolates only extended values, never the ambient fill.
    // Isothermal, the liquid's temperatures are those the first extension started from, so a
    // second one would write the same values with the same marks: markT holds them already.
    const marks = isothermal ? this.markT : this.markT2
    if (!isothermal) this.extendCells(temp, marks)
    // (Unreached cells keep tempOld; reach: mark 1 = liquid, 2..3 = the first two layers.)
    this.kernels.run(HEAT_REACH, temp, tempOld, marks, this.reach, plane, nz)
    lap('heat')
    // 4-6. Viscosity from temperature, gravity (eq. 43), implicit viscous diffusion (eq. 44-49).
    // Wet bodies join the liquid for viscosity and pressure ("as if they were fluid", sec. 5.4).
    if (rigid) rigid.joinLiquid(kind, this.phi, this.phiRaw)
    const nuMax = cellViscosity(setup.viscosity, temp, kind, this.viscosity)
    const g = setup.gravity
    addUniformAcceleration(vel, g[0], g[1], g[2], h, this.kernels)
    enforceSolidVelocity(vel, this.fractions, obs.moving ? obs.velocity : null, this.kernels)
    if (nuMax > 0) {
      if (rigid) this.viscousChange!.copyFrom(vel)
      // Project first, so the viscous solve starts from a field the pressure has balanced.
      // Gravity is a gradient the projection removes from a liquid at rest; diffused first,
      // next to no-slip walls or where the viscosity varies (melt beside solid wax) it becomes
      // a shear the projection cannot remove, and a still, flat layer started to flow at
      // 0.1-0.4 m/s. (Carlson sec. 5.7.2 projects twice a step as well.)
      const p0 = this.pressure.project(vel, this.fractions, obs.moving ? obs.velocity : null, kind, this.phiRaw, open, setup.pressure.tolerance, setup.pressure.maxIterations)
      stats.pressureIterations += p0.iterations
      const visc = this.viscous()
      visc.setup(vel, this.fractions, kind, this.viscosity, h, setup.viscousStress, setup.wallSlip, open, this.phi)
      const vs = visc.solve(setup.viscositySolve.tolerance, setup.viscositySolve.maxIterations)
      visc.writeBack(vel)
      if (rigid) {
        // (The change only: the liquid takes it again in rigidFluid.ts step 5.)
        const dv = this.viscousChange!
        for (const [c, u] of [[dv.u, vel.u], [dv.v, vel.v], [dv.w, vel.w]]) for (let f = 0; f < c.length; f++) c[f] = u[f] - c[f]
      }
      stats.viscosityIterations += vs.iterations
      stats.viscosityResidual = Math.max(stats.viscosityResidual, vs.residual)
    }
    lap('viscosity')
    // 7. Pressure with the ghost fluid free surface (with wet bodies: step 7b instead).
    const wet = rigid !== null && rigid.anyWet
    if (!wet) {
      const ps = this.pressure.project(vel, this.fractions, obs.moving ? obs.velocity : null, kind, this.phiRaw, open, setup.pressure.tolerance, setup.pressure.maxIterations)
      stats.pressureIterations += ps.iterations
      stats.pressureResidual = Math.max(stats.pressureResidual, ps.residual)
    }
    lap('pressure')
    // 7b. The liquid alone, from its own velocity, projected around the wet bodies as walls
    // whose velocity the same solve finds (rigidFluid.ts steps 5-6, coupledWalls.ts).
    let fractions = this.fractions
    let walls = obs.moving ? obs.velocity : null
    if (rigid) {
      rigid.leaveLiquid(kind, this.phi, this.phiRaw)
      if (wet) {
        // The liquid restarts from its own velocity with its own forces: the bodies joined it
        // for the viscous solve only (its change is kept).
        const start = this.liquidStart!
        velOld.copyFrom(start)
        vel.copyFrom(start)
        addUniformAcceleration(vel, g[0], g[1], g[2], h, this.kernels)
        if (nuMax > 0) {
          const dv = this.viscousChange!
          for (const [c, u] of [[dv.u, vel.u], [dv.v, vel.v], [dv.w, vel.w]]) for (let f = 0; f < c.length; f++) u[f] += c[f]
        }
        enforceSolidVelocity(vel, this.fractions, obs.moving ? obs.velocity : null, this.kernels)
        rigid.solidify(kind)
        const b = rigid.prepareWalls(this.fractions, walls, kind, h, g)
        fractions = b.fractions
        walls = b.velocity
        const ps2 = this.pressure.project(vel, fractions, walls, kind, this.phiRaw, open, setup.pressure.tolerance, setup.pressure.maxIterations, rigid.coupledWalls)
        stats.pressureIterations += ps2.iterations
        stats.pressureResidual = Math.max(stats.pressureResidual, ps2.residual)
        rigid.finishWalls(this.pressure.q)
        // What the markers near each body did not take of that solve's change goes back to
        // the body, across gravity (markerMomentum.ts).
        rigid.balanceMarkers(vel, this.liquidStart!, fractions, kind, this.phiRaw, this.transfer, dx ** 3 / setup.particlesPerCell)
      }
      lap('rigid')
    }
    // The markers' density error, removed by a drift that moves the markers and the tracked
    // surface but not the velocity (densityCorrection.ts); bodies are walls here, as above.
    let drift: MacGrid | null = null
    if (this.density.compute(count, kind, this.phiRaw, obs.solid, setup.particlesPerCell, h, dx)) {
      const ds = this.pressure.solveDrift(this.density.target, this.drift, fractions, kind, this.phiRaw, Math.max(setup.pressure.tolerance, DRIFT_TOLERANCE), setup.pressure.maxIterations)
      // (Counted with the pressure's: the same matrix and solver.)
      stats.pressureIterations += ds.iterations
      drift = this.drift
    }
    lap('pressure')
    // 8. Extend into the air band; walls again (the bodies' faces keep their rigid motion).
    if (rigid && rigid.anyWet) rigid.restoreClosedFaces(vel, this.liquidStart!, this.fractions, fractions)
    this.extendVelocity(true)
    if (rigid && rigid.anyWet) {
      rigid.imposeForMarkers(vel, this.fractions, this.transfer, dx ** 3 / setup.particlesPerCell)
      rigid.unsolidify(kind)
    }
    lap('extend')
    // 9. Grid -> particles, then move them.
    // (Fused: each marker takes its grid velocity and is moved in one pass, particleMotion.ts.)
    // Temperature goes back as the heat step's increment plus the decay of what the grid
    // cannot resolve (transfer.ts temperatureResidual): no smearing of eq. 50 by the transfer.
    this.transfer.temperatureResidual(p, tempOld, this.reach, isothermal ? 0 : heat.diffusion, h)
    const g2p = this.g2p
    g2p.velOld = velOld
    g2p.temp = isothermal ? null : temp
    g2p.tempOld = tempOld
    g2p.flip = this.flipShare()
    g2p.gx = setup.gravity[0]
    g2p.gy = setup.gravity[1]
    g2p.gz = setup.gravity[2]
    stats.particlesRemoved += this.mover.advect(p, vel, h, obs.hasObstacles ? this.pushPhi : null, open, this.reach, g2p, drift)
    // Markers the bodies swept over go back to their surfaces (rigidFluid.ts step 6).
    if (rigid) rigid.pushMarkersOut(p)
    stats.liquidCells = this.kernels.run(COUNT_LABEL, kind, LIQUID, plane, this.labelPartial, nz)
    lap('move')
    // The tracked surface moves with the same velocity over the substep (sec. 6.2.3, eq. 91).
    // (With the density drift: u + drift, as the markers moved.)
    if (drift !== null) {
      const a = this.advectVel
      this.kernels.run(ADD_FACES, a, vel, drift, nx, ny, nz)
      this.surface.advect(a, h)
    } else this.surface.advect(vel, h)
    lap('levelSet')
  }

  /**
   * Extends face velocities into the air (sec. 6.3.2). Before the solve (fromLiquid false) the
   * known faces are those the markers' splat reached. After it (fromLiquid true) the faces
   * touching a liquid cell are known, and so are the faces outside them that the splat reached
   * (see carryChangeToMarkerFaces); the rest is extended from both.
   */
  private extendVelocity(fromLiquid: boolean): void {
    const { velocity: vel, markU, markV, markW } = this
    const { nx, ny, nz } = this.setup.grid
    const obs = this.obstacles
    if (fromLiquid) this.carryChangeToMarkerFaces()
    // (Unmarked faces hold 0, from the splat or APPLY_CHANGE, so nothing stale survives beyond the band.)
    this.extendFaces({ fu: vel.u, fv: vel.v, fw: vel.w, mu: markU, mv: markV, mw: markW })
    enforceSolidVelocity(vel, this.fractions, obs.moving ? obs.velocity : null, this.kernels)
  }

  /**
   * After the solve: marks (markU/V/W = 1) the faces that touch a liquid cell, and gives the
   * faces outside them that the markers' splat reached (mark 1 from toGrid, kept through the
   * first extension, whose own faces carry marks >= 2) their splatted velocity plus the
   * solve's change extended from the liquid faces, u = u_old + extend(u_new - u_old); those
   * are marked known too, and only faces no marker reached are extended by value.
   *
   * Why: the trilinear stencil of a marker in the top half of a surface cell reaches faces
   * between two air cells, which the pressure solve (p = 0 on both sides, sec. 6.3.1) and the
   * viscous solve leave as they are. Replacing their velocity by the constant extension of
   * sec. 6.3.2 (each takes the mean of its known neighbours) drops the velocity's normal
   * gradient at the surface every substep: a rigidly rotating ball (tests/validation/liquid/
   * rotatingBall.test.ts) lost 0.07% of its angular momentum per substep there, 6.8% over
   * 1 s at 4 substeps per frame and 2.4% at 1 (APIC, nu = 10 m^2/s; the pressure and the
   * viscous solves each lost < 0.3%, the transfers nothing). Keeping the markers' own values
   * as they are (no change) loses nothing but lets those markers fall freely onto the liquid
   * below them (the 16^3 dam break then lost 5% of its volume); adding the liquid's change
   * moves them with it, as FLIP's update does (Zhu & Bridson 2005), and keeps both.
   */
  private carryChangeToMarkerFaces(): void {
    const { velocity: vel, velOld, kind, change } = this
    const { nx, ny, nz } = this.setup.grid
    const marks = this.changeMarks
    // The change on the faces touching liquid (mark 1), 0 elsewhere (mark 0), extended; then
    // known: liquid faces, and open faces the splat reached that the change was extended to
    // (changeCarryKernels.ts).
    this.kernels.run(MARK_CHANGE, vel, velOld, this.fractions, kind, change, marks, nx, ny, nz)
    this.extendFaces({ fu: change.u, fv: change.v, fw: change.w, ...marks })
    this.kernels.run(APPLY_CHANGE, vel, velOld, this.fractions, change, marks, this.knownMarks, nx, ny, nz)
  }

  /** extrapolateLayers on the three face lattices (unmarked faces set to 0 first), on the kernels layer by layer (extendPlanes.ts). */
  private extendFaces(x: ExtensionFields): void {
    const { nx, ny, nz } = this.setup.grid
    extendInLayers(this.kernels, x, nx, ny, nz, 0, EXTRAPOLATION_LAYERS, this.extendLists, this.extendCounts)
  }

  /** extrapolateLayers on the temperature's cells, three layers (values beyond them kept). */
  private extendCells(temp: Float32Array, marks: Uint8Array): void {
    const { nx, ny, nz } = this.setup.grid
    extendInLayers(this.kernels, { fu: temp, fv: temp, fw: temp, mu: marks, mv: marks, mw: marks }, nx, ny, nz, 1, 3, this.extendLists, this.extendCounts)
  }

  /** Liquid emitters of the input; returns the markers added. */
  private emit(input: LiquidSimInput, h: number): number {
    let added = 0
    for (const e of input.emitters) {
      if (e.fluid !== 'liquid' || !(e.rate > 0)) continue
      let em = this.emitters.get(e.id)
      if (!em) {
        em = new LiquidEmitter(e)
        this.emitters.set(e.id, em)
      } else em.update(e)
      added += em.emit(this.particles, this.prng, this.setup.grid, this.setup.particlesPerCell, this.setup.jitter, this.count, this.kind, 1 - Math.exp(-e.rate * h), e)
    }
    return added
  }

  /** Liquid volume from the signed distance of the last substep, m^3 (levelSet.ts levelSetVolume). */
  levelSetVolume(): number {
    this.redistancePhi()
    const { nx, ny, nz, dx } = this.setup.grid
    return levelSetVolume(this.phi, this.kind, this.obstacles.solid, nx, ny, nz, dx)
  }

  frame(opts: FrameOptions = {}): FrameData {
    if (!this.initialised) this.initialise()
    this.redistancePhi()
    const p = this.particles
    const n = p.count
    const kept = opts.transient ? this.frameBuffers : null
    const positions = frameArray(kept, 'positions', 3 * n)
    const velocity = frameArray(kept, 'velocity', 3 * n)
    const temperature = frameCopy(kept, 'temperature', p.temp.subarray(0, n))
    const id = frameArray(kept, 'id', n)
    id.set(p.id.subarray(0, n)) // uint32 ids as float32 values, as the frame's attributes are
    // Kept arrays live in the kernels' memory (see frameBuffers), so the threads interleave
    // them; fresh ones are not, and are filled here.
    const { px, py, pz, vx, vy, vz } = p
    if (kept) this.kernels.run(INTERLEAVE_MARKERS, px, py, pz, vx, vy, vz, positions, velocity, n)
    else interleaveMarkersSlab(px, py, pz, vx, vy, vz, positions, velocity, 0, n)
    const particles: ParticleSet = {
      name: 'liquid',
      count: n,
      positions,
      attributes: { velocity: { components: 3, data: velocity }, temperature: { components: 1, data: temperature }, id: { components: 1, data: id } },
    }
    const { nx, ny, nz, dx, origin } = this.setup.grid
    const vol = (name: string, data: Float32Array): Volume => ({ name, components: 1, dims: [nx, ny, nz], voxelSize: dx, origin: [origin[0], origin[1], origin[2]], data })
    const s = this.lastStats
    return {
      time: this._time,
      frame: this.animFrame,
      volumes: [vol('temperature', frameCopy(kept, 'temperatureGrid', this.temperature)), vol('liquid', frameCopy(kept, 'liquidGrid', this.phi))],
      meshes: [],
      particles: [particles],
      ...(this.rigid ? { rigidBodies: this.rigid.states() } : {}),
      stats: {
        substeps: s.substeps,
        pressureIterations: s.pressureIterations,
        pressureResidual: s.pressureResidual,
        viscosityIterations: s.viscosityIterations,
        viscosityResidual: s.viscosityResidual,
        particleCount: n,
        liquidCells: s.liquidCells,
        cflMax: s.cflMax,
        ...phaseStats(s.ms),
      },
    }
  }

  /**
   * The viscous system, made on first use: its face arrays and solver vectors (about 54 MB at
   * 64x68x64) are never written in an inviscid scene, and the kernel pool commits the pages of
   * every block as it is handed out (slabPool.ts "Committing ahead").
   */
  private viscous(): kinds.ViscositySystem {
    if (this.visc === null) {
      const { nx, ny, nz } = this.setup.grid
      this.visc = new kinds.ViscositySystem(nx, ny, nz, this.kernels)
      this.visc.preconditioner = this.setup.viscositySolve.preconditioner ?? 'auto'
      this.visc.cycleRest = this.viscousCycleRest
    }
    return this.visc
  }

  checkpoint(): Uint8Array {
    this.redistancePhi()
    const { nx, ny, nz } = this.setup.grid
    return writeLiquidCheckpoint(
      [nx, ny, nz],
      { time: this._time, animFrame: this.animFrame, prngState: this.prng.state, initialised: this.initialised, surfaceReady: this.surface.ready, viscousCycleRest: this.visc?.cycleRest ?? this.viscousCycleRest },
      this.particles,
      { temperature: this.temperature, phi: this.phi, phiRaw: this.phiRaw, pressure: this.pressure.q, pressureDrift: this.pressure.qDrift, surface: this.surface.phi, rigid: this.rigid?.serialise() },
    )
  }

  restore(bytes: Uint8Array): void {
    const { nx, ny, nz } = this.setup.grid
    const grids = { temperature: this.temperature, phi: this.phi, phiRaw: this.phiRaw, pressure: this.pressure.q, pressureDrift: this.pressure.qDrift, surface: this.surface.phi, rigid: this.rigid?.serialise() }
    const s = readLiquidCheckpoint(bytes, [nx, ny, nz], this.particles, grids)
    if (this.rigid && grids.rigid) this.rigid.restore(grids.rigid)
    this._time = s.time
    this.surface.ready = s.surfaceReady
    this.viscousCycleRest = s.viscousCycleRest
    if (this.visc) this.visc.cycleRest = s.viscousCycleRest
    this.animFrame = s.animFrame
    this.prng.state = s.prngState
    this.initialised = s.initialised
    this.obstacles.invalidate()
    this.fractionsVersion = -1
    this.phiPending = false
    this.emitters.clear()
    this.lastStats = emptyStats()
  }
}

/**
 * Whether the markers are all at one temperature that nothing changes: no heat source with a
 * rate, and no cooling or cooling towards exactly that temperature (as float32, how markers
 * store it). One pass over the markers' temperatures, by blocks on `kernels`' threads
 * (MARKERS_OFF_TEMPERATURE; partial: at least one float64 per SPEED_BLOCK markers, in the
 * kernels' memory).
 */
export function isothermalMarkers(p: Pick<MarkerParticles, 'count' | 'temp'>, sources: readonly HeatSourceInput[], ambient: number, coolingRate: number, kernels: KernelBackend = TS_KERNELS, partial: Float64Array | null = null): boolean {
  for (const s of sources) if (s.rate > 0) return false
  if (p.count === 0) return true
  const t0 = p.temp[0]
  if (coolingRate > 0 && t0 !== Math.fround(ambient)) return false
  const blocks = Math.ceil(p.count / SPEED_BLOCK)
  const sums = partial !== null && partial.length >= blocks ? partial : kernels.f64(blocks)
  // (A NaN t0 differs from itself: one marker alone is still one temperature.)
  return kernels.run(MARKERS_OFF_TEMPERATURE, p.temp, t0, p.count, sums) === (t0 !== t0 ? 1 : 0)
}
