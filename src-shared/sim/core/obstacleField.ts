// Obstacles on the grid at one instant: the union of their signed distances at cell corners,
// cell solid fractions and face open fractions from it (Batty, Bertails, Bridson 2007 cut
// cells, solidFraction.ts), closed domain sides, and the obstacles' rigid velocity on the
// faces they touch (Carlson 2004, ch. 5: closed faces carry v + omega x r). Recomputed only
// when some obstacle's placement or velocity changed, so static scenes pay once.
import { EddyError } from '../../api/errors'
import { PrimitiveSdf } from '../../geometry/primitiveSdf'
import { sampleSdfGrid } from '../../geometry/signedDistance'
import { cubeNegativeFraction, faceOpenFractions } from '../../geometry/solidFraction'
import { computeFaceFractions, type DomainSides, openFlags, writeRigidObstacleVelocity } from './boundaries'
import { allocF32With, type AllocOptions, type GridSpec, MacGrid } from './grid'
import type { ObstacleInput } from '../solver'
import { PlacedSdf } from '../../geometry/placedSdf'

/** Face fractions below this are closed: a sliver face only makes the pressure system stiff. */
export const MIN_FACE_FRACTION = 1e-3

/** Values per obstacle in the change signature. */
const SIG = 16

/**
 * Closes the faces of closed domain sides (fraction 0) and slivers below MIN_FACE_FRACTION,
 * and zeroes obstacle velocity on closed sides (a wall does not move with an obstacle
 * touching it). open = openFlags(sides).
 */
/**
 * Cell solid fractions from corner SDFs (solidFraction.ts's Kuhn-triangulation integral),
 * averaged over the cube's four main diagonals. One Kuhn split picks the diagonal 000-111, so
 * for a curved or cornered surface a mirrored cell gets a different value (up to 0.13 at the
 * edge of a box): a left-right symmetric scene would not stay symmetric. The Kuhn split
 * depends only on its diagonal's line, and the cube's symmetries permute the four lines, so
 * the average is invariant under them; it is still exact for affine phi. Cells whose corners
 * all agree in sign (almost all) skip the integral. Cell planes [k0, k1).
 */
export function symmetricCellFractions(phi: Float32Array, nx: number, ny: number, out: Float32Array, k0: number, k1: number): void {
  const sx = nx + 1, sxy = (nx + 1) * (ny + 1)
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < ny; j++) {
      let c = sx * j + sxy * k
      let o = nx * (j + ny * k)
      for (let i = 0; i < nx; i++, c++, o++) {
        const a = phi[c], b = phi[c + 1], d = phi[c + sx], e = phi[c + sx + 1]
        const f = phi[c + sxy], g = phi[c + sxy + 1], h = phi[c + sxy + sx], q = phi[c + sxy + sx + 1]
        const neg = (a < 0 ? 1 : 0) + (b < 0 ? 1 : 0) + (d < 0 ? 1 : 0) + (e < 0 ? 1 : 0) + (f < 0 ? 1 : 0) + (g < 0 ? 1 : 0) + (h < 0 ? 1 : 0) + (q < 0 ? 1 : 0)
        if (neg === 0) out[o] = 0
        else if (neg === 8) out[o] = 1
        else {
          // p000 p100 p010 p110 p001 p101 p011 p111, then mirrored in x, y and z.
          out[o] =
            0.25 *
            (cubeNegativeFraction(a, b, d, e, f, g, h, q) +
              cubeNegativeFraction(b, a, e, d, g, f, q, h) +
              cubeNegativeFraction(d, e, a, b, h, q, f, g) +
              cubeNegativeFraction(f, g, h, q, a, b, d, e))
        }
      }
    }
  }
}

function closeSlivers(f: Float32Array): void {
  for (let i = 0; i < f.length; i++) if (f[i] < MIN_FACE_FRACTION) f[i] = 0
}

export function applySidesAndSlivers(fu: Float32Array, fv: Float32Array, fw: Float32Array, obs: MacGrid, open: Uint8Array, nx: number, ny: number, nz: number): void {
  closeSlivers(fu)
  closeSlivers(fv)
  closeSlivers(fw)
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) {
      const row = (nx + 1) * (j + ny * k)
      if (!open[0]) { fu[row] = 0; obs.u[row] = 0 }
      if (!open[1]) { fu[row + nx] = 0; obs.u[row + nx] = 0 }
    }
    for (let i = 0; i < nx; i++) {
      const lo = i + nx * (ny + 1) * k
      const hi = lo + nx * ny
      if (!open[2]) { fv[lo] = 0; obs.v[lo] = 0 }
      if (!open[3]) { fv[hi] = 0; obs.v[hi] = 0 }
    }
  }
  const top = nx * ny * nz
  for (let c = 0; c < nx * ny; c++) {
    if (!open[4]) { fw[c] = 0; obs.w[c] = 0 }
    if (!open[5]) { fw[top + c] = 0; obs.w[top + c] = 0 }
  }
}

/** out[c] = 1 where all six faces of cell c are closed (fraction 0), else 0. */
export function enclosedCells(fractions: MacGrid, nx: number, ny: number, nz: number, out: Float32Array): void {
  const { u, v, w } = fractions
  const vPlane = nx * (ny + 1), wPlane = nx * ny
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) {
      const uRow = (nx + 1) * (j + ny * k)
      const vRow = nx * j + vPlane * k
      const wRow = nx * j + wPlane * k
      for (let i = 0; i < nx; i++) {
        const closed = u[uRow + i] <= 0 && u[uRow + i + 1] <= 0 && v[vRow + i] <= 0 && v[vRow + i + nx] <= 0 && w[wRow + i] <= 0 && w[wRow + i + wPlane] <= 0
        out[i + nx * (j + ny * k)] = closed ? 1 : 0
      }
    }
  }
}

export class ObstacleField {
  readonly spec: GridSpec
  readonly sides: DomainSides
  private readonly open: Uint8Array
  /** Union signed distance at the (nx+1)(ny+1)(nz+1) cell corners, clamped to +-band. */
  readonly phi: Float32Array
  /** Cell solid volume fractions. */
  readonly solid: Float32Array
  /**
   * 1 in cells none of whose six faces is open, else 0: the velocity's advection mask. The
   * cell mask `solid` (>= SOLID_THRESHOLD) would also freeze the open faces of a sliver of
   * fluid between the grid and an obstacle (a box side cutting cells at 0.2 of their width):
   * a face that neither advection nor its own weight in the pressure solve (its fraction)
   * ties to the flow then grows without bound as the projection pushes on it every substep.
   */
  readonly enclosed: Float32Array
  /** Face open fractions (0 closed .. 1 open), the pressure solve's weights. */
  readonly fractions: MacGrid
  /** Normal velocity of moving obstacles on the faces they touch (0 elsewhere). */
  readonly velocity: MacGrid
  /** Some obstacle exists. */
  hasObstacles = false
  /** velocity or solid may hold nonzero values (else both are all zero, as allocated). */
  private written = false
  /** Some obstacle moves (velocity must go into the boundary condition). */
  moving = false
  /** Changes whenever the fields are rebuilt (fractions rewritten): PressureSolver's fractionsVersion. */
  version = 0
  private readonly band: number
  private readonly phiOne: Float32Array
  private readonly solidOne: Float32Array
  private readonly placed: PlacedSdf[] = []
  private readonly primitiveKeys: Float64Array[] = []
  private sig = new Float64Array(0)
  private sigMeshes: unknown[] = []
  private valid = false
  private readonly cornerOut = new Float64Array(3)

  /** alloc: where the fields the grid kernels read live (solid, fractions, velocity). */
  constructor(spec: GridSpec, sides: DomainSides, alloc: AllocOptions = {}) {
    const { nx, ny, nz } = spec
    this.spec = spec
    this.sides = sides
    this.open = openFlags(sides)
    this.band = 3 * spec.dx // >= sqrt(3) dx, as solidFraction.ts needs
    const corners = (nx + 1) * (ny + 1) * (nz + 1)
    this.phi = new Float32Array(corners)
    this.phiOne = new Float32Array(corners)
    this.solid = allocF32With(nx * ny * nz, alloc)
    this.solidOne = new Float32Array(nx * ny * nz)
    this.enclosed = allocF32With(nx * ny * nz, alloc)
    this.fractions = new MacGrid(spec, alloc)
    this.velocity = new MacGrid(spec, alloc)
  }

  /** Forgets the cache (after restore), so the next update recomputes. */
  invalidate(): void {
    this.valid = false
  }

  /**
   * Places every obstacle at `s` simulated seconds after its input's time (transform +
   * rate * s) and rebuilds the fields if anything changed. Returns whether it rebuilt.
   */
  update(obstacles: readonly ObstacleInput[], s: number): boolean {
    const n = obstacles.length
    if (this.sig.length !== n * SIG) {
      this.sig = new Float64Array(n * SIG)
      this.sigMeshes = new Array(n).fill(null)
      this.valid = false
    }
    let same = this.valid
    const sig = this.sig
    for (let o = 0; o < n; o++) {
      const ob = obstacles[o]
      const b = o * SIG
      const code = ob.shape === 'box' ? 0 : ob.shape === 'sphere' ? 1 : ob.shape === 'cylinder' ? 2 : 3
      for (let q = 0; q < SIG; q++) {
        const a = q - 1
        const value =
          q === 0 ? code
          : q < 4 ? ob.position[a] + ob.positionRate[a] * s
          : q < 7 ? ob.rotation[a - 3] + ob.rotationRate[a - 3] * s
          : q < 10 ? ob.scale[a - 6] + ob.scaleRate[a - 6] * s
          : q < 13 ? ob.linearVelocity[a - 9]
          : ob.angularVelocity[a - 12]
        if (sig[b + q] !== value) {
          same = false
          sig[b + q] = value
        }
      }
      if (this.sigMeshes[o] !== ob.mesh) {
        same = false
        this.sigMeshes[o] = ob.mesh
      }
    }
    if (same) return false
    this.rebuild(obstacles)
    this.valid = true
    return true
  }

  private placedFor(o: number, ob: ObstacleInput, sig: Float64Array, b: number): PlacedSdf {
    const sx = Math.max(sig[b + 7], 1e-6), sy = Math.max(sig[b + 8], 1e-6), sz = Math.max(sig[b + 9], 1e-6)
    let placed = this.placed[o]
    if (ob.shape === 'mesh') {
      if (!ob.mesh) throw new EddyError('INVALID_PARAM', `Obstacle "${ob.name}" has shape Mesh but no mesh`, { objectId: ob.id, field: 'meshId' })
      if (!placed) placed = this.placed[o] = new PlacedSdf(ob.mesh)
      placed.inner = ob.mesh
      this.primitiveKeys[o] = new Float64Array(0)
      placed.place(sig[b + 1], sig[b + 2], sig[b + 3], sig[b + 4], sig[b + 5], sig[b + 6], sx, sy, sz)
      return placed
    }
    // A primitive is rebuilt only when its shape or scale changes; rigid motion is the placement.
    const key = this.primitiveKeys[o]
    if (!placed || !key || key.length !== 4 || key[0] !== sig[b] || key[1] !== sx || key[2] !== sy || key[3] !== sz) {
      const prim = new PrimitiveSdf(ob.shape, { position: [0, 0, 0], rotation: [0, 0, 0], scale: [sx, sy, sz] })
      if (!placed) placed = this.placed[o] = new PlacedSdf(prim)
      placed.inner = prim
      this.primitiveKeys[o] = Float64Array.of(sig[b], sx, sy, sz)
    }
    placed.place(sig[b + 1], sig[b + 2], sig[b + 3], sig[b + 4], sig[b + 5], sig[b + 6], 1, 1, 1)
    return placed
  }

  private rebuild(obstacles: readonly ObstacleInput[]): void {
    const { spec, band, phi, phiOne, solid, fractions, velocity } = this
    this.version++
    const { nx, ny, nz } = spec
    // Zeroed only when something was written since: an empty domain then never writes (and
    // the system never commits) the 3 face grids and the cell grid of zeros.
    if (this.written) velocity.fill(0)
    this.hasObstacles = obstacles.length > 0
    this.moving = false
    if (!this.hasObstacles) {
      phi.fill(band)
      if (this.written) {
        solid.fill(0)
        this.enclosed.fill(0)
      }
      this.written = false
      computeFaceFractions(null, this.sides, fractions)
      return
    }
    this.written = true
    phi.fill(band)
    for (let o = 0; o < obstacles.length; o++) {
      const ob = obstacles[o]
      const placed = this.placedFor(o, ob, this.sig, o * SIG)
      // Only the corner layers near the obstacle's (rotated) bounds are sampled.
      const [k0, k1] = this.layerRange(placed)
      if (k0 >= k1) continue
      phiOne.fill(band)
      sampleSdfGrid(placed, spec, phiOne, { at: 'corner', band, kBegin: k0, kEnd: k1 })
      const start = k0 * (nx + 1) * (ny + 1)
      const end = k1 * (nx + 1) * (ny + 1)
      for (let c = start; c < end; c++) if (phiOne[c] < phi[c]) phi[c] = phiOne[c]
      const lin = ob.linearVelocity
      const ang = ob.angularVelocity
      if (lin[0] !== 0 || lin[1] !== 0 || lin[2] !== 0 || ang[0] !== 0 || ang[1] !== 0 || ang[2] !== 0) {
        this.moving = true
        symmetricCellFractions(phiOne, nx, ny, this.solidOne, 0, nz)
        const b = o * SIG
        writeRigidObstacleVelocity(velocity, this.solidOne, [this.sig[b + 1], this.sig[b + 2], this.sig[b + 3]], lin, ang)
      }
    }
    symmetricCellFractions(phi, nx, ny, solid, 0, nz)
    faceOpenFractions(phi, spec, fractions)
    applySidesAndSlivers(fractions.u, fractions.v, fractions.w, velocity, this.open, nx, ny, nz)
    enclosedCells(fractions, nx, ny, nz, this.enclosed)
  }

  /** Corner layers [k0, k1) within band of the obstacle's world bounds. */
  private layerRange(placed: PlacedSdf): [number, number] {
    const { nz, dx, origin } = this.spec
    const inner = placed.inner as { bounds?: { min: ArrayLike<number>; max: ArrayLike<number> } }
    if (!inner.bounds) return [0, nz + 1]
    let zMin = Infinity, zMax = -Infinity
    for (let c = 0; c < 8; c++) {
      placed.corner(inner.bounds.min, inner.bounds.max, c, this.cornerOut)
      zMin = Math.min(zMin, this.cornerOut[2])
      zMax = Math.max(zMax, this.cornerOut[2])
    }
    const k0 = Math.max(0, Math.floor((zMin - this.band - origin[2]) / dx))
    const k1 = Math.min(nz + 1, Math.ceil((zMax + this.band - origin[2]) / dx) + 1)
    return [k0, k1]
  }
}
