// Smoke on a hybrid tetrahedral/hexahedral mesh (Feldman, O'Brien and Klingner 2005, seed 000)
// with the grid smoke's buoyancy, vorticity confinement and vortex particles (Selle 2005).
// Operator splitting as section 3 (after Stam 1999): add forces, advect, project. One substep h:
//   1. obstacles placed at the substep's end; if one moved, the band is remeshed around it and
//      the state carried onto the new mesh (HybridFields.carryOnto);
//   2. emitters refill density and temperature in the cells whose centres are inside, inflow
//      velocity on the faces whose centres are inside, and seed tracker and vortex particles;
//   3. vertex velocities by constant-basis MLS (eqs. 7-10); density, temperature and face
//      velocities advected semi-Lagrangian (section 3.3): traced back through the vertex field,
//      the carried velocity read by linear-basis MLS (eq. 11) in tetrahedra and transition
//      cells, trilinearly in plain hexahedra; tracker and vortex particles moved by the same
//      vertex field;
//   4. body forces per cell (buoyancy, vorticity confinement, vortex particles) put on faces by
//      the volume-weighted average of eq. 5; dissipation;
//   5. closed faces take the solid's normal velocity; projection (eq. 6, hybridProjection.ts);
//   6. stability guard.
// Deterministic (no clocks in the numbers, a seeded PRNG) and fully checkpointable.
import { EddyError } from '../../api/errors'
import { eulerXYZDegToMatrix, PrimitiveSdf } from '../../geometry/primitiveSdf'
import { type ParsedCheckpoint, readCheckpoint, readOptionalF64, writeCheckpoint } from '../core/checkpoint'
import { Prng } from '../core/prng'
import { VortexParticles } from '../core/vortexParticles'
import { seedFromEmitter, seedVortexBall } from '../core/vortexSeeding'
import type { FrameData, ParticleSet, Volume } from '../frame'
import { emptyStepStats, phaseStats, type Solver, type StepControl, type StepStats } from '../solver'
import { runSubsteps } from '../substeps'
import { now } from '../wallClock'
import { HybridFields } from './hybridFields'
import type { HybridSetup, HybridSimInput } from './hybridInput'
import { buildHybridMesh, type HybridMesh } from './hybridMesh'
import { HybridObstacles, type Placement } from './hybridObstacles'
import { addParticleForcesToCells, advectHybridParticles, HybridCellBins, kernelMeanCellVelocity, markLostHybridParticles, particleSaturation, stretchHybridParticles } from './hybridVortexParticles'
import { TrackerParticles } from './trackerParticles'

const CHECKPOINT_KIND = 'hybrid'
export const HYBRID_PHASES = ['meshing', 'advection', 'forces', 'vortexParticles', 'projection'] as const
/** A vortex particle's velocity is averaged over at least this many cells around it (the grid smoke's rule). */
const PARTICLE_VELOCITY_MIN_CELLS = 2
/** A velocity above maxSubsteps x cfl x h / dt times this is a blow-up. */
const INSTABILITY_FACTOR = 2

export class HybridSolver implements Solver<HybridSimInput> {
  readonly setup: HybridSetup
  private mesh: HybridMesh | null = null
  private fields: HybridFields | null = null
  /**
   * The kernels' arena mark taken before the current fields were made: everything above it is
   * theirs, given back when a remesh or a restore replaces them (KernelBackend.release). A
   * bake's kernels serve its one solver (bake/runner.ts), so nothing else lies above the mark.
   */
  private fieldsMark: number | null = null
  private obstacles: HybridObstacles | null = null
  /** Placements to rebuild the mesh at after a restore (by obstacle id). */
  private restoredPlacements: Map<string, Placement> | null = null
  /** Face velocities, density and temperature restored before the mesh exists. */
  private restoredState: { z: Float64Array; density: Float64Array; temperature: Float64Array; p: Float64Array; pPrev: Float64Array | null; pressureSteps: unknown } | null = null
  readonly trackers: TrackerParticles
  readonly vortex: VortexParticles
  private bins: HybridCellBins | null = null
  /** Vortex-seed objects that placed their particles already (once each). */
  private readonly seeded = new Set<string>()
  private readonly pvel = new Float64Array(3)
  private readonly prng: Prng
  private _time = 0
  private animFrame = 1
  private lastStats: StepStats = emptyStepStats(HYBRID_PHASES)
  /** The cells' speed the last guard measured, on which fields (speedNow); null once a substep starts. */
  private guardSpeed: { fields: HybridFields; cells: number } | null = null
  private readonly scratch = new Float64Array(3)
  private readonly axis = new Float64Array(9)

  constructor(setup: HybridSetup) {
    this.setup = setup
    this.trackers = new TrackerParticles(setup.maxParticles)
    this.vortex = new VortexParticles(setup.maxParticles)
    this.prng = new Prng(setup.seed)
  }

  get time(): number {
    return this._time
  }

  /** The current mesh (null before the first step). */
  get currentMesh(): HybridMesh | null {
    return this.mesh
  }

  get state(): HybridFields | null {
    return this.fields
  }

  private buildMesh(obstacles: HybridObstacles): HybridMesh {
    const { grid, mode, bandCells, sides } = this.setup
    return buildHybridMesh({ grid, obstacle: obstacles.field(), mode, bandCells, sides })
  }

  /** Places the obstacles at `offset` into the frame; remeshes (and carries the state over) when they moved. */
  private placeObstacles(input: HybridSimInput, offset: number, stats: StepStats): void {
    const placed = new HybridObstacles(input.obstacles, offset, this.restoredPlacements ?? undefined)
    this.restoredPlacements = null
    if (this.mesh && this.obstacles && placed.samePlacement(this.obstacles)) {
      this.obstacles = placed
      return
    }
    const t0 = now()
    const initial = this.setup.initial
    const first = !this.mesh && !this.fields && placed.samePlacement(initial.obstacles)
    const mesh = first ? initial.mesh : this.buildMesh(placed)
    const ambient = input.family.buoyancy.ambientTemperature
    // The old mesh's state, interpolated onto the new one while the old still exists; then the
    // old mesh's kernel memory goes back, and the new mesh's fields take it (HybridSetup.kernels).
    const carried = this.fields ? this.fields.carryOnto(mesh, placed, ambient) : null
    this.fields = null
    const kernels = this.setup.kernels
    if (kernels && this.fieldsMark !== null) kernels.release(this.fieldsMark)
    this.fieldsMark = kernels ? kernels.mark() : null
    const fields = new HybridFields(mesh, ambient, placed, kernels, this.setup.keyframedObstacles ? 'aggregation' : 'splitting')
    if (carried) fields.loadCarried(carried)
    else if (this.restoredState) {
      fields.load(this.restoredState)
      this.restoredState = null
    }
    this.mesh = mesh
    this.fields = fields
    this.obstacles = placed
    this.bins = new HybridCellBins(mesh)
    stats.ms.meshing += now() - t0
  }

  step(dt: number, input: HybridSimInput, control?: StepControl): StepStats {
    const stats = emptyStepStats(HYBRID_PHASES)
    this.animFrame = input.frame
    if (!this.mesh) this.placeObstacles(input, 0, stats)
    const h0 = this.setup.grid.dx
    runSubsteps(dt, input, h0, this._time, {
      speed: () => this.speedNow(input),
      reach: 0,
      substep: (h, offset) => this.substep(h, offset, input, stats),
      guard: () => this.guard(dt, input),
    }, stats, control)
    stats.particleCount = this.trackers.count + this.vortex.count
    this._time += dt
    this.lastStats = stats
    return stats
  }

  /**
   * The next substep's speed (HybridFields.maxSpeed): the cells' part as the last guard measured
   * it when no substep ran since on the same fields (a pass over every cell, done once instead
   * of twice between two substeps and across a frame's end), the emitters' from this frame.
   */
  private speedNow(input: HybridSimInput): number {
    const f = this.fields!, g = this.guardSpeed
    return f.maxSpeed(input, g !== null && g.fields === f ? g.cells : f.cellSpeed())
  }

  private substep(h: number, offset: number, input: HybridSimInput, stats: StepStats): void {
    this.guardSpeed = null
    this.placeObstacles(input, offset + h, stats)
    const f = this.fields!, P = this.vortex
    const cellAt = (x: number, y: number, z: number) => f.cellAt(x, y, z)
    let t = now()
    this.emit(h, this._time + offset, input)
    f.advect(h, this.trackers)
    stats.ms.advection += now() - t
    t = now()
    const vp = input.family.vortex
    if (P.count > 0 && vp.confinement > 0) {
      // Selle 2005 sec. 5, regularised and saturated as the grid smoke does it; the cells'
      // forces join buoyancy and confinement on the faces by eq. 5.
      f.vorticity.compute(f.z)
      particleSaturation(P, f.vorticity.omega, cellAt)
      addParticleForcesToCells(this.bins!, P, P.fx, P.fy, P.fz, vp.confinement, f.fx, f.fy, f.fz)
    }
    stats.ms.vortexParticles += now() - t
    t = now()
    f.addForces(h, input.family)
    stats.ms.forces += now() - t
    t = now()
    f.setClosedFaces(this.obstacles!)
    const s = f.project(input.family.tolerance, h)
    stats.pressureIterations += s.iterations
    stats.pressureResidual = Math.max(stats.pressureResidual, s.residual)
    stats.ms.projection += now() - t
    // Particles ride the projected velocity (Selle 2005 sec. 4): each reads the cell velocities
    // averaged over its own kernel (not its own swirl), then is stretched by the cell gradient.
    t = now()
    if (P.count > 0) {
      f.vorticity.compute(f.z)
      const dx = this.setup.grid.dx, bins = this.bins!, u = f.vorticity.velocity, pv = this.pvel
      advectHybridParticles(P, h, (x, y, z, out, p) => {
        const R = Math.max(P.r[p], PARTICLE_VELOCITY_MIN_CELLS * dx)
        if (!kernelMeanCellVelocity(bins, u, x, y, z, R, pv)) { pv[0] = 0; pv[1] = 0; pv[2] = 0 }
        out[0] = pv[0]; out[1] = pv[1]; out[2] = pv[2]
      }, this.scratch)
      stretchHybridParticles(P, h, f.vorticity.gradient, cellAt)
      if (markLostHybridParticles(P, cellAt) > 0) P.compact()
    }
    stats.ms.vortexParticles += now() - t
  }

  /**
   * Emitters: refill cells and inflow faces; seed tracker and vortex particles, floor(rate t)
   * since the bake's start (so no fraction to carry and any substep split seeds the same
   * total); vortex-seed objects once each. All randomness from the seeded PRNG, in input order.
   */
  private emit(h: number, tStart: number, input: HybridSimInput): void {
    const f = this.fields!
    const due = (rate: number) => Math.max(0, Math.floor(rate * (tStart + h)) - Math.floor(rate * tStart))
    const dx = this.setup.grid.dx
    for (const s of input.family.vortexSeeds) {
      if (this.seeded.has(s.id)) continue
      this.seeded.add(s.id)
      seedVortexBall(this.vortex, this.prng, s, input.family.vortex.radiusCells * dx)
    }
    for (const e of input.emitters) {
      if (e.fluid !== 'gas') continue
      const sdf = new PrimitiveSdf(e.shape, { position: e.position, rotation: e.rotation, scale: e.scale })
      if (e.rate > 0) f.emit(sdf, 1 - Math.exp(-e.rate * h), e.density, e.temperature, e.velocity)
      const trackers = due(e.trackerRate)
      for (let n = 0; n < trackers; n++) {
        if (!this.sampleInside(sdf)) break
        if (!this.trackers.add(this.scratch[0], this.scratch[1], this.scratch[2])) break
      }
      const vortices = due(e.vortex.rate)
      if (vortices > 0) {
        // The emitter's local Y axis in world space: the cylinder the spin axes are tangent to.
        const m = eulerXYZDegToMatrix(e.rotation, this.axis)
        const axis = [m[1], m[4], m[7]]
        seedFromEmitter(this.vortex, this.prng, e, sdf, axis, vortices, e.vortex.radiusCells * dx, this.scratch)
      }
    }
    const cellAt = (x: number, y: number, z: number) => f.cellAt(x, y, z)
    if (this.vortex.count > 0 && markLostHybridParticles(this.vortex, cellAt) > 0) this.vortex.compact()
  }

  /** A point inside sdf by rejection sampling of its bounds into scratch; false if none found. */
  private sampleInside(sdf: PrimitiveSdf): boolean {
    const { min, max } = sdf.bounds
    for (let tries = 0; tries < 64; tries++) {
      const x = this.prng.range(min[0], max[0]), y = this.prng.range(min[1], max[1]), z = this.prng.range(min[2], max[2])
      if (sdf.distance(x, y, z) <= 0 && this.fields!.cellAt(x, y, z) >= 0) {
        this.scratch[0] = x; this.scratch[1] = y; this.scratch[2] = z
        return true
      }
    }
    return false
  }

  private guard(dt: number, input: HybridSimInput): void {
    const f = this.fields!
    const cells = f.cellSpeed()
    this.guardSpeed = { fields: f, cells }
    const speed = f.maxSpeed(input, cells)
    const limit = (INSTABILITY_FACTOR * input.maxSubsteps * input.cfl * this.setup.grid.dx) / dt
    if (!(speed <= limit)) {
      throw new EddyError('SIM_UNSTABLE', Number.isNaN(speed)
        ? `The hybrid-mesh smoke became NaN at t=${this._time.toFixed(4)} s`
        : `The hybrid-mesh smoke became unstable at t=${this._time.toFixed(4)} s: speed ${speed.toPrecision(3)} m/s exceeds what ${input.maxSubsteps} substeps can follow (${limit.toPrecision(3)} m/s); raise Max substeps or lower the emitters' velocity`, { time: this._time })
    }
  }

  frame(): FrameData {
    const { nx, ny, nz, dx, origin } = this.setup.grid
    const dims: [number, number, number] = [nx, ny, nz]
    const volume = (name: string, components: 1 | 3, data: Float32Array): Volume => ({ name, components, dims: [...dims], voxelSize: dx, origin: [origin[0], origin[1], origin[2]], data })
    const n = nx * ny * nz
    const density = new Float32Array(n), temperature = new Float32Array(n), velocity = new Float32Array(3 * n)
    if (this.fields) this.fields.resample(density, temperature, velocity)
    const particles: ParticleSet[] = []
    const T = this.trackers
    if (T.count > 0) {
      particles.push({ name: 'trackers', count: T.count, positions: T.positionsF32(), attributes: { id: { components: 1, data: T.idsF32() } } })
    }
    if (this.vortex.count > 0) particles.push(vortexParticleSet(this.vortex))
    const mesh = this.mesh
    return {
      time: this._time,
      frame: this.animFrame,
      volumes: [volume('density', 1, density), volume('temperature', 1, temperature), volume('velocity', 3, velocity)],
      meshes: [],
      particles,
      stats: {
        substeps: this.lastStats.substeps,
        pressureIterations: this.lastStats.pressureIterations,
        pressureResidual: this.lastStats.pressureResidual,
        particles: this.lastStats.particleCount,
        cflMax: this.lastStats.cflMax,
        hexahedra: mesh ? mesh.hexCount : 0,
        tetrahedra: mesh ? mesh.tetCount : 0,
        minDihedral: mesh?.quality ? mesh.quality.minDihedral : 0,
        maxDihedral: mesh?.quality ? mesh.quality.maxDihedral : 0,
        ...phaseStats(this.lastStats.ms),
      },
    }
  }

  checkpoint(): Uint8Array {
    const f = this.fields, P = this.vortex, c = P.count
    const placements: Record<string, Placement> = {}
    this.obstacles?.obstacles.forEach((o, i) => { placements[o.id] = this.obstacles!.placements[i] })
    // (pPrev and pressureSteps: the next solve's start is extrapolated from the last two, core/pressureGuess.ts.)
    const state: [string, Float64Array][] = f ? [['z', f.z], ['density', f.density], ['temperature', f.temperature], ['p', f.pressure], ['pPrev', f.guess.prev]] : []
    return writeCheckpoint(
      CHECKPOINT_KIND,
      {
        time: this._time,
        animFrame: this.animFrame,
        prng: this.prng.state,
        // The mesh is rebuilt on restore from the obstacles' placements when it was made.
        meshed: f !== null,
        pressureSteps: f?.guess.steps ?? [0, 0],
        faces: this.mesh?.faceCount ?? 0,
        cells: this.mesh?.cellCount ?? 0,
        placements,
        trackerCount: this.trackers.count,
        trackerNextId: this.trackers.nextId,
        vortexCount: c,
        vortexNextId: P.nextId,
        seeded: [...this.seeded],
      },
      [
        ...state,
        ...this.trackers.sections(),
        ['px', P.px.subarray(0, c)], ['py', P.py.subarray(0, c)], ['pz', P.pz.subarray(0, c)],
        ['wx', P.wx.subarray(0, c)], ['wy', P.wy.subarray(0, c)], ['wz', P.wz.subarray(0, c)],
        ['r', P.r.subarray(0, c)], ['id', P.id.subarray(0, c)],
      ],
    )
  }

  restore(bytes: Uint8Array): void {
    const ck = readCheckpoint(CHECKPOINT_KIND, bytes)
    const m = ck.meta as { time: number; animFrame: number; prng: number; meshed: boolean; faces: number; cells: number; placements: Record<string, Placement>; trackerCount: number; trackerNextId: number; vortexCount: number; vortexNextId: number; seeded: string[] }
    const bad = (what: string) => new EddyError('INVALID_PARAM', `Checkpoint is not usable: ${what}`, { field: 'checkpoint' })
    if (!Number.isInteger(m.faces) || !Number.isInteger(m.cells) || m.faces < 0 || m.cells < 0) throw bad('bad face or cell count')
    if (!Number.isInteger(m.vortexCount) || m.vortexCount < 0 || m.vortexCount > this.vortex.maxCount) throw bad(`${m.vortexCount} vortex particles, more than the ${this.vortex.maxCount} allowed`)
    let state: HybridSolver['restoredState'] = null
    if (m.meshed) {
      state = { z: new Float64Array(m.faces), density: new Float64Array(m.cells), temperature: new Float64Array(m.cells), p: new Float64Array(m.cells), pPrev: readOptionalF64(ck, 'pPrev', m.cells), pressureSteps: (m as { pressureSteps?: unknown }).pressureSteps }
      ck.read('z', state.z)
      ck.read('density', state.density)
      ck.read('temperature', state.temperature)
      ck.read('p', state.p)
    }
    this.trackers.restore(ck, m.trackerCount, m.trackerNextId)
    readVortex(ck, this.vortex, m.vortexCount, m.vortexNextId)
    this._time = m.time
    this.animFrame = m.animFrame
    this.prng.state = m.prng
    this.mesh = null
    this.fields = null
    this.obstacles = null
    this.bins = null
    this.restoredState = state
    this.restoredPlacements = m.meshed ? new Map(Object.entries(m.placements)) : null
    this.seeded.clear()
    for (const id of m.seeded) this.seeded.add(id)
  }
}

/** The vortex particles as a frame's particle set (the grid smoke's names and attributes). */
function vortexParticleSet(P: VortexParticles): ParticleSet {
  const n = P.count
  const positions = new Float32Array(3 * n), vorticity = new Float32Array(3 * n), ids = new Float32Array(n), radius = new Float32Array(n)
  for (let p = 0; p < n; p++) {
    positions[3 * p] = P.px[p]; positions[3 * p + 1] = P.py[p]; positions[3 * p + 2] = P.pz[p]
    vorticity[3 * p] = P.wx[p]; vorticity[3 * p + 1] = P.wy[p]; vorticity[3 * p + 2] = P.wz[p]
    ids[p] = P.id[p]
    radius[p] = P.r[p]
  }
  return { name: 'vortexParticles', count: n, positions, attributes: { vorticity: { components: 3, data: vorticity }, id: { components: 1, data: ids }, radius: { components: 1, data: radius } } }
}

function readVortex(ck: ParsedCheckpoint, P: VortexParticles, c: number, nextId: number): void {
  P.clear()
  P.reserve(c)
  ck.read('px', P.px.subarray(0, c)); ck.read('py', P.py.subarray(0, c)); ck.read('pz', P.pz.subarray(0, c))
  ck.read('wx', P.wx.subarray(0, c)); ck.read('wy', P.wy.subarray(0, c)); ck.read('wz', P.wz.subarray(0, c))
  ck.read('r', P.r.subarray(0, c)); ck.read('id', P.id.subarray(0, c))
  P.dead.fill(0)
  P.count = c
  P.nextId = nextId
}
