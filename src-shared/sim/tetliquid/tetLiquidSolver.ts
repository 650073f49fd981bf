// Liquids on lattice-based tetrahedral meshes (Chentanez et al. 2007, seed 003), one substep
// as the paper's Figure 2:
//   1. the new surface S_{t+1} by semi-Lagrangian contouring (section 3.2, surfaceTracking.ts):
//      every contouring node near the surface is traced back through u_t on M_t and takes S_t's
//      signed distance there; obstacles are cut out, inflow emitters united in;
//   2. the new mesh M_{t+1} by isosurface stuffing of S_{t+1} (section 3.3, liquidMesh.ts);
//   3. velocities advected onto M_{t+1} (eq. 3): each face barycentre traced back through M_t
//      with the fast (smoothed) field and the accurate field read at the end (meshVelocity.ts),
//      the normal component kept;
//   4. body forces (eq. 4), u** = u* + h f / rho, here gravity;
//   5. projection (eqs. 5-6) by finite volumes on M_{t+1} (tetfv/tetProjection.ts): liquid-air
//      faces open (p = 0), liquid-obstacle faces closed, the system solved by conjugate
//      gradients preconditioned by the paper's algebraic multigrid (section 3.5).
import { EddyError } from '../../api/errors'
import { PrimitiveSdf } from '../../geometry/primitiveSdf'
import { AmgPreconditioner } from '../core/amg/amgHierarchy'
import { readCheckpoint, writeCheckpoint } from '../core/checkpoint'
import { TS_KERNELS } from '../core/kernelBackend'
import { TetProjection } from '../core/tetfv/tetProjection'
import { computeTetGeometry } from '../core/tetfv/tetGeometry'
import { buildTetTopology } from '../core/tetfv/tetTopology'
import type { FrameData, Volume } from '../frame'
import { tetCutaway } from './cutaway'
import type { Solver, StepControl, StepStats } from '../solver'
import { emptyStepStats, phaseStats } from '../solver'
import { runSubsteps } from '../substeps'
import { now } from '../wallClock'
import { ContouredSurface, contourNodeGrid } from './contourGrid'
import { buildLiquidMesh, type LiquidMesh } from './liquidMesh'
import { MeshLocation } from './meshLocation'
import { MeshVelocity } from './meshVelocity'
import { openSides, Solids } from './solids'
import { MeshOffset, medialParticles, particleSurface } from './thickening'
import { advancedDistance, advanceSurface, initialSurface } from './surfaceTracking'
import { TraceDistanceRow } from './traceDistanceRow'
import { freeArea, MAX_SHIFT_CELLS, outflow, volumeInBox } from './volumeControl'
import type { TetLiquidInput, TetLiquidSetup } from './tetLiquidSetup'

export const TET_LIQUID_PHASES = ['tracking', 'meshing', 'advection', 'projection'] as const

const CHECKPOINT_KIND = 'tetliquid'

export class TetLiquidSolver implements Solver<TetLiquidInput> {
  private t = 0
  private animFrame = 1
  private readonly grid
  /** The contouring grid's signed distance of the current surface. */
  private phi: Float32Array
  private surface: ContouredSurface
  private mesh: LiquidMesh | null = null
  /** Normal velocity per face of `mesh`. */
  private u = new Float64Array(0)
  private velocityCache: MeshVelocity | null = null
  /** The current mesh's MeshLocation: built while its faces are traced (remesh), or when first asked. */
  private location: MeshLocation | null = null
  private lastStats: StepStats = emptyStepStats(TET_LIQUID_PHASES)
  private lastPressureIterations = 0
  private readonly kernels
  /** Volume control (volumeControl.ts): the volume the liquid should hold, m^3. */
  private targetVolume: number
  /** How far the next step moves the surface outwards to meet targetVolume, m. */
  private shift = 0

  constructor(readonly setup: TetLiquidSetup) {
    this.kernels = setup.kernels ?? TS_KERNELS
    this.grid = contourNodeGrid(setup.box, setup.contourSpacing)
    this.phi = initialSurface(this.grid, this.band, setup.volumes, openSides(setup.sides))
    this.surface = ContouredSurface.contour(this.phi, this.grid, this.band, (x, y, z) => {
      let d = Infinity
      for (const v of setup.volumes) d = Math.min(d, v.field.distance(x, y, z))
      return d
    })
    this.targetVolume = volumeInBox(this.surface.positions, this.surface.indices, setup.box)
  }

  get time(): number {
    return this.t
  }

  /** Clamp distance of the contouring grid: a few finest tetrahedra. */
  get band(): number {
    return 3 * this.setup.spacing
  }

  /** The current mesh (null before the first step or with no liquid), for tests and the bench. */
  get currentMesh(): LiquidMesh | null {
    return this.mesh
  }

  /** Face velocities of the current mesh. */
  get faceVelocities(): Float64Array {
    return this.u
  }

  get contouredSurface(): ContouredSurface {
    return this.surface
  }

  step(dt: number, input: TetLiquidInput, control?: StepControl): StepStats {
    const stats = emptyStepStats(TET_LIQUID_PHASES)
    this.lastPressureIterations = 0
    const solidsAt = (offset: number) => new Solids(this.setup.box, this.setup.sides, movedObstacles(input, offset))
    if (this.mesh === null) this.remesh(solidsAt(0), input, stats, true)
    const g = input.family.gravity
    // CFL in contouring cells: the surface tracker's resolution is what a long step blurs.
    runSubsteps(dt, input, this.setup.contourSpacing, this.t, {
      speed: () => this.velocity().maxSpeed(),
      reach: Math.sqrt(Math.hypot(g[0], g[1], g[2]) * this.setup.contourSpacing),
      substep: (h, offset) => this.substep(h, input, solidsAt(offset + h), stats),
      guard: () => {
        for (let f = 0; f < this.u.length; f++) {
          if (!Number.isFinite(this.u[f])) throw new EddyError('SIM_UNSTABLE', `The tetrahedral liquid's velocity became ${this.u[f]} at t=${this.t.toFixed(4)} s`, { time: this.t })
        }
      },
    }, stats, control)
    this.animFrame = input.frame + 1
    stats.pressureIterations = this.lastPressureIterations
    this.lastStats = stats
    return stats
  }

  private velocity(): MeshVelocity {
    if (this.velocityCache === null) {
      const m = this.mesh
      if (m === null) throw new EddyError('INTERNAL', 'tetrahedral liquid: velocity asked before the first mesh')
      this.location ??= new MeshLocation(m.topology, m.geometry, m.positions, this.setup.spacing, this.setup.box)
      this.velocityCache = new MeshVelocity(m.topology, m.geometry, m.positions, this.u, this.location, { normals: m.solidNormals, velocities: m.solidVelocities })
    }
    return this.velocityCache
  }

  private substep(h: number, input: TetLiquidInput, solids: Solids, stats: StepStats): void {
    const old = this.velocity()
    let t0 = now()
    const { contourSpacing: hs, thickening } = this.setup
    const { thinness, breakUp, thinSplit, growThick, growThin } = input.family
    // The paper grows thin parts by r_ib and r_is a step, and steps once a frame; with several
    // substeps a frame the growth is shared out over them (at 8 substeps a frame, growing the full
    // amount every substep gained 72% of a dam break's volume in 100 frames).
    const perFrame = input.frameDt > 0 ? Math.min(1, h / input.frameDt) : 1
    // Surface thickening (section 3.4.3): gamma = thinness x the contouring cell.
    const particles = thickening
      ? particleSurface(medialParticles(this.surface, this.surface.normals, thinness * hs, solids.room), old, h, { cell: hs, gamma: thinness * hs, redistribute: breakUp * hs, split: thinSplit, growThick: growThick * hs * perFrame, growThin: growThin * hs * perFrame })
      : null
    const control = this.setup.volumeCorrection
    const budget = { inflow: 0 }
    const advance = {
      phi: this.phi, grid: this.grid, band: this.band, surface: this.surface, velocity: old, dt: h, solids,
      emitters: input.emitters.filter((e) => e.fluid === 'liquid' && e.rate > 0),
      particles,
      shift: control ? this.shift : 0,
      budget,
    }
    // The back-traces and S_t's distances of the nodes, then of S_{t+1}'s vertices, on the
    // kernels (traceDistanceKernel.ts), in memory given back once S_{t+1} stands.
    this.kernels.scoped(() => {
      const traced = { ...advance, trace: new TraceDistanceRow(this.kernels, old, this.surface, h) }
      this.phi = advanceSurface(traced)
      // The mesher reads S_{t+1}'s far field: it is built while the vertices are traced.
      this.surface = ContouredSurface.contour(this.phi, this.grid, this.band, advancedDistance(traced), true)
    })
    if (control) this.controlVolume(budget.inflow - outflow(this.phi, this.grid, solids.open, old, h), solids)
    stats.ms.tracking += now() - t0
    this.t += h
    this.remesh(solids, input, stats, false, old, h)
  }

  /**
   * Volume control (volumeControl.ts): the budget moves by what emitters and open sides
   * exchanged in this step, and the next step's surface shift makes up the difference between
   * it and the volume S now holds.
   */
  private controlVolume(exchanged: number, solids: Solids): void {
    const s = this.surface
    this.targetVolume = Math.max(0, this.targetVolume + exchanged)
    const area = freeArea(s.positions, s.indices, solids.room, this.setup.contourSpacing)
    if (!(area > 0)) {
      this.shift = 0
      return
    }
    const limit = MAX_SHIFT_CELLS * this.setup.contourSpacing
    const shift = (this.targetVolume - volumeInBox(s.positions, s.indices, this.setup.box)) / area
    this.shift = shift > limit ? limit : shift < -limit ? -limit : shift
  }

  /**
   * Builds M for the current surface and gives it velocities: advected from `old` over h
   * seconds, or (first mesh) the initial volumes' velocities; then forces and projection.
   */
  private remesh(solids: Solids, input: TetLiquidInput, stats: StepStats, first: boolean, old?: MeshVelocity, h = 0): void {
    let t0 = now()
    const surface = this.surface
    // The surface's value is read at least one contouring spacing inside the box: the grid is
    // clipped to 0 on the walls, which makes the field nearly flat in the cells along walls and
    // in their corners, and stuffing then leaves boundary vertices hanging off the walls (open
    // faces beside the floor, through which a pool at rest drained). Read from inside, the
    // liquid is clearly inside up to the wall and the box's own distance puts the boundary
    // exactly on it.
    const { box, contourSpacing: hs } = this.setup
    const lo = [box.min[0] + hs, box.min[1] + hs, box.min[2] + hs], hi = [box.max[0] - hs, box.max[1] - hs, box.max[2] - hs]
    // Mesh thickening (section 3.4.2): gamma = thinness x the finest tetrahedron edge.
    const spacing = this.setup.spacing
    const offset = this.setup.thickening ? new MeshOffset(medialParticles(surface, surface.normals, input.family.thinness * spacing, solids.room), input.family.meshThickness * spacing, input.family.meshThickeningRadius * spacing) : null
    const surfaceLevel = (x: number, y: number, z: number) => surface.estimateFar(clamp(x, lo[0], hi[0]), clamp(y, lo[1], hi[1]), clamp(z, lo[2], hi[2]))
    const mesh = buildLiquidMesh({
      spacing,
      box: this.setup.box,
      mode: this.setup.mesh,
      liquid: (x, y, z) => {
        let f = surfaceLevel(x, y, z)
        // The offset lies in [0, gamma_mesh], so the padded surface (f = offset) lies where
        // 0 <= f <= gamma_mesh. The kernel sum is only needed near it; further out f itself
        // (inside) or f - gamma_mesh (outside) keeps the sign and is still a lower bound on the
        // distance to the padded surface, which is all the graded lattice's refinement and the
        // cut points' bracketing need. That skips most of the sums (a quarter of a dam break's
        // time went to them).
        if (offset !== null) {
          if (f > offset.gammaMesh + spacing) f -= offset.gammaMesh
          else if (f > -spacing) f -= offset.at(x, y, z)
        }
        return Math.max(f, solids.room(x, y, z))
      },
      solids: solids.any ? solids : null,
    })
    stats.ms.meshing += now() - t0
    t0 = now()
    const { faceCount } = mesh.topology
    const { faceCentres: c, faceNormals: n } = mesh.geometry
    const u = new Float64Array(faceCount)
    const v = new Float64Array(3)
    let location: MeshLocation | null = null
    if (first) {
      for (let f = 0; f < faceCount; f++) {
        initialVelocity(this.setup, c[3 * f], c[3 * f + 1], c[3 * f + 2], v)
        u[f] = v[0] * n[3 * f] + v[1] * n[3 * f + 1] + v[2] * n[3 * f + 2]
      }
    } else {
      // Each face barycentre traced back through M_t, the accurate field read at the end, as
      // one batch on the kernels (traceDistanceKernel.ts traceVelocities: the classes' bits).
      // Meanwhile this thread builds the new mesh's MeshLocation, which needs no velocities: the
      // worker threads trace while it does (about a tenth of a substep at resolution 96).
      this.kernels.scoped(() => {
        const row = new TraceDistanceRow(this.kernels, old!, null, h)
        const points = row.triples(faceCount), normals = row.triples(faceCount)
        points.set(c.subarray(0, 3 * faceCount))
        normals.set(n.subarray(0, 3 * faceCount))
        const traced = row.velocities(points, normals, faceCount, () => {
          location = new MeshLocation(mesh.topology, mesh.geometry, mesh.positions, this.setup.spacing, this.setup.box)
        })
        u.set(traced.subarray(0, faceCount))
      })
    }
    // Inflow: emitters set the velocity of the faces inside them. Gravity acts through the
    // projection (project(), below), not as a per-face addition.
    const inflow = input.emitters.filter((e) => e.fluid === 'liquid' && e.rate > 0).map((e) => ({ e, sdf: new PrimitiveSdf(e.shape, e) }))
    for (let f = 0; f < faceCount; f++) {
      const nx = n[3 * f], ny = n[3 * f + 1], nz = n[3 * f + 2]
      for (const { e, sdf } of inflow) {
        if (sdf.distance(c[3 * f], c[3 * f + 1], c[3 * f + 2]) < 0) u[f] = e.velocity[0] * nx + e.velocity[1] * ny + e.velocity[2] * nz
      }
    }
    // Closed faces carry the solid's normal velocity.
    const { boundaryFaces } = mesh.topology
    for (let i = 0; i < boundaryFaces.length; i++) {
      const f = boundaryFaces[i]
      if (mesh.openFaces[f]) continue
      solids.velocityAt(c[3 * f], c[3 * f + 1], c[3 * f + 2], v)
      u[f] = v[0] * n[3 * f] + v[1] * n[3 * f + 1] + v[2] * n[3 * f + 2]
    }
    stats.ms.advection += now() - t0
    t0 = now()
    this.project(mesh, u, h, input.family.gravity, surfaceLevel)
    stats.ms.projection += now() - t0
    this.mesh = mesh
    this.u = u
    this.location = location
    this.velocityCache = null
  }

  /**
   * Body forces and projection (eqs. 4-6) together. Adding h g . n_f to every face and then
   * projecting is not exact for a liquid at rest on these meshes: the barycentric normal
   * gradient (eq. 7) is not linearly consistent (the paper: "our free surfaces move even when
   * gravity is the only force applied to a pool of water"), and a pool grew currents of 0.1 m/s
   * a frame along its walls. Gravity is a gradient, so it is folded into the pressure instead:
   * with q = (h / rho) p - h g . x, u_{t+1} = u* + h g - (h / rho) grad p = u* - grad q, and the
   * free surface's p = 0 becomes q = -h g . x on each open face. The ghost value sits on the
   * face (p = 0 on the surface itself, d_f = 3V/4A), and a face's ghost value phi_f enters as
   * u_f -= phi_f / d_f before the zero-ghost projection. A pool at rest is then at rest exactly
   * (q is one constant), whatever the tetrahedra's shapes.
   *
   * x is where the face meets the free surface S, not the face's centre: one Newton step from the
   * centre onto the contouring grid's zero set. Stuffing bevels the edge where a free surface
   * meets a wall, and the bevel's faces lie below the water line; taken at their centres they
   * held p = 0 a centimetre under it, and a thin still pool drained 3.7% in 30 frames through them.
   */
  private project(mesh: LiquidMesh, u: Float64Array, h: number, g: readonly number[], level: (x: number, y: number, z: number) => number): void {
    if (mesh.topology.tetCount === 0) return
    // The matrix, its multigrid hierarchy and the solver's vectors live in the kernels' memory
    // for this one solve (the mesh is new every substep); u is the solver's own array.
    this.kernels.scoped(() => this.projectOnce(mesh, u, h, g, level))
  }

  private projectOnce(mesh: LiquidMesh, u: Float64Array, h: number, g: readonly number[], level: (x: number, y: number, z: number) => number): void {
    const projection = new TetProjection(mesh.topology, mesh.geometry, {
      openFaces: mesh.openFaces,
      openGhost: 'face',
      kernels: this.kernels,
      // Smoothed aggregation (amg/aggregation.ts), not the paper's splitting: the hierarchy is
      // built anew every substep for a few CG iterations, so its setup weighs as much as the
      // solve, and aggregation's coarse levels are a fraction of the splitting's. On the dam
      // break (2 threads, alternated twice, 6-8 frames): at resolution 64 (38,000 tetrahedra)
      // 19 CG iterations a frame against 28 with the paper's simple averages, the projection
      // 163-171 ms a frame against 251-305; at resolution 48, 19 against 24 and 59-79 against
      // 84. The simple averages had replaced the relaxed prolongation the splitting defaults
      // to for the same reason (22 iterations a frame against 12, but 0.31-0.33 s a frame
      // against 0.38-0.40).
      preconditioner: (A) => new AmgPreconditioner(A, { kernels: this.kernels, coarsening: 'aggregation' }),
    })
    const { boundaryFaces } = mesh.topology
    const c = mesh.geometry.faceCentres
    const inv = projection.faceInverseDistance
    const e = 0.5 * this.setup.contourSpacing
    for (let i = 0; i < boundaryFaces.length; i++) {
      const f = boundaryFaces[i]
      if (!mesh.openFaces[f]) continue
      let x = c[3 * f], y = c[3 * f + 1], z = c[3 * f + 2]
      const d = level(x, y, z)
      const gx = (level(x + e, y, z) - level(x - e, y, z)) / (2 * e)
      const gy = (level(x, y + e, z) - level(x, y - e, z)) / (2 * e)
      const gz = (level(x, y, z + e) - level(x, y, z - e)) / (2 * e)
      const g2 = gx * gx + gy * gy + gz * gz
      if (g2 > 0.25 && Math.abs(d) < 2 * e) {
        x -= (d * gx) / g2
        y -= (d * gy) / g2
        z -= (d * gz) / g2
      }
      const phi = -h * (g[0] * x + g[1] * y + g[2] * z)
      u[f] -= phi * inv[f]
    }
    const s = projection.project(u, { tolerance: this.setup.tolerance, maxIterations: this.setup.maxIterations, scale: h > 0 ? h : 1 })
    this.lastPressureIterations += s.iterations
  }

  frame(): FrameData {
    const s = this.surface
    const nv = s.positions.length / 3, nt = s.indices.length / 3
    const normals = s.normals.slice()
    const velocity = new Float32Array(3 * nv)
    if (this.mesh !== null) {
      const field = this.velocity()
      const v = new Float64Array(3)
      for (let i = 0; i < nv; i++) {
        field.fast(s.positions[3 * i], s.positions[3 * i + 1], s.positions[3 * i + 2], v, 0)
        velocity[3 * i] = v[0]; velocity[3 * i + 1] = v[1]; velocity[3 * i + 2] = v[2]
      }
    }
    const g = this.grid
    // Node values as cell centres of a grid shifted by half a spacing: the level set the
    // raymarcher and the VDB exporter read ('liquid' is written as the level set 'surface').
    const level: Volume = {
      name: 'liquid', components: 1, dims: [g.nx, g.ny, g.nz], voxelSize: g.h,
      origin: [g.origin[0] - 0.5 * g.h, g.origin[1] - 0.5 * g.h, g.origin[2] - 0.5 * g.h], data: this.phi.slice(),
    }
    const m = this.mesh
    const st = this.lastStats
    return {
      time: this.t,
      frame: this.animFrame,
      volumes: [level],
      meshes: [
        { name: 'liquid', positions: this.clampedToBox(s.positions), indices: s.indices.slice(), normals, attributes: { velocity: { components: 3, data: velocity } } },
        ...(m ? [tetCutaway(m, this.setup)] : []),
      ],
      particles: [],
      stats: {
        substeps: st.substeps,
        pressureIterations: st.pressureIterations,
        tetrahedra: m ? m.topology.tetCount : 0,
        surfaceTriangles: nt,
        volume: volumeInBox(s.positions, s.indices, this.setup.box),
        cflMax: st.cflMax,
        ...phaseStats(st.ms),
      },
    }
  }

  /**
   * S's vertices with those beyond the domain's box moved onto it. S meets a wall a small
   * fraction of a contouring cell beyond it (surfaceTracking.ts); what the artist sees and
   * exports stops at the wall, and the volume the mesh encloses is the liquid's in the box.
   */
  private clampedToBox(positions: Float32Array): Float32Array {
    const out = positions.slice()
    const { min, max } = this.setup.box
    for (let i = 0; i < out.length; i += 3) {
      for (let a = 0; a < 3; a++) {
        const x = out[i + a]
        if (x < min[a]) out[i + a] = min[a]
        else if (x > max[a]) out[i + a] = max[a]
      }
    }
    return out
  }

  checkpoint(): Uint8Array {
    const m = this.mesh
    return writeCheckpoint(CHECKPOINT_KIND, { t: this.t, animFrame: this.animFrame, hasMesh: m !== null, wholeTets: m ? m.wholeTets : 0, targetVolume: this.targetVolume, shift: this.shift }, [
      ['phi', this.phi],
      ['surfacePositions', this.surface.positions],
      ['surfaceIndices', Float64Array.from(this.surface.indices)],
      ['u', this.u],
      ['positions', m ? m.positions : new Float64Array(0)],
      ['tets', m ? Float64Array.from(m.tets) : new Float64Array(0)],
      ['openFaces', m ? m.openFaces : new Uint8Array(0)],
      ['onObstacle', m ? m.onObstacle : new Uint8Array(0)],
      ['solidNormals', m ? m.solidNormals : new Float64Array(0)],
      ['solidVelocities', m ? m.solidVelocities : new Float64Array(0)],
    ])
  }

  restore(bytes: Uint8Array): void {
    const ck = readCheckpoint(CHECKPOINT_KIND, bytes)
    const get = <T extends Float32Array | Float64Array | Uint8Array>(name: string, make: (n: number) => T): T => {
      const a = make(ck.length(name))
      ck.read(name, a)
      return a
    }
    if (ck.length('phi') !== this.phi.length) throw new EddyError('INVALID_PARAM', `tetrahedral liquid checkpoint: its grid has ${ck.length('phi')} nodes, this setup ${this.phi.length}`)
    this.t = ck.meta.t as number
    this.animFrame = ck.meta.animFrame as number
    this.targetVolume = ck.meta.targetVolume as number
    this.shift = ck.meta.shift as number
    this.phi = get('phi', (n) => new Float32Array(n))
    this.surface = new ContouredSurface(this.phi, this.grid, this.band, get('surfacePositions', (n) => new Float32Array(n)), Uint32Array.from(get('surfaceIndices', (n) => new Float64Array(n))))
    this.u = get('u', (n) => new Float64Array(n))
    this.velocityCache = null
    this.location = null
    if (!ck.meta.hasMesh) {
      this.mesh = null
      return
    }
    const positions = get('positions', (n) => new Float64Array(n))
    const tets = Int32Array.from(get('tets', (n) => new Float64Array(n)))
    const topology = buildTetTopology(positions, tets)
    const geometry = computeTetGeometry(topology, positions)
    const openFaces = get('openFaces', (n) => new Uint8Array(n))
    const onObstacle = get('onObstacle', (n) => new Uint8Array(n))
    const solidNormals = get('solidNormals', (n) => new Float64Array(n))
    const solidVelocities = get('solidVelocities', (n) => new Float64Array(n))
    this.mesh = { positions, tets, topology, geometry, openFaces, onObstacle, solidNormals, solidVelocities, wholeTets: ck.meta.wholeTets as number }
  }
}

const clamp = (x: number, a: number, b: number) => (x < a ? a : x > b ? b : x)

/**
 * The initial volumes' velocity at a face centre of the first mesh: the last volume holding it
 * wins; a centre in none takes the nearest volume's within a finest spacing, else 0. The first
 * mesh is the volumes' union, so its boundary faces lie on their surfaces, half of them a
 * rounding outside: given 0 there, a slab thrown at 1 m/s kept 0.5 m/s at its surface and moved
 * at 0.8.
 */
function initialVelocity(setup: TetLiquidSetup, x: number, y: number, z: number, out: Float64Array): void {
  out[0] = out[1] = out[2] = 0
  let nearest = setup.spacing
  let inside = false
  for (const v of setup.volumes) {
    const d = v.field.distance(x, y, z)
    if (d <= 0 || (!inside && d < nearest)) {
      out[0] = v.velocity[0]; out[1] = v.velocity[1]; out[2] = v.velocity[2]
      if (d <= 0) inside = true
      else nearest = d
    }
  }
}

/** The obstacles moved on by their rates to `offset` seconds into the frame. */
function movedObstacles(input: TetLiquidInput, offset: number): TetLiquidInput['obstacles'] {
  if (offset === 0) return input.obstacles
  return input.obstacles.map((o) => ({
    ...o,
    position: [o.position[0] + offset * o.positionRate[0], o.position[1] + offset * o.positionRate[1], o.position[2] + offset * o.positionRate[2]],
    rotation: [o.rotation[0] + offset * o.rotationRate[0], o.rotation[1] + offset * o.rotationRate[1], o.rotation[2] + offset * o.rotationRate[2]],
    scale: [o.scale[0] + offset * o.scaleRate[0], o.scale[1] + offset * o.scaleRate[1], o.scale[2] + offset * o.scaleRate[2]],
  }))
}
