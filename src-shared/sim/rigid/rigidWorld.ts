// Impulse-based rigid-body solver after Guendelman, Bridson and Fedkiw 2003, "Nonconvex
// rigid bodies with stacking" (SIGGRAPH), the solver Carlson 2004 (chapter 5) couples the
// liquid with ("the rigid bodies ... moved with the solver described in [36]").
//
// One step of length dt (Guendelman et al. 2003, "time integration"):
//  (a) Collisions: predict each body's pose with the velocity it would have after the step's
//      forces, x + dt (v + dt g) (a wet body, whose gravity the fluid applies, predicts with
//      v: Carlson 2004, footnote 2 of section 5.5), and look for interference at the
//      predicted poses; where points approach, apply impulses with restitution and friction
//      to the *current* velocities, re-predict and repeat (a few iterations). Using the
//      forces for detection but not for the response is what keeps a body resting on a
//      slope from bouncing: at rest its current velocity at the contact is zero, so there is
//      no collision, only contact.
//  (b) Velocities: v += dt g (skipped for wet bodies).
//  (c) Contacts: predict x + dt v with the new velocities, detect, apply inelastic impulses
//      (target relative normal velocity 0; points still short of touching may close that
//      gap, and existing penetration is pushed out slowly: contactSolver.ts prepare) with
//      friction, a few iterations; then shock propagation:
//      bodies are layered by the contact graph from the ground up (level 1 touches the
//      environment or a kinematic body, level k + 1 touches level k), and each level's
//      contacts are solved once more with every lower level frozen (infinite mass), after
//      which the level itself is frozen. A body then cannot be pushed into the bodies
//      below it by those above, so stacks come to rest in one pass instead of after many
//      Gauss-Seidel iterations.
//  (d) Positions: x += dt v; the orientation (a unit quaternion, renormalised) turns with
//      the angular momentum L = I w held fixed, w following the orientation (torque-free
//      precession of non-spherical bodies; midpoint rule, rigidMath.ts rotateBody).
// Impulses of (a) and (c) are also summed per body as accelerations for the fluid coupling
// (Carlson 2004, eqs. 68-69; impulse / dt as force).
//
// Determinism: no random visiting order (pairs are swept alternately forwards and
// backwards, so neither end of the list is favoured), no state carried between steps other
// than what serialise() writes, so a restored world continues bit for bit.
import { EddyError } from '../../api/errors'
import type { RigidBodyState } from '../frame'
import type { SignedDistanceField } from '../../geometry/signedDistance'
import { ContactSolver, type PairSolveSettings, type SolverBodies, type SolverEnvironment } from './contactSolver'
import { RigidBody, type RigidBodyDesc } from './rigidBody'
import { integrateQuat, quatToMatrix, rotateBody, rotateTensor } from './rigidMath'

export type { RigidBodyDesc } from './rigidBody'
export { RigidBody } from './rigidBody'

export interface RigidSolverSettings {
  /** Collision iterations per step (a); stops early when no point approaches. Default 5. */
  collisionIterations: number
  /** Contact iterations per step before shock propagation (c). Default 10. */
  contactIterations: number
  /** Layered shock propagation after the contact iterations. Default true. */
  shockPropagation: boolean
  /** Sweeps over each level's contacts in shock propagation. Default 2. */
  shockIterations: number
  /** Projected Gauss-Seidel sweeps over one pair's contact points. Default 16. */
  pairIterations: number
  /** Penetration left alone, as a fraction of the smaller body's bounding radius. Default 0.005. */
  penetrationSlop: number
  /** Fraction of the penetration beyond the slop removed per step. Default 0.2. */
  penetrationRecovery: number
  /** Largest separation speed used to remove penetration, m/s. Default 0.5. */
  maxRecoverySpeed: number
}

export const DEFAULT_RIGID_SOLVER: Readonly<RigidSolverSettings> = Object.freeze({
  collisionIterations: 5,
  contactIterations: 10,
  shockPropagation: true,
  shockIterations: 2,
  pairIterations: 16,
  penetrationSlop: 0.005,
  penetrationRecovery: 0.2,
  maxRecoverySpeed: 0.5,
})

export interface RigidEnvironment {
  /** m/s^2, world. */
  gravity: ArrayLike<number>
  /** Axis-aligned domain box, m; its sides are walls unless open. */
  box: { min: ArrayLike<number>; max: ArrayLike<number> }
  /** Per side, in the order xMin, xMax, yMin, yMax, zMin, zMax: true = open, no wall (default: all closed). */
  open?: ArrayLike<boolean>
  /** Static obstacles: world signed distance, negative inside. */
  staticSdf?: SignedDistanceField | null
  /** Central-difference step of the obstacle SDF's gradient, m (default 1e-4 of the domain diagonal). */
  staticSdfGradientStep?: number
  solver?: Partial<RigidSolverSettings>
}

export interface RigidStepOptions {
  /** Per body: 1 = the fluid already applied gravity this step (a wet body). */
  noGravity?: Uint8Array
}

const SERIAL_MAGIC = 0x52494744 // 'RIGD'
const SERIAL_VERSION = 1
const SERIAL_HEADER = 4
/** Doubles per body: x 3, q 4, v 3, w 3, collisionAccel 3, collisionAngularAccel 3. */
const SERIAL_STRIDE = 19

/** A unit of collision work: a body against the environment (b = -1) or a pair. */
interface Item {
  a: number
  b: number
  restitution: number
  friction: number
}

export class RigidWorld {
  readonly bodies: RigidBody[]
  readonly settings: Readonly<RigidSolverSettings>
  readonly gravity: Float64Array
  /** The environment as given. */
  readonly env: Readonly<RigidEnvironment>
  private readonly st: SolverBodies
  private readonly envK: SolverEnvironment
  private readonly cs: ContactSolver
  private readonly items: Item[] = []
  /** Per item: contacts found in the latest contact sweep (edges of the contact graph). */
  private readonly touching: Uint8Array
  /** Per item, this step: it involves a dynamic body. */
  private readonly itemOn: Uint8Array
  private readonly frozen: Uint8Array
  private readonly level: Int32Array
  private readonly gravOn: Uint8Array
  /**
   * Per body: its predicted pose (px, pr) is up to date for the current stage: set by
   * predict(), cleared when an impulse or force changes the body's velocity. Keeps the
   * pose prediction (a quaternion exponential) O(bodies) per sweep instead of O(pairs).
   */
  private readonly predOk: Uint8Array
  private readonly scratchR = new Float64Array(22)
  private readonly scratchQ = new Float64Array(4)
  private readonly pairSettings: PairSolveSettings

  constructor(bodies: RigidBodyDesc[], env: RigidEnvironment) {
    if (!Array.isArray(bodies)) throw new EddyError('INVALID_PARAM', 'RigidWorld: bodies must be an array')
    const ids = new Set<string>()
    this.bodies = bodies.map((d, i) => {
      const b = new RigidBody(d, i)
      if (ids.has(b.id)) throw new EddyError('INVALID_PARAM', `Rigid body "${b.name}": id "${b.id}" is used by two bodies`, { objectId: b.id, field: 'id' })
      ids.add(b.id)
      return b
    })
    const g = env?.gravity
    if (!g || g.length < 3 || ![0, 1, 2].every((i) => Number.isFinite(g[i]))) throw new EddyError('INVALID_PARAM', 'RigidWorld: gravity must be 3 finite numbers')
    this.gravity = Float64Array.of(g[0], g[1], g[2])
    this.env = env
    const lo = env.box?.min, hi = env.box?.max
    if (!lo || !hi || ![0, 1, 2].every((i) => Number.isFinite(lo[i]) && Number.isFinite(hi[i]) && lo[i] < hi[i])) {
      throw new EddyError('INVALID_PARAM', 'RigidWorld: box must have finite min < max on every axis')
    }
    if (env.open !== undefined && (!env.open || env.open.length !== 6)) throw new EddyError('INVALID_PARAM', 'RigidWorld: open must have 6 flags (xMin, xMax, yMin, yMax, zMin, zMax)')
    const s: Partial<RigidSolverSettings> = env.solver ?? {}
    const settings = { ...DEFAULT_RIGID_SOLVER, ...s }
    for (const key of ['collisionIterations', 'contactIterations', 'shockIterations', 'pairIterations'] as const) {
      const v = settings[key]
      if (!Number.isInteger(v) || v < 0 || v > 1000) throw new EddyError('INVALID_PARAM', `RigidWorld: solver.${key} must be an integer in 0..1000, got ${v}`)
    }
    for (const key of ['penetrationSlop', 'penetrationRecovery', 'maxRecoverySpeed'] as const) {
      const v = settings[key]
      if (!(v >= 0) || !Number.isFinite(v)) throw new EddyError('INVALID_PARAM', `RigidWorld: solver.${key} must be a finite number >= 0, got ${v}`)
    }
    this.settings = Object.freeze(settings)
    this.pairSettings = { iterations: Math.max(1, settings.pairIterations), tolerance: 1e-9 }
    const n = this.bodies.length
    this.st = {
      n,
      x: new Float64Array(3 * n),
      q: new Float64Array(4 * n),
      r: new Float64Array(9 * n),
      v: new Float64Array(3 * n),
      w: new Float64Array(3 * n),
      im: new Float64Array(n),
      ii: new Float64Array(9 * n),
      px: new Float64Array(3 * n),
      pr: new Float64Array(9 * n),
      dv: new Float64Array(3 * n),
      dw: new Float64Array(3 * n),
      shapes: this.bodies.map((b) => b.shape),
      radius: Float64Array.from(this.bodies, (b) => b.boundingRadius),
    }
    const wallOn = new Uint8Array(6)
    const wallPos = new Float64Array(6)
    for (let side = 0; side < 6; side++) {
      wallOn[side] = env.open?.[side] ? 0 : 1
      wallPos[side] = side & 1 ? hi[side >> 1] : lo[side >> 1]
    }
    const diag = Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2])
    const h = env.staticSdfGradientStep ?? 1e-4 * diag
    if (!(h > 0) || !Number.isFinite(h)) throw new EddyError('INVALID_PARAM', `RigidWorld: staticSdfGradientStep must be > 0, got ${h}`)
    const gl = Math.hypot(g[0], g[1], g[2])
    const up = gl > 0 ? Float64Array.of(-g[0] / gl, -g[1] / gl, -g[2] / gl) : Float64Array.of(0, 1, 0)
    this.envK = { wallOn, wallPos, sdf: env.staticSdf ?? null, sdfStep: h, up }
    this.cs = new ContactSolver(this.st, this.envK)
    // Items: every body against the environment, then every pair (those with no dynamic
    // body are skipped at each step: bodies can switch between kinematic and dynamic).
    // Pair coefficients: the bouncier restitution (a rubber ball bounces on anything) and
    // the geometric mean of the frictions (ice on anything is slippery).
    for (const b of this.bodies) this.items.push({ a: b.index, b: -1, restitution: b.restitution, friction: b.friction })
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const A = this.bodies[i], B = this.bodies[j]
        this.items.push({ a: i, b: j, restitution: Math.max(A.restitution, B.restitution), friction: Math.sqrt(A.friction * B.friction) })
      }
    }
    this.touching = new Uint8Array(this.items.length)
    this.itemOn = new Uint8Array(this.items.length)
    this.frozen = new Uint8Array(n)
    this.level = new Int32Array(n)
    this.gravOn = new Uint8Array(n)
    this.predOk = new Uint8Array(n)
  }

  /** Advances all bodies by dt seconds (see the file comment for the four stages). */
  step(dt: number, opts: RigidStepOptions = {}): void {
    if (!(dt > 0) || !Number.isFinite(dt)) throw new EddyError('INVALID_PARAM', `RigidWorld.step: dt must be a positive finite number, got ${dt}`)
    const st = this.st, n = st.n, set = this.settings, g = this.gravity
    const noGravity = opts.noGravity
    if (noGravity && noGravity.length < n) throw new EddyError('INVALID_PARAM', `RigidWorld.step: noGravity has ${noGravity.length} entries for ${n} bodies`)
    this.load()
    for (let i = 0; i < n; i++) this.gravOn[i] = this.bodies[i].kinematic || (noGravity && noGravity[i]) ? 0 : 1
    for (let k = 0; k < this.items.length; k++) {
      const { a, b } = this.items[k]
      this.itemOn[k] = !this.bodies[a].kinematic || (b >= 0 && !this.bodies[b].kinematic) ? 1 : 0
    }
    st.dv.fill(0)
    st.dw.fill(0)
    this.predOk.fill(0)
    const gl = Math.hypot(g[0], g[1], g[2])
    // Velocity scales for "approaching" and "converged": far below what one step of
    // gravity adds, far above round-off.
    const vScale = Math.max(gl * dt, 1e-3)
    const approachTol = 1e-6 * vScale
    this.pairSettings.tolerance = 1e-3 * vScale

    // (a) Collisions, detected at x + dt (v + dt g).
    for (let it = 0; it < set.collisionIterations; it++) {
      let any = false
      const fwd = (it & 1) === 0
      for (let m = 0; m < this.items.length; m++) {
        const k = fwd ? m : this.items.length - 1 - m
        if (this.itemOn[k] && this.collide(this.items[k], dt, approachTol)) any = true
      }
      if (!any) break
    }

    // (b) Forces. (Predictions change from x + dt (v + dt g) to x + dt v either way.)
    this.predOk.fill(0)
    for (let i = 0; i < n; i++) {
      if (!this.gravOn[i]) continue
      st.v[3 * i] += dt * g[0]
      st.v[3 * i + 1] += dt * g[1]
      st.v[3 * i + 2] += dt * g[2]
    }

    // (c) Contacts, detected at x + dt v, then shock propagation. The contact graph is
    // every pair found touching in any sweep of this step: a pair moving together has no
    // predicted overlap in the sweep after their velocities matched, yet rests on the other.
    this.touching.fill(0)
    const tol = 1e-4 * vScale
    for (let it = 0; it < set.contactIterations; it++) {
      let change = 0
      const fwd = (it & 1) === 0
      for (let m = 0; m < this.items.length; m++) {
        const k = fwd ? m : this.items.length - 1 - m
        const c = this.contact(k, dt)
        if (c > change) change = c
      }
      if (change < tol) break
    }
    if (set.shockPropagation && set.contactIterations > 0) this.shockPropagate(dt)

    // (d) Positions.
    this.integrate(dt)
    this.store(dt)
  }

  /**
   * Sets a kinematic body's pose from its object pose (`origin` = world position of the
   * object's origin, `q` = orientation x y z w) and its velocities (of the centre of mass,
   * world axes): what a keyframed body does over the coming step.
   */
  setKinematicPose(index: number, origin: ArrayLike<number>, q: ArrayLike<number>, linearVelocity: ArrayLike<number>, angularVelocity: ArrayLike<number>): void {
    const b = this.bodies[index]
    if (!b) throw new EddyError('INVALID_PARAM', `RigidWorld.setKinematicPose: no body ${index}`)
    b.setPose(origin, q)
    for (let k = 0; k < 3; k++) {
      b.v[k] = linearVelocity[k]
      b.w[k] = angularVelocity[k]
    }
  }

  /** Largest speed of any surface point: max over bodies of |v| + |w| r (for the time step limit). */
  maxSpeedBound(): number {
    let m = 0
    for (const b of this.bodies) {
      const s = Math.hypot(b.v[0], b.v[1], b.v[2]) + Math.hypot(b.w[0], b.w[1], b.w[2]) * b.boundingRadius
      if (s > m) m = s
    }
    return m
  }

  /** Frame records of all bodies: pose of the centre of mass and the body-local (COM-centred) mesh, as copies. */
  states(): RigidBodyState[] {
    return this.bodies.map((b) => ({
      id: b.id,
      name: b.name,
      position: [b.x[0], b.x[1], b.x[2]],
      orientation: [b.q[0], b.q[1], b.q[2], b.q[3]],
      linearVelocity: [b.v[0], b.v[1], b.v[2]],
      angularVelocity: [b.w[0], b.w[1], b.w[2]],
      mesh: {
        name: b.name,
        positions: b.shape.positions.slice(),
        indices: b.shape.indices.slice(),
        normals: b.shape.normals.slice(),
      },
    }))
  }

  /** The complete dynamic state (for solver checkpoints): restore() of it resumes bit for bit. */
  serialise(): Float64Array {
    const n = this.bodies.length
    const out = new Float64Array(SERIAL_HEADER + SERIAL_STRIDE * n)
    out[0] = SERIAL_MAGIC
    out[1] = SERIAL_VERSION
    out[2] = n
    out[3] = SERIAL_STRIDE
    for (let i = 0; i < n; i++) {
      const b = this.bodies[i], o = SERIAL_HEADER + SERIAL_STRIDE * i
      out.set(b.x, o)
      out.set(b.q, o + 3)
      out.set(b.v, o + 7)
      out.set(b.w, o + 10)
      out.set(b.collisionAccel, o + 13)
      out.set(b.collisionAngularAccel, o + 16)
    }
    return out
  }

  /** Restores what serialise() wrote, for a world built from the same bodies. */
  restore(data: Float64Array): void {
    const n = this.bodies.length
    if (!(data instanceof Float64Array) || data.length < SERIAL_HEADER || data[0] !== SERIAL_MAGIC) {
      throw new EddyError('INVALID_PARAM', 'RigidWorld.restore: not a rigid-body checkpoint')
    }
    if (data[1] !== SERIAL_VERSION || data[3] !== SERIAL_STRIDE) {
      throw new EddyError('INVALID_PARAM', `RigidWorld.restore: checkpoint version ${data[1]} is not ${SERIAL_VERSION}`)
    }
    if (data[2] !== n || data.length !== SERIAL_HEADER + SERIAL_STRIDE * n) {
      throw new EddyError('INVALID_PARAM', `RigidWorld.restore: checkpoint has ${data[2]} bodies, the world ${n}`)
    }
    for (let i = 0; i < n; i++) {
      const b = this.bodies[i], o = SERIAL_HEADER + SERIAL_STRIDE * i
      b.x.set(data.subarray(o, o + 3))
      b.q.set(data.subarray(o + 3, o + 7))
      b.v.set(data.subarray(o + 7, o + 10))
      b.w.set(data.subarray(o + 10, o + 13))
      b.collisionAccel.set(data.subarray(o + 13, o + 16))
      b.collisionAngularAccel.set(data.subarray(o + 16, o + 19))
    }
  }

  // --- internals -------------------------------------------------------------------------

  /** Copies the bodies' state (which the caller may have changed) into the flat arrays. */
  private load(): void {
    const st = this.st
    for (let i = 0; i < st.n; i++) {
      const b = this.bodies[i]
      st.x.set(b.x, 3 * i)
      // The caller may have written a slightly non-unit q.
      const l = Math.hypot(b.q[0], b.q[1], b.q[2], b.q[3])
      if (!(l > 0) || !Number.isFinite(l)) throw new EddyError('SIM_UNSTABLE', `Rigid body "${b.name}": its orientation is not a valid quaternion`)
      for (let k = 0; k < 4; k++) st.q[4 * i + k] = b.q[k] / l
      st.v.set(b.v, 3 * i)
      st.w.set(b.w, 3 * i)
      quatToMatrix(st.q, 4 * i, st.r, 9 * i)
      st.im[i] = b.invMass
      rotateTensor(st.r, 9 * i, b.invInertiaBody, st.ii, 9 * i)
      this.frozen[i] = 0
    }
  }

  /**
   * Predicted pose of body i into px, pr: x + dt v' and q rotated by w dt, with
   * v' = v + dt g in the collision stage for bodies under gravity.
   */
  private predict(i: number, dt: number, withGravity: boolean): void {
    if (this.predOk[i]) return
    this.predOk[i] = 1
    const st = this.st, p = 3 * i
    const gdt = withGravity && this.gravOn[i] ? dt : 0
    const g = this.gravity
    st.px[p] = st.x[p] + dt * (st.v[p] + gdt * g[0])
    st.px[p + 1] = st.x[p + 1] + dt * (st.v[p + 1] + gdt * g[1])
    st.px[p + 2] = st.x[p + 2] + dt * (st.v[p + 2] + gdt * g[2])
    // The orientation the position update will give (same rule), for the interference test.
    const q = this.scratchQ, b = this.bodies[i]
    if (b.kinematic) integrateQuat(st.q, 4 * i, st.w[p], st.w[p + 1], st.w[p + 2], dt, q, 0)
    else rotateBody(st.q, 4 * i, st.w, p, b.inertiaBody, b.invInertiaBody, dt, q, 0, null, 0, this.scratchR)
    quatToMatrix(q, 0, st.pr, 9 * i)
  }

  /** Predicts and detects one item; returns the contact count (0 when the bounding spheres are apart). */
  private detect(item: Item, dt: number, withGravity: boolean): number {
    const st = this.st
    this.predict(item.a, dt, withGravity)
    if (item.b < 0) return this.cs.detectEnv(item.a)
    this.predict(item.b, dt, withGravity)
    const pa = 3 * item.a, pb = 3 * item.b
    const dx = st.px[pa] - st.px[pb], dy = st.px[pa + 1] - st.px[pb + 1], dz = st.px[pa + 2] - st.px[pb + 2]
    const rr = st.radius[item.a] + st.radius[item.b]
    if (dx * dx + dy * dy + dz * dz > rr * rr) return 0
    return this.cs.detectPair(item.a, item.b)
  }

  /** One collision-stage visit of an item; returns whether any point approached (and got an impulse). */
  private collide(item: Item, dt: number, approachTol: number): boolean {
    if (this.detect(item, dt, true) === 0) return false
    if (!this.cs.prepare(item.a, item.b, item.restitution, dt, approachTol, 0, 0, 0)) return false
    this.cs.solve(item.a, item.b, item.friction, this.pairSettings)
    this.predOk[item.a] = 0
    if (item.b >= 0) this.predOk[item.b] = 0
    return true
  }

  /** One contact-stage visit of item k; records the contact-graph edge; returns the largest velocity change. */
  private contact(k: number, dt: number): number {
    const item = this.items[k]
    if (!this.itemOn[k]) return 0
    const count = this.detect(item, dt, false)
    if (count > 0) this.touching[k] = 1
    if (count === 0) return 0
    const st = this.st, set = this.settings
    const r = item.b < 0 ? st.radius[item.a] : Math.min(st.radius[item.a], st.radius[item.b])
    this.cs.prepare(item.a, item.b, -1, dt, 0, set.penetrationSlop * r, set.penetrationRecovery, set.maxRecoverySpeed)
    const change = this.cs.solve(item.a, item.b, item.friction, this.pairSettings)
    this.predOk[item.a] = 0
    if (item.b >= 0) this.predOk[item.b] = 0
    return change
  }

  /**
   * Shock propagation (Guendelman et al. 2003). Levels from the contact graph of
   * this step's contact sweeps, by breadth-first search from the ground: level 1 = bodies
   * touching the environment or a kinematic body; level k + 1 = bodies touching level k.
   * Then, level by level upwards, the level's contacts with the environment, with lower
   * (frozen) levels and among themselves are solved again, and the level is frozen. A body
   * found touching a just-frozen level that the graph missed joins the next level. Bodies
   * not connected to the ground (a cluster in free fall) keep the result of the contact
   * iterations.
   */
  private shockPropagate(dt: number): void {
    const st = this.st, n = st.n, level = this.level, items = this.items, bodies = this.bodies
    level.fill(0)
    let any = false
    for (let k = 0; k < items.length; k++) {
      if (!this.touching[k]) continue
      const { a, b } = items[k]
      if (b < 0) level[a] = 1
      else if (bodies[a].kinematic && !bodies[b].kinematic) level[b] = 1
      else if (bodies[b].kinematic && !bodies[a].kinematic) level[a] = 1
      any = true
    }
    if (!any) return
    for (let changed = true; changed; ) {
      changed = false
      for (let k = 0; k < items.length; k++) {
        if (!this.touching[k]) continue
        const { a, b } = items[k]
        if (b < 0 || bodies[a].kinematic || bodies[b].kinematic) continue
        if (level[a] > 0 && (level[b] === 0 || level[b] > level[a] + 1)) {
          level[b] = level[a] + 1
          changed = true
        } else if (level[b] > 0 && (level[a] === 0 || level[a] > level[b] + 1)) {
          level[a] = level[b] + 1
          changed = true
        }
      }
    }
    let top = 1
    for (let i = 0; i < n; i++) if (level[i] > top) top = level[i]
    // Level of each side of an item: 0 for the environment and kinematic bodies (the
    // ground), BIG for bodies not (yet) connected to it.
    const BIG = 0x7fffffff
    const lvl = (i: number) => (i < 0 || bodies[i].kinematic ? 0 : level[i] > 0 ? level[i] : BIG)
    for (let L = 1; L <= top; L++) {
      for (let sweep = 0; sweep < this.settings.shockIterations; sweep++) {
        for (let k = 0; k < items.length; k++) {
          // The item belongs to level L if one side is at L and the other at or below it
          // (lower levels are frozen by now).
          if (Math.max(lvl(items[k].a), lvl(items[k].b)) !== L) continue
          this.contact(k, dt)
        }
      }
      // Freeze level L: infinite mass from here on.
      for (let i = 0; i < n; i++) {
        if (level[i] !== L) continue
        this.frozen[i] = 1
        st.im[i] = 0
        st.ii.fill(0, 9 * i, 9 * i + 9)
      }
      // Bodies outside the graph that now touch level L rest on it: next level.
      for (let k = 0; k < items.length; k++) {
        const { a, b } = items[k]
        if (b < 0 || !this.itemOn[k]) continue
        const la = lvl(a), lb = lvl(b)
        if (!((la === L && lb === BIG) || (lb === L && la === BIG))) continue
        if (this.detect(items[k], dt, false) > 0) {
          level[la === BIG ? a : b] = L + 1
          top = L + 1
        }
      }
    }
    // Unfreeze (integrate() and the next step need the real masses).
    for (let i = 0; i < n; i++) {
      if (!this.frozen[i]) continue
      this.frozen[i] = 0
      st.im[i] = bodies[i].invMass
      rotateTensor(st.r, 9 * i, bodies[i].invInertiaBody, st.ii, 9 * i)
    }
  }

  /** (d): positions and orientations from the new velocities; w from conserved L = I w (rotateBody). */
  private integrate(dt: number): void {
    const st = this.st
    for (let i = 0; i < st.n; i++) {
      const b = this.bodies[i], p = 3 * i
      st.x[p] += dt * st.v[p]
      st.x[p + 1] += dt * st.v[p + 1]
      st.x[p + 2] += dt * st.v[p + 2]
      // A kinematic body turns at the rate it was given.
      if (b.kinematic) integrateQuat(st.q, 4 * i, st.w[p], st.w[p + 1], st.w[p + 2], dt, st.q, 4 * i)
      else rotateBody(st.q, 4 * i, st.w, p, b.inertiaBody, b.invInertiaBody, dt, st.q, 4 * i, st.w, p, this.scratchR)
      quatToMatrix(st.q, 4 * i, st.r, 9 * i)
    }
  }


  /** Writes the flat state back to the bodies, with the step's impulses as accelerations. */
  private store(dt: number): void {
    const st = this.st
    for (let i = 0; i < st.n; i++) {
      const b = this.bodies[i], p = 3 * i
      for (let k = 0; k < 3; k++) {
        const x = st.x[p + k], v = st.v[p + k], w = st.w[p + k]
        if (!Number.isFinite(x) || !Number.isFinite(v) || !Number.isFinite(w)) {
          throw new EddyError('SIM_UNSTABLE', `Rigid body "${b.name}": its motion became non-finite`, { objectId: b.id })
        }
        b.x[k] = x
        b.v[k] = v
        b.w[k] = w
        b.collisionAccel[k] = st.dv[p + k] / dt
        b.collisionAngularAccel[k] = st.dw[p + k] / dt
      }
      for (let k = 0; k < 4; k++) b.q[k] = st.q[4 * i + k]
    }
  }
}
