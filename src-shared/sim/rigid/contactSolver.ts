// Interference detection and impulse kernels of the rigid-body solver (rigidWorld.ts runs
// them in the order of Guendelman, Bridson and Fedkiw 2003).
//
// Detection (Guendelman et al. 2003, geometry and collision detection): at the *predicted*
// poses of two bodies,
// each sample point (mesh vertex) of one body is looked up in the other body's signed
// distance; a negative value is interference, with the contact normal the distance's
// gradient there. Both ways (A's points in B and B's points in A), so a corner of either
// body is seen. The static environment (domain walls, an optional obstacle SDF) has no
// points of its own: only the body's points are tested against it.
//
// Response: all interfering points of one pair are resolved together by sequential
// impulses with accumulated clamping (projected Gauss-Seidel on that pair's contacts:
// Catto 2005, "Iterative dynamics with temporal coherence"; the same fixed point as
// Guendelman's one-point-at-a-time impulses, without their dependence on the order in
// which a flat face's points are visited). Per contact, a normal impulse lambda_n >= 0
// drives the relative normal velocity to a target (-e u_n for a collision, 0 for a contact),
// and a friction impulse in the tangent plane opposes the sliding velocity, its accumulated
// magnitude clamped to mu lambda_n (Coulomb's cone, as in Guendelman et al. 2003's friction:
// static friction when the sticking impulse lies in the cone, kinetic mu lambda_n otherwise).
// The impulse of a contact with normal n at lever arms r_a, r_b changes the relative normal
// velocity by lambda / k_n with (the collision matrix of Mirtich 1996, "Impulse-based dynamic
// simulation of rigid body systems", projected on n)
//   1 / k_n = 1/m_a + 1/m_b + (r_a x n) . I_a^-1 (r_a x n) + (r_b x n) . I_b^-1 (r_b x n).
// Kinematic, static and (during shock propagation) frozen bodies enter with 1/m = 0 and
// I^-1 = 0: infinite mass.
import type { SignedDistanceField } from '../../geometry/signedDistance'
import type { RigidShape } from './rigidShape'

/** Doubles per contact in the contact buffer. */
const CS = 60
// Fields. Raw geometry from detection: lever arms from each body's centre of mass (current
// pose), the normal (pushing body a away from b), the penetration depth at the predicted
// poses. Then, set by prepare() so that each Gauss-Seidel update is a few dot products:
// the tangent basis, per direction d in (n, t1, t2) the angular Jacobians r_a x d, r_b x d
// and the angular responses I_a^-1 (r_a x d), I_b^-1 (r_b x d), the effective masses, the
// target normal velocity and the accumulated impulses.
const RA = 0, RB = 3, N = 6, DEPTH = 9, T1 = 10, T2 = 13
const JA = 16 // 3 directions x 3: r_a x n, r_a x t1, r_a x t2
const JB = 25 // r_b x n, r_b x t1, r_b x t2
const WA = 34 // I_a^-1 (r_a x d) for the three directions
const WB = 43 // I_b^-1 (r_b x d)
const K = 52 // effective masses 1 / (d^T K d) for n, t1, t2
const TARGET = 55, LN = 56, LT1 = 57, LT2 = 58

/** Flat per-body solver state, world axes (body i at 3i, 4i, 9i). */
export interface SolverBodies {
  n: number
  /** Centre of mass and orientation at the start of the step. */
  x: Float64Array
  q: Float64Array
  /** Rotation matrices of q. */
  r: Float64Array
  v: Float64Array
  w: Float64Array
  /** Effective 1/m and world I^-1 (zero for kinematic and frozen bodies). */
  im: Float64Array
  ii: Float64Array
  /** Predicted centre of mass and rotation matrix (set by the caller before detection). */
  px: Float64Array
  pr: Float64Array
  /** Velocity changes due to impulses this step (for collisionAccel). */
  dv: Float64Array
  dw: Float64Array
  shapes: RigidShape[]
  radius: Float64Array
}

/** The static environment as the kernels see it. */
export interface SolverEnvironment {
  /** Wall planes: for side s (xMin, xMax, yMin, yMax, zMin, zMax) axis s >> 1, position wallPos[s], closed when wallOn[s]. */
  wallOn: Uint8Array
  wallPos: Float64Array
  sdf: SignedDistanceField | null
  /** Central-difference step for the obstacle SDF's gradient, m. */
  sdfStep: number
  /** Normal used where the obstacle SDF's gradient vanishes (against gravity). */
  up: Float64Array
}

export interface PairSolveSettings {
  /** Maximum projected Gauss-Seidel sweeps over a pair's contacts. */
  iterations: number
  /** Stop sweeping when no impulse changes any velocity by more than this, m/s. */
  tolerance: number
}

export class ContactSolver {
  /** Contacts found by the last detect call. */
  count = 0
  private buf = new Float64Array(CS * 256)
  private readonly g = new Float64Array(3)
  private readonly sp = new Float64Array(3)

  constructor(private readonly s: SolverBodies, private readonly env: SolverEnvironment) {}

  private reserve(extra: number): void {
    if ((this.count + extra) * CS <= this.buf.length) return
    const next = new Float64Array(Math.max(2 * this.buf.length, (this.count + extra) * CS))
    next.set(this.buf)
    this.buf = next
  }

  private push(rax: number, ray: number, raz: number, rbx: number, rby: number, rbz: number, nx: number, ny: number, nz: number, depth: number): void {
    if ((this.count + 1) * CS > this.buf.length) this.reserve(1)
    const c = this.buf, o = CS * this.count++
    c[o + RA] = rax; c[o + RA + 1] = ray; c[o + RA + 2] = raz
    c[o + RB] = rbx; c[o + RB + 1] = rby; c[o + RB + 2] = rbz
    c[o + N] = nx; c[o + N + 1] = ny; c[o + N + 2] = nz
    c[o + DEPTH] = depth
  }

  /**
   * Sample points of body `a` inside body `b` at the predicted poses, appended as contacts
   * of the pair (a, b) (normal pushing a out of b) when `aFirst`, else as contacts of the
   * pair (b, a) (normal negated, lever arms swapped), so that one buffer holds both
   * directions of one pair.
   */
  private pointsInBody(a: number, b: number, aFirst: boolean): void {
    const s = this.s, g = this.g
    const shapeA = s.shapes[a], shapeB = s.shapes[b]
    const pts = shapeA.samples, ns = shapeA.sampleCount
    const pa = 3 * a, pb = 3 * b, ma = 9 * a, mb = 9 * b
    const pr = s.pr, px = s.px, r = s.r, x = s.x
    const hx = shapeB.halfExtents[0], hy = shapeB.halfExtents[1], hz = shapeB.halfExtents[2]
    const rb2 = s.radius[b] * s.radius[b]
    // Predicted world point = pxA + prA s; relative to B: d = that - pxB.
    const ox = px[pa] - px[pb], oy = px[pa + 1] - px[pb + 1], oz = px[pa + 2] - px[pb + 2]
    for (let k = 0; k < ns; k++) {
      const sx = pts[3 * k], sy = pts[3 * k + 1], sz = pts[3 * k + 2]
      const dx = ox + pr[ma] * sx + pr[ma + 1] * sy + pr[ma + 2] * sz
      const dy = oy + pr[ma + 3] * sx + pr[ma + 4] * sy + pr[ma + 5] * sz
      const dz = oz + pr[ma + 6] * sx + pr[ma + 7] * sy + pr[ma + 8] * sz
      if (dx * dx + dy * dy + dz * dz > rb2) continue
      // Body-b coordinates: prB^T d.
      const lx = pr[mb] * dx + pr[mb + 3] * dy + pr[mb + 6] * dz
      const ly = pr[mb + 1] * dx + pr[mb + 4] * dy + pr[mb + 7] * dz
      const lz = pr[mb + 2] * dx + pr[mb + 5] * dy + pr[mb + 8] * dz
      if (lx > hx || lx < -hx || ly > hy || ly < -hy || lz > hz || lz < -hz) continue
      const phi = shapeB.phiGrad(lx, ly, lz, g, 0)
      if (!(phi < 0)) continue
      // World normal (predicted orientation of b), pointing out of b.
      const nx = pr[mb] * g[0] + pr[mb + 1] * g[1] + pr[mb + 2] * g[2]
      const ny = pr[mb + 3] * g[0] + pr[mb + 4] * g[1] + pr[mb + 5] * g[2]
      const nz = pr[mb + 6] * g[0] + pr[mb + 7] * g[1] + pr[mb + 8] * g[2]
      // Lever arms at the current pose: the impulse acts on the current velocities.
      const rax = r[ma] * sx + r[ma + 1] * sy + r[ma + 2] * sz
      const ray = r[ma + 3] * sx + r[ma + 4] * sy + r[ma + 5] * sz
      const raz = r[ma + 6] * sx + r[ma + 7] * sy + r[ma + 8] * sz
      const rbx = x[pa] + rax - x[pb], rby = x[pa + 1] + ray - x[pb + 1], rbz = x[pa + 2] + raz - x[pb + 2]
      if (aFirst) this.push(rax, ray, raz, rbx, rby, rbz, nx, ny, nz, -phi)
      else this.push(rbx, rby, rbz, rax, ray, raz, -nx, -ny, -nz, -phi)
    }
  }

  /** Contacts of the pair (a, b) at the predicted poses, both ways; returns the count. */
  detectPair(a: number, b: number): number {
    this.count = 0
    this.pointsInBody(a, b, true)
    this.pointsInBody(b, a, false)
    return this.count
  }

  /**
   * Contacts of body a with the environment at its predicted pose: its sample points (and,
   * for smooth shapes, its support point towards each wall; for the ellipsoid only that)
   * below the closed domain walls,
   * and its sample points inside the obstacle SDF. The environment is static: its lever
   * arm is zero and its velocity zero.
   */
  detectEnv(a: number): number {
    this.count = 0
    const s = this.s, env = this.env
    const shape = s.shapes[a]
    const pts = shape.samples, ns = shape.sampleCount
    const pa = 3 * a, ma = 9 * a
    const pr = s.pr, px = s.px, r = s.r
    const rad = s.radius[a]
    const cx = px[pa], cy = px[pa + 1], cz = px[pa + 2]
    for (let side = 0; side < 6; side++) {
      if (!env.wallOn[side]) continue
      const axis = side >> 1, sign = side & 1 ? -1 : 1
      const wall = env.wallPos[side]
      // Signed distance of the predicted centre from the wall, positive on the domain side.
      const cd = sign * (px[pa + axis] - wall)
      if (cd > rad) continue
      const nx = axis === 0 ? sign : 0, ny = axis === 1 ? sign : 0, nz = axis === 2 ? sign : 0
      // A strictly convex shape (the ellipsoid) touches a plane at one point, its support
      // point: its sample points near it would add spurious contacts whose restitution
      // targets, once friction spins the body, disagree with one another.
      const wallSamples = shape.supportOnlyOnPlanes ? 0 : ns
      for (let k = 0; k < wallSamples; k++) {
        const sx = pts[3 * k], sy = pts[3 * k + 1], sz = pts[3 * k + 2]
        const m = ma + 3 * axis
        const d = cd + sign * (pr[m] * sx + pr[m + 1] * sy + pr[m + 2] * sz)
        if (!(d < 0)) continue
        this.push(r[ma] * sx + r[ma + 1] * sy + r[ma + 2] * sz, r[ma + 3] * sx + r[ma + 4] * sy + r[ma + 5] * sz, r[ma + 6] * sx + r[ma + 7] * sy + r[ma + 8] * sz, 0, 0, 0, nx, ny, nz, -d)
      }
      if (shape.hasSupport) {
        // Support point towards the wall: body direction R^T (-n), i.e. minus row `axis` of
        // the row-major body-to-world R (its column would be R (-n): wrong once the body turns).
        const sp = this.sp
        const m = ma + 3 * axis
        if (shape.supportPoint(-sign * pr[m], -sign * pr[m + 1], -sign * pr[m + 2], sp)) {
          const sx = sp[0], sy = sp[1], sz = sp[2]
          const d = cd + sign * (pr[m] * sx + pr[m + 1] * sy + pr[m + 2] * sz)
          // The lever arm is the support point of the *current* pose: it is a point of the
          // shape's geometry, not of its material. The predicted pose's support point carried
          // back by the current rotation lies off the wall's normal line by the turn of one
          // step, where a spin adds a normal velocity of its own (a ball spinning at 87 rad/s
          // about the wall's tangent axis saw 2.4 m/s, bounced back at the speed it came in
          // with, e = 1 for 0.3, and lost three times the spin Coulomb's bound allows).
          if (d < 0 && shape.supportPoint(-sign * r[m], -sign * r[m + 1], -sign * r[m + 2], sp)) {
            const cx2 = sp[0], cy2 = sp[1], cz2 = sp[2]
            this.push(r[ma] * cx2 + r[ma + 1] * cy2 + r[ma + 2] * cz2, r[ma + 3] * cx2 + r[ma + 4] * cy2 + r[ma + 5] * cz2, r[ma + 6] * cx2 + r[ma + 7] * cy2 + r[ma + 8] * cz2, 0, 0, 0, nx, ny, nz, -d)
          }
        }
      }
    }
    const sdf = env.sdf
    // The SDF is 1-Lipschitz: if the predicted centre is farther than the bounding radius
    // from every obstacle, no sample point can be inside one.
    if (sdf && sdf.distance(cx, cy, cz) <= rad) {
      const h = env.sdfStep, inv = 0.5 / h
      for (let k = 0; k < ns; k++) {
        const sx = pts[3 * k], sy = pts[3 * k + 1], sz = pts[3 * k + 2]
        const wx = cx + pr[ma] * sx + pr[ma + 1] * sy + pr[ma + 2] * sz
        const wy = cy + pr[ma + 3] * sx + pr[ma + 4] * sy + pr[ma + 5] * sz
        const wz = cz + pr[ma + 6] * sx + pr[ma + 7] * sy + pr[ma + 8] * sz
        const phi = sdf.distance(wx, wy, wz)
        if (!(phi < 0)) continue
        // Central differences: the interface gives distances only.
        let gx = (sdf.distance(wx + h, wy, wz) - sdf.distance(wx - h, wy, wz)) * inv
        let gy = (sdf.distance(wx, wy + h, wz) - sdf.distance(wx, wy - h, wz)) * inv
        let gz = (sdf.distance(wx, wy, wz + h) - sdf.distance(wx, wy, wz - h)) * inv
        const l = Math.sqrt(gx * gx + gy * gy + gz * gz)
        if (l > 1e-9) {
          gx /= l; gy /= l; gz /= l
        } else {
          gx = env.up[0]; gy = env.up[1]; gz = env.up[2]
        }
        this.push(r[ma] * sx + r[ma + 1] * sy + r[ma + 2] * sz, r[ma + 3] * sx + r[ma + 4] * sy + r[ma + 5] * sz, r[ma + 6] * sx + r[ma + 7] * sy + r[ma + 8] * sz, 0, 0, 0, gx, gy, gz, -phi)
      }
    }
    return this.count
  }

  /**
   * Prepares the contacts of the pair (a, b) (b < 0: the environment) for solve(), from the
   * current velocities: tangent basis (t1 along the current sliding direction, so kinetic
   * friction opposes it exactly), Jacobians, effective masses, and the target normal
   * velocity. Collision (`restitution` >= 0): target -e u_n at points approaching faster
   * than `approachTolerance`, else 0; returns whether any point approaches (no approach, no
   * collision: a body resting on the floor has u_n = 0 and does not bounce, Guendelman et
   * al. 2003, time integration). Contact (`restitution` < 0): target 0 where the point
   * touches; where it is still `gap` short of touching at the current pose, -gap / dt (it
   * may close the gap this step, no more: "speculative" contact, so a body that drifted a
   * hair off its support settles back instead of hovering, and the Gauss-Seidel residual,
   * which only ever pushes bodies apart, does not accumulate into a creep upwards); where
   * it already penetrates beyond `slop`, a separation speed removing the excess at rate
   * `beta` per step (at most `maxRecovery`). Always returns true.
   */
  prepare(a: number, b: number, restitution: number, dt: number, approachTolerance: number, slop: number, beta: number, maxRecovery: number): boolean {
    const s = this.s, c = this.buf
    const v = s.v, w = s.w, im = s.im, ii = s.ii
    const pa = 3 * a, pb = 3 * b, ia = 9 * a, ib = 9 * b
    const hasB = b >= 0
    const ima = im[a], imb = hasB ? im[b] : 0
    let approaching = false
    for (let k = 0; k < this.count; k++) {
      const o = CS * k
      const rax = c[o + RA], ray = c[o + RA + 1], raz = c[o + RA + 2]
      const rbx = c[o + RB], rby = c[o + RB + 1], rbz = c[o + RB + 2]
      const nx = c[o + N], ny = c[o + N + 1], nz = c[o + N + 2]
      let ux = v[pa] + w[pa + 1] * raz - w[pa + 2] * ray
      let uy = v[pa + 1] + w[pa + 2] * rax - w[pa] * raz
      let uz = v[pa + 2] + w[pa] * ray - w[pa + 1] * rax
      if (hasB) {
        ux -= v[pb] + w[pb + 1] * rbz - w[pb + 2] * rby
        uy -= v[pb + 1] + w[pb + 2] * rbx - w[pb] * rbz
        uz -= v[pb + 2] + w[pb] * rby - w[pb + 1] * rbx
      }
      const un = ux * nx + uy * ny + uz * nz
      // Tangent basis: t1 along the sliding velocity if there is one, else any unit vector
      // perpendicular to n; t2 = n x t1.
      let tx = ux - un * nx, ty = uy - un * ny, tz = uz - un * nz
      let tl = Math.sqrt(tx * tx + ty * ty + tz * tz)
      if (!(tl > 1e-12)) {
        if (Math.abs(nx) < 0.57735) { tx = 0; ty = nz; tz = -ny } else { tx = -nz; ty = 0; tz = nx }
        tl = Math.sqrt(tx * tx + ty * ty + tz * tz)
      }
      tx /= tl; ty /= tl; tz /= tl
      c[o + T1] = tx; c[o + T1 + 1] = ty; c[o + T1 + 2] = tz
      c[o + T2] = ny * tz - nz * ty; c[o + T2 + 1] = nz * tx - nx * tz; c[o + T2 + 2] = nx * ty - ny * tx
      for (let d = 0; d < 3; d++) {
        const e = d === 0 ? N : d === 1 ? T1 : T2
        const dx = c[o + e], dy = c[o + e + 1], dz = c[o + e + 2]
        // r_a x d and I_a^-1 (r_a x d).
        const jx = ray * dz - raz * dy, jy = raz * dx - rax * dz, jz = rax * dy - ray * dx
        const ax = ii[ia] * jx + ii[ia + 1] * jy + ii[ia + 2] * jz
        const ay = ii[ia + 3] * jx + ii[ia + 4] * jy + ii[ia + 5] * jz
        const az = ii[ia + 6] * jx + ii[ia + 7] * jy + ii[ia + 8] * jz
        c[o + JA + 3 * d] = jx; c[o + JA + 3 * d + 1] = jy; c[o + JA + 3 * d + 2] = jz
        c[o + WA + 3 * d] = ax; c[o + WA + 3 * d + 1] = ay; c[o + WA + 3 * d + 2] = az
        let kinv = ima + jx * ax + jy * ay + jz * az
        if (hasB) {
          const hx = rby * dz - rbz * dy, hy = rbz * dx - rbx * dz, hz = rbx * dy - rby * dx
          const bx = ii[ib] * hx + ii[ib + 1] * hy + ii[ib + 2] * hz
          const by = ii[ib + 3] * hx + ii[ib + 4] * hy + ii[ib + 5] * hz
          const bz = ii[ib + 6] * hx + ii[ib + 7] * hy + ii[ib + 8] * hz
          c[o + JB + 3 * d] = hx; c[o + JB + 3 * d + 1] = hy; c[o + JB + 3 * d + 2] = hz
          c[o + WB + 3 * d] = bx; c[o + WB + 3 * d + 1] = by; c[o + WB + 3 * d + 2] = bz
          kinv += imb + hx * bx + hy * by + hz * bz
        } else {
          for (let q = 0; q < 3; q++) {
            c[o + JB + 3 * d + q] = 0
            c[o + WB + 3 * d + q] = 0
          }
        }
        c[o + K + d] = kinv > 0 ? 1 / kinv : 0
      }
      c[o + LN] = 0; c[o + LT1] = 0; c[o + LT2] = 0
      if (restitution >= 0) {
        if (un < -approachTolerance) {
          c[o + TARGET] = -restitution * un
          approaching = true
        } else c[o + TARGET] = 0
      } else {
        // Depth at the current pose: the predicted pose moved the point by dt u_n along n.
        const depthNow = c[o + DEPTH] + dt * un
        c[o + TARGET] = depthNow > slop ? Math.min(maxRecovery, (beta * (depthNow - slop)) / dt) : depthNow < 0 ? depthNow / dt : 0
      }
    }
    return restitution >= 0 ? approaching : true
  }

  /**
   * Projected Gauss-Seidel over the prepared contacts of (a, b): per contact, the normal
   * impulse (accumulated, kept >= 0), then the two friction impulses (accumulated, the pair
   * kept within the disc of radius mu lambda_n). Applies the impulses to v, w and records
   * them in dv, dw. Returns the largest velocity change of the first sweep (a convergence
   * gauge for the outer iterations).
   */
  solve(a: number, b: number, friction: number, settings: PairSolveSettings): number {
    const s = this.s, c = this.buf
    const v = s.v, w = s.w, im = s.im
    const pa = 3 * a, pb = 3 * b
    const hasB = b >= 0
    const ima = im[a], imb = hasB ? im[b] : 0
    const imab = ima + imb
    // Velocities of both bodies as locals for the sweeps (b's stay zero for the
    // environment); written back, with the change recorded in dv, dw, at the end.
    let vax = v[pa], vay = v[pa + 1], vaz = v[pa + 2], wax = w[pa], way = w[pa + 1], waz = w[pa + 2]
    let vbx = 0, vby = 0, vbz = 0, wbx = 0, wby = 0, wbz = 0
    if (hasB) {
      vbx = v[pb]; vby = v[pb + 1]; vbz = v[pb + 2]; wbx = w[pb]; wby = w[pb + 1]; wbz = w[pb + 2]
    }
    const va0x = vax, va0y = vay, va0z = vaz, wa0x = wax, wa0y = way, wa0z = waz
    const vb0x = vbx, vb0y = vby, vb0z = vbz, wb0x = wbx, wb0y = wby, wb0z = wbz
    let first = 0
    for (let it = 0; it < settings.iterations; it++) {
      let change = 0
      for (let k = 0; k < this.count; k++) {
        const o = CS * k
        // Normal: relative velocity along n = n.(v_a - v_b) + (r_a x n).w_a - (r_b x n).w_b.
        const kn = c[o + K]
        if (kn === 0) continue
        const nx = c[o + N], ny = c[o + N + 1], nz = c[o + N + 2]
        let un = nx * (vax - vbx) + ny * (vay - vby) + nz * (vaz - vbz)
        un += c[o + JA] * wax + c[o + JA + 1] * way + c[o + JA + 2] * waz
        un -= c[o + JB] * wbx + c[o + JB + 1] * wby + c[o + JB + 2] * wbz
        const ln = c[o + LN]
        let nl = ln + kn * (c[o + TARGET] - un)
        if (nl < 0) nl = 0
        const dl = nl - ln
        if (dl !== 0) {
          c[o + LN] = nl
          const da = dl * ima, db = dl * imb
          vax += da * nx; vay += da * ny; vaz += da * nz
          vbx -= db * nx; vby -= db * ny; vbz -= db * nz
          wax += dl * c[o + WA]; way += dl * c[o + WA + 1]; waz += dl * c[o + WA + 2]
          wbx -= dl * c[o + WB]; wby -= dl * c[o + WB + 1]; wbz -= dl * c[o + WB + 2]
          const dc = Math.abs(dl) * imab
          if (dc > change) change = dc
        }
        if (friction > 0) {
          // Friction along t1 and t2, each driving its sliding velocity to zero, then the
          // pair clamped to Coulomb's disc |lambda_t| <= mu lambda_n.
          const t1x = c[o + T1], t1y = c[o + T1 + 1], t1z = c[o + T1 + 2]
          const t2x = c[o + T2], t2y = c[o + T2 + 1], t2z = c[o + T2 + 2]
          let u1 = t1x * (vax - vbx) + t1y * (vay - vby) + t1z * (vaz - vbz)
          u1 += c[o + JA + 3] * wax + c[o + JA + 4] * way + c[o + JA + 5] * waz
          u1 -= c[o + JB + 3] * wbx + c[o + JB + 4] * wby + c[o + JB + 5] * wbz
          let u2 = t2x * (vax - vbx) + t2y * (vay - vby) + t2z * (vaz - vbz)
          u2 += c[o + JA + 6] * wax + c[o + JA + 7] * way + c[o + JA + 8] * waz
          u2 -= c[o + JB + 6] * wbx + c[o + JB + 7] * wby + c[o + JB + 8] * wbz
          const l1 = c[o + LT1], l2 = c[o + LT2]
          let f1 = l1 - c[o + K + 1] * u1
          let f2 = l2 - c[o + K + 2] * u2
          const lim = friction * nl
          const f = Math.sqrt(f1 * f1 + f2 * f2)
          if (f > lim) {
            const sc = f > 0 ? lim / f : 0
            f1 *= sc
            f2 *= sc
          }
          const d1 = f1 - l1, d2 = f2 - l2
          if (d1 !== 0 || d2 !== 0) {
            c[o + LT1] = f1
            c[o + LT2] = f2
            const px = d1 * t1x + d2 * t2x, py = d1 * t1y + d2 * t2y, pz = d1 * t1z + d2 * t2z
            vax += ima * px; vay += ima * py; vaz += ima * pz
            vbx -= imb * px; vby -= imb * py; vbz -= imb * pz
            wax += d1 * c[o + WA + 3] + d2 * c[o + WA + 6]
            way += d1 * c[o + WA + 4] + d2 * c[o + WA + 7]
            waz += d1 * c[o + WA + 5] + d2 * c[o + WA + 8]
            wbx -= d1 * c[o + WB + 3] + d2 * c[o + WB + 6]
            wby -= d1 * c[o + WB + 4] + d2 * c[o + WB + 7]
            wbz -= d1 * c[o + WB + 5] + d2 * c[o + WB + 8]
            const dc = Math.sqrt(d1 * d1 + d2 * d2) * imab
            if (dc > change) change = dc
          }
        }
      }
      if (it === 0) first = change
      if (change < settings.tolerance) break
    }
    const dv = s.dv, dw = s.dw
    v[pa] = vax; v[pa + 1] = vay; v[pa + 2] = vaz; w[pa] = wax; w[pa + 1] = way; w[pa + 2] = waz
    dv[pa] += vax - va0x; dv[pa + 1] += vay - va0y; dv[pa + 2] += vaz - va0z
    dw[pa] += wax - wa0x; dw[pa + 1] += way - wa0y; dw[pa + 2] += waz - wa0z
    if (hasB) {
      v[pb] = vbx; v[pb + 1] = vby; v[pb + 2] = vbz; w[pb] = wbx; w[pb + 1] = wby; w[pb + 2] = wbz
      dv[pb] += vbx - vb0x; dv[pb + 1] += vby - vb0y; dv[pb + 2] += vbz - vb0z
      dw[pb] += wbx - wb0x; dw[pb + 1] += wby - wb0y; dw[pb + 2] += wbz - wb0z
    }
    return first
  }
}
