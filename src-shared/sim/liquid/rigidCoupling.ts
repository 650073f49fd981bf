// Two-way coupling of rigid bodies and the liquid: the rigid fluid method of Carlson 2004,
// chapter 5 (after Patankar's distributed Lagrange multipliers).
//
// The liquid solver treats every wet body "exactly as if it were fluid" (sec. 5.4): its cells
// join the liquid for gravity, viscosity and the pressure solve (C = F u R, eq. 66). Then,
// on the faces a body covers,
//   1. the momentum source of eq. 70 adds the collision accelerations of the rigid solver
//      (eqs. 68-69) and corrects for the body's density, weighted by the solid fraction w
//      (eq. 71):   u^ = u* + w h (A_c + alpha_c x r) - w (1 - rho_f/rho_r) (u* - u^n), with f
//      out of eq. 70 because Patankar's buoyant weight h f (rho_r - rho_f)/rho_f was added to
//      the body's faces with gravity, before the pressure solve (sec. 5.4.1 step 1, the
//      option the text gives to cut the slip error). Measured, it is what makes floating
//      right: without it the pressure solve holds up the part of a floater above the water
//      as if it were a bump of liquid, and a 0.5 cube floated with 0.40 of its volume under
//      (24 cells across the tank), with it 0.48;
//   2. each body's faces are projected onto rigid motion, conserving its momentum (eqs.
//      77-78, Table 7), and blended back by eq. 80: u^{n+1} = (1 - w) u^ + w (v + omega x r).
// Here that v and omega are the prediction the liquid-only solve moves the bodies' walls with;
// the bodies' velocity over the substep is then Newton's third law of that solve
// (applyWallPressure) and of what the markers take from the bodies' faces
// (imposeWithReaction): rigidFluid.ts steps 5b-5d say why.
//
// Deviations from the text, and why:
// - Eq. 70 writes the collision term as r x rho_r alpha_c; the velocity an angular
//   acceleration adds at r is alpha_c x r (the cross product the other way round), used here.
// - Eq. 70's (u*.grad) u* term is dropped: on body faces u^n is the body's rigid velocity,
//   written from v and omega, not a velocity the markers advected, so there is no convective
//   change in u* - u^n to take back out.
// - Table 7 integrates cell-centred velocities with a cell-based inertia (eq. 83). On the MAC
//   grid each face carries one component, so the projection here is the mass-weighted
//   least-squares fit of (v, omega) to the face values: minimise sum_f m_f (u_f - e_c.(v +
//   omega x r_f))^2, whose normal equations are exactly "linear momentum sum_f m_f u_f e_c
//   kept" and "angular momentum sum_f m_f u_f (r_f x e_c) kept" (eqs. 77-78), with the 6x6
//   discrete mass/inertia matrix that these faces define (eqs. 81-83 are its block-diagonal
//   part when the faces' centroid is the body's). It is a true projection: a field that is
//   already rigid comes back unchanged, so a spinning body does not lose spin to the
//   discretisation every substep.
// - Eq. 77 integrates rho_r u^ over the solid, with u^ the face mixture of eq. 71. In a face
//   the body only partly covers, that counts the source w^2 times and pulls the body's
//   acceleration toward the liquid's by sum w^2 / sum w (10% for a ball 5 cells in radius):
//   a floating body would sit at the wrong depth. Here the fit reads the solid's own velocity
//   in each face, u* + (dt / rho_r) S, weighted by its mass rho_r w dV; the face itself still
//   takes eq. 71's mixture and then eq. 80's blend.
// - Ultrabuoyant bodies (relative density < 0.45) drop the unstable term of eq. 84,
//   (rho_r - rho_f)(u* - u^n)/dt, as sec. 5.7.3 recommends.
//
// Solid fractions (sec. 5.5): Carlson samples each cell's centre, or 64 sub-cells where the
// body is thin. Here every body is sampled on a lattice of dx/4 (64 points per cell) wherever
// a cell centre lies within sqrt(3)/2 dx of its surface (elsewhere the cell is wholly in or
// out, as the text notes), and the same lattice gives each face's control volume (a cube of
// side dx centred on the face) its fraction w.
import { type GridSpec, MacGrid } from '../core/grid'
import { LIQUID, SOLID } from './viscosity'

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
  /** Outward unit normal of the surface nearest world point (x, y, z), into out[0..2]. */
  normalAt(x: number, y: number, z: number, out: Float64Array): void
  /** The last rigid step's collision accelerations (Carlson eqs. 68-69), m/s^2 and rad/s^2. */
  readonly collisionAccel: Float64Array
  readonly collisionAngularAccel: Float64Array
}

/** Density of the liquid the relative densities refer to (water), kg/m^3. */
export const LIQUID_DENSITY = 1000
/** viscosity.ts LIQUID: the cells the pressure solve covers. */
const SOLVED = LIQUID
const SOLID_KIND = SOLID
/** Sec. 5.7.3: below this relative density the unstable term of eq. 84 is dropped. */
export const ULTRABUOYANT_BELOW = 0.45
/** Lattice points per cell edge for solid fractions (Carlson sec. 5.5 uses 4: 64 per cell). */
const SUB = 4
/** A cell centre farther than this (in cells) from the surface is wholly in or out. */
const HALF_DIAGONAL = Math.sqrt(3) / 2

interface Box {
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
  private boxes: Box[] = []
  private centrePhi = new Float32Array(0)
  private lattice = new Uint8Array(0)
  private readonly far: number
  private readonly normal = new Float64Array(36)
  private readonly rhs = new Float64Array(6)
  private readonly sol = new Float64Array(6)
  private readonly jrow = new Float64Array(6)
  private mask = new Uint8Array(0)
  private readonly normalScratch = new Float64Array(3)
  private readonly wallImpulse = new Float64Array(6)
  private readonly weightImpulse = new Float64Array(6)
  private readonly stillPotential = new Float64Array(3)
  /** Per body: linear and angular impulse (imposeWithReaction). */
  private impulse = new Float64Array(0)
  /** The body forFaces is visiting. */
  private currentBody = -1

  constructor(grid: GridSpec) {
    this.grid = grid
    const { nx, ny, nz } = grid
    const n = nx * ny * nz
    this.cellFraction = new Float32Array(n)
    this.cellPhi = new Float32Array(n)
    this.far = 1e30
    this.cellPhi.fill(this.far)
    this.faceOwner = [new Int16Array((nx + 1) * ny * nz).fill(-1), new Int16Array(nx * (ny + 1) * nz).fill(-1), new Int16Array(nx * ny * (nz + 1)).fill(-1)]
    this.faceFraction = [new Float32Array((nx + 1) * ny * nz), new Float32Array(nx * (ny + 1) * nz), new Float32Array(nx * ny * (nz + 1))]
  }

  /** Resets what the last rasterise wrote (only inside its boxes: bodies are small). */
  private clear(): void {
    const { nx, ny } = this.grid
    for (const b of this.boxes) {
      for (let k = b.k0; k < b.k1; k++) for (let j = b.j0; j < b.j1; j++) for (let i = b.i0; i < b.i1; i++) {
        const c = i + nx * (j + ny * k)
        this.cellFraction[c] = 0
        this.cellPhi[c] = this.far
      }
      for (let a = 0; a < 3; a++) {
        const ex = a === 0 ? 1 : 0, ey = a === 1 ? 1 : 0, ez = a === 2 ? 1 : 0
        const sx = nx + ex, sy = ny + ey
        const own = this.faceOwner[a], fr = this.faceFraction[a]
        for (let k = b.k0; k < b.k1 + ez; k++) for (let j = b.j0; j < b.j1 + ey; j++) for (let i = b.i0; i < b.i1 + ex; i++) {
          const f = i + sx * (j + sy * k)
          own[f] = -1
          fr[f] = 0
        }
      }
    }
    this.boxes = []
  }

  /** Cell box a body can touch: its bounding sphere plus one cell, clipped to the grid. */
  private boxOf(body: CoupledBody): Box | null {
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
   * Solid fractions of cells and face control volumes for the bodies with use[b] = 1 at their
   * current poses (sec. 5.5). Bodies overlapping in one cell add up (clamped to 1); a face belongs to the
   * body covering most of it.
   */
  rasterise(bodies: readonly CoupledBody[], use: Uint8Array): void {
    this.clear()
    const { nx, ny, dx, origin } = this.grid
    const h = dx / SUB
    for (let bi = 0; bi < bodies.length; bi++) {
      const body = bodies[bi]
      const box = use[bi] ? this.boxOf(body) : null
      this.boxes.push(box ?? { i0: 0, i1: 0, j0: 0, j1: 0, k0: 0, k1: 0 })
      if (!box) continue
      const lx = box.i1 - box.i0, ly = box.j1 - box.j0, lz = box.k1 - box.k0
      if (this.centrePhi.length < lx * ly * lz) this.centrePhi = new Float32Array(lx * ly * lz)
      const sx = SUB * lx, sy = SUB * ly, sz = SUB * lz
      if (this.lattice.length < sx * sy * sz) this.lattice = new Uint8Array(sx * sy * sz)
      const cp = this.centrePhi, lat = this.lattice
      // Cell centres, then the lattice: uniform where the centre is far from the surface.
      for (let k = 0; k < lz; k++) for (let j = 0; j < ly; j++) for (let i = 0; i < lx; i++) {
        const x = origin[0] + (box.i0 + i + 0.5) * dx, y = origin[1] + (box.j0 + j + 0.5) * dx, z = origin[2] + (box.k0 + k + 0.5) * dx
        const d = body.phi(x, y, z)
        cp[i + lx * (j + ly * k)] = d
        const c = box.i0 + i + nx * (box.j0 + j + ny * (box.k0 + k))
        if (d < this.cellPhi[c]) this.cellPhi[c] = d
        const uniform = Math.abs(d) > HALF_DIAGONAL * dx
        let inside = 0
        for (let c2 = 0; c2 < SUB; c2++) for (let b2 = 0; b2 < SUB; b2++) for (let a2 = 0; a2 < SUB; a2++) {
          const flag = uniform
            ? d < 0 ? 1 : 0
            : body.phi(origin[0] + (box.i0 + i) * dx + (a2 + 0.5) * h, origin[1] + (box.j0 + j) * dx + (b2 + 0.5) * h, origin[2] + (box.k0 + k) * dx + (c2 + 0.5) * h) < 0 ? 1 : 0
          lat[SUB * i + a2 + sx * (SUB * j + b2 + sy * (SUB * k + c2))] = flag
          inside += flag
        }
        this.cellFraction[c] = Math.min(1, this.cellFraction[c] + inside / (SUB * SUB * SUB))
      }
      // Face control volumes: half a cell on each side along the face's axis.
      for (let a = 0; a < 3; a++) {
        const ex = a === 0 ? 1 : 0, ey = a === 1 ? 1 : 0, ez = a === 2 ? 1 : 0
        const fnx = nx + ex, fny = ny + ey
        const own = this.faceOwner[a], fr = this.faceFraction[a]
        for (let k = 0; k < lz + ez; k++) for (let j = 0; j < ly + ey; j++) for (let i = 0; i < lx + ex; i++) {
          // Lattice ranges of the control volume, clipped to this body's lattice.
          const x0 = SUB * i - (ex * SUB) / 2, y0 = SUB * j - (ey * SUB) / 2, z0 = SUB * k - (ez * SUB) / 2
          let count = 0
          for (let c2 = Math.max(0, z0); c2 < Math.min(sz, z0 + SUB); c2++) {
            for (let b2 = Math.max(0, y0); b2 < Math.min(sy, y0 + SUB); b2++) {
              const row = sx * (b2 + sy * c2)
              for (let a2 = Math.max(0, x0); a2 < Math.min(sx, x0 + SUB); a2++) count += lat[row + a2]
            }
          }
          if (count === 0) continue
          const w = count / (SUB * SUB * SUB)
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
      this.bFractions = new MacGrid(this.grid)
      this.bVelocity = new MacGrid(this.grid)
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
    const cp = this.cellPhi
    const frs = [fr.u, fr.v, fr.w]
    this.forFaces(bodies, use, fractions, null, (body, a, f, w, px, py, pz, comp) => {
      // Cells on either side of face f along axis a.
      const sx = a === 0 ? nx + 1 : nx, sy = a === 1 ? ny + 1 : ny
      const i = f % sx, j = Math.floor(f / sx) % sy, k = Math.floor(f / (sx * sy))
      const hi = a === 0 ? (i < nx ? i + nx * (j + ny * k) : -1) : a === 1 ? (j < ny ? i + nx * (j + ny * k) : -1) : k < nz ? i + nx * (j + ny * k) : -1
      const lo = a === 0 ? (i > 0 ? i - 1 + nx * (j + ny * k) : -1) : a === 1 ? (j > 0 ? i + nx * (j - 1 + ny * k) : -1) : k > 0 ? i + nx * (j + ny * (k - 1)) : -1
      const closed = (hi >= 0 && cp[hi] < 0) || (lo >= 0 && cp[lo] < 0)
      const open = closed ? 0 : 1 - w
      if (open < frs[a][f]) frs[a][f] = open
      comp[f] = this.wallVelocityAt(body, a, px, py, pz)
    }, vel)
    return { fractions: fr, velocity: vel }
  }

  /**
   * Newton's third law for the liquid-only pressure solve (boundary()): where a body closes
   * part of a face next to a liquid cell, the liquid's pressure there pushes the body, p A n,
   * over the substep. q is that solve's velocity potential per cell (q = h p / (rho dx),
   * ghostFluid.ts), so the impulse is rho dx^3 q_c (covered share) n, n from the liquid cell
   * towards the face. Applied to each used body's v and omega (mass and inertia of the body),
   * with the body's weight over the substep measured by the same sum (discreteWeight): in
   * still liquid the two cancel exactly for a body of relative density 1, and a floater
   * settles where its discrete displaced volume is rho_r / rho_f of its discrete volume.
   * The body's own mass would not: the sum sees the body from the liquid cells' centres
   * (half a cell outside its surface), and a neutral block 5 cells across sank to the floor.
   */
  applyWallPressure(q: Float64Array, kind: Uint8Array, fractions: MacGrid, closed: MacGrid, bodies: readonly CoupledBody[], use: Uint8Array, mass: Float64Array, invInertia: Float64Array, h: number, g: readonly number[], liquidDensity = LIQUID_DENSITY): void {
    const J = this.wallImpulse
    const W = this.weightImpulse
    for (let bi = 0; bi < bodies.length; bi++) {
      if (!use[bi]) continue
      const body = bodies[bi]
      this.pressureImpulse(bi, body, fractions, closed, kind, q, null, liquidDensity, J)
      this.discreteWeight(bi, body, fractions, closed, kind, h, g, liquidDensity, W)
      const m = mass[bi]
      const tx = J[3] + W[3], ty = J[4] + W[4], tz = J[5] + W[5]
      body.v[0] += (J[0] + W[0]) / m; body.v[1] += (J[1] + W[1]) / m; body.v[2] += (J[2] + W[2]) / m
      const I = invInertia.subarray(9 * bi, 9 * bi + 9)
      body.w[0] += I[0] * tx + I[1] * ty + I[2] * tz
      body.w[1] += I[3] * tx + I[4] * ty + I[5] * tz
      body.w[2] += I[6] * tx + I[7] * ty + I[8] * tz
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
    this.pressureImpulse(bi, body, fractions, closed, kind, null, still, liquidDensity, out)
    const ratio = -body.density / liquidDensity
    for (let d = 0; d < 6; d++) out[d] *= ratio
  }

  /**
   * Impulse (linear 0-2, angular 3-5 about the centre of mass) of a liquid potential on body
   * bi over the faces it closes: q per liquid cell, or (with `still`) the linear potential
   * (still . x) / dx over every cell that is not SOLID.
   */
  private pressureImpulse(bi: number, body: CoupledBody, fractions: MacGrid, closed: MacGrid, kind: Uint8Array, q: Float64Array | null, still: Float64Array | null, liquidDensity: number, out: Float64Array): void {
    const { nx, ny, nz, dx, origin } = this.grid
    const scale = liquidDensity * dx * dx * dx
    const fr0 = [fractions.u, fractions.v, fractions.w], fr1 = [closed.u, closed.v, closed.w]
    const box = this.boxes[bi]
    let jx = 0, jy = 0, jz = 0, tx = 0, ty = 0, tz = 0
    // The potential at cell (i, j, k), or NaN where it has none.
    const at = (c: number, i: number, j: number, k: number): number => {
      if (still) return kind[c] === SOLID_KIND ? NaN : (still[0] * (i + 0.5) + still[1] * (j + 0.5) + still[2] * (k + 0.5))
      return kind[c] === SOLVED ? q![c] : NaN
    }
    for (let a = 0; a < 3; a++) {
      const ex = a === 0 ? 1 : 0, ey = a === 1 ? 1 : 0, ez = a === 2 ? 1 : 0
      const fnx = nx + ex, fny = ny + ey
      const own = this.faceOwner[a]
      for (let k = box.k0; k < box.k1 + ez; k++) for (let j = box.j0; j < box.j1 + ey; j++) for (let i = box.i0; i < box.i1 + ex; i++) {
        const f = i + fnx * (j + fny * k)
        if (own[f] !== bi) continue
        const share = fr0[a][f] - fr1[a][f]
        if (!(share > 0)) continue
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
        const px = origin[0] + (i + (ex ? 0 : 0.5)) * dx - body.x[0], py = origin[1] + (j + (ey ? 0 : 0.5)) * dx - body.x[1], pz = origin[2] + (k + (ez ? 0 : 0.5)) * dx - body.x[2]
        const fx = ex * jv, fy = ey * jv, fz = ez * jv
        jx += fx; jy += fy; jz += fz
        tx += py * fz - pz * fy; ty += pz * fx - px * fz; tz += px * fy - py * fx
      }
    }
    out[0] = jx; out[1] = jy; out[2] = jz; out[3] = tx; out[4] = ty; out[5] = tz
  }

  /** vel = start on the faces of used bodies that `closed` shuts and `fractions` leaves open. */
  restoreClosedFaces(vel: MacGrid, start: MacGrid, fractions: MacGrid, closed: MacGrid, use: Uint8Array): void {
    const { nx, ny } = this.grid
    const comps = [vel.u, vel.v, vel.w], starts = [start.u, start.v, start.w]
    const fr0 = [fractions.u, fractions.v, fractions.w], fr1 = [closed.u, closed.v, closed.w]
    for (let bi = 0; bi < this.boxes.length; bi++) {
      if (!use[bi]) continue
      const box = this.boxes[bi]
      for (let a = 0; a < 3; a++) {
        const ex = a === 0 ? 1 : 0, ey = a === 1 ? 1 : 0, ez = a === 2 ? 1 : 0
        const fnx = nx + ex, fny = ny + ey
        const own = this.faceOwner[a], comp = comps[a], st = starts[a], f0 = fr0[a], f1 = fr1[a]
        for (let k = box.k0; k < box.k1 + ez; k++) for (let j = box.j0; j < box.j1 + ey; j++) for (let i = box.i0; i < box.i1 + ex; i++) {
          const f = i + fnx * (j + fny * k)
          if (own[f] === bi && f1[f] === 0 && f0[f] > 0) comp[f] = st[f]
        }
      }
    }
  }

  /**
   * The wall velocity a face of axis a takes from a body: e_a . (v + n (n . (omega x r))), its
   * translation and the normal part of its spin, n the outward normal of the surface nearest
   * the face. The tangential part of the spin is left out: on the axis-aligned faces of a
   * voxelised surface it pumps liquid like the teeth of a gear (a sphere spinning about its
   * axis moves no liquid, its staircase does, and the pressure that builds up brakes it). A
   * body's spin still pushes the liquid wherever it moves the surface along its normal (a
   * spinning box, a gear's teeth).
   */
  private wallVelocityAt(body: CoupledBody, a: number, px: number, py: number, pz: number): number {
    const rx = px - body.x[0], ry = py - body.x[1], rz = pz - body.x[2]
    const v = body.v, w = body.w, n = this.normalScratch
    body.normalAt(px, py, pz, n)
    const spinN = n[0] * (w[1] * rz - w[2] * ry) + n[1] * (w[2] * rx - w[0] * rz) + n[2] * (w[0] * ry - w[1] * rx)
    return v[a] + n[a] * spinN
  }

  /** The body's rigid velocity e_a . (v + omega x r) at a face of axis a. */
  private rigidAt(body: CoupledBody, a: number, px: number, py: number, pz: number): number {
    const rx = px - body.x[0], ry = py - body.x[1], rz = pz - body.x[2]
    const v = body.v, w = body.w
    return a === 0 ? v[0] + w[1] * rz - w[2] * ry : a === 1 ? v[1] + w[2] * rx - w[0] * rz : v[2] + w[0] * ry - w[1] * rx
  }

  /**
   * Writes each listed body's rigid velocity into the faces it covers, blended by w (the
   * u^n of sec. 5.4 on R): vel = (1 - w) vel + w (v + omega x r). `use[b]` = 0 skips body b.
   */
  imposeRigidVelocity(vel: MacGrid, bodies: readonly CoupledBody[], use: Uint8Array, open: MacGrid): void {
    this.blendRigid(vel, bodies, use, open, null)
  }

  /**
   * The bodies' motion in the velocity the markers take, with Newton's third law: on each
   * open face a body covers by w, u = (1 - w) u + w e_a . (v + n (n . (omega x r))), the
   * body's translation and the normal part of its spin (wallVelocityAt). The markers
   * splatted onto a face (splat[a][2f + 1] times markerMass: the mass toParticles moves with
   * it) gain markerMass (u_new - u_old) there, and each dynamic body (dynamic[b] = 1) loses
   * that momentum, as a force at the face (linear and angular). Without the reaction the
   * liquid next to a moving body takes its velocity every substep and nothing slows the body:
   * a ball thrown through a blob of liquid added 27% to the momentum of the two. With the
   * spin's tangential part blended in as well (no slip), a shell of liquid a cell thick was
   * spun up with a spinning body every substep: a lead ball at 1000 rpm in still water lost
   * 16% of its spin in the first frame and 40% in half a second, where a smooth ball feels
   * only skin friction (about 1% in that time at its Reynolds number of 1e6).
   */
  imposeWithReaction(vel: MacGrid, bodies: readonly CoupledBody[], use: Uint8Array, open: MacGrid, dynamic: Uint8Array, splat: readonly Float64Array[], markerMass: number, mass: Float64Array, invInertia: Float64Array): void {
    if (this.impulse.length < 6 * bodies.length) this.impulse = new Float64Array(6 * bodies.length)
    const imp = this.impulse
    imp.fill(0)
    this.forFaces(bodies, use, open, null, (body, a, f, w, px, py, pz, comp) => {
      const u = (1 - w) * comp[f] + w * this.wallVelocityAt(body, a, px, py, pz)
      const m = markerMass * splat[a][2 * f + 1]
      const bi = this.currentBody
      if (m > 0 && dynamic[bi]) {
        const j = m * (u - comp[f])
        const rx = px - body.x[0], ry = py - body.x[1], rz = pz - body.x[2]
        const o = 6 * bi
        imp[o + a] += j
        // r x (j e_a)
        if (a === 0) (imp[o + 4] += rz * j), (imp[o + 5] -= ry * j)
        else if (a === 1) (imp[o + 3] -= rz * j), (imp[o + 5] += rx * j)
        else (imp[o + 3] += ry * j), (imp[o + 4] -= rx * j)
      }
      comp[f] = u
    }, vel)
    for (let bi = 0; bi < bodies.length; bi++) {
      if (!dynamic[bi] || !use[bi]) continue
      const body = bodies[bi], o = 6 * bi, m = mass[bi]
      const I = invInertia.subarray(9 * bi, 9 * bi + 9)
      const tx = imp[o + 3], ty = imp[o + 4], tz = imp[o + 5]
      body.v[0] -= imp[o] / m; body.v[1] -= imp[o + 1] / m; body.v[2] -= imp[o + 2] / m
      body.w[0] -= I[0] * tx + I[1] * ty + I[2] * tz
      body.w[1] -= I[3] * tx + I[4] * ty + I[5] * tz
      body.w[2] -= I[6] * tx + I[7] * ty + I[8] * tz
    }
  }

  /** vel = (1 - w) vel + w (v + omega x r) on the open faces of bodies with use[b] = 1 (eq. 80's blend). */
  private blendRigid(vel: MacGrid, bodies: readonly CoupledBody[], use: Uint8Array, open: MacGrid, solved: Uint8Array | null): void {
    this.forFaces(bodies, use, open, solved, (body, a, f, w, px, py, pz, comp) => {
      comp[f] = (1 - w) * comp[f] + w * this.rigidAt(body, a, px, py, pz)
    }, vel)
  }


  /**
   * Patankar's buoyant weight (sec. 5.4.1 step 1): after gravity reaches every face, the faces
   * a body covers get h f (rho_r - rho_f) / rho_f more, weighted by w, so the pressure solve
   * already sees a body of the right weight; f then leaves eq. 70.
   */
  addBuoyantWeight(vel: MacGrid, open: MacGrid, bodies: readonly CoupledBody[], use: Uint8Array, h: number, g: readonly number[], liquidDensity = LIQUID_DENSITY): void {
    this.forFaces(bodies, use, open, null, (body, a, f, w, _px, _py, _pz, comp) => {
      comp[f] += w * h * g[a] * (body.density - liquidDensity) / liquidDensity
    }, vel)
  }

  /**
   * Eqs. 70-71 then 77-80 for each dynamic wet body (dynamic[b] = 1), and eq. 80 with the
   * keyed velocity for kinematic ones (kinematic[b] = 1). velN holds u^n on the body faces (as
   * imposeRigidVelocity left them, before gravity, viscosity and pressure); vel holds u* (with
   * the buoyant weight of addBuoyantWeight) and receives u^{n+1}. Sets v and omega of each
   * dynamic body.
   */
  couple(vel: MacGrid, velN: MacGrid, open: MacGrid, solved: Uint8Array, bodies: readonly CoupledBody[], dynamic: Uint8Array, kinematic: Uint8Array, h: number, liquidDensity = LIQUID_DENSITY): void {
    const dV = this.grid.dx ** 3
    const A = this.normal, b = this.rhs, J = this.jrow
    const compsN = [velN.u, velN.v, velN.w]
    if (this.mask.length < bodies.length) this.mask = new Uint8Array(bodies.length)
    const one = this.mask
    for (let bi = 0; bi < bodies.length; bi++) {
      const body = bodies[bi]
      if (!dynamic[bi]) continue
      const ratio = liquidDensity / body.density
      const keepUnstable = body.density / liquidDensity >= ULTRABUOYANT_BELOW
      const ac = body.collisionAccel, al = body.collisionAngularAccel
      A.fill(0)
      b.fill(0)
      one.fill(0)
      one[bi] = 1
      // Eq. 71 on each face, and the sums of the momentum-conserving projection (77-78).
      this.forFaces(bodies, one, open, solved, (_body, a, f, w, px, py, pz, comp) => {
        const rx = px - body.x[0], ry = py - body.x[1], rz = pz - body.x[2]
        const coll = a === 0 ? ac[0] + al[1] * rz - al[2] * ry : a === 1 ? ac[1] + al[2] * rx - al[0] * rz : ac[2] + al[0] * ry - al[1] * rx
        const uStar = comp[f]
        const du = keepUnstable ? uStar - compsN[a][f] : 0
        // The solid's own velocity in this face (eq. 70 over rho_r, unweighted), and the
        // face's mixture (eq. 71: only the solid part w of the face feels the source).
        const uSolid = uStar + h * coll - (1 - ratio) * du
        comp[f] = uStar + w * (uSolid - uStar)
        const uHat = uSolid
        // J = [e_a ; r x e_a]: this face's row of the rigid-motion map (v, omega) -> u_f.
        const m = body.density * w * dV
        J[0] = a === 0 ? 1 : 0
        J[1] = a === 1 ? 1 : 0
        J[2] = a === 2 ? 1 : 0
        J[3] = ry * J[2] - rz * J[1]
        J[4] = rz * J[0] - rx * J[2]
        J[5] = rx * J[1] - ry * J[0]
        for (let r = 0; r < 6; r++) {
          if (J[r] === 0) continue
          b[r] += m * uHat * J[r]
          for (let c = 0; c < 6; c++) A[6 * r + c] += m * J[r] * J[c]
        }
      }, vel)
      if (!solve6(A, b, this.sol)) continue
      for (let d = 0; d < 3; d++) {
        body.v[d] = this.sol[d]
        body.w[d] = this.sol[3 + d]
      }
      // Eq. 80 on this body's faces.
      this.blendRigid(vel, bodies, one, open, solved)
    }
    this.blendRigid(vel, bodies, kinematic, open, solved)
  }

  /**
   * Calls fn for every open face owned by a body with use[b] = 1, with its centre and component
   * array; with `solved` (cell kinds), only faces next to a LIQUID cell (the faces the
   * pressure solve updated: others hold extrapolated values, not the body's motion).
   */
  private forFaces(
    bodies: readonly CoupledBody[],
    use: Uint8Array,
    open: MacGrid,
    solved: Uint8Array | null,
    fn: (body: CoupledBody, a: number, f: number, w: number, px: number, py: number, pz: number, comp: Float32Array) => void,
    vel: MacGrid,
  ): void {
    const { nx, ny, dx, origin } = this.grid
    const comps = [vel.u, vel.v, vel.w]
    const opens = [open.u, open.v, open.w]
    for (let bi = 0; bi < this.boxes.length; bi++) {
      if (!use[bi]) continue
      this.currentBody = bi
      const box = this.boxes[bi]
      const body = bodies[bi]
      for (let a = 0; a < 3; a++) {
        const ex = a === 0 ? 1 : 0, ey = a === 1 ? 1 : 0, ez = a === 2 ? 1 : 0
        const fnx = nx + ex, fny = ny + ey
        const own = this.faceOwner[a], fr = this.faceFraction[a], op = opens[a], comp = comps[a]
        for (let k = box.k0; k < box.k1 + ez; k++) for (let j = box.j0; j < box.j1 + ey; j++) for (let i = box.i0; i < box.i1 + ex; i++) {
          const f = i + fnx * (j + fny * k)
          if (own[f] !== bi || !(op[f] > 0)) continue
          if (solved) {
            const lo = i - ex + nx * (j - ey + ny * (k - ez))
            const hi = i + nx * (j + ny * k)
            const loIn = (ex ? i > 0 : ey ? j > 0 : k > 0) && solved[lo] === SOLVED
            const hiIn = (ex ? i < nx : ey ? j < ny : k < this.grid.nz) && solved[hi] === SOLVED
            if (!loIn && !hiIn) continue
          }
          const px = origin[0] + (i + (ex ? 0 : 0.5)) * dx, py = origin[1] + (j + (ey ? 0 : 0.5)) * dx, pz = origin[2] + (k + (ez ? 0 : 0.5)) * dx
          fn(body, a, f, fr[f], px, py, pz, comp)
        }
      }
    }
  }
}

/** Solves the symmetric 6x6 system A x = b by Cholesky; false when A is not positive definite. */
export function solve6(A: Float64Array, b: Float64Array, x: Float64Array): boolean {
  const L = new Float64Array(36)
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
