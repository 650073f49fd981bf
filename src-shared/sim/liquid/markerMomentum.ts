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
import { TS_KERNELS } from '../core/kernelBackend'
import type { KernelBackend } from '../core/kernelTypes'
import type { CoupledBody } from './rigidCoupling'
import { MARKER_BALANCE_FACES, MARKER_BALANCE_OWNERS } from './markerMomentumKernels'

/** Body radii beyond a body's bounding sphere whose faces count towards its balance. */
export const MARKER_BALANCE_REACH = 3

/** What the balance needs of a body (sim/rigid RigidBody satisfies it). */
export type BalancedBody = Pick<CoupledBody, 'x' | 'v' | 'boundingRadius'>

export class MarkerMomentumBalance {
  private readonly grid: GridSpec
  /** Per body: the momentum given back this substep (x, y, z), kg m/s. */
  readonly given: Float64Array
  /** Per body: its box of cells (i0, i1, j0, j1, k0, k1), empty when unused. */
  private readonly boxes: Int32Array
  private readonly reach: number
  private readonly gravityDir = new Float64Array(3)
  /** Per cell: the used body whose box holds it and whose centre is nearest (-1: none). */
  private readonly owner: Int32Array
  private readonly ownerDistance: Float32Array
  /** Per body: its centre of mass (x, y, z), for the owners' row. */
  private readonly centres: Float64Array
  private readonly use: Uint8Array
  /** Per plane of the union box, per body: the faces' row's partial sums. */
  private readonly partial: Float64Array
  private readonly kernels: KernelBackend

  /**
   * gravity: the domain's, m/s^2 (its direction is left out of the balance). kernels: where
   * the rows run (markerMomentumKernels.ts); the grids handed to apply should come from it.
   */
  constructor(grid: GridSpec, bodies: number, gravity: readonly number[], reach = MARKER_BALANCE_REACH, kernels: KernelBackend = TS_KERNELS) {
    this.grid = grid
    this.kernels = kernels
    const gl = Math.hypot(gravity[0], gravity[1], gravity[2])
    for (let d = 0; d < 3; d++) this.gravityDir[d] = gl > 0 ? gravity[d] / gl : 0
    this.given = new Float64Array(3 * bodies)
    const nb = Math.max(1, bodies)
    this.boxes = kernels.i32(6 * nb)
    this.centres = kernels.f64(3 * nb)
    this.use = kernels.u8(nb)
    this.partial = kernels.f64((grid.nz + 1) * nb)
    this.reach = reach
    const n = grid.nx * grid.ny * grid.nz
    this.owner = kernels.i32(n).fill(-1)
    this.ownerDistance = kernels.f32(n).fill(Infinity)
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
    const nb = bodies.length
    for (let b = 0; b < nb; b++) {
      this.use[b] = use[b]
      for (let d = 0; d < 3; d++) this.centres[3 * b + d] = bodies[b].x[d]
    }
    this.kernels.run(MARKER_BALANCE_OWNERS, this.owner, this.ownerDistance, boxes, this.centres, this.use, nb, nx, ny, dx, origin[0], origin[1], origin[2], nz)
    // One pass over the faces of the boxes' union per axis, each face's term added to the
    // body (or, on a box's far side, bodies) that claims it, per plane (markerMomentumKernels.ts);
    // the boxes overlap (3 radii beyond each body), so this visits a face once instead of once
    // per body whose box holds it. The planes' partials are added in plane order.
    let ui0 = nx, ui1 = 0, uj0 = ny, uj1 = 0, uk0 = nz, uk1 = 0
    for (let b = 0; b < nb; b++) {
      if (!use[b]) continue
      const o = 6 * b
      ui0 = Math.min(ui0, boxes[o]); ui1 = Math.max(ui1, boxes[o + 1])
      uj0 = Math.min(uj0, boxes[o + 2]); uj1 = Math.max(uj1, boxes[o + 3])
      uk0 = Math.min(uk0, boxes[o + 4]); uk1 = Math.max(uk1, boxes[o + 5])
    }
    const comps = [vel.u, vel.v, vel.w], starts = [start.u, start.v, start.w], frs = [fractions.u, fractions.v, fractions.w]
    const partial = this.partial
    for (let a = 0; a < 3; a++) {
      const planes = uk1 + (a === 2 ? 1 : 0) - uk0
      this.kernels.run(MARKER_BALANCE_FACES, comps[a], starts[a], frs[a], splat[a], kind, phi, this.owner, boxes, partial, a, nx, ny, nz, nb, ui0, ui1, uj0, uj1, uk0, cellMass, markerMass, planes)
      for (let b = 0; b < nb; b++) {
        let sum = 0
        for (let kk = 0; kk < planes; kk++) sum += partial[kk * nb + b]
        given[3 * b + a] = sum
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
