// What a solver hands out per frame: the cache stores it, the viewport draws it, exporters
// write it. Plain data over typed arrays (copies, never views of live solver state), so a
// frame can be posted to another thread or written to disk as is.
import type { Vec3 } from '../scene/types'

/** A cell-centred field on a regular grid. */
export interface Volume {
  /** 'density' | 'temperature' | 'velocity' (solvers may add others). */
  name: string
  components: 1 | 3
  dims: [number, number, number]
  /** Cell edge length, m. */
  voxelSize: number
  /** World position of cell (0,0,0)'s minimum corner, m. */
  origin: Vec3
  /** Cell-centred values, index i + nx*(j + ny*k), components interleaved. */
  data: Float32Array
}

export interface ParticleSet {
  name: string
  count: number
  /** xyz per particle, m. */
  positions: Float32Array
  /** Per-particle attributes, `components` values each, interleaved. */
  attributes: Record<string, { components: number; data: Float32Array }>
}

export interface FrameMesh {
  name: string
  positions: Float32Array
  indices: Uint32Array
  normals?: Float32Array
}

export interface FrameData {
  /** Simulated seconds since the start of the bake. */
  time: number
  /** Animation frame this state belongs to (frame 1 is t = 0). */
  frame: number
  volumes: Volume[]
  meshes: FrameMesh[]
  particles: ParticleSet[]
  /** Solver figures (substeps, iterations, timings); timings are not deterministic. */
  stats: Record<string, number>
}
