// Newton's third law between a rigid body and the markers, not only the grid.
//
// The liquid-only solve (rigidFluid.ts step 5, coupledWalls.ts) is exactly momentum-
// conserving for the grid's masses: what the body loses, sum_f m_f du_f gains, with m_f the
// liquid mass of face f's control volume as the ghost-fluid solve sees it, rho dx^3 times the
// face's open fraction times theta (ghostFluid.ts: the liquid share of the segment between the
// two cell centres; 1 inside the liquid). Measured over 20 frames of a ball thrown through a
// blob of liquid at 48 cells, the two agree to 4 digits (8.196 kg m/s each way). But the
// liquid's momentum lives on the markers, and they take sum_f M_f du_f, M_f the marker mass
// splatted onto face f (transfer.ts toGrid): 7.849, 4.2% short. Most of the shortfall is at the
// free surface (markers there hold 46% of the theta-weighted mass the solve counts on), the
// rest spread over the interior and the faces the body half covers. Bodies then gained
// momentum from nothing: 1.5-2.2% of the total within 32 frames, against the 1%.
//
// The balance: after the solve, each dynamic wet body is given back
//     dP = sum_f (m_f - M_f) (u_f - u0_f)
// over the faces the solve updated (liquid on a side, open) near the body, so that what it
// lost equals what the markers near it gained. u0 is the liquid's velocity at the start of
// the substep, before gravity and viscosity, not the velocity before the solve: in still
// liquid the solve's change is -g h everywhere and the markers' masses would push a floating
// body up and down; from the start of the substep the change is about 0 there.
// Only the part across gravity is given (all of it without gravity). Along gravity the free
// surface of a resting pool is not quite at rest substep by substep: gravity and the
// ghost-fluid pressure leave its faces a steady change that the density drift and the
// transfers undo, and its marker shortfall, charged to a floating 0.55 density ball, pushed
// it down by 1.2 m/s^2 on average: it floated 0.594 of its volume under instead of 0.547.
// Along gravity the liquid's momentum is not kept anyway (the floor holds the pool up).
// Only the body's linear momentum is corrected (at its centre of mass, no torque): the spin
// goes through the markers' exchange (rigidCoupling.ts imposeWithReaction), which is exact.
//
// "Near": within REACH body radii beyond the body's bounding sphere (a box of 1 + REACH radii
// around its centre), each face given to the body whose centre is nearest its cell (no face
// counts twice). A moving body's pressure falls off as a dipole's, but its marker shortfall
// reaches the free surface of the liquid around it; far away the change comes from walls and
// other bodies, and charging the body for their marker noise would kick it from across the
// tank. Measured on
// the thrown ball (48 / 64 cells, worst over 32 frames): without the balance 2.20% / 2.07%;
// with 1 radius 0.97% / 1.22%, 2 radii 0.51% / 0.88%, 3 radii 0.29% / 0.85%, the whole grid
// 0.18% / 0.73%.
import type { GridSpec, MacGrid } from '../core/grid'
import { GhostFluidPressure } from './ghostFluid'
import type { CoupledBody } from './rigidCoupling'
import { LIQUID } from './viscosity'

/** Body radii beyond a body's bounding sphere whose faces count towards its balance. */
export const MARKER_BALANCE_REACH = 3

/** What the balance needs of a body (sim/rigid RigidBody satisfies it). */
export type BalancedBody = Pick<CoupledBody, 'x' | 'v' | 'boundingRadius'>

export class MarkerMomentumBalance {
  private readonly grid: GridSpec
  /** Per body: the momentum given back this substep (x, y, z), kg m/s. */
  readonly given: Float64Array
  private boxes = new Int32Array(0)
  private readonly reach: number
  private readonly gravityDir = new Float64Array(3)
  /** Per cell: the used body whose box holds it and whose centre is nearest (-1: none). */
  private readonly owner: Int16Array
  private readonly ownerDistance: Float32Array

  /** gravity: the domain's, m/s^2 (its direction is left out of the balance). */
  constructor(grid: GridSpec, bodies: number, gravity: readonly number[], reach = MARKER_BALANCE_REACH) {
    this.grid = grid
    const gl = Math.hypot(gravity[0], gravity[1], gravity[2])
    for (let d = 0; d < 3; d++) this.gravityDir[d] = gl > 0 ? gravity[d] / gl : 0
    this.given = new Float64Array(3 * bodies)
    this.boxes = new Int32Array(6 * bodies)
    this.reach = reach
    const n = grid.nx * grid.ny * grid.nz
    this.owner = new Int16Array(n).fill(-1)
    this.ownerDistance = new Float32Array(n).fill(Infinity)
  }

  /** owner: each cell of the used bodies' boxes to the nearest body centre; cleared first. */
  private assignCells(bodies: readonly BalancedBody[], use: Uint8Array): void {
    const { nx, ny, dx, origin } = this.grid
    const boxes = this.boxes, owner = this.owner, dist = this.ownerDistance
    for (let pass = 0; pass < 2; pass++) {
      for (let b = 0; b < bodies.length; b++) {
        if (!use[b]) continue
        const o = 6 * b
        const x = bodies[b].x
        for (let k = boxes[o + 4]; k < boxes[o + 5]; k++) for (let j = boxes[o + 2]; j < boxes[o + 3]; j++) {
          const row = nx * (j + ny * k)
          const dy = origin[1] + (j + 0.5) * dx - x[1], dz = origin[2] + (k + 0.5) * dx - x[2]
          for (let i = boxes[o]; i < boxes[o + 1]; i++) {
            const c = row + i
            if (pass === 0) {
              owner[c] = -1
              dist[c] = Infinity
              continue
            }
            const ddx = origin[0] + (i + 0.5) * dx - x[0]
            const d = ddx * ddx + dy * dy + dz * dz
            if (d < dist[c]) {
              dist[c] = d
              owner[c] = b
            }
          }
        }
      }
    }
  }

  /** Whether cell (i, j, k) is inside body b's current box (b < 0: no). */
  private inBox(b: number, i: number, j: number, k: number): boolean {
    if (b < 0) return false
    const o = 6 * b, x = this.boxes
    return i >= x[o] && i < x[o + 1] && j >= x[o + 2] && j < x[o + 3] && k >= x[o + 4] && k < x[o + 5]
  }

  /**
   * Adds dP / mass to each body with use[b] = 1 (see the file comment). vel: the solved
   * velocity; start: the liquid's velocity at the start of the substep; fractions: the solve's
   * open fractions (bodies closed); kind and phi: the solve's cells and level set (theta);
   * splat[a][2f + 1] times markerMass: the marker mass on face f of axis a; cellMass: rho dx^3.
   */
  apply(bodies: readonly BalancedBody[], use: Uint8Array, mass: Float64Array, vel: MacGrid, start: MacGrid, fractions: MacGrid, kind: Uint8Array, phi: Float32Array, splat: readonly Float64Array[], markerMass: number, cellMass: number): void {
    const { nx, ny, nz, dx, origin } = this.grid
    const gravityDir = this.gravityDir
    const given = this.given
    given.fill(0)
    const boxes = this.boxes
    let any = false
    for (let b = 0; b < bodies.length; b++) {
      const o = 6 * b
      if (!use[b]) {
        boxes[o] = boxes[o + 1] = 0
        continue
      }
      any = true
      const body = bodies[b]
      const r = body.boundingRadius * (1 + this.reach)
      const lo = (x: number, o0: number): number => Math.max(0, Math.floor((x - r - o0) / dx) - 1)
      const hi = (x: number, o0: number, n: number): number => Math.min(n, Math.ceil((x + r - o0) / dx) + 1)
      boxes[o] = lo(body.x[0], origin[0]); boxes[o + 1] = hi(body.x[0], origin[0], nx)
      boxes[o + 2] = lo(body.x[1], origin[1]); boxes[o + 3] = hi(body.x[1], origin[1], ny)
      boxes[o + 4] = lo(body.x[2], origin[2]); boxes[o + 5] = hi(body.x[2], origin[2], nz)
    }
    if (!any) return
    this.assignCells(bodies, use)
    const owner = this.owner
    // One pass over the faces of the boxes' union per axis, each face's term added to the
    // body (or, on a box's far side, bodies) that claims it. A body's faces are met in the
    // same k, j, i order as a loop over its own box would meet them, so its sum is the same
    // bits; the boxes overlap (3 radii beyond each body), so this visits a face once instead
    // of once per body whose box holds it.
    let ui0 = nx, ui1 = 0, uj0 = ny, uj1 = 0, uk0 = nz, uk1 = 0
    for (let b = 0; b < bodies.length; b++) {
      if (!use[b]) continue
      const o = 6 * b
      ui0 = Math.min(ui0, boxes[o]); ui1 = Math.max(ui1, boxes[o + 1])
      uj0 = Math.min(uj0, boxes[o + 2]); uj1 = Math.max(uj1, boxes[o + 3])
      uk0 = Math.min(uk0, boxes[o + 4]); uk1 = Math.max(uk1, boxes[o + 5])
    }
    const comps = [vel.u, vel.v, vel.w], starts = [start.u, start.v, start.w], frs = [fractions.u, fractions.v, fractions.w]
    for (let a = 0; a < 3; a++) {
      const ex = a === 0 ? 1 : 0, ey = a === 1 ? 1 : 0, ez = a === 2 ? 1 : 0
      const fnx = nx + ex, fny = ny + ey
      const u = comps[a], u0 = starts[a], fr = frs[a], sw = splat[a]
      const step = ex ? 1 : ey ? nx : nx * ny
      const top = ex ? nx : ey ? ny : nz
      for (let b = 0; b < bodies.length; b++) given[3 * b + a] = 0
      for (let k = uk0; k < uk1 + ez; k++) for (let j = uj0; j < uj1 + ey; j++) for (let i = ui0; i < ui1 + ex; i++) {
        const f = i + fnx * (j + fny * k)
        const open = fr[f]
        if (!(open > 0)) continue
        const idx = ex ? i : ey ? j : k
        const c = i + nx * (j + ny * k)
        const hiC = idx < top ? c : -1, loC = idx > 0 ? c - step : -1
        const hiL = hiC >= 0 && kind[hiC] === LIQUID, loL = loC >= 0 && kind[loC] === LIQUID
        if (!hiL && !loL) continue
        // The face goes with the cell above it (b1), or below it on a box's far side (b2):
        // each only while that cell is inside the claiming body's box (owner is stale outside).
        const b1 = hiC >= 0 && this.inBox(owner[hiC], i, j, k) && idx < boxes[6 * owner[hiC] + 2 * a + 1] ? owner[hiC] : -1
        const lb = loC >= 0 ? owner[loC] : -1
        const b2 = lb >= 0 && this.inBox(lb, i - ex, j - ey, k - ez) && idx === boxes[6 * lb + 2 * a + 1] ? lb : -1
        if (b1 < 0 && b2 < 0) continue
        let theta = 1
        if (hiL && !loL && loC >= 0) theta = GhostFluidPressure.theta(phi[hiC], phi[loC])
        else if (loL && !hiL && hiC >= 0) theta = GhostFluidPressure.theta(phi[loC], phi[hiC])
        const term = (cellMass * open * theta - markerMass * sw[2 * f + 1]) * (u[f] - u0[f])
        if (b1 >= 0) given[3 * b1 + a] += term
        if (b2 >= 0) given[3 * b2 + a] += term
      }
    }
    for (let b = 0; b < bodies.length; b++) {
      if (!use[b]) continue
      // Across gravity only (all of it without gravity): see the file comment.
      const o3 = 3 * b
      const along = given[o3] * gravityDir[0] + given[o3 + 1] * gravityDir[1] + given[o3 + 2] * gravityDir[2]
      for (let d = 0; d < 3; d++) given[o3 + d] -= along * gravityDir[d]
      const body = bodies[b]
      for (let d = 0; d < 3; d++) body.v[d] += given[o3 + d] / mass[b]
    }
  }
}
