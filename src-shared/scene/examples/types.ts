// What an example scene is: a complete scene document plus the triangles of the meshes it
// references (doc.meshes holds only their info, as a project file does), so a caller can
// write both into a new project (src-main/store/exampleProject.ts) or bake it directly.
import type { SceneDocument } from '../types'

export interface ExampleMesh {
  id: string
  name: string
  /** xyz per vertex, in the mesh's own (untransformed) space. */
  positions: Float32Array
  /** Three vertex indices per triangle. */
  indices: Uint32Array
}

export interface ExampleScene {
  doc: SceneDocument
  meshes: ExampleMesh[]
}

export interface ExampleOptions {
  /**
   * Grid cells along the longest side of every domain (default: the example's own choice,
   * sized to bake on a laptop in minutes). Tests and benchmarks override it.
   */
  resolution?: number
}

export interface ExampleEntry {
  id: string
  title: string
  /** One line for a menu or `eddy example` with an unknown name. */
  description: string
  build(options?: ExampleOptions): ExampleScene
}
