// The liquid solver's rigid bodies: the rigid world (sim/rigid, Guendelman et al. 2003) and their
// two-way coupling with the liquid (rigidCoupling.ts, coupledWalls.ts), each substep:
//
//   1. bodies before their "Active from frame" take their keyed pose and rates (kinematic);
//   2. each body is wet if it touches liquid; the rigid solver steps every body (collisions,
//      contact, positions), adding gravity only to dry ones: a wet body's gravity, like its
//      buoyancy, comes through the liquid (Carlson 2004 sec. 5.4.1), and its collision
//      impulses as the accelerations A_c, alpha_c of eq. 70 (eqs. 68-69), so it starts the
//      liquid's substep with the velocity it ended the last one with;
//   3. wet bodies are sampled onto the grid (solid fractions on a dx/4 lattice, sec. 5.5) and
//      their rigid velocity written into the faces they cover: u^n on R;
//   4. their cells join the liquid for the viscous solve ("as if they were fluid", sec. 5.4),
//      whose change the liquid keeps;
//   5. the liquid restarts from its own velocity (plus gravity and that viscous change) and
//      is projected alone, the bodies as walls (faces closed by the share they cover, fully
//      where an interior cell is behind), moving with a velocity the same solve finds: V* (the
//      body's velocity with A_c and its weight, measured by the solve's own pressure sum) plus
//      the impulse of the solve's pressure on it (coupledWalls.ts: Batty, Bertails and
//      Bridson 2007's implicit coupling on the ghost-fluid matrix). Newton's third law face by
//      face, and stable however light the body: Carlson's projection of the body's cells
//      onto rigid motion (eqs. 70-71, 77-80) predicted the walls' velocity before the solve
//      and the solve's pressure was applied after it, and a wooden plank 2.4 cells thick blew
//      up within a frame of the water reaching it (the block catapult);
//   5b. what the markers near a body did not take of that solve's change (their masses are
//      not the grid's) goes back to the body, across gravity (markerMomentum.ts): the solve
//      keeps momentum for the grid's masses exactly, the markers within 0.2-0.9%;
//   6. faces a body closes go back to the markers' own velocity, and the body's motion is
//      blended into the faces it covers for the markers (eq. 80's blend, the momentum that
//      gives the markers taken from the body: imposeForMarkers);
//   7. markers that ended up inside a body are moved out to its surface (the thesis removes
//      them, which loses liquid volume; pushing keeps it).
// A body's spin reaches the liquid only where it moves the surface along its normal
// (rigidFaceKernels.ts wallVelocity), as a smooth surface's does.
import { EddyError } from '../../api/errors'
import { eulerXYZDegToMatrix } from '../../geometry/primitiveSdf'
import type { SignedDistanceField } from '../../geometry/signedDistance'
import type { GridSpec, MacGrid } from '../core/grid'
import type { DomainSides } from '../core/boundaries'
import type { RigidBodyState, Quat } from '../frame'
import { RigidWorld, type RigidBodyDesc } from '../rigid/rigidWorld'
import type { RigidBody } from '../rigid/rigidBody'
import type { MarkerParticles } from './markers'
import type { ParticleTransfer } from './transfer'
import { LIQUID_DENSITY, RigidCoupling } from './rigidCoupling'
import type { CoupledWalls } from './coupledWalls'
import { lerpLattice } from './sample'
import { MARKER_BALANCE_REACH, MarkerMomentumBalance } from './markerMomentum'
import type { ObstacleInput } from '../solver'
import { obstacleContaining, startsInsideObstacle, type RigidBodySetup, type RigidPoseInput } from './rigidInput'
import { AIR, LIQUID, SOLID } from './viscosity'
import { MIN_COUNT } from './levelSet'
import { TS_KERNELS } from '../core/kernelBackend'
import { MESH_META, POSE, PUSH_MESH_MARKERS, PUSH_SKIP, PUSH_TEST, pushMarkersSlab, writeMeshPose } from './meshBodyKernels'
import type { KernelBackend } from '../core/kernelTypes'

/** Quaternion (x, y, z, w) of XYZ Euler degrees (R = Rz Ry Rx, primitiveSdf.ts). */
export function eulerDegToQuat(deg: ArrayLike<number>): Quat {
  const m = eulerXYZDegToMatrix(deg)
  // Shepperd's method: the largest of the four candidates keeps the division well conditioned.
  const tr = m[0] + m[4] + m[8]
  let x: number, y: number, z: number, w: number
  if (tr > 0) {
    const s = 2 * Math.sqrt(tr + 1)
    w = 0.25 * s; x = (m[7] - m[5]) / s; y = (m[2] - m[6]) / s; z = (m[3] - m[1]) / s
  } else if (m[0] > m[4] && m[0] > m[8]) {
    const s = 2 * Math.sqrt(1 + m[0] - m[4] - m[8])
    w = (m[7] - m[5]) / s; x = 0.25 * s; y = (m[1] + m[3]) / s; z = (m[2] + m[6]) / s
  } else if (m[4] > m[8]) {
    const s = 2 * Math.sqrt(1 + m[4] - m[0] - m[8])
    w = (m[2] - m[6]) / s; x = (m[1] + m[3]) / s; y = 0.25 * s; z = (m[5] + m[7]) / s
  } else {
    const s = 2 * Math.sqrt(1 + m[8] - m[0] - m[4])
    w = (m[3] - m[1]) / s; x = (m[2] + m[6]) / s; y = (m[5] + m[7]) / s; z = 0.25 * s
  }
  return [x, y, z, w]
}

/**
 * The obstacles' signed distance (ObstacleField.phi: cell corners, exact within its band of
 * 3 cells and clamped beyond) as a field the rigid solver can query: trilinear over corners.
 */
class CornerSdf implements SignedDistanceField {
  constructor(private readonly phi: Float32Array, private readonly grid: GridSpec) {}
  distance(x: number, y: number, z: number): number {
    const { nx, ny, nz, dx, origin } = this.grid
    return lerpLattice(this.phi, nx + 1, ny + 1, nz + 1, (x - origin[0]) / dx, (y - origin[1]) / dx, (z - origin[2]) / dx)
  }
}

export class RigidFluid {
  readonly world: RigidWorld
  readonly coupling: RigidCoupling
  private readonly setups: RigidBodySetup[]
  private readonly grid: GridSpec
  /** Per body: 1 = simulated (past its Active from frame), touching liquid this substep, ... */
  private readonly active: Uint8Array
  readonly wet: Uint8Array
  private readonly dryMask: Uint8Array
  private readonly dynamicWet: Uint8Array
  private readonly kinematicWet: Uint8Array
  private readonly coupled: Uint8Array
  /** Cells that joined the liquid this substep and what they held before (restored after). */
  private joined = new Int32Array(0)
  private joinedKind = new Uint8Array(0)
  private joinedPhi = new Float32Array(0)
  private joinedPhiRaw = new Float32Array(0)
  private joinedCount = 0
  private placementChecked = false
  private massScratch = new Float64Array(0)
  private invIScratch = new Float64Array(0)
  private solidCount = 0
  private readonly preV: Float64Array
  private readonly preW: Float64Array
  /** Where the mesh bodies' passes run (meshBodyKernels.ts). */
  private readonly kernels: KernelBackend
  /** Whether every body is a mesh (then the markers are pushed on the kernels). */
  private readonly allMesh: boolean
  /** PUSH_MESH_MARKERS's per-body grids (MESH_META) and poses (POSE), in the kernels' memory. */
  private readonly meshMeta: Int32Array
  private readonly poses: Float64Array
  /** pushMarkersSlab's bodies otherwise: their phi, and centre and bounding radius. */
  private readonly phis: ((x: number, y: number, z: number) => number)[]
  private readonly ball: Float64Array
  /** pushMarkersOut: cells within reach of a body's bounding sphere. */
  private readonly nearBody: Uint8Array
  /** cellsNear's result (reused). */
  private readonly nearBox = new Int32Array(6)
  /** holdPushedMarkers's normal and body velocity at a cell (reused). */
  private readonly pushNormal = new Float64Array(3)
  private readonly pushVelocity = new Float64Array(3)
  /** Step 5b: the markers' share of the solve's momentum, balanced on the bodies. */
  private readonly balance: MarkerMomentumBalance

  /** kernels: where the bodies' rasterisation samples mesh bodies (meshBodyKernels.ts); default TypeScript. */
  constructor(setups: RigidBodySetup[], grid: GridSpec, sides: DomainSides, gravity: readonly number[], obstaclePhi: Float32Array, kernels: KernelBackend = TS_KERNELS) {
    this.setups = setups
    this.grid = grid
    const descs: RigidBodyDesc[] = setups.map((s) => {
      const pose = s.start
      const startsActive = pose.frame >= s.activeFrom
      return {
        id: s.id,
        name: s.name,
        shape: s.shape,
        scale: s.scale,
        mesh: s.mesh ?? undefined,
        density: s.relativeDensity * LIQUID_DENSITY,
        position: pose.position,
        orientation: eulerDegToQuat(pose.rotation),
        linearVelocity: startsActive ? add(pose.velocity, s.initialVelocity) : pose.velocity,
        angularVelocity: startsActive ? add(pose.spin, s.initialSpin) : pose.spin,
        restitution: s.restitution,
        friction: s.friction,
        kinematic: !startsActive,
      }
    })
    const { nx, ny, nz, dx, origin } = grid
    this.world = new RigidWorld(descs, {
      gravity: [gravity[0], gravity[1], gravity[2]],
      box: { min: [origin[0], origin[1], origin[2]], max: [origin[0] + nx * dx, origin[1] + ny * dx, origin[2] + nz * dx] },
      open: [sides.xMin === 'open', sides.xMax === 'open', sides.yMin === 'open', sides.yMax === 'open', sides.zMin === 'open', sides.zMax === 'open'],
      staticSdf: new CornerSdf(obstaclePhi, grid),
    })
    const nb = setups.length
    this.active = new Uint8Array(nb)
    for (let b = 0; b < nb; b++) this.active[b] = setups[b].start.frame >= setups[b].activeFrom ? 1 : 0
    this.wet = new Uint8Array(nb)
    this.dryMask = new Uint8Array(nb)
    this.dynamicWet = new Uint8Array(nb)
    this.kinematicWet = new Uint8Array(nb)
    this.coupled = new Uint8Array(nb)
    this.preV = new Float64Array(3 * nb)
    this.preW = new Float64Array(3 * nb)
    this.nearBody = kernels.u8(grid.nx * grid.ny * grid.nz)
    this.coupling = new RigidCoupling(grid, kernels)
    this.kernels = kernels
    const bodies = this.world.bodies
    const grids = bodies.map((b) => b.meshGrid)
    this.coupling.packMeshGrids(grids.filter((g) => g !== null).map((g) => g.data))
    this.allMesh = grids.every((g) => g !== null)
    this.meshMeta = kernels.i32(Math.max(1, MESH_META * nb))
    this.poses = kernels.f64(Math.max(1, POSE.length * nb))
    for (let b = 0; b < nb; b++) {
      const g = grids[b]
      if (!g) continue
      this.meshMeta.set([this.coupling.meshGridOffset(g.data), g.nx, g.ny, g.nz], MESH_META * b)
    }
    this.phis = bodies.map((body) => (x: number, y: number, z: number) => body.phi(x, y, z))
    this.ball = new Float64Array(4 * nb)
    this.balance = new MarkerMomentumBalance(grid, nb, gravity, MARKER_BALANCE_REACH, kernels)
  }

  /**
   * A body starting inside an obstacle can never be pushed out cleanly: refused by name
   * (rigidInput.ts checkRigidPlacement; compileLiquid.ts already refused it before the bake
   * began, this is for callers that build the solver directly). Called once, at the first
   * step, with that step's obstacles; not after a restore (the bodies have moved on since).
   */
  checkPlacement(obstacles: readonly ObstacleInput[]): void {
    if (this.placementChecked) return
    this.placementChecked = true
    if (obstacles.length === 0) return
    for (const body of this.world.bodies) {
      const ob = obstacleContaining(body.x[0], body.x[1], body.x[2], obstacles)
      if (ob) startsInsideObstacle(body, ob, body.x)
    }
  }

  /** Fastest surface point of any body, m/s (|v| + |omega| r): the substep must follow it too. */
  maxSpeed(): number {
    return this.world.maxSpeedBound()
  }

  /**
   * Steps 1-2: keyed bodies follow their keys (at `frame`, `offset` s into the input's frame,
   * over a substep of h), bodies switch to simulated at their Active from frame, and the rigid
   * solver moves everything by h. `kind` is this substep's cell classification (wetness).
   */
  advance(h: number, offset: number, frame: number, poses: readonly RigidPoseInput[], kind: Uint8Array, count: Int32Array): void {
    const bodies = this.world.bodies
    for (let b = 0; b < bodies.length; b++) {
      const body = bodies[b]
      const s = this.setups[b]
      const pose = poses.find((p) => p.id === s.id)
      if (!this.active[b] && frame >= s.activeFrom) {
        // Activation: the body keeps the keyed motion it had, plus its initial velocity.
        this.active[b] = 1
        body.kinematic = false
        if (pose) {
          for (let d = 0; d < 3; d++) {
            body.v[d] = pose.velocity[d] + s.initialVelocity[d]
            body.w[d] = pose.spin[d] + s.initialSpin[d]
          }
        }
      }
      if (!this.active[b] && pose) {
        // Keyed: the pose at the end of this substep, moved on by the frame's rates.
        const t = offset + h
        const p: [number, number, number] = [pose.position[0] + pose.velocity[0] * t, pose.position[1] + pose.velocity[1] * t, pose.position[2] + pose.velocity[2] * t]
        const q = rotateQuat(eulerDegToQuat(pose.rotation), pose.spin, t)
        this.world.setKinematicPose(b, p, q, pose.velocity, pose.spin)
      }
      this.wet[b] = this.touchesLiquid(b, kind, count) ? 1 : 0
      this.dryMask[b] = this.wet[b] ? 0 : 1
    }
    // Wet bodies: gravity comes through the liquid (noGravity = 1), and so do their collision
    // impulses: eq. 70 adds them as A_c and alpha_c (eqs. 68-69) after the liquid solve, so a
    // wet body starts the liquid solve with the velocity it had before the rigid step (u^n on
    // R), or the impulse would count twice (a lead ball bounced off the floor).
    for (let b = 0; b < bodies.length; b++) {
      this.preV.set(bodies[b].v, 3 * b)
      this.preW.set(bodies[b].w, 3 * b)
    }
    this.world.step(h, { noGravity: this.wet })
    for (let b = 0; b < bodies.length; b++) {
      if (this.wet[b] && this.active[b]) {
        bodies[b].v.set(this.preV.subarray(3 * b, 3 * b + 3))
        bodies[b].w.set(this.preW.subarray(3 * b, 3 * b + 3))
      }
      this.dynamicWet[b] = this.wet[b] && this.active[b] ? 1 : 0
      this.kinematicWet[b] = this.wet[b] && !this.active[b] ? 1 : 0
      this.coupled[b] = this.wet[b]
    }
    this.coupling.rasterise(bodies, this.coupled)
  }

  /** The cells (i0, i1, j0, j1, k0, k1, ends exclusive) of the box within a cell of the body's bounding sphere, clamped to the grid. */
  private cellsNear(body: RigidBody): Int32Array {
    const { nx, ny, nz, dx, origin } = this.grid
    const r = body.boundingRadius + dx, box = this.nearBox
    box[0] = Math.max(0, Math.floor((body.x[0] - r - origin[0]) / dx))
    box[1] = Math.min(nx, Math.ceil((body.x[0] + r - origin[0]) / dx))
    box[2] = Math.max(0, Math.floor((body.x[1] - r - origin[1]) / dx))
    box[3] = Math.min(ny, Math.ceil((body.x[1] + r - origin[1]) / dx))
    box[4] = Math.max(0, Math.floor((body.x[2] - r - origin[2]) / dx))
    box[5] = Math.min(nz, Math.ceil((body.x[2] + r - origin[2]) / dx))
    return box
  }

  /**
   * A body is wet when a liquid cell, or a cell of at least MIN_COUNT markers, lies within one
   * cell of its surface. (The markers, not only the pressure's labels: a ball thrown into liquid
   * meets the markers first, and while it stayed dry it pushed them aside outside the coupled
   * solve; the no-gravity momentum checks lost 2.3-5.3% at its entry.)
   */
  private touchesLiquid(b: number, kind: Uint8Array, count: Int32Array): boolean {
    const body = this.world.bodies[b]
    const { nx, ny, dx, origin } = this.grid
    const [i0, i1, j0, j1, k0, k1] = this.cellsNear(body)
    for (let k = k0; k < k1; k++) for (let j = j0; j < j1; j++) for (let i = i0; i < i1; i++) {
      const c = i + nx * (j + ny * k)
      if (kind[c] !== LIQUID && count[c] < MIN_COUNT) continue
      if (body.phi(origin[0] + (i + 0.5) * dx, origin[1] + (j + 0.5) * dx, origin[2] + (k + 0.5) * dx) < dx) return true
    }
    return false
  }

  /**
   * Step 2b: cells a wet body moves into this substep (by more than PUSHED_MOVE cells along its
   * outward normal there) that hold at least MIN_COUNT markers join the liquid for the
   * substep (kind LIQUID, the pressure's phi just inside), as the markers' count made them
   * before the pressure's labels dropped it (surfaceTracker.ts label). Why: a thin layer of
   * markers on the liquid's face (a block whose face cuts its cells 0.2 in) is liquid by neither
   * the tracked surface nor the markers' bulk weight, so a ball thrown at it was wet (it touches
   * the markers) but an air cell away from the liquid behind them: the solve could not push that
   * liquid through them, and those markers took velocities extended into the air. The 48-cell
   * thrown ball of tests/validation/rigidfluid/momentum.test.ts left 0.7% / 0.5% of its
   * momentum across the throw in its first frame that way (0.3% with this). Only cells the body
   * pushes into: every count cell within a cell of a wet body also took in the cells of 2
   * markers above the waterline beside a floating 0.5 cube, which raised the level at its sides
   * and floated it at 0.470 of its volume under instead of 0.479-0.484.
   */
  holdPushedMarkers(kind: Uint8Array, count: Int32Array, phiRaw: Float32Array, h: number): void {
    const { nx, ny, dx, origin } = this.grid
    const bodies = this.world.bodies
    const eps = 1e-3 * dx, move = PUSHED_MOVE * dx, n = this.pushNormal, u = this.pushVelocity
    for (let b = 0; b < bodies.length; b++) {
      if (!this.coupled[b]) continue
      const body = bodies[b]
      const [i0, i1, j0, j1, k0, k1] = this.cellsNear(body)
      for (let k = k0; k < k1; k++) for (let j = j0; j < j1; j++) for (let i = i0; i < i1; i++) {
        const c = i + nx * (j + ny * k)
        if (kind[c] !== AIR || count[c] < MIN_COUNT) continue
        const x = origin[0] + (i + 0.5) * dx, y = origin[1] + (j + 0.5) * dx, z = origin[2] + (k + 0.5) * dx
        const d = body.phi(x, y, z)
        if (!(d >= 0 && d < dx)) continue
        // The body's outward normal there and its material's velocity there.
        body.normalAt(x, y, z, n)
        body.velocityAt(x, y, z, u)
        if (!((u[0] * n[0] + u[1] * n[1] + u[2] * n[2]) * h > move)) continue
        kind[c] = LIQUID
        if (phiRaw[c] > -eps) phiRaw[c] = -eps
      }
    }
  }

  /** Step 3: u^n on the faces wet bodies cover (before the substep's forces). */
  imposeRigidVelocity(vel: MacGrid, open: MacGrid): void {
    this.coupling.imposeRigidVelocity(vel, this.world.bodies, this.coupled, open)
  }

  /**
   * Step 4: cells whose centre lies inside a wet body join the liquid (kind LIQUID, level
   * sets min(liquid, body)), until leaveLiquid().
   */
  joinLiquid(kind: Uint8Array, phi: Float32Array, phiRaw: Float32Array): void {
    const cp = this.coupling.cellPhi
    // Only the planes the bodies' boxes span can hold a centre inside a body (two passes over
    // the whole grid were about 3 ms a frame of the gears and bunnies).
    const [from, to] = this.coupling.cellSpan()
    let n = 0
    for (let c = from; c < to; c++) if (cp[c] < 0) n++
    if (this.joined.length < n) {
      this.joined = new Int32Array(n)
      this.joinedKind = new Uint8Array(n)
      this.joinedPhi = new Float32Array(n)
      this.joinedPhiRaw = new Float32Array(n)
    }
    let m = 0
    for (let c = from; c < to; c++) {
      if (!(cp[c] < 0)) continue
      this.joined[m] = c
      this.joinedKind[m] = kind[c]
      this.joinedPhi[m] = phi[c]
      this.joinedPhiRaw[m] = phiRaw[c]
      kind[c] = LIQUID
      if (cp[c] < phi[c]) phi[c] = cp[c]
      if (cp[c] < phiRaw[c]) phiRaw[c] = cp[c]
      m++
    }
    this.joinedCount = m
  }

  /** Undoes joinLiquid (once per joinLiquid), so the frame's level set, volume and cell counts are the liquid's own. */
  leaveLiquid(kind: Uint8Array, phi: Float32Array, phiRaw: Float32Array): void {
    for (let m = 0; m < this.joinedCount; m++) {
      const c = this.joined[m]
      kind[c] = this.joinedKind[m]
      phi[c] = this.joinedPhi[m]
      phiRaw[c] = this.joinedPhiRaw[m]
    }
    // The list stays: solidify() marks the same cells as walls for the liquid-only solve.
  }

  /**
   * Step 6: the bodies' motion in the faces the markers read (imposeRigidVelocity), the
   * momentum the markers take from it taken from the bodies (rigidCoupling.ts
   * imposeWithReaction), markerVolume the liquid volume one marker stands for (m^3).
   */
  imposeForMarkers(vel: MacGrid, open: MacGrid, transfer: ParticleTransfer, markerVolume: number): void {
    this.massAndInertia()
    const splat = [transfer.faceSplat(0), transfer.faceSplat(1), transfer.faceSplat(2)]
    this.coupling.imposeWithReaction(vel, this.world.bodies, this.coupled, open, this.dynamicWet, splat, LIQUID_DENSITY * markerVolume, this.massScratch, this.invIScratch)
  }

  /**
   * Step 6: faces a wet body closes in the liquid-only solve go back to the markers' own
   * velocity (start: after the transfer, before forces). The solve held them as walls; they
   * are no liquid face, but the markers beside the body read them, and imposeForMarkers
   * weighs what the body gives those markers against what they had.
   */
  restoreClosedFaces(vel: MacGrid, start: MacGrid, fractions: MacGrid, closed: MacGrid): void {
    this.coupling.restoreClosedFaces(vel, start, fractions, closed, this.world.bodies, this.coupled)
  }

  /** Whether any body is coupled this substep (wet). */
  get anyWet(): boolean {
    for (let b = 0; b < this.coupled.length; b++) if (this.coupled[b]) return true
    return false
  }

  /**
   * Step 5, before the liquid-only pressure solve: cells whose centre lies inside a
   * wet body become SOLID (until unsolidify), so the liquid sees the bodies as walls.
   */
  solidify(kind: Uint8Array): void {
    // The cells joinLiquid took (centre inside a wet body): its list is kept by leaveLiquid.
    for (let m = 0; m < this.joinedCount; m++) {
      const c = this.joined[m]
      this.joinedKind[m] = kind[c]
      kind[c] = SOLID
    }
    this.solidCount = this.joinedCount
  }

  unsolidify(kind: Uint8Array): void {
    for (let m = 0; m < this.solidCount; m++) kind[this.joined[m]] = this.joinedKind[m]
    this.solidCount = 0
  }

  /**
   * Step 5, the walls of the liquid-only pressure solve: the obstacles' open fractions and
   * velocities with each wet body's faces closed by its covered share w (fully where a SOLID
   * body cell is behind the face), moving with the body (rigidCoupling.ts boundary). A
   * dynamic body's wall velocity is V*, its velocity before the solve's pressure: v^n +
   * h A_c and omega^n + h alpha_c, plus its weight over the substep measured by the solve's
   * own pressure sum; the solve then finds the pressure and the bodies' velocities together
   * (coupledWalls.ts), finishWalls() applying the result.
   */
  prepareWalls(fractions: MacGrid, obstacleVelocity: MacGrid | null, kind: Uint8Array, h: number, g: readonly number[]): { fractions: MacGrid; velocity: MacGrid } {
    const bodies = this.world.bodies
    for (let b = 0; b < bodies.length; b++) {
      if (!this.dynamicWet[b]) continue
      const body = bodies[b]
      for (let d = 0; d < 3; d++) {
        body.v[d] = this.preV[3 * b + d] + h * body.collisionAccel[d]
        body.w[d] = this.preW[3 * b + d] + h * body.collisionAngularAccel[d]
      }
    }
    this.massAndInertia()
    const closed = this.coupling.boundary(fractions, obstacleVelocity, bodies, this.coupled).fractions
    this.coupling.addDiscreteWeight(kind, fractions, closed, bodies, this.dynamicWet, this.massScratch, this.invIScratch, h, g)
    // Again, for the walls' velocity at V* (the fractions come out the same).
    const walls = this.coupling.boundary(fractions, obstacleVelocity, bodies, this.coupled)
    this.coupling.buildWalls(kind, fractions, walls.fractions, bodies, this.dynamicWet, this.massScratch, this.invIScratch)
    return walls
  }

  /** The dynamic wet bodies' rows for the liquid-only solve (prepareWalls). */
  get coupledWalls(): CoupledWalls {
    return this.coupling.walls
  }

  /**
   * Step 5, after the solve: each dynamic wet body's velocity is V* plus the impulse of the liquid-only solve's
   * pressure q on it (rigidCoupling.ts applyWallPressure): what the liquid gains it loses.
   */
  finishWalls(q: Float64Array): void {
    this.coupling.applyWallPressure(q, this.world.bodies, this.dynamicWet)
  }

  /**
   * Step 5b, after finishWalls: each dynamic wet body takes back what the markers near it did
   * not take of the solve's change (markerMomentum.ts), so the two trade momentum at the
   * markers' masses. vel: the solved velocity; start: the liquid's at the start of the
   * substep; fractions, kind, phi: the solve's; markerVolume: m^3 a marker stands for.
   */
  balanceMarkers(vel: MacGrid, start: MacGrid, fractions: MacGrid, kind: Uint8Array, phi: Float32Array, transfer: ParticleTransfer, markerVolume: number): void {
    const splat = [transfer.faceSplat(0), transfer.faceSplat(1), transfer.faceSplat(2)]
    const dx = this.grid.dx
    this.balance.apply(this.world.bodies, this.dynamicWet, this.massScratch, vel, start, fractions, kind, phi, splat, LIQUID_DENSITY * markerVolume, LIQUID_DENSITY * dx * dx * dx)
  }

  /** Each body's mass and world inverse inertia, into massScratch and invIScratch. */
  private massAndInertia(): void {
    const bodies = this.world.bodies
    if (this.massScratch.length !== bodies.length) {
      this.massScratch = new Float64Array(bodies.length)
      this.invIScratch = new Float64Array(9 * bodies.length)
    }
    for (let b = 0; b < bodies.length; b++) {
      this.massScratch[b] = bodies[b].mass
      bodies[b].worldInverseInertia(this.invIScratch.subarray(9 * b, 9 * b + 9))
    }
  }

  /**
   * Step 7: markers inside any body go to just outside its surface, body by body in order
   * (each body sees the positions the ones before it left: the order a marker meets them in).
   */
  pushMarkersOut(p: MarkerParticles): void {
    const { nx, ny, nz, dx, origin } = this.grid
    const bodies = this.world.bodies
    // Cells a body's bounding sphere can reach (its box plus a cell for rounding): the other
    // markers, nearly all of them, are outside every body and cost one lookup instead of a
    // sphere test per body.
    // A wet body was rasterised at this pose (advance(); nothing moves it before the markers
    // are pushed): its cells whose centre distance exceeds PUSH_REACH_CELLS cells hold no point
    // inside it, since a body's phi changes by at most 3 x the distance moved (exact
    // distances by 1; a mesh's trilinear grid by sqrt 3, plus 1 outside that grid). Those
    // cells are marked PUSH_SKIP. In the gears-and-bunnies bench 12% of the markers then reach
    // the per-body tests (1.15M distance lookups in 13.6M marker visits over two frames at 68).
    // A cell marked 0 or PUSH_SKIP holds no point inside any body, so a marker there is
    // skipped by every body: the same whether a body before moved it there or not.
    const near = this.nearBody
    near.fill(0)
    const cellPhi = this.coupling.cellPhi, reach = PUSH_REACH_CELLS * dx
    for (let pass = 0; pass < 2; pass++) {
      for (let b = 0; b < bodies.length; b++) {
        // Wet bodies first, then dry ones: a dry body's box is tested whatever a wet one said.
        if ((pass === 0) !== (this.coupled[b] === 1)) continue
        const body = bodies[b]
        const r = body.boundingRadius
        const lo = (x: number, o: number, n: number): number => Math.min(n - 1, Math.max(0, Math.floor((x - r - o) / dx) - 1))
        const hi = (x: number, o: number, n: number): number => Math.min(n - 1, Math.max(0, Math.floor((x + r - o) / dx) + 1))
        const i0 = lo(body.x[0], origin[0], nx), i1 = hi(body.x[0], origin[0], nx)
        const j0 = lo(body.x[1], origin[1], ny), j1 = hi(body.x[1], origin[1], ny)
        const k0 = lo(body.x[2], origin[2], nz), k1 = hi(body.x[2], origin[2], nz)
        for (let k = k0; k <= k1; k++) for (let j = j0; j <= j1; j++) {
          const row = nx * (j + ny * k)
          if (pass === 1) near.fill(PUSH_TEST, row + i0, row + i1 + 1)
          else for (let i = i0; i <= i1; i++) if (near[row + i] !== PUSH_TEST) near[row + i] = cellPhi[row + i] > reach ? PUSH_SKIP : PUSH_TEST
        }
      }
    }
    const P = POSE.length, poses = this.poses
    if (this.allMesh) {
      // Every body a mesh: one pass over the markers on the kernels (meshBodyKernels.ts).
      for (let b = 0; b < bodies.length; b++) writeMeshPose(poses, P * b, bodies[b], origin, dx)
      this.kernels.run(PUSH_MESH_MARKERS, p, near, this.coupling.packedGrids, this.meshMeta, poses, bodies.length, nx, ny, nz, p.count)
      return
    }
    const ball = this.ball
    for (let b = 0; b < bodies.length; b++) {
      ball[4 * b] = bodies[b].x[0]; ball[4 * b + 1] = bodies[b].x[1]; ball[4 * b + 2] = bodies[b].x[2]; ball[4 * b + 3] = bodies[b].boundingRadius
    }
    pushMarkersSlab(this.phis, ball, p, near, nx, ny, nz, dx, origin[0], origin[1], origin[2], 0, p.count)
  }

  states(): RigidBodyState[] {
    return this.world.states()
  }

  serialise(): Float64Array {
    const w = this.world.serialise()
    const out = new Float64Array(w.length + this.active.length)
    out.set(w)
    for (let b = 0; b < this.active.length; b++) out[w.length + b] = this.active[b]
    return out
  }

  restore(data: Float64Array): void {
    const nb = this.active.length
    if (data.length < nb) throw new EddyError('INVALID_PARAM', 'Checkpoint is not usable: its rigid body state is truncated', { field: 'checkpoint' })
    this.world.restore(data.subarray(0, data.length - nb))
    for (let b = 0; b < nb; b++) {
      this.active[b] = data[data.length - nb + b] ? 1 : 0
      this.world.bodies[b].kinematic = !this.active[b]
    }
    this.placementChecked = true
  }
}

/** Cells (times dx) from a wet body's surface, by its cell-centre distance, beyond which no point of the cell is inside it. */
const PUSH_REACH_CELLS = 3 * (Math.sqrt(3) / 2) + 0.01
/**
 * holdPushedMarkers: how far, in cells, a wet body must move into a cell over the substep for
 * the cell's markers to join the liquid (0.1-0.3 measured alike on the thrown ball and the
 * floating cube; a bobbing body moves far less).
 */
const PUSHED_MOVE = 0.25

function add(a: readonly number[], b: readonly number[]): [number, number, number] {
  return [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/** q turned by the world angular velocity w over t seconds (exact for a constant w). */
function rotateQuat(q: Quat, w: readonly number[], t: number): Quat {
  const ang = Math.hypot(w[0], w[1], w[2]) * t
  if (!(ang > 0)) return q
  const s = Math.sin(ang / 2) / (Math.hypot(w[0], w[1], w[2]))
  const dx = w[0] * s, dy = w[1] * s, dz = w[2] * s, dw = Math.cos(ang / 2)
  // d * q (world-frame rotation applied after q).
  return [
    dw * q[0] + dx * q[3] + dy * q[2] - dz * q[1],
    dw * q[1] - dx * q[2] + dy * q[3] + dz * q[0],
    dw * q[2] + dx * q[1] - dy * q[0] + dz * q[3],
    dw * q[3] - dx * q[0] - dy * q[1] - dz * q[2],
  ]
}
