// Two-way coupling of rigid bodies and the liquid, after the rigid fluid method of Carlson 2004,
// chapter 5, with the bodies' velocities solved implicitly with the liquid's pressure
// (rigidFluid.ts lists the steps, coupledWalls.ts the solve). This file holds the grid side:
//   - solid fractions (sec. 5.5): Carlson samples each cell's centre, or 64 sub-cells where
//     the body is thin. Here every body is sampled on a lattice of dx/4 (64 points per cell)
//     wherever a cell centre lies within sqrt(3)/2 dx of its surface (elsewhere the cell is
//     wholly in or out, as the text notes), and the same lattice gives each face's control
//     volume (a cube of side dx centred on the face) its fraction w;
//   - the walls of the liquid-only solve (boundary), their velocity (rigidFaceKernels.ts
//     wallVelocity: the translation and the normal part of the spin) and the matching torque
//     arms (faceArm);
//   - the body's weight as that solve's pressure sum sees it (addDiscreteWeight), and the
//     impulse of its pressure (applyWallPressure);
//   - the body's motion in the faces the markers read, with its reaction on the body
//     (imposeWithReaction; eq. 80's blend u = (1 - w) u + w u_body on the faces it covers).
// Departures from the text, and why:
// - Carlson's projection of the body's cells onto rigid motion (eqs. 70-71, 77-83) after a
//   solve with the bodies as liquid is replaced by walls whose velocity the liquid-only
//   solve finds: predicting the velocity before the solve and applying the pressure after it
//   blew up light, thin bodies (a plank 2.4 cells thick, relative density 0.74), and taking
//   the projection's velocity as the body's lost 48% of the momentum of a ball thrown
//   through a blob of liquid. The implicit solve has no unstable term to drop for
//   ultrabuoyant bodies (sec. 5.7.3): 0.2 and 0.3 density balls float, 0.215 and 0.263 of
//   their volume under the surface over the 5th and 6th seconds (still bobbing).
// - Eq. 70's collision term reaches the body as h A_c, h alpha_c added before the solve.
import { type GridSpec, MacGrid } from '../core/grid'
import { CoupledWalls } from './coupledWalls'
import { SOLID } from './viscosity'
import { TS_KERNELS } from '../core/kernelBackend'
import type { KernelBackend } from '../core/kernelTypes'
import type { SdfGrid } from '../rigid/rigidShape'
import { HALVES, POSE, type PosedMesh, RASTERISE_MESH, SUB, sampleBodyCells, writeMeshPose } from './meshBodyKernels'
import { FACE_STRIDE, OwnedFaces } from './ownedFaces'
import { BLEND_RIGID, BLEND_WALL, BODY_FLAG, BODY_STATE, EXCHANGE_STRIDE, type FaceArrays32, type FaceArrays64, RIGID_BOUNDARY_FACES, RIGID_FACE_BLEND, RIGID_FACE_EXCHANGE, RIGID_RESTORE_FACES } from './rigidFaceKernels'

/** What the coupling needs of a rigid body (sim/rigid RigidBody satisfies it). */
export interface CoupledBody {
  /** Centre of mass, world, m. */
  readonly x: Float64Array
  /** Linear and angular velocity, world, m/s and rad/s (the projection writes them). */
  readonly v: Float64Array
  readonly w: Float64Array
  /** kg/m^3. */
  readonly density: number
  /** Largest distance from the centre of mass to the surface, m. */
  readonly boundingRadius: number
  /** Signed distance to the body's surface in world coordinates, negative inside. */
  phi(x: number, y: number, z: number): number
  /** A mesh body's distance grid (rigid/rigidShape.ts) with its rotation: then sampled on the kernels. */
  readonly meshGrid?: SdfGrid | null
  /** Row-major rotation, body to world axes. */
  rotation?(): Float64Array
  /** Outward unit normal of the surface nearest world point (x, y, z), into out[0..2]. */
  normalAt(x: number, y: number, z: number, out: Float64Array): void
  /** The last rigid step's collision accelerations (Carlson eqs. 68-69), m/s^2 and rad/s^2. */
  readonly collisionAccel: Float64Array
  readonly collisionAngularAccel: Float64Array
}

/** Density of the liquid the relative densities refer to (water), kg/m^3. */
export const LIQUID_DENSITY = 1000
const SOLID_KIND = SOLID

/** A body's box of cells (i0..i1, ends exclusive; its faces reach i1 inclusive). */
interface FaceBox {
  i0: number
  i1: number
  j0: number
  j1: number
  k0: number
  k1: number
}


export class RigidCoupling {
  private readonly grid: GridSpec
  /** Solid fraction of each cell (all bodies, at most 1). */
  readonly cellFraction: Float32Array
  /** Smallest body signed distance at each cell centre, m (large where no body is near). */
  readonly cellPhi: Float32Array
  /** Body index covering each face's control volume (-1: none), and its fraction w. */
  readonly faceOwner: [Int16Array, Int16Array, Int16Array]
  readonly faceFraction: [Float32Array, Float32Array, Float32Array]
  /** Cell box each body was sampled over in the last rasterise (faces up to i1 inclusive). */
  private boxes: FaceBox[] = []
  private centrePhi: Float32Array = new Float32Array(0)
  /** Per cell of the box being sampled: its lattice points inside the body, whole and by halves (meshBodyKernels.ts HALVES). */
  private insideCount: Uint8Array = new Uint8Array(0)
  private halves: Uint8Array = new Uint8Array(0)
  /** Where rasterise samples mesh bodies (RASTERISE_MESH); their arrays come from its allocator. */
  private readonly kernels: KernelBackend
  /** RASTERISE_MESH's pose argument (POSE), refilled per body. */
  private readonly pose = new Float64Array(POSE.length)
  /** The bodies' mesh distance grids in the kernels' memory (packMeshGrids), and each one's offset there. */
  packedGrids: Float32Array = new Float32Array(0)
  private readonly gridOffset = new Map<Float32Array, number>()
  private readonly far: number
  private readonly normalScratch = new Float64Array(3)
  /** listFaces's running sums (torque 0-2, face count 3). */
  private readonly biasSum = new Float64Array(4)
  /** Per body: faceArm's bias on its closed surface (listFaces). */
  private armBias = new Float64Array(0)
  /** The faces each used body owns, with their arms, as the last rasterise left them. */
  readonly faces: OwnedFaces
  /** faceFraction as the face rows take it. */
  private readonly fractionFaces: FaceArrays32
  /** The face rows' body state (rigidFaceKernels.ts BODY_STATE per body), refilled per pass. */
  private bodyState: Float64Array = new Float64Array(0)
  /** The bodies' rows of the liquid-only solve (buildWalls). */
  readonly walls: CoupledWalls
  private readonly wallImpulse = new Float64Array(6)
  private readonly weightImpulse = new Float64Array(6)
  private readonly stillPotential = new Float64Array(3)
  /** Per body: imposeWithReaction's 6x6 system and right-hand side (42 doubles). */
  private exchange: Float64Array = new Float64Array(0)
  private readonly inertia = new Float64Array(9)
  /** The markers' splat sums as the exchange row takes them (transfer.ts faceSplat). */
  private readonly splatFaces: FaceArrays64 = { u: new Float64Array(0), v: new Float64Array(0), w: new Float64Array(0) }
  private readonly sol = new Float64Array(6)

  /** kernels: where mesh bodies are sampled (default TypeScript). */
  constructor(grid: GridSpec, kernels: KernelBackend = TS_KERNELS) {
    this.kernels = kernels
    this.grid = grid
    const { nx, ny, nz } = grid
    const n = nx * ny * nz
    this.cellFraction = new Float32Array(n)
    // What the face passes read (rigidFaceKernels.ts) comes from the kernels' allocator.
    this.cellPhi = kernels.f32(n)
    this.far = 1e30
    this.cellPhi.fill(this.far)
    this.faceOwner = [new Int16Array((nx + 1) * ny * nz).fill(-1), new Int16Array(nx * (ny + 1) * nz).fill(-1), new Int16Array(nx * ny * (nz + 1)).fill(-1)]
    this.faceFraction = [kernels.f32((nx + 1) * ny * nz), kernels.f32(nx * (ny + 1) * nz), kernels.f32(nx * ny * (nz + 1))]
    this.fractionFaces = { u: this.faceFraction[0], v: this.faceFraction[1], w: this.faceFraction[2] }
    this.faces = new OwnedFaces(kernels)
    this.walls = new CoupledWalls(nx, ny, nz)
  }

  /** Resets what the last rasterise wrote (only inside its boxes: bodies are small). */
  private clear(): void {
    const { nx, ny } = this.grid
    // Row by row (fill), as the boxes' rows are contiguous.
    for (const b of this.boxes) {
      for (let k = b.k0; k < b.k1; k++) for (let j = b.j0; j < b.j1; j++) {
        const row = nx * (j + ny * k)
        this.cellFraction.fill(0, row + b.i0, row + b.i1)
        this.cellPhi.fill(this.far, row + b.i0, row + b.i1)
      }
      for (let a = 0; a < 3; a++) {
        const ex = a === 0 ? 1 : 0, ey = a === 1 ? 1 : 0, ez = a === 2 ? 1 : 0
        const sx = nx + ex, sy = ny + ey
        const own = this.faceOwner[a], fr = this.faceFraction[a]
        for (let k = b.k0; k < b.k1 + ez; k++) for (let j = b.j0; j < b.j1 + ey; j++) {
          const row = sx * (j + sy * k)
          own.fill(-1, row + b.i0, row + b.i1 + ex)
          fr.fill(0, row + b.i0, row + b.i1 + ex)
        }
      }
    }
    this.boxes = []
  }

  /**
   * The cells [from, to) that hold every cell the last rasterise wrote (its boxes' planes):
   * cellPhi is far and cellFraction 0 outside it.
   */
  cellSpan(): [number, number] {
    const plane = this.grid.nx * this.grid.ny
    let k0 = Infinity, k1 = -Infinity
    for (const b of this.boxes) {
      if (b.k0 >= b.k1) continue
      k0 = Math.min(k0, b.k0)
      k1 = Math.max(k1, b.k1)
    }
    return k0 < k1 ? [k0 * plane, k1 * plane] : [0, 0]
  }

  /** Cell box a body can touch: its bounding sphere plus one cell, clipped to the grid. */
  private boxOf(body: CoupledBody): FaceBox | null {
    const { nx, ny, nz, dx, origin } = this.grid
    const r = body.boundingRadius + dx
    const lo = (x: number, o: number, n: number): number => Math.max(0, Math.floor((x - r - o) / dx))
    const hi = (x: number, o: number, n: number): number => Math.min(n, Math.ceil((x + r - o) / dx))
    const b = {
      i0: lo(body.x[0], origin[0], nx), i1: hi(body.x[0], origin[0], nx),
      j0: lo(body.x[1], origin[1], ny), j1: hi(body.x[1], origin[1], ny),
      k0: lo(body.x[2], origin[2], nz), k1: hi(body.x[2], origin[2], nz),
    }
    return b.i0 < b.i1 && b.j0 < b.j1 && b.k0 < b.k1 ? b : null
  }

  /**
   * The bodies' distinct mesh distance grids, copied once into one array of the kernels'
   * memory (copies of one mesh share theirs). Call before rasterise when bodies are meshes.
   */
  packMeshGrids(grids: readonly Float32Array[]): void {
    let total = 0
    for (const g of grids) if (!this.gridOffset.has(g)) { this.gridOffset.set(g, total); total += g.length }
    this.packedGrids = this.kernels.f32(Math.max(1, total))
    for (const [g, o] of this.gridOffset) this.packedGrids.set(g, o)
  }

  /** Offset of a packed mesh grid in packedGrids. */
  meshGridOffset(data: Float32Array): number {
    const o = this.gridOffset.get(data)
    if (o === undefined) throw new Error('rigid coupling: a mesh grid was not packed (packMeshGrids)')
    return o
  }

  /**
   * Solid fractions of cells and face control volumes for the bodies with use[b] = 1 at their
   * current poses (sec. 5.5). Bodies overlapping in one cell add up (clamped to 1); a face belongs to the
   * body covering most of it.
   */
  rasterise(bodies: readonly CoupledBody[], use: Uint8Array): void {
    this.clear()
    const { nx, ny, dx, origin } = this.grid
    for (let bi = 0; bi < bodies.length; bi++) {
      const body = bodies[bi]
      const box = use[bi] ? this.boxOf(body) : null
      this.boxes.push(box ?? { i0: 0, i1: 0, j0: 0, j1: 0, k0: 0, k1: 0 })
      if (!box) continue
      const lx = box.i1 - box.i0, ly = box.j1 - box.j0, lz = box.k1 - box.k0
      if (this.centrePhi.length < lx * ly * lz) {
        this.centrePhi = this.kernels.f32(Math.ceil(1.25 * lx * ly * lz))
        this.insideCount = this.kernels.u8(this.centrePhi.length)
        this.halves = this.kernels.u8(HALVES * this.centrePhi.length)
      }
      const cp = this.centrePhi, halves = this.halves, count = this.insideCount
      // Cell centres, then the lattice: uniform where the centre is far from the surface.
      // A mesh body on the kernels (its distance grid copied into their memory once), any
      // other through its phi.
      const mesh = body.meshGrid ?? null
      if (mesh && body.rotation) {
        const pose = this.pose
        writeMeshPose(pose, 0, body as PosedMesh, origin, dx)
        const at = this.meshGridOffset(mesh.data)
        this.kernels.run(RASTERISE_MESH, cp, halves, count, this.packedGrids.subarray(at, at + mesh.data.length), pose, mesh.nx, mesh.ny, mesh.nz, box.i0, box.j0, box.k0, lx, ly, lz)
      } else {
        sampleBodyCells((x, y, z) => body.phi(x, y, z), cp, halves, count, { i0: box.i0, j0: box.j0, k0: box.k0, lx, ly, lz }, origin[0], origin[1], origin[2], dx, 0, lz)
      }
      for (let k = 0; k < lz; k++) for (let j = 0; j < ly; j++) for (let i = 0; i < lx; i++) {
        const cell = i + lx * (j + ly * k)
        const c = box.i0 + i + nx * (box.j0 + j + ny * (box.k0 + k))
        if (cp[cell] < this.cellPhi[c]) this.cellPhi[c] = cp[cell]
        this.cellFraction[c] = Math.min(1, this.cellFraction[c] + count[cell] / (SUB * SUB * SUB))
      }
      // Face control volumes: a cube of one cell centred on the face, so the upper half of the
      // cell below it along the face's axis and the lower half of the one above, each counted
      // by the samples (meshBodyKernels.ts HALVES); a cell outside the box holds none.
      for (let a = 0; a < 3; a++) {
        const ex = a === 0 ? 1 : 0, ey = a === 1 ? 1 : 0, ez = a === 2 ? 1 : 0
        const fnx = nx + ex, fny = ny + ey
        const own = this.faceOwner[a], fr = this.faceFraction[a]
        const step = ex ? 1 : ey ? lx : lx * ly
        const top = ex ? lx : ey ? ly : lz
        for (let k = 0; k < lz + ez; k++) for (let j = 0; j < ly + ey; j++) for (let i = 0; i < lx + ex; i++) {
          const idx = ex ? i : ey ? j : k
          const cell = i + lx * (j + ly * k)
          const points = (idx > 0 ? halves[HALVES * (cell - step) + 2 * a + 1] : 0) + (idx < top ? halves[HALVES * cell + 2 * a] : 0)
          if (points === 0) continue
          const w = points / (SUB * SUB * SUB)
          const f = box.i0 + i + fnx * (box.j0 + j + fny * (box.k0 + k))
          if (w > fr[f]) {
            fr[f] = w
            own[f] = bi
          }
        }
      }
      // A face of a cell whose centre is inside belongs to the body even when its control
      // volume holds no lattice point (the surface just past the centre): the liquid-only solve
      // closes it (boundary()), and the body must feel the pressure there and move it.
      for (let k = 0; k < lz; k++) for (let j = 0; j < ly; j++) for (let i = 0; i < lx; i++) {
        if (!(cp[i + lx * (j + ly * k)] < 0)) continue
        const ci = box.i0 + i, cj = box.j0 + j, ck = box.k0 + k
        for (let a = 0; a < 3; a++) {
          const ex = a === 0 ? 1 : 0, ey = a === 1 ? 1 : 0, ez = a === 2 ? 1 : 0
          const fnx = nx + ex, fny = ny + ey
          const own = this.faceOwner[a]
          const lo = ci + fnx * (cj + fny * ck)
          const hi = ci + ex + fnx * (cj + ey + fny * (ck + ez))
          if (own[lo] < 0) own[lo] = bi
          if (own[hi] < 0) own[hi] = bi
        }
      }
    }
    this.listFaces(bodies, use)
  }

  private bFractions: MacGrid | null = null
  private bVelocity: MacGrid | null = null

  /**
   * Walls for a liquid-only pressure solve: a copy of the obstacles' face fractions and
   * velocities where each face a used body covers is open only by 1 - w and carries the
   * body's rigid velocity on its covered part, and a face with a body-interior (SOLID, centre
   * inside: cellPhi < 0) cell on either side is closed.
   */
  boundary(fractions: MacGrid, obstacleVelocity: MacGrid | null, bodies: readonly CoupledBody[], use: Uint8Array): { fractions: MacGrid; velocity: MacGrid } {
    if (!this.bFractions) {
      // In the kernels' memory: the pressure's assembly row reads them (ghostFluidKernels.ts).
      this.bFractions = new MacGrid(this.grid, { kernels: this.kernels })
      this.bVelocity = new MacGrid(this.grid, { kernels: this.kernels })
    }
    const fr = this.bFractions, vel = this.bVelocity!
    fr.copyFrom(fractions)
    if (obstacleVelocity) vel.copyFrom(obstacleVelocity)
    else {
      vel.u.fill(0)
      vel.v.fill(0)
      vel.w.fill(0)
    }
    const { nx, ny, nz } = this.grid
    const L = this.faces
    this.kernels.run(RIGID_BOUNDARY_FACES, L.face, L.arm, this.stateOf(bodies, use), this.fractionFaces, fractions, fr, vel, this.cellPhi, nx, ny, nz, L.count)
    return { fractions: fr, velocity: vel }
  }

  /**
   * Before the liquid-only solve (rigidFluid.ts step 5): each used body's weight over the
   * substep, measured by the pressure sum the solve will use (discreteWeight), added to its
   * velocity, which is then V* of coupledWalls.ts; and that solve's rows of the bodies
   * (walls). In still liquid the weight and the solve's pressure cancel exactly for a body of
   * relative density 1, and a floater settles where its discrete displaced volume is
   * rho_r / rho_f of its discrete volume. The body's own mass would not: the sum sees the
   * body from the liquid cells' centres (half a cell outside its surface), and a neutral
   * block 5 cells across sank to the floor. `closed` is boundary()'s fractions.
   */
  addDiscreteWeight(kind: Uint8Array, fractions: MacGrid, closed: MacGrid, bodies: readonly CoupledBody[], use: Uint8Array, mass: Float64Array, invInertia: Float64Array, h: number, g: readonly number[], liquidDensity = LIQUID_DENSITY): void {
    const W = this.weightImpulse
    for (let bi = 0; bi < bodies.length; bi++) {
      if (!use[bi]) continue
      const body = bodies[bi]
      this.discreteWeight(bi, body, fractions, closed, kind, h, g, liquidDensity, W)
      const m = mass[bi]
      body.v[0] += W[0] / m; body.v[1] += W[1] / m; body.v[2] += W[2] / m
      const I = invInertia.subarray(9 * bi, 9 * bi + 9)
      body.w[0] += I[0] * W[3] + I[1] * W[4] + I[2] * W[5]
      body.w[1] += I[3] * W[3] + I[4] * W[4] + I[5] * W[5]
      body.w[2] += I[6] * W[3] + I[7] * W[4] + I[8] * W[5]
    }
  }

  /** The liquid-only solve's rows of the used bodies (coupledWalls.ts), after boundary(). */
  buildWalls(kind: Uint8Array, fractions: MacGrid, closed: MacGrid, bodies: readonly CoupledBody[], use: Uint8Array, mass: Float64Array, invInertia: Float64Array, liquidDensity = LIQUID_DENSITY): void {
    this.walls.build(bodies.length, use, this.faces, fractions, closed, kind, mass, invInertia, liquidDensity * this.grid.dx ** 3)
  }

  /**
   * Newton's third law for the liquid-only solve: each used body's velocity moves from V* by
   * the impulse of that solve's pressure, rho dx^3 M^-1 S q (q its velocity potential per
   * cell, q = h p / (rho dx), ghostFluid.ts), the velocity its walls had in the solve.
   */
  applyWallPressure(q: Float64Array, bodies: readonly CoupledBody[], use: Uint8Array): void {
    const dV = this.wallImpulse
    for (let bi = 0; bi < bodies.length; bi++) {
      if (!use[bi]) continue
      this.walls.velocityChange(bi, q, dV)
      const body = bodies[bi]
      for (let d = 0; d < 3; d++) {
        body.v[d] += dV[d]
        body.w[d] += dV[3 + d]
      }
    }
  }

  /**
   * The body's weight over a substep h as the liquid-only solve would hold it up if it were
   * all under water, times rho_r / rho_f: the pressure impulse of the still-liquid potential
   * q = (h / dx) g . x with every cell outside the body counted as liquid, negated and scaled.
   */
  private discreteWeight(bi: number, body: CoupledBody, fractions: MacGrid, closed: MacGrid, kind: Uint8Array, h: number, g: readonly number[], liquidDensity: number, out: Float64Array): void {
    const still = this.stillPotential
    still[0] = h * g[0]
    still[1] = h * g[1]
    still[2] = h * g[2]
    this.stillImpulse(bi, body, fractions, closed, kind, still, liquidDensity, out)
    const ratio = -body.density / liquidDensity
    for (let d = 0; d < 6; d++) out[d] *= ratio
  }

  /**
   * Impulse (linear 0-2, angular 3-5 about the centre of mass, faceArm's arms) on body bi over
   * the faces it closes of the linear potential (still . x) / dx over every cell that is not
   * SOLID: the still liquid's pressure as the liquid-only solve would see it all around.
   */
  private stillImpulse(bi: number, body: CoupledBody, fractions: MacGrid, closed: MacGrid, kind: Uint8Array, still: Float64Array, liquidDensity: number, out: Float64Array): void {
    const { nx, ny, nz, dx } = this.grid
    const scale = liquidDensity * dx * dx * dx
    const fr0 = [fractions.u, fractions.v, fractions.w], fr1 = [closed.u, closed.v, closed.w]
    const { start, face, arm } = this.faces
    out.fill(0)
    // The potential at cell (i, j, k), or NaN inside a body.
    const at = (c: number, i: number, j: number, k: number): number =>
      kind[c] === SOLID_KIND ? NaN : still[0] * (i + 0.5) + still[1] * (j + 0.5) + still[2] * (k + 0.5)
    for (let t = start[bi]; t < start[bi + 1]; t++) {
      const o = FACE_STRIDE * t
      const a = face[o], f = face[o + 1], i = face[o + 2], j = face[o + 3], k = face[o + 4]
      const share = fr0[a][f] - fr1[a][f]
      if (!(share > 0)) continue
      const ex = a === 0 ? 1 : 0, ey = a === 1 ? 1 : 0, ez = a === 2 ? 1 : 0
      const hiIn = ex ? i < nx : ey ? j < ny : k < nz
      const loIn = ex ? i > 0 : ey ? j > 0 : k > 0
      // Liquid below the face pushes it up the axis (+), liquid above pushes it down (-).
      let push = 0
      if (loIn) {
        const v = at(i - ex + nx * (j - ey + ny * (k - ez)), i - ex, j - ey, k - ez)
        if (v === v) push += v
      }
      if (hiIn) {
        const v = at(i + nx * (j + ny * k), i, j, k)
        if (v === v) push -= v
      }
      if (push === 0) continue
      const jv = scale * share * push
      out[a] += jv
      // Torque arm: faceArm's, as coupledWalls.ts's rows (the match of rigidFaceKernels.ts wallVelocity).
      out[3] += jv * arm[3 * t]; out[4] += jv * arm[3 * t + 1]; out[5] += jv * arm[3 * t + 2]
    }
  }

  /** vel = start on the faces of used bodies that `closed` shuts and `fractions` leaves open. */
  restoreClosedFaces(vel: MacGrid, start: MacGrid, fractions: MacGrid, closed: MacGrid, bodies: readonly CoupledBody[], use: Uint8Array): void {
    const L = this.faces
    this.kernels.run(RIGID_RESTORE_FACES, L.face, this.stateOf(bodies, use), fractions, closed, vel, start, L.count)
  }


  /**
   * The torque arm of a face of axis a, centre p, before the bias, into out[o..o+2]: n_a (r x
   * n), the arm that matches rigidFaceKernels.ts wallVelocity (a push along e_a with it is the transpose of
   * that wall velocity). faceArm (listFaces) takes the body's armBias off it on the faces of
   * its closed surface (the faces with its interior cells on one side only), with the sign of
   * the side the interior lies on. Without the bias a uniform pressure would turn the body
   * (the n_a (r x n) arms of a staircase do not sum to zero as the r x e_a arms do), and the
   * hydrostatic pressure is uniform plus a slope: a neutral block 5 cells across tumbled at up
   * to 4 rad/s.
   */
  private rawArm(body: CoupledBody, a: number, px: number, py: number, pz: number, out: Float64Array, o: number): void {
    const n = this.normalScratch
    body.normalAt(px, py, pz, n)
    const rx = px - body.x[0], ry = py - body.x[1], rz = pz - body.x[2]
    const na = n[a]
    out[o] = na * (ry * n[2] - rz * n[1])
    out[o + 1] = na * (rz * n[0] - rx * n[2])
    out[o + 2] = na * (rx * n[1] - ry * n[0])
  }

  /** +1 when only the cell above face (i, j, k) of axis a is a body's interior (cellPhi < 0), -1 when only the one below, else 0. */
  private closedSide(a: number, i: number, j: number, k: number): number {
    const { nx, ny, nz } = this.grid
    const idx = a === 0 ? i : a === 1 ? j : k
    const top = a === 0 ? nx : a === 1 ? ny : nz
    const step = a === 0 ? 1 : a === 1 ? nx : nx * ny
    // The cell above the face (when idx < top); the one below is a step back along a.
    const c = i + nx * (j + ny * k)
    const hiIn = idx < top && this.cellPhi[c] < 0
    const loIn = idx > 0 && this.cellPhi[c - step] < 0
    return hiIn === loIn ? 0 : hiIn ? 1 : -1
  }

  /**
   * The faces each used body owns (ownedFaces.ts), after rasterise has settled ownership and
   * cellPhi, in axis, k, j, i order, with faceArm's arm: the raw arm less side * armBias, the
   * bias being the torque a uniform potential of 1 would exert through the raw arms over the
   * body's closed surface, shared out over that surface's faces, so that with it taken off
   * the arms the sum is zero.
   */
  private listFaces(bodies: readonly CoupledBody[], use: Uint8Array): void {
    const { nx, ny, dx, origin } = this.grid
    if (this.armBias.length < 3 * bodies.length) this.armBias = new Float64Array(3 * bodies.length)
    this.armBias.fill(0)
    const L = this.faces, sum = this.biasSum
    L.reset(bodies.length)
    for (let bi = 0; bi < bodies.length; bi++) {
      L.begin(bi)
      if (!use[bi]) continue
      const body = bodies[bi]
      const box = this.boxes[bi]
      sum.fill(0)
      for (let a = 0; a < 3; a++) {
        const ex = a === 0 ? 1 : 0, ey = a === 1 ? 1 : 0, ez = a === 2 ? 1 : 0
        const fnx = nx + ex, fny = ny + ey
        const own = this.faceOwner[a]
        for (let k = box.k0; k < box.k1 + ez; k++) for (let j = box.j0; j < box.j1 + ey; j++) for (let i = box.i0; i < box.i1 + ex; i++) {
          const f = i + fnx * (j + fny * k)
          if (own[f] !== bi) continue
          const side = this.closedSide(a, i, j, k)
          const t = L.push(a, f, i, j, k, side, bi)
          this.rawArm(body, a, origin[0] + (i + (ex ? 0 : 0.5)) * dx, origin[1] + (j + (ey ? 0 : 0.5)) * dx, origin[2] + (k + (ez ? 0 : 0.5)) * dx, L.arm, 3 * t)
          if (side === 0) continue
          sum[0] += side * L.arm[3 * t]; sum[1] += side * L.arm[3 * t + 1]; sum[2] += side * L.arm[3 * t + 2]
          sum[3]++
        }
      }
      if (!(sum[3] > 0)) continue
      const o = 3 * bi
      for (let d = 0; d < 3; d++) this.armBias[o + d] = sum[d] / sum[3]
      for (let t = L.start[bi]; t < L.start[bi + 1]; t++) {
        const side = L.face[FACE_STRIDE * t + 5]
        if (side === 0) continue
        L.arm[3 * t] -= side * this.armBias[o]
        L.arm[3 * t + 1] -= side * this.armBias[o + 1]
        L.arm[3 * t + 2] -= side * this.armBias[o + 2]
      }
    }
  }

  /**
   * Writes each listed body's rigid velocity into the faces it covers, blended by w (the
   * u^n of sec. 5.4 on R): vel = (1 - w) vel + w (v + omega x r). `use[b]` = 0 skips body b.
   */
  imposeRigidVelocity(vel: MacGrid, bodies: readonly CoupledBody[], use: Uint8Array, open: MacGrid): void {
    this.blendRigid(vel, bodies, use, open)
  }

  /**
   * The bodies' motion in the velocity the markers take, with Newton's third law: on each
   * open face a body covers by w, u = (1 - w) u + w e_a . (v + arm . omega) (rigidFaceKernels.ts wallVelocity:
   * the body's translation and the normal part of its spin), and the markers splatted onto
   * the face (splat[a][2f + 1] times markerMass: the mass toParticles moves with it) and the
   * body share the momentum that exchange moves. The body's velocity V' after it is the
   * common one: (M + sum m_f w J_f J_f^T) V' = M V + sum m_f w J_f u_f, J_f = [e_a ; arm_f],
   * so the markers gain exactly what the body loses, and a body lighter than the liquid
   * beside it cannot overshoot (taken explicitly, V - M^-1 sum m_f w J_f (J_f . V - u_f), a
   * 0.2 density ball released in still water first shot downwards at 16 m/s^2). Without the
   * reaction the liquid next to a moving body takes its velocity every substep and nothing
   * slows the body: a ball thrown through a blob of liquid added 27% to the momentum of the
   * two. With the spin's tangential part blended in as well (no slip), a shell of liquid a
   * cell thick was spun up with a spinning body every substep: a lead ball at 1000 rpm in
   * still water lost 16% of its spin in the first frame and 40% in half a second, where a
   * smooth ball feels only skin friction (about 1% in that time at its Reynolds number 1e6).
   */
  imposeWithReaction(vel: MacGrid, bodies: readonly CoupledBody[], use: Uint8Array, open: MacGrid, dynamic: Uint8Array, splat: readonly Float64Array[], markerMass: number, mass: Float64Array, invInertia: Float64Array): void {
    const nb = bodies.length
    if (this.exchange.length < EXCHANGE_STRIDE * nb) this.exchange = this.kernels.f64(EXCHANGE_STRIDE * nb)
    const X = this.exchange
    // A = M (mass, world inertia) and b = M V per dynamic body.
    for (let bi = 0; bi < nb; bi++) {
      if (!dynamic[bi] || !use[bi]) continue
      const A = X.subarray(42 * bi, 42 * bi + 36), rhs = X.subarray(42 * bi + 36, 42 * bi + 42)
      A.fill(0)
      const m = mass[bi]
      for (let d = 0; d < 3; d++) A[7 * d] = m
      invert3(invInertia, 9 * bi, this.inertia)
      for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) A[6 * (3 + r) + 3 + c] = this.inertia[3 * r + c]
      const body = bodies[bi]
      for (let r = 0; r < 6; r++) {
        let sum = 0
        for (let c = 0; c < 6; c++) sum += A[6 * r + c] * (c < 3 ? body.v[c] : body.w[c - 3])
        rhs[r] = sum
      }
    }
    // Plus the markers' share of each face: A += m_f w J J^T, b += m_f w J u_f, J = [e_a ; arm]
    // (rigidFaceKernels.ts faceExchangeSlab, a body per index).
    const L = this.faces
    const state = this.stateOf(bodies, use, dynamic)
    this.splatFaces.u = splat[0]
    this.splatFaces.v = splat[1]
    this.splatFaces.w = splat[2]
    this.kernels.run(RIGID_FACE_EXCHANGE, L.face, L.arm, L.start, state, this.fractionFaces, open, vel, this.splatFaces, markerMass, X, nb, L.count)
    // The common velocity: what the body and those markers share after the exchange.
    for (let bi = 0; bi < nb; bi++) {
      if (!dynamic[bi] || !use[bi]) continue
      const o = 42 * bi
      if (!solve6(X.subarray(o, o + 36), X.subarray(o + 36, o + 42), this.sol)) continue
      const body = bodies[bi]
      for (let d = 0; d < 3; d++) {
        body.v[d] = this.sol[d]
        body.w[d] = this.sol[3 + d]
      }
    }
    this.blend(BLEND_WALL, vel, bodies, use, open)
  }

  /** vel = (1 - w) vel + w (v + omega x r) on the open faces of bodies with use[b] = 1 (eq. 80's blend). */
  private blendRigid(vel: MacGrid, bodies: readonly CoupledBody[], use: Uint8Array, open: MacGrid): void {
    this.blend(BLEND_RIGID, vel, bodies, use, open)
  }

  /** vel = (1 - w) vel + w u_body on the open faces of bodies with use[b] = 1, u_body by mode (rigidFaceKernels.ts faceBlendSlab). */
  private blend(mode: number, vel: MacGrid, bodies: readonly CoupledBody[], use: Uint8Array, open: MacGrid): void {
    const { dx, origin } = this.grid
    const L = this.faces
    this.kernels.run(RIGID_FACE_BLEND, L.face, L.arm, this.stateOf(bodies, use), this.fractionFaces, open, vel, mode, dx, origin[0], origin[1], origin[2], L.count)
  }

  /** The face rows' body state: velocities, spins and centres, flagged where use (and, when given, also) is set. */
  private stateOf(bodies: readonly CoupledBody[], use: Uint8Array, also: Uint8Array | null = null): Float64Array {
    const nb = bodies.length
    if (this.bodyState.length < BODY_STATE * nb) this.bodyState = this.kernels.f64(BODY_STATE * nb)
    const S = this.bodyState
    for (let bi = 0; bi < nb; bi++) {
      const body = bodies[bi], s = BODY_STATE * bi
      for (let d = 0; d < 3; d++) {
        S[s + d] = body.v[d]
        S[s + 3 + d] = body.w[d]
        S[s + 6 + d] = body.x[d]
      }
      // Only bodies the last rasterise listed have entries (this.boxes), as the serial passes visited.
      S[s + BODY_FLAG] = bi < this.boxes.length && use[bi] && (also === null || also[bi]) ? 1 : 0
    }
    return S
  }
}

/** The inverse of the 3x3 matrix m[o..o+9] (row-major) into out; zeros when it is singular. */
function invert3(m: ArrayLike<number>, o: number, out: Float64Array): void {
  const a = m[o], b = m[o + 1], c = m[o + 2], d = m[o + 3], e = m[o + 4], f = m[o + 5], g = m[o + 6], h = m[o + 7], i = m[o + 8]
  const A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g
  const det = a * A + b * B + c * C
  if (!(Math.abs(det) > 0)) {
    out.fill(0)
    return
  }
  const s = 1 / det
  out[0] = A * s; out[1] = -(b * i - c * h) * s; out[2] = (b * f - c * e) * s
  out[3] = B * s; out[4] = (a * i - c * g) * s; out[5] = -(a * f - c * d) * s
  out[6] = C * s; out[7] = -(a * h - b * g) * s; out[8] = (a * e - b * d) * s
}

/** Solves the symmetric 6x6 system A x = b by Cholesky; false when A is not positive definite. */
export function solve6(A: ArrayLike<number>, b: ArrayLike<number>, x: Float64Array): boolean {
  const L = solve6Scratch
  for (let i = 0; i < 6; i++) {
    for (let j = 0; j <= i; j++) {
      let s = A[6 * i + j]
      for (let k = 0; k < j; k++) s -= L[6 * i + k] * L[6 * j + k]
      if (i === j) {
        if (!(s > 1e-300)) return false
        L[6 * i + i] = Math.sqrt(s)
      } else L[6 * i + j] = s / L[6 * j + j]
    }
  }
  for (let i = 0; i < 6; i++) {
    let s = b[i]
    for (let k = 0; k < i; k++) s -= L[6 * i + k] * x[k]
    x[i] = s / L[6 * i + i]
  }
  for (let i = 5; i >= 0; i--) {
    let s = x[i]
    for (let k = i + 1; k < 6; k++) s -= L[6 * k + i] * x[k]
    x[i] = s / L[6 * i + i]
  }
  return true
}
const solve6Scratch = new Float64Array(36)
