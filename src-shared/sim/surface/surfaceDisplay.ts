// What a surface flow hands to the cache each frame (frame.ts):
//   - the subdivided surface as a triangle mesh: every patch a (M+1)^2 grid of limit-surface
//     points (M = cells per patch, at most 32), posed by the cage's transform, with per-vertex
//     attributes sampled from the cell fields (colour, density, and the fields themselves);
//   - per-patch textures: the cell values of every patch as an N x N RGB image (the paper's
//     program drew the flow as textures on the patches), for PNG atlases;
//   - the density as a regular volume (frame.ts's rule for unstructured families): each
//     cell's value splatted, area-weighted, into the voxel holding its centre, a shell one
//     voxel thick.
import { evaluateLimit } from '../../geometry/catmullClarkEval'
import type { Vec3 } from '../../scene/types'
import type { FrameMesh, Volume } from '../frame'
import type { SurfaceFluid } from './surfaceFluid'

/** Display vertices per patch edge are at most this many cells (a 450-patch cage stays under half a million vertices). */
export const MAX_DISPLAY_CELLS = 32
/** Voxels along the longest side of the density shell. */
export const SHELL_VOXELS = 64

export interface SurfacePose {
  position: Vec3
  /** Row-major rotation. */
  rotation: Float64Array
}

export class SurfaceDisplay {
  readonly M: number
  /** Local positions and normals of the display vertices, patch by patch, (M+1)^2 each. */
  readonly localPositions: Float64Array
  readonly localNormals: Float64Array
  readonly indices: Uint32Array
  /** Parameters of each display vertex in its patch. */
  private readonly patchOf: Int32Array
  private readonly uv: Float64Array

  constructor(readonly fluid: SurfaceFluid) {
    const { P, N } = fluid.grid
    const M = Math.min(N, MAX_DISPLAY_CELLS)
    this.M = M
    const V = (M + 1) * (M + 1)
    this.localPositions = new Float64Array(3 * P * V)
    this.localNormals = new Float64Array(3 * P * V)
    this.patchOf = new Int32Array(P * V)
    this.uv = new Float64Array(2 * P * V)
    this.indices = new Uint32Array(6 * P * M * M)
    let v = 0, t = 0
    for (let p = 0; p < P; p++) {
      const base = v
      for (let b = 0; b <= M; b++) for (let a = 0; a <= M; a++, v++) {
        const s = evaluateLimit(fluid.surface, p, a / M, b / M)
        this.localPositions.set(s.position, 3 * v)
        this.localNormals.set(s.normal, 3 * v)
        this.patchOf[v] = p
        this.uv[2 * v] = a / M
        this.uv[2 * v + 1] = b / M
      }
      // Counter-clockwise seen from the normal du x dv side.
      for (let b = 0; b < M; b++) for (let a = 0; a < M; a++) {
        const i00 = base + a + (M + 1) * b, i10 = i00 + 1, i01 = i00 + M + 1, i11 = i01 + 1
        this.indices.set([i00, i10, i11, i00, i11, i01], t)
        t += 6
      }
    }
  }

  get vertexCount(): number {
    return this.patchOf.length
  }

  /** A cell field sampled at every display vertex (bilinear between cell centres, ghosts filled). */
  sample(field: Float64Array, out: Float32Array, stride = 1, offset = 0): Float32Array {
    const sampler = this.fluid.sampler
    for (let v = 0; v < this.patchOf.length; v++) out[stride * v + offset] = sampler.cellValue(field, this.patchOf[v], this.uv[2 * v], this.uv[2 * v + 1])
    return out
  }

  /** The display mesh posed in world space with the given per-vertex attributes. */
  mesh(name: string, pose: SurfacePose, attributes: FrameMesh['attributes']): FrameMesh {
    const n = this.patchOf.length
    const positions = new Float32Array(3 * n), normals = new Float32Array(3 * n)
    const R = pose.rotation, t = pose.position
    const lp = this.localPositions, ln = this.localNormals
    for (let v = 0; v < n; v++) {
      const x = lp[3 * v], y = lp[3 * v + 1], z = lp[3 * v + 2]
      positions[3 * v] = t[0] + R[0] * x + R[1] * y + R[2] * z
      positions[3 * v + 1] = t[1] + R[3] * x + R[4] * y + R[5] * z
      positions[3 * v + 2] = t[2] + R[6] * x + R[7] * y + R[8] * z
      const a = ln[3 * v], b = ln[3 * v + 1], c = ln[3 * v + 2]
      normals[3 * v] = R[0] * a + R[1] * b + R[2] * c
      normals[3 * v + 1] = R[3] * a + R[4] * b + R[5] * c
      normals[3 * v + 2] = R[6] * a + R[7] * b + R[8] * c
    }
    return { name, positions, indices: this.indices.slice(), normals, attributes }
  }

  /**
   * A cell field as a regular volume: each real cell's value, weighted by its area, averaged
   * into the voxel holding its world centre; voxels the surface misses are 0.
   */
  shell(name: string, field: Float64Array, pose: SurfacePose): Volume {
    const { grid, metric } = this.fluid
    const { N, P } = grid
    const R = pose.rotation, t = pose.position
    const world = new Float64Array(3 * P * N * N)
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity]
    let q = 0
    for (let p = 0; p < P; p++) for (let j = 0; j < N; j++) for (let i = 0; i < N; i++, q++) {
      const c = grid.cell(p, i, j), x = metric.positions[3 * c], y = metric.positions[3 * c + 1], z = metric.positions[3 * c + 2]
      for (let a = 0; a < 3; a++) {
        const w = t[a] + R[3 * a] * x + R[3 * a + 1] * y + R[3 * a + 2] * z
        world[3 * q + a] = w
        if (w < lo[a]) lo[a] = w
        if (w > hi[a]) hi[a] = w
      }
    }
    const span = Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2], 1e-6)
    const voxel = span / (SHELL_VOXELS - 1)
    // Half a voxel of margin on every side so no centre lands on the far boundary.
    const origin: Vec3 = [lo[0] - voxel / 2, lo[1] - voxel / 2, lo[2] - voxel / 2]
    const dims: [number, number, number] = [0, 0, 0]
    for (let a = 0; a < 3; a++) dims[a] = Math.max(1, Math.floor((hi[a] - origin[a]) / voxel) + 1)
    const sum = new Float32Array(dims[0] * dims[1] * dims[2]), weight = new Float32Array(sum.length)
    q = 0
    for (let p = 0; p < P; p++) for (let j = 0; j < N; j++) for (let i = 0; i < N; i++, q++) {
      const c = grid.cell(p, i, j)
      const vi = Math.min(dims[0] - 1, Math.floor((world[3 * q] - origin[0]) / voxel))
      const vj = Math.min(dims[1] - 1, Math.floor((world[3 * q + 1] - origin[1]) / voxel))
      const vk = Math.min(dims[2] - 1, Math.floor((world[3 * q + 2] - origin[2]) / voxel))
      const k = vi + dims[0] * (vj + dims[1] * vk)
      const a = metric.cells.sqrtG[c]
      sum[k] += a * field[c]
      weight[k] += a
    }
    for (let k = 0; k < sum.length; k++) sum[k] = weight[k] > 0 ? sum[k] / weight[k] : 0
    return { name, components: 1, dims, voxelSize: voxel, origin, data: sum }
  }

  /** Per-patch N x N images of three cell fields (RGB), patch after patch, row j after row j. */
  textures(r: Float64Array, g: Float64Array, b: Float64Array): Float32Array {
    const { grid } = this.fluid
    const { N, P } = grid
    const out = new Float32Array(3 * P * N * N)
    let q = 0
    for (let p = 0; p < P; p++) for (let j = 0; j < N; j++) for (let i = 0; i < N; i++, q++) {
      const c = grid.cell(p, i, j)
      out[3 * q] = r[c]
      out[3 * q + 1] = g[c]
      out[3 * q + 2] = b[c]
    }
    return out
  }
}

/** Display colour (linear RGB) and density per cell. */
export interface CellColours {
  r: Float64Array
  g: Float64Array
  b: Float64Array
  density: Float64Array
}

/**
 * Paint over a base colour: the three densities are red, green and blue pigment. Strength s is
 * the largest; coverage 1 - exp(-4 s) mixes the paint's hue (rho / s) over the base, so
 * full-strength paint shows its own colour and thin paint lets the base through.
 */
export function paintColours(fluid: SurfaceFluid, base: readonly number[], out?: CellColours): CellColours {
  const D = fluid.density
  const c = out ?? newColours(fluid)
  for (let k = 0; k < c.r.length; k++) {
    const R = D[0][k], G = D[1][k], B = D[2][k]
    const s = Math.max(R, G, B)
    const cover = s > 0 ? 1 - Math.exp(-4 * s) : 0
    c.r[k] = base[0] * (1 - cover) + (s > 0 ? (cover * R) / s : 0)
    c.g[k] = base[1] * (1 - cover) + (s > 0 ? (cover * G) / s : 0)
    c.b[k] = base[2] * (1 - cover) + (s > 0 ? (cover * B) / s : 0)
    c.density[k] = R + G + B
  }
  return c
}

/** Reaction-diffusion: v from 0 to about 0.4 runs from a pale ground to a dark ink. */
export function patternColours(fluid: SurfaceFluid, out?: CellColours): CellColours {
  const V = fluid.density[1]
  const c = out ?? newColours(fluid)
  for (let k = 0; k < c.r.length; k++) {
    const v = V[k], s = v <= 0 ? 0 : v >= 0.4 ? 1 : v / 0.4
    c.r[k] = 0.85 - 0.77 * s
    c.g[k] = 0.8 - 0.74 * s
    c.b[k] = 0.7 - 0.64 * s
    c.density[k] = v
  }
  return c
}

function newColours(fluid: SurfaceFluid): CellColours {
  const g = fluid.grid
  return { r: g.newCells(), g: g.newCells(), b: g.newCells(), density: g.newCells() }
}
