// Thickening (seed 003 section 3.4): particles near the medial axis of thin parts of the
// liquid keep sheets and drops thinner than the resolution from vanishing.
//
// 3.4.1 Medial axis estimation: from each vertex x_i of S_t a ray along -n_i; if it leaves the
//   liquid again within the thinness gamma, m_i is the midpoint of x_i and that exit, d_i the
//   distance from m_i to S_t, and m_i is thrown away when d_i is "substantially shorter" than
//   |x_i - m_i| (here: below half of it: the ray left through a side, not across the sheet).
//   The exit is found by sphere tracing the grid's signed distance (exact enough: "we do not
//   need much accuracy"), but an exit the grid finds is confirmed with S's own distance before
//   it counts: S's vertices are refined off the grid's linear zero crossing (contourGrid.ts),
//   up to a tenth of a cell outside the grid's zero set where a moving surface wrinkles, and a
//   ray from such a vertex read "outside" at its first step. A sloshing tank then made medial
//   particles of radius 0.05 cells all over its surface, and their mesh padding (gamma_mesh
//   over 4 finest edges each) grew bumps of 40-75 mm on a 30 mm wave.
// 3.4.2 Mesh thickening: f* = f + offset with
//   offset(p) = sum_i W(p - m_i, h) (gamma_mesh - d_i) / sum_i W(p - m_i, h),
//   W the poly6 kernel (Mueller et al. 2003), gamma_mesh = 0.6 and h = 4 leaf edges, over the
//   particles found with gamma = 1.2 leaf edges of the mesh. In this repository's sign
//   convention (negative inside) that is f - offset. The offset is kept >= 0: it only thickens.
//   It is sampled every leaf edge and interpolated (MeshOffset says why).
// 3.4.3 Surface thickening: the particles found with gamma = 1.2 contouring cells are advected
//   forward over the step (second-order Runge-Kutta), split into Q_small (d_i <= beta = gamma/2)
//   and Q_big; each small particle gives its radius to the big ones within r_redis (each
//   gains d_s / |Q_near|) and is deleted; big ones then grow by r_ib = 0.25 cells and the
//   remaining small ones by r_is = 0.15 cells. Their implicit surface L_par (Zhu and Bridson
//   2005: |p - xbar| - rbar with kernel-weighted mean centre and radius) is united with f+ by
//   min (the paper's max, positive inside).
import type { ContouredSurface } from './contourGrid'
import type { MeshVelocity } from './meshVelocity'
import { ParticleHash } from './particleHash'

export interface MedialParticles {
  /** xyz per particle. */
  positions: Float64Array
  /** d_i per particle: distance from the medial point to the surface (the radius). */
  radii: Float64Array
  count: number
}

/**
 * Medial-axis particles of the thin parts of S (section 3.4.1), for the thinness `gamma` (m).
 * `room` is negative where liquid may be (inside the box, outside obstacles): S's vertices
 * within half a cell of a wall or beyond it are where the liquid touches the wall, not a free
 * surface, so they shoot no ray, and a ray that runs into a wall has found no thin sheet (the
 * wall is not the liquid's surface).
 */
export function medialParticles(surface: ContouredSurface, normals: Float32Array, gamma: number, room: (x: number, y: number, z: number) => number): MedialParticles {
  const p = surface.positions
  const nv = p.length / 3
  const pos: number[] = [], rad: number[] = []
  const tol = 0.05 * surface.grid.h
  for (let i = 0; i < nv; i++) {
    const nx = -normals[3 * i], ny = -normals[3 * i + 1], nz = -normals[3 * i + 2]
    const len = Math.hypot(nx, ny, nz)
    if (!(len > 0)) continue
    const dx = nx / len, dy = ny / len, dz = nz / len
    const x0 = p[3 * i], y0 = p[3 * i + 1], z0 = p[3 * i + 2]
    if (room(x0, y0, z0) > -0.5 * surface.grid.h) continue
    // Into the liquid: step past the start, then sphere-trace until the distance turns >= 0.
    let s = Math.max(tol, 0.1 * surface.grid.h)
    let hit = -1
    while (s <= gamma) {
      if (room(x0 + s * dx, y0 + s * dy, z0 + s * dz) > 0) break
      let f = surface.estimate(x0 + s * dx, y0 + s * dy, z0 + s * dz)
      // An exit by the grid is confirmed by S's own distance (see the function comment).
      if (f >= -tol) f = surface.distance(x0 + s * dx, y0 + s * dy, z0 + s * dz)
      if (f >= -tol) {
        hit = s
        break
      }
      s += Math.max(-f, tol)
    }
    if (hit < 0) continue
    const mx = x0 + 0.5 * hit * dx, my = y0 + 0.5 * hit * dy, mz = z0 + 0.5 * hit * dz
    const d = Math.abs(surface.distance(mx, my, mz))
    if (d < 0.25 * hit) continue // substantially shorter than |x_i - m_i| = hit / 2
    pos.push(mx, my, mz)
    rad.push(d)
  }
  return { positions: Float64Array.from(pos), radii: Float64Array.from(rad), count: rad.length }
}


/** The mesh-thickening offset of section 3.4.2 at points, or null when no particle is thin. */
export class MeshOffset {
  private readonly hash: ParticleHash
  /** gamma_mesh - d_i per particle: what the kernel averages. */
  private readonly deficit: Float64Array
  /**
   * The offset sampled on a grid every quarter of the kernel radius (one finest edge at the
   * paper's h), filled as the mesher asks, and read trilinearly. The sum runs over hundreds
   * of particles a point, and the mesher evaluates many points per finest edge (lattice
   * vertices, cut-point iterations), so summing at every one of them was a quarter of a dam
   * break's time; the offset varies over the kernel's radius, not less.
   */
  private readonly origin: [number, number, number] = [0, 0, 0]
  private readonly dims: [number, number, number] = [0, 0, 0]
  private readonly cell: number
  private readonly nodes: Float64Array

  constructor(particles: MedialParticles, readonly gammaMesh: number, private readonly h: number) {
    this.hash = new ParticleHash(particles.positions, h)
    this.deficit = particles.radii.map((r) => gammaMesh - r)
    this.cell = h / 4
    const p = particles.positions
    if (particles.count === 0) {
      this.nodes = new Float64Array(0)
      return
    }
    for (let a = 0; a < 3; a++) {
      let lo = Infinity, hi = -Infinity
      for (let i = a; i < p.length; i += 3) {
        lo = Math.min(lo, p[i])
        hi = Math.max(hi, p[i])
      }
      this.origin[a] = lo - h - this.cell
      this.dims[a] = Math.ceil((hi - lo + 2 * h) / this.cell) + 3
    }
    this.nodes = new Float64Array(this.dims[0] * this.dims[1] * this.dims[2]).fill(NaN)
  }

  /** offset(p) >= 0 (0 beyond every particle's kernel), at most gammaMesh. */
  at(x: number, y: number, z: number): number {
    if (this.nodes.length === 0) return 0
    const c = this.cell, [nx, ny, nz] = this.dims
    const fx = (x - this.origin[0]) / c, fy = (y - this.origin[1]) / c, fz = (z - this.origin[2]) / c
    const i = Math.floor(fx), j = Math.floor(fy), k = Math.floor(fz)
    if (i < 0 || j < 0 || k < 0 || i >= nx - 1 || j >= ny - 1 || k >= nz - 1) return 0
    const tx = fx - i, ty = fy - j, tz = fz - k
    let v = 0
    for (let q = 0; q < 8; q++) {
      const di = q & 1, dj = (q >> 1) & 1, dk = q >> 2
      const w = (di ? tx : 1 - tx) * (dj ? ty : 1 - ty) * (dk ? tz : 1 - tz)
      if (w !== 0) v += w * this.node(i + di, j + dj, k + dk)
    }
    return v
  }

  /** The paper's offset at grid node (i, j, k), computed on first use. */
  private node(i: number, j: number, k: number): number {
    const n = i + this.dims[0] * (j + this.dims[1] * k)
    let v = this.nodes[n]
    if (v !== v) {
      const c = this.cell
      const mean = this.hash.poly6Mean(this.origin[0] + i * c, this.origin[1] + j * c, this.origin[2] + k * c, this.h, this.deficit)
      v = mean > 0 ? mean : 0
      this.nodes[n] = v
    }
    return v
  }
}

export interface SurfaceThickeningSettings {
  /** Contouring cell, m. */
  cell: number
  /** gamma, m. */
  gamma: number
  /** r_redis, m. */
  redistribute: number
  /** beta / gamma (the paper: 0.5). */
  split: number
  /** r_ib and r_is, m (the paper: 0.25 and 0.15 cells). */
  growThick: number
  growThin: number
}

/**
 * Section 3.4.3: the particles advected over dt, redistributed and grown; returns the
 * implicit surface's sampler (negative inside), or null when there are none.
 */
export function particleSurface(particles: MedialParticles, velocity: MeshVelocity, dt: number, s: SurfaceThickeningSettings): ((x: number, y: number, z: number) => number) | null {
  const n = particles.count
  if (n === 0) return null
  const pos = new Float64Array(3 * n)
  const v = new Float64Array(3)
  for (let i = 0; i < n; i++) {
    const x = particles.positions[3 * i], y = particles.positions[3 * i + 1], z = particles.positions[3 * i + 2]
    // Forward midpoint rule: the backtrace of -dt is the forward step.
    velocity.fast(x, y, z, v, 0)
    const mx = x + 0.5 * dt * v[0], my = y + 0.5 * dt * v[1], mz = z + 0.5 * dt * v[2]
    velocity.fast(mx, my, mz, v, 0)
    pos[3 * i] = x + dt * v[0]
    pos[3 * i + 1] = y + dt * v[1]
    pos[3 * i + 2] = z + dt * v[2]
  }
  const r = Float64Array.from(particles.radii)
  const beta = s.split * s.gamma
  const alive = new Uint8Array(n).fill(1)
  if (s.redistribute > 0) {
    const big = new ParticleHash(pos, s.redistribute)
    const near: number[] = []
    for (let i = 0; i < n; i++) {
      if (particles.radii[i] > beta) continue
      near.length = 0
      big.forNear(pos[3 * i], pos[3 * i + 1], pos[3 * i + 2], s.redistribute, (j) => {
        if (particles.radii[j] > beta) near.push(j)
      })
      if (near.length === 0) continue
      for (const j of near) r[j] += particles.radii[i] / near.length
      alive[i] = 0
    }
  }
  let live = 0
  for (let i = 0; i < n; i++) {
    if (!alive[i]) continue
    r[i] += particles.radii[i] > beta ? s.growThick : s.growThin
    pos[3 * live] = pos[3 * i]; pos[3 * live + 1] = pos[3 * i + 1]; pos[3 * live + 2] = pos[3 * i + 2]
    r[live] = r[i]
    live++
  }
  const P = pos.slice(0, 3 * live), R = r.slice(0, live)
  let rmax = 0
  for (let i = 0; i < live; i++) rmax = Math.max(rmax, R[i])
  // Zhu and Bridson's kernel radius: twice the largest radius, at least two cells.
  const support = Math.max(2 * s.cell, 2 * rmax)
  const hash = new ParticleHash(P, support)
  return (x, y, z) => hash.zhuBridson(x, y, z, support, R)
}
