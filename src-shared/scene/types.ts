// The scene document: what an artist authors and what the project file stores.
// Pure data (JSON-serialisable), no behaviour: specs.ts describes each parameter,
// keyframes.ts evaluates animation, validate.ts checks values against the specs.

import type { CageGeometry } from '../geometry/cageGeometry'
import type { Vec3 } from '../geometry/vec3'

export type { Vec3 } from '../geometry/vec3'
export type { CageGeometry } from '../geometry/cageGeometry'

export const OBJECT_KINDS = ['domain', 'obstacle', 'emitter', 'vortexSeed', 'ccCage', 'heatSource', 'rigidBody'] as const
export type ObjectKind = (typeof OBJECT_KINDS)[number]

/** A parameter value: numbers (float or int), enum strings, booleans, 3-vectors. */
export type ParamValue = number | string | boolean | Vec3

export interface SceneObject {
  id: string
  kind: ObjectKind
  name: string
  /** Keyed by the parameter keys of specs.ts for this kind (position, rotation, scale, ...). */
  params: Record<string, ParamValue>
  /** Catmull-Clark cages only. */
  cage?: CageGeometry
  /** Obstacles, emitters and rigid bodies whose shape is 'mesh': the imported mesh they use. */
  meshId?: string
  /** Hidden in the viewport (the outliner's eye, kept in the project as Blender keeps it); simulations still read it. */
  hidden?: boolean
  /** Simulation hosts: parameter sweeps baked as variants (sim/wedge.ts). */
  wedges?: Wedge[]
}

/** Values of one wedged channel: a list, or `count` evenly spaced from `start` to `stop`. */
export interface WedgeParameter {
  objectId: string
  /** A channel path: "rate", or "position.1" for a vector component. */
  path: string
  values?: number[]
  range?: { start: number; stop: number; count: number }
}

export interface Wedge {
  id: string
  name: string
  parameters: WedgeParameter[]
  /** Product numbers (1-based) to bake; all of them when absent. */
  subset?: number[]
}


export const INTERPOLATIONS = ['constant', 'linear', 'bezier'] as const
export type Interpolation = (typeof INTERPOLATIONS)[number]

/**
 * One key. `interp` governs the segment from this key to the next one (Blender's convention).
 * Bezier handles are absolute (frame, value) points; when absent they are computed
 * automatically (Blender's "auto clamped": flat at extremes, no overshoot).
 */
export interface Keyframe {
  frame: number
  value: number
  interp: Interpolation
  handleLeft?: [number, number]
  handleRight?: [number, number]
}

/**
 * Animation of one numeric channel. `path` is a parameter key ("rate") or, for a vector
 * parameter, the key and a component index ("position.1" is position y).
 */
export interface Track {
  objectId: string
  path: string
  keys: Keyframe[]
}

export interface ProjectMeta {
  name: string
  fps: number
  frameStart: number
  frameEnd: number
}

export const MESH_FORMATS = ['obj', 'stl', 'gltf', 'glb'] as const
export type MeshFormat = (typeof MESH_FORMATS)[number]

/** An imported triangle mesh; the triangles themselves are fetched separately (mesh.data). */
export interface MeshInfo {
  id: string
  name: string
  format: MeshFormat
  vertexCount: number
  triangleCount: number
  bounds: { min: Vec3; max: Vec3 }
}

export interface SceneDocument {
  meta: ProjectMeta
  objects: SceneObject[]
  tracks: Track[]
  meshes: MeshInfo[]
}
