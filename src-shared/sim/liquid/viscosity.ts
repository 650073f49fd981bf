// Implicit (backward Euler) viscous diffusion with variable viscosity, Carlson 2004 sec. 4.1-4.3.
//
// Operator splitting (eqs. 43-44) leaves u_t = div(stress) for one substep h. Backward Euler
// (eq. 47) gives A u_new = u with A = 1 - D (eq. 48-49). Here D is written as a sum over
// *stress sites* s (cell centres and cell edges, Carlson's figure 13):
//
//   A = 1 + (h / dx^2) sum_s nu_s g_s g_s^T
//
// where g_s is a vector of +-1 picking the face differences the site measures. Each term is
// positive semi-definite, so A is symmetric positive definite for any nu >= 0 and any h: the
// solve is stable at every viscosity from 0 to 1e5 m^2/s (the point of sec. 4.1).
//
// 'carlson' (eq. 57): for each component separately, the difference across a cell centre
// (u_{i+1} - u_i across cell i, viscosity nu_i) and across each edge (u_{j} - u_{j-1}, with the
// edge viscosity of eq. 58, the geometric mean of the four cells around the edge). The row of
// u_{i,j,k} is exactly eq. 57 made implicit.
// 'full' (eqs. 59-60, Batty & Bridson 2008): the cell sites measure 2 nu (du/dx)^2 and each edge
// measures nu (du/dy + dv/dx)^2, i.e. div(nu (grad u + grad u^T)); this couples u, v and w.
//
// Boundaries (sec. 3.2.3.4, 4.1.2): a face is an unknown when it is open (fraction > 0) and
// touches a liquid cell. Air has nu = 0, so by eq. 58 every site touching air drops out: the
// free surface carries no viscous traction and surface faces move freely. (The thesis held
// surface faces as Dirichlet values; sec. 4.5 reports that this damped free flight, so they
// are unknowns here.) Faces that are not unknowns (closed faces holding the obstacle's normal
// velocity, faces inside solids holding its rigid velocity) enter as Dirichlet values moved to
// the right-hand side, which keeps A symmetric (sec. 4.1.2). With wallSlip 'free' a solid cell
// counts as nu = 0 in eq. 58 (no tangential stress, Carlson's free-slip walls); with 'no' the
// solid cells are left out of the mean so the liquid is sheared against the wall's velocity
// (no-slip; closed domain sides are static walls, faces beyond them hold 0).
//
// Solved by conjugate gradients with the Jacobi preconditioner of sec. 4.1.2 (table 4), using
// the core PCG over one vector of all faces [u | v | w]; rows that are not unknowns are the
// identity and stay 0.
import type { MacGrid } from '../core/grid'
import { type LinearOperator, PcgSolver, type Preconditioner, type SolveStats } from '../core/pcg'
import type { ViscousStress, WallSlip } from './liquidInput'

/** Cell kinds shared by the liquid solver's parts. */
export const AIR = 0
export const LIQUID = 1
export const SOLID = 2

class JacobiPreconditioner implements Preconditioner {
  constructor(private readonly inv: Float64Array) {}
  apply(r: Float64Array, z: Float64Array): void {
    const inv = this.inv
    for (let f = 0; f < r.length; f++) z[f] = r[f] * inv[f]
  }
}

export class ViscositySystem implements LinearOperator {
  readonly nx: number
  readonly ny: number
  readonly nz: number
  /** Faces per component and the offsets of v and w in the stacked vector. */
  readonly nu: number
  readonly nv: number
  readonly nw: number
  readonly n: number
  /** 1 where the face is an unknown of the last setup. */
  readonly unknown: Uint8Array
  /** Diagonal of A (1 on rows that are not unknowns). */
  readonly diagonal: Float64Array
  /** Right-hand side of the last setup (0 on rows that are not unknowns). */
  readonly rhs: Float64Array
  /** Solution / iterate. */
  readonly x: Float64Array
  /** (h / dx^2) * weight of each cell site (2 nu for 'full', nu for 'carlson'). */
  private readonly wCell: Float64Array
  /** (h / dx^2) * eq. 58 edge viscosity: xy edges (nx+1)(ny+1)nz, xz (nx+1)ny(nz+1), yz nx(ny+1)(nz+1). */
  private readonly wXY: Float64Array
  private readonly wXZ: Float64Array
  private readonly wYZ: Float64Array
  private readonly known: Float64Array
  private readonly invDiag: Float64Array
  private readonly tmp: Float64Array
  private readonly pcg: PcgSolver
  private readonly jacobi: JacobiPreconditioner
  private full = false
  /** Scratch for setup (no allocation per substep): the four cells of an edge and what missing ones count as. */
  private readonly cs = new Int32Array(4)
  private readonly outside = new Uint8Array(4)
  /** Some site has a weight: otherwise A = 1 and nothing is solved. */
  active = false

  constructor(nx: number, ny: number, nz: number) {
    this.nx = nx
    this.ny = ny
    this.nz = nz
    this.nu = (nx + 1) * ny * nz
    this.nv = nx * (ny + 1) * nz
    this.nw = nx * ny * (nz + 1)
    this.n = this.nu + this.nv + this.nw
    this.unknown = new Uint8Array(this.n)
    this.diagonal = new Float64Array(this.n)
    this.rhs = new Float64Array(this.n)
    this.x = new Float64Array(this.n)
    this.known = new Float64Array(this.n)
    this.invDiag = new Float64Array(this.n)
    this.tmp = new Float64Array(this.n)
    this.wCell = new Float64Array(nx * ny * nz)
    this.wXY = new Float64Array((nx + 1) * (ny + 1) * nz)
    this.wXZ = new Float64Array((nx + 1) * ny * (nz + 1))
    this.wYZ = new Float64Array(nx * (ny + 1) * (nz + 1))
    this.pcg = new PcgSolver(this.n, 1, 1)
    this.jacobi = new JacobiPreconditioner(this.invDiag)
  }

  /**
   * Eq. 58 over the four cells (a, b, c, d) of an edge; -1 = outside the domain. outsideKind
   * is what a missing cell counts as for this edge (SOLID for a closed side, AIR for an open one).
   */
  private edgeNu(cellNu: Float32Array, kind: Uint8Array, noSlip: boolean, cs: Int32Array, outsideKind: Uint8Array): number {
    let prod = 1
    let count = 0
    for (let q = 0; q < 4; q++) {
      const c = cs[q]
      const kd = c < 0 ? outsideKind[q] : kind[c]
      if (kd === AIR) return 0
      if (kd === SOLID) {
        if (!noSlip) return 0
        continue
      }
      prod *= cellNu[c]
      count++
    }
    if (count === 0) return 0
    // Fourth root when all four are liquid (eq. 58); with walls left out, the mean of the rest.
    return count === 4 ? Math.sqrt(Math.sqrt(prod)) : count === 1 ? prod : Math.pow(prod, 1 / count)
  }

  /**
   * Builds the system for one substep: site weights from the cell viscosities (m^2/s, only
   * liquid cells are read), the unknown faces, Dirichlet values from vel, the right-hand side
   * and the diagonal. open = openFlags(sides) (1 = open side).
   */
  setup(
    vel: MacGrid,
    fractions: MacGrid,
    kind: Uint8Array,
    cellNu: Float32Array,
    h: number,
    stress: ViscousStress,
    slip: WallSlip,
    open: Uint8Array,
  ): void {
    const { nx, ny, nz, nu, nv } = this
    const plane = nx * ny
    const s = h / (vel.spec.dx * vel.spec.dx)
    const full = stress === 'full'
    const noSlip = slip === 'no'
    this.full = full
    let any = false
    const { cs, outside } = this
    for (let c = 0; c < plane * nz; c++) {
      const w = kind[c] === LIQUID ? s * cellNu[c] * (full ? 2 : 1) : 0
      this.wCell[c] = w
      if (w > 0) any = true
    }
    const sideKind = (o: number) => (open[o] ? AIR : SOLID)
    const cell = (i: number, j: number, k: number) => (i < 0 || j < 0 || k < 0 || i >= nx || j >= ny || k >= nz ? -1 : i + nx * (j + ny * k))
    // xy edges at (i, j, k + 1/2): cells (i-1, j-1), (i, j-1), (i-1, j), (i, j).
    for (let k = 0; k < nz; k++) {
      for (let j = 0; j <= ny; j++) {
        for (let i = 0; i <= nx; i++) {
          cs[0] = cell(i - 1, j - 1, k)
          cs[1] = cell(i, j - 1, k)
          cs[2] = cell(i - 1, j, k)
          cs[3] = cell(i, j, k)
          for (let q = 0; q < 4; q++) {
            const di = q & 1 ? i : i - 1, dj = q & 2 ? j : j - 1
            outside[q] = di < 0 ? sideKind(0) : di >= nx ? sideKind(1) : dj < 0 ? sideKind(2) : sideKind(3)
          }
          const w = s * this.edgeNu(cellNu, kind, noSlip, cs, outside)
          this.wXY[i + (nx + 1) * (j + (ny + 1) * k)] = w
          if (w > 0) any = true
        }
      }
    }
    // xz edges at (i, j + 1/2, k): cells (i-1, k-1), (i, k-1), (i-1, k), (i, k).
    for (let k = 0; k <= nz; k++) {
      for (let j = 0; j < ny; j++) {
        for (let i = 0; i <= nx; i++) {
          cs[0] = cell(i - 1, j, k - 1)
          cs[1] = cell(i, j, k - 1)
          cs[2] = cell(i - 1, j, k)
          cs[3] = cell(i, j, k)
          for (let q = 0; q < 4; q++) {
            const di = q & 1 ? i : i - 1, dk = q & 2 ? k : k - 1
            outside[q] = di < 0 ? sideKind(0) : di >= nx ? sideKind(1) : dk < 0 ? sideKind(4) : sideKind(5)
          }
          const w = s * this.edgeNu(cellNu, kind, noSlip, cs, outside)
          this.wXZ[i + (nx + 1) * (j + ny * k)] = w
          if (w > 0) any = true
        }
      }
    }
    // yz edges at (i + 1/2, j, k): cells (j-1, k-1), (j, k-1), (j-1, k), (j, k).
    for (let k = 0; k <= nz; k++) {
      for (let j = 0; j <= ny; j++) {
        for (let i = 0; i < nx; i++) {
          cs[0] = cell(i, j - 1, k - 1)
          cs[1] = cell(i, j, k - 1)
          cs[2] = cell(i, j - 1, k)
          cs[3] = cell(i, j, k)
          for (let q = 0; q < 4; q++) {
            const dj = q & 1 ? j : j - 1, dk = q & 2 ? k : k - 1
            outside[q] = dj < 0 ? sideKind(2) : dj >= ny ? sideKind(3) : dk < 0 ? sideKind(4) : sideKind(5)
          }
          const w = s * this.edgeNu(cellNu, kind, noSlip, cs, outside)
          this.wYZ[i + nx * (j + (ny + 1) * k)] = w
          if (w > 0) any = true
        }
      }
    }
    this.active = any
    // Unknowns: open faces touching a liquid cell.
    const { unknown, known, x } = this
    const liquidAt = (i: number, j: number, k: number) => i >= 0 && j >= 0 && k >= 0 && i < nx && j < ny && k < nz && kind[i + nx * (j + ny * k)] === LIQUID
    for (let k = 0; k < nz; k++) {
      for (let j = 0; j < ny; j++) {
        for (let i = 0; i <= nx; i++) {
          const f = i + (nx + 1) * (j + ny * k)
          unknown[f] = fractions.u[f] > 0 && (liquidAt(i - 1, j, k) || liquidAt(i, j, k)) ? 1 : 0
          known[f] = vel.u[f]
        }
      }
    }
    for (let k = 0; k < nz; k++) {
      for (let j = 0; j <= ny; j++) {
        for (let i = 0; i < nx; i++) {
          const f = i + nx * (j + (ny + 1) * k)
          unknown[nu + f] = fractions.v[f] > 0 && (liquidAt(i, j - 1, k) || liquidAt(i, j, k)) ? 1 : 0
          known[nu + f] = vel.v[f]
        }
      }
    }
    for (let k = 0; k <= nz; k++) {
      for (let j = 0; j < ny; j++) {
        for (let i = 0; i < nx; i++) {
          const f = i + nx * (j + ny * k)
          unknown[nu + nv + f] = fractions.w[f] > 0 && (liquidAt(i, j, k - 1) || liquidAt(i, j, k)) ? 1 : 0
          known[nu + nv + f] = vel.w[f]
        }
      }
    }
    // b = u - K u_known on unknown rows (Dirichlet values moved right, sec. 3.3.2); x0 = u.
    const { rhs, tmp, diagonal } = this
    for (let f = 0; f < this.n; f++) {
      x[f] = unknown[f] ? known[f] : 0
      if (unknown[f]) known[f] = 0
    }
    tmp.fill(0)
    this.accumulate(known, tmp)
    for (let f = 0; f < this.n; f++) rhs[f] = unknown[f] ? x[f] - tmp[f] : 0
    // Restore the known vector (u everywhere) for writeBack.
    for (let f = 0; f < this.n; f++) if (unknown[f]) known[f] = x[f]
    // Diagonal: 1 + the weights of every site the face takes part in.
    diagonal.fill(0)
    this.accumulateDiagonal(diagonal)
    for (let f = 0; f < this.n; f++) {
      diagonal[f] = unknown[f] ? 1 + diagonal[f] : 1
      this.invDiag[f] = 1 / diagonal[f]
    }
  }

  /** out += K src, K = sum_s w_s g_s g_s^T (faces beyond the domain read as 0). */
  private accumulate(src: Float64Array, out: Float64Array): void {
    const { nx, ny, nz, nu, nv, full, wCell, wXY, wXZ, wYZ } = this
    const ov = nu, ow = nu + nv
    // Cell sites: each component's difference along its own axis.
    for (let k = 0; k < nz; k++) {
      for (let j = 0; j < ny; j++) {
        for (let i = 0; i < nx; i++) {
          const c = i + nx * (j + ny * k)
          const w = wCell[c]
          if (w === 0) continue
          const u0 = i + (nx + 1) * (j + ny * k)
          let d = w * (src[u0 + 1] - src[u0])
          out[u0 + 1] += d
          out[u0] -= d
          const v0 = ov + i + nx * (j + (ny + 1) * k)
          d = w * (src[v0 + nx] - src[v0])
          out[v0 + nx] += d
          out[v0] -= d
          const w0 = ow + c
          d = w * (src[w0 + nx * ny] - src[w0])
          out[w0 + nx * ny] += d
          out[w0] -= d
        }
      }
    }
    // xy edges: du/dy between u(i, j-1) and u(i, j); dv/dx between v(i-1, j) and v(i, j).
    for (let k = 0; k < nz; k++) {
      for (let j = 0; j <= ny; j++) {
        for (let i = 0; i <= nx; i++) {
          const w = wXY[i + (nx + 1) * (j + (ny + 1) * k)]
          if (w === 0) continue
          const ua = j > 0 ? i + (nx + 1) * (j - 1 + ny * k) : -1
          const ub = j < ny ? i + (nx + 1) * (j + ny * k) : -1
          const va = i > 0 ? ov + i - 1 + nx * (j + (ny + 1) * k) : -1
          const vb = i < nx ? ov + i + nx * (j + (ny + 1) * k) : -1
          this.edge(src, out, w, ua, ub, va, vb)
        }
      }
    }
    // xz edges: du/dz between u(k-1) and u(k); dw/dx between w(i-1) and w(i).
    for (let k = 0; k <= nz; k++) {
      for (let j = 0; j < ny; j++) {
        for (let i = 0; i <= nx; i++) {
          const w = wXZ[i + (nx + 1) * (j + ny * k)]
          if (w === 0) continue
          const ua = k > 0 ? i + (nx + 1) * (j + ny * (k - 1)) : -1
          const ub = k < nz ? i + (nx + 1) * (j + ny * k) : -1
          const wa = i > 0 ? ow + i - 1 + nx * (j + ny * k) : -1
          const wb = i < nx ? ow + i + nx * (j + ny * k) : -1
          this.edge(src, out, w, ua, ub, wa, wb)
        }
      }
    }
    // yz edges: dv/dz between v(k-1) and v(k); dw/dy between w(j-1) and w(j).
    for (let k = 0; k <= nz; k++) {
      for (let j = 0; j <= ny; j++) {
        for (let i = 0; i < nx; i++) {
          const w = wYZ[i + nx * (j + (ny + 1) * k)]
          if (w === 0) continue
          const va = k > 0 ? ov + i + nx * (j + (ny + 1) * (k - 1)) : -1
          const vb = k < nz ? ov + i + nx * (j + (ny + 1) * k) : -1
          const wa = j > 0 ? ow + i + nx * (j - 1 + ny * k) : -1
          const wb = j < ny ? ow + i + nx * (j + ny * k) : -1
          this.edge(src, out, w, va, vb, wa, wb)
        }
      }
    }
  }

  /** One edge site over faces (a0 -> a1) of one component and (b0 -> b1) of the other; -1 = beyond the domain (value 0). */
  private edge(src: Float64Array, out: Float64Array, w: number, a0: number, a1: number, b0: number, b1: number): void {
    const da = (a1 >= 0 ? src[a1] : 0) - (a0 >= 0 ? src[a0] : 0)
    const db = (b1 >= 0 ? src[b1] : 0) - (b0 >= 0 ? src[b0] : 0)
    if (this.full) {
      // Batty & Bridson 2008: nu (du/dy + dv/dx)^2, one shear strain shared by both components.
      const t = w * (da + db)
      if (a1 >= 0) out[a1] += t
      if (a0 >= 0) out[a0] -= t
      if (b1 >= 0) out[b1] += t
      if (b0 >= 0) out[b0] -= t
    } else {
      // Carlson 2004 eq. 57: each component diffuses on its own with the eq. 58 viscosity.
      const ta = w * da, tb = w * db
      if (a1 >= 0) out[a1] += ta
      if (a0 >= 0) out[a0] -= ta
      if (b1 >= 0) out[b1] += tb
      if (b0 >= 0) out[b0] -= tb
    }
  }

  /** diag += sum of the weights of the sites each face is in (every g_s entry is +-1). */
  private accumulateDiagonal(diag: Float64Array): void {
    // K applied to unit vectors would cost O(n^2); instead reuse accumulate's structure on a
    // vector of ones per site by noting diag_f = sum_s w_s g_s[f]^2 = sum over sites touching f.
    const { nx, ny, nz, nu, nv, wCell, wXY, wXZ, wYZ } = this
    const ov = nu, ow = nu + nv
    for (let k = 0; k < nz; k++) {
      for (let j = 0; j < ny; j++) {
        for (let i = 0; i < nx; i++) {
          const c = i + nx * (j + ny * k)
          const w = wCell[c]
          if (w === 0) continue
          const u0 = i + (nx + 1) * (j + ny * k)
          diag[u0] += w
          diag[u0 + 1] += w
          const v0 = ov + i + nx * (j + (ny + 1) * k)
          diag[v0] += w
          diag[v0 + nx] += w
          diag[ow + c] += w
          diag[ow + c + nx * ny] += w
        }
      }
    }
    const add = (w: number, a: number, b: number, c: number, d: number) => {
      if (a >= 0) diag[a] += w
      if (b >= 0) diag[b] += w
      if (c >= 0) diag[c] += w
      if (d >= 0) diag[d] += w
    }
    for (let k = 0; k < nz; k++) {
      for (let j = 0; j <= ny; j++) {
        for (let i = 0; i <= nx; i++) {
          const w = wXY[i + (nx + 1) * (j + (ny + 1) * k)]
          if (w === 0) continue
          add(w, j > 0 ? i + (nx + 1) * (j - 1 + ny * k) : -1, j < ny ? i + (nx + 1) * (j + ny * k) : -1, i > 0 ? ov + i - 1 + nx * (j + (ny + 1) * k) : -1, i < nx ? ov + i + nx * (j + (ny + 1) * k) : -1)
        }
      }
    }
    for (let k = 0; k <= nz; k++) {
      for (let j = 0; j < ny; j++) {
        for (let i = 0; i <= nx; i++) {
          const w = wXZ[i + (nx + 1) * (j + ny * k)]
          if (w === 0) continue
          add(w, k > 0 ? i + (nx + 1) * (j + ny * (k - 1)) : -1, k < nz ? i + (nx + 1) * (j + ny * k) : -1, i > 0 ? ow + i - 1 + nx * (j + ny * k) : -1, i < nx ? ow + i + nx * (j + ny * k) : -1)
        }
      }
    }
    for (let k = 0; k <= nz; k++) {
      for (let j = 0; j <= ny; j++) {
        for (let i = 0; i < nx; i++) {
          const w = wYZ[i + nx * (j + (ny + 1) * k)]
          if (w === 0) continue
          add(w, k > 0 ? ov + i + nx * (j + (ny + 1) * (k - 1)) : -1, k < nz ? ov + i + nx * (j + (ny + 1) * k) : -1, j > 0 ? ow + i + nx * (j - 1 + ny * k) : -1, j < ny ? ow + i + nx * (j + ny * k) : -1)
        }
      }
    }
  }

  /** out = A x: (1 + K) on unknown rows with non-unknown entries of x read as 0; identity elsewhere. */
  apply(x: Float64Array, out: Float64Array): void {
    const { unknown, tmp } = this
    for (let f = 0; f < this.n; f++) tmp[f] = unknown[f] ? x[f] : 0
    out.fill(0)
    this.accumulate(tmp, out)
    for (let f = 0; f < this.n; f++) out[f] = unknown[f] ? tmp[f] + out[f] : x[f]
  }

  /** Solves A x = rhs from the warm start x = u (Carlson 2004 table 4, Jacobi preconditioner). */
  solve(tolerance: number, maxIterations: number): SolveStats {
    if (!this.active) return { iterations: 0, residual: 0, converged: true }
    return this.pcg.solve(this, this.jacobi, this.rhs, this.x, { tolerance, maxIterations })
  }

  /** Writes the solution into the unknown faces of vel (others keep their values). */
  writeBack(vel: MacGrid): void {
    if (!this.active) return
    const { unknown, x, nu, nv } = this
    for (let f = 0; f < nu; f++) if (unknown[f]) vel.u[f] = x[f]
    for (let f = 0; f < nv; f++) if (unknown[nu + f]) vel.v[f] = x[nu + f]
    for (let f = 0; f < this.nw; f++) if (unknown[nu + nv + f]) vel.w[f] = x[nu + nv + f]
  }
}
