// What a solver hands out per frame: the cache stores it, the viewport draws it, exporters
// write it. Plain data over typed arrays (copies, never views of live solver state), so a
// frame can be posted to another thread or written to disk as is.
//
// The rule for unstructured fields: the raymarcher and the OpenVDB exporter understand only
// regular grids, so a family whose native fields live on something else (tetrahedral meshes,
// surface patches, particles with kernels) must ALSO hand out a resampled regular `Volume`
// for every field the viewport or VDB export should see (at least the display density,
// normally 'density'). resampleToVolume (./resample.ts) builds one from a sampling callback;
// requireRegularVolumes (same file) is the check a family's tests run on its frames. The
// native data may be cached beside it: as named meshes with per-vertex attributes (surface
// patches, tetrahedral boundaries) or particle sets with attributes (nodes, samples).
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

/**
 * A per-vertex field of a mesh: `components` values per vertex, interleaved. Scalars (density,
 * temperature) and vec3s (velocity; 'color' is linear RGB in [0, 1], drawn and exported as
 * the vertex colour rather than as a vector).
 */
export interface MeshAttribute {
  components: 1 | 3
  data: Float32Array
}

/**
 * Meshes named with this prefix are for the viewport only (a family's diagnostic views, such as
 * the tetrahedral liquid's cut-away of its tetrahedra): cached and drawn on request, never
 * exported.
 */
export const DISPLAY_ONLY_MESH = 'display:'

export function isDisplayOnlyMesh(m: { name: string }): boolean {
  return m.name.startsWith(DISPLAY_ONLY_MESH)
}

export interface FrameMesh {
  name: string
  positions: Float32Array
  indices: Uint32Array
  normals?: Float32Array
  attributes?: Record<string, MeshAttribute>
}

/** Unit quaternion x, y, z, w (w the scalar part), rotating body-local axes into world axes. */
export type Quat = [number, number, number, number]

/**
 * One rigid body at this frame. The body carries its own local-space mesh (stored once per
 * frame record, with the body): world = position + rotate(orientation, local). Keeping the
 * triangles with the pose, rather than naming a mesh elsewhere, means every frame record is
 * self-contained, so the viewport and exporters can pose any single frame on its own.
 */
export interface RigidBodyState {
  /** Stable across frames (the scene object's id): exporters key animation tracks by it. */
  id: string
  name: string
  /** World position of the body's local origin (normally its centre of mass), m. */
  position: Vec3
  orientation: Quat
  /** m/s, world axes. */
  linearVelocity: Vec3
  /** rad/s, world axes. */
  angularVelocity: Vec3
  /** Body-local triangles, m; its normals and vector attributes are in body axes too. */
  mesh: FrameMesh
}

/**
 * A stack of same-sized images (`layers` of them): per-patch textures of a surface flow, one
 * layer per patch, `components` linear values per texel, texel (i, j) of layer l at
 * components * (i + width * (j + height * l)); j = 0 is the patch's v = 0 row.
 */
export interface FrameTexture {
  name: string
  width: number
  height: number
  layers: number
  components: 1 | 3
  data: Float32Array
}

export interface FrameData {
  /** Simulated seconds since the start of the bake. */
  time: number
  /** Animation frame this state belongs to (frame 1 is t = 0). */
  frame: number
  volumes: Volume[]
  meshes: FrameMesh[]
  particles: ParticleSet[]
  /** Absent or empty when the family simulates no rigid bodies. */
  rigidBodies?: RigidBodyState[]
  /** Absent or empty unless the family keeps per-patch textures (the surface flow). */
  textures?: FrameTexture[]
  /** Solver figures (substeps, iterations, timings); timings are not deterministic. */
  stats: Record<string, number>
}
